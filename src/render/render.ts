/**
 * Rendering an uploaded invoice: what ingest() read → the render model (./model.ts) → a view. One entry point for the
 * library, the CLI and the HTTP route (through the runner, which takes large invoices off the event loop).
 *
 * Views: 'html' (./html.ts). A PDF view plugs in here: RENDER_FORMATS gets 'pdf', and renderIngested draws the same
 * render model with it (labels from ./labels.ts, code meanings from ./codes.ts, display forms from ./format.ts).
 */
import type { IngestResult } from '../input/types.js';
import { renderHtml } from './html.js';
import { DEFAULT_LANG, type Lang } from './labels.js';
import { toRenderModel, type RenderModel } from './model.js';
import { NothingToRenderError } from './errors.js';

export { NothingToRenderError };

export { AVAILABLE_RENDER_FORMATS, RENDER_FORMATS, type RenderFormat } from './formats.js';

export interface RenderPageOptions {
  lang?: Lang;
  /** At most this many lines (sub-lines included) are drawn (default MAX_RENDERED_LINES). */
  maxLines?: number;
}

export interface RenderedPage {
  format: 'html';
  /** The whole page (UTF-8 when written out). */
  html: string;
  lang: Lang;
  /** BT-1, for download names. */
  invoiceNumber?: string;
  /** Lines drawn and in the invoice (sub-lines included); shown < total when the page's bound cut the rest. */
  lines: { shown: number; total: number };
}

/** Codes of ingest problems that are notices on a page, not reasons it cannot be drawn. */
const NOTICE_CODES = new Set(['PDF_ENCRYPTED_READ', 'ZUGFERD_1_LEGACY', 'MULTIPLE_XML_ATTACHMENTS']);

/** The render model of an ingested upload, with where it came from; throws NothingToRenderError without an invoice. */
export function renderModelOf(ing: IngestResult, options: RenderPageOptions = {}): RenderModel {
  if (!ing.invoice) {
    const problem = ing.problems.find((p) => !NOTICE_CODES.has(p.code)) ?? {
      code: 'UNKNOWN_XML',
      message: 'The upload holds no invoice that can be read',
    };
    throw new NothingToRenderError(problem.code, problem.message);
  }
  const model = toRenderModel(ing.invoice, options.maxLines === undefined ? {} : { maxLines: options.maxLines });
  model.source = {
    container: ing.container,
    format: ing.format,
    profile: ing.profile,
    notices: ing.problems.map((p) => ({ code: p.code, message: p.message })),
  };
  if (ing.syntax) model.source.syntax = ing.syntax;
  if (ing.attachmentName !== undefined) model.source.attachmentName = ing.attachmentName;
  return model;
}

/** Draw an ingested upload as an HTML page. */
export function renderIngested(ing: IngestResult, options: RenderPageOptions = {}): RenderedPage {
  const lang = options.lang ?? DEFAULT_LANG;
  const model = renderModelOf(ing, options);
  const page: RenderedPage = { format: 'html', html: renderHtml(model, lang), lang, lines: { ...model.lineCount } };
  if (model.number !== undefined) page.invoiceNumber = model.number;
  return page;
}
