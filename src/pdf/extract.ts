/**
 * Finding the invoice XML inside a PDF (Factur-X, ZUGFeRD 1/2, XRechnung-in-PDF), in three tiers:
 *
 * 1. ./lazy.ts follows the cross-reference chain and parses only the objects between the trailer and the
 *    attachments (~0.5 ms CPU for a 95 KB invoice, against ~1.7 ms for a full parse, on a loaded machine).
 *    It matched the full parser's attachment list on every corpus PDF, and is strict: anything odd → tier 2.
 * 2. @cantoo/pdf-lib parses every object in file order (object streams included), so incremental
 *    updates resolve to the newest object and a broken cross-reference table does not matter; it opened
 *    every corpus PDF but one encrypted veraPDF file. (Its Flate decoder dropped the last byte of one
 *    843 KB embedded PDF; zlib and pdfjs-dist agree with tier 1 there.)
 * 3. When that fails too, or reaches no attachment (e.g. a truncated file), a raw scan of the bytes for
 *    embedded-file streams.
 *
 * pdfjs-dist (dev dependency) serves as the independent reader in tests only: it is 41 MB, reads only
 * the name tree (no /AF, no AFRelationship) and detaches the caller's buffer.
 *
 * Attachments are looked up in both places a PDF can list them: the /Names /EmbeddedFiles name tree
 * (with /Kids) and the catalog's /AF array (PDF/A-3 associated files).
 */
import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { readXmp, type XmpInfo } from './xmp.js';
import { decodeStreamData, isDict, isStream, LazyPdf, MAX_DECODED_BYTES, nameOf, textOfString, type PdfDictValue, type PdfValue } from './lazy.js';

/** The PDF cannot be used: encrypted, or not readable as a PDF at all. */
export class PdfReadError extends Error {
  constructor(
    readonly code: 'PDF_ENCRYPTED' | 'PDF_UNREADABLE',
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
}

export interface PdfContents {
  attachments: PdfAttachment[];
  /** The catalog's XMP metadata, when present and well-formed (may be computed on first access). */
  readonly xmp?: XmpInfo;
  /** True when the PDF could only be read by scanning raw objects (the structured parse failed). */
  recovered: boolean;
}

export function isPdf(bytes: Uint8Array): boolean {
  // The header may be preceded by junk; readers accept it within the first 1024 bytes.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

/** Open a PDF and list its embedded files and XMP. Throws PdfReadError for encrypted or unreadable files. */
export async function readPdf(bytes: Uint8Array): Promise<PdfContents> {
  // Fast path: follow the xref chain to the attachments only. Whenever it is unsure, the full parse decides.
  const fast = readPdfLazily(bytes);
  if (fast && fast.attachments.length > 0) return fast;
  // Nothing attached and no embedded-file stream anywhere in the bytes (stream dictionaries are never
  // inside object streams): the full parse would find nothing either, so skip it.
  if (fast && !hasEmbeddedFileStreams(bytes)) return fast;
  // The full parser (@cantoo/pdf-lib, ~400 modules) loads on first need only: most PDFs never need it.
  return (await import('./extract-full.js')).readPdfFully(bytes);
}

/**
 * What the lazy reader found. XMP is parsed on first use only: most requests never need it (the attachment
 * name decides the format). A class, so the getter lives on the prototype: an object literal with its own
 * getter closure gets a hidden class of its own in the old generation, which kept each request's data
 * alive through young-generation GCs.
 */
class LazyContents implements PdfContents {
  readonly recovered = false;
  private xmpRead = false;
  private xmpValue: XmpInfo | undefined;

  constructor(
    readonly attachments: PdfContents['attachments'],
    private readonly meta: PdfValue | undefined,
  ) {}

  get xmp(): XmpInfo | undefined {
    if (!this.xmpRead) {
      this.xmpRead = true;
      try {
        this.xmpValue = isStream(this.meta) ? readXmp(decodeStreamData(this.meta)) : undefined;
      } catch {
        this.xmpValue = undefined;
      }
    }
    return this.xmpValue;
  }
}

/** The lazy reader's view of the same structures; undefined when the file is anything but straightforward. */
export function readPdfLazily(bytes: Uint8Array): PdfContents | undefined {
  try {
    const pdf = new LazyPdf(bytes);
    const catalog = pdf.resolve(pdf.trailer.map.get('Root'));
    if (!isDict(catalog)) return undefined;
    const out: PdfAttachment[] = [];
    const seen = new Map<PdfDictValue, PdfAttachment>();
    const add = (specValue: PdfValue, key: string | undefined, from: 'tree' | 'af'): void => {
      const spec = pdf.resolve(specValue);
      if (!isDict(spec)) return;
      const existing = seen.get(spec);
      if (existing) {
        if (from === 'tree') existing.inNameTree = true;
        else existing.inAssociatedFiles = true;
        return;
      }
      const ef = pdf.resolve(spec.map.get('EF'));
      if (!isDict(ef)) return;
      const stream = pdf.resolve(ef.map.get('UF') ?? ef.map.get('F'));
      if (!isStream(stream)) return;
      const filename = textOfString(pdf.resolve(spec.map.get('UF'))) ?? textOfString(pdf.resolve(spec.map.get('F'))) ?? key ?? '';
      let cached: Uint8Array | undefined;
      const att: PdfAttachment = {
        name: key ?? filename,
        filename,
        mimeType: nameOf(pdf.resolve(stream.dict.map.get('Subtype'))),
        afRelationship: nameOf(pdf.resolve(spec.map.get('AFRelationship'))),
        description: textOfString(pdf.resolve(spec.map.get('Desc'))),
        inNameTree: from === 'tree',
        inAssociatedFiles: from === 'af',
        content() {
          try {
            cached ??= decodeStreamData(stream);
          } catch (err) {
            throw new PdfReadError('PDF_UNREADABLE', `An embedded file could not be decoded: ${(err as Error).message}`);
          }
          return cached;
        },
      };
      seen.set(spec, att);
      out.push(att);
    };
    const walk = (nodeValue: PdfValue, depth: number, visited: Set<PdfDictValue>): void => {
      const node = pdf.resolve(nodeValue);
      if (!isDict(node) || visited.has(node) || depth > 32) return;
      visited.add(node);
      const names = pdf.resolve(node.map.get('Names'));
      if (Array.isArray(names)) {
        for (let i = 0; i + 1 < names.length; i += 2) add(names[i + 1], textOfString(pdf.resolve(names[i])), 'tree');
      }
      const kids = pdf.resolve(node.map.get('Kids'));
      if (Array.isArray(kids)) for (const kid of kids) walk(kid, depth + 1, visited);
    };
    const namesDict = pdf.resolve(catalog.map.get('Names'));
    if (isDict(namesDict)) walk(namesDict.map.get('EmbeddedFiles') ?? null, 0, new Set());
    const af = pdf.resolve(catalog.map.get('AF'));
    if (Array.isArray(af)) for (const spec of af) add(spec, undefined, 'af');

    return new LazyContents(out, pdf.resolve(catalog.map.get('Metadata')));
  } catch {
    return undefined; // not straightforward: the full parser decides
  }
}

/** @internal shared with extract-full.ts */
export function encryptedError(): PdfReadError {
  return new PdfReadError('PDF_ENCRYPTED', 'The PDF is encrypted; invoice PDFs (PDF/A-3) must not be encrypted');
}

export const INVOICE_FILE_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'ZUGFeRD-invoice.xml'] as const;

const INVOICE_ROOT_HINT = /CrossIndustryInvoice|CrossIndustryDocument|ubl:schema:xsd:(Invoice|CreditNote)-2/;

/**
 * The attachment that carries the invoice: a standard name (exact, then case-insensitive), else an XML
 * attachment whose root is a CII/UBL invoice (associated-file relationship Alternative/Data first).
 */
export function findInvoiceAttachment(attachments: PdfAttachment[]): PdfAttachment | undefined {
  const byName = (a: PdfAttachment): string[] => [a.name, a.filename];
  for (const wanted of INVOICE_FILE_NAMES) {
    const hit = attachments.find((a) => byName(a).includes(wanted));
    if (hit) return hit;
  }
  for (const wanted of INVOICE_FILE_NAMES) {
    const lower = wanted.toLowerCase();
    const hit = attachments.find((a) => byName(a).some((n) => n.toLowerCase() === lower));
    if (hit) return hit;
  }
  const rank = (a: PdfAttachment): number => (a.afRelationship === 'Alternative' ? 0 : a.afRelationship === 'Data' ? 1 : 2);
  const candidates = attachments
    .filter((a) => /\.xml$/i.test(a.filename) || /xml/i.test(a.mimeType ?? ''))
    .sort((a, b) => rank(a) - rank(b));
  for (const a of candidates) {
    try {
      const head = Buffer.from(a.content().subarray(0, 4096)).toString('latin1');
      if (INVOICE_ROOT_HINT.test(head)) return a;
    } catch {
      // an undecodable candidate is simply not the invoice
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Fallback for files the structured parser cannot open: scan "n g obj … stream … endstream".

/** @internal shared with extract-full.ts */
export function hasEmbeddedFileStreams(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).includes('/EmbeddedFile', 0, 'latin1');
}

/** @internal shared with extract-full.ts */
export function looksEncrypted(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  return /\/Encrypt\s*\d+\s+\d+\s+R/.test(text) || /\/Encrypt\s*<</.test(text);
}

const OBJ_RE = /(\d+)\s+(\d+)\s+obj\b/g;

/** @internal shared with extract-full.ts */
export function recoverByScanning(bytes: Uint8Array, cause: Error): PdfContents {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  if (!isPdf(bytes)) throw new PdfReadError('PDF_UNREADABLE', 'The file is not a PDF');
  // Last definition wins, as with incremental updates.
  const objects = new Map<string, { dict: string; streamStart?: number; streamEnd?: number }>();
  for (const m of text.matchAll(OBJ_RE)) {
    const start = m.index! + m[0].length;
    const endObj = text.indexOf('endobj', start);
    const streamKw = text.indexOf('stream', start);
    const hasStream = streamKw >= 0 && (endObj < 0 || streamKw < endObj);
    const dict = text.slice(start, hasStream ? streamKw : endObj < 0 ? Math.min(text.length, start + 4096) : endObj);
    let streamStart: number | undefined;
    let streamEnd: number | undefined;
    if (hasStream) {
      streamStart = streamKw + 6;
      if (text[streamStart] === '\r') streamStart++;
      if (text[streamStart] === '\n') streamStart++;
      const e = text.indexOf('endstream', streamStart);
      streamEnd = e < 0 ? text.length : e;
    }
    objects.set(`${m[1]} ${m[2]}`, { dict, streamStart, streamEnd });
  }
  const attachments: PdfAttachment[] = [];
  for (const [, obj] of objects) {
    const ef = /\/EF\s*<<[^>]*?\/(?:UF|F)\s+(\d+)\s+(\d+)\s+R/.exec(obj.dict);
    if (!ef) continue;
    const target = objects.get(`${ef[1]} ${ef[2]}`);
    if (!target || target.streamStart === undefined) continue;
    const filename = literalString(/\/UF\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)/.exec(obj.dict)?.[1])
      ?? literalString(/\/F\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)/.exec(obj.dict)?.[1])
      ?? '';
    const raw = bytes.subarray(target.streamStart, target.streamEnd);
    const flate = /\/FlateDecode/.test(target.dict);
    const other = /\/Filter/.test(target.dict) && !flate;
    if (other) continue; // only Flate (what every producer uses for attachments) is recovered here
    let cached: Uint8Array | undefined;
    attachments.push({
      name: filename,
      filename,
      mimeType: /\/Subtype\s*\/([^\s/<>[\]]+)/.exec(target.dict)?.[1]?.replace(/#2F/gi, '/'),
      afRelationship: /\/AFRelationship\s*\/(\w+)/.exec(obj.dict)?.[1],
      inNameTree: false,
      inAssociatedFiles: false,
      content() {
        if (!cached) {
          try {
            cached = flate ? inflateSync(raw, { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength: MAX_DECODED_BYTES }) : raw;
          } catch (err) {
            throw new PdfReadError('PDF_UNREADABLE', `An embedded file could not be decoded: ${(err as Error).message}`);
          }
        }
        return cached;
      },
    });
  }
  if (attachments.length === 0 && objects.size === 0) {
    throw new PdfReadError('PDF_UNREADABLE', `The PDF could not be read: ${cause.message}`);
  }
  return { attachments, recovered: true };
}

/** Decode a PDF string token: (literal) with escapes, or <hex>; UTF-16BE when it starts with a BOM. */
function literalString(token: string | undefined): string | undefined {
  if (!token) return undefined;
  const bytes: number[] = [];
  if (token.startsWith('<')) {
    const hex = token.slice(1, -1).replace(/\s+/g, '');
    for (let i = 0; i + 1 < hex.length; i += 2) bytes.push(parseInt(hex.slice(i, i + 2), 16));
  } else {
    const body = token.slice(1, -1);
    for (let i = 0; i < body.length; i++) {
      const c = body[i];
      if (c !== '\\') {
        bytes.push(c.charCodeAt(0));
        continue;
      }
      const n = body[++i];
      const map: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
      if (n in map) bytes.push(map[n]);
      else if (/[0-7]/.test(n)) {
        const oct = /^[0-7]{1,3}/.exec(body.slice(i))![0];
        bytes.push(parseInt(oct, 8));
        i += oct.length - 1;
      }
    }
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(new Uint8Array(bytes.slice(2)));
  return String.fromCharCode(...bytes);
}
