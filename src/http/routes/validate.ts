/**
 * POST /v1/validate: validate a Factur-X/ZUGFeRD PDF or CII/UBL XML against EN 16931 (XSD layer,
 * syntax binding rules, business rules), natively and off the event loop (see validation/runner.ts).
 * Community: the raw report with official rule ids. Pro: smart diagnostics and the PDF/A switch.
 */
import type { FastifyInstance } from 'fastify';
import { IngestError } from '../../input/ingest.js';
import { toDiagnostic } from '../../validation/diagnostics.js';
import { ValidationTimeoutError } from '../../validation/runner.js';
import type { ValidationResult } from '../../validation/validate.js';
import { withContractSeverities } from '../../validation/severities.js';
import { BR_FR_EDITIONS, DEFAULT_BR_FR_EDITION } from '../../validation/br-fr.js';
import { parseValidateOptions, withPdfaRequest } from '../../lib/operations.js';
import { DEFAULT_XR_RELEASE, XR_RELEASES } from '../../rules/xrechnung/common.js';
import { DEFAULT_FACTURX_RELEASE, FACTURX_SCHEMA_RELEASES } from '../../xml/xsd-native/facturx-overlay.js';
import { ProblemError } from '../errors.js';
import { libErrorToHttp } from '../lib-errors.js';
import { formBoolean, readForm } from '../multipart.js';
import { errorResponses } from '../schemas.js';
import { PDFA_LAYER } from '../../pdfa/layer.js';

const strOrNull = { type: ['string', 'null'] } as const;
const skippedLayers = { type: 'array', items: { $ref: 'SkippedLayer#' } } as const;
const layersExecuted = {
  type: 'array',
  items: { type: 'string' },
  description: 'Layers that ran: xsd, schematron (the native EN 16931 rule sets), pdfa3b (pro, PDF uploads)',
} as const;

const ruleSetVersionsSchema = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description:
    'Which release of each rule set and schema judged the invoice, for the families that ran: en16931 (CEN validation artefacts), ' +
    'xrechnung (KoSIT schematron), facturx (Factur-X/ZUGFeRD profile rules), br_fr (FNFE-MPE BR-FR), xsd (the schema the XSD layer used)',
  examples: [{ xsd: 'Factur-X 1.07.3 EN16931', en16931: '1.3.16', facturx: '1.09.2' }],
} as const;

const validationErrorDetail = {
  type: 'object',
  properties: {
    rule_id: {
      ...strOrNull,
      description:
        'Official rule id (BR-CO-10, CII-SR-001, UBL-CR-001, ...); XSD for schema errors; an ingest code (NO_XML, XML_MALFORMED, ...) when no invoice could be read',
    },
    message: { type: 'string' },
    severity: {
      type: 'string',
      enum: ['error', 'warning'],
      default: 'error',
      description: 'An official information-level finding (e.g. an XRechnung information rule) is a warning here; pro diagnostics say info',
    },
    location: { type: 'string', description: 'XPath-like location of the offending element (line number for schema errors)' },
    rule_set: { type: 'string', description: 'Rule set of the finding: en16931-cii, en16931-ubl, xsd, ...' },
    omitted: {
      type: 'integer',
      description:
        'Only on a summary entry (report size bounds): how many further findings of this rule (or, with rule_id REPORT_TRUNCATED, of the report) it stands for, not listed',
    },
  },
  required: ['message'],
} as const;

const communityResult = {
  type: 'object',
  description: 'Community validation report (ValidationResult).',
  properties: {
    valid: { type: 'boolean', description: 'true when no finding has severity error' },
    format: {
      type: ['string', 'null'],
      enum: ['factur-x', 'zugferd', 'ubl', null],
      description: 'factur-x, zugferd or ubl (XRechnung: see flavor)',
    },
    flavor: { ...strOrNull, description: 'Declared profile/CIUS: minimum, basic_wl, basic, en16931, extended, xrechnung' },
    errors: { type: 'array', items: validationErrorDetail, description: 'Every finding, errors and warnings' },
    validation_mode: { ...strOrNull, description: '"community"' },
    pdfa_valid: { type: ['boolean', 'null'], description: 'Always null in community mode (the pdfa3b layer is pro)' },
    validation_completeness: { type: 'string', enum: ['full', 'partial'], default: 'full' },
    layers_executed: layersExecuted,
    layers_skipped: skippedLayers,
    rule_sets: { type: 'array', items: { type: 'string' }, description: 'Rule sets that ran (en16931-cii, en16931-ubl, ...)' },
    br_fr_edition: {
      type: 'string',
      enum: [...BR_FR_EDITIONS],
      description: 'The BR-FR edition that ran (only when the br_fr_ctc layer ran)',
    },
    xrechnung_version: {
      type: 'string',
      enum: [...XR_RELEASES],
      description: 'The XRechnung schematron release that ran (only when an XRechnung rule set ran)',
    },
    facturx_version: {
      type: 'string',
      enum: [...FACTURX_SCHEMA_RELEASES],
      description: 'The Factur-X release whose schema checked the CII invoice (only when the XSD layer checked a CII invoice)',
    },
    rule_set_versions: ruleSetVersionsSchema,
    report_truncated: {
      type: 'boolean',
      description:
        'Present (true) when the report size bounds left findings out of the list: the first 100 per rule and 1,000 entries in all are listed, the rest counted in summary entries (`omitted`)',
    },
    findings_omitted: {
      type: 'integer',
      description: 'With report_truncated: how many findings are counted in summary entries instead of listed',
    },
  },
  required: [
    'valid',
    'format',
    'flavor',
    'errors',
    'validation_mode',
    'pdfa_valid',
    'validation_completeness',
    'layers_executed',
    'layers_skipped',
  ],
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
    format: { type: ['string', 'null'], enum: ['factur-x', 'zugferd', 'ubl', null] },
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
    xrechnung_version: { type: 'string', enum: [...XR_RELEASES] },
    facturx_version: { type: 'string', enum: [...FACTURX_SCHEMA_RELEASES] },
    rule_set_versions: ruleSetVersionsSchema,
    report_truncated: {
      type: 'boolean',
      description:
        'Present (true) when the report size bounds left findings out of the list: the first 100 per rule and 1,000 entries in all are listed, the rest counted in summary entries (`omitted`)',
    },
    findings_omitted: {
      type: 'integer',
      description: 'With report_truncated: how many findings are counted in summary entries instead of listed',
    },
  },
  required: ['valid', 'error_count'],
} as const;

const isPdf = (b: Uint8Array) => b.length >= 5 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d;

/** What the running licence grants for /v1/validate; a feature it lacks gets the community behaviour. */
interface ValidateGrants {
  smart: boolean;
  pdfa: boolean;
  pdfaSwitch: boolean;
}

function grantsOf(app: FastifyInstance): ValidateGrants {
  const has = (f: string) => app.edition === 'pro' && app.license.features.includes(f);
  return { smart: has('smart_diagnostics'), pdfa: has('pdfa_validation'), pdfaSwitch: has('validate_pdfa') };
}

/**
 * The PDF/A layer, when the licence grants it: the library's, as the CLI runs it, on every PDF upload (also one
 * without invoice XML). A PDF that fails PDF/A is not a valid Factur-X/ZUGFeRD document. Without the licence a
 * PDF upload lists the layer as skipped (unless the caller switched it off).
 */
function withPdfaLayer(result: ValidationResult, pdf: Uint8Array | undefined, grants: ValidateGrants, wanted: boolean): ValidationResult {
  if (!pdf || !wanted) return result;
  if (grants.pdfa) return withPdfaRequest(result, pdf, true);
  return {
    ...result,
    layers_skipped: [...result.layers_skipped, { layer: PDFA_LAYER, reason: 'license_required' }],
    validation_completeness: 'partial',
  };
}

function proReport(result: ValidationResult) {
  return {
    valid: result.valid,
    format: result.format,
    flavor: result.flavor,
    // Every finding counts, also those a summary entry stands for (report size bounds).
    error_count: countOf(result, 'error'),
    warning_count: countOf(result, 'warning'),
    diagnostics: result.errors.map(toDiagnostic),
    validation_mode: 'pro_diagnostics',
    pdfa_valid: result.pdfa_valid,
    validation_completeness: result.validation_completeness,
    layers_executed: result.layers_executed,
    layers_skipped: result.layers_skipped,
    ...(result.br_fr_edition ? { br_fr_edition: result.br_fr_edition } : {}),
    ...(result.xrechnung_version ? { xrechnung_version: result.xrechnung_version } : {}),
    ...(result.facturx_version ? { facturx_version: result.facturx_version } : {}),
    rule_set_versions: result.rule_set_versions,
    ...(result.report_truncated ? { report_truncated: true, findings_omitted: result.findings_omitted } : {}),
  };
}

function countOf(result: ValidationResult, severity: 'error' | 'warning'): number {
  let n = 0;
  for (const e of result.errors) if (e.severity === severity) n += e.omitted ?? 1;
  return n;
}

/** The form's layer options, checked by the library (one implementation with the CLI); a bad value is 422. */
function readLayerOptions(fields: Record<string, string>) {
  try {
    return parseValidateOptions(
      {
        rules: fields.rules,
        brFrEdition: fields.br_fr_edition,
        xrechnungVersion: fields.xrechnung_version,
        facturxVersion: fields.facturx_version,
      },
      ['body'],
    );
  } catch (err) {
    throw libErrorToHttp(err);
  }
}

export default async function validate(app: FastifyInstance): Promise<void> {
  const runner = app.validation;

  app.post(
    '/v1/validate',
    {
      schema: {
        summary: 'Validate a Factur-X/ZUGFeRD PDF or CII/UBL XML against EN 16931',
        description:
          'Runs the XSD layer (CII: the Factur-X schema of the profile the guideline declares; UBL: the UBL 2.1 Invoice/CreditNote structure), the EN 16931 ' +
          'syntax binding rules and the EN 16931 business rules, natively (no JVM). For a PDF the embedded invoice XML is validated. ' +
          'A non-compliant invoice is a 200 with `valid: false`; each finding carries the official rule id. Rule sets the declared ' +
          'guideline calls for but that are not bundled yet (XRechnung, Factur-X profile rules) are listed in `layers_skipped` and make ' +
          'the result `partial`. Community mode answers a ValidationResult; `validate_pdfa` is checked (a value that is no boolean is 422) but changes nothing there. Pro mode answers a ' +
          'ProValidationResult with diagnostics; with `validate_pdfa` (default true) every PDF upload (also one without invoice XML) is checked ' +
          'against PDF/A-2b/3b natively (the part its XMP declares): `pdfa_valid` true/false, `pdfa3b` in `layers_executed`, each failed clause a ' +
          'diagnostic with its ISO 19005 clause-test id (e.g. 6.1.3-1) and `context.rule_set` "pdfa"; a PDF failing PDF/A is `valid: false`. Beyond ' +
          'the time budget the layer is skipped (`time_budget_exceeded`, result partial). In community mode a PDF lists `pdfa3b` skipped ' +
          '(`license_required`); for XML `pdfa_valid` is null. A file that is neither PDF nor XML is 400 (code NOT_PDF_OR_XML); XML ' +
          'that is not well-formed is 400 (code XML_MALFORMED), as on every endpoint; a PDF whose embedded XML is broken is a 200 with valid=false. ' +
          'A validation exceeding the time bound is 422 (code VALIDATION_TIMEOUT). ' +
          'Report size bounds: the first 100 findings of each rule (rule set + rule id) are listed; the rest of that rule are counted in ' +
          'one summary entry of the same rule_id, severity and rule_set placed after them, whose `omitted` gives the count; a report lists ' +
          'at most 1,000 entries, the rest counted in a final entry with rule_id REPORT_TRUNCATED. A bounded report carries ' +
          '`report_truncated: true` and `findings_omitted`; `valid` (and in pro mode error_count / warning_count) count every finding. ' +
          'French CTC rules (layer `br_fr_ctc`, FNFE-MPE BR-FR-Flux2): opt in with `rules=br_fr_ctc` (they apply to invoices of sellers ' +
          'VAT-registered in France; only the caller knows that), or automatically when the invoice declares the EXTENDED-CTC-FR profile; ' +
          `never on Factur-X MINIMUM. \`br_fr_edition\` chooses the edition: 1.2.0 (all warnings), 1.4 (standard edition, all errors; the default, mandatory from 1 September 2026) ` +
          'or 1.4-warning (transition edition); the result echoes the edition that ran in `br_fr_edition`. ' +
          `\`xrechnung_version\` chooses the KoSIT XRechnung schematron release for XRechnung invoices: ${XR_RELEASES.join(', ')} (default ${DEFAULT_XR_RELEASE}); ` +
          'the result echoes the release that ran in `xrechnung_version`. ' +
          `\`facturx_version\` chooses the Factur-X/ZUGFeRD release of the CII schema layer: ${FACTURX_SCHEMA_RELEASES.join(', ')} (default ${DEFAULT_FACTURX_RELEASE}); ` +
          'echoed in `facturx_version`. `rule_set_versions` names the release of every rule set and schema that ran.',
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
          validate_pdfa: {
            type: 'boolean',
            default: true,
            description: 'Pro only: run PDF/A-3b validation on a PDF (no effect in community mode; not a boolean: 422 in both editions)',
          },
          rules: {
            type: 'string',
            description: 'Extra rule layers, comma-separated: br_fr_ctc (French CTC rules)',
            examples: ['br_fr_ctc'],
          },
          br_fr_edition: {
            type: 'string',
            enum: [...BR_FR_EDITIONS],
            default: DEFAULT_BR_FR_EDITION,
            description: 'Edition of the French CTC rules',
          },
          xrechnung_version: {
            type: 'string',
            enum: [...XR_RELEASES],
            default: DEFAULT_XR_RELEASE,
            description: 'Release of the KoSIT XRechnung schematron (XRechnung invoices only)',
          },
          facturx_version: {
            type: 'string',
            enum: [...FACTURX_SCHEMA_RELEASES],
            default: DEFAULT_FACTURX_RELEASE,
            description: 'Factur-X / ZUGFeRD release of the CII schema layer (1.09.2 = ZUGFeRD 2.5.2, 1.08 = ZUGFeRD 2.4)',
          },
        },
        formRequired: ['file'],
      },
    },
    async (req) => {
      const form = await readForm(req, {
        files: { file: { required: true } },
        fields: {
          validate_pdfa: { required: false },
          rules: { required: false },
          br_fr_edition: { required: false },
          xrechnung_version: { required: false },
          facturx_version: { required: false },
        },
      });
      const options = readLayerOptions(form.fields);
      const grants = grantsOf(app);
      // Checked in every edition (a value that is no boolean is 422). Without the switch's licence the layer runs
      // whenever it is licensed; an explicit false then only drops the skipped-layer note of an unlicensed layer.
      const askedPdfa = formBoolean(form, 'validate_pdfa', true);
      const wantPdfa = grants.pdfa && !grants.pdfaSwitch ? true : askedPdfa;
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
          throw new ProblemError(422, 'Unprocessable Content', `${err.message}; the document is too large or too complex to validate.`, {
            code: 'VALIDATION_TIMEOUT',
          });
        }
        throw err;
      }
      app.metrics.countValidation(result.valid ? 'valid' : 'invalid');
      const full = withPdfaLayer(result, isPdf(file.data) ? file.data : undefined, grants, wantPdfa);
      return grants.smart ? proReport(full) : withContractSeverities(full);
    },
  );
}
