/**
 * POST /v1/validate: validate a Factur-X/ZUGFeRD PDF or CII/UBL XML against EN 16931 (XSD layer,
 * syntax binding rules, business rules), natively and off the event loop (see validation/runner.ts).
 * Community: the raw report with official rule ids. Pro: smart diagnostics and the PDF/A switch.
 */
import type { FastifyInstance } from 'fastify';
import { IngestError } from '../../input/ingest.js';
import { toDiagnostic } from '../../validation/diagnostics.js';
import { ValidationTimeoutError } from '../../validation/runner.js';
import type { SkippedLayer, ValidationResult } from '../../validation/validate.js';
import { BR_FR_EDITIONS, BR_FR_LAYER, DEFAULT_BR_FR_EDITION, brFrRequested, parseBrFrEdition } from '../../validation/br-fr.js';
import { ProblemError, RequestShapeError } from '../errors.js';
import { formBoolean, readForm } from '../multipart.js';
import { errorResponses } from '../schemas.js';

const strOrNull = { type: ['string', 'null'] } as const;
const skippedLayers = { type: 'array', items: { $ref: 'SkippedLayer#' } } as const;
const layersExecuted = { type: 'array', items: { type: 'string' }, description: 'Layers that ran: xsd, schematron (the native EN 16931 rule sets)' } as const;

const validationErrorDetail = {
  type: 'object',
  properties: {
    rule_id: { ...strOrNull, description: 'Official rule id (BR-CO-10, CII-SR-001, UBL-CR-001, ...); XSD for schema errors; an ingest code (NO_XML, XML_MALFORMED, ...) when no invoice could be read' },
    message: { type: 'string' },
    severity: { type: 'string', enum: ['error', 'warning', 'information'], default: 'error' },
    location: { type: 'string', description: 'XPath-like location of the offending element (line number for schema errors)' },
    rule_set: { type: 'string', description: 'Rule set of the finding: en16931-cii, en16931-ubl, xsd, ...' },
    omitted: {
      type: 'integer',
      description: 'Only on a summary entry (report size bounds): how many further findings of this rule (or, with rule_id REPORT_TRUNCATED, of the report) it stands for, not listed',
    },
  },
  required: ['message'],
} as const;

const communityResult = {
  type: 'object',
  description: 'Community validation report (ValidationResult).',
  properties: {
    valid: { type: 'boolean', description: 'true when no finding has severity error' },
    format: { ...strOrNull, description: 'factur-x, zugferd, xrechnung, ubl' },
    flavor: { ...strOrNull, description: 'Declared profile/CIUS: minimum, basic_wl, basic, en16931, extended, xrechnung' },
    errors: { type: 'array', items: validationErrorDetail, description: 'Every finding, errors and warnings' },
    validation_mode: { ...strOrNull, description: '"community"' },
    pdfa_valid: { type: ['boolean', 'null'], description: 'Always null in community mode' },
    validation_completeness: { type: 'string', enum: ['full', 'partial'], default: 'full' },
    layers_executed: layersExecuted,
    layers_skipped: skippedLayers,
    rule_sets: { type: 'array', items: { type: 'string' }, description: 'Rule sets that ran (en16931-cii, en16931-ubl, ...)' },
    br_fr_edition: { type: 'string', enum: [...BR_FR_EDITIONS], description: 'The BR-FR edition that ran (only when the br_fr_ctc layer ran)' },
    report_truncated: { type: 'boolean', description: 'Present (true) when the report size bounds left findings out of the list: the first 100 per rule and 1,000 entries in all are listed, the rest counted in summary entries (`omitted`)' },
    findings_omitted: { type: 'integer', description: 'With report_truncated: how many findings are counted in summary entries instead of listed' },
  },
  required: ['valid', 'format', 'flavor', 'errors', 'validation_mode', 'pdfa_valid', 'validation_completeness', 'layers_executed', 'layers_skipped'],
} as const;

const diagnosticDetail = {
  type: 'object',
  properties: {
    rule_id: { type: 'string' },
    severity: { type: 'string', enum: ['error', 'warning', 'info'] },
    title: { type: 'string' },
    explanation: { type: 'string' },
    suggestion: { type: 'string' },
    context: { type: ['object', 'null'], additionalProperties: true },
  },
  required: ['rule_id', 'severity', 'title', 'explanation', 'suggestion'],
} as const;

const proResult = {
  type: 'object',
  description: 'Pro validation report (ProValidationResult) with smart diagnostics.',
  properties: {
    valid: { type: 'boolean' },
    format: strOrNull,
    flavor: strOrNull,
    error_count: { type: 'integer' },
    warning_count: { type: 'integer', default: 0 },
    diagnostics: { type: 'array', items: diagnosticDetail },
    validation_mode: { type: 'string', default: 'pro_diagnostics' },
    pdfa_valid: { type: ['boolean', 'null'] },
    validation_completeness: { type: 'string', enum: ['full', 'partial'], default: 'full' },
    layers_executed: layersExecuted,
    layers_skipped: skippedLayers,
    br_fr_edition: { type: 'string', enum: [...BR_FR_EDITIONS] },
    report_truncated: { type: 'boolean', description: 'Present (true) when the report size bounds left findings out of the list: the first 100 per rule and 1,000 entries in all are listed, the rest counted in summary entries (`omitted`)' },
    findings_omitted: { type: 'integer', description: 'With report_truncated: how many findings are counted in summary entries instead of listed' },
  },
  required: ['valid', 'error_count'],
} as const;

const isPdf = (b: Uint8Array) => b.length >= 5 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d;

function proReport(result: ValidationResult, pdf: boolean, checkPdfa: boolean) {
  const layersSkipped: SkippedLayer[] = [...result.layers_skipped];
  // No PDF/A validator is bundled yet: say so instead of claiming a verdict.
  if (pdf && checkPdfa) layersSkipped.push({ layer: 'pdfa3b', reason: 'tool_missing:pdfa_validator' });
  return {
    valid: result.valid,
    format: result.format,
    flavor: result.flavor,
    // Every finding counts, also those a summary entry stands for (report size bounds).
    error_count: countOf(result, 'error'),
    warning_count: countOf(result, 'warning'),
    diagnostics: result.errors.map(toDiagnostic),
    validation_mode: 'pro_diagnostics',
    pdfa_valid: null,
    validation_completeness: layersSkipped.length === 0 ? 'full' : 'partial',
    layers_executed: result.layers_executed,
    layers_skipped: layersSkipped,
    ...(result.br_fr_edition ? { br_fr_edition: result.br_fr_edition } : {}),
    ...(result.report_truncated ? { report_truncated: true, findings_omitted: result.findings_omitted } : {}),
  };
}

function countOf(result: ValidationResult, severity: 'error' | 'warning'): number {
  let n = 0;
  for (const e of result.errors) if (e.severity === severity) n += e.omitted ?? 1;
  return n;
}

/** Extra rule layers a caller can ask for in the `rules` form field. */
const EXTRA_LAYERS = [BR_FR_LAYER];

function readLayerOptions(fields: Record<string, string>) {
  const unknown = (fields.rules ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '' && !EXTRA_LAYERS.includes(s.toLowerCase()));
  if (unknown.length > 0) {
    throw new RequestShapeError([
      { loc: ['body', 'rules'], msg: `Unknown rule layer ${unknown.map((u) => `'${u}'`).join(', ')}; known: ${EXTRA_LAYERS.join(', ')}`, type: 'enum', input: fields.rules },
    ]);
  }
  const edition = parseBrFrEdition(fields.br_fr_edition);
  if (!edition) {
    throw new RequestShapeError([
      { loc: ['body', 'br_fr_edition'], msg: `Input should be ${BR_FR_EDITIONS.map((e) => `'${e}'`).join(', ')}`, type: 'enum', input: fields.br_fr_edition },
    ]);
  }
  return { brFr: brFrRequested(fields.rules), brFrEdition: edition };
}

export default async function validate(app: FastifyInstance): Promise<void> {
  const runner = app.validation;

  app.post(
    '/v1/validate',
    {
      schema: {
        summary: 'Validate a Factur-X/ZUGFeRD PDF or CII/UBL XML against EN 16931',
        description:
          'Runs the XSD layer (CII: the Factur-X schema of the declared profile; UBL: skipped, no bundled UBL 2.1 schema), the EN 16931 ' +
          'syntax binding rules and the EN 16931 business rules, natively (no JVM). For a PDF the embedded invoice XML is validated. ' +
          'A non-compliant invoice is a 200 with `valid: false`; each finding carries the official rule id. Rule sets the declared ' +
          'guideline calls for but that are not bundled yet (XRechnung, Factur-X profile rules) are listed in `layers_skipped` and make ' +
          'the result `partial`. Community mode answers a ValidationResult; `validate_pdfa` is ignored there (no error). Pro mode answers a ' +
          'ProValidationResult with diagnostics; with `validate_pdfa` (default true) on a PDF the `pdfa3b` layer is reported skipped ' +
          '(`tool_missing:pdfa_validator`) and `pdfa_valid` is null. A file that is neither PDF nor XML is 400 (code NOT_PDF_OR_XML); XML ' +
          'that is not well-formed is 400 (code XML_MALFORMED), as on every endpoint; a PDF whose embedded XML is broken is a 200 with valid=false. ' +
          'A validation exceeding the time bound is 422 (code VALIDATION_TIMEOUT). ' +
          'Report size bounds: the first 100 findings of each rule (rule set + rule id) are listed; the rest of that rule are counted in ' +
          'one summary entry of the same rule_id, severity and rule_set placed after them, whose `omitted` gives the count; a report lists ' +
          'at most 1,000 entries, the rest counted in a final entry with rule_id REPORT_TRUNCATED. A bounded report carries ' +
          '`report_truncated: true` and `findings_omitted`; `valid` (and in pro mode error_count / warning_count) count every finding. ' +
          'French CTC rules (layer `br_fr_ctc`, FNFE-MPE BR-FR-Flux2): opt in with `rules=br_fr_ctc` (they apply to invoices of sellers ' +
          'VAT-registered in France; only the caller knows that), or automatically when the invoice declares the EXTENDED-CTC-FR profile; ' +
          `never on Factur-X MINIMUM. \`br_fr_edition\` chooses the edition: 1.2.0 (all warnings), 1.4 (standard edition, all errors; the default, mandatory from 1 September 2026) ` +
          'or 1.4-warning (transition edition); the result echoes the edition that ran in `br_fr_edition`.',
        tags: ['invoices'],
        consumes: ['multipart/form-data'],
        response: {
          200: { description: 'ValidationResult (community) or ProValidationResult (pro)', anyOf: [communityResult, proResult] },
          ...errorResponses(400, 413, 422, 500),
        },
      },
      config: {
        form: {
          file: { type: 'string', format: 'binary', description: 'Factur-X/ZUGFeRD PDF, or CII/UBL XML' },
          validate_pdfa: { type: 'boolean', default: true, description: 'Pro only: run PDF/A-3b validation on a PDF (ignored in community mode)' },
          rules: { type: 'string', description: 'Extra rule layers, comma-separated: br_fr_ctc (French CTC rules)', examples: ['br_fr_ctc'] },
          br_fr_edition: { type: 'string', enum: [...BR_FR_EDITIONS], default: DEFAULT_BR_FR_EDITION, description: 'Edition of the French CTC rules' },
        },
        formRequired: ['file'],
      },
    },
    async (req) => {
      const form = await readForm(req, {
        files: { file: { required: true } },
        fields: { validate_pdfa: { required: false }, rules: { required: false }, br_fr_edition: { required: false } },
      });
      const options = readLayerOptions(form.fields);
      const pro = app.edition === 'pro';
      const checkPdfa = pro ? formBoolean(form, 'validate_pdfa', true) : false;
      const file = form.files.file;
      let result: ValidationResult;
      try {
        result = await runner.validate(file.data, file.filename, options);
      } catch (err) {
        if (err instanceof IngestError) {
          app.metrics.countValidation('unreadable');
          throw new ProblemError(400, 'Bad Request', err.message, { code: err.code });
        }
        if (err instanceof ValidationTimeoutError) {
          app.metrics.countValidation('timeout');
          throw new ProblemError(422, 'Unprocessable Content', `${err.message}; the document is too large or too complex to validate.`, { code: 'VALIDATION_TIMEOUT' });
        }
        throw err;
      }
      app.metrics.countValidation(result.valid ? 'valid' : 'invalid');
      return pro ? proReport(result, isPdf(file.data), checkPdfa) : result;
    },
  );
}
