/**
 * Validates a parsed document (src/xml/dom.ts) against a compiled schema (compile.ts), with XML Schema
 * 1.0 semantics for the constructs the compiler accepts. Findings come in document order.
 *
 * What is reported per element, in this order: its attributes (undeclared, missing required, invalid
 * value), then its content. Once a child does not fit the parent's content model, the rest of that
 * parent's children are not checked (the model has no state to continue from, and every later sibling
 * would be a knock-on error); the element that did not fit is not looked into either.
 */
import type { XmlElement, XmlDoc } from '../dom.js';
import { NS } from '../namespaces.js';
import type { CompiledSchema, ComplexTypeDef, ContentState, ElementDecl, TypeDef } from './compile.js';
import { quoteValue, type SimpleTypeDef } from './simple-types.js';

export interface XsdFinding {
  message: string;
  line: number;
}

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
/** Non-whitespace character data (XML whitespace is only space, tab, CR, LF). */
const NOT_XML_SPACE = /[^ \t\n\r]/;

/** Conventional prefixes, for naming expected elements the document does not use yet. */
const PREFIX_OF_NAMESPACE = new Map<string, string>(Object.entries(NS).map(([prefix, uri]) => [uri, prefix]));

/**
 * The document's elements with children whose text may be more than blanks (XmlDoc.mixed), while one is
 * validated; undefined when unknown. Reading a container's text joins its indentation runs into one
 * string (~10 KB of copies per typical invoice), so it is read only for those.
 */
let mixedText: readonly XmlElement[] | undefined;
/** mixedText as a set when it is long: includes() per container made thousands of mixed containers quadratic. */
let mixedSet: ReadonlySet<XmlElement> | undefined;

function isMixed(el: XmlElement): boolean {
  return mixedSet ? mixedSet.has(el) : mixedText!.includes(el);
}

export function validateAgainstSchema(doc: XmlDoc, schema: CompiledSchema): XsdFinding[] {
  mixedText = doc.mixed;
  mixedSet = mixedText && mixedText.length > 16 ? new Set(mixedText) : undefined;
  try {
    return validateDocument(doc, schema);
  } finally {
    mixedText = undefined;
    mixedSet = undefined;
  }
}

function validateDocument(doc: XmlDoc, schema: CompiledSchema): XsdFinding[] {
  const findings: XsdFinding[] = [];
  const root = doc.root;
  const decl = schema.roots.get(`${root.ns} ${root.local}`);
  if (!decl) {
    const allowed = [...schema.roots.values()].map((d) => nameFor(d.ns, d.local, root)).join(', ');
    findings.push({ message: `The root element ${nameOf(root)} is not declared by the schema (expected ${allowed})`, line: root.line });
    return findings;
  }
  validateElement(root, decl.type, findings);
  return findings;
}

function validateElement(el: XmlElement, type: TypeDef, out: XsdFinding[]): void {
  if (type.kind === 'simple') {
    checkAttributes(el, null, out);
    if (el.children.length > 0) out.push(childrenInValue(el));
    checkValue(el, type, out);
    return;
  }
  checkAttributes(el, type, out);
  if (type.value) {
    if (el.children.length > 0) out.push(childrenInValue(el));
    checkValue(el, type.value, out);
    return;
  }
  if (type.anyContent) return; // a lax wildcard: the extension's own content is not this schema's business
  if (type.empty) {
    if (el.text.length > 0) out.push({ message: `${nameOf(el)} must be empty, but has the text ${quoteValue(el.text)}`, line: el.line });
    if (el.children.length > 0)
      out.push({ message: `${nameOf(el)} must be empty, but has the child element ${nameOf(el.children[0])}`, line: el.line });
    return;
  }
  if (el.text.length > 0 && (el.children.length === 0 || mixedText === undefined || isMixed(el)) && NOT_XML_SPACE.test(el.text)) {
    out.push({ message: `${nameOf(el)} may contain only child elements, but has the text ${quoteValue(el.text.trim())}`, line: el.line });
  }
  let state = type.start!;
  for (const child of el.children) {
    const next = transition(state, child);
    if (!next) {
      out.push({ message: `${nameOf(child)} is not allowed here in ${nameOf(el)}; ${expectation(state, el)}`, line: child.line });
      return;
    }
    validateElement(child, next.decl.type, out);
    state = next.to;
  }
  if (!state.accepting) {
    const after = el.children.length > 0 ? ` after ${nameOf(el.children[el.children.length - 1])}` : '';
    out.push({ message: `${nameOf(el)} is incomplete: a child element is missing${after}; ${expectation(state, el)}`, line: el.line });
  }
}

function transition(state: ContentState, child: XmlElement): { decl: ElementDecl; to: ContentState } | undefined {
  const local = child.local;
  for (const t of state.next) if (t.local === local && sameNamespace(child.ns, t.ns)) return t;
  return undefined;
}

/**
 * Recently matched (document namespace string, schema namespace string) pairs. Comparing two distinct
 * string objects with the same 80-character URI costs a character-by-character comparison, once per
 * element; the parser shares one string per namespace declaration, so identity against this cache is
 * usually enough. Correct for any strings: a miss falls back to the full comparison.
 */
const namespacePairs: { doc: string; schema: string }[] = [];

function sameNamespace(docNs: string, schemaNs: string): boolean {
  for (const pair of namespacePairs) if (pair.doc === docNs) return pair.schema === schemaNs;
  if (docNs !== schemaNs) return false;
  if (namespacePairs.length >= 8) namespacePairs.shift();
  namespacePairs.push({ doc: docNs, schema: schemaNs });
  return true;
}

function checkAttributes(el: XmlElement, type: ComplexTypeDef | null, out: XsdFinding[]): void {
  for (const a of el.attrs) {
    if (a.ns === '') {
      if (type && type.attributes.length > 0) {
        const decl = type.attributes.find((d) => d.local === a.local);
        if (decl) {
          if (decl.type.check && !decl.type.check(a.value)) {
            out.push({
              message: `Attribute ${a.local} of ${nameOf(el)}: ${quoteValue(a.value)} is not ${decl.type.expects} (${decl.type.name})`,
              line: el.line,
            });
          }
          continue;
        }
      }
    } else if (a.ns === XSI_NS) {
      // xsi:schemaLocation hints are allowed everywhere and mean nothing to a validator with its own schema.
      if (a.local === 'schemaLocation' || a.local === 'noNamespaceSchemaLocation') continue;
      if (a.local === 'nil') {
        out.push({ message: `${nameOf(el)} carries xsi:nil, but the schema does not declare it nillable`, line: el.line });
        continue;
      }
      if (a.local === 'type') {
        // Deliberately stricter than XML Schema: xsi:type naming exactly the declared type would be valid, but
        // the element tree keeps no namespace declarations to resolve the QName, and no Factur-X type has
        // derived types to switch to. libxml2 accepts the no-op case; no invoice in the corpus uses xsi:type.
        out.push({
          message: `${nameOf(el)} carries xsi:type, which is not accepted: the schema has no derived types to switch to`,
          line: el.line,
        });
        continue;
      }
    }
    out.push({
      message: `${nameOf(el)} has an attribute ${a.prefix ? `${a.prefix}:` : ''}${a.local} that the schema does not declare for it`,
      line: el.line,
    });
  }
  if (type) {
    for (const required of type.required) {
      if (!el.attrs.some((a) => a.ns === '' && a.local === required.local)) {
        out.push({ message: `${nameOf(el)} lacks the required attribute ${required.local}`, line: el.line });
      }
    }
  }
}

function checkValue(el: XmlElement, type: SimpleTypeDef, out: XsdFinding[]): void {
  if (type.check && !type.check(el.text)) {
    out.push({ message: `${nameOf(el)}: ${quoteValue(el.text)} is not ${type.expects} (${type.name})`, line: el.line });
  }
}

function childrenInValue(el: XmlElement): XsdFinding {
  return { message: `${nameOf(el)} may contain only a value, but has the child element ${nameOf(el.children[0])}`, line: el.line };
}

function expectation(state: ContentState, parent: XmlElement): string {
  const names = state.expected.map((d) => nameFor(d.ns, d.local, parent));
  if (names.length === 0) return 'no further child element is allowed';
  return names.length === 1 ? `expected ${names[0]}` : `expected one of ${names.join(', ')}`;
}

function nameOf(el: XmlElement): string {
  return el.prefix ? `${el.prefix}:${el.local}` : el.local;
}

/** An expected element's name with the prefix the document uses for its namespace (or the usual one). */
function nameFor(ns: string, local: string, near: XmlElement): string {
  if (ns === '') return local;
  let prefix: string | undefined;
  for (let el: XmlElement | null = near; el && prefix === undefined; el = el.parent) {
    if (el.ns === ns) prefix = el.prefix;
    else for (const c of el.children) if (c.ns === ns) prefix ??= c.prefix;
  }
  prefix ??= PREFIX_OF_NAMESPACE.get(ns);
  if (prefix === undefined) return `{${ns}}${local}`;
  return prefix ? `${prefix}:${local}` : local;
}
