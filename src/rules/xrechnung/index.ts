/**
 * The XRechnung 3.0 rule sets, registered under their official ids: `xrechnung-cii` and
 * `xrechnung-ubl` (KoSIT schematron 2.4.0 for XRechnung 3.0.2, with the Peppol rules XRechnung
 * applies). They complement the EN 16931 set of the same syntax; see src/validation/rulesets.ts
 * for when they run.
 */
import { registerRuleSet } from '../engine.js';
import { xrechnungCiiRules } from './cii.js';
import { xrechnungUblRules } from './ubl.js';

export const XRECHNUNG_CII = 'xrechnung-cii';
export const XRECHNUNG_UBL = 'xrechnung-ubl';
export const XRECHNUNG_VERSION = 'XRechnung 3.0.2 (KoSIT schematron 2.4.0)';

registerRuleSet(XRECHNUNG_CII, xrechnungCiiRules);
registerRuleSet(XRECHNUNG_UBL, xrechnungUblRules);

export { xrechnungCiiRules, xrechnungUblRules };
