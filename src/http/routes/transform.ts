/**
 * POST /v1/transform: a CII or UBL invoice (or a Factur-X / ZUGFeRD PDF) → the same invoice in the other syntax,
 * through the EN 16931 model (src/transform/), with what the target cannot carry listed. The work goes through the
 * runner (inline for typical invoices, the worker pool for large ones).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { IngestError } from '../../input/ingest.js';
import { fromTransformError, transform, transformOptions } from '../../lib/operations.js';
import { PROFILE_IDS, UBL_PROFILE_IDS } from '../../model/profiles.js';
import type { DroppedContent, TransformResult } from '../../transform/transform.js';
import { ValidationTimeoutError } from '../../validation/runner.js';
import { ProblemError } from '../errors.js';
import { libErrorToHttp } from '../lib-errors.js';
import { readForm } from '../multipart.js';
import { uploadErrorResponses } from '../schemas.js';
import { DROPPED_FIELDS_HEADER } from './xml.js';

/** Headers naming the target: its syntax and profile. */
export const SYNTAX_HEADER = 'x-invoice-syntax';
export const PROFILE_HEADER = 'x-invoice-profile';

/**
 * X-Dropped-Fields of a transform lists term ids (or, for content outside EN 16931, source element paths); past
 * this many characters it ends with a count of the rest (the JSON answer lists everything).
 */
export const MAX_DROPPED_HEADER = 4000;

/** The header value: each group's term, or its source path when it has none, once, in order. */
export function droppedHeader(dropped: DroppedContent[]): string {
  const names: string[] = [];
  for (const d of dropped) {
    const name = d.term ?? d.path;
    if (!names.includes(name)) names.push(name);
  }
  let out = '';
  for (const [i, name] of names.entries()) {
    const next = out ? `${out}, ${name}` : name;
    if (next.length > MAX_DROPPED_HEADER) return `${out}, … ${names.length - i} more (Accept: application/json lists them)`;
    out = next;
  }
  return out;
}

const DESCRIPTION = `Converts an invoice between the two EN 16931 syntaxes through the semantic model: CII (Factur-X / ZUGFeRD /
XRechnung CII, or the CII inside a Factur-X / ZUGFeRD PDF) → UBL 2.1, and UBL → CII. Form fields: \`file\` (the invoice),
\`to\` (\`cii\` or \`ubl\`), optional \`profile\`: with \`to=ubl\` \`en16931\`, \`xrechnung\` (XRechnung 3.0 UBL) or \`peppol\`
(Peppol BIS Billing 3.0); with \`to=cii\` \`minimum\`, \`basic_wl\`, \`basic\`, \`en16931\`, \`extended\` or \`xrechnung\`. Without a
profile the source's is kept where the target syntax has it (XRechnung stays XRechnung, Peppol stays Peppol in UBL, a
Factur-X profile stays itself in CII), else \`en16931\`. The target's specification identifier (BT-24) and, for XRechnung
and Peppol, its business process (BT-23) replace the source's. \`to\` may also be the source's own syntax: the invoice is
then re-written for the profile asked for.

**Nothing is lost silently.** Whatever does not reach the target is listed: source content the EN 16931 model has no
place for (\`not_in_model\`, e.g. Factur-X EXTENDED elements, UBL elements outside EN 16931), business terms the target
cannot carry (\`not_in_target\`, e.g. a credit note's due date in UBL without payment means, the lines of a MINIMUM
target), and the identifiers the target replaced (\`replaced\`). The XML answer (\`application/xml\`) names them in the
header \`X-Dropped-Fields\` (term ids such as \`BT-41\`, or the source element path for content outside EN 16931); with
\`Accept: application/json\` the answer is a JSON object with the XML and the full \`dropped\` list: per group the term,
its name, the reason, the model path or source path, the count, the first 10 source locations (XPath) and the first value.
The headers \`X-Invoice-Syntax\` and \`X-Invoice-Profile\` name the target.

The result is not validated: send it to /v1/validate when the target's rules matter (e.g. Peppol needs both electronic
addresses, PEPPOL-EN16931-R010/R020, which a source without them cannot give).

**400** ProblemDetails: \`EMPTY_FILE\`, \`NOT_PDF_OR_XML\`, \`XML_MALFORMED\` and the other \`XML_*\` codes (also for the XML inside a
PDF), \`PDF_ENCRYPTED\`, \`PDF_UNREADABLE\`, \`NO_XML\` (a PDF without invoice XML), \`PDF_ATTACHMENT_UNREADABLE\`,
\`UNKNOWN_XML\` (XML that is neither CII nor UBL), \`UNSUPPORTED_XML\` (ZUGFeRD 1.0). **413** \`UPLOAD_TOO_LARGE\`. **422**
HTTPValidationError for a missing \`file\` or \`to\`, a \`to\` other than cii/ubl, a profile the target syntax does not have
(\`peppol\` with \`to=cii\`, a Factur-X profile with \`to=ubl\`), and ProblemDetails \`PROCESSING_TIMEOUT\` past the 30 s bound.`;

const DroppedSchema = {
  $id: 'DroppedContent',
  title: 'DroppedContent',
  description: 'A group of source content that did not make it into the target of POST /v1/transform.',
  type: 'object',
  additionalProperties: false,
  required: ['term', 'name', 'reason', 'path', 'count', 'locations'],
  properties: {
    term: { type: ['string', 'null'], description: 'Business term (BT-/BG-), null for content outside EN 16931', examples: ['BT-41'] },
    name: { type: 'string', description: "The term's name, or the source element's name" },
    reason: {
      type: 'string',
      enum: ['not_in_model', 'not_in_target', 'replaced'],
      description:
        'not_in_model: no place in EN 16931; not_in_target: the target cannot carry it; replaced: the target prescribes another value',
    },
    path: { type: 'string', description: 'Model path pattern (lines[].itemDescription) or source element path without positions' },
    count: { type: 'integer', minimum: 1, description: 'How many values of this group did not make it' },
    locations: { type: 'array', items: { type: 'string' }, description: 'Source locations (XPath) of the first ones' },
    value: { type: 'string', description: 'The first value (cut at 200 characters)' },
    replacement: { type: 'string', description: 'replaced: the value the target carries' },
  },
};

const TransformResultSchema = {
  $id: 'TransformResult',
  title: 'TransformResult',
  description: 'The answer of POST /v1/transform with Accept: application/json.',
  type: 'object',
  additionalProperties: false,
  required: ['xml', 'syntax', 'profile', 'source', 'dropped'],
  properties: {
    xml: { type: 'string', description: 'The invoice in the target syntax' },
    syntax: { type: 'string', enum: ['cii', 'ubl'] },
    profile: { type: 'string', enum: [...PROFILE_IDS, 'peppol'] },
    source: {
      type: 'object',
      required: ['syntax', 'profile', 'specification_id'],
      additionalProperties: false,
      properties: {
        syntax: { type: 'string', enum: ['cii', 'ubl'] },
        profile: { type: ['string', 'null'], description: 'The profile the source declares (BT-24), when known' },
        specification_id: { type: ['string', 'null'], description: "The source's BT-24" },
      },
    },
    dropped: { type: 'array', items: { $ref: 'DroppedContent#' } },
  },
};

function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  // The first media type the client lists decides (no q-value ranking: the two answers are alternatives, not variants).
  return /^\s*application\/(?:[\w.+-]*\+)?json\b/i.test(accept);
}

function answer(reply: FastifyReply, result: TransformResult, json: boolean) {
  reply.header(SYNTAX_HEADER, result.syntax).header(PROFILE_HEADER, result.profile);
  if (result.dropped.length) reply.header(DROPPED_FIELDS_HEADER, droppedHeader(result.dropped));
  if (json) return reply.type('application/json; charset=utf-8').send(result);
  return reply.type('application/xml; charset=utf-8').send(result.xml);
}

export default async function transformRoute(app: FastifyInstance): Promise<void> {
  // Published as components.schemas (the JSON answer's shape), unless the app already has them.
  if (!app.getSchema('DroppedContent')) app.addSchema(DroppedSchema);
  if (!app.getSchema('TransformResult')) app.addSchema(TransformResultSchema);
  app.post(
    '/v1/transform',
    {
      schema: {
        operationId: 'transformInvoice',
        summary: 'Convert an invoice between CII and UBL (EN 16931, XRechnung, Peppol BIS)',
        description: DESCRIPTION,
        tags: ['invoices'],
        consumes: ['multipart/form-data'],
        response: {
          200: {
            description:
              'The invoice in the target syntax (application/xml), or with Accept: application/json the XML and the dropped list. X-Dropped-Fields lists what did not make it.',
            headers: {
              'X-Dropped-Fields': {
                type: 'string',
                description: 'Comma-separated term ids (or source paths) of what the target does not carry',
              },
              'X-Invoice-Syntax': { type: 'string', description: 'cii or ubl' },
              'X-Invoice-Profile': { type: 'string', description: 'The target profile' },
            },
            content: {
              'application/xml': { schema: { type: 'string' } },
              'application/json': { schema: { $ref: 'TransformResult#' } },
            },
          },
          ...uploadErrorResponses(),
        },
      },
      config: {
        form: {
          file: { type: 'string', format: 'binary', description: 'CII or UBL invoice XML, or a Factur-X / ZUGFeRD PDF' },
          to: { type: 'string', enum: ['cii', 'ubl'], description: 'Target syntax' },
          profile: {
            type: 'string',
            enum: [...new Set([...UBL_PROFILE_IDS, ...PROFILE_IDS])],
            description: 'Target profile (ubl: en16931, xrechnung, peppol; cii: a Factur-X profile or xrechnung); default: the source’s',
          },
        },
        formRequired: ['file', 'to'],
      },
    },
    async (req, reply) => {
      const form = await readForm(req, {
        files: { file: { required: true } },
        fields: { to: { required: true }, profile: { required: false } },
      });
      let options;
      try {
        options = transformOptions(form.fields.to, form.fields.profile, ['body']);
      } catch (err) {
        throw libErrorToHttp(err);
      }
      const file = form.files.file;
      let result: TransformResult;
      try {
        // Inline, or in a worker when the main thread is saturated or the invoice XML is large (validation/runner.ts).
        result = await transform(file.data, { ...options, filename: file.filename }, (bytes, filename, checked) =>
          app.validation.transform(bytes, filename, checked),
        );
      } catch (err) {
        if (err instanceof ValidationTimeoutError) {
          throw new ProblemError(422, 'Unprocessable Content', `${err.message}; the invoice is too large to transform.`, {
            code: 'PROCESSING_TIMEOUT',
          });
        }
        if (err instanceof IngestError) throw new ProblemError(400, 'Bad Request', err.message, { code: err.code });
        throw libErrorToHttp(fromTransformError(err));
      }
      return answer(reply, result, wantsJson(req.headers.accept));
    },
  );
}
