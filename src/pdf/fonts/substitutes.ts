/**
 * Which shipped font stands in for a font a PDF names: the standard 14 fonts, their usual aliases (the names
 * Windows, Word, LibreOffice and PDF libraries write) and the other fonts that have a metric-compatible free
 * counterpart. Anything else has no substitute: a font with other metrics would move or overlap text.
 */
import type { FontFamily, FontStyle } from './assets.js';

/** The standard 14 fonts whose AFM metrics a viewer uses when a PDF gives no /Widths. */
export type StandardFontName =
  | 'Helvetica'
  | 'Helvetica-Bold'
  | 'Helvetica-Oblique'
  | 'Helvetica-BoldOblique'
  | 'Times-Roman'
  | 'Times-Bold'
  | 'Times-Italic'
  | 'Times-BoldItalic'
  | 'Courier'
  | 'Courier-Bold'
  | 'Courier-Oblique'
  | 'Courier-BoldOblique'
  | 'Symbol'
  | 'ZapfDingbats';

export interface Substitute {
  family: FontFamily;
  style: FontStyle;
  /** The standard font whose metrics apply when the PDF has no /Widths (undefined: the substitute's own). */
  standard?: StandardFontName;
}

/** Family names (lower case, spaces removed, a trailing MT/PS/PSMT removed) → shipped family. */
const FAMILIES = new Map<string, FontFamily>([
  ['helvetica', 'sans'],
  ['arial', 'sans'],
  ['arimo', 'sans'],
  ['liberationsans', 'sans'],
  ['times', 'serif'],
  ['timesroman', 'serif'],
  ['timesnewroman', 'serif'],
  ['tinos', 'serif'],
  ['liberationserif', 'serif'],
  ['courier', 'mono'],
  ['couriernew', 'mono'],
  ['cousine', 'mono'],
  ['liberationmono', 'mono'],
  ['calibri', 'carlito'],
  ['carlito', 'carlito'],
  ['cambria', 'caladea'],
  ['caladea', 'caladea'],
  ['symbol', 'symbol'],
  ['zapfdingbats', 'dingbats'],
  ['itczapfdingbats', 'dingbats'],
  ['zadb', 'dingbats'],
  ['dingbats', 'dingbats'],
]);

/** Style words (lower case, MT removed) → style; anything else (Black, Narrow, Light, ...) has other metrics. */
const STYLES = new Map<string, FontStyle>([
  ['', 'regular'],
  ['regular', 'regular'],
  ['roman', 'regular'],
  ['normal', 'regular'],
  ['book', 'regular'],
  ['bold', 'bold'],
  ['italic', 'italic'],
  ['oblique', 'italic'],
  ['bolditalic', 'bolditalic'],
  ['boldoblique', 'bolditalic'],
  ['italicbold', 'bolditalic'],
]);

const STANDARD_STYLE: Record<'sans' | 'serif' | 'mono', Record<FontStyle, StandardFontName>> = {
  sans: { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique', bolditalic: 'Helvetica-BoldOblique' },
  serif: { regular: 'Times-Roman', bold: 'Times-Bold', italic: 'Times-Italic', bolditalic: 'Times-BoldItalic' },
  mono: { regular: 'Courier', bold: 'Courier-Bold', italic: 'Courier-Oblique', bolditalic: 'Courier-BoldOblique' },
};

/** Hints from the font descriptor, used when the name carries no style (e.g. "Arial" with /FontWeight 700). */
export interface StyleHints {
  bold?: boolean;
  italic?: boolean;
}

/** The name without a subset tag ("ABCDEF+"). */
export function withoutSubsetTag(name: string): string {
  return name.replace(/^[A-Z]{6}\+/, '');
}

/**
 * The substitute for a font name ("Helvetica-Bold", "ArialMT", "Arial,BoldItalic", "TimesNewRomanPS-BoldMT",
 * "ABCDEF+Calibri-Bold", "Times New Roman,Bold", ...), or undefined when none is metric-compatible.
 */
export function substituteFor(baseFont: string, hints: StyleHints = {}): Substitute | undefined {
  const name = withoutSubsetTag(baseFont).trim();
  if (name.length === 0 || name.length > 127) return undefined;
  const cut = name.includes(',') ? name.indexOf(',') : name.indexOf('-');
  const familyPart = cut < 0 ? name : name.slice(0, cut);
  const stylePart = cut < 0 ? '' : name.slice(cut + 1);
  const familyKey = familyPart
    .toLowerCase()
    .replace(/[\s_]/g, '')
    .replace(/(psmt|mt|ps)$/, '');
  let family = FAMILIES.get(familyKey);
  let styleKey = stylePart
    .toLowerCase()
    .replace(/[\s_-]/g, '')
    .replace(/(psmt|mt|ps)$/, '');
  if (!family) {
    // "ArialBold", "TimesNewRomanBoldItalic", "CalibriBold": the style glued to the family.
    for (const [key, fam] of FAMILIES) {
      if (familyKey.startsWith(key) && STYLES.has(familyKey.slice(key.length)) && styleKey === '') {
        family = fam;
        styleKey = familyKey.slice(key.length);
        break;
      }
    }
  }
  if (!family) return undefined;
  let style = STYLES.get(styleKey);
  if (!style) return undefined;
  if (style === 'regular' && (hints.bold || hints.italic))
    style = hints.bold && hints.italic ? 'bolditalic' : hints.bold ? 'bold' : 'italic';
  if (family === 'symbol') return { family, style: 'regular', standard: 'Symbol' };
  if (family === 'dingbats') return { family, style: 'regular', standard: 'ZapfDingbats' };
  if (family === 'sans' || family === 'serif' || family === 'mono') return { family, style, standard: STANDARD_STYLE[family][style] };
  return { family, style };
}
