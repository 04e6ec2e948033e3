/**
 * POST /v1/merge: an existing PDF/A-3b plus an existing invoice XML → one hybrid invoice PDF.
 * Checks in the order the API spec gives: 400 (not a PDF / not XML) → 409 (the PDF already carries an
 * invoice XML) → 422 (no PDF/A-3 declaration, or the XML fails EN 16931) → 200.
 */
import type { FastifyInstance } from 'fastify';
import { HYBRID_FORMATS } from '../../pdf/hybrid.js';
import { merge as mergePdf, parseMergeFormat } from '../../lib/operations.js';
import { ShapeError, UnprocessableError } from '../../lib/errors.js';
import { ProblemError, RequestShapeError } from '../errors.js';
import { ValidationTimeoutError } from '../../validation/runner.js';
import { attachmentDisposition } from '../download.js';
import { viaLib } from '../lib-errors.js';
import { formBoolean, readForm } from '../multipart.js';
import {
  ALLOW_SIGNATURE_FIELD,
  ALLOW_SIGNATURE_SCHEMA,
  SIGNATURE_INVALIDATED_HEADER,
  SIGNATURE_INVALIDATED_HEADER_SCHEMA,
} from '../signature.js';
import { uploadErrorResponses } from '../schemas.js';
import { PDFA_HEADERS_SCHEMA, PDFA_STRICT_FIELD, PDFA_STRICT_SCHEMA, setPdfaHeaders } from '../pdfa-answer.js';

const DESCRIPTION = `Embeds an existing invoice XML (Factur-X / ZUGFeRD CII, or XRechnung CII or UBL) into an existing PDF/A-3 PDF.
No license is required. The checks run in this order; the first that fails answers:

1. **400** ProblemDetails: the \`pdf\` part is not a PDF (\`NOT_PDF\`), is encrypted (\`PDF_ENCRYPTED\`) or unreadable
   (\`PDF_UNREADABLE\`) or over a processing limit (\`PDF_LIMIT\`, docs/reliability.md "PDF limits"); the \`xml\` part is not well-formed XML (\`NOT_XML\`, \`XML_MALFORMED\`, \`XML_DTD_FORBIDDEN\`, ...), not an
   invoice (\`UNKNOWN_XML\`), ZUGFeRD 1.0 (\`UNSUPPORTED_XML\`), or UBL while \`format\` asks for Factur-X/ZUGFeRD (\`XML_SYNTAX_MISMATCH\`:
   those carry CII only).
2. **409** ProblemDetails \`XML_ALREADY_EMBEDDED\`: the PDF already carries an invoice XML.
3. **422** ProblemDetails: the PDF does not declare PDF/A-3 in its XMP (\`pdfaid:part\` 3; conformance B, U or A) (\`NOT_PDFA3\`),
   or the XML fails EN 16931 validation (\`EN16931_INVALID\`). \`errors\` lists every failed check in the ValidationResult
   error shape (\`rule_id\`, \`message\`, \`severity\`, \`location\`); both kinds are listed when both fail. The report size
   bounds of \`/v1/validate\` apply (first 100 findings per rule, 1,000 entries in all; summary entries carry \`omitted\`, and
   \`report_truncated\` / \`findings_omitted\` say so).
4. **422** ProblemDetails \`PDFA_NONCONFORMANT\`, only with \`pdfa_strict=true\`: the written PDF still fails PDF/A-3b after the
   repairs (see 6); \`errors\` lists each finding once, at most 50 (\`report_truncated\` / \`findings_omitted\` count the rest).
5. **422** ProblemDetails \`PDF_SIGNED\`: the PDF is digitally signed; embedding rewrites it and would invalidate the signature.
   Send \`allow_signature_invalidation=true\` to embed anyway: the answer then carries \`X-Signature-Invalidated: true\`.
6. **200** \`application/pdf\`, \`Content-Disposition: attachment; filename="<invoice number>.pdf"\`. A declared PDF/A-3b whose
   content fails the checker is repaired as \`/v1/convert\` repairs (docs/pdfa.md); \`X-PDFA-Check\` says \`passed\`, \`failed\`
   (\`X-PDFA-Unmet\` lists the clauses still unmet) or \`unverified\` (time budget), \`X-PDFA-Repairs\` names the repairs that
   changed something (both at most 512 characters).

The attachment name and XMP follow the XML's profile (BT-24): XRechnung (and any UBL) → \`xrechnung.xml\`, level XRECHNUNG;
otherwise \`factur-x.xml\` with the profile's level (/AFRelationship Data for MINIMUM and BASIC WL, else Alternative).
\`format\` overrides the container: \`factur-x\` and \`zugferd\` (ZUGFeRD 2.4 uses the Factur-X container) → \`factur-x.xml\`,
\`xrechnung\` → \`xrechnung.xml\`. The PDF's PDF/A-3 declaration (3B, or 3U) is kept and its OutputIntent is kept; the result is checked against PDF/A-3b
before it is answered. A \`format\` value outside the three, a missing \`pdf\` or \`xml\` part, or one given twice is 422
ProblemDetails \`REQUEST_INVALID\` (\`errors\` names each field). **413** past MAX_UPLOAD_SIZE_MB.`;

/**
 * The contract gives merge one 422 shape, ProblemDetails (section 7): a malformed request (a part missing or given
 * twice, an unknown `format`) is answered like NOT_PDFA3 / EN16931_INVALID, its problems under `errors` in the same
 * item shape (plus the FastAPI-style `loc` and `type`).
 */
async function asMergeProblem<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    const shape = err instanceof ShapeError ? new RequestShapeError(err.issues) : err;
    if (!(shape instanceof RequestShapeError)) throw err;
    const errors = shape.items.map((i) => ({
      rule_id: null,
      message: `${i.loc.slice(1).join('.')}: ${i.msg}`,
      severity: 'error',
      location: i.loc.join('.'),
      loc: i.loc,
      type: i.type,
    }));
    throw new ProblemError(
      422,
      'Unprocessable Content',
      `The request is not a valid merge form: ${errors.map((e) => e.message).join('; ')}.`,
      {
        code: 'REQUEST_INVALID',
        errors,
      },
    );
  }
}

export default async function merge(app: FastifyInstance): Promise<void> {
  app.post(
    '/v1/merge',
    {
      schema: {
        operationId: 'mergeInvoice',
        summary: 'Embed an invoice XML into a PDF/A-3 PDF',
        description: DESCRIPTION,
        tags: ['invoices'],
        consumes: ['multipart/form-data'],
        response: {
          200: {
            description: 'The PDF with the invoice XML embedded.',
            headers: {
              'Content-Disposition': { type: 'string', description: 'attachment; filename="<invoice number>.pdf"' },
              [SIGNATURE_INVALIDATED_HEADER]: SIGNATURE_INVALIDATED_HEADER_SCHEMA,
              ...PDFA_HEADERS_SCHEMA,
            },
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...uploadErrorResponses(409),
          // Merge's 422 is always ProblemDetails (the contract's section 7), a malformed request too.
          422: {
            description:
              'NOT_PDFA3 / EN16931_INVALID / PDFA_NONCONFORMANT (pdfa_strict only) / PDF_SIGNED / REQUEST_INVALID (ProblemDetails, the failures under `errors`)',
            content: { 'application/problem+json': { schema: { $ref: 'ProblemDetails#' } } },
          },
        },
      },
      config: {
        form: {
          pdf: { type: 'string', format: 'binary', description: 'PDF/A-3 (pdfaid:part 3) without an embedded invoice XML' },
          xml: { type: 'string', format: 'binary', description: 'Invoice XML: Factur-X / ZUGFeRD CII, or XRechnung CII or UBL' },
          format: {
            type: ['string', 'null'],
            enum: [...HYBRID_FORMATS, null],
            description: 'Container override: factur-x, zugferd or xrechnung. Default: from the XML profile.',
          },
          [ALLOW_SIGNATURE_FIELD]: ALLOW_SIGNATURE_SCHEMA,
          [PDFA_STRICT_FIELD]: PDFA_STRICT_SCHEMA,
        },
        formRequired: ['pdf', 'xml'],
      },
    },
    async (req, reply) => {
      const form = await asMergeProblem(() =>
        readForm(req, {
          files: { pdf: { required: true }, xml: { required: true } },
          fields: { format: { required: false }, [ALLOW_SIGNATURE_FIELD]: { required: false }, [PDFA_STRICT_FIELD]: { required: false } },
        }),
      );
      const allowSignatureInvalidation = await asMergeProblem(async () => formBoolean(form, ALLOW_SIGNATURE_FIELD, false));
      const pdfaStrict = await asMergeProblem(async () => formBoolean(form, PDFA_STRICT_FIELD, false));
      const format = await asMergeProblem(async () => parseMergeFormat(form.fields.format, ['body']));
      // One implementation with the library and the CLI (src/lib/operations.ts); the XML is validated by the
      // shared validation runner: off the event loop and time-bounded, like /v1/validate.
      const result = await viaLib(async () =>
        mergePdf(form.files.pdf.data, form.files.xml.data, {
          format,
          pdfFilename: form.files.pdf.filename,
          xmlFilename: form.files.xml.filename,
          allowSignatureInvalidation,
          pdfaStrict,
          validateFirst: app.validation.mode === 'pool' && form.files.xml.data.length > app.config.validationInlineMaxKb * 1024,
          validateXml: async (xml, filename) => {
            try {
              return await app.validation.validate(xml, filename);
            } catch (err) {
              if (err instanceof ValidationTimeoutError) {
                throw new UnprocessableError('VALIDATION_TIMEOUT', `${err.message}; the XML is too large or too complex to validate.`);
              }
              throw err;
            }
          },
        }),
      );
      setPdfaHeaders(reply, result);
      if (result.signatureInvalidated) reply.header(SIGNATURE_INVALIDATED_HEADER, 'true');
      reply.header('content-disposition', attachmentDisposition(result.filename));
      return reply.type('application/pdf').send(Buffer.from(result.pdf.buffer, result.pdf.byteOffset, result.pdf.length));
    },
  );
}
