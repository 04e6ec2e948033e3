import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PDFDocument } from '@cantoo/pdf-lib';
import { communityApp, multipart, proApp, testKeys, testLicense } from './helpers.js';
import { facturxPdf, readFixture } from './fixtures.js';
import { makeBasePdf, xmlFor } from './hybrid-fixtures.js';
import { embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';
import { buildApp } from '../src/http/app.js';
import { loadConfig } from '../src/config.js';
import { toBusinessReady } from '../src/serialize/business-ready.js';
import { emptyInvoice, emptyLine } from '../src/model/invoice.js';

function upload(bytes: Buffer, filename: string) {
  return multipart([{ name: 'file', value: bytes, filename, contentType: 'application/octet-stream' }]);
}

test('serialize a Factur-X PDF: normalized BusinessReadyInvoice, no fallbacks', async () => {
  // CEN example 4 embedded by the project's own code (values below as written in that XML).
  const app = await proApp();
  const res = await app.inject({ method: 'POST', url: '/v1/serialize', ...upload(await facturxPdf(), 'a.pdf') });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.success, true);
  assert.equal(body.schema_version, '1.1.0');
  assert.equal(body.engine_version, '1.7.0');
  assert.equal(body.xml_recovery_applied, false);
  // The buyer has a GLN (BT-46) but no legal registration id (BT-47): the GLN stands in, and says so.
  assert.deepEqual(body.fallbacks_applied, [
    { field: 'invoice.buyer.registration_id', fallback_type: 'derived_value', original_state: 'missing', applied_value: '5790000436057' },
  ]);
  const inv = body.invoice;
  assert.equal(inv.invoice_number, 'TOSL110');
  assert.equal(inv.invoice_date, '2013-04-10');
  assert.equal(inv.currency, 'DKK');
  assert.equal(inv.seller.name, 'SellerCompany');
  assert.equal(inv.seller.vat_number, 'DK16356706');
  assert.equal(inv.buyer.address.city, 'Anytown');
  assert.equal(inv.format, 'factur-x');
  assert.equal(inv.profile, 'en16931');
  assert.equal(inv.line_items.length, 3);
  assert.deepEqual(inv.line_items[0], {
    name: 'Printing paper',
    description: 'Printing paper, 2mm',
    quantity: '1000',
    unit_code: 'C62',
    unit_label: 'unit',
    net_price: '1',
    line_total: '1000.00',
    vat_rate: '25',
    vat_category: 'S',
  });
  assert.deepEqual(inv.tax_breakdown.map((t: { rate: string; tax_amount: string }) => [t.rate, t.tax_amount]).sort(), [
    ['12', '300.00'],
    ['25', '375.00'],
  ]);
  assert.equal(inv.total_net_amount, '4000.00');
  assert.equal(inv.total_tax_amount, '675.00');
  assert.equal(inv.total_gross_amount, '4675.00');
  assert.equal(inv.amount_due, '4675.00');
  await app.close();
});

test('serialize a UBL invoice: the same business content gives the same normalized JSON as its CII twin', async () => {
  const app = await proApp();
  const ubl = (
    await app.inject({ method: 'POST', url: '/v1/serialize', ...upload(readFixture('cen/examples/ubl/ubl-tc434-example5.xml'), 'a.xml') })
  ).json();
  const cii = (
    await app.inject({ method: 'POST', url: '/v1/serialize', ...upload(readFixture('cen/examples/cii/CII_example5.xml'), 'a.xml') })
  ).json();
  assert.equal(ubl.success, true);
  assert.equal(ubl.invoice.format, 'ubl');
  // CEN example 5 in both syntaxes; only the unit codes differ in the files themselves (UBL EA, CII C62).
  const units = (lines: { unit_code: string; unit_label: string }[]) => lines.map((l) => [l.unit_code, l.unit_label]);
  assert.deepEqual(
    units(ubl.invoice.line_items),
    ubl.invoice.line_items.map(() => ['EA', 'each']),
  );
  assert.deepEqual(
    units(cii.invoice.line_items),
    cii.invoice.line_items.map(() => ['C62', 'unit']),
  );
  // The two files also differ in the allowance reason codes they give; amounts and reasons agree.
  const codeless = (list?: { reason_code?: string }[]) => list?.map((a) => ({ ...a, reason_code: undefined }));
  const withoutUnits = (lines: { allowances?: []; charges?: [] }[]) =>
    lines.map((l) => ({
      ...l,
      unit_code: undefined,
      unit_label: undefined,
      allowances: codeless(l.allowances),
      charges: codeless(l.charges),
    }));
  assert.deepEqual(withoutUnits(ubl.invoice.line_items), withoutUnits(cii.invoice.line_items), 'line_items');
  for (const key of [
    'invoice_number',
    'invoice_date',
    'currency',
    'total_net_amount',
    'total_tax_amount',
    'total_gross_amount',
    'amount_due',
  ]) {
    assert.deepEqual(ubl.invoice[key], cii.invoice[key], key);
  }
  await app.close();
});

test('BASIC WL is reported as a coercion to basic, the nearest profile of the schema', async () => {
  const app = await proApp();
  const res = await app.inject({
    method: 'POST',
    url: '/v1/serialize',
    ...upload(
      Buffer.from((await embedInvoiceXml(await makeBasePdf(), { xml: xmlFor('basic_wl'), flavour: hybridFlavour('basic_wl') })).pdf),
      'wl.pdf',
    ),
  });
  const body = res.json();
  assert.equal(body.invoice.profile, 'basic');
  assert.deepEqual(body.fallbacks_applied, [
    { field: 'invoice.profile', fallback_type: 'coercion', original_state: 'invalid', applied_value: 'basic' },
  ]);
  await app.close();
});

test('missing values are filled transparently and listed as fallbacks', () => {
  const inv = emptyInvoice();
  inv.number = 'X-1';
  inv.issueDate = '2026-01-15';
  inv.seller.name = 'Seller';
  const line = emptyLine('1');
  line.itemName = 'Work';
  line.quantity = '3';
  line.netPrice = '10';
  line.vatCategoryCode = 'S';
  line.vatRate = '19';
  inv.lines.push(line);
  const { invoice, fallbacks } = toBusinessReady(inv, 'factur-x', 'en16931');
  const byField = Object.fromEntries(fallbacks.map((f) => [f.field, f]));
  assert.equal(invoice.currency, 'EUR');
  assert.deepEqual(byField['invoice.currency'], {
    field: 'invoice.currency',
    fallback_type: 'default_value',
    original_state: 'missing',
    applied_value: 'EUR',
  });
  assert.equal(invoice.buyer.name, 'UNKNOWN');
  assert.equal(byField['invoice.buyer.name'].fallback_type, 'placeholder_value');
  assert.equal(invoice.line_items[0].unit_code, 'C62');
  assert.equal(byField['invoice.line_items[0].unit_code'].fallback_type, 'default_value');
  assert.equal(invoice.line_items[0].line_total, '30.00');
  assert.equal(byField['invoice.line_items[0].line_total'].fallback_type, 'derived_value');
  assert.deepEqual(invoice.tax_breakdown, [{ category: 'S', rate: '19', basis_amount: '30.00', tax_amount: '5.70' }]);
  assert.equal(invoice.total_net_amount, '30.00');
  assert.equal(invoice.total_tax_amount, '5.70');
  assert.equal(invoice.total_gross_amount, '35.70');
  assert.equal(invoice.amount_due, '35.70');
  for (const f of ['invoice.total_net_amount', 'invoice.total_tax_amount', 'invoice.total_gross_amount', 'invoice.amount_due']) {
    assert.equal(byField[f].fallback_type, 'derived_value', f);
  }
});

test('a PDF without invoice XML: 200, success false, NO_XML', async () => {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([200, 200]);
  const pdf = Buffer.from(await doc.save());
  const app = await proApp();
  const res = await app.inject({ method: 'POST', url: '/v1/serialize', ...upload(pdf, 'plain.pdf') });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.success, false);
  assert.equal(body.invoice, null);
  assert.equal(body.errors[0].code, 'NO_XML');
  await app.close();
});

test('neither PDF nor XML, or malformed XML: 400 ProblemDetails with a code', async () => {
  const app = await proApp();
  const notPdf = await app.inject({ method: 'POST', url: '/v1/serialize', ...upload(Buffer.from('hello world'), 'a.txt') });
  assert.equal(notPdf.statusCode, 400);
  assert.equal(notPdf.json().code, 'NOT_PDF_OR_XML');
  const malformed = await app.inject({ method: 'POST', url: '/v1/serialize', ...upload(Buffer.from('<a><b></a>'), 'a.xml') });
  assert.equal(malformed.statusCode, 400);
  assert.equal(malformed.json().code, 'XML_MALFORMED');
  await app.close();
});

test('a pro license that does not grant serialize answers 403 LICENSE_REQUIRED', async () => {
  const app = await buildApp(
    loadConfig({ LOG_LEVEL: 'silent', LICENSE_KEY: testLicense({ features: ['metrics'] }), LICENSE_PUBLIC_KEY: testKeys.publicKeyPem }),
  );
  assert.equal(app.edition, 'pro');
  const res = await app.inject({ method: 'POST', url: '/v1/serialize', ...upload(Buffer.from('<a/>'), 'a.xml') });
  assert.equal(res.statusCode, 403);
  assert.equal(res.json().code, 'LICENSE_REQUIRED');
  await app.close();
});

test('community mode: 403 before the upload is read', async () => {
  const app = await communityApp();
  const res = await app.inject({ method: 'POST', url: '/v1/serialize', ...upload(Buffer.from('<a/>'), 'a.xml') });
  assert.equal(res.statusCode, 403);
  await app.close();
});

test('registration_id is the legal registration id (BT-30/BT-47); another party identifier only as a recorded fallback', () => {
  const inv = emptyInvoice();
  inv.number = 'R-1';
  inv.issueDate = '2026-11-20';
  inv.currency = 'EUR';
  inv.seller = {
    ...inv.seller,
    name: 'Seller',
    identifiers: [{ value: '4000001123452', schemeId: '0088' }],
    legalRegistrationId: { value: 'HRB 12345', schemeId: '0002' },
  };
  inv.buyer = { ...inv.buyer, name: 'Buyer', identifiers: [{ value: '' }, { value: '5790000436057', schemeId: '0088' }] };
  const { invoice, fallbacks } = toBusinessReady(inv, 'factur-x', 'en16931');
  assert.equal(invoice.seller.registration_id, 'HRB 12345', 'BT-30 first, even when a GLN comes before it');
  assert.equal(invoice.buyer.registration_id, '5790000436057');
  assert.deepEqual(
    fallbacks.filter((f) => f.field.endsWith('registration_id')),
    [{ field: 'invoice.buyer.registration_id', fallback_type: 'derived_value', original_state: 'missing', applied_value: '5790000436057' }],
  );
  const none = toBusinessReady({ ...inv, buyer: { ...inv.buyer, identifiers: [] } }, 'factur-x', 'en16931');
  assert.equal(none.invoice.buyer.registration_id, null);
  assert.equal(none.fallbacks.filter((f) => f.field.endsWith('registration_id')).length, 0);
});
