/**
 * Peppol BIS Billing 3.0 as rule sets of the engine, a layer on top of EN 16931 UBL (src/validation/rulesets.ts
 * selects them by CustomizationID):
 * - `peppol-bis-3`: the billing rules (PEPPOL-EN16931-R*, PEPPOL-COMMON-R*, the code lists and the national rules);
 * - `peppol-bis-3-selfbilling`: the Self-Billing 3.0 rules (no national rules, its own type codes and identifiers).
 * The default release (2026.5) is registered under the plain ids, each older one as `<id>@<release>` (built on
 * first use); findings always carry the plain id. Severities are the official flags: fatal → error, warning → warning.
 */
import type { XmlDoc } from '../../xml/dom.js';
import { PropertyMap } from '../../util/property-map.js';
import { NO_VIOLATIONS, registerLazyRuleSet, registerRuleSet } from '../engine.js';
import type { Rule, RuleContext, RuleFamily, Violation } from '../types.js';
import { emptyElementsOf } from '../xrechnung/peppol.js';
import { where } from '../xrechnung/dom.js';
import { MAX_FINDINGS_PER_RULE } from '../report-bounds.js';
import { codeListPatterns, corePatterns } from './core.js';
import { DocEnv } from './env.js';
import { compileTable, evaluatePatterns, type Assert, type Pattern } from './model.js';
import { nationalPatterns } from './national.js';
import { DEFAULT_PEPPOL_RELEASE, PEPPOL_RELEASES, type PeppolRelease } from './releases.js';
import { billingVariant, selfBillingVariant, type RuleVariant } from './variant.js';

export const PEPPOL_BIS = 'peppol-bis-3';
export const PEPPOL_SELFBILLING = 'peppol-bis-3-selfbilling';

const R008: Assert = {
  id: 'PEPPOL-EN16931-R008',
  flag: 'fatal',
  message: 'The document must not contain empty elements.',
  test: () => false,
};

/** The pattern tables of a variant, in the official order. */
export function patternsOf(v: RuleVariant): Pattern[] {
  return [...corePatterns(v), ...(v.national ? nationalPatterns(v) : []), ...codeListPatterns(v)];
}

/** Build the engine's rules of a variant: one evaluation per document, each rule reading its own id from it. */
export function buildPeppolRules(v: RuleVariant): Rule[] {
  const patterns = patternsOf(v);
  const table = compileTable(patterns);
  const cache = new PropertyMap<XmlDoc, Map<string, Violation[]>>(`peppol-${v.kind}-${v.release}`);
  const evaluate = (ctx: RuleContext): Map<string, Violation[]> => {
    let fired = cache.get(ctx.doc);
    if (!fired) {
      fired = evaluatePatterns(ctx.doc, table, new DocEnv(ctx.doc, v));
      const empty = emptyElementsOf(ctx.doc);
      if (empty.length > 0)
        fired.set(
          R008.id,
          empty.map((el, i) => (i < MAX_FINDINGS_PER_RULE ? { location: where(el) } : {})),
        );
      cache.set(ctx.doc, fired);
    }
    return fired;
  };
  const family: RuleFamily = { fired: evaluate };
  const asserts = new Map<string, Assert>([[R008.id, R008]]);
  for (const p of patterns) for (const r of p) for (const a of r.asserts) if (!asserts.has(a.id)) asserts.set(a.id, a);
  return [...asserts.values()].map((a) => ({
    id: a.id,
    severity: a.flag === 'fatal' ? ('error' as const) : ('warning' as const),
    message: a.message,
    check: (ctx: RuleContext) => evaluate(ctx).get(a.id) ?? NO_VIOLATIONS,
    family,
  }));
}

/** The registry key of a Peppol rule set in a release (the plain id for the default release). */
export function peppolRegistryId(id: string, release: PeppolRelease = DEFAULT_PEPPOL_RELEASE): string {
  return release === DEFAULT_PEPPOL_RELEASE ? id : `${id}@${release}`;
}

registerRuleSet(PEPPOL_BIS, buildPeppolRules(billingVariant(DEFAULT_PEPPOL_RELEASE)));
registerLazyRuleSet(PEPPOL_SELFBILLING, () => buildPeppolRules(selfBillingVariant(DEFAULT_PEPPOL_RELEASE)));
for (const r of PEPPOL_RELEASES) {
  if (r === DEFAULT_PEPPOL_RELEASE) continue;
  registerLazyRuleSet(`${PEPPOL_BIS}@${r}`, () => buildPeppolRules(billingVariant(r)));
  registerLazyRuleSet(`${PEPPOL_SELFBILLING}@${r}`, () => buildPeppolRules(selfBillingVariant(r)));
}

export { DEFAULT_PEPPOL_RELEASE, PEPPOL_RELEASES, type PeppolRelease };
