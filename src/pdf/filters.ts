/**
 * Stream filters with an output cap that holds while decoding: Flate through zlib with maxOutputLength
 * (zlib stops at the cap, nothing bigger is ever allocated), and ASCIIHex, ASCII85, LZW and RunLength
 * written here with the cap checked on every byte written. Chains apply in order, each step capped.
 * These are the filters @cantoo/pdf-lib decodes as well, so no attachment it could read is lost by
 * reading every stream through here; image-only filters (DCT, JBIG2, CCITT, JPX) are refused.
 */
import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { streamTooLarge } from './limits.js';

export class FilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FilterError';
  }
}

export interface FilterStep {
  name: string;
  parms?: { predictor?: number; columns?: number; colors?: number; bitsPerComponent?: number; earlyChange?: number };
}

/** Decode `raw` through `steps`; the output (and every intermediate) stays within `cap` bytes, else PdfLimitError. */
export function applyFilters(raw: Uint8Array, steps: FilterStep[], cap: number, opts: { lenientFlate?: boolean } = {}): Uint8Array {
  let data = raw;
  for (const step of steps) {
    data = applyOne(data, step, cap, opts.lenientFlate === true);
    const p = step.parms;
    if (p?.predictor !== undefined && p.predictor > 1 && ['FlateDecode', 'Fl', 'LZWDecode', 'LZW', 'none'].includes(step.name)) {
      if (p.predictor < 10) throw new FilterError('TIFF predictor not supported');
      data = unpredictPng(data, p.columns ?? 1, (p.colors ?? 1) * (p.bitsPerComponent ?? 8));
    }
  }
  return data;
}

function applyOne(data: Uint8Array, step: FilterStep, cap: number, lenient: boolean): Uint8Array {
  switch (step.name) {
    case 'FlateDecode':
    case 'Fl':
      return inflate(data, cap, lenient);
    case 'ASCIIHexDecode':
    case 'AHx':
      return asciiHex(data, cap);
    case 'ASCII85Decode':
    case 'A85':
      return ascii85(data, cap);
    case 'LZWDecode':
    case 'LZW':
      return lzw(data, cap, step.parms?.earlyChange ?? 1);
    case 'RunLengthDecode':
    case 'RL':
      return runLength(data, cap);
    case 'none': // only a predictor (decodeStreamDataAsync inflates first)
      return data;
    default:
      throw new FilterError(`unsupported filter ${step.name}`);
  }
}

function inflate(data: Uint8Array, cap: number, lenient: boolean): Uint8Array {
  try {
    // maxOutputLength makes zlib stop at the cap instead of growing its output: the bomb is never expanded.
    return inflateSync(data, { maxOutputLength: cap, ...(lenient ? { finishFlush: zlibConstants.Z_SYNC_FLUSH } : {}) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw streamTooLarge(cap);
    throw new FilterError('the compressed data is damaged');
  }
}

/** A growable output that refuses to pass `cap`. */
class Out {
  buf: Uint8Array;
  len = 0;
  constructor(
    private readonly cap: number,
    hint: number,
  ) {
    this.buf = new Uint8Array(Math.max(16, Math.min(cap, hint)));
  }
  push(b: number): void {
    if (this.len === this.buf.length) this.grow(1);
    this.buf[this.len++] = b;
  }
  /** Room for n more bytes. A no-op when they fit: callers ask before every write, so a copy here each time was quadratic. */
  grow(n: number): void {
    const need = this.len + n;
    if (need <= this.buf.length) return;
    if (need > this.cap) throw streamTooLarge(this.cap);
    let size = this.buf.length;
    while (size < need) size *= 2;
    const next = new Uint8Array(Math.min(size, this.cap));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  result(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

function hexVal(c: number): number {
  return c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
}

function asciiHex(data: Uint8Array, cap: number): Uint8Array {
  const out = new Out(cap, data.length >> 1);
  let hi = -1;
  for (const c of data) {
    if (c === 0x3e) break; // '>' ends the data
    const v = hexVal(c);
    if (v < 0) continue;
    if (hi < 0) hi = v;
    else {
      out.push(hi * 16 + v);
      hi = -1;
    }
  }
  if (hi >= 0) out.push(hi * 16);
  return out.result();
}

function ascii85(data: Uint8Array, cap: number): Uint8Array {
  const out = new Out(cap, data.length);
  let group = 0;
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    const c = data[i];
    if (c === 0x7e) break; // '~>' ends the data
    if (c <= 0x20) continue;
    if (c === 0x7a && n === 0) {
      // 'z': four zero bytes
      for (let k = 0; k < 4; k++) out.push(0);
      continue;
    }
    if (c < 0x21 || c > 0x75) throw new FilterError('bad ASCII85 data');
    group = group * 85 + (c - 0x21);
    if (++n === 5) {
      for (let k = 3; k >= 0; k--) out.push((group >>> (8 * k)) & 0xff);
      group = 0;
      n = 0;
    }
  }
  if (n > 0) {
    if (n === 1) throw new FilterError('bad ASCII85 data');
    for (let k = n; k < 5; k++) group = group * 85 + 84;
    for (let k = 0; k < n - 1; k++) out.push((group >>> (8 * (3 - k))) & 0xff);
  }
  return out.result();
}

function runLength(data: Uint8Array, cap: number): Uint8Array {
  const out = new Out(cap, data.length * 2);
  let i = 0;
  while (i < data.length) {
    const len = data[i++];
    if (len === 128) break;
    if (len < 128) {
      out.grow(len + 1);
      for (let k = 0; k <= len && i < data.length; k++) out.buf[out.len++] = data[i++];
    } else {
      const count = 257 - len;
      out.grow(count);
      const b = data[i++] ?? 0;
      out.buf.fill(b, out.len, out.len + count);
      out.len += count;
    }
  }
  return out.result();
}

function lzw(data: Uint8Array, cap: number, earlyChange: number): Uint8Array {
  const out = new Out(cap, data.length * 3);
  // The dictionary as (prefix code, last byte, length) triples; entries are written out by walking prefixes.
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Int32Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    length[i] = 1;
  }
  let next = 258;
  let width = 9;
  let prev = -1;
  let bits = 0;
  let acc = 0;
  const emit = (code: number): number => {
    const len = length[code];
    out.grow(len);
    let c = code;
    for (let k = len - 1; k >= 0; k--) {
      out.buf[out.len + k] = suffix[c];
      c = prefix[c];
    }
    out.len += len;
    return out.buf[out.len - len]; // first byte
  };
  for (let i = 0; i < data.length; i++) {
    acc = ((acc << 8) | data[i]) >>> 0;
    bits += 8;
    while (bits >= width) {
      const code = (acc >>> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      acc &= (1 << bits) - 1;
      if (code === 256) {
        next = 258;
        width = 9;
        prev = -1;
        continue;
      }
      if (code === 257) return out.result();
      let first: number;
      if (code < next && (code < 256 || length[code] > 0)) {
        first = emit(code);
        if (prev >= 0 && next < 4096) {
          prefix[next] = prev;
          suffix[next] = first;
          length[next] = length[prev] + 1;
          next++;
        }
      } else if (code === next && prev >= 0) {
        // KwKwK: the entry being defined is prev + first byte of prev.
        const firstOfPrev = firstByte(prev, prefix, suffix);
        if (next < 4096) {
          prefix[next] = prev;
          suffix[next] = firstOfPrev;
          length[next] = length[prev] + 1;
          next++;
        }
        emit(code);
      } else {
        throw new FilterError('bad LZW data');
      }
      prev = code;
      if (next + earlyChange >= 1 << width && width < 12) width++;
    }
  }
  return out.result();
}

function firstByte(code: number, prefix: Int32Array, suffix: Uint8Array): number {
  let c = code;
  while (prefix[c] >= 0) c = prefix[c];
  return suffix[c];
}

function unpredictPng(data: Uint8Array, columns: number, bitsPerPixel: number): Uint8Array {
  if (!(columns >= 1 && columns <= 1 << 20 && bitsPerPixel >= 1 && bitsPerPixel <= 256)) throw new FilterError('bad predictor parameters');
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
      const upLeft = r > 0 && i >= bpp ? out[dst - rowLen + i - bpp] : 0;
      let v: number;
      switch (type) {
        case 0:
          v = x;
          break;
        case 1:
          v = x + left;
          break;
        case 2:
          v = x + up;
          break;
        case 3:
          v = x + ((left + up) >> 1);
          break;
        case 4: {
          const p = left + up - upLeft;
          const pa = Math.abs(p - left);
          const pb = Math.abs(p - up);
          const pc = Math.abs(p - upLeft);
          v = x + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
          break;
        }
        default:
          throw new FilterError(`bad PNG predictor row type ${type}`);
      }
      out[dst + i] = v & 0xff;
    }
  }
  return out;
}
