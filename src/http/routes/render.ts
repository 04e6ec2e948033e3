/**
 * POST /v1/render: a Factur-X/ZUGFeRD/XRechnung PDF or a CII/UBL XML in, a human-readable page of the invoice out
 * (src/render/: the model step, then the HTML or the PDF view). One implementation with the library and the CLI
 * (src/lib/operations.ts render); the runner takes large invoices off the event loop and bounds their time.
 */
import type { FastifyInstance } from 'fastify';
import { render as renderInvoice, RENDER_FORMATS, RENDER_LANGUAGES, type RenderResult } from '../../lib/operations.js';
import { UnprocessableError } from '../../lib/errors.js';
import { ValidationTimeoutError } from '../../validation/runner.js';
import { RENDER_CSP } from '../../render/html.js';
import { MAX_RENDERED_LINES } from '../../render/model.js';
import { attachmentDisposition } from '../download.js';
import { viaLib } from '../lib-errors.js';
import { readForm } from '../multipart.js';
import { uploadErrorResponses } from '../schemas.js';

/** `<lines drawn>/<lines in the invoice>` (sub-lines included): they differ only when the page's bound cut lines. */
export const RENDER_LINES_HEADER = 'x-render-lines';
/** format=pdf: the number of pages drawn. */
export const RENDER_PAGES_HEADER = 'x-render-pages';
/** format=pdf: characters no shipped font has (drawn as □, listed in a notice at the end of the document); absent when 0. */
export const RENDER_MISSING_GLYPHS_HEADER = 'x-render-missing-glyphs';

const DESCRIPTION = `Draws the invoice as one self-contained HTML page (inline CSS, no script, nothing loaded from elsewhere,
A4 print styles) laid out like an invoice: heading, parties with addresses, identifiers and contacts, references, delivery,
lines (sub-lines of the XRechnung extension and of Factur-X EXTENDED nested under their line, allowances and charges, item
attributes, periods), document allowances and charges, VAT breakdown, totals, payment instructions and terms, notes and
supporting documents. Every reader of the service's model is covered: CII in every profile, UBL Invoice and CreditNote,
XRechnung (CII or UBL), the XML inside a Factur-X / ZUGFeRD PDF, ZUGFeRD 1.0 (best-effort, with a notice on the page).

Labels in \`lang\` (\`en\` default, \`de\`, \`fr\`); codes are shown with their meaning (document type, currency, country,
unit, VAT category and exemption, payment means, note subject, allowance and charge reasons, schemes).

**Every business term is addressable.** The element that shows a value carries \`data-bt="BT-n"\` (its EN 16931 id; scheme
identifiers BT-n-1, the XRechnung extension's BT-DEX-00n, Factur-X EXTENDED's BT-X-304 / BT-X-8); formatted values keep the
raw value in \`<time datetime>\` (dates) or \`<data value>\` (amounts, prices, quantities, percentages, codes), other values
are the element's text. Groups carry \`data-bg="BG-n"\` (sub-lines \`BG-DEX-01\`). Values and groups carry \`data-src\`, the
location of their source element in the same form as \`/v1/validate\`'s finding locations, so a finding can be pointed at on
the page. Repeated terms are drawn every time they occur. Everything from the input is escaped.

**Supporting documents** (BG-24) embedded in the invoice are download links (\`<a download href="data:…">\`, no script) up to
2 MB of link (Chromium's bound on URLs); a larger one is listed with its name, type and size.

**Bounded**: at most ${MAX_RENDERED_LINES.toLocaleString('en')} lines (sub-lines included) are drawn; beyond, the page says how many were left
out. The header \`X-Render-Lines\` is \`<drawn>/<in the invoice>\`. The answer carries the page's
Content-Security-Policy as a header too, and \`Content-Disposition: inline; filename="<invoice number>.html"\`.

**\`format=pdf\`**: the same invoice drawn as a **PDF/A-3b** on A4 pages (no browser: the service's own PDF writer), with
embedded subsets of Liberation Sans and a ToUnicode map (the text can be copied and searched), labels in \`lang\`, page
numbers, the lines table broken across pages with its header repeated. Answered as \`application/pdf\` with
\`Content-Disposition: attachment; filename="<invoice number>.pdf"\`, \`X-Render-Pages\` (pages drawn) and
\`X-Render-Lines\`; the lines take at most 2,000 pages and the document 2,500 (past them it says what it leaves out). A
character no shipped font has (CJK, Arabic, ...) is drawn as □ and still extracts as itself; the document ends with a notice
naming such characters and \`X-Render-Missing-Glyphs\` counts them. Any other value of \`format\` or \`lang\`: **422**
HTTPValidationError (\`loc\` \`["body","format"]\` / \`["body","lang"]\`).

**400** ProblemDetails as on \`/v1/extract\`: \`EMPTY_FILE\`, \`NOT_PDF_OR_XML\`, \`PDF_ENCRYPTED\`, \`PDF_UNREADABLE\`, \`PDF_LIMIT\`,
and for an uploaded XML \`XML_MALFORMED\`, \`XML_DTD_FORBIDDEN\`, \`XML_TOO_DEEP\`, \`XML_TOO_LARGE\`, \`XML_ENCODING\`,
\`XML_ENCODING_UNSUPPORTED\`. **422** ProblemDetails when the upload holds no invoice to draw: \`NO_XML\` (a PDF without invoice
XML), \`UNKNOWN_XML\` (XML that is neither CII nor UBL), the \`XML_*\` code of an embedded XML that cannot be parsed,
\`PDF_ATTACHMENT_UNREADABLE\`; \`PROCESSING_TIMEOUT\` past the 30 s bound. **413** \`UPLOAD_TOO_LARGE\`. **422**
HTTPValidationError when the \`file\` part is missing.`;

export default async function render(app: FastifyInstance): Promise<void> {
  app.post(
    '/v1/render',
    {
      schema: {
        operationId: 'renderInvoice',
        summary: 'Render an invoice (PDF or XML) as a human-readable HTML page or PDF',
        description: DESCRIPTION,
        tags: ['invoices'],
        consumes: ['multipart/form-data'],
        response: {
          200: {
            description: 'The invoice as one self-contained HTML page (UTF-8), or with format=pdf as a PDF/A-3b.',
            headers: {
              'X-Render-Lines': { schema: { type: 'string', pattern: '^\\d+/\\d+$' }, description: 'lines drawn / lines in the invoice' },
              'X-Render-Pages': { schema: { type: 'string', pattern: '^\\d+$' }, description: 'format=pdf: pages drawn' },
              'X-Render-Missing-Glyphs': {
                schema: { type: 'string', pattern: '^\\d+$' },
                description: 'format=pdf: characters no shipped font has, drawn as □ (absent when none)',
              },
              'Content-Security-Policy': { schema: { type: 'string' }, description: 'HTML: no script, nothing loaded from elsewhere' },
              'Content-Disposition': {
                schema: { type: 'string' },
                description: 'HTML: inline; PDF: attachment; filename="<invoice number>.pdf"',
              },
            },
            content: { 'text/html': { schema: { type: 'string' } }, 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...uploadErrorResponses(),
        },
      },
      config: {
        form: {
          file: { type: 'string', format: 'binary', description: 'Factur-X/ZUGFeRD/XRechnung PDF, or CII/UBL XML' },
          lang: { type: 'string', enum: [...RENDER_LANGUAGES], default: 'en', description: 'Language of the labels' },
          format: {
            type: 'string',
            enum: [...RENDER_FORMATS],
            default: 'html',
            description: 'html: one self-contained HTML page; pdf: the same invoice as a PDF/A-3b',
          },
        },
        formRequired: ['file'],
      },
    },
    async (req, reply) => {
      const form = await readForm(req, {
        files: { file: { required: true } },
        fields: { lang: { required: false }, format: { required: false } },
      });
      const file = form.files.file;
      const page: RenderResult = await viaLib(() =>
        renderInvoice(file.data, {
          lang: form.fields.lang,
          format: form.fields.format,
          filename: file.filename,
          locRoot: ['body'],
          renderPage: async (bytes, filename, options) => {
            try {
              return await app.validation.render(bytes, filename, { lang: options.lang, format: options.format });
            } catch (err) {
              if (err instanceof ValidationTimeoutError)
                throw new UnprocessableError('PROCESSING_TIMEOUT', `${err.message}; the invoice is too large to render.`);
              throw err;
            }
          },
        }),
      );
      reply.header(RENDER_LINES_HEADER, `${page.lines.shown}/${page.lines.total}`);
      if (page.format === 'pdf') {
        // A document to keep: downloaded, not shown in place of the caller's page.
        reply.header(RENDER_PAGES_HEADER, String(page.pages));
        if (page.missingGlyphs > 0) reply.header(RENDER_MISSING_GLYPHS_HEADER, String(page.missingGlyphs));
        reply.header('content-disposition', attachmentDisposition(page.filename));
        return reply.type(page.contentType).send(Buffer.from(page.pdf.buffer, page.pdf.byteOffset, page.pdf.length));
      }
      reply.header('content-security-policy', RENDER_CSP);
      reply.header('content-disposition', `inline; filename="${page.filename.replace(/["\\]/g, '_')}"`);
      return reply.type(page.contentType).send(page.html);
    },
  );
}
