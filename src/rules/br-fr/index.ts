/**
 * The French CTC rule sets (FNFE-MPE "BR-FR-Flux2", AFNOR XP Z12-012), registered under the ids of
 * the rule catalogue (../shared/docs/rules/br-fr-*.tsv):
 *
 * | rule set                | release | syntax | severity                                           |
 * |-------------------------|---------|--------|----------------------------------------------------|
 * | `br-fr-1.2-cii`/`-ubl`  | 1.2.0   | CII/UBL| every assert a warning                             |
 * | `br-fr-1.4-cii`/`-ubl`  | 1.4.x   | CII/UBL| standard edition: every assert an error (fatal)    |
 * | `br-fr-1.4-warning-*`   | 1.4.x   | CII/UBL| WARNING edition: BR-FR-MV-* / BR-FR-BD-* errors, the rest warnings |
 *
 * Each check is written once per syntax and release line (cii.ts, ubl.ts); the editions only differ
 * in the severity they give it.
 */
import { registerRuleSet } from '../engine.js';
import type { Rule, RuleContext, Severity, Violation } from '../types.js';
import { pathOf } from '../../xml/dom.js';
import { MAX_FINDINGS_PER_RULE } from '../report-bounds.js';

/** A violation the report will not list (beyond MAX_FINDINGS_PER_RULE): no location needed. */
const UNLISTED: Violation = Object.freeze({});
import type { FrAssert } from './checks.js';
import { ciiRules12, ciiRules14, isCiiRoot } from './cii.js';
import { isUblRoot, ublRules12, ublRules14 } from './ubl.js';

export const BR_FR_RULE_SETS = [
  'br-fr-1.2-cii',
  'br-fr-1.2-ubl',
  'br-fr-1.4-cii',
  'br-fr-1.4-ubl',
  'br-fr-1.4-warning-cii',
  'br-fr-1.4-warning-ubl',
] as const;
export type BrFrRuleSetId = (typeof BR_FR_RULE_SETS)[number];

/** The multi-vendor and bidirectional rules stay blocking in the 1.4 WARNING edition. */
const alwaysFatal = (id: string) => id.startsWith('BR-FR-MV-') || id.startsWith('BR-FR-BD-');

function toRules(
  asserts: readonly FrAssert[],
  severityOf: (id: string) => Severity,
  rootOk: (root: RuleContext['doc']['root']) => boolean,
): Rule[] {
  return asserts.map((a) => ({
    id: a.id,
    severity: severityOf(a.id),
    message: a.message,
    check: ({ doc }: RuleContext): Violation[] => {
      const root = doc.root;
      if (!rootOk(root)) return [];
      const out: Violation[] = [];
      // Locations only for the violations a report lists (report-bounds.ts); the rest are only counted.
      for (const el of a.contexts(root))
        if (!a.holds(el, root)) out.push(out.length < MAX_FINDINGS_PER_RULE ? { location: pathOf(el) } : UNLISTED);
      return out;
    },
  }));
}

const warning = (): Severity => 'warning';
const error = (): Severity => 'error';
const warningEdition = (id: string): Severity => (alwaysFatal(id) ? 'error' : 'warning');

export const BR_FR_RULES: Record<BrFrRuleSetId, Rule[]> = {
  'br-fr-1.2-cii': toRules(ciiRules12, warning, isCiiRoot),
  'br-fr-1.2-ubl': toRules(ublRules12, warning, isUblRoot),
  'br-fr-1.4-cii': toRules(ciiRules14, error, isCiiRoot),
  'br-fr-1.4-ubl': toRules(ublRules14, error, isUblRoot),
  'br-fr-1.4-warning-cii': toRules(ciiRules14, warningEdition, isCiiRoot),
  'br-fr-1.4-warning-ubl': toRules(ublRules14, warningEdition, isUblRoot),
};

for (const id of BR_FR_RULE_SETS) registerRuleSet(id, BR_FR_RULES[id]);
