/**
 * Small, namespace-aware path helpers for the BR-FR rules. The French rules constrain elements the
 * EN 16931 model does not carry (EXT-FR-FE-* extension terms, agents, sub-lines), so they are
 * written against the parsed document. Paths use fixed prefixes (rsm/ram/udt/qdt for CII,
 * cbc/cac/ubl/cn for UBL), resolved to namespace URIs here, never to the document's own prefixes.
 */
import { deepText, type XmlElement } from '../../xml/dom.js';
import { NS as SYNTAX_NS } from '../../xml/namespaces.js';
import { PropertyMap } from '../../util/property-map.js';

/** Prefix → namespace URI, for the paths written in these rules (the shared map). */
export const NS: Record<string, string> = SYNTAX_NS;

interface Step {
  ns: string;
  local: string;
}

const parsed = new Map<string, Step[]>();

function steps(path: string): Step[] {
  let s = parsed.get(path);
  if (!s) {
    s = path.split('/').map((part) => {
      const [prefix, local] = part.split(':');
      const ns = NS[prefix];
      if (ns === undefined || !local) throw new Error(`bad path step ${part} in ${path}`);
      return { ns, local };
    });
    parsed.set(path, s);
  }
  return s;
}

/** Is the element named `prefix:local`? */
export function is(el: XmlElement | undefined, name: string): boolean {
  if (!el) return false;
  const [step] = steps(name);
  return el.ns === step.ns && el.local === step.local;
}

/** All elements reached from `el` by the child steps of `path` ('ram:A/ram:B'), in document order. */
export function sel(el: XmlElement | undefined, path: string): XmlElement[] {
  if (!el) return [];
  let current: XmlElement[] = [el];
  for (const step of steps(path)) {
    const next: XmlElement[] = [];
    for (const c of current) for (const k of c.children) if (k.local === step.local && k.ns === step.ns) next.push(k);
    if (next.length === 0) return next;
    current = next;
  }
  return current;
}

/** The first element reached by `path`, if any. */
export function first(el: XmlElement | undefined, path: string): XmlElement | undefined {
  return sel(el, path)[0];
}

const rootPaths = new PropertyMap<XmlElement, Map<string, XmlElement[]>>();

/**
 * Elements matched by an absolute path whose first step names the root element. Results are kept
 * per document and built from the parent path's, so the many rules whose contexts share a prefix
 * (every line-level rule walks the same line items) walk it once.
 */
export function fromRoot(root: XmlElement, path: string): XmlElement[] {
  let cache = rootPaths.get(root);
  if (!cache) {
    cache = new Map();
    rootPaths.set(root, cache);
  }
  const hit = cache.get(path);
  if (hit) return hit;
  const slash = path.lastIndexOf('/');
  let result: XmlElement[];
  if (slash < 0) result = is(root, path) ? [root] : [];
  else {
    const parents = fromRoot(root, path.slice(0, slash));
    result = [];
    if (parents.length > 0) {
      const [step] = steps(path.slice(slash + 1));
      for (const p of parents) for (const k of p.children) if (k.local === step.local && k.ns === step.ns) result.push(k);
    }
  }
  cache.set(path, result);
  return result;
}

/** Every element of a document by namespace and local name, in document order: one walk per document. */
const nameIndex = new PropertyMap<XmlElement, Map<string, XmlElement[]>>();
function indexOf(root: XmlElement): Map<string, XmlElement[]> {
  let index = nameIndex.get(root);
  if (!index) {
    const map = new Map<string, XmlElement[]>();
    const walk = (e: XmlElement) => {
      const key = `${e.ns}\u0000${e.local}`;
      const list = map.get(key);
      if (list) list.push(e);
      else map.set(key, [e]);
      for (const c of e.children) walk(c);
    };
    walk(root);
    index = map;
    nameIndex.set(root, index);
  }
  return index;
}

/** Every element named `name` anywhere in the tree (descendant-or-self), in document order. */
export function descendants(el: XmlElement, name: string): XmlElement[] {
  const [step] = steps(name);
  // From the root (the usual case: relative rule contexts), answer from the per-document index.
  if (el.parent === null) return indexOf(el).get(`${step.ns}\u0000${step.local}`) ?? [];
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    if (e.local === step.local && e.ns === step.ns) out.push(e);
    for (const c of e.children) walk(c);
  };
  walk(el);
  return out;
}

/** XPath string value of an element; '' when absent. */
export function text(el: XmlElement | undefined): string {
  return el ? deepText(el) : '';
}

/** XPath string value of the first element reached by `path`; '' when there is none. */
export function textAt(el: XmlElement | undefined, path: string): string {
  return text(first(el, path));
}

/** Unqualified attribute value, or undefined when absent. */
export function attribute(el: XmlElement | undefined, local: string): string | undefined {
  if (!el) return undefined;
  for (const a of el.attrs) if (a.local === local && a.ns === '') return a.value;
  return undefined;
}

/** XPath normalize-space(). */
export function norm(s: string): string {
  return s.replace(/[ \t\r\n]+/g, ' ').trim();
}

/** XPath string-length(): counts characters (code points), not UTF-16 units. */
export function length(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Elements of `list` whose attribute `local` equals `value`. */
export function withAttr(list: XmlElement[], local: string, value: string): XmlElement[] {
  return list.filter((e) => attribute(e, local) === value);
}

/** Any element of `list` whose string value equals one of `values` (XPath general comparison). */
export function anyEquals(list: XmlElement[], ...values: string[]): boolean {
  return list.some((e) => values.includes(text(e)));
}
