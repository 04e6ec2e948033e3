/**
 * The rule engine: rule sets are plain tables of Rule, registered under their official rule set
 * id (en16931-cii, en16931-ubl, later xrechnung-*, fx-*, br-fr-*). Running a set is one loop over
 * its table; every rule reads the already-parsed model/document, nothing is re-parsed per rule.
 */
import type { Finding, Rule, RuleContext, RuleSetId, Violation } from './types.js';

const registry = new Map<RuleSetId, readonly Rule[]>();

/**
 * What a check that holds returns: one shared array, never modified. Nearly every check holds on nearly
 * every invoice, and a fresh empty array per check and document was most of the rules' garbage.
 */
export const NO_VIOLATIONS: readonly Violation[] = [];

/**
 * Memo slots of the checks that more than one registered rule set uses (see CheckMemo), per rule of
 * each set (-1: the check is used by one set only and is never memoised). Recomputed whenever a set
 * is registered, which happens at module load, never per document.
 */
const memoSlots = new Map<readonly Rule[], Int32Array>();
let sharedCheckCount = 0;

function assignMemoSlots(): void {
  const users = new Map<Rule['check'], number>();
  for (const rules of registry.values()) {
    const inThisSet = new Set<Rule['check']>();
    for (const r of rules) inThisSet.add(r.check);
    for (const check of inThisSet) users.set(check, (users.get(check) ?? 0) + 1);
  }
  const slotOf = new Map<Rule['check'], number>();
  for (const [check, count] of users) if (count > 1) slotOf.set(check, slotOf.size);
  sharedCheckCount = slotOf.size;
  memoSlots.clear();
  for (const rules of registry.values()) memoSlots.set(rules, Int32Array.from(rules, (r) => slotOf.get(r.check) ?? -1));
}

/** Register (or replace) a rule set. Adding a rule set is a matter of calling this with a table. */
export function registerRuleSet(id: RuleSetId, rules: readonly Rule[]): void {
  const seen = new Set<string>();
  for (const r of rules) {
    if (seen.has(r.id)) throw new Error(`rule set ${id}: duplicate rule id ${r.id}`);
    seen.add(r.id);
  }
  registry.set(id, rules);
  assignMemoSlots();
}

export function getRuleSet(id: RuleSetId): readonly Rule[] | undefined {
  return registry.get(id);
}

export function ruleSetIds(): RuleSetId[] {
  return [...registry.keys()];
}

/** Id given to findings of a rule that threw: the finding says which rule could not be evaluated. */
export const INTERNAL_RULE_ERROR = 'INTERNAL-RULE-ERROR';

/**
 * Violations already computed in this pass, by memo slot of the check function. Rule sets reuse
 * checks (the Factur-X and XRechnung sets carry the EN 16931 business and syntax rules), and a check
 * is a pure function of its context, so within one validation of one document each check need run
 * only once. Only checks shared between sets have a slot: a Map keyed by every check cost ~100 KB
 * of garbage per invoice. Made per call (newCheckMemo) and dropped with it: never shared between
 * documents or requests.
 */
export type CheckMemo = (readonly Violation[] | undefined)[];

export function newCheckMemo(): CheckMemo {
  return new Array<readonly Violation[] | undefined>(sharedCheckCount);
}

/** Run a table of rules; a rule that throws becomes a warning-level internal finding, never a crash. */
export function runRules(ruleSet: RuleSetId, rules: readonly Rule[], ctx: RuleContext, memo?: CheckMemo): Finding[] {
  const findings: Finding[] = [];
  // Tables registered under a set id have slots; others (tests run ad-hoc tables) are not memoised.
  const slots = memo ? memoSlots.get(rules) : undefined;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    const slot = slots ? slots[i] : -1;
    let violations = slot >= 0 ? memo![slot] : undefined;
    try {
      if (!violations) {
        violations = rule.check(ctx);
        if (slot >= 0) memo![slot] = violations;
      }
    } catch (err) {
      findings.push({
        ruleId: INTERNAL_RULE_ERROR,
        severity: 'warning',
        message: `Rule ${rule.id} could not be evaluated on this document (${(err as Error).message}); it was skipped.`,
        ruleSet,
      });
      continue;
    }
    // Indexed, not for...of: over 1,300 mostly empty arrays per document, V8's iterator objects were garbage.
    for (let k = 0; k < violations.length; k++) {
      const v = violations[k];
      findings.push({
        ruleId: rule.id,
        severity: rule.severity,
        message: v.message ?? rule.message,
        ...(v.location ? { location: v.location } : {}),
        ruleSet,
      });
    }
  }
  return findings;
}

/** Run a registered rule set by id. Throws for an unknown id (a programming error, not a document error). */
export function runRuleSet(id: RuleSetId, ctx: RuleContext): Finding[] {
  const rules = registry.get(id);
  if (!rules) throw new Error(`unknown rule set ${id}`);
  return runRules(id, rules, ctx);
}
