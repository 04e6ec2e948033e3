/**
 * ISO 19005-2/3 6.6.2.3: every XMP property is predefined (XMP 2005 and PDF/A schemas) or declared in a PDF/A
 * extension schema, with a value of its declared type, and extension schemas follow the container's structure.
 *
 * The input's packet is read with the checker's own RDF reader and written again from scratch: extension schema
 * entries that break the container rules are dropped; a property of a namespace PDF/A does not predefine whose value
 * is text (or an array of text, or a language alternative) and that no valid schema declares is declared by a new
 * extension schema entry (category external); a property that cannot be declared (an unknown name in a predefined
 * namespace, a value of the wrong type, a structure of an undeclared type) is dropped. Values pass through the same
 * sanitising as everything the writer emits (no control characters). The writer then carries the clean packet over
 * into the hybrid PDF's XMP (src/pdf/xmp-write.ts), as it does for any input.
 */
import { PDFName, PDFRef, PDFRawStream, type PDFDocument } from '@cantoo/pdf-lib';
import type { Finding } from '../../pdfa/model.js';
import { checkMainXmp, readXmpPacket, type XProp, type XValue } from '../../pdfa/xmp.js';
import { NS_PDFA_EXT, NS_PDFA_PROPERTY, NS_PDFA_SCHEMA, NS_PDFAID, NS_RDF, PREDEFINED } from '../../pdfa/xmp-schemas.js';
import { MAX_XMP_BYTES } from '../limits.js';
import { escapeXmlText } from '../xmp-write.js';
import type { Repair, RepairOutcome } from './types.js';
import { decodedBytes, streamOf } from './walk.js';

const key = (k: string) => PDFName.of(k);
/** Properties looked at; a packet with more keeps the first ones (an XMP packet has tens). */
const MAX_PROPERTIES = 2_000;
/** Extension schema entries judged one by one; beyond this many the rest are dropped (a packet declares a handful). */
const MAX_SCHEMA_ENTRIES = 200;

/** Writes properties as RDF/XML, one rdf:Description per namespace, with unique prefixes. */
class XmpWriter {
  private readonly prefixes = new Map<string, string>();
  private readonly used = new Set(['rdf', 'xml', 'x']);

  prefix(ns: string, wanted: string): string {
    const known = this.prefixes.get(ns);
    if (known) return known;
    let p = /^[A-Za-z_][\w.-]*$/.test(wanted) && !wanted.toLowerCase().startsWith('xml') ? wanted : 'ns';
    for (let i = 1; this.used.has(p); i++) p = `${wanted.replace(/\W/g, '') || 'ns'}${i}`;
    this.used.add(p);
    this.prefixes.set(ns, p);
    return p;
  }

  /** Namespaces used by a property and its fields (for the xmlns declarations of its block). */
  namespaces(p: XProp, out = new Set<string>()): Set<string> {
    out.add(p.ns);
    const walk = (v: XValue): void => {
      if (v.kind === 'struct') for (const f of v.fields) this.namespaces(f, out);
      else if (v.kind === 'array') v.items.forEach(walk);
    };
    walk(p.value);
    return out;
  }

  property(p: XProp): string {
    const name = `${this.prefix(p.ns, p.prefix)}:${p.local}`;
    const v = p.value;
    if (v.kind === 'simple') return `<${name}${lang(v.lang)}>${escapeXmlText(v.text)}</${name}>`;
    if (v.kind === 'struct') return `<${name} rdf:parseType="Resource">${v.fields.map((f) => this.property(f)).join('')}</${name}>`;
    if (v.kind === 'array') return `<${name}>${this.array(v)}</${name}>`;
    return '';
  }

  private array(v: Extract<XValue, { kind: 'array' }>): string {
    const items = v.items.map((i) => {
      if (i.kind === 'simple') return `<rdf:li${lang(i.lang)}>${escapeXmlText(i.text)}</rdf:li>`;
      if (i.kind === 'struct') return `<rdf:li rdf:parseType="Resource">${i.fields.map((f) => this.property(f)).join('')}</rdf:li>`;
      if (i.kind === 'array') return `<rdf:li>${this.array(i)}</rdf:li>`;
      return '';
    });
    return `<rdf:${v.arr}>${items.join('')}</rdf:${v.arr}>`;
  }

  block(props: XProp[]): string {
    const nss = new Set<string>();
    for (const p of props) this.namespaces(p, nss);
    const body = props.map((p) => this.property(p)).join('');
    const decls = [...nss].map((ns) => ` xmlns:${this.prefix(ns, 'ns')}="${escapeXmlText(ns)}"`).join('');
    return `<rdf:Description rdf:about=""${decls}>${body}</rdf:Description>`;
  }
}

const lang = (l: string | undefined) => (l === undefined ? '' : ` xml:lang="${escapeXmlText(l)}"`);

function packet(blocks: string[]): string {
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="${NS_RDF}">` +
    blocks.join('') +
    '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
  );
}

const issuesOf = (xml: string) => checkMainXmp(readXmpPacket(new TextEncoder().encode(xml))).issues;

/** The value type a new declaration can give this value, or undefined when it cannot be declared as text. */
function declarableType(v: XValue): string | undefined {
  if (v.kind === 'simple') return 'Text';
  if (v.kind !== 'array' || !v.items.every((i) => i.kind === 'simple')) return undefined;
  if (v.arr === 'Alt' && v.items.every((i) => i.kind === 'simple' && i.lang !== undefined)) return 'Lang Alt';
  return `${v.arr} Text`;
}

function schemaItem(ns: string, prefix: string, props: Map<string, string>): XValue {
  const s = (local: string, text: string, nsUri = NS_PDFA_SCHEMA, pfx = 'pdfaSchema'): XProp => ({
    ns: nsUri,
    local,
    prefix: pfx,
    value: { kind: 'simple', text },
  });
  const p = (local: string, text: string) => s(local, text, NS_PDFA_PROPERTY, 'pdfaProperty');
  return {
    kind: 'struct',
    fields: [
      s('schema', `Properties of ${ns}`),
      s('namespaceURI', ns),
      s('prefix', prefix),
      {
        ns: NS_PDFA_SCHEMA,
        local: 'property',
        prefix: 'pdfaSchema',
        value: {
          kind: 'array',
          arr: 'Seq',
          items: [...props].map(([name, type]) => ({
            kind: 'struct',
            fields: [p('name', name), p('valueType', type), p('category', 'external'), p('description', name)],
          })),
        },
      },
    ],
  };
}

const container = (items: XValue[]): XProp => ({
  ns: NS_PDFA_EXT,
  local: 'schemas',
  prefix: 'pdfaExtension',
  value: { kind: 'array', arr: 'Bag', items },
});

/** The packet rebuilt: valid extension entries kept, declarable properties declared, the rest dropped. */
export function cleanXmp(xml: Uint8Array): { xml: string; dropped: string[]; declared: string[]; droppedSchemas: number } | undefined {
  const pkt = readXmpPacket(xml);
  if (pkt.error) return undefined; // not well-formed: the writer replaces it whole
  const props = pkt.props.slice(0, MAX_PROPERTIES);
  // Extension schema entries, each judged alone.
  const entries: XValue[] = [];
  for (const c of props.filter((p) => p.ns === NS_PDFA_EXT && p.local === 'schemas'))
    if (c.value.kind === 'array') entries.push(...c.value.items);
  const valid = entries.slice(0, MAX_SCHEMA_ENTRIES).filter((item) => {
    const w = new XmpWriter();
    return issuesOf(packet([w.block([container([item])])])).every((i) => !i.clause.startsWith('6.6.2.3.'));
  });
  const others = props.filter((p) => p.ns !== NS_PDFA_EXT);
  // Judge every property against the valid declarations at once.
  const judge = (declared: XValue[]) => {
    const w = new XmpWriter();
    const blocks = declared.length ? [w.block([container(declared)])] : [];
    blocks.push(w.block(others));
    const failing = new Map<string, string>();
    for (const i of issuesOf(packet(blocks))) if (i.path && i.clause.startsWith('6.6.2.3.1')) failing.set(i.path, i.clause);
    return { failing, w };
  };
  const { failing, w: probe } = judge(valid);
  const pathOf = (p: XProp) => `${probe.prefix(p.ns, p.prefix)}:${p.local}`;
  const toDeclare = new Map<string, { prefix: string; props: Map<string, string> }>();
  const dropped: string[] = [];
  const declared: string[] = [];
  const kept: XProp[] = [];
  for (const p of others) {
    const clause = failing.get(pathOf(p));
    if (!clause) {
      kept.push(p);
      continue;
    }
    const type = declarableType(p.value);
    if (clause === '6.6.2.3.1-1' && type && !PREDEFINED.has(p.ns) && p.ns !== NS_PDFAID && p.ns) {
      const s = toDeclare.get(p.ns) ?? { prefix: p.prefix, props: new Map<string, string>() };
      s.props.set(p.local, type);
      toDeclare.set(p.ns, s);
      declared.push(`${p.prefix}:${p.local}`);
      kept.push(p);
    } else dropped.push(`${p.prefix}:${p.local}`);
  }
  const schemas = [...valid, ...[...toDeclare].map(([ns, s]) => schemaItem(ns, s.prefix, s.props))];
  const w = new XmpWriter();
  const blocks: string[] = [];
  if (schemas.length) blocks.push(w.block([container(schemas)]));
  const byNs = new Map<string, XProp[]>();
  for (const p of kept) byNs.set(p.ns, [...(byNs.get(p.ns) ?? []), p]);
  for (const list of byNs.values()) blocks.push(w.block(list));
  return { xml: packet(blocks), dropped, declared, droppedSchemas: entries.length - valid.length };
}

export function xmpProperties_6_6_2_3(doc: PDFDocument): RepairOutcome {
  const ref = doc.catalog.get(key('Metadata'));
  const stream = streamOf(doc, ref);
  if (!(stream instanceof PDFRawStream)) return { changed: 0 };
  const bytes = decodedBytes(doc, stream, MAX_XMP_BYTES);
  if (!bytes) return { changed: 0 };
  const clean = cleanXmp(bytes);
  const changed = clean ? clean.dropped.length + clean.declared.length + clean.droppedSchemas : 0;
  if (!clean || changed === 0) return { changed: 0 }; // what the checker saw is left to the writer's carry-over
  const replacement = doc.context.stream(new TextEncoder().encode(clean.xml), { Type: 'Metadata', Subtype: 'XML' });
  if (ref instanceof PDFRef) doc.context.assign(ref, replacement);
  else doc.catalog.set(key('Metadata'), doc.context.register(replacement));
  const unrepaired: Finding[] = clean.dropped.length
    ? [
        {
          clause: '6.6.2.3.1-1',
          message: `XMP properties that cannot be declared were dropped: ${clean.dropped.slice(0, 10).join(', ')}${clean.dropped.length > 10 ? ', …' : ''}`,
          object: 'XMP',
        },
      ]
    : [];
  return { changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

export const XMP_REPAIRS: Repair[] = [
  {
    name: 'xmp-properties',
    clauses: ['6.6.2.3.1-1', '6.6.2.3.1-2', '6.6.2.3.2-1', ...Array.from({ length: 18 }, (_, i) => `6.6.2.3.3-${i + 1}`)],
    apply: ({ doc }) => xmpProperties_6_6_2_3(doc),
  },
];
