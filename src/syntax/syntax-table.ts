/**
 * A small interpreter for the EN 16931 syntax binding rules (CII-SR/CII-DT, UBL-SR/UBL-CR/UBL-DT).
 *
 * Almost all of these rules say "element X is not used by EN 16931" or "element X occurs at most
 * once" under some context element. They are written as data in a compact line format (see
 * `parseRuleTable`), and evaluated in one pass per document:
 *
 *  1. one walk of the tree sorts every element into the contexts it belongs to (a syntax-specific
 *     classifier, honouring Schematron's "first matching rule wins" within a pattern);
 *  2. for each context node, the "must be absent" rules are merged into a trie of child names and
 *     only the children that exist in both the trie and the document are visited;
 *  3. the few counting rules and the hand-written rules run over their context nodes.
 *
 * The result is cached per parsed document, so the many `Rule.check` calls of a rule table share
 * the single evaluation.
 */
import { nameIndexCollector, pathOf, type XmlDoc, type XmlElement } from '../xml/dom.js';
import type { Rule, RuleContext, RuleFamily, Severity, Violation } from '../rules/types.js';
import { PropertyMap } from '../util/property-map.js';
import { NO_VIOLATIONS, NOTHING_FIRED } from '../rules/engine.js';
import { MAX_FINDINGS_PER_RULE, UNLISTED } from '../rules/report-bounds.js';

/** One step of a child path: an element by namespace and local name. */
export interface Step {
  ns: string;
  local: string;
}

/** A relative child path, optionally ending on an attribute (no namespace). */
export interface ChildPath {
  steps: Step[];
  attr?: string;
  /** `//a/b`: the first step may be anywhere in the document, not only below the context node. */
  anywhere?: boolean;
}

export type TableRuleKind = 'absent' | 'max' | 'exactly';

/** A rule written as data: a context, a kind and one or more paths (a union, as in `(A|B)/C`). */
export interface TableRule {
  id: string;
  context: string;
  kind: TableRuleKind;
  /** Bound for `max` / `exactly`. */
  n: number;
  paths: ChildPath[];
}

/** What a hand-written rule sees: its context node and the document index. */
export type CustomCheck = (node: XmlElement, index: DocIndex) => boolean;

/** A rule written in code: `fails` returns true when the assertion does not hold on `node`. */
export interface CustomRule {
  id: string;
  context: string;
  fails: CustomCheck;
  message?: string;
}

/** Everything one walk of the document yields. */
export interface DocIndex {
  doc: XmlDoc;
  /** Context name → the elements that are that context (document order). */
  contexts: Map<string, XmlElement[]>;
  /** Local name → elements of that name anywhere (only the names some rule asks for). */
  byLocal: Map<string, XmlElement[]>;
  /** Attribute local name (no namespace) → elements carrying it (only the names some rule asks for). */
  attributes: Map<string, XmlElement[]>;
}

/**
 * Which rule context an element is, if any. Within one Schematron pattern an element is handled
 * by the first rule whose context matches it, so one context per element is all there is.
 */
export type Classifier = (el: XmlElement) => string | undefined;

/** What a top-down classifier knows of an element: its rule context, and whatever its children need. */
export interface PlaceState {
  readonly context: string | undefined;
}

/**
 * A classifier that works top-down: an element's context follows from its own name and its parent's
 * state, so no element walks up its ancestors (on a 10,000-line invoice the ancestor tests of a plain
 * Classifier were a third of the syntax rules' time). `forDocument` returns a fresh stepper per
 * document, which may cache facts of that document only (never across documents: names are slices
 * of the document's text, and keeping one would keep the whole text alive).
 */
export interface TopDownClassifier {
  /** The state of the document node, the root element's parent. */
  readonly documentState: PlaceState;
  forDocument(): (el: XmlElement, parent: PlaceState) => PlaceState;
}

export function nameKey(ns: string, local: string): string {
  return ns + ' ' + local;
}

/** Elements named (ns, local) anywhere in the document; `local` must be one the rule set indexes. */
export function elementsNamed(index: DocIndex, ns: string, local: string): XmlElement[] {
  const all = index.byLocal.get(local);
  if (!all) return [];
  return all.filter((e) => e.ns === ns);
}

/** One walk: contexts, and the element and attribute names the rules look up document-wide. */
export function indexDocument(
  doc: XmlDoc,
  classify: Classifier | TopDownClassifier,
  names: ReadonlySet<string> = new Set(),
  attributeNames: ReadonlySet<string> = new Set(),
): DocIndex {
  const contexts = new Map<string, XmlElement[]>();
  const byLocal = new Map<string, XmlElement[]>();
  const attributes = new Map<string, XmlElement[]>();
  // The business rules' name index (elementsNamedAnywhere) is filled on this walk, not on one of its own.
  const nameIndex = nameIndexCollector(doc);
  const collectName = nameIndex?.collect;
  const record = (el: XmlElement, kind: string | undefined): void => {
    if (collectName !== undefined) collectName(el);
    if (names.has(el.local)) {
      const list = byLocal.get(el.local);
      if (list) list.push(el);
      else byLocal.set(el.local, [el]);
    }
    if (attributeNames.size > 0) {
      for (const a of el.attrs) {
        if (a.ns !== '' || !attributeNames.has(a.local)) continue;
        const holders = attributes.get(a.local);
        if (holders) holders.push(el);
        else attributes.set(a.local, [el]);
      }
    }
    if (kind !== undefined) {
      const nodes = contexts.get(kind);
      if (nodes) nodes.push(el);
      else contexts.set(kind, [el]);
    }
  };
  // Recursion is bounded: the XML parser refuses documents deeper than its depth limit.
  if (typeof classify === 'function') {
    const visit = (el: XmlElement): void => {
      record(el, classify(el));
      const children = el.children;
      for (let i = 0; i < children.length; i++) visit(children[i]);
    };
    visit(doc.root);
  } else {
    const step = classify.forDocument();
    const visit = (el: XmlElement, parent: PlaceState): void => {
      const state = step(el, parent);
      record(el, state.context);
      const children = el.children;
      for (let i = 0; i < children.length; i++) visit(children[i], state);
    };
    visit(doc.root, classify.documentState);
  }
  nameIndex?.done();
  return { doc, contexts, byLocal, attributes };
}

// ---------------------------------------------------------------------------------------------
// Path helpers shared by the table interpreter and the hand-written rules.

/** Children of `el` named (ns, local). */
export function kids(el: XmlElement, ns: string, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) if (c.local === local && c.ns === ns) out.push(c);
  return out;
}

/** Nodes selected by a child path from `el` (XPath `a/b/c`, document order per step). */
export function selectPath(el: XmlElement, steps: readonly Step[]): XmlElement[] {
  let current: XmlElement[] = [el];
  for (const s of steps) {
    const next: XmlElement[] = [];
    for (const n of current) for (const c of n.children) if (c.local === s.local && c.ns === s.ns) next.push(c);
    if (next.length === 0) return next;
    current = next;
  }
  return current;
}

export function hasAttr(el: XmlElement, local: string): boolean {
  for (const a of el.attrs) if (a.local === local && a.ns === '') return true;
  return false;
}

export function attrValue(el: XmlElement, local: string): string | undefined {
  for (const a of el.attrs) if (a.local === local && a.ns === '') return a.value;
  return undefined;
}

/** Count of what a path selects: elements, or attributes when the path ends on one. */
export function countPath(el: XmlElement, path: ChildPath): number {
  return countFrom(el, path.steps, 0, path.attr);
}

function countFrom(el: XmlElement, steps: readonly Step[], i: number, attr: string | undefined): number {
  if (i === steps.length) return attr === undefined ? 1 : hasAttr(el, attr) ? 1 : 0;
  const s = steps[i];
  let n = 0;
  for (const c of el.children) if (c.local === s.local && c.ns === s.ns) n += countFrom(c, steps, i + 1, attr);
  return n;
}

/** Does the path select anything? (XPath existence test, without building node lists.) */
export function existsPath(el: XmlElement, steps: readonly Step[], i = 0): boolean {
  if (i === steps.length) return true;
  const s = steps[i];
  for (const c of el.children) if (c.local === s.local && c.ns === s.ns && existsPath(c, steps, i + 1)) return true;
  return false;
}

/** XPath string value of an element (all descendant text). */
export function stringValue(el: XmlElement): string {
  if (el.children.length === 0) return el.text;
  let out = el.text;
  for (const c of el.children) out += stringValue(c);
  return out;
}

/** XPath normalize-space(). */
export function normalizeSpace(s: string): string {
  return s.replace(/[ \t\r\n]+/g, ' ').trim();
}

/** XPath general comparison `path = 'value'`: some selected node has exactly that string value. */
export function anyValueIs(el: XmlElement, steps: readonly Step[], value: string, i = 0): boolean {
  if (i === steps.length) return stringValue(el) === value;
  const s = steps[i];
  for (const c of el.children) if (c.local === s.local && c.ns === s.ns && anyValueIs(c, steps, value, i + 1)) return true;
  return false;
}

/** Some child named (ns, local) satisfies `test` (any such child when no test is given). */
export function someChild(el: XmlElement, ns: string, local: string, test?: (c: XmlElement) => boolean): boolean {
  for (const c of el.children) if (c.local === local && c.ns === ns && (!test || test(c))) return true;
  return false;
}

/** Number of children named (ns, local). */
export function countChildren(el: XmlElement, ns: string, local: string): number {
  let n = 0;
  for (const c of el.children) if (c.local === local && c.ns === ns) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------
// The table format.

/**
 * Parse a rule table. Lines (blank lines and `#` comments ignored):
 *
 *   ctx <name>               following rules apply to that context
 *   in <path>                prefix for the following paths (`in .` clears it)
 *   <id> <path>[|<path>..]   the path must select nothing (the common "not used" rule)
 *   <id> <=N <path>          the path selects at most N nodes
 *   <id> =N <path>           the path selects exactly N nodes
 *
 * Ids are abbreviated through `idPrefixes` (e.g. `s` → `CII-SR-`). Paths are `/`-separated names
 * with an optional `prefix:` (resolved through `namespaces`, default `defaultPrefix`) and may end
 * with `@attr`. `aliases` expand a name into a union (UBL's InvoiceLine | CreditNoteLine).
 */
export function parseRuleTable(
  text: string,
  opts: {
    idPrefixes: Record<string, string>;
    namespaces: Record<string, string>;
    defaultPrefix: string;
    aliases?: Record<string, string[]>;
  },
): TableRule[] {
  const rules: TableRule[] = [];
  let context = '';
  let prefix = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const parts = line.split(/\s+/);
    if (parts[0] === 'ctx') {
      context = parts[1];
      prefix = '';
      continue;
    }
    if (parts[0] === 'in') {
      prefix = parts[1] === '.' ? '' : parts[1];
      continue;
    }
    if (!context) throw new Error(`rule table: rule before any context: ${line}`);
    const id = expandId(parts[0], opts.idPrefixes);
    let kind: TableRuleKind = 'absent';
    let n = 0;
    let pathText = parts[1];
    const bound = /^(<=|=)(\d+)$/.exec(parts[1]);
    if (bound) {
      kind = bound[1] === '<=' ? 'max' : 'exactly';
      n = Number(bound[2]);
      pathText = parts[2];
    }
    if (!pathText) throw new Error(`rule table: no path: ${line}`);
    const paths: ChildPath[] = [];
    for (const alt of pathText.split('|')) {
      const full = prefix ? `${prefix}/${alt}` : alt;
      for (const expanded of expandAliases(full, opts.aliases ?? {})) paths.push(parsePath(expanded, opts));
    }
    rules.push({ id, context, kind, n, paths });
  }
  return rules;
}

function expandId(short: string, prefixes: Record<string, string>): string {
  const m = /^([a-z]+)(\d+)$/.exec(short);
  if (!m || !(m[1] in prefixes)) throw new Error(`rule table: bad id ${short}`);
  return prefixes[m[1]] + m[2];
}

function expandAliases(path: string, aliases: Record<string, string[]>): string[] {
  const steps = path.split('/');
  let results: string[][] = [[]];
  for (const s of steps) {
    const alts = aliases[s] ?? [s];
    const next: string[][] = [];
    for (const r of results) for (const a of alts) next.push([...r, a]);
    results = next;
  }
  return results.map((r) => r.join('/'));
}

function parsePath(text: string, opts: { namespaces: Record<string, string>; defaultPrefix: string }): ChildPath {
  const steps: Step[] = [];
  let attr: string | undefined;
  const anywhere = text.startsWith('//');
  if (anywhere) text = text.slice(2);
  for (const part of text.split('/')) {
    if (part.startsWith('@')) {
      attr = part.slice(1);
      continue;
    }
    if (attr) throw new Error(`rule table: step after attribute in ${text}`);
    const colon = part.indexOf(':');
    const pfx = colon >= 0 ? part.slice(0, colon) : opts.defaultPrefix;
    const local = colon >= 0 ? part.slice(colon + 1) : part;
    const ns = opts.namespaces[pfx];
    if (ns === undefined) throw new Error(`rule table: unknown prefix ${pfx} in ${text}`);
    steps.push({ ns, local });
  }
  const path: ChildPath = { steps };
  if (attr) path.attr = attr;
  if (anywhere) path.anywhere = true;
  return path;
}

// ---------------------------------------------------------------------------------------------
// Evaluation.

interface TrieNode {
  children: Map<string, { ns: string; node: TrieNode }[]>;
  ids: string[];
  attrIds: Map<string, string[]>;
}

function newTrie(): TrieNode {
  return { children: new Map(), ids: [], attrIds: new Map() };
}

function addToTrie(root: TrieNode, path: ChildPath, id: string): void {
  let node = root;
  for (const s of path.steps) {
    let alts = node.children.get(s.local);
    if (!alts) node.children.set(s.local, (alts = []));
    let hit = alts.find((a) => a.ns === s.ns);
    if (!hit) alts.push((hit = { ns: s.ns, node: newTrie() }));
    node = hit.node;
  }
  if (path.attr) {
    let ids = node.attrIds.get(path.attr);
    if (!ids) node.attrIds.set(path.attr, (ids = []));
    ids.push(id);
  } else {
    node.ids.push(id);
  }
}

/** Record `id` once per context node (an id fires once per node however many offending children it has). */
function fire(fired: string[], id: string): void {
  if (!fired.includes(id)) fired.push(id);
}

/** Visit the document below `el` along the trie; record the ids whose path exists. */
function walkTrie(el: XmlElement, trie: TrieNode, fired: string[]): void {
  const children = el.children;
  const names = trie.children;
  for (let i = 0; i < children.length; i++) {
    const c = children[i];
    const alts = names.get(c.local);
    if (alts === undefined) continue;
    for (let k = 0; k < alts.length; k++) {
      const alt = alts[k];
      if (alt.ns !== c.ns) continue;
      const t = alt.node;
      for (let j = 0; j < t.ids.length; j++) fire(fired, t.ids[j]);
      if (t.attrIds.size > 0) fireAttributes(c, t, fired);
      if (t.children.size > 0) walkTrie(c, t, fired);
    }
  }
}

function fireAttributes(el: XmlElement, trie: TrieNode, fired: string[]): void {
  for (const a of el.attrs) {
    if (a.ns !== '') continue;
    const ids = trie.attrIds.get(a.local);
    if (ids) for (const id of ids) fire(fired, id);
  }
}

/** A compiled rule set of one syntax: tables, hand-written rules and the classifier. */
export interface CompiledSyntaxRules {
  classify: Classifier | TopDownClassifier;
  /** context → trie of its "absent" rules. */
  tries: Map<string, TrieNode>;
  /** "absent" rules whose path starts anywhere in the document (`//a/b`). */
  anywhere: TableRule[];
  counted: TableRule[];
  custom: CustomRule[];
  /** Every id, in table order (for coverage counts). */
  ids: string[];
  /** Element local names and attribute names the rules look up document-wide. */
  indexedNames: Set<string>;
  indexedAttributes: Set<string>;
}

export function compileSyntaxRules(
  classify: Classifier | TopDownClassifier,
  table: TableRule[],
  custom: CustomRule[],
  lookups: { names?: string[]; attributes?: string[] } = {},
): CompiledSyntaxRules {
  const tries = new Map<string, TrieNode>();
  const counted: TableRule[] = [];
  const anywhere: TableRule[] = [];
  const ids: string[] = [];
  for (const r of table) {
    ids.push(r.id);
    if (r.kind === 'absent' && r.paths.some((p) => p.anywhere)) {
      anywhere.push(r);
    } else if (r.kind === 'absent') {
      let t = tries.get(r.context);
      if (!t) tries.set(r.context, (t = newTrie()));
      for (const p of r.paths) addToTrie(t, p, r.id);
    } else {
      counted.push(r);
    }
  }
  for (const c of custom) ids.push(c.id);
  const indexedNames = new Set(lookups.names ?? []);
  const indexedAttributes = new Set(lookups.attributes ?? []);
  for (const r of anywhere) {
    for (const p of r.paths) {
      if (p.steps.length > 0) indexedNames.add(p.steps[0].local);
      else if (p.attr) indexedAttributes.add(p.attr);
    }
  }
  return { classify, tries, anywhere, counted, custom, ids, indexedNames, indexedAttributes };
}

/** Does `//path` select anything in the document? */
export function existsAnywhere(index: DocIndex, path: ChildPath): boolean {
  const steps = path.steps;
  if (steps.length === 0) return path.attr !== undefined && index.attributes.has(path.attr);
  const starts = index.byLocal.get(steps[0].local);
  if (!starts) return false;
  // From each element named like the first step, the rest of the path (no lists or copies of the path per call).
  for (let i = 0; i < starts.length; i++) {
    if (starts[i].ns === steps[0].ns && countFrom(starts[i], steps, 1, path.attr) > 0) return true;
  }
  return false;
}

/** Violations per rule id for one document (only the rules that fired have an entry). */
export type SyntaxResult = Map<string, Violation[]>;

export function evaluateSyntaxRules(compiled: CompiledSyntaxRules, doc: XmlDoc): SyntaxResult {
  const index = indexDocument(doc, compiled.classify, compiled.indexedNames, compiled.indexedAttributes);
  const result: SyntaxResult = new Map();
  const add = (id: string, node: XmlElement): void => {
    let list = result.get(id);
    if (!list) result.set(id, (list = []));
    // Beyond what a report lists (report-bounds.ts), occurrences are counted without a path.
    list.push(list.length < MAX_FINDINGS_PER_RULE ? { location: pathOf(node) } : UNLISTED);
  };
  // An array, not a Set: it is emptied for every context node (100,000s on a large invoice), and
  // Set.clear() allocates a fresh table each time; it rarely holds more than an id or two.
  const fired: string[] = [];
  for (const [context, trie] of compiled.tries) {
    const nodes = index.contexts.get(context);
    if (!nodes) continue;
    const attributeRules = trie.attrIds.size > 0;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      if (attributeRules) fireAttributes(node, trie, fired);
      walkTrie(node, trie, fired);
      if (fired.length === 0) continue;
      for (const id of fired) add(id, node);
      fired.length = 0;
    }
  }
  for (const r of compiled.anywhere) {
    const nodes = index.contexts.get(r.context);
    if (!nodes) continue;
    let found = false;
    for (let i = 0; i < r.paths.length && !found; i++) found = existsAnywhere(index, r.paths[i]);
    if (found) for (const node of nodes) add(r.id, node);
  }
  for (const r of compiled.counted) {
    const nodes = index.contexts.get(r.context);
    if (!nodes) continue;
    for (const node of nodes) {
      let count = 0;
      for (const p of r.paths) count += countPath(node, p);
      const ok = r.kind === 'max' ? count <= r.n : count === r.n;
      if (!ok) add(r.id, node);
    }
  }
  for (const c of compiled.custom) {
    const nodes = index.contexts.get(c.context);
    if (!nodes) continue;
    for (const node of nodes) if (c.fails(node, index)) add(c.id, node);
  }
  return result;
}

/**
 * Turn a compiled set into `Rule`s of the shared engine. All rules of the set share one evaluation
 * per document (cached on the XmlDoc object), so running the table costs one pass, not one per rule.
 */
export function toRules(
  compiled: CompiledSyntaxRules,
  severityOf: (id: string) => Severity,
  messageOf: (id: string) => string,
  appliesTo: (ctx: RuleContext) => boolean,
): Rule[] {
  const cache = new PropertyMap<XmlDoc, SyntaxResult>();
  const resultFor = (ctx: RuleContext): SyntaxResult | undefined => {
    if (!appliesTo(ctx)) return undefined;
    let r = cache.get(ctx.doc);
    if (!r) {
      r = evaluateSyntaxRules(compiled, ctx.doc);
      cache.set(ctx.doc, r);
    }
    return r;
  };
  // The engine asks the family for the fired rules only (the result holds no entry for a rule that holds).
  const family: RuleFamily = { fired: (ctx) => resultFor(ctx) ?? NOTHING_FIRED };
  const seen = new Set<string>();
  const rules: Rule[] = [];
  for (const id of compiled.ids) {
    if (seen.has(id)) continue; // an id bound twice (CII-SR-282) is one rule with two paths
    seen.add(id);
    rules.push({
      id,
      severity: severityOf(id),
      message: messageOf(id),
      check: (ctx) => resultFor(ctx)?.get(id) ?? NO_VIOLATIONS,
      family,
    });
  }
  return rules;
}
