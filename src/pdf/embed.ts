/**
 * Making a hybrid invoice: a PDF plus invoice XML → one PDF with the XML embedded the way Factur-X 1.08 /
 * ZUGFeRD 2.4 / XRechnung prescribe (see ../shared/docs/pdfa.md §b).
 *
 * Division of labour:
 * - @cantoo/pdf-lib's convertToPDFA writes what it does right: the pdfaid/dc/xmp/pdf XMP kept equal to the
 *   Info dictionary on save, and the PDF 1.7 header; we hand it the fx: properties and their extension
 *   schema, and a clean packet of what can be carried over from the input's XMP (its own carry-over breaks
 *   on nested rdf:Description). The sRGB ICC profile is the one the library bundles (a maintained
 *   dependency); the OutputIntent around it and the trailer /ID are set here (see completeOutputIntent, setFileId).
 * - The attachment is written here, not with doc.attach(): the library writes the name-tree key as
 *   UTF-16, no /EF /UF, no checksum, and leaves /Kids name trees without the entry.
 * - After saving, the result is read back with our own reader (src/pdf/extract.ts) and checked: the
 *   attachment is reachable from the name tree and /AF with the right relationship and identical bytes,
 *   and the XMP declares PDF/A-3 and the right fx: values. A failed check throws instead of answering.
 *
 * The page tree and content streams are carried over as they are; form appearances are not regenerated.
 */
import { createHash } from 'node:crypto';
import {
  decodePDFRawStream,
  getDefaultSRGBProfile,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFInvalidObject,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFString,
  type PDFAConformanceLevel,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { DEFAULT_PRODUCER, EmbedError, type EmbedOptions, type EmbedResult, type HybridFlavour } from './container.js';
import { INVOICE_FILE_NAMES, isPdf, readPdf } from './extract.js';
import { readXmp } from './xmp.js';
import { textOfString } from './lazy.js';
import { MAX_NAME_TREE_DEPTH, MAX_NAME_TREE_NODES, MAX_PAGE_TREE_DEPTH, MAX_PAGE_TREE_NODES, PdfLimitError } from './limits.js';
import { carryOverPacket, carryOverXmp, extensionSchemaBlock, fxDescription } from './xmp-write.js';
import { repairForPdfa } from './repair/index.js';
import { decodedBytes } from './repair/walk.js';
import { PDFA_TIME_BUDGET_MS } from '../pdfa/layer.js';

// The container vocabulary lives in hybrid.ts (no PDF library), so routes can load this module lazily.
export { DEFAULT_PRODUCER, EmbedError, HYBRID_FORMATS, hybridFlavour } from './container.js';
export type { EmbedOptions, EmbedResult, HybridFlavour, HybridFormat } from './container.js';

/**
 * The PDF worker's entry (./pool.ts): embed, and answer as data. Any failure of the library on the input
 * (a stack overflow on a deep structure, a broken object) is an unusable PDF in user terms, never its text.
 */
export async function embedInWorker(
  pdfBytes: Uint8Array,
  opts: EmbedOptions,
): Promise<{ embedded: EmbedResult } | { embedError: { code: string; message: string } }> {
  try {
    return { embedded: await embedInvoiceXml(pdfBytes, opts) };
  } catch (err) {
    if (err instanceof EmbedError) return { embedError: { code: err.code, message: err.message } };
    if (err instanceof PdfLimitError)
      return { embedError: { code: 'PDF_LIMIT', message: `The PDF exceeds a processing limit: ${err.message}` } };
    return { embedError: { code: 'PDF_UNREADABLE', message: 'The PDF could not be read: its structure is damaged' } };
  }
}

/** Embed invoice XML into a PDF (on the calling thread: the routes go through hybrid.ts and the PDF worker). Throws EmbedError for input that cannot be used. */
export async function embedInvoiceXml(pdfBytes: Uint8Array, opts: EmbedOptions): Promise<EmbedResult> {
  const { doc, decrypted } = await loadPdf(pdfBytes);
  // The checker reads files in clear: a decrypted input is checked as written without its encryption.
  const checked = decrypted ? await doc.save({ addDefaultPage: false, updateFieldAppearances: false, useObjectStreams: false }) : pdfBytes;
  rebuildInfo(doc);
  // The output intent first: the repairs judge device colours against the intent the written file will have.
  completeOutputIntent(doc);
  // PDF/A repairs (src/pdf/repair): the input checked once as PDF/A-3, and what its findings call for mended here.
  const repairs = await repairForPdfa(doc, checked, { timeBudgetMs: PDFA_TIME_BUDGET_MS });
  if (decrypted) repairs.repaired.unshift('decryption');
  // Dates have second precision in both Info and XMP; drop milliseconds so the two stay equal.
  const now = new Date(Math.floor((opts.now ?? new Date()).getTime() / 1000) * 1000);
  const { flavour } = opts;

  const removeNames = new Set<string>([flavour.fileName, ...(opts.replaceInvoiceAttachments ? INVOICE_FILE_NAMES : [])]);
  removeAttachments(doc, removeNames);

  updateInfo(doc, opts, now);

  // The input's XMP: its PDF/A level is kept, and the blocks that can travel are handed to the library in a
  // clean packet (see carryOverXmp); everything else about dc/xmp/pdf is rebuilt from the Info dictionary.
  const existingXmp = readCatalogXmpText(doc);
  const conformance = targetConformance(existingXmp);
  const carried = existingXmp ? carryOverXmp(existingXmp) : { blocks: [] };
  writeCatalogXmp(doc, carryOverPacket(3, conformance.slice(1), carried.blocks));
  const extensions = [
    fxDescription({
      documentType: 'INVOICE',
      documentFileName: flavour.fileName,
      version: flavour.version,
      conformanceLevel: flavour.conformanceLevel,
    }),
    extensionSchemaBlock(carried.extension),
  ];
  doc.convertToPDFA({ conformance, extensions });
  completeOutputIntent(doc);
  setFileId(doc, pdfBytes, opts.xml, now);

  attachXml(doc, opts.xml, flavour, now);

  const pdf = await doc.save({ addDefaultPage: false, updateFieldAppearances: false, useObjectStreams: true });
  await selfCheck(pdf, opts.xml, flavour);
  return {
    pdf,
    pdfa: { part: 3, conformance: conformance.slice(1) },
    pageCount: doc.getPageCount(),
    repairs: {
      repaired: repairs.repaired,
      runs: repairs.runs,
      unrepaired: repairs.unrepaired.slice(0, MAX_UNREPAIRED_REPORTED),
      inputCheckMs: repairs.inputCheck.ms,
      inputFindings: repairs.inputCheck.findings,
    },
  };
}

/** Notes of repairs that could not (fully) repair what they saw, carried with the result; the rest are counted. */
const MAX_UNREPAIRED_REPORTED = 50;

async function loadPdf(bytes: Uint8Array): Promise<{ doc: PDFDocument; decrypted: boolean }> {
  if (!isPdf(bytes)) throw new EmbedError('NOT_PDF', 'The uploaded file is not a PDF');
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, parseSpeed: Infinity });
  } catch (err) {
    throw new EmbedError('PDF_UNREADABLE', 'The PDF could not be read: its structure is damaged');
  }
  let decrypted = false;
  if (doc.isEncrypted) {
    // PDF/A forbids encryption (6.1.3-2): a file that opens with the empty user password is decrypted and written
    // in clear; one that needs a password cannot be used.
    for (const attempt of [bytes, withEmptyFileId(bytes)]) {
      if (!attempt || decrypted) continue;
      try {
        doc = await PDFDocument.load(attempt, { password: '', updateMetadata: false, parseSpeed: Infinity });
        decrypted = !doc.isEncrypted;
      } catch {
        decrypted = false;
      }
    }
    if (!decrypted)
      throw new EmbedError(
        'PDF_ENCRYPTED',
        'The PDF is encrypted and its encryption could not be removed here; a PDF/A-3 invoice cannot be encrypted. Remove the encryption (and any password) and send it again',
      );
  }
  dropStaleStructure(doc, decrypted);
  checkPageTree(doc);
  return { doc, decrypted };
}

/**
 * An encrypted file without a trailer /ID (Prawn writes them so): the standard security handler then derives its key
 * from an empty first identifier, which the library does not do (it fails on the missing array). The same file with
 * an empty incremental update whose trailer says /ID [<><>], or undefined when its last trailer is not a classic one.
 */
function withEmptyFileId(bytes: Uint8Array): Uint8Array | undefined {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 4096))).toString('latin1');
  const at = tail.lastIndexOf('trailer');
  const m = at < 0 ? null : /^trailer\s*<<([\s\S]*)>>\s*startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail.slice(at));
  if (!m || /\/ID\b/.test(m[1]) || !/\/Encrypt\b/.test(m[1])) return undefined;
  const trailer = m[1].replace(/\/Prev\s+\d+/, '');
  const update = Buffer.from(
    `\nxref\n0 0\ntrailer\n<<${trailer}/ID[<><>]/Prev ${m[2]}>>\nstartxref\n${bytes.length + 1}\n%%EOF\n`,
    'latin1',
  );
  return Buffer.concat([bytes, update]);
}

/**
 * The library keeps the input's cross-reference and object streams as ordinary objects and writes them again,
 * unreferenced, beside its own: an old xref stream carried the input's /Encrypt (and /Prev) into a file written in
 * clear, where the checker reads it as a trailer (6.1.3-2). They go, and so does the /Encrypt dictionary of a
 * decrypted input.
 */
function dropStaleStructure(doc: PDFDocument, decrypted: boolean): void {
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    if (obj instanceof PDFInvalidObject) {
      // What the parser could not read is written back byte for byte; a cross-reference stream among it goes.
      const bytes = new Uint8Array(obj.sizeInBytes());
      obj.copyBytesInto(bytes, 0);
      const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
      if (/\/Type\s*\/(XRef|ObjStm)\b/.test(head)) doc.context.delete(ref);
      continue;
    }
    const dict = obj instanceof PDFRawStream ? obj.dict : obj instanceof PDFDict ? obj : undefined;
    if (!dict) continue;
    const type = dict.get(PDFName.of('Type'));
    const stale =
      (obj instanceof PDFRawStream && (type === PDFName.of('XRef') || type === PDFName.of('ObjStm'))) ||
      (decrypted && dict.get(PDFName.of('Filter')) === PDFName.of('Standard') && dict.has(PDFName.of('O')) && dict.has(PDFName.of('U')));
    if (stale) doc.context.delete(ref);
  }
}

/**
 * The page tree, walked without recursion before the library walks it (its getPageCount recursed
 * forever on a self-referencing tree, and failed with a 500 on a missing /Pages or /Kids): it must exist,
 * have /Kids, no cycles, a bounded depth and size, and at least one page.
 */
function checkPageTree(doc: PDFDocument): void {
  const unreadable = (why: string) => new EmbedError('PDF_UNREADABLE', `The PDF's page tree is unusable: ${why}`);
  const root = doc.catalog.lookup(PDFName.of('Pages'));
  if (!(root instanceof PDFDict)) throw unreadable('the catalog has no /Pages');
  const seen = new Set<PDFDict>();
  const stack: { node: PDFDict; depth: number }[] = [{ node: root, depth: 0 }];
  let pages = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (seen.has(node)) throw unreadable('it refers to itself');
    seen.add(node);
    if (depth > MAX_PAGE_TREE_DEPTH)
      throw new EmbedError(
        'PDF_LIMIT',
        `The PDF exceeds a processing limit: its page tree is more than ${MAX_PAGE_TREE_DEPTH} levels deep`,
      );
    if (seen.size > MAX_PAGE_TREE_NODES)
      throw new EmbedError(
        'PDF_LIMIT',
        `The PDF exceeds a processing limit: its page tree has more than ${MAX_PAGE_TREE_NODES.toLocaleString('en')} nodes`,
      );
    const kids = node.lookup(PDFName.of('Kids'));
    const type = node.lookup(PDFName.of('Type'));
    if (type === PDFName.of('Page') || (!(kids instanceof PDFArray) && node !== root && node.has(PDFName.of('MediaBox')))) {
      pages++;
      continue;
    }
    if (!(kids instanceof PDFArray)) throw unreadable(node === root ? 'the /Pages node has no /Kids' : 'a page-tree node has no /Kids');
    for (let i = kids.size() - 1; i >= 0; i--) {
      const kid = kids.lookup(i);
      if (!(kid instanceof PDFDict)) throw unreadable('a page-tree entry is not a dictionary');
      stack.push({ node: kid, depth: depth + 1 });
    }
  }
  if (pages === 0) throw new EmbedError('PDF_UNREADABLE', 'The PDF has no pages');
}

/** Longest Info text (in bytes) kept as it is; longer values are cut (the library decodes them with one call argument per character). */
const MAX_INFO_TEXT_BYTES = 8 * 1024;

/** Info entries kept from the input (the standard ones always; at most this many in all). */
const MAX_INFO_ENTRIES = 64;
const INFO_DATE_KEYS = new Set(['CreationDate', 'ModDate']);

/**
 * The Info dictionary written from scratch: the input's text entries decoded, stripped of what XML cannot carry
 * (the XMP packet is written from them: a title ending in U+0000 made it not well-formed, a 500) and cut when
 * over-long (the library decodes text with one call argument per character: a 200,000-character /Title overflowed
 * its stack); dates kept when they read as PDF dates, /Trapped when it is a name; anything else (numbers, arrays,
 * references to garbage, keys that are not plain names) left behind.
 */
function rebuildInfo(doc: PDFDocument): void {
  const ctx = doc.context;
  const old = ctx.lookup(ctx.trailerInfo.Info);
  const info = ctx.obj({});
  if (old instanceof PDFDict) {
    let kept = 0;
    for (const [key, raw] of old.entries()) {
      if (kept >= MAX_INFO_ENTRIES) break;
      const name = key.decodeText();
      if (!/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(name)) continue;
      const v = raw instanceof PDFRef ? ctx.lookup(raw) : raw;
      if (name === 'Trapped') {
        if (v instanceof PDFName && ['True', 'False', 'Unknown'].includes(v.decodeText())) {
          info.set(key, v);
          kept++;
        }
        continue;
      }
      if (!(v instanceof PDFString || v instanceof PDFHexString)) continue;
      const text = boundText(textOfString({ kind: 'string', bytes: v.asBytes() }) ?? '');
      if (!text) continue;
      if (INFO_DATE_KEYS.has(name)) {
        if (/^(D:)?\d{4}/.test(text) && safe(() => PDFString.of(text).decodeDate())) {
          info.set(key, PDFString.of(text));
          kept++;
        }
        continue;
      }
      info.set(key, /^[\x20-\x7e]*$/.test(text) && !/[()\\]/.test(text) ? PDFString.of(text) : PDFHexString.fromText(text));
      kept++;
    }
  }
  // The old dictionary is replaced in place (its strings must not stay behind as an orphan object: a 200,000-byte
  // title breaks 6.1.13), unless the reference is shared with a typed object (garbage pointing /Info at a page).
  const ref = ctx.trailerInfo.Info;
  if (ref instanceof PDFRef && old instanceof PDFDict && !old.has(PDFName.of('Type'))) ctx.assign(ref, info);
  else ctx.trailerInfo.Info = ctx.register(info);
}

/** A text cut to at most MAX_INFO_TEXT_BYTES / 2 characters (with an ellipsis), never splitting a surrogate pair. */
export function boundText(input: string): string {
  // Characters XML 1.0 cannot carry (C0 controls other than tab/LF/CR, U+FFFE/U+FFFF) are dropped: the title also
  // goes into the XMP packet, which a NUL in an invoice number made not well-formed (EMBED_CHECK_FAILED, a 500).
  const text = input.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
  const max = MAX_INFO_TEXT_BYTES / 2 - 1;
  if (text.length <= max + 1) return text;
  let cut = text.slice(0, max);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

// ---------------------------------------------------------------------------------------------
// Metadata

function updateInfo(doc: PDFDocument, opts: EmbedOptions, now: Date): void {
  const producer = opts.producer ?? DEFAULT_PRODUCER;
  doc.setProducer(producer);
  doc.setModificationDate(now);
  if (!safe(() => doc.getCreationDate())) doc.setCreationDate(now);
  if (!safe(() => doc.getCreator())) doc.setCreator(producer);
  // A title made from a 200,000-character invoice number overflowed the library's stack: it is cut.
  if (opts.title && !safe(() => doc.getTitle())) doc.setTitle(boundText(opts.title));
}

function safe<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined; // an Info value of an unexpected type counts as absent
  }
}

function readCatalogXmpText(doc: PDFDocument): string | undefined {
  const meta = doc.catalog.lookup(PDFName.of('Metadata'));
  if (!(meta instanceof PDFRawStream)) return undefined;
  try {
    return new TextDecoder().decode(decodePDFRawStream(meta).decode());
  } catch {
    return undefined; // an undecodable packet is replaced like a missing one
  }
}

/** Replace the catalog's XMP stream (in place when it is indirect, so the old one is not left behind). */
function writeCatalogXmp(doc: PDFDocument, packet: string): void {
  const stream = doc.context.stream(new TextEncoder().encode(packet), { Type: 'Metadata', Subtype: 'XML' });
  const current = doc.catalog.get(PDFName.of('Metadata'));
  if (current instanceof PDFRef) doc.context.assign(current, stream);
  else doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
}

/**
 * Keep a PDF/A-3 declaration the input already has (3B or 3U); everything else is declared 3B.
 * A 3A input is declared 3B: the library cannot write level A, and level A implies B.
 */
function targetConformance(existingXmp: string | undefined): PDFAConformanceLevel {
  const info = existingXmp ? readXmp(new TextEncoder().encode(existingXmp)) : undefined;
  return info?.pdfaPart?.trim() === '3' && info.pdfaConformance?.trim().toUpperCase() === 'U' ? '3U' : '3B';
}

const SRGB_CONDITION = 'sRGB IEC61966-2.1';

/**
 * A PDF/A OutputIntent: an input's own GTS_PDFA1 intent stays (an sRGB one without /Info gets /Info and
 * /RegistryName, pdfa.md §b). Without one, a PDF/A intent is made from another intent of the input (e.g. PDF/X)
 * whose profile PDF/A can use, sharing that profile (6.2.3-2: all intents carry the same profile), so the colours
 * keep the meaning the producer gave them; otherwise the sRGB intent is added with the library's bundled ICC
 * profile, and intents whose profiles PDF/A cannot use are dropped (they would carry a second profile).
 * Called before the repairs (they judge device colours against this intent) and again after them (the
 * output-intents repair may have dropped an unusable PDF/A intent); convertToPDFA never installs its own here
 * (ours always declares pdfaid by then), so this is the one place that decides.
 */
function completeOutputIntent(doc: PDFDocument): void {
  const ctx = doc.context;
  const intents = doc.catalog.lookup(PDFName.of('OutputIntents'));
  if (intents instanceof PDFArray) {
    for (let i = 0; i < intents.size(); i++) {
      const intent = intents.lookup(i);
      if (!(intent instanceof PDFDict)) continue;
      if (intent.get(PDFName.of('S')) !== PDFName.of('GTS_PDFA1')) continue;
      const id = intent.lookup(PDFName.of('OutputConditionIdentifier'));
      if (id instanceof PDFString && id.decodeText() === SRGB_CONDITION && !intent.has(PDFName.of('Info'))) {
        intent.set(PDFName.of('Info'), PDFString.of(SRGB_CONDITION));
        intent.set(PDFName.of('RegistryName'), PDFString.of('http://www.color.org'));
      }
      return; // a PDF/A OutputIntent exists
    }
    // Another intent whose profile PDF/A accepts: the PDF/A intent shares it.
    for (let i = 0; i < intents.size(); i++) {
      const other = intents.lookup(i);
      const profile = other instanceof PDFDict ? other.get(PDFName.of('DestOutputProfile')) : undefined;
      if (!(other instanceof PDFDict) || !(profile instanceof PDFRef) || !usableOutputProfile(doc, profile)) continue;
      const pdfa = ctx.obj({});
      for (const [k, v] of other.entries()) if (k.decodeText() !== 'DestOutputProfileRef') pdfa.set(k, v);
      pdfa.set(PDFName.of('S'), PDFName.of('GTS_PDFA1'));
      if (!pdfa.has(PDFName.of('OutputConditionIdentifier'))) pdfa.set(PDFName.of('OutputConditionIdentifier'), PDFString.of('Custom'));
      intents.push(ctx.register(pdfa));
      // Every other profile-carrying intent must share that one profile too.
      for (let j = intents.size() - 2; j >= 0; j--) {
        const o = intents.lookup(j);
        const p = o instanceof PDFDict ? o.get(PDFName.of('DestOutputProfile')) : undefined;
        if (p !== undefined && !(p instanceof PDFRef && p.toString() === profile.toString())) intents.remove(j);
      }
      return;
    }
  }
  // No PDF/A OutputIntent yet: add the sRGB one; intents with another profile cannot stay beside it.
  if (intents instanceof PDFArray)
    for (let j = intents.size() - 1; j >= 0; j--) {
      const o = intents.lookup(j);
      if (!(o instanceof PDFDict) || o.has(PDFName.of('DestOutputProfile')) || o.has(PDFName.of('DestOutputProfileRef'))) intents.remove(j);
    }
  const profile = ctx.register(ctx.flateStream(getDefaultSRGBProfile(), { N: 3 }));
  const intent = ctx.register(
    ctx.obj({
      Type: 'OutputIntent',
      S: 'GTS_PDFA1',
      OutputConditionIdentifier: PDFString.of(SRGB_CONDITION),
      Info: PDFString.of(SRGB_CONDITION),
      RegistryName: PDFString.of('http://www.color.org'),
      DestOutputProfile: profile,
    }),
  );
  if (intents instanceof PDFArray) intents.push(intent);
  else doc.catalog.set(PDFName.of('OutputIntents'), ctx.obj([intent]));
}

/** An output profile PDF/A accepts (6.2.3-1): an ICC monitor or printer profile, RGB, CMYK or grey, version below 5. */
function usableOutputProfile(doc: PDFDocument, ref: PDFRef): boolean {
  const s = doc.context.lookup(ref);
  if (!(s instanceof PDFRawStream)) return false;
  const bytes = decodedBytes(doc, s, 16 * 1024 * 1024);
  if (!bytes || bytes.length < 128) return false;
  const tag = (a: number) => String.fromCharCode(bytes[a], bytes[a + 1], bytes[a + 2], bytes[a + 3]);
  return ['mntr', 'prtr'].includes(tag(12)) && ['RGB ', 'CMYK', 'GRAY'].includes(tag(16)) && bytes[8] < 5;
}

/** Trailer /ID: keep the document's permanent identifier (first element), give this version a new one. */
function setFileId(doc: PDFDocument, input: Uint8Array, xml: Uint8Array, now: Date): void {
  const ctx = doc.context;
  const existing = ctx.lookup(ctx.trailerInfo.ID);
  const md5 = (...parts: (Uint8Array | string)[]): string => {
    const h = createHash('md5');
    for (const p of parts) h.update(p);
    return h.digest('hex');
  };
  let permanent: PDFObject | undefined;
  // The input's permanent identifier is kept when it is one (a non-empty string); `[<><>]` is not.
  const first = existing instanceof PDFArray && existing.size() === 2 ? existing.lookup(0) : undefined;
  if ((first instanceof PDFHexString || first instanceof PDFString) && first.asBytes().length > 0) permanent = first;
  const changing = PDFHexString.of(md5(input, xml, now.toISOString()));
  ctx.trailerInfo.ID = ctx.obj([permanent ?? PDFHexString.of(md5(input)), changing]);
}

// ---------------------------------------------------------------------------------------------
// The attachment

function pdfDate(date: Date): PDFString {
  return PDFString.fromDate(date);
}

function attachXml(doc: PDFDocument, xml: Uint8Array, flavour: HybridFlavour, now: Date): void {
  const ctx = doc.context;
  const stream = ctx.flateStream(xml, {
    Type: 'EmbeddedFile',
    Subtype: 'text/xml', // written as the name /text#2Fxml
    Params: {
      Size: xml.length,
      CreationDate: pdfDate(now),
      ModDate: pdfDate(now),
      CheckSum: PDFHexString.of(createHash('md5').update(xml).digest('hex')),
    },
  });
  const streamRef = ctx.register(stream);
  const fileSpec = ctx.register(
    ctx.obj({
      Type: 'Filespec',
      F: PDFString.of(flavour.fileName),
      UF: PDFString.of(flavour.fileName),
      EF: { F: streamRef, UF: streamRef },
      Desc: PDFString.of(flavour.description),
      AFRelationship: flavour.afRelationship,
    }),
  );

  const names = dictAt(doc, doc.catalog, 'Names');
  const tree = addNameTreeEntry(doc, names, flavour.fileName, fileSpec);

  const af = doc.catalog.lookup(PDFName.of('AF'));
  if (af instanceof PDFArray) af.push(fileSpec);
  else doc.catalog.set(PDFName.of('AF'), ctx.obj([fileSpec]));
  associateAttachments(doc, tree);
}

/**
 * PDF/A-3 requires every embedded file to have /AFRelationship and to be listed in an /AF array (6.8-3/4).
 * Attachments the input carried without them are associated with the document (/Unspecified, catalog /AF).
 */
function associateAttachments(doc: PDFDocument, tree: PDFDict): void {
  const af = doc.catalog.lookup(PDFName.of('AF'));
  if (!(af instanceof PDFArray)) return;
  const listed = new Set(
    af
      .asArray()
      .filter((x): x is PDFRef => x instanceof PDFRef)
      .map((r) => r.toString()),
  );
  const visit = (node: PDFDict, depth: number): void => {
    const names = node.lookup(PDFName.of('Names'));
    if (names instanceof PDFArray)
      for (let i = 1; i < names.size(); i += 2) {
        let ref = names.get(i);
        const spec = names.lookup(i);
        if (!(spec instanceof PDFDict) || !spec.has(PDFName.of('EF'))) continue;
        // A direct file specification becomes indirect in its place, so that /AF can refer to it.
        if (!(ref instanceof PDFRef)) names.set(i, (ref = doc.context.register(spec)));
        if (!spec.has(PDFName.of('AFRelationship'))) spec.set(PDFName.of('AFRelationship'), PDFName.of('Unspecified'));
        if (!listed.has(ref.toString())) {
          af.push(ref);
          listed.add(ref.toString());
        }
      }
    const kids = node.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray && depth < 32)
      for (let i = 0; i < kids.size(); i++) {
        const kid = kids.lookup(i);
        if (kid instanceof PDFDict) visit(kid, depth + 1);
      }
  };
  visit(tree, 0);
}

/** parent[key] as a dictionary, created (direct) when absent. */
function dictAt(doc: PDFDocument, parent: PDFDict, key: string): PDFDict {
  const found = parent.lookup(PDFName.of(key));
  if (found instanceof PDFDict) return found;
  const created = doc.context.obj({});
  parent.set(PDFName.of(key), created);
  return created;
}

/** Entries per name-tree leaf (and kids per intermediate node) when the tree is rebuilt. */
const NAME_TREE_FANOUT = 64;

/**
 * Add (key, value) to the EmbeddedFiles name tree by rebuilding it: every entry collected (bounded walk), keys
 * decoded to text, written again in one encoding (all byte strings when every key is printable ASCII, else all
 * UTF-16BE with BOM), sorted by the decoded text (code point order, which is what qpdf and pikepdf search by),
 * one leaf for a small tree, else leaves under intermediate nodes with /Limits. Inserting by raw bytes next to an
 * existing UTF-16 key put "factur-x.xml" where qpdf's binary search does not look.
 */
function addNameTreeEntry(doc: PDFDocument, names: PDFDict, key: string, value: PDFRef): PDFDict {
  const entries: { text: string; value: PDFObject }[] = [{ text: key, value }];
  const oldNodes: PDFRef[] = [];
  const visited = new Set<PDFDict>();
  const oldRootRef = names.get(PDFName.of('EmbeddedFiles'));
  if (oldRootRef instanceof PDFRef) oldNodes.push(oldRootRef);
  const oldRoot = names.lookup(PDFName.of('EmbeddedFiles'));
  const stack: { node: PDFDict; depth: number }[] = oldRoot instanceof PDFDict ? [{ node: oldRoot, depth: 0 }] : [];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (visited.has(node) || depth > MAX_NAME_TREE_DEPTH) continue;
    visited.add(node);
    if (visited.size > MAX_NAME_TREE_NODES)
      throw new PdfLimitError(`The PDF's attachment name tree has more than ${MAX_NAME_TREE_NODES.toLocaleString('en')} nodes`);
    const pairs = node.lookup(PDFName.of('Names'));
    if (pairs instanceof PDFArray)
      for (let i = 0; i + 1 < pairs.size(); i += 2) {
        const k = pairs.lookup(i);
        if (!(k instanceof PDFString || k instanceof PDFHexString)) continue;
        const text = textOfString({ kind: 'string', bytes: k.asBytes() }) ?? '';
        // Our attachment's name is ours: an input entry of that name (left by a cycle the removal did not reach) goes.
        if (text === key) continue;
        entries.push({ text, value: pairs.get(i + 1) });
      }
    const kidArray = node.lookup(PDFName.of('Kids'));
    if (kidArray instanceof PDFArray) {
      for (let i = kidArray.size() - 1; i >= 0; i--) {
        const ref = kidArray.get(i);
        const kid = kidArray.lookup(i);
        if (ref instanceof PDFRef) oldNodes.push(ref);
        if (kid instanceof PDFDict) stack.push({ node: kid, depth: depth + 1 });
      }
    }
  }
  if (entries.length > MAX_NAME_TREE_NODES)
    throw new PdfLimitError(`The PDF has more than ${MAX_NAME_TREE_NODES.toLocaleString('en')} attachments`);
  entries.sort((a, b) => compareCodePoints(a.text, b.text));
  const ascii = entries.every((e) => /^[\x20-\x7e]*$/.test(e.text));
  const encode = (text: string): PDFString | PDFHexString =>
    !ascii
      ? PDFHexString.fromText(text)
      : /^[^()\\]*$/.test(text)
        ? PDFString.of(text)
        : PDFHexString.of(Buffer.from(text, 'latin1').toString('hex'));

  // The tree is written from scratch under a new root: the old nodes go (a cycle in them, or a kid that is the
  // root itself, once deleted the new root's own entry and hid the attachment: EMBED_CHECK_FAILED), unless a
  // node's reference is also the catalog's or the names dictionary's (garbage, but not ours to delete).
  const keep = new Set([doc.context.getObjectRef(doc.catalog)?.toString(), doc.context.getObjectRef(names)?.toString()]);
  for (const ref of oldNodes) {
    const node = doc.context.lookup(ref);
    if (node instanceof PDFDict && !node.has(PDFName.of('Type')) && !keep.has(ref.toString())) doc.context.delete(ref);
  }
  const root = doc.context.obj({});
  names.set(PDFName.of('EmbeddedFiles'), doc.context.register(root));
  type Node = { dict: PDFDict; first: string; last: string };
  let level: Node[] = [];
  for (let i = 0; i < entries.length; i += NAME_TREE_FANOUT) {
    const chunk = entries.slice(i, i + NAME_TREE_FANOUT);
    const names = doc.context.obj([]);
    for (const e of chunk) {
      names.push(encode(e.text));
      names.push(e.value);
    }
    level.push({ dict: doc.context.obj({ Names: names }), first: chunk[0].text, last: chunk[chunk.length - 1].text });
  }
  if (level.length === 1) {
    root.set(PDFName.of('Names'), level[0].dict.get(PDFName.of('Names'))!);
    return root;
  }
  while (level.length > NAME_TREE_FANOUT) {
    const up: Node[] = [];
    for (let i = 0; i < level.length; i += NAME_TREE_FANOUT) {
      const chunk = level.slice(i, i + NAME_TREE_FANOUT);
      const dict = doc.context.obj({});
      dict.set(PDFName.of('Kids'), doc.context.obj(chunk.map((n) => limited(doc, n, encode))));
      up.push({ dict, first: chunk[0].first, last: chunk[chunk.length - 1].last });
    }
    level = up;
  }
  root.set(PDFName.of('Kids'), doc.context.obj(level.map((n) => limited(doc, n, encode))));
  return root;
}

/** A non-root node with its /Limits, registered as an indirect object (kids are references). */
function limited(
  doc: PDFDocument,
  n: { dict: PDFDict; first: string; last: string },
  encode: (t: string) => PDFString | PDFHexString,
): PDFRef {
  n.dict.set(PDFName.of('Limits'), doc.context.obj([encode(n.first), encode(n.last)]));
  return doc.context.register(n.dict);
}

/** Order of strings by Unicode code point (JavaScript's < orders UTF-16 code units, which differs past U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Remove attachments with these names from the name tree (flat or /Kids) and the catalog /AF array. */
function removeAttachments(doc: PDFDocument, names: Set<string>): void {
  const removed = new Set<PDFObject>();
  const namesDict = doc.catalog.lookup(PDFName.of('Names'));
  const tree = namesDict instanceof PDFDict ? namesDict.lookup(PDFName.of('EmbeddedFiles')) : undefined;
  if (tree instanceof PDFDict) pruneNameTree(tree, names, removed);

  const af = doc.catalog.lookup(PDFName.of('AF'));
  if (!(af instanceof PDFArray)) return;
  for (let i = af.size() - 1; i >= 0; i--) {
    const ref = af.get(i);
    const spec = af.lookup(i);
    if (removed.has(ref) || (spec instanceof PDFDict && names.has(fileSpecName(spec) ?? ''))) af.remove(i);
  }
}

/** Remove the named entries from every node of the tree (iterative, each node once: cycles and shared kids are common in garbage). */
function pruneNameTree(root: PDFDict, names: Set<string>, removed: Set<PDFObject>): void {
  const seen = new Set<PDFDict>();
  const stack: { node: PDFDict; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (seen.has(node) || depth > MAX_NAME_TREE_DEPTH || seen.size >= MAX_NAME_TREE_NODES) continue;
    seen.add(node);
    const kids = node.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray)
      for (let i = 0; i < kids.size(); i++) {
        const kid = kids.lookup(i);
        if (kid instanceof PDFDict) stack.push({ node: kid, depth: depth + 1 });
      }
    const arr = node.lookup(PDFName.of('Names'));
    if (!(arr instanceof PDFArray)) continue;
    for (let i = arr.size() - 2; i >= 0; i -= 2) {
      const key = arr.lookup(i);
      const keyText = key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : '';
      const spec = arr.lookup(i + 1);
      const specName = spec instanceof PDFDict ? fileSpecName(spec) : undefined;
      if (names.has(keyText) || (specName !== undefined && names.has(specName))) {
        removed.add(arr.get(i + 1));
        arr.remove(i + 1);
        arr.remove(i);
      }
    }
  }
}

function fileSpecName(spec: PDFDict): string | undefined {
  for (const k of ['UF', 'F']) {
    const v = spec.lookup(PDFName.of(k));
    if (v instanceof PDFString || v instanceof PDFHexString) return v.decodeText();
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Reading the result back

async function selfCheck(pdf: Uint8Array, xml: Uint8Array, flavour: HybridFlavour): Promise<void> {
  const fail = (why: string): never => {
    throw new EmbedError('EMBED_CHECK_FAILED', `The written PDF failed its own check: ${why}`);
  };
  const contents = await readPdf(pdf);
  const hits = contents.attachments.filter((a) => a.name === flavour.fileName || a.filename === flavour.fileName);
  if (hits.length !== 1) fail(`expected one ${flavour.fileName} attachment, found ${hits.length}`);
  const a = hits[0];
  if (!a.inNameTree) fail('the attachment is not in the EmbeddedFiles name tree');
  if (!a.inAssociatedFiles) fail('the attachment is not in the catalog /AF array');
  if (a.afRelationship !== flavour.afRelationship) fail(`AFRelationship is ${a.afRelationship}`);
  if (a.mimeType !== 'text/xml') fail(`the attachment subtype is ${a.mimeType}`);
  if (Buffer.compare(Buffer.from(a.content()), Buffer.from(xml)) !== 0) fail('the embedded bytes differ from the XML');
  const xmp = contents.xmp;
  if (!xmp) fail('the XMP metadata is missing or not well-formed');
  if (xmp!.pdfaPart !== '3') fail(`pdfaid:part is ${xmp!.pdfaPart}`);
  if (xmp!.documentFileName !== flavour.fileName) fail(`fx:DocumentFileName is ${xmp!.documentFileName}`);
  if (xmp!.conformanceLevel !== flavour.conformanceLevel) fail(`fx:ConformanceLevel is ${xmp!.conformanceLevel}`);
}
