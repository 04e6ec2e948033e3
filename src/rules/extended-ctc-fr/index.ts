/**
 * The EXTENDED-CTC-FR profile rule sets (FNFE-MPE, France_RFE 1.4.0.x), registered as `extended-ctc-fr-cii` and
 * `extended-ctc-fr-ubl`, older UBL releases as `extended-ctc-fr-ubl@<release>` (the CII artefact did not change).
 * Built on first use: only French extended invoices need them.
 */
import { registerLazyRuleSet } from '../engine.js';
import { buildCiiRules } from './cii.js';
import { buildUblRules } from './ubl.js';
import { DEFAULT_EXTENDED_CTC_FR_RELEASE, EXTENDED_CTC_FR_CII, EXTENDED_CTC_FR_RELEASES, EXTENDED_CTC_FR_UBL } from './releases.js';

registerLazyRuleSet(EXTENDED_CTC_FR_CII, buildCiiRules);
registerLazyRuleSet(EXTENDED_CTC_FR_UBL, () => buildUblRules(DEFAULT_EXTENDED_CTC_FR_RELEASE));
for (const release of EXTENDED_CTC_FR_RELEASES) {
  if (release === DEFAULT_EXTENDED_CTC_FR_RELEASE) continue;
  registerLazyRuleSet(`${EXTENDED_CTC_FR_CII}@${release}`, buildCiiRules);
  registerLazyRuleSet(`${EXTENDED_CTC_FR_UBL}@${release}`, () => buildUblRules(release));
}
