import { test } from 'node:test';
import assert from 'node:assert/strict';
import { communityApp, multipart, proApp } from './helpers.js';

function assertProblem(res: { statusCode: number; headers: Record<string, unknown>; json: () => any }, status: number) {
  assert.equal(res.statusCode, status);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json();
  assert.equal(body.status, status);
  assert.equal(typeof body.title, 'string');
  assert.ok('type' in body && 'detail' in body && 'instance' in body);
  return body;
}

test('unknown routes answer 404 ProblemDetails', async () => {
  const app = await communityApp();
  const body = assertProblem(await app.inject({ url: '/v1/nothing-here?x=1' }), 404);
  assert.equal(body.instance, '/v1/nothing-here');
  assert.equal(body.type, 'about:blank');
  await app.close();
});

test('a known path with the wrong method answers 405 with Allow', async () => {
  const app = await communityApp();
  const res = await app.inject({ method: 'DELETE', url: '/health' });
  assertProblem(res, 405);
  assert.match(String(res.headers.allow), /GET/);
  await app.close();
});

test('/v1/serialize in community mode is 403 LICENSE_REQUIRED with a license link', async () => {
  const app = await communityApp();
  const form = multipart([{ name: 'file', value: '<x/>', filename: 'a.xml', contentType: 'application/xml' }]);
  const body = assertProblem(await app.inject({ method: 'POST', url: '/v1/serialize', ...form }), 403);
  assert.equal(body.code, 'LICENSE_REQUIRED');
  assert.equal(body.extensions.code, 'LICENSE_REQUIRED');
  // The link leads somewhere real: the service's own start page, whose #license section says how to get a key.
  assert.equal(body.license_url, '/#license');
  const page = await app.inject({ url: body.license_url.split('#')[0] });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /id="license"/);
  await app.close();
  // An operator points it at the vendor's page.
  const vendor = await communityApp({ LICENSE_URL: 'https://vendor.test/buy' });
  const again = assertProblem(await vendor.inject({ method: 'POST', url: '/v1/serialize', ...form }), 403);
  assert.equal(again.license_url, 'https://vendor.test/buy');
  await vendor.close();
});

test('a missing multipart file answers 422 exactly like FastAPI', async () => {
  const app = await proApp();
  const form = multipart([{ name: 'other', value: 'x' }]);
  const res = await app.inject({ method: 'POST', url: '/v1/serialize', ...form });
  assert.equal(res.statusCode, 422);
  assert.deepEqual(res.json(), { detail: [{ loc: ['body', 'file'], msg: 'Field required', type: 'missing' }] });
  const notMultipart = await app.inject({ method: 'POST', url: '/v1/serialize', payload: { file: 'x' } });
  assert.equal(notMultipart.statusCode, 422);
  assert.deepEqual(notMultipart.json().detail[0].loc, ['body', 'file']);
  const textInsteadOfFile = await app.inject({
    method: 'POST',
    url: '/v1/serialize',
    ...multipart([{ name: 'file', value: 'just text' }]),
  });
  assert.equal(textInsteadOfFile.statusCode, 422);
  assert.equal(textInsteadOfFile.json().detail[0].type, 'value_error');
  await app.close();
});

test('an upload over MAX_UPLOAD_SIZE_MB answers 413 ProblemDetails and the service keeps serving', async () => {
  const app = await proApp({ MAX_UPLOAD_SIZE_MB: '1' });
  const big = Buffer.alloc(1024 * 1024 + 10, 0x41);
  const form = multipart([{ name: 'file', value: big, filename: 'big.xml', contentType: 'application/xml' }]);
  const body = assertProblem(await app.inject({ method: 'POST', url: '/v1/serialize', ...form }), 413);
  assert.equal(body.code, 'UPLOAD_TOO_LARGE');
  assert.equal(body.max_upload_size_mb, 1);
  assert.equal((await app.inject({ url: '/health' })).statusCode, 200);
  await app.close();
});

test('an overloaded worker pool answers 503 SERVICE_BUSY with Retry-After', async () => {
  const { PoolBusyError } = await import('../src/workers/gate.js');
  const app = await communityApp();
  app.get('/__busy', async () => {
    throw new PoolBusyError();
  });
  const res = await app.inject({ url: '/__busy' });
  const body = assertProblem(res, 503);
  assert.equal(body.code, 'SERVICE_BUSY');
  assert.equal(res.headers['retry-after'], '1');
  await app.close();
});

test('a 500 never leaks the internal message or a stack trace', async () => {
  const app = await communityApp();
  app.get('/__boom', async () => {
    throw new Error('secret database password in /internal/path.ts:42');
  });
  const res = await app.inject({ url: '/__boom' });
  const body = assertProblem(res, 500);
  assert.doesNotMatch(res.body, /secret|internal\/path|at .*\.ts/);
  assert.equal(body.title, 'Internal Server Error');
  await app.close();
});

test('malformed JSON bodies answer 400 ProblemDetails', async () => {
  const app = await communityApp();
  app.post('/__json', async () => ({ ok: true }));
  assertProblem(
    await app.inject({ method: 'POST', url: '/__json', headers: { 'content-type': 'application/json' }, payload: '{"a":' }),
    400,
  );
  await app.close();
});
