/**
 * The Factur-X 1.08 / ZUGFeRD 2.4 profile rule sets, registered under their official ids:
 * fx-minimum, fx-basicwl, fx-basic, fx-en16931, fx-extended (facts from the profile schematrons of
 * the ZUGFeRD 2.5 release line, mustangproject ZF_250, as catalogued in ../shared/docs/rules).
 *
 * Each set is assembled from:
 * - the EN 16931 business rules (BR-*, BR-CO-*, BR-DEC-*, VAT category rules) the profile carries,
 *   reused from src/rules/en16931 with the profile's severity;
 * - the CII syntax rules (CII-SR-*, CII-DT-*) the profile carries, reused from src/syntax/cii;
 * - PEPPOL-EN16931-R008 (empty elements), a warning in these sets;
 * - the profile's code-list asserts (FX-SCH-A-*), as data from the generated code lists;
 * - the profile's structural asserts (FX-SCH-A-*) written in ./structure.ts;
 * - profile versions of EN 16931 rules and the EXTENDED rules BR-FXEXT-* (./adapted.ts);
 * - the "not used in this profile" reports, under our ids FX-NU-<hash> (./not-used.ts).
 * Ids of the catalogue not covered by any of these are not implemented (see the coverage test).
 */
import { joinFamily, registerLazyRuleSet } from '../engine.js';
import { EN16931_RULE_DEFS } from '../en16931/index.js';
import { forSyntax } from '../en16931/helpers.js';
import type { Rule, RuleContext, Severity } from '../types.js';
import { brCo17 } from '../en16931/conditions.js';
import { fxTaxableCheck } from '../en16931/vat.js';
import { ciiSyntaxRules } from '../../syntax/cii/rules.js';
import { emptyElementsOf } from '../xrechnung/peppol.js';
import { where } from '../xrechnung/dom.js';
import { FX_CATALOGUE } from './catalogue.data.js';
import { codeListRules } from './codelists.js';
import { notUsedRules } from './not-used.js';
import { adaptedRules, extendedCategoryRules, extendedLineRules, extendedRules, extendedTotalsRules } from './adapted.js';
import { structureRules } from './structure.js';
import { locatedAt } from '../report-bounds.js';
import { DEFAULT_FX_RULE_RELEASE, FX_RULE_RELEASES, fxReleaseDelta, type FxRuleRelease } from './release-delta.js';

export const FX_PROFILES = ['fx-minimum', 'fx-basicwl', 'fx-basic', 'fx-en16931', 'fx-extended'] as const;
export type FxProfileSet = (typeof FX_PROFILES)[number];
export const FX_RULES_VERSION = 'Factur-X / ZUGFeRD profile schematrons, ZUGFeRD 2.5 release line (code DB 1.09.2)';

// BR-CO-17 has a pattern of its own in the profile schematrons: no L/M/O breakdown is left to the category
// rules there, unlike in the CEN CII artefact (see brCo17).
// The -08 rules select the breakdowns without the VAT type filter there and (1.09.2) accept BasisAmount = sum + 1.
const businessFor = (release: FxRuleRelease) =>
  forSyntax(EN16931_RULE_DEFS, 'cii').map((r) => {
    if (r.id === 'BR-CO-17') return { ...r, check: (ctx: RuleContext) => brCo17(ctx, false) };
    const taxable = fxTaxableCheck(r.id, release === '1.08' ? 'fx-1.08' : 'fx');
    return taxable ? { ...r, check: taxable } : r;
  });
const businessByRelease = new Map<FxRuleRelease, Rule[]>();
/** The EN 16931 business rules as a release's profiles carry them: made once, shared by its five sets. */
function en16931BusinessOf(release: FxRuleRelease): Rule[] {
  let rules = businessByRelease.get(release);
  if (!rules) businessByRelease.set(release, (rules = businessFor(release)));
  return rules;
}

function withSeverity(rule: Rule, severity: Severity): Rule {
  return rule.severity === severity ? rule : { ...rule, severity };
}

function emptyElementRule(severity: Severity): Rule {
  return {
    id: 'PEPPOL-EN16931-R008',
    severity,
    message: 'The document should not contain empty elements.',
    check: (ctx) => emptyElementsOf(ctx.doc).map(locatedAt(where)),
  };
}

/**
 * Build the rule table of one profile: every implemented id of its catalogue, once. For an older
 * release (`release`, see release-delta.ts) the same rules run with that release's differences: its
 * ids in the findings, without the asserts it lacks, with the ones it adds that our rules implement,
 * and its code lists.
 */
export function buildProfileRules(set: FxProfileSet, release: FxRuleRelease = DEFAULT_FX_RULE_RELEASE): Rule[] {
  const catalogue = FX_CATALOGUE[set];
  const delta = fxReleaseDelta(set, release);
  const severityOf = (id: string) => catalogue.asserts[id];
  const out: Rule[] = [];
  const taken = new Set<string>();
  // The profile's own asserts (structure, code lists, not-used reports) are one family: ~260 rules in
  // fx-en16931 that nearly always hold, answered by one loop instead of one engine call each.
  const family: Rule[] = [];
  const add = (r: Rule, own = false) => {
    const sev = severityOf(r.id);
    if (sev === undefined || taken.has(r.id)) return;
    taken.add(r.id);
    if (delta?.notIn.includes(r.id)) return;
    const reportId = delta?.rename[r.id];
    // A family member is this table's own copy: the same rule object is shared by the profiles.
    const rule = own || reportId ? { ...r, severity: sev, ...(reportId ? { reportId } : {}) } : withSeverity(r, sev);
    out.push(rule);
    if (own) family.push(rule);
  };
  for (const r of structureRules(set)) add(r, true);
  for (const r of adaptedRules) add(r);
  if (set === 'fx-extended')
    for (const r of [...extendedRules, ...extendedLineRules, ...extendedTotalsRules, ...extendedCategoryRules]) add(r);
  for (const r of codeListRules(set, delta)) {
    // An older release's extra code-list asserts are not in the catalogue: added as they come.
    if (r.reportId && r.id.includes('#old')) {
      out.push(r);
      family.push(r);
    } else add(r, true);
  }
  for (const r of en16931BusinessOf(release)) add(r);
  for (const r of ciiSyntaxRules) add(r);
  if (severityOf('PEPPOL-EN16931-R008')) add(emptyElementRule(severityOf('PEPPOL-EN16931-R008')));
  // An older release's asserts that the bundled one dropped, where one of our rules is the same check
  // (named by the assert's label): run under the older release's id.
  if (delta) {
    const pool = [...adaptedRules, ...en16931BusinessOf(release), ...ciiSyntaxRules];
    delta.extra.forEach(([oldId, ours, flag], n) => {
      const r = pool.find((p) => p.id === ours);
      if (!r) throw new Error(`Factur-X ${release} ${set}: no rule ${ours} for ${oldId}`);
      out.push({ ...r, id: `${ours}#old${n}`, reportId: oldId, severity: flag === 'warning' ? 'warning' : 'error', family: undefined });
    });
  }
  // Made for this profile (not shared), and always an error: no copy needed.
  for (const r of notUsedRules(set, delta)) {
    out.push(r);
    family.push(r);
  }
  joinFamily(family);
  return out;
}

// Each profile's set is built when a document of that profile first comes (a batch of XRechnung or UBL invoices
// never needs one); older releases under `<set>@<release>` (like XRechnung's), chosen by `facturx_version`.
for (const set of FX_PROFILES) registerLazyRuleSet(set, () => buildProfileRules(set));
for (const release of FX_RULE_RELEASES)
  if (release !== DEFAULT_FX_RULE_RELEASE)
    for (const set of FX_PROFILES) registerLazyRuleSet(`${set}@${release}`, () => buildProfileRules(set, release));
