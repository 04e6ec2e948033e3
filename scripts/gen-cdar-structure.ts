/**
 * Generates src/xml/cdar/cdar-structure.data.ts: the element structure of UN/CEFACT Cross Domain Acknowledgement and
 * Response D22B as facts (which elements each type has, in which order, how often, whether as a sequence or a
 * choice; which builtin value type and attributes each value type has), read from the "uncoupled" CDAR D22B schemas
 * FNFE-MPE publishes (fnfempe/France_RFE, FNFE_RFE_INVOICE/CDAR/1xsd-CDAR_D22B_uncoupled). Only what the root
 * reaches is kept; the code-list schemas of that folder are imported by none of them. The schemas themselves are not
 * copied into the repository: src/xml/cdar/schema.ts builds the native XSD engine's content models from these facts.
 *
 * It refuses what it does not understand (facets, groups, derivation of complex types, wildcards, substitution
 * groups), so that a new schema release cannot be half-read: attribute defaults are dropped (they do not change
 * whether a document is valid).
 *
 *   node --import tsx scripts/gen-cdar-structure.ts <FRANCE_RFE checkout>/FNFE_RFE_INVOICE/CDAR/1xsd-CDAR_D22B_uncoupled
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseXml, type XmlElement } from '../src/xml/dom.js';

const XSD = 'http://www.w3.org/2001/XMLSchema';
const PREFIX: Record<string, string> = {
  'urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100': 'rsm',
  'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100': 'ram',
  'urn:un:unece:uncefact:data:standard:QualifiedDataType:100': 'qdt',
  'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100': 'udt',
};

interface Schema {
  prefix: string;
  /** The document's own prefixes → namespace URI. */
  ns: Map<string, string>;
  complex: Map<string, XmlElement>;
  simple: Map<string, XmlElement>;
  elements: Map<string, XmlElement>;
}

const folder = process.argv[2];
if (!folder) throw new Error('usage: gen-cdar-structure.ts <folder of the CDAR D22B uncoupled XSDs>');
const schemas = new Map<string, Schema>();
for (const file of readdirSync(folder).filter((f) => f.endsWith('.xsd'))) {
  const text = readFileSync(path.join(folder, file), 'utf8');
  const root = parseXml(text).root;
  const tns = root.attrs.find((a) => a.local === 'targetNamespace')?.value ?? '';
  const prefix = PREFIX[tns];
  if (!prefix) continue; // the code-list schemas: imported by none of the four
  const ns = new Map<string, string>();
  for (const m of text.slice(0, text.indexOf('>', text.indexOf('<xsd:schema'))).matchAll(/xmlns(?::([\w-]+))?="([^"]+)"/g))
    ns.set(m[1] ?? '', m[2]);
  const s: Schema = { prefix, ns, complex: new Map(), simple: new Map(), elements: new Map() };
  for (const c of root.children) {
    if (c.ns !== XSD) continue;
    const name = attrOf(c, 'name');
    if (c.local === 'complexType') s.complex.set(name, c);
    else if (c.local === 'simpleType') s.simple.set(name, c);
    else if (c.local === 'element') s.elements.set(name, c);
    else if (c.local !== 'import' && c.local !== 'annotation') throw new Error(`${file}: unsupported top-level xsd:${c.local}`);
  }
  schemas.set(prefix, s);
}

function attrOf(el: XmlElement, name: string): string {
  return el.attrs.find((a) => a.local === name)?.value ?? '';
}
const xsdChildren = (el: XmlElement) => el.children.filter((c) => c.ns === XSD && c.local !== 'annotation');

/** A QName of a schema document → [prefix of ours, local name]; builtins → ['xs', local]. */
function resolve(schema: Schema, qname: string): [string, string] {
  const [p, local] = qname.includes(':') ? qname.split(':') : ['', qname];
  const uri = schema.ns.get(p);
  if (uri === XSD) return ['xs', local];
  const prefix = uri ? PREFIX[uri] : undefined;
  if (!prefix) throw new Error(`unknown namespace for ${qname}`);
  return [prefix, local];
}

type Item = [string, string, number, number];
interface TypeFacts {
  sequence?: Item[];
  choice?: Item[];
  value?: string;
  attrs?: [string, string, boolean][];
}
const types: Record<string, TypeFacts> = {};

/** The builtin a simple type (named or xs:) comes down to; facets are refused. */
function builtinOf(schema: Schema, qname: string): string {
  const [prefix, local] = resolve(schema, qname);
  if (prefix === 'xs') return local;
  const owner = schemas.get(prefix)!;
  const st = owner.simple.get(local);
  if (!st) throw new Error(`no simple type ${qname}`);
  const [restriction, ...rest] = xsdChildren(st);
  if (!restriction || restriction.local !== 'restriction' || rest.length)
    throw new Error(`simple type ${qname}: only a restriction is supported`);
  if (xsdChildren(restriction).length) throw new Error(`simple type ${qname}: facets are not supported`);
  return builtinOf(owner, attrOf(restriction, 'base'));
}

function occurs(el: XmlElement, name: 'minOccurs' | 'maxOccurs'): number {
  const v = attrOf(el, name);
  if (v === '') return 1;
  return v === 'unbounded' ? -1 : Number(v);
}

/** Fill `types[key]` from a complexType element of `schema`; returns the key. */
function complexType(schema: Schema, key: string, ct: XmlElement): string {
  if (types[key]) return key;
  const facts: TypeFacts = {};
  types[key] = facts;
  for (const a of ['mixed', 'abstract', 'block', 'final']) if (attrOf(ct, a)) throw new Error(`${key}: ${a} is not supported`);
  const [content, ...rest] = xsdChildren(ct);
  if (!content || rest.length) throw new Error(`${key}: one content particle expected`);
  if (content.local === 'simpleContent') {
    const [ext, ...more] = xsdChildren(content);
    if (!ext || ext.local !== 'extension' || more.length) throw new Error(`${key}: simpleContent must be one extension`);
    facts.value = builtinOf(schema, attrOf(ext, 'base'));
    facts.attrs = xsdChildren(ext).map((a) => {
      if (a.local !== 'attribute') throw new Error(`${key}: only attributes in an extension`);
      for (const x of a.attrs) if (!['name', 'type', 'use', 'default'].includes(x.local)) throw new Error(`${key}: attribute ${x.local}`);
      return [attrOf(a, 'name'), builtinOf(schema, attrOf(a, 'type')), attrOf(a, 'use') === 'required'];
    });
    return key;
  }
  if (content.local !== 'sequence' && content.local !== 'choice') throw new Error(`${key}: xsd:${content.local} is not supported`);
  if (attrOf(content, 'minOccurs') || attrOf(content, 'maxOccurs')) throw new Error(`${key}: occurrences on a model group`);
  const items: Item[] = xsdChildren(content).map((el) => {
    if (el.local !== 'element') throw new Error(`${key}: only elements in a ${content.local}`);
    const name = attrOf(el, 'name');
    if (!name) throw new Error(`${key}: element references are not supported`);
    const inline = xsdChildren(el).find((c) => c.local === 'complexType');
    const typeKey = inline ? complexType(schema, `${key}/${name}`, inline) : typeKeyOf(schema, attrOf(el, 'type'));
    return [`${schema.prefix}:${name}`, typeKey, occurs(el, 'minOccurs'), occurs(el, 'maxOccurs')];
  });
  facts[content.local as 'sequence' | 'choice'] = items;
  return key;
}

/** A named type's key: a complex type's `prefix:Name`, a simple type's builtin `xs:name`. */
function typeKeyOf(schema: Schema, qname: string): string {
  const [prefix, local] = resolve(schema, qname);
  if (prefix === 'xs') return `xs:${local}`;
  const owner = schemas.get(prefix)!;
  const ct = owner.complex.get(local);
  if (ct) return complexType(owner, `${prefix}:${local}`, ct);
  return `xs:${builtinOf(schema, qname)}`;
}

const rsm = schemas.get('rsm')!;
const roots: Record<string, string> = {};
for (const [name, el] of rsm.elements) roots[`rsm:${name}`] = typeKeyOf(rsm, attrOf(el, 'type'));

const sorted = Object.fromEntries(
  Object.keys(types)
    .sort()
    .map((k) => [k, types[k]]),
);
const out = `/* Generated by scripts/gen-cdar-structure.ts from the CDAR D22B schemas FNFE-MPE publishes: do not edit by hand. */
/**
 * The element structure of UN/CEFACT Cross Domain Acknowledgement and Response D22B as facts (see
 * src/xml/cdar/schema.ts): prefixes rsm, ram, qdt, udt stand for the CDAR namespaces, xs: for XML Schema builtins.
 * A type has \`sequence\` or \`choice\` items [element, type, minOccurs, maxOccurs (-1 unbounded)], or a builtin
 * \`value\` with \`attrs\` [name, builtin, required].
 */
export const CDAR_ROOTS: Record<string, string> = ${JSON.stringify(roots)};
export const CDAR_TYPES: Record<string, { sequence?: [string, string, number, number][]; choice?: [string, string, number, number][]; value?: string; attrs?: [string, string, boolean][] }> = ${JSON.stringify(sorted)};
`;
writeFileSync(path.join(import.meta.dirname, '../src/xml/cdar/cdar-structure.data.ts'), out);
console.log(`${Object.keys(types).length} types`);
