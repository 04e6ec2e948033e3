import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { testKeys, testLicense } from './helpers.js';

/** Start the real entry point on an ephemeral loopback port; resolve with its base URL. */
async function startServer(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  return { child, url, logs: () => out };
}

test('the real server answers, logs JSON with request ids, and exits 0 on SIGTERM', async () => {
  const { child, url, logs } = await startServer();
  const res = await fetch(`${url}/health`, { headers: { 'x-request-id': 'trace-me-1' } });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: 'ok' });
  await new Promise((r) => setTimeout(r, 100));
  const lines = logs().trim().split('\n').map((l) => JSON.parse(l));
  const requestLines = lines.filter((l) => l.reqId === 'trace-me-1');
  assert.equal(requestLines.length, 1, 'one access-log line per request, carrying the request id');
  assert.equal(requestLines[0].msg, 'request completed');
  assert.equal(requestLines[0].statusCode, 200);
  assert.equal(requestLines[0].url, '/health');
  assert.equal(typeof requestLines[0].responseTime, 'number');
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});

test('a request in flight when SIGTERM arrives is finished before exit', async () => {
  const { child, url } = await startServer({ LICENSE_KEY: testLicense(), LICENSE_PUBLIC_KEY: testKeys.publicKeyPem });
  // Start a slow multipart upload, signal, then finish the upload: the answer must still arrive.
  const boundary = 'xyz';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\n`;
  const tail = `v\r\n--${boundary}--\r\n`;
  const body = new ReadableStream({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode(head));
      await new Promise((r) => setTimeout(r, 150));
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 150));
      controller.enqueue(new TextEncoder().encode(tail));
      controller.close();
    },
  });
  const res = await fetch(`${url}/v1/serialize`, {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  } as RequestInit);
  assert.equal(res.status, 422, 'the in-flight request got its real answer');
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});
