/**
 * POST /v1/extract over real HTTP handling (app.inject with hand-made multipart bodies).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PDFDocument } from '@cantoo/pdf-lib';
import { embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';
import { communityApp, multipart } from './helpers.js';
import { facturxPdf, FIXTURES, readFixture } from './fixtures.js';
import { makeBasePdf } from './hybrid-fixtures.js';

let app: FastifyInstance;
before(async () => {
  app = await communityApp();
});
after(async () => {
  await app.close();
});

async function extract(data: Buffer | Uint8Array, filename = 'upload.bin') {
  const { payload, headers } = multipart([{ name: 'file', value: Buffer.from(data), filename }]);
  const res = await app.inject({ method: 'POST', url: '/v1/extract', payload, headers });
  return { status: res.statusCode, type: String(res.headers['content-type']), body: res.json() };
}

const corpus = (rel: string) => readFixture(rel);

test('Factur-X PDF: format, profile, parties, totals, VAT breakdown and lines', async () => {
  // CEN example 4 embedded by the project's own code (values below as written in that XML).
  const { status, body } = await extract(await facturxPdf(), 'invoice-4.pdf');
  assert.equal(status, 200);
  assert.equal(body.xml_extracted, true);
  assert.equal(body.format_detected, 'factur-x');
  assert.equal(body.profile_detected, 'en16931');
  assert.deepEqual(body.errors, []);
  const j = body.invoice_json;
  assert.equal(j.invoice_number, 'TOSL110');
  assert.equal(j.invoice_date, '2013-04-10');
  assert.equal(j.due_date, '2013-05-10');
  assert.equal(j.document_type_code, '380');
  assert.equal(j.currency, 'DKK');
  assert.deepEqual(j.seller, {
    name: 'SellerCompany',
    registration_id: 'DK16356706', // BT-30, the legal registration
    email: 'Anthon@SellerCompany.dk',
    line1: 'Main street 2, Building 4',
    city: 'Big city',
    postcode: '54321',
    country: 'DK',
    vat_number: 'DK16356706',
  });
  assert.equal(j.buyer.name, 'Buyercompany ltd');
  assert.equal(j.buyer.vat_number, null);
  assert.deepEqual(j.totals, { net_amount: '4000', tax_amount: '675', gross_amount: '4675', payable_amount: '4675' });
  assert.deepEqual(j.tax_breakdown, [
    { category: 'S', vat_rate: '25', basis_amount: '1500', tax_amount: '375' },
    { category: 'S', vat_rate: '12', basis_amount: '2500', tax_amount: '300' },
  ]);
  assert.equal(j.line_items.length, 3);
  assert.deepEqual(j.line_items[1], {
    description: 'Parker Pen',
    quantity: '100',
    unit_code: 'C62',
    unit_price: '5',
    vat_rate: '25',
    line_total: '500',
  });
  assert.deepEqual(j._meta, { limitations: [], fallbacks: [] });
});

test('UBL XML (XRechnung): read directly, format xrechnung', async () => {
  const { status, body } = await extract(corpus('kosit/instances/ubl-inv/' + firstFile('kosit/instances/ubl-inv')), 'x.xml');
  assert.equal(status, 200);
  assert.equal(body.xml_extracted, true);
  assert.equal(body.format_detected, 'xrechnung');
  assert.equal(body.profile_detected, 'xrechnung');
  assert.ok(body.invoice_json.invoice_number);
});

function firstFile(dir: string): string {
  return readdirSync(path.join(FIXTURES, dir))
    .filter((f) => f.endsWith('.xml'))
    .sort()[0];
}

test('a PDF without invoice XML: 200, xml_extracted false, format null, NO_XML', async () => {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([200, 200]);
  const pdf = await doc.save();
  const { status, body } = await extract(Buffer.from(pdf), 'plain.pdf');
  assert.equal(status, 200);
  assert.deepEqual(
    { xml_extracted: body.xml_extracted, format_detected: body.format_detected, invoice_json: body.invoice_json },
    { xml_extracted: false, format_detected: null, invoice_json: null },
  );
  assert.deepEqual(
    body.errors.map((e: { code: string }) => e.code),
    ['NO_XML'],
  );
  assert.equal(typeof body.errors[0].message, 'string');
});

test('neither PDF nor XML: 400 ProblemDetails NOT_PDF_OR_XML', async () => {
  const { status, type, body } = await extract(Buffer.from('PK\u0003\u0004 this is a zip, not an invoice'), 'invoice.zip');
  assert.equal(status, 400);
  assert.match(type, /application\/problem\+json/);
  assert.equal(body.code, 'NOT_PDF_OR_XML');
  assert.equal(body.status, 400);
  assert.equal(body.title, 'Bad Request');
});

test('an empty upload: 400 EMPTY_FILE', async () => {
  const { status, body } = await extract(Buffer.alloc(0), 'empty.xml');
  assert.equal(status, 400);
  assert.equal(body.code, 'EMPTY_FILE');
});

test('malformed XML: 400 XML_MALFORMED with the line', async () => {
  const { status, body } = await extract(Buffer.from('<?xml version="1.0"?>\n<Invoice>\n  <ID>1</Invoice>'), 'bad.xml');
  assert.equal(status, 400);
  assert.equal(body.code, 'XML_MALFORMED');
  assert.match(body.detail, /not well-formed/);
});

test('XML external entity attack: answered 400, the entity is never resolved', async () => {
  const xxe = `<?xml version="1.0"?>
<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>&xxe;</cbc:ID></Invoice>`;
  const { status, body } = await extract(Buffer.from(xxe), 'xxe.xml');
  assert.equal(status, 400);
  assert.equal(body.code, 'XML_DTD_FORBIDDEN');
  assert.doesNotMatch(JSON.stringify(body), /root:/); // nothing of /etc/passwd leaks into the answer
});

test('an encrypted PDF: 400 PDF_ENCRYPTED', async () => {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([200, 200]);
  doc.encrypt({ userPassword: 'u', ownerPassword: 'o' });
  const { status, body } = await extract(Buffer.from(await doc.save()), 'locked.pdf');
  assert.equal(status, 400);
  assert.equal(body.code, 'PDF_ENCRYPTED');
});

test('a PDF whose embedded XML is not well-formed: 200 with xml_extracted true and the XML error code', async () => {
  const broken =
    '<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"><rsm:Broken></rsm:CrossIndustryInvoice>';
  const { pdf } = await embedInvoiceXml(await makeBasePdf(), { xml: new TextEncoder().encode(broken), flavour: hybridFlavour('en16931') });
  const { status, body } = await extract(Buffer.from(pdf));
  assert.equal(status, 200);
  assert.equal(body.xml_extracted, true);
  assert.equal(body.invoice_json, null);
  assert.equal(body.format_detected, 'factur-x');
  assert.ok(
    body.errors.some((e: { code: string }) => e.code.startsWith('XML_')),
    JSON.stringify(body.errors),
  );
});

test('XML that is not an invoice (FatturaPA): 200 with UNKNOWN_XML, no invoice_json', async () => {
  const fattura =
    '<?xml version="1.0"?><p:FatturaElettronica versione="FPR12" xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2"><FatturaElettronicaHeader/></p:FatturaElettronica>';
  const { status, body } = await extract(Buffer.from(fattura), 'fattura.xml');
  assert.equal(status, 200);
  assert.equal(body.format_detected, null);
  assert.equal(body.invoice_json, null);
  assert.deepEqual(
    body.errors.map((e: { code: string }) => e.code),
    ['UNKNOWN_XML'],
  );
});

test('missing file part: 422 in FastAPI shape', async () => {
  const { payload, headers } = multipart([{ name: 'other', value: 'x' }]);
  const res = await app.inject({ method: 'POST', url: '/v1/extract', payload, headers });
  assert.equal(res.statusCode, 422);
  assert.deepEqual(res.json().detail[0].loc, ['body', 'file']);
});

test('the OpenAPI description documents the error codes', async () => {
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const op = doc.paths['/v1/extract'].post;
  for (const code of [
    'NO_XML',
    'NOT_PDF_OR_XML',
    'PDF_ENCRYPTED',
    'PDF_UNREADABLE',
    'XML_MALFORMED',
    'XML_DTD_FORBIDDEN',
    'EMPTY_FILE',
    'UNKNOWN_XML',
    'ZUGFERD_1_LEGACY',
  ]) {
    assert.ok(op.description.includes(code), code);
  }
  assert.ok(op.requestBody, 'multipart body documented');
});

test('EXTENDED-CTC-FR (CII and UBL): profile extended_ctc_fr, as /v1/validate names its flavor and /v1/xml its profile', async () => {
  const cii = readFixture('extended-ctc-fr/invoices/uc1_goods.xml');
  const ubl = Buffer.from(
    readFixture('cen/examples/ubl/ubl-tc434-example2.xml')
      .toString('utf8')
      .replace(
        /<cbc:CustomizationID>[^<]*/,
        '<cbc:CustomizationID>urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr',
      ),
  );
  for (const [name, bytes, format] of [
    ['uc1.xml', cii, 'factur-x'],
    ['ubl.xml', ubl, 'ubl'],
  ] as const) {
    const { status, body } = await extract(bytes, name);
    assert.equal(status, 200);
    assert.equal(body.format_detected, format, name);
    assert.equal(body.profile_detected, 'extended_ctc_fr', name);
    const { payload, headers } = multipart([{ name: 'file', value: bytes, filename: name }]);
    const validated = (await app.inject({ method: 'POST', url: '/v1/validate', payload, headers })).json();
    assert.equal(validated.flavor, 'extended_ctc_fr', name);
  }
  // A Factur-X EXTENDED invoice stays `extended`.
  const { body } = await extract(
    Buffer.from(cii.toString('utf8').replace(/urn.cpro.gouv.fr:1p0:extended-ctc-fr/, 'urn:factur-x.eu:1p0:extended')),
    'fx.xml',
  );
  assert.equal(body.profile_detected, 'extended');
});
