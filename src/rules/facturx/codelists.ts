/**
 * The code-list asserts of the Factur-X profile schematrons (FX-SCH-A-* "value of X is not
 * allowed"), evaluated as data: each generated entry carries the rule context, the tested node and
 * the accepted codes (Factur-X code database 1.09.2). Like the official asserts, an empty value is
 * accepted (the list is checked only when a value is given) and values are compared exactly.
 */
import { elementsByLocalName, type XmlDoc, type XmlElement } from '../../xml/dom.js';
import { CODELISTS } from '../data/codelists.js';
import type { Rule } from '../types.js';
import { NS, where } from '../xrechnung/dom.js';
import { compileMatch, compileSelect, lastLocalName } from './xpath-match.js';

/** Elements by local name: the document's shared index (src/xml/dom.ts). */
export function elementsNamed(doc: XmlDoc, local: string): XmlElement[] {
  return elementsByLocalName(doc).get(local) ?? [];
}

const contextCache = new WeakMap<XmlDoc, Map<string, XmlElement[]>>();

/**
 * How a context is looked up, compiled once per context string (contexts come from the rule tables,
 * never from documents): a plain absolute path walks the path index, anything else is matched
 * against the elements named like its last step. Compiling per document (regex test, splitting the
 * path, building string keys) cost more than the lookups themselves on a 26 KB invoice.
 */
type CompiledContext = { plain: ContextStep } | { match: ReturnType<typeof compileMatch>; names: string[] };

/**
 * The plain contexts' steps as one trie shared by all contexts (not by documents): contexts share
 * long prefixes (/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/...), so per document each
 * distinct prefix is resolved once (see resolveStep) instead of once per context.
 */
interface ContextStep {
  /** Index into a document's resolved-step array. */
  id: number;
  parent: ContextStep | undefined;
  ns: string;
  local: string;
  next: Map<string, ContextStep>;
}
const contextSteps: ContextStep[] = [];
const topSteps = new Map<string, ContextStep>();

function stepUnder(parent: ContextStep | undefined, ns: string, local: string): ContextStep {
  const siblings = parent ? parent.next : topSteps;
  const key = `${ns} ${local}`;
  let step = siblings.get(key);
  if (!step) {
    step = { id: contextSteps.length, parent, ns, local, next: new Map() };
    contextSteps.push(step);
    siblings.set(key, step);
  }
  return step;
}

const compiledContexts = new Map<string, CompiledContext>();

function compileContext(context: string): CompiledContext {
  let c = compiledContexts.get(context);
  if (c) return c;
  if (PLAIN_PATH.test(context)) {
    let step: ContextStep | undefined;
    for (const part of context.slice(1).split('/')) {
      const [prefix, local] = part.split(':');
      const ns = NS[prefix];
      if (ns === undefined) throw new Error(`unknown prefix ${prefix} in ${context}`);
      step = stepUnder(step, ns, local);
    }
    c = { plain: step! };
  } else c = { match: compileMatch(context), names: [...new Set(lastLocalName(context))] };
  compiledContexts.set(context, c);
  return c;
}

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
  const compiled = compileContext(context);
  let out: XmlElement[];
  if ('plain' in compiled) out = resolveStep(pathIndex(doc), compiled.plain)?.elements ?? NONE;
  else {
    out = [];
    for (const name of compiled.names) for (const el of elementsNamed(doc, name)) if (compiled.match(el)) out.push(el);
  }
  cache.set(context, out);
  return out;
}

/** An absolute path of element steps without predicates (most profile contexts). */
const PLAIN_PATH = /^(?:\/[A-Za-z]+:[A-Za-z_][\w.-]*)+$/;

/**
 * The document's element paths as a trie (local name -> namespace -> node), in document order.
 * Keyed by name then namespace so that neither building nor looking up allocates a string key.
 */
interface PathNode {
  elements: XmlElement[];
  next: Map<string, Map<string, PathNode>>;
}
interface PathIndex {
  root: PathNode;
  /** Context steps already resolved on this document, by ContextStep.id (null: not in the document). */
  resolved: (PathNode | null | undefined)[];
}
const pathIndexes = new WeakMap<XmlDoc, PathIndex>();

function pathIndex(doc: XmlDoc): PathIndex {
  let index = pathIndexes.get(doc);
  if (index) return index;
  const root: PathNode = { elements: [], next: new Map() };
  // Document order (preorder), without recursion.
  const stack: XmlElement[] = [doc.root];
  const nodes: PathNode[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    const parent = nodes.pop()!;
    let byNs = parent.next.get(el.local);
    if (!byNs) parent.next.set(el.local, (byNs = new Map()));
    let node = byNs.get(el.ns);
    if (!node) byNs.set(el.ns, (node = { elements: [], next: new Map() }));
    node.elements.push(el);
    for (let i = el.children.length - 1; i >= 0; i--) {
      stack.push(el.children[i]);
      nodes.push(node);
    }
  }
  index = { root, resolved: [] };
  pathIndexes.set(doc, index);
  return index;
}

const NONE: XmlElement[] = [];

/** The document's path node for a context step, resolving (and remembering) its parent steps first. */
function resolveStep(index: PathIndex, step: ContextStep): PathNode | null {
  const known = index.resolved[step.id];
  if (known !== undefined) return known;
  const parent = step.parent ? resolveStep(index, step.parent) : index.root;
  const node = parent?.next.get(step.local)?.get(step.ns) ?? null;
  index.resolved[step.id] = node;
  return node;
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
