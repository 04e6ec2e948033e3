/**
 * Hostile inputs from the fuzz run's open findings (test/fixtures/fuzz-open, issue 17), one test per class,
 * built here (never read from the corpus), sent over real HTTP to the real app on a listening port (one worker
 * thread, as in production). Each answer is a documented status with a JSON body, and GET /health answers within
 * 1 s while the request runs (wall-clock bounds scaled by the machine's load, as in hostile-xml.test.ts).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildInvoiceXml } from '../src/metadata/build.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { applyFilters, applyFiltersAsync } from '../src/pdf/filters.js';
import { PdfLimitError } from '../src/pdf/limits.js';
import {
  ascii85Encode,
  attachment,
  basicObjects,
  buildPdf,
  lzwEncode,
  lzwRunBomb,
  pdfa3Xmp,
  streamObj,
} from '../scripts/fuzz/pdf-builder.js';
import { multipart, proApp, type Part } from './helpers.js';
import { loadFactor, startServer } from './spawned.js';

const HEALTH_BOUND_MS = 1000;
/** A client gives up on a request after this long: far past every bound asserted here, so a hang fails by name. */
const REQUEST_MS = 120_000;
/** Internal text that must never reach a client. */
const INTERNALS = /\[big\.js\]|Maximum call stack|RangeError|TypeError|at \S+ \(|node_modules|\/work\/|\.ts:\d+|Map maximum size/;

interface Server {
  app: FastifyInstance;
  port: number;
}

async function start(app: FastifyInstance): Promise<Server> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { app, port: address.port };
}

let pro: Server;
before(async () => {
  pro = await start(await proApp({ WORKERS: '1' }));
});
after(async () => {
  await pro?.app.close();
});

/** POST with node's client, writing the whole body whatever the server answers meanwhile (as most clients do). */
function postAll(
  port: number,
  path: string,
  body: Buffer,
  headers: Record<string, string>,
  agent: http.Agent,
): Promise<{ status?: number; body: string; error?: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': String(body.length) },
        timeout: REQUEST_MS, // no traffic for this long: the request is ended (and counted) as a failure, not awaited
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (e) => resolve({ body: '', error: e.message }));
      },
    );
    req.on('error', (e) => resolve({ body: '', error: e.message }));
    req.on('timeout', () => req.destroy(new Error(`no traffic for ${REQUEST_MS} ms`)));
    req.end(body);
  });
}

test('an upload over MAX_UPLOAD_SIZE_MB gets its 413 every time, also while the client is still sending (was EPIPE and no answer: the connection was reset with unread bytes)', async (t) => {
  // The real entry point in its own process (the client must not share the server's event loop for this one).
  const server = await startServer(t);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = Buffer.alloc(12 * 1024 * 1024, 0x41); // 12 MB against the default 10 MB limit
  const outcomes: string[] = [];
  try {
    for (let i = 0; i < 12; i++) {
      // (Community /v1/serialize answers 403 before reading any body: test/contract.test.ts.)
      const path = ['/v1/validate', '/v1/extract', '/v1/xml'][i % 3];
      const type = path === '/v1/xml' ? 'application/x-www-form-urlencoded' : 'multipart/form-data; boundary=b';
      const r = await postAll(server.port, path, body, { 'content-type': type }, agent);
      outcomes.push(r.status === 413 && JSON.parse(r.body).code === 'UPLOAD_TOO_LARGE' ? '413' : `${r.status ?? r.error}`);
    }
    assert.deepEqual(outcomes, Array(12).fill('413'));
    // Mechanism: after the 413 the server keeps reading (and dropping) the body instead of resetting the
    // connection under the client's feet, and the same connection then serves the next request.
    const sock = net.connect(server.port, '127.0.0.1');
    let got = '';
    let closed = false;
    sock.on('data', (d) => (got += d.toString('latin1')));
    sock.on('close', () => (closed = true));
    sock.on('error', () => {});
    sock.write(
      `POST /v1/validate HTTP/1.1\r\nHost: t\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const until = Date.now() + 10_000;
    while (!got.includes('\r\n\r\n') && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    assert.match(got, /^HTTP\/1\.1 413 /);
    assert.doesNotMatch(got.split('\r\n\r\n')[0], /connection: close/i);
    for (let at = 0; at < body.length && !closed; at += 256 * 1024) {
      if (!sock.write(body.subarray(at, at + 256 * 1024))) await new Promise((r) => sock.once('drain', r));
    }
    got = '';
    sock.write('GET /health HTTP/1.1\r\nHost: t\r\n\r\n');
    while (!got.includes('\r\n\r\n') && !closed && Date.now() < until + 10_000) await new Promise((r) => setTimeout(r, 10));
    assert.equal(closed, false, 'the server closed the connection of a refused upload');
    assert.match(got, /^HTTP\/1\.1 200 /);
    sock.destroy();
    // The server serves on: the refused bodies were read and dropped within their bounds.
    const res = await fetch(`http://127.0.0.1:${server.port}/health`, { signal: AbortSignal.timeout(REQUEST_MS) });
    assert.equal(res.status, 200);
  } finally {
    agent.destroy();
  }
});

/** POST multipart to the in-process app while polling /health every 50 ms; the answer and the slowest probe. */
async function postWithHealth(
  server: Server,
  path: string,
  parts: Part[],
): Promise<{ status: number; text: string; json: any; healthMs: number; ms: number }> {
  const base = `http://127.0.0.1:${server.port}`;
  let stop = false;
  let healthMs = 0;
  const poll = (async () => {
    while (!stop) {
      const t = performance.now();
      const r = await fetch(`${base}/health`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(REQUEST_MS) });
      await r.arrayBuffer();
      assert.equal(r.status, 200);
      healthMs = Math.max(healthMs, performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const mp = multipart(parts);
  const t = performance.now();
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    body: new Uint8Array(mp.payload),
    // A fresh connection: a pooled one can be closed by the in-process server's keep-alive timer under us.
    headers: { ...mp.headers, connection: 'close' },
    signal: AbortSignal.timeout(REQUEST_MS),
  });
  const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
  const ms = performance.now() - t;
  stop = true;
  await poll;
  const type = res.headers.get('content-type') ?? '';
  assert.ok(res.status < 500, `${path}: ${res.status} ${text.slice(0, 300)}`);
  assert.doesNotMatch(text.slice(0, 1_000_000), INTERNALS);
  return { status: res.status, text, json: type.includes('json') ? JSON.parse(text) : undefined, healthMs, ms };
}

function healthy(a: { healthMs: number; ms: number }): void {
  const factor = loadFactor();
  assert.ok(a.ms < 5000 * factor, `answered in ${Math.round(a.ms)} ms (bound 5000 x load factor ${factor.toFixed(1)})`);
  assert.ok(
    a.healthMs < HEALTH_BOUND_MS * factor,
    `GET /health took ${Math.round(a.healthMs)} ms while the request ran (bound ${HEALTH_BOUND_MS} x load factor ${factor.toFixed(1)})`,
  );
}

test('a finding that quotes a 2-million-character value is cut: the report stays small (was a 7.6 MB report for a 7.6 MB upload)', async () => {
  const xml = buildInvoiceXml(DOMESTIC_EXAMPLE).xml.replace(
    /<ram:InvoiceCurrencyCode>EUR</,
    `<ram:InvoiceCurrencyCode>${'ä'.repeat(2_000_000)}<`,
  );
  const a = await postWithHealth(pro, '/v1/validate', [
    { name: 'file', value: xml, filename: 'invoice.xml', contentType: 'application/xml' },
  ]);
  assert.equal(a.status, 200);
  assert.equal(a.json.valid, false);
  assert.ok(a.text.length < 50_000, `a ${a.text.length}-character report`);
  const quoted = a.json.diagnostics.find((d: { rule_id: string }) => d.rule_id === 'BR-CL-04');
  assert.ok(quoted, 'the currency code finding is listed');
  assert.match(quoted.explanation, /more characters not shown/);
  healthy(a);
});

/** A PDF/A-3-declared PDF whose factur-x.xml attachment is `data` under `filter` (built in code). */
function pdfWithAttachment(data: Buffer, filter: string): Buffer {
  const objs = basicObjects('/Metadata 5 0 R /Names << /EmbeddedFiles << /Names [(factur-x.xml) 7 0 R] >> >> /AF [7 0 R]');
  objs.push(streamObj(5, '/Type /Metadata /Subtype /XML', pdfa3Xmp()));
  objs.push(...attachment(6, 'factur-x.xml', data, { filter }));
  return buildPdf(objs, { trailer: '/Root 1 0 R' });
}

test('LZW, ASCII85 and RunLength decode in slices: the event loop turns during a 64 MiB decode, and the output is the same', async () => {
  const bomb = lzwRunBomb(0x20, 1 << 27); // 128 MiB of spaces in ~100 KB: stops at the 64 MiB cap
  let turns = 0;
  let stop = false;
  const ticker = (async () => {
    while (!stop) {
      await new Promise((r) => setImmediate(r));
      turns++;
    }
  })();
  await assert.rejects(applyFiltersAsync(bomb, [{ name: 'LZWDecode' }], 64 << 20), (e: Error) => e instanceof PdfLimitError);
  const a85 = ascii85Encode(Buffer.alloc(8 << 20, 0x41));
  const rl = Buffer.alloc(1 << 20);
  for (let i = 0; i < rl.length; i += 2) (rl[i] = 129), (rl[i + 1] = 0x42); // runs of 128 bytes: 64 MiB
  const turnsBefore = turns;
  const [outA85, outRl] = [
    await applyFiltersAsync(a85, [{ name: 'ASCII85Decode' }], 64 << 20),
    await applyFiltersAsync(rl, [{ name: 'RunLengthDecode' }], 64 << 20),
  ];
  stop = true;
  await ticker;
  // Sync (sliceless) decoding gives the event loop no turn at all; the sliced one many.
  assert.ok(turnsBefore > 5, `the event loop turned ${turnsBefore} times during the LZW bomb`);
  assert.ok(turns - turnsBefore > 5, `the event loop turned ${turns - turnsBefore} times during ASCII85 and RunLength`);
  assert.deepEqual(outA85, applyFilters(a85, [{ name: 'ASCII85Decode' }], 64 << 20));
  assert.equal(outA85.length, 8 << 20);
  assert.equal(outRl.length, 64 << 20);
  assert.ok(outRl.every((b) => b === 0x42));
  const honest = Buffer.from(buildInvoiceXml(DOMESTIC_EXAMPLE).xml);
  assert.deepEqual(Buffer.from(await applyFiltersAsync(lzwEncode(honest), [{ name: 'LZWDecode' }], 64 << 20)), honest);
});

test('a PDF whose attachment is an LZW bomb: validate and extract answer, /health within 1 s (the decode held the event loop ~1 s)', async () => {
  const pdf = pdfWithAttachment(lzwRunBomb(0x20, 1 << 27), '/LZWDecode');
  assert.ok(pdf.length < 512 * 1024, 'small enough to be read on the main thread (PDF_INLINE_MAX_BYTES)');
  for (const path of ['/v1/validate', '/v1/extract']) {
    const a = await postWithHealth(pro, path, [{ name: 'file', value: pdf, filename: 'invoice.pdf', contentType: 'application/pdf' }]);
    assert.ok([200, 400].includes(a.status), `${path}: ${a.status} ${a.text.slice(0, 200)}`);
    assert.match(a.text, /64 MiB/, `${path} names the decode limit: ${a.text.slice(0, 300)}`);
    healthy(a);
  }
});
