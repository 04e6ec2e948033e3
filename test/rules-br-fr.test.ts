/**
 * A passing and a failing case for every BR-FR assert, in every rule set that carries it
 * (br-fr-1.2-cii/-ubl, br-fr-1.4-cii/-ubl, br-fr-1.4-warning-cii/-ubl): the passing case is a
 * hand-written French invoice that carries the elements the rule looks at with valid values (or a
 * variant that exercises the rule's condition), the failing case changes exactly what the rule
 * forbids. A coverage test makes sure no registered id is left without a case. Also: the edition
 * differences, severities per edition, and the selection helpers of src/validation/br-fr.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getRuleSet, runRuleSet } from '../src/rules/engine.js';
import type { Finding } from '../src/rules/types.js';
import { parseXml } from '../src/xml/dom.js';
import { BR_FR_RULE_SETS } from '../src/rules/br-fr/index.js';
import {
  brFrApplies,
  brFrRequested,
  brFrRuleSet,
  declaresFrenchCtc,
  DEFAULT_BR_FR_EDITION,
  parseBrFrEdition,
  runBrFr,
} from '../src/validation/br-fr.js';
import { asCreditNote, CII_BASE, ciiMultiVendor, edit, editLine, UBL_BASE, ublMultiVendor } from './br-fr-fixtures.js';

type Syntax = 'cii' | 'ubl';
const setsOf = (syntax: Syntax) => BR_FR_RULE_SETS.filter((s) => s.endsWith(syntax));

function run(set: string, xml: string): Finding[] {
  return runRuleSet(set, { invoice: {} as never, doc: parseXml(xml), syntax: set.endsWith('cii') ? 'cii' : 'ubl' });
}
const ids = (findings: Finding[]) => findings.map((f) => f.ruleId);

interface Case {
  id: string;
  /** The passing document (default: the syntax's base invoice). */
  pass?: string;
  /** The failing document. */
  fail: string;
  /** Restrict to the rule sets of one release (default: every set that registers the id). */
  release?: '1.2' | '1.4';
}

// Elements of the CII base, by what they are.
const C = CII_BASE;
const ciiLine = (from: string, to: string) => editLine(C, '1', from, to);
const long = (n: number) => 'A'.repeat(n);
const mv = (fw = 'S8', type = '380') => ciiMultiVendor(fw, type);
const bd = (type = '389') => ciiMultiVendor('S9', type);

const CII_PARTIES: { term: string; siret: string; tag: string }[] = [
  { term: 'BT-29', siret: '12345678200010', tag: 'SellerTradeParty' },
  { term: 'BT-46', siret: '98765432100015', tag: 'BuyerTradeParty' },
  { term: 'BT-60', siret: '11122233300014', tag: 'PayeeTradeParty' },
  { term: 'EXT-FR-FE-06', siret: '44433322200011', tag: 'BuyerAgentTradeParty' },
  { term: 'EXT-FR-FE-46', siret: '98765432100049', tag: 'PayerTradeParty' },
  { term: 'EXT-FR-FE-69', siret: '55566677700012', tag: 'SalesAgentTradeParty' },
  { term: 'EXT-FR-FE-92', siret: '98765432100031', tag: 'InvoiceeTradeParty' },
  { term: 'EXT-FR-FE-115', siret: '12345678200028', tag: 'InvoicerTradeParty' },
  { term: 'BT-71', siret: '98765432100023', tag: 'ShipToTradeParty' },
  { term: 'EXT-FR-FE-146', siret: '98765432100056', tag: 'ShipToTradeParty' },
];
const CII_URIS: [string, string][] = [
  ['BT-34', '123456782_FACT'],
  ['BT-49', '987654321_RECEPTION'],
  ['EXT-FR-FE-12', '444333222_AA'],
  ['EXT-FR-FE-29', '111222333_PAYE'],
  ['EXT-FR-FE-52', '987654321_PAIE'],
  ['EXT-FR-FE-75', '555666777_AV'],
  ['EXT-FR-FE-98', '987654321_COMPTA'],
  ['EXT-FR-FE-121', '123456782_EMIS'],
];
const siretTag = (siret: string) => `<ram:GlobalID schemeID="0009">${siret}</ram:GlobalID>`;
const note = (subject: string, content: string) =>
  `<ram:IncludedNote><ram:Content>${content}</ram:Content><ram:SubjectCode>${subject}</ram:SubjectCode></ram:IncludedNote>`;
const addNote = (xml: string, n: string) => edit(xml, '</rsm:ExchangedDocument>', `${n}</rsm:ExchangedDocument>`);
const vatGroupSeller = (xml: string) =>
  edit(xml, '<ram:Name>Vendeur SA</ram:Name>', '<ram:GlobalID schemeID="0231">123456782</ram:GlobalID><ram:Name>Vendeur SA</ram:Name>');
const framework = (xml: string, fw: string) => edit(xml, '<ram:ID>B1</ram:ID>', `<ram:ID>${fw}</ram:ID>`);
const typeCode = (xml: string, t: string) => edit(xml, '<ram:TypeCode>380</ram:TypeCode>', `<ram:TypeCode>${t}</ram:TypeCode>`);
const lineArd = (content: string) => edit(C, '<ram:SpecifiedTradeProduct>', `${content}<ram:SpecifiedTradeProduct>`);
const ard = (id: string, code: string) =>
  `<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>${id}</ram:IssuerAssignedID><ram:TypeCode>130</ram:TypeCode><ram:ReferenceTypeCode>${code}</ram:ReferenceTypeCode></ram:AdditionalReferencedDocument>`;
const headerArd = (xml: string, extra: string) => edit(xml, '<ram:ContractReferencedDocument>', `${extra}<ram:ContractReferencedDocument>`);

const CII_CASES: Case[] = [
  { id: 'BR-FR-01_BT-1', fail: edit(C, '<ram:ID>F2026-001</ram:ID>', `<ram:ID>${long(36)}</ram:ID>`) },
  { id: 'BR-FR-02_BT-1', fail: edit(C, '<ram:ID>F2026-001</ram:ID>', '<ram:ID>F2026 001</ram:ID>') },
  { id: 'BR-FR-01_BT-25', fail: edit(C, '>F2025-099<', `>${long(36)}<`) },
  { id: 'BR-FR-02_BT-25', fail: edit(C, '>F2025-099<', '>F2025*099<') },
  { id: 'BR-FR-01_EXT-FR-FE-136', fail: edit(C, '>F2025-098<', `>${long(36)}<`) },
  { id: 'BR-FR-02_EXT-FR-FE-136', fail: edit(C, '>F2025-098<', '>F2025.098<') },
  ...(
    [
      ['BT-2', '20260115'],
      ['BT-7', '20260116'],
      ['BT-9', '20260215'],
      ['BT-26', '20251215'],
      ['BT-72', '20260110'],
      ['BT-73', '20260101'],
      ['BT-74', '20260131'],
      ['EXT-FR-FE-138', '20251214'],
      ['EXT-FR-FE-158', '20260111'],
      ['EXT-FR-FE-134', '20260102'],
      ['EXT-FR-FE-135', '20260130'],
    ] as const
  ).map(([term, date]) => ({ id: `BR-FR-03_${term}`, fail: edit(C, `>${date}<`, term === 'BT-2' ? '>20260230<' : '>19991231<') })),
  { id: 'BR-FR-04_BT-3', fail: edit(C, '<ram:TypeCode>380</ram:TypeCode>', '<ram:TypeCode>751</ram:TypeCode>') },
  { id: 'BR-FR-04_EXT-FR-FE-02', fail: edit(C, '<ram:TypeCode>381</ram:TypeCode>', '<ram:TypeCode>751</ram:TypeCode>') },
  { id: 'BR-FR-04_EXT-FR-FE-137', fail: edit(C, '<ram:TypeCode>384</ram:TypeCode>', '<ram:TypeCode>71</ram:TypeCode>') },
  ...['PMT', 'PMD', 'AAB'].map((code) => ({
    id: `BR-FR-05_BT-22_${code}`,
    fail: edit(C, `<ram:SubjectCode>${code}</ram:SubjectCode>`, '<ram:SubjectCode>AAI</ram:SubjectCode>'),
  })),
  ...['PMT', 'PMD', 'AAB', 'TXD'].map((code) => ({
    id: `BR-FR-06_BT-21_${code}`,
    pass: addNote(C, note('TXD', 'Mention de taxe')),
    fail: addNote(addNote(C, note(code, 'doublon')), code === 'TXD' ? note('TXD', 'encore') : ''),
  })),
  { id: 'BR-FR-08_BT-23', fail: framework(C, 'X1') },
  ...CII_PARTIES.map((p) => ({
    id: `BR-FR-09_${p.term}`,
    fail: edit(
      C,
      siretTag(p.siret),
      siretTag(p.term === 'BT-29' || p.term === 'BT-46' ? `99${p.siret.slice(2)}` : `${p.siret.slice(0, 13)}X`),
    ),
  })),
  { id: 'BR-FR-10_BT-30', fail: edit(C, '<ram:ID schemeID="0002">123456782</ram:ID>', '<ram:ID schemeID="0002">12345678</ram:ID>') },
  { id: 'BR-FR-11_BT-47', fail: edit(C, '<ram:ID schemeID="0002">987654321</ram:ID>', '<ram:ID schemeID="0002">98765432X</ram:ID>') },
  {
    id: 'BR-FR-12_BT-49',
    fail: edit(
      C,
      '<ram:URIUniversalCommunication><ram:URIID schemeID="0225">987654321_RECEPTION</ram:URIID></ram:URIUniversalCommunication>',
      '',
    ),
  },
  {
    id: 'BR-FR-13_BT-34',
    fail: edit(
      C,
      '<ram:URIUniversalCommunication><ram:URIID schemeID="0225">123456782_FACT</ram:URIID></ram:URIUniversalCommunication>',
      '',
    ),
  },
  {
    id: 'BR-FR-15_BT-95_BT-102',
    fail: edit(
      C,
      '<ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S',
      '<ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>B',
    ),
  },
  {
    id: 'BR-FR-15_BT-95_BT-102_LM',
    fail: edit(
      C,
      '<ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S',
      '<ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>L',
    ),
  },
  {
    id: 'BR-FR-15_BT-95_BT-118',
    fail: edit(
      C,
      '<ram:BasisAmount>190.10</ram:BasisAmount><ram:CategoryCode>S',
      '<ram:BasisAmount>190.10</ram:BasisAmount><ram:CategoryCode>B',
    ),
  },
  {
    id: 'BR-FR-15_BT-95_BT-118_LM',
    fail: edit(
      C,
      '<ram:BasisAmount>190.10</ram:BasisAmount><ram:CategoryCode>S',
      '<ram:BasisAmount>190.10</ram:BasisAmount><ram:CategoryCode>M',
    ),
  },
  { id: 'BR-FR-15_BT-95_BT-151', fail: ciiLine('<ram:CategoryCode>S</ram:CategoryCode>', '<ram:CategoryCode>B</ram:CategoryCode>') },
  { id: 'BR-FR-15_BT-95_BT-151_LM', fail: ciiLine('<ram:CategoryCode>S</ram:CategoryCode>', '<ram:CategoryCode>L</ram:CategoryCode>') },
  {
    id: 'BR-FR-16_BT-96_BT-103',
    fail: edit(C, '<ram:RateApplicablePercent>20</ram:RateApplicablePercent>', '<ram:RateApplicablePercent>21</ram:RateApplicablePercent>'),
  },
  {
    id: 'BR-FR-16_BT-119',
    fail: edit(
      C,
      '<ram:RateApplicablePercent>20.0</ram:RateApplicablePercent>',
      '<ram:RateApplicablePercent>19</ram:RateApplicablePercent>',
    ),
  },
  {
    id: 'BR-FR-16_BT-152',
    fail: edit(
      C,
      '<ram:RateApplicablePercent>20.00</ram:RateApplicablePercent>',
      '<ram:RateApplicablePercent>20.000</ram:RateApplicablePercent>',
    ),
  },
  { id: 'BR-FR-17_BT-123', fail: edit(C, '<ram:Name>LISIBLE</ram:Name>', '<ram:Name>COPIE</ram:Name>') },
  {
    id: 'BR-FR-18_BT-123',
    fail: headerArd(
      C,
      '<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>PDF-2</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode><ram:Name>LISIBLE</ram:Name></ram:AdditionalReferencedDocument>',
    ),
  },
  { id: 'BR-FR-20_BT-21', fail: edit(C, '<ram:Content>B2B</ram:Content>', '<ram:Content>B2G</ram:Content>') },
  { id: 'BR-FR-21_BT-49', fail: edit(C, '>987654321_RECEPTION<', '>RECEPTION_987654321<') },
  { id: 'BR-FR-22_BT-34', pass: typeCode(C, '389'), fail: edit(typeCode(C, '389'), '>123456782_FACT<', '>FACT_123456782<') },
  ...CII_URIS.map(([term, uri]) => ({ id: `BR-FR-23_${term}`, fail: edit(C, `>${uri}<`, `>${uri}#1<`) })),
  ...CII_URIS.map(([term, uri]) => ({ id: `BR-FR-25_${term}`, fail: edit(C, `>${uri}<`, `>${uri}${long(120)}<`) })),
  { id: 'BR-FR-24_BT-29', fail: edit(C, '>VENDEUR_01-A<', '>VENDEUR 01<') },
  { id: 'BR-FR-24_BT-46', fail: edit(C, '>CLIENT-7<', '>CLIENT@7<') },
  { id: 'BR-FR-26_BT-29', fail: edit(C, '>VENDEUR_01-A<', `>${long(101)}<`) },
  { id: 'BR-FR-26_BT-46', fail: edit(C, '>CLIENT-7<', `>${long(101)}<`) },
  { id: 'BR-FR-27_BG-32', fail: edit(C, '<ram:TypeCode>COL</ram:TypeCode><ram:Description>Couleur</ram:Description>', '') },
  { id: 'BR-FR-27_BT-160', fail: edit(C, '<ram:Description>Couleur</ram:Description>', '<ram:Description> </ram:Description>') },
  { id: 'BR-FR-27_EXT-FR-FE-159', fail: edit(C, '<ram:TypeCode>COL</ram:TypeCode>', '<ram:TypeCode></ram:TypeCode>') },
  {
    id: 'BR-FR-28_BT-161-1',
    release: '1.2',
    fail: edit(C, '<ram:Value>Bleu</ram:Value>', '<ram:Value>Bleu</ram:Value><ram:ValueMeasure unitCode="KGM">2</ram:ValueMeasure>'),
  },
  { id: 'BR-FR-28_BT-161-2', release: '1.2', fail: edit(C, '<ram:Value>Bleu</ram:Value>', '<ram:Value></ram:Value>') },
  {
    id: 'BR-FR-28_EXT-FR-FE-160',
    release: '1.2',
    pass: edit(C, '<ram:Value>Bleu</ram:Value>', '<ram:ValueMeasure unitCode="KGM">2</ram:ValueMeasure>'),
    fail: edit(C, '<ram:Value>Bleu</ram:Value>', '<ram:ValueMeasure unitCode="KGM"> </ram:ValueMeasure>'),
  },
  {
    id: 'BR-FR-28_EXT-FR-FE-161',
    release: '1.2',
    pass: edit(C, '<ram:Value>Bleu</ram:Value>', '<ram:ValueMeasure unitCode="KGM">2</ram:ValueMeasure>'),
    fail: edit(C, '<ram:Value>Bleu</ram:Value>', '<ram:ValueMeasure unitCode="">2</ram:ValueMeasure>'),
  },
  {
    id: 'BR-FR-28-Value',
    release: '1.4',
    pass: edit(C, '<ram:Value>Bleu</ram:Value>', '<ram:ValueMeasure unitCode="KGM">2</ram:ValueMeasure>'),
    fail: edit(C, '<ram:Value>Bleu</ram:Value>', '<ram:Value>Bleu</ram:Value><ram:ValueMeasure unitCode="KGM">2</ram:ValueMeasure>'),
  },
  { id: 'BR-FR-29_BT-18', fail: headerArd(C, ard('OBJ-3', 'AFL')) },
  {
    id: 'BR-FR-29_AFL',
    fail: edit(C, '<ram:IssuerAssignedID>OBJ-1</ram:IssuerAssignedID>', '<ram:IssuerAssignedID> </ram:IssuerAssignedID>'),
  },
  {
    id: 'BR-FR-29_AVV',
    fail: edit(C, '<ram:IssuerAssignedID>OBJ-2</ram:IssuerAssignedID>', '<ram:IssuerAssignedID></ram:IssuerAssignedID>'),
  },
  // BR-FR-30 reads reference documents placed directly under the line item.
  { id: 'BR-FR-30_BT-128', pass: lineArd(ard('L-1', 'AFL') + ard('L-2', 'AVV')), fail: lineArd(ard('L-1', 'AFL') + ard('L-2', 'AFL')) },
  { id: 'BR-FR-30_AFL', pass: lineArd(ard('L-1', 'AFL')), fail: lineArd(ard(' ', 'AFL')) },
  { id: 'BR-FR-30_AVV', pass: lineArd(ard('L-2', 'AVV')), fail: lineArd(ard('', 'AVV')) },
  { id: 'BR-FR-30_BT-21', release: '1.2', pass: addNote(C, note('BAR', 'PRIVATE')), fail: addNote(C, note('BAR', 'B2C')) },
  { id: 'BR-FR-31_BT-21', release: '1.4', pass: addNote(C, note('BAR', 'PRIVATE')), fail: addNote(C, note('BAR', 'B2CINT')) },
  {
    id: 'BR-FR-32-LEGALID',
    release: '1.4',
    fail: edit(C, '<ram:ID schemeID="0002">987654321</ram:ID>', '<ram:ID schemeID="0002">9876543210</ram:ID>'),
  },
  {
    id: 'BR-FR-32-GLOBALID',
    release: '1.4',
    pass: vatGroupSeller(C),
    fail: edit(
      vatGroupSeller(C),
      '<ram:GlobalID schemeID="0231">123456782</ram:GlobalID>',
      '<ram:GlobalID schemeID="0231">FR123</ram:GlobalID>',
    ),
  },
  {
    id: 'BR-FR-CO-03_BT-3',
    pass: typeCode(C, '262'),
    fail: edit(
      typeCode(C, '262'),
      '<ram:ContractReferencedDocument><ram:IssuerAssignedID>CT-2026</ram:IssuerAssignedID></ram:ContractReferencedDocument>',
      '',
    ),
  },
  {
    id: 'BR-FR-CO-04_BT-4',
    pass: typeCode(C, '384'),
    fail: edit(
      typeCode(C, '384'),
      '</ram:ApplicableHeaderTradeSettlement>',
      '<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>F2025-097</ram:IssuerAssignedID></ram:InvoiceReferencedDocument></ram:ApplicableHeaderTradeSettlement>',
    ),
  },
  {
    id: 'BR-FR-CO-05_BT-3',
    pass: edit(
      typeCode(C, '381'),
      '<ram:FormattedIssueDateTime><qdt:DateTimeString format="102">20251215</qdt:DateTimeString></ram:FormattedIssueDateTime>',
      '',
    ), // the line still references its invoice
    fail: edit(
      editLine(
        typeCode(C, '381'),
        '1',
        '<ram:FormattedIssueDateTime><qdt:DateTimeString format="102">20251214</qdt:DateTimeString></ram:FormattedIssueDateTime>',
        '',
      ),
      '<ram:FormattedIssueDateTime><qdt:DateTimeString format="102">20251215</qdt:DateTimeString></ram:FormattedIssueDateTime>',
      '',
    ),
  },
  { id: 'BR-FR-CO-07_BT-9', pass: edit(C, '>20260215<', '>20260115<'), fail: edit(C, '>20260215<', '>20260114<') },
  { id: 'BR-FR-CO-08_BT-23', pass: framework(C, 'B4'), fail: typeCode(framework(C, 'B4'), '386') },
  ...['1', '2'].map((n) => ({
    id: `BR-FR-CO-09_BT-23-${n}`,
    pass: edit(
      edit(
        framework(C, 'B2'),
        '<ram:TotalPrepaidAmount>0.50</ram:TotalPrepaidAmount>',
        '<ram:TotalPrepaidAmount>228.0</ram:TotalPrepaidAmount>',
      ),
      '<ram:DuePayableAmount>227.50</ram:DuePayableAmount>',
      '<ram:DuePayableAmount>0.00</ram:DuePayableAmount>',
    ),
    fail: framework(C, 'B2'),
  })),
  {
    id: 'BR-FR-CO-09_BT-23-3',
    pass: framework(C, 'S2'),
    fail: edit(
      framework(C, 'S2'),
      `<ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">20260215</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>`,
      '',
    ),
  },
  ...CII_PARTIES.flatMap((p) => {
    const release = p.term === 'EXT-FR-FE-92' || p.term === 'EXT-FR-FE-115' ? ('1.4' as const) : undefined;
    return [
      {
        id: `BR-FR-CO-10_${p.term}-1`,
        release,
        fail: edit(C, siretTag(p.siret), `${siretTag(p.siret)}<ram:GlobalID>X-${p.term}</ram:GlobalID>`),
      },
      { id: `BR-FR-CO-10_${p.term}-2`, release, fail: edit(C, siretTag(p.siret), `${siretTag(p.siret)}${siretTag(p.siret)}`) },
    ];
  }),
  {
    id: 'BR-FR-CO-12_BT-5',
    pass: edit(
      edit(C, '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>', '<ram:InvoiceCurrencyCode>USD</ram:InvoiceCurrencyCode>'),
      '<ram:InvoiceeTradeParty>',
      '<ram:TaxCurrencyCode>EUR</ram:TaxCurrencyCode><ram:InvoiceeTradeParty>',
    ),
    fail: edit(C, '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>', '<ram:InvoiceCurrencyCode>USD</ram:InvoiceCurrencyCode>'),
  },
  { id: 'BR-FR-CO-14_BT-29-1', pass: addNote(vatGroupSeller(C), note('TXD', 'MEMBRE_ASSUJETTI_UNIQUE')), fail: vatGroupSeller(C) },
  {
    id: 'BR-FR-CO-15_BT-29-1',
    pass: edit(
      vatGroupSeller(C),
      '<ram:BuyerTradeParty>',
      '<ram:SellerTaxRepresentativeTradeParty><ram:Name>Groupe TVA</ram:Name><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">FR99999999999</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTaxRepresentativeTradeParty><ram:BuyerTradeParty>',
    ),
    fail: vatGroupSeller(C),
  },
  ...(
    [
      ['BT-92_BT-99', '<ram:ActualAmount>10.01</ram:ActualAmount>'],
      ['BT-93_BT-100', '<ram:BasisAmount>201.00</ram:BasisAmount>'],
      ['BT-106', '<ram:LineTotalAmount>200.00</ram:LineTotalAmount>'],
      ['BT-107', '<ram:AllowanceTotalAmount>10.30</ram:AllowanceTotalAmount>'],
      ['BT-108', '<ram:ChargeTotalAmount>0.20</ram:ChargeTotalAmount>'],
      ['BT-109', '<ram:TaxBasisTotalAmount>190.00</ram:TaxBasisTotalAmount>'],
      ['BT-110', '<ram:TaxTotalAmount currencyID="EUR">38.00</ram:TaxTotalAmount>'],
      ['BT-112', '<ram:GrandTotalAmount>228.00</ram:GrandTotalAmount>'],
      ['BT-113', '<ram:TotalPrepaidAmount>0.50</ram:TotalPrepaidAmount>'],
      ['BT-114', '<ram:RoundingAmount>0.40</ram:RoundingAmount>'],
      ['BT-115', '<ram:DuePayableAmount>227.50</ram:DuePayableAmount>'],
      ['BT-116', '<ram:BasisAmount>190.10</ram:BasisAmount>'],
      ['BT-117', '<ram:CalculatedAmount>38.10</ram:CalculatedAmount>'],
      ['BT-131', '<ram:LineTotalAmount>200.10</ram:LineTotalAmount>'],
      ['BT-136_BT-141', '<ram:ActualAmount>0.60</ram:ActualAmount>'],
      ['BT-137_BT-142', '<ram:BasisAmount>202.00</ram:BasisAmount>'],
    ] as const
  ).map(([term, el]) => ({ id: `BR-FR-DEC-01_${term}`, fail: edit(C, el, el.replace(/>[^<]+</, '>1.005<')) })),
  {
    id: 'BR-FR-DEC-02_BT-129',
    fail: edit(
      C,
      '<ram:BilledQuantity unitCode="C62">2</ram:BilledQuantity>',
      '<ram:BilledQuantity unitCode="C62">2.00001</ram:BilledQuantity>',
    ),
  },
  {
    id: 'BR-FR-DEC-02_BT-149',
    fail: edit(C, '<ram:BasisQuantity unitCode="C62">1</ram:BasisQuantity>', '<ram:BasisQuantity unitCode="C62">1,5</ram:BasisQuantity>'),
  },
  {
    id: 'BR-FR-DEC-03_BT-146',
    fail: edit(C, '<ram:ChargeAmount>100.00</ram:ChargeAmount>', '<ram:ChargeAmount>-100.00</ram:ChargeAmount>'),
  },
  {
    id: 'BR-FR-DEC-03_BT-147',
    fail: edit(C, '<ram:ActualAmount>10.00</ram:ActualAmount>', '<ram:ActualAmount>10.0000001</ram:ActualAmount>'),
  },
  {
    id: 'BR-FR-DEC-03_BT-148',
    fail: edit(C, '<ram:ChargeAmount>110.00</ram:ChargeAmount>', `<ram:ChargeAmount>${'1'.repeat(20)}</ram:ChargeAmount>`),
  },
  {
    id: 'BR-FR-DEC-04_BT-96_BT-103',
    fail: edit(
      C,
      '<ram:RateApplicablePercent>20</ram:RateApplicablePercent>',
      '<ram:RateApplicablePercent>-20</ram:RateApplicablePercent>',
    ),
  },
  {
    id: 'BR-FR-DEC-04_BT-119',
    fail: edit(
      C,
      '<ram:RateApplicablePercent>20.0</ram:RateApplicablePercent>',
      '<ram:RateApplicablePercent>20.005</ram:RateApplicablePercent>',
    ),
  },
  {
    id: 'BR-FR-DEC-04_BT-152',
    fail: edit(
      C,
      '<ram:RateApplicablePercent>20.00</ram:RateApplicablePercent>',
      '<ram:RateApplicablePercent>20 %</ram:RateApplicablePercent>',
    ),
  },

  // Release 1.4: multi-vendor (S8/B8/M8) and bidirectional (S9/B9/M9) invoices.
  {
    id: 'BR-FR-MV-01_EXT-FR-FE-163',
    pass: mv(),
    fail: editLine(
      mv(),
      '2',
      '<ram:LineStatusReasonCode>DETAIL</ram:LineStatusReasonCode>',
      '<ram:LineStatusReasonCode> </ram:LineStatusReasonCode>',
    ),
  },
  {
    id: 'BR-FR-MV-02_EXT-FR-FE-163',
    pass: mv(),
    fail: mv().replace(/<ram:LineStatusReasonCode>GROUP</g, '<ram:LineStatusReasonCode>INFORMATION<'),
  },
  {
    id: 'BR-FR-BD-02_EXT-FR-FE-163',
    pass: bd(),
    fail: editLine(bd(), '3', '<ram:LineID>3</ram:LineID>', '<ram:LineID>3</ram:LineID><ram:ParentLineID>1</ram:ParentLineID>'),
  },
  { id: 'BR-FR-BD-02_BT-31', pass: bd(), fail: editLine(bd(), '1', '>123456782<', '>111111111<') },
  { id: 'BR-FR-BD-02_BT-47', pass: bd(), fail: editLine(bd(), '3', '>987654321<', '>222222222<') },
  { id: 'BR-FR-MV-03_EXT-FR-FE-164', pass: mv(), fail: editLine(mv(), '1', '<ram:Name>Vendeur A</ram:Name>', '') },
  {
    id: 'BR-FR-MV-03_EXT-FR-FE-167',
    pass: mv(),
    fail: editLine(
      mv(),
      '1',
      '<ram:SpecifiedLegalOrganization><ram:ID schemeID="0002">123456782</ram:ID></ram:SpecifiedLegalOrganization>',
      '',
    ),
  },
  { id: 'BR-FR-MV-03_EXT-FR-FE-177', pass: mv(), fail: editLine(mv(), '1', '<ram:CountryID>FR</ram:CountryID>', '') },
  { id: 'BR-FR-MV-03_EXT-FR-FE-181', pass: mv(), fail: editLine(mv(), '1', 'currencyID="EUR">20.00', 'currencyID="USD">20.00') },
  {
    id: 'BR-FR-MV-03_EXT-FR-FE-182',
    pass: edit(
      mv(),
      '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>',
      '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:TaxCurrencyCode>EUR</ram:TaxCurrencyCode>',
    ),
    fail: edit(
      mv(),
      '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>',
      '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:TaxCurrencyCode>XPF</ram:TaxCurrencyCode>',
    ),
  },
  {
    id: 'BR-FR-MV-03_BT-128_AFL',
    pass: mv(),
    fail: editLine(
      mv(),
      '1',
      '<ram:TypeCode>130</ram:TypeCode><ram:ReferenceTypeCode>AFL',
      '<ram:TypeCode>916</ram:TypeCode><ram:ReferenceTypeCode>AFL',
    ),
  },
  { id: 'BR-FR-MV-03_BT-128_AVV', pass: mv(), fail: editLine(mv(), '1', '>LOT-A<', '>S8<') },
  {
    id: 'BR-FR-MV-05_EXT-FR-FE-BG-12',
    pass: mv(),
    fail: editLine(mv(), '2', '<ram:LineTotalAmount>100.0</ram:LineTotalAmount>', '<ram:LineTotalAmount>99.9</ram:LineTotalAmount>'),
  },
  { id: 'BR-FR-MV-06_EXT-FR-FE-167', pass: mv(), fail: editLine(mv(), '2', '>123456782<', '>999999999<') },
  {
    id: 'BR-FR-MV-07_BT-128',
    pass: mv(),
    fail: editLine(
      mv(),
      '2',
      '<ram:IssuerAssignedID>F2026-100</ram:IssuerAssignedID>',
      '<ram:IssuerAssignedID>F2026-101</ram:IssuerAssignedID>',
    ),
  },
  { id: 'BR-FR-MV-08_BT-128', pass: mv(), fail: editLine(mv(), '2', '#F2026-100# TVA due', 'TVA due') },
  {
    id: 'BR-FR-MV-09_EXT-FR-FE-181',
    pass: mv(),
    fail: edit(mv(), '<ram:CalculatedAmount>20.00</ram:CalculatedAmount>', '<ram:CalculatedAmount>19.00</ram:CalculatedAmount>'),
  },
  {
    id: 'BR-FR-MV-10_EXT-FR-FE-184',
    pass: mv(),
    fail: editLine(mv(), '1', '<ram:GrandTotalAmount>120.00</ram:GrandTotalAmount>', '<ram:GrandTotalAmount>121.00</ram:GrandTotalAmount>'),
  },
  {
    id: 'BR-FR-MV-11_BT-128',
    pass: mv(),
    fail: editLine(
      mv(),
      '1',
      '<ram:IssuerAssignedID>F2026-100</ram:IssuerAssignedID>',
      '<ram:IssuerAssignedID>F2026-100-A</ram:IssuerAssignedID>',
    ),
  },
  {
    id: 'BR-FR-MV-12_BT-128',
    pass: mv(),
    fail: editLine(
      mv(),
      '3',
      '<ram:IssuerAssignedID>F2026-100-B</ram:IssuerAssignedID>',
      '<ram:IssuerAssignedID>F2026-100</ram:IssuerAssignedID>',
    ),
  },
  { id: 'BR-FR-MV-13_BT-3', pass: mv('M8', '380'), fail: mv('M8', '389') },
  { id: 'BR-FR-BD-13_BT-3', pass: bd('389'), fail: bd('380') },
  {
    id: 'BR-FR-MV-14-EXT-FR-FE-136',
    pass: mv('S8', '381'),
    fail: editLine(mv('S8', '381'), '1', '<ram:IssuerAssignedID>F2025-1</ram:IssuerAssignedID>', ''),
  },
  {
    id: 'BR-FR-MV-14-EXT-FR-FE-138',
    pass: mv('S8', '381'),
    fail: editLine(
      mv('S8', '381'),
      '1',
      '<ram:FormattedIssueDateTime><qdt:DateTimeString format="102">20251201</qdt:DateTimeString></ram:FormattedIssueDateTime>',
      '',
    ),
  },
  {
    id: 'BR-FR-BD-14-EXT-FR-FE-136',
    pass: bd('261'),
    fail: editLine(bd('261'), '3', '<ram:IssuerAssignedID>F2025-3</ram:IssuerAssignedID>', ''),
  },
  {
    id: 'BR-FR-BD-14-EXT-FR-FE-138',
    pass: bd('261'),
    fail: editLine(
      bd('261'),
      '3',
      '<ram:FormattedIssueDateTime><qdt:DateTimeString format="102">20251201</qdt:DateTimeString></ram:FormattedIssueDateTime>',
      '',
    ),
  },
];

// UBL.
const U = UBL_BASE;
const uLine = (from: string, to: string) => editLine(U, '1', from, to);
const uNote = (xml: string, n: string) => edit(xml, '<cbc:TaxPointDate>', `<cbc:Note>${n}</cbc:Note><cbc:TaxPointDate>`);
const uProfile = (xml: string, fw: string) => edit(xml, '<cbc:ProfileID>B1</cbc:ProfileID>', `<cbc:ProfileID>${fw}</cbc:ProfileID>`);
const uType = (xml: string, t: string) =>
  edit(xml, '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>', `<cbc:InvoiceTypeCode>${t}</cbc:InvoiceTypeCode>`);
const uVatGroup = (xml: string) =>
  edit(
    xml,
    '<cac:PartyIdentification><cbc:ID schemeID="0224">VENDEUR_01-A</cbc:ID></cac:PartyIdentification>',
    '<cac:PartyIdentification><cbc:ID schemeID="0224">VENDEUR_01-A</cbc:ID></cac:PartyIdentification><cac:PartyIdentification><cbc:ID schemeID="0231">123456782</cbc:ID></cac:PartyIdentification>',
  );
const uSiret = (s: string) => `<cbc:ID schemeID="0009">${s}</cbc:ID>`;
const umv = (fw = 'S8', type = '380') => ublMultiVendor(fw, type);
const ubd = (type = '389') => ublMultiVendor('S9', type);
const uLineBillingDocRef = (id: string) =>
  uLine(
    '<cac:DocumentReference>',
    `<cac:BillingReference><cac:DocumentReference><cbc:ID>${id}</cbc:ID></cac:DocumentReference></cac:BillingReference><cac:DocumentReference>`,
  );
const cnBase = asCreditNote(U);

const UBL_PARTIES: { term: string; siret: string }[] = [
  { term: 'BT-29', siret: '12345678200010' },
  { term: 'BT-46', siret: '98765432100015' },
  { term: 'BT-60', siret: '11122233300014' },
  { term: 'EXT-FR-FE-06', siret: '44433322200011' },
  { term: 'EXT-FR-FE-46', siret: '98765432100049' },
  { term: 'EXT-FR-FE-69', siret: '55566677700012' },
  { term: 'EXT-FR-FE-92', siret: '98765432100031' },
  { term: 'EXT-FR-FE-115', siret: '12345678200028' },
  { term: 'BT-71', siret: '98765432100023' },
];
const UBL_ENDPOINTS = CII_URIS; // same terms and addresses in both fixtures

const UBL_CASES: Case[] = [
  { id: 'BR-FR-01_BT-1-1', fail: edit(U, '<cbc:ID>F2026-001</cbc:ID>', `<cbc:ID>${long(36)}</cbc:ID>`) },
  { id: 'BR-FR-01_BT-1-2', fail: edit(U, '<cbc:ID>F2026-001</cbc:ID>', '<cbc:ID>F2026 001</cbc:ID>') },
  { id: 'BR-FR-02_BT-1', fail: edit(U, '<cbc:ID>F2026-001</cbc:ID>', '<cbc:ID>F2026:001</cbc:ID>') },
  { id: 'BR-FR-01_BT-25-1', fail: edit(U, '>F2025-099<', `>${long(36)}<`) },
  { id: 'BR-FR-01_BT-25-2', fail: edit(U, '>F2025-099<', '>F2025 099<') },
  { id: 'BR-FR-02_BT-25', fail: edit(U, '>F2025-099<', '>F2025.099<') },
  // The reference reads the line's preceding-invoice number at cac:BillingReference/cac:DocumentReference.
  { id: 'BR-FR-01_EXT-FR-FE-136-1', pass: uLineBillingDocRef('F2025-097'), fail: uLineBillingDocRef(long(36)) },
  { id: 'BR-FR-01_BT-EXT-FR-FE-136-2', pass: uLineBillingDocRef('F2025-097'), fail: uLineBillingDocRef('F2025 097') },
  { id: 'BR-FR-02_EXT-FR-FE-136', fail: edit(U, '>LOBJ-1<', '>LOBJ.1<') },
  ...(
    [
      ['BT-2', '2026-01-15'],
      ['BT-7', '2026-01-16'],
      ['BT-9', '2026-02-15'],
      ['BT-26', '2025-12-15'],
      ['BT-72', '2026-01-10'],
      ['BT-73', '2026-01-01'],
      ['BT-74', '2026-01-31'],
      ['EXT-FR-FE-138', '2025-12-13'],
      ['EXT-FR-FE-158', '2026-01-11'],
      ['BT-134', '2026-01-02'],
      ['BT-135', '2026-01-30'],
    ] as const
  ).map(([term, date]) => ({ id: `BR-FR-03_${term}`, fail: edit(U, `>${date}<`, term === 'BT-2' ? '>2025-02-29<' : '>20260101<') })),
  { id: 'BR-FR-04_BT-3', fail: uType(U, '751') },
  {
    id: 'BR-FR-04_EXT-FR-FE-02',
    fail: edit(U, '<cbc:DocumentTypeCode>381</cbc:DocumentTypeCode>', '<cbc:DocumentTypeCode>751</cbc:DocumentTypeCode>'),
  },
  {
    id: 'BR-FR-04_EXT-FR-FE-137',
    fail: edit(U, '<cbc:DocumentTypeCode>384</cbc:DocumentTypeCode>', '<cbc:DocumentTypeCode>71</cbc:DocumentTypeCode>'),
  },
  ...['PMT', 'PMD', 'AAB'].map((code, i) => ({ id: `BR-FR-05_BT-22-${i + 1}`, fail: edit(U, `#${code}#`, '#AAI#') })),
  ...['PMT', 'PMD', 'AAB', 'TXD'].map((code, i) => ({
    id: `BR-FR-06_BT-21-${i + 1}`,
    pass: uNote(U, '#TXD#mention'),
    fail: uNote(uNote(U, `#${code}#doublon`), `#${code}#encore`),
  })),
  { id: 'BR-FR-08_BT-23', fail: uProfile(U, 'B0') },
  ...UBL_PARTIES.map((p) => ({ id: `BR-FR-09_${p.term}`, fail: edit(U, uSiret(p.siret), uSiret(`${p.siret.slice(0, 13)}X`)) })),
  {
    id: 'BR-FR-10_BT-30',
    fail: edit(U, '<cbc:CompanyID schemeID="0002">123456782</cbc:CompanyID>', '<cbc:CompanyID schemeID="0002">1234567890</cbc:CompanyID>'),
  },
  {
    id: 'BR-FR-11_BT-47',
    fail: edit(
      U,
      '<cbc:CompanyID schemeID="0002">987654321</cbc:CompanyID>',
      '<cbc:CompanyID schemeID="0009">98765432100015</cbc:CompanyID>',
    ),
  },
  { id: 'BR-FR-12_BT-49', fail: edit(U, '<cbc:EndpointID schemeID="0225">987654321_RECEPTION</cbc:EndpointID>', '') },
  {
    id: 'BR-FR-13_BT-34',
    fail: edit(U, '<cbc:EndpointID schemeID="0225">123456782_FACT</cbc:EndpointID>', '<cbc:EndpointID schemeID="0225"> </cbc:EndpointID>'),
  },
  {
    id: 'BR-FR-15_BT-95_BT-102-1',
    fail: edit(U, '<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20.0<', '<cac:TaxCategory><cbc:ID>B</cbc:ID><cbc:Percent>20.0<'),
  },
  {
    id: 'BR-FR-15_BT-95_BT-102-2',
    fail: edit(U, '<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20.0<', '<cac:TaxCategory><cbc:ID>L</cbc:ID><cbc:Percent>20.0<'),
  },
  {
    id: 'BR-FR-15_BT-118-1',
    fail: edit(U, '<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20<', '<cac:TaxCategory><cbc:ID>B</cbc:ID><cbc:Percent>20<'),
  },
  {
    id: 'BR-FR-15_BT-118-2',
    fail: edit(U, '<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20<', '<cac:TaxCategory><cbc:ID>M</cbc:ID><cbc:Percent>20<'),
  },
  {
    id: 'BR-FR-15_BT-151-1',
    fail: edit(U, '<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID>', '<cac:ClassifiedTaxCategory><cbc:ID>B</cbc:ID>'),
  },
  {
    id: 'BR-FR-08_BT-151-2',
    fail: edit(U, '<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID>', '<cac:ClassifiedTaxCategory><cbc:ID>L</cbc:ID>'),
  },
  { id: 'BR-FR-16_BT-96', fail: edit(U, '<cbc:Percent>20.0</cbc:Percent>', '<cbc:Percent>21</cbc:Percent>') },
  { id: 'BR-FR-16_BT-119', fail: edit(U, '<cbc:Percent>20</cbc:Percent>', '<cbc:Percent>19.5</cbc:Percent>') },
  { id: 'BR-FR-16_BT-152', fail: edit(U, '<cbc:Percent>20.00</cbc:Percent>', '<cbc:Percent></cbc:Percent>') },
  {
    id: 'BR-FR-17_BT-123',
    fail: edit(
      U,
      '<cbc:DocumentDescription>LISIBLE</cbc:DocumentDescription>',
      '<cbc:DocumentDescription>Lisible</cbc:DocumentDescription>',
    ),
  },
  {
    id: 'BR-FR-18_BT-123',
    fail: edit(
      U,
      '<cac:AccountingSupplierParty>',
      '<cac:AdditionalDocumentReference><cbc:ID>PDF-2</cbc:ID><cbc:DocumentDescription>LISIBLE</cbc:DocumentDescription></cac:AdditionalDocumentReference><cac:AccountingSupplierParty>',
    ),
  },
  { id: 'BR-FR-20_BT-21', fail: edit(U, '#BAR#B2B', '#BAR#B2G') },
  { id: 'BR-FR-21_BT-49', fail: edit(U, '>987654321_RECEPTION<', '>RECEPTION<') },
  { id: 'BR-FR-22_BT-34', pass: uType(U, '389'), fail: edit(uType(U, '389'), '>123456782_FACT<', '>FACT<') },
  ...UBL_ENDPOINTS.map(([term, uri]) => ({ id: `BR-FR-23_${term}`, fail: edit(U, `>${uri}<`, `>${uri}@x<`) })),
  ...UBL_ENDPOINTS.map(([term, uri]) => ({ id: `BR-FR-25_${term}`, fail: edit(U, `>${uri}<`, `>${long(126)}<`) })),
  { id: 'BR-FR-24_BT-29', fail: edit(U, '>VENDEUR_01-A<', '>VENDEUR 01<') },
  { id: 'BR-FR-24_BT-46', fail: edit(U, '>CLIENT-7<', '>CLIENT#7<') },
  { id: 'BR-FR-26_BT-29', fail: edit(U, '>VENDEUR_01-A<', `>${long(101)}<`) },
  { id: 'BR-FR-26_BT-46', fail: edit(U, '>CLIENT-7<', `>${long(101)}<`) },
  {
    id: 'BR-FR-28-Value',
    release: '1.4',
    pass: uLine('<cbc:Value>Bleu</cbc:Value>', '<cbc:ValueQuantity unitCode="KGM">2</cbc:ValueQuantity>'),
    fail: uLine('<cbc:Value>Bleu</cbc:Value>', '<cbc:ValueQuantity unitCode="">2</cbc:ValueQuantity>'),
  },
  {
    id: 'BR-FR-29_BT-18',
    fail: edit(U, '<cbc:ID schemeID="AFL">OBJ-1</cbc:ID>', '<cbc:ID schemeID="AFL">OBJ-1</cbc:ID><cbc:ID schemeID="AFL">OBJ-3</cbc:ID>'),
  },
  { id: 'BR-FR-29_AFL', fail: edit(U, '<cbc:ID schemeID="AFL">OBJ-1</cbc:ID>', '<cbc:ID schemeID="AFL"> </cbc:ID>') },
  { id: 'BR-FR-29_AVV', fail: edit(U, '<cbc:ID schemeID="AVV">OBJ-2</cbc:ID>', '<cbc:ID schemeID="AVV"></cbc:ID>') },
  {
    id: 'BR-FR-30_BT-128',
    fail: uLine('<cbc:ID schemeID="AFL">LOBJ-1</cbc:ID>', '<cbc:ID schemeID="AFL">LOBJ-1</cbc:ID><cbc:ID schemeID="AFL">LOBJ-2</cbc:ID>'),
  },
  { id: 'BR-FR-30_AFL', fail: uLine('<cbc:ID schemeID="AFL">LOBJ-1</cbc:ID>', '<cbc:ID schemeID="AFL"></cbc:ID>') },
  {
    id: 'BR-FR-30_AVV',
    pass: uLine('<cbc:ID schemeID="AFL">LOBJ-1</cbc:ID>', '<cbc:ID schemeID="AVV">LOBJ-1</cbc:ID>'),
    fail: uLine('<cbc:ID schemeID="AFL">LOBJ-1</cbc:ID>', '<cbc:ID schemeID="AVV"> </cbc:ID>'),
  },
  { id: 'BR-FR-30_BT-21', pass: uNote(U, '#BAR#PRIVATE'), fail: uNote(U, '#BAR#OUTOFSCOPE') },
  {
    id: 'BR-FR-32-LEGALID',
    release: '1.4',
    fail: edit(U, '<cbc:CompanyID schemeID="0002">987654321</cbc:CompanyID>', '<cbc:CompanyID schemeID="0002">98765432</cbc:CompanyID>'),
  },
  {
    id: 'BR-FR-32-ID',
    release: '1.4',
    pass: uVatGroup(U),
    fail: edit(uVatGroup(U), '<cbc:ID schemeID="0231">123456782</cbc:ID>', '<cbc:ID schemeID="0231">12345678A</cbc:ID>'),
  },
  {
    id: 'BR-FR-CO-03_BT-3',
    pass: asCreditNote(U, '262'),
    fail: edit(asCreditNote(U, '262'), '<cac:ContractDocumentReference><cbc:ID>CT-2026</cbc:ID></cac:ContractDocumentReference>', ''),
  },
  {
    id: 'BR-FR-CO-04_BT-3',
    pass: uType(U, '384'),
    fail: edit(
      uType(U, '384'),
      '<cac:ContractDocumentReference>',
      '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>F2025-097</cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference><cac:ContractDocumentReference>',
    ),
  },
  {
    id: 'BR-FR-CO-05_BT-3',
    pass: cnBase,
    fail: edit(edit(cnBase, '<cbc:IssueDate>2025-12-15</cbc:IssueDate>', ''), '<cbc:IssueDate>2025-12-14</cbc:IssueDate>', ''),
  },
  {
    id: 'BR-FR-CO-07_BT-9',
    pass: edit(U, '<cbc:DueDate>2026-02-15</cbc:DueDate>', '<cbc:DueDate>2026-01-15</cbc:DueDate>'),
    fail: edit(U, '<cbc:DueDate>2026-02-15</cbc:DueDate>', '<cbc:DueDate>2026-01-14</cbc:DueDate>'),
  },
  {
    id: 'BR-FR-CO-08_BT-23',
    release: '1.2',
    pass: edit(U, 'Paiement a 30 jours', 'B4'),
    fail: uType(edit(U, 'Paiement a 30 jours', 'B4'), '386'),
  },
  { id: 'BR-FR-CO-08_BT-23', release: '1.4', pass: uProfile(U, 'B4'), fail: uType(uProfile(U, 'B4'), '386') },
  ...['1', '2'].flatMap((n) =>
    (['1.2', '1.4'] as const).map((release) => {
      const paidFw = (x: string) => (release === '1.4' ? uProfile(x, 'B2') : edit(x, 'Paiement a 30 jours', 'B2'));
      return {
        id: `BR-FR-CO-09_BT-23-${n}`,
        release,
        pass: edit(
          edit(
            paidFw(U),
            '<cbc:PrepaidAmount currencyID="EUR">0.50</cbc:PrepaidAmount>',
            '<cbc:PrepaidAmount currencyID="EUR">228</cbc:PrepaidAmount>',
          ),
          '<cbc:PayableAmount currencyID="EUR">227.50</cbc:PayableAmount>',
          '<cbc:PayableAmount currencyID="EUR">0</cbc:PayableAmount>',
        ),
        fail: paidFw(U),
      };
    }),
  ),
  {
    id: 'BR-FR-CO-09_BT-23-3',
    release: '1.2',
    pass: edit(U, 'Paiement a 30 jours', 'M2'),
    fail: edit(edit(U, 'Paiement a 30 jours', 'M2'), '<cbc:DueDate>2026-02-15</cbc:DueDate>', ''),
  },
  {
    id: 'BR-FR-CO-09_BT-23-3',
    release: '1.4',
    pass: uProfile(U, 'M2'),
    fail: edit(uProfile(U, 'M2'), '<cbc:DueDate>2026-02-15</cbc:DueDate>', ''),
  },
  ...[...UBL_PARTIES, { term: 'EXT-FR-FE-146', siret: '98765432100056' }].flatMap((p) => [
    {
      id: `BR-FR-CO-10_${p.term}-1`,
      fail:
        p.term === 'BT-71' || p.term === 'EXT-FR-FE-146'
          ? edit(U, uSiret(p.siret), `${uSiret(p.siret)}<cbc:ID>X</cbc:ID>`)
          : edit(
              U,
              `<cac:PartyIdentification>${uSiret(p.siret)}</cac:PartyIdentification>`,
              `<cac:PartyIdentification>${uSiret(p.siret)}</cac:PartyIdentification><cac:PartyIdentification><cbc:ID>X</cbc:ID></cac:PartyIdentification>`,
            ),
    },
    { id: `BR-FR-CO-10_${p.term}-2`, fail: edit(U, uSiret(p.siret), `${uSiret(p.siret)}${uSiret(p.siret)}`) },
  ]),
  {
    id: 'BR-FR-CO-12_BT-5',
    pass: edit(
      edit(
        U,
        '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
        '<cbc:DocumentCurrencyCode>USD</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>EUR</cbc:TaxCurrencyCode>',
      ),
      '<cac:TaxTotal>',
      '<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">35.00</cbc:TaxAmount></cac:TaxTotal><cac:TaxTotal>',
    ),
    fail: edit(
      U,
      '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
      '<cbc:DocumentCurrencyCode>USD</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>USD</cbc:TaxCurrencyCode>',
    ),
  },
  { id: 'BR-FR-CO-14_BT-29-1', pass: uNote(uVatGroup(U), '#TXD#MEMBRE_ASSUJETTI_UNIQUE'), fail: uNote(uVatGroup(U), '#TXD#AUTRE') },
  {
    id: 'BR-FR-CO-15_BT-29-1',
    pass: edit(
      uVatGroup(U),
      '<cac:Delivery>',
      '<cac:TaxRepresentativeParty><cac:PartyTaxScheme><cbc:CompanyID>FR99999999999</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme></cac:TaxRepresentativeParty><cac:Delivery>',
    ),
    fail: uVatGroup(U),
  },
  ...(
    [
      ['BT-93_BT-100', '<cbc:BaseAmount currencyID="EUR">201.00</cbc:BaseAmount>'],
      ['BT-92_BT-99', '<cbc:Amount currencyID="EUR">10.01</cbc:Amount>'],
      ['BT-106', '<cbc:LineExtensionAmount currencyID="EUR">200.00</cbc:LineExtensionAmount>'],
      ['BT-107', '<cbc:AllowanceTotalAmount currencyID="EUR">10.30</cbc:AllowanceTotalAmount>'],
      ['BT-108', '<cbc:ChargeTotalAmount currencyID="EUR">0.20</cbc:ChargeTotalAmount>'],
      ['BT-109', '<cbc:TaxExclusiveAmount currencyID="EUR">190.00</cbc:TaxExclusiveAmount>'],
      ['BT-110', '<cbc:TaxAmount currencyID="EUR">38.00</cbc:TaxAmount>'],
      ['BT-112', '<cbc:TaxInclusiveAmount currencyID="EUR">228.00</cbc:TaxInclusiveAmount>'],
      ['BT-113', '<cbc:PrepaidAmount currencyID="EUR">0.50</cbc:PrepaidAmount>'],
      ['BT-114', '<cbc:PayableRoundingAmount currencyID="EUR">0.40</cbc:PayableRoundingAmount>'],
      ['BT-115', '<cbc:PayableAmount currencyID="EUR">227.50</cbc:PayableAmount>'],
      ['BT-116', '<cbc:TaxableAmount currencyID="EUR">190.10</cbc:TaxableAmount>'],
      ['BT-117', '<cbc:TaxAmount currencyID="EUR">38.10</cbc:TaxAmount>'],
      ['BT-131', '<cbc:LineExtensionAmount currencyID="EUR">200.10</cbc:LineExtensionAmount>'],
      ['BT-136_BT-141', '<cbc:Amount currencyID="EUR">0.60</cbc:Amount>'],
      ['BT-137_BT-142', '<cbc:BaseAmount currencyID="EUR">202.00</cbc:BaseAmount>'],
    ] as const
  ).map(([term, el]) => ({ id: `BR-FR-DEC-01_${term}`, fail: edit(U, el, el.replace(/>[^<]+</, '>12,50<')) })),
  {
    id: 'BR-FR-DEC-02_BT-129',
    fail: edit(
      U,
      '<cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity>',
      '<cbc:InvoicedQuantity unitCode="C62">2.00001</cbc:InvoicedQuantity>',
    ),
  },
  {
    id: 'BR-FR-DEC-02_BT-149',
    fail: edit(U, '<cbc:BaseQuantity unitCode="C62">1</cbc:BaseQuantity>', '<cbc:BaseQuantity unitCode="C62">1e2</cbc:BaseQuantity>'),
  },
  {
    id: 'BR-FR-DEC-03_BT-146',
    fail: edit(
      U,
      '<cbc:PriceAmount currencyID="EUR">100.00</cbc:PriceAmount>',
      '<cbc:PriceAmount currencyID="EUR">-100.00</cbc:PriceAmount>',
    ),
  },
  {
    id: 'BR-FR-DEC-03_BT-147',
    fail: edit(U, '<cbc:Amount currencyID="EUR">10.00</cbc:Amount>', '<cbc:Amount currencyID="EUR">10.0000001</cbc:Amount>'),
  },
  {
    id: 'BR-FR-DEC-03_BT-148',
    fail: edit(U, '<cbc:BaseAmount currencyID="EUR">110.00</cbc:BaseAmount>', '<cbc:BaseAmount currencyID="EUR">-110.00</cbc:BaseAmount>'),
  },
  { id: 'BR-FR-DEC-04_BT-96_BT-103', fail: edit(U, '<cbc:Percent>20.0</cbc:Percent>', '<cbc:Percent>-20</cbc:Percent>') },
  { id: 'BR-FR-DEC-04_BT-119', fail: edit(U, '<cbc:Percent>20</cbc:Percent>', '<cbc:Percent>20.001</cbc:Percent>') },
  { id: 'BR-FR-DEC-04_BT-152', fail: edit(U, '<cbc:Percent>20.00</cbc:Percent>', '<cbc:Percent>12345</cbc:Percent>') },

  // Release 1.4, multi-vendor / bidirectional UBL.
  {
    id: 'BR-FR-MV-01_EXT-FR-FE-163',
    pass: umv(),
    fail: editLine(umv(), '2', '<cbc:DocumentStatusCode>DETAIL</cbc:DocumentStatusCode>', ''),
  },
  {
    id: 'BR-FR-MV-02_EXT-FR-FE-163',
    pass: umv(),
    fail: umv().replace(/<cbc:DocumentStatusCode>GROUP</g, '<cbc:DocumentStatusCode>INFORMATION<'),
  },
  {
    id: 'BR-FR-BD-02_EXT-FR-FE-163',
    pass: ubd(),
    fail: editLine(
      ubd(),
      '3',
      '</cac:InvoiceDocumentReference></cac:BillingReference>',
      '</cac:InvoiceDocumentReference><cac:BillingReferenceLine><cbc:ID>1</cbc:ID></cac:BillingReferenceLine></cac:BillingReference>',
    ),
  },
  { id: 'BR-FR-BD-02_BT-30', pass: ubd(), fail: editLine(ubd(), '1', '>123456782<', '>111111111<') },
  { id: 'BR-FR-BD-02_BT-47', pass: ubd(), fail: editLine(ubd(), '3', '>987654321<', '>222222222<') },
  {
    id: 'BR-FR-MV-03_EXT-FR-FE-164',
    pass: umv(),
    fail: editLine(umv(), '1', '<cbc:RegistrationName>Vendeur A</cbc:RegistrationName>', ''),
  },
  {
    id: 'BR-FR-MV-03_EXT-FR-FE-167',
    pass: umv(),
    fail: editLine(umv(), '1', '<cbc:CompanyID schemeID="0002">123456782</cbc:CompanyID>', ''),
  },
  {
    id: 'BR-FR-MV-03_EXT-FR-FE-177',
    pass: umv(),
    fail: editLine(umv(), '1', '<cbc:IdentificationCode>FR</cbc:IdentificationCode>', '<cbc:IdentificationCode></cbc:IdentificationCode>'),
  },
  {
    id: 'BR-FR-MV-03_EXT-FR-FE-181',
    pass: umv(),
    fail: editLine(
      umv(),
      '1',
      '<cbc:TaxAmount currencyID="EUR">20.00</cbc:TaxAmount>',
      '<cbc:TaxAmount currencyID="USD">20.00</cbc:TaxAmount>',
    ),
  },
  {
    id: 'BR-FR-MV-03_EXT-FR-FE-182',
    pass: edit(
      umv(),
      '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
      '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>EUR</cbc:TaxCurrencyCode>',
    ),
    fail: edit(
      umv(),
      '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
      '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>XPF</cbc:TaxCurrencyCode>',
    ),
  },
  {
    id: 'BR-FR-MV-03_BT-128_AFL',
    pass: umv(),
    fail: editLine(umv(), '1', '<cbc:ID schemeID="AFL">F2026-100</cbc:ID>', '<cbc:ID schemeID="AFL"> </cbc:ID>'),
  },
  { id: 'BR-FR-MV-03_BT-128_AVV', pass: umv(), fail: editLine(umv(), '1', '>LOT-A<', '>B8<') },
  {
    id: 'BR-FR-MV-05_EXT-FR-FE-BG-12',
    pass: umv(),
    fail: editLine(
      umv(),
      '4',
      '<cbc:LineExtensionAmount currencyID="EUR">50.0</cbc:LineExtensionAmount>',
      '<cbc:LineExtensionAmount currencyID="EUR">50.5</cbc:LineExtensionAmount>',
    ),
  },
  { id: 'BR-FR-MV-06_EXT-FR-FE-167', pass: umv(), fail: editLine(umv(), '2', '>123456782<', '>999999999<') },
  {
    id: 'BR-FR-MV-07_BT-128',
    pass: umv(),
    fail: editLine(umv(), '2', '<cbc:ID schemeID="AFL">F2026-100</cbc:ID>', '<cbc:ID schemeID="AFL">F2026-101</cbc:ID>'),
  },
  { id: 'BR-FR-MV-08_BT-128', pass: umv(), fail: editLine(umv(), '4', '#F2026-100-B# TVA due', '#F2026-100# TVA due') },
  {
    id: 'BR-FR-MV-09_EXT-FR-FE-181',
    pass: umv(),
    fail: edit(
      umv(),
      '<cbc:TaxAmount currencyID="EUR">10.00</cbc:TaxAmount><cac:TaxCategory>',
      '<cbc:TaxAmount currencyID="EUR">11.00</cbc:TaxAmount><cac:TaxCategory>',
    ),
  },
  {
    id: 'BR-FR-MV-10_EXT-FR-FE-184',
    pass: umv(),
    fail: editLine(
      umv(),
      '3',
      '<cbc:TaxInclusiveLineExtensionAmount currencyID="EUR">60.00',
      '<cbc:TaxInclusiveLineExtensionAmount currencyID="EUR">61.00',
    ),
  },
  {
    id: 'BR-FR-MV-11_BT-128',
    pass: umv(),
    fail: editLine(umv(), '1', '<cbc:ID schemeID="AFL">F2026-100</cbc:ID>', '<cbc:ID schemeID="AFL">F2026-100-A</cbc:ID>'),
  },
  {
    id: 'BR-FR-MV-12_BT-128',
    pass: umv(),
    fail: editLine(umv(), '3', '<cbc:ID schemeID="AFL">F2026-100-B</cbc:ID>', '<cbc:ID schemeID="AFL">F2026-100</cbc:ID>'),
  },
  { id: 'BR-FR-MV-13_BT-3', pass: umv('B8', '380'), fail: umv('B8', '501') },
  { id: 'BR-FR-MV-BD_BT-3', pass: ubd('389'), fail: ubd('380') },
  {
    id: 'BR-FR-MV-14-EXT-FR-FE-136',
    pass: umv('S8', '384'),
    fail: editLine(umv('S8', '384'), '1', '<cbc:ID>F2025-1</cbc:ID>', '<cbc:ID>F2026-100</cbc:ID>'),
  },
  {
    id: 'BR-FR-MV-14-EXT-FR-FE-138',
    pass: umv('S8', '384'),
    fail: editLine(umv('S8', '384'), '1', '<cbc:IssueDate>2025-12-01</cbc:IssueDate>', ''),
  },
  {
    id: 'BR-FR-BD-14-EXT-FR-FE-136',
    pass: ubd('261'),
    fail: editLine(ubd('261'), '3', '<cbc:ID>F2025-3</cbc:ID>', '<cbc:ID>F2026-100</cbc:ID>'),
  },
  { id: 'BR-FR-BD-14-EXT-FR-FE-138', pass: ubd('261'), fail: editLine(ubd('261'), '3', '<cbc:IssueDate>2025-12-01</cbc:IssueDate>', '') },
];

/**
 * Asserts the reference rules carry but that can never fire, because their rule context never
 * matches a document (or is shadowed by an earlier rule of the same pattern). They are registered
 * so that the ids are known; a test shows they stay silent where a live rule would fire.
 */
const NEVER_APPLIES: Record<Syntax, { id: string; release?: '1.2' | '1.4'; provoke: string; why: string }[]> = {
  cii: [
    {
      id: 'BR-FR-DEC-01_BT-111',
      provoke: edit(
        C,
        '<ram:TaxTotalAmount currencyID="EUR">38.00</ram:TaxTotalAmount>',
        '<ram:TaxTotalAmount currencyID="EUR">38.001</ram:TaxTotalAmount>',
      ),
      why: 'same context as BR-FR-DEC-01_BT-110',
    },
    {
      id: 'BR-FR-CO-10_EXT-FR-FE-92-1',
      release: '1.2',
      provoke: edit(C, siretTag('98765432100031'), `${siretTag('98765432100031')}<ram:GlobalID>X</ram:GlobalID>`),
      why: 'context without namespace prefix in 1.2',
    },
    {
      id: 'BR-FR-CO-10_EXT-FR-FE-92-2',
      release: '1.2',
      provoke: edit(C, siretTag('98765432100031'), siretTag('98765432100031').repeat(2)),
      why: 'context without namespace prefix in 1.2',
    },
    {
      id: 'BR-FR-CO-10_EXT-FR-FE-115-1',
      release: '1.2',
      provoke: edit(C, siretTag('12345678200028'), `${siretTag('12345678200028')}<ram:GlobalID>X</ram:GlobalID>`),
      why: 'context without namespace prefix in 1.2',
    },
    {
      id: 'BR-FR-CO-10_EXT-FR-FE-115-2',
      release: '1.2',
      provoke: edit(C, siretTag('12345678200028'), siretTag('12345678200028').repeat(2)),
      why: 'context without namespace prefix in 1.2',
    },
  ],
  ubl: [
    {
      id: 'BR-FR-16_BT-103',
      provoke: edit(U, '<cbc:Percent>20.0</cbc:Percent>', '<cbc:Percent>21</cbc:Percent>'),
      why: 'same context as BR-FR-16_BT-96',
    },
    {
      id: 'BR-FR-DEC-01_BT-111',
      provoke: edit(U, '<cbc:TaxAmount currencyID="EUR">38.00</cbc:TaxAmount>', '<cbc:TaxAmount currencyID="EUR">38.001</cbc:TaxAmount>'),
      why: 'same context as BR-FR-DEC-01_BT-110',
    },
    {
      id: 'BR-FR-09_EXT-FR-FE-146',
      provoke: edit(U, uSiret('98765432100056'), uSiret('1234')),
      why: 'SIRET looked for in a DeliveryLocation below the DeliveryLocation',
    },
    { id: 'BR-FR-27_BG-32', provoke: uLine('<cbc:Name>Couleur</cbc:Name>', ''), why: 'context names cac:Item directly under the root' },
    {
      id: 'BR-FR-27_BT-160',
      provoke: uLine('<cbc:Name>Couleur</cbc:Name>', '<cbc:Name></cbc:Name>'),
      why: 'context names cac:Item directly under the root',
    },
    {
      id: 'BR-FR-27_EXT-FR-FE-159',
      provoke: uLine('<cbc:Name>Couleur</cbc:Name>', '<cbc:Name>Couleur</cbc:Name><cbc:NameCode></cbc:NameCode>'),
      why: 'context names cac:Item directly under the root',
    },
    {
      id: 'BR-FR-28_BT-161',
      release: '1.2',
      provoke: uLine('<cbc:Value>Bleu</cbc:Value>', ''),
      why: 'context names cac:Item directly under the root',
    },
    {
      id: 'BR-FR-28_Value',
      release: '1.2',
      provoke: uLine('<cbc:Value>Bleu</cbc:Value>', '<cbc:Value></cbc:Value>'),
      why: 'context names cac:Item directly under the root',
    },
    {
      id: 'BR-FR-28_ValueQuantity',
      release: '1.2',
      provoke: uLine('<cbc:Value>Bleu</cbc:Value>', '<cbc:ValueQuantity unitCode="KGM"></cbc:ValueQuantity>'),
      why: 'context names cac:Item directly under the root',
    },
    {
      id: 'BR-FR-28_UnitCode',
      release: '1.2',
      provoke: uLine('<cbc:Value>Bleu</cbc:Value>', '<cbc:ValueQuantity unitCode="">1</cbc:ValueQuantity>'),
      why: 'context names cac:Item directly under the root',
    },
  ],
};

const releaseOf = (set: string) => (set.includes('1.2') ? '1.2' : '1.4');

for (const syntax of ['cii', 'ubl'] as const) {
  const cases = syntax === 'cii' ? CII_CASES : UBL_CASES;
  const base = syntax === 'cii' ? CII_BASE : UBL_BASE;
  describe(`BR-FR ${syntax.toUpperCase()} rules: a passing and a failing case each`, () => {
    for (const set of setsOf(syntax)) {
      const registered = new Set(getRuleSet(set)!.map((r) => r.id));
      for (const c of cases) {
        if (!registered.has(c.id) || (c.release && c.release !== releaseOf(set))) continue;
        test(`${set} ${c.id}`, () => {
          const passing = run(set, c.pass ?? base);
          assert.ok(!ids(passing).includes(c.id), `${c.id} fired on the passing document`);
          const failing = run(set, c.fail).filter((f) => f.ruleId === c.id);
          assert.ok(failing.length > 0, `${c.id} did not fire on the failing document`);
          assert.ok(failing.every((f) => f.location && f.message && f.ruleSet === set));
        });
      }
      for (const n of NEVER_APPLIES[syntax]) {
        if (!registered.has(n.id) || (n.release && n.release !== releaseOf(set))) continue;
        test(`${set} ${n.id} never applies (${n.why})`, () => {
          assert.ok(!ids(run(set, n.provoke)).includes(n.id));
        });
      }
    }

    test('every registered assert has a case', () => {
      const missing: string[] = [];
      for (const set of setsOf(syntax)) {
        for (const r of getRuleSet(set)!) {
          const covered =
            cases.some((c) => c.id === r.id && (!c.release || c.release === releaseOf(set))) ||
            NEVER_APPLIES[syntax].some((n) => n.id === r.id && (!n.release || n.release === releaseOf(set)));
          if (!covered) missing.push(`${set} ${r.id}`);
        }
      }
      assert.deepEqual(missing, []);
    });
  });
}

describe('BR-FR rule sets and editions', () => {
  test('the rule sets carry the ids of the official catalogue (counts per set)', () => {
    const counts = Object.fromEntries(BR_FR_RULE_SETS.map((s) => [s, getRuleSet(s)!.length]));
    assert.deepEqual(counts, {
      'br-fr-1.2-cii': 146,
      'br-fr-1.2-ubl': 150,
      'br-fr-1.4-cii': 171,
      'br-fr-1.4-ubl': 175,
      'br-fr-1.4-warning-cii': 171,
      'br-fr-1.4-warning-ubl': 175,
    });
  });

  test('severity per edition: 1.2.0 warnings, 1.4 errors, 1.4-warning errors only for MV/BD', () => {
    for (const set of BR_FR_RULE_SETS) {
      for (const r of getRuleSet(set)!) {
        const expected = set.includes('1.2')
          ? 'warning'
          : set.includes('warning')
            ? /^BR-FR-(MV|BD)-/.test(r.id)
              ? 'error'
              : 'warning'
            : 'error';
        assert.equal(r.severity, expected, `${set} ${r.id}`);
      }
    }
  });

  test('release differences: billing frameworks, BAR values, identifier characters, BT-23 required', () => {
    const b9 = framework(C, 'B9');
    assert.ok(ids(run('br-fr-1.2-cii', b9)).includes('BR-FR-08_BT-23'));
    assert.ok(!ids(run('br-fr-1.4-cii', b9)).includes('BR-FR-08_BT-23'));
    const b2cint = edit(C, '<ram:Content>B2B</ram:Content>', '<ram:Content>B2CINT</ram:Content>');
    assert.ok(ids(run('br-fr-1.2-cii', b2cint)).includes('BR-FR-20_BT-21'));
    assert.ok(!ids(run('br-fr-1.4-cii', b2cint)).includes('BR-FR-20_BT-21'));
    const dotted = edit(C, '>VENDEUR_01-A<', '>VENDEUR.01<');
    assert.ok(ids(run('br-fr-1.2-cii', dotted)).includes('BR-FR-24_BT-29'));
    assert.ok(!ids(run('br-fr-1.4-cii', dotted)).includes('BR-FR-24_BT-29'));
    const noFramework = edit(
      C,
      '<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>B1</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter>',
      '',
    );
    assert.ok(!ids(run('br-fr-1.2-cii', noFramework)).includes('BR-FR-08_BT-23'));
    assert.ok(ids(run('br-fr-1.4-cii', noFramework)).includes('BR-FR-08_BT-23'));
    // Bidirectional invoices may carry negative unit prices from 1.4 on.
    const negativePrice = editLine(bd(), '2', '<ram:ChargeAmount>100.0</ram:ChargeAmount>', '<ram:ChargeAmount>-100.0</ram:ChargeAmount>');
    assert.ok(!ids(run('br-fr-1.4-cii', negativePrice)).includes('BR-FR-DEC-03_BT-146'));
    assert.ok(ids(run('br-fr-1.2-cii', negativePrice)).includes('BR-FR-DEC-03_BT-146'));
  });

  test('a CII rule set finds nothing on UBL and the reverse', () => {
    assert.deepEqual(run('br-fr-1.4-cii', edit(U, '<cbc:ID>F2026-001</cbc:ID>', `<cbc:ID>${long(40)}</cbc:ID>`)), []);
    assert.deepEqual(run('br-fr-1.4-ubl', edit(C, '<ram:ID>B1</ram:ID>', '<ram:ID>X</ram:ID>')), []);
  });
});

describe('French CTC layer selection (src/validation/br-fr.ts)', () => {
  test('editions: default, spellings, rule set per syntax', () => {
    assert.equal(DEFAULT_BR_FR_EDITION, '1.4');
    assert.equal(parseBrFrEdition(undefined), '1.4');
    assert.equal(parseBrFrEdition('1.2'), '1.2.0');
    assert.equal(parseBrFrEdition('1.2.0'), '1.2.0');
    assert.equal(parseBrFrEdition('1.4.0'), '1.4');
    assert.equal(parseBrFrEdition('1.4-warning'), '1.4-warning');
    assert.equal(parseBrFrEdition('1.3'), null);
    assert.equal(brFrRuleSet('1.2.0', 'ubl'), 'br-fr-1.2-ubl');
    assert.equal(brFrRuleSet('1.4', 'cii'), 'br-fr-1.4-cii');
    assert.equal(brFrRuleSet('1.4-warning', 'cii'), 'br-fr-1.4-warning-cii');
  });

  test('applicability: CII and UBL, never Factur-X MINIMUM', () => {
    assert.equal(brFrApplies({ syntax: 'cii', profile: 'en16931', guideline: 'urn:cen.eu:en16931:2017' }), true);
    assert.equal(brFrApplies({ syntax: 'cii', profile: 'basic_wl', guideline: 'urn:factur-x.eu:1p0:basicwl' }), true);
    assert.equal(brFrApplies({ syntax: 'cii', profile: 'minimum', guideline: 'urn:factur-x.eu:1p0:minimum' }), false);
    assert.equal(brFrApplies({ syntax: 'cii', profile: null, guideline: 'urn:factur-x.eu:1p0:minimum' }), false);
    assert.equal(
      brFrApplies({
        syntax: 'ubl',
        profile: 'en16931',
        guideline: 'urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr',
      }),
      true,
    );
    assert.equal(brFrApplies({ syntax: 'zugferd1' }), false);
  });

  test('opting in: rules field, or the invoice declares EXTENDED-CTC-FR', () => {
    assert.equal(brFrRequested('br_fr_ctc'), true);
    assert.equal(brFrRequested('xrechnung, br_fr_ctc'), true);
    assert.equal(brFrRequested(''), false);
    assert.equal(declaresFrenchCtc('urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr'), true);
    assert.equal(declaresFrenchCtc('urn:cen.eu:en16931:2017'), false);
  });

  test('runBrFr runs the edition asked for and says which one ran', () => {
    const doc = parseXml(framework(C, 'X9'));
    const current = runBrFr({ invoice: {} as never, doc, syntax: 'cii' });
    assert.equal(current.edition, '1.4');
    assert.equal(current.ruleSet, 'br-fr-1.4-cii');
    assert.deepEqual(
      current.findings.map((f) => [f.ruleId, f.severity]),
      [['BR-FR-08_BT-23', 'error']],
    );
    const old = runBrFr({ invoice: {} as never, doc, syntax: 'cii' }, '1.2.0');
    assert.deepEqual(
      old.findings.map((f) => [f.ruleId, f.severity]),
      [['BR-FR-08_BT-23', 'warning']],
    );
    assert.equal(old.layer, 'br_fr_ctc');
  });
});
