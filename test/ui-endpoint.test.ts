/**
 * What the server does for the browser UI, over the real app: GET / and its assets (headers, caching, CSP, the
 * #license section), the routes beside it untouched, and the invoice XML itself from POST /v1/extract with
 * `Accept: application/xml` (the UI's XML tab for PDFs; the library's extractXml()). The UI in a browser:
 * test/ui-browser.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AVAILABLE_RENDER_FORMATS, extractXml } from '../src/lib/operations.js';
import { UI_ASSETS_DIR, UI_CSP } from '../src/http/routes/ui.js';
import { communityApp, multipart, proApp } from './helpers.js';
import { facturxPdf, FX_EN16931_XML, readFixture } from './fixtures.js';
import { makePdf } from './cli-fixtures.js';

let app: FastifyInstance;
before(async () => {
  app = await communityApp();
});
after(async () => {
  await app.close();
});

const assetPaths = (page: string) => [...page.matchAll(/(?:src|href)="(\/ui\/[0-9a-f]{16}\/[\w.-]+)"/g)].map((m) => m[1]);

test('GET /: the UI page with a strict CSP, revalidated by ETag; its #license section says how to get and set a key', async () => {
  const res = await app.inject({ url: '/' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(res.headers['content-security-policy'], UI_CSP);
  assert.match(UI_CSP, /script-src 'self';/);
  assert.doesNotMatch(UI_CSP, /unsafe-inline|unsafe-eval|\*/);
  assert.equal(res.headers['cache-control'], 'no-cache');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  const etag = String(res.headers.etag);
  assert.match(etag, /^"[0-9a-f]{24}"$/);
  const again = await app.inject({ url: '/', headers: { 'if-none-match': etag } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.body, '');
  // Filled in: version, edition, asset paths. No inline script or style (the CSP would refuse them).
  assert.doesNotMatch(res.body, /\{\{\w+\}\}/);
  // What /v1/render draws, so that the page offers no download this build cannot make.
  assert.match(res.body, new RegExp(`<body data-edition="community" data-render-formats="${AVAILABLE_RENDER_FORMATS.join(' ')}">`));
  assert.doesNotMatch(res.body, /<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son\w+=/i);
  // The license section LICENSE_URL's default points at.
  const license = res.body.slice(res.body.indexOf('<section id="license"'));
  assert.match(license, /LICENSE_KEY/);
  assert.match(license, /LICENSE_PUBLIC_KEY/);
  assert.match(license, /LICENSE_URL/);
  assert.match(license, /<strong>community<\/strong> edition/);
  const pro = await proApp();
  assert.match((await pro.inject({ url: '/' })).body, /<strong>pro<\/strong> edition/);
  await pro.close();
});

test('the UI assets: hashed URLs cached for a year, another hash revalidated, unknown names 404', async () => {
  const page = (await app.inject({ url: '/' })).body;
  const paths = assetPaths(page);
  assert.deepEqual(paths.map((p) => p.split('/').pop()).sort(), ['app.js', 'report.css', 'ui.css']);
  for (const path of paths) {
    const res = await app.inject({ url: path });
    assert.equal(res.statusCode, 200, path);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.body, readFileSync(join(UI_ASSETS_DIR, path.split('/').pop()!), 'utf8'));
    assert.match(String(res.headers['content-type']), path.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
  }
  // app.js imports its view module relative to itself: same hash.
  const hash = paths[0].split('/')[2];
  const view = await app.inject({ url: `/ui/${hash}/report-view.js` });
  assert.equal(view.statusCode, 200);
  const other = await app.inject({ url: '/ui/0123456789abcdef/app.js' });
  assert.equal(other.statusCode, 200);
  assert.equal(other.headers['cache-control'], 'no-cache');
  for (const url of [`/ui/${hash}/index.html`, `/ui/${hash}/../package.json`, `/ui/${hash}/tsconfig.json`, '/ui/nothex/app.js']) {
    const res = await app.inject({ url });
    assert.equal(res.statusCode, 404, url);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', url);
  }
  // A content change is a new hash (the hash covers every file and the page).
  assert.equal(hash.length, 16);
});

test('the routes beside the UI are unchanged, and the OpenAPI document does not list the UI', async () => {
  assert.equal((await app.inject({ url: '/health' })).json().status, 'ok');
  assert.equal((await app.inject({ url: '/docs' })).statusCode !== 404, true);
  const doc = (await app.inject({ url: '/openapi.json' })).json();
  assert.ok(doc.paths['/v1/extract']);
  assert.equal(doc.paths['/'], undefined);
  assert.equal(Object.keys(doc.paths).filter((p) => p.startsWith('/ui')).length, 0);
  assert.ok(doc.paths['/v1/extract'].post.responses['200'].content['application/xml'], 'the XML answer of extract is documented');
  assert.equal((await app.inject({ method: 'POST', url: '/' })).statusCode, 405);
});

async function extractAs(file: Buffer | string, filename: string, accept?: string) {
  const form = multipart([{ name: 'file', value: file, filename, contentType: 'application/octet-stream' }]);
  return app.inject({ method: 'POST', url: '/v1/extract', ...form, headers: { ...form.headers, ...(accept ? { accept } : {}) } });
}

test('POST /v1/extract with Accept: application/xml: the invoice XML byte for byte; the errors of extract', async () => {
  const xml = readFixture(FX_EN16931_XML);
  // A Factur-X PDF: its attachment as embedded.
  const fromPdf = await extractAs(await facturxPdf(), 'invoice.pdf', 'application/xml');
  assert.equal(fromPdf.statusCode, 200);
  assert.equal(fromPdf.headers['content-type'], 'application/xml');
  assert.equal(fromPdf.headers['content-disposition'], 'inline; filename="factur-x.xml"');
  assert.ok(fromPdf.rawPayload.equals(xml));
  // An XML upload: as sent. text/xml asks the same.
  const fromXml = await extractAs(xml, 'a/b/Rechnung Nr. 4 – März.xml', 'text/xml');
  assert.ok(fromXml.rawPayload.equals(xml));
  assert.equal(
    fromXml.headers['content-disposition'],
    `inline; filename="Rechnung Nr. 4 _ M_rz.xml"; filename*=UTF-8''${encodeURIComponent('Rechnung Nr. 4 – März.xml')}`,
  );
  // JSON stays the default, and wins when listed first.
  assert.equal((await extractAs(xml, 'a.xml')).json().xml_extracted, true);
  assert.equal((await extractAs(xml, 'a.xml', 'application/json, application/xml')).json().format_detected, 'factur-x');
  // A PDF without invoice XML: nothing to give, 422 NO_XML (the JSON answer is a 200 with NO_XML in errors).
  const plain = await extractAs(Buffer.from(await makePdf()), 'plain.pdf', 'application/xml');
  assert.equal(plain.statusCode, 422);
  assert.equal(plain.json().code, 'NO_XML');
  // Unusable uploads: the 400s of extract.
  const notes = await extractAs('just notes', 'notes.txt', 'application/xml');
  assert.equal(notes.statusCode, 400);
  assert.equal(notes.json().code, 'NOT_PDF_OR_XML');
  const broken = await extractAs('<rsm:CrossIndustryInvoice><open>', 'broken.xml', 'application/xml');
  assert.equal(broken.statusCode, 400);
  assert.equal(broken.json().code, 'XML_MALFORMED');
});

test('extractXml(): the library call behind it', async () => {
  const xml = readFixture(FX_EN16931_XML);
  const got = await extractXml(await facturxPdf());
  assert.equal(got.filename, 'factur-x.xml');
  assert.ok(Buffer.from(got.xml).equals(xml));
  assert.equal((await extractXml(xml)).filename, 'invoice.xml');
  await assert.rejects(extractXml(await makePdf()), { code: 'NO_XML', status: 422 });
  await assert.rejects(extractXml(Buffer.from('nope')), { code: 'NOT_PDF_OR_XML', status: 400 });
});
