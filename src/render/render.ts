/**
 * Rendering an uploaded invoice: what ingest() read → the render model (./model.ts) → a view. One entry point for the
 * library, the CLI and the HTTP route (through the runner, which takes large invoices off the event loop).
 *
 * Views: 'html' (./html.ts) and 'pdf' (./pdf.ts, loaded on first use: it brings the PDF library), both drawing the same
 * render model with the labels of ./labels.ts, the code meanings of ./codes.ts and the display forms of ./view.ts.
 */
import type { IngestResult } from '../input/types.js';
import type { Invoice } from '../model/invoice.js';
import { renderHtml } from './html.js';
import { DEFAULT_LANG, type Lang } from './labels.js';
import { toRenderModel, type RenderModel } from './model.js';
import { NothingToRenderError } from './errors.js';
import type { RenderFormat } from './formats.js';

export { NothingToRenderError };

export { AVAILABLE_RENDER_FORMATS, RENDER_FORMATS, type RenderFormat } from './formats.js';

export interface RenderPageOptions {
  lang?: Lang;
  /** At most this many lines (sub-lines included) are drawn (default MAX_RENDERED_LINES). */
  maxLines?: number;
  /** html (default) or pdf. */
  format?: RenderFormat;
  /** PDF: each label's BT/BG id beside it, as on the HTML page (default true). */
  termIds?: boolean;
}

interface RenderedCommon {
  lang: Lang;
  /** BT-1, for download names. */
  invoiceNumber?: string;
  /** Lines drawn and in the invoice (sub-lines included); shown < total when the page's bound cut the rest. */
  lines: { shown: number; total: number };
}

export interface RenderedHtmlPage extends RenderedCommon {
  format: 'html';
  /** The whole page (UTF-8 when written out). */
  html: string;
}

export interface RenderedPdfPage extends RenderedCommon {
  format: 'pdf';
  /** The invoice as a PDF/A-3b. */
  pdf: Uint8Array;
  pages: number;
  /** Characters no shipped font has, drawn as □ (the document lists them in a notice). */
  missingGlyphs: number;
}

export type RenderedPage = RenderedHtmlPage | RenderedPdfPage;

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

/** Draw an ingested upload: an HTML page (synchronous), or a PDF (format 'pdf', asynchronous). */
export function renderIngested(ing: IngestResult, options?: RenderPageOptions & { format?: 'html' }): RenderedHtmlPage;
export function renderIngested(ing: IngestResult, options: RenderPageOptions & { format: 'pdf' }): Promise<RenderedPdfPage>;
export function renderIngested(ing: IngestResult, options: RenderPageOptions): RenderedHtmlPage | Promise<RenderedPage>;
export function renderIngested(ing: IngestResult, options: RenderPageOptions = {}): RenderedHtmlPage | Promise<RenderedPage> {
  const lang = options.lang ?? DEFAULT_LANG;
  const model = renderModelOf(ing, options);
  if (options.format === 'pdf') return drawPdf(model, lang, options);
  const page: RenderedHtmlPage = { format: 'html', html: renderHtml(model, lang), lang, lines: { ...model.lineCount } };
  if (model.number !== undefined) page.invoiceNumber = model.number;
  return page;
}

/**
 * Draw an invoice of the model as a PDF/A-3b: what /v1/convert without a PDF embeds the XML into (the invoice the XML
 * is written from, so both say the same; for MINIMUM and BASIC WL, whose XML carries no lines, the PDF still shows them).
 */
export function renderInvoicePdf(invoice: Invoice, options: Omit<RenderPageOptions, 'format'> = {}): Promise<RenderedPdfPage> {
  const model = toRenderModel(invoice, options.maxLines === undefined ? {} : { maxLines: options.maxLines });
  return drawPdf(model, options.lang ?? DEFAULT_LANG, options);
}

async function drawPdf(model: RenderModel, lang: Lang, options: RenderPageOptions): Promise<RenderedPdfPage> {
  const { renderPdf } = await import('./pdf.js');
  const drawn = await renderPdf(model, lang, { termIds: options.termIds !== false });
  const page: RenderedPdfPage = {
    format: 'pdf',
    pdf: drawn.pdf,
    lang,
    lines: { shown: drawn.linesDrawn, total: model.lineCount.total },
    pages: drawn.pages,
    missingGlyphs: drawn.missingGlyphs.reduce((n, m) => n + m.count, 0),
  };
  if (model.number !== undefined) page.invoiceNumber = model.number;
  return page;
}
