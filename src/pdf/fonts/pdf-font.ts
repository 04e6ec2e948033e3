/**
 * Writing font programs and their descriptors into a PDF (@cantoo/pdf-lib): the FontFile2 / FontFile3 streams, a
 * font descriptor from a substitute's metrics, a subset tag. Shared by the PDF/A font repairs and by code that
 * draws PDFs with the shipped fonts.
 */
import { createHash } from 'node:crypto';
import { PDFArray, type PDFDict, PDFName, PDFNumber, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import type { FontFamily, FontStyle } from './assets.js';

/** Descriptor flags (ISO 32000-1 Table 123). */
export const FLAG_FIXED_PITCH = 1;
export const FLAG_SERIF = 2;
export const FLAG_SYMBOLIC = 4;
export const FLAG_NONSYMBOLIC = 32;
export const FLAG_ITALIC = 64;

/** A TrueType program as a Flate-compressed FontFile2 stream (Length1 = its uncompressed length). */
export function embedTrueTypeProgram(doc: PDFDocument, program: Uint8Array): PDFRef {
  return doc.context.register(doc.context.flateStream(program, { Length1: program.length }));
}

/** A bare CFF program as a Flate-compressed FontFile3 stream of the given subtype. */
export function embedCffProgram(doc: PDFDocument, program: Uint8Array, subtype: 'Type1C' | 'CIDFontType0C'): PDFRef {
  return doc.context.register(doc.context.flateStream(program, { Subtype: subtype }));
}

/** A six-letter subset tag derived from what the subset holds, so the same input gives the same output. */
export function subsetTag(...parts: (string | number)[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest();
  let tag = '';
  for (let i = 0; i < 6; i++) tag += String.fromCharCode(65 + (h[i] % 26));
  return tag;
}

/** A PostScript-style name for a font name a PDF used ("Times New Roman,Bold" → "TimesNewRoman,Bold"). */
export function cleanFontName(name: string): string {
  return name.replace(/[^\x21-\x7e]|[[\](){}<>/%#]/g, '').slice(0, 100) || 'Font';
}

export interface DescriptorMetrics {
  /** In glyph space (1000 units per em). */
  bbox: [number, number, number, number];
  ascent: number;
  descent: number;
  capHeight: number;
  italicAngle: number;
}

/** The flags a substitute family and style imply (symbolic or not as asked). */
export function familyFlags(family: FontFamily, style: FontStyle, symbolic: boolean): number {
  let flags = symbolic ? FLAG_SYMBOLIC : FLAG_NONSYMBOLIC;
  if (family === 'mono') flags |= FLAG_FIXED_PITCH;
  if (family === 'serif' || family === 'caladea') flags |= FLAG_SERIF;
  if (style === 'italic' || style === 'bolditalic') flags |= FLAG_ITALIC;
  return flags;
}

/**
 * Complete a font descriptor for an embedded substitute: the font name, the flags, the program, and the required
 * metrics where the PDF had none (a descriptor the PDF had keeps its own metrics: they describe the font the page
 * was laid out with). Entries that belong to another program (FontFile*, CharSet, CIDSet) go.
 */
export function completeDescriptor(
  doc: PDFDocument,
  existing: PDFDict | undefined,
  fontName: string,
  flags: number,
  metrics: DescriptorMetrics,
  program: { key: 'FontFile2' | 'FontFile3'; ref: PDFRef },
  bold: boolean,
): PDFDict {
  const d = existing ?? doc.context.obj({});
  const n = (k: string) => PDFName.of(k);
  for (const k of ['FontFile', 'FontFile2', 'FontFile3', 'CharSet', 'CIDSet']) d.delete(n(k));
  d.set(n('Type'), n('FontDescriptor'));
  d.set(n('FontName'), n(fontName));
  d.set(n('Flags'), PDFNumber.of(flags));
  const num = (k: string, v: number) => {
    const cur = d.lookup(n(k));
    if (!(cur instanceof PDFNumber)) d.set(n(k), PDFNumber.of(Math.round(v)));
  };
  if (!(d.lookup(n('FontBBox')) instanceof PDFArray)) d.set(n('FontBBox'), doc.context.obj(metrics.bbox.map((v) => Math.round(v))));
  num('ItalicAngle', metrics.italicAngle);
  num('Ascent', metrics.ascent);
  num('Descent', metrics.descent);
  num('CapHeight', metrics.capHeight);
  num('StemV', bold ? 140 : 80);
  d.set(n(program.key), program.ref);
  return d;
}
