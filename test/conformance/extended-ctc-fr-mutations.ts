/**
 * Mutations of French invoices for the EXTENDED-CTC-FR agreement: a recipe names a base invoice and one edit at an
 * element path; applying it parses the base with our parser, edits the tree and writes it back. The verdicts of the
 * official XSLT were produced on exactly these bytes (scripts/extended-ctc-fr-verdicts.ts), so the conformance test
 * compares like with like.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseXml, pathOf, type XmlDoc, type XmlElement } from '../../src/xml/dom.js';

/** One edit of a document at an element path. */
export interface Edit {
  op: 'remove' | 'text' | 'add' | 'attr' | 'unattr' | 'dup';
  /** Element path as pathOf writes it (of the document as the edits before this one left it). */
  at: string;
  /** text: the new text; add: `p:A/p:B=text` (a new chain of elements, appended); attr: `name=value`; unattr: the attribute name. */
  value?: string;
}

export interface Mutation extends Edit {
  /** Unique name (`<target id>#<n>`). */
  name: string;
  /** `corpus:<path under the corpus>` or `fixture:<path under test/fixtures/extended-ctc-fr>`. */
  base: string;
  /** The rule id the mutation was made for. */
  target: string;
  /** Further edits, applied in order after the first (e.g. make a rule's context, then break what it asks for). */
  and?: Edit[];
}

export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/extended-ctc-fr');

/** The base's bytes: a corpus file (`corpus` is the corpus root) or one of our fixtures. */
export function baseBytes(base: string, corpus: string): Uint8Array {
  if (base.startsWith('corpus:')) return new Uint8Array(readFileSync(path.join(corpus, base.slice('corpus:'.length))));
  if (base.startsWith('fixture:')) return new Uint8Array(readFileSync(path.join(FIXTURES, base.slice('fixture:'.length))));
  throw new Error(`unknown base ${base}`);
}

function find(doc: XmlDoc, at: string): XmlElement {
  const visit = (el: XmlElement): XmlElement | undefined => {
    if (pathOf(el) === at) return el;
    if (!at.startsWith(pathOf(el))) return undefined;
    for (const c of el.children) {
      const hit = visit(c);
      if (hit) return hit;
    }
    return undefined;
  };
  const hit = visit(doc.root);
  if (!hit) throw new Error(`no element at ${at}`);
  return hit;
}

/** Namespace URIs by prefix, as the document uses them (the first binding of each prefix wins). */
function prefixes(doc: XmlDoc): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (el: XmlElement) => {
    if (!out.has(el.prefix)) out.set(el.prefix, el.ns);
    for (const a of el.attrs) if (a.prefix && a.prefix !== 'xmlns' && !out.has(a.prefix)) out.set(a.prefix, a.ns);
    for (const c of el.children) visit(c);
  };
  visit(doc.root);
  return out;
}

/** Namespaces an edit may add although the base does not declare them (UBL's extension block, `ext:UBLExtensions`). */
const EXTRA_NAMESPACES: Record<string, string> = {
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
};

function newElement(qname: string, parent: XmlElement, ns: Map<string, string>): XmlElement {
  const [prefix, local] = qname.includes(':') ? qname.split(':') : ['', qname];
  // Declared on the root by the serializer, as every namespace of the map is.
  if (!ns.has(prefix) && EXTRA_NAMESPACES[prefix]) ns.set(prefix, EXTRA_NAMESPACES[prefix]);
  const uri = ns.get(prefix);
  if (uri === undefined) throw new Error(`unknown prefix in ${qname}`);
  return { ns: uri, local, prefix, attrs: [], children: [], text: '', parent, line: 0 };
}

/** Apply a mutation to the base's bytes; returns the mutated document's XML. */
export function applyMutation(bytes: Uint8Array, m: Mutation): string {
  const doc = parseXml(bytes);
  const ns = prefixes(doc);
  for (const e of [m, ...(m.and ?? [])]) applyEdit(doc, ns, e);
  return serialize(doc, ns);
}

/** Element positions are cached on the elements (pathOf): forget them after an edit. */
function forgetPaths(el: XmlElement): void {
  const e = el as XmlElement & { _path?: string; _pos?: number };
  e._path = undefined;
  e._pos = undefined;
  for (const c of el.children) forgetPaths(c);
}

function applyEdit(doc: XmlDoc, ns: Map<string, string>, m: Edit): void {
  const el = find(doc, m.at);
  const parent = el.parent;
  switch (m.op) {
    case 'remove':
      if (!parent) throw new Error('cannot remove the root');
      parent.children = parent.children.filter((c) => c !== el);
      break;
    case 'text':
      el.children = [];
      el.text = m.value ?? '';
      break;
    case 'dup': {
      if (!parent) throw new Error('cannot duplicate the root');
      const i = parent.children.indexOf(el);
      parent.children = [...parent.children.slice(0, i + 1), el, ...parent.children.slice(i + 1)];
      break;
    }
    case 'add': {
      const [chain, text] = splitOnce(m.value ?? '', '=');
      let holder = el;
      for (const q of chain.split('/')) {
        const c = newElement(q, holder, ns);
        holder.children = [...holder.children, c];
        holder = c;
      }
      holder.text = text ?? 'X';
      break;
    }
    case 'attr': {
      const [name, v] = splitOnce(m.value ?? '', '=');
      el.attrs = [...el.attrs.filter((a) => !(a.local === name && a.ns === '')), { ns: '', local: name, prefix: '', value: v ?? '' }];
      break;
    }
    case 'unattr':
      el.attrs = el.attrs.filter((a) => !(a.local === m.value && a.ns === ''));
      break;
  }
  forgetPaths(doc.root);
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

const escText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escAttr = (s: string) => escText(s).replace(/"/g, '&quot;');

/** Element-only XML (invoices have no mixed content), every namespace declared on the root. */
function serialize(doc: XmlDoc, ns: Map<string, string>): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  const name = (e: { prefix: string; local: string }) => (e.prefix ? `${e.prefix}:${e.local}` : e.local);
  const write = (el: XmlElement, root: boolean) => {
    out.push(`<${name(el)}`);
    if (root) for (const [p, uri] of ns) out.push(p ? ` xmlns:${p}="${escAttr(uri)}"` : ` xmlns="${escAttr(uri)}"`);
    for (const a of el.attrs) out.push(` ${name(a)}="${escAttr(a.value)}"`);
    if (el.children.length === 0 && el.text === '') {
      out.push('/>');
      return;
    }
    out.push('>');
    if (el.children.length === 0) out.push(escText(el.text));
    for (const c of el.children) write(c, false);
    out.push(`</${name(el)}>`);
  };
  write(doc.root, true);
  out.push('\n');
  return out.join('');
}

/** The serialized base without a mutation (the same writer, so base and mutants differ only by the edit). */
export function normalizedBase(bytes: Uint8Array): string {
  const doc = parseXml(bytes);
  return serialize(doc, prefixes(doc));
}
