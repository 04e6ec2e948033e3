/**
 * Just enough of TrueType for the glyph rules (6.2.11.4.1-2 glyph present, 6.2.11.5-1 widths, 6.2.11.8-1
 * no .notdef): the table directory, numGlyphs, unitsPerEm, advance widths and the cmap subtables.
 * Everything is bounds-checked; a malformed program yields undefined and the rules stay silent.
 */

export interface TrueTypeInfo {
  numGlyphs: number;
  unitsPerEm: number;
  advance(gid: number): number | undefined;
  /** cmap subtables by "platform,encoding". */
  cmaps: Map<string, (code: number) => number | undefined>;
}

export function readTrueType(d: Uint8Array): TrueTypeInfo | undefined {
  try {
    return parse(d);
  } catch {
    return undefined;
  }
}

function parse(d: Uint8Array): TrueTypeInfo | undefined {
  if (d.length < 12) return undefined;
  const dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const n = dv.getUint16(4);
  const tables = new Map<string, { off: number; len: number }>();
  for (let i = 0; i < n && 12 + i * 16 + 16 <= d.length; i++) {
    const o = 12 + i * 16;
    const off = dv.getUint32(o + 8);
    const len = dv.getUint32(o + 12);
    if (off + len > d.length) continue;
    tables.set(String.fromCharCode(d[o], d[o + 1], d[o + 2], d[o + 3]), { off, len });
  }
  const maxp = tables.get('maxp');
  const head = tables.get('head');
  const hhea = tables.get('hhea');
  const hmtx = tables.get('hmtx');
  if (!maxp || !head) return undefined;
  const numGlyphs = dv.getUint16(maxp.off + 4);
  const unitsPerEm = dv.getUint16(head.off + 18) || 1000;
  const numH = hhea ? dv.getUint16(hhea.off + 34) : 0;
  const advance = (gid: number): number | undefined => {
    if (!hmtx || numH === 0 || gid >= numGlyphs) return undefined;
    const i = Math.min(gid, numH - 1);
    if (i * 4 + 2 > hmtx.len) return undefined;
    return dv.getUint16(hmtx.off + i * 4);
  };
  const cmaps = new Map<string, (code: number) => number | undefined>();
  const cmap = tables.get('cmap');
  if (cmap) {
    const count = dv.getUint16(cmap.off + 2);
    for (let i = 0; i < count && i < 64; i++) {
      const rec = cmap.off + 4 + i * 8;
      if (rec + 8 > d.length) break;
      const key = `${dv.getUint16(rec)},${dv.getUint16(rec + 2)}`;
      const sub = cmap.off + dv.getUint32(rec + 4);
      if (sub + 6 > d.length) continue;
      const f = subtable(dv, sub);
      if (f) cmaps.set(key, f);
    }
  }
  return { numGlyphs, unitsPerEm, advance, cmaps };
}

function subtable(dv: DataView, at: number): ((code: number) => number | undefined) | undefined {
  const format = dv.getUint16(at);
  if (format === 0) {
    return (c) => (c >= 0 && c < 256 ? dv.getUint8(at + 6 + c) : undefined);
  }
  if (format === 4) {
    const segX2 = dv.getUint16(at + 6);
    const ends = at + 14;
    const starts = ends + segX2 + 2;
    const deltas = starts + segX2;
    const ranges = deltas + segX2;
    return (c) => {
      for (let i = 0; i < segX2; i += 2) {
        const end = dv.getUint16(ends + i);
        if (c > end) continue;
        const start = dv.getUint16(starts + i);
        if (c < start) return undefined;
        const delta = dv.getInt16(deltas + i);
        const ro = dv.getUint16(ranges + i);
        if (ro === 0) return (c + delta) & 0xffff;
        const g = dv.getUint16(ranges + i + ro + (c - start) * 2);
        return g === 0 ? 0 : (g + delta) & 0xffff;
      }
      return undefined;
    };
  }
  if (format === 6) {
    const first = dv.getUint16(at + 6);
    const count = dv.getUint16(at + 8);
    return (c) => (c >= first && c < first + count ? dv.getUint16(at + 10 + (c - first) * 2) : undefined);
  }
  if (format === 12) {
    const groups = dv.getUint32(at + 12);
    return (c) => {
      for (let i = 0; i < groups && i < 100_000; i++) {
        const g = at + 16 + i * 12;
        const s = dv.getUint32(g);
        const e = dv.getUint32(g + 4);
        if (c >= s && c <= e) return dv.getUint32(g + 8) + (c - s);
      }
      return undefined;
    };
  }
  return undefined;
}

/**
 * WinAnsiEncoding code → Unicode. 0x80–0x9F differ from Latin-1 (Node's TextDecoder treats windows-1252 as
 * Latin-1, so the block is spelled out; 0 = undefined in WinAnsi).
 */
const WIN_80_9F = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];
export function winAnsiUnicode(code: number): number {
  return code >= 0x80 && code <= 0x9f ? WIN_80_9F[code - 0x80] || code : code;
}

/**
 * CID-keyed CFF (FontFile3 /CIDFontType0C): the set of CIDs the program defines, from the Top DICT's
 * charset (GID → CID). Undefined for name-keyed CFF or a malformed program.
 */
export function cffCids(d: Uint8Array): Set<number> | undefined {
  try {
    return parseCffCids(d);
  } catch {
    return undefined;
  }
}

function readIndex(d: Uint8Array, at: number): { items: [number, number][]; end: number } {
  const count = (d[at] << 8) | d[at + 1];
  if (count === 0) return { items: [], end: at + 2 };
  const offSize = d[at + 2];
  if (offSize < 1 || offSize > 4) throw new Error('bad INDEX');
  const off = (i: number) => {
    let v = 0;
    for (let k = 0; k < offSize; k++) v = v * 256 + d[at + 3 + i * offSize + k];
    return v;
  };
  const base = at + 2 + (count + 1) * offSize;
  const items: [number, number][] = [];
  for (let i = 0; i < count; i++) items.push([base + off(i), base + off(i + 1)]);
  const end = base + off(count);
  if (end > d.length) throw new Error('INDEX past the end');
  return { items, end };
}

function parseDict(d: Uint8Array, start: number, end: number): Map<number, number[]> {
  const out = new Map<number, number[]>();
  let ops: number[] = [];
  for (let p = start; p < end; ) {
    const b0 = d[p];
    if (b0 <= 21) {
      const op = b0 === 12 ? 1200 + d[p + 1] : b0;
      p += b0 === 12 ? 2 : 1;
      out.set(op, ops);
      ops = [];
    } else if (b0 === 28) {
      ops.push(((d[p + 1] << 24) >> 16) | d[p + 2]);
      p += 3;
    } else if (b0 === 29) {
      ops.push((d[p + 1] << 24) | (d[p + 2] << 16) | (d[p + 3] << 8) | d[p + 4]);
      p += 5;
    } else if (b0 === 30) {
      p++;
      while (p < end && (d[p] & 0x0f) !== 0x0f && d[p] >> 4 !== 0x0f) p++;
      p++;
      ops.push(0);
    } else if (b0 >= 32 && b0 <= 246) {
      ops.push(b0 - 139);
      p++;
    } else if (b0 >= 247 && b0 <= 250) {
      ops.push((b0 - 247) * 256 + d[p + 1] + 108);
      p += 2;
    } else if (b0 >= 251 && b0 <= 254) {
      ops.push(-(b0 - 251) * 256 - d[p + 1] - 108);
      p += 2;
    } else p++;
  }
  return out;
}

function parseCffCids(d: Uint8Array): Set<number> | undefined {
  if (d.length < 4) return undefined;
  const names = readIndex(d, d[2]);
  const top = readIndex(d, names.end);
  if (top.items.length === 0) return undefined;
  const dict = parseDict(d, top.items[0][0], top.items[0][1]);
  if (!dict.has(1230)) return undefined; // ROS: only CID-keyed fonts
  const csOff = dict.get(17)?.[0];
  const charsetOff = dict.get(15)?.[0];
  if (csOff === undefined || charsetOff === undefined || charsetOff < 3) return undefined;
  const nGlyphs = readIndex(d, csOff).items.length;
  const cids = new Set<number>([0]);
  let p = charsetOff;
  const format = d[p++];
  let gid = 1;
  if (format === 0) {
    for (; gid < nGlyphs; gid++, p += 2) cids.add((d[p] << 8) | d[p + 1]);
  } else if (format === 1 || format === 2) {
    while (gid < nGlyphs && p < d.length) {
      const first = (d[p] << 8) | d[p + 1];
      const nLeft = format === 1 ? d[p + 2] : (d[p + 2] << 8) | d[p + 3];
      p += format === 1 ? 3 : 4;
      for (let k = 0; k <= nLeft && gid < nGlyphs; k++, gid++) cids.add(first + k);
    }
  } else return undefined;
  return cids;
}
