/**
 * The Factur-X / ZUGFeRD / XRechnung part of a hybrid invoice's XMP packet: the fx: properties and the
 * PDF/A extension schema that declares them (fx is not a predefined XMP schema, so PDF/A requires the
 * declaration; prefixes pdfaExtension / pdfaSchema / pdfaProperty are checked literally by validators).
 *
 * The rest of the packet (pdfaid, dc, xmp, pdf, kept in step with the Info dictionary) is written by
 * @cantoo/pdf-lib's convertToPDFA, which takes these blocks as "extensions" and keeps them on save.
 */

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
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
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
    (declarePrefixes ? `<rdf:li rdf:parseType="Resource" xmlns:pdfaSchema="${SCHEMA_NS}" xmlns:pdfaProperty="${PROPERTY_NS}">` : '<rdf:li rdf:parseType="Resource">') +
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
 * declares other schemas in a block of its own (`existingBlocks`, the rdf:Description elements the
 * library will carry over), the fx schema is added to that block's Bag instead of replacing it, which
 * would leave the input's own custom properties undeclared.
 */
export function extensionSchemaBlock(existingBlocks: readonly string[]): string {
  const existing = existingBlocks.find((b) => b.includes(EXTENSION_NS) && /<rdf:Bag\s*>/.test(b));
  if (existing) {
    if (existing.includes(`>${FX_NAMESPACE}<`)) return existing;
    return existing.replace(/<rdf:Bag\s*>/, (bag) => bag + fxSchemaListItem(true));
  }
  return `${EXTENSION_OPEN}<pdfaExtension:schemas><rdf:Bag>${fxSchemaListItem()}</rdf:Bag></pdfaExtension:schemas></rdf:Description>`;
}
