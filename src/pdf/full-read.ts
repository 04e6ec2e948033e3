/**
 * Tier 2 of readPdf() (see extract.ts), main-thread side: vet the file for the full parser, run the parse
 * in the PDF worker (./pool.ts), and turn its answer into PdfContents whose attachments are decoded here,
 * through the capped filters and the request's decode budget. When the parse fails, tier 3 (the linear
 * recovery scan) reads the raw bytes.
 */
import { readXmp, type XmpInfo } from './xmp.js';
import {
  attachmentContent,
  encryptedError,
  hasEmbeddedFileStreams,
  limitError,
  looksEncrypted,
  PdfReadError,
  type PdfAttachment,
  type PdfContents,
} from './contents.js';
import { recoverByScanning } from './recover.js';
import type { FullParseAnswer, RawStreamData } from './extract-full.js';
import { EmbedError } from './container.js';
import { decodeStreamData, isDict, isRef, LazyPdf, LazyPdfError, nameOf, parseValueAt, type PdfStreamValue } from './lazy.js';
import { DecodeBudget, MAX_OBJSTM_OBJECTS, MAX_XREF_ENTRIES, PdfLimitError } from './limits.js';
import { PdfWorkerOverrunError, runPdfTask } from './pool.js';
import { positions, scanObjects, type ScannedObject } from './scan.js';
import { signatureIn } from './signature.js';

/**
 * Check every object stream and xref stream of the file the way the full parser will meet them (it parses
 * every object in file order, whether referenced or not): /N, /First, /W and /Index against the caps, the
 * file's length and the decoded data. Decoding here is capped and charged to the request's budget, so the
 * parser's own (uncapped) decoding of the same streams is bounded by what passed here.
 */
export function vetForFullParse(bytes: Uint8Array, objects: ScannedObject[], budget: DecodeBudget): void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const objStm = positions(buf, 'ObjStm');
  const xref = positions(buf, 'XRef');
  let lastStream = -1;
  // Objects are in file order: one cursor per keyword list (linear).
  let io = 0;
  let ix = 0;
  for (const o of objects) {
    if (o.streamStart === undefined || o.streamEnd === undefined || o.streamStart <= lastStream) continue;
    lastStream = o.streamStart;
    while (io < objStm.length && objStm[io] < o.start) io++;
    while (ix < xref.length && xref[ix] < o.start) ix++;
    const maybeObjStm = io < objStm.length && objStm[io] < o.dictEnd;
    const maybeXref = ix < xref.length && xref[ix] < o.dictEnd;
    if (!maybeObjStm && !maybeXref) continue;
    const dict = parseValueAt(bytes, o.start, o.dictEnd);
    if (!isDict(dict)) continue;
    const type = dict.map.get('Type');
    const stream: PdfStreamValue = { kind: 'stream', dict, raw: bytes.subarray(o.streamStart, o.streamEnd) };
    const decoded = (): Uint8Array | undefined => {
      try {
        return decodeStreamData(stream, budget, { lenientFlate: true, kind: 'structure' });
      } catch (err) {
        if (err instanceof LazyPdfError) return undefined; // undecodable: the parser fails on it too
        throw err;
      }
    };
    if (nameOf(type) === 'ObjStm' || (isRef(type) && dict.map.has('First'))) {
      const n = dict.map.get('N');
      const first = dict.map.get('First');
      if (typeof n !== 'number' || typeof first !== 'number') continue;
      if (n > MAX_OBJSTM_OBJECTS)
        throw new PdfLimitError(
          `An object stream of the PDF claims ${n} objects (the limit is ${MAX_OBJSTM_OBJECTS.toLocaleString('en')})`,
        );
      const data = decoded();
      if (data && (first > data.length || n * 4 > first + 1))
        throw new PdfLimitError(`An object stream of the PDF claims ${n} objects but holds fewer`);
    } else if (nameOf(type) === 'XRef' || (isRef(type) && dict.map.has('W'))) {
      const w = dict.map.get('W');
      if (!Array.isArray(w) || w.length !== 3 || !w.every((x) => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 8)) {
        throw new PdfLimitError("The PDF's cross-reference stream has an invalid /W (each field 0 to 8 bytes)");
      }
      const rowLen = (w as number[]).reduce((a, b) => a + b, 0);
      if (rowLen === 0) throw new PdfLimitError("The PDF's cross-reference stream has an invalid /W (/W [0 0 0])");
      const size = dict.map.get('Size');
      const index = dict.map.get('Index') ?? [0, typeof size === 'number' ? size : 0];
      if (!Array.isArray(index)) throw new PdfLimitError("The PDF's cross-reference stream has an invalid /Index");
      let total = 0;
      for (let i = 1; i < index.length; i += 2) {
        const c = index[i];
        if (typeof c !== 'number' || !Number.isSafeInteger(c) || c < 0)
          throw new PdfLimitError("The PDF's cross-reference stream has an invalid /Index");
        total += c;
      }
      if (total > MAX_XREF_ENTRIES || total > Math.max(1024, bytes.length)) {
        throw new PdfLimitError("The PDF's cross-reference lists more objects than the file can hold");
      }
      const data = decoded();
      if (data && total * rowLen > data.length + rowLen)
        throw new PdfLimitError("The PDF's cross-reference stream is shorter than its /Index says");
    }
  }
}

/** More objects without "endobj" than this, and the full parse is skipped (see readPdfFully). */
export const MAX_UNTERMINATED_FOR_PARSER = 64;

/** Tier 2 (and 3): vet, parse in the worker, fall back to the recovery scan. Throws PdfReadError. */
export async function readPdfFully(bytes: Uint8Array, budget = new DecodeBudget()): Promise<PdfContents> {
  let scanned: ScannedObject[];
  try {
    scanned = scanObjects(bytes);
    vetForFullParse(bytes, scanned, budget);
  } catch (err) {
    if (err instanceof PdfLimitError) throw limitError(err);
    throw err;
  }
  // The library looks for "endobj" to the end of the file after each object that lacks one (quadratic):
  // a file with many such objects goes to the linear recovery scan at once.
  let unterminated = 0;
  for (const o of scanned) if (!o.terminated) unterminated++;
  if (unterminated > MAX_UNTERMINATED_FOR_PARSER) return recoverByScanning(bytes, new Error('damaged'), budget, scanned);
  let answer: FullParseAnswer;
  try {
    // A copy of just this range: a view into a larger buffer would be cloned whole.
    answer = (await runPdfTask({ kind: 'read', bytes: bytes.slice() })) as FullParseAnswer;
  } catch (err) {
    if (err instanceof PdfWorkerOverrunError) throw new PdfReadError('PDF_LIMIT', `The PDF exceeds a processing limit: ${err.message}`);
    throw err;
  }
  if ('encrypted' in answer) throw encryptedError();
  if ('limit' in answer) throw limitError(new PdfLimitError(answer.limit));
  if ('failed' in answer) {
    if (looksEncrypted(bytes)) throw encryptedError();
    return recoverByScanning(bytes, new Error('damaged'), budget, scanned);
  }
  const streams: PdfStreamValue[] = answer.streams.map(toStream);
  const attachments: PdfAttachment[] = answer.attachments.map(({ stream, ...a }) => ({
    ...a,
    ...attachmentContent(streams[stream], budget),
  }));
  let xmp: XmpInfo | undefined;
  if (answer.xmp) {
    try {
      xmp = readXmp(decodeStreamData(toStream(answer.xmp), budget, { kind: 'xmp' }));
    } catch (err) {
      if (err instanceof PdfLimitError) throw limitError(err);
      xmp = undefined; // XMP is advisory: a broken packet must not hide the invoice
    }
  }
  // A truncated file may parse, yet have lost its catalog or name tree while the file streams survive.
  if (attachments.length === 0 && hasEmbeddedFileStreams(bytes)) {
    try {
      const found = recoverByScanning(bytes, new Error('no attachments reachable from the catalog'), budget, scanned);
      if (found.attachments.length > 0) return { ...found, xmp };
    } catch (err) {
      if (err instanceof PdfReadError && err.code === 'PDF_LIMIT') throw err;
      // keep the structured result
    }
  }
  return { attachments, xmp, recovered: false };
}

/** A worker's stream description as the lazy reader's stream value (what the capped decoder takes). */
function toStream(d: RawStreamData): PdfStreamValue {
  const map = new Map();
  map.set(
    'Filter',
    d.steps.map((s) => ({ kind: 'name', name: s.name })),
  );
  map.set(
    'DecodeParms',
    d.steps.map((s) => {
      if (!s.parms) return null;
      const m = new Map();
      const p = s.parms;
      if (p.predictor !== undefined) m.set('Predictor', p.predictor);
      if (p.columns !== undefined) m.set('Columns', p.columns);
      if (p.colors !== undefined) m.set('Colors', p.colors);
      if (p.bitsPerComponent !== undefined) m.set('BitsPerComponent', p.bitsPerComponent);
      if (p.earlyChange !== undefined) m.set('EarlyChange', p.earlyChange);
      return { kind: 'dict', map: m };
    }),
  );
  return { kind: 'stream', dict: { kind: 'dict', map }, raw: d.raw };
}

/**
 * The gate before /v1/convert and /v1/merge hand a PDF to the library: the lazy reader opens it (limits
 * final, encryption answered; a damaged xref is left to the library), and every object and xref stream
 * is vetted as for the full parse, and a digital signature is looked for (./signature.ts). Throws EmbedError.
 * An encrypted PDF that opens with the empty user password (permissions only, as scanners and "protect" buttons
 * write them) passes, `encrypted` set: the embedder decrypts it (PDF/A forbids encryption, ISO 19005 6.1.3-2).
 * One that needs a password is PDF_ENCRYPTED.
 */
export function gateForEmbed(bytes: Uint8Array): { inline: boolean; signature?: string; encrypted?: boolean } {
  const budget = new DecodeBudget();
  try {
    let encrypted = false;
    let xrefSound = true;
    let lazy: LazyPdf | undefined;
    try {
      lazy = new LazyPdf(bytes, budget);
      encrypted = lazy.encrypted;
    } catch (err) {
      if (!(err instanceof LazyPdfError)) throw err;
      encrypted = looksEncrypted(bytes);
      xrefSound = false;
    }
    if (encrypted) {
      let opens = false;
      try {
        lazy?.unlock();
        opens = lazy !== undefined;
      } catch {
        opens = false; // a password is needed, or a security handler we do not implement
      }
      if (!opens)
        throw new EmbedError(
          'PDF_ENCRYPTED',
          'The PDF is encrypted and needs a password to open; a PDF/A-3 invoice cannot be encrypted. Remove the encryption (and any password) and send it again',
        );
    }
    const scanned = scanObjects(bytes);
    let unterminated = 0;
    for (const o of scanned) if (!o.terminated) unterminated++;
    if (unterminated > MAX_UNTERMINATED_FOR_PARSER) {
      throw new EmbedError('PDF_UNREADABLE', `The PDF could not be read: ${unterminated} of its objects are not closed (no "endobj")`);
    }
    vetForFullParse(bytes, scanned, budget);
    const signature = signatureIn(bytes, lazy);
    return {
      inline: xrefSound && unterminated === 0 && bytes.length <= INLINE_EMBED_MAX_BYTES && scanned.length <= INLINE_EMBED_MAX_OBJECTS,
      ...(signature ? { signature } : {}),
      ...(encrypted ? { encrypted } : {}),
    };
  } catch (err) {
    if (err instanceof PdfLimitError) throw new EmbedError('PDF_LIMIT', `The PDF exceeds a processing limit: ${err.message}`);
    throw err;
  }
}

/**
 * A PDF the gate found small and sound (its xref read cleanly, every object closed, every xref and object
 * stream vetted, at most this size and object count) is embedded on the calling thread: pdf-lib's work on
 * it is bounded by its size (tens of ms at most), and its only other failure, a stack overflow on deep
 * nesting, is caught like any error. Measured (40 converts of a one-page PDF, medians, on this 2-core
 * machine shared with ~8 busy processes, load average ~20): 73 ms inline against 211 ms through the worker,
 * the difference being the scheduling of a second thread on an overloaded machine, so small files stay inline.
 * Anything bigger, or with a damaged xref, goes to the worker (heap cap, deadline, killed on overrun).
 */
export const INLINE_EMBED_MAX_BYTES = 512 * 1024;
export const INLINE_EMBED_MAX_OBJECTS = 5_000;
