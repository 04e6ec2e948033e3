/**
 * Stream filters with an output cap that holds while decoding: Flate through zlib with maxOutputLength
 * (zlib stops at the cap, nothing bigger is ever allocated), and ASCIIHex, ASCII85, LZW and RunLength
 * written here with the cap checked on every byte written. Chains apply in order, each step capped.
 * These are the filters @cantoo/pdf-lib decodes as well, so no attachment it could read is lost by
 * reading every stream through here; image-only filters (DCT, JBIG2, CCITT, JPX) are refused.
 */
import { promisify } from 'node:util';
import { inflate as zlibInflate, inflateSync, constants as zlibConstants } from 'node:zlib';
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

/** A filter's /DecodeParms in FilterStep form, from a reader of its numeric entries (each PDF reader has its own). */
export function decodeParms(num: (key: string) => number | undefined): NonNullable<FilterStep['parms']> {
  return {
    predictor: num('Predictor'),
    columns: num('Columns'),
    colors: num('Colors'),
    bitsPerComponent: num('BitsPerComponent'),
    earlyChange: num('EarlyChange'),
  };
}

/** Decode `raw` through `steps`; the output (and every intermediate) stays within `cap` bytes, else PdfLimitError. */
export function applyFilters(raw: Uint8Array, steps: FilterStep[], cap: number, opts: { lenientFlate?: boolean } = {}): Uint8Array {
  let data = raw;
  for (const step of steps) {
    data = isFlate(step) ? inflate(data, cap, opts.lenientFlate === true) : runToEnd(decodeSteps(data, step, cap));
    data = withPredictor(data, step);
  }
  return data;
}

/**
 * applyFilters without holding the event loop: Flate inflates in libuv's thread pool (zlib's asynchronous
 * inflate, capped the same way), and LZW, ASCII85, ASCIIHex and RunLength decode in slices of at most
 * SLICE_MS with a turn of the event loop between two (a 64 MiB LZW output took over a second in one piece).
 */
export async function applyFiltersAsync(
  raw: Uint8Array,
  steps: FilterStep[],
  cap: number,
  opts: { lenientFlate?: boolean } = {},
): Promise<Uint8Array> {
  let data = raw;
  for (const step of steps) {
    data = isFlate(step) ? await inflateAsync(data, cap, opts.lenientFlate === true) : await runSliced(decodeSteps(data, step, cap));
    data = withPredictor(data, step);
  }
  return data;
}

const isFlate = (step: FilterStep) => step.name === 'FlateDecode' || step.name === 'Fl';

function withPredictor(data: Uint8Array, step: FilterStep): Uint8Array {
  const p = step.parms;
  if (p?.predictor !== undefined && p.predictor > 1 && ['FlateDecode', 'Fl', 'LZWDecode', 'LZW', 'none'].includes(step.name)) {
    if (p.predictor < 10) throw new FilterError('TIFF predictor not supported');
    return unpredictPng(data, p.columns ?? 1, (p.colors ?? 1) * (p.bitsPerComponent ?? 8));
  }
  return data;
}

/** A decoder that stops (yields) every so often so that a caller may give the event loop a turn. */
type Decoding = Generator<void, Uint8Array, void>;

/** Longest slice of decoding between two turns of the event loop (applyFiltersAsync). */
export const SLICE_MS = 10;
/** Input bytes between two checks of the clock. */
const CHECK_EVERY = 16 * 1024;

function runToEnd(g: Decoding): Uint8Array {
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
  }
}

async function runSliced(g: Decoding): Promise<Uint8Array> {
  let start = performance.now();
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
    if (performance.now() - start > SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      start = performance.now();
    }
  }
}

function* decodeSteps(data: Uint8Array, step: FilterStep, cap: number): Decoding {
  switch (step.name) {
    case 'ASCIIHexDecode':
    case 'AHx':
      return yield* asciiHex(data, cap);
    case 'ASCII85Decode':
    case 'A85':
      return yield* ascii85(data, cap);
    case 'LZWDecode':
    case 'LZW':
      return yield* lzw(data, cap, step.parms?.earlyChange ?? 1);
    case 'RunLengthDecode':
    case 'RL':
      return yield* runLength(data, cap);
    case 'none': // only a predictor (decodeStreamDataAsync inflates first)
      return data;
    default:
      throw new FilterError(`unsupported filter ${step.name}`);
  }
}

const inflateZlib = promisify(zlibInflate);

async function inflateAsync(data: Uint8Array, cap: number, lenient: boolean): Promise<Uint8Array> {
  try {
    return await inflateZlib(data, { maxOutputLength: cap, ...(lenient ? { finishFlush: zlibConstants.Z_SYNC_FLUSH } : {}) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || (err as Error).message?.includes('maxOutputLength'))
      throw streamTooLarge(cap);
    throw new FilterError('the compressed data is damaged');
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

/** Output chunk size: one big buffer grown by doubling cost a copy of up to 64 MiB in one piece. */
const CHUNK = 1 << 20;

/**
 * A growable output that refuses to pass `cap`: written in chunks of CHUNK bytes (a write of n bytes, at most
 * 4,096, is always contiguous in `buf`), joined once at the end by finish(), which yields between chunks.
 */
class Out {
  buf: Uint8Array;
  len = 0;
  private readonly full: Uint8Array[] = [];
  private fullBytes = 0;
  constructor(
    private readonly cap: number,
    hint: number,
  ) {
    this.buf = new Uint8Array(Math.max(16, Math.min(cap, hint, CHUNK)));
  }
  push(b: number): void {
    if (this.len === this.buf.length) this.grow(1);
    this.buf[this.len++] = b;
  }
  /** Room for n more contiguous bytes in `buf`. */
  grow(n: number): void {
    if (this.len + n <= this.buf.length) return;
    if (this.fullBytes + this.len + n > this.cap) throw streamTooLarge(this.cap);
    if (this.len === 0) {
      this.buf = new Uint8Array(Math.max(n, CHUNK));
      return;
    }
    this.full.push(this.buf.subarray(0, this.len));
    this.fullBytes += this.len;
    this.buf = new Uint8Array(Math.max(n, CHUNK));
    this.len = 0;
  }
  /** Bytes written so far. */
  get size(): number {
    return this.fullBytes + this.len;
  }
  /** The output as one array; yields after each chunk copied. */
  *finish(): Decoding {
    if (this.full.length === 0) return this.buf.subarray(0, this.len);
    const all = new Uint8Array(this.fullBytes + this.len);
    let at = 0;
    for (const c of [...this.full, this.buf.subarray(0, this.len)]) {
      all.set(c, at);
      at += c.length;
      yield;
    }
    return all;
  }
}

function hexVal(c: number): number {
  return c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
}

function* asciiHex(data: Uint8Array, cap: number): Decoding {
  const out = new Out(cap, data.length >> 1);
  let hi = -1;
  for (let i = 0; i < data.length; i++) {
    if (i % CHECK_EVERY === 0 && i > 0) yield;
    const c = data[i];
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
  return yield* out.finish();
}

function* ascii85(data: Uint8Array, cap: number): Decoding {
  const out = new Out(cap, data.length);
  let group = 0;
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    if (i % CHECK_EVERY === 0 && i > 0) yield;
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
  return yield* out.finish();
}

function* runLength(data: Uint8Array, cap: number): Decoding {
  const out = new Out(cap, data.length * 2);
  let i = 0;
  let check = CHECK_EVERY;
  while (i < data.length) {
    if (i >= check) {
      check = i + CHECK_EVERY;
      yield;
    }
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
  return yield* out.finish();
}

function* lzw(data: Uint8Array, cap: number, earlyChange: number): Decoding {
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
  // One input byte can write up to 4,096 output bytes: check the clock by input and by output.
  let outCheck = 1 << 18;
  for (let i = 0; i < data.length; i++) {
    if ((i % CHECK_EVERY === 0 && i > 0) || out.size >= outCheck) {
      outCheck = out.size + (1 << 18);
      yield;
    }
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
      if (code === 257) return yield* out.finish();
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
  return yield* out.finish();
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
