/**
 * The code-list asserts of the Factur-X profile schematrons (FX-SCH-A-* "value of X is not
 * allowed"), evaluated as data: each generated entry carries the rule context, the tested node and
 * the accepted codes (Factur-X code database 1.09.2). Like the official asserts, an empty value is
 * accepted (the list is checked only when a value is given) and values are compared exactly.
 */
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import { CODELISTS } from '../data/codelists.js';
import type { Rule } from '../types.js';
import { NS, allElements, where } from '../xrechnung/dom.js';
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

const contextCache = new WeakMap<XmlDoc, Map<string, XmlElement[]>>();

/**
 * The elements a rule context matches, looked up by the context's last element names. Cached per
 * document: the code-list, structural and not-used rules of a profile share many contexts.
 * Callers must not modify the returned array.
 */
export function contextNodes(doc: XmlDoc, context: string): XmlElement[] {
  let cache = contextCache.get(doc);
  if (!cache) contextCache.set(doc, (cache = new Map()));
  const hit = cache.get(context);
  if (hit) return hit;
  let out: XmlElement[];
  if (PLAIN_PATH.test(context)) out = byPlainPath(doc, context);
  else {
    const match = compileMatch(context);
    out = [];
    for (const name of new Set(lastLocalName(context))) for (const el of elementsNamed(doc, name)) if (match(el)) out.push(el);
  }
  cache.set(context, out);
  return out;
}

/** An absolute path of element steps without predicates (most profile contexts). */
const PLAIN_PATH = /^(?:\/[A-Za-z]+:[A-Za-z_][\w.-]*)+$/;

/** The document's element paths as a trie: (parent path, namespace, name) -> path number -> elements. */
interface PathIndex {
  step: Map<string, number>;
  elements: XmlElement[][];
}
const pathIndexes = new WeakMap<XmlDoc, PathIndex>();

function pathIndex(doc: XmlDoc): PathIndex {
  let index = pathIndexes.get(doc);
  if (index) return index;
  const idx: PathIndex = { step: new Map(), elements: [] };
  // Document order (preorder), without recursion.
  const stack: [XmlElement, number][] = [[doc.root, -1]];
  while (stack.length) {
    const [el, parent] = stack.pop()!;
    const key = `${parent}|${el.ns}|${el.local}`;
    let id = idx.step.get(key);
    if (id === undefined) {
      id = idx.elements.length;
      idx.step.set(key, id);
      idx.elements.push([]);
    }
    idx.elements[id].push(el);
    for (let i = el.children.length - 1; i >= 0; i--) stack.push([el.children[i], id]);
  }
  pathIndexes.set(doc, (index = idx));
  return index;
}

function byPlainPath(doc: XmlDoc, context: string): XmlElement[] {
  const idx = pathIndex(doc);
  let id = -1;
  for (const step of context.slice(1).split('/')) {
    const [prefix, local] = step.split(':');
    const ns = NS[prefix];
    if (ns === undefined) throw new Error(`unknown prefix ${prefix} in ${context}`);
    const next = idx.step.get(`${id}|${ns}|${local}`);
    if (next === undefined) return [];
    id = next;
  }
  return idx.elements[id];
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
