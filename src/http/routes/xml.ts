/**
 * POST /v1/xml: invoice metadata JSON (form field `metadata`) → Factur-X / ZUGFeRD / XRechnung CII D22B XML, or
 * EN 16931 / XRechnung / Peppol BIS UBL 2.1 XML (`syntax: "ubl"`, profile `peppol`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { INVOICE_METADATA_COMPONENT } from '../../metadata/index.js';
import { fromMetadataError } from '../../lib/operations.js';
import { MetadataNotJsonError } from '../../metadata/errors.js';
import { hasNumberToken, parseJsonKeepingNumbers } from '../../metadata/json-numbers.js';
import { plainMetadataValue } from '../../metadata/validate.js';
import { ProblemError, RequestShapeError } from '../errors.js';
import { libErrorToHttp } from '../lib-errors.js';
import { isMultipart, readForm } from '../multipart.js';
import { ValidationTimeoutError, type BuiltXml } from '../../validation/runner.js';
import { uploadErrorResponses } from '../schemas.js';
import { jsonTooDeep, jsonTooDeepMessage, MAX_JSON_DEPTH } from '../../util/json-limits.js';

/** Response header listing the metadata fields the chosen profile cannot carry (comma-separated paths). */
export const DROPPED_FIELDS_HEADER = 'x-dropped-fields';

/** The metadata pipeline's errors as HTTP errors (400 not JSON / inconsistent, 422 shape); other errors pass through. */
export function toHttpError(err: unknown): unknown {
  return libErrorToHttp(fromMetadataError(err));
}

const DESCRIPTION = `Generates Cross Industry Invoice (D22B) XML from invoice metadata JSON, for the Factur-X/ZUGFeRD profiles
\`minimum\`, \`basic_wl\`, \`basic\`, \`en16931\` (default) and \`extended\`, and for \`xrechnung\` (XRechnung 3.0 CII);
or, with \`"syntax": "ubl"\` in the metadata, UBL 2.1 XML (an Invoice, or a CreditNote for credit-note type codes such as
381) for \`en16931\` (plain EN 16931 UBL), \`xrechnung\` (XRechnung 3.0 UBL) and \`peppol\` (Peppol BIS Billing 3.0, UBL
only: \`syntax\` may be left out; CustomizationID urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0,
ProfileID urn:fdc:peppol.eu:2017:poacc:billing:01:1.0, electronic addresses as EndpointID with schemeID). \`syntax\`
\`ubl\` with a Factur-X profile (\`minimum\`, \`basic_wl\`, \`basic\`, \`extended\`) or \`cii\` with \`peppol\` is **422** at
\`["body","metadata","syntax"]\`; \`peppol\` requires what Peppol does beyond EN 16931 (both electronic addresses, a buyer
or purchase order reference, one note unless seller and buyer are German, the Peppol type codes), also 422 at the field.
The metadata is the JSON schema \`InvoiceMetadata\`, sent as the form field \`metadata\`
(\`application/x-www-form-urlencoded\`; \`multipart/form-data\` is accepted too), or as an \`application/json\` body
that is the metadata object itself (or \`{"metadata": ...}\`). A BusinessReadyInvoice from /v1/serialize (or the whole
SerializationResponse) is accepted as metadata: receive, serialize, correct, re-issue. Amounts, quantities, prices
and rates may be JSON numbers, read exactly as written (\`0.1\` is 0.1, \`1e2\` is 100).

- Line totals, the VAT breakdown and the document totals are computed with EN 16931 rounding (half-up, 2 decimals)
  when absent; given values that disagree with the lines answer **400** (\`code\` \`METADATA_INCONSISTENT\`, \`errors\`
  lists each field with the given and the expected value).
- \`minimum\` and \`basic_wl\` carry no invoice lines: the line items only compute the totals (and for \`basic_wl\` the
  VAT breakdown).
- Fields the chosen profile cannot carry are left out of the XML and listed in the response header
  \`X-Dropped-Fields\` (comma-separated paths such as \`seller.contact, line_items[].description\`).
- Metadata that is not JSON: **400** (\`METADATA_NOT_JSON\`). Metadata (or a JSON body) nesting arrays/objects deeper than
  64 levels: **400** (\`JSON_TOO_DEEP\`, \`max_json_depth\`), checked before parsing. A decimal string longer than 64
  characters: **422** \`string_too_long\` at its \`loc\` (refused before any arithmetic). A missing field, a wrong type or a value out of its format,
  or a field the profile requires (e.g. \`buyer_reference\` and the electronic addresses for \`xrechnung\`):
  **422** HTTPValidationError with \`loc\` pointing into the metadata, e.g. \`["body","metadata","seller","name"]\`.
- Generation over the 30 s time bound (only conceivable for enormous invoices): **422** ProblemDetails \`PROCESSING_TIMEOUT\`.`;

/** Decode one application/x-www-form-urlencoded component ('+' is a space); URIError on a broken escape. */
function decodeFormComponent(text: string): string {
  return decodeURIComponent(text.includes('+') ? text.replace(/\+/g, ' ') : text);
}

/**
 * application/x-www-form-urlencoded → fields (repeated names become arrays). The engine's native
 * decodeURIComponent is several times faster than the generic JS parser on JSON-heavy fields, and a
 * metadata field is mostly escapes.
 */
export function parseUrlEncoded(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  if (!body) return out;
  for (const pair of body.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decodeFormComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeFormComponent(pair.slice(eq + 1));
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** The `metadata` field: urlencoded (the contract), multipart, or a JSON body carrying it. */
async function readMetadataField(req: FastifyRequest): Promise<unknown> {
  if (isMultipart(req)) {
    const form = await readForm(req, { fields: { metadata: { required: true } } });
    return form.fields.metadata;
  }
  const body = req.body;
  // A JSON body is the metadata itself, or {"metadata": ...} (metadata has no member of that name, so the two
  // cannot be confused). Its numbers were kept as written by the parser below.
  if (req.headers['content-type']?.includes('json') && !(body && typeof body === 'object' && Object.hasOwn(body, 'metadata'))) {
    return plainMetadataValue(body);
  }
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>).metadata : undefined;
  if (value !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value)) return plainMetadataValue(value);
  if (value === undefined || value === null) {
    throw new RequestShapeError([{ loc: ['body', 'metadata'], msg: 'Field required', type: 'missing' }]);
  }
  if (Array.isArray(value)) {
    throw new RequestShapeError([{ loc: ['body', 'metadata'], msg: 'Send the metadata field once', type: 'string_type' }]);
  }
  return value;
}

export default async function xml(app: FastifyInstance): Promise<void> {
  // This plugin's own urlencoded parser (encapsulated: other routes keep @fastify/formbody's).
  app.removeContentTypeParser('application/x-www-form-urlencoded');
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: app.config.maxUploadSizeMb * 1024 * 1024 },
    (_req, body, done) => {
      try {
        done(null, parseUrlEncoded(body as string));
      } catch {
        done(
          new ProblemError(400, 'Bad Request', 'The form body is not valid application/x-www-form-urlencoded (broken %-escape).'),
          undefined,
        );
      }
    },
  );

  // JSON bodies (the metadata, or {"metadata": ...}): nesting depth bounded before parsing (src/util/json-limits.ts).
  // fastify's own parser (prototype-poisoning protection) parses a body without numbers; one with numbers is read
  // by the number-keeping parser (./metadata/json-numbers.ts), which refuses the same keys.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: app.config.maxUploadSizeMb * 1024 * 1024 },
    (req, body, done) => {
      if (jsonTooDeep(body as string)) {
        done(
          new ProblemError(400, 'Bad Request', `${jsonTooDeepMessage('The JSON body')}.`, {
            code: 'JSON_TOO_DEEP',
            max_json_depth: MAX_JSON_DEPTH,
          }),
          undefined,
        );
        return;
      }
      if (!hasNumberToken(body as string)) {
        parseJson(req, body as string, done);
        return;
      }
      try {
        done(null, parseJsonKeepingNumbers(body as string, { forbidPrototypeKeys: true }));
      } catch (err) {
        const e = new ProblemError(400, 'Bad Request', `The JSON body is not valid JSON: ${(err as Error).message}`);
        done(e, undefined);
      }
    },
  );

  // Publish the metadata schema (components.schemas.InvoiceMetadata) unless the app already did.
  if (!app.getSchema('InvoiceMetadata')) app.addSchema(INVOICE_METADATA_COMPONENT);
  app.post(
    '/v1/xml',
    {
      schema: {
        operationId: 'generateInvoiceXml',
        summary: 'Generate invoice XML (CII D22B or UBL 2.1) from metadata',
        description: DESCRIPTION,
        tags: ['invoices'],
        response: {
          200: {
            description: 'The invoice XML. Header X-Dropped-Fields lists the metadata fields the profile could not carry.',
            headers: {
              'X-Dropped-Fields': { type: 'string', description: 'Comma-separated metadata paths left out of the XML' },
            },
            content: { 'application/xml': { schema: { type: 'string' } } },
          },
          ...uploadErrorResponses(),
        },
      },
      config: {
        formContentType: 'application/x-www-form-urlencoded',
        form: {
          metadata: {
            type: 'string',
            contentMediaType: 'application/json',
            contentSchema: { $ref: 'InvoiceMetadata#' },
            description: 'Invoice metadata as JSON text (schema InvoiceMetadata in components.schemas).',
          },
        },
        formRequired: ['metadata'],
      },
    },
    async (req, reply) => {
      let metadata: unknown;
      try {
        metadata = await readMetadataField(req);
      } catch (err) {
        throw toHttpError(err);
      }
      // The depth bound here, on the main thread (one linear scan), rather than after a hand-over to a worker.
      if (typeof metadata === 'string' && jsonTooDeep(metadata))
        throw toHttpError(new MetadataNotJsonError(jsonTooDeepMessage('The metadata JSON'), 'JSON_TOO_DEEP'));
      let built: BuiltXml;
      try {
        // Inline, or in a worker when the main thread is saturated or the metadata is large (validation/runner.ts).
        built = await app.validation.buildXml(metadata);
      } catch (err) {
        if (err instanceof ValidationTimeoutError) {
          throw new ProblemError(422, 'Unprocessable Content', `${err.message}; the invoice is too large to generate.`, {
            code: 'PROCESSING_TIMEOUT',
          });
        }
        throw toHttpError(err);
      }
      if (built.droppedFields.length) reply.header(DROPPED_FIELDS_HEADER, built.droppedFields.join(', '));
      return reply.type('application/xml; charset=utf-8').send(built.xml);
    },
  );
}
