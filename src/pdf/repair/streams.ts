/**
 * ISO 19005-2/3 6.1.7.2 (filters) and 6.2.8 / 6.2.9 (images and form XObjects): what PDF/A forbids on a stream
 * dictionary, on the objects the checker names. LZW-compressed data is decompressed (capped) and compressed again
 * with Flate, the same bytes under a standard filter. Image /Interpolate (a smoothing hint viewers may ignore),
 * /Alternates, /OPI and reference-XObject /Ref entries are removed: the image or form itself stays as drawn. An inline
 * image's /I true is rewritten to false in its content stream, nothing else in the stream changed.
 */
import { deflateSync } from 'node:zlib';
import { PDFArray, type PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import type { Finding } from '../../pdfa/model.js';
import { applyFilters, decodeParms, type FilterStep } from '../filters.js';
import { MAX_DECODED_BYTES } from '../limits.js';
import type { Repair, RepairContext, RepairOutcome } from './types.js';
import { editInlineImages, replaceStreamData } from './content-edit.js';
import { contentStreams, decodedBytes, dictOf, objectByNumber, objectNumbers } from './walk.js';

const key = (k: string) => PDFName.of(k);

function filterNames(doc: PDFDocument, dict: PDFDict): string[] {
  const f = dict.get(key('Filter'));
  const v = f instanceof PDFRef ? doc.context.lookup(f) : f;
  if (v instanceof PDFName) return [v.decodeText()];
  if (v instanceof PDFArray)
    return v.asArray().map((x) => {
      const y = x instanceof PDFRef ? doc.context.lookup(x) : x;
      return y instanceof PDFName ? y.decodeText() : '?';
    });
  return [];
}

/** The findings of one clause that do not name an object (inline images, direct dictionaries): reported as they are. */
function unnamed(findings: readonly Finding[], clause: string): Finding[] {
  return findings.filter((f) => f.clause === clause && !/^object \d+$/.test(f.object ?? ''));
}

/** Filters that may stand before LZW and are decoded with it: the standard ones that carry no image semantics. */
const BEFORE_LZW = new Set(['ASCII85Decode', 'A85', 'ASCIIHexDecode', 'AHx', 'RunLengthDecode', 'RL', 'FlateDecode', 'Fl']);

/**
 * 6.1.7.2-1: LZW → Flate on every stream the checker named. The filters up to and including LZW are decoded (old
 * Distiller output has [/ASCII85Decode /LZWDecode]) and the result is compressed with Flate, which takes the LZW
 * layer's place: LZW's predictor, if any, stays in /DecodeParms and now applies after Flate, which takes the same
 * parameters; /EarlyChange goes. Filters after LZW stay as they were. A stream with two LZW layers or an unknown
 * filter before LZW is reported.
 */
export function lzwToFlate_6_1_7_2(doc: PDFDocument, findings: readonly Finding[], deadline: number): RepairOutcome {
  let changed = 0;
  const unrepaired: Finding[] = [];
  for (const f of findings) {
    const m = /^object (\d+)$/.exec(f.object ?? '');
    const found = m ? objectByNumber(doc, Number(m[1])) : undefined;
    const stream = found?.value;
    if (!(stream instanceof PDFRawStream) || Date.now() > deadline) {
      unrepaired.push(f);
      continue;
    }
    const names = filterNames(doc, stream.dict);
    const lzwAt = names.findIndex((n) => n === 'LZWDecode' || n === 'LZW');
    if (
      lzwAt < 0 ||
      names.slice(0, lzwAt).some((n) => !BEFORE_LZW.has(n)) ||
      names.slice(lzwAt + 1).some((n) => n === 'LZWDecode' || n === 'LZW')
    ) {
      unrepaired.push(f); // a non-standard filter, or LZW twice
      continue;
    }
    const parmsValue = stream.dict.get(key('DecodeParms'));
    const parmsAll = parmsValue instanceof PDFRef ? doc.context.lookup(parmsValue) : parmsValue;
    const parmsAt = (i: number) =>
      parmsAll instanceof PDFArray ? dictOf(doc, parmsAll.get(i)) : i === 0 ? dictOf(doc, parmsAll) : undefined;
    const steps: FilterStep[] = names.slice(0, lzwAt + 1).map((name, i) => {
      const p = parmsAt(i);
      const num = (k: string) => {
        const v = p?.lookup(key(k));
        return v instanceof PDFNumber ? v.asNumber() : undefined;
      };
      // The LZW step's predictor is left to the Flate that replaces it.
      return i === lzwAt ? { name, parms: { earlyChange: num('EarlyChange') } } : { name, parms: decodeParms(num) };
    });
    let data: Uint8Array;
    try {
      data = applyFilters(stream.contents, steps, MAX_DECODED_BYTES);
    } catch (err) {
      unrepaired.push({ ...f, message: `${f.message}; its LZW data could not be decoded (${(err as Error).message})` });
      continue;
    }
    stream.updateContents(deflateSync(data));
    const lzwParms = parmsAt(lzwAt);
    lzwParms?.delete(key('EarlyChange'));
    const rest = names.slice(lzwAt + 1);
    if (rest.length === 0) stream.dict.set(key('Filter'), key('FlateDecode'));
    else stream.dict.set(key('Filter'), doc.context.obj([key('FlateDecode'), ...rest.map((n) => key(n))]));
    const parmsRest = rest.map((_, i) => (parmsAll instanceof PDFArray ? parmsAll.get(lzwAt + 1 + i) : undefined) ?? null);
    if (parmsValue === undefined) {
      // nothing to carry
    } else if (rest.length === 0) {
      if (lzwParms && lzwParms.keys().length > 0) stream.dict.set(key('DecodeParms'), lzwParms);
      else stream.dict.delete(key('DecodeParms'));
    } else stream.dict.set(key('DecodeParms'), doc.context.obj([lzwParms ?? null, ...parmsRest]));
    changed++;
  }
  return { changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

/** Delete `keys` from the dictionaries of the objects the findings of these clauses name; unnamed findings are reported. */
function dropKeys(doc: PDFDocument, findings: readonly Finding[], byClause: Record<string, string[]>): RepairOutcome {
  let changed = 0;
  const unrepaired: Finding[] = [];
  for (const [clause, keys] of Object.entries(byClause)) {
    const named = findings.filter((f) => f.clause === clause);
    for (const num of objectNumbers(named)) {
      const found = objectByNumber(doc, num);
      const dict = found ? dictOf(doc, found.value as PDFObject, true) : undefined;
      if (!dict) continue;
      for (const k of keys)
        if (dict.has(key(k))) {
          dict.delete(key(k));
          changed++;
        }
    }
    unrepaired.push(...unnamed(findings, clause));
  }
  return { changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

/**
 * 6.2.8-3: /Interpolate removed from the image XObjects named; an inline image's `/I true` (or `/Interpolate true`)
 * inside a content stream becomes `false`, the rest of the stream byte for byte as it was (content-edit.ts).
 */
export function imageInterpolate_6_2_8_3(doc: PDFDocument, findings: readonly Finding[], deadline: number): RepairOutcome {
  const named = findings.filter((f) => /^object \d+$/.test(f.object ?? ''));
  const out = dropKeys(doc, named, { '6.2.8-3': ['Interpolate'] });
  const inline = findings.filter((f) => !/^object \d+$/.test(f.object ?? ''));
  if (inline.length === 0) return out;
  const edited = inlineInterpolateOff(doc, deadline);
  const unrepaired = [...(out.unrepaired ?? []), ...edited.unrepaired];
  // Nothing rewritten although the checker saw /I true: what it saw stays reported.
  if (edited.changed === 0 && edited.unrepaired.length === 0) unrepaired.push(...inline);
  return { changed: out.changed + edited.changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

/** Every content stream's inline images: `/I true` → `/I false`. Streams that cannot be read are reported. */
function inlineInterpolateOff(doc: PDFDocument, deadline: number): { changed: number; unrepaired: Finding[] } {
  const unrepaired: Finding[] = [];
  const { streams, complete } = contentStreams(doc);
  let changed = 0;
  let bytes = 0;
  const bi = Buffer.from('BI');
  for (const { stream, owner } of streams) {
    if (Date.now() > deadline || bytes > MAX_DECODED_BYTES) {
      unrepaired.push({ clause: '6.2.8-3', message: 'inline images not all looked at: the time or size budget ran out', object: owner });
      break;
    }
    const data = stream instanceof PDFRawStream ? decodedBytes(doc, stream, MAX_DECODED_BYTES) : stream.getContents();
    if (!data) continue;
    bytes += data.length;
    if (Buffer.from(data.buffer, data.byteOffset, data.length).indexOf(bi) < 0) continue;
    const r = editInlineImages(data, (k, v) => (k === 'Interpolate' && v === true ? 'false' : undefined), deadline);
    if (!r.ok) {
      unrepaired.push({ clause: '6.2.8-3', message: `inline images not rewritten: ${r.reason}`, object: owner });
      continue;
    }
    if (r.edits === 0) continue;
    replaceStreamData(stream, r.data);
    changed++;
  }
  if (!complete)
    unrepaired.push({ clause: '6.2.8-3', message: 'inline images not all looked at: too many or too deeply nested content streams' });
  return { changed, unrepaired };
}

/** 6.2.8-1 / 6.2.8-2 / 6.2.9-1 / 6.2.9-2: /Alternates, /OPI and /Ref removed; the image or form's own content stays. */
export function xobjectExtras_6_2_8(doc: PDFDocument, findings: readonly Finding[]): RepairOutcome {
  const out = dropKeys(doc, findings, { '6.2.8-1': ['Alternates'], '6.2.8-2': ['OPI'], '6.2.9-2': ['Ref'] });
  // 6.2.9-1 names OPI and PostScript forms alike: only /OPI can go; a PostScript form is reported.
  const opi = findings.filter((f) => f.clause === '6.2.9-1' && /OPI/.test(f.message));
  const rest = findings.filter((f) => f.clause === '6.2.9-1' && !/OPI/.test(f.message));
  const more = dropKeys(doc, opi, { '6.2.9-1': ['OPI'] });
  const unrepaired = [...(out.unrepaired ?? []), ...(more.unrepaired ?? []), ...rest];
  return { changed: out.changed + more.changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

const only = (ctx: RepairContext) => ctx.findings;

export const STREAM_REPAIRS: Repair[] = [
  { name: 'lzw-to-flate', clauses: ['6.1.7.2-1'], apply: (ctx) => lzwToFlate_6_1_7_2(ctx.doc, only(ctx), ctx.deadline) },
  { name: 'image-interpolate', clauses: ['6.2.8-3'], apply: (ctx) => imageInterpolate_6_2_8_3(ctx.doc, only(ctx), ctx.deadline) },
  {
    name: 'xobject-alternates-opi',
    clauses: ['6.2.8-1', '6.2.8-2', '6.2.9-1', '6.2.9-2'],
    apply: (ctx) => xobjectExtras_6_2_8(ctx.doc, only(ctx)),
  },
];
