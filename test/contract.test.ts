/**
 * The API contract's shapes and values (../shared/spec/api-spec.md, read as docs/api.md states it), each point
 * against the real app: severities per edition, ValidationResult.format, BT-1-FORMAT, one finding per rule and
 * location, the licence's feature list, request checking (booleans, duplicate parts, serialize's early 403,
 * merge's 422 shape) and GET /.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/http/app.js';
import { loadConfig } from '../src/config.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { communityApp, multipart, proApp, testKeys, testLicense, type Part } from './helpers.js';
import { xmlFor } from './hybrid-fixtures.js';
import { facturxPdf } from './fixtures.js';

/** The XRechnung example without delivery date or billing period: only the information-level BR-DE-TMP-32 fires. */
function xrechnungWithInformation(): Buffer {
  const xml = Buffer.from(xmlFor('xrechnung'))
    .toString('utf8')
    .replace(/<ram:ActualDeliverySupplyChainEvent>[\s\S]*?<\/ram:ActualDeliverySupplyChainEvent>/g, '')
    .replace(/<ram:BillingSpecifiedPeriod>[\s\S]*?<\/ram:BillingSpecifiedPeriod>/g, '');
  return Buffer.from(xml);
}

/** The EN 16931 example with its invoice number (BT-1) replaced by `number`. */
function ciiWithNumber(number: string): Buffer {
  const xml = Buffer.from(xmlFor('en16931')).toString('utf8');
  const changed = xml.replace(/(<rsm:ExchangedDocument>\s*<ram:ID>)[^<]*(<\/ram:ID>)/, `$1${number}$2`);
  assert.notEqual(changed, xml);
  return Buffer.from(changed);
}

async function post(app: FastifyInstance, url: string, parts: Part[]) {
  const { payload, headers } = multipart(parts);
  return app.inject({ method: 'POST', url, payload, headers });
}

const file = (data: Buffer, filename = 'invoice.xml'): Part => ({ name: 'file', value: data, filename });

/** A pro app whose licence grants exactly `features`. */
function licensedApp(features: string[], env: Record<string, string> = {}): Promise<FastifyInstance> {
  return buildApp(
    loadConfig({ LOG_LEVEL: 'silent', LICENSE_KEY: testLicense({ features }), LICENSE_PUBLIC_KEY: testKeys.publicKeyPem, ...env }),
  );
}

test('information-level findings: a warning in community results, info in pro diagnostics; no other severity', async () => {
  const community = await communityApp();
  const pro = await proApp();
  try {
    const c = (await post(community, '/v1/validate', [file(xrechnungWithInformation())])).json();
    assert.equal(c.valid, true);
    assert.deepEqual(
      c.errors.map((e: { rule_id: string; severity: string }) => [e.rule_id, e.severity]),
      [['BR-DE-TMP-32', 'warning']],
    );
    const p = (await post(pro, '/v1/validate', [file(xrechnungWithInformation())])).json();
    assert.equal(p.valid, true);
    assert.deepEqual(
      p.diagnostics.map((d: { rule_id: string; severity: string }) => [d.rule_id, d.severity]),
      [['BR-DE-TMP-32', 'info']],
    );
    assert.equal(p.error_count, 0);
    assert.equal(p.warning_count, 0, 'an info diagnostic is not a warning');
  } finally {
    await community.close();
    await pro.close();
  }
});

test('ValidationResult.format: XRechnung CII is factur-x (the CIUS is the flavor), in both editions', async () => {
  for (const make of [communityApp, proApp]) {
    const app = await make();
    try {
      const body = (await post(app, '/v1/validate', [file(xrechnungWithInformation())])).json();
      assert.equal(body.format, 'factur-x');
      assert.equal(body.flavor, 'xrechnung');
    } finally {
      await app.close();
    }
  }
});

test('a blank invoice number is BT-1-FORMAT at the number, beside one BR-02; no rule id twice for one location', async () => {
  const community = await communityApp();
  const pro = await proApp();
  try {
    for (const blank of ['', '   ', '\n\t ']) {
      const c = (await post(community, '/v1/validate', [file(ciiWithNumber(blank))])).json();
      const ids = c.errors.map((e: { rule_id: string }) => e.rule_id);
      assert.equal(ids.filter((id: string) => id === 'BR-02').length, 1, JSON.stringify(ids));
      const bt1 = c.errors.filter((e: { rule_id: string }) => e.rule_id === 'BT-1-FORMAT');
      assert.equal(bt1.length, 1);
      assert.equal(bt1[0].severity, 'error');
      assert.equal(bt1[0].location, '/rsm:CrossIndustryInvoice[1]/rsm:ExchangedDocument[1]/ram:ID[1]');
      const keys = c.errors.map((e: { rule_id: string; location?: string }) => `${e.rule_id} ${e.location}`);
      assert.equal(new Set(keys).size, keys.length, `duplicates in ${JSON.stringify(keys)}`);
      const p = (await post(pro, '/v1/validate', [file(ciiWithNumber(blank))])).json();
      assert.equal(p.diagnostics.filter((d: { rule_id: string }) => d.rule_id === 'BT-1-FORMAT').length, 1);
      assert.equal(p.diagnostics.filter((d: { rule_id: string }) => d.rule_id === 'BR-02').length, 1);
    }
    // A number with text is no finding.
    const ok = (await post(community, '/v1/validate', [file(ciiWithNumber(' RE-1 '))])).json();
    assert.ok(!ok.errors.some((e: { rule_id: string }) => e.rule_id === 'BT-1-FORMAT' || e.rule_id === 'BR-02'));

    // /v1/xml refuses to write one: 422 naming BT-1-FORMAT.
    for (const blank of ['', '  ']) {
      const res = await community.inject({
        method: 'POST',
        url: '/v1/xml',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ metadata: JSON.stringify({ ...DOMESTIC_EXAMPLE, invoice_number: blank }) }).toString(),
      });
      assert.equal(res.statusCode, 422, res.body);
      const item = res.json().detail[0];
      assert.deepEqual(item.loc, ['body', 'metadata', 'invoice_number']);
      assert.equal(item.ctx.rule_id, 'BT-1-FORMAT');
    }
  } finally {
    await community.close();
    await pro.close();
  }
});

test('validate_pdfa that is no boolean is 422 in both editions', async () => {
  for (const make of [communityApp, proApp]) {
    const app = await make();
    try {
      const res = await post(app, '/v1/validate', [file(await facturxPdf(), 'a.pdf'), { name: 'validate_pdfa', value: 'banana' }]);
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail[0].loc, ['body', 'validate_pdfa']);
    } finally {
      await app.close();
    }
  }
});

test('a part given twice is 422 naming the field, never "first one wins"', async () => {
  const app = await proApp();
  const xml = Buffer.from(xmlFor('en16931'));
  try {
    for (const url of ['/v1/validate', '/v1/extract', '/v1/serialize']) {
      const res = await post(app, url, [file(xml), file(ciiWithNumber(''))]);
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`);
      assert.deepEqual(
        res.json().detail.map((d: { loc: string[] }) => d.loc),
        [['body', 'file']],
      );
      assert.equal(res.json().detail[0].type, 'duplicate_part');
    }
    const twice = await post(app, '/v1/validate', [
      file(xml),
      { name: 'validate_pdfa', value: 'true' },
      { name: 'validate_pdfa', value: 'false' },
    ]);
    assert.equal(twice.statusCode, 422);
    assert.deepEqual(twice.json().detail[0].loc, ['body', 'validate_pdfa']);
    // Merge: ProblemDetails (its 422 shape) naming the doubled part.
    for (const name of ['pdf', 'xml']) {
      const parts: Part[] = [
        { name: 'pdf', value: await facturxPdf(), filename: 'a.pdf' },
        { name: 'xml', value: xml, filename: 'a.xml' },
        name === 'pdf' ? { name: 'pdf', value: await facturxPdf(), filename: 'b.pdf' } : { name: 'xml', value: xml, filename: 'b.xml' },
      ];
      const res = await post(app, '/v1/merge', parts);
      assert.equal(res.statusCode, 422);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.equal(res.json().code, 'REQUEST_INVALID');
      assert.deepEqual(
        res.json().errors.map((e: { location: string }) => e.location),
        [`body.${name}`],
      );
    }
  } finally {
    await app.close();
  }
});

/** POST a body of `bytes` bytes to a listening server, streaming it; resolve with the status and body of the answer. */
function postLarge(base: string, path: string, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const boundary = 'x-large-boundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.xml"\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const fill = bytes - head.length - tail.length;
    const req = request(
      `${base}${path}`,
      {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(bytes) },
        timeout: 120_000, // no traffic for this long: a failure, not a wait for the test's time limit
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    // The server may answer before the upload is sent: an early answer is what is tested, so write errors are ignored.
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`${path}: no traffic for 120 s`)));
    req.write(head);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let left = fill;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

test('community /v1/serialize answers 403 LICENSE_REQUIRED before reading the body, also for an upload over the limit', async () => {
  const app = await communityApp({ MAX_UPLOAD_SIZE_MB: '1' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const res = await postLarge(base, '/v1/serialize', 3 * 1024 * 1024);
    assert.equal(res.status, 403, res.body);
    assert.equal(JSON.parse(res.body).code, 'LICENSE_REQUIRED');
    // The same upload to an endpoint that reads it is 413: the limit holds, serialize just answers first.
    const extract = await postLarge(base, '/v1/extract', 3 * 1024 * 1024);
    assert.equal(extract.status, 413);
  } finally {
    await app.close();
  }
});

test("the licence's feature list is honoured: a feature it lacks gets the community behaviour", async () => {
  const pdf = await facturxPdf();
  const xml = xrechnungWithInformation();
  const pdfa3b = (b: { layers_executed: string[]; layers_skipped: { layer: string; reason: string }[] }) =>
    b.layers_executed.includes('pdfa3b') ? 'ran' : (b.layers_skipped.find((l) => l.layer === 'pdfa3b')?.reason ?? 'absent');

  // serialize only: validate is the community report (no diagnostics, no info severity, PDF/A skipped).
  let app = await licensedApp(['serialize']);
  try {
    const v = (await post(app, '/v1/validate', [file(xml)])).json();
    assert.equal(v.validation_mode, 'community');
    assert.equal(v.diagnostics, undefined);
    assert.equal(v.errors[0].severity, 'warning');
    assert.equal(pdfa3b((await post(app, '/v1/validate', [file(pdf, 'a.pdf')])).json()), 'license_required');
    assert.equal((await post(app, '/v1/serialize', [file(xml)])).statusCode, 200);
  } finally {
    await app.close();
  }

  // smart diagnostics only: diagnostics, PDF/A skipped, serialize 403.
  app = await licensedApp(['smart_diagnostics']);
  try {
    const v = (await post(app, '/v1/validate', [file(xml)])).json();
    assert.equal(v.validation_mode, 'pro_diagnostics');
    assert.equal(v.diagnostics[0].severity, 'info');
    const p = (await post(app, '/v1/validate', [file(pdf, 'a.pdf')])).json();
    assert.equal(pdfa3b(p), 'license_required');
    assert.equal(p.pdfa_valid, null);
    const s = await post(app, '/v1/serialize', [file(xml)]);
    assert.equal(s.statusCode, 403);
    assert.equal(s.json().code, 'LICENSE_REQUIRED');
    assert.equal(s.json().feature, 'serialize');
  } finally {
    await app.close();
  }

  // PDF/A validation without the switch: the layer runs, validate_pdfa=false does not turn it off.
  app = await licensedApp(['smart_diagnostics', 'pdfa_validation']);
  try {
    assert.equal(pdfa3b((await post(app, '/v1/validate', [file(pdf, 'a.pdf'), { name: 'validate_pdfa', value: 'false' }])).json()), 'ran');
  } finally {
    await app.close();
  }

  // With the switch: validate_pdfa=false skips the layer, the default runs it.
  app = await licensedApp(['smart_diagnostics', 'pdfa_validation', 'validate_pdfa']);
  try {
    assert.equal(
      pdfa3b((await post(app, '/v1/validate', [file(pdf, 'a.pdf'), { name: 'validate_pdfa', value: 'false' }])).json()),
      'absent',
    );
    assert.equal(pdfa3b((await post(app, '/v1/validate', [file(pdf, 'a.pdf')])).json()), 'ran');
  } finally {
    await app.close();
  }
});

test('/diagnostics and /healthz list what runs: known licensed features, metrics only when enabled, the PDF/A checker as licensed', async () => {
  const env = { DIAGNOSTICS_TOKEN: 'diag' };
  const auth = { authorization: 'Bearer diag' };
  let app = await licensedApp(['serialize', 'metrics', 'no_such_feature'], env);
  try {
    const d = (await app.inject({ url: '/diagnostics', headers: auth })).json();
    assert.deepEqual([...d.features_enabled].sort(), ['convert', 'extract', 'merge', 'serialize', 'validate', 'xml']);
    const h = (await app.inject({ url: '/healthz' })).json();
    assert.match(h.checks.pdfa_validator.detail, /not licensed here/);
  } finally {
    await app.close();
  }
  app = await licensedApp(['metrics', 'pdfa_validation'], { ...env, METRICS_ENABLED: 'true', METRICS_TOKEN: 'm' });
  try {
    const d = (await app.inject({ url: '/diagnostics', headers: auth })).json();
    assert.ok(d.features_enabled.includes('metrics'));
    assert.ok(d.features_enabled.includes('pdfa_validation'));
    const h = (await app.inject({ url: '/healthz' })).json();
    assert.equal(h.checks.pdfa_validator.status, 'ok');
    assert.match(h.checks.pdfa_validator.detail, /runs as the pdfa3b layer of \/v1\/validate/);
  } finally {
    await app.close();
  }
});

test('GET / is a short page linking the API docs, the OpenAPI document and the health probe', async () => {
  const app = await communityApp();
  try {
    const res = await app.inject({ url: '/' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    for (const href of ['/docs', '/openapi.json', '/health']) {
      assert.match(res.body, new RegExp(`href="${href}"`));
      assert.notEqual((await app.inject({ url: href })).statusCode, 404, href);
    }
  } finally {
    await app.close();
  }
});
