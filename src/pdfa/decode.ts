/**
 * Bounded stream decoding for the PDF/A checker (Flate, LZW, ASCIIHex, ASCII85, RunLength). A stream whose expansion passes the caps is never
 * expanded further: the caller gets a DecodeLimit marker and turns it into a finding.
 */
import { inflateSync, constants } from 'node:zlib';
import { applyFilters } from '../pdf/filters.js';
import { isDict, nameOf, type PdfStreamValue, type PdfValue } from '../pdf/lazy.js';
import { PdfLimitError } from '../pdf/limits.js';

/** Largest decoded size of one stream. */
export const MAX_STREAM_DECODED = 32 * 1024 * 1024;
/** A stream that expands by more than this ratio beyond MIN_RATIO_CHECK bytes is treated as a bomb. */
export const MAX_RATIO = 1000;
const MIN_RATIO_CHECK = 4 * 1024 * 1024;

export type DecodeResult = { ok: true; data: Uint8Array } | { ok: false; reason: 'limit' | 'unsupported' | 'corrupt'; detail: string };

export interface DecodeBudget {
  /** Decoded bytes still allowed for the whole document. */
  remaining: number;
}

export function filtersOf(dict: Map<string, PdfValue>, key = 'Filter'): string[] {
  const f = dict.get(key);
  if (f === undefined || f === null) return [];
  if (Array.isArray(f)) return f.map((x) => nameOf(x) ?? '?');
  const n = nameOf(f);
  return n ? [n] : ['?'];
}

export function decodeStream(s: PdfStreamValue, budget: DecodeBudget): DecodeResult {
  const filters = filtersOf(s.dict.map);
  const parmsRaw = s.dict.map.get('DecodeParms');
  let data = s.raw;
  for (let i = 0; i < filters.length; i++) {
    const f = filters[i];
    const parms = Array.isArray(parmsRaw) ? parmsRaw[i] : i === 0 ? parmsRaw : undefined;
    const cap = Math.min(MAX_STREAM_DECODED, budget.remaining);
    let out: Uint8Array;
    if (f === 'FlateDecode' || f === 'Fl') {
      try {
        out = inflateSync(data, { maxOutputLength: cap + 1, finishFlush: constants.Z_SYNC_FLUSH });
      } catch (err) {
        const e = err as { code?: string; message?: string };
        if (e.code === 'ERR_BUFFER_TOO_LARGE' || /too large|maxOutputLength/i.test(e.message ?? '')) {
          return { ok: false, reason: 'limit', detail: `decoded size exceeds ${cap} bytes` };
        }
        return { ok: false, reason: 'corrupt', detail: `inflate failed: ${e.message}` };
      }
      if (out.length > cap) return { ok: false, reason: 'limit', detail: `decoded size exceeds ${cap} bytes` };
      if (out.length > MIN_RATIO_CHECK && out.length > data.length * MAX_RATIO) {
        return { ok: false, reason: 'limit', detail: `expansion ratio above ${MAX_RATIO}:1` };
      }
      if (isDict(parms)) {
        const pred = parms.map.get('Predictor');
        if (typeof pred === 'number' && pred >= 10) {
          const col = num(parms.map.get('Columns'), 1);
          const bpp = num(parms.map.get('Colors'), 1) * num(parms.map.get('BitsPerComponent'), 8);
          out = unpredictPng(out, col, bpp);
        }
      }
    } else if (f === 'LZWDecode' || f === 'LZW') {
      // PDF/A forbids LZW (6.1.7.2-1, reported by the checks), but what it encodes is still judged: a font used only
      // in an LZW content stream is a font used. Decoded by the reader's capped LZW (src/pdf/filters.ts).
      const p = isDict(parms) ? parms.map : undefined;
      const pred = p?.get('Predictor');
      const early = p?.get('EarlyChange');
      try {
        out = applyFilters(data, [{ name: 'LZWDecode', parms: { earlyChange: typeof early === 'number' ? early : undefined } }], cap);
      } catch (err) {
        if (err instanceof PdfLimitError) return { ok: false, reason: 'limit', detail: `decoded size exceeds ${cap} bytes` };
        return { ok: false, reason: 'corrupt', detail: `LZW decoding failed: ${(err as Error).message}` };
      }
      if (out.length > MIN_RATIO_CHECK && out.length > data.length * MAX_RATIO) {
        return { ok: false, reason: 'limit', detail: `expansion ratio above ${MAX_RATIO}:1` };
      }
      if (p && typeof pred === 'number' && pred >= 10) {
        out = unpredictPng(out, num(p.get('Columns'), 1), num(p.get('Colors'), 1) * num(p.get('BitsPerComponent'), 8));
      }
    } else if (f === 'ASCIIHexDecode' || f === 'AHx') {
      out = asciiHex(data);
    } else if (f === 'ASCII85Decode' || f === 'A85') {
      out = ascii85(data);
    } else if (f === 'RunLengthDecode' || f === 'RL') {
      const r = runLength(data, cap);
      if (!r) return { ok: false, reason: 'limit', detail: `decoded size exceeds ${cap} bytes` };
      out = r;
    } else {
      return { ok: false, reason: 'unsupported', detail: `filter ${f}` };
    }
    budget.remaining -= out.length;
    data = out;
  }
  return { ok: true, data };
}

function num(v: PdfValue | undefined, d: number): number {
  return typeof v === 'number' && v > 0 ? v : d;
}

function asciiHex(d: Uint8Array): Uint8Array {
  const out: number[] = [];
  let hi = -1;
  for (const c of d) {
    if (c === 0x3e) break;
    const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
    if (v < 0) continue;
    if (hi < 0) hi = v;
    else {
      out.push(hi * 16 + v);
      hi = -1;
    }
  }
  if (hi >= 0) out.push(hi * 16);
  return Uint8Array.from(out);
}

function ascii85(d: Uint8Array): Uint8Array {
  const out: number[] = [];
  let tuple: number[] = [];
  for (let i = 0; i < d.length; i++) {
    const c = d[i];
    if (c === 0x7e) break;
    if (c === 0x7a && tuple.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    if (c < 0x21 || c > 0x75) continue;
    tuple.push(c - 33);
    if (tuple.length === 5) {
      let v = 0;
      for (const t of tuple) v = v * 85 + t;
      out.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
      tuple = [];
    }
  }
  if (tuple.length > 1) {
    const n = tuple.length;
    while (tuple.length < 5) tuple.push(84);
    let v = 0;
    for (const t of tuple) v = v * 85 + t;
    const bytes = [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
    out.push(...bytes.slice(0, n - 1));
  }
  return Uint8Array.from(out);
}

function runLength(d: Uint8Array, cap: number): Uint8Array | undefined {
  const out: number[] = [];
  for (let i = 0; i < d.length; ) {
    const len = d[i++];
    if (len === 128) break;
    if (len < 128) {
      for (let k = 0; k <= len && i < d.length; k++) out.push(d[i++]);
    } else {
      const v = d[i++];
      for (let k = 0; k < 257 - len; k++) out.push(v);
    }
    if (out.length > cap) return undefined;
  }
  return Uint8Array.from(out);
}

function unpredictPng(data: Uint8Array, columns: number, bitsPerPixel: number): Uint8Array {
  const bpp = Math.max(1, Math.ceil(bitsPerPixel / 8));
  const rowLen = Math.ceil((columns * bitsPerPixel) / 8);
  const rows = Math.floor(data.length / (rowLen + 1));
  const out = new Uint8Array(rows * rowLen);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (rowLen + 1)];
    const src = r * (rowLen + 1) + 1;
    const dst = r * rowLen;
    for (let i = 0; i < rowLen; i++) {
      const x = data[src + i];
      const left = i >= bpp ? out[dst + i - bpp] : 0;
      const up = r > 0 ? out[dst - rowLen + i] : 0;
      const ul = r > 0 && i >= bpp ? out[dst - rowLen + i - bpp] : 0;
      let v = x;
      if (type === 1) v = x + left;
      else if (type === 2) v = x + up;
      else if (type === 3) v = x + ((left + up) >> 1);
      else if (type === 4) {
        const p = left + up - ul;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - ul);
        v = x + (pa <= pb && pa <= pc ? left : pb <= pc ? up : ul);
      }
      out[dst + i] = v & 0xff;
    }
  }
  return out;
}
