/**
 * XPath semantics the EXTENDED-CTC-FR asserts rely on, over the parsed tree: decimal casts, `round(x * 100) div 100`,
 * general comparisons on string values, and the node lists of the official rule contexts. Shared by the CII and UBL
 * tables of this profile.
 */
import { Big, parseDec, type BigValue } from '../../model/decimal.js';
import type { XmlElement } from '../../xml/dom.js';
import type { Rule, Severity } from '../types.js';
import { text } from '../xrechnung/dom.js';
import { locatedAt } from '../report-bounds.js';
import { pathOf } from '../../xml/dom.js';
import type { XmlDoc } from '../../xml/dom.js';

export const ZERO = new Big('0');
export const HUNDRED = new Big('100');
const HALF = new Big('0.5');
const CENT = new Big('0.01');

/** xs:decimal() of a string value (XPath trims it); undefined for what the cast would refuse (the artefact stops there). */
export function decimal(s: string | undefined): BigValue | undefined {
  if (s === undefined) return undefined;
  const t = s.trim();
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t) ? parseDec(t.replace(/^\+/, '')) : undefined;
}

/** XPath `round(x * 100) div 100`: halves towards +infinity. */
export function round2(v: BigValue): BigValue {
  const scaled = v.times(HUNDRED).plus(HALF);
  let t = scaled.round(0, Big.roundDown);
  if (t.gt(scaled)) t = t.minus(new Big('1'));
  return t.div(HUNDRED);
}

/** Sum of decimal string values (unreadable ones count as nothing), rounded as `round(sum(...) * 100) div 100`. */
export function roundedSum(values: readonly (string | undefined)[]): BigValue {
  let total = ZERO;
  for (const v of values) {
    const d = decimal(v);
    if (d) total = total.plus(d);
  }
  return round2(total);
}

/** `abs(a) le 0.01 * n`. */
export function withinCents(diff: BigValue, n: number): boolean {
  return diff.abs().lte(CENT.times(new Big(String(n))));
}

/** XPath `normalize-space()`. */
export const ns = (s: string | undefined): string => (s ?? '').replace(/[ \t\r\n]+/g, ' ').trim();

/** The string values of a list of elements. */
export const texts = (els: readonly XmlElement[]): string[] => els.map(text);

/** A rule that checks each node of a context and reports the ones that fail, at the node. */
export function onEach(
  id: string,
  severity: Severity,
  message: string,
  nodes: (doc: XmlDoc) => readonly XmlElement[],
  holds: (node: XmlElement, doc: XmlDoc) => boolean,
): Rule {
  return {
    id,
    severity,
    message,
    check: (ctx) => {
      const out = [];
      let n = 0;
      for (const node of nodes(ctx.doc)) if (!holds(node, ctx.doc)) out.push(locatedAt<XmlElement>(pathOf)(node, n++));
      return out;
    },
  };
}

/** `contains(' a b c ', concat(' ', normalize-space(.), ' '))` with no blank inside: the value is one of the codes. */
export function inList(list: ReadonlySet<string>, value: string): boolean {
  const v = ns(value);
  return !v.includes(' ') && (v === '' ? false : list.has(v));
}
