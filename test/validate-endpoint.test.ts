/**
 * POST /v1/validate over real HTTP requests (app.inject) with curated real invoices (test/fixtures) and a Factur-X PDF built in the test: valid and
 * invalid XML (CII and UBL), PDF input, a PDF without invoice XML, unusable uploads, the pro result.
 */
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { communityApp, multipart, proApp } from './helpers.js';
import { facturxPdf, fixturePath } from './fixtures.js';

const CII_VALID = fixturePath('cen/examples/cii/CII_business_example_02.xml');
const UBL_VALID = fixturePath('cen/examples/ubl/ubl-tc434-example1.xml');

function post(app: FastifyInstance, file: Buffer, filename: string, fields: Record<string, string> = {}) {
  const parts = [{ name: 'file', value: file, filename }, ...Object.entries(fields).map(([name, value]) => ({ name, value }))];
  const { payload, headers } = multipart(parts);
  return app.inject({ method: 'POST', url: '/v1/validate', payload, headers });
}

const ids = (body: { errors: { rule_id: string | null; severity: string }[] }, severity = 'error') =>
  new Set(body.errors.filter((e) => e.severity === severity).map((e) => e.rule_id));

describe('POST /v1/validate (community, worker pool)', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await communityApp();
  });
  after(async () => {
    await app.close();
  });

  test('a valid CII invoice: 200, valid, EN 16931 CII rules and the XSD layer ran', async () => {
    const res = await post(app, readFileSync(CII_VALID), 'invoice.xml');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.valid, true);
    assert.deepEqual(ids(body), new Set());
    assert.ok(body.rule_sets.includes('en16931-cii'));
    assert.ok(body.layers_executed.includes('schematron'));
    assert.ok(body.layers_executed.includes('xsd'));
    assert.equal(body.pdfa_valid, null);
    assert.equal(body.validation_mode, 'community');
  });

  test('a CII invoice with a wrong line total: 200, valid=false, BR-CO-10 with its location', async () => {
    const xml = readFileSync(CII_VALID, 'utf8').replace(
      /(<ram:LineTotalAmount[^>]*>)([^<]+)(<\/ram:LineTotalAmount>)(?![\s\S]*<ram:LineTotalAmount)/,
      '$1999999.99$3',
    );
    const res = await post(app, Buffer.from(xml), 'broken.xml');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.valid, false);
    assert.ok(ids(body).has('BR-CO-10'), JSON.stringify(body.errors));
    const f = body.errors.find((e: { rule_id: string }) => e.rule_id === 'BR-CO-10');
    assert.match(f.location, /LineTotalAmount/);
    assert.equal(f.rule_set, 'en16931-cii');
  });

  test('a UBL invoice: valid as is; without invoice number it fails BR-02', async () => {
    const good = await post(app, readFileSync(UBL_VALID), 'ubl.xml');
    assert.equal(good.statusCode, 200);
    assert.equal(good.json().valid, true, JSON.stringify(good.json().errors));
    assert.equal(good.json().format, 'ubl');
    // The UBL 2.1 schema layer runs (src/xml/ubl/): nothing is skipped.
    assert.deepEqual(good.json().layers_skipped, []);
    assert.equal(good.json().validation_completeness, 'full');
    assert.ok(good.json().layers_executed.includes('xsd'));
    const xml = readFileSync(UBL_VALID, 'utf8').replace(/<cbc:ID>[^<]*<\/cbc:ID>/, '');
    const bad = await post(app, Buffer.from(xml), 'ubl.xml');
    assert.equal(bad.json().valid, false);
    assert.ok(ids(bad.json()).has('BR-02'));
  });

  test('a Factur-X PDF: the embedded XML is validated', async () => {
    const res = await post(app, await facturxPdf(), 'invoice.pdf');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.valid, true, JSON.stringify(body.errors));
    assert.ok(['factur-x', 'zugferd'].includes(body.format));
    assert.equal(body.flavor, 'en16931');
    assert.ok(body.rule_sets.includes('en16931-cii'));
  });

  test('a PDF without invoice XML: 200, valid=false, NO_XML', async () => {
    const pdf = fixturePath('verapdf/3b/6.8/6-8-t02-pass-b.pdf');
    const res = await post(app, readFileSync(pdf), 'plain.pdf');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().valid, false);
    assert.ok(res.json().errors.some((e: { rule_id: string }) => e.rule_id === 'NO_XML'));
  });

  test('XML that is not well-formed: 400 problem XML_MALFORMED, as on every endpoint', async () => {
    const res = await post(app, Buffer.from('<?xml version="1.0"?><Invoice><cbc:ID>1</Invoice>'), 'bad.xml');
    assert.equal(res.statusCode, 400);
    assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
    assert.equal(res.json().code, 'XML_MALFORMED');
  });

  test('a file that is neither PDF nor XML: 400 problem with a code', async () => {
    const res = await post(app, Buffer.from('just some text'), 'notes.txt');
    assert.equal(res.statusCode, 400);
    assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
    assert.equal(res.json().code, 'NOT_PDF_OR_XML');
  });

  test('no file part: 422 in FastAPI shape', async () => {
    const { payload, headers } = multipart([{ name: 'validate_pdfa', value: 'true' }]);
    const res = await app.inject({ method: 'POST', url: '/v1/validate', payload, headers });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().detail[0].loc, ['body', 'file']);
    assert.equal(res.json().detail[0].type, 'missing');
  });

  test('validate_pdfa in community mode must be a boolean; the pdfa3b layer is skipped (license_required)', async () => {
    const bad = await post(app, await facturxPdf(), 'invoice.pdf', { validate_pdfa: 'not-a-boolean' });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['body', 'validate_pdfa']);
    const res = await post(app, await facturxPdf(), 'invoice.pdf', { validate_pdfa: 'true' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().pdfa_valid, null);
    assert.deepEqual(
      res.json().layers_skipped.find((l: { layer: string }) => l.layer === 'pdfa3b'),
      { layer: 'pdfa3b', reason: 'license_required' },
    );
  });

  test('the OpenAPI document lists the required fields of the community result', async () => {
    const doc = (await app.inject({ url: '/openapi.json' })).json();
    const op = doc.paths['/v1/validate'].post;
    const schema = op.responses['200'].content['application/json'].schema;
    assert.deepEqual(schema.oneOf, [
      { $ref: '#/components/schemas/ValidationResult' },
      { $ref: '#/components/schemas/ProValidationResult' },
    ]);
    const community = doc.components.schemas.ValidationResult;
    for (const f of [
      'valid',
      'format',
      'flavor',
      'errors',
      'validation_mode',
      'pdfa_valid',
      'validation_completeness',
      'layers_executed',
      'layers_skipped',
    ]) {
      assert.ok(community.required.includes(f), f);
    }
    assert.ok(op.requestBody, 'multipart request body documented');
  });
});

describe('POST /v1/validate inline (WORKERS=0) gives the same answers', () => {
  test('same findings as the pool', async () => {
    const inline = await communityApp({ WORKERS: '0' });
    const pooled = await communityApp({ WORKERS: '1', VALIDATION_INLINE_MAX_KB: '0' });
    try {
      const xml = readFileSync(CII_VALID, 'utf8').replace(/<ram:InvoiceCurrencyCode>EUR</, '<ram:InvoiceCurrencyCode>EURO<');
      const a = (await post(inline, Buffer.from(xml), 'a.xml')).json();
      const b = (await post(pooled, Buffer.from(xml), 'a.xml')).json();
      assert.deepEqual(a, b, `inline ${JSON.stringify(a)}\npool ${JSON.stringify(b)}`);
      assert.ok(ids(a).has('BR-CL-04'));
      assert.deepEqual(inline.validation.counts, { inline: 1, pool: 0 });
      assert.deepEqual(pooled.validation.counts, { inline: 0, pool: 1 });
    } finally {
      await inline.close();
      await pooled.close();
    }
  });

  test('invoices up to VALIDATION_INLINE_MAX_KB are validated inline, bigger ones (for a PDF: its XML) in the pool, with equal answers', async () => {
    const app = await communityApp({ WORKERS: '1', VALIDATION_INLINE_MAX_KB: '8' });
    const pooled = await communityApp({ WORKERS: '1', VALIDATION_INLINE_MAX_KB: '0' });
    try {
      const small = Buffer.from('<?xml version="1.0"?><Invoice xmlns="urn:example:not-an-invoice"/>');
      assert.equal((await post(app, small, 's.xml')).statusCode, 200);
      assert.deepEqual(app.validation.counts, { inline: 1, pool: 0 });
      const xml = readFileSync(CII_VALID); // > 8 KB
      assert.ok(xml.length > 8 * 1024);
      const a = (await post(app, xml, 'a.xml')).json();
      assert.deepEqual(app.validation.counts, { inline: 1, pool: 1 });
      // For a PDF the size of its embedded XML decides (11 KB here).
      const pdf = await facturxPdf();
      const pdfAnswer = (await post(app, pdf, 'invoice.pdf')).json();
      assert.deepEqual(app.validation.counts, { inline: 1, pool: 2 });
      const roomier = await communityApp({ WORKERS: '1', VALIDATION_INLINE_MAX_KB: '16' });
      const pdfInline = (await post(roomier, pdf, 'invoice.pdf')).json();
      assert.deepEqual(roomier.validation.counts, { inline: 1, pool: 0 });
      await roomier.close();
      assert.deepEqual(a, (await post(pooled, xml, 'a.xml')).json());
      assert.deepEqual(pdfAnswer, (await post(pooled, pdf, 'invoice.pdf')).json());
      assert.deepEqual(pdfInline, pdfAnswer);
      assert.equal(pdfAnswer.valid, true);
    } finally {
      await app.close();
      await pooled.close();
    }
  });
});

describe('POST /v1/validate (pro)', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await proApp();
  });
  after(async () => {
    await app.close();
  });

  test('ProValidationResult with diagnostics; the PDF/A layer runs on a PDF', async () => {
    const xml = readFileSync(CII_VALID, 'utf8').replace(
      /(<ram:LineTotalAmount[^>]*>)([^<]+)(<\/ram:LineTotalAmount>)(?![\s\S]*<ram:LineTotalAmount)/,
      '$1999999.99$3',
    );
    const res = await post(app, Buffer.from(xml), 'broken.xml');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.validation_mode, 'pro_diagnostics');
    assert.equal(body.valid, false);
    assert.ok(body.error_count >= 1);
    assert.equal(body.errors, undefined);
    const d = body.diagnostics.find((x: { rule_id: string }) => x.rule_id === 'BR-CO-10');
    assert.ok(d && d.title && d.explanation && d.suggestion, JSON.stringify(body.diagnostics));
    assert.equal(d.severity, 'error');

    const pdf = await post(app, await facturxPdf(), 'invoice.pdf');
    assert.ok(pdf.json().layers_executed.includes('pdfa3b'));
    assert.ok(!pdf.json().layers_skipped.some((l: { layer: string }) => l.layer === 'pdfa3b'));
    assert.equal(pdf.json().pdfa_valid, true);

    const noPdfa = await post(app, await facturxPdf(), 'invoice.pdf', { validate_pdfa: 'false' });
    assert.ok(!noPdfa.json().layers_skipped.some((l: { layer: string }) => l.layer === 'pdfa3b'));
    assert.ok(!noPdfa.json().layers_executed.includes('pdfa3b'));
    assert.equal(noPdfa.json().pdfa_valid, null);
  });
});

describe('validation runner: where work runs', () => {
  test('with one worker (the default), small invoices stay inline even while the main thread is saturated', async () => {
    const { createValidationRunner } = await import('../src/validation/runner.js');
    const runner = createValidationRunner({ workers: 1, timeoutMs: 60_000, isBusy: () => true });
    try {
      await Promise.all([runner.validate(readFileSync(UBL_VALID)), runner.validate(readFileSync(UBL_VALID))]);
      assert.deepEqual(runner.counts, { inline: 2, pool: 0 });
      assert.equal(runner.activeThreads(), 0, 'no worker was started');
    } finally {
      await runner.close();
    }
  });

  test('with two workers, a small invoice goes to the pool only while the main thread is saturated', {
    skip: availableParallelism() < 2 && 'one CPU: the pool is capped at one worker',
  }, async () => {
    const { createValidationRunner, SPILL_DEPTH } = await import('../src/validation/runner.js');
    let busy = false;
    const runner = createValidationRunner({ workers: 2, timeoutMs: 60_000, isBusy: () => busy });
    try {
      const xml = readFileSync(UBL_VALID);
      const calm = await runner.validate(xml);
      assert.deepEqual(runner.counts, { inline: 1, pool: 0 });
      busy = true;
      const saturated = await runner.validate(xml);
      assert.deepEqual(runner.counts, { inline: 1, pool: 1 });
      assert.deepEqual(saturated, calm);
      // More at once while busy than may wait for the two workers: the rest stays inline.
      await Promise.all(Array.from({ length: 2 * SPILL_DEPTH + 1 }, () => runner.validate(xml)));
      assert.deepEqual(runner.counts, { inline: 2, pool: 1 + 2 * SPILL_DEPTH });
    } finally {
      await runner.close();
    }
  });
});

describe('validation runner: order of pool jobs', () => {
  test('jobs waiting for the pool finish in the order they came: none is overtaken by newer ones', async () => {
    const { createValidationRunner } = await import('../src/validation/runner.js');
    // Everything in the pool, one worker: twelve jobs at once must queue.
    const runner = createValidationRunner({ workers: 1, timeoutMs: 60_000, inlineMaxBytes: 0 });
    try {
      const xml = readFileSync(UBL_VALID);
      const finished: number[] = [];
      await Promise.all(Array.from({ length: 12 }, (_, i) => runner.validate(xml).then(() => finished.push(i))));
      assert.deepEqual(finished, [...Array(12).keys()]);
      assert.deepEqual(runner.counts, { inline: 0, pool: 12 });
    } finally {
      await runner.close();
    }
  });

  test('the worker gate: first come first served, a job gives up at its deadline, and a full queue refuses', async () => {
    const { WorkerGate, PoolBusyError } = await import('../src/workers/gate.js');
    const far = () => performance.now() + 60_000;
    const gate = new WorkerGate(1, 2);
    assert.equal(await gate.acquire(far()), true, 'a free slot is taken at once');
    const order: string[] = [];
    const a = gate.acquire(far()).then((ok) => order.push(`a ${ok}`));
    const b = gate.acquire(far()).then((ok) => order.push(`b ${ok}`));
    await assert.rejects(gate.acquire(far()), PoolBusyError);
    assert.equal(gate.queued, 2);
    gate.release();
    await a;
    gate.release();
    await b;
    assert.deepEqual(order, ['a true', 'b true']);
    // The slot is b's now: a job whose deadline passes while it waits is told so and leaves the queue.
    assert.equal(await gate.acquire(performance.now() + 5), false);
    assert.equal(gate.queued, 0);
    gate.release();
    assert.equal(await gate.acquire(performance.now()), true, 'a free slot is given even at the deadline');
  });
});

describe('validation runner bounds', () => {
  test('a validation over its time bound is cut off, and the pool keeps answering', async () => {
    const { createValidationRunner, ValidationTimeoutError } = await import('../src/validation/runner.js');
    const runner = createValidationRunner({ workers: 1, timeoutMs: 60_000 });
    const xml = readFileSync(UBL_VALID, 'utf8');
    const start = xml.indexOf('<cac:InvoiceLine>');
    const end = xml.lastIndexOf('</cac:InvoiceLine>') + '</cac:InvoiceLine>'.length;
    // Thousands of lines cannot be read and checked within 1 ms.
    const huge = Buffer.from(xml.slice(0, start) + xml.slice(start, end).repeat(3000) + xml.slice(end));
    try {
      await assert.rejects(runner.validate(huge, 'huge.xml', {}, 1), ValidationTimeoutError);
      // The worker that was cut off is replaced: the same pool validates the next invoice.
      assert.equal((await runner.validate(readFileSync(UBL_VALID))).valid, true);
    } finally {
      await runner.close();
    }
  });
});

describe('POST /v1/validate: French CTC layer (br_fr_ctc), by edition', () => {
  const FRENCH = fixturePath('lunatech/tests/fixtures/errors/cii_sans_endpoint.xml');
  const FRENCH_IDS = [
    'BR-FR-05_BT-22_AAB',
    'BR-FR-05_BT-22_PMD',
    'BR-FR-05_BT-22_PMT',
    'BR-FR-08_BT-23',
    'BR-FR-10_BT-30',
    'BR-FR-12_BT-49',
    'BR-FR-13_BT-34',
  ];
  let app: FastifyInstance;
  before(async () => {
    app = await communityApp({ WORKERS: '0' });
  });
  after(async () => {
    await app.close();
  });

  const brFr = (body: { errors: { rule_id: string | null; severity: string }[] }, severity: string) =>
    [...ids(body, severity)].filter((id) => id?.startsWith('BR-FR')).sort();

  test('not asked for: the layer does not run', async () => {
    const body = (await post(app, readFileSync(FRENCH), 'fr.xml')).json();
    assert.ok(!body.layers_executed.includes('br_fr_ctc'));
    assert.deepEqual(brFr(body, 'error'), []);
    assert.deepEqual(brFr(body, 'warning'), []);
    assert.equal(body.br_fr_edition, undefined);
  });

  test('rules=br_fr_ctc runs the current edition (1.4, blocking): the official 1.4 findings, valid=false', async () => {
    const res = await post(app, readFileSync(FRENCH), 'fr.xml', { rules: 'br_fr_ctc' });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.ok(body.layers_executed.includes('br_fr_ctc'));
    assert.equal(body.br_fr_edition, '1.4');
    assert.ok(body.rule_sets.includes('br-fr-1.4-cii'));
    assert.deepEqual(brFr(body, 'error'), [...FRENCH_IDS, 'BR-FR-32-LEGALID'].sort());
    assert.equal(body.valid, false);
  });

  test('br_fr_edition=1.2.0: the same rules as warnings, so the invoice stays valid', async () => {
    const body = (await post(app, readFileSync(FRENCH), 'fr.xml', { rules: 'br_fr_ctc', br_fr_edition: '1.2.0' })).json();
    assert.equal(body.br_fr_edition, '1.2.0');
    assert.deepEqual(brFr(body, 'warning'), FRENCH_IDS);
    assert.deepEqual(brFr(body, 'error'), []);
    assert.equal(body.valid, true);
  });

  test('Factur-X MINIMUM: the layer is reported as not applicable', async () => {
    const pdf = fixturePath('lunatech/specs/examples/facturx-1.08/MINIMUM/Facture_F20260023-LE_FOURNISSEUR-POUR-LE_CLIENT_MINIMUM.pdf');
    const body = (await post(app, readFileSync(pdf), 'min.pdf', { rules: 'br_fr_ctc' })).json();
    assert.ok(!body.layers_executed.includes('br_fr_ctc'));
    const skipped = body.layers_skipped.find((l: { layer: string }) => l.layer === 'br_fr_ctc');
    assert.match(skipped.reason, /^not_applicable:.*MINIMUM/);
  });

  test('an unknown edition or rule layer is a 422 pointing at the field', async () => {
    const badEdition = await post(app, readFileSync(FRENCH), 'fr.xml', { rules: 'br_fr_ctc', br_fr_edition: '9.9' });
    assert.equal(badEdition.statusCode, 422);
    assert.deepEqual(badEdition.json().detail[0].loc, ['body', 'br_fr_edition']);
    const badLayer = await post(app, readFileSync(FRENCH), 'fr.xml', { rules: 'br_fr_ctc,peppol_magic' });
    assert.equal(badLayer.statusCode, 422);
    assert.deepEqual(badLayer.json().detail[0].loc, ['body', 'rules']);
  });
});
