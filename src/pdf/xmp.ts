/**
 * Reading a PDF's XMP metadata packet: the PDF/A identification (pdfaid:part / conformance) and the
 * Factur-X / ZUGFeRD / XRechnung extension fields (fx:DocumentType, DocumentFileName, Version,
 * ConformanceLevel). XMP allows each property as an attribute of rdf:Description or as a child element,
 * and producers use both, so both are read.
 */
import { parseXml, type XmlElement } from '../xml/dom.js';

const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const PDFAID_NS = 'http://www.aiim.org/pdfa/ns/id/';

export interface XmpInfo {
  /** pdfaid:part, e.g. "3". */
  pdfaPart?: string;
  /** pdfaid:conformance, e.g. "B". */
  pdfaConformance?: string;
  /** Namespace URI of the invoice extension schema (differs between Factur-X, ZUGFeRD 2, ZUGFeRD 1, XRechnung). */
  invoiceNamespace?: string;
  /** fx:DocumentType, e.g. "INVOICE". */
  documentType?: string;
  /** fx:DocumentFileName, e.g. "factur-x.xml". */
  documentFileName?: string;
  /** fx:Version, e.g. "1.0". */
  version?: string;
  /** fx:ConformanceLevel, e.g. "EN 16931", "BASIC WL", "XRECHNUNG". */
  conformanceLevel?: string;
}

/** Namespace of an invoice extension schema: Factur-X, ZUGFeRD 1/2 and XRechnung all use "…CrossIndustryDocument…". */
function isInvoiceExtensionNs(ns: string): boolean {
  return /CrossIndustryDocument|factur-x|zugferd|ferd|xrechnung/i.test(ns);
}

const FX_FIELDS = {
  DocumentType: 'documentType',
  DocumentFileName: 'documentFileName',
  Version: 'version',
  ConformanceLevel: 'conformanceLevel',
} as const;

/** Parse an XMP packet; undefined when it is not well-formed XML (XMP is advisory, never fatal). */
export function readXmp(packet: Uint8Array): XmpInfo | undefined {
  let root: XmlElement;
  try {
    root = parseXml(packet).root;
  } catch {
    return undefined;
  }
  const info: XmpInfo = {};
  const visit = (el: XmlElement): void => {
    if (el.ns === RDF_NS && el.local === 'Description') {
      for (const a of el.attrs) take(info, a.ns, a.local, a.value);
    } else if (el.children.length === 0) {
      take(info, el.ns, el.local, el.text.trim());
    }
    for (const c of el.children) visit(c);
  };
  visit(root);
  return info;
}

function take(info: XmpInfo, ns: string, local: string, value: string): void {
  if (ns === PDFAID_NS) {
    if (local === 'part') info.pdfaPart ??= value;
    else if (local === 'conformance') info.pdfaConformance ??= value;
    return;
  }
  if (!isInvoiceExtensionNs(ns)) return;
  const key = FX_FIELDS[local as keyof typeof FX_FIELDS];
  if (!key) return;
  info.invoiceNamespace ??= ns;
  info[key] ??= value;
}
