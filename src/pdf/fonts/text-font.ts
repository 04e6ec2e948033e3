/**
 * Drawing Unicode text with a shipped TrueType font (assets/fonts/): a Type 0 font (Identity-H) over a CIDFontType2
 * subset, for PDFs we draw ourselves (the invoice view, src/render/pdf.ts).
 *
 * Each distinct character gets its own CID, in the order first drawn; a CIDToGIDMap stream maps the CID to its glyph in
 * the subset, and the ToUnicode CMap maps it back to the character, so text copied or extracted from the page is the
 * text drawn, one character per CID, even where two characters share a glyph. A character the font has no glyph for is
 * drawn with a visible stand-in (□, U+25A1) rather than .notdef (PDF/A forbids showing .notdef, 6.2.11.8): its CID
 * still maps to the character in ToUnicode, so the text stays searchable; `missing` counts such characters so the page
 * can say so. Widths (/W) are the program's own advances (6.2.11.5), which the layout measures with too.
 */
import { deflateSync } from 'node:zlib';
import { PDFName, PDFNumber, PDFString, type PDFArray, type PDFContext, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import { findFontAsset, readFontAsset, type FontFamily, type FontStyle } from './assets.js';
import { completeDescriptor, familyFlags, subsetTag } from './pdf-font.js';
import { writeToUnicode } from './tounicode.js';
import { parseTrueType, subsetTrueType, type SubsetGlyph, type TrueTypeFont } from './truetype.js';

/** The stand-in glyph's character: a white square, as browsers draw a character no font has. */
export const FALLBACK_CHAR = 0x25a1;

/** A shipped font parsed once per process, with the glyph and width of each character asked for so far. */
export class TextFontProgram {
  readonly font: TrueTypeFont;
  /** Glyph id of the stand-in (□, else "?"); never 0. */
  readonly fallbackGid: number;
  private readonly glyphs = new Map<number, number>();

  constructor(
    readonly family: FontFamily,
    readonly style: FontStyle,
  ) {
    const asset = findFontAsset(family, style);
    if (!asset || asset.format !== 'truetype') throw new Error(`no TrueType font for ${family} ${style}`);
    this.font = parseTrueType(readFontAsset(asset));
    const square = this.font.glyphForUnicode(FALLBACK_CHAR);
    this.fallbackGid = square || this.font.glyphForUnicode(0x3f) || 1;
  }

  /** The glyph of a character, 0 when the font has none. */
  glyphOf(cp: number): number {
    let g = this.glyphs.get(cp);
    if (g === undefined) {
      g = this.font.glyphForUnicode(cp);
      // A bounded cache: hostile text can name a million distinct characters.
      if (this.glyphs.size < 100_000) this.glyphs.set(cp, g);
    }
    return g;
  }

  /** Widths of the BMP characters looked up so far (-1: not yet). */
  private readonly bmpWidths = new Float64Array(0x10000).fill(-1);
  /** Widths of short words measured so far (thousandths of the size), bounded. */
  private readonly words = new Map<string, number>();

  /** Advance of a character in thousandths of the font size (the stand-in's for a character without glyph). */
  width(cp: number): number {
    if (cp < 0x10000) {
      const known = this.bmpWidths[cp];
      if (known >= 0) return known;
    }
    const g = this.glyphOf(cp) || this.fallbackGid;
    const w = (this.font.advance(g) * 1000) / this.font.unitsPerEm;
    if (cp < 0x10000) this.bmpWidths[cp] = w;
    return w;
  }

  /** Advance of a text in thousandths of the font size. */
  textWidth(text: string): number {
    const short = text.length <= 40;
    if (short) {
      const known = this.words.get(text);
      if (known !== undefined) return known;
    }
    let w = 0;
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < text.length) {
        const lo = text.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo < 0xe000) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          i++;
        }
      }
      w += this.width(cp);
    }
    if (short) {
      if (this.words.size >= 50_000) this.words.clear();
      this.words.set(text, w);
    }
    return w;
  }

  /** Ascent and descent in thousandths of the font size (OS/2 typographic values). */
  get ascent(): number {
    return (this.font.ascender * 1000) / this.font.unitsPerEm;
  }
  get descent(): number {
    return (this.font.descender * 1000) / this.font.unitsPerEm;
  }
}

const programs = new Map<string, TextFontProgram>();

/** The program of a shipped family and style (parsed on first use, then kept). */
export function textFontProgram(family: FontFamily, style: FontStyle): TextFontProgram {
  const key = `${family}/${style}`;
  let p = programs.get(key);
  if (!p) {
    p = new TextFontProgram(family, style);
    programs.set(key, p);
  }
  return p;
}

/** CIDs are two bytes; past this many distinct characters the rest share one CID (stand-in glyph, text U+FFFD). */
const MAX_CID = 0xfffe;

/** One font of one document: the characters drawn with it, their CIDs, and at the end the font objects. */
export class TextFont {
  private readonly cidOf = new Map<number, number>();
  /** Per CID (index = CID − 1): the character and the source glyph. */
  private readonly cids: { cp: number; gid: number }[] = [];
  /** Characters drawn with the stand-in glyph, and how often. */
  readonly missing = new Map<number, number>();

  /**
   * @param program the shipped font
   * @param name the PostScript name written into the PDF (never a Reserved Font Name of the shipped font: the
   *   embedded subset is a modified version, docs/fonts.md)
   */
  constructor(
    readonly program: TextFontProgram,
    readonly name: string,
  ) {}

  /** Width of `text` at `size` points (the characters' advances; no kerning: the page positions what it draws). */
  measure(text: string, size: number): number {
    return (this.program.textWidth(text) * size) / 1000;
  }

  /** The text as a hex string of two-byte CIDs (without the angle brackets), registering each character's CID. */
  encode(text: string): string {
    let hex = '';
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      let cid = this.cidOf.get(cp);
      if (cid === undefined) cid = this.register(cp);
      if (this.missing.size > 0 && this.missing.has(cp)) this.missing.set(cp, this.missing.get(cp)! + 1);
      hex += HEX4[cid] ?? cid.toString(16).padStart(4, '0');
    }
    return hex;
  }

  private register(cp: number): number {
    const gid = this.program.glyphOf(cp);
    if (gid === 0) this.missing.set(cp, 0); // counted by encode(), once per occurrence
    if (this.cids.length >= MAX_CID - 1) {
      // Past the CID space: one last CID stands for every further character (drawn as the stand-in, text U+FFFD).
      if (this.cids.length === MAX_CID - 1) this.cids.push({ cp: 0xfffd, gid: this.program.fallbackGid });
      this.cidOf.set(cp, MAX_CID);
      return MAX_CID;
    }
    this.cids.push({ cp, gid: gid || this.program.fallbackGid });
    const cid = this.cids.length;
    this.cidOf.set(cp, cid);
    return cid;
  }

  /** Whether anything was drawn with this font (an unused font is not written). */
  get used(): boolean {
    return this.cids.length > 0;
  }

  /** Write the font into `doc`: Type 0 font, CIDFontType2 descendant, descriptor, subset program, CIDToGIDMap, ToUnicode. */
  embed(doc: PDFDocument): PDFRef {
    const ctx = doc.context;
    const { font } = this.program;
    // The subset's glyphs: each source glyph once, in the order of the CIDs that show it (glyph 0 stays .notdef).
    const subsetGid = new Map<number, number>();
    const glyphs: SubsetGlyph[] = [];
    for (const c of this.cids) {
      if (subsetGid.has(c.gid)) continue;
      glyphs.push({ source: c.gid, advance: font.advance(c.gid) });
      subsetGid.set(c.gid, glyphs.length);
    }
    const tag = subsetTag(this.name, ...this.cids.map((c) => c.gid));
    const baseName = `${tag}+${this.name}`;
    const unicode = new Map<number, number>();
    for (const c of this.cids) if (this.program.glyphOf(c.cp) === c.gid && !unicode.has(c.cp)) unicode.set(c.cp, subsetGid.get(c.gid)!);
    const program = subsetTrueType(font, { glyphs, unicode, postScriptName: this.name }).bytes;

    const cidToGid = new Uint8Array((this.cids.length + 1) * 2);
    const widths: number[] = [];
    const toUnicode = new Map<number, string>();
    this.cids.forEach((c, i) => {
      const cid = i + 1;
      const g = subsetGid.get(c.gid)!;
      cidToGid[cid * 2] = g >> 8;
      cidToGid[cid * 2 + 1] = g & 0xff;
      widths.push(Math.round(((font.advance(c.gid) * 1000) / font.unitsPerEm) * 1000) / 1000);
      toUnicode.set(cid, String.fromCodePoint(c.cp));
    });

    const scale = 1000 / font.unitsPerEm;
    const bold = this.program.style === 'bold' || this.program.style === 'bolditalic';
    const descriptor = completeDescriptor(
      doc,
      undefined,
      baseName,
      familyFlags(this.program.family, this.program.style, true),
      {
        bbox: [font.bbox[0] * scale, font.bbox[1] * scale, font.bbox[2] * scale, font.bbox[3] * scale],
        ascent: font.ascender * scale,
        descent: font.descender * scale,
        capHeight: font.capHeight * scale,
        italicAngle: font.italicAngle,
      },
      { key: 'FontFile2', ref: flateStream(ctx, program, { Length1: program.length }) },
      bold,
    );
    const w = ctx.obj([1, ctx.obj(widths)]) as PDFArray;
    const cidFont = ctx.register(
      ctx.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        BaseFont: PDFName.of(baseName),
        CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
        FontDescriptor: ctx.register(descriptor),
        DW: PDFNumber.of(1000),
        W: w,
        CIDToGIDMap: flateStream(ctx, cidToGid),
      }),
    );
    return ctx.register(
      ctx.obj({
        Type: 'Font',
        Subtype: 'Type0',
        BaseFont: PDFName.of(baseName),
        Encoding: 'Identity-H',
        DescendantFonts: [cidFont],
        ToUnicode: flateStream(ctx, writeToUnicode(toUnicode, 2)),
      }),
    );
  }
}

/**
 * A Flate-compressed stream, registered. Node's zlib, not the library's JavaScript deflate: compressing the font
 * programs and pages was most of the time a typical invoice took to draw.
 */
export function flateStream(ctx: PDFContext, data: Uint8Array, dict: Record<string, number | string> = {}): PDFRef {
  return ctx.register(ctx.stream(deflateSync(data), { ...dict, Filter: 'FlateDecode' }));
}

/** Four-digit hex of every CID below 4096 (the common ones), so encoding a string is table lookups. */
const HEX4: string[] = Array.from({ length: 4096 }, (_, i) => i.toString(16).padStart(4, '0'));
