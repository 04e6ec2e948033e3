/**
 * POST /v1/convert: a PDF plus invoice metadata JSON → a hybrid invoice PDF (Factur-X / ZUGFeRD 2.4 with
 * factur-x.xml, or XRechnung with xrechnung.xml), the XML generated exactly as POST /v1/xml does.
 */
import type { FastifyInstance } from 'fastify';
import { InvoiceMetadataSchema } from '../../metadata/index.js';
import { METADATA_EXAMPLES } from '../../metadata/examples.js';
import { convert as convertPdf, parseRenderOptions, RENDER_LANGUAGES } from '../../lib/operations.js';
import { RENDER_LINES_HEADER, RENDER_MISSING_GLYPHS_HEADER, RENDER_PAGES_HEADER } from './render.js';
import { attachmentDisposition } from '../download.js';
import { viaLib } from '../lib-errors.js';
import { UnprocessableError } from '../../lib/errors.js';
import { ValidationTimeoutError } from '../../validation/runner.js';
import { formBoolean, readForm } from '../multipart.js';
import {
  ALLOW_SIGNATURE_FIELD,
  ALLOW_SIGNATURE_SCHEMA,
  SIGNATURE_INVALIDATED_HEADER,
  SIGNATURE_INVALIDATED_HEADER_SCHEMA,
} from '../signature.js';
import { uploadErrorResponses } from '../schemas.js';
import { DROPPED_FIELDS_HEADER } from './xml.js';
import { PDFA_HEADERS_SCHEMA, PDFA_STRICT_FIELD, PDFA_STRICT_SCHEMA, setPdfaHeaders } from '../pdfa-answer.js';

const DESCRIPTION = `Generates the invoice XML from the metadata (the same JSON and rules as \`POST /v1/xml\`) and embeds it in
the uploaded PDF. The \`profile\` in the metadata chooses the container:

| profile | attachment | XMP fx:ConformanceLevel | /AFRelationship |
|---|---|---|---|
| minimum, basic_wl | factur-x.xml | MINIMUM, BASIC WL | Data |
| basic, en16931, extended | factur-x.xml | BASIC, EN 16931, EXTENDED | Alternative |
| xrechnung | xrechnung.xml | XRECHNUNG (fx:Version 3.0) | Alternative |

The output carries what Factur-X 1.08 / ZUGFeRD 2.4 prescribe for the container: the XML as an embedded file
(\`/Subtype /text#2Fxml\`, \`/Params\` with size, dates and MD5 checksum), listed in the EmbeddedFiles name tree and in
the catalog \`/AF\`; XMP metadata with \`pdfaid:part\` 3 / \`pdfaid:conformance\` B (U is kept when the input declared 3U),
the fx: properties and their PDF/A extension schema, kept equal to the Info dictionary; an sRGB OutputIntent
(\`GTS_PDFA1\`) unless the input has one; a trailer \`/ID\`. Page content streams are copied unchanged.
An invoice XML the PDF already carried (factur-x.xml, zugferd-invoice.xml, xrechnung.xml, ZUGFeRD-invoice.xml) is replaced.

**Any valid PDF is converted: PDF/A is never a reason to refuse.** Before writing, the input is checked once against
PDF/A-3b by the native checker and what it reports is repaired where that leaves the pages as they are (annotation
flags and appearances, forbidden actions and JavaScript, XFA, LZW, image interpolation, optional content, XMP
properties, names, output intents, transfer functions, device colours through Default colour spaces, ...; docs/pdfa.md
lists every repair and its clause). The written PDF is then checked again, and the answer says how it went:
\`X-PDFA-Check\` is \`passed\`, \`failed\` (content no repair can mend; \`X-PDFA-Unmet\` lists the ISO 19005-3 clause-test
ids still unmet) or \`unverified\` (the check's time budget ran out); \`X-PDFA-Repairs\` names the repairs that changed
something. Both lists are comma-separated and at most 512 characters (the rest counted as "… (+N)").
With **\`pdfa_strict=true\`** a PDF that still fails is refused instead: **422** \`PDFA_NONCONFORMANT\`, each finding once
under \`errors\` (at most 50; \`report_truncated\` and \`findings_omitted\` count the rest) and \`unmet_clauses\`.

The response is \`application/pdf\` with \`Content-Disposition: attachment; filename="<invoice number>.pdf"\` (characters
other than letters, digits, \`.\`, \`-\`, \`_\` become \`_\`). \`X-Dropped-Fields\` lists metadata fields the profile cannot carry.

**400** ProblemDetails, \`code\`: \`NOT_PDF\` (the \`pdf\` part is not a PDF), \`PDF_ENCRYPTED\` (encrypted PDFs cannot be
PDF/A-3; remove the encryption first), \`PDF_UNREADABLE\` (also a page tree without /Pages or /Kids, or one that refers to itself), \`PDF_LIMIT\` (the PDF is over a
processing limit, docs/reliability.md "PDF limits": e.g. an xref or object stream claiming more objects than the file holds,
or its parse needing more than 4 s or 256 MB), \`METADATA_NOT_JSON\`, \`METADATA_INCONSISTENT\` (given totals disagree
with the lines; \`errors\` lists them). **413** past MAX_UPLOAD_SIZE_MB. **422** HTTPValidationError: a missing
\`metadata\` part, or metadata that does not fit the schema (\`loc\` points into the metadata).
**422** ProblemDetails \`PDF_SIGNED\`: the PDF is digitally signed; embedding rewrites it and would invalidate the signature.
Send \`allow_signature_invalidation=true\` to embed anyway: the answer then carries \`X-Signature-Invalidated: true\`.
**500** \`EMBED_CHECK_FAILED\`: the written PDF did not pass the read-back check (never returned broken).

**Without a PDF.** Leave the \`pdf\` part out and the invoice is drawn from the metadata — the invoice the XML is written
from — as a PDF/A-3b (the \`POST /v1/render\` \`format=pdf\` view, without the business-term ids beside the labels; labels in
\`lang\`: \`en\` default, \`de\`, \`fr\`), and the XML is embedded into it as above: a complete Factur-X / ZUGFeRD / XRechnung
from metadata alone. For MINIMUM and BASIC WL, whose XML carries no lines, the drawn PDF still shows the lines the metadata
gives. The answer then also carries \`X-Render-Pages\`, \`X-Render-Lines\` and, when a character is in no shipped font (drawn
as □), \`X-Render-Missing-Glyphs\`. A \`pdf\` part that is sent must be a PDF: an empty one is **400** \`NOT_PDF\`, a text field
named \`pdf\` a **422**. A \`lang\` other than en/de/fr is a **422** HTTPValidationError at \`["body","lang"]\`.`;

export default async function convert(app: FastifyInstance): Promise<void> {
  if (!app.getSchema('InvoiceMetadata')) app.addSchema({ ...InvoiceMetadataSchema, examples: Object.values(METADATA_EXAMPLES) });
  app.post(
    '/v1/convert',
    {
      schema: {
        operationId: 'convertInvoice',
        summary: 'Make a hybrid invoice PDF (Factur-X / ZUGFeRD / XRechnung) from a PDF and metadata',
        description: DESCRIPTION,
        tags: ['invoices'],
        consumes: ['multipart/form-data'],
        response: {
          200: {
            description: 'The PDF with the invoice XML embedded.',
            headers: {
              'Content-Disposition': { type: 'string', description: 'attachment; filename="<invoice number>.pdf"' },
              'X-Dropped-Fields': { type: 'string', description: 'Comma-separated metadata paths left out of the XML' },
              'X-Render-Pages': { type: 'string', description: 'Without a pdf part: pages of the drawn invoice' },
              'X-Render-Lines': { type: 'string', description: 'Without a pdf part: lines drawn / lines in the invoice' },
              'X-Render-Missing-Glyphs': {
                type: 'string',
                description: 'Without a pdf part: characters no shipped font has, drawn as □ (absent when none)',
              },
              [SIGNATURE_INVALIDATED_HEADER]: SIGNATURE_INVALIDATED_HEADER_SCHEMA,
              ...PDFA_HEADERS_SCHEMA,
            },
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...uploadErrorResponses(),
        },
      },
      config: {
        form: {
          pdf: {
            type: 'string',
            format: 'binary',
            description:
              'The invoice as a PDF (ideally PDF/A-3b already; not encrypted). Leave the part out to have the invoice drawn from the metadata (a PDF/A-3b); a part that is sent must be a PDF (an empty one is 400 NOT_PDF).',
          },
          metadata: {
            type: 'string',
            contentMediaType: 'application/json',
            contentSchema: { $ref: 'InvoiceMetadata#' },
            description: 'Invoice metadata as JSON text (schema InvoiceMetadata); its profile chooses Factur-X or XRechnung.',
          },
          lang: {
            type: 'string',
            enum: [...RENDER_LANGUAGES],
            default: 'en',
            description: "Without a pdf part: the language of the drawn invoice's labels",
          },
          [ALLOW_SIGNATURE_FIELD]: ALLOW_SIGNATURE_SCHEMA,
          [PDFA_STRICT_FIELD]: PDFA_STRICT_SCHEMA,
        },
        formRequired: ['metadata'],
      },
    },
    async (req, reply) => {
      const form = await readForm(req, {
        // No pdf part: the invoice is drawn from the metadata (an empty pdf part is still a PDF that is not one: 400 NOT_PDF).
        files: { pdf: { required: false } },
        fields: {
          metadata: { required: true },
          lang: { required: false },
          [ALLOW_SIGNATURE_FIELD]: { required: false },
          [PDFA_STRICT_FIELD]: { required: false },
        },
      });
      const allowSignatureInvalidation = formBoolean(form, ALLOW_SIGNATURE_FIELD, false);
      const pdfaStrict = formBoolean(form, PDFA_STRICT_FIELD, false);
      const pdf = form.files.pdf;
      // One implementation with the library and the CLI (src/lib/operations.ts).
      // The XML is generated (and without a PDF the invoice drawn) by the shared runner: large metadata off the event
      // loop and time-bounded, like /v1/xml.
      const built = await viaLib(() => {
        const { lang } = parseRenderOptions({ lang: form.fields.lang }, ['body']);
        return convertPdf(pdf?.data, form.fields.metadata, {
          filename: pdf?.filename,
          lang,
          allowSignatureInvalidation,
          pdfaStrict,
          buildXml: async (metadata, draw) => {
            try {
              return await app.validation.buildXml(metadata, draw);
            } catch (err) {
              if (err instanceof ValidationTimeoutError)
                throw new UnprocessableError('PROCESSING_TIMEOUT', `${err.message}; the invoice is too large to generate.`);
              throw err;
            }
          },
        });
      });
      if (built.drawn) {
        reply.header(RENDER_PAGES_HEADER, String(built.drawn.pages));
        reply.header(RENDER_LINES_HEADER, `${built.drawn.lines.shown}/${built.drawn.lines.total}`);
        if (built.drawn.missingGlyphs > 0) reply.header(RENDER_MISSING_GLYPHS_HEADER, String(built.drawn.missingGlyphs));
      }
      setPdfaHeaders(reply, built);
      if (built.signatureInvalidated) reply.header(SIGNATURE_INVALIDATED_HEADER, 'true');
      if (built.droppedFields.length) reply.header(DROPPED_FIELDS_HEADER, built.droppedFields.join(', '));
      reply.header('content-disposition', attachmentDisposition(built.filename));
      return reply.type('application/pdf').send(Buffer.from(built.pdf.buffer, built.pdf.byteOffset, built.pdf.length));
    },
  );
}
