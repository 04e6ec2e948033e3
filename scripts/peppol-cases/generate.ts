/**
 * Writes the Peppol test invoices of test/fixtures/peppol/invoices/: our own bases (bases.ts) and, for every rule
 * of the Peppol BIS Billing 3.0 and Self-Billing 3.0 schematrons, edits of a base that make the rule fire (and some
 * that must not). The official verdicts of these files are produced by scripts/peppol-oracle/run_oracle.py.
 *
 *   node --import tsx scripts/peppol-cases/generate.ts
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BASES, buildBase, creditNoteOf, gln, type BaseSpec } from './bases.js';

const OUT = path.resolve(import.meta.dirname, '../../test/fixtures/peppol/invoices');

/** Replace the first match (every match with a /g regex); throws when the pattern is absent, so no case tests nothing. */
function sub(xml: string, pattern: string | RegExp, replacement: string | ((match: string) => string)): string {
  const found = typeof pattern === 'string' ? xml.includes(pattern) : new RegExp(pattern.source, pattern.flags.replace('g', '')).test(xml);
  if (!found) throw new Error(`edit does not apply: ${pattern}`);
  return typeof replacement === 'string' ? xml.replace(pattern, replacement) : xml.replace(pattern, replacement);
}
const remove = (xml: string, pattern: string | RegExp) => sub(xml, pattern, '');
const block = (tag: string) => new RegExp(`<${tag}>[\\s\\S]*?</${tag}>`);

type Edit = (xml: string) => string;
interface Case {
  name: string;
  base: string;
  credit?: boolean;
  edit: Edit;
}

const bases = new Map<string, string>();
const baseXml = (key: string, credit = false): string => {
  const k = `${key}${credit ? '-cn' : ''}`;
  let xml = bases.get(k);
  if (!xml) {
    const spec: BaseSpec = credit ? creditNoteOf(key) : BASES[key];
    xml = buildBase(spec);
    bases.set(k, xml);
  }
  return xml;
};

/** Endpoint (seller) with a scheme and value. */
const sellerEndpoint =
  (scheme: string, id: string): Edit =>
  (x) =>
    sub(
      x,
      /<cac:AccountingSupplierParty><cac:Party><cbc:EndpointID schemeID="[^"]*">[^<]*<\/cbc:EndpointID>/,
      `<cac:AccountingSupplierParty><cac:Party><cbc:EndpointID schemeID="${scheme}">${id}</cbc:EndpointID>`,
    );
const buyerEndpoint =
  (scheme: string, id: string): Edit =>
  (x) =>
    sub(
      x,
      /<cac:AccountingCustomerParty><cac:Party><cbc:EndpointID schemeID="[^"]*">[^<]*<\/cbc:EndpointID>/,
      `<cac:AccountingCustomerParty><cac:Party><cbc:EndpointID schemeID="${scheme}">${id}</cbc:EndpointID>`,
    );
/** A party identification of the buyer with a scheme. */
const buyerPartyId =
  (scheme: string, id: string): Edit =>
  (x) =>
    sub(
      x,
      /(<cac:AccountingCustomerParty><cac:Party><cbc:EndpointID[^>]*>[^<]*<\/cbc:EndpointID>)/,
      `$1<cac:PartyIdentification><cbc:ID schemeID="${scheme}">${id}</cbc:ID></cac:PartyIdentification>`,
    );
const sellerLegal =
  (scheme: string | null, id: string): Edit =>
  (x) =>
    sub(
      x,
      /(<cac:AccountingSupplierParty>[\s\S]*?<cac:PartyLegalEntity><cbc:RegistrationName>[^<]*<\/cbc:RegistrationName>)(<cbc:CompanyID[^>]*>[^<]*<\/cbc:CompanyID>)?/,
      `$1<cbc:CompanyID${scheme ? ` schemeID="${scheme}"` : ''}>${id}</cbc:CompanyID>`,
    );
const sellerVat =
  (vat: string): Edit =>
  (x) =>
    sub(
      x,
      /(<cac:AccountingSupplierParty>[\s\S]*?<cac:PartyTaxScheme><cbc:CompanyID>)[^<]*(<\/cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT)/,
      `$1${vat}$2`,
    );
const buyerVat =
  (vat: string): Edit =>
  (x) =>
    sub(
      x,
      /(<cac:AccountingCustomerParty>[\s\S]*?<cac:PartyTaxScheme><cbc:CompanyID>)[^<]*(<\/cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT)/,
      `$1${vat}$2`,
    );
const sellerCountry =
  (c: string): Edit =>
  (x) =>
    sub(x, /(<cac:AccountingSupplierParty>[\s\S]*?<cac:Country><cbc:IdentificationCode>)[^<]*/, `$1${c}`);
const buyerCountry =
  (c: string): Edit =>
  (x) =>
    sub(x, /(<cac:AccountingCustomerParty>[\s\S]*?<cac:Country><cbc:IdentificationCode>)[^<]*/, `$1${c}`);
const payment =
  (inner: string): Edit =>
  (x) =>
    sub(x, block('cac:PaymentMeans'), `<cac:PaymentMeans>${inner}</cac:PaymentMeans>`);
const typeCode =
  (code: string): Edit =>
  (x) =>
    sub(x, /<cbc:(Invoice|CreditNote)TypeCode>[^<]*</, `<cbc:$1TypeCode>${code}<`);
const beforeSupplier =
  (xml: string): Edit =>
  (x) =>
    sub(x, '<cac:AccountingSupplierParty>', `${xml}<cac:AccountingSupplierParty>`);
const docAllowance =
  /<cac:AllowanceCharge><cbc:ChargeIndicator>false<\/cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>95<\/cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Volume discount<\/cbc:AllowanceChargeReason>/;
const chain =
  (...edits: Edit[]): Edit =>
  (x) =>
    edits.reduce((acc, e) => e(acc), x);
const ADR = (inner: string) => `<cac:AdditionalDocumentReference>${inner}</cac:AdditionalDocumentReference>`;

const cases: Case[] = [
  // --- transaction rules
  { name: 'R008-empty-note', base: 'be', edit: (x) => sub(x, '<cbc:Note>Thank you for your order.</cbc:Note>', '<cbc:Note>  </cbc:Note>') },
  {
    name: 'R080-two-projects',
    base: 'be',
    credit: true,
    edit: beforeSupplier(
      ADR('<cbc:ID>P1</cbc:ID><cbc:DocumentTypeCode>50</cbc:DocumentTypeCode>') +
        ADR('<cbc:ID>P2</cbc:ID><cbc:DocumentTypeCode>50</cbc:DocumentTypeCode>'),
    ),
  },
  {
    name: 'R080-two-projects-invoice',
    base: 'be',
    edit: beforeSupplier(
      ADR('<cbc:ID>P1</cbc:ID><cbc:DocumentTypeCode>50</cbc:DocumentTypeCode>') +
        ADR('<cbc:ID>P2</cbc:ID><cbc:DocumentTypeCode>50</cbc:DocumentTypeCode>'),
    ),
  },
  { name: 'R001-no-profile', base: 'be', edit: (x) => remove(x, block('cbc:ProfileID')) },
  { name: 'R007-unknown-profile', base: 'be', edit: (x) => sub(x, 'poacc:billing:01:1.0', 'poacc:billing:99:1.0') },
  {
    name: 'R007-french-regulated',
    base: 'be',
    edit: (x) => sub(x, 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', 'urn:peppol:france:billing:regulated'),
  },
  {
    name: 'R007-with-response',
    base: 'be',
    edit: chain((x) => sub(x, 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', 'urn:peppol:bis:billing_with_response'), typeCode('999')),
  },
  {
    name: 'R002-two-notes',
    base: 'be',
    edit: (x) => sub(x, '<cbc:Note>Thank you for your order.</cbc:Note>', '<cbc:Note>One</cbc:Note><cbc:Note>Two</cbc:Note>'),
  },
  {
    name: 'R002-two-notes-german',
    base: 'de',
    edit: (x) => sub(x, '<cbc:Note>Thank you for your order.</cbc:Note>', '<cbc:Note>One</cbc:Note><cbc:Note>Two</cbc:Note>'),
  },
  {
    name: 'R003-no-references',
    base: 'be',
    edit: chain(
      (x) => remove(x, block('cbc:BuyerReference')),
      (x) => remove(x, block('cac:OrderReference')),
    ),
  },
  { name: 'R003-order-only', base: 'be', edit: (x) => remove(x, block('cbc:BuyerReference')) },
  {
    name: 'R004-other-customization',
    base: 'be',
    edit: (x) => sub(x, 'poacc:billing:3.0</cbc:CustomizationID>', 'poacc:billing:2.0</cbc:CustomizationID>'),
  },
  {
    name: 'R004-double-colon',
    base: 'be',
    edit: (x) => sub(x, 'poacc:billing:3.0</cbc:CustomizationID>', 'poacc:billing:3.0::2.1</cbc:CustomizationID>'),
  },
  {
    name: 'R004-extension',
    base: 'be',
    edit: (x) =>
      sub(x, 'poacc:billing:3.0</cbc:CustomizationID>', 'poacc:billing:3.0#conformant#urn:example:extension</cbc:CustomizationID>'),
  },
  { name: 'R053-two-tax-totals', base: 'be', edit: (x) => sub(x, /(<cac:TaxTotal>[\s\S]*?<\/cac:TaxTotal>)/, '$1$1') },
  {
    name: 'R054-currency-without-total',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
        '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>USD</cbc:TaxCurrencyCode>',
      ),
  },
  {
    name: 'R055-opposite-signs',
    base: 'be',
    edit: chain(
      (x) =>
        sub(
          x,
          '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
          '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>USD</cbc:TaxCurrencyCode>',
        ),
      (x) =>
        sub(
          x,
          '<cac:LegalMonetaryTotal>',
          '<cac:TaxTotal><cbc:TaxAmount currencyID="USD">-150.00</cbc:TaxAmount></cac:TaxTotal><cac:LegalMonetaryTotal>',
        ),
    ),
  },
  {
    name: 'R005-same-currency',
    base: 'be',
    edit: chain(
      (x) =>
        sub(
          x,
          '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
          '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>EUR</cbc:TaxCurrencyCode>',
        ),
      (x) =>
        sub(
          x,
          '<cac:LegalMonetaryTotal>',
          '<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">135.45</cbc:TaxAmount></cac:TaxTotal><cac:LegalMonetaryTotal>',
        ),
    ),
  },
  {
    name: 'R010-no-buyer-endpoint',
    base: 'be',
    edit: (x) => remove(x, /(?<=<cac:AccountingCustomerParty><cac:Party>)<cbc:EndpointID[^>]*>[^<]*<\/cbc:EndpointID>/),
  },
  {
    name: 'R020-no-seller-endpoint',
    base: 'be',
    edit: (x) => remove(x, /(?<=<cac:AccountingSupplierParty><cac:Party>)<cbc:EndpointID[^>]*>[^<]*<\/cbc:EndpointID>/),
  },
  { name: 'R041-percent-without-base', base: 'be', edit: (x) => remove(x, '<cbc:BaseAmount currencyID="EUR">500.00</cbc:BaseAmount>') },
  { name: 'R042-base-without-percent', base: 'be', edit: (x) => remove(x, '<cbc:MultiplierFactorNumeric>5</cbc:MultiplierFactorNumeric>') },
  {
    name: 'R040-wrong-amount',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cbc:MultiplierFactorNumeric>5</cbc:MultiplierFactorNumeric>',
        '<cbc:MultiplierFactorNumeric>6</cbc:MultiplierFactorNumeric>',
      ),
  },
  {
    name: 'R040-within-slack',
    base: 'be',
    edit: (x) =>
      sub(x, '<cbc:BaseAmount currencyID="EUR">500.00</cbc:BaseAmount>', '<cbc:BaseAmount currencyID="EUR">500.39</cbc:BaseAmount>'),
  },
  {
    name: 'R043-indicator-yes',
    base: 'be',
    edit: (x) => sub(x, docAllowance, (m: string) => m.replace('<cbc:ChargeIndicator>false', '<cbc:ChargeIndicator>no')),
  },
  { name: 'R061-direct-debit-no-mandate', base: 'be', edit: payment('<cbc:PaymentMeansCode>59</cbc:PaymentMeansCode>') },
  {
    name: 'R061-direct-debit-mandate',
    base: 'be',
    edit: payment('<cbc:PaymentMeansCode> 49 </cbc:PaymentMeansCode><cac:PaymentMandate><cbc:ID>M-1</cbc:ID></cac:PaymentMandate>'),
  },
  {
    name: 'R051-other-currency',
    base: 'be',
    edit: (x) => sub(x, '<cbc:PrepaidAmount currencyID="EUR">', '<cbc:PrepaidAmount currencyID="USD">'),
  },
  {
    name: 'R051-subtotal-currency',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        /<cbc:TaxableAmount currencyID="EUR">([^<]*)<\/cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">/,
        '<cbc:TaxableAmount currencyID="EUR">$1</cbc:TaxableAmount><cbc:TaxAmount currencyID="SEK">',
      ),
  },
  { name: 'R051-no-currency', base: 'be', edit: (x) => sub(x, '<cbc:PrepaidAmount currencyID="EUR">', '<cbc:PrepaidAmount>') },
  {
    name: 'R110-line-starts-early',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cbc:StartDate>2026-09-01</cbc:StartDate><cbc:EndDate>2026-09-15</cbc:EndDate>',
        '<cbc:StartDate>2026-08-31</cbc:StartDate><cbc:EndDate>2026-09-15</cbc:EndDate>',
      ),
  },
  {
    name: 'R111-line-ends-late',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cbc:StartDate>2026-09-01</cbc:StartDate><cbc:EndDate>2026-09-15</cbc:EndDate>',
        '<cbc:StartDate>2026-09-01</cbc:StartDate><cbc:EndDate>2026-10-01</cbc:EndDate>',
      ),
  },
  {
    name: 'R120-wrong-line-amount',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cbc:LineExtensionAmount currencyID="EUR">200.00</cbc:LineExtensionAmount>',
        '<cbc:LineExtensionAmount currencyID="EUR">200.03</cbc:LineExtensionAmount>',
      ),
  },
  {
    name: 'R120-within-slack',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cbc:LineExtensionAmount currencyID="EUR">200.00</cbc:LineExtensionAmount>',
        '<cbc:LineExtensionAmount currencyID="EUR">200.02</cbc:LineExtensionAmount>',
      ),
  },
  {
    name: 'R120-base-quantity',
    base: 'be',
    edit: (x) => sub(x, '<cbc:BaseQuantity unitCode="HUR">1</cbc:BaseQuantity>', '<cbc:BaseQuantity unitCode="HUR">3</cbc:BaseQuantity>'),
  },
  {
    name: 'R120-credit-note',
    base: 'be',
    credit: true,
    edit: (x) =>
      sub(
        x,
        '<cbc:CreditedQuantity unitCode="HUR">2</cbc:CreditedQuantity>',
        '<cbc:CreditedQuantity unitCode="HUR">3</cbc:CreditedQuantity>',
      ),
  },
  {
    name: 'R121-zero-base-quantity',
    base: 'be',
    edit: (x) => sub(x, '<cbc:BaseQuantity unitCode="HUR">1</cbc:BaseQuantity>', '<cbc:BaseQuantity unitCode="HUR">0</cbc:BaseQuantity>'),
  },
  {
    name: 'R121-negative-base-quantity',
    base: 'be',
    edit: (x) => sub(x, '<cbc:BaseQuantity unitCode="HUR">1</cbc:BaseQuantity>', '<cbc:BaseQuantity unitCode="HUR">-1</cbc:BaseQuantity>'),
  },
  {
    name: 'R100-two-objects',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cac:Item><cbc:Name>Consulting',
        '<cac:DocumentReference><cbc:ID>O1</cbc:ID><cbc:DocumentTypeCode>130</cbc:DocumentTypeCode></cac:DocumentReference><cac:DocumentReference><cbc:ID>O2</cbc:ID><cbc:DocumentTypeCode>130</cbc:DocumentTypeCode></cac:DocumentReference><cac:Item><cbc:Name>Consulting',
      ),
  },
  {
    name: 'R101-other-document',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cac:Item><cbc:Name>Consulting',
        '<cac:DocumentReference><cbc:ID>O1</cbc:ID><cbc:DocumentTypeCode>50</cbc:DocumentTypeCode></cac:DocumentReference><cac:Item><cbc:Name>Consulting',
      ),
  },
  {
    name: 'R044-price-charge',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        /<cac:Price><cbc:PriceAmount currencyID="EUR">100.00<\/cbc:PriceAmount>([\s\S]*?)<cbc:ChargeIndicator>false/,
        '<cac:Price><cbc:PriceAmount currencyID="EUR">100.00</cbc:PriceAmount>$1<cbc:ChargeIndicator>true',
      ),
  },
  {
    name: 'R046-net-price',
    base: 'be',
    edit: (x) =>
      sub(x, '<cbc:BaseAmount currencyID="EUR">110.00</cbc:BaseAmount>', '<cbc:BaseAmount currencyID="EUR">111.00</cbc:BaseAmount>'),
  },
  {
    name: 'R046-no-amount',
    base: 'be',
    edit: (x) => remove(x, '<cbc:Amount currencyID="EUR">10.00</cbc:Amount><cbc:BaseAmount currencyID="EUR">110.00</cbc:BaseAmount>'),
  },
  {
    name: 'R130-unit',
    base: 'be',
    edit: (x) => sub(x, '<cbc:BaseQuantity unitCode="HUR">1</cbc:BaseQuantity>', '<cbc:BaseQuantity unitCode="DAY">1</cbc:BaseQuantity>'),
  },
  // --- identifiers
  { name: 'COMMON-R040-gln', base: 'be', edit: buyerEndpoint('0088', '5400000000019') },
  { name: 'COMMON-R040-gln-party-id', base: 'be', edit: buyerPartyId('0088', '54000000A0012') },
  { name: 'COMMON-R040-gln-valid', base: 'be', edit: buyerEndpoint('0088', gln('400638133393')) },
  { name: 'COMMON-R041-orgnr', base: 'no', edit: buyerEndpoint('0192', '923456781') },
  { name: 'COMMON-R041-orgnr-length', base: 'no', edit: buyerEndpoint('0192', '12345678') },
  { name: 'COMMON-R042-cvr', base: 'dk', edit: buyerEndpoint('0184', '1234567') },
  { name: 'COMMON-R042-cvr-dk-prefix', base: 'dk', edit: buyerEndpoint('0184', 'DK87654321') },
  { name: 'COMMON-R042-cvr-letters', base: 'dk', edit: buyerEndpoint('0184', 'DK8765432A') },
  { name: 'COMMON-R052-p-number', base: 'dk', edit: buyerEndpoint('0096', '123456789') },
  { name: 'COMMON-R052-p-number-valid', base: 'dk', edit: buyerEndpoint('0096', '1234567890') },
  { name: 'COMMON-R053-se-number', base: 'dk', edit: buyerEndpoint('0198', '12345678') },
  { name: 'COMMON-R053-se-number-valid', base: 'dk', edit: buyerEndpoint('0198', 'DK12345678') },
  { name: 'COMMON-R043-enterprise', base: 'be', edit: sellerEndpoint('0208', '0403127061') },
  { name: 'COMMON-R043-enterprise-short', base: 'be', edit: sellerLegal('0208', '403127060') },
  { name: 'COMMON-R044-ipa', base: 'it', edit: buyerEndpoint('0201', 'UFAB-1') },
  { name: 'COMMON-R045-cf', base: 'it', edit: sellerLegal('0210', 'RSSMRA80A01H50') },
  { name: 'COMMON-R045-cf-numeric', base: 'it', edit: sellerLegal('0210', '12345678901') },
  { name: 'COMMON-R045-cf-pattern', base: 'it', edit: sellerLegal('0210', 'RSSMRA8XA01H501U') },
  { name: 'COMMON-R046-cf-endpoint', base: 'it', edit: buyerEndpoint('9907', 'ABC') },
  { name: 'COMMON-R047-piva', base: 'it', edit: sellerEndpoint('0211', 'IT01234567891') },
  { name: 'COMMON-R047-piva-length', base: 'it', edit: sellerEndpoint('0211', 'IT0123456789') },
  { name: 'COMMON-R047-piva-foreign', base: 'it', edit: sellerEndpoint('0211', 'SM1234') },
  { name: 'COMMON-R049-se-orgnr', base: 'se', edit: buyerEndpoint('0007', '5560123456') },
  { name: 'COMMON-R049-se-orgnr-letters', base: 'se', edit: buyerEndpoint('0007', '55601234AB') },
  { name: 'COMMON-R050-abn', base: 'be', edit: buyerEndpoint('0151', '51824753557') },
  { name: 'COMMON-R050-abn-valid', base: 'be', edit: buyerEndpoint('0151', '51824753556') },
  { name: 'COMMON-R054-kvk', base: 'nl', edit: sellerLegal('0106', '1234567') },
  { name: 'COMMON-R055-oin', base: 'nl', edit: buyerEndpoint('0190', '0000000123456789') },
  { name: 'COMMON-R056-1-nl-vat-scheme', base: 'nl', edit: buyerPartyId('9944', 'NL123456789') },
  { name: 'COMMON-R056-2-nl-vat', base: 'nl', edit: sellerVat('NL12345678B01') },
  { name: 'COMMON-R057-establishment', base: 'nl', edit: buyerPartyId('0217', '12345678901') },
  // --- Norway
  {
    name: 'NO-R-002-no-register',
    base: 'no',
    edit: (x) =>
      remove(
        x,
        '<cac:PartyTaxScheme><cbc:CompanyID>Foretaksregisteret</cbc:CompanyID><cac:TaxScheme><cbc:ID>TAX</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>',
      ),
  },
  { name: 'NO-R-001-vat', base: 'no', edit: sellerVat('NO923456781MVA') },
  { name: 'NO-R-001-vat-suffix', base: 'no', edit: (x) => sub(x, /(<cbc:CompanyID>NO[0-9]{9})MVA/, '$1') },
  // --- Denmark
  {
    name: 'DK-R-002-no-cvr',
    base: 'dk',
    edit: (x) =>
      sub(
        x,
        /(<cac:AccountingSupplierParty>[\s\S]*?<cac:PartyLegalEntity><cbc:RegistrationName>[^<]*<\/cbc:RegistrationName>)<cbc:CompanyID[^>]*>[^<]*<\/cbc:CompanyID>/,
        '$1',
      ),
  },
  { name: 'DK-R-014-scheme', base: 'dk', edit: sellerLegal('0088', '12345678') },
  {
    name: 'DK-R-016-negative-credit',
    base: 'dk',
    credit: true,
    edit: (x) => sub(x, /<cbc:PayableAmount currencyID="DKK">/, '<cbc:PayableAmount currencyID="DKK">-'),
  },
  { name: 'DK-R-013-no-scheme', base: 'dk', edit: (x) => sub(x, '<cbc:ID schemeID="0184">12345678</cbc:ID>', '<cbc:ID>12345678</cbc:ID>') },
  {
    name: 'DK-R-005-payment-code',
    base: 'dk',
    edit: payment(
      '<cbc:PaymentMeansCode>30</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>1234567890</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'DK-R-006-no-branch',
    base: 'dk',
    edit: payment(
      '<cbc:PaymentMeansCode>31</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>1234567890</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'DK-R-007-mandate',
    base: 'dk',
    edit: payment('<cbc:PaymentMeansCode>49</cbc:PaymentMeansCode><cac:PaymentMandate><cbc:ID>M-1</cbc:ID></cac:PaymentMandate>'),
  },
  {
    name: 'DK-R-008-giro',
    base: 'dk',
    edit: payment(
      '<cbc:PaymentMeansCode>50</cbc:PaymentMeansCode><cbc:PaymentID>02#123</cbc:PaymentID><cac:PayeeFinancialAccount><cbc:ID>1234567</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'DK-R-009-giro-instruction',
    base: 'dk',
    edit: payment(
      '<cbc:PaymentMeansCode>50</cbc:PaymentMeansCode><cbc:PaymentID>04#123</cbc:PaymentID><cac:PayeeFinancialAccount><cbc:ID>1234567</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'DK-R-008-giro-valid',
    base: 'dk',
    edit: payment(
      '<cbc:PaymentMeansCode>50</cbc:PaymentMeansCode><cbc:PaymentID>04#1234567890123456</cbc:PaymentID><cac:PayeeFinancialAccount><cbc:ID>12345678</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'DK-R-010-fik',
    base: 'dk',
    edit: payment(
      '<cbc:PaymentMeansCode>93</cbc:PaymentMeansCode><cbc:PaymentID>72#123</cbc:PaymentID><cac:PayeeFinancialAccount><cbc:ID>12345678</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'DK-R-011-fik-instruction',
    base: 'dk',
    edit: payment(
      '<cbc:PaymentMeansCode>93</cbc:PaymentMeansCode><cbc:PaymentID>71#1234</cbc:PaymentID><cac:PayeeFinancialAccount><cbc:ID>12345678</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'DK-R-017-buyer-scheme',
    base: 'dk',
    edit: (x) => sub(x, /(<cac:AccountingCustomerParty>[\s\S]*?<cbc:CompanyID) schemeID="0184">87654321/, '$1 schemeID="0096">87654321'),
  },
  {
    name: 'DK-R-003-unspsc',
    base: 'dk',
    edit: (x) =>
      sub(
        x,
        '<cac:SellersItemIdentification><cbc:ID>P-A4</cbc:ID></cac:SellersItemIdentification>',
        '<cac:SellersItemIdentification><cbc:ID>P-A4</cbc:ID></cac:SellersItemIdentification><cac:CommodityClassification><cbc:ItemClassificationCode listID="TST" listVersionID="18.0">44121618</cbc:ItemClassificationCode></cac:CommodityClassification>',
      ),
  },
  {
    name: 'DK-R-004-zzz',
    base: 'dk',
    edit: (x) =>
      sub(
        x,
        '<cbc:AllowanceChargeReasonCode>FC</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Freight</cbc:AllowanceChargeReason>',
        '<cbc:AllowanceChargeReasonCode>ZZZ</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Afgift</cbc:AllowanceChargeReason>',
      ),
  },
  {
    name: 'DK-R-004-zzz-valid',
    base: 'dk',
    edit: (x) =>
      sub(
        x,
        '<cbc:AllowanceChargeReasonCode>FC</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Freight</cbc:AllowanceChargeReason>',
        '<cbc:AllowanceChargeReasonCode>ZZZ</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>0123</cbc:AllowanceChargeReason>',
      ),
  },
  // --- Italy
  {
    name: 'IT-R-001-tax-id',
    base: 'it',
    edit: (x) => sub(x, '<cbc:CompanyID>RSSMRA80A01H501U</cbc:CompanyID>', '<cbc:CompanyID>rss-123</cbc:CompanyID>'),
  },
  {
    name: 'IT-R-002-004-address',
    base: 'it',
    edit: (x) => sub(x, /(<cac:AccountingSupplierParty>[\s\S]*?<cac:PostalAddress>)[\s\S]*?(<cac:Country>)/, '$1$2'),
  },
  // --- Sweden
  { name: 'SE-R-001-vat-length', base: 'se', edit: (x) => sub(x, /(<cbc:CompanyID>SE[0-9]{10})01/, '$1011') },
  { name: 'SE-R-002-vat-numeric', base: 'se', edit: (x) => sub(x, /(<cbc:CompanyID>SE[0-9]{10})01/, '$1AB') },
  { name: 'SE-R-003-013-orgnr', base: 'se', edit: sellerLegal(null, '55667788AB') },
  { name: 'SE-R-004-orgnr-length', base: 'se', edit: sellerLegal(null, '556677889') },
  { name: 'SE-R-013-orgnr-check', base: 'se', edit: sellerLegal(null, '5566778891') },
  { name: 'SE-R-005-f-skatt', base: 'se', edit: (x) => sub(x, 'Godkänd för F-skatt', 'F-skatt') },
  { name: 'SE-R-006-rate', base: 'se', edit: (x) => x.replace(/<cbc:Percent>25<\/cbc:Percent>/g, '<cbc:Percent>20</cbc:Percent>') },
  {
    name: 'SE-R-007-010-plusgiro',
    base: 'se',
    edit: payment(
      '<cbc:PaymentMeansCode>30</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>1234567890A</cbc:ID><cac:FinancialInstitutionBranch><cbc:ID>SE:PLUSGIRO</cbc:ID></cac:FinancialInstitutionBranch></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'SE-R-008-009-bankgiro',
    base: 'se',
    edit: payment(
      '<cbc:PaymentMeansCode>30</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>12A</cbc:ID><cac:FinancialInstitutionBranch><cbc:ID>SE:BANKGIRO</cbc:ID></cac:FinancialInstitutionBranch></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'SE-R-011-code-50',
    base: 'se',
    edit: payment(
      '<cbc:PaymentMeansCode>50</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>56781234</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'SE-R-012-code-31',
    base: 'se',
    edit: payment(
      '<cbc:PaymentMeansCode>31</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>SE4550000000058398257466</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  // --- Greece
  {
    name: 'GR-R-001-segments',
    base: 'gr',
    edit: (x) => sub(x, /<cbc:ID>[0-9]{9}\|16\/09\/2026\|42\|1\.1\|A\|0001<\/cbc:ID>/, '<cbc:ID>123456789|16/09/2026|x|9.9||</cbc:ID>'),
  },
  { name: 'GR-R-001-date', base: 'gr', edit: (x) => sub(x, '|16/09/2026|', '|17/09/2026|') },
  { name: 'GR-R-001-five-segments', base: 'gr', edit: (x) => sub(x, '|A|0001</cbc:ID>', '|A</cbc:ID>') },
  {
    name: 'GR-R-002-005-names',
    base: 'gr',
    edit: (x) =>
      x.replace(/<cac:PartyName><cbc:Name>[^<]*<\/cbc:Name><\/cac:PartyName>/g, '<cac:PartyName><cbc:Name></cbc:Name></cac:PartyName>'),
  },
  { name: 'GR-R-003-vat', base: 'gr', edit: sellerVat('GR094048481') },
  { name: 'GR-R-004-mark', base: 'gr', edit: (x) => sub(x, '<cbc:ID>400001234567890</cbc:ID>', '<cbc:ID>0400001</cbc:ID>') },
  {
    name: 'GR-R-004-1-no-mark',
    base: 'gr',
    edit: (x) => remove(x, /<cac:AdditionalDocumentReference><cbc:ID>400001234567890<\/cbc:ID>[\s\S]*?<\/cac:AdditionalDocumentReference>/),
  },
  {
    name: 'GR-R-008-urls',
    base: 'gr',
    edit: (x) => sub(x, /(<cac:AdditionalDocumentReference><cbc:ID>URL-1<\/cbc:ID>[\s\S]*?<\/cac:AdditionalDocumentReference>)/, '$1$1'),
  },
  {
    name: 'GR-R-008-3-no-uri',
    base: 'gr',
    edit: (x) =>
      remove(
        x,
        '<cac:Attachment><cac:ExternalReference><cbc:URI>https://invoices.example.gr/42</cbc:URI></cac:ExternalReference></cac:Attachment>',
      ),
  },
  { name: 'GR-R-006-buyer-vat', base: 'gr', edit: buyerVat('EL123456789') },
  { name: 'GR-R-009-010-endpoints', base: 'gr', edit: chain(sellerEndpoint('9933', '123456789'), buyerEndpoint('0088', '5400000000019')) },
  { name: 'GR-S-011-no-vat', base: 'gr', edit: chain(sellerVat('094048481')) },
  // --- Iceland
  { name: 'IS-R-001-type', base: 'is', edit: typeCode('386') },
  { name: 'IS-R-002-004-legal', base: 'is', edit: (x) => x.replace(/<cbc:CompanyID schemeID="0196">/g, '<cbc:CompanyID schemeID="0088">') },
  { name: 'IS-R-003-005-address', base: 'is', edit: (x) => x.replace(/<cbc:StreetName>[^<]*<\/cbc:StreetName>/g, '') },
  {
    name: 'IS-R-006-account-9',
    base: 'is',
    edit: payment(
      '<cbc:PaymentMeansCode>9</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>0116260012</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  { name: 'IS-R-007-account-42', base: 'is', edit: payment('<cbc:PaymentMeansCode>42</cbc:PaymentMeansCode>') },
  { name: 'IS-R-008-eindagi', base: 'is', edit: (x) => sub(x, '<cbc:ID>2026-10-20</cbc:ID>', '<cbc:ID>20.10.2026</cbc:ID>') },
  { name: 'IS-R-009-no-due-date', base: 'is', edit: (x) => remove(x, '<cbc:DueDate>2026-10-15</cbc:DueDate>') },
  { name: 'IS-R-010-eindagi-early', base: 'is', edit: (x) => sub(x, '<cbc:ID>2026-10-20</cbc:ID>', '<cbc:ID>2026-10-01</cbc:ID>') },
  // --- Netherlands
  { name: 'NL-R-001-no-reference', base: 'nl', credit: true, edit: (x) => remove(x, block('cac:BillingReference')) },
  { name: 'NL-R-002-004-addresses', base: 'nl', edit: (x) => x.replace(/<cbc:CityName>(Amsterdam|Utrecht)<\/cbc:CityName>/g, '') },
  {
    name: 'NL-R-003-005-legal',
    base: 'nl',
    edit: (x) => x.replace(/<cbc:CompanyID schemeID="(0106|0190)">/g, '<cbc:CompanyID schemeID="0088">'),
  },
  {
    name: 'NL-R-006-tax-representative',
    base: 'nl',
    edit: (x) =>
      sub(
        x,
        '<cac:Delivery>',
        '<cac:TaxRepresentativeParty><cac:PartyName><cbc:Name>Rep BV</cbc:Name></cac:PartyName><cac:PostalAddress><cbc:CityName>Delft</cbc:CityName><cac:Country><cbc:IdentificationCode>NL</cbc:IdentificationCode></cac:Country></cac:PostalAddress><cac:PartyTaxScheme><cbc:CompanyID>NL987654321B01</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme></cac:TaxRepresentativeParty><cac:Delivery>',
      ),
  },
  { name: 'NL-R-007-no-payment-means', base: 'nl', edit: (x) => remove(x, block('cac:PaymentMeans')) },
  {
    name: 'NL-R-008-payment-code',
    base: 'nl',
    edit: payment(
      '<cbc:PaymentMeansCode>31</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>NL91ABNA0417164300</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  { name: 'NL-R-009-no-order', base: 'nl', edit: (x) => remove(x, block('cac:OrderReference')) },
  // --- Germany
  { name: 'DE-R-001-no-payment', base: 'de', edit: (x) => remove(x, block('cac:PaymentMeans')) },
  { name: 'DE-R-015-no-buyer-reference', base: 'de', edit: (x) => remove(x, block('cbc:BuyerReference')) },
  {
    name: 'DE-R-016-no-vat-id',
    base: 'de',
    edit: (x) => remove(x, /(?<=<cac:AccountingSupplierParty>[\s\S]*?)<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>/),
  },
  { name: 'DE-R-017-type', base: 'de', edit: typeCode('386') },
  { name: 'DE-R-018-skonto', base: 'de', edit: (x) => sub(x, '#SKONTO#TAGE=14#PROZENT=2.00#\n', '#SKONTO#TAGE=14#PROZENT=2#\n') },
  {
    name: 'DE-R-018-skonto-prefix',
    base: 'de',
    edit: (x) => sub(x, '#SKONTO#TAGE=14#PROZENT=2.00#\n', '#X#SKONTO#TAGE=14#PROZENT=2.00#\n'),
  },
  { name: 'DE-R-018-skonto-no-break', base: 'de', edit: (x) => sub(x, '#SKONTO#TAGE=14#PROZENT=2.00#\n', '#SKONTO#TAGE=14#PROZENT=2.00#') },
  {
    name: 'DE-R-022-filenames',
    base: 'de',
    edit: beforeSupplier(
      ADR(
        '<cbc:ID>A1</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="a.pdf">JVBERi0=</cbc:EmbeddedDocumentBinaryObject></cac:Attachment>',
      ) +
        ADR(
          '<cbc:ID>A2</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="a.pdf">JVBERi0=</cbc:EmbeddedDocumentBinaryObject></cac:Attachment>',
        ),
    ),
  },
  { name: 'DE-R-026-corrected', base: 'de', edit: typeCode('384') },
  {
    name: 'DE-R-T02-url',
    base: 'de',
    edit: beforeSupplier(
      ADR(
        '<cbc:ID>X1</cbc:ID><cac:Attachment><cac:ExternalReference><cbc:URI>www.example.com/doc</cbc:URI></cac:ExternalReference></cac:Attachment>',
      ),
    ),
  },
  { name: 'DE-R-002-no-contact', base: 'de', edit: (x) => remove(x, block('cac:Contact')) },
  {
    name: 'DE-R-003-004-seller-city',
    base: 'de',
    edit: (x) => x.replace('<cbc:CityName>Freiburg</cbc:CityName><cbc:PostalZone>79098</cbc:PostalZone>', '<cbc:CityName> </cbc:CityName>'),
  },
  {
    name: 'DE-R-005-006-007-contact',
    base: 'de',
    edit: (x) => sub(x, block('cac:Contact'), '<cac:Contact><cbc:Name>Jana Vogel</cbc:Name></cac:Contact>'),
  },
  {
    name: 'DE-R-005-no-contact-name',
    base: 'de',
    edit: (x) =>
      sub(
        x,
        block('cac:Contact'),
        '<cac:Contact><cbc:Telephone>+49 761 1</cbc:Telephone><cbc:ElectronicMail>a@b.de</cbc:ElectronicMail></cac:Contact>',
      ),
  },
  {
    name: 'DE-R-027-028-contact-format',
    base: 'de',
    edit: (x) =>
      sub(
        x,
        block('cac:Contact'),
        '<cac:Contact><cbc:Name>Jana Vogel</cbc:Name><cbc:Telephone>ab</cbc:Telephone><cbc:ElectronicMail>jana@</cbc:ElectronicMail></cac:Contact>',
      ),
  },
  {
    name: 'DE-R-008-009-buyer-city',
    base: 'de',
    edit: (x) => sub(x, '<cbc:CityName>Karlsruhe</cbc:CityName><cbc:PostalZone>76133</cbc:PostalZone>', ''),
  },
  {
    name: 'DE-R-010-011-delivery',
    base: 'de',
    edit: (x) =>
      sub(
        x,
        /(<cac:DeliveryLocation><cac:Address><cbc:StreetName>[^<]*<\/cbc:StreetName>)<cbc:CityName>[^<]*<\/cbc:CityName><cbc:PostalZone>[^<]*<\/cbc:PostalZone>/,
        '$1',
      ),
  },
  {
    name: 'DE-R-019-iban',
    base: 'de',
    edit: (x) => sub(x, /<cac:PayeeFinancialAccount><cbc:ID>DE[0-9]{2}/, '<cac:PayeeFinancialAccount><cbc:ID>DE00'),
  },
  {
    name: 'DE-R-023-credit-transfer',
    base: 'de',
    edit: payment(
      '<cbc:PaymentMeansCode>30</cbc:PaymentMeansCode><cac:CardAccount><cbc:PrimaryAccountNumberID>1234</cbc:PrimaryAccountNumberID><cbc:NetworkID>VISA</cbc:NetworkID></cac:CardAccount>',
    ),
  },
  {
    name: 'DE-R-024-card',
    base: 'de',
    edit: payment(
      '<cbc:PaymentMeansCode>48</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>DE02120300000000202051</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'DE-R-020-025-direct-debit',
    base: 'de',
    edit: payment(
      '<cbc:PaymentMeansCode>59</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>DE02120300000000202051</cbc:ID></cac:PayeeFinancialAccount>',
    ),
  },
  {
    name: 'DE-R-020-bad-iban',
    base: 'de',
    edit: payment(
      '<cbc:PaymentMeansCode>59</cbc:PaymentMeansCode><cac:PaymentMandate><cbc:ID>M-1</cbc:ID><cac:PayerFinancialAccount><cbc:ID>DE00120300000000202051</cbc:ID></cac:PayerFinancialAccount></cac:PaymentMandate>',
    ),
  },
  {
    name: 'DE-R-030-031-mandate',
    base: 'de',
    edit: payment('<cbc:PaymentMeansCode>59</cbc:PaymentMeansCode><cac:PaymentMandate><cbc:ID>M-1</cbc:ID></cac:PaymentMandate>'),
  },
  { name: 'DE-R-014-no-rate', base: 'de', edit: (x) => sub(x, /(<cac:TaxSubtotal>[\s\S]*?)<cbc:Percent>19<\/cbc:Percent>/, '$1') },
  {
    name: 'DE-R-pm-code-58-0',
    base: 'de',
    edit: (x) => sub(x, '<cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>', '<cbc:PaymentMeansCode>58.0</cbc:PaymentMeansCode>'),
  },
  { name: 'P0112-326-not-german', base: 'be', edit: typeCode('326') },
  { name: 'P0112-326-german', base: 'de', edit: typeCode('326') },
  // --- code lists and formats
  { name: 'CL001-mime', base: 'be', edit: (x) => sub(x, 'mimeCode="application/pdf"', 'mimeCode="application/zip"') },
  { name: 'CL002-allowance-reason', base: 'be', edit: (x) => sub(x, docAllowance, (m: string) => m.replace('>95<', '>FC<')) },
  {
    name: 'CL003-charge-reason',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cbc:AllowanceChargeReasonCode>FC</cbc:AllowanceChargeReasonCode>',
        '<cbc:AllowanceChargeReasonCode>95</cbc:AllowanceChargeReasonCode>',
      ),
  },
  {
    name: 'CL003-charge-reason-prv',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cbc:AllowanceChargeReasonCode>FC</cbc:AllowanceChargeReasonCode>',
        '<cbc:AllowanceChargeReasonCode>PRV</cbc:AllowanceChargeReasonCode>',
      ),
  },
  {
    name: 'CL006-description-code',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cac:InvoicePeriod><cbc:StartDate>2026-09-01</cbc:StartDate><cbc:EndDate>2026-09-30</cbc:EndDate>',
        '<cac:InvoicePeriod><cbc:StartDate>2026-09-01</cbc:StartDate><cbc:EndDate>2026-09-30</cbc:EndDate><cbc:DescriptionCode>1</cbc:DescriptionCode>',
      ),
  },
  {
    name: 'CL007-currency',
    base: 'be',
    edit: (x) =>
      x.replace(/currencyID="EUR"/g, 'currencyID="EURO"').replace('<cbc:DocumentCurrencyCode>EUR<', '<cbc:DocumentCurrencyCode>EURO<'),
  },
  {
    name: 'CL007-currency-bgn',
    base: 'be',
    edit: (x) =>
      x.replace(/currencyID="EUR"/g, 'currencyID="BGN"').replace('<cbc:DocumentCurrencyCode>EUR<', '<cbc:DocumentCurrencyCode>BGN<'),
  },
  {
    name: 'CL007-currency-xcg',
    base: 'be',
    edit: (x) =>
      x.replace(/currencyID="EUR"/g, 'currencyID="XCG"').replace('<cbc:DocumentCurrencyCode>EUR<', '<cbc:DocumentCurrencyCode>XCG<'),
  },
  {
    name: 'CL007-currency-std',
    base: 'be',
    edit: (x) =>
      x.replace(/currencyID="EUR"/g, 'currencyID="STD"').replace('<cbc:DocumentCurrencyCode>EUR<', '<cbc:DocumentCurrencyCode>STD<'),
  },
  { name: 'P0100-type', base: 'be', edit: typeCode('381') },
  { name: 'P0100-type-spaces', base: 'be', edit: typeCode(' 380 ') },
  { name: 'P0101-type', base: 'be', credit: true, edit: typeCode('380') },
  {
    name: 'F001-date',
    base: 'be',
    edit: (x) => sub(x, '<cbc:IssueDate>2026-09-16</cbc:IssueDate>', '<cbc:IssueDate>2026-9-16</cbc:IssueDate>'),
  },
  {
    name: 'F001-date-feb-30',
    base: 'be',
    edit: (x) => sub(x, '<cbc:DueDate>2026-10-15</cbc:DueDate>', '<cbc:DueDate>2026-02-30</cbc:DueDate>'),
  },
  { name: 'CL008-eas', base: 'be', edit: buyerEndpoint('EM', 'ap@example.com') },
  { name: 'CL008-eas-removed', base: 'be', edit: buyerEndpoint('0037', '003712345678') },
  { name: 'CL008-eas-new', base: 'be', edit: buyerEndpoint('0246', '12345') },
  { name: 'CL008-eas-empty', base: 'be', edit: buyerEndpoint('', '12345') },
  ...(
    [
      ['P0104', 'VATEX-EU-G'],
      ['P0105', 'vatex-eu-o'],
      ['P0106', 'VATEX-EU-IC'],
      ['P0107', 'VATEX-EU-AE'],
      ['P0108', 'VATEX-EU-D'],
      ['P0109', 'VATEX-EU-F'],
      ['P0110', 'VATEX-EU-I'],
      ['P0111', 'VATEX-EU-J'],
    ] as const
  ).map(
    ([id, code]): Case => ({
      name: `${id}-exemption`,
      base: 'be',
      edit: (x) =>
        sub(
          x,
          '<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent>',
          `<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>21</cbc:Percent><cbc:TaxExemptionReasonCode>${code}</cbc:TaxExemptionReasonCode>`,
        ),
    }),
  ),
  // --- cross-border: national rules that need both parties in the country stay silent
  {
    name: 'xb-dk-seller-swedish-buyer',
    base: 'dk',
    edit: chain(buyerCountry('SE'), payment('<cbc:PaymentMeansCode>30</cbc:PaymentMeansCode>')),
  },
  { name: 'xb-de-seller-austrian-buyer', base: 'de', edit: chain(buyerCountry('AT'), typeCode('326')) },
  {
    name: 'xb-gr-seller-german-buyer',
    base: 'gr',
    edit: chain(buyerCountry('DE'), buyerVat('DE123456789'), buyerEndpoint('9930', 'DE123456789')),
  },
  {
    name: 'xb-se-seller-norwegian-buyer',
    base: 'se',
    edit: chain(
      buyerCountry('NO'),
      payment(
        '<cbc:PaymentMeansCode>31</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>SE4550000000058398257466</cbc:ID></cac:PayeeFinancialAccount>',
      ),
    ),
  },
  {
    name: 'xb-nl-seller-belgian-buyer',
    base: 'nl',
    edit: chain(
      buyerCountry('BE'),
      payment(
        '<cbc:PaymentMeansCode>31</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>NL91ABNA0417164300</cbc:ID></cac:PayeeFinancialAccount>',
      ),
    ),
  },
  { name: 'xb-foreign-seller-norwegian-vat', base: 'be', edit: sellerCountry('NO') },
  // --- values written with blanks or odd forms
  { name: 'CL002-reason-blanks', base: 'be', edit: (x) => sub(x, docAllowance, (m: string) => m.replace('>95<', '> 95 <')) },
  { name: 'R043-indicator-blanks', base: 'be', edit: (x) => sub(x, docAllowance, (m: string) => m.replace('>false<', '> false <')) },
  {
    name: 'F001-date-zone',
    base: 'be',
    edit: (x) => sub(x, '<cbc:IssueDate>2026-09-16</cbc:IssueDate>', '<cbc:IssueDate>2026-09-16Z</cbc:IssueDate>'),
  },
  {
    name: 'R110-line-date-zone',
    base: 'be',
    edit: (x) =>
      sub(
        x,
        '<cbc:StartDate>2026-09-01</cbc:StartDate><cbc:EndDate>2026-09-15</cbc:EndDate>',
        '<cbc:StartDate>2026-09-01+02:00</cbc:StartDate><cbc:EndDate>2026-09-15</cbc:EndDate>',
      ),
  },
  {
    name: 'R120-half-cent-allowance',
    base: 'be',
    edit: (x) => sub(x, '<cbc:Amount currencyID="EUR">25.00</cbc:Amount>', '<cbc:Amount currencyID="EUR">24.985</cbc:Amount>'),
  },
  // --- self-billing
  {
    name: 'SB-R004-billing-id',
    base: 'sb',
    edit: (x) => sub(x, 'poacc:selfbilling:3.0</cbc:CustomizationID>', 'poacc:billing:3.0</cbc:CustomizationID>'),
  },
  { name: 'SB-P0100-type', base: 'sb', edit: typeCode('380') },
  { name: 'SB-P0101-type', base: 'sb', credit: true, edit: typeCode('381') },
  { name: 'SB-R007-profile', base: 'sb', edit: (x) => sub(x, 'poacc:selfbilling:01:1.0', 'poacc:billing:01:1.0') },
  {
    name: 'SB-R051-subtotal',
    base: 'sb',
    edit: (x) =>
      sub(
        x,
        /<cbc:TaxableAmount currencyID="EUR">([^<]*)<\/cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">/,
        '<cbc:TaxableAmount currencyID="EUR">$1</cbc:TaxableAmount><cbc:TaxAmount currencyID="SEK">',
      ),
  },
  { name: 'SB-R042-cvr', base: 'sb', edit: buyerEndpoint('0184', '12345678') },
  { name: 'SB-R061-mandate', base: 'sb', edit: payment('<cbc:PaymentMeansCode>49</cbc:PaymentMeansCode>') },
];

function main(): void {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const write = (name: string, xml: string) => writeFileSync(path.join(OUT, `${name}.xml`), xml);
  for (const key of Object.keys(BASES)) {
    write(`base-${key}`, baseXml(key));
    write(`base-${key}-cn`, baseXml(key, true));
  }
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`duplicate case ${c.name}`);
    names.add(c.name);
    write(`${c.base}${c.credit ? '-cn' : ''}--${c.name}`, c.edit(baseXml(c.base, c.credit)));
  }
  console.log(`${readdirSync(OUT).length} invoices in ${path.relative(process.cwd(), OUT)}`);
}

main();
