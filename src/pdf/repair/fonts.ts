/**
 * PDF/A-3b font repairs (ISO 19005-3 6.2.11): each a Repair (types.ts) named after the clauses it satisfies.
 *
 * - embedFonts (6.2.11.4.1-1): a font used for text but not embedded gets a metric-compatible free substitute
 *   (assets/fonts, mapping in ../fonts/substitutes.ts), subset to the glyphs the document shows. The font keeps its
 *   encoding and its /Widths, so every glyph stays where it was; the substitute's advance widths are set to the
 *   PDF's widths (6.2.11.5). Simple Type 1 and TrueType text fonts become TrueType (FontFile2, non-symbolic, with a
 *   (3,1) cmap and the encoding as WinAnsi/MacRoman, or WinAnsi plus /Differences: 6.2.11.6); Symbol and
 *   ZapfDingbats become Type 1 with a CFF program (FontFile3 /Type1C) and their built-in encoding spelled out as
 *   /Differences; Type 0 fonts with Identity-H/V (Word's Arial, Calibri, ...) become CIDFontType2 whose CIDs are
 *   mapped through /ToUnicode to the substitute's glyphs by a CIDToGIDMap stream.
 * - cidToGidMap (6.2.11.3.2-1): an embedded CIDFontType2 without /CIDToGIDMap gets /Identity, the meaning its
 *   absence had.
 * - cidSet (6.2.11.4.2-2): an incomplete /CIDSet is dropped (PDF/A-2 and -3 allow its absence).
 * - fontWidths (6.2.11.5-1): an embedded TrueType program whose advance widths differ from /Widths or /W gets the
 *   dictionary's widths. The program is changed, not the dictionary: viewers place each glyph by the dictionary's
 *   width and draw the outline from the same origin whatever the program's advance, so the page stays exactly as
 *   it was; changing /Widths would move the text that follows.
 * - trueTypeEncodings (6.2.11.6-2, -3): a symbolic TrueType font with an /Encoding, or a non-symbolic one without a
 *   WinAnsi/MacRoman encoding, is rewritten only where the glyph every shown code selects stays the same.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFStream, PDFString, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { Font as StandardFont } from '@cantoo/pdf-lib/standard-fonts';
import type { Finding } from '../../pdfa/model.js';
import { findFontAsset, readFontAsset, type FontAsset } from '../fonts/assets.js';
import {
  DINGBATS_ENCODING,
  encodingByName,
  glyphNameUnicode,
  MAC_ROMAN_ENCODING,
  STANDARD_ENCODING,
  SYMBOL_ENCODING,
  unicodeGlyphName,
  WIN_ANSI_ENCODING,
  winAnsiCodeUnicode,
  type CodeNames,
} from '../fonts/encodings.js';
import {
  cleanFontName,
  completeDescriptor,
  embedCffProgram,
  embedTrueTypeProgram,
  familyFlags,
  FLAG_NONSYMBOLIC,
  FLAG_SYMBOLIC,
  subsetTag,
  type DescriptorMetrics,
} from '../fonts/pdf-font.js';
import { substituteFor, withoutSubsetTag, type Substitute } from '../fonts/substitutes.js';
import { parseToUnicode } from '../fonts/tounicode.js';
import { FontProgramError, parseTrueType, subsetTrueType, withAdvances, type SubsetGlyph, type TrueTypeFont } from '../fonts/truetype.js';
import { scanFontUsage, streamBytes, type FontUse } from './font-usage.js';
import type { Repair, RepairContext, RepairOutcome } from './types.js';
import { resourceDicts } from './walk.js';

const N = (n: string) => PDFName.of(n);

// ---------------------------------------------------------------------------------------------
// Small readers of the pdf-lib object graph (one reference followed; anything unexpected is absent)

function resolve(doc: PDFDocument, v: PDFObject | undefined): PDFObject | undefined {
  return v instanceof PDFRef ? doc.context.lookup(v) : v;
}
function dictAt(doc: PDFDocument, d: PDFDict, key: string): PDFDict | undefined {
  const v = resolve(doc, d.get(N(key)));
  return v instanceof PDFDict ? v : undefined;
}
function nameAt(doc: PDFDocument, d: PDFDict, key: string): string | undefined {
  const v = resolve(doc, d.get(N(key)));
  return v instanceof PDFName ? v.decodeText() : undefined;
}
function numberAt(doc: PDFDocument, d: PDFDict, key: string): number | undefined {
  const v = resolve(doc, d.get(N(key)));
  return v instanceof PDFNumber ? v.asNumber() : undefined;
}
function arrayAt(doc: PDFDocument, d: PDFDict, key: string): PDFArray | undefined {
  const v = resolve(doc, d.get(N(key)));
  return v instanceof PDFArray ? v : undefined;
}
function streamAt(doc: PDFDocument, d: PDFDict, key: string): PDFStream | undefined {
  const v = resolve(doc, d.get(N(key)));
  return v instanceof PDFStream ? v : undefined;
}

/** Object numbers of the indirect dictionaries, for messages ("object 12"). */
function objectNames(doc: PDFDocument): (d: PDFObject) => string | undefined {
  let map: Map<PDFObject, string> | undefined;
  return (d) => {
    if (!map) {
      map = new Map();
      for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
        map.set(obj, `object ${ref.objectNumber}`);
        if (obj instanceof PDFStream) map.set(obj.dict, `object ${ref.objectNumber}`);
      }
    }
    return map.get(d);
  };
}

/** The descendant CIDFont of a Type 0 font. */
function descendantOf(doc: PDFDocument, type0: PDFDict): PDFDict | undefined {
  const d = arrayAt(doc, type0, 'DescendantFonts');
  const first = d && d.size() > 0 ? resolve(doc, d.get(0)) : undefined;
  return first instanceof PDFDict ? first : undefined;
}

function programOf(doc: PDFDocument, font: PDFDict): { key: string; stream: PDFStream } | undefined {
  const fd = dictAt(doc, font, 'FontDescriptor');
  if (!fd) return undefined;
  for (const key of ['FontFile', 'FontFile2', 'FontFile3']) {
    const s = streamAt(doc, fd, key);
    if (s) return { key, stream: s };
  }
  return undefined;
}

const parsedAssets = new Map<string, TrueTypeFont>();
function substituteProgram(asset: FontAsset): TrueTypeFont {
  let f = parsedAssets.get(asset.file);
  if (!f) {
    f = parseTrueType(readFontAsset(asset));
    parsedAssets.set(asset.file, f);
  }
  return f;
}

function styleHints(doc: PDFDocument, font: PDFDict): { bold: boolean; italic: boolean } {
  const fd = dictAt(doc, font, 'FontDescriptor');
  const flags = fd ? (numberAt(doc, fd, 'Flags') ?? 0) : 0;
  const weight = fd ? (numberAt(doc, fd, 'FontWeight') ?? 400) : 400;
  const angle = fd ? (numberAt(doc, fd, 'ItalicAngle') ?? 0) : 0;
  return { bold: weight >= 600 || (flags & 0x40000) !== 0, italic: (flags & 64) !== 0 || angle !== 0 };
}

/** The substitute's metrics in glyph space (1000 units per em). */
function trueTypeMetrics(f: TrueTypeFont): DescriptorMetrics {
  const k = 1000 / f.unitsPerEm;
  return {
    bbox: [f.bbox[0] * k, f.bbox[1] * k, f.bbox[2] * k, f.bbox[3] * k],
    ascent: f.ascender * k,
    descent: f.descender * k,
    capHeight: f.capHeight * k,
    italicAngle: f.italicAngle,
  };
}

/** Ligatures a ToUnicode entry may spell out, and their presentation forms. */
const LIGATURES = new Map([
  ['ff', 0xfb00],
  ['fi', 0xfb01],
  ['fl', 0xfb02],
  ['ffi', 0xfb03],
  ['ffl', 0xfb04],
]);

/** A substitute glyph for a text (one character, or a ligature the font has), or 0. */
function glyphForText(f: TrueTypeFont, text: string | undefined): number {
  if (!text) return 0;
  const chars = [...text];
  if (chars.length === 1) return f.glyphForUnicode(chars[0].codePointAt(0)!);
  const lig = LIGATURES.get(text);
  return lig ? f.glyphForUnicode(lig) : 0;
}

// ---------------------------------------------------------------------------------------------
// embed-fonts

export const embedFonts: Repair = {
  name: 'embed-fonts',
  clauses: ['6.2.11.4.1-1'],
  apply(ctx: RepairContext): RepairOutcome {
    const { doc } = ctx;
    const usage = scanFontUsage(doc, ctx.deadline);
    const where = objectNames(doc);
    const unrepaired: Finding[] = [];
    let changed = 0;
    for (const [font, use] of usage.fonts) {
      const subtype = nameAt(doc, font, 'Subtype');
      if (subtype === 'Type3') continue;
      const target = subtype === 'Type0' ? descendantOf(doc, font) : font;
      if (!target || programOf(doc, target)) continue;
      const name = withoutSubsetTag(nameAt(doc, target, 'BaseFont') ?? nameAt(doc, font, 'BaseFont') ?? '(unnamed)');
      const object = where(font);
      const report = (why: string) =>
        unrepaired.push({
          clause: '6.2.11.4.1-1',
          message: `font ${name} is not embedded and was not substituted: ${why}`,
          ...(object ? { object } : {}),
        });
      if (Date.now() > ctx.deadline) {
        report('the time for repairs ran out');
        continue;
      }
      try {
        const why =
          subtype === 'Type0'
            ? embedCidFont(doc, font, target, use)
            : subtype === 'Type1' || subtype === 'MMType1' || subtype === 'TrueType'
              ? embedSimpleFont(doc, font, use, usage.complete)
              : `its type ${subtype ?? '(none)'} cannot be substituted`;
        if (why) report(why);
        else changed++;
      } catch (err) {
        if (!(err instanceof FontProgramError)) throw err;
        report(err.message);
      }
    }
    return unrepaired.length ? { changed, unrepaired } : { changed };
  },
};

/** Code → glyph name the font used, codes 0–255 ('' = none), and the encoding it was built from. */
interface SimpleEncoding {
  names: string[];
  /** The named base encoding when there are no /Differences. */
  plain?: 'WinAnsiEncoding' | 'MacRomanEncoding';
}

function readSimpleEncoding(doc: PDFDocument, font: PDFDict, sub: Substitute, trueType: boolean): SimpleEncoding | string {
  const fd = dictAt(doc, font, 'FontDescriptor');
  const flags = fd ? (numberAt(doc, fd, 'Flags') ?? 0) : 0;
  const symbolFont = sub.family === 'symbol' || sub.family === 'dingbats';
  const builtIn: CodeNames = sub.family === 'symbol' ? SYMBOL_ENCODING : sub.family === 'dingbats' ? DINGBATS_ENCODING : STANDARD_ENCODING;
  // Without a usable base encoding, what readers assume (the defaults pdf.js applies, ISO 32000-1 9.6.6): the
  // built-in one for Type 1, StandardEncoding for a non-symbolic TrueType, WinAnsi for a TrueType not marked
  // non-symbolic, Mac Roman for a symbolic TrueType text font.
  let fallback = builtIn;
  if (trueType && !symbolFont)
    fallback = flags & FLAG_NONSYMBOLIC ? STANDARD_ENCODING : flags & FLAG_SYMBOLIC ? MAC_ROMAN_ENCODING : WIN_ANSI_ENCODING;
  const enc = resolve(doc, font.get(N('Encoding')));
  if (enc === undefined) return { names: [...fallback] };
  if (enc instanceof PDFName) {
    const named = symbolFont ? undefined : encodingByName(enc.decodeText());
    if (!named && !symbolFont) return `its encoding /${enc.decodeText()} is not supported`;
    const plain = enc.decodeText() === 'WinAnsiEncoding' || enc.decodeText() === 'MacRomanEncoding' ? enc.decodeText() : undefined;
    return { names: [...(named ?? fallback)], ...(plain ? { plain: plain as SimpleEncoding['plain'] } : {}) };
  }
  if (!(enc instanceof PDFDict)) return 'its /Encoding is neither a name nor a dictionary';
  const baseName = nameAt(doc, enc, 'BaseEncoding');
  const base = baseName && !symbolFont ? encodingByName(baseName) : undefined;
  if (baseName && !base && !symbolFont) return `its base encoding /${baseName} is not supported`;
  const names = [...(base ?? fallback)];
  const diffs = arrayAt(doc, enc, 'Differences');
  let code = -1;
  for (let i = 0; diffs && i < diffs.size() && i < 1024; i++) {
    const v = resolve(doc, diffs.get(i));
    if (v instanceof PDFNumber) code = v.asNumber();
    else if (v instanceof PDFName && code >= 0 && code < 256) names[code++] = v.decodeText() === '.notdef' ? '' : v.decodeText();
  }
  return { names };
}

/** /Widths as code → width (undefined outside FirstChar..LastChar or when the font has none). */
function simpleWidths(doc: PDFDocument, font: PDFDict): ((code: number) => number | undefined) | undefined {
  const widths = arrayAt(doc, font, 'Widths');
  const first = numberAt(doc, font, 'FirstChar');
  if (!widths || first === undefined) return undefined;
  const fd = dictAt(doc, font, 'FontDescriptor');
  const missing = fd ? (numberAt(doc, fd, 'MissingWidth') ?? 0) : 0;
  return (code) => {
    const i = code - first;
    if (i < 0 || i >= widths.size()) return missing;
    const w = resolve(doc, widths.get(i));
    return w instanceof PDFNumber ? w.asNumber() : missing;
  };
}

/** Why a simple font could not be embedded, or undefined when it was. */
function embedSimpleFont(doc: PDFDocument, font: PDFDict, use: FontUse, complete: boolean): string | undefined {
  const baseFont = withoutSubsetTag(nameAt(doc, font, 'BaseFont') ?? '');
  const sub = substituteFor(baseFont, styleHints(doc, font));
  if (!sub) return 'no metric-compatible free font is known for it';
  const trueType = nameAt(doc, font, 'Subtype') === 'TrueType';
  const enc = readSimpleEncoding(doc, font, sub, trueType);
  if (typeof enc === 'string') return enc;
  const toUnicodeStream = streamAt(doc, font, 'ToUnicode');
  const toUnicodeData = toUnicodeStream ? streamBytes(doc, toUnicodeStream, 1024 * 1024) : undefined;
  const toUnicode = toUnicodeData ? parseToUnicode(toUnicodeData) : new Map<number, string>();
  const widths = simpleWidths(doc, font);
  // The codes to embed: those shown, or every code the encoding names when the scan was cut short.
  const codes = complete ? [...use.codes] : [...Array(256).keys()].filter((c) => use.codes.has(c) || enc.names[c] || toUnicode.has(c));
  codes.sort((a, b) => a - b);
  if (sub.family === 'symbol' || sub.family === 'dingbats') return embedSymbolFont(doc, font, sub, enc.names, codes, widths, baseFont);
  return embedTextTrueType(doc, font, sub, enc, toUnicode, codes, widths, baseFont);
}

function standardWidth(sub: Substitute, name: string): number | undefined {
  if (!sub.standard || !name) return undefined;
  const w = StandardFont.load(sub.standard).getWidthOfGlyph(name);
  return typeof w === 'number' ? w : undefined;
}

function embedTextTrueType(
  doc: PDFDocument,
  font: PDFDict,
  sub: Substitute,
  enc: SimpleEncoding,
  toUnicode: Map<number, string>,
  codes: number[],
  widths: ((code: number) => number | undefined) | undefined,
  baseFont: string,
): string | undefined {
  const asset = findFontAsset(sub.family, sub.style)!;
  const program = substituteProgram(asset);
  const space = program.glyphForUnicode(0x20);
  // Glyph of each code: by its glyph name, else by /ToUnicode; a code the font named no glyph for shows nothing
  // (as it did: the viewer drew .notdef, which is blank) and gets an empty glyph, never .notdef.
  const glyphOf = new Map<number, number>();
  const missing: number[] = [];
  for (const code of codes) {
    const name = enc.names[code];
    let gid = 0;
    if (name) {
      const cp = glyphNameUnicode(name);
      gid = cp !== undefined ? program.glyphForUnicode(cp) : 0;
    }
    if (gid === 0) gid = glyphForText(program, toUnicode.get(code));
    if (gid === 0 && !name && !toUnicode.has(code)) gid = space;
    if (gid === 0) missing.push(code);
    else glyphOf.set(code, gid);
  }
  if (missing.length > 0)
    return `the substitute has no glyph for code${missing.length > 1 ? 's' : ''} ${missing.slice(0, 8).join(', ')}${missing.length > 8 ? ', …' : ''}`;

  // Widths: the PDF's; without /Widths (a standard font) the standard metrics the viewer used; else the substitute's.
  const scale = program.unitsPerEm / 1000;
  const widthOf = (code: number): number => {
    const w = widths?.(code);
    if (w !== undefined) return w;
    return standardWidth(sub, enc.names[code]) ?? Math.round(program.advance(glyphOf.get(code) ?? 0) / scale);
  };

  // The output encoding: the named one when every embedded code agrees with it, else WinAnsi + /Differences.
  const agrees = (table: CodeNames) => codes.every((c) => !enc.names[c] || table[c] === enc.names[c]);
  const outName: 'WinAnsiEncoding' | 'MacRomanEncoding' | undefined = agrees(WIN_ANSI_ENCODING)
    ? 'WinAnsiEncoding'
    : enc.plain === 'MacRomanEncoding' && agrees(MAC_ROMAN_ENCODING)
      ? 'MacRomanEncoding'
      : undefined;
  const differences = new Map<number, string>();
  if (!outName)
    for (let c = 0; c < 256; c++) {
      let name = enc.names[c];
      if (!name && toUnicode.has(c) && [...(toUnicode.get(c) ?? '')].length === 1)
        name = unicodeGlyphName(toUnicode.get(c)!.codePointAt(0)!);
      if (!name || name === WIN_ANSI_ENCODING[c]) continue;
      // Names outside the glyph list are replaced by the uniXXXX name of the glyph's Unicode (6.2.11.6-2).
      if (glyphNameUnicode(name) === undefined) {
        const text = toUnicode.get(c);
        if (!text || [...text].length !== 1) continue;
        name = unicodeGlyphName(text.codePointAt(0)!);
      }
      differences.set(c, name);
    }

  // The subset: one glyph per (source glyph, advance); (3,1) and (1,0) cmaps so readers and checkers find it.
  const glyphs: SubsetGlyph[] = [];
  const idOf = new Map<string, number>();
  const unicode = new Map<number, number>();
  const macRoman = new Map<number, number>();
  const alternates: [number, number][] = [];
  for (const code of codes) {
    const src = glyphOf.get(code)!;
    const advance = Math.round(widthOf(code) * scale);
    const key = `${src}/${advance}`;
    let id = idOf.get(key);
    if (id === undefined) {
      glyphs.push({ source: src, advance });
      id = glyphs.length;
      idOf.set(key, id);
    }
    const outGlyphName = differences.get(code) ?? (outName === 'MacRomanEncoding' ? MAC_ROMAN_ENCODING[code] : WIN_ANSI_ENCODING[code]);
    // The code's Unicode as a checker computes it first; the glyph name's and /ToUnicode's as alternates.
    const primary = differences.has(code)
      ? glyphNameUnicode(differences.get(code)!)
      : outName === 'MacRomanEncoding'
        ? undefined
        : (winAnsiCodeUnicode(code) ?? code);
    if (primary !== undefined && !unicode.has(primary)) unicode.set(primary, id);
    const byName = outGlyphName ? glyphNameUnicode(outGlyphName) : undefined;
    if (byName !== undefined) alternates.push([byName, id]);
    const tu = toUnicode.get(code);
    if (tu && [...tu].length === 1) alternates.push([tu.codePointAt(0)!, id]);
    if (outName === 'MacRomanEncoding') macRoman.set(code, id);
  }
  for (const [cp, id] of alternates) if (!unicode.has(cp)) unicode.set(cp, id);

  const tag = subsetTag(baseFont, asset.file, ...codes);
  const fontName = `${tag}+${cleanFontName(baseFont)}`;
  const subset = subsetTrueType(program, { glyphs, unicode, ...(macRoman.size ? { macRoman } : {}), postScriptName: fontName });
  const fileRef = embedTrueTypeProgram(doc, subset.bytes);
  const existing = dictAt(doc, font, 'FontDescriptor');
  const flags = (familyFlags(sub.family, sub.style, false) & ~FLAG_SYMBOLIC) | FLAG_NONSYMBOLIC;
  const descriptor = completeDescriptor(
    doc,
    existing,
    fontName,
    flags,
    trueTypeMetrics(program),
    { key: 'FontFile2', ref: fileRef },
    sub.style.startsWith('bold'),
  );

  font.set(N('Subtype'), N('TrueType'));
  font.set(N('BaseFont'), N(fontName));
  if (!existing) font.set(N('FontDescriptor'), doc.context.register(descriptor));
  if (!widths) {
    const named = [...Array(256).keys()].filter((c) => enc.names[c] || codes.includes(c));
    const first = Math.min(...named);
    const last = Math.max(...named);
    font.set(N('FirstChar'), PDFNumber.of(first));
    font.set(N('LastChar'), PDFNumber.of(last));
    font.set(
      N('Widths'),
      doc.context.obj(
        Array.from({ length: last - first + 1 }, (_, i) => (enc.names[first + i] || codes.includes(first + i) ? widthOf(first + i) : 0)),
      ),
    );
  }
  if (outName) font.set(N('Encoding'), N(outName));
  else {
    const diffs: (number | PDFName)[] = [];
    let next = -1;
    for (const [c, name] of [...differences].sort((a, b) => a[0] - b[0])) {
      if (c !== next) diffs.push(c);
      diffs.push(N(name));
      next = c + 1;
    }
    font.set(N('Encoding'), doc.context.obj({ Type: 'Encoding', BaseEncoding: 'WinAnsiEncoding', Differences: diffs }));
  }
  return undefined;
}

/** Symbol and ZapfDingbats: the Foxit CFF program (same glyphs and widths as the standard fonts), as Type 1. */
function embedSymbolFont(
  doc: PDFDocument,
  font: PDFDict,
  sub: Substitute,
  names: string[],
  codes: number[],
  widths: ((code: number) => number | undefined) | undefined,
  baseFont: string,
): string | undefined {
  const metrics = StandardFont.load(sub.standard!);
  const missing = codes.filter((c) => names[c] && metrics.getWidthOfGlyph(names[c]) === undefined);
  if (missing.length > 0) return `the substitute has no glyph named ${names[missing[0]]}`;
  const shown = codes.filter((c) => names[c]);
  // The program's widths are the standard ones; a PDF that gives other widths for a shown code keeps them on the
  // page, but the program cannot agree (its CFF widths are not rewritten here): reported by the caller's check.
  void widths;
  const asset = findFontAsset(sub.family)!;
  const fileRef = embedCffProgram(doc, readFontAsset(asset), 'Type1C');
  const fontName = `${subsetTag(baseFont, asset.file, ...shown)}+${cleanFontName(baseFont)}`;
  const [x0, y0, x1, y1] = metrics.FontBBox;
  const existing = dictAt(doc, font, 'FontDescriptor');
  const descriptor = completeDescriptor(
    doc,
    existing,
    fontName,
    FLAG_SYMBOLIC,
    { bbox: [x0, y0, x1, y1], ascent: y1, descent: y0, capHeight: y1, italicAngle: 0 },
    { key: 'FontFile3', ref: fileRef },
    false,
  );
  font.set(N('Subtype'), N('Type1'));
  font.set(N('BaseFont'), N(fontName));
  if (!existing) font.set(N('FontDescriptor'), doc.context.register(descriptor));
  // Every code the encoding names, as /Differences over the program's standard encoding.
  const named = [...Array(256).keys()].filter((c) => names[c]);
  const diffs: (number | PDFName)[] = [];
  let next = -1;
  for (const c of named) {
    if (c !== next) diffs.push(c);
    diffs.push(N(names[c]));
    next = c + 1;
  }
  font.set(N('Encoding'), doc.context.obj({ Type: 'Encoding', Differences: diffs }));
  if (!widths && named.length > 0) {
    const first = named[0];
    const last = named[named.length - 1];
    font.set(N('FirstChar'), PDFNumber.of(first));
    font.set(N('LastChar'), PDFNumber.of(last));
    font.set(
      N('Widths'),
      doc.context.obj(Array.from({ length: last - first + 1 }, (_, i) => metrics.getWidthOfGlyph(names[first + i]) ?? 0)),
    );
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Type 0 fonts

/** /W and /DW as CID → width (bounded: at most 65,536 CIDs read). */
function cidWidths(doc: PDFDocument, cidFont: PDFDict): (cid: number) => number {
  const dw = numberAt(doc, cidFont, 'DW') ?? 1000;
  const w = arrayAt(doc, cidFont, 'W');
  const map = new Map<number, number>();
  if (w) {
    const num = (i: number) => {
      const v = resolve(doc, w.get(i));
      return v instanceof PDFNumber ? v.asNumber() : undefined;
    };
    for (let i = 0; i < w.size() && map.size < 65_536; ) {
      const first = num(i);
      const next = resolve(doc, w.get(i + 1));
      if (first === undefined || first < 0) break;
      if (next instanceof PDFArray) {
        for (let k = 0; k < next.size() && first + k <= 0xffff; k++) {
          const v = resolve(doc, next.get(k));
          if (v instanceof PDFNumber) map.set(first + k, v.asNumber());
        }
        i += 2;
      } else {
        const last = num(i + 1);
        const width = num(i + 2);
        if (last === undefined || width === undefined) break;
        for (let c = first; c <= last && c <= 0xffff && map.size < 65_536; c++) map.set(c, width);
        i += 3;
      }
    }
  }
  return (cid) => map.get(cid) ?? dw;
}

/** Why a Type 0 font could not be embedded, or undefined when it was. */
function embedCidFont(doc: PDFDocument, type0: PDFDict, cidFont: PDFDict, use: FontUse): string | undefined {
  const cmap = nameAt(doc, type0, 'Encoding');
  if (cmap !== 'Identity-H' && cmap !== 'Identity-V') return `its CMap ${cmap ? `/${cmap}` : '(embedded)'} is not Identity-H/V`;
  const baseFont = withoutSubsetTag(nameAt(doc, cidFont, 'BaseFont') ?? nameAt(doc, type0, 'BaseFont') ?? '');
  const sub = substituteFor(baseFont, styleHints(doc, cidFont));
  if (!sub || sub.family === 'symbol' || sub.family === 'dingbats') return 'no metric-compatible free font is known for it';
  const tuStream = streamAt(doc, type0, 'ToUnicode');
  const tuData = tuStream ? streamBytes(doc, tuStream, 4 * 1024 * 1024) : undefined;
  if (!tuData) return 'it has no readable /ToUnicode map, so its glyphs cannot be found in a substitute';
  const toUnicode = parseToUnicode(tuData);
  const asset = findFontAsset(sub.family, sub.style)!;
  const program = substituteProgram(asset);
  const width = cidWidths(doc, cidFont);
  const scale = program.unitsPerEm / 1000;

  // Every CID shown and every CID the ToUnicode map knows (Word lists exactly the glyphs it used).
  const cids = [...new Set([...use.codes, ...toUnicode.keys()])].filter((c) => c > 0 && c <= 0xffff).sort((a, b) => a - b);
  const glyphs: SubsetGlyph[] = [];
  const idOf = new Map<string, number>();
  const cidToGid = new Map<number, number>();
  const unicode = new Map<number, number>();
  const missing: number[] = [];
  for (const cid of cids) {
    const text = toUnicode.get(cid);
    const src = glyphForText(program, text);
    if (src === 0) {
      if (use.codes.has(cid)) missing.push(cid);
      continue;
    }
    const advance = Math.round(width(cid) * scale);
    const key = `${src}/${advance}`;
    let id = idOf.get(key);
    if (id === undefined) {
      glyphs.push({ source: src, advance });
      id = glyphs.length;
      idOf.set(key, id);
    }
    cidToGid.set(cid, id);
    const cp = text?.codePointAt(0);
    if (cp !== undefined && [...(text ?? '')].length === 1 && !unicode.has(cp)) unicode.set(cp, id);
  }
  if (missing.length > 0)
    return `CID${missing.length > 1 ? 's' : ''} ${missing.slice(0, 8).join(', ')}${missing.length > 8 ? ', …' : ''} ${missing.length > 1 ? 'have' : 'has'} no Unicode in /ToUnicode that the substitute has a glyph for`;
  if (glyphs.length === 0) return 'none of its glyphs could be found in the substitute';

  const tag = subsetTag(baseFont, asset.file, ...cids);
  const fontName = `${tag}+${cleanFontName(baseFont)}`;
  const subset = subsetTrueType(program, { glyphs, unicode, postScriptName: fontName });
  const maxCid = Math.max(...cidToGid.keys());
  const map = new Uint8Array((maxCid + 1) * 2);
  for (const [cid, id] of cidToGid) {
    map[cid * 2] = id >> 8;
    map[cid * 2 + 1] = id & 0xff;
  }
  const fileRef = embedTrueTypeProgram(doc, subset.bytes);
  const existing = dictAt(doc, cidFont, 'FontDescriptor');
  const flags = (familyFlags(sub.family, sub.style, false) & ~FLAG_NONSYMBOLIC) | FLAG_SYMBOLIC; // CIDFonts: symbolic (9.8.2)
  const descriptor = completeDescriptor(
    doc,
    existing,
    fontName,
    flags,
    trueTypeMetrics(program),
    { key: 'FontFile2', ref: fileRef },
    sub.style.startsWith('bold'),
  );
  if (!existing) cidFont.set(N('FontDescriptor'), doc.context.register(descriptor));
  cidFont.set(N('Subtype'), N('CIDFontType2'));
  cidFont.set(N('BaseFont'), N(fontName));
  cidFont.set(N('CIDToGIDMap'), doc.context.register(doc.context.flateStream(map)));
  if (!dictAt(doc, cidFont, 'CIDSystemInfo'))
    cidFont.set(
      N('CIDSystemInfo'),
      doc.context.obj({ Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 }),
    );
  type0.set(N('BaseFont'), N(fontName));
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// CIDToGIDMap, CIDSet

export const cidToGidMap: Repair = {
  name: 'cid-to-gid-map',
  clauses: ['6.2.11.3.2-1'],
  apply({ doc }) {
    let changed = 0;
    for (const font of cidFonts(doc)) {
      if (nameAt(doc, font, 'Subtype') !== 'CIDFontType2' || !programOf(doc, font)) continue;
      const map = resolve(doc, font.get(N('CIDToGIDMap')));
      if (map instanceof PDFStream || (map instanceof PDFName && map.decodeText() === 'Identity')) continue;
      font.set(N('CIDToGIDMap'), N('Identity')); // what its absence meant (ISO 32000-1 Table 117)
      changed++;
    }
    return { changed };
  },
};

export const cidSet: Repair = {
  name: 'cid-set',
  clauses: ['6.2.11.4.2-2'],
  apply({ doc, findings }) {
    const named = new Set(
      findings
        .map((f) => /^object (\d+)$/.exec(f.object ?? '')?.[1])
        .filter(Boolean)
        .map(Number),
    );
    let changed = 0;
    for (const font of cidFonts(doc)) {
      const fd = dictAt(doc, font, 'FontDescriptor');
      const raw = fd?.get(N('CIDSet'));
      if (!fd || raw === undefined) continue;
      if (named.size > 0 && !(raw instanceof PDFRef && named.has(raw.objectNumber))) continue;
      fd.delete(N('CIDSet'));
      changed++;
    }
    return { changed };
  },
};

/** Every CIDFont reachable from the document's objects (descendants of Type 0 fonts). */
function cidFonts(doc: PDFDocument): PDFDict[] {
  const out: PDFDict[] = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || nameAt(doc, obj, 'Type') !== 'Font' || nameAt(doc, obj, 'Subtype') !== 'Type0') continue;
    const d = descendantOf(doc, obj);
    if (d) out.push(d);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Widths of embedded TrueType programs, TrueType encodings

/** The glyph a code selects in an embedded simple TrueType font, the way the PDF/A checker resolves it. */
function simpleTrueTypeGlyph(doc: PDFDocument, font: PDFDict, tt: TrueTypeFont): ((code: number) => number | undefined) | undefined {
  const fd = dictAt(doc, font, 'FontDescriptor');
  const flags = fd ? (numberAt(doc, fd, 'Flags') ?? 0) : 0;
  const encValue = resolve(doc, font.get(N('Encoding')));
  const encName =
    encValue instanceof PDFName
      ? encValue.decodeText()
      : encValue instanceof PDFDict && !encValue.has(N('Differences'))
        ? nameAt(doc, encValue, 'BaseEncoding')
        : encValue instanceof PDFDict
          ? 'Differences'
          : undefined;
  if (flags & FLAG_SYMBOLIC) {
    const keys = tt.cmapKeys();
    if (keys.includes('3,0'))
      return (c) =>
        tt.cmapLookup('3,0', c) ||
        tt.cmapLookup('3,0', 0xf000 + c) ||
        tt.cmapLookup('3,0', 0xf100 + c) ||
        tt.cmapLookup('3,0', 0xf200 + c) ||
        tt.cmapLookup('1,0', c);
    if (keys.includes('1,0')) return (c) => tt.cmapLookup('1,0', c);
    return undefined;
  }
  if (encName === 'WinAnsiEncoding' || encName === undefined) return (c) => tt.cmapLookup('3,1', winAnsiCodeUnicode(c) ?? c);
  if (encName === 'MacRomanEncoding') return (c) => tt.cmapLookup('1,0', c);
  return undefined;
}

/** Replace a font program stream's contents (same object, so every font using it sees the change). */
function replaceProgram(doc: PDFDocument, fd: PDFDict, key: string, bytes: Uint8Array): void {
  const stream = doc.context.flateStream(bytes, { Length1: bytes.length });
  const ref = fd.get(N(key));
  if (ref instanceof PDFRef) doc.context.assign(ref, stream);
  else fd.set(N(key), doc.context.register(stream));
}

export const fontWidths: Repair = {
  name: 'font-widths',
  clauses: ['6.2.11.5-1'],
  apply({ doc, deadline }) {
    const usage = scanFontUsage(doc, deadline);
    const where = objectNames(doc);
    const unrepaired: Finding[] = [];
    let changed = 0;
    for (const [font, use] of usage.fonts) {
      if (Date.now() > deadline) break;
      const subtype = nameAt(doc, font, 'Subtype');
      const target = subtype === 'Type0' ? descendantOf(doc, font) : font;
      if (!target) continue;
      const prog = programOf(doc, target);
      if (!prog || prog.key !== 'FontFile2') continue;
      const data = streamBytes(doc, prog.stream);
      if (!data) continue;
      let tt: TrueTypeFont;
      try {
        tt = parseTrueType(data);
      } catch {
        continue; // a program we cannot read is not judged by its widths either
      }
      // gid → wanted advance (font units), per shown code.
      const pairs: [number, number][] = [];
      if (subtype === 'TrueType') {
        const glyph = simpleTrueTypeGlyph(doc, font, tt);
        const widths = simpleWidths(doc, font);
        if (!glyph || !widths) continue;
        for (const c of use.codes) {
          const gid = glyph(c);
          const w = widths(c);
          if (gid && w !== undefined) pairs.push([gid, w]);
        }
      } else if (subtype === 'Type0' && nameAt(doc, target, 'Subtype') === 'CIDFontType2') {
        const width = cidWidths(doc, target);
        const map = resolve(doc, target.get(N('CIDToGIDMap')));
        const mapBytes = map instanceof PDFStream ? streamBytes(doc, map, 256 * 1024) : undefined;
        for (const cid of use.codes) {
          const gid = mapBytes ? (cid * 2 + 1 < mapBytes.length ? (mapBytes[cid * 2] << 8) | mapBytes[cid * 2 + 1] : undefined) : cid;
          if (gid && gid < tt.numGlyphs) pairs.push([gid, width(cid)]);
        }
      } else continue;
      const want = new Map<number, number>();
      const conflicts = new Set<number>();
      for (const [gid, w] of pairs) {
        const cur = (tt.advance(gid) * 1000) / tt.unitsPerEm;
        if (Math.abs(cur - w) <= 1 && !want.has(gid)) continue;
        const units = Math.round((w * tt.unitsPerEm) / 1000);
        if (want.has(gid) && want.get(gid) !== units) conflicts.add(gid);
        else want.set(gid, units);
      }
      // A glyph shown with two different widths cannot agree with both: the first stays, the rest is reported.
      if (conflicts.size > 0) {
        const object = where(font);
        unrepaired.push({
          clause: '6.2.11.5-1',
          message: `font ${withoutSubsetTag(nameAt(doc, target, 'BaseFont') ?? '')} shows the same glyph with different widths; the program can match only one`,
          ...(object ? { object } : {}),
        });
      }
      if (want.size === 0) continue;
      const fd = dictAt(doc, target, 'FontDescriptor')!;
      replaceProgram(doc, fd, 'FontFile2', withAdvances(tt, want));
      changed++;
    }
    return unrepaired.length ? { changed, unrepaired } : { changed };
  },
};

export const trueTypeEncodings: Repair = {
  name: 'truetype-encodings',
  clauses: ['6.2.11.6-2', '6.2.11.6-3'],
  apply({ doc, deadline }) {
    const usage = scanFontUsage(doc, deadline);
    const where = objectNames(doc);
    const unrepaired: Finding[] = [];
    let changed = 0;
    // Fonts in the resources that no content shows (a form's default-appearance font, a leftover) are judged too:
    // with no code shown, any allowed encoding keeps what is drawn (nothing). Only when the scan saw everything.
    const fonts = new Map(usage.fonts);
    if (usage.complete)
      for (const { res } of resourceDicts(doc)) {
        const fd = dictAt(doc, res, 'Font');
        for (const [, v] of fd?.entries() ?? []) {
          const f = resolve(doc, v);
          if (f instanceof PDFDict && !fonts.has(f)) fonts.set(f, { codes: new Set(), oddLength: false });
        }
      }
    for (const [font, use] of fonts) {
      if (nameAt(doc, font, 'Subtype') !== 'TrueType') continue;
      const prog = programOf(doc, font);
      const fd = dictAt(doc, font, 'FontDescriptor');
      if (!fd) continue;
      const flags = numberAt(doc, fd, 'Flags') ?? 0;
      const enc = resolve(doc, font.get(N('Encoding')));
      const symbolic = (flags & FLAG_SYMBOLIC) !== 0;
      const encName =
        enc instanceof PDFName ? enc.decodeText() : enc instanceof PDFDict ? (nameAt(doc, enc, 'BaseEncoding') ?? '') : undefined;
      const okNonSymbolic = encName === 'WinAnsiEncoding' || encName === 'MacRomanEncoding';
      if (symbolic ? enc === undefined : okNonSymbolic) continue;
      if (!prog && use.codes.size === 0 && symbolic && okNonSymbolic) {
        // Not embedded and never shown, marked symbolic but with a text encoding: a text font (a reader could only
        // draw it through that encoding and a substitute); non-symbolic says so.
        fd.set(N('Flags'), PDFNumber.of((flags & ~FLAG_SYMBOLIC) | FLAG_NONSYMBOLIC));
        changed++;
        continue;
      }
      if (!prog || prog.key !== 'FontFile2') continue;
      const data = streamBytes(doc, prog.stream);
      let tt: TrueTypeFont | undefined;
      try {
        tt = data ? parseTrueType(data) : undefined;
      } catch {
        tt = undefined;
      }
      const object = where(font);
      const report = (why: string) =>
        unrepaired.push({
          clause: symbolic ? '6.2.11.6-3' : '6.2.11.6-2',
          message: `TrueType font ${withoutSubsetTag(nameAt(doc, font, 'BaseFont') ?? '')}: ${why}`,
          ...(object ? { object } : {}),
        });
      if (!tt) {
        report('its program cannot be read, so its encoding cannot be corrected safely');
        continue;
      }
      const before = (c: number) => viewerGlyph(doc, font, tt, c);
      const candidates: (() => void)[] = symbolic
        ? [
            // Symbolic with a (3,0) or (1,0) cmap: codes select glyphs directly; the /Encoding goes.
            () => font.delete(N('Encoding')),
            // A text font marked symbolic: non-symbolic with its named encoding.
            () => {
              fd.set(N('Flags'), PDFNumber.of((flags & ~FLAG_SYMBOLIC) | FLAG_NONSYMBOLIC));
            },
          ]
        : [
            // Non-symbolic with /Differences but no base encoding: WinAnsi as the base, the differences kept.
            ...(enc instanceof PDFDict && !enc.has(N('BaseEncoding')) ? [() => enc.set(N('BaseEncoding'), N('WinAnsiEncoding'))] : []),
            // Non-symbolic without an encoding (or a StandardEncoding base): WinAnsi where it selects the same glyphs.
            () => font.set(N('Encoding'), N('WinAnsiEncoding')),
          ];
      const original = {
        enc: font.get(N('Encoding')),
        flags: fd.get(N('Flags')),
        base: enc instanceof PDFDict && enc.has(N('BaseEncoding')),
      };
      let fixed = false;
      for (const apply of candidates) {
        apply();
        const after = simpleTrueTypeGlyph(doc, font, tt);
        const same = after !== undefined && [...use.codes].every((c) => before(c) === after(c) && (after(c) ?? 0) > 0);
        const okNow = (flags: number) => {
          const e = resolve(doc, font.get(N('Encoding')));
          if (flags & FLAG_SYMBOLIC) return e === undefined;
          const n = e instanceof PDFName ? e.decodeText() : e instanceof PDFDict ? nameAt(doc, e, 'BaseEncoding') : undefined;
          return n === 'WinAnsiEncoding' || n === 'MacRomanEncoding';
        };
        if (same && okNow(numberAt(doc, fd, 'Flags') ?? 0)) {
          fixed = true;
          break;
        }
        if (original.enc === undefined) font.delete(N('Encoding'));
        else font.set(N('Encoding'), original.enc);
        if (enc instanceof PDFDict && !original.base) enc.delete(N('BaseEncoding'));
        if (original.flags !== undefined) fd.set(N('Flags'), original.flags);
      }
      if (fixed) changed++;
      else report('no encoding that PDF/A allows selects the same glyphs for the codes the document shows');
    }
    return unrepaired.length ? { changed, unrepaired } : { changed };
  },
};

/**
 * The glyph a viewer shows for a code of an embedded TrueType font as it stands (pdf.js and poppler agree on
 * these cases): a symbolic font with a (3,0) cmap by the code (or 0xF000 + code), else by the encoding's glyph name
 * through the (3,1) cmap, else (1,0) by the code.
 */
function viewerGlyph(doc: PDFDocument, font: PDFDict, tt: TrueTypeFont, code: number): number | undefined {
  const fd = dictAt(doc, font, 'FontDescriptor');
  const flags = fd ? (numberAt(doc, fd, 'Flags') ?? 0) : 0;
  const keys = tt.cmapKeys();
  if (flags & FLAG_SYMBOLIC && keys.includes('3,0')) return tt.cmapLookup('3,0', code) || tt.cmapLookup('3,0', 0xf000 + code);
  const enc = resolve(doc, font.get(N('Encoding')));
  let names: CodeNames = flags & FLAG_NONSYMBOLIC ? STANDARD_ENCODING : WIN_ANSI_ENCODING;
  if (enc instanceof PDFName) names = encodingByName(enc.decodeText()) ?? names;
  else if (enc instanceof PDFDict) {
    const copy = [...(encodingByName(nameAt(doc, enc, 'BaseEncoding')) ?? names)];
    const diffs = arrayAt(doc, enc, 'Differences');
    let c = -1;
    for (let i = 0; diffs && i < diffs.size() && i < 1024; i++) {
      const v = resolve(doc, diffs.get(i));
      if (v instanceof PDFNumber) c = v.asNumber();
      else if (v instanceof PDFName && c >= 0 && c < 256) copy[c++] = v.decodeText();
    }
    names = copy;
  }
  if (keys.includes('3,1')) {
    const cp = names[code] ? glyphNameUnicode(names[code]) : undefined;
    const g = cp !== undefined ? tt.cmapLookup('3,1', cp) : undefined;
    if (g) return g;
  }
  return keys.includes('1,0') ? tt.cmapLookup('1,0', code) : undefined;
}

/** The font repairs in the order they must run (embedding first: the later ones read embedded programs). */
export const FONT_REPAIRS: readonly Repair[] = [embedFonts, cidToGidMap, cidSet, fontWidths, trueTypeEncodings];
