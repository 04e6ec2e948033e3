/**
 * POST /v1/extract: a Factur-X/ZUGFeRD/XRechnung PDF or a CII/UBL XML in, ExtractionResult out
 * (detected format and profile, the invoice XML found, best-effort invoice JSON, findings).
 */
import type { FastifyInstance } from 'fastify';
import { readForm } from '../multipart.js';
import { IngestError } from '../../input/ingest.js';
import { ValidationTimeoutError } from '../../validation/runner.js';
import { ProblemError } from '../errors.js';
import { uploadErrorResponses } from '../schemas.js';
import { extractXml } from '../../lib/operations.js';
import { viaLib } from '../lib-errors.js';
import { inlineDisposition } from '../download.js';

/**
 * `Accept: application/xml` (or text/xml) asks for the invoice XML itself instead of the JSON: the first media type
 * the client lists decides, as on /v1/transform (the two answers are alternatives, not variants).
 */
export function wantsXml(accept: string | undefined): boolean {
  return accept !== undefined && /^\s*(?:application|text)\/xml\b/i.test(accept);
}

const DESCRIPTION = `Extracts the embedded invoice XML from a PDF (the /EmbeddedFiles name tree and the catalog /AF;
factur-x.xml, zugferd-invoice.xml, xrechnung.xml, ZUGFeRD-invoice.xml preferred, else any CII/UBL attachment), or reads
the uploaded XML, and returns best-effort invoice JSON. Amounts are strings exactly as written in the XML.

**200, codes in \`errors\`** (the request succeeded; these describe the document):
- \`NO_XML\`: the PDF has no invoice XML (\`xml_extracted\` false, \`format_detected\` null, \`invoice_json\` null).
- \`XML_MALFORMED\`, \`XML_DTD_FORBIDDEN\`, \`XML_TOO_DEEP\`, \`XML_TOO_LARGE\`, \`XML_ENCODING\`, \`XML_ENCODING_UNSUPPORTED\`: the XML embedded in the PDF could not be parsed (\`invoice_json\` null).
- \`PDF_ATTACHMENT_UNREADABLE\`: the invoice attachment's stream could not be decoded.
- \`UNKNOWN_XML\`: the XML is well-formed but neither CII nor UBL (e.g. FatturaPA); \`invoice_json\` null.
- \`ZUGFERD_1_LEGACY\`: ZUGFeRD 1.0, read best-effort (\`_meta.limitations\` has \`heuristic_mapping\`).
- \`CDAR_MULTIPLE_REFERENCES\`: a lifecycle status message about several documents; \`status_json\` describes the first.

A French lifecycle status message (CDV, UN/CEFACT CDAR D22B) is read into \`status_json\`, in the JSON POST /v1/status takes
(posting it there builds the same XML); \`format_detected\` is \`cdar\`, \`invoice_json\` null.
- \`MULTIPLE_XML_ATTACHMENTS\`: more than one XML attachment; the message names the one read.
- \`PDF_ENCRYPTED_READ\`: the PDF was encrypted with an empty user password (permissions only; RC4 or AES, named in the
  message) and was read decrypted. Everything else is answered as for the unencrypted file.

**400 ProblemDetails, \`code\`**: \`EMPTY_FILE\`, \`NOT_PDF_OR_XML\` (neither a PDF nor XML), \`PDF_ENCRYPTED\` (a PDF that needs a password to open, or another security handler),
\`PDF_UNREADABLE\`, \`PDF_LIMIT\` (the PDF is over a processing limit, docs/reliability.md "PDF limits"), and for an uploaded XML \`XML_MALFORMED\`, \`XML_DTD_FORBIDDEN\` (any DOCTYPE, so no external entity is
ever resolved), \`XML_TOO_DEEP\` (over 200 levels), \`XML_TOO_LARGE\`, \`XML_ENCODING\` (bytes not valid in the encoding, or a
byte-order mark contradicting the declaration), \`XML_ENCODING_UNSUPPORTED\` (a declared encoding other than UTF-8, UTF-16,
US-ASCII, ISO-8859-1, ISO-8859-15, windows-1252); a multipart body that cannot be read is 400 without a code.
**413** \`UPLOAD_TOO_LARGE\` past MAX_UPLOAD_SIZE_MB. **422** HTTPValidationError when the \`file\` part is missing, and
ProblemDetails \`PROCESSING_TIMEOUT\` when reading takes longer than 30 s (only possible for very large invoices).

**\`Accept: application/xml\`** (or \`text/xml\`) answers the invoice XML itself, byte for byte (\`application/xml\`, with
\`Content-Disposition: inline; filename="<attachment name>"\`): an uploaded XML as sent, a PDF's invoice attachment as
embedded (also when it is not well-formed). The same 400s as above; a PDF without invoice XML to give is **422**
ProblemDetails \`NO_XML\` or \`PDF_ATTACHMENT_UNREADABLE\`.`;

export default async function extract(app: FastifyInstance): Promise<void> {
  app.post(
    '/v1/extract',
    {
      schema: {
        operationId: 'extractInvoice',
        summary: 'Extract invoice data from a PDF or XML',
        description: DESCRIPTION,
        tags: ['invoices'],
        consumes: ['multipart/form-data'],
        response: {
          200: {
            description: 'ExtractionResult: detected format and profile, the invoice JSON, findings about the document',
            content: {
              'application/json': { schema: { $ref: 'ExtractionResult#' } },
              'application/xml': { schema: { type: 'string', description: 'With Accept: application/xml: the invoice XML itself' } },
            },
          },
          ...uploadErrorResponses(),
        },
      },
      config: {
        form: { file: { type: 'string', format: 'binary', description: 'Factur-X/ZUGFeRD/XRechnung PDF, or CII/UBL XML' } },
        formRequired: ['file'],
      },
    },
    async (req, reply) => {
      const form = await readForm(req, { files: { file: { required: true } } });
      const file = form.files.file;
      if (wantsXml(req.headers.accept)) {
        const read = (bytes: Uint8Array, filename: string | undefined) =>
          app.validation.extract(bytes, filename).catch((err: unknown) => {
            if (err instanceof ValidationTimeoutError) {
              throw new ProblemError(422, 'Unprocessable Content', `${err.message}; the document is too large to read.`, {
                code: 'PROCESSING_TIMEOUT',
              });
            }
            throw err;
          });
        const { xml, filename } = await viaLib(() => extractXml(file.data, { filename: file.filename, extractor: read }));
        reply.header('content-disposition', inlineDisposition(filename));
        return reply.type('application/xml').send(Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength));
      }
      try {
        // Inline, or in a worker when the main thread is saturated or the invoice XML is large (validation/runner.ts).
        return await app.validation.extract(file.data, file.filename);
      } catch (err) {
        // Unusable input (not PDF/XML, encrypted PDF, malformed XML upload) → 400 with the ingest code.
        if (err instanceof IngestError) throw new ProblemError(400, 'Bad Request', err.message, { code: err.code });
        if (err instanceof ValidationTimeoutError) {
          throw new ProblemError(422, 'Unprocessable Content', `${err.message}; the document is too large to read.`, {
            code: 'PROCESSING_TIMEOUT',
          });
        }
        throw err;
      }
    },
  );
}
