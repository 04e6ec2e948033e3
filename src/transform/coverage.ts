/**
 * What of a source document the EN 16931 model does not hold: the source is read into the model, the model
 * written again in the source's own syntax (by our writers, which bind every model term), and the two documents
 * compared as multisets of (element path, text) and (attribute path, value) pairs. A source value the rewrite does
 * not reproduce has no place in the model (a Factur-X EXTENDED element, a UBL element outside EN 16931, a second
 * occurrence the model keeps once, a scheme attribute the model has no term for): the transform reports it.
 *
 * Comparing documents, not reader bookkeeping, keeps the readers as they are (they are tuned for validation) and
 * makes no element count as read just because a reader looked at it: only what comes back out counts.
 */
import { pathOf, type XmlElement } from '../xml/dom.js';

/** Source content without a place in the model: a whole element (and everything in it), or one attribute of an element. */
export interface UnmappedContent {
  element: XmlElement;
  /** Set when only this attribute of the element is lost (its text and other attributes are carried). */
  attribute?: string;
}

const XMLNS = 'http://www.w3.org/2000/xmlns/';
/** xsi:schemaLocation and its kin are hints to schema processors, not content. */
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const RAM = 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';

const ignoredAttr = (a: { ns: string; prefix: string }) => a.ns === XMLNS || a.prefix === 'xmlns' || a.ns === XSI;

/**
 * Elements whose loss carries no information: the UBL version (implied by the namespaces the writer uses). Keyed by
 * namespace and local name.
 */
const IMPLIED = new Set(['urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2 UBLVersionID']);

/** xs:boolean indicators: "1" and "0" are "true" and "false". */
const BOOLEANS = new Set([
  'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2|ChargeIndicator',
  'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100|Indicator',
]);

/** A leaf's text as compared: trimmed, booleans in their canonical form. */
function leafValue(el: XmlElement): string {
  const text = el.text.trim();
  if ((text === '0' || text === '1') && BOOLEANS.has(`${el.ns}|${el.local}`)) return text === '1' ? 'true' : 'false';
  return text;
}

/**
 * Element paths (names without positions) as small numbers, shared by the two documents compared: the comparison
 * keys stay short (path id + value) however deep the element, instead of strings of every namespace URI on the way.
 */
class PathIds {
  private readonly names = new Map<string, Map<string, number>>();
  private nameCount = 0;
  private readonly paths = new Map<number, Map<number, number>>();
  private pathCount = 0;

  /** The id of the path of `el` below the path `parent` (0 for the root's parent). */
  child(parent: number, el: XmlElement): number {
    // CII's ram:ID and ram:GlobalID of a party are one identifier term (BT-29, BT-46, BT-60, BT-71): the model keeps
    // the value and its scheme, and the writer picks GlobalID for an identifier with a scheme, where a source may
    // have written ID with a schemeID. So they compare as one name.
    const local = el.ns === RAM && el.local === 'GlobalID' ? 'ID' : el.local;
    let byLocal = this.names.get(el.ns);
    if (!byLocal) this.names.set(el.ns, (byLocal = new Map()));
    let name = byLocal.get(local);
    if (name === undefined) byLocal.set(local, (name = this.nameCount++));
    let below = this.paths.get(parent);
    if (!below) this.paths.set(parent, (below = new Map()));
    let id = below.get(name);
    if (id === undefined) below.set(name, (id = ++this.pathCount));
    return id;
  }
}

const attrKey = (path: number, a: { ns: string; local: string; value: string }) => `${path}@${a.ns}|${a.local}\u0000${a.value.trim()}`;

/** The pairs of a document, counted: path + value → how many times. */
function countPairs(root: XmlElement, ids: PathIds): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const walk = (el: XmlElement, parent: number): void => {
    const here = ids.child(parent, el);
    for (const a of el.attrs) if (!ignoredAttr(a)) add(attrKey(here, a));
    if (el.children.length === 0) {
      const text = leafValue(el);
      if (text) add(`${here}\u0000${text}`);
      return;
    }
    for (const c of el.children) walk(c, here);
  };
  walk(root, 0);
  return counts;
}

/**
 * The content of `source` that `rewritten` (the same syntax, written from the model read from `source`) does not
 * carry, as whole elements where nothing inside them is carried and as single leaves or attributes otherwise. In
 * document order.
 */
export function unmappedContent(source: XmlElement, rewritten: XmlElement): UnmappedContent[] {
  const ids = new PathIds();
  const available = countPairs(rewritten, ids);
  const take = (key: string): boolean => {
    const n = available.get(key);
    if (!n) return false;
    available.set(key, n - 1);
    return true;
  };
  // First pass: which leaves and attributes are carried; per element, whether anything below it is (kept) or lost.
  const lostAttrs = new Map<XmlElement, string[]>();
  const lostLeaf = new Set<XmlElement>();
  const kept = new Set<XmlElement>();
  const lostBelow = new Set<XmlElement>();
  const walk = (el: XmlElement, parent: number): { kept: boolean; lost: boolean } => {
    const here = ids.child(parent, el);
    let anyKept = false;
    let anyLost = false;
    if (IMPLIED.has(`${el.ns} ${el.local}`)) return { kept: true, lost: false };
    for (const a of el.attrs) {
      if (ignoredAttr(a)) continue;
      if (take(attrKey(here, a))) anyKept = true;
      else {
        anyLost = true;
        const list = lostAttrs.get(el);
        const name = a.prefix ? `${a.prefix}:${a.local}` : a.local;
        if (list) list.push(name);
        else lostAttrs.set(el, [name]);
      }
    }
    if (el.children.length === 0) {
      const text = leafValue(el);
      if (text) {
        if (take(`${here}\u0000${text}`)) anyKept = true;
        else {
          anyLost = true;
          lostLeaf.add(el);
        }
      }
    } else {
      for (const c of el.children) {
        const r = walk(c, here);
        anyKept ||= r.kept;
        anyLost ||= r.lost;
      }
    }
    if (anyKept) kept.add(el);
    if (anyLost) lostBelow.add(el);
    return { kept: anyKept, lost: anyLost };
  };
  walk(source, 0);
  // Second pass: report the largest wholly lost elements; inside carried ones, the lost leaves and attributes.
  const out: UnmappedContent[] = [];
  const report = (el: XmlElement): void => {
    if (!lostBelow.has(el)) return;
    if (!kept.has(el)) {
      out.push({ element: el });
      return;
    }
    for (const name of lostAttrs.get(el) ?? []) out.push({ element: el, attribute: name });
    if (lostLeaf.has(el)) out.push({ element: el });
    for (const c of el.children) report(c);
  };
  report(source);
  return out;
}

/** XPath-like location of an unmapped piece (with positions), e.g. `/rsm:CrossIndustryInvoice[1]/…/ram:ID[2]/@schemeID`. */
export function unmappedLocation(u: UnmappedContent): string {
  return u.attribute ? `${pathOf(u.element)}/@${u.attribute}` : pathOf(u.element);
}
