/**
 * French lifecycle status messages (CDAR D22B) end to end: POST /v1/status (every published example, the JSON
 * answer, each error path), /v1/validate and /v1/extract on what it built (and on broken messages), the library's
 * buildStatus() / validate() / extract(), and `einvoice status` / `validate` / `extract` as real processes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { STATUS_EXAMPLES, exampleFor } from '../src/cdar/examples.js';
import { completeStatus } from '../src/cdar/build.js';
import { buildStatus, extract, validate } from '../src/lib/index.js';
import { ShapeError, UnprocessableError, InvalidInputError } from '../src/lib/errors.js';
import { parseXml } from '../src/xml/dom.js';
import { readCdar } from '../src/syntax/cdar/reader.js';
import { runCli } from './cli-fixtures.js';
import { CDAR_MUTATIONS, mutatedXml } from './cdar-mutations.js';
import { communityApp, multipart } from './helpers.js';

let app: FastifyInstance;
before(async () => {
  app = await communityApp();
});
after(() => app.close());

const post = (payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/v1/status',
    payload: payload as object,
    headers: { 'content-type': 'application/json', ...headers },
  });
const upload = (url: string, xml: string, fields: { name: string; value: string }[] = []) => {
  const { payload, headers } = multipart([{ name: 'file', value: Buffer.from(xml), filename: 'status.xml' }, ...fields]);
  return app.inject({ method: 'POST', url, payload, headers });
};

test('every request example of POST /v1/status builds a message that validates and reads back as it was built', async () => {
  const names = Object.keys(STATUS_EXAMPLES);
  assert.equal(names.length, 32, 'one example per status code of the published list (31) and one to the PPF');
  for (const name of names) {
    const example = STATUS_EXAMPLES[name].value;
    const res = await post(example);
    assert.equal(res.statusCode, 200, `${name}: ${res.body.slice(0, 300)}`);
    assert.match(String(res.headers['content-type']), /^application\/xml/);
    assert.match(String(res.headers['content-disposition']), new RegExp(`filename="${example.message_id}\\.xml"`));
    assert.match(res.body, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<rsm:CrossDomainAcknowledgementAndResponse /);

    const v = (await upload('/v1/validate', res.body)).json();
    assert.equal(v.valid, true, `${name}: ${JSON.stringify(v.errors)}`);
    assert.deepEqual(v.errors, [], name);
    assert.equal(v.format, null);
    assert.equal(v.flavor, 'cdar');
    assert.deepEqual(v.layers_executed, ['xsd', 'br_fr_ctc']);
    assert.deepEqual(v.rule_sets, ['br-fr-cdv']);
    assert.equal(v.validation_completeness, 'full');
    assert.equal(v.rule_set_versions.br_fr_cdv, '1.4.0');
    assert.match(v.rule_set_versions.xsd, /^CDAR D22B/);

    const x = (await upload('/v1/extract', res.body)).json();
    assert.equal(x.format_detected, 'cdar');
    assert.equal(x.invoice_json, null);
    assert.equal(x.xml_extracted, true);
    assert.deepEqual(x.status_json, completeStatus(example), `${name}: read back`);
    // The complete message builds the same XML again.
    assert.equal((await post(x.status_json)).body, res.body, `${name}: idempotent`);
  }
});

test('POST /v1/status with Accept: application/json answers the XML, the complete message and the warnings', async () => {
  const res = await post(exampleFor('205'), { accept: 'application/json' });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['status_json', 'warnings', 'xml']);
  assert.equal(body.status_json.status.label, 'Approuvée');
  assert.equal(body.status_json.status.phase, 'processing');
  assert.equal(body.status_json.status.detail_code, '1');
  assert.equal(body.status_json.business_process, 'REGULATED');
  assert.equal(body.status_json.guideline, 'urn.cpro.gouv.fr:1p0:CDV:invoice');
  assert.deepEqual(body.warnings, []);
  const root = parseXml(body.xml).root;
  assert.deepEqual(readCdar(root).message, body.status_json);
  assert.match(body.xml, /<ram:TypeCode>23<\/ram:TypeCode>/);
  assert.match(body.xml, /<ram:ProcessConditionCode>205<\/ram:ProcessConditionCode>/);
  assert.match(body.xml, /<udt:DateTimeString format="204">20261002100000<\/udt:DateTimeString>/);
  assert.match(body.xml, /<qdt:DateTimeString format="102">20261001<\/qdt:DateTimeString>/);
});

test('a status code outside the published list needs a phase, and is built with the BR-FR-CDV-CL-06 warning', async () => {
  const msg = exampleFor('205');
  msg.status.code = '299';
  const missing = await post(msg);
  assert.equal(missing.statusCode, 422);
  assert.deepEqual(
    missing.json().detail.map((d: { loc: unknown[] }) => d.loc),
    [['body', 'status', 'phase']],
  );
  msg.status.phase = 'processing';
  const res = await post(msg);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['x-status-warnings'], 'BR-FR-CDV-CL-06_MDT-105');
  assert.doesNotMatch(res.body, /<ram:StatusCode>/, 'no detail status is guessed for an unknown code');
});

test('POST /v1/status: request shape errors are 422 in FastAPI shape, located in the body', async () => {
  const msg = exampleFor('207') as unknown as {
    status: { code: string };
    recipients: { role: string }[];
    invoice: { issue_date: string };
    colour?: string;
    issuer?: unknown;
  };
  msg.status.code = '2077';
  msg.recipients[0].role = 'XX';
  msg.invoice.issue_date = '2026-13-01';
  msg.colour = 'red';
  delete msg.issuer;
  const res = await post(msg);
  assert.equal(res.statusCode, 422);
  const detail = res.json().detail as { loc: (string | number)[]; type: string }[];
  const byLoc = new Map(detail.map((d) => [d.loc.join('.'), d.type]));
  assert.equal(byLoc.get('body.status.code'), 'string_pattern_mismatch');
  assert.equal(byLoc.get('body.recipients.0.role'), 'enum');
  assert.equal(byLoc.get('body.invoice.issue_date'), 'string_pattern_mismatch');
  assert.equal(byLoc.get('body.colour'), 'extra_forbidden');
  assert.equal(byLoc.get('body.issuer'), 'missing');

  const notObject = await post([1, 2]);
  assert.equal(notObject.statusCode, 422);
  assert.deepEqual(notObject.json().detail[0].loc, ['body']);
  const control = await post({ ...exampleFor('205'), message_name: 'a\u0001b' });
  assert.equal(control.statusCode, 422);
  assert.equal(control.json().detail[0].type, 'string_control_character');
});

test('POST /v1/status: a combination the BR-FR-CDV rules forbid is 422 STATUS_NOT_ALLOWED with their findings', async () => {
  const cases: [string, (m: ReturnType<typeof exampleFor>) => void, string][] = [
    ['a processing status issued by a platform', (m) => (m.issuer = { role: 'WK' }), 'BR-FR-CDV-CL-03_MDT-40_23'],
    ['a transmission status sent by the buyer', (m) => (m.sender = { role: 'BY' }), 'BR-FR-CDV-CL-02_MDT-21_305'],
    ['a dispute without reason', (m) => delete m.details, 'BR-FR-CDV-15_MDT-113'],
    ['a rejection for a VAT rate', (m) => (m.details = [{ reason_code: 'TX_TVA_ERR' }]), 'BR-FR-CDV-CL-09_MDT-113_213'],
    ['a payment received without VAT rate', (m) => delete m.details![0].characteristics![0].percent, 'BR-FR-CDV-14_MDT-207'],
    ['a recipient without electronic address', (m) => delete m.recipients[0].electronic_address, 'BR-FR-CDV-08_MDT-73'],
    ['a processing status, the issuer without id', (m) => delete m.issuer.ids, 'BR-FR-CDV-07_MDT-38_yes'],
    ['an invoice without date', (m) => delete m.invoice.issue_date, 'BR-FR-CDV-11_MDG-35'],
  ];
  const bases: Record<string, string> = {
    'a processing status issued by a platform': '205',
    'a transmission status sent by the buyer': '200',
    'a dispute without reason': '207',
    'a rejection for a VAT rate': '213',
    'a payment received without VAT rate': '212',
    'a recipient without electronic address': '205',
    'a processing status, the issuer without id': '205',
    'an invoice without date': '205',
  };
  for (const [what, edit, rule] of cases) {
    const msg = exampleFor(bases[what]);
    edit(msg);
    const res = await post(msg);
    assert.equal(res.statusCode, 422, what);
    assert.match(String(res.headers['content-type']), /application\/problem\+json/);
    const body = res.json();
    assert.equal(body.code, 'STATUS_NOT_ALLOWED', what);
    assert.ok(
      body.errors.some((e: { rule_id: string; severity: string }) => e.rule_id === rule && e.severity === 'error'),
      `${what}: ${JSON.stringify(body.errors)}`,
    );
    assert.match(body.detail, new RegExp(rule));
  }
});

test('POST /v1/status: a body that is not JSON is 400 STATUS_NOT_JSON, one nested too deep 400 JSON_TOO_DEEP', async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/status',
    payload: '{"message_id": ',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().code, 'STATUS_NOT_JSON');
  const deep = await app.inject({
    method: 'POST',
    url: '/v1/status',
    payload: `${'['.repeat(200)}${']'.repeat(200)}`,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(deep.statusCode, 400);
  assert.equal(deep.json().code, 'JSON_TOO_DEEP');
});

test('/v1/validate on CDAR: the rules and the schema report with official ids; br_fr_edition picks the edition', async () => {
  const broken = mutatedXml(CDAR_MUTATIONS.find((m) => m.target === 'BR-FR-CDV-CL-03_MDT-40_23')!);
  const v = (await upload('/v1/validate', broken)).json();
  assert.equal(v.valid, false);
  assert.deepEqual(
    v.errors.map((e: { rule_id: string; rule_set: string; severity: string }) => [e.rule_id, e.rule_set, e.severity]),
    [['BR-FR-CDV-CL-03_MDT-40_23', 'br-fr-cdv', 'error']],
  );
  const warn = (await upload('/v1/validate', broken, [{ name: 'br_fr_edition', value: '1.4-warning' }])).json();
  assert.equal(warn.valid, true);
  assert.equal(warn.errors[0].severity, 'warning');
  assert.equal(warn.rule_set_versions.br_fr_cdv, '1.4.0-warning');
  const old = (await upload('/v1/validate', broken, [{ name: 'br_fr_edition', value: '1.2.0' }])).json();
  assert.deepEqual(old.layers_skipped, [{ layer: 'br_fr_ctc', reason: 'ruleset_unavailable:br-fr-cdv@1.2.0' }]);
  assert.equal(old.validation_completeness, 'partial');

  const schema = (await upload('/v1/validate', mutatedXml(CDAR_MUTATIONS.find((m) => m.name === 'unknown element')!))).json();
  assert.equal(schema.valid, false);
  assert.equal(schema.errors[0].rule_id, 'XSD');
  assert.match(schema.errors[0].message, /Colour/);
  assert.match(schema.errors[0].location, /^line \d+$/);
});

test('/v1/extract on a CDAR message about several invoices reads the first and says so', async () => {
  const xml = (await post(exampleFor('205'))).body;
  const rrd = /<ram:ReferenceReferencedDocument>[\s\S]*<\/ram:ReferenceReferencedDocument>/.exec(xml)![0];
  const two = xml.replace(rrd, `${rrd}\n${rrd.replace('FA-2026-0042', 'FA-2026-0043')}`);
  const x = (await upload('/v1/extract', two)).json();
  assert.equal(x.status_json.invoice.number, 'FA-2026-0042');
  assert.deepEqual(
    x.errors.map((e: { code: string }) => e.code),
    ['CDAR_MULTIPLE_REFERENCES'],
  );
});

test('the library: buildStatus(), and validate() / extract() on its output, with typed errors', async () => {
  const built = await buildStatus(JSON.stringify(exampleFor('212')));
  assert.equal(built.filename, 'FA-2026-0042_212_20261002100500.xml');
  const bytes = new TextEncoder().encode(built.xml);
  const v = await validate(bytes);
  assert.equal(v.valid, true);
  assert.equal(v.flavor, 'cdar');
  const x = await extract(bytes);
  assert.deepEqual(x.status_json, built.status);
  await assert.rejects(buildStatus('not json'), (e) => e instanceof InvalidInputError && e.code === 'STATUS_NOT_JSON');
  await assert.rejects(buildStatus({}), (e) => e instanceof ShapeError && e.code === 'STATUS_INVALID' && e.issues.length === 7);
  const refused = exampleFor('207');
  delete refused.details;
  await assert.rejects(
    buildStatus(refused),
    (e) =>
      e instanceof UnprocessableError &&
      e.code === 'STATUS_NOT_ALLOWED' &&
      (e.extras.errors as { rule_id: string }[])[0].rule_id === 'BR-FR-CDV-15_MDT-113',
  );
});

test('einvoice status / validate / extract as processes: build from a JSON file, check it, read it back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-status-'));
  try {
    const json = join(dir, 'status.json');
    const xml = join(dir, 'status.xml');
    writeFileSync(json, JSON.stringify(exampleFor('207')));
    const built = await runCli(['status', json, '-o', xml]);
    assert.equal(built.code, 0, built.stderr);
    assert.equal(built.stderr, '');
    const valid = await runCli(['validate', xml, '--format', 'json']);
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    assert.equal(JSON.parse(valid.stdout.trim()).valid, true);
    const read = await runCli(['extract', xml]);
    assert.equal(read.code, 0);
    assert.deepEqual(JSON.parse(read.stdout).status_json, completeStatus(exampleFor('207')));
    const asJson = await runCli(['status', '-', '--json'], { input: JSON.stringify(exampleFor('205')) });
    assert.equal(asJson.code, 0, asJson.stderr);
    assert.deepEqual(Object.keys(JSON.parse(asJson.stdout)).sort(), ['status_json', 'warnings', 'xml']);

    const refusedMsg = exampleFor('207');
    delete refusedMsg.details;
    writeFileSync(json, JSON.stringify(refusedMsg));
    const refused = await runCli(['status', json]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /STATUS_NOT_ALLOWED/);
    assert.match(refused.stderr, /BR-FR-CDV-15_MDT-113/);
    writeFileSync(json, '{"message_id": 1}');
    const shape = await runCli(['status', json]);
    assert.equal(shape.code, 1);
    assert.match(shape.stderr, /STATUS_INVALID/);
    assert.match(shape.stderr, /body\.issue_date_time: Field required/);
    const usage = await runCli(['status']);
    assert.equal(usage.code, 2);
    const missing = await runCli(['status', join(dir, 'nope.json')]);
    assert.equal(missing.code, 2);
    writeFileSync(xml, mutatedXml(CDAR_MUTATIONS.find((m) => m.target === 'BR-FR-CDV-15_MDT-113')!));
    const invalid = await runCli(['validate', xml]);
    assert.equal(invalid.code, 1);
    assert.match(invalid.stdout, /BR-FR-CDV-15_MDT-113/);
    assert.ok(readFileSync(xml).length > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
