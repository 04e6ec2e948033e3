/**
 * The work runner (src/validation/runner.ts) for /v1/xml and /v1/extract: a job done in a worker thread
 * answers exactly as the same job done inline, errors included (they cross the thread as data).
 * VALIDATION_INLINE_MAX_KB=0 sends every job to the pool.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { communityApp, multipart } from './helpers.js';
import { facturxPdf, fixturePath } from './fixtures.js';

let inline: FastifyInstance;
let pooled: FastifyInstance;

before(async () => {
  inline = await communityApp({ WORKERS: '0' });
  pooled = await communityApp({ WORKERS: '1', VALIDATION_INLINE_MAX_KB: '0' });
});
after(async () => {
  await inline.close();
  await pooled.close();
});

/** The parts of an answer that must agree (the request id differs by design). */
function answer(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    dropped: res.headers['x-dropped-fields'],
    body: res.body.replace(/"instance":"[^"]*"/g, ''),
  };
}

describe('POST /v1/xml through the pool', () => {
  const cases: [string, string][] = [
    ['valid metadata', JSON.stringify(DOMESTIC_EXAMPLE)],
    ['fields the profile cannot carry (X-Dropped-Fields)', JSON.stringify({ ...DOMESTIC_EXAMPLE, profile: 'minimum' })],
    ['not JSON (400 METADATA_NOT_JSON)', '{"invoice_number": '],
    ['a missing required field (422)', JSON.stringify({ ...DOMESTIC_EXAMPLE, seller: { ...DOMESTIC_EXAMPLE.seller, name: undefined } })],
    ['inconsistent totals (400 METADATA_INCONSISTENT)', JSON.stringify({ ...DOMESTIC_EXAMPLE, total_gross_amount: '2000.00' })],
  ];
  for (const [name, metadata] of cases) {
    test(`${name}: same answer as inline`, async () => {
      const request = {
        method: 'POST' as const,
        url: '/v1/xml',
        payload: new URLSearchParams({ metadata }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      };
      const before = pooled.validation.counts.pool;
      const a = answer(await inline.inject(request));
      const b = answer(await pooled.inject(request));
      assert.equal(pooled.validation.counts.pool, before + 1, 'the pooled app used a worker');
      assert.deepEqual(b, a);
    });
  }
  test('the answers are the expected ones', async () => {
    const statuses = [];
    for (const [, metadata] of cases) {
      const res = await pooled.inject({
        method: 'POST',
        url: '/v1/xml',
        payload: new URLSearchParams({ metadata }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      statuses.push([res.statusCode, res.statusCode === 200 ? undefined : (res.json().code ?? res.json().detail?.[0]?.loc?.join('.'))]);
    }
    assert.deepEqual(statuses, [
      [200, undefined],
      [200, undefined],
      [400, 'METADATA_NOT_JSON'],
      [422, 'body.metadata.seller.name'],
      [400, 'METADATA_INCONSISTENT'],
    ]);
  });
});

const FACTURX = await facturxPdf();

describe('POST /v1/extract through the pool', () => {
  const cases: [string, Buffer, string][] = [
    ['a Factur-X PDF', FACTURX, 'invoice.pdf'],
    ['a CII XML', readFileSync(fixturePath('cen/examples/cii/CII_example2.xml')), 'invoice.xml'],
    ['neither PDF nor XML (400 NOT_PDF_OR_XML)', Buffer.from('hello'), 'hello.txt'],
    ['malformed XML (400 XML_MALFORMED)', Buffer.from('<Invoice><a></Invoice>'), 'bad.xml'],
  ];
  for (const [name, bytes, filename] of cases) {
    test(`${name}: same answer as inline`, async () => {
      const form = multipart([{ name: 'file', value: bytes, filename }]);
      const before = pooled.validation.counts.pool;
      const a = answer(await inline.inject({ method: 'POST', url: '/v1/extract', ...form }));
      const b = answer(await pooled.inject({ method: 'POST', url: '/v1/extract', ...form }));
      assert.equal(pooled.validation.counts.pool, before + 1, 'the pooled app used a worker');
      assert.deepEqual(b, a);
      if (a.status === 400) assert.match(a.body, /"code":"(NOT_PDF_OR_XML|XML_MALFORMED)"/);
      else assert.equal(JSON.parse(a.body).xml_extracted, true);
    });
  }
});
