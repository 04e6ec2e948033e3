/**
 * POST /v1/serialize (pro): normalized, typed, versioned ERP JSON with the fallbacks applied.
 */
import type { FastifyInstance } from 'fastify';
import { requirePro } from '../errors.js';
import { readForm } from '../multipart.js';
import { errorResponses } from '../schemas.js';
import { ingestUpload } from '../upload.js';
import { SCHEMA_VERSION, toBusinessReady } from '../../serialize/business-ready.js';
import { SERVICE_VERSION } from '../../version.js';

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
          'The parser never repairs malformed XML (`xml_recovery_applied` is always false): such input is 400. ' +
          'Unusable values never fail the request: a date that is no calendar day becomes a placeholder (`placeholder_value`, ' +
          '`invalid`), a number longer than 64 characters or not a decimal is `unparseable` and replaced by a derived value or a ' +
          'default, a line with an amount but no price gets a derived price (`derived_value`).',
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
      const read = await ingestUpload(form.files.file);
      const errors = read.problems.map((p) => ({ code: p.code, message: p.message }));
      const base = { schema_version: SCHEMA_VERSION, engine_version: SERVICE_VERSION, xml_recovery_applied: false };
      if (!read.invoice) return { success: false, ...base, invoice: null, fallbacks_applied: [], errors };
      const { invoice, fallbacks } = toBusinessReady(read.invoice, read.format, read.profile);
      return { success: true, ...base, invoice, fallbacks_applied: fallbacks, errors };
    },
  );
}
