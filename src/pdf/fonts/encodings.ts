/**
 * Simple-font encodings (ISO 32000-1 Annex D) as code → glyph name, and glyph name → Unicode for the names they
 * use. Standard, WinAnsi and Mac Roman are written here from Annex D (the PDF library's WinAnsi table names 0x9F
 * ydieresis); Symbol and ZapfDingbats come from the library's standard-font data (a maintained dependency).
 */
import { Encodings } from '@cantoo/pdf-lib/standard-fonts';

export type EncodingName = 'StandardEncoding' | 'WinAnsiEncoding' | 'MacRomanEncoding' | 'Symbol' | 'ZapfDingbats';

/** 256 entries, '' where the encoding defines no glyph. */
export type CodeNames = readonly string[];

const ASCII_NAMES = (
  'space exclam quotedbl numbersign dollar percent ampersand quotesingle parenleft parenright asterisk plus comma ' +
  'hyphen period slash zero one two three four five six seven eight nine colon semicolon less equal greater question ' +
  'at A B C D E F G H I J K L M N O P Q R S T U V W X Y Z bracketleft backslash bracketright asciicircum underscore ' +
  'grave a b c d e f g h i j k l m n o p q r s t u v w x y z braceleft bar braceright asciitilde'
).split(' ');

function table(entries: [number, string][], base: CodeNames = []): string[] {
  const out = Array.from({ length: 256 }, (_, i) => base[i] ?? '');
  for (const [code, name] of entries) out[code] = name;
  return out;
}

function run(first: number, names: string): [number, string][] {
  return names.split(' ').map((n, i) => [first + i, n === '-' ? '' : n]);
}

const ASCII = table(ASCII_NAMES.map((n, i) => [32 + i, n]));

export const STANDARD_ENCODING: CodeNames = table(
  [
    [39, 'quoteright'],
    [96, 'quoteleft'],
    ...run(
      161,
      'exclamdown cent sterling fraction yen florin section currency quotesingle quotedblleft guillemotleft ' +
        'guilsinglleft guilsinglright fi fl - endash dagger daggerdbl periodcentered - paragraph bullet quotesinglbase ' +
        'quotedblbase quotedblright guillemotright ellipsis perthousand - questiondown - grave acute circumflex tilde ' +
        'macron breve dotaccent dieresis - ring cedilla - hungarumlaut ogonek caron emdash',
    ),
    [225, 'AE'],
    [227, 'ordfeminine'],
    ...run(232, 'Lslash Oslash OE ordmasculine'),
    [241, 'ae'],
    [245, 'dotlessi'],
    ...run(248, 'lslash oslash oe germandbls'),
  ],
  ASCII,
);

export const MAC_ROMAN_ENCODING: CodeNames = table(
  [
    [39, 'quotesingle'],
    [96, 'grave'],
    ...run(
      128,
      'Adieresis Aring Ccedilla Eacute Ntilde Odieresis Udieresis aacute agrave acircumflex adieresis atilde aring ' +
        'ccedilla eacute egrave ecircumflex edieresis iacute igrave icircumflex idieresis ntilde oacute ograve ' +
        'ocircumflex odieresis otilde uacute ugrave ucircumflex udieresis dagger degree cent sterling section bullet ' +
        'paragraph germandbls registered copyright trademark acute dieresis notequal AE Oslash infinity plusminus ' +
        'lessequal greaterequal yen mu partialdiff summation product pi integral ordfeminine ordmasculine Omega ae ' +
        'oslash questiondown exclamdown logicalnot radical florin approxequal Delta guillemotleft guillemotright ' +
        'ellipsis space Agrave Atilde Otilde OE oe endash emdash quotedblleft quotedblright quoteleft quoteright ' +
        'divide lozenge ydieresis Ydieresis fraction currency guilsinglleft guilsinglright fi fl daggerdbl ' +
        'periodcentered quotesinglbase quotedblbase perthousand Acircumflex Ecircumflex Aacute Edieresis Egrave ' +
        'Iacute Icircumflex Idieresis Igrave Oacute Ocircumflex - Ograve Uacute Ucircumflex Ugrave dotlessi ' +
        'circumflex tilde macron breve dotaccent ring cedilla hungarumlaut ogonek caron',
    ),
  ],
  ASCII,
);

/** Latin-1 names of 0xA0–0xFF, in code (= Unicode) order; WinAnsi names 0xA0 space and 0xAD hyphen. */
const LATIN1_NAMES = (
  'nbspace exclamdown cent sterling currency yen brokenbar section dieresis copyright ordfeminine guillemotleft ' +
  'logicalnot sfthyphen registered macron degree plusminus twosuperior threesuperior acute mu paragraph ' +
  'periodcentered cedilla onesuperior ordmasculine guillemotright onequarter onehalf threequarters questiondown ' +
  'Agrave Aacute Acircumflex Atilde Adieresis Aring AE Ccedilla Egrave Eacute Ecircumflex Edieresis Igrave Iacute ' +
  'Icircumflex Idieresis Eth Ntilde Ograve Oacute Ocircumflex Otilde Odieresis multiply Oslash Ugrave Uacute ' +
  'Ucircumflex Udieresis Yacute Thorn germandbls agrave aacute acircumflex atilde adieresis aring ae ccedilla ' +
  'egrave eacute ecircumflex edieresis igrave iacute icircumflex idieresis eth ntilde ograve oacute ocircumflex ' +
  'otilde odieresis divide oslash ugrave uacute ucircumflex udieresis yacute thorn ydieresis'
).split(' ');

/** WinAnsi 0x80–0x9F: [name, Unicode] ('' = undefined). */
const WIN_80_9F: [string, number][] = [
  ['Euro', 0x20ac],
  ['', 0],
  ['quotesinglbase', 0x201a],
  ['florin', 0x192],
  ['quotedblbase', 0x201e],
  ['ellipsis', 0x2026],
  ['dagger', 0x2020],
  ['daggerdbl', 0x2021],
  ['circumflex', 0x2c6],
  ['perthousand', 0x2030],
  ['Scaron', 0x160],
  ['guilsinglleft', 0x2039],
  ['OE', 0x152],
  ['', 0],
  ['Zcaron', 0x17d],
  ['', 0],
  ['', 0],
  ['quoteleft', 0x2018],
  ['quoteright', 0x2019],
  ['quotedblleft', 0x201c],
  ['quotedblright', 0x201d],
  ['bullet', 0x2022],
  ['endash', 0x2013],
  ['emdash', 0x2014],
  ['tilde', 0x2dc],
  ['trademark', 0x2122],
  ['scaron', 0x161],
  ['guilsinglright', 0x203a],
  ['oe', 0x153],
  ['', 0],
  ['zcaron', 0x17e],
  ['Ydieresis', 0x178],
];

export const WIN_ANSI_ENCODING: CodeNames = table(
  [
    ...WIN_80_9F.map(([n], i): [number, string] => [0x80 + i, n]),
    ...LATIN1_NAMES.map((n, i): [number, string] => [0xa0 + i, n]),
    [0xa0, 'space'],
    [0xad, 'hyphen'],
  ],
  ASCII,
);

/** Code → name from the PDF library's tables (Unicode → [code, name]), and each name's lowest Unicode. */
function fromLibrary(e: (typeof Encodings)['Symbol']): { names: string[]; unicode: Map<string, number> } {
  const names = Array.from({ length: 256 }, () => '');
  const unicode = new Map<string, number>();
  const mappings = (e as unknown as { unicodeMappings: Record<string, [number, string]> }).unicodeMappings;
  for (const [u, [code, name]] of Object.entries(mappings)) {
    const cp = Number(u);
    if (code >= 0 && code < 256 && !names[code]) names[code] = name;
    if (!unicode.has(name) || cp < (unicode.get(name) ?? 0)) unicode.set(name, cp);
  }
  return { names, unicode };
}

const symbol = fromLibrary(Encodings.Symbol);
const dingbats = fromLibrary(Encodings.ZapfDingbats);

/** The built-in encoding of the standard Symbol font. */
export const SYMBOL_ENCODING: CodeNames = symbol.names;
/** The built-in encoding of the standard ZapfDingbats font. */
export const DINGBATS_ENCODING: CodeNames = dingbats.names;

const LATIN_UNICODE: [string, number][] = [
  ...ASCII_NAMES.map((n, i): [string, number] => [n, 32 + i]),
  ...WIN_80_9F.filter(([n]) => n),
  ...LATIN1_NAMES.map((n, i): [string, number] => [n, 0xa0 + i]),
];

export function encodingByName(name: string | undefined): CodeNames | undefined {
  switch (name) {
    case 'StandardEncoding':
      return STANDARD_ENCODING;
    case 'WinAnsiEncoding':
      return WIN_ANSI_ENCODING;
    case 'MacRomanEncoding':
      return MAC_ROMAN_ENCODING;
    default:
      return undefined;
  }
}

/** Unicode of the Standard and Mac Roman names that WinAnsi does not have, and common alternative names. */
const EXTRA_NAMES: [string, number][] = [
  ['quoteright', 0x2019],
  ['quoteleft', 0x2018],
  ['fraction', 0x2044],
  ['fi', 0xfb01],
  ['fl', 0xfb02],
  ['Lslash', 0x141],
  ['lslash', 0x142],
  ['dotlessi', 0x131],
  ['breve', 0x2d8],
  ['dotaccent', 0x2d9],
  ['ring', 0x2da],
  ['ogonek', 0x2db],
  ['hungarumlaut', 0x2dd],
  ['caron', 0x2c7],
  ['notequal', 0x2260],
  ['infinity', 0x221e],
  ['lessequal', 0x2264],
  ['greaterequal', 0x2265],
  ['partialdiff', 0x2202],
  ['summation', 0x2211],
  ['product', 0x220f],
  ['pi', 0x3c0],
  ['integral', 0x222b],
  ['Omega', 0x2126],
  ['radical', 0x221a],
  ['approxequal', 0x2248],
  ['Delta', 0x2206],
  ['lozenge', 0x25ca],
  ['nbspace', 0xa0],
  ['nonbreakingspace', 0xa0],
  ['sfthyphen', 0xad],
  ['softhyphen', 0xad],
  ['minus', 0x2212],
  ['middot', 0xb7],
  ['Euro', 0x20ac],
];

const NAME_UNICODE = new Map<string, number>([...dingbats.unicode, ...symbol.unicode, ...EXTRA_NAMES, ...LATIN_UNICODE]);

/**
 * Unicode of a glyph name: the encodings' names, then the uniXXXX / uXXXX[XX] forms of the Adobe glyph naming
 * convention (a suffix after a period is ignored). Undefined when the name says nothing.
 */
export function glyphNameUnicode(name: string): number | undefined {
  const known = NAME_UNICODE.get(name);
  if (known !== undefined) return known;
  const base = name.split('.')[0];
  if (base !== name) {
    const k = NAME_UNICODE.get(base);
    if (k !== undefined) return k;
  }
  let m = /^uni([0-9A-F]{4})$/.exec(base);
  if (m) return Number.parseInt(m[1], 16);
  m = /^u([0-9A-F]{4,6})$/.exec(base);
  if (m) {
    const cp = Number.parseInt(m[1], 16);
    return cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? cp : undefined;
  }
  return undefined;
}

const UNICODE_NAME = new Map<number, string>();
for (const [name, cp] of [...LATIN_UNICODE, ...EXTRA_NAMES]) if (!UNICODE_NAME.has(cp)) UNICODE_NAME.set(cp, name);

/** A glyph name for a Unicode code point: the encodings' name where there is one, else uniXXXX / uXXXXXX. */
export function unicodeGlyphName(cp: number): string {
  const known = UNICODE_NAME.get(cp);
  if (known) return known;
  const hex = cp.toString(16).toUpperCase();
  return cp <= 0xffff ? `uni${hex.padStart(4, '0')}` : `u${hex.padStart(6, '0')}`;
}

/** WinAnsi code → the Unicode the PDF/A checker and most readers use (0xA0, 0xAD stay themselves). */
export function winAnsiCodeUnicode(code: number): number | undefined {
  const name = WIN_ANSI_ENCODING[code];
  if (!name) return undefined;
  if (code === 0xa0 || code === 0xad) return code;
  return NAME_UNICODE.get(name);
}
