/**
 * The limits every PDF read obeys (docs/reliability.md, "PDF limits"). Every count or size a file states
 * (xref sizes, /W, /Index, object-stream /N and /First, /Length, /Prev chains, tree sizes) is checked
 * against these and against the file's real length before anything is allocated or looped over.
 *
 * A file over a limit is refused with PdfLimitError (HTTP 400, code PDF_LIMIT): it is final, no other
 * reader gets a second try at it. Honest invoices sit far below every value here (a Factur-X PDF has
 * tens to a few thousand objects, one name-tree level, an XML of kilobytes to a few megabytes).
 */

/** Decoded bytes of one stream: an invoice XML is far smaller; a "zip bomb" attachment is refused. */
export const MAX_DECODED_BYTES = 64 * 1024 * 1024;
/** Decoded bytes of all streams one request decodes together (attachments, XMP, object and xref streams). */
export const MAX_DECODED_BYTES_PER_REQUEST = 128 * 1024 * 1024;
/** Decoded bytes of one xref or object stream (structure, decoded on the request's thread: kept small). */
export const MAX_STRUCTURE_STREAM_BYTES = 8 * 1024 * 1024;
/** Decoded bytes of all xref and object streams of one request. */
export const MAX_STRUCTURE_BYTES_PER_REQUEST = 32 * 1024 * 1024;
/** Decoded bytes of the XMP metadata packet. */
export const MAX_XMP_BYTES = 4 * 1024 * 1024;
/** Cross-reference entries of a file, in all sections together (and never more than the file has bytes). */
export const MAX_XREF_ENTRIES = 1_000_000;
/** Sections in a /Prev (and /XRefStm) chain. */
export const MAX_XREF_SECTIONS = 64;
/** Objects in one object stream (/N; also at most /First / 4: each index pair takes at least 4 bytes). */
export const MAX_OBJSTM_OBJECTS = 100_000;
/** Objects the lazy reader resolves for one request (the attachments and their path from the trailer). */
export const MAX_RESOLVED_OBJECTS = 10_000;
/** Nesting of arrays and dictionaries inside one object. */
export const MAX_NESTING = 100;
/** Levels of the /EmbeddedFiles name tree (honest trees have one or two). */
export const MAX_NAME_TREE_DEPTH = 32;
/** Nodes of the /EmbeddedFiles name tree, and attachments listed. */
export const MAX_NAME_TREE_NODES = 10_000;
/** Levels of the page tree. */
export const MAX_PAGE_TREE_DEPTH = 64;
/** Nodes (pages and intermediate nodes) of the page tree. */
export const MAX_PAGE_TREE_NODES = 200_000;
/** Indirect objects the raw scan (gate and recovery) indexes. */
export const MAX_SCANNED_OBJECTS = 1_000_000;

/** The file states a count or size beyond a limit: refused, in user terms, without a fallback. */
export class PdfLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfLimitError';
  }
}

/** Decoded bytes still allowed for one request; every decoder charges it before it returns. */
export class DecodeBudget {
  private left: number;
  private structureLeft = MAX_STRUCTURE_BYTES_PER_REQUEST;
  constructor(readonly total = MAX_DECODED_BYTES_PER_REQUEST) {
    this.left = total;
  }
  /** The most one stream may decode to now. */
  get streamCap(): number {
    return Math.min(MAX_DECODED_BYTES, this.left);
  }
  /** The cap for a stream of this kind: structure (xref and object streams) and XMP get small ones. */
  capFor(kind: StreamKind): number {
    if (kind === 'structure') return Math.min(MAX_STRUCTURE_STREAM_BYTES, this.structureLeft, this.left);
    if (kind === 'xmp') return Math.min(MAX_XMP_BYTES, this.left);
    return this.streamCap;
  }
  charge(bytes: number, kind: StreamKind = 'file'): void {
    this.left -= bytes;
    if (this.left < 0) throw perRequestExceeded();
    if (kind === 'structure') {
      this.structureLeft -= bytes;
      if (this.structureLeft < 0)
        throw new PdfLimitError(
          `The PDF's cross-reference and object streams decode to more than ${MAX_STRUCTURE_BYTES_PER_REQUEST / 1024 / 1024} MiB`,
        );
    }
  }
}

/** What a stream is for: its cap depends on it. */
export type StreamKind = 'file' | 'structure' | 'xmp';

export function streamTooLarge(cap: number): PdfLimitError {
  return new PdfLimitError(
    `A stream in the PDF decodes to more than ${+(cap / 1024 / 1024).toFixed(2)} MiB (the limit for it in this request)`,
  );
}

function perRequestExceeded(): PdfLimitError {
  return new PdfLimitError(
    `The PDF's streams decode to more than ${MAX_DECODED_BYTES_PER_REQUEST / 1024 / 1024} MiB together (the limit per request)`,
  );
}
