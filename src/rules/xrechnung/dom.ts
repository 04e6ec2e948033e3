/**
 * A few XPath-like helpers over the parsed document, for the rule sets whose official tests are
 * written against the syntax (XRechnung, Factur-X profiles): child paths with namespace prefixes,
 * XPath string values, normalize-space and "anywhere" searches. Paths are parsed once and cached.
 */
import { elementsNamedAnywhere, pathOf, type XmlDoc, type XmlElement } from '../../xml/dom.js';
import { NS as SYNTAX_NS } from '../../xml/namespaces.js';
import { PropertyMap } from '../../util/property-map.js';
import { internalize } from '../../util/internalize.js';

/** Prefix → namespace URI, for the paths written in these rules (the shared map). */
export const NS: Record<string, string> = SYNTAX_NS;

type Step = { kind: 'child'; ns: string; local: string } | { kind: 'parent' } | { kind: 'attr'; local: string };

const parsed = new Map<string, Step[]>();

function parse(path: string): Step[] {
  let steps = parsed.get(path);
  if (steps) return steps;
  steps = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') steps.push({ kind: 'parent' });
    else if (part.startsWith('@')) steps.push({ kind: 'attr', local: part.slice(1) });
    else {
      const colon = part.indexOf(':');
      if (colon < 0) throw new Error(`path step without prefix: ${part} in ${path}`);
      const ns = NS[part.slice(0, colon)];
      if (ns === undefined) throw new Error(`unknown prefix in ${path}`);
      // Internalized, as the parser's names are: comparing them is a pointer compare.
      steps.push({ kind: 'child', ns, local: internalize(part.slice(colon + 1)) });
    }
  }
  parsed.set(path, steps);
  return steps;
}

/** The answer cached under (key, name), computed on first ask: a parsed document never changes. */
function cached<K extends object, V>(cache: PropertyMap<K, Map<string, V>>, key: K, name: string, compute: () => V): V {
  let byName = cache.get(key);
  if (!byName) {
    byName = new Map();
    cache.set(key, byName);
  }
  let answer = byName.get(name);
  if (answer === undefined) {
    answer = compute();
    byName.set(name, answer);
  }
  return answer;
}

/**
 * Paths from the document element (the one element without a parent), cached per document: rules ask
 * document-wide questions (the invoice currency, is there a direct-debit mandate) once per line or per
 * settlement, and an invoice with 3,000 duplicated settlements made that 3,000 walks over 3,000 siblings each
 * (13 s; fuzz, xml-duplicate-element). Callers get copies: the lists are theirs to change.
 */
const rootElements = new PropertyMap<XmlElement, Map<string, XmlElement[]>>();
const rootValues = new PropertyMap<XmlElement, Map<string, string[]>>();

/** Elements selected by a relative path (`ram:A/ram:B`, `..` allowed), in document order per step. */
export function sel(el: XmlElement | null | undefined, path: string): XmlElement[] {
  if (!el) return [];
  return el.parent === null ? cached(rootElements, el, path, () => walk(el, path)).slice() : walk(el, path);
}

function walk(el: XmlElement, path: string): XmlElement[] {
  let current: XmlElement[] = [el];
  for (const s of parse(path)) {
    if (s.kind === 'attr') throw new Error(`sel() on an attribute path: ${path}; use attrs()`);
    const next: XmlElement[] = [];
    for (const n of current) {
      if (s.kind === 'parent') {
        if (n.parent && !next.includes(n.parent)) next.push(n.parent);
      } else for (const c of n.children) if (c.local === s.local && c.ns === s.ns) next.push(c);
    }
    if (next.length === 0) return next;
    current = next;
  }
  return current;
}

/** The first element a path selects. */
export function first(el: XmlElement | null | undefined, path: string): XmlElement | undefined {
  return sel(el, path)[0];
}

/** Does the path select anything (elements, or an attribute when it ends on `@name`)? */
export function has(el: XmlElement | null | undefined, path: string): boolean {
  if (!el) return false;
  if (el.parent === null) return cached(rootValues, el, path, () => valuesOf(el, path)).length > 0;
  const steps = parse(path);
  for (const s of steps) if (s.kind !== 'child') return valuesOf(el, path).length > 0;
  // Child steps only (the usual case): stop at the first match, without building the lists and string values.
  return firstAt(el, steps as ChildPath) !== undefined;
}

type ChildStep = Extract<Step, { kind: 'child' }>;
/** A path of child steps only, parsed once (childPath), for lookups that run for every document. */
export type ChildPath = readonly ChildStep[];

/** `path` (child steps only, e.g. `cac:PostalAddress/cbc:CityName`) parsed for firstAt and someValueAt. */
export function childPath(path: string): ChildPath {
  const steps = parse(path);
  if (steps.some((st) => st.kind !== 'child')) throw new Error(`not a path of child steps: ${path}`);
  return steps as ChildPath;
}

/**
 * The first element a child path selects from `el`, in document order (XPath `(el/a/b)[1]`): a walk that stops at the
 * first match, with no lists built and no cache (for the root, `sel` and `values` cache per document and path).
 */
export function firstAt(el: XmlElement, path: ChildPath, i = 0): XmlElement | undefined {
  if (i === path.length) return el;
  const step = path[i];
  for (const c of el.children) {
    if (c.local !== step.local || c.ns !== step.ns) continue;
    const found = firstAt(c, path, i + 1);
    if (found) return found;
  }
  return undefined;
}

/** Some element a child path selects from `el` has the string value `wanted` (XPath `el/a/b = 'wanted'`). */
export function someValueAt(el: XmlElement, path: ChildPath, wanted: string, i = 0): boolean {
  if (i === path.length) return text(el) === wanted;
  const step = path[i];
  for (const c of el.children) if (c.local === step.local && c.ns === step.ns && someValueAt(c, path, wanted, i + 1)) return true;
  return false;
}

/** String values of what a path selects: element string values, or attribute values for `.../@x`. */
export function values(el: XmlElement | null | undefined, path: string): string[] {
  return el && el.parent === null ? cached(rootValues, el, path, () => valuesOf(el, path)).slice() : valuesOf(el, path);
}

function valuesOf(el: XmlElement | null | undefined, path: string): string[] {
  const steps = parse(path);
  const last = steps[steps.length - 1];
  if (last?.kind === 'attr') {
    const base = path.slice(0, path.lastIndexOf('@'));
    const holders = base.replace(/\/$/, '') === '' ? (el ? [el] : []) : sel(el, base.replace(/\/$/, ''));
    const out: string[] = [];
    for (const h of holders) {
      const v = attr(h, last.local);
      if (v !== undefined) out.push(v);
    }
    return out;
  }
  return sel(el, path).map(text);
}

/** The first value a path selects (XPath string() of the first node), or undefined. */
export function value(el: XmlElement | null | undefined, path: string): string | undefined {
  return values(el, path)[0];
}

export function attr(el: XmlElement, local: string): string | undefined {
  for (const a of el.attrs) if (a.local === local && a.ns === '') return a.value;
  return undefined;
}

/** XPath string value: all descendant text. */
export function text(el: XmlElement): string {
  if (el.children.length === 0) return el.text;
  let out = el.text;
  for (const c of el.children) out += text(c);
  return out;
}

/** XPath normalize-space(). */
export function norm(s: string | undefined): string {
  return (s ?? '').replace(/[ \t\r\n]+/g, ' ').trim();
}

/** `path[boolean(normalize-space(.))]` exists: some selected node has non-blank content. */
export function hasFilled(el: XmlElement | null | undefined, path: string): boolean {
  return values(el, path).some((v) => norm(v) !== '');
}

/** XPath general comparison `path = (v1, v2, ...)`: some selected value equals one of the values. */
export function anyIn(el: XmlElement | null | undefined, path: string, accepted: readonly string[]): boolean {
  return values(el, path).some((v) => accepted.includes(v));
}

/** A `prefix:local` name as namespace and (internalized) local name, read once per name. */
const qnames = new Map<string, { ns: string | undefined; local: string }>();
function qnameOf(qname: string): { ns: string | undefined; local: string } {
  let q = qnames.get(qname);
  if (!q) {
    const colon = qname.indexOf(':');
    q = { ns: NS[qname.slice(0, colon)], local: internalize(qname.slice(colon + 1)) };
    qnames.set(qname, q);
  }
  return q;
}

export function is(el: XmlElement | null | undefined, qname: string): boolean {
  if (!el) return false;
  const q = qnameOf(qname);
  return el.local === q.local && el.ns === q.ns;
}

/** Every element of the document in document order (cached per document). */
const allCache = new PropertyMap<XmlDoc, XmlElement[]>();
export function allElements(doc: XmlDoc): XmlElement[] {
  let all = allCache.get(doc);
  if (all) return all;
  all = [];
  const stack: XmlElement[] = [doc.root];
  while (stack.length) {
    const el = stack.pop()!;
    all.push(el);
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
  }
  allCache.set(doc, all);
  return all;
}

/**
 * Elements with this qualified name anywhere in the document (XPath `//p:name`), cached per document and name:
 * rules ask it once per line (BR-DEX-15 for each line), which made 7,000 lines cost 25 s when each call walked
 * the whole tree. Read from the document's index of local names (xml/dom.ts), which the syntax rules' walk fills
 * for every name asked for before: no walk over every element for each name asked.
 */
const anywhereCache = new PropertyMap<XmlDoc, Map<string, readonly XmlElement[]>>();
export function anywhere(doc: XmlDoc, qname: string): readonly XmlElement[] {
  return cached(anywhereCache, doc, qname, () => {
    const { ns, local } = qnameOf(qname);
    const named = elementsNamedAnywhere(doc, local);
    return named.every((e) => e.ns === ns) ? named : named.filter((e) => e.ns === ns);
  });
}

export function hasAncestor(el: XmlElement, qname: string): boolean {
  for (let p = el.parent; p; p = p.parent) if (is(p, qname)) return true;
  return false;
}

/** XPath-like location of an element, in the readers' format. */
export const where = (el: XmlElement): string => pathOf(el);
