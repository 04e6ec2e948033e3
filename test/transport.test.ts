/**
 * The transport's limits on the real server process (node --import tsx src/main.ts on an ephemeral port):
 * stalled and trickling bodies, header and body size refusals, the memory gate, and shutdown under load
 * (readiness first, no request in flight lost, bounded by SHUTDOWN_GRACE_S even with a stalled upload),
 * also with PROCESSES=2. Timeouts are set to a few seconds through the environment, so the suite stays fast.
 * Requests go over raw sockets where the test needs to control every byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { buildInvoiceXml } from '../src/metadata/build.js';
import { SCENARIOS } from './invoice-scenarios.js';
import { multipart } from './helpers.js';
import { MEMORY_EXPANSION_FACTOR, MemoryGate, REQUEST_OVERHEAD_BYTES } from '../src/http/memory-gate.js';
import { killUnderLoad, LOST_CONNECTION_BOUND_MS } from './kill-under-load.js';
import { loadFactor, startServer, waitFor } from './spawned.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ms from the connection to the complete answer */
  ms: number;
}

/**
 * One HTTP/1.1 connection driven by hand: `write` sends bytes, `response()` resolves with the next complete
 * answer (status, headers, body by Content-Length), `closed` when the server has closed the connection.
 */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  let buffer = Buffer.alloc(0);
  const waiting: ((r: RawResponse) => void)[] = [];
  const ready: RawResponse[] = [];
  let error: string | undefined;
  const parse = () => {
    for (;;) {
      const headEnd = buffer.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const lines = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < headEnd + 4 + length) return;
      const answer = {
        status: Number(lines[0].split(' ')[1]),
        headers,
        body: buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8'),
        ms: Date.now() - started,
      };
      buffer = buffer.subarray(headEnd + 4 + length);
      const w = waiting.shift();
      if (w) w(answer);
      else ready.push(answer);
    }
  };
  socket.on('data', (d) => {
    buffer = Buffer.concat([buffer, d]);
    parse();
  });
  socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  return {
    socket,
    closed,
    error: () => error,
    write: (data: string | Buffer) => new Promise<void>((resolve) => socket.write(data, () => resolve())),
    response: (timeoutMs = 20_000) =>
      new Promise<RawResponse>((resolve, reject) => {
        const r = ready.shift();
        if (r) return resolve(r);
        const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms (${error ?? 'no error'})`)), timeoutMs);
        waiting.push((answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        void closed.then(() => setTimeout(() => reject(new Error(`connection closed without an answer (${error ?? 'no error'})`)), 50));
      }),
  };
}

/** A multipart upload of `file` to `path`: the request head and the body, for sending in pieces. */
function upload(path: string, file: Buffer | string, filename = 'invoice.xml', extraHeaders = '') {
  const form = multipart([{ name: 'file', value: file, filename, contentType: 'application/xml' }]);
  const head = `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: ${form.headers['content-type']}\r\nContent-Length: ${form.payload.length}\r\n${extraHeaders}\r\n`;
  return { head, body: form.payload };
}

function assertProblem(r: RawResponse, status: number, code: string): Record<string, unknown> {
  assert.equal(r.status, status, r.body);
  assert.match(r.headers['content-type'], /^application\/problem\+json/);
  const body = JSON.parse(r.body);
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(typeof body.detail, 'string');
  return body;
}

const INVOICE = buildInvoiceXml(SCENARIOS.domestic).xml;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Every request of these tests has a bound: a hang is a failure, not a wait for the test's time limit. */
const FETCH_MS = 20_000;
const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, signal: AbortSignal.timeout(FETCH_MS) });

test('a body that stops arriving is answered 408 after BODY_TIMEOUT_S, one trickling in is cut at REQUEST_TIMEOUT_S, an idle connection is closed; the server serves on', async (ctx) => {
  const server = await startServer(ctx, { BODY_TIMEOUT_S: '1', REQUEST_TIMEOUT_S: '3' });
  // Stalled: headers and the start of the body, then nothing.
  const stalled = connect(server.port);
  const { head, body } = upload('/v1/validate', INVOICE);
  await stalled.write(head + body.subarray(0, 100).toString('latin1'));
  // Trickling: a chunked body at 1 byte per 250 ms: progress, so only the total deadline stops it.
  const trickle = connect(server.port);
  await trickle.write(
    `POST /v1/validate HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n`,
  );
  const drip = setInterval(() => trickle.socket.writable && trickle.socket.write('1\r\nx\r\n'), 250);
  // Idle: a connection that never sends a byte.
  const idle = connect(server.port);

  const s = await stalled.response();
  const body408 = assertProblem(s, 408, 'BODY_TIMEOUT');
  assert.equal(body408.body_timeout_s, 1);
  assert.equal(body408.instance, '/v1/validate');
  assert.equal(s.headers.connection, 'close');
  // Not before the limit, whatever the load; soon after it on a machine with a core to spare (scaled when loaded).
  const f = loadFactor();
  assert.ok(s.ms >= 900 && s.ms < 3_000 * f, `cut after ${s.ms} ms (load factor ${f.toFixed(1)})`);
  assert.ok((await stalled.closed) < 4_000 * f, 'the connection is closed after the answer');
  assert.ok((await idle.closed) < 3_000 * f, 'an idle connection is closed after BODY_TIMEOUT_S');

  // Meanwhile the server answers others.
  const health = await get(`${server.url}/health`);
  assert.equal(health.status, 200);

  const t = await trickle.response();
  clearInterval(drip);
  const bodyTotal = assertProblem(t, 408, 'REQUEST_TIMEOUT');
  assert.equal(bodyTotal.request_timeout_s, 3);
  assert.ok(t.ms >= 2_900 && t.ms < 5_500 * loadFactor(), `trickle cut after ${t.ms} ms`);
  await trickle.closed;

  // A complete upload sent slowly but with progress under the limits is answered normally. The pauses are the
  // client's: measured, since a loaded machine can stretch them (past BODY_TIMEOUT_S the 408 would be right).
  const slow = connect(server.port);
  await slow.write(head);
  const began = Date.now();
  let last = began;
  let longestPause = 0;
  for (let i = 0; i < body.length; i += Math.ceil(body.length / 4)) {
    await slow.write(body.subarray(i, i + Math.ceil(body.length / 4)));
    longestPause = Math.max(longestPause, Date.now() - last);
    await sleep(100);
    last = Date.now();
  }
  const ok = await slow.response();
  if (longestPause < 800 && Date.now() - began < 2_500) {
    assert.equal(ok.status, 200, ok.body);
    assert.equal(JSON.parse(ok.body).valid, true);
  } else {
    assert.ok([200, 408].includes(ok.status), `pauses of up to ${longestPause} ms: ${ok.body}`);
  }
  slow.socket.destroy();
});

test('transport refusals are ProblemDetails: 431 headers too large, 400 broken HTTP, 413 over MAX_UPLOAD_SIZE_MB with and without Content-Length, answered before the body is read', async (t) => {
  const server = await startServer(t, { MAX_UPLOAD_SIZE_MB: '1' });
  const big = connect(server.port);
  await big.write(`GET /health HTTP/1.1\r\nHost: test\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`);
  const b = assertProblem(await big.response(), 431, 'HEADERS_TOO_LARGE');
  assert.match(String(b.detail), /16 KB/);

  const broken = connect(server.port);
  await broken.write('THIS IS NOT HTTP\r\n\r\n');
  assertProblem(await broken.response(), 400, 'BAD_HTTP_REQUEST');

  // Declared too large: answered from the headers alone, not one byte of the body sent.
  const declared = connect(server.port);
  await declared.write(
    `POST /v1/validate HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${5 * 1024 * 1024}\r\n\r\n`,
  );
  const d = assertProblem(await declared.response(5_000), 413, 'UPLOAD_TOO_LARGE');
  assert.match(String(d.detail), /1 MB \(MAX_UPLOAD_SIZE_MB\)/);
  declared.socket.destroy();

  // Chunked, no length: answered once the limit is passed, while the client is still sending (no final chunk).
  const chunked = connect(server.port);
  await chunked.write(
    `POST /v1/validate HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n`,
  );
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  let sent = 0;
  const answer = chunked.response(10_000);
  let answered = false;
  void answer.then(
    () => (answered = true),
    () => (answered = true),
  );
  while (!answered && sent < 4 * 1024 * 1024) {
    await chunked.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
    sent += chunk.length;
    await sleep(5);
  }
  assertProblem(await answer, 413, 'UPLOAD_TOO_LARGE');
  assert.ok(sent < 2 * 1024 * 1024, `answered after ${sent} bytes of a body without end`);
  chunked.socket.destroy();

  assert.equal((await get(`${server.url}/health`)).status, 200);
});

test('memory gate: uploads whose reservations do not fit under MAX_MEMORY_MB are answered 503 with Retry-After at once; small ones and later ones pass', async (t) => {
  // 640 MB ceiling: a 384 MB budget beside the 256 MB baseline; a declared 16 MB upload reserves 192 MB (factor 12).
  const server = await startServer(t, { MAX_MEMORY_MB: '640', MAX_UPLOAD_SIZE_MB: '20' });
  const length = 16 * 1024 * 1024;
  const head = `POST /v1/validate HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${length}\r\n\r\n`;
  // Expect: 100-continue: the server's "100 Continue" says it has read the request head, so both reservations are
  // made before the third request is sent (a pause of 200 ms guessed at that).
  const expecting = head.replace('\r\n\r\n', '\r\nExpect: 100-continue\r\n\r\n');
  const first = connect(server.port);
  await first.write(expecting);
  assert.equal((await first.response()).status, 100);
  await first.write('--b\r\n'); // in flight, holding its reservation
  const second = connect(server.port);
  await second.write(expecting);
  assert.equal((await second.response()).status, 100);

  const third = connect(server.port);
  await third.write(head); // only the headers: the answer must not wait for the body
  const refused = await third.response(5_000);
  assertProblem(refused, 503, 'MEMORY_BUSY');
  assert.equal(refused.headers['retry-after'], '2');
  assert.match(JSON.parse(refused.body).detail, /MAX_MEMORY_MB=640/);
  third.socket.destroy();

  // A typical invoice still fits beside them.
  const small = upload('/v1/validate', INVOICE);
  const smallRes = connect(server.port);
  await smallRes.write(Buffer.concat([Buffer.from(small.head), small.body]));
  assert.equal((await smallRes.response()).status, 200);
  smallRes.socket.destroy();

  // The first gives up; its reservation is given back, and the same upload is admitted (read whole: 400, not multipart).
  // The server sees the close a moment after the client: until it has, the same upload is refused (503), so it is
  // offered again until admitted.
  first.socket.destroy();
  await first.closed;
  let admitted: RawResponse;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const fourth = connect(server.port);
    await fourth.write(Buffer.concat([Buffer.from(head), Buffer.alloc(length, 0x41)]));
    const answer = await fourth.response();
    fourth.socket.destroy();
    if (answer.status !== 503) {
      admitted = answer;
      break;
    }
    assertProblem(answer, 503, 'MEMORY_BUSY');
    assert.ok(Date.now() < deadline, 'the reservation of the abandoned upload was not given back within 30 s');
    await sleep(50);
  }
  assert.equal(admitted.status, 400, admitted.body);
  assert.match(JSON.parse(admitted.body).detail, /multipart body could not be read/);
  second.socket.destroy();
});

test('MemoryGate: reserves by body size and route, refuses past the budget or above the ceiling in RSS while another request holds memory, always admits one alone', async () => {
  let rss = 100 * 1024 * 1024;
  const gate = new MemoryGate(512, () => rss); // budget 256 MB
  const mb = 1024 * 1024;
  assert.equal(MemoryGate.cost(mb), REQUEST_OVERHEAD_BYTES + MEMORY_EXPANSION_FACTOR * mb);
  assert.ok(MemoryGate.cost(mb, '/v1/xml') > MemoryGate.cost(mb, '/v1/validate'), 'metadata bodies expand more');
  assert.ok(gate.tryReserve(1024 * mb), 'one request alone is always admitted, even over the budget');
  assert.equal(gate.tryReserve(MemoryGate.cost(1024)), false, 'nothing fits beside it');
  gate.release(1024 * mb);
  assert.ok(gate.tryReserve(200 * mb));
  assert.ok(gate.tryReserve(50 * mb));
  assert.equal(gate.tryReserve(10 * mb), false, '260 MB > 256 MB budget');
  assert.ok(gate.tryReserve(5 * mb));
  rss = 600 * mb;
  await sleep(120); // RSS is read at most every 100 ms
  assert.equal(gate.tryReserve(MemoryGate.cost(100)), false, 'above the ceiling in RSS: even a small upload waits');
  assert.equal(gate.refused, 3);
  gate.release(200 * mb);
  gate.release(50 * mb);
  gate.release(5 * mb);
  assert.equal(gate.reserved, 0);
  assert.ok(gate.tryReserve(MemoryGate.cost(100)), 'alone again: admitted');
});

test('SIGTERM under load: readiness turns 503 first, every request sent before the signal gets its full answer, later ones a ProblemDetails 503, and a stalled upload does not hold the exit past SHUTDOWN_GRACE_S', async (t) => {
  // Delay 4 s, grace 8 s: the checks within the delay must fit in it on a loaded machine too.
  const server = await startServer(t, { SHUTDOWN_DELAY_S: '4', SHUTDOWN_GRACE_S: '8', BODY_TIMEOUT_S: '60' });
  const url = `http://127.0.0.1:${server.port}`;
  // Expect: 100-continue: the server answers "100 Continue" once it has read the headers, so the test knows
  // each request is in the server's hands before the signal (else a loaded machine decides what "before" means).
  const { head, body } = upload('/v1/validate', INVOICE, 'invoice.xml', 'Expect: 100-continue\r\n');
  const inFlight = async (c: ReturnType<typeof connect>, bytes: Buffer) => {
    await c.write(head);
    assert.equal((await c.response()).status, 100);
    await c.write(bytes);
  };

  // Warm: the first validation loads the rule sets (seconds under tsx on a loaded machine), which is not what is tested.
  const warm = await fetch(`${url}/v1/validate`, { method: 'POST', ...multipartInit(INVOICE), signal: AbortSignal.timeout(FETCH_MS) });
  assert.equal(warm.status, 200);

  // Uploads in flight: half of each body sent.
  const partial = Array.from({ length: 8 }, () => connect(server.port));
  // A burst of complete requests, whole bodies sent just before the signal.
  const burst = Array.from({ length: 20 }, () => connect(server.port));
  // A stalled upload that will never finish.
  const stalled = connect(server.port);
  await Promise.all([
    ...partial.map((c) => inFlight(c, body.subarray(0, body.length >> 1))),
    ...burst.map((c) => inFlight(c, body)),
    inFlight(stalled, body.subarray(0, 50)),
  ]);
  const signalled = Date.now();
  server.child.kill('SIGTERM');
  const draining = () => server.lines().some((l) => l.msg === 'shutting down: readiness reports 503, finishing requests in flight');
  await waitFor(draining, 20_000, 'the server to take the signal');

  // Within SHUTDOWN_DELAY_S: not ready, still alive and serving.
  const ready = await get(`${url}/healthz`);
  assert.equal(ready.status, 503);
  const readiness = await ready.json();
  assert.equal(readiness.status, 'not_ready');
  assert.equal(readiness.checks.lifecycle.status, 'unavailable');
  assert.equal((await get(`${url}/health`)).status, 200);

  for (const c of burst) {
    const r = await c.response();
    assert.equal(r.status, 200, `${Date.now() - signalled} ms after SIGTERM: ${r.body}`);
    assert.equal(JSON.parse(r.body).valid, true);
  }

  // After the delay the server stops listening (waited for, not slept for: a connection refused); the uploads in
  // flight finish with their real answers, and a request pipelined behind one of them (it arrives after the close)
  // is answered 503 ProblemDetails.
  for (;;) {
    const refusedAt = await get(`${url}/health`).then(
      () => undefined,
      () => Date.now(),
    );
    if (refusedAt !== undefined) {
      assert.ok(refusedAt - signalled >= 3_900, `no new connections, but only ${refusedAt - signalled} ms after SIGTERM (delay 4 s)`);
      break;
    }
    assert.ok(Date.now() - signalled < 20_000, 'the server still takes connections 20 s after SIGTERM');
    await sleep(100);
  }
  const late = `GET /v1/anything HTTP/1.1\r\nHost: test\r\n\r\n`;
  for (const [i, c] of partial.entries())
    await c.write(Buffer.concat([body.subarray(body.length >> 1), i === 0 ? Buffer.from(late) : Buffer.alloc(0)]));
  for (const c of partial) {
    const r = await c.response();
    assert.equal(r.status, 200, `${Date.now() - signalled} ms after SIGTERM: ${r.body}`);
    assert.equal(JSON.parse(r.body).valid, true);
  }
  const refused = await partial[0].response();
  assertProblem(refused, 503, 'SHUTTING_DOWN');
  assert.equal(refused.headers.connection, 'close');

  // The stalled upload is answered when the grace is over, and the process ends: not before the grace, and soon
  // after it (node's exit: ~1-2 s under tsx; scaled when the machine is loaded).
  assertProblem(await stalled.response(30_000), 503, 'SHUTTING_DOWN');
  const { code, at } = await server.exited;
  assert.equal(code, 0);
  const took = at - signalled;
  assert.ok(took >= 7_900 && took < 8_000 + 3_000 * loadFactor(), `exited ${took} ms after SIGTERM (grace 8 s)`);
  assert.match(server.logs(), /grace period over: cutting the requests still open/);
});

function multipartInit(xml: string, headers: Record<string, string> = {}): { body: Blob; headers: Record<string, string> } {
  const form = multipart([{ name: 'file', value: xml, filename: 'invoice.xml', contentType: 'application/xml' }]);
  return { body: new Blob([new Uint8Array(form.payload)]), headers: { ...form.headers, ...headers } };
}

/** The server processes that answered requests tagged `prefix` (their access-log lines carry their pid). */
function servedBy(lines: Record<string, unknown>[], prefix: string): Set<number> {
  return new Set(
    lines
      .filter((l) => l.msg === 'request completed' && typeof l.reqId === 'string' && l.reqId.startsWith(prefix))
      .map((l) => l.pid as number),
  );
}

test("PROCESSES=2: a connection handed to a server process that dies before taking it is reset at once (it hung for the client's 300 s); the process is replaced", async (t) => {
  const server = await startServer(t, { PROCESSES: '2' }, { listeners: 2 });
  const [victim, other] = server.listening();
  // Stopped, the victim takes no connection: the supervisor hands it one (round robin) and waits for its answer.
  process.kill(victim, 'SIGSTOP');
  const clients = Array.from({ length: 4 }, (_, i) => {
    const c = connect(server.port);
    void c.write(`GET /health HTTP/1.1\r\nHost: test\r\nX-Request-Id: lost-${i}\r\nConnection: close\r\n\r\n`);
    return {
      c,
      answer: c.response(60_000).then(
        (r) => r.status,
        (e: Error) => e.message,
      ),
    };
  });
  const outcome = await Promise.all(clients.map(async ({ answer }) => await Promise.race([answer, sleep(1_000).then(() => 'waiting')])));
  // Three answered by the other process; one waits, handed to the stopped one.
  assert.deepEqual(
    outcome.filter((o) => o !== 'waiting'),
    [200, 200, 200],
    JSON.stringify(outcome),
  );
  assert.deepEqual([...servedBy(server.lines(), 'lost-')], [other]);
  const waiting = clients[outcome.indexOf('waiting')];
  process.kill(victim, 'SIGKILL');
  const killed = Date.now();
  const ended = await Promise.race([waiting.c.closed.then(() => Date.now() - killed), sleep(10_000).then(() => Infinity)]);
  assert.ok(
    ended <= LOST_CONNECTION_BOUND_MS,
    `the lost connection ended ${ended} ms after the kill (bound ${LOST_CONNECTION_BOUND_MS} ms)`,
  );
  assert.match(String(await waiting.answer), /connection closed without an answer \((ECONNRESET|no error)\)/);
  assert.ok(
    server.lines().some((l) => l.msg === 'closed connections the dead server process had not taken' && l.connections === 1),
    'the supervisor says it closed it',
  );

  // Replaced: two processes answer again, the dead one not among them.
  await waitFor(() => server.listening().length === 3, 120_000, 'a replacement server process');
  for (let i = 0; i < 6; i++)
    assert.equal((await get(`${server.url}/health`, { 'x-request-id': `after-${i}`, connection: 'close' })).status, 200);
  await waitFor(() => servedBy(server.lines(), 'after-').size === 2, 10_000, 'access-log lines of both processes');
  assert.ok(!servedBy(server.lines(), 'after-').has(victim));
});

test('PROCESSES=2 under load: server processes killed one after another (every other one stopped first) are replaced; every request gets its answer or, within the bound, an error', async (t) => {
  const server = await startServer(t, { PROCESSES: '2', MAX_RESTARTS_PER_MINUTE: '1000' }, { listeners: 2 });
  const report = await killUnderLoad(server, 4);
  t.diagnostic(
    JSON.stringify({
      ...report,
      errors: report.errors.length,
      slowestErrorAfterKillMs: Math.max(0, ...report.errors.map((e) => e.afterKillMs)),
    }),
  );
});

test('PROCESSES=2: SIGTERM with a stalled upload open ends within the grace', async (t) => {
  const server = await startServer(t, { PROCESSES: '2', SHUTDOWN_GRACE_S: '3', BODY_TIMEOUT_S: '60' }, { listeners: 2 });
  // Expect: 100-continue: the upload is in a server process's hands before the signal, however loaded the machine.
  const stalled = connect(server.port);
  const { head, body } = upload('/v1/validate', INVOICE, 'invoice.xml', 'Expect: 100-continue\r\n');
  await stalled.write(head);
  assert.equal((await stalled.response()).status, 100);
  await stalled.write(body.subarray(0, 50));
  const signalled = Date.now();
  server.child.kill('SIGTERM');
  assertProblem(await stalled.response(10_000), 503, 'SHUTTING_DOWN');
  const { code, at } = await server.exited;
  assert.equal(code, 0);
  assert.ok(at - signalled < 3_000 + 4_000 * loadFactor(), `supervisor exited ${at - signalled} ms after SIGTERM (grace 3 s)`);
});
