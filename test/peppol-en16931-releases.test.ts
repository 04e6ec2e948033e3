/**
 * The EN 16931 layer of a Peppol invoice follows the Peppol release asked for (src/rules/en16931/ubl-releases.ts):
 * 2026.5 runs CEN 1.3.16 (the default, as before), 2025.11 the 1.3.15 artefacts OpenPeppol shipped with it (ICD and
 * EAS 0245 added), 2025.5 CEN 1.3.14.1. Each case is one edit of our Belgian base invoice; the expected EN 16931 rule
 * ids are what the official artefacts report: OpenPeppol's CEN-EN16931-UBL.xslt of each release (as phax/phive-rules
 * keeps them) run under Saxon-HE 9.9.1 on these very edits (2026-11-28), which our rule sets matched on all of them and
 * on the 223 generated invoices of test/fixtures/peppol. A plain EN 16931 invoice is never affected by peppol_version.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { validate } from '../src/lib/index.js';
import { fixturePath } from './fixtures.js';

const base = readFileSync(fixturePath('peppol/invoices/base-be.xml'), 'utf8');
const creditNote = readFileSync(fixturePath('peppol/invoices/base-be-cn.xml'), 'utf8');

/** One edit; fails when the text to replace is not there (the base changed), so a case cannot test nothing. */
function edit(xml: string, from: string | RegExp, to: string): string {
  const out = xml.replace(from, to);
  assert.ok(out !== xml, `the base has no ${from}`);
  return out;
}

const BUYER_ID = '<cbc:ID schemeID="0088">5400000000010</cbc:ID>';
const BUYER_ENDPOINT = '<cbc:EndpointID schemeID="0088">5400000000010</cbc:EndpointID>';
const inCurrency = (code: string) =>
  base
    .replaceAll('currencyID="EUR"', `currencyID="${code}"`)
    .replace('<cbc:DocumentCurrencyCode>EUR<', `<cbc:DocumentCurrencyCode>${code}<`);
/** Without payment terms and (an invoice) without due date: a credit note has none (its due date is in PaymentMeans). */
const withoutTerms = (xml: string) =>
  edit(xml.replace(/<cbc:DueDate>[^<]*<\/cbc:DueDate>/, ''), /<cac:PaymentTerms>.*?<\/cac:PaymentTerms>/, '');
const beforePayee = (xml: string) => edit(base, '<cac:PayeeFinancialAccount>', `${xml}<cac:PayeeFinancialAccount>`);
const card = (element: string, scheme = '') =>
  `<cac:CardAccount><cbc:${element}${scheme}>1234</cbc:${element}><cbc:NetworkID>VISA</cbc:NetworkID></cac:CardAccount>`;
const vat = (id: string) =>
  `<cac:PartyTaxScheme><cbc:CompanyID>${id}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>`;
const taxRepresentative = (inner: string) =>
  edit(
    base,
    '<cac:Delivery>',
    `<cac:TaxRepresentativeParty><cac:PartyName><cbc:Name>Rep</cbc:Name></cac:PartyName><cac:PostalAddress><cac:Country><cbc:IdentificationCode>BE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>${inner}</cac:TaxRepresentativeParty><cac:Delivery>`,
  );

type Expected = { '2026.5': string[]; '2025.11': string[]; '2025.5': string[] };
const same = (ids: string[]): Expected => ({ '2026.5': ids, '2025.11': ids, '2025.5': ids });

const CASES: [name: string, xml: string, expected: Expected][] = [
  ['the base', base, same([])],
  // ISO 6523 ICD: 0241–0244 came with 1.3.15, 0245 with OpenPeppol's 2025.11 copy, 0246–0248 with 1.3.16.
  [
    'ICD 0241 (party identifier)',
    edit(base, BUYER_ID, '<cbc:ID schemeID="0241">X1</cbc:ID>'),
    { '2026.5': [], '2025.11': [], '2025.5': ['BR-CL-10'] },
  ],
  [
    'ICD 0245 (legal registration)',
    edit(base, '<cbc:CompanyID schemeID="0208">0876543270</cbc:CompanyID>', '<cbc:CompanyID schemeID="0245">0876543270</cbc:CompanyID>'),
    { '2026.5': [], '2025.11': [], '2025.5': ['BR-CL-11'] },
  ],
  [
    'ICD 0246 (item standard identifier)',
    edit(
      base,
      '<cac:SellersItemIdentification><cbc:ID>P-A4</cbc:ID></cac:SellersItemIdentification>',
      '<cac:SellersItemIdentification><cbc:ID>P-A4</cbc:ID></cac:SellersItemIdentification><cac:StandardItemIdentification><cbc:ID schemeID="0246">123</cbc:ID></cac:StandardItemIdentification>',
    ),
    { '2026.5': [], '2025.11': ['BR-CL-21'], '2025.5': ['BR-CL-21'] },
  ],
  [
    'ICD 0248 (delivery location)',
    edit(base, '<cac:DeliveryLocation>', '<cac:DeliveryLocation><cbc:ID schemeID="0248">L1</cbc:ID>'),
    { '2026.5': [], '2025.11': ['BR-CL-26'], '2025.5': ['BR-CL-26'] },
  ],
  // CEF EAS: 0244 came with 1.3.15, 0245 with OpenPeppol's 2025.11 copy, 0242 and 0246 with 1.3.16.
  ['EAS 0244', edit(base, BUYER_ENDPOINT, BUYER_ENDPOINT.replace('0088', '0244')), { '2026.5': [], '2025.11': [], '2025.5': ['BR-CL-25'] }],
  ['EAS 0245', edit(base, BUYER_ENDPOINT, BUYER_ENDPOINT.replace('0088', '0245')), { '2026.5': [], '2025.11': [], '2025.5': ['BR-CL-25'] }],
  [
    'EAS 0242',
    edit(base, BUYER_ENDPOINT, BUYER_ENDPOINT.replace('0088', '0242')),
    { '2026.5': [], '2025.11': ['BR-CL-25'], '2025.5': ['BR-CL-25'] },
  ],
  // ISO 4217: XCG replaced ANG (and BGN left) in 1.3.16; CNH, MRU, UYW replaced CUC, MRO in 1.3.15.
  ['currency XCG', inCurrency('XCG'), { '2026.5': [], '2025.11': ['BR-CL-03', 'BR-CL-04'], '2025.5': ['BR-CL-03', 'BR-CL-04'] }],
  ['currency ANG', inCurrency('ANG'), { '2026.5': ['BR-CL-03', 'BR-CL-04'], '2025.11': [], '2025.5': [] }],
  ['currency CUC', inCurrency('CUC'), { '2026.5': ['BR-CL-03', 'BR-CL-04'], '2025.11': ['BR-CL-03', 'BR-CL-04'], '2025.5': [] }],
  ['currency CNH', inCurrency('CNH'), { '2026.5': [], '2025.11': [], '2025.5': ['BR-CL-03', 'BR-CL-04'] }],
  [
    'VATEX-EU-135-1',
    edit(
      base,
      '<cbc:Percent>21</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>',
      '<cbc:Percent>21</cbc:Percent><cbc:TaxExemptionReasonCode>VATEX-EU-135-1</cbc:TaxExemptionReasonCode><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>',
    ),
    { '2026.5': ['BR-S-10'], '2025.11': ['BR-S-10'], '2025.5': ['BR-S-10', 'BR-CL-22'] },
  ],
  // 1.3.16 moved 502 and 503 from the invoice to the credit note type codes.
  [
    'invoice type 502',
    edit(base, '<cbc:InvoiceTypeCode>380<', '<cbc:InvoiceTypeCode>502<'),
    { '2026.5': ['BR-CL-01'], '2025.11': [], '2025.5': [] },
  ],
  [
    'credit note type 502',
    edit(creditNote, '<cbc:CreditNoteTypeCode>381<', '<cbc:CreditNoteTypeCode>502<'),
    { '2026.5': [], '2025.11': ['BR-CL-01'], '2025.5': ['BR-CL-01'] },
  ],
  // Rules 1.3.16 removed, added or restated.
  ['no due date nor payment terms', withoutTerms(base), { '2026.5': [], '2025.11': ['BR-CO-25'], '2025.5': ['BR-CO-25'] }],
  ['a credit note without due date', withoutTerms(creditNote), same([])],
  [
    'no due date, nothing to pay',
    withoutTerms(base)
      .replace(/(<cbc:PayableAmount currencyID="EUR">)[^<]*/, '$10.00')
      .replace(/(<cbc:PrepaidAmount currencyID="EUR">)[^<]*/, '$1780.45'),
    same([]),
  ],
  [
    'two payment cards',
    beforePayee(card('PrimaryAccountNumberID') + card('PrimaryAccountNumberID')),
    { '2026.5': ['UBL-SR-54'], '2025.11': ['UBL-SR-54'], '2025.5': ['BR-66'] },
  ],
  [
    'two payment mandates',
    edit(
      base,
      '</cac:PaymentMeans>',
      '<cac:PaymentMandate><cbc:ID>M1</cbc:ID></cac:PaymentMandate><cac:PaymentMandate><cbc:ID>M2</cbc:ID></cac:PaymentMandate></cac:PaymentMeans>',
    ),
    { '2026.5': ['UBL-SR-28', 'UBL-SR-55'], '2025.11': ['UBL-SR-28', 'UBL-SR-55'], '2025.5': ['BR-67', 'UBL-SR-28'] },
  ],
  [
    'a price with an orderable unit factor',
    edit(
      base,
      '<cbc:BaseQuantity unitCode="EA">1</cbc:BaseQuantity></cac:Price>',
      '<cbc:BaseQuantity unitCode="EA">1</cbc:BaseQuantity><cbc:OrderableUnitFactorRate>1</cbc:OrderableUnitFactorRate></cac:Price>',
    ),
    { '2026.5': ['UBL-CR-628'], '2025.11': ['UBL-CR-628'], '2025.5': ['UBL-CR-628', 'UBL-CR-631'] },
  ],
  [
    'two originator document references',
    edit(
      base,
      '<cac:ContractDocumentReference>',
      '<cac:OriginatorDocumentReference><cbc:ID>O1</cbc:ID></cac:OriginatorDocumentReference><cac:OriginatorDocumentReference><cbc:ID>O2</cbc:ID></cac:OriginatorDocumentReference><cac:ContractDocumentReference>',
    ),
    { '2026.5': ['UBL-SR-56'], '2025.11': [], '2025.5': [] },
  ],
  [
    'a tax representative with two VAT identifiers',
    taxRepresentative(vat('BE0403127050') + vat('BE0876543270')),
    { '2026.5': ['UBL-SR-23'], '2025.11': [], '2025.5': [] },
  ],
  [
    'a tax representative with a Party holding two',
    taxRepresentative(`<cac:Party>${vat('BE0403127050')}${vat('BE0876543270')}</cac:Party>${vat('BE0403127050')}`),
    { '2026.5': [], '2025.11': ['UBL-SR-23'], '2025.5': ['UBL-SR-23'] },
  ],
  [
    'a card number with a scheme',
    beforePayee(card('PrimaryAccountNumberID', ' schemeID="X"')),
    { '2026.5': ['UBL-CR-674'], '2025.11': [], '2025.5': [] },
  ],
  [
    'PrimaryAccountNumber (not a UBL element) with a scheme',
    beforePayee(card('PrimaryAccountNumber', ' schemeID="X"')),
    { '2026.5': [], '2025.11': ['UBL-CR-674'], '2025.5': ['UBL-CR-674'] },
  ],
  [
    'a seller identified by a SEPA creditor identifier only',
    edit(
      edit(
        edit(
          base,
          '<cac:PartyIdentification><cbc:ID>SUP-001</cbc:ID></cac:PartyIdentification>',
          '<cac:PartyIdentification><cbc:ID schemeID="SEPA">DE98ZZZ09999999999</cbc:ID></cac:PartyIdentification>',
        ),
        vat('BE0403127050'),
        '',
      ),
      '<cbc:CompanyID schemeID="0208">0403127050</cbc:CompanyID>',
      '',
    ),
    {
      '2026.5': ['BR-CO-26', 'BR-S-02', 'BR-S-03', 'BR-S-04'],
      '2025.11': ['BR-S-02', 'BR-S-03', 'BR-S-04'],
      '2025.5': ['BR-S-02', 'BR-S-03', 'BR-S-04'],
    },
  ],
  [
    'split payment on the lines and the allowances, S in the VAT breakdown only',
    base
      .replaceAll('<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID>', '<cac:ClassifiedTaxCategory><cbc:ID>B</cbc:ID>')
      .replace(/(<cac:AllowanceCharge><cbc:ChargeIndicator>false<\/cbc:ChargeIndicator>.*?<cac:TaxCategory><cbc:ID>)S</, '$1B<')
      .replace(/(<cac:AllowanceCharge><cbc:ChargeIndicator>true<\/cbc:ChargeIndicator>.*?<cac:TaxCategory><cbc:ID>)S</, '$1B<'),
    {
      '2026.5': ['BR-B-01', 'BR-B-02', 'BR-S-01', 'BR-S-08'],
      '2025.11': ['BR-B-01', 'BR-S-01', 'BR-S-08'],
      '2025.5': ['BR-B-01', 'BR-S-01', 'BR-S-08'],
    },
  ],
  // Not a release difference: BR-63 in UBL wants the scheme identifier present (exists(@schemeID)), so an empty one
  // holds there (BR-CL-25 refuses it); the CII artefact wants it non-blank.
  ['an empty EAS scheme identifier', edit(base, BUYER_ENDPOINT, BUYER_ENDPOINT.replace('0088', '')), same(['BR-CL-25'])],
];

const CEN_OF = { '2026.5': '1.3.16', '2025.11': '1.3.15', '2025.5': '1.3.14.1' } as const;

describe('the EN 16931 layer under each Peppol release: the official verdicts of the artefacts OpenPeppol ships', () => {
  for (const [name, xml, expected] of CASES)
    test(name, async () => {
      for (const release of ['2026.5', '2025.11', '2025.5'] as const) {
        const r = await validate(Buffer.from(xml), { peppolVersion: release });
        assert.deepEqual(r.rule_sets, ['en16931-ubl', 'peppol-bis-3']);
        assert.equal(r.rule_set_versions.en16931, CEN_OF[release]);
        const ids = [...new Set(r.errors.filter((e) => e.rule_set === 'en16931-ubl').map((e) => e.rule_id))].sort();
        assert.deepEqual(ids, [...expected[release]].sort(), `${name}, peppol_version ${release}`);
      }
    });

  test('a plain EN 16931 UBL invoice keeps 1.3.16 whatever peppol_version says', async () => {
    const plain = edit(
      withoutTerms(base),
      'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
      'urn:cen.eu:en16931:2017',
    );
    const r = await validate(Buffer.from(plain), { peppolVersion: '2025.5' });
    assert.deepEqual(r.rule_sets, ['en16931-ubl']);
    assert.equal(r.rule_set_versions.en16931, '1.3.16');
    assert.ok(!r.errors.some((e) => e.rule_id === 'BR-CO-25'));
  });
});
