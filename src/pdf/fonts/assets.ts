/**
 * The font files shipped with the package (assets/fonts/, origins and licences in assets/fonts/SOURCE.md): found by
 * family and style, read from disk on first use and kept (a process reads each file at most once).
 *
 * The folder is found by walking up from this module: `src/pdf/fonts/` in the source tree, `dist/src/pdf/fonts/`
 * in a build and in the installed package (package.json "files" ships `assets/`), so the same code works in all
 * three without configuration.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The free font families shipped; each is metric-compatible with the fonts listed in docs/fonts.md. */
export type FontFamily = 'sans' | 'serif' | 'mono' | 'carlito' | 'caladea' | 'symbol' | 'dingbats';
export type FontStyle = 'regular' | 'bold' | 'italic' | 'bolditalic';

export interface FontAsset {
  family: FontFamily;
  style: FontStyle;
  /** Path below assets/fonts/. */
  file: string;
  /** TrueType (glyf outlines, embedded as FontFile2) or a bare CFF program (FontFile3 /Type1C). */
  format: 'truetype' | 'cff';
  /** The licence file next to it, below assets/fonts/. */
  licence: string;
}

const STYLE_SUFFIX: Record<FontStyle, string> = { regular: 'Regular', bold: 'Bold', italic: 'Italic', bolditalic: 'BoldItalic' };
const STYLES: FontStyle[] = ['regular', 'bold', 'italic', 'bolditalic'];

function trueTypeFamily(family: FontFamily, folder: string, prefix: string): FontAsset[] {
  return STYLES.map((style) => ({
    family,
    style,
    file: `${folder}/${prefix}-${STYLE_SUFFIX[style]}.ttf`,
    format: 'truetype',
    licence: `${folder}/OFL.txt`,
  }));
}

export const FONT_ASSETS: readonly FontAsset[] = [
  ...trueTypeFamily('sans', 'liberation', 'LiberationSans'),
  ...trueTypeFamily('serif', 'liberation', 'LiberationSerif'),
  ...trueTypeFamily('mono', 'liberation', 'LiberationMono'),
  ...trueTypeFamily('carlito', 'carlito', 'Carlito'),
  ...trueTypeFamily('caladea', 'caladea', 'Caladea'),
  { family: 'symbol', style: 'regular', file: 'foxit/FoxitSymbol.cff', format: 'cff', licence: 'foxit/LICENSE' },
  { family: 'dingbats', style: 'regular', file: 'foxit/FoxitDingbats.cff', format: 'cff', licence: 'foxit/LICENSE' },
];

/** The asset of a family in a style; families with one style (symbol, dingbats) answer it for every style. */
export function findFontAsset(family: FontFamily, style: FontStyle = 'regular'): FontAsset | undefined {
  return (
    FONT_ASSETS.find((a) => a.family === family && a.style === style) ??
    FONT_ASSETS.find((a) => a.family === family && a.style === 'regular')
  );
}

let dir: string | undefined;

/** The assets/fonts folder of this installation (throws when the package was installed without it). */
export function fontAssetsDir(): string {
  if (dir) return dir;
  let at = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 6; up++) {
    const candidate = join(at, 'assets', 'fonts');
    if (existsSync(join(candidate, 'SOURCE.md'))) return (dir = candidate);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  throw new Error('the font files (assets/fonts/) are missing from this installation');
}

const cache = new Map<string, Uint8Array>();

/** The file's bytes (read once per process). */
export function readFontAsset(asset: FontAsset): Uint8Array {
  let bytes = cache.get(asset.file);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(join(fontAssetsDir(), asset.file)));
    cache.set(asset.file, bytes);
  }
  return bytes;
}
