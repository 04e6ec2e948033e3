/**
 * The code-list asserts of the Factur-X profile schematrons (FX-SCH-A-* "value of X is not
 * allowed"), evaluated as data: each generated entry carries the rule context, the tested node and
 * the accepted codes (Factur-X code database 1.09.2). Like the official asserts, an empty value is
 * accepted (the list is checked only when a value is given) and values are compared exactly.
 */
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import { CODELISTS } from '../data/codelists.js';
import type { Rule } from '../types.js';
import { allElements, where } from '../xrechnung/dom.js';
import { compileMatch, compileSelect, lastLocalName } from './xpath-match.js';

/** Elements by local name, built once per document. */
const byLocal = new WeakMap<XmlDoc, Map<string, XmlElement[]>>();
export function elementsNamed(doc: XmlDoc, local: string): XmlElement[] {
  let m = byLocal.get(doc);
  if (!m) {
    m = new Map();
    for (const el of allElements(doc)) {
      let l = m.get(el.local);
      if (!l) m.set(el.local, (l = []));
      l.push(el);
    }
    byLocal.set(doc, m);
  }
  return m.get(local) ?? [];
}

/** The elements a rule context matches, looked up by the context's last element names. */
export function contextNodes(doc: XmlDoc, context: string): XmlElement[] {
  const match = compileMatch(context);
  const names = lastLocalName(context);
  const out: XmlElement[] = [];
  for (const name of new Set(names)) for (const el of elementsNamed(doc, name)) if (match(el)) out.push(el);
  return out;
}

function describeTarget(target: string): string {
  return target === '.' ? 'value' : target.startsWith('@') ? `attribute ${target}` : target;
}

export function codeListRules(set: string): Rule[] {
  const entries = CODELISTS[set] ?? {};
  const rules: Rule[] = [];
  for (const [id, entry] of Object.entries(entries)) {
    if (!id.startsWith('FX-SCH-A-') || !entry.context || !entry.target || !entry.guarded) continue;
    const context = entry.context;
    const selectTarget = compileSelect(entry.target);
    const accepted = new Set(entry.codes);
    const contextName = lastLocalName(context)[0];
    rules.push({
      id,
      severity: 'error',
      message: `The ${describeTarget(entry.target)} of ${contextName.replace(/\[.*$/, '')} is not a code this profile allows.`,
      check(ctx) {
        const out = [];
        for (const node of contextNodes(ctx.doc, context)) {
          const values = selectTarget(node);
          // The official assert: string-length($value) = 0 or the code database holds $value.
          if (values.length === 0 || (values.length === 1 && values[0] === '')) continue;
          if (!values.some((v) => accepted.has(v))) out.push({ location: where(node) });
        }
        return out;
      },
    });
  }
  return rules;
}

export type { XmlElement };
