/**
 * The rendering's parts, for the views and pages built on it (the HTML view here; a PDF view, the browser UI, the
 * validation report page): the model step, the HTML view and its value elements, labels, code meanings, display forms.
 *
 * How a view is built: renderModelOf(ingested) or toRenderModel(invoice) gives sections of groups and terms (each term
 * with its BT id, raw value, display kind, code list and source location); label(id, lang) and pageText(key, lang)
 * give every text; codeMeaning(list, code, lang) a code's meaning; formatDecimal / formatDate the display forms.
 */
export { renderIngested, renderModelOf, type RenderedPage, type RenderPageOptions } from './render.js';
export { AVAILABLE_RENDER_FORMATS, RENDER_FORMATS, type RenderFormat } from './formats.js';
export { NothingToRenderError } from './errors.js';
export {
  groupsOf,
  MAX_RENDERED_LINES,
  SOURCE_PATHS_MAX_LINES,
  termOf,
  termsOf,
  toRenderModel,
  type CodeListName,
  type RenderGroup,
  type RenderItem,
  type RenderModel,
  type RenderModelOptions,
  type RenderSection,
  type RenderSource,
  type RenderTerm,
  type SectionId,
  type ValueKind,
} from './model.js';
export { MAX_DATA_URL_CHARS, RENDER_CSP, renderHtml, valueHtml } from './html.js';
export { DEFAULT_LANG, isLang, label, labelledIds, LANGUAGES, pageText, type Lang, type PageText } from './labels.js';
export { codeMeaning } from './codes.js';
export { base64Payload, escapeHtml, formatBytes, formatDate, formatDecimal, isIsoDate, percentSuffix } from './format.js';
