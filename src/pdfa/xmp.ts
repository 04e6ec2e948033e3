/**
 * XMP for the PDF/A checker: the packet read into a small RDF model (properties with simple, array or
 * structure values, whatever their RDF/XML spelling), and the metadata clauses (6.6.2.x, 6.6.4) as
 * functions over that model.
 */
import { parseXml, type XmlElement } from '../xml/dom.js';
import {
  NS_PDFA_EXT,
  NS_PDFA_FIELD,
  NS_PDFA_PROPERTY,
  NS_PDFA_SCHEMA,
  NS_PDFA_TYPE,
  NS_PDFAID,
  NS_RDF,
  NS_XML,
  PREDEFINED,
  SIMPLE_TYPES,
  STRUCTS,
  simpleValueOk,
} from './xmp-schemas.js';

export type XValue =
  | { kind: 'simple'; text: string; lang?: string }
  | { kind: 'array'; arr: 'Bag' | 'Seq' | 'Alt'; items: XValue[] }
  | { kind: 'struct'; fields: XProp[] }
  | { kind: 'invalid'; why: string };

export interface XProp {
  ns: string;
  local: string;
  prefix: string;
  value: XValue;
}

export interface XmpPacket {
  props: XProp[];
  /** Error when the packet is not well-formed XML or not RDF. */
  error?: string;
  headerAttrs: Record<string, string>;
  hasHeader: boolean;
}

export interface XmpIssue {
  clause: string;
  message: string;
  path?: string;
}

const XPACKET_HEAD = /<\?xpacket\s+([^?]*)\?>/;

export function readXmpPacket(bytes: Uint8Array): XmpPacket {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1');
  const hm = XPACKET_HEAD.exec(head);
  const headerAttrs: Record<string, string> = {};
  if (hm && hm[0].includes('begin')) {
    for (const a of hm[1].matchAll(/(\w+)\s*=\s*(['"])(.*?)\2/g)) headerAttrs[a[1]] = a[3];
  }
  const out: XmpPacket = { props: [], headerAttrs, hasHeader: !!hm && hm[0].includes('begin') };
  let root: XmlElement;
  try {
    root = parseXml(bytes).root;
  } catch (err) {
    out.error = (err as Error).message;
    return out;
  }
  const rdf = findRdf(root);
  if (!rdf) {
    out.error = 'no rdf:RDF element';
    return out;
  }
  for (const d of rdf.children) {
    if (d.ns !== NS_RDF || d.local !== 'Description') {
      out.error = `unexpected element ${d.prefix ? d.prefix + ':' : ''}${d.local} in rdf:RDF`;
      continue;
    }
    out.props.push(...propsOfNode(d));
  }
  return out;
}

function findRdf(el: XmlElement): XmlElement | undefined {
  if (el.ns === NS_RDF && el.local === 'RDF') return el;
  for (const c of el.children) {
    const r = findRdf(c);
    if (r) return r;
  }
  return undefined;
}

/** Properties of a node element (rdf:Description or a parseType=Resource property element). */
function propsOfNode(el: XmlElement): XProp[] {
  const props: XProp[] = [];
  for (const a of el.attrs) {
    if (a.ns === NS_RDF || a.ns === NS_XML || a.ns === '' || a.prefix === 'xmlns') continue;
    props.push({ ns: a.ns, local: a.local, prefix: a.prefix, value: { kind: 'simple', text: a.value } });
  }
  for (const c of el.children) props.push({ ns: c.ns, local: c.local, prefix: c.prefix, value: xmpValueOf(c) });
  return props;
}

function attr(el: XmlElement, ns: string, local: string): string | undefined {
  for (const a of el.attrs) if (a.ns === ns && a.local === local) return a.value;
  return undefined;
}

function xmpValueOf(el: XmlElement): XValue {
  const res = attr(el, NS_RDF, 'resource');
  if (res !== undefined) return { kind: 'simple', text: res };
  if (attr(el, NS_RDF, 'parseType') === 'Resource') return { kind: 'struct', fields: propsOfNode(el) };
  const extraAttrs = el.attrs.filter((a) => a.ns !== NS_RDF && a.ns !== NS_XML && a.ns !== '' && a.prefix !== 'xmlns');
  if (el.children.length === 0) {
    if (extraAttrs.length > 0) return { kind: 'struct', fields: propsOfNode(el) };
    return {
      kind: 'simple',
      text: el.text,
      lang: attr(el, NS_XML, 'lang') ?? el.attrs.find((a) => a.prefix === 'xml' && a.local === 'lang')?.value,
    };
  }
  if (el.children.length > 1) return { kind: 'invalid', why: 'more than one child element' };
  const c = el.children[0];
  if (c.ns === NS_RDF && (c.local === 'Bag' || c.local === 'Seq' || c.local === 'Alt')) {
    const items: XValue[] = [];
    for (const li of c.children) {
      if (li.ns !== NS_RDF || li.local !== 'li') return { kind: 'invalid', why: `rdf:${c.local} holds ${li.local}` };
      items.push(xmpValueOf(li));
    }
    return { kind: 'array', arr: c.local, items };
  }
  if (c.ns === NS_RDF && c.local === 'Description') {
    // rdf:value qualifiers: the value is the rdf:value child.
    const v = c.children.find((x) => x.ns === NS_RDF && x.local === 'value');
    if (v) return xmpValueOf(v);
    return { kind: 'struct', fields: propsOfNode(c) };
  }
  return { kind: 'invalid', why: `unexpected element ${c.prefix}:${c.local}` };
}

// ---------------------------------------------------------------------------------------------
// Extension schemas

interface DeclaredSchema {
  ns: string;
  props: Map<string, string>;
}
interface DeclaredType {
  ns: string;
  fields: Map<string, string>;
}

function textOf(v: XValue | undefined): string | undefined {
  return v && v.kind === 'simple' ? v.text.trim() : undefined;
}

function field(fields: XProp[], ns: string, local: string): XProp | undefined {
  return fields.find((f) => f.ns === ns && f.local === local);
}

function baseType(t: string): string {
  const m = /^(?:(?:Closed|Open) Choice of )(.+)$/.exec(t.trim());
  return m ? m[1] : t.trim();
}

function knownType(t: string, types: Map<string, DeclaredType>): boolean {
  const b = baseType(t);
  if (b === 'Lang Alt') return true;
  const m = /^(Bag|Seq|Alt) (.+)$/.exec(b);
  const inner = m ? baseType(m[2]) : b;
  return SIMPLE_TYPES.has(inner) || STRUCTS.has(inner) || types.has(inner) || inner === 'Choice';
}

/** Read and check pdfaExtension:schemas; returns the declared schemas and types and the issues found. */
function extensionSchemas(props: XProp[], issues: XmpIssue[]): { schemas: DeclaredSchema[]; types: Map<string, DeclaredType> } {
  const schemas: DeclaredSchema[] = [];
  const types = new Map<string, DeclaredType>();
  const containers = props.filter((p) => p.ns === NS_PDFA_EXT);
  const pending: { owner: string; type: string }[] = [];
  for (const c of containers) {
    if (c.local !== 'schemas') {
      issues.push({
        clause: '6.6.2.3.3-1',
        message: `pdfaExtension:${c.local} is not a defined field of the extension container`,
        path: `pdfaExtension:${c.local}`,
      });
      continue;
    }
    if (c.prefix !== 'pdfaExtension')
      issues.push({
        clause: '6.6.2.3.3-1',
        message: `the extension container uses prefix "${c.prefix}" instead of pdfaExtension`,
        path: 'pdfaExtension:schemas',
      });
    if (c.value.kind !== 'array' || c.value.arr !== 'Bag') {
      issues.push({ clause: '6.6.2.3.3-1', message: 'pdfaExtension:schemas is not an rdf:Bag', path: 'pdfaExtension:schemas' });
      continue;
    }
    c.value.items.forEach((item, i) => {
      const path = `pdfaExtension:schemas[${i + 1}]`;
      if (item.kind !== 'struct') {
        issues.push({ clause: '6.6.2.3.3-1', message: 'an extension schema entry is not a structure', path });
        return;
      }
      for (const f of item.fields) {
        if (f.ns !== NS_PDFA_SCHEMA || !['schema', 'namespaceURI', 'prefix', 'property', 'valueType'].includes(f.local)) {
          issues.push({ clause: '6.6.2.3.2-1', message: `extension schema description has undefined field ${f.prefix}:${f.local}`, path });
        } else if (f.prefix !== 'pdfaSchema') {
          issues.push({ clause: '6.6.2.3.3-2', message: `pdfaSchema field ${f.local} uses prefix "${f.prefix}"`, path });
        }
      }
      const schemaName = field(item.fields, NS_PDFA_SCHEMA, 'schema');
      if (!schemaName || textOf(schemaName.value) === undefined)
        issues.push({ clause: '6.6.2.3.3-2', message: 'pdfaSchema:schema is missing or not Text', path });
      const nsUri = textOf(field(item.fields, NS_PDFA_SCHEMA, 'namespaceURI')?.value);
      if (nsUri === undefined) issues.push({ clause: '6.6.2.3.3-3', message: 'pdfaSchema:namespaceURI is missing or not a URI', path });
      const prefix = textOf(field(item.fields, NS_PDFA_SCHEMA, 'prefix')?.value);
      if (prefix === undefined) issues.push({ clause: '6.6.2.3.3-4', message: 'pdfaSchema:prefix is missing or not Text', path });
      const declared: DeclaredSchema = { ns: nsUri ?? '', props: new Map() };
      const propList = field(item.fields, NS_PDFA_SCHEMA, 'property');
      if (propList) {
        if (propList.value.kind !== 'array' || propList.value.arr !== 'Seq') {
          issues.push({ clause: '6.6.2.3.3-5', message: 'pdfaSchema:property is not an rdf:Seq', path });
        } else {
          propList.value.items.forEach((pv, k) => {
            const ppath = `${path}/pdfaSchema:property[${k + 1}]`;
            if (pv.kind !== 'struct') {
              issues.push({ clause: '6.6.2.3.3-5', message: 'a pdfaSchema:property entry is not a structure', path: ppath });
              return;
            }
            for (const f of pv.fields) {
              if (f.ns !== NS_PDFA_PROPERTY || !['name', 'valueType', 'category', 'description'].includes(f.local)) {
                issues.push({
                  clause: '6.6.2.3.2-1',
                  message: `extension property description has undefined field ${f.prefix}:${f.local}`,
                  path: ppath,
                });
              } else if (f.prefix !== 'pdfaProperty') {
                issues.push({ clause: '6.6.2.3.3-7', message: `pdfaProperty field ${f.local} uses prefix "${f.prefix}"`, path: ppath });
              }
            }
            const name = textOf(field(pv.fields, NS_PDFA_PROPERTY, 'name')?.value);
            const vt = textOf(field(pv.fields, NS_PDFA_PROPERTY, 'valueType')?.value);
            const cat = textOf(field(pv.fields, NS_PDFA_PROPERTY, 'category')?.value);
            const desc = textOf(field(pv.fields, NS_PDFA_PROPERTY, 'description')?.value);
            if (name === undefined)
              issues.push({ clause: '6.6.2.3.3-7', message: 'pdfaProperty:name is missing or not Text', path: ppath });
            if (vt === undefined)
              issues.push({ clause: '6.6.2.3.3-8', message: 'pdfaProperty:valueType is missing or not Text', path: ppath });
            else pending.push({ owner: ppath, type: vt });
            if (cat !== 'internal' && cat !== 'external')
              issues.push({
                clause: '6.6.2.3.3-9',
                message: `pdfaProperty:category is ${cat === undefined ? 'missing' : `"${cat}"`}, not internal or external`,
                path: ppath,
              });
            if (desc === undefined)
              issues.push({ clause: '6.6.2.3.3-10', message: 'pdfaProperty:description is missing or not Text', path: ppath });
            if (name !== undefined && vt !== undefined) declared.props.set(name, vt);
          });
        }
      }
      const typeList = field(item.fields, NS_PDFA_SCHEMA, 'valueType');
      if (typeList) {
        if (typeList.value.kind !== 'array' || typeList.value.arr !== 'Seq') {
          issues.push({ clause: '6.6.2.3.3-6', message: 'pdfaSchema:valueType is not an rdf:Seq', path });
        } else {
          typeList.value.items.forEach((tv, k) => {
            const tpath = `${path}/pdfaSchema:valueType[${k + 1}]`;
            if (tv.kind !== 'struct') {
              issues.push({ clause: '6.6.2.3.3-6', message: 'a pdfaSchema:valueType entry is not a structure', path: tpath });
              return;
            }
            for (const f of tv.fields) {
              if (f.ns !== NS_PDFA_TYPE || !['type', 'namespaceURI', 'prefix', 'description', 'field'].includes(f.local)) {
                issues.push({
                  clause: '6.6.2.3.2-1',
                  message: `extension value type has undefined field ${f.prefix}:${f.local}`,
                  path: tpath,
                });
              } else if (f.prefix !== 'pdfaType') {
                issues.push({ clause: '6.6.2.3.3-11', message: `pdfaType field ${f.local} uses prefix "${f.prefix}"`, path: tpath });
              }
            }
            const tname = textOf(field(tv.fields, NS_PDFA_TYPE, 'type')?.value);
            const tns = textOf(field(tv.fields, NS_PDFA_TYPE, 'namespaceURI')?.value);
            if (tname === undefined) issues.push({ clause: '6.6.2.3.3-11', message: 'pdfaType:type is missing or not Text', path: tpath });
            if (tns === undefined)
              issues.push({ clause: '6.6.2.3.3-12', message: 'pdfaType:namespaceURI is missing or not a URI', path: tpath });
            if (textOf(field(tv.fields, NS_PDFA_TYPE, 'prefix')?.value) === undefined)
              issues.push({ clause: '6.6.2.3.3-13', message: 'pdfaType:prefix is missing or not Text', path: tpath });
            if (textOf(field(tv.fields, NS_PDFA_TYPE, 'description')?.value) === undefined)
              issues.push({ clause: '6.6.2.3.3-14', message: 'pdfaType:description is missing or not Text', path: tpath });
            const dt: DeclaredType = { ns: tns ?? '', fields: new Map() };
            const fl = field(tv.fields, NS_PDFA_TYPE, 'field');
            if (fl) {
              if (fl.value.kind !== 'array' || fl.value.arr !== 'Seq')
                issues.push({ clause: '6.6.2.3.3-15', message: 'pdfaType:field is not an rdf:Seq', path: tpath });
              else
                fl.value.items.forEach((fv, j) => {
                  const fpath = `${tpath}/pdfaType:field[${j + 1}]`;
                  if (fv.kind !== 'struct') {
                    issues.push({ clause: '6.6.2.3.3-15', message: 'a pdfaType:field entry is not a structure', path: fpath });
                    return;
                  }
                  for (const f of fv.fields) {
                    if (f.ns !== NS_PDFA_FIELD || !['name', 'valueType', 'description'].includes(f.local)) {
                      issues.push({
                        clause: '6.6.2.3.2-1',
                        message: `extension field description has undefined field ${f.prefix}:${f.local}`,
                        path: fpath,
                      });
                    } else if (f.prefix !== 'pdfaField') {
                      issues.push({ clause: '6.6.2.3.3-16', message: `pdfaField field ${f.local} uses prefix "${f.prefix}"`, path: fpath });
                    }
                  }
                  const fname = textOf(field(fv.fields, NS_PDFA_FIELD, 'name')?.value);
                  const fvt = textOf(field(fv.fields, NS_PDFA_FIELD, 'valueType')?.value);
                  if (fname === undefined)
                    issues.push({ clause: '6.6.2.3.3-16', message: 'pdfaField:name is missing or not Text', path: fpath });
                  if (fvt === undefined)
                    issues.push({ clause: '6.6.2.3.3-17', message: 'pdfaField:valueType is missing or not Text', path: fpath });
                  else pending.push({ owner: fpath, type: fvt });
                  if (textOf(field(fv.fields, NS_PDFA_FIELD, 'description')?.value) === undefined)
                    issues.push({ clause: '6.6.2.3.3-18', message: 'pdfaField:description is missing or not Text', path: fpath });
                  if (fname !== undefined && fvt !== undefined) dt.fields.set(fname, fvt);
                });
            }
            if (tname !== undefined) types.set(tname, dt);
          });
        }
      }
      schemas.push(declared);
    });
  }
  for (const p of pending) {
    if (!knownType(p.type, types))
      issues.push({
        clause: p.owner.includes('pdfaType:field') ? '6.6.2.3.3-17' : '6.6.2.3.3-8',
        message: `value type "${p.type}" is neither predefined nor declared`,
        path: p.owner,
      });
  }
  return { schemas, types };
}

// ---------------------------------------------------------------------------------------------
// Value types

function typeError(type: string, v: XValue, types: Map<string, DeclaredType>, depth = 0): string | undefined {
  if (depth > 20) return undefined;
  const t = baseType(type);
  if (v.kind === 'invalid') return v.why;
  if (t === 'Lang Alt') {
    if (v.kind !== 'array' || v.arr !== 'Alt') return 'expected a language alternative (rdf:Alt)';
    return v.items.every((i) => i.kind === 'simple' && i.lang !== undefined)
      ? undefined
      : 'language alternative items must be text with xml:lang';
  }
  const m = /^(Bag|Seq|Alt) (.+)$/.exec(t);
  if (m) {
    if (v.kind !== 'array' || v.arr !== m[1]) return `expected an rdf:${m[1]}`;
    for (const item of v.items) {
      const e = typeError(m[2], item, types, depth + 1);
      if (e) return e;
    }
    return undefined;
  }
  if (SIMPLE_TYPES.has(t) || t === 'Choice') {
    if (v.kind !== 'simple') return `expected a simple ${t} value`;
    return simpleValueOk(t, v.text) ? undefined : `"${v.text.slice(0, 40)}" is not a valid ${t}`;
  }
  const st = STRUCTS.get(t) ?? types.get(t);
  if (st) {
    if (v.kind !== 'struct') return `expected a ${t} structure`;
    for (const f of v.fields) {
      const ft = f.ns === st.ns ? st.fields.get(f.local) : undefined;
      if (!ft) return `${f.prefix}:${f.local} is not a field of ${t}`;
      const e = typeError(ft, f.value, types, depth + 1);
      if (e) return `${f.prefix}:${f.local}: ${e}`;
    }
    return undefined;
  }
  return undefined; // unknown types are reported on the declaration
}

export interface XmpCheckResult {
  issues: XmpIssue[];
  part?: string;
  conformance?: string;
}

/** The metadata clauses on the document's main XMP packet. */
export function checkMainXmp(pkt: XmpPacket): XmpCheckResult {
  const issues: XmpIssue[] = [];
  if (pkt.hasHeader) {
    if ('bytes' in pkt.headerAttrs) issues.push({ clause: '6.6.2.1-2', message: 'the xpacket header has a bytes attribute' });
    if ('encoding' in pkt.headerAttrs) issues.push({ clause: '6.6.2.1-3', message: 'the xpacket header has an encoding attribute' });
  }
  if (pkt.error) {
    issues.push({ clause: '6.6.2.1-4', message: `the metadata stream is not well-formed XMP: ${pkt.error}` });
    return { issues };
  }
  const { schemas, types } = extensionSchemas(pkt.props, issues);
  const declared = new Map<string, Map<string, string>>();
  for (const s of schemas) {
    const m = declared.get(s.ns) ?? new Map<string, string>();
    for (const [k, v] of s.props) m.set(k, v);
    declared.set(s.ns, m);
  }
  let part: string | undefined;
  let conformance: string | undefined;
  for (const p of pkt.props) {
    if (p.ns === NS_PDFA_EXT) continue;
    const path = `${p.prefix}:${p.local}`;
    if (p.ns === NS_PDFAID) {
      if (p.local === 'part') {
        part = textOf(p.value);
        if (p.prefix !== 'pdfaid') issues.push({ clause: '6.6.4-4', message: `pdfaid part uses prefix "${p.prefix}"`, path });
      } else if (p.local === 'conformance') {
        conformance = textOf(p.value);
        if (p.prefix !== 'pdfaid') issues.push({ clause: '6.6.4-5', message: `pdfaid conformance uses prefix "${p.prefix}"`, path });
      } else if (p.local === 'amd' && p.prefix !== 'pdfaid')
        issues.push({ clause: '6.6.4-6', message: `pdfaid amd uses prefix "${p.prefix}"`, path });
      else if (p.local === 'corr' && p.prefix !== 'pdfaid')
        issues.push({ clause: '6.6.4-7', message: `pdfaid corr uses prefix "${p.prefix}"`, path });
    }
    const type = PREDEFINED.get(p.ns)?.props.get(p.local) ?? declared.get(p.ns)?.get(p.local);
    if (type === undefined) {
      issues.push({
        clause: '6.6.2.3.1-1',
        message: `property ${path} (${p.ns}) is neither predefined nor declared in an extension schema`,
        path,
      });
      continue;
    }
    const e = typeError(type, p.value, types);
    if (e) issues.push({ clause: '6.6.2.3.1-2', message: `property ${path} does not have its value type ${type}: ${e}`, path });
  }
  return { issues, part, conformance };
}
