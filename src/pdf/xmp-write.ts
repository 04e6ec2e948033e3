/**
 * The Factur-X / ZUGFeRD / XRechnung part of a hybrid invoice's XMP packet: the fx: properties and the
 * PDF/A extension schema that declares them (fx is not a predefined XMP schema, so PDF/A requires the
 * declaration; prefixes pdfaExtension / pdfaSchema / pdfaProperty are checked literally by validators).
 *
 * The rest of the packet (pdfaid, dc, xmp, pdf, kept in step with the Info dictionary) is written by
 * @cantoo/pdf-lib's convertToPDFA, which takes these blocks as "extensions" and keeps them on save.
 */
import { parseXml, type XmlElement } from '../xml/dom.js';

/** Namespace of the Factur-X 1.0x / ZUGFeRD 2.1+ properties (also used for the XRECHNUNG profile). */
export const FX_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

const EXTENSION_NS = 'http://www.aiim.org/pdfa/ns/extension/';
const SCHEMA_NS = 'http://www.aiim.org/pdfa/ns/schema#';
const PROPERTY_NS = 'http://www.aiim.org/pdfa/ns/property#';

export interface FxProperties {
  documentType: string;
  documentFileName: string;
  version: string;
  conformanceLevel: string;
}

export function escapeXmlText(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '') // not representable in XML 1.0
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** `<rdf:Description>` holding the four fx: properties, in element form (what readers expect first). */
export function fxDescription(p: FxProperties): string {
  return (
    `<rdf:Description rdf:about="" xmlns:fx="${FX_NAMESPACE}">` +
    `<fx:DocumentType>${escapeXmlText(p.documentType)}</fx:DocumentType>` +
    `<fx:DocumentFileName>${escapeXmlText(p.documentFileName)}</fx:DocumentFileName>` +
    `<fx:Version>${escapeXmlText(p.version)}</fx:Version>` +
    `<fx:ConformanceLevel>${escapeXmlText(p.conformanceLevel)}</fx:ConformanceLevel>` +
    '</rdf:Description>'
  );
}

const FX_PROPERTY_DOCS: [name: string, description: string][] = [
  ['DocumentFileName', 'File name of the embedded invoice XML'],
  ['DocumentType', 'Kind of hybrid document, INVOICE for invoices'],
  ['Version', 'Version of the invoice XML schema or specification'],
  ['ConformanceLevel', 'Profile the embedded invoice XML conforms to'],
];

/** One `rdf:li` of pdfaExtension:schemas declaring the fx schema and its four Text properties. */
export function fxSchemaListItem(declarePrefixes = false): string {
  const properties = FX_PROPERTY_DOCS.map(
    ([name, description]) =>
      '<rdf:li rdf:parseType="Resource">' +
      `<pdfaProperty:name>${name}</pdfaProperty:name>` +
      '<pdfaProperty:valueType>Text</pdfaProperty:valueType>' +
      '<pdfaProperty:category>external</pdfaProperty:category>' +
      `<pdfaProperty:description>${description}</pdfaProperty:description>` +
      '</rdf:li>',
  ).join('');
  return (
    // Inside another producer's block the item declares its own prefixes, so it stays well-formed whatever that block binds.
    (declarePrefixes
      ? `<rdf:li rdf:parseType="Resource" xmlns:pdfaSchema="${SCHEMA_NS}" xmlns:pdfaProperty="${PROPERTY_NS}">`
      : '<rdf:li rdf:parseType="Resource">') +
    '<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>' +
    `<pdfaSchema:namespaceURI>${FX_NAMESPACE}</pdfaSchema:namespaceURI>` +
    '<pdfaSchema:prefix>fx</pdfaSchema:prefix>' +
    `<pdfaSchema:property><rdf:Seq>${properties}</rdf:Seq></pdfaSchema:property>` +
    '</rdf:li>'
  );
}

const EXTENSION_OPEN =
  `<rdf:Description rdf:about="" xmlns:pdfaExtension="${EXTENSION_NS}" xmlns:pdfaSchema="${SCHEMA_NS}" ` +
  `xmlns:pdfaProperty="${PROPERTY_NS}">`;

/**
 * The pdfaExtension block to write. A packet holds pdfaExtension:schemas once, so when the input already
 * declares other schemas (`existing`, a standalone block carried over), the fx schema joins that block's Bag
 * instead of replacing it, which would leave the input's own custom properties undeclared.
 */
export function extensionSchemaBlock(existing?: string): string {
  if (existing && /<rdf:Bag\s*>/.test(existing)) {
    if (existing.includes(`>${FX_NAMESPACE}<`)) return existing;
    return existing.replace(/<rdf:Bag\s*>/, (bag) => bag + fxSchemaListItem(true));
  }
  return `${EXTENSION_OPEN}<pdfaExtension:schemas><rdf:Bag>${fxSchemaListItem()}</rdf:Bag></pdfaExtension:schemas></rdf:Description>`;
}

// ---------------------------------------------------------------------------------------------
// Carrying an input's XMP over

const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/**
 * Schemas PDF/A predefines (XMP 2005), usable without an extension schema. dc, xmp, pdf and pdfaid are
 * rewritten from the Info dictionary by the library and therefore not carried over.
 */
const PREDEFINED_NS = new Set([
  'http://ns.adobe.com/xap/1.0/rights/',
  'http://ns.adobe.com/xap/1.0/mm/',
  'http://ns.adobe.com/xap/1.0/bj/',
  'http://ns.adobe.com/xap/1.0/t/pg/',
  'http://ns.adobe.com/xmp/1.0/DynamicMedia/',
  'http://ns.adobe.com/photoshop/1.0/',
  'http://ns.adobe.com/camera-raw-settings/1.0/',
  'http://ns.adobe.com/exif/1.0/',
  'http://ns.adobe.com/exif/1.0/aux/',
  'http://ns.adobe.com/tiff/1.0/',
  'http://ns.adobe.com/xap/1.0/g/',
  'http://ns.adobe.com/xap/1.0/g/img/',
  'http://ns.adobe.com/xap/1.0/sType/Dimensions#',
  'http://ns.adobe.com/xap/1.0/sType/Font#',
  'http://ns.adobe.com/xap/1.0/sType/ResourceEvent#',
  'http://ns.adobe.com/xap/1.0/sType/ResourceRef#',
  'http://ns.adobe.com/xap/1.0/sType/Version#',
  'http://ns.adobe.com/xap/1.0/sType/Job#',
]);
const OWNED_NS = new Set([
  'http://purl.org/dc/elements/1.1/',
  'http://ns.adobe.com/xap/1.0/',
  'http://ns.adobe.com/pdf/1.3/',
  'http://www.aiim.org/pdfa/ns/id/',
]);
const EXTENSION_FAMILY = /^http:\/\/www\.aiim\.org\/pdfa\/ns\/(extension\/|schema#|property#|type#|field#)$/;
/** Invoice-container namespaces (Factur-X, ZUGFeRD 1/2, XRechnung, Order-X): replaced, never carried over. */
const INVOICE_NS = /^urn:(factur-x|zugferd|ferd|xeinkauf|xrechnung)[:.]/i;

/** Top-level rdf:Description elements of an XMP packet, as exact source text (nested ones stay inside). */
export function topLevelDescriptions(xmp: string): string[] {
  const blocks: string[] = [];
  const tag = /<!--[\s\S]*?-->|<(\/?)rdf:Description\b(?:[^>"']|"[^"]*"|'[^']*')*?(\/?)>/g;
  let depth = 0;
  let start = -1;
  for (let m = tag.exec(xmp); m; m = tag.exec(xmp)) {
    if (m[0].startsWith('<!--')) continue;
    const closing = m[1] === '/';
    const selfClosing = m[2] === '/';
    if (closing) {
      depth--;
      if (depth === 0 && start >= 0) blocks.push(xmp.slice(start, m.index + m[0].length));
      if (depth < 0) return []; // unbalanced: carry nothing
    } else if (selfClosing) {
      if (depth === 0) blocks.push(m[0]);
    } else {
      if (depth === 0) start = m.index;
      depth++;
    }
  }
  return depth === 0 ? blocks : [];
}

interface ParsedBlock {
  text: string;
  root: XmlElement;
  namespaces: Set<string>;
  /** Namespace URIs this block declares as pdfaExtension schemas. */
  declares: string[];
}

function parseBlock(text: string): ParsedBlock | undefined {
  let root: XmlElement;
  try {
    root = parseXml(`<rdf:RDF xmlns:rdf="${RDF_NS}">${text}</rdf:RDF>`).root;
  } catch {
    return undefined; // relies on declarations outside the block, or broken: not carried over
  }
  const namespaces = new Set<string>();
  const declares: string[] = [];
  const visit = (el: XmlElement): void => {
    if (el.ns) namespaces.add(el.ns);
    for (const a of el.attrs) if (a.ns && a.prefix !== 'xmlns' && a.ns !== 'http://www.w3.org/XML/1998/namespace') namespaces.add(a.ns);
    if (el.ns === SCHEMA_NS && el.local === 'namespaceURI') declares.push(el.text.trim());
    el.children.forEach(visit);
  };
  visit(root.children[0]);
  namespaces.delete(RDF_NS);
  return { text, root: root.children[0], namespaces, declares };
}

/**
 * What of an input's XMP can go into the new packet, decided on the parsed blocks (the library's own carry-over
 * matches rdf:Description with a regular expression and breaks on nested descriptions, e.g. xmpMM:History):
 * - `extension`: a standalone pdfaExtension block (its schemas stay declared);
 * - `blocks`: descriptions whose every namespace is predefined or declared by that extension block, that
 *   stand alone and hold no nested rdf:Description. Blocks of dc/xmp/pdf/pdfaid (rebuilt from the Info
 *   dictionary) and of invoice namespaces (replaced by the new fx: block) are left out.
 */
export function carryOverXmp(xmp: string): { blocks: string[]; extension?: string } {
  const parsed = topLevelDescriptions(xmp)
    .map(parseBlock)
    .filter((b): b is ParsedBlock => b !== undefined);
  const extensionBlock = parsed.find((b) => [...b.namespaces].every((ns) => EXTENSION_FAMILY.test(ns)) && b.namespaces.size > 0);
  const extension = extensionBlock ? withoutInvoiceSchemas(extensionBlock) : undefined;
  const declared = new Set(extension ? (parseBlock(extension)?.declares ?? []) : []);
  const blocks = parsed
    .filter((b) => b !== extensionBlock && b.namespaces.size > 0)
    .filter((b) => (b.text.match(/<rdf:Description\b/g) ?? []).length === 1)
    .filter((b) =>
      [...b.namespaces].every(
        (ns) => !OWNED_NS.has(ns) && !INVOICE_NS.test(ns) && !EXTENSION_FAMILY.test(ns) && (PREDEFINED_NS.has(ns) || declared.has(ns)),
      ),
    )
    .map((b) => b.text);
  return { blocks, ...(extension ? { extension } : {}) };
}

/** The extension block without schemas of invoice namespaces (a stale ZUGFeRD 1/2 "fx"/"zf" declaration would clash). */
function withoutInvoiceSchemas(block: ParsedBlock): string | undefined {
  if (!block.declares.some((ns) => INVOICE_NS.test(ns))) return block.text;
  const isInvoiceSchema = (li: XmlElement): boolean => findAll(li, SCHEMA_NS, 'namespaceURI').some((e) => INVOICE_NS.test(e.text.trim()));
  for (const bag of findAll(block.root, RDF_NS, 'Bag')) bag.children = bag.children.filter((li) => !isInvoiceSchema(li));
  if (findAll(block.root, SCHEMA_NS, 'namespaceURI').length === 0) return undefined;
  return serializeElement(block.root);
}

function findAll(el: XmlElement, ns: string, local: string, out: XmlElement[] = []): XmlElement[] {
  if (el.ns === ns && el.local === local) out.push(el);
  for (const c of el.children) findAll(c, ns, local, out);
  return out;
}

/**
 * XML text of an element (XMP has no mixed content: text or children). Every prefix used is declared on the
 * top element; undefined when one prefix stands for two namespaces.
 */
export function serializeElement(top: XmlElement): string | undefined {
  const prefixes = new Map<string, string>();
  let clash = false;
  const note = (prefix: string, ns: string): void => {
    if (!ns || prefix === 'xml') return;
    const seen = prefixes.get(prefix);
    if (seen !== undefined && seen !== ns) clash = true;
    prefixes.set(prefix, ns);
  };
  const collect = (el: XmlElement): void => {
    note(el.prefix, el.ns);
    for (const a of el.attrs) if (a.prefix) note(a.prefix, a.ns);
    el.children.forEach(collect);
  };
  collect(top);
  if (clash) return undefined;
  const name = (prefix: string, local: string) => (prefix ? `${prefix}:${local}` : local);
  const write = (el: XmlElement, declarations: string): string => {
    const attrs = el.attrs.map((a) => ` ${name(a.prefix, a.local)}="${escapeXmlText(a.value)}"`).join('');
    const body = el.children.length > 0 ? el.children.map((c) => write(c, '')).join('') : escapeXmlText(el.text);
    return `<${name(el.prefix, el.local)}${declarations}${attrs}>${body}</${name(el.prefix, el.local)}>`;
  };
  const declarations = [...prefixes]
    .map(([p, ns]) => (p ? ` xmlns:${p}="${escapeXmlText(ns)}"` : ` xmlns="${escapeXmlText(ns)}"`))
    .join('');
  return write(top, declarations);
}

/** A minimal packet the library can take over: the PDF/A declaration plus the blocks carried over. */
export function carryOverPacket(pdfaPart: number, conformance: string, blocks: readonly string[]): string {
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n<x:xmpmeta xmlns:x="adobe:ns:meta/">\n<rdf:RDF xmlns:rdf="${RDF_NS}">\n` +
    `<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>${pdfaPart}</pdfaid:part><pdfaid:conformance>${conformance}</pdfaid:conformance></rdf:Description>\n` +
    blocks.map((b) => `${b}\n`).join('') +
    '</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end="w"?>'
  );
}
