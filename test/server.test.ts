import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { testKeys, testLicense } from './helpers.js';

/** Start the real entry point on an ephemeral loopback port; resolve with its base URL once `listeners` processes listen. */
async function startServer(env: Record<string, string> = {}, listeners = 1) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const all = [...out.matchAll(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/g)];
      const m = all.length >= listeners ? all[0] : null;
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
  const lines = logs()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
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
  assert.equal((await fetch(`${url}/v1/serialize`, { method: 'POST' })).status, 422, 'warm: the route has answered once');
  // Start a slow multipart upload, signal, then finish the upload: the answer must still arrive.
  const boundary = 'xyz';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\n`;
  const tail = `v\r\n--${boundary}--\r\n`;
  const body = new ReadableStream({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode(head));
      // Long enough for the server to have read the headers even on a loaded machine (else it is not in flight).
      await new Promise((r) => setTimeout(r, 600));
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

/** Access-log lines (one JSON object per line) of the requests carrying this id prefix. */
function accessLines(logs: string, idPrefix: string): { pid: number; reqId: string }[] {
  return logs
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((l) => typeof l.reqId === 'string' && l.reqId.startsWith(idPrefix) && l.msg === 'request completed');
}

test('PROCESSES=2: two server processes share the port, a dead one is replaced, SIGTERM stops all and exits 0', async () => {
  const { child, url, logs } = await startServer({ PROCESSES: '2' }, 2);
  // New connections are handed to the processes in turn: both answer.
  for (let i = 0; i < 8; i++) {
    const res = await fetch(`${url}/health`, {
      headers: { 'x-request-id': `spread-${i}`, connection: 'close' },
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(res.status, 200);
  }
  await new Promise((r) => setTimeout(r, 200));
  const pids = new Set(accessLines(logs(), 'spread-').map((l) => l.pid));
  assert.equal(pids.size, 2, `requests served by ${[...pids].join(', ')}`);
  assert.ok(!pids.has(child.pid!), 'the supervisor itself serves nothing');

  // A server process that dies is replaced.
  const [victim] = pids;
  process.kill(victim, 'SIGKILL');
  const deadline = Date.now() + 30_000;
  while (!/a server process died: starting a new one/.test(logs()) || [...logs().matchAll(/Server listening at/g)].length < 3) {
    assert.ok(Date.now() < deadline, `no replacement process: ${logs().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  for (let i = 0; i < 8; i++) {
    const res = await fetch(`${url}/health`, {
      headers: { 'x-request-id': `after-${i}`, connection: 'close' },
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(res.status, 200);
  }
  await new Promise((r) => setTimeout(r, 200));
  const after = new Set(accessLines(logs(), 'after-').map((l) => l.pid));
  assert.equal(after.size, 2);
  assert.ok(!after.has(victim));

  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
  const lines = logs()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.filter((l) => /shutting down/.test(l.msg)).length, 2, 'both server processes shut down gracefully');
});

test('PROCESSES=2 on a port already taken: the supervisor reports the start-up failure and exits 1 instead of restarting', async () => {
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', PROCESSES: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const [code] = await once(child, 'exit');
    assert.equal(code, 1);
    assert.match(out, /a server process failed to start/);
    assert.doesNotMatch(out, /starting a new one/);
  } finally {
    blocker.close();
  }
});

test('PROCESSES: a whole number from 1 to 64 or auto; anything else stops the start with the variable named', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PROCESSES: 'many' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const [code] = await once(child, 'exit');
  assert.equal(code, 2);
  assert.match(err, /PROCESSES: must be a whole number/);
});
