/**
 * Validation of a French lifecycle status message (CDAR D22B), the two steps FNFE-MPE prescribes: the CDAR D22B
 * "uncoupled" XSD (its structure as facts, src/xml/cdar/, checked by the native XSD engine), then the BR-FR-CDV
 * rules (src/rules/br-fr-cdv/). The validation pipeline (src/validation/validate.ts) turns the outcome into the
 * same ValidationResult as an invoice's.
 *
 * The rules follow `br_fr_edition`: 1.4 (the default) is FNFE's standard edition, fatal asserts are errors;
 * 1.4-warning its transition edition, every assert a warning. 1.2.0 had no lifecycle rules: the layer is skipped.
 */
import type { Finding } from '../rules/types.js';
import { BR_FR_CDV_RELEASE, BR_FR_CDV_RULE_SET, runBrFrCdv, type BrFrCdvEdition } from '../rules/br-fr-cdv/index.js';
import { validateAgainstSchema } from '../xml/xsd-native/validate.js';
import { CDAR_SCHEMA_NAME, cdarSchema } from '../xml/cdar/schema.js';
import type { XmlDoc } from '../xml/dom.js';
import type { SkippedLayer } from '../report/types.js';
import type { BrFrEdition } from '../validation/br-fr-edition.js';

/** The XSD layer's findings beyond this many are counted in one (as for invoices). */
const MAX_XSD_FINDINGS = 50;

/** The result's flavor for a lifecycle status message (its format is null: it is no invoice syntax). */
export const CDAR_FLAVOR = 'cdar';
/** The layer the BR-FR-CDV rules report under: they are French CTC rules, like BR-FR. */
export const CDAR_RULES_LAYER = 'br_fr_ctc';
/** rule_set_versions entries. */
export const CDAR_XSD_VERSION = `${CDAR_SCHEMA_NAME} (FNFE-MPE ${BR_FR_CDV_RELEASE}, uncoupled)`;

export interface CdarValidation {
  findings: Finding[];
  layersExecuted: string[];
  layersSkipped: SkippedLayer[];
  ruleSets: string[];
  ruleSetVersions: Record<string, string>;
  /** The BR-FR edition that judged the rules, when they ran. */
  brFrEdition?: BrFrEdition;
}

/** The XSD layer alone: findings with the line, rule id XSD, rule set xsd. */
export function cdarXsdFindings(doc: XmlDoc): Finding[] {
  const errors = validateAgainstSchema(doc, cdarSchema());
  const findings: Finding[] = errors.slice(0, MAX_XSD_FINDINGS).map((e) => ({
    ruleId: 'XSD',
    severity: 'error',
    message: e.message,
    location: `line ${e.line}`,
    ruleSet: 'xsd',
  }));
  if (errors.length > MAX_XSD_FINDINGS) {
    findings.push({
      ruleId: 'XSD',
      severity: 'error',
      message: `${errors.length - MAX_XSD_FINDINGS} further schema errors against ${CDAR_SCHEMA_NAME} are not listed.`,
      ruleSet: 'xsd',
    });
  }
  return findings;
}

/** XSD + BR-FR-CDV on a parsed CDAR message. */
export function validateCdarDocument(doc: XmlDoc, brFrEdition: BrFrEdition = '1.4'): CdarValidation {
  const out: CdarValidation = {
    findings: cdarXsdFindings(doc),
    layersExecuted: ['xsd'],
    layersSkipped: [],
    ruleSets: [],
    ruleSetVersions: { xsd: CDAR_XSD_VERSION },
  };
  if (brFrEdition === '1.2.0') {
    out.layersSkipped.push({ layer: CDAR_RULES_LAYER, reason: `ruleset_unavailable:${BR_FR_CDV_RULE_SET}@1.2.0` });
    return out;
  }
  const edition: BrFrCdvEdition = brFrEdition === '1.4-warning' ? 'warning' : 'standard';
  for (const f of runBrFrCdv(doc, edition)) out.findings.push(f);
  out.layersExecuted.push(CDAR_RULES_LAYER);
  out.ruleSets.push(BR_FR_CDV_RULE_SET);
  out.ruleSetVersions.br_fr_cdv = edition === 'warning' ? `${BR_FR_CDV_RELEASE}-warning` : BR_FR_CDV_RELEASE;
  out.brFrEdition = brFrEdition;
  return out;
}
