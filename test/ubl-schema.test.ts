/**
 * The UBL 2.1 schema layer (src/xml/ubl/, generated from the published OASIS UBL 2.1 schemas by
 * scripts/gen-ubl-structure.ts): UBL invoices written in code (test/ubl-fixture.ts), one fault at a time,
 * through the pipeline and over HTTP. Each fault is reported as an XSD error naming the element, with its line.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateBytes, type ValidationResult } from '../src/validation/validate.js';
import { parseXml } from '../src/xml/dom.js';
import { validateAgainstSchema } from '../src/xml/xsd-native/validate.js';
import { ublSchema } from '../src/xml/ubl/schema.js';
import { communityApp, multipart } from './helpers.js';
import { ublInvoice } from './ubl-fixture.js';

const VALID = ublInvoice({
  lines: [{ qty: '2', price: '50.00', category: 'S', rate: '19' }],
  subtotals: [{ category: 'S', rate: '19', taxable: '100.00', tax: '19.00' }],
});

function sub(xml: string, pattern: string | RegExp, replacement: string): string {
  const found = typeof pattern === 'string' ? xml.includes(pattern) : pattern.test(xml);
  if (!found) throw new Error(`edit does not apply: ${pattern}`);
  return xml.replace(pattern, replacement);
}
const lineOf = (xml: string, needle: string) => xml.slice(0, xml.indexOf(needle)).split('\n').length;
const xsd = (r: ValidationResult) => r.errors.filter((e) => e.rule_set === 'xsd');
const check = (xml: string) => validateAgainstSchema(parseXml(xml), ublSchema());

describe('UBL 2.1 schema layer', () => {
  test('a valid invoice: the xsd layer ran, nothing skipped, completeness full', async () => {
    const r = await validateBytes(Buffer.from(VALID), 'x.xml');
    assert.equal(r.valid, true, JSON.stringify(r.errors));
    assert.ok(r.layers_executed.includes('xsd'));
    assert.deepEqual(r.layers_skipped, []);
    assert.equal(r.validation_completeness, 'full');
    assert.equal(r.rule_set_versions.xsd, 'UBL 2.1');
    assert.deepEqual(xsd(r), []);
  });

  test('an element out of order is reported with the element and its line', async () => {
    // cbc:DueDate belongs before cbc:InvoiceTypeCode: move it after.
    const xml = sub(
      VALID,
      '<cbc:DueDate>2026-12-20</cbc:DueDate>\n<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>',
      '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>\n<cbc:DueDate>2026-12-20</cbc:DueDate>',
    );
    const r = await validateBytes(Buffer.from(xml), 'x.xml');
    const f = xsd(r);
    assert.equal(f.length, 1, JSON.stringify(f));
    assert.equal(f[0].severity, 'error');
    assert.equal(f[0].rule_id, 'XSD');
    assert.match(f[0].message, /cbc:DueDate is not allowed here in Invoice/);
    assert.equal(f[0].location, `line ${lineOf(xml, '<cbc:DueDate>')}`);
    assert.equal(r.valid, false);
  });

  test('a missing mandatory element is reported on its parent, with what was expected', () => {
    // cac:LegalMonetaryTotal is mandatory (1..1) in Invoice.
    const xml = sub(VALID, /<cac:LegalMonetaryTotal>[\s\S]*?<\/cac:LegalMonetaryTotal>\n/, '');
    const f = check(xml);
    assert.equal(f.length, 1, JSON.stringify(f));
    assert.match(f[0].message, /cac:InvoiceLine is not allowed here in Invoice; expected .*cac:LegalMonetaryTotal/);
    assert.equal(f[0].line, lineOf(xml, '<cac:InvoiceLine>'));
    // Inside an aggregate: cbc:ID of the line is mandatory.
    const noLineId = sub(VALID, '<cac:InvoiceLine><cbc:ID>1</cbc:ID>', '<cac:InvoiceLine>');
    assert.match(check(noLineId)[0].message, /cbc:InvoicedQuantity is not allowed here in cac:InvoiceLine; expected .*cbc:ID/);
  });

  test('an unknown element, a second occurrence of a single one, and an empty required aggregate', () => {
    const unknown = sub(
      VALID,
      '<cbc:BuyerReference>REF-1</cbc:BuyerReference>',
      '<cbc:BuyerReference>REF-1</cbc:BuyerReference><cbc:FavouriteColour>blue</cbc:FavouriteColour>',
    );
    const f = check(unknown);
    assert.equal(f.length, 1);
    assert.match(f[0].message, /cbc:FavouriteColour is not allowed here in Invoice/);
    const twice = sub(
      VALID,
      '<cbc:IssueDate>2026-11-20</cbc:IssueDate>',
      '<cbc:IssueDate>2026-11-20</cbc:IssueDate><cbc:IssueDate>2026-11-21</cbc:IssueDate>',
    );
    assert.match(check(twice)[0].message, /cbc:IssueDate is not allowed here in Invoice/);
    // cbc:PaymentMeansCode is 1..1 in a payment means (most UBL children are optional: an empty customer party is valid).
    const emptyMeans = sub(VALID, /<cac:PaymentMeans>[\s\S]*?<\/cac:PaymentMeans>/, '<cac:PaymentMeans></cac:PaymentMeans>');
    const m = check(emptyMeans);
    assert.equal(m.length, 1);
    assert.match(m[0].message, /cac:PaymentMeans is incomplete: a child element is missing; expected .*cbc:PaymentMeansCode/);
    assert.equal(m[0].line, lineOf(emptyMeans, '<cac:PaymentMeans>'));
    const emptyParty = sub(
      VALID,
      /<cac:AccountingCustomerParty>[\s\S]*?<\/cac:AccountingCustomerParty>/,
      '<cac:AccountingCustomerParty></cac:AccountingCustomerParty>',
    );
    assert.deepEqual(check(emptyParty), []);
  });

  test('values and attributes follow their types: dates, decimals, the required currencyID', () => {
    assert.match(
      check(sub(VALID, '<cbc:IssueDate>2026-11-20</cbc:IssueDate>', '<cbc:IssueDate>20.11.2026</cbc:IssueDate>'))[0].message,
      /cbc:IssueDate: "20\.11\.2026" is not a date/,
    );
    assert.match(
      check(sub(VALID, '<cbc:IssueDate>2026-11-20</cbc:IssueDate>', '<cbc:IssueDate>2026-02-30</cbc:IssueDate>'))[0].message,
      /is not a date/,
    );
    assert.deepEqual(check(sub(VALID, '<cbc:IssueDate>2026-11-20</cbc:IssueDate>', '<cbc:IssueDate>2026-11-20+01:00</cbc:IssueDate>')), []);
    assert.match(
      check(
        sub(
          VALID,
          '<cbc:PriceAmount currencyID="EUR">50.00</cbc:PriceAmount>',
          '<cbc:PriceAmount currencyID="EUR">50,00</cbc:PriceAmount>',
        ),
      )[0].message,
      /is not a decimal/,
    );
    assert.match(
      check(sub(VALID, '<cbc:PriceAmount currencyID="EUR">', '<cbc:PriceAmount>'))[0].message,
      /cbc:PriceAmount lacks the required attribute currencyID/,
    );
    assert.match(
      check(sub(VALID, '<cbc:ID>INV-1</cbc:ID>', '<cbc:ID colour="red">INV-1</cbc:ID>'))[0].message,
      /attribute colour that the schema does not declare/,
    );
  });

  test('a credit note is checked against the CreditNote structure', () => {
    const cn = VALID.replace(/Invoice-2/g, 'CreditNote-2')
      .replace('<Invoice ', '<CreditNote ')
      .replace('</Invoice>', '</CreditNote>')
      .replace('<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>', '<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>')
      .replace('<cbc:DueDate>2026-12-20</cbc:DueDate>\n', '')
      .replace(/InvoiceLine>/g, 'CreditNoteLine>')
      .replace(/InvoicedQuantity/g, 'CreditedQuantity');
    assert.deepEqual(check(cn), []);
    // An Invoice element in a credit note is not allowed.
    assert.match(
      check(cn.replace('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>', '<cbc:InvoiceTypeCode>381</cbc:InvoiceTypeCode>'))[0]
        .message,
      /cbc:InvoiceTypeCode is not allowed here in CreditNote/,
    );
  });

  test('UBL extensions are accepted with any content (a lax wildcard)', () => {
    const ext = sub(
      VALID,
      '<cbc:CustomizationID>',
      '<ext:UBLExtensions xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2"><ext:UBLExtension><ext:ExtensionContent><x:Anything xmlns:x="urn:example"><x:Deep>1</x:Deep></x:Anything></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions><cbc:CustomizationID>',
    );
    assert.deepEqual(check(ext), []);
  });

  test('over HTTP: a schema-invalid UBL invoice is valid=false with the XSD finding and its line', async () => {
    const app = await communityApp();
    try {
      const xml = sub(
        VALID,
        '<cbc:BuyerReference>REF-1</cbc:BuyerReference>',
        '<cbc:BuyerReference>REF-1</cbc:BuyerReference><cbc:FavouriteColour>blue</cbc:FavouriteColour>',
      );
      const { payload, headers } = multipart([{ name: 'file', value: Buffer.from(xml), filename: 'x.xml' }]);
      const body = (await app.inject({ method: 'POST', url: '/v1/validate', payload, headers })).json();
      assert.equal(body.valid, false);
      assert.equal(body.validation_completeness, 'full');
      const f = body.errors.find((e: { rule_set: string }) => e.rule_set === 'xsd');
      assert.match(f.message, /FavouriteColour/);
      assert.equal(f.location, `line ${lineOf(xml, '<cbc:FavouriteColour>')}`);
    } finally {
      await app.close();
    }
  });
});
