/**
 * TrueType programs: read the tables a PDF needs (glyph outlines, advance widths, cmap), and write a subset with
 * chosen advance widths and a fresh cmap, or a copy with some advance widths changed. Used to embed the shipped
 * substitutes (src/pdf/repair/fonts.ts) and to correct programs already embedded in a PDF, so every count, offset
 * and length read from a program is checked against the bytes that exist before anything is allocated or looped
 * over; a malformed program is a FontProgramError, never a crash or a stall.
 */

export class FontProgramError extends Error {}

const fail = (why: string): never => {
  throw new FontProgramError(`malformed TrueType program: ${why}`);
};

interface TableRef {
  offset: number;
  length: number;
}

export interface TrueTypeFont {
  bytes: Uint8Array;
  tables: Map<string, TableRef>;
  unitsPerEm: number;
  numGlyphs: number;
  /** Font bounding box in font units. */
  bbox: [number, number, number, number];
  ascender: number;
  descender: number;
  /** OS/2 sCapHeight when present, else the ascender. */
  capHeight: number;
  italicAngle: number;
  isFixedPitch: boolean;
  /** OS/2 usWeightClass (400 when absent). */
  weight: number;
  advance(gid: number): number;
  /** Glyph for a Unicode code point from the (3,10) or (3,1) cmap; 0 when the font has none. */
  glyphForUnicode(cp: number): number;
  /** Glyph for a code through one cmap subtable ("platform,encoding"); undefined when the subtable is absent. */
  cmapLookup(key: string, code: number): number | undefined;
  cmapKeys(): string[];
  /** The glyph's outline record (empty for a glyph without outline). */
  glyph(gid: number): Uint8Array;
  /** Component glyph ids of a composite glyph (none for a simple glyph). */
  components(gid: number): number[];
}

/** Most tables a program may have; a directory claiming more is not a font. */
const MAX_TABLES = 256;

export function parseTrueType(input: Uint8Array): TrueTypeFont {
  // A plain Uint8Array view: Buffer.prototype.slice shares memory, and the writers below copy tables with slice().
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (bytes.length < 12) fail('shorter than its header');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(0);
  if (version !== 0x00010000 && version !== 0x74727565 /* 'true' */) fail('not a TrueType outline program');
  const count = dv.getUint16(4);
  if (count > MAX_TABLES || 12 + count * 16 > bytes.length) fail('table directory past the end');
  const tables = new Map<string, TableRef>();
  for (let i = 0; i < count; i++) {
    const o = 12 + i * 16;
    const tag = String.fromCharCode(bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]);
    const offset = dv.getUint32(o + 8);
    const length = dv.getUint32(o + 12);
    if (offset > bytes.length || length > bytes.length - offset) continue; // a table past the end is absent
    tables.set(tag, { offset, length });
  }
  const need = (tag: string, min: number): TableRef => {
    const t = tables.get(tag);
    if (!t) return fail(`no ${tag} table`);
    if (t.length < min) fail(`${tag} table too short`);
    return t;
  };
  const head = need('head', 54);
  const maxp = need('maxp', 6);
  const hhea = need('hhea', 36);
  const hmtx = need('hmtx', 0);
  const loca = need('loca', 0);
  const glyf = need('glyf', 0);
  const unitsPerEm = dv.getUint16(head.offset + 18);
  if (unitsPerEm < 16 || unitsPerEm > 16384) fail('unitsPerEm out of range');
  const longLoca = dv.getInt16(head.offset + 50) === 1;
  const numGlyphs = dv.getUint16(maxp.offset + 4);
  if (numGlyphs === 0) fail('no glyphs');
  if (loca.length < (numGlyphs + 1) * (longLoca ? 4 : 2)) fail('loca shorter than numGlyphs');
  const numH = dv.getUint16(hhea.offset + 34);
  if (numH === 0 || numH > numGlyphs || hmtx.length < numH * 4) fail('hmtx shorter than numberOfHMetrics');

  const locaAt = (gid: number): number => (longLoca ? dv.getUint32(loca.offset + gid * 4) : dv.getUint16(loca.offset + gid * 2) * 2);
  const glyph = (gid: number): Uint8Array => {
    if (gid < 0 || gid >= numGlyphs) return new Uint8Array(0);
    const start = locaAt(gid);
    const end = locaAt(gid + 1);
    if (end <= start || end > glyf.length) return new Uint8Array(0);
    return bytes.subarray(glyf.offset + start, glyf.offset + end);
  };
  const advance = (gid: number): number => dv.getUint16(hmtx.offset + Math.min(Math.max(gid, 0), numH - 1) * 4);

  const cmaps = readCmaps(dv, tables.get('cmap'));
  const unicode = cmaps.get('3,10') ?? cmaps.get('3,1');

  const os2 = tables.get('OS/2');
  const post = tables.get('post');
  const s16 = (t: TableRef | undefined, at: number, min: number): number | undefined =>
    t && t.length >= min ? dv.getInt16(t.offset + at) : undefined;
  const ascender = s16(os2, 68, 78) ?? dv.getInt16(hhea.offset + 4);
  const descender = s16(os2, 70, 78) ?? dv.getInt16(hhea.offset + 6);
  return {
    bytes,
    tables,
    unitsPerEm,
    numGlyphs,
    bbox: [dv.getInt16(head.offset + 36), dv.getInt16(head.offset + 38), dv.getInt16(head.offset + 40), dv.getInt16(head.offset + 42)],
    ascender,
    descender,
    capHeight: (os2 && os2.length >= 90 && dv.getUint16(os2.offset) >= 2 ? dv.getInt16(os2.offset + 88) : 0) || ascender,
    italicAngle: post && post.length >= 32 ? dv.getInt32(post.offset + 4) / 65536 : 0,
    isFixedPitch: post && post.length >= 32 ? dv.getUint32(post.offset + 12) !== 0 : false,
    weight: os2 && os2.length >= 6 ? dv.getUint16(os2.offset + 4) : 400,
    advance,
    glyphForUnicode: (cp) => {
      const g = unicode?.(cp);
      return g !== undefined && g < numGlyphs ? g : 0;
    },
    cmapLookup: (key, code) => {
      const f = cmaps.get(key);
      if (!f) return undefined;
      const g = f(code);
      return g !== undefined && g < numGlyphs ? g : undefined;
    },
    cmapKeys: () => [...cmaps.keys()],
    glyph,
    components: (gid) => componentsOf(glyph(gid)),
  };
}

// ---------------------------------------------------------------------------------------------
// cmap

type CodeToGlyph = (code: number) => number | undefined;

/** Subtables per "platform,encoding" (formats 0, 4, 6, 12), each bounds-checked against its table. */
function readCmaps(dv: DataView, cmap: TableRef | undefined): Map<string, CodeToGlyph> {
  const out = new Map<string, CodeToGlyph>();
  if (!cmap || cmap.length < 4) return out;
  const end = cmap.offset + cmap.length;
  const count = dv.getUint16(cmap.offset + 2);
  for (let i = 0; i < count && i < 64; i++) {
    const rec = cmap.offset + 4 + i * 8;
    if (rec + 8 > end) break;
    const key = `${dv.getUint16(rec)},${dv.getUint16(rec + 2)}`;
    const at = cmap.offset + dv.getUint32(rec + 4);
    if (out.has(key) || at + 4 > end) continue;
    const f = readSubtable(dv, at, end);
    if (f) out.set(key, f);
  }
  return out;
}

function readSubtable(dv: DataView, at: number, end: number): CodeToGlyph | undefined {
  const format = dv.getUint16(at);
  if (format === 0) {
    if (at + 262 > end) return undefined;
    return (c) => (c >= 0 && c < 256 ? dv.getUint8(at + 6 + c) : undefined);
  }
  if (format === 4) {
    if (at + 14 > end) return undefined;
    const len = Math.min(dv.getUint16(at + 2), end - at);
    const segX2 = dv.getUint16(at + 6);
    const ends = at + 14;
    const starts = ends + segX2 + 2;
    const deltas = starts + segX2;
    const ranges = deltas + segX2;
    if (segX2 % 2 !== 0 || ranges + segX2 > at + len) return undefined;
    const limit = at + len;
    return (c) => {
      // Binary search over the end codes.
      let lo = 0;
      let hi = segX2 / 2 - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (dv.getUint16(ends + mid * 2) < c) lo = mid + 1;
        else hi = mid;
      }
      const i = lo * 2;
      if (c > dv.getUint16(ends + i)) return undefined;
      const start = dv.getUint16(starts + i);
      if (c < start) return undefined;
      const delta = dv.getInt16(deltas + i);
      const ro = dv.getUint16(ranges + i);
      if (ro === 0) return (c + delta) & 0xffff;
      const p = ranges + i + ro + (c - start) * 2;
      if (p + 2 > limit) return undefined;
      const g = dv.getUint16(p);
      return g === 0 ? 0 : (g + delta) & 0xffff;
    };
  }
  if (format === 6) {
    if (at + 10 > end) return undefined;
    const first = dv.getUint16(at + 6);
    const n = dv.getUint16(at + 8);
    if (at + 10 + n * 2 > end) return undefined;
    return (c) => (c >= first && c < first + n ? dv.getUint16(at + 10 + (c - first) * 2) : undefined);
  }
  if (format === 12) {
    if (at + 16 > end) return undefined;
    const groups = dv.getUint32(at + 12);
    if (groups > (end - at - 16) / 12) return undefined;
    return (c) => {
      let lo = 0;
      let hi = groups - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const g = at + 16 + mid * 12;
        const s = dv.getUint32(g);
        const e = dv.getUint32(g + 4);
        if (c < s) hi = mid - 1;
        else if (c > e) lo = mid + 1;
        else return dv.getUint32(g + 8) + (c - s);
      }
      return undefined;
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Composite glyphs

const ARGS_ARE_WORDS = 0x0001;
const HAVE_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const HAVE_XY_SCALE = 0x0040;
const HAVE_2X2 = 0x0080;
const HAVE_INSTRUCTIONS = 0x0100;

/** Offsets (inside the glyph record) of each component's glyph index, for a composite glyph. */
function componentOffsets(g: Uint8Array): number[] {
  if (g.length < 10 || ((g[0] << 8) | g[1]) !== 0xffff) return []; // numberOfContours −1 = composite
  const out: number[] = [];
  let p = 10;
  for (let n = 0; n < 256 && p + 4 <= g.length; n++) {
    const flags = (g[p] << 8) | g[p + 1];
    out.push(p + 2);
    p += 4 + (flags & ARGS_ARE_WORDS ? 4 : 2);
    if (flags & HAVE_SCALE) p += 2;
    else if (flags & HAVE_XY_SCALE) p += 4;
    else if (flags & HAVE_2X2) p += 8;
    if (!(flags & MORE_COMPONENTS)) break;
  }
  return out.filter((o) => o + 2 <= g.length);
}

function componentsOf(g: Uint8Array): number[] {
  return componentOffsets(g).map((o) => (g[o] << 8) | g[o + 1]);
}

// ---------------------------------------------------------------------------------------------
// Writing

export interface SubsetGlyph {
  /** Glyph id in the source program. */
  source: number;
  /** Advance width in the source's font units. */
  advance: number;
}

export interface SubsetOptions {
  /** Glyphs of the subset in order: the subset's glyph 1 is glyphs[0] (glyph 0 is always the source's .notdef). */
  glyphs: SubsetGlyph[];
  /** (3,1) subtable: Unicode code point → subset glyph id. */
  unicode?: Map<number, number>;
  /** (1,0) subtable: Mac Roman code → subset glyph id. */
  macRoman?: Map<number, number>;
  /** (3,0) subtable: code c mapped at 0xF000 + c → subset glyph id (symbolic fonts). */
  symbol?: Map<number, number>;
  /** PostScript name written to the name table (the name the PDF asked for; never a Reserved Font Name). */
  postScriptName: string;
  /**
   * Keep the TrueType hinting (glyph instructions, fpgm, prep, cvt). Off by default: PDF viewers (pdf.js, poppler,
   * Acrobat) render embedded TrueType unhinted, and the hints are more than half of a compressed subset.
   */
  hinting?: boolean;
}

export interface SubsetResult {
  bytes: Uint8Array;
  /** Glyph count of the subset (.notdef, the requested glyphs, and the components composites need). */
  numGlyphs: number;
}

/** Tables copied from the source as they are when hinting is kept (the programs the glyph instructions call). */
const HINTING_TABLES = ['cvt ', 'fpgm', 'prep', 'gasp'];

/**
 * A glyph record without its instructions: a simple glyph's instruction bytes cut out (length 0), a composite's
 * WE_HAVE_INSTRUCTIONS flag cleared and its trailing instructions dropped. A record that does not parse is kept.
 */
function withoutInstructions(g: Uint8Array): Uint8Array {
  if (g.length < 10) return g;
  const contours = (g[0] << 8) | g[1];
  if (contours === 0xffff) {
    const offs = componentOffsets(g);
    if (offs.length === 0) return g;
    // The end of the last component: flags and index at offs[-1] - 2, then its arguments and transform.
    const last = offs[offs.length - 1] - 2;
    const flags = (g[last] << 8) | g[last + 1];
    if (!(flags & HAVE_INSTRUCTIONS)) return g;
    let end = last + 4 + (flags & ARGS_ARE_WORDS ? 4 : 2);
    if (flags & HAVE_SCALE) end += 2;
    else if (flags & HAVE_XY_SCALE) end += 4;
    else if (flags & HAVE_2X2) end += 8;
    if (end > g.length) return g;
    const out = g.slice(0, end);
    out[last] &= ~(HAVE_INSTRUCTIONS >> 8);
    return out;
  }
  if (contours > 0x7fff) return g; // other negative counts are not defined
  const lenAt = 10 + contours * 2;
  if (lenAt + 2 > g.length) return g;
  const n = (g[lenAt] << 8) | g[lenAt + 1];
  if (n === 0 || lenAt + 2 + n > g.length) return g;
  const out = new Uint8Array(g.length - n);
  out.set(g.subarray(0, lenAt));
  out.set(g.subarray(lenAt + 2 + n), lenAt + 2); // instructionLength stays 0 (the new array is zeroed)
  return out;
}

/**
 * A subset of `font` with the given glyphs, each with its own advance width, and a new cmap. Composite glyphs bring
 * their components (renumbered). Hinting tables are kept; layout tables (GSUB, GPOS, kern) are not (a PDF positions
 * every glyph itself).
 */
export function subsetTrueType(font: TrueTypeFont, opts: SubsetOptions): SubsetResult {
  const order: number[] = [0];
  const advances: number[] = [font.advance(0)];
  for (const g of opts.glyphs) {
    order.push(g.source >= 0 && g.source < font.numGlyphs ? g.source : 0);
    advances.push(g.advance);
  }
  // Components: each source glyph used as a component gets one subset id (appended), closed transitively.
  const componentId = new Map<number, number>();
  for (let i = 0; i < order.length && order.length < 65535; i++) {
    for (const c of font.components(order[i])) {
      if (c >= font.numGlyphs || componentId.has(c)) continue;
      componentId.set(c, order.length);
      order.push(c);
      advances.push(font.advance(c));
    }
  }
  if (order.length > 65535) throw new FontProgramError('subset needs more than 65,535 glyphs');

  const glyphs: Uint8Array[] = order.map((src) => {
    const g = opts.hinting ? font.glyph(src) : withoutInstructions(font.glyph(src));
    const offs = componentOffsets(g);
    if (offs.length === 0) return g;
    const copy = g.slice();
    for (const o of offs) {
      const id = componentId.get((g[o] << 8) | g[o + 1]) ?? 0;
      copy[o] = id >> 8;
      copy[o + 1] = id & 0xff;
    }
    return copy;
  });
  let glyfLen = 0;
  for (const g of glyphs) glyfLen += (g.length + 3) & ~3;
  const glyf = new Uint8Array(glyfLen);
  const loca = new Uint8Array((glyphs.length + 1) * 4);
  const locaView = new DataView(loca.buffer);
  let at = 0;
  glyphs.forEach((g, i) => {
    locaView.setUint32(i * 4, at);
    glyf.set(g, at);
    at += (g.length + 3) & ~3;
  });
  locaView.setUint32(glyphs.length * 4, at);

  const hmtx = new Uint8Array(glyphs.length * 4);
  const hv = new DataView(hmtx.buffer);
  let maxAdvance = 0;
  glyphs.forEach((g, i) => {
    const adv = Math.max(0, Math.min(0xffff, Math.round(advances[i])));
    maxAdvance = Math.max(maxAdvance, adv);
    hv.setUint16(i * 4, adv);
    hv.setInt16(i * 4 + 2, g.length >= 10 ? (g[2] << 8) | g[3] : 0); // lsb = xMin of the outline
  });

  const tables = new Map<string, Uint8Array>();
  const src = (tag: string): Uint8Array => {
    const t = font.tables.get(tag)!;
    return font.bytes.slice(t.offset, t.offset + t.length);
  };
  const head = src('head');
  new DataView(head.buffer).setInt16(50, 1); // long loca offsets
  const hhea = src('hhea');
  new DataView(hhea.buffer).setUint16(10, maxAdvance);
  new DataView(hhea.buffer).setUint16(34, glyphs.length);
  const maxp = src('maxp');
  new DataView(maxp.buffer).setUint16(4, glyphs.length);
  tables.set('head', head);
  tables.set('hhea', hhea);
  tables.set('maxp', maxp);
  tables.set('hmtx', hmtx);
  tables.set('loca', loca);
  tables.set('glyf', glyf);
  if (opts.hinting) for (const tag of HINTING_TABLES) if (font.tables.has(tag)) tables.set(tag, src(tag));
  tables.set('cmap', writeCmap(opts));
  tables.set('post', writePost(font));
  tables.set('name', writeName(font, opts.postScriptName));
  return { bytes: writeSfnt(tables), numGlyphs: glyphs.length };
}

/**
 * A copy of the program with some advance widths changed (gid → advance in font units); everything else is kept
 * byte for byte. hmtx is written with one long metric per glyph so any glyph can change.
 */
export function withAdvances(font: TrueTypeFont, changes: Map<number, number>): Uint8Array {
  const hmtx = new Uint8Array(font.numGlyphs * 4);
  const hv = new DataView(hmtx.buffer);
  const srcHmtx = font.tables.get('hmtx')!;
  const sv = new DataView(font.bytes.buffer, font.bytes.byteOffset + srcHmtx.offset, srcHmtx.length);
  const hhea = font.tables.get('hhea')!;
  const numH = new DataView(font.bytes.buffer, font.bytes.byteOffset + hhea.offset).getUint16(34);
  let maxAdvance = 0;
  for (let gid = 0; gid < font.numGlyphs; gid++) {
    const adv = Math.max(0, Math.min(0xffff, Math.round(changes.get(gid) ?? font.advance(gid))));
    const lsbAt = gid < numH ? gid * 4 + 2 : numH * 4 + (gid - numH) * 2;
    const lsb = lsbAt + 2 <= srcHmtx.length ? sv.getInt16(lsbAt) : 0;
    maxAdvance = Math.max(maxAdvance, adv);
    hv.setUint16(gid * 4, adv);
    hv.setInt16(gid * 4 + 2, lsb);
  }
  const tables = new Map<string, Uint8Array>();
  for (const [tag, t] of font.tables) tables.set(tag, font.bytes.slice(t.offset, t.offset + t.length));
  tables.set('hmtx', hmtx);
  const newHhea = tables.get('hhea')!;
  new DataView(newHhea.buffer).setUint16(10, maxAdvance);
  new DataView(newHhea.buffer).setUint16(34, font.numGlyphs);
  return writeSfnt(tables);
}

/** cmap with the requested subtables, each format 4 (or format 0/6 for Mac Roman), sorted by platform/encoding. */
function writeCmap(opts: SubsetOptions): Uint8Array {
  const subs: { platform: number; encoding: number; data: Uint8Array }[] = [];
  if (opts.macRoman && opts.macRoman.size > 0) subs.push({ platform: 1, encoding: 0, data: macSubtable(opts.macRoman) });
  if (opts.symbol && opts.symbol.size > 0) {
    const shifted = new Map<number, number>();
    for (const [c, g] of opts.symbol) shifted.set(0xf000 + (c & 0xff), g);
    subs.push({ platform: 3, encoding: 0, data: format4(shifted) });
  }
  if (opts.unicode && opts.unicode.size > 0) {
    const bmp = new Map([...opts.unicode].filter(([cp]) => cp < 0xffff));
    subs.push({ platform: 3, encoding: 1, data: format4(bmp) });
  }
  const headerLen = 4 + subs.length * 8;
  const out = new Uint8Array(headerLen + subs.reduce((n, s) => n + s.data.length, 0));
  const dv = new DataView(out.buffer);
  dv.setUint16(2, subs.length);
  let at = headerLen;
  subs.forEach((s, i) => {
    dv.setUint16(4 + i * 8, s.platform);
    dv.setUint16(6 + i * 8, s.encoding);
    dv.setUint32(8 + i * 8, at);
    out.set(s.data, at);
    at += s.data.length;
  });
  return out;
}

function macSubtable(map: Map<number, number>): Uint8Array {
  const small = [...map.values()].every((g) => g < 256);
  if (small) {
    const out = new Uint8Array(262);
    const dv = new DataView(out.buffer);
    dv.setUint16(2, 262);
    for (const [c, g] of map) if (c >= 0 && c < 256) out[6 + c] = g;
    return out;
  }
  const out = new Uint8Array(10 + 256 * 2);
  const dv = new DataView(out.buffer);
  dv.setUint16(0, 6);
  dv.setUint16(2, out.length);
  dv.setUint16(6, 0);
  dv.setUint16(8, 256);
  for (const [c, g] of map) if (c >= 0 && c < 256) dv.setUint16(10 + c * 2, g);
  return out;
}

/** Format 4: one segment per run of consecutive codes with consecutive glyph ids, then the final 0xFFFF segment. */
function format4(map: Map<number, number>): Uint8Array {
  const codes = [...map.keys()].filter((c) => c >= 0 && c < 0xffff).sort((a, b) => a - b);
  const segs: { start: number; end: number; delta: number }[] = [];
  for (const c of codes) {
    const delta = (map.get(c)! - c) & 0xffff;
    const last = segs[segs.length - 1];
    if (last && last.end === c - 1 && last.delta === delta) last.end = c;
    else segs.push({ start: c, end: c, delta });
  }
  segs.push({ start: 0xffff, end: 0xffff, delta: 1 });
  const n = segs.length;
  const len = 16 + n * 8;
  const out = new Uint8Array(len);
  const dv = new DataView(out.buffer);
  dv.setUint16(0, 4);
  dv.setUint16(2, len);
  dv.setUint16(6, n * 2);
  const pow = 2 ** Math.floor(Math.log2(n));
  dv.setUint16(8, pow * 2);
  dv.setUint16(10, Math.log2(pow));
  dv.setUint16(12, n * 2 - pow * 2);
  segs.forEach((s, i) => {
    dv.setUint16(14 + i * 2, s.end);
    dv.setUint16(16 + n * 2 + i * 2, s.start);
    dv.setUint16(16 + n * 4 + i * 2, s.delta);
    dv.setUint16(16 + n * 6 + i * 2, 0);
  });
  return out;
}

/** post format 3 (no glyph names): italic angle, underline and fixed-pitch facts from the source. */
function writePost(font: TrueTypeFont): Uint8Array {
  const out = new Uint8Array(32);
  const t = font.tables.get('post');
  if (t && t.length >= 32) out.set(font.bytes.subarray(t.offset, t.offset + 32));
  new DataView(out.buffer).setUint32(0, 0x00030000);
  return out;
}

/**
 * name table: the source's copyright, licence and licence URL records (Windows, Unicode) kept, and the family,
 * full and PostScript names set to the name the PDF uses for the font.
 */
function writeName(font: TrueTypeFont, psName: string): Uint8Array {
  const records: { id: number; text: Uint8Array }[] = [];
  const t = font.tables.get('name');
  if (t && t.length >= 6) {
    const dv = new DataView(font.bytes.buffer, font.bytes.byteOffset + t.offset, t.length);
    const count = dv.getUint16(2);
    const strings = dv.getUint16(4);
    for (let i = 0; i < count && 6 + i * 12 + 12 <= t.length; i++) {
      const r = 6 + i * 12;
      const [platform, encoding, language, id, len, off] = [0, 2, 4, 6, 8, 10].map((k) => dv.getUint16(r + k));
      if (platform !== 3 || encoding !== 1 || language !== 0x409 || ![0, 13, 14].includes(id)) continue;
      if (strings + off + len > t.length) continue;
      records.push({ id, text: font.bytes.slice(t.offset + strings + off, t.offset + strings + off + len) });
    }
  }
  const utf16 = (s: string): Uint8Array => {
    const b = new Uint8Array(s.length * 2);
    for (let i = 0; i < s.length; i++) {
      b[i * 2] = s.charCodeAt(i) >> 8;
      b[i * 2 + 1] = s.charCodeAt(i) & 0xff;
    }
    return b;
  };
  const ps = psName.replace(/[^\x21-\x7e]|[[\](){}<>/%]/g, '').slice(0, 63) || 'Substitute';
  records.push({ id: 1, text: utf16(ps) }, { id: 2, text: utf16('Regular') }, { id: 4, text: utf16(ps) }, { id: 6, text: utf16(ps) });
  records.sort((a, b) => a.id - b.id);
  const headerLen = 6 + records.length * 12;
  const out = new Uint8Array(headerLen + records.reduce((n, r) => n + r.text.length, 0));
  const dv = new DataView(out.buffer);
  dv.setUint16(2, records.length);
  dv.setUint16(4, headerLen);
  let at = 0;
  records.forEach((r, i) => {
    const o = 6 + i * 12;
    dv.setUint16(o, 3);
    dv.setUint16(o + 2, 1);
    dv.setUint16(o + 4, 0x409);
    dv.setUint16(o + 6, r.id);
    dv.setUint16(o + 8, r.text.length);
    dv.setUint16(o + 10, at);
    out.set(r.text, headerLen + at);
    at += r.text.length;
  });
  return out;
}

function checksum(b: Uint8Array, start = 0, length = b.length): number {
  let sum = 0;
  const end = start + length;
  for (let i = start; i < end; i += 4) {
    const w =
      ((b[i] ?? 0) << 24) | ((i + 1 < end ? b[i + 1] : 0) << 16) | ((i + 2 < end ? b[i + 2] : 0) << 8) | (i + 3 < end ? b[i + 3] : 0);
    sum = (sum + (w >>> 0)) >>> 0;
  }
  return sum;
}

/** An sfnt file from tables: directory sorted by tag, 4-byte aligned tables, checksums and head.checkSumAdjustment. */
export function writeSfnt(tables: Map<string, Uint8Array>): Uint8Array {
  const tags = [...tables.keys()].sort();
  const n = tags.length;
  let size = 12 + n * 16;
  for (const t of tags) size += (tables.get(t)!.length + 3) & ~3;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x00010000);
  dv.setUint16(4, n);
  const pow = 2 ** Math.floor(Math.log2(n));
  dv.setUint16(6, pow * 16);
  dv.setUint16(8, Math.log2(pow));
  dv.setUint16(10, n * 16 - pow * 16);
  let at = 12 + n * 16;
  let headAt = -1;
  tags.forEach((tag, i) => {
    const data = tables.get(tag)!;
    if (tag === 'head') {
      new DataView(data.buffer, data.byteOffset).setUint32(8, 0); // checkSumAdjustment is computed last
      headAt = at;
    }
    const o = 12 + i * 16;
    for (let k = 0; k < 4; k++) out[o + k] = tag.charCodeAt(k);
    dv.setUint32(o + 4, checksum(data));
    dv.setUint32(o + 8, at);
    dv.setUint32(o + 12, data.length);
    out.set(data, at);
    at += (data.length + 3) & ~3;
  });
  if (headAt >= 0) dv.setUint32(headAt + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}
