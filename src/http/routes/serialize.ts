/**
 * POST /v1/serialize (pro): normalized, typed, versioned ERP JSON with the fallbacks applied.
 */
import type { FastifyInstance } from 'fastify';
import { requirePro, ProblemError } from '../errors.js';
import { errorResponses } from '../schemas.js';
import { readForm } from '../multipart.js';

export default async function serialize(app: FastifyInstance): Promise<void> {
  app.post(
    '/v1/serialize',
    {
      schema: {
        summary: 'Serialize an invoice into normalized ERP JSON (pro)',
        description: 'Pro license required: in community mode the answer is 403 with code LICENSE_REQUIRED and a `license_url`.',
        tags: ['invoices'],
        consumes: ['multipart/form-data'],
        response: { 200: { $ref: 'SerializationResponse#' }, ...errorResponses(400, 403, 413, 422, 500) },
      },
      config: {
        form: { file: { type: 'string', format: 'binary', description: 'Factur-X/ZUGFeRD PDF, or CII/UBL XML' } },
        formRequired: ['file'],
      },
    },
    async (req) => {
      requirePro(app, 'serialize');
      await readForm(req, { files: { file: { required: true } } });
      throw new ProblemError(500, 'Internal Server Error', 'serialize is being wired to the invoice readers');
    },
  );
}
