/**
 * Finding the invoice XML inside a PDF (Factur-X, ZUGFeRD 1/2, XRechnung-in-PDF), in three tiers:
 *
 * 1. ./lazy.ts follows the cross-reference chain and parses only the objects between the trailer and the
 *    attachments (~0.5 ms CPU for a 95 KB invoice, against ~1.7 ms for a full parse, on a loaded machine).
 *    It matched the full parser's attachment list on every corpus PDF, and is strict: anything odd → tier 2.
 * 2. ./full-read.ts: @cantoo/pdf-lib parses every object in file order (object streams included), so incremental
 *    updates resolve to the newest object and a broken cross-reference table does not matter; it opened
 *    every corpus PDF but one encrypted veraPDF file. (Its Flate decoder dropped the last byte of one
 *    843 KB embedded PDF; zlib and pdfjs-dist agree with tier 1 there.)
 * 3. When that fails too, or reaches no attachment (e.g. a truncated file), a raw scan of the bytes for
 *    embedded-file streams (./recover.ts over ./scan.ts: one linear pass).
 *
 * What every tier answers (PdfContents, PdfAttachment, PdfReadError) is in ./contents.ts, below the tiers.
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
  attachmentContent,
  encryptedError,
  hasEmbeddedFileStreams,
  limitError,
  loadContent,
  PdfReadError,
  type PdfAttachment,
  type PdfContents,
} from './contents.js';
import { decodeStreamData, isDict, isStream, LazyPdf, nameOf, textOfString, type PdfDictValue, type PdfValue } from './lazy.js';
import { DecodeBudget, MAX_NAME_TREE_DEPTH, MAX_NAME_TREE_NODES, PdfLimitError } from './limits.js';

export { isPdf, loadContent, PdfReadError, type PdfAttachment, type PdfContents } from './contents.js';

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
