/**
 * POST /v1/serialize (pro): normalized, typed, versioned ERP JSON with the fallbacks applied.
 */
import type { FastifyInstance } from 'fastify';
import { requirePro } from '../errors.js';
import { UnprocessableError } from '../../lib/errors.js';
import { ValidationTimeoutError } from '../../validation/runner.js';
import { readForm } from '../multipart.js';
import { jsonResponse, uploadErrorResponses } from '../schemas.js';
import { viaLib } from '../lib-errors.js';
import { serializeUnlicensed } from '../../lib/operations.js';

export default async function serialize(app: FastifyInstance): Promise<void> {
  app.post(
    '/v1/serialize',
    {
      schema: {
        operationId: 'serializeInvoice',
        summary: 'Serialize an invoice into normalized ERP JSON (pro)',
        description:
          'Pro license required: in community mode the answer is 403 with code LICENSE_REQUIRED and a `license_url`. ' +
          'Reads a Factur-X/ZUGFeRD PDF or CII/UBL XML into BusinessReadyInvoice (schema_version 1.1.0: 1.0.0 plus optional allowances, charges, paid/rounding amounts, payment terms, exemption reasons). Every value not taken ' +
          'as-is from the invoice (default, placeholder, derived, coerced) is listed in `fallbacks_applied`. A PDF without ' +
          'invoice XML, or XML that is not an invoice, answers 200 with `success: false` and `errors` (codes as in /v1/extract). ' +
          'The parser never repairs malformed XML (`xml_recovery_applied` is always false): such input is 400. ' +
          'Unusable values never fail the request: a date that is no calendar day becomes a placeholder (`placeholder_value`, ' +
          '`invalid`), a number longer than 64 characters or not a decimal is `unparseable` and replaced by a derived value or a ' +
          'default, a line with an amount but no price gets a derived price (`derived_value`). A large invoice is read off the ' +
          'event loop; one that takes longer than the 30 s time bound answers 422 (code PROCESSING_TIMEOUT).',
        tags: ['invoices'],
        response: {
          200: jsonResponse('SerializationResponse: the BusinessReadyInvoice and the fallbacks applied', 'SerializationResponse'),
          ...uploadErrorResponses(403),
        },
      },
      // The licence is checked before the body is read: an unlicensed caller gets 403, never 413 or a wait for the upload.
      onRequest: async () => requirePro(app, 'serialize'),
      config: {
        form: { file: { type: 'string', format: 'binary', description: 'Factur-X/ZUGFeRD PDF, or CII/UBL XML' } },
        formRequired: ['file'],
      },
    },
    async (req) => {
      const form = await readForm(req, { files: { file: { required: true } } });
      // The server's own license was checked above. Read inline, or in a worker when the invoice XML is large
      // (validation/runner.ts): never long on the event loop. One implementation with the library (serializeUnlicensed).
      return viaLib(() =>
        serializeUnlicensed(form.files.file.data, form.files.file.filename, async (bytes, filename) => {
          try {
            return await app.validation.serialize(bytes, filename);
          } catch (err) {
            if (err instanceof ValidationTimeoutError)
              throw new UnprocessableError('PROCESSING_TIMEOUT', `${err.message}; the document is too large to read.`);
            throw err;
          }
        }),
      );
    },
  );
}
