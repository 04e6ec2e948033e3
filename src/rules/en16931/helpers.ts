/**
 * Small helpers shared by the EN 16931 business rules: presence tests, decimal comparisons with
 * the rounding the official artefacts use, and locations taken from the model's `$loc`.
 */
import { Big, parseDec, type BigValue } from '../../model/decimal.js';
import type { Located, Dec } from '../../model/invoice.js';
import type { Rule, RuleContext, Severity, Violation } from '../types.js';

/** Present and not only whitespace (XPath `normalize-space(x) != ''`). */
export function filled(v: string | undefined | null): v is string {
  return v != null && v.trim() !== '';
}

/** Present at all, even empty (XPath `exists(x)`). */
export function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** Where a field of a model object sits in the source; falls back to the object's own element. */
export function loc(obj: Located | undefined, field?: string): string | undefined {
  if (!obj?.$loc) return undefined;
  return (field && obj.$loc[field]) || obj.$loc.self;
}

export function dec(v: Dec | undefined): BigValue | undefined {
  return v === undefined ? undefined : parseDec(v.trim());
}

export const ZERO = new Big('0');
export const ONE = new Big('1');
const HUNDRED = new Big('100');
const HALF = new Big('0.5');

/** floor() for big decimals. */
function floor(v: BigValue): BigValue {
  const t = v.round(0, Big.roundDown);
  return t.gt(v) ? t.minus(1) : t;
}

/**
 * XPath `round(x * 100) div 100`: round to two decimals with halves going towards +infinity
 * (round(-2.5) = -2), which is what the official Schematron computes.
 */
export function round2(v: BigValue): BigValue {
  return floor(v.times(HUNDRED).plus(HALF)).div(HUNDRED);
}

/** XPath `round(x)`: nearest integer, halves towards +infinity. */
export function round0(v: BigValue): BigValue {
  return floor(v.plus(HALF));
}

export function sum(values: Iterable<Dec | undefined>): BigValue {
  let total = ZERO;
  for (const v of values) {
    const d = dec(v);
    if (d) total = total.plus(d);
  }
  return total;
}

/** Decimal equality of a lexical value with a computed one; an unreadable value is unequal. */
export function eq(v: Dec | undefined, expected: BigValue): boolean {
  const d = dec(v);
  return d !== undefined && d.eq(expected);
}

/** |a - b| < 1: the tolerance several VAT breakdown rules allow. */
export function within1(v: BigValue, expected: BigValue): boolean {
  return v.minus(expected).abs().lt(ONE);
}

/** Same decimal value (XPath general comparison on xs:decimal). */
export function sameRate(a: Dec | undefined, b: Dec | undefined): boolean {
  const x = dec(a);
  const y = dec(b);
  return x !== undefined && y !== undefined && x.eq(y);
}

/** Trimmed code as the artefacts compare it (normalize-space). */
export function code(v: string | undefined): string | undefined {
  return v === undefined ? undefined : v.trim();
}

export interface RuleDef {
  id: string;
  message: string;
  check(ctx: RuleContext): Violation[];
  /** Severity per syntax when the two artefacts differ (default error). */
  severity?: Severity | { cii: Severity; ubl: Severity };
}

/** Turn definitions into the Rule table of one syntax's rule set. */
export function forSyntax(defs: readonly RuleDef[], syntax: 'cii' | 'ubl'): Rule[] {
  return defs.map((d) => ({
    id: d.id,
    message: d.message,
    check: d.check,
    severity: d.severity === undefined ? 'error' : typeof d.severity === 'string' ? d.severity : d.severity[syntax],
  }));
}

/** One violation at a location (or none when the condition holds). */
export function unless(ok: boolean, location: string | undefined): Violation[] {
  return ok ? [] : [{ location }];
}

/** Violations for every item that fails the test. */
export function each<T>(items: readonly T[] | undefined, test: (item: T) => boolean, where: (item: T) => string | undefined): Violation[] {
  const out: Violation[] = [];
  if (!items) return out;
  for (const it of items) if (!test(it)) out.push({ location: where(it) });
  return out;
}
