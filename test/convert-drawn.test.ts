/**
 * /v1/convert without a PDF (issue #32): the invoice is drawn from the metadata as a PDF/A-3b and the XML embedded in
 * it, a complete Factur-X / XRechnung from metadata alone. Real HTTP requests (over a socket) against the real app
 * (inline and through the worker pool), the CLI as a real process, the library:
 * - every profile the writer makes (MINIMUM to EXTENDED, XRechnung, EXTENDED-CTC-FR): 200 application/pdf, the XML
 *   embedded (factur-x.xml / xrechnung.xml) reads back byte for byte as the one /v1/xml writes, the output passes pro
 *   /v1/validate with no error (EN 16931, the profile's rules, the PDF/A-3b layer), our PDF/A-3b checker, qpdf --check,
 *   and poppler's text shows the invoice number and the amount due, in en, de and fr;
 * - a 10,000-line invoice from metadata: every line drawn, a valid Factur-X, within the XML job's time bound;
 * - the errors: an empty pdf part (400 NOT_PDF), a pdf text field, a lang not accepted, no metadata, UBL metadata;
 * - the OpenAPI form: metadata required, pdf optional, lang.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildInvoiceXml } from '../src/metadata/index.js';
import type { InvoiceMetadata } from '../src/metadata/schema.js';
import { PROFILE_IDS, type ProfileId } from '../src/model/profiles.js';
import { formatDecimal } from '../src/render/format.js';
import { convert, InvalidInputError, ShapeError } from '../src/lib/index.js';
import { readPdf } from '../src/pdf/extract.js';
import { checkPdfa } from '../src/pdfa/index.js';
import { communityApp, type HttpAnswer, listenLocal, postOverHttp, proApp, type Part } from './helpers.js';
import { runCli } from './cli-fixtures.js';
import { SYNC_CHILD } from './spawned.js';
import { qpdfCheck } from './hybrid-pdf-reader.js';
import { SCENARIOS } from './invoice-scenarios.js';
import { FR_SCENARIOS } from './extended-ctc-fr-scenarios.js';

let app: FastifyInstance;
let pooled: FastifyInstance;
let pro: FastifyInstance;
/** Each app's base URL: every request goes over a real socket. */
const bases = new Map<FastifyInstance, string>();
let tmp: string;
before(async () => {
  app = await communityApp();
  pooled = await communityApp({ WORKERS: '1', VALIDATION_INLINE_MAX_KB: '0' });
  pro = await proApp();
  for (const a of [app, pooled, pro]) bases.set(a, await listenLocal(a));
  tmp = mkdtempSync(join(tmpdir(), 'convert-drawn-'));
});
after(async () => {
  await Promise.all([app.close(), pooled.close(), pro.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

function post(on: FastifyInstance, url: string, parts: Part[]) {
  return postOverHttp(bases.get(on)!, url, parts);
}

const metadataPart = (meta: InvoiceMetadata | string): Part => ({
  name: 'metadata',
  value: typeof meta === 'string' ? meta : JSON.stringify(meta),
});

let texts = 0;

/** poppler's text of the PDF (`args`: e.g. a page range). */
function pdftotext(pdf: Uint8Array, args: string[] = []): string {
  const path = join(tmp, `t-${++texts}.pdf`);
  writeFileSync(path, pdf);
  const r = spawnSync('pdftotext', [...args, '-enc', 'UTF-8', path, '-'], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, ...SYNC_CHILD });
  rmSync(path);
  assert.equal(r.status, 0, `${r.stderr}${r.error ? ` (${r.error.message})` : ''}`);
  return r.stdout;
}

/** The embedded file `name`, saved by poppler's pdfdetach. */
function pdfdetach(pdf: Uint8Array, name: string): Buffer {
  const dir = mkdtempSync(join(tmp, 'detach-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const out = join(dir, 'out.xml');
    const r = spawnSync('pdfdetach', ['-savefile', name, '-o', out, join(dir, 'in.pdf')], { encoding: 'utf8', ...SYNC_CHILD });
    assert.equal(r.status, 0, `pdfdetach: ${r.stderr}${r.error ? ` (${r.error.message})` : ''}`);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The metadata each profile is converted from: the writer's scenarios, the French sub-lines for EXTENDED-CTC-FR. */
function scenarioFor(profile: ProfileId): InvoiceMetadata {
  if (profile === 'xrechnung') return SCENARIOS.xrechnung;
  if (profile === 'extended_ctc_fr') return { ...FR_SCENARIOS.uc12_sublines, profile };
  return { ...SCENARIOS.allowances_and_charges, profile };
}

/** A drawn hybrid: what /v1/xml writes is embedded, pro /v1/validate finds no error (PDF/A layer included), qpdf agrees. */
async function assertCompleteFacturX(pdf: Buffer, meta: InvoiceMetadata, lang: 'en' | 'de' | 'fr', what: string) {
  const profile = (meta.profile ?? 'en16931') as ProfileId;
  const fileName = profile === 'xrechnung' ? 'xrechnung.xml' : 'factur-x.xml';
  const read = await readPdf(pdf);
  const xml = read.attachments.find((a) => a.name === fileName);
  assert.ok(xml, `${what}: ${fileName} embedded`);
  assert.equal(Buffer.from(xml.content()).toString('utf8'), buildInvoiceXml(meta).xml, `${what}: the XML /v1/xml writes`);
  assert.equal(read.xmp?.pdfaPart, '3', what);
  // And read back by a tool that did not write it: poppler's pdfdetach saves the same bytes under the same name.
  assert.equal(pdfdetach(pdf, fileName).toString('utf8'), buildInvoiceXml(meta).xml, `${what}: pdfdetach -savefile ${fileName}`);

  const validation = await post(pro, '/v1/validate', [
    { name: 'file', value: pdf, filename: 'drawn.pdf' },
    { name: 'validate_pdfa', value: 'true' },
  ]);
  assert.equal(validation.statusCode, 200, validation.body.slice(0, 300));
  const v = validation.json();
  const errors = v.diagnostics.filter((d: { severity: string }) => d.severity === 'error');
  assert.deepEqual(
    errors.map((d: { rule_id: string; message: string }) => `${d.rule_id}: ${d.message}`),
    [],
    what,
  );
  assert.equal(v.valid, true, what);
  assert.equal(v.pdfa_valid, true, what);
  assert.ok(v.layers_executed.includes('pdfa3b'), `${what}: ${v.layers_executed}`);
  assert.equal(checkPdfa(pdf).valid, true, what);
  assert.equal(qpdfCheck(pdf).status, 0, what);

  const text = pdftotext(pdf);
  assert.ok(text.includes(meta.invoice_number), `${what}: invoice number`);
  const due = buildInvoiceXml(meta).invoice.totals.amountDue!;
  assert.ok(text.includes(formatDecimal(due, lang, false, 2)!.replace(/\u202f/g, ' ')), `${what}: amount due ${due}`);
  // The invoice its buyer reads: no business-term ids beside the labels.
  assert.doesNotMatch(text, /\bB[TG]-\d/, what);
}

test('every profile, no pdf part: 200, a complete hybrid that validates with no error, in the asked language', async () => {
  for (const [i, profile] of PROFILE_IDS.entries()) {
    const meta = scenarioFor(profile);
    const lang = (['en', 'de', 'fr'] as const)[i % 3];
    const res = await post(app, '/v1/convert', [metadataPart(meta), { name: 'lang', value: lang }]);
    assert.equal(res.statusCode, 200, `${profile}: ${res.body.slice(0, 300)}`);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(res.headers['content-disposition'], `attachment; filename="${meta.invoice_number}.pdf"`);
    assert.equal(res.headers['x-pdfa-check'], 'passed', profile);
    assert.equal(res.headers['x-pdfa-repairs'], undefined, `${profile}: the drawn PDF needs no repair`);
    assert.match(String(res.headers['x-render-pages']), /^[1-9]\d*$/);
    assert.match(String(res.headers['x-render-lines']), /^(\d+)\/\1$/);
    await assertCompleteFacturX(res.rawPayload, meta, lang, profile);
    const title = { en: 'Invoice', de: 'Rechnung', fr: 'Facture' }[lang];
    assert.ok(pdftotext(res.rawPayload).includes(`${title} ${meta.invoice_number}`), `${profile}: title in ${lang}`);
  }
});

test('MINIMUM and BASIC WL carry no lines in the XML; the drawn PDF still shows them', async () => {
  for (const profile of ['minimum', 'basic_wl'] as const) {
    const meta = { ...SCENARIOS.allowances_and_charges, profile };
    const res = await post(app, '/v1/convert', [metadataPart(meta)]);
    assert.equal(res.statusCode, 200);
    assert.doesNotMatch(buildInvoiceXml(meta).xml, /Office chair/);
    assert.match(pdftotext(res.rawPayload), /Office chair/, profile);
  }
});

test('through the worker pool: the same drawing and embedding', async () => {
  const meta = SCENARIOS.full_en16931;
  const res = await post(pooled, '/v1/convert', [metadataPart(meta), { name: 'lang', value: 'de' }]);
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  assert.ok(pooled.validation.counts.pool >= 1, 'ran in the pool');
  await assertCompleteFacturX(res.rawPayload, meta, 'de', 'pooled');
});

test('a 10,000-line invoice from metadata alone: every line drawn, the XML embedded whole, PDF/A-3b, within the job bound', async (t) => {
  const meta: InvoiceMetadata = {
    ...SCENARIOS.domestic,
    invoice_number: 'LONG-10000',
    line_items: Array.from({ length: 10_000 }, (_, i) => ({
      name: `Item ${i + 1}`,
      quantity: String((i % 5) + 1),
      unit_code: 'C62',
      net_price: `${(i % 90) + 10}.50`,
      vat_rate: '19',
    })),
  };
  const started = Date.now();
  // The XML job (write, draw) is bounded by the runner: past it the answer would be 422 PROCESSING_TIMEOUT, not a stall.
  const res = await post(app, '/v1/convert', [metadataPart(meta), { name: 'lang', value: 'fr' }]);
  t.diagnostic(
    `10,000 lines: ${Date.now() - started} ms end to end, ${res.headers['x-render-pages']} pages, ${(res.rawPayload.length / 2 ** 20).toFixed(1)} MB`,
  );
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  assert.equal(res.headers['x-render-lines'], '10000/10000');
  assert.ok(Number(res.headers['x-render-pages']) > 150, `${res.headers['x-render-pages']} pages`);
  assert.notEqual(res.headers['x-pdfa-check'], 'failed');
  const report = checkPdfa(res.rawPayload, { timeBudgetMs: 120_000 });
  assert.ok(report.complete);
  assert.deepEqual(
    report.findings.map((f) => `${f.clause}: ${f.message}`),
    [],
  );
  assert.equal(qpdfCheck(res.rawPayload).status, 0);
  assert.equal(pdfdetach(res.rawPayload, 'factur-x.xml').toString('utf8'), buildInvoiceXml(meta).xml);
  const last = pdftotext(res.rawPayload, ['-f', String(Number(res.headers['x-render-pages']) - 2)]);
  const due = formatDecimal(buildInvoiceXml(meta).invoice.totals.amountDue!, 'fr', false, 2)!.replace(/\u202f/g, ' ');
  assert.ok(last.includes(due), `amount due ${due} on the last pages:\n${last.slice(0, 500)}`);
  assert.match(last, /Item 10000\b/, 'the last line before the totals');
  assert.match(pdftotext(res.rawPayload, ['-f', '1', '-l', '1']), /Facture LONG-10000/);
});

test('characters no shipped font has: drawn as □ and counted in X-Render-Missing-Glyphs; still a valid Factur-X', async () => {
  const meta: InvoiceMetadata = {
    ...SCENARIOS.domestic,
    invoice_number: 'CJK-2',
    buyer: { ...SCENARIOS.domestic.buyer, name: '株式会社 例' },
  };
  const res = await post(app, '/v1/convert', [metadataPart(meta)]);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['x-render-missing-glyphs'], '5');
  assert.ok(pdftotext(res.rawPayload).includes('株式会社 例'));
  await assertCompleteFacturX(res.rawPayload, meta, 'en', 'CJK');
});

/** A ProblemDetails answer (RFC 9457) with the contract's status and code. */
function assertProblem(res: HttpAnswer, status: number, code: string): void {
  assert.equal(res.statusCode, status, res.body.slice(0, 300));
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json();
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  assert.equal(body.instance, '/v1/convert');
}

/** A request-shape 422 (HTTPValidationError) at `loc`. */
function assertShape(res: HttpAnswer, loc: string[]): void {
  assert.equal(res.statusCode, 422, res.body.slice(0, 300));
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.deepEqual(res.json().detail[0].loc, loc);
}

test('errors: an empty pdf part is 400 NOT_PDF, a pdf text field and a lang not accepted are 422, UBL metadata is 422', async () => {
  const meta = metadataPart(SCENARIOS.domestic);
  const empty = await post(app, '/v1/convert', [{ name: 'pdf', value: Buffer.alloc(0), filename: 'empty.pdf' }, meta]);
  assertProblem(empty, 400, 'NOT_PDF');

  const textField = await post(app, '/v1/convert', [{ name: 'pdf', value: 'not a file' }, meta]);
  assertShape(textField, ['body', 'pdf']);

  const lang = await post(app, '/v1/convert', [meta, { name: 'lang', value: 'es' }]);
  assertShape(lang, ['body', 'lang']);
  assert.equal(lang.json().detail[0].type, 'enum');

  const none = await post(app, '/v1/convert', [{ name: 'lang', value: 'de' }]);
  assertShape(none, ['body', 'metadata']);

  const ubl = await post(app, '/v1/convert', [metadataPart({ ...SCENARIOS.domestic, syntax: 'ubl' })]);
  assertShape(ubl, ['body', 'metadata', 'syntax']);

  const inconsistent = await post(app, '/v1/convert', [metadataPart({ ...SCENARIOS.domestic, amount_due: '1.00' })]);
  assertProblem(inconsistent, 400, 'METADATA_INCONSISTENT');
});

test('OpenAPI: metadata is the one required part; pdf, lang and the drawing headers are documented', async () => {
  const doc = await (await fetch(`${bases.get(app)}/openapi.json`, { signal: AbortSignal.timeout(60_000) })).json();
  const op = doc.paths['/v1/convert'].post;
  const form = op.requestBody.content['multipart/form-data'].schema;
  assert.deepEqual(form.required, ['metadata']);
  assert.ok(form.properties.pdf);
  assert.deepEqual(form.properties.lang.enum, ['en', 'de', 'fr']);
  assert.match(op.description, /Without a PDF/);
  for (const h of ['X-Render-Pages', 'X-Render-Lines', 'X-Render-Missing-Glyphs']) assert.ok(op.responses['200'].headers[h], h);
});

test('library: convert(undefined | null, metadata) draws; an empty Uint8Array is NOT_PDF; a bad lang is a ShapeError', async () => {
  for (const pdf of [undefined, null]) {
    const r = await convert(pdf, SCENARIOS.credit_note, { lang: 'fr' });
    assert.equal(r.filename, 'CN-1.pdf');
    assert.equal(r.pdfaCheck, 'passed');
    assert.deepEqual(r.drawn?.lines, { shown: 1, total: 1 });
    assert.ok(pdftotext(r.pdf).includes('Avoir CN-1'));
  }
  await assert.rejects(convert(new Uint8Array(0), SCENARIOS.domestic), (e) => e instanceof InvalidInputError && e.code === 'NOT_PDF');
  await assert.rejects(
    convert(undefined, SCENARIOS.domestic, { lang: 'it' }),
    (e) => e instanceof ShapeError && e.issues[0].loc[0] === 'lang',
  );
});

test('CLI: einvoice convert METADATA.json -o OUT.pdf draws (--lang); a lone PDF, a bad --lang or no -o are usage errors', async () => {
  const meta = join(tmp, 'invoice.json');
  writeFileSync(meta, JSON.stringify(SCENARIOS.xrechnung));
  const out = join(tmp, 'drawn.pdf');
  const ok = await runCli(['convert', meta, '-o', out, '--lang', 'de']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, '');
  assert.equal(ok.stderr, '', 'quiet when there is nothing to say');
  await assertCompleteFacturX(readFileSync(out), SCENARIOS.xrechnung, 'de', 'CLI');

  const lonePdf = await runCli(['convert', out, '-o', join(tmp, 'x.pdf')]);
  assert.equal(lonePdf.code, 2);
  assert.match(lonePdf.stderr, /convert needs METADATA\.json/);
  const badLang = await runCli(['convert', meta, '-o', join(tmp, 'y.pdf'), '--lang', 'es']);
  assert.equal(badLang.code, 2);
  assert.match(badLang.stderr, /--lang: Input should be 'en', 'de', 'fr'/);
  const noOutput = await runCli(['convert', meta]);
  assert.equal(noOutput.code, 2);
  const three = await runCli(['convert', meta, meta, meta, '-o', join(tmp, 'z.pdf')]);
  assert.equal(three.code, 2);
  assert.match(three.stderr, /takes 1 or 2 arguments, got 3/);
  const help = await runCli(['convert', '--help']);
  assert.match(help.stdout, /^Usage: einvoice convert \[PDF\] METADATA\.json/);
});
