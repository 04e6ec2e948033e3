/**
 * POST /v1/serialize (pro): normalized, typed, versioned ERP JSON with the fallbacks applied.
 */
import type { FastifyInstance } from 'fastify';
import { ProblemError, requirePro } from '../errors.js';
import { IngestError } from '../../input/ingest.js';
import { ValidationTimeoutError } from '../../validation/runner.js';
import type { SerializedUpload } from '../../serialize/upload.js';
import { readForm } from '../multipart.js';
import { errorResponses } from '../schemas.js';
import { SCHEMA_VERSION } from '../../serialize/business-ready.js';
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
          'default, a line with an amount but no price gets a derived price (`derived_value`). A large invoice is read off the ' +
          'event loop; one that takes longer than the 30 s time bound answers 422 (code PROCESSING_TIMEOUT).',
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
      const file = form.files.file;
      let read: SerializedUpload;
      try {
        // Inline, or in a worker when the invoice XML is large (validation/runner.ts): never long on the event loop.
        read = await app.validation.serialize(file.data, file.filename);
      } catch (err) {
        if (err instanceof IngestError) throw new ProblemError(400, 'Bad Request', err.message, { code: err.code });
        if (err instanceof ValidationTimeoutError) {
          throw new ProblemError(422, 'Unprocessable Content', `${err.message}; the document is too large to read.`, { code: 'PROCESSING_TIMEOUT' });
        }
        throw err;
      }
      const base = { schema_version: SCHEMA_VERSION, engine_version: SERVICE_VERSION, xml_recovery_applied: false };
      if (!read.invoice) return { success: false, ...base, invoice: null, fallbacks_applied: [], errors: read.problems };
      return { success: true, ...base, invoice: read.invoice, fallbacks_applied: read.fallbacks, errors: read.problems };
    },
  );
}
