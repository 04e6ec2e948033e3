/**
 * POST /v1/merge: an existing PDF/A-3b plus an existing invoice XML → one hybrid invoice PDF.
 * Checks in the order the API spec gives: 400 (not a PDF / not XML) → 409 (the PDF already carries an
 * invoice XML) → 422 (no PDF/A-3 declaration, or the XML fails EN 16931) → 200.
 */
import type { FastifyInstance } from 'fastify';
import { ingest, IngestError, type IngestResult } from '../../input/ingest.js';
import { embedInvoiceXml, HYBRID_FORMATS, hybridFlavour, type HybridFormat } from '../../pdf/hybrid.js';
import { isPdf } from '../../pdf/extract.js';
import type { ValidationErrorDetail, ValidationResult } from '../../validation/validate.js';
import { ValidationTimeoutError } from '../../validation/runner.js';
import { attachmentDisposition, invoicePdfName } from '../download.js';
import { ProblemError, RequestShapeError } from '../errors.js';
import { readForm, type UploadedFile } from '../multipart.js';
import { errorResponses } from '../schemas.js';
import { embedErrorToHttp, PRODUCER } from './convert.js';

const DESCRIPTION = `Embeds an existing invoice XML (Factur-X / ZUGFeRD CII, or XRechnung CII or UBL) into an existing PDF/A-3 PDF.
No license is required. The checks run in this order; the first that fails answers:

1. **400** ProblemDetails: the \`pdf\` part is not a PDF (\`NOT_PDF\`), is encrypted (\`PDF_ENCRYPTED\`) or unreadable
   (\`PDF_UNREADABLE\`); the \`xml\` part is not well-formed XML (\`NOT_XML\`, \`XML_MALFORMED\`, \`XML_DTD_FORBIDDEN\`, ...), not an
   invoice (\`UNKNOWN_XML\`), ZUGFeRD 1.0 (\`UNSUPPORTED_XML\`), or UBL while \`format\` asks for Factur-X/ZUGFeRD (\`XML_SYNTAX_MISMATCH\`:
   those carry CII only).
2. **409** ProblemDetails \`XML_ALREADY_EMBEDDED\`: the PDF already carries an invoice XML.
3. **422** ProblemDetails: the PDF does not declare PDF/A-3 in its XMP (\`pdfaid:part\` 3; conformance B, U or A) (\`NOT_PDFA3\`),
   or the XML fails EN 16931 validation (\`EN16931_INVALID\`). \`errors\` lists every failed check in the ValidationResult
   error shape (\`rule_id\`, \`message\`, \`severity\`, \`location\`); both kinds are listed when both fail. The report size
   bounds of \`/v1/validate\` apply (first 100 findings per rule, 1,000 entries in all; summary entries carry \`omitted\`, and
   \`report_truncated\` / \`findings_omitted\` say so).
4. **200** \`application/pdf\`, \`Content-Disposition: attachment; filename="<invoice number>.pdf"\`.

The attachment name and XMP follow the XML's profile (BT-24): XRechnung (and any UBL) → \`xrechnung.xml\`, level XRECHNUNG;
otherwise \`factur-x.xml\` with the profile's level (/AFRelationship Data for MINIMUM and BASIC WL, else Alternative).
\`format\` overrides the container: \`factur-x\` and \`zugferd\` (ZUGFeRD 2.4 uses the Factur-X container) → \`factur-x.xml\`,
\`xrechnung\` → \`xrechnung.xml\`. The PDF's PDF/A-3 declaration (3B, or 3U) is kept and its OutputIntent is kept.
PDF/A compliance of the result is **not asserted**; use \`POST /v1/validate\` on it. A \`format\` value outside the three is
422 HTTPValidationError, as is a missing \`pdf\` or \`xml\` part.`;

function bytesOf(file: UploadedFile): Uint8Array {
  return new Uint8Array(file.data.buffer, file.data.byteOffset, file.data.length);
}

function readFormat(value: string | undefined): HybridFormat | undefined {
  const v = value?.trim().toLowerCase();
  if (!v || v === 'null') return undefined;
  if ((HYBRID_FORMATS as readonly string[]).includes(v)) return v as HybridFormat;
  throw new RequestShapeError([
    { loc: ['body', 'format'], msg: `Input should be ${HYBRID_FORMATS.map((f) => `'${f}'`).join(', ')}`, type: 'enum', input: value },
  ]);
}

const badRequest = (code: string, detail: string) => new ProblemError(400, 'Bad Request', detail, { code });

/** Step 1 for the PDF: a readable, unencrypted PDF, read with the same reader as /v1/extract. */
async function ingestPdf(file: UploadedFile): Promise<IngestResult> {
  const bytes = bytesOf(file);
  if (!isPdf(bytes)) throw badRequest('NOT_PDF', `The pdf part ("${file.filename}") is not a PDF`);
  try {
    return await ingest(bytes, file.filename);
  } catch (err) {
    if (err instanceof IngestError) throw badRequest(err.code, err.message);
    throw err;
  }
}

const ingestErrorToHttp = (err: IngestError) => badRequest(err.code === 'NOT_PDF_OR_XML' || err.code === 'EMPTY_FILE' ? 'NOT_XML' : err.code, err.message);

/** Step 1 for the XML: an invoice syntax that a hybrid PDF can carry (`problem`: why there is none, when the syntax is unknown). */
function checkSyntax(syntax: string | undefined, problem: string | undefined, format: HybridFormat | undefined): void {
  if (!syntax) throw badRequest('UNKNOWN_XML', problem ?? 'The XML is not a CII or UBL invoice');
  if (syntax === 'zugferd1') {
    throw badRequest('UNSUPPORTED_XML', 'ZUGFeRD 1.0 XML predates EN 16931 and cannot be embedded as Factur-X / ZUGFeRD 2.4 or XRechnung');
  }
  if (syntax === 'ubl' && format !== undefined && format !== 'xrechnung') {
    throw badRequest('XML_SYNTAX_MISMATCH', `A ${format} PDF carries CII XML; this is UBL (embed it with format=xrechnung)`);
  }
}

/** Step 1 for the XML: well-formed XML of an invoice syntax that a hybrid PDF can carry. */
async function ingestXml(file: UploadedFile, format: HybridFormat | undefined): Promise<IngestResult> {
  const bytes = bytesOf(file);
  if (isPdf(bytes)) throw badRequest('NOT_XML', `The xml part ("${file.filename}") is a PDF, not XML`);
  let ing: IngestResult;
  try {
    ing = await ingest(bytes, file.filename);
  } catch (err) {
    if (err instanceof IngestError) throw ingestErrorToHttp(err);
    throw err;
  }
  checkSyntax(ing.syntax, ing.problems[0]?.message, format);
  return ing;
}

/** The container flavour: the format given, else XRechnung for XRechnung and UBL XML, else Factur-X. */
function containerFormat(xml: IngestResult, format: HybridFormat | undefined): HybridFormat {
  if (format) return format;
  return xml.profile === 'xrechnung' || xml.syntax === 'ubl' ? 'xrechnung' : 'factur-x';
}

export default async function merge(app: FastifyInstance): Promise<void> {
  app.post(
    '/v1/merge',
    {
      schema: {
        summary: 'Embed an invoice XML into a PDF/A-3 PDF',
        description: DESCRIPTION,
        tags: ['invoices'],
        consumes: ['multipart/form-data'],
        response: {
          200: {
            description: 'The PDF with the invoice XML embedded.',
            headers: { 'Content-Disposition': { type: 'string', description: 'attachment; filename="<invoice number>.pdf"' } },
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses(400, 409, 413, 500),
          // Merge's own 422 is ProblemDetails (PDF/A-3 declaration, EN 16931); a malformed request is HTTPValidationError.
          422: {
            description: 'NOT_PDFA3 / EN16931_INVALID (ProblemDetails, failed rules under `errors`), or a request shape failure (HTTPValidationError)',
            content: {
              'application/problem+json': { schema: { $ref: 'ProblemDetails#' } },
              'application/json': { schema: { $ref: 'HTTPValidationError#' } },
            },
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
        },
        formRequired: ['pdf', 'xml'],
      },
    },
    async (req, reply) => {
      const form = await readForm(req, { files: { pdf: { required: true }, xml: { required: true } }, fields: { format: { required: false } } });
      const format = readFormat(form.fields.format);

      // 1. 400: both files must be what they claim to be.
      const pdf = await ingestPdf(form.files.pdf);
      const xmlBytes = bytesOf(form.files.xml);
      // The shared validation runner: off the event loop and time-bounded, like /v1/validate.
      const validateXml = async (): Promise<ValidationResult> => {
        try {
          return await app.validation.validate(xmlBytes, form.files.xml.filename);
        } catch (err) {
          if (err instanceof IngestError) throw ingestErrorToHttp(err);
          if (err instanceof ValidationTimeoutError) {
            throw new ProblemError(422, 'Unprocessable Content', `${err.message}; the XML is too large or too complex to validate.`, { code: 'VALIDATION_TIMEOUT' });
          }
          throw err;
        }
      };
      // A large XML (one the runner validates in a worker) is not parsed on the event loop before it is
      // validated: parsing 5 MB there held /health for a second. Its syntax checks come from the validation;
      // it is read here only once it is valid, to be embedded (reading it is then the request's own work).
      const large = app.validation.mode === 'pool' && xmlBytes.length > app.config.validationInlineMaxKb * 1024;
      let xml: IngestResult | undefined;
      let validation: ValidationResult | undefined;
      if (large) {
        if (isPdf(xmlBytes)) throw badRequest('NOT_XML', `The xml part ("${form.files.xml.filename}") is a PDF, not XML`);
        validation = await validateXml();
        checkSyntax(validation.syntax, validation.errors[0]?.message, format);
      } else {
        xml = await ingestXml(form.files.xml, format);
      }

      // 2. 409: the PDF already is a hybrid invoice.
      if (pdf.attachmentName !== undefined) {
        throw new ProblemError(409, 'Conflict', `The PDF already carries an invoice XML ("${pdf.attachmentName}")`, {
          code: 'XML_ALREADY_EMBEDDED',
          attachment: pdf.attachmentName,
        });
      }

      // 3. 422: PDF/A-3 declaration and EN 16931 validity, every failure listed.
      const errors: ValidationErrorDetail[] = [];
      const part = pdf.xmp?.pdfaPart?.trim();
      const conformance = pdf.xmp?.pdfaConformance?.trim().toUpperCase();
      if (part !== '3' || !conformance || !['A', 'B', 'U'].includes(conformance)) {
        errors.push({
          rule_id: 'PDFA3_DECLARATION',
          message: pdf.xmp
            ? `The PDF declares ${part ? `PDF/A-${part}${conformance ?? ''}` : 'no PDF/A part'} in its XMP; PDF/A-3b (pdfaid:part 3) is required`
            : 'The PDF has no readable XMP metadata, so it does not declare PDF/A-3b (pdfaid:part 3)',
          severity: 'error',
          rule_set: 'pdfa',
        });
      }
      validation ??= await validateXml();
      const invalid = !validation.valid;
      if (invalid) for (const e of validation.errors) if (e.severity === 'error') errors.push(e);
      if (errors.length > 0) {
        const pdfaFailed = errors[0].rule_id === 'PDFA3_DECLARATION';
        throw new ProblemError(
          422,
          'Unprocessable Content',
          [pdfaFailed ? 'The PDF is not declared PDF/A-3b' : '', invalid ? 'the XML fails EN 16931 validation' : '']
            .filter(Boolean)
            .join('; ')
            .replace(/^t/, 'T'),
          {
            code: pdfaFailed ? 'NOT_PDFA3' : 'EN16931_INVALID',
            errors,
            // Report size bounds, as in /v1/validate: summary entries (`omitted`) stand for the findings not listed.
            ...(validation.report_truncated ? { report_truncated: true, findings_omitted: validation.findings_omitted } : {}),
          },
        );
      }

      // 4. 200
      xml ??= await ingestXml(form.files.xml, format);
      const number = xml.invoice?.number;
      let result;
      try {
        result = await embedInvoiceXml(bytesOf(form.files.pdf), {
          xml: xml.xmlBytes!,
          flavour: hybridFlavour(xml.profile, containerFormat(xml, format)),
          title: number ? `Invoice ${number}` : undefined,
          producer: PRODUCER,
        });
      } catch (err) {
        throw embedErrorToHttp(err);
      }
      reply.header('content-disposition', attachmentDisposition(invoicePdfName(number)));
      return reply.type('application/pdf').send(Buffer.from(result.pdf.buffer, result.pdf.byteOffset, result.pdf.length));
    },
  );
}
