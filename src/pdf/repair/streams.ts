/**
 * ISO 19005-2/3 6.1.7.2 (filters) and 6.2.8 / 6.2.9 (images and form XObjects): what PDF/A forbids on a stream
 * dictionary, on the objects the checker names. LZW-compressed data is decompressed (capped) and compressed again
 * with Flate, the same bytes under a standard filter. Image /Interpolate (a smoothing hint viewers may ignore),
 * /Alternates, /OPI and reference-XObject /Ref entries are removed: the image or form itself stays as drawn.
 */
import { deflateSync } from 'node:zlib';
import { PDFArray, type PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import type { Finding } from '../../pdfa/model.js';
import { applyFilters } from '../filters.js';
import { MAX_DECODED_BYTES } from '../limits.js';
import type { Repair, RepairContext, RepairOutcome } from './types.js';
import { dictOf, objectByNumber, objectNumbers } from './walk.js';

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

/**
 * 6.1.7.2-1: LZW → Flate on every stream the checker named. The LZW layer is decoded alone (its predictor, if any,
 * stays in /DecodeParms and now applies after Flate, which takes the same parameters); /EarlyChange goes with it.
 * A stream whose LZW is not the first filter, or that uses a non-standard filter, is reported.
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
    if (lzwAt !== 0 || names.slice(1).some((n) => n === 'LZWDecode' || n === 'LZW')) {
      unrepaired.push(f); // a non-standard filter, or LZW behind another filter
      continue;
    }
    const parmsValue = stream.dict.get(key('DecodeParms'));
    const parmsAll = parmsValue instanceof PDFRef ? doc.context.lookup(parmsValue) : parmsValue;
    const parms = parmsAll instanceof PDFArray ? dictOf(doc, parmsAll.get(0)) : dictOf(doc, parmsAll);
    const early = parms?.lookup(key('EarlyChange'));
    let data: Uint8Array;
    try {
      data = applyFilters(
        stream.contents,
        [{ name: 'LZWDecode', parms: { earlyChange: early instanceof PDFNumber ? early.asNumber() : undefined } }],
        MAX_DECODED_BYTES,
      );
    } catch (err) {
      unrepaired.push({ ...f, message: `${f.message}; its LZW data could not be decoded (${(err as Error).message})` });
      continue;
    }
    stream.updateContents(deflateSync(data));
    const filter = stream.dict.get(key('Filter'));
    const filterArray = filter instanceof PDFRef ? doc.context.lookup(filter) : filter;
    if (filterArray instanceof PDFArray) filterArray.set(0, key('FlateDecode'));
    else stream.dict.set(key('Filter'), key('FlateDecode'));
    parms?.delete(key('EarlyChange'));
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

/** 6.2.8-3: /Interpolate removed from the images named (inline images, /I in a content stream, are reported). */
export function imageInterpolate_6_2_8_3(doc: PDFDocument, findings: readonly Finding[]): RepairOutcome {
  return dropKeys(doc, findings, { '6.2.8-3': ['Interpolate'] });
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
  { name: 'image-interpolate', clauses: ['6.2.8-3'], apply: (ctx) => imageInterpolate_6_2_8_3(ctx.doc, only(ctx)) },
  {
    name: 'xobject-alternates-opi',
    clauses: ['6.2.8-1', '6.2.8-2', '6.2.9-1', '6.2.9-2'],
    apply: (ctx) => xobjectExtras_6_2_8(ctx.doc, only(ctx)),
  },
];
