/**
 * Replays every minimised fuzz failure in test/fixtures/fuzz/ against the real server (one spawned
 * process, pro mode) with the fuzzer's own oracle, so a fixed bug stays fixed. Fixtures listed in
 * known-failing.txt are bugs whose fixes land elsewhere: they must still fail (a listed fixture that passes
 * fails this test, so the list cannot rot); any other failure fails this test.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildInvoiceXml } from '../src/metadata/index.js';
import {
  DEFAULT_ORACLE,
  HttpTarget,
  judge,
  readFixtures,
  readKnownFailing,
  ServerProcess,
  type FuzzCase,
  type Outcome,
} from '../scripts/fuzz/harness.js';
import { pdfa3Base } from '../scripts/fuzz/pdf-builder.js';
import { SCENARIOS } from './invoice-scenarios.js';
import { loadFactor } from './spawned.js';

let server: ServerProcess;
let target: HttpTarget;

before(async () => {
  server = new ServerProcess();
  await server.start();
  target = new HttpTarget(server, DEFAULT_ORACLE);
  target.recoveryMs = 3000;
});

after(async () => {
  await target?.close();
});

const fakeOutcome = (o: Partial<Outcome>): Outcome => ({
  headers: {},
  body: Buffer.alloc(0),
  ms: 10,
  timedOut: false,
  healthMaxMs: 5,
  rssStartMb: 100,
  rssPeakMb: 110,
  crashed: false,
  ...o,
});
const xmlCase = (endpoint: FuzzCase['endpoint']): FuzzCase => ({
  endpoint,
  encoding: 'multipart',
  mutated: 'file',
  parts: [{ name: 'file', data: Buffer.from('<a/>'), filename: 'a.xml' }],
});

test('the oracle refuses what the contract forbids and accepts a documented answer', () => {
  const json = (status: number, body: unknown, headers = {}) =>
    fakeOutcome({ status, body: Buffer.from(JSON.stringify(body)), headers: { 'content-type': 'application/json', ...headers } });
  const classes = (o: Outcome, e: FuzzCase['endpoint'] = '/v1/validate') => judge(xmlCase(e), o).map((f) => f.class);
  assert.deepEqual(classes(json(400, { title: 'Bad Request', status: 400, detail: 'The XML is not well-formed' })), []);
  assert.deepEqual(classes(json(422, { detail: [{ loc: ['body'], msg: 'x', type: 'missing' }] })), []);
  assert.deepEqual(classes(json(503, { title: 'Service Unavailable', status: 503 }, { 'retry-after': '1' })), []);
  assert.deepEqual(classes(json(500, { title: 'Internal Server Error', status: 500 })), ['500']);
  assert.deepEqual(classes(json(503, { title: 'Service Unavailable', status: 503 })), ['503']);
  assert.deepEqual(classes(json(409, { title: 'Conflict', status: 409 })), ['undocumented-status']);
  assert.deepEqual(classes(json(409, { title: 'Conflict', status: 409 }), '/v1/merge'), []);
  assert.deepEqual(classes(json(400, { title: 'Bad Request', status: 400, detail: '[big.js] Invalid number' })), ['internal-text']);
  assert.deepEqual(classes(json(400, { title: 'Bad Request', status: 400, detail: 'x\n    at parse (/srv/app/src/x.ts:1:2)' })), [
    'internal-text',
  ]);
  assert.deepEqual(classes(json(400, { error: 'bad' })), ['not-problem-details']);
  assert.deepEqual(classes(fakeOutcome({ status: 400, body: Buffer.from('<html>') })), ['not-json']);
  assert.deepEqual(classes(fakeOutcome({ timedOut: true })), ['timeout']);
  assert.deepEqual(classes(json(200, {}, {}) && fakeOutcome({ status: 200, body: Buffer.from('{}'), healthMaxMs: Infinity })), [
    'health-stall',
  ]);
  assert.deepEqual(classes(fakeOutcome({ crashed: true })), ['crash']);
  assert.deepEqual(classes(fakeOutcome({ status: 200, body: Buffer.from('{}'), rssPeakMb: 2000 })), ['memory']);
  assert.deepEqual(classes(fakeOutcome({ status: 200, body: Buffer.from('not a pdf') }), '/v1/merge'), ['bad-200']);
});

test('the harness reaches the real server: an honest merge passes the oracle, a broken one is a documented 400', async () => {
  const xml = Buffer.from(buildInvoiceXml(SCENARIOS.domestic).xml, 'utf8');
  const ok: FuzzCase = {
    endpoint: '/v1/merge',
    encoding: 'multipart',
    mutated: 'pdf',
    parts: [
      { name: 'pdf', data: pdfa3Base(), filename: 'in.pdf', contentType: 'application/pdf' },
      { name: 'xml', data: xml, filename: 'invoice.xml', contentType: 'application/xml' },
    ],
  };
  const o = await target.send(ok);
  assert.equal(o.status, 200, o.body.toString().slice(0, 300));
  assert.deepEqual(judge(ok, o), []);
  const bad = { ...ok, parts: [ok.parts[0], { ...ok.parts[1], data: Buffer.from('<rsm:Cross') }] };
  const b = await target.send(bad);
  assert.equal(b.status, 400);
  assert.deepEqual(judge(bad, b), []);
});

test('every fuzz regression fixture answers as the oracle demands (known failures excepted, and only while they fail)', {
  timeout: 30 * 60_000,
}, async () => {
  const fixtures = readFixtures();
  const known = readKnownFailing();
  const names = new Set(fixtures.map((f) => f.base));
  const stale = [...known].filter((k) => !names.has(k));
  assert.deepEqual(stale, [], 'known-failing.txt names fixtures that do not exist');
  const problems: string[] = [];
  for (const fx of fixtures) {
    // The oracle's time bounds (an answer within 5 s, /health within 1 s) hold on a machine with a core to spare;
    // when other work shares the cores they stretch with its load, as in the other hostile tests.
    const f = loadFactor();
    const opts = { ...DEFAULT_ORACLE, timeBoundMs: DEFAULT_ORACLE.timeBoundMs * f, healthBoundMs: DEFAULT_ORACLE.healthBoundMs * f };
    const scaled = new HttpTarget(server, opts);
    scaled.recoveryMs = target.recoveryMs;
    let failures = judge(fx.case, await scaled.send(fx.case), opts);
    // Timing classes depend on the machine: a verdict that would fail the test must hold twice in a row
    // (a new failure must reproduce; a known one must pass twice before it is called fixed).
    const failing = failures.length > 0;
    if (failing !== known.has(fx.base)) failures = judge(fx.case, await scaled.send(fx.case), opts);
    if (failures.length && !known.has(fx.base)) {
      problems.push(`${fx.base} (${fx.case.endpoint}) fails: ${failures.map((f) => `${f.class}: ${f.detail.slice(0, 200)}`).join('; ')}`);
    } else if (!failures.length && known.has(fx.base)) {
      problems.push(`${fx.base} passes now: remove it from test/fixtures/fuzz/known-failing.txt`);
    }
  }
  assert.deepEqual(problems, []);
});
