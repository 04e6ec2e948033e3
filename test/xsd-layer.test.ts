/**
 * The XSD layer: CII against its Factur-X profile's schema, UBL reported as skipped (no schema package).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture } from './fixtures.js';
import {
  MAX_XSD_FINDINGS,
  UBL_XSD_MISSING,
  XSD_RULE_ID,
  ciiSchemaFor,
  runXsdLayer,
  validateXsdLayer,
} from '../src/validation/xsd-layer.js';

const read = (rel: string) => new Uint8Array(readFixture(rel));
const CII = 'cen/examples/cii/CII_example1.xml';

test('a CEN CII example is valid against the Factur-X EN16931 schema', () => {
  const r = runXsdLayer(read(CII), 'cii', 'en16931');
  assert.equal(r.executed, true);
  assert.equal(r.schema, 'Factur-X 1.09.2 EN16931');
  assert.deepEqual(r.findings, []);
});

test('an element the schema does not know is an XSD error with its line, and the layer still ran', () => {
  const text = new TextDecoder()
    .decode(read(CII))
    .replace('<ram:TypeCode>380</ram:TypeCode>', '<ram:TypeCode>380</ram:TypeCode><ram:NotInTheSchema>1</ram:NotInTheSchema>');
  const r = runXsdLayer(new TextEncoder().encode(text), 'cii', 'en16931');
  assert.equal(r.executed, true);
  assert.ok(r.findings.length >= 1);
  const f = r.findings[0];
  assert.equal(f.ruleId, XSD_RULE_ID);
  assert.equal(f.severity, 'error');
  assert.equal(f.ruleSet, 'xsd');
  assert.match(f.message, /NotInTheSchema/);
  assert.match(f.location ?? '', /^line \d+$/);
});

test('the schema follows the profile: a full EN 16931 invoice is not a MINIMUM one', () => {
  assert.equal(ciiSchemaFor('minimum'), 'MINIMUM');
  assert.equal(ciiSchemaFor('xrechnung'), 'EXTENDED', 'XRechnung CII is a D16B document: the widest bundled subset checks it');
  assert.equal(ciiSchemaFor(null), 'EN16931');
  assert.equal(
    ciiSchemaFor(
      'xrechnung',
      'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0',
    ),
    'EXTENDED',
  );
  const asMinimum = runXsdLayer(read(CII), 'cii', 'minimum');
  assert.equal(asMinimum.schema, 'Factur-X 1.09.2 MINIMUM');
  assert.ok(asMinimum.findings.length > 0, 'line items are not part of the MINIMUM schema');
});

test('an XRechnung Extension invoice with sub-invoice lines is checked against the EXTENDED schema', async () => {
  const { parseXml } = await import('../src/xml/dom.js');
  const bytes = read('kosit/instances/cii/cii-br-dex-15-test-on-sub-invoice-lines.xml');
  const doc = parseXml(bytes);
  const withDoc = runXsdLayer({ xmlBytes: bytes, syntax: 'cii', profile: 'xrechnung', doc });
  assert.equal(withDoc.schema, 'Factur-X 1.09.2 EXTENDED');
  assert.deepEqual(withDoc.findings, []);
  const withoutDoc = runXsdLayer(bytes, 'cii', 'xrechnung');
  assert.equal(withoutDoc.schema, 'Factur-X 1.09.2 EXTENDED');
  assert.deepEqual(withoutDoc.findings, []);
});

test('XRechnung and EXTENDED schema findings are warnings that say why; the other profiles keep errors', () => {
  // Valid XRechnung (official verdict) using a CII D16B element that no Factur-X schema has.
  // (PayerSpecifiedDebtorFinancialInstitution: in the EXTENDED schema only from Factur-X 1.09.2 on, so the 1.07.3 files show it.)
  const xrBytes = read('kosit/instances/cii/cii-br-de-25-test-bg-19-with-bt-86-1.xml');
  const xr = runXsdLayer({ xmlBytes: xrBytes, syntax: 'cii', profile: 'xrechnung', facturxRelease: '1.07.3' });
  assert.ok(xr.findings.length > 0);
  for (const f of xr.findings) {
    assert.equal(f.severity, 'warning');
    assert.match(f.message, /XRechnung is defined on the full CII D16B schema/);
  }
  const broken = Buffer.from(Buffer.from(read(CII)).toString('utf8').replace('<ram:TypeCode>', '<ram:Bogus>1</ram:Bogus><ram:TypeCode>'));
  const ext = runXsdLayer({ xmlBytes: broken, syntax: 'cii', profile: 'extended', facturxRelease: '1.07.3' });
  assert.ok(ext.findings.length > 0 && ext.findings.every((f) => f.severity === 'warning' && /predates Factur-X 1\.08/.test(f.message)));
  // The current EXTENDED schema (1.09.2, the default) is the reference one: its findings are errors.
  const extCurrent = runXsdLayer(broken, 'cii', 'extended');
  assert.ok(extCurrent.findings.length > 0 && extCurrent.findings.every((f) => f.severity === 'error'));
  const en = runXsdLayer(broken, 'cii', 'en16931');
  assert.ok(en.findings.length > 0 && en.findings.every((f) => f.severity === 'error'));
});

test('UBL is checked against the UBL 2.1 structure (the layer runs, a valid example has no finding)', () => {
  const r = runXsdLayer(read('cen/examples/ubl/ubl-tc434-example1.xml'), 'ubl', null);
  assert.equal(r.executed, true);
  assert.equal(r.schema, 'UBL 2.1');
  assert.deepEqual(r.findings, []);
  assert.notEqual(r.skippedReason, UBL_XSD_MISSING);
});

test('the pipeline call shape gives the same answer; a flood of errors is summarised', () => {
  const text = new TextDecoder().decode(read(CII));
  const line = /<ram:IncludedSupplyChainTradeLineItem>[\s\S]*?<\/ram:IncludedSupplyChainTradeLineItem>/.exec(text)![0];
  const badLine = line.replace('<ram:IncludedSupplyChainTradeLineItem>', '<ram:IncludedSupplyChainTradeLineItem><ram:Bogus/>');
  const flooded = text.replace(line, line + badLine.repeat(MAX_XSD_FINDINGS + 10));
  const r = validateXsdLayer({ xmlBytes: new TextEncoder().encode(flooded), syntax: 'cii', profile: 'en16931' });
  assert.equal(r.executed, true);
  assert.equal(r.findings.length, MAX_XSD_FINDINGS + 1);
  assert.match(r.findings[MAX_XSD_FINDINGS].message, /10 further schema errors/);
});

test('XML that is not well-formed is answered with findings, not an exception', () => {
  const r = runXsdLayer(
    new TextEncoder().encode('<rsm:CrossIndustryInvoice xmlns:rsm="x"><a></rsm:CrossIndustryInvoice>'),
    'cii',
    'en16931',
  );
  assert.equal(r.executed, true);
  assert.ok(r.findings.length >= 1);
});
