/**
 * The options of render() (library, CLI, HTTP form fields `lang` and `format`), checked apart from the engine, as
 * validate-options.ts does for validate(): a bad value is a ShapeError (HTTP 422 HTTPValidationError) naming the field;
 * a format the contract names but this build does not draw yet is an UnprocessableError RENDER_FORMAT_UNAVAILABLE.
 */
import { ShapeError, UnprocessableError } from './errors.js';
import { DEFAULT_LANG, isLang, LANGUAGES, type Lang } from '../render/labels.js';
import { AVAILABLE_RENDER_FORMATS, RENDER_FORMATS, type RenderFormat } from '../render/formats.js';

export { LANGUAGES as RENDER_LANGUAGES, RENDER_FORMATS, AVAILABLE_RENDER_FORMATS };
export type { Lang as RenderLanguage, RenderFormat };

export interface RenderCallOptions {
  /** Label language: en (default), de or fr. */
  lang?: string;
  /** html (default) or pdf (the invoice as a PDF/A-3b). */
  format?: string;
  /** Name of the file, for messages only (the bytes decide what the file is). */
  filename?: string;
}

export interface ParsedRenderOptions {
  lang: Lang;
  format: RenderFormat;
}

function notOneOf(loc: (string | number)[], accepted: readonly string[], input: unknown): ShapeError {
  return new ShapeError('OPTION_INVALID', [
    { loc, msg: `Input should be ${accepted.map((e) => `'${e}'`).join(', ')}`, type: 'enum', input },
  ]);
}

/** Check lang and format (case-insensitive, surrounding blanks ignored; empty = default). */
export function parseRenderOptions(options: RenderCallOptions = {}, locRoot: (string | number)[] = []): ParsedRenderOptions {
  const lang = options.lang === undefined ? '' : String(options.lang).trim().toLowerCase();
  if (lang !== '' && !isLang(lang)) throw notOneOf([...locRoot, 'lang'], LANGUAGES, options.lang);
  const format = options.format === undefined ? '' : String(options.format).trim().toLowerCase();
  if (format !== '' && !(RENDER_FORMATS as readonly string[]).includes(format))
    throw notOneOf([...locRoot, 'format'], RENDER_FORMATS, options.format);
  const parsed: ParsedRenderOptions = { lang: (lang || DEFAULT_LANG) as Lang, format: (format || 'html') as RenderFormat };
  if (!AVAILABLE_RENDER_FORMATS.includes(parsed.format)) {
    throw new UnprocessableError(
      'RENDER_FORMAT_UNAVAILABLE',
      `format=${parsed.format} is not drawn by this version of the service; accepted now: ${AVAILABLE_RENDER_FORMATS.join(', ')}`,
      { accepted: [...AVAILABLE_RENDER_FORMATS] },
    );
  }
  return parsed;
}
