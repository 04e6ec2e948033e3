/**
 * POST /v1/render over the real app (app.inject, hand-made multipart bodies), in place and through the worker pool,
 * and `einvoice render` as a real process: success for every syntax, profile and container, every error path with the
 * contract's statuses and shapes, the OpenAPI entry.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildInvoiceXml } from '../src/metadata/index.js';
import { PROFILE_IDS } from '../src/model/profiles.js';
import { communityApp, multipart, type Part } from './helpers.js';
import { facturxPdf, readFixture } from './fixtures.js';
import { makePdf, runCli } from './cli-fixtures.js';
import { SCENARIOS } from './invoice-scenarios.js';
import { pageTerms } from './render-terms.js';

let app: FastifyInstance;
let pooled: FastifyInstance;
let tmp: string;
before(async () => {
  app = await communityApp();
  // Everything through a worker thread: the pool path answers the same page and the same errors.
  pooled = await communityApp({ WORKERS: '1', VALIDATION_INLINE_MAX_KB: '0' });
  tmp = mkdtempSync(join(tmpdir(), 'render-'));
});
after(async () => {
  await app.close();
  await pooled.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function post(parts: Part[], on = app) {
  const { payload, headers } = multipart(parts);
  const res = await on.inject({ method: 'POST', url: '/v1/render', payload, headers });
  return res;
}

const file = (value: Buffer | Uint8Array | string, filename = 'invoice.xml'): Part => ({
  name: 'file',
  value: typeof value === 'string' ? value : Buffer.from(value),
  filename,
});

const MINIMUM_PDF = 'lunatech/specs/examples/facturx-1.08/MINIMUM/Facture_F20260023-LE_FOURNISSEUR-POUR-LE_CLIENT_MINIMUM.pdf';

test('200 for every syntax and container: CII, XRechnung CII and UBL, UBL invoice and credit note, Factur-X PDFs', async () => {
  const cases: [string, Buffer | Uint8Array, string][] = [
    ['CII EN 16931', readFixture('cen/examples/cii/CII_example4.xml'), 'TOSL110'],
    ['XRechnung CII', readFixture('kosit/instances/cii/cii-br-de-1-test.xml'), ''],
    ['XRechnung UBL invoice', readFixture('kosit/instances/ubl-inv/ubl-inv-br-de-1-test.xml'), ''],
    ['XRechnung UBL credit note', readFixture('kosit/instances/ubl-cn/ubl-cn-br-de-1-test.xml'), ''],
    ['UBL invoice', readFixture('cen/examples/ubl/ubl-tc434-example1.xml'), '12115118'],
    ['UBL credit note', readFixture('cen/examples/ubl/ubl-tc434-creditnote1.xml'), ''],
    ['Factur-X EN 16931 PDF', await facturxPdf(), 'TOSL110'],
    ['Factur-X MINIMUM PDF', readFixture(MINIMUM_PDF), ''],
  ];
  for (const [what, bytes, number] of cases) {
    const res = await post([file(bytes, what.includes('PDF') ? 'invoice.pdf' : 'invoice.xml')]);
    assert.equal(res.statusCode, 200, `${what}: ${res.body.slice(0, 300)}`);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', what);
    assert.match(String(res.headers['content-security-policy']), /^default-src 'none'; style-src 'unsafe-inline'/, what);
    assert.match(String(res.headers['x-render-lines']), /^\d+\/\d+$/, what);
    assert.match(String(res.headers['content-disposition']), /^inline; filename="[A-Za-z0-9._-]+\.html"$/, what);
    const terms = pageTerms(res.body);
    assert.ok(terms.length >= 15, `${what}: ${terms.length} values`);
    if (number) assert.equal(terms.find((t) => t.bt === 'BT-1')?.value, number, what);
    if (what.includes('credit note')) assert.match(res.body, /<main class="invoice" data-kind="credit-note"/, what);
  }
  const minimum = await post([file(readFixture(MINIMUM_PDF), 'min.pdf')]);
  assert.match(minimum.body, /Factur-X · MINIMUM · CII · from the PDF attachment factur-x\.xml/);
});

test('200 for every profile the writer makes (MINIMUM to EXTENDED, XRechnung), in the asked language', async () => {
  for (const profile of PROFILE_IDS) {
    const scenario = profile === 'xrechnung' ? SCENARIOS.xrechnung : SCENARIOS.domestic;
    const xml = buildInvoiceXml({ ...scenario, profile }).xml;
    for (const lang of ['en', 'de', 'fr']) {
      const res = await post([file(xml), { name: 'lang', value: lang }]);
      assert.equal(res.statusCode, 200, `${profile} ${lang}`);
      assert.match(res.body, new RegExp(`^<!DOCTYPE html><html lang="${lang}">`), `${profile} ${lang}`);
      assert.equal(pageTerms(res.body).find((t) => t.bt === 'BT-1')?.value, scenario.invoice_number);
      assert.equal(res.headers['content-disposition'], `inline; filename="${scenario.invoice_number}.html"`);
    }
  }
});

test('the worker pool answers the same page, and the same errors', async () => {
  const bytes = readFixture('cen/examples/cii/CII_example5.xml');
  const inline = await post([file(bytes), { name: 'lang', value: 'fr' }]);
  const inPool = await post([file(bytes), { name: 'lang', value: 'fr' }], pooled);
  assert.equal(inPool.statusCode, 200);
  assert.equal(inPool.body, inline.body);
  assert.ok(pooled.validation.counts.pool >= 1, 'ran in the pool');
  const noXml = await post([file(await makePdf(), 'plain.pdf')], pooled);
  assert.equal(noXml.statusCode, 422);
  assert.equal(noXml.json().code, 'NO_XML');
  const malformed = await post([file('<rsm:CrossIndustryInvoice')], pooled);
  assert.equal(malformed.statusCode, 400);
  assert.equal(malformed.json().code, 'XML_MALFORMED');
});

/** A ProblemDetails body with the code. */
function assertProblem(res: Awaited<ReturnType<typeof post>>, status: number, code: string): Record<string, unknown> {
  assert.equal(res.statusCode, status, res.body.slice(0, 300));
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json();
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(body.instance, '/v1/render');
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  return body;
}

test('400: neither PDF nor XML, empty, XML not well-formed, a DOCTYPE', async () => {
  assertProblem(await post([file('just text', 'a.txt')]), 400, 'NOT_PDF_OR_XML');
  assertProblem(await post([file('', 'a.xml')]), 400, 'EMPTY_FILE');
  assertProblem(await post([file('<rsm:CrossIndustryInvoice><a></b>')]), 400, 'XML_MALFORMED');
  assertProblem(await post([file('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>')]), 400, 'XML_DTD_FORBIDDEN');
});

test('422 ProblemDetails when there is no invoice to draw: a PDF without invoice XML, XML that is not CII or UBL', async () => {
  assertProblem(await post([file(await makePdf(), 'plain.pdf')]), 422, 'NO_XML');
  assertProblem(await post([file('<Fattura xmlns="urn:x"/>')]), 422, 'UNKNOWN_XML');
});

test('422 HTTPValidationError for a missing file, a lang or format not accepted, a part sent twice', async () => {
  const bytes = readFixture('cen/examples/cii/CII_example4.xml');
  const shape = async (parts: Part[], loc: string[], type: string) => {
    const res = await post(parts);
    assert.equal(res.statusCode, 422, res.body.slice(0, 300));
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const item = res.json().detail[0];
    assert.deepEqual(item.loc, loc);
    assert.equal(item.type, type);
    assert.equal(typeof item.msg, 'string');
  };
  await shape([{ name: 'lang', value: 'de' }], ['body', 'file'], 'missing');
  await shape([file(bytes), { name: 'lang', value: 'es' }], ['body', 'lang'], 'enum');
  await shape([file(bytes), { name: 'format', value: 'docx' }], ['body', 'format'], 'enum');
  await shape([file(bytes), file(bytes)], ['body', 'file'], 'duplicate_part');
});

test('format=pdf: 200 application/pdf, downloaded as <number>.pdf, with its page count; in the pool too', async () => {
  const bytes = readFixture('cen/examples/cii/CII_example4.xml');
  for (const on of [app, pooled]) {
    const res = await post([file(bytes), { name: 'format', value: 'pdf' }, { name: 'lang', value: 'de' }], on);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="TOSL110.pdf"');
    assert.equal(res.headers['x-render-lines'], '3/3');
    assert.match(String(res.headers['x-render-pages']), /^[1-9]\d*$/);
    assert.equal(res.headers['x-render-missing-glyphs'], undefined);
    assert.equal(res.headers['content-security-policy'], undefined);
    assert.equal(res.rawPayload.subarray(0, 8).toString('latin1'), '%PDF-1.7');
  }
  const html = await post([file(bytes), { name: 'format', value: 'HTML' }]);
  assert.equal(html.statusCode, 200);
  assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
});

test('413 UPLOAD_TOO_LARGE past MAX_UPLOAD_SIZE_MB', async () => {
  const small = await communityApp({ MAX_UPLOAD_SIZE_MB: '1' });
  try {
    const res = await post([file(Buffer.alloc(1_200_000, 0x20), 'big.xml')], small);
    const body = assertProblem(res, 413, 'UPLOAD_TOO_LARGE');
    assert.equal(body.max_upload_size_mb, 1);
  } finally {
    await small.close();
  }
});

test('OpenAPI: /v1/render with its form (file, lang, format enums), a text/html answer and the error answers', async () => {
  const doc = (await app.inject({ url: '/openapi.json' })).json();
  const op = doc.paths['/v1/render'].post;
  assert.equal(op.operationId, 'renderInvoice');
  const form = op.requestBody.content['multipart/form-data'].schema;
  assert.deepEqual(form.required, ['file']);
  assert.deepEqual(form.properties.lang.enum, ['en', 'de', 'fr']);
  assert.deepEqual(form.properties.format.enum, ['html', 'pdf']);
  assert.ok(op.responses['200'].content['text/html']);
  assert.ok(op.responses['200'].content['application/pdf']);
  assert.ok(op.responses['200'].headers['X-Render-Pages']);
  for (const s of ['400', '413', '422', '500']) assert.ok(op.responses[s], s);
  assert.match(op.description, /format=pdf/);
  assert.doesNotMatch(op.description, /RENDER_FORMAT_UNAVAILABLE/);
});

test('CLI: einvoice render FILE -o OUT.html (and to stdout), --lang; refusals exit 1 with the code, usage errors 2', async () => {
  const xml = join(tmp, 'invoice.xml');
  writeFileSync(xml, readFixture('cen/examples/cii/CII_example4.xml'));
  const out = join(tmp, 'invoice.html');
  const ok = await runCli(['render', xml, '-o', out, '--lang', 'de']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, '');
  const page = readFileSync(out, 'utf8');
  assert.match(page, /^<!DOCTYPE html><html lang="de">/);
  assert.equal(pageTerms(page).find((t) => t.bt === 'BT-1')?.value, 'TOSL110');
  const pdf = join(tmp, 'invoice.pdf');
  writeFileSync(pdf, await facturxPdf());
  const stdout = await runCli(['render', pdf]);
  assert.equal(stdout.code, 0, stdout.stderr);
  assert.match(stdout.stdout, /^<!DOCTYPE html><html lang="en">/);
  const notXml = join(tmp, 'notes.txt');
  writeFileSync(notXml, 'hello');
  const refused = await runCli(['render', notXml]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /^einvoice: NOT_PDF_OR_XML: /);
  const plain = join(tmp, 'plain.pdf');
  writeFileSync(plain, await makePdf());
  const none = await runCli(['render', plain, '-o', join(tmp, 'x.html')]);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /^einvoice: NO_XML: /);
  // -o x.pdf asks for the PDF (test/render-pdf.test.ts checks the document itself).
  const asPdf = await runCli(['render', xml, '-o', join(tmp, 'out.pdf')]);
  assert.equal(asPdf.code, 0, asPdf.stderr);
  assert.equal(asPdf.stderr, '');
  assert.equal(readFileSync(join(tmp, 'out.pdf')).subarray(0, 8).toString('latin1'), '%PDF-1.7');
  const badLang = await runCli(['render', xml, '--lang', 'es']);
  assert.equal(badLang.code, 2);
  assert.match(badLang.stderr, /--lang: Input should be 'en', 'de', 'fr'/);
  const missing = await runCli(['render', join(tmp, 'nope.xml')]);
  assert.equal(missing.code, 2);
  const help = await runCli(['render', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: einvoice render FILE/);
});
