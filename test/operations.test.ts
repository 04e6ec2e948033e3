import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { communityApp, multipart, proApp } from './helpers.js';
import { fixturePath } from './fixtures.js';

test('GET /health answers 200 at once', async () => {
  const app = await communityApp();
  const res = await app.inject({ url: '/health' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { status: 'ok' });
  assert.ok(res.headers['x-request-id'], 'every answer carries a request id');
  await app.close();
});

test('a sane caller request id is echoed, an unsafe one replaced', async () => {
  const app = await communityApp();
  assert.equal((await app.inject({ url: '/health', headers: { 'x-request-id': 'abc-123' } })).headers['x-request-id'], 'abc-123');
  const replaced = (await app.inject({ url: '/health', headers: { 'x-request-id': 'bad id\u0007' } })).headers['x-request-id'];
  assert.notEqual(replaced, 'bad id\u0007');
  await app.close();
});

test('GET /healthz reports every subsystem and is ready', async () => {
  const app = await communityApp();
  const res = await app.inject({ url: '/healthz' });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.status, 'ready');
  for (const name of ['http', 'xml_parser', 'xsd_engine', 'pdf_engine', 'validation_engine', 'pdfa_validator']) {
    assert.ok(body.checks[name], `check ${name} is reported`);
    assert.equal(typeof body.checks[name].critical, 'boolean');
  }
  assert.equal(body.checks.http.status, 'ok');
  assert.equal(body.checks.xml_parser.status, 'ok');
  assert.equal(body.checks.xsd_engine.status, 'ok');
  assert.equal(body.checks.pdf_engine.status, 'ok');
  assert.equal(body.checks.validation_engine.status, 'ok');
  assert.match(body.checks.validation_engine.detail, /worker pool of 1 thread\(s\) for invoices over 128 KB/);
  assert.equal(app.validation.counts.pool, 1, 'the first check went through a worker, not inline');
  assert.match(body.checks.validation_engine.detail, /checked through a worker/);
  assert.equal(body.checks.pdfa_validator.status, 'ok');
  assert.match(body.checks.pdfa_validator.detail, /native PDF\/A-2b\/3b checker/);
  assert.equal(body.checks.pdfa_validator.critical, false);
  await app.close();
});

test('GET /healthz is 503 when a critical subsystem fails, 200 when only a non-critical one does', async () => {
  const app = await communityApp();
  app.health.add({ name: 'optional_thing', critical: false, check: () => ({ ok: false, detail: 'gone' }) });
  assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
  app.health.add({
    name: 'broken_engine',
    critical: true,
    check: () => {
      throw new Error('engine exploded');
    },
  });
  const res = await app.inject({ url: '/healthz' });
  assert.equal(res.statusCode, 503);
  assert.equal(res.json().status, 'not_ready');
  assert.deepEqual(res.json().checks.broken_engine, { status: 'unavailable', critical: true, detail: 'engine exploded' });
  await app.close();
});

test('GET /diagnostics is 403 while DIAGNOSTICS_TOKEN is unset', async () => {
  const app = await communityApp();
  const res = await app.inject({ url: '/diagnostics', headers: { authorization: 'Bearer anything' } });
  assert.equal(res.statusCode, 403);
  assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(res.json().code, 'DIAGNOSTICS_DISABLED');
  await app.close();
});

test('GET /diagnostics is 401 without the token and with a wrong one', async () => {
  const app = await communityApp({ DIAGNOSTICS_TOKEN: 's3cret' });
  for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 's3cret' }, { authorization: 'Basic s3cret' }]) {
    const res = await app.inject({ url: '/diagnostics', headers });
    assert.equal(res.statusCode, 401, JSON.stringify(headers));
    assert.equal(res.json().status, 401);
    assert.match(res.headers['www-authenticate'] as string, /^Bearer/);
  }
  await app.close();
});

test('GET /diagnostics with the token fills every required field truthfully', async () => {
  const app = await communityApp({ DIAGNOSTICS_TOKEN: 's3cret', WORKERS: '2', MAX_UPLOAD_SIZE_MB: '7' });
  const res = await app.inject({ url: '/diagnostics', headers: { authorization: 'Bearer s3cret' } });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  for (const field of [
    'version',
    'git_hash',
    'build_date',
    'python_version',
    'dependencies',
    'runtime_config',
    'environment',
    'memory_status',
    'features_enabled',
    'uptime_seconds',
  ]) {
    assert.ok(field in body, field);
  }
  assert.equal(body.version, '1.7.0');
  assert.equal(body.python_version, process.version, 'python_version carries the Node.js version');
  assert.equal(body.environment.python_version, process.version);
  assert.deepEqual(body.runtime_config.mode, 'community');
  assert.equal(body.runtime_config.workers, 2);
  assert.equal(body.runtime_config.processes, 1);
  assert.equal(body.runtime_config.process_id, process.pid);
  assert.equal(body.runtime_config.max_upload_size_mb, 7);
  const fastify = body.dependencies.find((d: { name: string }) => d.name === 'fastify');
  assert.match(fastify.version, /^5\.\d+\.\d+$/, 'versions are read from the installed packages');
  assert.ok(body.memory_status.total_mb > 0 && body.memory_status.process_mb > 0);
  assert.ok(body.memory_status.percent_used >= 0 && body.memory_status.percent_used <= 100);
  assert.deepEqual(body.features_enabled.slice().sort(), ['convert', 'extract', 'merge', 'validate', 'xml']);
  assert.ok(body.uptime_seconds >= 0);
  await app.close();
});

test('GET /metrics is 403 LICENSE_REQUIRED in community mode, even with a token', async () => {
  const app = await communityApp({ METRICS_ENABLED: 'true', METRICS_TOKEN: 'm' });
  const res = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer m' } });
  assert.equal(res.statusCode, 403);
  assert.equal(res.json().code, 'LICENSE_REQUIRED');
  await app.close();
});

test('GET /metrics in pro mode is 403 unless enabled with a token', async () => {
  const envs: Record<string, string>[] = [{}, { METRICS_ENABLED: 'true' }, { METRICS_TOKEN: 'm' }];
  for (const env of envs) {
    const app = await proApp(env);
    const res = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer m' } });
    assert.equal(res.statusCode, 403, JSON.stringify(env));
    assert.equal(res.json().code, 'METRICS_DISABLED');
    await app.close();
  }
});

test('GET /metrics in pro mode with METRICS_ENABLED and token: 401 on a wrong token, Prometheus text on the right one', async () => {
  const app = await proApp({ METRICS_ENABLED: 'true', METRICS_TOKEN: 'm3trics' });
  await app.inject({ url: '/health' });
  await app.inject({ url: '/no-such-route' });
  assert.equal((await app.inject({ url: '/metrics' })).statusCode, 401);
  assert.equal((await app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope' } })).statusCode, 401);
  const res = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer m3trics' } });
  assert.equal(res.statusCode, 200);
  assert.match(res.headers['content-type'] as string, /^text\/plain/);
  assert.match(res.body, /http_requests_total\{method="GET",route="\/health",status_code="200"\} 1/);
  assert.match(res.body, /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/health",status_code="200"\}/);
  assert.match(res.body, /route="unmatched",status_code="404"/);
  assert.match(res.body, /process_cpu_user_seconds_total/);
  assert.match(res.body, /# TYPE invoice_validations_total counter/);
  await app.close();
});

test('GET /metrics counts validations by outcome in pro mode with METRICS_ENABLED', async () => {
  const app = await proApp({ METRICS_ENABLED: 'true', METRICS_TOKEN: 'm3trics' });
  const valid = readFileSync(fixturePath('cen/examples/cii/CII_example2.xml'));
  const invalid = Buffer.from(valid.toString('utf8').replace(/<ram:TypeCode>380<\/ram:TypeCode>/, '<ram:TypeCode>999</ram:TypeCode>'));
  assert.notDeepEqual(invalid, valid);
  for (const [file, status] of [
    [valid, 200],
    [invalid, 200],
    [valid, 200],
    [Buffer.from('neither a PDF nor XML'), 400],
  ] as const) {
    const form = multipart([{ name: 'file', value: file, filename: 'invoice.xml', contentType: 'application/xml' }]);
    assert.equal((await app.inject({ method: 'POST', url: '/v1/validate', ...form })).statusCode, status);
  }
  const res = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer m3trics' } });
  assert.match(res.body, /invoice_validations_total\{outcome="valid"\} 2/);
  assert.match(res.body, /invoice_validations_total\{outcome="invalid"\} 1/);
  assert.match(res.body, /invoice_validations_total\{outcome="unreadable"\} 1/);
  await app.close();
});
