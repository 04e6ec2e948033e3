/**
 * POST /v1/validate: validate a Factur-X/ZUGFeRD PDF or CII/UBL XML against EN 16931 (XSD layer,
 * syntax binding rules, business rules), natively and off the event loop (see validation/runner.ts).
 * Community: the raw report with official rule ids. Pro: smart diagnostics and the PDF/A switch.
 */
import { DEFAULT_EXTENDED_CTC_FR_RELEASE, EXTENDED_CTC_FR_RELEASES } from '../../rules/extended-ctc-fr/releases.js';
import type { FastifyInstance } from 'fastify';
import { IngestError } from '../../input/ingest.js';
import { toDiagnostic } from '../../validation/diagnostics.js';
import { ValidationTimeoutError } from '../../validation/runner.js';
import type { ValidationResult } from '../../validation/validate.js';
import { BR_FR_EDITIONS, DEFAULT_BR_FR_EDITION } from '../../validation/br-fr.js';
import { parseValidateOptions } from '../../lib/operations.js';
import { DEFAULT_XR_RELEASE, XR_RELEASES } from '../../rules/xrechnung/common.js';
import { DEFAULT_FACTURX_RELEASE, FACTURX_SCHEMA_RELEASES } from '../../xml/xsd-native/facturx-overlay.js';
import { DEFAULT_PEPPOL_RELEASE, PEPPOL_RELEASES } from '../../rules/peppol/releases.js';
import { ProblemError } from '../errors.js';
import { libErrorToHttp } from '../lib-errors.js';
import { formBoolean, readForm } from '../multipart.js';
import { jsonResponse, uploadErrorResponses } from '../schemas.js';
import { PDFA_LAYER } from '../../pdfa/layer.js';
import { withContractSeverities } from '../../validation/severities.js';

const isPdf = (b: Uint8Array) => b.length >= 5 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d;

/**
 * `result` carries the native PDF/A layer already when it was asked for (the runner runs it with the
 * validation, src/validation/with-pdfa.ts, on every PDF upload, also one without invoice XML): a PDF that fails
 * PDF/A is not a valid Factur-X/ZUGFeRD document.
 */
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
    ...(result.peppol_version ? { peppol_version: result.peppol_version } : {}),
    rule_set_versions: result.rule_set_versions,
    ...(result.report_truncated ? { report_truncated: true, findings_omitted: result.findings_omitted } : {}),
  };
}

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

/** Without the PDF/A licence a PDF upload lists the layer as skipped (unless the caller switched it off). */
function withUnlicensedPdfa(validation: ValidationResult, pdf: boolean, wanted: boolean, grants: ValidateGrants): ValidationResult {
  // `syntax` is for callers inside the service (merge), not part of the answer.
  const { syntax: _syntax, ...result } = validation;
  if (!pdf || !wanted || grants.pdfa) return result;
  return {
    ...result,
    layers_skipped: [...result.layers_skipped, { layer: PDFA_LAYER, reason: 'license_required' }],
    validation_completeness: 'partial',
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
        peppolVersion: fields.peppol_version,
        extendedCtcFrVersion: fields.extended_ctc_fr_version,
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
        operationId: 'validateInvoice',
        summary: 'Validate a Factur-X/ZUGFeRD PDF or CII/UBL XML against EN 16931',
        description:
          'Runs the XSD layer (CII: the Factur-X schema of the profile the guideline declares, in the Factur-X release `facturx_version` ' +
          'names; XRechnung CII: the EXTENDED schema, findings as warnings; UBL: the UBL 2.1 Invoice/CreditNote schema structure), the ' +
          'EN 16931 syntax binding rules and business rules, and the rule sets the guideline (BT-24) or CustomizationID calls for: ' +
          'XRechnung (KoSIT schematron), the Factur-X/ZUGFeRD profile rules (MINIMUM, BASIC WL, BASIC, EN 16931, EXTENDED), and on ' +
          'request the French CTC rules; all natively, in-process, no JVM. For a PDF the embedded invoice XML is validated. ' +
          'A non-compliant invoice is a 200 with `valid: false`; each finding carries the official rule id. A rule set that cannot run is ' +
          'listed in `layers_skipped` and makes the result `partial`. `format` is the detected syntax family (factur-x, zugferd, ubl); ' +
          'XRechnung is a `flavor`. Community mode answers a ValidationResult (finding severities `error` and `warning`: an official information-level finding is a warning); `validate_pdfa` ' +
          'is checked there (a value that is no boolean is 422) but changes nothing. Pro mode answers a ProValidationResult with diagnostics (severities `error`, `warning`, `info`); with ' +
          '`validate_pdfa` (default true) every PDF upload (also one without invoice XML) is checked ' +
          'against PDF/A-2b/3b natively (the part its XMP declares): `pdfa_valid` true/false, `pdfa3b` in `layers_executed`, each failed clause a ' +
          'diagnostic with its ISO 19005 clause-test id (e.g. 6.1.3-1) and `context.rule_set` "pdfa"; a PDF failing PDF/A is `valid: false`. Beyond ' +
          'the time budget the layer is skipped (`time_budget_exceeded`, result partial). In community mode a PDF lists `pdfa3b` skipped ' +
          '(`license_required`); for XML `pdfa_valid` is null. A file that is neither PDF nor XML is 400 (code NOT_PDF_OR_XML); XML ' +
          'that is not well-formed is 400 (code XML_MALFORMED), as on every endpoint; a PDF whose embedded XML is broken is a 200 with valid=false. ' +
          'A PDF encrypted with an empty user password (RC4 or AES) is read and validated like any other, with a warning finding ' +
          'PDF_ENCRYPTED_READ (rule_set "pdf") naming the method; a PDF that needs a password is 400 (code PDF_ENCRYPTED). ' +
          'A validation exceeding the time bound is 422 (code VALIDATION_TIMEOUT). ' +
          'Report size bounds: the first 100 findings of each rule (rule set + rule id) are listed; the rest of that rule are counted in ' +
          'one summary entry of the same rule_id, severity and rule_set placed after them, whose `omitted` gives the count; a report lists ' +
          'at most 1,000 entries, the rest counted in a final entry with rule_id REPORT_TRUNCATED. A bounded report carries ' +
          '`report_truncated: true` and `findings_omitted`; `valid` (and in pro mode error_count / warning_count) count every finding. ' +
          'French CTC rules (layer `br_fr_ctc`, FNFE-MPE BR-FR-Flux2): opt in with `rules=br_fr_ctc` (they apply to invoices of sellers ' +
          'VAT-registered in France; only the caller knows that), or automatically when the invoice declares the EXTENDED-CTC-FR profile; ' +
          `never on Factur-X MINIMUM. \`br_fr_edition\` chooses the edition: 1.2.0 (all warnings), 1.4 (standard edition, all errors; the default, mandatory from 1 September 2026) ` +
          'or 1.4-warning (transition edition); the result echoes the edition that ran in `br_fr_edition`. ' +
          'A French lifecycle status message (CDV, UN/CEFACT CDAR D22B, see POST /v1/status) is validated against the CDAR D22B XSD ' +
          '(layer `xsd`) and the BR-FR-CDV rules (layer `br_fr_ctc`, rule set `br-fr-cdv`, in the edition `br_fr_edition` names; 1.2.0 had ' +
          'none: skipped): `format` null, `flavor` "cdar". ' +
          `\`xrechnung_version\` chooses the KoSIT XRechnung schematron release for XRechnung invoices: ${XR_RELEASES.join(', ')} (default ${DEFAULT_XR_RELEASE}); ` +
          'the result echoes the release that ran in `xrechnung_version`. ' +
          `\`facturx_version\` chooses the Factur-X/ZUGFeRD release of the CII schema layer: ${FACTURX_SCHEMA_RELEASES.join(', ')} (default ${DEFAULT_FACTURX_RELEASE}); ` +
          'echoed in `facturx_version`. ' +
          'Peppol BIS Billing 3.0 (rule sets `peppol-bis-3` / `peppol-bis-3-selfbilling`, on top of EN 16931 UBL) runs for UBL invoices whose ' +
          `CustomizationID starts with the Peppol billing or self-billing identifier; \`peppol_version\` chooses the release: ${PEPPOL_RELEASES.join(', ')} (default ${DEFAULT_PEPPOL_RELEASE}), ` +
          'echoed in `peppol_version`. ' +
          'An invoice declaring the French EXTENDED-CTC-FR profile (`urn.cpro.gouv.fr:1p0:extended-ctc-fr`, CII or UBL) is checked by the ' +
          'FNFE-MPE EXTENDED-CTC-FR rules instead of the plain EN 16931 ones (they carry EN 16931 adapted to sub-lines and multi-vendor ' +
          `invoices), then by BR-FR; \`extended_ctc_fr_version\` chooses their release: ${EXTENDED_CTC_FR_RELEASES.join(', ')} (default ${DEFAULT_EXTENDED_CTC_FR_RELEASE}). ` +
          '`rule_set_versions` names the release of every rule set and schema that ran.',
        tags: ['invoices'],
        consumes: ['multipart/form-data'],
        response: {
          200: jsonResponse('ValidationResult (community) or ProValidationResult (pro)', 'ValidationResult', 'ProValidationResult'),
          ...uploadErrorResponses(),
        },
      },
      config: {
        form: {
          file: { type: 'string', format: 'binary', description: 'Factur-X/ZUGFeRD PDF, or CII/UBL XML' },
          validate_pdfa: {
            type: 'boolean',
            default: true,
            description:
              'Pro only: check a PDF upload against PDF/A (2b or 3b, the part its XMP declares); no effect in community mode; not a boolean: 422 in both editions',
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
          peppol_version: {
            type: 'string',
            enum: [...PEPPOL_RELEASES],
            default: DEFAULT_PEPPOL_RELEASE,
            description:
              'Release of the Peppol BIS Billing 3.0 rules (Peppol UBL invoices only): 2026.5 = BIS 3.0.21, 2025.11 = 3.0.20, 2025.5 = 3.0.19',
          },
          extended_ctc_fr_version: {
            type: 'string',
            enum: [...EXTENDED_CTC_FR_RELEASES],
            default: DEFAULT_EXTENDED_CTC_FR_RELEASE,
            description: 'Release of the FNFE-MPE EXTENDED-CTC-FR profile rules (invoices declaring that profile only)',
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
          peppol_version: { required: false },
          extended_ctc_fr_version: { required: false },
        },
      });
      const options = readLayerOptions(form.fields);
      const grants = grantsOf(app);
      // Checked in every edition (a value that is no boolean is 422). Without the switch's licence the layer runs
      // whenever it is licensed; an explicit false then only drops the skipped-layer note of an unlicensed layer.
      const askedPdfa = formBoolean(form, 'validate_pdfa', true);
      const wantPdfa = grants.pdfa && !grants.pdfaSwitch ? true : askedPdfa;
      const file = form.files.file;
      const pdf = isPdf(file.data);
      let result: ValidationResult;
      try {
        // The licensed PDF/A layer runs with the validation (in the worker for a big PDF), on every PDF upload; smart
        // diagnostics also show the values calculation rules compared (computed in the validation, only when asked).
        const runOptions = {
          ...options,
          ...(grants.smart ? { explain: true } : {}),
          ...(pdf && grants.pdfa && wantPdfa ? { pdfa: true } : {}),
        };
        result = await runner.validate(file.data, file.filename, runOptions);
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
      const full = withUnlicensedPdfa(result, pdf, wantPdfa, grants);
      return grants.smart ? proReport(full) : withContractSeverities(full);
    },
  );
}
