/**
 * POST /v1/serialize (pro): normalized, typed, versioned ERP JSON with the fallbacks applied.
 */
import type { FastifyInstance } from 'fastify';
import { requirePro } from '../errors.js';
import { readForm } from '../multipart.js';
import { errorResponses } from '../schemas.js';
import { viaLib } from '../lib-errors.js';
import { serializeUnlicensed } from '../../lib/operations.js';

export default async function serialize(app: FastifyInstance): Promise<void> {
  app.post(
    '/v1/serialize',
    {
      schema: {
        summary: 'Serialize an invoice into normalized ERP JSON (pro)',
        description:
          'Pro license required: in community mode the answer is 403 with code LICENSE_REQUIRED and a `license_url`. ' +
          'Reads a Factur-X/ZUGFeRD PDF or CII/UBL XML into BusinessReadyInvoice (schema_version 1.0.0). Every value not taken ' +
          'as-is from the invoice (default, placeholder, derived, coerced) is listed in `fallbacks_applied`. A PDF without ' +
          'invoice XML, or XML that is not an invoice, answers 200 with `success: false` and `errors` (codes as in /v1/extract). ' +
          'The parser never repairs malformed XML (`xml_recovery_applied` is always false): such input is 400.',
        tags: ['invoices'],
        response: { 200: { $ref: 'SerializationResponse#' }, ...errorResponses(400, 403, 413, 422, 500) },
      },
      config: {
        form: { file: { type: 'string', format: 'binary', description: 'Factur-X/ZUGFeRD PDF, or CII/UBL XML' } },
        formRequired: ['file'],
      },
    },
    async (req) => {
      requirePro(app, 'serialize');
      const form = await readForm(req, { files: { file: { required: true } } });
      // The server's own license was checked above; the library's serialize() checks the caller's.
      return viaLib(() => serializeUnlicensed(form.files.file.data, form.files.file.filename));
    },
  );
}
