/**
 * POST /v1/xml over HTTP (app.inject): form field `metadata` → application/xml; 400 for not-JSON and for
 * inconsistent amounts, 422 HTTPValidationError with locs into the metadata, X-Dropped-Fields header.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/http/app.js';
import { parseUrlEncoded } from '../src/http/routes/xml.js';
import { loadConfig } from '../src/config.js';
import { DOMESTIC_EXAMPLE, XRECHNUNG_EXAMPLE } from '../src/metadata/examples.js';
import { disposeLibxml2Validators, validateXsdBoth as validateXsd } from './libxml2-xsd.js';
import { SCENARIOS } from './invoice-scenarios.js';

let app: FastifyInstance;
before(async () => {
  app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }));
});
after(async () => {
  await app.close();
  disposeLibxml2Validators();
});

function postForm(metadata: string | undefined, extra: Record<string, string> = {}) {
  const form = new URLSearchParams(extra);
  if (metadata !== undefined) form.set('metadata', metadata);
  return app.inject({
    method: 'POST',
    url: '/v1/xml',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
}

describe('POST /v1/xml', () => {
  test('200 application/xml, valid EN16931 CII for the default profile', async () => {
    const res = await postForm(JSON.stringify(DOMESTIC_EXAMPLE));
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/xml/);
    assert.equal(res.headers['x-dropped-fields'], undefined);
    assert.ok(res.body.startsWith('<?xml'));
    assert.ok(res.body.includes('<ram:ID>urn:cen.eu:en16931:2017</ram:ID>'));
    assert.ok(res.body.includes('<ram:DuePayableAmount>1999.20</ram:DuePayableAmount>'));
    assert.equal(validateXsd(res.body, 'en16931').valid, true);
  });

  test('a quantity with a leading plus ("+5", which the schema allows) is read as 5 (was 500: big.js refuses "+")', async () => {
    const meta = structuredClone(DOMESTIC_EXAMPLE);
    meta.line_items![0].quantity = '+5';
    const res = await postForm(JSON.stringify(meta));
    assert.equal(res.statusCode, 200, res.body);
    // 5 × 450.00 + 6.5 × 120.00 = 3,030.00 net; 19 % VAT 575.70.
    assert.ok(res.body.includes('<ram:LineTotalAmount>2250.00</ram:LineTotalAmount>'), res.body.slice(0, 200));
    assert.ok(res.body.includes('<ram:DuePayableAmount>3605.70</ram:DuePayableAmount>'));
    assert.equal(validateXsd(res.body, 'en16931').valid, true);
  });

  test('every profile answers XML valid against its XSD', async () => {
    for (const profile of ['minimum', 'basic_wl', 'basic', 'en16931', 'extended'] as const) {
      const res = await postForm(JSON.stringify({ ...SCENARIOS.allowances_and_charges, profile }));
      assert.equal(res.statusCode, 200, `${profile}: ${res.body}`);
      assert.deepEqual(validateXsd(res.body, profile).errors, [], profile);
    }
    const xr = await postForm(JSON.stringify(XRECHNUNG_EXAMPLE));
    assert.equal(xr.statusCode, 200, xr.body);
    assert.ok(xr.body.includes('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0'));
    assert.equal(validateXsd(xr.body, 'xrechnung').valid, true);
  });

  test('fields the profile cannot carry are listed in X-Dropped-Fields', async () => {
    const res = await postForm(JSON.stringify({ ...DOMESTIC_EXAMPLE, profile: 'basic' }));
    assert.equal(res.statusCode, 200);
    const dropped = String(res.headers['x-dropped-fields']).split(', ');
    assert.deepEqual(dropped.sort(), ['line_items[].description', 'payment.credit_transfers[].bic', 'seller.contact']);
    assert.ok(!res.body.includes('On-site consulting'));
    assert.ok(!res.body.includes('BYLADEM1001'));
  });

  test('metadata that is not JSON → 400 problem details', async () => {
    const res = await postForm('{"invoice_number": "1",');
    assert.equal(res.statusCode, 400);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    const body = res.json();
    assert.equal(body.status, 400);
    assert.equal(body.code, 'METADATA_NOT_JSON');
  });

  test('missing metadata field → 422 at ["body","metadata"]', async () => {
    const res = await postForm(undefined, { other: 'x' });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json(), { detail: [{ loc: ['body', 'metadata'], msg: 'Field required', type: 'missing' }] });
  });

  test('shape errors → 422 HTTPValidationError with loc into the metadata', async () => {
    const meta = structuredClone(DOMESTIC_EXAMPLE) as Record<string, any>;
    delete meta.seller.name;
    meta.line_items[0].quantity = true; // a JSON number would do (read losslessly); a boolean is no decimal
    const res = await postForm(JSON.stringify(meta));
    assert.equal(res.statusCode, 422);
    const detail = res.json().detail as { loc: (string | number)[]; type: string }[];
    assert.deepEqual(
      detail.map((d) => [d.loc, d.type]),
      [
        [['body', 'metadata', 'seller', 'name'], 'missing'],
        [['body', 'metadata', 'line_items', 0, 'quantity'], 'string_type'],
      ],
    );
  });

  test('XRechnung without buyer reference → 422 pointing at it', async () => {
    const res = await postForm(JSON.stringify({ ...XRECHNUNG_EXAMPLE, buyer_reference: undefined }));
    assert.equal(res.statusCode, 422);
    assert.deepEqual(
      res.json().detail.map((d: { loc: unknown }) => d.loc),
      [['body', 'metadata', 'buyer_reference']],
    );
  });

  test('given totals inconsistent with the lines → 400 listing given and expected', async () => {
    const res = await postForm(JSON.stringify({ ...DOMESTIC_EXAMPLE, total_gross_amount: '2000.00' }));
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.code, 'METADATA_INCONSISTENT');
    assert.deepEqual(body.errors, [
      {
        field: 'total_gross_amount',
        message: 'total_gross_amount differs from the value computed from the invoice content',
        rule: 'BR-CO-15',
        given: '2000.00',
        expected: '1999.20',
      },
    ]);
    assert.match(body.detail, /given 2000\.00, expected 1999\.20/);
  });

  test('urlencoded parsing: "+" is a space, repeated names, broken escapes → 400', async () => {
    assert.deepEqual({ ...parseUrlEncoded('a=1+2%2B3&b=&a=x&c') }, { a: ['1 2+3', 'x'], b: '', c: '' });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/xml',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'metadata=%7B%ZZ',
    });
    assert.equal(res.statusCode, 400);
    const twice = await app.inject({
      method: 'POST',
      url: '/v1/xml',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `metadata=${encodeURIComponent(JSON.stringify(DOMESTIC_EXAMPLE))}&metadata=%7B%7D`,
    });
    assert.equal(twice.statusCode, 422);
    assert.deepEqual(twice.json().detail[0].loc, ['body', 'metadata']);
  });

  test('multipart/form-data is accepted as well', async () => {
    const boundary = '----einvoice-test';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="metadata"\r\n\r\n${JSON.stringify(DOMESTIC_EXAMPLE)}\r\n--${boundary}--\r\n`;
    const res = await app.inject({
      method: 'POST',
      url: '/v1/xml',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(res.body.includes('RE-2026-0042'));
  });

  test('the OpenAPI document publishes InvoiceMetadata and the urlencoded form', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    const doc = res.json();
    const schema = doc.components.schemas.InvoiceMetadata;
    assert.ok(schema, 'InvoiceMetadata in components.schemas');
    assert.ok(schema.properties.line_items && schema.properties.profile);
    assert.ok(Array.isArray(schema.examples) && schema.examples.length > 0);
    const body = doc.paths['/v1/xml'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
    assert.deepEqual(body.required, ['metadata']);
  });
});
