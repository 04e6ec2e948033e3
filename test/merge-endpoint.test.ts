/**
 * POST /v1/merge over real HTTP: each answer of the spec's order 400 → 409 → 422 → 200, including the cases
 * where two rules apply and the earlier one must win; the 200 output checked with qpdf / pdf.js.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { hybridFlavour } from '../src/pdf/embed.js';
import { validateBytes } from '../src/validation/validate.js';
import { communityApp, multipart, type Part } from './helpers.js';
import { basicObjects, buildPdf } from '../scripts/fuzz/pdf-builder.js';
import { assertContainer, assertFileId, makeBasePdf, xmlFor } from './hybrid-fixtures.js';
import { readFixture } from './fixtures.js';
import { embeddedFileEntries, parseXmpPacket, pdfjsRead, qpdfStringHex, qpdfView } from './hybrid-pdf-reader.js';

const PDFA3B = () => readFixture('verapdf/3b/6.8/6-8-t02-pass-e.pdf'); // PDF/A-3b, one attachment (TextFile.txt), no invoice
const PDFA2B = () => readFixture('verapdf/2b/6.1.2/6-1-2-t02-pass-a.pdf'); // declares pdfaid:part 2
const FACTURX = () =>
  readFixture('lunatech/specs/examples/facturx-1.08/MINIMUM/Facture_F20260023-LE_FOURNISSEUR-POUR-LE_CLIENT_MINIMUM.pdf'); // a real Factur-X PDF: already carries factur-x.xml
const UBL_XR = () => readFixture('kosit/instances/ubl-inv/ubl-inv-br-de-1-test.xml');
const ENCRYPTED = () => readFixture('verapdf/2b/6.1.3/6-1-3-t02-fail-a.pdf');

/** Our EN 16931 XML with a wrong amount due (BT-115): fails the totals rules. */
function invalidXml(): Buffer {
  const xml = Buffer.from(xmlFor('en16931')).toString('utf8');
  const broken = xml.replace(/(<ram:DuePayableAmount>)[^<]+(<\/ram:DuePayableAmount>)/, '$10.01$2');
  assert.notEqual(broken, xml, 'fixture: DuePayableAmount replaced');
  return Buffer.from(broken);
}

let app: FastifyInstance;
before(async () => {
  app = await communityApp();
});
after(() => app.close());

async function merge(pdf: Uint8Array | Buffer, xml: Uint8Array | Buffer, format?: string) {
  const parts: Part[] = [
    { name: 'pdf', filename: 'in.pdf', contentType: 'application/pdf', value: Buffer.from(pdf) },
    { name: 'xml', filename: 'invoice.xml', contentType: 'application/xml', value: Buffer.from(xml) },
  ];
  if (format !== undefined) parts.push({ name: 'format', value: format });
  const { payload, headers } = multipart(parts);
  return app.inject({ method: 'POST', url: '/v1/merge', payload, headers });
}

function problem(res: Awaited<ReturnType<typeof merge>>, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body.slice(0, 500));
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json();
  assert.equal(body.status, status);
  assert.equal(body.code, code, res.body.slice(0, 500));
  return body;
}

test('200: a PDF/A-3b input gets the XML; its declaration, OutputIntent and other attachment are kept', async () => {
  const xml = xmlFor('en16931');
  const input = PDFA3B();
  const res = await merge(input, xml);
  assert.equal(res.statusCode, 200, res.body.slice(0, 500));
  assert.equal(res.headers['content-type'], 'application/pdf');
  assert.equal(res.headers['content-disposition'], 'attachment; filename="RE-2026-0042.pdf"');
  const pdf = res.rawPayload;
  const v = assertContainer(pdf, xml, hybridFlavour('en16931'), 'B');
  const before = qpdfView(input);
  assert.equal(v.trailer['/ID'][0], before.trailer['/ID'][0]);
  assert.deepEqual(
    embeddedFileEntries(v)
      .map(([k]) => k)
      .sort(),
    ['TextFile.txt', 'factur-x.xml'],
  );
  const js = await pdfjsRead(pdf);
  assert.equal(Buffer.compare(Buffer.from(js.attachments['factur-x.xml']), Buffer.from(xml)), 0);
  assert.equal(js.numPages, (await pdfjsRead(input)).numPages);
});

test('200: the XML profile decides the container, format overrides it', async () => {
  // XRechnung CII → xrechnung.xml, level XRECHNUNG.
  const xr = xmlFor('xrechnung');
  const res = await merge(PDFA3B(), xr);
  assert.equal(res.statusCode, 200, res.body.slice(0, 500));
  assertContainer(res.rawPayload, xr, hybridFlavour('xrechnung'));

  // The same XML with format=factur-x → factur-x.xml, level EN 16931.
  const asFx = await merge(PDFA3B(), xr, 'factur-x');
  assert.equal(asFx.statusCode, 200, asFx.body.slice(0, 500));
  assertContainer(asFx.rawPayload, xr, hybridFlavour('xrechnung', 'factur-x'));

  // MINIMUM → /Data relationship; format=zugferd keeps the Factur-X container of ZUGFeRD 2.4.
  const min = xmlFor('minimum');
  const zf = await merge(PDFA3B(), min, 'zugferd');
  assert.equal(zf.statusCode, 200, zf.body.slice(0, 500));
  const v = assertContainer(zf.rawPayload, min, hybridFlavour('minimum', 'zugferd'));
  assert.equal(parseXmpPacket(v.data(v.catalog['/Metadata'])).props.get('http://www.aiim.org/pdfa/ns/id/|part'), '3');

  // UBL XRechnung → xrechnung.xml.
  const ubl = UBL_XR();
  const u = await merge(PDFA3B(), ubl);
  assert.equal(u.statusCode, 200, u.body.slice(0, 500));
  assertContainer(u.rawPayload, ubl, hybridFlavour('xrechnung'));
});

test('the /ID check reads both of the forms qpdf prints a string in: b:<hex>, and u:<text> when the bytes read as text (the digest bytes did, now and then)', () => {
  const text = Buffer.from('0123456789abcdef').toString('hex');
  const binary = '00ff'.repeat(8);
  const id = qpdfView(buildPdf(basicObjects(), { trailer: `/Root 1 0 R /ID [<${text}> <${binary}>]` })).trailer['/ID'];
  assert.deepEqual(id, ['u:0123456789abcdef', `b:${binary}`], 'qpdf prints the text-like one as text');
  assertFileId(id);
  assert.throws(() => assertFileId(['u:short', `b:${binary}`]));
  // Bytes that begin with FE FF read as UTF-16BE text: qpdf prints that text, and the bytes are recovered.
  const utf16 = `feff${Buffer.from('\u4e2d\u6587ID\u00e9\u2603\u0416', 'utf16le').swap16().toString('hex')}`;
  const asText = qpdfView(buildPdf(basicObjects(), { trailer: `/Root 1 0 R /ID [<${utf16}> <${binary}>]` })).trailer['/ID'];
  assert.match(asText[0], /^u:/);
  assert.equal(qpdfStringHex(asText[0]), utf16);
  assertFileId(asText);
});

test('400: not a PDF, not XML, malformed XML, UBL for a CII-only format', async () => {
  const xml = xmlFor('en16931');
  problem(await merge(Buffer.from('plain text, not a PDF'), xml), 400, 'NOT_PDF');
  // An encrypted PDF that opens without a password is read like any other (and written decrypted): this one is PDF/A-2b.
  problem(await merge(ENCRYPTED(), xml), 422, 'NOT_PDFA3');
  problem(await merge(PDFA3B(), Buffer.from('not xml at all')), 400, 'NOT_XML');
  problem(await merge(PDFA3B(), PDFA3B()), 400, 'NOT_XML');
  problem(await merge(PDFA3B(), Buffer.from('<Invoice><unclosed></Invoice>')), 400, 'XML_MALFORMED');
  problem(await merge(PDFA3B(), Buffer.from('<?xml version="1.0"?><note>hello</note>')), 400, 'UNKNOWN_XML');
  problem(await merge(PDFA3B(), UBL_XR(), 'factur-x'), 400, 'XML_SYNTAX_MISMATCH');
});

test('400 comes before 409: an invoice PDF with a broken XML part', async () => {
  problem(await merge(FACTURX(), Buffer.from('<broken')), 400, 'XML_MALFORMED');
});

test('409: the PDF already carries invoice XML, even when the XML would also fail validation', async () => {
  const body = problem(await merge(FACTURX(), xmlFor('en16931')), 409, 'XML_ALREADY_EMBEDDED');
  assert.equal(body.attachment, 'factur-x.xml');
  problem(await merge(FACTURX(), invalidXml()), 409, 'XML_ALREADY_EMBEDDED');
});

test('422: not declared PDF/A-3 (PDF/A-2b, plain PDF)', async () => {
  const xml = xmlFor('en16931');
  for (const pdf of [PDFA2B(), await makeBasePdf()]) {
    const body = problem(await merge(pdf, xml), 422, 'NOT_PDFA3');
    assert.equal(body.errors.length, 1);
    assert.equal(body.errors[0].rule_id, 'PDFA3_DECLARATION');
    assert.deepEqual(body.extensions.errors, body.errors);
  }
});

test('422: the XML fails EN 16931; the failed rules are listed as the validator reports them', async () => {
  const xml = invalidXml();
  const body = problem(await merge(PDFA3B(), xml), 422, 'EN16931_INVALID');
  const expected = (await validateBytes(new Uint8Array(xml))).errors.filter((e) => e.severity === 'error').map((e) => e.rule_id);
  assert.ok(expected.length > 0);
  assert.deepEqual(
    body.errors.map((e: { rule_id: string }) => e.rule_id),
    expected,
  );
  assert.ok(
    expected.some((id) => id?.startsWith('BR-CO-')),
    expected.join(','),
  );
});

test('422: both failures are listed, the PDF/A one first', async () => {
  const body = problem(await merge(PDFA2B(), invalidXml()), 422, 'NOT_PDFA3');
  assert.equal(body.errors[0].rule_id, 'PDFA3_DECLARATION');
  assert.ok(body.errors.length > 1);
});

test('422 ProblemDetails REQUEST_INVALID (the shape of the other merge 422s): unknown format, missing parts', async () => {
  const res = await merge(PDFA3B(), xmlFor('en16931'), 'pdf-a');
  const body = problem(res, 422, 'REQUEST_INVALID');
  assert.equal(body.errors[0].location, 'body.format');
  assert.deepEqual(body.errors[0].loc, ['body', 'format']);
  const { payload, headers } = multipart([{ name: 'pdf', filename: 'a.pdf', value: PDFA3B() }]);
  const missing = problem(await app.inject({ method: 'POST', url: '/v1/merge', payload, headers }), 422, 'REQUEST_INVALID');
  assert.deepEqual(
    missing.errors.map((e: { location: string; severity: string }) => [e.location, e.severity]),
    [['body.xml', 'error']],
  );
  // The same item shape as NOT_PDFA3 / EN16931_INVALID: rule_id, message, severity, location.
  for (const k of ['rule_id', 'message', 'severity', 'location']) assert.ok(k in missing.errors[0], k);
});
