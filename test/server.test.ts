import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { testKeys, testLicense } from './helpers.js';
import { runToExit, startServer, waitFor } from './spawned.js';

/** Every request of these tests has a bound: a hang is a failure, not a wait for the test's time limit. */
const FETCH_MS = 20_000;

test('the real server answers, logs JSON with request ids, and exits 0 on SIGTERM', async (t) => {
  const { child, url, lines } = await startServer(t);
  const res = await fetch(`${url}/health`, { headers: { 'x-request-id': 'trace-me-1' }, signal: AbortSignal.timeout(FETCH_MS) });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: 'ok' });
  // The access line is written after the answer (asynchronously): wait for it rather than for a fixed time.
  await waitFor(() => lines().some((l) => l.reqId === 'trace-me-1'), 10_000, 'the access-log line');
  const requestLines = lines().filter((l) => l.reqId === 'trace-me-1');
  assert.equal(requestLines.length, 1, 'one access-log line per request, carrying the request id');
  assert.equal(requestLines[0].msg, 'request completed');
  assert.equal(requestLines[0].statusCode, 200);
  assert.equal(requestLines[0].url, '/health');
  assert.equal(typeof requestLines[0].responseTime, 'number');
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});

test('a request in flight when SIGTERM arrives is finished before exit', async (t) => {
  const { child, url, port } = await startServer(t, { LICENSE_KEY: testLicense(), LICENSE_PUBLIC_KEY: testKeys.publicKeyPem });
  assert.equal(
    (await fetch(`${url}/v1/serialize`, { method: 'POST', signal: AbortSignal.timeout(FETCH_MS) })).status,
    422,
    'warm: the route has answered once',
  );
  // Start a multipart upload, signal, then finish the upload: the answer must still arrive. Expect: 100-continue:
  // the server's "100 Continue" says it has read the request head, so the request is in flight before the signal
  // however loaded the machine (a fixed pause guessed at that).
  const boundary = 'xyz';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nv\r\n--${boundary}--\r\n`;
  const socket = net.connect(port, '127.0.0.1');
  t.after(() => socket.destroy());
  let received = '';
  const arrived = (pattern: RegExp) =>
    waitFor(() => pattern.test(received), FETCH_MS, `${pattern} from the server (got ${JSON.stringify(received.slice(0, 200))})`, 10);
  socket.on('data', (d) => (received += d.toString('latin1')));
  socket.on('error', () => {});
  socket.write(
    `POST /v1/serialize HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await arrived(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
  const exit = once(child, 'exit');
  child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 150));
  socket.write(body);
  await arrived(/\r\n\r\nHTTP\/1\.1 \d{3} /);
  assert.match(received, /\r\n\r\nHTTP\/1\.1 422 /, 'the in-flight request got its real answer');
  const [code] = await exit;
  assert.equal(code, 0);
});

/** The pids of the server processes that answered the requests carrying this id prefix (access-log lines). */
function servedBy(lines: Record<string, unknown>[], idPrefix: string): Set<number> {
  return new Set(
    lines
      .filter((l) => typeof l.reqId === 'string' && l.reqId.startsWith(idPrefix) && l.msg === 'request completed')
      .map((l) => l.pid as number),
  );
}

/** `count` requests to /health, each on a new connection, tagged `idPrefix-<i>`; every one answered 200. */
async function spread(url: string, idPrefix: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/health`, {
      headers: { 'x-request-id': `${idPrefix}-${i}`, connection: 'close' },
      signal: AbortSignal.timeout(FETCH_MS),
    });
    assert.equal(res.status, 200);
  }
}

/**
 * Waits until the server process `pid` has answered a request. Its "Server listening" line is written before the
 * supervisor hears (over IPC) that it listens; a process killed in between counts as one that failed to start, so
 * a test about deaths of running processes kills only one that has served.
 */
async function servedByProcess(url: string, lines: () => Record<string, unknown>[], pid: number, idPrefix: string): Promise<void> {
  for (let i = 0; i < 40 && !servedBy(lines(), `${idPrefix}-`).has(pid); i++) {
    await spread(url, `${idPrefix}-${i}`, 2);
    await waitFor(() => servedBy(lines(), `${idPrefix}-${i}-`).size > 0, 10_000, `access lines of ${idPrefix}-${i}`);
  }
  assert.ok(servedBy(lines(), `${idPrefix}-`).has(pid), `process ${pid} answered a request`);
}

test('PROCESSES=2: two server processes share the port, a dead one is replaced, SIGTERM stops all and exits 0', async (t) => {
  const { child, url, lines, listening } = await startServer(t, { PROCESSES: '2' }, { listeners: 2 });
  // New connections are handed to the processes in turn: both answer. (Access lines are written after the
  // answers, asynchronously: waited for, not slept for.)
  await spread(url, 'spread', 8);
  await waitFor(
    () => servedBy(lines(), 'spread-').size === 2,
    10_000,
    `access lines of both processes: ${[...servedBy(lines(), 'spread-')]}`,
  );
  const pids = servedBy(lines(), 'spread-');
  assert.ok(!pids.has(child.pid!), 'the supervisor itself serves nothing');

  // A server process that dies is replaced.
  const [victim] = pids;
  process.kill(victim, 'SIGKILL');
  await waitFor(
    () => lines().some((l) => l.msg === 'a server process died: starting a new one') && listening().length === 3,
    120_000,
    'a replacement process',
  );
  await spread(url, 'after', 8);
  await waitFor(() => servedBy(lines(), 'after-').size === 2, 10_000, 'access lines of both processes after the replacement');
  assert.ok(!servedBy(lines(), 'after-').has(victim));

  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
  assert.equal(lines().filter((l) => /shutting down/.test(String(l.msg))).length, 2, 'both server processes shut down gracefully');
});

test('PROCESSES=2: more deaths within a minute than MAX_RESTARTS_PER_MINUTE and the supervisor stops the others and exits 1', async (t) => {
  const { child, url, lines, listening, exited } = await startServer(t, { PROCESSES: '2', MAX_RESTARTS_PER_MINUTE: '1' }, { listeners: 2 });
  await servedByProcess(url, lines, listening()[0], 'first');
  process.kill(listening()[0], 'SIGKILL');
  await waitFor(() => listening().length === 3, 120_000, 'a replacement process');
  assert.equal(child.exitCode, null, 'one death is within the limit');
  await servedByProcess(url, lines, listening()[2], 'second');
  process.kill(listening()[2], 'SIGKILL');
  const { code } = await exited;
  assert.equal(code, 1);
  assert.ok(lines().some((l) => l.msg === 'server processes keep dying: giving up' && l.restarts === 2));
});

test('PROCESSES=2 on a port already taken: the supervisor reports the start-up failure and exits 1 instead of restarting', async (t) => {
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  t.after(() => blocker.close());
  const port = (blocker.address() as net.AddressInfo).port;
  const { code, stdout } = await runToExit(t, { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', PROCESSES: '2' });
  assert.equal(code, 1);
  assert.match(stdout, /a server process failed to start/);
  assert.doesNotMatch(stdout, /starting a new one/);
});

test('PROCESSES: a whole number from 1 to 64 or auto; anything else stops the start with the variable named', async (t) => {
  const { code, stderr } = await runToExit(t, { PROCESSES: 'many' });
  assert.equal(code, 2);
  assert.match(stderr, /PROCESSES: must be a whole number/);
});
