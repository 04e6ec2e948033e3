/**
 * XRechnung 3.0 rule sets (xrechnung-cii, xrechnung-ubl): every rule of the catalogue has a passing
 * and a failing case. Each case starts from an official XRechnung test instance that no XRechnung
 * rule flags (KoSIT instances, test/fixtures/kosit), applies one edit to the XML, and checks that the
 * rule fires on the edited document and not on the unedited one. Every edit must match the base
 * document (the helper throws otherwise), so a case cannot silently test nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath, ruleIds } from './fixtures.js';
import { describe, test } from 'node:test';
import { ingest } from '../src/input/ingest.js';
import { getRuleSet, runRuleSet } from '../src/rules/engine.js';
import '../src/rules/xrechnung/index.js';
import { XR_CVD_ID, XR_EXTENSION_ID } from '../src/rules/xrechnung/common.js';

const XR_ID = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';

const BASES = {
  cii: 'kosit/instances/cii/cii-br-de-14-test.xml',
  ubl: 'kosit/instances/ubl-inv/ubl-inv-br-de-1-test.xml',
  cn: 'kosit/instances/ubl-cn/ubl-cn-br-de-1-test.xml',
} as const;
type Base = keyof typeof BASES;

/** Replace (the first, or with a /g regex every) match; throws when the pattern is not in the document. */
function sub(xml: string, pattern: string | RegExp, replacement: string): string {
  const found = typeof pattern === 'string' ? xml.includes(pattern) : new RegExp(pattern.source, pattern.flags.replace('g', '')).test(xml);
  if (!found) throw new Error(`edit does not apply: ${pattern}`);
  return typeof pattern === 'string' ? xml.replace(pattern, replacement) : xml.replace(pattern, replacement);
}
const remove = (xml: string, pattern: string | RegExp) => sub(xml, pattern, '');
const block = (tag: string) => new RegExp(`<${tag}>[\\s\\S]*?</${tag}>`);
const blocks = (tag: string) => new RegExp(`<${tag}>[\\s\\S]*?</${tag}>`, 'g');

type Flavour = 'plain' | 'extension' | 'cvd';
interface Case {
  id: string;
  base: Base;
  flavour?: Flavour;
  /** Extra edits applied to both the passing and the failing document (e.g. a CVD-complete base). */
  prepare?: (xml: string) => string;
  fail: (xml: string) => string;
}

function withFlavour(xml: string, base: Base, flavour: Flavour): string {
  if (flavour === 'plain') return xml;
  const id = flavour === 'extension' ? XR_EXTENSION_ID : XR_CVD_ID;
  return base === 'cii'
    ? sub(xml, `<ram:ID>${XR_ID}</ram:ID>`, `<ram:ID>${id}</ram:ID>`)
    : sub(xml, `<cbc:CustomizationID>${XR_ID}</cbc:CustomizationID>`, `<cbc:CustomizationID>${id}</cbc:CustomizationID>`);
}

async function firings(xml: string, set: string, id: string): Promise<number> {
  const ing = await ingest(Buffer.from(xml, 'utf8'), 'case.xml');
  assert.ok(ing.doc && ing.invoice && (ing.syntax === 'cii' || ing.syntax === 'ubl'), 'the case must be a readable invoice');
  return runRuleSet(set, { doc: ing.doc, invoice: ing.invoice, syntax: ing.syntax }).filter((f) => f.ruleId === id).length;
}

// ---------------------------------------------------------------------------------------------
// CII

const CII_AGR_END = '</ram:ApplicableHeaderTradeAgreement>';
const CII_FIRST_PM = /<ram:SpecifiedTradeSettlementPaymentMeans>\s*<ram:TypeCode>58<\/ram:TypeCode>/;
const ciiPm =
  (code: string, extra = '') =>
  (x: string) =>
    sub(x, CII_FIRST_PM, `<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>${code}</ram:TypeCode>${extra}`);
const ciiHeaderTax =
  /(<ram:RateApplicablePercent>19<\/ram:RateApplicablePercent>)(\s*<\/ram:ApplicableTradeTax>\s*<ram:BillingSpecifiedPeriod>)/;
const ciiSettlementStart = '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>';
const ciiFirstNetPrice = /<ram:NetPriceProductTradePrice>\s*<ram:ChargeAmount>1340<\/ram:ChargeAmount>\s*<\/ram:NetPriceProductTradePrice>/;
const ciiFirstLineSettlement = /<ram:SpecifiedLineTradeSettlement>/;
const ciiAc = (inner: string) => (x: string) =>
  sub(
    x,
    '<ram:SpecifiedTradeSettlementHeaderMonetarySummation>',
    `<ram:SpecifiedTradeAllowanceCharge>${inner}<ram:Reason>r</ram:Reason><ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:CategoryTradeTax></ram:SpecifiedTradeAllowanceCharge><ram:SpecifiedTradeSettlementHeaderMonetarySummation>`,
  );
const ind = (v: string) => `<ram:ChargeIndicator><udt:Indicator>${v}</udt:Indicator></ram:ChargeIndicator>`;
const ciiGross = (inner: string) => (x: string) =>
  sub(x, ciiFirstNetPrice, `<ram:GrossPriceProductTradePrice>${inner}</ram:GrossPriceProductTradePrice>$&`);

/** A complete CVD invoice: contract and tender references, one line classified as a clean M1 vehicle. */
const cvdComplete = (x: string) =>
  sub(
    sub(
      x,
      CII_AGR_END,
      '<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>LOT-1</ram:IssuerAssignedID><ram:TypeCode>50</ram:TypeCode></ram:AdditionalReferencedDocument><ram:ContractReferencedDocument><ram:IssuerAssignedID>C-1</ram:IssuerAssignedID></ram:ContractReferencedDocument>' +
        CII_AGR_END,
    ),
    '<ram:Name>Seminar</ram:Name>',
    '<ram:Name>Seminar</ram:Name><ram:ApplicableProductCharacteristic><ram:Description>cva</ram:Description><ram:Value>clean</ram:Value></ram:ApplicableProductCharacteristic><ram:DesignatedProductClassification><ram:ClassCode listID="CVD">M1</ram:ClassCode></ram:DesignatedProductClassification>',
  );

const CII_CASES: Case[] = [
  { id: 'BR-DE-1', base: 'cii', fail: (x) => remove(x, blocks('ram:SpecifiedTradeSettlementPaymentMeans')) },
  { id: 'BR-DE-2', base: 'cii', fail: (x) => remove(x, block('ram:DefinedTradeContact')) },
  { id: 'BR-DE-3', base: 'cii', fail: (x) => remove(x, '<ram:CityName>[Seller city]</ram:CityName>') },
  { id: 'BR-DE-4', base: 'cii', fail: (x) => remove(x, /<ram:PostcodeCode>12345<\/ram:PostcodeCode>(?=\s*<ram:LineOne>\[Seller)/) },
  { id: 'BR-DE-5', base: 'cii', fail: (x) => remove(x, '<ram:PersonName>[Seller contact person]</ram:PersonName>') },
  { id: 'BR-DE-6', base: 'cii', fail: (x) => remove(x, block('ram:TelephoneUniversalCommunication')) },
  { id: 'BR-DE-7', base: 'cii', fail: (x) => remove(x, block('ram:EmailURIUniversalCommunication')) },
  { id: 'BR-DE-8', base: 'cii', fail: (x) => remove(x, '<ram:CityName>[Buyer city]</ram:CityName>') },
  { id: 'BR-DE-9', base: 'cii', fail: (x) => remove(x, /<ram:PostcodeCode>12345<\/ram:PostcodeCode>(?=\s*<ram:LineOne>\[Buyer)/) },
  { id: 'BR-DE-10', base: 'cii', fail: (x) => remove(x, '<ram:CityName>Schulungsort</ram:CityName>') },
  { id: 'BR-DE-11', base: 'cii', fail: (x) => remove(x, /<ram:PostcodeCode>12345<\/ram:PostcodeCode>(?=\s*<ram:CityName>Schulungsort)/) },
  { id: 'BR-DE-14', base: 'cii', fail: (x) => sub(x, ciiHeaderTax, '$2') },
  { id: 'BR-DE-15', base: 'cii', fail: (x) => remove(x, block('ram:BuyerReference')) },
  { id: 'BR-DE-16', base: 'cii', fail: (x) => remove(x, block('ram:SpecifiedTaxRegistration')) },
  { id: 'BR-DE-17', base: 'cii', fail: (x) => sub(x, '<ram:TypeCode>380</ram:TypeCode>', '<ram:TypeCode>383</ram:TypeCode>') },
  {
    id: 'BR-DE-18',
    base: 'cii',
    fail: (x) => sub(x, '<ram:Description>14 Tage</ram:Description>', '<ram:Description>#SKONTO#TAGE=7#PROZENT=2#\n</ram:Description>'),
  },
  { id: 'BR-DE-19', base: 'cii', fail: (x) => sub(x, 'DE79000000001234567890', 'DE79000000001234567891') },
  {
    id: 'BR-DE-20',
    base: 'cii',
    fail: ciiPm('59', '<ram:PayerPartyDebtorFinancialAccount><ram:IBANID>DE00123</ram:IBANID></ram:PayerPartyDebtorFinancialAccount>'),
  },
  { id: 'BR-DE-21', base: 'cii', fail: (x) => sub(x, `<ram:ID>${XR_ID}</ram:ID>`, '<ram:ID>urn:cen.eu:en16931:2017</ram:ID>') },
  {
    id: 'BR-DE-22',
    base: 'cii',
    fail: (x) =>
      sub(
        x,
        CII_AGR_END,
        '<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>A1</ram:IssuerAssignedID><ram:AttachmentBinaryObject mimeCode="application/pdf" filename="a.pdf">QQ==</ram:AttachmentBinaryObject></ram:AdditionalReferencedDocument><ram:AdditionalReferencedDocument><ram:IssuerAssignedID>A2</ram:IssuerAssignedID><ram:AttachmentBinaryObject mimeCode="application/pdf" filename="a.pdf">QQ==</ram:AttachmentBinaryObject></ram:AdditionalReferencedDocument>' +
          CII_AGR_END,
      ),
  },
  { id: 'BR-DE-23-a', base: 'cii', fail: (x) => remove(x, blocks('ram:PayeePartyCreditorFinancialAccount')) },
  {
    id: 'BR-DE-23-b',
    base: 'cii',
    fail: ciiPm('58', '<ram:ApplicableTradeSettlementFinancialCard><ram:ID>1234</ram:ID></ram:ApplicableTradeSettlementFinancialCard>'),
  },
  { id: 'BR-DE-24-a', base: 'cii', fail: ciiPm('48') },
  {
    id: 'BR-DE-24-b',
    base: 'cii',
    fail: ciiPm('48', '<ram:ApplicableTradeSettlementFinancialCard><ram:ID>1234</ram:ID></ram:ApplicableTradeSettlementFinancialCard>'),
  },
  { id: 'BR-DE-25-a', base: 'cii', fail: ciiPm('59') },
  {
    id: 'BR-DE-25-b',
    base: 'cii',
    fail: ciiPm(
      '59',
      '<ram:PayerPartyDebtorFinancialAccount><ram:IBANID>DE79000000001234567890</ram:IBANID></ram:PayerPartyDebtorFinancialAccount>',
    ),
  },
  { id: 'BR-DE-26', base: 'cii', fail: (x) => sub(x, '<ram:TypeCode>380</ram:TypeCode>', '<ram:TypeCode>384</ram:TypeCode>') },
  { id: 'BR-DE-27', base: 'cii', fail: (x) => sub(x, '+49 123456789', 'n/a') },
  { id: 'BR-DE-28', base: 'cii', fail: (x) => sub(x, 'xxx@schulung.de', 'xxx at schulung') },
  {
    id: 'BR-DE-30',
    base: 'cii',
    fail: (x) =>
      sub(
        x,
        '<ram:Description>14 Tage</ram:Description>',
        '<ram:Description>14 Tage</ram:Description><ram:DirectDebitMandateID>M-1</ram:DirectDebitMandateID>',
      ),
  },
  {
    id: 'BR-DE-31',
    base: 'cii',
    fail: (x) => sub(x, ciiSettlementStart, '<ram:CreditorReferenceID>DE98ZZZ09999999999</ram:CreditorReferenceID>' + ciiSettlementStart),
  },
  { id: 'BR-DE-TMP-32', base: 'cii', fail: (x) => remove(x, block('ram:BillingSpecifiedPeriod')) },
  {
    id: 'BR-TMP-2',
    base: 'cii',
    fail: (x) =>
      sub(
        x,
        CII_AGR_END,
        '<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>D1</ram:IssuerAssignedID><ram:URIID>www.example.com/doc</ram:URIID><ram:TypeCode>916</ram:TypeCode></ram:AdditionalReferencedDocument>' +
          CII_AGR_END,
      ),
  },
  {
    id: 'BR-TMP-3',
    base: 'cii',
    fail: (x) =>
      sub(
        x,
        ciiFirstNetPrice,
        '<ram:GrossPriceProductTradePrice><ram:ChargeAmount>1340</ram:ChargeAmount><ram:BasisQuantity unitCode="DAY">2</ram:BasisQuantity></ram:GrossPriceProductTradePrice><ram:NetPriceProductTradePrice><ram:ChargeAmount>1340</ram:ChargeAmount><ram:BasisQuantity unitCode="DAY">1</ram:BasisQuantity></ram:NetPriceProductTradePrice>',
      ),
  },
  // extension
  {
    id: 'BR-DEX-01',
    base: 'cii',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        CII_AGR_END,
        '<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>Z</ram:IssuerAssignedID><ram:AttachmentBinaryObject mimeCode="application/zip" filename="z.zip">QQ==</ram:AttachmentBinaryObject></ram:AdditionalReferencedDocument>' +
          CII_AGR_END,
      ),
  },
  {
    id: 'BR-DEX-04',
    base: 'cii',
    flavour: 'extension',
    fail: (x) =>
      sub(x, '<ram:Name>[Seller name]</ram:Name>', '<ram:GlobalID schemeID="9999">123</ram:GlobalID><ram:Name>[Seller name]</ram:Name>'),
  },
  {
    id: 'BR-DEX-05',
    base: 'cii',
    flavour: 'extension',
    fail: (x) => sub(x, '<ram:ID>BI123456</ram:ID>', '<ram:ID schemeID="XX99">BI123456</ram:ID>'),
  },
  {
    id: 'BR-DEX-06',
    base: 'cii',
    flavour: 'extension',
    fail: (x) => sub(x, '<ram:Name>Seminar</ram:Name>', '<ram:GlobalID schemeID="9999">4000001</ram:GlobalID><ram:Name>Seminar</ram:Name>'),
  },
  {
    id: 'BR-DEX-07',
    base: 'cii',
    flavour: 'extension',
    fail: (x) => sub(x, '<ram:URIID schemeID="EM">seller@seller.com</ram:URIID>', '<ram:URIID schemeID="ZZ">seller@seller.com</ram:URIID>'),
  },
  {
    id: 'BR-DEX-08',
    base: 'cii',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        '<ram:Name>Schulungsanbieter</ram:Name>',
        '<ram:GlobalID schemeID="9999">77</ram:GlobalID><ram:Name>Schulungsanbieter</ram:Name>',
      ),
  },
  {
    id: 'BR-DEX-15',
    base: 'cii',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        '<ram:LineID>Raumkosten Schulungsort</ram:LineID>',
        '<ram:LineID>Raumkosten Schulungsort</ram:LineID><ram:ParentLineID>Seminar: […]</ram:ParentLineID>',
      ),
  },
  // Clean Vehicles Directive
  {
    id: 'BR-DE-CVD-01',
    base: 'cii',
    flavour: 'cvd',
    prepare: cvdComplete,
    fail: (x) => remove(x, block('ram:ContractReferencedDocument')),
  },
  {
    id: 'BR-DE-CVD-02',
    base: 'cii',
    flavour: 'cvd',
    prepare: cvdComplete,
    fail: (x) => sub(x, '<ram:TypeCode>50</ram:TypeCode>', '<ram:TypeCode>916</ram:TypeCode>'),
  },
  {
    id: 'BR-DE-CVD-03',
    base: 'cii',
    flavour: 'cvd',
    prepare: cvdComplete,
    fail: (x) => sub(x, '<ram:Description>cva</ram:Description>', '<ram:Description>colour</ram:Description>'),
  },
  {
    id: 'BR-DE-CVD-04',
    base: 'cii',
    flavour: 'cvd',
    prepare: cvdComplete,
    fail: (x) => sub(x, '<ram:ClassCode listID="CVD">M1</ram:ClassCode>', '<ram:ClassCode listID="CVD">X9</ram:ClassCode>'),
  },
  {
    id: 'BR-DE-CVD-05',
    base: 'cii',
    flavour: 'cvd',
    prepare: cvdComplete,
    fail: (x) => sub(x, '<ram:Value>clean</ram:Value>', '<ram:Value>diesel</ram:Value>'),
  },
  {
    id: 'BR-DE-CVD-06-a',
    base: 'cii',
    flavour: 'cvd',
    prepare: cvdComplete,
    fail: (x) =>
      sub(
        x,
        '<ram:Name>Raumkosten</ram:Name>',
        '<ram:Name>Raumkosten</ram:Name><ram:DesignatedProductClassification><ram:ClassCode listID="CVD">N1</ram:ClassCode></ram:DesignatedProductClassification>',
      ),
  },
  {
    id: 'BR-DE-CVD-06-b',
    base: 'cii',
    flavour: 'cvd',
    prepare: cvdComplete,
    fail: (x) =>
      sub(
        x,
        '<ram:Name>Raumkosten</ram:Name>',
        '<ram:Name>Raumkosten</ram:Name><ram:ApplicableProductCharacteristic><ram:Description>cva</ram:Description><ram:Value>other</ram:Value></ram:ApplicableProductCharacteristic>',
      ),
  },
  {
    id: 'BR-TMP-CVD-01',
    base: 'cii',
    flavour: 'cvd',
    prepare: cvdComplete,
    fail: (x) =>
      sub(
        x,
        '<ram:Name>Raumkosten</ram:Name>',
        '<ram:Name>Raumkosten</ram:Name><ram:DesignatedProductClassification><ram:ClassCode listID="QQQ">1</ram:ClassCode></ram:DesignatedProductClassification>',
      ),
  },
  // Peppol rules XRechnung applies
  { id: 'PEPPOL-EN16931-R001', base: 'cii', fail: (x) => remove(x, block('ram:BusinessProcessSpecifiedDocumentContextParameter')) },
  {
    id: 'PEPPOL-EN16931-R005',
    base: 'cii',
    fail: (x) => sub(x, ciiSettlementStart, ciiSettlementStart + '<ram:TaxCurrencyCode>EUR</ram:TaxCurrencyCode>'),
  },
  {
    id: 'PEPPOL-EN16931-R053',
    base: 'cii',
    fail: (x) =>
      sub(
        x,
        '<ram:TaxTotalAmount currencyID="EUR">1685.3</ram:TaxTotalAmount>',
        '$&<ram:TaxTotalAmount currencyID="EUR">1685.3</ram:TaxTotalAmount>',
      ),
  },
  {
    id: 'PEPPOL-EN16931-R054',
    base: 'cii',
    fail: (x) => sub(x, ciiSettlementStart, ciiSettlementStart + '<ram:TaxCurrencyCode>USD</ram:TaxCurrencyCode>'),
  },
  {
    id: 'PEPPOL-EN16931-R055',
    base: 'cii',
    fail: (x) =>
      sub(
        sub(x, ciiSettlementStart, ciiSettlementStart + '<ram:TaxCurrencyCode>USD</ram:TaxCurrencyCode>'),
        '<ram:TaxTotalAmount currencyID="EUR">1685.3</ram:TaxTotalAmount>',
        '$&<ram:TaxTotalAmount currencyID="USD">-5</ram:TaxTotalAmount>',
      ),
  },
  {
    id: 'PEPPOL-EN16931-R010',
    base: 'cii',
    fail: (x) =>
      remove(
        x,
        /<ram:URIUniversalCommunication>\s*<ram:URIID schemeID="EM">buyer@buyer.com<\/ram:URIID>\s*<\/ram:URIUniversalCommunication>/,
      ),
  },
  {
    id: 'PEPPOL-EN16931-R020',
    base: 'cii',
    fail: (x) =>
      remove(
        x,
        /<ram:URIUniversalCommunication>\s*<ram:URIID schemeID="EM">seller@seller.com<\/ram:URIID>\s*<\/ram:URIUniversalCommunication>/,
      ),
  },
  {
    id: 'PEPPOL-EN16931-R040',
    base: 'cii',
    fail: ciiAc(
      `${ind('false')}<ram:CalculationPercent>10</ram:CalculationPercent><ram:BasisAmount>100</ram:BasisAmount><ram:ActualAmount>5</ram:ActualAmount>`,
    ),
  },
  {
    id: 'PEPPOL-EN16931-R041',
    base: 'cii',
    fail: ciiAc(`${ind('false')}<ram:CalculationPercent>10</ram:CalculationPercent><ram:ActualAmount>5</ram:ActualAmount>`),
  },
  {
    id: 'PEPPOL-EN16931-R042',
    base: 'cii',
    fail: ciiAc(`${ind('false')}<ram:BasisAmount>100</ram:BasisAmount><ram:ActualAmount>5</ram:ActualAmount>`),
  },
  { id: 'PEPPOL-EN16931-R043-1', base: 'cii', fail: ciiAc(`${ind('yes')}<ram:ActualAmount>5</ram:ActualAmount>`) },
  {
    id: 'PEPPOL-EN16931-R043-2',
    base: 'cii',
    fail: ciiGross(
      `<ram:ChargeAmount>1340</ram:ChargeAmount><ram:AppliedTradeAllowanceCharge>${ind('maybe')}<ram:ActualAmount>0</ram:ActualAmount></ram:AppliedTradeAllowanceCharge>`,
    ),
  },
  {
    id: 'PEPPOL-EN16931-R044',
    base: 'cii',
    fail: ciiGross(
      `<ram:ChargeAmount>1330</ram:ChargeAmount><ram:AppliedTradeAllowanceCharge>${ind('true')}<ram:ActualAmount>10</ram:ActualAmount></ram:AppliedTradeAllowanceCharge>`,
    ),
  },
  {
    id: 'PEPPOL-EN16931-R046',
    base: 'cii',
    fail: ciiGross(
      `<ram:ChargeAmount>1400</ram:ChargeAmount><ram:AppliedTradeAllowanceCharge>${ind('false')}<ram:ActualAmount>10</ram:ActualAmount></ram:AppliedTradeAllowanceCharge>`,
    ),
  },
  { id: 'PEPPOL-EN16931-R061', base: 'cii', fail: ciiPm('59') },
  {
    id: 'PEPPOL-EN16931-R110',
    base: 'cii',
    fail: (x) =>
      sub(
        x,
        ciiFirstLineSettlement,
        '$&<ram:BillingSpecifiedPeriod><ram:StartDateTime><udt:DateTimeString format="102">20150401</udt:DateTimeString></ram:StartDateTime></ram:BillingSpecifiedPeriod>',
      ),
  },
  {
    id: 'PEPPOL-EN16931-R111',
    base: 'cii',
    fail: (x) =>
      sub(
        x,
        ciiFirstLineSettlement,
        '$&<ram:BillingSpecifiedPeriod><ram:EndDateTime><udt:DateTimeString format="102">20150430</udt:DateTimeString></ram:EndDateTime></ram:BillingSpecifiedPeriod>',
      ),
  },
  {
    id: 'PEPPOL-EN16931-R101',
    base: 'cii',
    fail: (x) =>
      sub(
        x,
        ciiFirstLineSettlement,
        '$&<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>X</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode></ram:AdditionalReferencedDocument>',
      ),
  },
  {
    id: 'PEPPOL-EN16931-R121',
    base: 'cii',
    fail: (x) =>
      sub(
        x,
        '<ram:ChargeAmount>1340</ram:ChargeAmount>',
        '<ram:ChargeAmount>1340</ram:ChargeAmount><ram:BasisQuantity unitCode="DAY">0</ram:BasisQuantity>',
      ),
  },
  {
    id: 'PEPPOL-EN16931-R130',
    base: 'cii',
    fail: (x) =>
      sub(
        x,
        '<ram:ChargeAmount>1340</ram:ChargeAmount>',
        '<ram:ChargeAmount>1340</ram:ChargeAmount><ram:BasisQuantity unitCode="HUR">1</ram:BasisQuantity>',
      ),
  },
  { id: 'PEPPOL-EN16931-R008', base: 'cii', fail: (x) => sub(x, '<ram:Name>Schulungsanbieter</ram:Name>', '<ram:Name> </ram:Name>') },
];

// ---------------------------------------------------------------------------------------------
// UBL (invoice base unless stated; credit-note cases where the rule reads CreditNote elements)

const SUPPLIER_CONTACT = /<cac:Contact>\s*<cbc:Name>Tim Tester<\/cbc:Name>[\s\S]*?<\/cac:Contact>/;
const UBL_PM = /<cac:PaymentMeans>\s*<cbc:PaymentMeansCode>58<\/cbc:PaymentMeansCode>/;
const ublPm =
  (code: string, extra = '') =>
  (x: string) =>
    sub(x, UBL_PM, `<cac:PaymentMeans><cbc:PaymentMeansCode>${code}</cbc:PaymentMeansCode>${extra}`);
const UBL_BEFORE_TERMS = '<cac:PaymentTerms>';
const mandate = (payer: string) =>
  `<cac:PaymentMandate><cbc:ID>M-1</cbc:ID>${payer ? `<cac:PayerFinancialAccount><cbc:ID>${payer}</cbc:ID></cac:PayerFinancialAccount>` : ''}</cac:PaymentMandate>`;
const ublAfterPm = (extra: string) => (x: string) =>
  sub(x, /<\/cac:PayeeFinancialAccount>\s*<\/cac:PaymentMeans>/, `</cac:PayeeFinancialAccount>${extra}</cac:PaymentMeans>`);
const ublDocAc = (inner: string) => (x: string) =>
  sub(
    x,
    '<cac:TaxTotal>',
    `<cac:AllowanceCharge>${inner}<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:AllowanceCharge><cac:TaxTotal>`,
  );
const UBL_LINE_ITEM = '<cac:Item>\n      <cbc:Description>Anforderungmanagament</cbc:Description>';
const ublPrice = (inner: string) => (x: string) => sub(x, /<cac:Price>\s*<cbc:PriceAmount>/, `<cac:Price>${inner}<cbc:PriceAmount>`);
const ublLegalTotalEnd = '</cac:LegalMonetaryTotal>';

const UBL_CASES: Case[] = [
  { id: 'BR-DE-1', base: 'ubl', fail: (x) => remove(x, block('cac:PaymentMeans')) },
  { id: 'BR-DE-2', base: 'ubl', fail: (x) => remove(x, SUPPLIER_CONTACT) },
  { id: 'BR-DE-3', base: 'ubl', fail: (x) => remove(x, '<cbc:CityName>[Seller city]</cbc:CityName>') },
  { id: 'BR-DE-4', base: 'ubl', fail: (x) => remove(x, /<cbc:PostalZone>12345<\/cbc:PostalZone>/) },
  { id: 'BR-DE-5', base: 'ubl', fail: (x) => remove(x, '<cbc:Name>Tim Tester</cbc:Name>') },
  { id: 'BR-DE-6', base: 'ubl', fail: (x) => remove(x, '<cbc:Telephone>012 3456789</cbc:Telephone>') },
  { id: 'BR-DE-7', base: 'ubl', fail: (x) => remove(x, '<cbc:ElectronicMail>tim.tester@test.com</cbc:ElectronicMail>') },
  { id: 'BR-DE-8', base: 'ubl', fail: (x) => remove(x, '<cbc:CityName>[Buyer city]</cbc:CityName>') },
  { id: 'BR-DE-9', base: 'ubl', fail: (x) => remove(x, /<cbc:PostalZone>98765<\/cbc:PostalZone>(?=\s*<cac:AddressLine>)/) },
  { id: 'BR-DE-10', base: 'ubl', fail: (x) => remove(x, '<cbc:CityName>[Deliver to city]</cbc:CityName>') },
  { id: 'BR-DE-11', base: 'ubl', fail: (x) => remove(x, /<cbc:PostalZone>98765<\/cbc:PostalZone>(?=\s*<cbc:CountrySubentity>)/) },
  { id: 'BR-DE-14', base: 'ubl', fail: (x) => remove(x, /<cbc:Percent>19<\/cbc:Percent>(?=\s*<cbc:TaxExemptionReason>)/) },
  { id: 'BR-DE-15', base: 'ubl', fail: (x) => remove(x, block('cbc:BuyerReference')) },
  {
    id: 'BR-DE-16',
    base: 'ubl',
    fail: (x) =>
      remove(
        remove(remove(x, block('cac:TaxRepresentativeParty')), /<cbc:CompanyID>DEU123456789<\/cbc:CompanyID>/),
        /<cbc:CompanyID>123\/456\/789<\/cbc:CompanyID>/,
      ),
  },
  {
    id: 'BR-DE-17',
    base: 'ubl',
    fail: (x) => sub(x, '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>', '<cbc:InvoiceTypeCode>383</cbc:InvoiceTypeCode>'),
  },
  {
    id: 'BR-DE-18',
    base: 'ubl',
    fail: (x) => sub(x, /<cbc:Note>Bitte überweisen[^<]*<\/cbc:Note>/, '<cbc:Note>#SKONTO#TAGE=7#PROZENT=2.0#\n</cbc:Note>'),
  },
  { id: 'BR-DE-19', base: 'ubl', fail: (x) => sub(x, 'DE79000000001234567890', 'DE79000000001234567891') },
  { id: 'BR-DE-20', base: 'ubl', fail: (x) => ublAfterPm(mandate('DE00123'))(ublPm('59')(x)) },
  {
    id: 'BR-DE-21',
    base: 'ubl',
    fail: (x) =>
      sub(x, `<cbc:CustomizationID>${XR_ID}</cbc:CustomizationID>`, '<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>'),
  },
  {
    id: 'BR-DE-22',
    base: 'ubl',
    fail: (x) =>
      sub(
        x,
        '<cac:ProjectReference>',
        '<cac:AdditionalDocumentReference><cbc:ID>A1</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="a.pdf">QQ==</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference><cac:AdditionalDocumentReference><cbc:ID>A2</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="a.pdf">QQ==</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference><cac:ProjectReference>',
      ),
  },
  { id: 'BR-DE-23-a', base: 'ubl', fail: (x) => remove(x, block('cac:PayeeFinancialAccount')) },
  { id: 'BR-DE-23-b', base: 'ubl', fail: ublAfterPm(mandate('DE79000000001234567890')) },
  { id: 'BR-DE-24-a', base: 'ubl', fail: ublPm('48') },
  {
    id: 'BR-DE-24-b',
    base: 'ubl',
    fail: (x) =>
      ublPm(
        '48',
        '<cac:CardAccount><cbc:PrimaryAccountNumberID>1234</cbc:PrimaryAccountNumberID><cbc:NetworkID>VISA</cbc:NetworkID></cac:CardAccount>',
      )(x),
  },
  { id: 'BR-DE-25-a', base: 'ubl', fail: ublPm('59') },
  { id: 'BR-DE-25-b', base: 'ubl', fail: (x) => ublAfterPm(mandate('DE79000000001234567890'))(ublPm('59')(x)) },
  {
    id: 'BR-DE-26',
    base: 'ubl',
    fail: (x) => sub(x, '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>', '<cbc:InvoiceTypeCode>384</cbc:InvoiceTypeCode>'),
  },
  { id: 'BR-DE-27', base: 'ubl', fail: (x) => sub(x, '<cbc:Telephone>012 3456789</cbc:Telephone>', '<cbc:Telephone>n/a</cbc:Telephone>') },
  { id: 'BR-DE-28', base: 'ubl', fail: (x) => sub(x, 'tim.tester@test.com', 'tim.tester.test.com') },
  { id: 'BR-DE-30', base: 'ubl', fail: ublAfterPm(mandate('DE79000000001234567890')) },
  { id: 'BR-DE-31', base: 'ubl', fail: ublAfterPm(mandate('')) },
  {
    id: 'BR-DE-TMP-32',
    base: 'ubl',
    fail: (x) =>
      remove(
        remove(remove(x, block('cac:InvoicePeriod')), /<cbc:ActualDeliveryDate>[^<]*<\/cbc:ActualDeliveryDate>/),
        blocks('cac:InvoicePeriod'),
      ),
  },
  {
    id: 'BR-TMP-2',
    base: 'ubl',
    fail: (x) =>
      sub(
        x,
        '<cac:ProjectReference>',
        '<cac:AdditionalDocumentReference><cbc:ID>D1</cbc:ID><cac:Attachment><cac:ExternalReference><cbc:URI>www.example.com/doc</cbc:URI></cac:ExternalReference></cac:Attachment></cac:AdditionalDocumentReference><cac:ProjectReference>',
      ),
  },
  // extension
  {
    id: 'BR-DEX-01',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        '<cac:ProjectReference>',
        '<cac:AdditionalDocumentReference><cbc:ID>Z</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/zip" filename="z.zip">QQ==</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference><cac:ProjectReference>',
      ),
  },
  {
    id: 'BR-DEX-02',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        UBL_LINE_ITEM,
        '<cac:SubInvoiceLine><cbc:ID>1.1</cbc:ID><cbc:InvoicedQuantity unitCode="XPP">1</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">1.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Teil</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">1</cbc:PriceAmount></cac:Price></cac:SubInvoiceLine>' +
          UBL_LINE_ITEM,
      ),
  },
  {
    id: 'BR-DEX-03',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        UBL_LINE_ITEM,
        '<cac:SubInvoiceLine><cbc:ID>1.1</cbc:ID><cbc:InvoicedQuantity unitCode="XPP">30</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">4743.75</cbc:LineExtensionAmount><cac:Item><cbc:Name>Teil</cbc:Name></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">158.125</cbc:PriceAmount></cac:Price></cac:SubInvoiceLine>' +
          UBL_LINE_ITEM,
      ),
  },
  {
    id: 'BR-DEX-04',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) => sub(x, '<cbc:ID schemeID="0013">987654321</cbc:ID>', '<cbc:ID schemeID="9999">987654321</cbc:ID>'),
  },
  {
    id: 'BR-DEX-05',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(x, '<cbc:CompanyID schemeID="0198">123456789</cbc:CompanyID>', '<cbc:CompanyID schemeID="9999">123456789</cbc:CompanyID>'),
  },
  {
    id: 'BR-DEX-06',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        '<cac:SellersItemIdentification>',
        '<cac:StandardItemIdentification><cbc:ID schemeID="9999">4000001</cbc:ID></cac:StandardItemIdentification><cac:SellersItemIdentification>',
      ),
  },
  {
    id: 'BR-DEX-07',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        '<cbc:EndpointID schemeID="EM">rechnungsausgang@test.com</cbc:EndpointID>',
        '<cbc:EndpointID schemeID="ZZ">rechnungsausgang@test.com</cbc:EndpointID>',
      ),
  },
  { id: 'BR-DEX-08', base: 'ubl', flavour: 'extension', fail: (x) => sub(x, '<cbc:ID>68</cbc:ID>', '<cbc:ID schemeID="9999">68</cbc:ID>') },
  {
    id: 'BR-DEX-09',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        ublLegalTotalEnd,
        ublLegalTotalEnd +
          '<cac:PrepaidPayment><cbc:ID>Gutschein</cbc:ID><cbc:PaidAmount currencyID="EUR">10.00</cbc:PaidAmount><cbc:InstructionID>Gutschein 1</cbc:InstructionID></cac:PrepaidPayment>',
      ),
  },
  {
    id: 'BR-DEX-10',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        ublLegalTotalEnd,
        ublLegalTotalEnd +
          '<cac:PrepaidPayment><cbc:PaidAmount currencyID="EUR">0.00</cbc:PaidAmount><cbc:InstructionID>Gutschein 1</cbc:InstructionID></cac:PrepaidPayment>',
      ),
  },
  {
    id: 'BR-DEX-11',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        ublLegalTotalEnd,
        ublLegalTotalEnd +
          '<cac:PrepaidPayment><cbc:ID>Gutschein</cbc:ID><cbc:InstructionID>Gutschein 1</cbc:InstructionID></cac:PrepaidPayment>',
      ),
  },
  {
    id: 'BR-DEX-12',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        ublLegalTotalEnd,
        ublLegalTotalEnd +
          '<cac:PrepaidPayment><cbc:ID>Gutschein</cbc:ID><cbc:PaidAmount currencyID="EUR">0.00</cbc:PaidAmount></cac:PrepaidPayment>',
      ),
  },
  {
    id: 'BR-DEX-13',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        ublLegalTotalEnd,
        ublLegalTotalEnd +
          '<cac:PrepaidPayment><cbc:ID>Gutschein</cbc:ID><cbc:PaidAmount currencyID="EUR">0.000</cbc:PaidAmount><cbc:InstructionID>G</cbc:InstructionID></cac:PrepaidPayment>',
      ),
  },
  {
    id: 'BR-DEX-14',
    base: 'ubl',
    flavour: 'extension',
    fail: (x) =>
      sub(
        x,
        ublLegalTotalEnd,
        ublLegalTotalEnd +
          '<cac:PrepaidPayment><cbc:ID>Gutschein</cbc:ID><cbc:PaidAmount currencyID="USD">0.00</cbc:PaidAmount><cbc:InstructionID>G</cbc:InstructionID></cac:PrepaidPayment>',
      ),
  },
  // Clean Vehicles Directive (the base already has contract and tender references)
  { id: 'BR-DE-CVD-01', base: 'ubl', flavour: 'cvd', prepare: ublCvd, fail: (x) => remove(x, block('cac:ContractDocumentReference')) },
  { id: 'BR-DE-CVD-02', base: 'ubl', flavour: 'cvd', prepare: ublCvd, fail: (x) => remove(x, block('cac:OriginatorDocumentReference')) },
  {
    id: 'BR-DE-CVD-03',
    base: 'ubl',
    flavour: 'cvd',
    prepare: ublCvd,
    fail: (x) => sub(x, '<cbc:Name>cva</cbc:Name>', '<cbc:Name>colour</cbc:Name>'),
  },
  { id: 'BR-DE-CVD-04', base: 'ubl', flavour: 'cvd', prepare: ublCvd, fail: (x) => sub(x, 'listID="CVD">M1<', 'listID="CVD">X9<') },
  {
    id: 'BR-DE-CVD-05',
    base: 'ubl',
    flavour: 'cvd',
    prepare: ublCvd,
    fail: (x) => sub(x, '<cbc:Value>clean</cbc:Value>', '<cbc:Value>diesel</cbc:Value>'),
  },
  {
    id: 'BR-DE-CVD-06-a',
    base: 'ubl',
    flavour: 'cvd',
    prepare: ublCvd,
    fail: (x) => remove(x, /<cac:AdditionalItemProperty><cbc:Name>cva[\s\S]*?<\/cac:AdditionalItemProperty>/),
  },
  { id: 'BR-DE-CVD-06-b', base: 'ubl', flavour: 'cvd', prepare: ublCvd, fail: (x) => sub(x, 'listID="CVD">M1<', 'listID="IB">M1<') },
  { id: 'BR-TMP-CVD-01', base: 'ubl', flavour: 'cvd', prepare: ublCvd, fail: (x) => sub(x, 'listID="IB"', 'listID="QQQ"') },
  // Peppol
  { id: 'PEPPOL-EN16931-R001', base: 'ubl', fail: (x) => remove(x, block('cbc:ProfileID')) },
  {
    id: 'PEPPOL-EN16931-R005',
    base: 'ubl',
    fail: (x) => sub(x, '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>', '$&<cbc:TaxCurrencyCode>EUR</cbc:TaxCurrencyCode>'),
  },
  {
    id: 'PEPPOL-EN16931-R053',
    base: 'ubl',
    fail: (x) =>
      sub(
        x,
        '<cac:LegalMonetaryTotal>',
        '<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">0</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">0</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">0</cbc:TaxAmount><cac:TaxCategory><cbc:ID>Z</cbc:ID><cbc:Percent>0</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal><cac:LegalMonetaryTotal>',
      ),
  },
  {
    id: 'PEPPOL-EN16931-R054',
    base: 'ubl',
    fail: (x) => sub(x, '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>', '$&<cbc:TaxCurrencyCode>USD</cbc:TaxCurrencyCode>'),
  },
  {
    id: 'PEPPOL-EN16931-R055',
    base: 'ubl',
    fail: (x) =>
      sub(
        sub(x, '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>', '$&<cbc:TaxCurrencyCode>USD</cbc:TaxCurrencyCode>'),
        '<cac:LegalMonetaryTotal>',
        '<cac:TaxTotal><cbc:TaxAmount currencyID="USD">-5</cbc:TaxAmount></cac:TaxTotal><cac:LegalMonetaryTotal>',
      ),
  },
  {
    id: 'PEPPOL-EN16931-R010',
    base: 'ubl',
    fail: (x) => remove(x, '<cbc:EndpointID schemeID="EM">rechnungseingang@test.de</cbc:EndpointID>'),
  },
  {
    id: 'PEPPOL-EN16931-R020',
    base: 'ubl',
    fail: (x) => remove(x, '<cbc:EndpointID schemeID="EM">rechnungsausgang@test.com</cbc:EndpointID>'),
  },
  {
    id: 'PEPPOL-EN16931-R040',
    base: 'ubl',
    fail: ublDocAc(
      '<cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReason>r</cbc:AllowanceChargeReason><cbc:MultiplierFactorNumeric>10</cbc:MultiplierFactorNumeric><cbc:Amount currencyID="EUR">5</cbc:Amount><cbc:BaseAmount currencyID="EUR">100</cbc:BaseAmount>',
    ),
  },
  {
    id: 'PEPPOL-EN16931-R041',
    base: 'ubl',
    fail: ublDocAc(
      '<cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReason>r</cbc:AllowanceChargeReason><cbc:MultiplierFactorNumeric>10</cbc:MultiplierFactorNumeric><cbc:Amount currencyID="EUR">5</cbc:Amount>',
    ),
  },
  {
    id: 'PEPPOL-EN16931-R042',
    base: 'ubl',
    fail: ublDocAc(
      '<cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReason>r</cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">5</cbc:Amount><cbc:BaseAmount currencyID="EUR">100</cbc:BaseAmount>',
    ),
  },
  {
    id: 'PEPPOL-EN16931-R043',
    base: 'ubl',
    fail: ublDocAc(
      '<cbc:ChargeIndicator>yes</cbc:ChargeIndicator><cbc:AllowanceChargeReason>r</cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">5</cbc:Amount>',
    ),
  },
  { id: 'PEPPOL-EN16931-R044', base: 'ubl', fail: ublPrice('') },
  { id: 'PEPPOL-EN16931-R046', base: 'ubl', fail: ublPrice('') },
  { id: 'PEPPOL-EN16931-R061', base: 'ubl', fail: ublPm('59') },
  {
    id: 'PEPPOL-EN16931-R110',
    base: 'ubl',
    fail: (x) => sub(x, /(<cac:InvoiceLine>[\s\S]*?<cac:InvoicePeriod>\s*<cbc:StartDate>)2018-04-13/, '$12018-04-01'),
  },
  {
    id: 'PEPPOL-EN16931-R111',
    base: 'ubl',
    fail: (x) => sub(x, /(<cac:InvoiceLine>[\s\S]*?<cac:InvoicePeriod>[\s\S]*?<cbc:EndDate>)2018-04-13/, '$12018-04-30'),
  },
  {
    id: 'PEPPOL-EN16931-R120',
    base: 'ubl',
    fail: (x) =>
      sub(
        x,
        '<cbc:LineExtensionAmount currencyID="EUR">4743.75</cbc:LineExtensionAmount>',
        '<cbc:LineExtensionAmount currencyID="EUR">4700.00</cbc:LineExtensionAmount>',
      ),
  },
  {
    id: 'PEPPOL-EN16931-R121',
    base: 'ubl',
    fail: (x) =>
      sub(
        x,
        /<cac:Price>\s*<cbc:PriceAmount currencyID="EUR">([^<]*)<\/cbc:PriceAmount>/,
        '<cac:Price><cbc:PriceAmount currencyID="EUR">$1</cbc:PriceAmount><cbc:BaseQuantity unitCode="XPP">0</cbc:BaseQuantity>',
      ),
  },
  {
    id: 'PEPPOL-EN16931-R101',
    base: 'ubl',
    fail: (x) =>
      sub(
        x,
        '<cac:OrderLineReference>',
        '<cac:DocumentReference><cbc:ID>X</cbc:ID><cbc:DocumentTypeCode>916</cbc:DocumentTypeCode></cac:DocumentReference><cac:OrderLineReference>',
      ),
  },
  {
    id: 'PEPPOL-EN16931-R130',
    base: 'ubl',
    fail: (x) =>
      sub(
        x,
        /<cac:Price>\s*<cbc:PriceAmount currencyID="EUR">([^<]*)<\/cbc:PriceAmount>/,
        '<cac:Price><cbc:PriceAmount currencyID="EUR">$1</cbc:PriceAmount><cbc:BaseQuantity unitCode="HUR">1</cbc:BaseQuantity>',
      ),
  },
  { id: 'PEPPOL-EN16931-R008', base: 'ubl', fail: (x) => sub(x, '<cbc:Name>[Payee name]</cbc:Name>', '<cbc:Name> </cbc:Name>') },
];

/** A complete CVD line: a CVD classification (M1) and the 'cva' attribute (clean) on the first line. */
function ublCvd(x: string): string {
  return sub(
    x,
    /<cac:CommodityClassification>/,
    '<cac:AdditionalItemProperty><cbc:Name>cva</cbc:Name><cbc:Value>clean</cbc:Value></cac:AdditionalItemProperty><cac:CommodityClassification><cbc:ItemClassificationCode listID="CVD">M1</cbc:ItemClassificationCode></cac:CommodityClassification>$&',
  );
}

// The two price-allowance cases need a gross price with an allowance; built from the line's price.
UBL_CASES.find((c) => c.id === 'PEPPOL-EN16931-R044')!.fail = (x) =>
  sub(
    x,
    /(<cac:Price>\s*<cbc:PriceAmount currencyID="EUR">)([^<]*)(<\/cbc:PriceAmount>)/,
    '$1$2$3<cac:AllowanceCharge><cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">0</cbc:Amount></cac:AllowanceCharge>',
  );
UBL_CASES.find((c) => c.id === 'PEPPOL-EN16931-R046')!.fail = (x) =>
  sub(
    x,
    /(<cac:Price>\s*<cbc:PriceAmount currencyID="EUR">)([^<]*)(<\/cbc:PriceAmount>)/,
    '$1$2$3<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">1</cbc:Amount><cbc:BaseAmount currencyID="EUR">1000</cbc:BaseAmount></cac:AllowanceCharge>',
  );

// ---------------------------------------------------------------------------------------------

const catalogueIds = ruleIds;

for (const [set, cases] of [
  ['xrechnung-cii', CII_CASES],
  ['xrechnung-ubl', UBL_CASES],
] as const) {
  describe(set, () => {
    test('every rule of the catalogue is implemented and has a case here', () => {
      const ids = catalogueIds(set);
      const implemented = new Set(getRuleSet(set)!.map((r) => r.id));
      assert.deepEqual(
        ids.filter((id) => !implemented.has(id)),
        [],
        'not implemented',
      );
      assert.deepEqual(
        ids.filter((id) => !cases.some((c) => c.id === id)),
        [],
        'without a test case',
      );
    });
    for (const c of cases) {
      test(`${c.id}: holds on the valid base, fires on the edited document`, async () => {
        const flavour = c.flavour ?? 'plain';
        let base = withFlavour(readFileSync(fixturePath(BASES[c.base]), 'utf8'), c.base, flavour);
        if (c.prepare) base = c.prepare(base);
        assert.equal(await firings(base, set, c.id), 0, 'must not fire on the valid document');
        assert.ok((await firings(c.fail(base), set, c.id)) > 0, 'must fire on the edited document');
      });
    }
  });
}

describe('credit notes', () => {
  test('XRechnung UBL rules read credit notes too (BR-DE-15 on a credit note)', async () => {
    const base = readFileSync(fixturePath(BASES.cn), 'utf8');
    assert.equal(await firings(base, 'xrechnung-ubl', 'BR-DE-15'), 0);
    assert.equal(await firings(remove(base, block('cbc:BuyerReference')), 'xrechnung-ubl', 'BR-DE-15'), 1);
  });
});
