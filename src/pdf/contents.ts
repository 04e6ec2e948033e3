/**
 * What reading a PDF yields, whichever tier read it (extract.ts: the lazy reader; full-read.ts: the full parser in
 * the PDF worker; recover.ts: the raw scan), and the helpers the three tiers share: the attachment list, its
 * decoding through the capped filters, and the errors in the callers' terms. Below the tiers, so that none of
 * them imports another to reach these.
 */
import type { XmpInfo } from './xmp.js';
import type { EncryptionInfo } from './crypt.js';
import { decodeStreamData, decodeStreamDataAsync, LazyPdfError } from './lazy.js';
import { type DecodeBudget, PdfLimitError } from './limits.js';
import type { PdfStreamValue } from './values.js';

/** The PDF cannot be used: encrypted, not readable as a PDF at all, or over a limit (docs/reliability.md). */
export class PdfReadError extends Error {
  constructor(
    readonly code: 'PDF_ENCRYPTED' | 'PDF_UNREADABLE' | 'PDF_LIMIT',
    message: string,
  ) {
    super(message);
    this.name = 'PdfReadError';
  }
}

export interface PdfAttachment {
  /** Key in the name tree, else the file specification's /UF or /F. */
  name: string;
  /** /UF (Unicode file name) or /F of the file specification. */
  filename: string;
  /** /Subtype of the embedded file stream, e.g. "text/xml" (the name's #2F decoded). */
  mimeType?: string;
  /** /AFRelationship of the file specification, e.g. "Alternative", "Data", "Source". */
  afRelationship?: string;
  description?: string;
  /** Listed in the /EmbeddedFiles name tree. */
  inNameTree: boolean;
  /** Listed in the catalog's /AF array. */
  inAssociatedFiles: boolean;
  /** The decoded file content (filters applied). Throws PdfReadError when a filter cannot be decoded. */
  content(): Uint8Array;
  /** The same, decoded off the event loop where possible (Flate in zlib's thread pool); content() then returns it at once. */
  load?(): Promise<Uint8Array>;
}

/** An attachment's content, decoded off the event loop when the reader can. */
export async function loadContent(a: PdfAttachment): Promise<Uint8Array> {
  return a.load ? a.load() : a.content();
}

export interface PdfContents {
  attachments: PdfAttachment[];
  /** The catalog's XMP metadata, when present and well-formed (may be computed on first access). */
  readonly xmp?: XmpInfo;
  /** True when the PDF could only be read by scanning raw objects (the structured parse failed). */
  recovered: boolean;
  /** The PDF was encrypted (with an empty user password) and has been read decrypted. */
  readonly encryption?: EncryptionInfo;
}

export function isPdf(bytes: Uint8Array): boolean {
  // The header may be preceded by junk; readers accept it within the first 1024 bytes.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

/** A limit error of any reader as the PdfReadError the callers answer (400 PDF_LIMIT). */
export function limitError(err: PdfLimitError): PdfReadError {
  return new PdfReadError('PDF_LIMIT', `The PDF exceeds a processing limit: ${err.message}`);
}

/** Decode an attachment's stream; failures in user terms (a limit stays PDF_LIMIT). */
export function decodeAttachment(stream: PdfStreamValue, budget: DecodeBudget, lenientFlate = false): Uint8Array {
  try {
    return decodeStreamData(stream, budget, { lenientFlate });
  } catch (err) {
    throw attachmentError(err);
  }
}

function attachmentError(err: unknown): PdfReadError {
  if (err instanceof PdfLimitError) return limitError(err);
  if (err instanceof LazyPdfError) return new PdfReadError('PDF_UNREADABLE', `An embedded file could not be decoded: ${err.message}`);
  return new PdfReadError('PDF_UNREADABLE', 'An embedded file could not be decoded');
}

/**
 * content() and load() of an attachment over one stream: decoded once, by whichever is called first
 * (load() inflates in zlib's thread pool; content() on the calling thread).
 */
export function attachmentContent(
  stream: PdfStreamValue,
  budget: DecodeBudget,
  lenientFlate = false,
): Pick<PdfAttachment, 'content' | 'load'> {
  let cached: Uint8Array | undefined;
  let failed: PdfReadError | undefined;
  return {
    content() {
      if (failed) throw failed;
      try {
        cached ??= decodeAttachment(stream, budget, lenientFlate);
      } catch (err) {
        failed = err as PdfReadError;
        throw err;
      }
      return cached;
    },
    async load() {
      if (failed) throw failed;
      if (cached) return cached;
      try {
        cached = await decodeStreamDataAsync(stream, budget, { lenientFlate });
      } catch (err) {
        failed = attachmentError(err);
        throw failed;
      }
      return cached;
    },
  };
}

export function encryptedError(why?: string): PdfReadError {
  return new PdfReadError(
    'PDF_ENCRYPTED',
    why
      ? `The PDF is encrypted and cannot be read: ${why}. Remove the encryption and send it again`
      : 'The PDF is encrypted and cannot be read (only PDFs with an empty user password are read); invoice PDFs (PDF/A-3) must not be encrypted',
  );
}

export function hasEmbeddedFileStreams(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).includes('/EmbeddedFile', 0, 'latin1');
}

/** The bytes declare an /Encrypt dictionary (the full parser does not decrypt). */
export function looksEncrypted(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  return /\/Encrypt\s*\d+\s+\d+\s+R/.test(text) || /\/Encrypt\s*<</.test(text);
}

/** A parser's failure in user terms: our own readers' messages are, a library's may not be. */
export function userReason(cause: Error): string {
  return cause instanceof PdfReadError || cause instanceof LazyPdfError ? cause.message : 'its structure is damaged';
}
