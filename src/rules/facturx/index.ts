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
import { joinFamily, registerRuleSet } from '../engine.js';
import { EN16931_RULE_DEFS } from '../en16931/index.js';
import { forSyntax } from '../en16931/helpers.js';
import type { Rule, Severity } from '../types.js';
import { ciiSyntaxRules } from '../../syntax/cii/rules.js';
import { emptyElementsOf } from '../xrechnung/peppol.js';
import { where } from '../xrechnung/dom.js';
import { FX_CATALOGUE } from './catalogue.data.js';
import { codeListRules } from './codelists.js';
import { notUsedRules } from './not-used.js';
import { adaptedRules, extendedCategoryRules, extendedLineRules, extendedRules, extendedTotalsRules } from './adapted.js';
import { structureRules } from './structure.js';
import { locatedAt } from '../../validation/report-bounds.js';

export const FX_PROFILES = ['fx-minimum', 'fx-basicwl', 'fx-basic', 'fx-en16931', 'fx-extended'] as const;
export type FxProfileSet = (typeof FX_PROFILES)[number];
export const FX_RULES_VERSION = 'Factur-X / ZUGFeRD profile schematrons, ZUGFeRD 2.5 release line (code DB 1.09.2)';

const en16931Business = forSyntax(EN16931_RULE_DEFS, 'cii');

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

/** Build the rule table of one profile: every implemented id of its catalogue, once. */
export function buildProfileRules(set: FxProfileSet): Rule[] {
  const catalogue = FX_CATALOGUE[set];
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
    // A family member is this table's own copy: the same rule object is shared by the profiles.
    const rule = own ? { ...r, severity: sev } : withSeverity(r, sev);
    out.push(rule);
    if (own) family.push(rule);
  };
  for (const r of structureRules(set)) add(r, true);
  for (const r of adaptedRules) add(r);
  if (set === 'fx-extended')
    for (const r of [...extendedRules, ...extendedLineRules, ...extendedTotalsRules, ...extendedCategoryRules]) add(r);
  for (const r of codeListRules(set)) add(r, true);
  for (const r of en16931Business) add(r);
  for (const r of ciiSyntaxRules) add(r);
  if (severityOf('PEPPOL-EN16931-R008')) add(emptyElementRule(severityOf('PEPPOL-EN16931-R008')));
  // Made for this profile (not shared), and always an error: no copy needed.
  for (const r of notUsedRules(set)) {
    out.push(r);
    family.push(r);
  }
  joinFamily(family);
  return out;
}

for (const set of FX_PROFILES) registerRuleSet(set, buildProfileRules(set));
