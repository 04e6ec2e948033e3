/**
 * How the Peppol rule tables are written and run. The official schematron is a list of patterns; each pattern
 * visits every element once, and an element is checked by the first rule of the pattern whose context matches
 * it (so an allowance with a percentage but no base amount gets R041 only, never R040). Here a pattern is an
 * ordered list of ContextRule: the local names its context can have (for dispatch), a match function (the rest
 * of the context: parents, namespaces, predicates) and its asserts, each a small pure test under its official id.
 *
 * One walk over the document's elements evaluates every pattern of a table (evaluatePatterns), and the result
 * is kept on the document, so the engine's single rules only look their id up.
 */
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
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
  /** The rest of the context: namespace, parents, predicates. */
  match(el: XmlElement, env: DocEnv): boolean;
  asserts: readonly Assert[];
}

export type Pattern = readonly ContextRule[];

/** A table compiled for evaluation: per local name, the candidate rules of each pattern in order. */
export interface CompiledTable {
  patterns: readonly Pattern[];
  /** local name → for each pattern with candidates, its candidate rules (wildcard rules merged in order). */
  byName: Map<string, (readonly ContextRule[])[]>;
  /** Patterns with a wildcard rule: an element of any other name is offered these. */
  wildcard: (readonly ContextRule[])[];
  /** Every assert id, in table order. */
  ids: readonly string[];
}

export function compileTable(patterns: readonly Pattern[]): CompiledTable {
  const names = new Set<string>();
  for (const p of patterns) for (const r of p) if (r.names !== '*') for (const n of r.names) names.add(n);
  const byName = new Map<string, (readonly ContextRule[])[]>();
  for (const n of names) {
    const perPattern: (readonly ContextRule[])[] = [];
    for (const p of patterns) {
      const rules = p.filter((r) => r.names === '*' || r.names.includes(n));
      if (rules.length > 0) perPattern.push(rules);
    }
    byName.set(n, perPattern);
  }
  const wildcard = patterns.map((p) => p.filter((r) => r.names === '*')).filter((rs) => rs.length > 0);
  const ids: string[] = [];
  for (const p of patterns) for (const r of p) for (const a of r.asserts) if (!ids.includes(a.id)) ids.push(a.id);
  return { patterns, byName, wildcard, ids };
}

/** A violation the report will not list (beyond MAX_FINDINGS_PER_RULE): no location needed. */
const UNLISTED: Violation = Object.freeze({});

/**
 * Evaluate a compiled table on a document: the violations of each assert id that fired, in document order.
 * An assert whose test throws (a value the official test could not evaluate either) is taken as holding.
 */
export function evaluatePatterns(doc: XmlDoc, table: CompiledTable, env: DocEnv): Map<string, Violation[]> {
  const fired = new Map<string, Violation[]>();
  const elements = allElements(doc);
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i];
    const candidates = table.byName.get(el.local) ?? table.wildcard;
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
          let list = fired.get(a.id);
          if (!list) fired.set(a.id, (list = []));
          list.push(list.length < MAX_FINDINGS_PER_RULE ? { location: where(el) } : UNLISTED);
        }
        break; // first matching rule of the pattern only
      }
    }
  }
  return fired;
}
