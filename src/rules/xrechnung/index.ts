/**
 * The XRechnung 3.0 rule sets, registered under their official ids: `xrechnung-cii` and
 * `xrechnung-ubl` (KoSIT schematron, with the Peppol rules XRechnung applies). They complement the
 * EN 16931 set of the same syntax; see src/validation/rulesets.ts for when they run.
 *
 * Every bundled schematron release is registered: the default (newest) under the plain id, each
 * older one under `<id>@<release>` (e.g. `xrechnung-cii@2.4.0`; see xrechnungRegistryId); findings
 * always carry the plain id.
 */
import { registerRuleSet } from '../engine.js';
import { DEFAULT_XR_RELEASE, XR_RELEASES, XR_RELEASE_INFO, parseXrRelease, type XrRelease } from './common.js';
import { xrechnungCiiRules, xrechnungCiiRulesByRelease } from './cii.js';
import { xrechnungUblRules, xrechnungUblRulesByRelease } from './ubl.js';

export const XRECHNUNG_CII = 'xrechnung-cii';
export const XRECHNUNG_UBL = 'xrechnung-ubl';
export const XRECHNUNG_VERSION = `XRechnung 3.0.x (KoSIT schematron ${DEFAULT_XR_RELEASE})`;

registerRuleSet(XRECHNUNG_CII, xrechnungCiiRules);
registerRuleSet(XRECHNUNG_UBL, xrechnungUblRules);
for (const r of XR_RELEASES) {
  if (r === DEFAULT_XR_RELEASE) continue;
  registerRuleSet(`${XRECHNUNG_CII}@${r}`, xrechnungCiiRulesByRelease[r]);
  registerRuleSet(`${XRECHNUNG_UBL}@${r}`, xrechnungUblRulesByRelease[r]);
}

/** The registry key of an XRechnung rule set in a release (the plain id for the default release). */
export function xrechnungRegistryId(id: string, release: XrRelease = DEFAULT_XR_RELEASE): string {
  return release === DEFAULT_XR_RELEASE ? id : `${id}@${release}`;
}

export { xrechnungCiiRules, xrechnungUblRules, xrechnungCiiRulesByRelease, xrechnungUblRulesByRelease };
export { DEFAULT_XR_RELEASE, XR_RELEASES, XR_RELEASE_INFO, parseXrRelease, type XrRelease };
