/**
 * Generates src/xml/ubl/ubl21-structure.data.ts: the element structure of UBL 2.1 Invoice and CreditNote
 * as facts (which elements each aggregate has, in which order, how often; which value type each basic
 * element has and which attributes that type allows or requires), read from the published OASIS UBL 2.1
 * schemas. Only what Invoice and CreditNote reach is kept. The schemas themselves are not copied into the
 * repository: src/xml/ubl/schema.ts builds the native XSD engine's content models from these facts.
 *
 *   node --import tsx scripts/gen-ubl-structure.ts <folder with maindoc/ and common/ of UBL 2.1>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseXml, type XmlElement } from '../src/xml/dom.js';

const XSD = 'http://www.w3.org/2001/XMLSchema';
const NS: Record<string, string> = {
  'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2': 'inv',
  'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2': 'cn',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2': 'cac',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2': 'cbc',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2': 'ext',
  'urn:oasis:names:specification:ubl:schema:xsd:UnqualifiedDataTypes-2': 'udt',
  'urn:un:unece:uncefact:data:specification:CoreComponentTypeSchemaModule:2': 'cct',
  'urn:oasis:names:specification:ubl:schema:xsd:ExtensionContentDataType-2': 'ecdt',
  'urn:oasis:names:specification:ubl:schema:xsd:QualifiedDataTypes-2': 'qdt',
};

interface Schema {
  key: string;
  prefixes: Map<string, string>;
  /** The schema documents of the namespace (a namespace can span files: xsd:include). */
  roots: XmlElement[];
}

const folder = process.argv[2];
if (!folder) throw new Error('usage: gen-ubl-structure.ts <UBL 2.1 xsd folder>');
const files = [
  'maindoc/UBL-Invoice-2.1.xsd',
  'maindoc/UBL-CreditNote-2.1.xsd',
  'common/UBL-CommonAggregateComponents-2.1.xsd',
  'common/UBL-CommonBasicComponents-2.1.xsd',
  'common/UBL-CommonExtensionComponents-2.1.xsd',
  'common/UBL-UnqualifiedDataTypes-2.1.xsd',
  'common/UBL-QualifiedDataTypes-2.1.xsd',
  'common/CCTS_CCT_SchemaModule-2.1.xsd',
  'common/UBL-ExtensionContentDataType-2.1.xsd',
];
const schemas = new Map<string, Schema>();
for (const f of files) {
  const text = readFileSync(path.join(folder, f), 'utf8');
  const root = parseXml(text).root;
  const tns = root.attrs.find((a) => a.local === 'targetNamespace')!.value;
  const prefixes = new Map<string, string>();
  for (const m of text.slice(0, text.indexOf('>', text.indexOf('<xsd:schema'))).matchAll(/xmlns(?::([\w-]+))?="([^"]+)"/g))
    prefixes.set(m[1] ?? '', m[2]);
  const known = schemas.get(NS[tns]);
  if (known) {
    known.roots.push(root);
    for (const [p, u] of prefixes) if (!known.prefixes.has(p)) known.prefixes.set(p, u);
  } else schemas.set(NS[tns], { key: NS[tns], prefixes, roots: [root] });
}

const xs = (el: XmlElement, local: string) => el.children.filter((c) => c.ns === XSD && c.local === local);
const at = (el: XmlElement, name: string) => el.attrs.find((a) => a.local === name && a.ns === '')?.value;
/** A QName of a schema file as `<our prefix>:<local>` (or `xsd:<local>` for builtins). */
function qname(s: Schema, q: string): string {
  const [p, l] = q.includes(':') ? q.split(':') : ['', q];
  const uri = s.prefixes.get(p)!;
  if (uri === XSD) return `xsd:${l}`;
  if (!NS[uri]) throw new Error(`unknown namespace ${uri} for ${q}`);
  return `${NS[uri]}:${l}`;
}
const split = (q: string) => q.split(':') as [string, string];

function globalElementType(q: string): string {
  const [p, l] = split(q);
  const s = schemas.get(p)!;
  const el = s.roots.flatMap((r) => xs(r, 'element')).find((e) => at(e, 'name') === l);
  if (!el) throw new Error(`no element ${q}`);
  return qname(s, at(el, 'type')!);
}
function complexType(q: string): { s: Schema; el: XmlElement } {
  const [p, l] = split(q);
  const s = schemas.get(p)!;
  const el = s.roots.flatMap((r) => xs(r, 'complexType')).find((e) => at(e, 'name') === l);
  if (!el) throw new Error(`no complex type ${q}`);
  return { s, el };
}

/** Aggregates: type → [element, min, max(-1 = unbounded)]; `any` marks lax wildcard content. */
const aggregates: Record<string, [string, number, number][] | 'any'> = {};
/** Element → its type (an aggregate, or a value type). */
const elements: Record<string, string> = {};
/** Value types (simple content): builtin base and attributes [name, builtin type, required]. */
const values: Record<string, { base: string; attrs: [string, string, boolean][] }> = {};

function valueType(q: string): string {
  if (values[q]) return q;
  const { s, el } = complexType(q);
  const sc = xs(el, 'simpleContent')[0];
  if (!sc) throw new Error(`${q} has no simple content`);
  const der = sc.children.find((c) => c.ns === XSD && (c.local === 'extension' || c.local === 'restriction'))!;
  const base = qname(s, at(der, 'base')!);
  // A type that only renames its base (cbc:IDType = udt:IdentifierType) is its base.
  if (!base.startsWith('xsd:') && der.local === 'extension' && xs(der, 'attribute').length === 0) return valueType(base);
  let info: { base: string; attrs: [string, string, boolean][] };
  if (base.startsWith('xsd:')) info = { base: base.slice(4), attrs: [] };
  else {
    const b = values[valueType(base)];
    info = { base: b.base, attrs: b.attrs.map((a) => [...a] as [string, string, boolean]) };
  }
  for (const a of xs(der, 'attribute')) {
    const name = at(a, 'name')!;
    const type = qname(s, at(a, 'type')!).slice(4);
    const required = at(a, 'use') === 'required';
    const i = info.attrs.findIndex((x) => x[0] === name);
    if (i >= 0) info.attrs[i] = [name, type, required];
    else info.attrs.push([name, type, required]);
  }
  values[q] = info;
  return q;
}

function visitElement(q: string): void {
  if (elements[q]) return;
  const type = globalElementType(q);
  const { el } = complexType(type);
  if (xs(el, 'simpleContent').length > 0) {
    elements[q] = valueType(type);
    return;
  }
  elements[q] = type;
  visitAggregate(type);
}

function visitAggregate(type: string): void {
  if (aggregates[type]) return;
  const { s, el } = complexType(type);
  const seq = xs(el, 'sequence')[0];
  if (!seq) throw new Error(`${type} has no sequence`);
  if (xs(seq, 'any').length > 0) {
    aggregates[type] = 'any';
    return;
  }
  const items: [string, number, number][] = [];
  aggregates[type] = items;
  for (const c of seq.children) {
    if (c.ns !== XSD) continue;
    if (c.local !== 'element' || !at(c, 'ref')) throw new Error(`${type}: unexpected ${c.local}`);
    const ref = qname(s, at(c, 'ref')!);
    const max = at(c, 'maxOccurs') ?? '1';
    items.push([ref, Number(at(c, 'minOccurs') ?? '1'), max === 'unbounded' ? -1 : Number(max)]);
  }
  for (const [ref] of items) visitElement(ref);
}

const roots: Record<string, string> = {};
for (const root of ['inv:Invoice', 'cn:CreditNote']) {
  const type = globalElementType(root);
  roots[root] = type;
  elements[root] = type;
  visitAggregate(type);
}

const sorted = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const out =
  '/* Generated by scripts/gen-ubl-structure.ts from the OASIS UBL 2.1 schemas: do not edit by hand. */\n' +
  '/**\n * The element structure of UBL 2.1 Invoice and CreditNote as facts (see src/xml/ubl/schema.ts): prefixes inv, cn, cac, cbc,\n' +
  ' * ext, udt, cct, qdt stand for the UBL namespaces. `aggregates`: type → [element, minOccurs, maxOccurs (-1 unbounded)], or\n' +
  " * 'any' for lax wildcard content; `elements`: element → type; `values`: value type → builtin base and attributes\n" +
  ' * [name, builtin type, required].\n */\n' +
  `export const UBL21_ROOTS: Record<string, string> = ${JSON.stringify(roots)};\n` +
  `export const UBL21_AGGREGATES: Record<string, [string, number, number][] | 'any'> = ${JSON.stringify(sorted(aggregates))};\n` +
  `export const UBL21_ELEMENTS: Record<string, string> = ${JSON.stringify(sorted(elements))};\n` +
  `export const UBL21_VALUES: Record<string, { base: string; attrs: [string, string, boolean][] }> = ${JSON.stringify(sorted(values))};\n`;
writeFileSync(path.resolve(process.cwd(), 'src/xml/ubl/ubl21-structure.data.ts'), out);
console.log(
  `aggregates ${Object.keys(aggregates).length}, elements ${Object.keys(elements).length}, value types ${Object.keys(values).length}, ${out.length} bytes`,
);
