/**
 * Small helpers shared by the EN 16931 business rules: presence tests, decimal comparisons with
 * the rounding the official artefacts use, and locations taken from the model's `$loc`.
 */
import { Big, MAX_DECIMAL_LENGTH, parseDec, type BigValue } from '../../model/decimal.js';
import type { Located, Dec } from '../../model/invoice.js';
import type { Rule, RuleContext, Severity, Violation } from '../types.js';
import { elementsNamedAnywhere, pathOf, type XmlElement } from '../../xml/dom.js';
import { PropertyMap } from '../../util/property-map.js';
import { NO_VIOLATIONS } from '../engine.js';
import { fieldLocationOf, hasOwnLocation, locationOf } from '../../syntax/reader-helpers.js';
import { pushLocated } from '../report-bounds.js';

export { NO_VIOLATIONS };

/** Present and not only whitespace (XPath `normalize-space(x) != ''`). */
export function filled(v: string | undefined | null): v is string {
  return v != null && v.trim() !== '';
}

/** Present at all, even empty (XPath `exists(x)`). */
export function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** The model object was read from an element that exists in the source (its `$loc.self` is set). */
export function exists(obj: Located | undefined): boolean {
  return hasOwnLocation(obj);
}

/** Where a field of a model object sits in the source; falls back to the object's own element. */
export function loc(obj: Located | undefined, field?: string): string | undefined {
  return locationOf(obj, field);
}

// Parsed decimals are immutable, so equal texts can share one value (invoices repeat amounts a lot).
const parsedDecimals = new Map<string, BigValue | null>();

export function dec(v: Dec | undefined): BigValue | undefined {
  if (v === undefined) return undefined;
  let d = parsedDecimals.get(v);
  if (d === undefined) {
    d = parseDec(v.trim()) ?? null;
    if (parsedDecimals.size > 50_000) parsedDecimals.clear();
    parsedDecimals.set(v, d);
  }
  return d ?? undefined;
}

export const ZERO = new Big('0');
export const ONE = new Big('1');
export const HUNDRED = new Big('100');
const HALF = new Big('0.5');

/** floor() for big decimals. */
function floor(v: BigValue): BigValue {
  const t = v.round(0, Big.roundDown);
  return t.gt(v) ? t.minus(ONE) : t;
}

/**
 * XPath `round(x * 100) div 100`: round to two decimals with halves going towards +infinity
 * (round(-2.5) = -2), which is what the official Schematron computes.
 */
export function round2(v: BigValue): BigValue {
  // Non-negative: halves towards +infinity is big.js's half-up, one rounding step instead of a
  // multiplication, a floor and a long division (same digits, sign and exponent; negatives keep the formula).
  if (v.s === 1) return v.round(2, Big.roundHalfUp);
  return floor(v.times(HUNDRED).plus(HALF)).div(HUNDRED);
}

/** XPath `round(x)`: nearest integer, halves towards +infinity. */
export function round0(v: BigValue): BigValue {
  if (v.s === 1) return v.round(0, Big.roundHalfUp);
  return floor(v.plus(HALF));
}

/**
 * Sum of lexical decimals (absent or unreadable ones count as nothing), exactly as adding them with
 * big.js: plain decimals are added as scaled integers (BigInt, exact), anything else through dec()
 * and big.js, and the two parts meet once at the end. Adding 10,000 line amounts with big.js
 * allocated ~8 MB per invoice; decimal addition is exact either way, so the value is the same.
 */
export function sum(values: Iterable<Dec | undefined>): BigValue {
  let units = 0n; // the plain decimals' total × 10^scale
  let scale = 0;
  let plain = false;
  let other = ZERO;
  for (const v of values) {
    if (v === undefined) continue;
    const t = v.trim();
    // Too long to be a number (MAX_DECIMAL_LENGTH): the general path, where dec() reads it as unreadable.
    const m = t.length > MAX_DECIMAL_LENGTH ? null : PLAIN_DECIMAL.exec(t);
    if (m === null || (m[2] === '' && !m[3])) {
      const d = dec(v); // the general path: undefined when unreadable, throws where big.js throws
      if (d) other = other.plus(d);
      continue;
    }
    const fraction = m[3] ?? '';
    if (fraction.length > scale) {
      units *= 10n ** BigInt(fraction.length - scale);
      scale = fraction.length;
    }
    let n = BigInt((m[2] || '0') + fraction) * 10n ** BigInt(scale - fraction.length);
    if (m[1] === '-') n = -n;
    units += n;
    plain = true;
  }
  if (!plain) return other;
  return fromScaled(units, scale).plus(other);
}

/** What big.js reads the same as parseDec does: optional minus, digits, optional fraction (never "+", never an exponent). */
const PLAIN_DECIMAL = /^(-?)(\d*)(?:\.(\d*))?$/;

function fromScaled(units: bigint, scale: number): BigValue {
  if (units === 0n) return ZERO;
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  return new Big(negative ? `-${text}` : text);
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
  check(ctx: RuleContext): readonly Violation[];
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

/**
 * One violation (or none when the condition holds) at a location, or at where a model object's field
 * was read (see loc), which is then resolved only when the condition fails: most rules hold, and
 * building their location strings up front was wasted work on every invoice.
 */
export function unless(ok: boolean, where: string | Located | undefined, field?: string): readonly Violation[] {
  if (ok) return NO_VIOLATIONS;
  return [{ location: typeof where === 'object' ? loc(where, field) : where }];
}

/**
 * The items of every line's list, in order, as one array (`lines.flatMap(pick)` without the
 * intermediate arrays: on a 10,000-line invoice each such rule built 10,000 of them).
 */
export function acrossLines<L, T>(lines: readonly L[], pick: (line: L) => readonly T[]): readonly T[] {
  let out: T[] | undefined;
  for (const line of lines) {
    const items = pick(line);
    if (items.length === 0) continue;
    out ??= [];
    for (const item of items) out.push(item);
  }
  return out ?? [];
}

/** Violations for every item that fails the test. */
export function each<T>(
  items: readonly T[] | undefined,
  test: (item: T) => boolean,
  where: (item: T) => string | undefined,
): readonly Violation[] {
  if (!items) return NO_VIOLATIONS;
  let out: Violation[] | undefined;
  for (let i = 0; i < items.length; i++) if (!test(items[i])) out = pushLocated(out, items[i], where);
  return out ?? NO_VIOLATIONS;
}

// ---------------------------------------------------------------------------------------------
// VAT scope. The artefacts count a VAT category only when it is declared for VAT (UBL: the
// category's TaxScheme/ID is "VAT"; CII: the trade tax's TypeCode is "VAT"). The model keeps the
// category code either way, so the rules ask the parsed document, once per invoice.

const scopes = new PropertyMap<object, Set<object>>();

function isVatDeclared(category: XmlElement, syntax: 'cii' | 'ubl'): boolean {
  const holder = category.parent;
  if (!holder) return false;
  if (syntax === 'cii') {
    const type = holder.children.find((c) => c.local === 'TypeCode');
    return type !== undefined && type.text.trim().toUpperCase() === 'VAT';
  }
  const scheme = holder.children.find((c) => c.local === 'TaxScheme');
  const id = scheme?.children.find((c) => c.local === 'ID');
  return id !== undefined && id.text.trim().toUpperCase() === 'VAT';
}

/** Model objects (lines, allowances, charges, VAT breakdowns) whose VAT category is not declared for VAT. */
export function nonVatScope(ctx: RuleContext): Set<object> {
  let set = scopes.get(ctx.invoice);
  if (set) return set;
  set = new Set();
  scopes.set(ctx.invoice, set);
  if (!ctx.doc) return set;
  // Undeclared categories are rare: find them in the document, then mark the model objects read from them.
  const holders = ctx.syntax === 'cii' ? ['ApplicableTradeTax', 'CategoryTradeTax'] : ['TaxCategory', 'ClassifiedTaxCategory'];
  const codeName = ctx.syntax === 'cii' ? 'CategoryCode' : 'ID';
  const undeclared = new Set<string>();
  for (const h of holders) {
    for (const holder of descendants(ctx, h)) {
      const category = kid(holder, codeName);
      if (category && !isVatDeclared(category, ctx.syntax)) undeclared.add(pathOf(category));
    }
  }
  if (undeclared.size === 0) return set;
  const mark = (obj: Located, field: string) => {
    const where = fieldLocationOf(obj, field);
    if (where && undeclared.has(where)) set!.add(obj);
  };
  const inv = ctx.invoice;
  for (const l of inv.lines) mark(l, 'vatCategoryCode');
  for (const a of inv.allowances) mark(a, 'vatCategoryCode');
  for (const c of inv.charges) mark(c, 'vatCategoryCode');
  for (const b of inv.vatBreakdown) mark(b, 'categoryCode');
  return set;
}

// ---------------------------------------------------------------------------------------------
// Document lookups for the few rules whose context the model cannot express. Locations use the
// format of pathOf and the readers' `$loc` (`/rsm:A[1]/ram:B[2]`); resolving one walks down from the
// root (a handful of lookups per document, far cheaper than indexing every element).

const resolved = new PropertyMap<object, Map<string, XmlElement | null>>();

export function resolvePath(ctx: RuleContext, where: string): XmlElement | undefined {
  let cache = resolved.get(ctx.doc);
  if (!cache) resolved.set(ctx.doc, (cache = new Map()));
  return lookup(ctx, cache, where) ?? undefined;
}

const childIndexes = new PropertyMap<XmlElement, Map<string, XmlElement>>();

/** "prefix:local#position" → child, built once per parent (large invoices have thousands of lines). */
function childIndex(parent: XmlElement): Map<string, XmlElement> {
  let map = childIndexes.get(parent);
  if (map) return map;
  map = new Map();
  const counts = new Map<string, number>();
  for (const c of parent.children) {
    const name = c.prefix ? `${c.prefix}:${c.local}` : c.local;
    const pos = (counts.get(name) ?? 0) + 1;
    counts.set(name, pos);
    map.set(name + '#' + pos, c);
  }
  childIndexes.set(parent, map);
  return map;
}

/** Resolve one step below the (cached) parent path: siblings share their parent's lookup. */
function lookup(ctx: RuleContext, cache: Map<string, XmlElement | null>, where: string): XmlElement | null {
  const hit = cache.get(where);
  if (hit !== undefined) return hit;
  const cut = where.lastIndexOf('/');
  const step = where.slice(cut + 1);
  const open = step.lastIndexOf('[');
  const colon = step.indexOf(':');
  let el: XmlElement | null = null;
  if (open > 0 && step.endsWith(']') && !step.startsWith('@')) {
    const prefix = colon > 0 && colon < open ? step.slice(0, colon) : '';
    const local = step.slice(prefix ? colon + 1 : 0, open);
    const pos = Number(step.slice(open + 1, -1));
    if (cut === 0) {
      const r = ctx.doc.root;
      el = r.local === local && r.prefix === prefix && pos === 1 ? r : null;
    } else if (cut > 0) {
      const parent = lookup(ctx, cache, where.slice(0, cut));
      if (parent) el = childIndex(parent).get(step.slice(0, open) + '#' + pos) ?? null;
    }
  }
  cache.set(where, el);
  return el;
}

/** The source element a model object was read from, when the reader recorded it. */
export function elementOf(ctx: RuleContext, obj: Located | undefined, field = 'self'): XmlElement | undefined {
  const where = fieldLocationOf(obj, field);
  return where ? resolvePath(ctx, where) : undefined;
}

/** Children of the document root with this local name (UBL top-level aggregates). */
export function rootChildren(ctx: RuleContext, local: string): XmlElement[] {
  return ctx.doc.root.children.filter((c) => c.local === local);
}

/** All elements with this local name, anywhere, in document order (the document's shared index; do not modify). */
export function descendants(ctx: RuleContext, local: string): XmlElement[] {
  return elementsNamedAnywhere(ctx.doc, local);
}

export const kid = (el: XmlElement | undefined, local: string) => el?.children.find((c) => c.local === local);

/** Every child with this local name (XPath `el/x`), none for no element. */
export const kids = (el: XmlElement | undefined, local: string): XmlElement[] => (el ? el.children.filter((c) => c.local === local) : []);

const indicatorExceptions = new PropertyMap<object, Map<string, boolean | undefined>>();

/**
 * Allowances/charges whose indicator is not plainly "true" or "false", by location, with the
 * value the artefacts read ("1"/"0" are booleans too; anything else matches neither kind).
 * Such elements are rare, so only they are located.
 */
function unusualIndicators(ctx: RuleContext): Map<string, boolean | undefined> {
  let map = indicatorExceptions.get(ctx.doc);
  if (map) return map;
  map = new Map();
  indicatorExceptions.set(ctx.doc, map);
  const local = ctx.syntax === 'cii' ? 'SpecifiedTradeAllowanceCharge' : 'AllowanceCharge';
  for (const el of descendants(ctx, local)) {
    const ind = kid(el, 'ChargeIndicator');
    const t = (ctx.syntax === 'cii' ? kid(ind, 'Indicator') : ind)?.text.trim();
    if (t === 'true' || t === 'false') continue;
    map.set(pathOf(el), t === '1' ? true : t === '0' ? false : undefined);
  }
  return map;
}

/** The model's allowances (charge=false) or charges (charge=true) whose indicator really says so. */
export function acList<T extends Located>(ctx: RuleContext, list: readonly T[], charge: boolean): T[] {
  const unusual = unusualIndicators(ctx);
  if (unusual.size === 0) return list as T[];
  return list.filter((a) => {
    // Not a.$loc: reading it computes and settles every location of the object (see locationOf).
    const where = fieldLocationOf(a, 'self');
    return where === undefined || !unusual.has(where) || unusual.get(where) === charge;
  });
}
