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
 *    embedded-file streams (./scan.ts: one linear pass).
 *
 * One set of limits (./limits.ts) holds on every tier: tier 1 is the gate (counts and sizes checked against
 * the file's length; a file over a limit is refused with PDF_LIMIT, final); tier 2 sees only files whose
 * xref and object streams the gate vetted, and runs in a worker thread with a heap cap and a deadline
 * (./pool.ts); every stream of every tier is decoded by ./filters.ts, capped per stream and per request.
 *
 * pdfjs-dist (dev dependency) serves as the independent reader in tests only: it is 41 MB, reads only
 * the name tree (no /AF, no AFRelationship) and detaches the caller's buffer.
 *
 * Attachments are looked up in both places a PDF can list them: the /Names /EmbeddedFiles name tree
 * (with /Kids) and the catalog's /AF array (PDF/A-3 associated files).
 */
import { readXmp, type XmpInfo } from './xmp.js';
import { type EncryptionInfo, PdfCryptError } from './crypt.js';
import {
  decodeStreamData,
  decodeStreamDataAsync,
  isDict,
  isStream,
  LazyPdf,
  LazyPdfError,
  nameOf,
  parseValueAt,
  textOfString,
  type PdfDictValue,
  type PdfStreamValue,
  type PdfValue,
} from './lazy.js';
import { DecodeBudget, MAX_NAME_TREE_DEPTH, MAX_NAME_TREE_NODES, PdfLimitError } from './limits.js';
import { firstAtLeast, positions, scanObjects, type ScannedObject } from './scan.js';

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

/** Open a PDF and list its embedded files and XMP. Throws PdfReadError for encrypted, unreadable or over-limit files. */
export async function readPdf(bytes: Uint8Array): Promise<PdfContents> {
  const budget = new DecodeBudget();
  // Fast path and gate: follow the xref chain to the attachments only. Whenever it is unsure, the full parse decides.
  const fast = readPdfLazily(bytes, budget);
  // An encrypted file is read by this tier only (the full parser does not decrypt): its answer is final.
  if (fast && (fast.attachments.length > 0 || fast.encryption)) return fast;
  // Nothing attached and no embedded-file stream anywhere in the bytes (stream dictionaries are never
  // inside object streams): the full parse would find nothing either, so skip it.
  if (fast && !hasEmbeddedFileStreams(bytes)) return fast;
  // The full parser (@cantoo/pdf-lib, ~400 modules) loads on first need only, in a worker: most PDFs never need it.
  return (await import('./full-read.js')).readPdfFully(bytes, budget);
}

/** A limit error of any reader as the PdfReadError the callers answer (400 PDF_LIMIT). */
export function limitError(err: PdfLimitError): PdfReadError {
  return new PdfReadError('PDF_LIMIT', `The PDF exceeds a processing limit: ${err.message}`);
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
    private readonly budget: DecodeBudget,
    readonly encryption?: EncryptionInfo,
  ) {}

  get xmp(): XmpInfo | undefined {
    if (!this.xmpRead) {
      this.xmpRead = true;
      try {
        this.xmpValue = isStream(this.meta) ? readXmp(decodeStreamData(this.meta, this.budget, { kind: 'xmp' })) : undefined;
      } catch {
        this.xmpValue = undefined;
      }
    }
    return this.xmpValue;
  }
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

/**
 * The lazy reader's view of the same structures; undefined when the file is anything but straightforward.
 * Throws PdfReadError when the file is encrypted or over a limit: those answers are final.
 */
export function readPdfLazily(bytes: Uint8Array, budget = new DecodeBudget()): PdfContents | undefined {
  try {
    const pdf = new LazyPdf(bytes, budget);
    let encryption: EncryptionInfo | undefined;
    if (pdf.encrypted) {
      try {
        encryption = pdf.unlock();
      } catch (err) {
        if (err instanceof PdfCryptError) throw encryptedError(err.message);
        throw err;
      }
    }
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
      if (out.length >= MAX_NAME_TREE_NODES)
        throw new PdfLimitError(`The PDF has more than ${MAX_NAME_TREE_NODES.toLocaleString('en')} attachments`);
      const filename = textOfString(pdf.resolve(spec.map.get('UF'))) ?? textOfString(pdf.resolve(spec.map.get('F'))) ?? key ?? '';
      const att: PdfAttachment = {
        name: key ?? filename,
        filename,
        mimeType: nameOf(pdf.resolve(stream.dict.map.get('Subtype'))),
        afRelationship: nameOf(pdf.resolve(spec.map.get('AFRelationship'))),
        description: textOfString(pdf.resolve(spec.map.get('Desc'))),
        inNameTree: from === 'tree',
        inAssociatedFiles: from === 'af',
        ...attachmentContent(stream, budget),
      };
      seen.set(spec, att);
      out.push(att);
    };
    const namesDict = pdf.resolve(catalog.map.get('Names'));
    if (isDict(namesDict)) {
      walkNameTree(
        namesDict.map.get('EmbeddedFiles') ?? null,
        (v) => pdf.resolve(v),
        (value, key) => add(value, textOfString(pdf.resolve(key)), 'tree'),
      );
    }
    const af = pdf.resolve(catalog.map.get('AF'));
    if (Array.isArray(af)) for (const spec of af) add(spec, undefined, 'af');

    return new LazyContents(out, pdf.resolve(catalog.map.get('Metadata')), budget, encryption);
  } catch (err) {
    if (err instanceof PdfReadError) throw err;
    if (err instanceof PdfLimitError) throw limitError(err);
    return undefined; // not straightforward: the full parser decides
  }
}

/**
 * Walk a name tree without recursion: depth, node count and cycles are bounded (a hostile tree was 50,000
 * levels of one kid each). `visit` gets each (key, value) pair of the /Names arrays in tree order.
 */
export function walkNameTree(root: PdfValue, resolve: (v: PdfValue) => PdfValue, visit: (value: PdfValue, key: PdfValue) => void): void {
  const visited = new Set<PdfDictValue>();
  const stack: { node: PdfValue; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node: nodeValue, depth } = stack.pop()!;
    const node = resolve(nodeValue);
    if (!isDict(node)) continue;
    if (visited.has(node)) throw new PdfLimitError("The PDF's attachment name tree contains a cycle");
    if (depth > MAX_NAME_TREE_DEPTH)
      throw new PdfLimitError(`The PDF's attachment name tree is more than ${MAX_NAME_TREE_DEPTH} levels deep`);
    visited.add(node);
    if (visited.size > MAX_NAME_TREE_NODES)
      throw new PdfLimitError(`The PDF's attachment name tree has more than ${MAX_NAME_TREE_NODES.toLocaleString('en')} nodes`);
    const names = resolve(node.map.get('Names') ?? null);
    if (Array.isArray(names)) {
      for (let i = 0; i + 1 < names.length; i += 2) visit(names[i + 1], names[i]);
    }
    const kids = resolve(node.map.get('Kids') ?? null);
    if (Array.isArray(kids)) {
      if (kids.length > MAX_NAME_TREE_NODES)
        throw new PdfLimitError(`The PDF's attachment name tree has more than ${MAX_NAME_TREE_NODES.toLocaleString('en')} nodes`);
      // Reversed onto the stack, so that kids are visited in order.
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], depth: depth + 1 });
    }
  }
}

/** @internal shared with extract-full.ts */
export function encryptedError(why?: string): PdfReadError {
  return new PdfReadError(
    'PDF_ENCRYPTED',
    why
      ? `The PDF is encrypted and cannot be read: ${why}. Remove the encryption and send it again`
      : 'The PDF is encrypted and cannot be read (only PDFs with an empty user password are read); invoice PDFs (PDF/A-3) must not be encrypted',
  );
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
      // an undecodable candidate (a bomb included: the cap stopped it) is simply not the invoice
    }
  }
  return undefined;
}

/** findInvoiceAttachment, decoding candidates off the event loop where possible (see PdfAttachment.load). */
export async function findInvoiceAttachmentAsync(attachments: PdfAttachment[]): Promise<PdfAttachment | undefined> {
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
      const head = Buffer.from((await loadContent(a)).subarray(0, 4096)).toString('latin1');
      if (INVOICE_ROOT_HINT.test(head)) return a;
    } catch {
      // an undecodable candidate (a bomb included: the cap stopped it) is simply not the invoice
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

/** Dictionary text of a scanned object is read no further than this (a dictionary is far shorter). */
const MAX_DICT_TEXT = 64 * 1024;

/**
 * @internal shared with extract-full.ts. The last resort: embedded-file streams found in the raw bytes.
 * Linear: one scan indexes every object (./scan.ts); each object's dictionary text is bounded; decoding
 * goes through the same capped filters and the same per-request budget as every other reader.
 */
export function recoverByScanning(bytes: Uint8Array, cause: Error, budget = new DecodeBudget(), scanned?: ScannedObject[]): PdfContents {
  if (!isPdf(bytes)) throw new PdfReadError('PDF_UNREADABLE', 'The file is not a PDF');
  let list: ScannedObject[];
  try {
    list = scanned ?? scanObjects(bytes);
  } catch (err) {
    if (err instanceof PdfLimitError) throw limitError(err);
    throw err;
  }
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  // Last definition wins, as with incremental updates.
  const key = (num: number, gen: number) => num * 100_000 + gen; // gen has at most 5 digits
  const objects = new Map<number, ScannedObject>();
  for (const o of list) objects.set(key(o.num, o.gen), o);
  const dictText = (o: ScannedObject) => buf.toString('latin1', o.start, Math.min(o.dictEnd, o.start + MAX_DICT_TEXT));
  const attachments: PdfAttachment[] = [];
  // Cheap test first (one more linear pass): most objects have no /EF, and their text need not be made.
  const efAt = positions(buf, '/EF');
  for (const [, obj] of objects) {
    const at = firstAtLeast(efAt, obj.start);
    if (at === undefined || at >= Math.min(obj.dictEnd, obj.start + MAX_DICT_TEXT)) continue;
    const dict = dictText(obj);
    const ef = /\/EF\s*<<[^>]*?\/(?:UF|F)\s+(\d{1,10})\s+(\d{1,5})\s+R/.exec(dict);
    if (!ef) continue;
    const target = objects.get(key(Number(ef[1]), Number(ef[2])));
    if (!target || target.streamStart === undefined || target.streamEnd === undefined) continue;
    if (attachments.length >= MAX_NAME_TREE_NODES)
      throw limitError(new PdfLimitError(`The PDF has more than ${MAX_NAME_TREE_NODES.toLocaleString('en')} attachments`));
    const filename =
      literalString(/\/UF\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)/.exec(dict)?.[1]) ??
      literalString(/\/F\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)/.exec(dict)?.[1]) ??
      '';
    const targetDict = parseValueAt(bytes, target.start, target.dictEnd);
    const targetText = dictText(target);
    const stream: PdfStreamValue = {
      kind: 'stream',
      dict: isDict(targetDict) ? targetDict : { kind: 'dict', map: new Map() },
      raw: bytes.subarray(target.streamStart, target.streamEnd),
    };
    attachments.push({
      name: filename,
      filename,
      mimeType: /\/Subtype\s*\/([^\s/<>[\]]+)/.exec(targetText)?.[1]?.replace(/#2F/gi, '/'),
      afRelationship: /\/AFRelationship\s*\/(\w+)/.exec(dict)?.[1],
      inNameTree: false,
      inAssociatedFiles: false,
      // Lenient Flate: a recovered stream may run past its real end up to "endstream".
      ...attachmentContent(stream, budget, true),
    });
  }
  if (attachments.length === 0 && objects.size === 0) {
    throw new PdfReadError('PDF_UNREADABLE', `The PDF could not be read: ${userReason(cause)}`);
  }
  return { attachments, recovered: true };
}

/** A parser's failure in user terms: our own readers' messages are, a library's may not be. */
export function userReason(cause: Error): string {
  return cause instanceof PdfReadError || cause instanceof LazyPdfError ? cause.message : 'its structure is damaged';
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
        const oct = /^[0-7]{1,3}/.exec(body.slice(i, i + 3))![0];
        bytes.push(parseInt(oct, 8));
        i += oct.length - 1;
      }
    }
  }
  const arr = Uint8Array.from(bytes);
  if (arr[0] === 0xfe && arr[1] === 0xff) return new TextDecoder('utf-16be').decode(arr.subarray(2));
  // Not String.fromCharCode(...bytes): a long name overflowed the stack with one argument per byte.
  return Buffer.from(arr).toString('latin1');
}
