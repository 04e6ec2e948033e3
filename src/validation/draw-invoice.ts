/**
 * The invoice of metadata drawn as a PDF, in the job that writes its XML (the runner's buildXml with `draw`, inline or
 * in a worker): /v1/convert without a PDF embeds the XML into this drawing. The PDF view (and the PDF library with it)
 * is loaded on first use.
 */
import type { Invoice } from '../model/invoice.js';
import type { DrawnInvoicePdf, DrawOptions } from './worker-task.js';

let rendering: Promise<typeof import('../render/render.js')> | undefined;

/** Draw the invoice (no BT ids beside the labels: this is the invoice its buyer reads). */
export async function drawInvoice(invoice: Invoice, draw: DrawOptions): Promise<DrawnInvoicePdf> {
  const { renderInvoicePdf } = await (rendering ??= import('../render/render.js'));
  const page = await renderInvoicePdf(invoice, { lang: draw.lang, termIds: false });
  return { pdf: page.pdf, pages: page.pages, lines: page.lines, missingGlyphs: page.missingGlyphs };
}
