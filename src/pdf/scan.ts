/**
 * One linear pass over a PDF's raw bytes that indexes every "N G obj" header and every "stream" /
 * "endstream" / "endobj" keyword. The recovery reader and the vetting before the full parser both work
 * from this index: finding what follows an object is a binary search, never a rescan of the rest of the
 * file (the old recovery rescanned the tail for every object: quadratic, 15 s for a 190 KB file).
 */
import { MAX_SCANNED_OBJECTS, PdfLimitError } from './limits.js';

export interface ScannedObject {
  num: number;
  gen: number;
  /** Offset of the first byte after "obj". */
  start: number;
  /** Offset of the object's end: its "endobj", the next object's header, or the end of the file. */
  end: number;
  /** Stream data range when the object has a "stream" keyword before its end. */
  streamStart?: number;
  streamEnd?: number;
  /** Where the object's dictionary text ends (the "stream" keyword, or `end`). */
  dictEnd: number;
  /** An "endobj" closes the object before the next header. */
  terminated: boolean;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
const isDelimOrWs = (c: number | undefined) =>
  c === undefined || isWs(c) || c === 0x3c || c === 0x5b || c === 0x2f || c === 0x25 || c === 0x28;

/** Sorted offsets of every occurrence of `word` in `buf` (Buffer.indexOf: linear overall). */
export function positions(buf: Buffer, word: string): number[] {
  const out: number[] = [];
  for (let i = buf.indexOf(word, 0, 'latin1'); i >= 0; i = buf.indexOf(word, i + word.length, 'latin1')) out.push(i);
  return out;
}

/** First value in sorted `arr` that is >= `x`, or undefined. */
export function firstAtLeast(arr: number[], x: number): number | undefined {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < arr.length ? arr[lo] : undefined;
}

/** Read "N G" backwards from just before `objAt` (bounded look-back: numbers have at most 10 digits); -1 when absent. */
function headerBefore(b: Uint8Array, objAt: number, out: { num: number; gen: number; headerStart: number }): boolean {
  let i = objAt - 1;
  if (i < 0 || !isWs(b[i])) return false;
  while (i >= 0 && isWs(b[i]) && objAt - i < 16) i--;
  let gen = 0;
  let scale = 1;
  const genEnd = i + 1;
  while (i >= 0 && isDigit(b[i]) && genEnd - i <= 5) {
    gen += (b[i] - 0x30) * scale;
    scale *= 10;
    i--;
  }
  const genStart = i + 1;
  if (genStart === genEnd || i < 0 || !isWs(b[i])) return false;
  while (i >= 0 && isWs(b[i]) && genStart - i < 16) i--;
  let num = 0;
  scale = 1;
  const numEnd = i + 1;
  while (i >= 0 && isDigit(b[i]) && numEnd - i <= 10) {
    num += (b[i] - 0x30) * scale;
    scale *= 10;
    i--;
  }
  const numStart = i + 1;
  if (numStart === numEnd || (i >= 0 && isDigit(b[i]))) return false;
  out.num = num;
  out.gen = gen;
  out.headerStart = numStart;
  return true;
}

/** Every indirect object of the file in file order (later definitions of a number come later). */
export function scanObjects(bytes: Uint8Array): ScannedObject[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  // One pass over the bytes for the four keywords ("obj", "endobj", "stream", "endstream").
  const objs: number[] = [];
  const endobjs: number[] = [];
  const streams: number[] = [];
  const endstreams: number[] = [];
  const b = buf;
  const n = b.length;
  for (let i = 0; i + 2 < n; i++) {
    const c = b[i];
    if (c === 0x6f /* o */) {
      if (b[i + 1] !== 0x62 || b[i + 2] !== 0x6a) continue;
      if (i >= 3 && b[i - 3] === 0x65 && b[i - 2] === 0x6e && b[i - 1] === 0x64) endobjs.push(i - 3);
      else objs.push(i);
    } else if (c === 0x73 /* s */) {
      if (b[i + 1] !== 0x74 || b[i + 2] !== 0x72 || b[i + 3] !== 0x65 || b[i + 4] !== 0x61 || b[i + 5] !== 0x6d) continue;
      if (i >= 3 && b[i - 3] === 0x65 && b[i - 2] === 0x6e && b[i - 1] === 0x64) endstreams.push(i - 3);
      else streams.push(i);
      i += 5;
    }
  }
  const headers: { num: number; gen: number; headerStart: number; start: number }[] = [];
  const h = { num: 0, gen: 0, headerStart: 0 };
  for (const at of objs) {
    // "objects" is not a header.
    if (!isDelimOrWs(buf[at + 3]) && buf[at + 3] !== 0x3e) continue;
    if (!headerBefore(buf, at, h)) continue;
    if (headers.length >= MAX_SCANNED_OBJECTS)
      throw new PdfLimitError(`The PDF has more than ${MAX_SCANNED_OBJECTS.toLocaleString('en')} objects`);
    headers.push({ num: h.num, gen: h.gen, headerStart: h.headerStart, start: at + 3 });
  }
  const out: ScannedObject[] = [];
  // Headers are in file order, so each keyword list is walked once with a cursor (linear, no searches).
  let ie = 0;
  let is = 0;
  for (let k = 0; k < headers.length; k++) {
    const h = headers[k];
    const nextHeader = k + 1 < headers.length ? headers[k + 1].headerStart : bytes.length;
    while (ie < endobjs.length && endobjs[ie] < h.start) ie++;
    while (is < streams.length && streams[is] < h.start) is++;
    const endobj = ie < endobjs.length ? endobjs[ie] : undefined;
    const terminated = endobj !== undefined && endobj < nextHeader;
    let end = terminated ? endobj : nextHeader;
    const streamKw = is < streams.length ? streams[is] : undefined;
    const obj: ScannedObject = { num: h.num, gen: h.gen, start: h.start, end, dictEnd: end, terminated };
    if (streamKw !== undefined && streamKw < end) {
      obj.dictEnd = streamKw;
      let s = streamKw + 6;
      if (buf[s] === 0x0d) s++;
      if (buf[s] === 0x0a) s++;
      // The data runs to "endstream" even across what looks like a later header (binary data may contain "obj").
      const e = firstAtLeast(endstreams, s);
      obj.streamStart = s;
      obj.streamEnd = e === undefined ? bytes.length : e;
      if (obj.streamEnd > end) end = obj.end = Math.max(end, obj.streamEnd);
    }
    out.push(obj);
  }
  return out;
}
