/**
 * Hand-written French invoices for the BR-FR rule tests (not corpus copies): a CII and a UBL invoice
 * that satisfy every BR-FR rule of both releases and carry every element the rules look at, plus
 * multi-vendor (S8/B8/M8) and bidirectional (S9/B9/M9) variants. Amounts and identifiers are all
 * distinct so that a test can change one element by its text.
 */
import assert from 'node:assert/strict';

const CII_NS =
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100" xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100"';

const d102 = (d: string) => `<udt:DateTimeString format="102">${d}</udt:DateTimeString>`;
const ciiParty = (tag: string, siret: string, name: string, uri: string, extra = '') =>
  `<ram:${tag}><ram:GlobalID schemeID="0009">${siret}</ram:GlobalID><ram:Name>${name}</ram:Name>${extra}<ram:URIUniversalCommunication><ram:URIID schemeID="0225">${uri}</ram:URIID></ram:URIUniversalCommunication></ram:${tag}>`;

export const CII_BASE = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice ${CII_NS}>
<rsm:ExchangedDocumentContext>
<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>B1</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter>
<ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
</rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument>
<ram:ID>F2026-001</ram:ID>
<ram:TypeCode>380</ram:TypeCode>
<ram:IssueDateTime>${d102('20260115')}</ram:IssueDateTime>
<ram:IncludedNote><ram:Content>Indemnite forfaitaire de 40 EUR</ram:Content><ram:SubjectCode>PMT</ram:SubjectCode></ram:IncludedNote>
<ram:IncludedNote><ram:Content>Penalites de retard</ram:Content><ram:SubjectCode>PMD</ram:SubjectCode></ram:IncludedNote>
<ram:IncludedNote><ram:Content>Pas d escompte</ram:Content><ram:SubjectCode>AAB</ram:SubjectCode></ram:IncludedNote>
<ram:IncludedNote><ram:Content>B2B</ram:Content><ram:SubjectCode>BAR</ram:SubjectCode></ram:IncludedNote>
</rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
<ram:IncludedSupplyChainTradeLineItem>
<ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
<ram:SpecifiedTradeProduct><ram:Name>Article</ram:Name>
<ram:ApplicableProductCharacteristic><ram:TypeCode>COL</ram:TypeCode><ram:Description>Couleur</ram:Description><ram:Value>Bleu</ram:Value></ram:ApplicableProductCharacteristic>
</ram:SpecifiedTradeProduct>
<ram:SpecifiedLineTradeAgreement>
<ram:GrossPriceProductTradePrice><ram:ChargeAmount>110.00</ram:ChargeAmount><ram:AppliedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>10.00</ram:ActualAmount></ram:AppliedTradeAllowanceCharge></ram:GrossPriceProductTradePrice>
<ram:NetPriceProductTradePrice><ram:ChargeAmount>100.00</ram:ChargeAmount><ram:BasisQuantity unitCode="C62">1</ram:BasisQuantity></ram:NetPriceProductTradePrice>
</ram:SpecifiedLineTradeAgreement>
<ram:SpecifiedLineTradeDelivery>
<ram:BilledQuantity unitCode="C62">2</ram:BilledQuantity>
<ram:ShipToTradeParty><ram:GlobalID schemeID="0009">98765432100056</ram:GlobalID><ram:Name>Site client</ram:Name></ram:ShipToTradeParty>
<ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime>${d102('20260111')}</ram:OccurrenceDateTime></ram:ActualDeliverySupplyChainEvent>
</ram:SpecifiedLineTradeDelivery>
<ram:SpecifiedLineTradeSettlement>
<ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>20.00</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:BillingSpecifiedPeriod><ram:StartDateTime>${d102('20260102')}</ram:StartDateTime><ram:EndDateTime>${d102('20260130')}</ram:EndDateTime></ram:BillingSpecifiedPeriod>
<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator><ram:BasisAmount>202.00</ram:BasisAmount><ram:ActualAmount>0.60</ram:ActualAmount></ram:SpecifiedTradeAllowanceCharge>
<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>200.10</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>
<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>F2025-098</ram:IssuerAssignedID><ram:TypeCode>384</ram:TypeCode><ram:FormattedIssueDateTime><qdt:DateTimeString format="102">20251214</qdt:DateTimeString></ram:FormattedIssueDateTime></ram:InvoiceReferencedDocument>
</ram:SpecifiedLineTradeSettlement>
</ram:IncludedSupplyChainTradeLineItem>
<ram:ApplicableHeaderTradeAgreement>
<ram:BuyerReference>REF-1</ram:BuyerReference>
<ram:SellerTradeParty><ram:GlobalID schemeID="0009">12345678200010</ram:GlobalID><ram:GlobalID schemeID="0224">VENDEUR_01-A</ram:GlobalID><ram:Name>Vendeur SA</ram:Name><ram:SpecifiedLegalOrganization><ram:ID schemeID="0002">123456782</ram:ID></ram:SpecifiedLegalOrganization><ram:PostalTradeAddress><ram:CountryID>FR</ram:CountryID></ram:PostalTradeAddress><ram:URIUniversalCommunication><ram:URIID schemeID="0225">123456782_FACT</ram:URIID></ram:URIUniversalCommunication><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">FR32123456782</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
<ram:BuyerTradeParty><ram:GlobalID schemeID="0009">98765432100015</ram:GlobalID><ram:GlobalID schemeID="0224">CLIENT-7</ram:GlobalID><ram:Name>Client SAS</ram:Name><ram:SpecifiedLegalOrganization><ram:ID schemeID="0002">987654321</ram:ID></ram:SpecifiedLegalOrganization><ram:PostalTradeAddress><ram:CountryID>FR</ram:CountryID></ram:PostalTradeAddress><ram:URIUniversalCommunication><ram:URIID schemeID="0225">987654321_RECEPTION</ram:URIID></ram:URIUniversalCommunication></ram:BuyerTradeParty>
${ciiParty('SalesAgentTradeParty', '55566677700012', 'Agent vendeur', '555666777_AV')}
${ciiParty('BuyerAgentTradeParty', '44433322200011', 'Agent acheteur', '444333222_AA')}
<ram:ContractReferencedDocument><ram:IssuerAssignedID>CT-2026</ram:IssuerAssignedID></ram:ContractReferencedDocument>
<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>PDF-1</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode><ram:Name>LISIBLE</ram:Name></ram:AdditionalReferencedDocument>
<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>OBJ-1</ram:IssuerAssignedID><ram:TypeCode>130</ram:TypeCode><ram:ReferenceTypeCode>AFL</ram:ReferenceTypeCode></ram:AdditionalReferencedDocument>
<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>OBJ-2</ram:IssuerAssignedID><ram:TypeCode>130</ram:TypeCode><ram:ReferenceTypeCode>AVV</ram:ReferenceTypeCode></ram:AdditionalReferencedDocument>
</ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery>
<ram:ShipToTradeParty><ram:GlobalID schemeID="0009">98765432100023</ram:GlobalID><ram:Name>Entrepot</ram:Name></ram:ShipToTradeParty>
<ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime>${d102('20260110')}</ram:OccurrenceDateTime></ram:ActualDeliverySupplyChainEvent>
</ram:ApplicableHeaderTradeDelivery>
<ram:ApplicableHeaderTradeSettlement>
<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
${ciiParty('InvoiceeTradeParty', '98765432100031', 'Service comptable', '987654321_COMPTA')}
${ciiParty('InvoicerTradeParty', '12345678200028', 'Service facturation', '123456782_EMIS')}
${ciiParty('PayeeTradeParty', '11122233300014', 'Affactureur', '111222333_PAYE')}
${ciiParty('PayerTradeParty', '98765432100049', 'Payeur', '987654321_PAIE')}
<ram:ApplicableTradeTax><ram:CalculatedAmount>38.10</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>190.10</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:TaxPointDate><udt:DateString format="102">20260116</udt:DateString></ram:TaxPointDate><ram:RateApplicablePercent>20.0</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:BillingSpecifiedPeriod><ram:StartDateTime>${d102('20260101')}</ram:StartDateTime><ram:EndDateTime>${d102('20260131')}</ram:EndDateTime></ram:BillingSpecifiedPeriod>
<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator><ram:BasisAmount>201.00</ram:BasisAmount><ram:ActualAmount>10.01</ram:ActualAmount><ram:Reason>Remise</ram:Reason><ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>20</ram:RateApplicablePercent></ram:CategoryTradeTax></ram:SpecifiedTradeAllowanceCharge>
<ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime>${d102('20260215')}</ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>200.00</ram:LineTotalAmount><ram:ChargeTotalAmount>0.20</ram:ChargeTotalAmount><ram:AllowanceTotalAmount>10.30</ram:AllowanceTotalAmount><ram:TaxBasisTotalAmount>190.00</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">38.00</ram:TaxTotalAmount><ram:RoundingAmount>0.40</ram:RoundingAmount><ram:GrandTotalAmount>228.00</ram:GrandTotalAmount><ram:TotalPrepaidAmount>0.50</ram:TotalPrepaidAmount><ram:DuePayableAmount>227.50</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>F2025-099</ram:IssuerAssignedID><ram:TypeCode>381</ram:TypeCode><ram:FormattedIssueDateTime><qdt:DateTimeString format="102">20251215</qdt:DateTimeString></ram:FormattedIssueDateTime></ram:InvoiceReferencedDocument>
</ram:ApplicableHeaderTradeSettlement>
</rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;

/** One line of a multi-vendor / bidirectional CII invoice. */
function ciiSubLine(o: {
  id: string;
  status: string;
  parent?: string;
  seller: string;
  sellerName: string;
  afl: string;
  avv?: string;
  net: string;
  vat?: string;
  gross?: string;
  reason?: string;
  ref?: boolean;
}): string {
  const refs = `<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>${o.afl}</ram:IssuerAssignedID><ram:TypeCode>130</ram:TypeCode><ram:ReferenceTypeCode>AFL</ram:ReferenceTypeCode></ram:AdditionalReferencedDocument>${
    o.avv
      ? `<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>${o.avv}</ram:IssuerAssignedID><ram:TypeCode>130</ram:TypeCode><ram:ReferenceTypeCode>AVV</ram:ReferenceTypeCode></ram:AdditionalReferencedDocument>`
      : ''
  }`;
  return `<ram:IncludedSupplyChainTradeLineItem>
<ram:AssociatedDocumentLineDocument><ram:LineID>${o.id}</ram:LineID>${o.parent ? `<ram:ParentLineID>${o.parent}</ram:ParentLineID>` : ''}<ram:LineStatusReasonCode>${o.status}</ram:LineStatusReasonCode></ram:AssociatedDocumentLineDocument>
<ram:SpecifiedTradeProduct><ram:Name>Prestation ${o.id}</ram:Name></ram:SpecifiedTradeProduct>
<ram:SpecifiedLineTradeAgreement><ram:ItemSellerTradeParty><ram:Name>${o.sellerName}</ram:Name><ram:SpecifiedLegalOrganization><ram:ID schemeID="0002">${o.seller}</ram:ID></ram:SpecifiedLegalOrganization><ram:PostalTradeAddress><ram:CountryID>FR</ram:CountryID></ram:PostalTradeAddress></ram:ItemSellerTradeParty><ram:NetPriceProductTradePrice><ram:ChargeAmount>${o.net}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
<ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">1</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
<ram:SpecifiedLineTradeSettlement>
<ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode>${o.reason ? `<ram:ExemptionReason>${o.reason}</ram:ExemptionReason>` : ''}<ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>20</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${o.net}</ram:LineTotalAmount>${o.vat ? `<ram:TaxTotalAmount currencyID="EUR">${o.vat}</ram:TaxTotalAmount>` : ''}${o.gross ? `<ram:GrandTotalAmount>${o.gross}</ram:GrandTotalAmount>` : ''}</ram:SpecifiedTradeSettlementLineMonetarySummation>
${o.ref ? `<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>F2025-${o.id}</ram:IssuerAssignedID><ram:FormattedIssueDateTime><qdt:DateTimeString format="102">20251201</qdt:DateTimeString></ram:FormattedIssueDateTime></ram:InvoiceReferencedDocument>` : ''}
${refs}
</ram:SpecifiedLineTradeSettlement>
</ram:IncludedSupplyChainTradeLineItem>`;
}

/**
 * A CII invoice of two sub-invoices: lines 1 (GROUP, main seller 123456782, AFL = BT-1) + 2 (DETAIL),
 * and lines 3 (GROUP, second seller) + 4 (DETAIL). With a bidirectional framework the second seller
 * is the buyer (987654321), as BR-FR-BD-02 requires.
 */
export function ciiMultiVendor(framework: string, typeCode: string): string {
  const bidirectional = /9$/.test(framework);
  const second = bidirectional ? '987654321' : '555666777';
  const lines = [
    ciiSubLine({
      id: '1',
      status: 'GROUP',
      seller: '123456782',
      sellerName: 'Vendeur A',
      afl: 'F2026-100',
      avv: 'LOT-A',
      net: '100.00',
      vat: '20.00',
      gross: '120.00',
      ref: true,
    }),
    ciiSubLine({
      id: '2',
      status: 'DETAIL',
      parent: '1',
      seller: '123456782',
      sellerName: 'Vendeur A',
      afl: 'F2026-100',
      net: '100.0',
      reason: '#F2026-100# TVA due',
    }),
    ciiSubLine({
      id: '3',
      status: 'GROUP',
      seller: second,
      sellerName: 'Vendeur B',
      afl: 'F2026-100-B',
      avv: 'LOT-B',
      net: '50.00',
      vat: '10.00',
      gross: '60.00',
      ref: true,
    }),
    ciiSubLine({
      id: '4',
      status: 'DETAIL',
      parent: '3',
      seller: second,
      sellerName: 'Vendeur B',
      afl: 'F2026-100-B',
      net: '50.0',
      reason: '#F2026-100-B# TVA due',
    }),
  ].join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice ${CII_NS}>
<rsm:ExchangedDocumentContext><ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>${framework}</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>F2026-100</ram:ID><ram:TypeCode>${typeCode}</ram:TypeCode><ram:IssueDateTime>${d102('20260201')}</ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
${lines}
<ram:ApplicableHeaderTradeAgreement>
<ram:SellerTradeParty><ram:Name>Vendeur A</ram:Name><ram:SpecifiedLegalOrganization><ram:ID schemeID="0002">123456782</ram:ID></ram:SpecifiedLegalOrganization></ram:SellerTradeParty>
<ram:BuyerTradeParty><ram:Name>Client</ram:Name><ram:SpecifiedLegalOrganization><ram:ID schemeID="0002">987654321</ram:ID></ram:SpecifiedLegalOrganization></ram:BuyerTradeParty>
</ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery/>
<ram:ApplicableHeaderTradeSettlement>
<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:ApplicableTradeTax><ram:CalculatedAmount>20.00</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:ExemptionReason>#F2026-100# sous-facture A</ram:ExemptionReason><ram:BasisAmount>100.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>20</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:ApplicableTradeTax><ram:CalculatedAmount>10.00</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:ExemptionReason>#F2026-100-B# sous-facture B</ram:ExemptionReason><ram:BasisAmount>50.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>20</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>150.00</ram:LineTotalAmount><ram:TaxBasisTotalAmount>150.00</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">30.00</ram:TaxTotalAmount><ram:GrandTotalAmount>180.00</ram:GrandTotalAmount><ram:DuePayableAmount>180.00</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement>
</rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;
}

const UBL_NS =
  'xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';

const ublParty = (endpoint: string, siret: string, name: string) =>
  `<cbc:EndpointID schemeID="0225">${endpoint}</cbc:EndpointID><cac:PartyIdentification><cbc:ID schemeID="0009">${siret}</cbc:ID></cac:PartyIdentification><cac:PartyName><cbc:Name>${name}</cbc:Name></cac:PartyName>`;

export const UBL_BASE = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" ${UBL_NS}>
<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>
<cbc:ProfileID>B1</cbc:ProfileID>
<cbc:ID>F2026-001</cbc:ID>
<cbc:IssueDate>2026-01-15</cbc:IssueDate>
<cbc:DueDate>2026-02-15</cbc:DueDate>
<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
<cbc:Note>#PMT#Indemnite forfaitaire de 40 EUR</cbc:Note>
<cbc:Note>#PMD#Penalites de retard</cbc:Note>
<cbc:Note>#AAB#Pas d escompte</cbc:Note>
<cbc:Note>#BAR#B2B</cbc:Note>
<cbc:TaxPointDate>2026-01-16</cbc:TaxPointDate>
<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
<cac:InvoicePeriod><cbc:StartDate>2026-01-01</cbc:StartDate><cbc:EndDate>2026-01-31</cbc:EndDate></cac:InvoicePeriod>
<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>F2025-099</cbc:ID><cbc:IssueDate>2025-12-15</cbc:IssueDate><cbc:DocumentTypeCode>381</cbc:DocumentTypeCode></cac:InvoiceDocumentReference></cac:BillingReference>
<cac:ContractDocumentReference><cbc:ID>CT-2026</cbc:ID></cac:ContractDocumentReference>
<cac:AdditionalDocumentReference><cbc:ID schemeID="AFL">OBJ-1</cbc:ID></cac:AdditionalDocumentReference>
<cac:AdditionalDocumentReference><cbc:ID schemeID="AVV">OBJ-2</cbc:ID></cac:AdditionalDocumentReference>
<cac:AdditionalDocumentReference><cbc:ID>PDF-1</cbc:ID><cbc:DocumentDescription>LISIBLE</cbc:DocumentDescription></cac:AdditionalDocumentReference>
<cac:AccountingSupplierParty><cac:Party>
${ublParty('123456782_FACT', '12345678200010', 'Vendeur SA')}<cac:PartyIdentification><cbc:ID schemeID="0224">VENDEUR_01-A</cbc:ID></cac:PartyIdentification>
<cac:PostalAddress><cac:Country><cbc:IdentificationCode>FR</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
<cac:PartyLegalEntity><cbc:RegistrationName>Vendeur SA</cbc:RegistrationName><cbc:CompanyID schemeID="0002">123456782</cbc:CompanyID></cac:PartyLegalEntity>
<cac:AgentParty>${ublParty('555666777_AV', '55566677700012', 'Agent vendeur')}</cac:AgentParty>
<cac:ServiceProviderParty><cac:Party>${ublParty('123456782_EMIS', '12345678200028', 'Service facturation')}</cac:Party></cac:ServiceProviderParty>
</cac:Party></cac:AccountingSupplierParty>
<cac:AccountingCustomerParty><cac:Party>
${ublParty('987654321_RECEPTION', '98765432100015', 'Client SAS')}<cac:PartyIdentification><cbc:ID schemeID="0224">CLIENT-7</cbc:ID></cac:PartyIdentification>
<cac:PostalAddress><cac:Country><cbc:IdentificationCode>FR</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
<cac:PartyLegalEntity><cbc:RegistrationName>Client SAS</cbc:RegistrationName><cbc:CompanyID schemeID="0002">987654321</cbc:CompanyID></cac:PartyLegalEntity>
<cac:AgentParty>${ublParty('444333222_AA', '44433322200011', 'Agent acheteur')}</cac:AgentParty>
<cac:ServiceProviderParty><cac:Party>${ublParty('987654321_COMPTA', '98765432100031', 'Service comptable')}</cac:Party></cac:ServiceProviderParty>
</cac:Party></cac:AccountingCustomerParty>
<cac:PayeeParty>${ublParty('111222333_PAYE', '11122233300014', 'Affactureur')}</cac:PayeeParty>
<cac:Delivery><cbc:ActualDeliveryDate>2026-01-10</cbc:ActualDeliveryDate><cac:DeliveryLocation><cbc:ID schemeID="0009">98765432100023</cbc:ID></cac:DeliveryLocation></cac:Delivery>
<cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode><cac:PaymentMandate><cbc:ID>MANDAT-1</cbc:ID><cac:PayerParty>${ublParty('987654321_PAIE', '98765432100049', 'Payeur')}</cac:PayerParty></cac:PaymentMandate></cac:PaymentMeans>
<cac:PaymentTerms><cbc:Note>Paiement a 30 jours</cbc:Note></cac:PaymentTerms>
<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">10.01</cbc:Amount><cbc:BaseAmount currencyID="EUR">201.00</cbc:BaseAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20.0</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:AllowanceCharge>
<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">38.00</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">190.10</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">38.10</cbc:TaxAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>
<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">200.00</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="EUR">190.00</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">228.00</cbc:TaxInclusiveAmount><cbc:AllowanceTotalAmount currencyID="EUR">10.30</cbc:AllowanceTotalAmount><cbc:ChargeTotalAmount currencyID="EUR">0.20</cbc:ChargeTotalAmount><cbc:PrepaidAmount currencyID="EUR">0.50</cbc:PrepaidAmount><cbc:PayableRoundingAmount currencyID="EUR">0.40</cbc:PayableRoundingAmount><cbc:PayableAmount currencyID="EUR">227.50</cbc:PayableAmount></cac:LegalMonetaryTotal>
<cac:InvoiceLine>
<cbc:ID>1</cbc:ID>
<cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity>
<cbc:LineExtensionAmount currencyID="EUR">200.10</cbc:LineExtensionAmount>
<cac:InvoicePeriod><cbc:StartDate>2026-01-02</cbc:StartDate><cbc:EndDate>2026-01-30</cbc:EndDate></cac:InvoicePeriod>
<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>F2025-098</cbc:ID><cbc:IssueDate>2025-12-14</cbc:IssueDate><cbc:DocumentTypeCode>384</cbc:DocumentTypeCode></cac:InvoiceDocumentReference></cac:BillingReference>
<cac:DocumentReference><cbc:ID schemeID="AFL">LOBJ-1</cbc:ID><cbc:IssueDate>2025-12-13</cbc:IssueDate></cac:DocumentReference>
<cac:Delivery><cbc:ActualDeliveryDate>2026-01-11</cbc:ActualDeliveryDate><cac:DeliveryLocation><cbc:ID schemeID="0009">98765432100056</cbc:ID></cac:DeliveryLocation></cac:Delivery>
<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">0.60</cbc:Amount><cbc:BaseAmount currencyID="EUR">202.00</cbc:BaseAmount></cac:AllowanceCharge>
<cac:Item><cbc:Name>Article</cbc:Name>
<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20.00</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
<cac:AdditionalItemProperty><cbc:Name>Couleur</cbc:Name><cbc:Value>Bleu</cbc:Value></cac:AdditionalItemProperty>
</cac:Item>
<cac:Price><cbc:PriceAmount currencyID="EUR">100.00</cbc:PriceAmount><cbc:BaseQuantity unitCode="C62">1</cbc:BaseQuantity><cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">10.00</cbc:Amount><cbc:BaseAmount currencyID="EUR">110.00</cbc:BaseAmount></cac:AllowanceCharge></cac:Price>
</cac:InvoiceLine>
</Invoice>`;

/** The same document as a UBL CreditNote (root, type code, lines and quantities renamed). */
export function asCreditNote(ubl: string, typeCode = '381'): string {
  return ubl
    .replace(
      '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"',
      '<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"',
    )
    .replace('</Invoice>', '</CreditNote>')
    .replace(/<cbc:InvoiceTypeCode>\d+<\/cbc:InvoiceTypeCode>/, `<cbc:CreditNoteTypeCode>${typeCode}</cbc:CreditNoteTypeCode>`)
    .replace(/cac:InvoiceLine>/g, 'cac:CreditNoteLine>')
    .replace(/cbc:InvoicedQuantity/g, 'cbc:CreditedQuantity');
}

function ublSubLine(o: {
  id: string;
  status: string;
  parent?: string;
  seller: string;
  sellerName: string;
  afl: string;
  avv?: string;
  net: string;
  vat?: string;
  gross?: string;
  reason?: string;
  ref?: boolean;
}): string {
  return `<cac:InvoiceLine>
<cbc:ID>${o.id}</cbc:ID>
<cbc:InvoicedQuantity unitCode="C62">1</cbc:InvoicedQuantity>
<cbc:LineExtensionAmount currencyID="EUR">${o.net}</cbc:LineExtensionAmount>
${o.gross ? `<cbc:TaxInclusiveLineExtensionAmount currencyID="EUR">${o.gross}</cbc:TaxInclusiveLineExtensionAmount>` : ''}
<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>F2026-100</cbc:ID><cbc:DocumentStatusCode>${o.status}</cbc:DocumentStatusCode></cac:InvoiceDocumentReference>${o.parent ? `<cac:BillingReferenceLine><cbc:ID>${o.parent}</cbc:ID></cac:BillingReferenceLine>` : ''}</cac:BillingReference>
${o.ref ? `<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>F2025-${o.id}</cbc:ID><cbc:IssueDate>2025-12-01</cbc:IssueDate></cac:InvoiceDocumentReference></cac:BillingReference>` : ''}
<cac:DocumentReference><cbc:ID schemeID="AFL">${o.afl}</cbc:ID><cbc:DocumentTypeCode>130</cbc:DocumentTypeCode></cac:DocumentReference>
${o.avv ? `<cac:DocumentReference><cbc:ID schemeID="AVV">${o.avv}</cbc:ID><cbc:DocumentTypeCode>130</cbc:DocumentTypeCode></cac:DocumentReference>` : ''}
${o.vat ? `<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">${o.vat}</cbc:TaxAmount></cac:TaxTotal>` : ''}
<cac:Item><cbc:Name>Prestation ${o.id}</cbc:Name>
<cac:ManufacturerParty><cac:PostalAddress><cac:Country><cbc:IdentificationCode>FR</cbc:IdentificationCode></cac:Country></cac:PostalAddress><cac:PartyLegalEntity><cbc:RegistrationName>${o.sellerName}</cbc:RegistrationName><cbc:CompanyID schemeID="0002">${o.seller}</cbc:CompanyID></cac:PartyLegalEntity></cac:ManufacturerParty>
<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20</cbc:Percent>${o.reason ? `<cbc:TaxExemptionReason>${o.reason}</cbc:TaxExemptionReason>` : ''}<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
</cac:Item>
<cac:Price><cbc:PriceAmount currencyID="EUR">${o.net}</cbc:PriceAmount></cac:Price>
</cac:InvoiceLine>`;
}

/** UBL counterpart of {@link ciiMultiVendor}. */
export function ublMultiVendor(framework: string, typeCode: string): string {
  const bidirectional = /9$/.test(framework);
  const second = bidirectional ? '987654321' : '555666777';
  const lines = [
    ublSubLine({
      id: '1',
      status: 'GROUP',
      seller: '123456782',
      sellerName: 'Vendeur A',
      afl: 'F2026-100',
      avv: 'LOT-A',
      net: '100.00',
      vat: '20.00',
      gross: '120.00',
      ref: true,
    }),
    ublSubLine({
      id: '2',
      status: 'DETAIL',
      parent: '1',
      seller: '123456782',
      sellerName: 'Vendeur A',
      afl: 'F2026-100',
      net: '100.0',
      reason: '#F2026-100# TVA due',
    }),
    ublSubLine({
      id: '3',
      status: 'GROUP',
      seller: second,
      sellerName: 'Vendeur B',
      afl: 'F2026-100-B',
      avv: 'LOT-B',
      net: '50.00',
      vat: '10.00',
      gross: '60.00',
      ref: true,
    }),
    ublSubLine({
      id: '4',
      status: 'DETAIL',
      parent: '3',
      seller: second,
      sellerName: 'Vendeur B',
      afl: 'F2026-100-B',
      net: '50.0',
      reason: '#F2026-100-B# TVA due',
    }),
  ].join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" ${UBL_NS}>
<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>
<cbc:ProfileID>${framework}</cbc:ProfileID>
<cbc:ID>F2026-100</cbc:ID>
<cbc:IssueDate>2026-02-01</cbc:IssueDate>
<cbc:InvoiceTypeCode>${typeCode}</cbc:InvoiceTypeCode>
<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
<cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Vendeur A</cbc:RegistrationName><cbc:CompanyID schemeID="0002">123456782</cbc:CompanyID></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
<cac:AccountingCustomerParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Client</cbc:RegistrationName><cbc:CompanyID schemeID="0002">987654321</cbc:CompanyID></cac:PartyLegalEntity></cac:Party></cac:AccountingCustomerParty>
<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">30.00</cbc:TaxAmount>
<cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">100.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">20.00</cbc:TaxAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20</cbc:Percent><cbc:TaxExemptionReason>#F2026-100# sous-facture A</cbc:TaxExemptionReason><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>
<cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">50.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">10.00</cbc:TaxAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20</cbc:Percent><cbc:TaxExemptionReason>#F2026-100-B# sous-facture B</cbc:TaxExemptionReason><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>
</cac:TaxTotal>
<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">150.00</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="EUR">150.00</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">180.00</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">180.00</cbc:PayableAmount></cac:LegalMonetaryTotal>
${lines}
</Invoice>`;
}

/** Replace `from` (first occurrence) by `to`; fails the test when `from` is absent, so a mutation can never silently do nothing. */
export function edit(xml: string, from: string, to: string): string {
  const i = xml.indexOf(from);
  assert.ok(i >= 0, `fixture does not contain ${JSON.stringify(from)}`);
  return xml.slice(0, i) + to + xml.slice(i + from.length);
}

/** Edit inside the line whose identifier is `lineId` (CII ram:LineID or UBL cbc:ID of the line). */
export function editLine(xml: string, lineId: string, from: string, to: string): string {
  const isCii = xml.includes('<ram:IncludedSupplyChainTradeLineItem>');
  const open = isCii
    ? '<ram:IncludedSupplyChainTradeLineItem>'
    : xml.includes('<cac:CreditNoteLine>')
      ? '<cac:CreditNoteLine>'
      : '<cac:InvoiceLine>';
  const marker = isCii ? `<ram:LineID>${lineId}</ram:LineID>` : `<cbc:ID>${lineId}</cbc:ID>`;
  const parts = xml.split(open);
  const k = parts.findIndex(
    (p, idx) => idx > 0 && p.trimStart().startsWith(isCii ? `<ram:AssociatedDocumentLineDocument>${marker}` : marker),
  );
  assert.ok(k > 0, `no line ${lineId}`);
  parts[k] = edit(parts[k], from, to);
  return parts.join(open);
}
