/**
 * A small UBL 2.1 invoice written in code (helper module, no tests of its own): one seller, one buyer,
 * the lines and VAT breakdowns the caller gives, totals computed from them. Valid against EN 16931
 * when the caller's amounts agree; tests change one thing at a time.
 */
import Big from 'big.js';

export interface UblLine {
  qty: string;
  price: string;
  /** BT-131 as written; default qty × price. */
  net?: string;
  category: string;
  /** BT-152; omitted when undefined. */
  rate?: string;
}
export interface UblSubtotal {
  category: string;
  rate?: string;
  taxable: string;
  tax: string;
  exemptionCode?: string;
  exemptionReason?: string;
}

export function ublInvoice(opts: { lines: UblLine[]; subtotals: UblSubtotal[]; sellerVat?: boolean; buyerVat?: boolean }): string {
  const lineNets = opts.lines.map((l) => l.net ?? new Big(l.qty).times(l.price).toFixed(2));
  const lineTotal = lineNets.reduce((s, n) => s.plus(n), new Big(0)).toFixed(2);
  const taxTotal = opts.subtotals.reduce((s, t) => s.plus(t.tax), new Big(0)).toFixed(2);
  const payable = new Big(lineTotal).plus(taxTotal).toFixed(2);
  const cat = (c: string, rate: string | undefined, extra = '') =>
    `<cbc:ID>${c}</cbc:ID>${rate !== undefined ? `<cbc:Percent>${rate}</cbc:Percent>` : ''}${extra}<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>`;
  const party = (name: string, vat: string | undefined, country: string, legalId?: string) =>
    `<cac:Party><cbc:EndpointID schemeID="EM">${name.toLowerCase().replace(/\W+/g, '')}@example.com</cbc:EndpointID>` +
    `<cac:PostalAddress><cbc:StreetName>Main Street 1</cbc:StreetName><cbc:CityName>Town</cbc:CityName><cbc:PostalZone>12345</cbc:PostalZone><cac:Country><cbc:IdentificationCode>${country}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>` +
    (vat
      ? `<cac:PartyTaxScheme><cbc:CompanyID>${vat}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>`
      : '') +
    `<cac:PartyLegalEntity><cbc:RegistrationName>${name}</cbc:RegistrationName>${legalId ? `<cbc:CompanyID>${legalId}</cbc:CompanyID>` : ''}</cac:PartyLegalEntity></cac:Party>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">\n' +
    '<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>\n' +
    '<cbc:ID>INV-1</cbc:ID>\n<cbc:IssueDate>2026-11-20</cbc:IssueDate>\n<cbc:DueDate>2026-12-20</cbc:DueDate>\n<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>\n' +
    '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>\n<cbc:BuyerReference>REF-1</cbc:BuyerReference>\n' +
    `<cac:AccountingSupplierParty>${party('Seller GmbH', opts.sellerVat === false ? undefined : 'DE123456789', 'DE', 'HRB 12345')}</cac:AccountingSupplierParty>\n` +
    `<cac:AccountingCustomerParty>${party('Buyer AG', opts.buyerVat === false ? undefined : 'DE987654321', 'DE')}</cac:AccountingCustomerParty>\n` +
    '<cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>DE02120300000000202051</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>\n' +
    `<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">${taxTotal}</cbc:TaxAmount>\n` +
    opts.subtotals
      .map(
        (t) =>
          `<cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">${t.taxable}</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">${t.tax}</cbc:TaxAmount><cac:TaxCategory>` +
          cat(
            t.category,
            t.rate,
            (t.exemptionCode ? `<cbc:TaxExemptionReasonCode>${t.exemptionCode}</cbc:TaxExemptionReasonCode>` : '') +
              (t.exemptionReason ? `<cbc:TaxExemptionReason>${t.exemptionReason}</cbc:TaxExemptionReason>` : ''),
          ) +
          '</cac:TaxCategory></cac:TaxSubtotal>\n',
      )
      .join('') +
    '</cac:TaxTotal>\n' +
    `<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">${lineTotal}</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="EUR">${lineTotal}</cbc:TaxExclusiveAmount>` +
    `<cbc:TaxInclusiveAmount currencyID="EUR">${payable}</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">${payable}</cbc:PayableAmount></cac:LegalMonetaryTotal>\n` +
    opts.lines
      .map(
        (l, i) =>
          `<cac:InvoiceLine><cbc:ID>${i + 1}</cbc:ID><cbc:InvoicedQuantity unitCode="C62">${l.qty}</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">${lineNets[i]}</cbc:LineExtensionAmount>` +
          `<cac:Item><cbc:Name>Item ${i + 1}</cbc:Name><cac:ClassifiedTaxCategory>${cat(l.category, l.rate)}</cac:ClassifiedTaxCategory></cac:Item>` +
          `<cac:Price><cbc:PriceAmount currencyID="EUR">${l.price}</cbc:PriceAmount></cac:Price></cac:InvoiceLine>\n`,
      )
      .join('') +
    '</Invoice>\n'
  );
}
