/**
 * POST /v1/status: a French lifecycle status message as JSON (StatusMessage, src/cdar/schema.ts) → CDAR D22B XML,
 * checked by the CDAR XSD and the BR-FR-CDV rules before it is answered (src/cdar/build.ts, through buildStatus()).
 */
import type { FastifyInstance } from 'fastify';
import { buildStatus } from '../../lib/operations.js';
import { STATUS_EXAMPLES } from '../../cdar/examples.js';
import { ProblemError } from '../errors.js';
import { libErrorToHttp } from '../lib-errors.js';
import { errorResponses } from '../schemas.js';
import { jsonTooDeep, jsonTooDeepMessage, MAX_JSON_DEPTH } from '../../util/json-limits.js';

/** Response header listing the BR-FR-CDV warnings of the message (rule ids, comma-separated). */
export const STATUS_WARNINGS_HEADER = 'x-status-warnings';

const DESCRIPTION = `Builds a lifecycle status message of the French e-invoicing reform (CDV, AFNOR XP Z12-012) as UN/CEFACT Cross
Domain Acknowledgement and Response D22B XML, from JSON (\`application/json\` body, schema \`StatusMessage\`): the invoice
it concerns (number, date, type, seller identifier), the status (\`code\` 200 Déposée … 212 Encaissée, 213 Rejetée, …), the
reasons, actions and data the rules ask for (\`details\`), the sender, issuer and recipients with their roles, and the dates.
Defaults: the status's published label (MDT-106), its phase (MDT-77: 305 for transmission statuses, 23 for processing
ones), its usual detail status (MDT-88), business process REGULATED, the guideline between platforms, detail numbers 1, 2, ….
The answer is checked like /v1/validate checks a CDAR message (CDAR D22B XSD and BR-FR-CDV 1.4.0, standard edition) before
it is sent. The examples cover every status code of the published list.

- **200**: the XML (\`application/xml\`, \`Content-Disposition\` with \`<message_id>.xml\`); header \`X-Status-Warnings\` lists
  BR-FR-CDV warnings (a status code outside the published list). With \`Accept: application/json\`: \`{ xml, status_json,
  warnings }\`, where \`status_json\` is the complete message written, what /v1/extract reads back from the XML.
- **400**: \`STATUS_NOT_JSON\` (the body is not JSON), \`JSON_TOO_DEEP\` (nested deeper than ${MAX_JSON_DEPTH} levels).
- **422** HTTPValidationError: a field missing, of the wrong type or out of its format (\`loc\` into the body, e.g.
  \`["body","status","code"]\`), including a status code outside the published list without a \`phase\`.
- **422** ProblemDetails \`STATUS_NOT_ALLOWED\`: a well-formed message the BR-FR-CDV rules forbid (a role the phase does not
  allow, a reason the status does not allow or a missing one, a payment received without amount and VAT rate, …);
  \`errors\` lists the rules' findings with their official ids.`;

export default async function status(app: FastifyInstance): Promise<void> {
  // JSON bodies: nesting depth bounded before parsing (src/util/json-limits.ts), then fastify's own parser.
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
      parseJson(req, body as string, (err, value) => {
        if (err)
          done(new ProblemError(400, 'Bad Request', `The body is not valid JSON: ${err.message}`, { code: 'STATUS_NOT_JSON' }), undefined);
        else done(null, value);
      });
    },
  );

  app.post(
    '/v1/status',
    {
      schema: {
        operationId: 'buildStatusMessage',
        summary: 'Build a French lifecycle status message (CDAR D22B) from JSON',
        description: DESCRIPTION,
        tags: ['invoices'],
        body: { allOf: [{ $ref: 'StatusMessage#' }], 'x-examples': STATUS_EXAMPLES },
        response: {
          200: {
            description: 'The CDAR D22B XML; with Accept: application/json, the XML, the complete message and the warnings.',
            headers: { 'X-Status-Warnings': { type: 'string', description: 'BR-FR-CDV warnings of the message (rule ids)' } },
            content: {
              'application/xml': { schema: { type: 'string' } },
              'application/json': { schema: { $ref: 'StatusResult#' } },
            },
          },
          ...errorResponses(400, 413, 415, 422, 500),
        },
      },
      // The body is checked by buildStatus() (one implementation with the library and the CLI), not by fastify.
      validatorCompiler: () => (data: unknown) => ({ value: data }),
    },
    async (req, reply) => {
      let built;
      try {
        built = await buildStatus(req.body as object);
      } catch (err) {
        throw libErrorToHttp(err);
      }
      if (built.warnings.length) reply.header(STATUS_WARNINGS_HEADER, [...new Set(built.warnings.map((w) => w.rule_id))].join(', '));
      if ((req.headers.accept ?? '').includes('application/json')) {
        return reply.type('application/json').send({ xml: built.xml, status_json: built.status, warnings: built.warnings });
      }
      reply.header('content-disposition', `attachment; filename="${built.filename}"`);
      return reply.type('application/xml; charset=utf-8').send(built.xml);
    },
  );
}
