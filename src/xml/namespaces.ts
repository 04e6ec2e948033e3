/**
 * The namespace URIs of the invoice syntaxes, under the prefixes the official artefacts use.
 * Code resolves elements by these URIs, never by a document's own prefixes.
 */
export const NS = {
  // UN/CEFACT Cross Industry Invoice D16B/D22B (Factur-X, ZUGFeRD 2.x, XRechnung CII)
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  // OASIS UBL 2.1 (XRechnung UBL, Peppol BIS Billing 3.0)
  ubl: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cn: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
} as const;
