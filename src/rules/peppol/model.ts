/**
 * How the Peppol rule tables are written and run. The official schematron is a list of patterns; each pattern
 * visits every element once, and an element is checked by the first rule of the pattern whose context matches
 * it (so an allowance with a percentage but no base amount gets R041 only, never R040). Here a pattern is an
 * ordered list of ContextRule: the local names its context can have (for dispatch), a match function (the rest
 * of the context: parents, namespaces, predicates) and its asserts, each a small pure test under its official id.
 *
 * One pass over the elements the rules name evaluates every pattern of a table (evaluatePatterns), and the result
 * is kept on the document, so the engine's single rules only look their id up.
 *
 * What a walk offers an element is narrowed before it starts, so that rules which cannot match are not called
 * at all: the national rules' country tests are document-level (`when`, tested once per document), and a rule
 * whose context needs an attribute (`cbc:EndpointID[@schemeID = '0088']`) is not offered to elements without any.
 * Most elements of an invoice have no attributes (the line's IDs, the tax categories'), and a Belgian invoice has
 * no national rule to run: offering them every identifier and national rule was most of the table's cost.
 */
import { elementsNamedAnywhere, type XmlDoc, type XmlElement } from '../../xml/dom.js';
import type { Violation } from '../types.js';
import { allElements, where } from '../xrechnung/dom.js';
import { MAX_FINDINGS_PER_RULE } from '../report-bounds.js';
import type { DocEnv } from './env.js';

export type Flag = 'fatal' | 'warning';

export interface Assert {
  id: string;
  flag: Flag;
  /** Our own words. */
  message: string;
  /** True when the assertion holds on the context element. */
  test(el: XmlElement, env: DocEnv): boolean;
}

export interface ContextRule {
  /** The local names the context element can have; '*' for any element. */
  names: readonly string[] | '*';
  /**
   * A document-level condition `match` also tests (the document variables of the national rules: `$supplierCountry
   * = 'NO'`): tested once per document, and while it is false the rule is not offered. An error in it counts as false,
   * as it would in `match`.
   */
  when?: (env: DocEnv) => boolean;
  /** The context element must carry an attribute for `match` to hold (`[@schemeID = ...]`): not offered to elements without any. */
  needsAttribute?: boolean;
  /** The rest of the context: namespace, parents, predicates. */
  match(el: XmlElement, env: DocEnv): boolean;
  asserts: readonly Assert[];
}

export type Pattern = readonly ContextRule[];

/** Per pattern with candidates, its candidate rules in order. */
type Offer = readonly (readonly ContextRule[])[];

/** What a walk offers an element: by local name (wildcard rules merged in order), for elements with and without attributes. */
interface Offers {
  byName: Map<string, Offer>;
  byNameBare: Map<string, Offer>;
  /** For a name no rule names: the patterns with a wildcard rule. */
  wildcard: Offer;
  wildcardBare: Offer;
}

/** A table compiled for evaluation. */
export interface CompiledTable {
  patterns: readonly Pattern[];
  /** Every assert id, in table order. */
  ids: readonly string[];
  /** The rules' document-level conditions (`when`), each once (rules of a country share theirs), in table order. */
  conditions: readonly ((env: DocEnv) => boolean)[];
  /** The offers for each combination of conditions that hold ('1' / '0' per condition), built on first use. */
  offers: Map<string, Offers>;
}

/** Distinct combinations of document conditions kept (they follow the countries of the parties: a handful in practice). */
const MAX_OFFER_SETS = 64;

export function compileTable(patterns: readonly Pattern[]): CompiledTable {
  const ids: string[] = [];
  const conditions: ((env: DocEnv) => boolean)[] = [];
  for (const p of patterns)
    for (const r of p) {
      if (r.when && !conditions.includes(r.when)) conditions.push(r.when);
      for (const a of r.asserts) if (!ids.includes(a.id)) ids.push(a.id);
    }
  return { patterns, ids, conditions, offers: new Map() };
}

function buildOffers(patterns: readonly Pattern[], offered: (r: ContextRule) => boolean): Offers {
  const names = new Set<string>();
  for (const p of patterns) for (const r of p) if (r.names !== '*' && offered(r)) for (const n of r.names) names.add(n);
  const offerOf = (accept: (r: ContextRule) => boolean): Offer =>
    patterns.map((p) => p.filter((r) => offered(r) && accept(r))).filter((rs) => rs.length > 0);
  const byName = new Map<string, Offer>();
  const byNameBare = new Map<string, Offer>();
  for (const n of names) {
    const named = (r: ContextRule) => r.names === '*' || r.names.includes(n);
    byName.set(n, offerOf(named));
    byNameBare.set(
      n,
      offerOf((r) => named(r) && !r.needsAttribute),
    );
  }
  return {
    byName,
    byNameBare,
    wildcard: offerOf((r) => r.names === '*'),
    wildcardBare: offerOf((r) => r.names === '*' && !r.needsAttribute),
  };
}

/** The offers for this document: which conditions hold is worked out once, here. */
function offersFor(table: CompiledTable, env: DocEnv): Offers {
  let key = '';
  for (const when of table.conditions) {
    let holds: boolean;
    try {
      holds = when(env);
    } catch {
      holds = false;
    }
    key += holds ? '1' : '0';
  }
  let offers = table.offers.get(key);
  if (!offers) {
    const off = new Set(table.conditions.filter((_, i) => key[i] === '0'));
    offers = buildOffers(table.patterns, (r) => !(r.when && off.has(r.when)));
    if (table.offers.size >= MAX_OFFER_SETS) table.offers.clear();
    table.offers.set(key, offers);
  }
  return offers;
}

/** A violation the report will not list (beyond MAX_FINDINGS_PER_RULE): no location needed. */
const UNLISTED: Violation = Object.freeze({});

/** Every pattern's first matching rule on one element; its failing asserts added to `failed` (element per assert id). */
function offer(candidates: Offer, el: XmlElement, env: DocEnv, failed: Map<string, XmlElement[]>): void {
  for (let p = 0; p < candidates.length; p++) {
    const rules = candidates[p];
    for (let r = 0; r < rules.length; r++) {
      const rule = rules[r];
      let matches: boolean;
      try {
        matches = rule.match(el, env);
      } catch {
        matches = false; // an error in a match pattern's predicate: XSLT takes the pattern as not matching
      }
      if (!matches) continue;
      for (const a of rule.asserts) {
        let holds: boolean;
        try {
          holds = a.test(el, env);
        } catch {
          holds = true;
        }
        if (holds) continue;
        const list = failed.get(a.id);
        if (list) list.push(el);
        else failed.set(a.id, [el]);
      }
      break; // first matching rule of the pattern only
    }
  }
}

/**
 * Evaluate a compiled table on a document: the violations of each assert id that fired, in document order.
 * An assert whose test throws (a value the official test could not evaluate either) is taken as holding.
 *
 * Only elements some rule names are visited, read name by name from the document's index of local names
 * (xml/dom.ts; in a whole validation the syntax rules' walk has filled it): a typical invoice has rules for a third
 * of its elements (in whole validations of our 7 KB Belgian test invoice, 8% less time in this function than a walk
 * over every element, same-process A/B). An assert whose rules name several elements then collects its failures
 * name by name; such lists are put back in document order. A table with wildcard rules (none today) is evaluated
 * over every element.
 */
export function evaluatePatterns(doc: XmlDoc, table: CompiledTable, env: DocEnv): Map<string, Violation[]> {
  const failed = new Map<string, XmlElement[]>();
  const { byName, byNameBare, wildcard, wildcardBare } = offersFor(table, env);
  if (wildcard.length > 0 || wildcardBare.length > 0) {
    const elements = allElements(doc);
    for (let i = 0; i < elements.length; i++) {
      const el = elements[i];
      offer(el.attrs.length === 0 ? (byNameBare.get(el.local) ?? wildcardBare) : (byName.get(el.local) ?? wildcard), el, env, failed);
    }
  } else {
    for (const [name, withAttrs] of byName) {
      const named = elementsNamedAnywhere(doc, name);
      if (named.length === 0) continue;
      const bare = byNameBare.get(name)!;
      for (let i = 0; i < named.length; i++) {
        const el = named[i];
        offer(el.attrs.length === 0 ? bare : withAttrs, el, env, failed);
      }
    }
  }
  const fired = new Map<string, Violation[]>();
  let position: Map<XmlElement, number> | undefined;
  for (const [id, elements] of failed) {
    if (elements.some((el) => el.local !== elements[0].local)) {
      position ??= new Map(allElements(doc).map((el, i) => [el, i]));
      elements.sort((x, y) => position!.get(x)! - position!.get(y)!);
    }
    fired.set(
      id,
      elements.map((el, i) => (i < MAX_FINDINGS_PER_RULE ? { location: where(el) } : UNLISTED)),
    );
  }
  return fired;
}
