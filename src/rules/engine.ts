/**
 * The rule engine: rule sets are plain tables of Rule, registered under their official rule set
 * id (en16931-cii, en16931-ubl, later xrechnung-*, fx-*, br-fr-*). Running a set is one loop over
 * its table; every rule reads the already-parsed model/document, nothing is re-parsed per rule.
 */
import type { Finding, Rule, RuleContext, RuleFamily, RuleSetId, Violation } from './types.js';
import type { Stages } from '../util/stages.js';
import { MAX_FINDINGS_PER_RULE, summaryFinding } from './report-bounds.js';

/** A rule set's table, or (an older release's set, see registerLazyRuleSet) how to build it on first use. */
const registry = new Map<RuleSetId, readonly Rule[] | (() => readonly Rule[])>();

/**
 * What a check that holds returns: one shared array, never modified. Nearly every check holds on nearly
 * every invoice, and a fresh empty array per check and document was most of the rules' garbage.
 */
export const NO_VIOLATIONS: readonly Violation[] = [];

/**
 * Memo slots of the checks that more than one registered rule set uses (see CheckMemo), per rule of
 * each set (-1: the check is used by one set only and is never memoised). Worked out on first use after
 * a registration: sets are registered one by one at module load (some forty of them), and redoing the
 * count at each registration cost ~60 ms of every process's and batch thread's start.
 */
const memoSlots = new Map<readonly Rule[], Int32Array>();
let sharedCheckCount = 0;
let slotsStale = false;

/** How many of the built default sets use each check, and the memo slot of each check used by two or more. */
let usersOf = new Map<Rule['check'], number>();
let slotOf = new Map<Rule['check'], number>();

/**
 * Older releases (`<id>@<release>`) replace their set, they never run beside it: counting them would make
 * checks "shared" that no document runs twice, and give the default sets memo work for nothing.
 */
const countsForSlots = (id: RuleSetId) => !id.includes('@');

/** Count a built default set's checks; a check that becomes shared gets the next free slot (none is renumbered). */
function countChecks(rules: readonly Rule[]): void {
  for (const check of new Set(rules.map((r) => r.check))) {
    const users = (usersOf.get(check) ?? 0) + 1;
    usersOf.set(check, users);
    if (users === 2) slotOf.set(check, sharedCheckCount++);
  }
}

function assignMemoSlots(): void {
  slotsStale = false;
  usersOf = new Map();
  slotOf = new Map();
  sharedCheckCount = 0;
  for (const [id, rules] of registry) if (countsForSlots(id) && typeof rules !== 'function') countChecks(rules);
  refreshSlotTables();
}

function refreshSlotTables(): void {
  memoSlots.clear();
  for (const rules of registry.values()) if (typeof rules !== 'function') memoSlots.set(rules, slotsOf(rules));
}

const slotsOf = (rules: readonly Rule[]) => Int32Array.from(rules, (r) => slotOf.get(r.check) ?? -1);

function requireUniqueIds(id: RuleSetId, rules: readonly Rule[]): void {
  const seen = new Set<string>();
  for (const r of rules) {
    if (seen.has(r.id)) throw new Error(`rule set ${id}: duplicate rule id ${r.id}`);
    seen.add(r.id);
  }
}

/** Register (or replace) a rule set. Adding a rule set is a matter of calling this with a table. */
export function registerRuleSet(id: RuleSetId, rules: readonly Rule[]): void {
  requireUniqueIds(id, rules);
  registry.set(id, rules);
  slotsStale = true;
}

/**
 * Register a rule set to be built when it is first asked for: a set that only some documents need (a Factur-X
 * profile, an older release) costs nothing until one comes. Building the five Factur-X profile sets and their
 * five 1.08 sets at module load was ~250 ms of CPU at every process's and batch thread's start, and a batch of
 * XRechnung invoices never uses them.
 * A default set built later counts for the memo slots then: the checks it shares get new slots, and no slot is
 * renumbered, so a memo made before it stays right (its own set's runs just see fewer slots filled).
 */
export function registerLazyRuleSet(id: RuleSetId, build: () => readonly Rule[]): void {
  registry.set(id, build);
}

export function getRuleSet(id: RuleSetId): readonly Rule[] | undefined {
  const entry = registry.get(id);
  if (typeof entry !== 'function') return entry;
  const rules = entry();
  requireUniqueIds(id, rules);
  registry.set(id, rules);
  if (slotsStale) return rules; // the next memo works out every set's slots, this one's too
  if (countsForSlots(id)) {
    countChecks(rules);
    refreshSlotTables();
  } else memoSlots.set(rules, slotsOf(rules));
  return rules;
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
  if (slotsStale) assignMemoSlots();
  return new Array<readonly Violation[] | undefined>(sharedCheckCount);
}

/** What a family answers when none of its rules fired: one shared empty map, never modified. */
export const NOTHING_FIRED: ReadonlyMap<string, readonly Violation[]> = new Map();

/**
 * Make `members` one family that runs their checks in one loop (see Rule.family): for rules that each
 * evaluate on their own but nearly always hold, one loop costs less than the engine's call per rule.
 * Sets each member's `family`; the members must be this table's own objects, not shared with others.
 */
export function joinFamily(members: Rule[]): RuleFamily {
  const family: RuleFamily = {
    fired(ctx) {
      let fired: Map<string, readonly Violation[]> | undefined;
      for (let i = 0; i < members.length; i++) {
        const violations = members[i].check(ctx);
        if (violations.length > 0) (fired ??= new Map()).set(members[i].id, violations);
      }
      return fired ?? NOTHING_FIRED;
    },
  };
  for (const m of members) m.family = family;
  return family;
}

/**
 * How a table is run: the rules called one by one, and the families asked once each for what fired
 * (a syntax table is ~600 rules of one family, nearly all holding: calling each to look up an empty
 * result cost ~55 µs per document). A family is asked where its first rule stands in the table, so the
 * work happens in table order as before: the syntax rules' walk of the document, which also fills the
 * name index the business rules read, still comes first. Made once per table and kept with it.
 */
interface RunPlan {
  /** In table order: a rule's index (>= 0) for a rule called on its own, or -(family number + 1). */
  order: Int32Array;
  /** Each family used by the table, with the table index of each of its rules by id. */
  families: { family: RuleFamily; indexOf: Map<string, number> }[];
}

const plans = new WeakMap<readonly Rule[], RunPlan>();

function planOf(rules: readonly Rule[]): RunPlan {
  let plan = plans.get(rules);
  if (plan) return plan;
  const order: number[] = [];
  const families: RunPlan['families'] = [];
  const numberOf = new Map<RuleFamily, number>();
  for (let i = 0; i < rules.length; i++) {
    const family = rules[i].family;
    if (family === undefined) {
      order.push(i);
      continue;
    }
    let n = numberOf.get(family);
    if (n === undefined) {
      numberOf.set(family, (n = families.length));
      families.push({ family, indexOf: new Map() });
      order.push(-(n + 1));
    }
    families[n].indexOf.set(rules[i].id, i);
  }
  plan = { order: Int32Array.from(order), families };
  plans.set(rules, plan);
  return plan;
}

function internalFinding(rule: Rule, _err: unknown, ruleSet: RuleSetId): Finding {
  return {
    ruleId: INTERNAL_RULE_ERROR,
    severity: 'warning',
    // The error's own text stays out: it is internal (a stack overflow, a library's message), never the user's concern.
    message: `Rule ${rule.id} could not be evaluated on this document; it was skipped.`,
    ruleSet,
  };
}

/**
 * Append a rule's violations as findings, recording the rule's table index of each. Beyond
 * MAX_FINDINGS_PER_RULE violations, the rest become one summary finding (see report-bounds.ts), so a
 * document that breaks a rule on each of its 30,000 lines does not make 30,000 finding objects.
 */
function pushFindings(
  findings: Finding[],
  at: number[],
  index: number,
  rule: Rule,
  violations: readonly Violation[],
  ruleSet: RuleSetId,
): void {
  const listed = Math.min(violations.length, MAX_FINDINGS_PER_RULE);
  // Indexed, not for...of: over 1,300 mostly empty arrays per document, V8's iterator objects were garbage.
  for (let k = 0; k < listed; k++) {
    const v = violations[k];
    findings.push({
      ruleId: rule.reportId ?? rule.id,
      severity: rule.severity,
      message: v.message ?? rule.message,
      ...(v.location ? { location: v.location } : {}),
      ruleSet,
    });
    at.push(index);
  }
  if (violations.length > listed) {
    findings.push(summaryFinding(rule.reportId ?? rule.id, rule.severity, ruleSet, violations.length - listed));
    at.push(index);
  }
}

/**
 * Run a table of rules; a rule that throws becomes a warning-level internal finding, never a crash.
 * Findings come in table order, each rule's in the order its check gives them, whether the rule was
 * called on its own or answered by its family.
 */
export function runRules(ruleSet: RuleSetId, rules: readonly Rule[], ctx: RuleContext, memo?: CheckMemo): Finding[] {
  const run = new TableRun(ruleSet, rules, ctx, memo);
  for (let s = 0; s < run.order.length; ) s = run.from(s);
  return run.findingsInOrder();
}

/**
 * runRules as stages (see src/util/stages.ts): a family's evaluation (a syntax table's walk, the Factur-X
 * profile asserts) is a stage of its own, the rules around it are others. Over a batch of documents each
 * stage's code and tables then stay cached from one document to the next: with these stages a batch of
 * CII validations in rounds costs 0.81–0.83 (3 documents) and 0.75 (7) of the CPU time of the same one after
 * the other, against 0.86 and 0.82 with whole rule sets as stages (same-process interleaved runs). The rules
 * run in TableRun.from, an ordinary function: with the loop itself in the generator, a validation run alone
 * was ~5% slower.
 */
export function* runRulesStages(ruleSet: RuleSetId, rules: readonly Rule[], ctx: RuleContext, memo?: CheckMemo): Stages<Finding[]> {
  const run = new TableRun(ruleSet, rules, ctx, memo);
  for (let s = 0; s < run.order.length; ) {
    s = run.from(s);
    if (s < run.order.length) yield;
  }
  return run.findingsInOrder();
}

/** One run of a table over one document: its findings so far, and where each came from. */
class TableRun {
  private readonly findings: Finding[] = [];
  /** Table index of the rule of each finding (for the order, when families add findings). */
  private readonly at: number[] = [];
  private fromFamilies = false;
  private readonly plan: RunPlan;
  /** Tables registered under a set id have slots; others (tests run ad-hoc tables) are not memoised. */
  private readonly slots: Int32Array | undefined;
  readonly order: Int32Array;

  constructor(
    private readonly ruleSet: RuleSetId,
    private readonly rules: readonly Rule[],
    private readonly ctx: RuleContext,
    private readonly memo: CheckMemo | undefined,
  ) {
    this.plan = planOf(rules);
    // A memo comes from newCheckMemo, which worked the slots out; they are not renumbered under it (a set built
    // since only adds slots, see registerLazyRuleSet; one registered since has none yet and runs unmemoised).
    this.slots = memo ? memoSlots.get(rules) : undefined;
    this.order = this.plan.order;
  }

  /** Run the table from position `s` through its next family (or to its end); returns where to go on. */
  from(s: number): number {
    const { order, rules, ctx, ruleSet, findings, at, slots, memo } = this;
    for (; s < order.length; s++) {
      const i = order[s];
      if (i < 0) {
        if (askFamily(this.plan.families[-i - 1], rules, ctx, ruleSet, findings, at)) this.fromFamilies = true;
        return s + 1;
      }
      const rule = rules[i];
      const slot = slots ? slots[i] : -1;
      let violations = slot >= 0 ? memo![slot] : undefined;
      try {
        if (!violations) {
          violations = rule.check(ctx);
          if (slot >= 0) memo![slot] = violations;
        }
      } catch (err) {
        findings.push(internalFinding(rule, err, ruleSet));
        at.push(i);
        continue;
      }
      if (violations.length > 0) pushFindings(findings, at, i, rule, violations, ruleSet);
    }
    return s;
  }

  /** The findings in table order. */
  findingsInOrder(): Finding[] {
    const { findings, at } = this;
    if (!this.fromFamilies) return findings;
    // Families added findings: into table order, stably (a rule's own violations keep their order).
    const sorted = Array.from(findings.keys()).sort((a, b) => at[a] - at[b] || a - b);
    return sorted.map((k) => findings[k]);
  }
}

/** Add the findings of a family's fired rules that are in this table; true when there were any. */
function askFamily(
  { family, indexOf }: RunPlan['families'][number],
  rules: readonly Rule[],
  ctx: RuleContext,
  ruleSet: RuleSetId,
  findings: Finding[],
  at: number[],
): boolean {
  const before = findings.length;
  let fired: ReadonlyMap<string, readonly Violation[]>;
  try {
    fired = family.fired(ctx);
  } catch {
    // The family could not be evaluated: its rules, one by one, say so each (as they would alone).
    for (const i of indexOf.values()) {
      try {
        pushFindings(findings, at, i, rules[i], rules[i].check(ctx), ruleSet);
      } catch (err) {
        findings.push(internalFinding(rules[i], err, ruleSet));
        at.push(i);
      }
    }
    return findings.length > before;
  }
  if (fired.size === 0) return false;
  for (const [id, violations] of fired) {
    const i = indexOf.get(id);
    if (i !== undefined) pushFindings(findings, at, i, rules[i], violations, ruleSet);
  }
  return findings.length > before;
}

/** Run a registered rule set by id. Throws for an unknown id (a programming error, not a document error). */
export function runRuleSet(id: RuleSetId, ctx: RuleContext): Finding[] {
  const rules = getRuleSet(id);
  if (!rules) throw new Error(`unknown rule set ${id}`);
  return runRules(id, rules, ctx);
}
