/**
 * The PDF view of the rendering (issue #32, src/render/pdf.ts), read back by tools that did not write it:
 * - our PDF/A-3b checker (src/pdfa) and `qpdf --check` on every document;
 * - poppler's pdftotext: the invoice number and the amount due, formatted as the language writes them, for the writer's
 *   scenarios in all three languages; every term the render model holds (its display text, a code's meaning and the
 *   code) for the fixture invoices (CII in every profile, XRechnung with sub-lines, UBL invoice and credit note,
 *   EXTENDED-CTC-FR, Factur-X PDFs); page numbers and the repeated table header on every page of a long invoice;
 * - poppler's pdffonts: two embedded subset fonts (Type 0 over TrueType) with ToUnicode maps;
 * - the bounds: a character no font has (drawn as □, extracted as itself, named in a notice), a value longer than the
 *   cut, the lines' and the document's page bounds said on the page.
 * Over HTTP, against the service as a real process (src/main.ts on an ephemeral port): format=pdf in en, de and fr
 * for an XML and a Factur-X PDF, the error answers (a format or lang not accepted, no file, an empty file, a PDF without
 * invoice XML), and a 10,000-line invoice: every line drawn, PDF/A-3b, with the server's peak memory bounded.
 * More HTTP and the CLI: test/render-endpoint.test.ts (render) and test/convert-drawn.test.ts (convert without a PDF).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingest } from '../src/input/ingest.js';
import { buildInvoiceXml } from '../src/metadata/index.js';
import type { InvoiceMetadata } from '../src/metadata/schema.js';
import { renderIngested, renderModelOf } from '../src/render/render.js';
import { termsOf, toRenderModel, type RenderModel } from '../src/render/model.js';
import { renderPdf } from '../src/render/pdf.js';
import { prepareText, MAX_VALUE_CHARS } from '../src/render/pdf-layout.js';
import { valueText } from '../src/render/view.js';
import { formatDecimal } from '../src/render/format.js';
import type { Lang } from '../src/render/labels.js';
import { checkPdfa } from '../src/pdfa/index.js';
import { facturxPdf, FIXTURES, readFixture } from './fixtures.js';
import { qpdfCheck } from './hybrid-pdf-reader.js';
import { type HttpAnswer, postOverHttp, type Part } from './helpers.js';
import { makePdf } from './cli-fixtures.js';
import { startServer, SYNC_CHILD, type ServerProcess } from './spawned.js';
import { SCENARIOS } from './invoice-scenarios.js';
import { FR_SCENARIOS } from './extended-ctc-fr-scenarios.js';

const LANGS: Lang[] = ['en', 'de', 'fr'];

/** Run a poppler tool on the PDF (written to a temporary file); its stdout. */
function poppler(tool: string, pdf: Uint8Array, args: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'render-pdf-'));
  try {
    const path = join(dir, 'in.pdf');
    writeFileSync(path, pdf);
    const r = spawnSync(tool, [...args, path, ...(tool === 'pdftotext' ? ['-'] : [])], {
      encoding: 'utf8',
      maxBuffer: 256 * 2 ** 20,
      ...SYNC_CHILD,
    });
    assert.equal(r.status, 0, `${tool}: ${r.stderr}${r.error ? ` (${r.error.message})` : ''}`);
    return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text in content-stream order (-raw: a cell's lines stay together), whitespace removed. */
const rawText = (pdf: Uint8Array) => squeeze(poppler('pdftotext', pdf, ['-raw', '-enc', 'UTF-8']));
const squeeze = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, '');

/** A document passes our PDF/A-3b checker and qpdf --check. */
function assertPdfa3b(pdf: Uint8Array, what: string): void {
  const report = checkPdfa(pdf, { timeBudgetMs: 60_000 });
  assert.equal(report.part, 3, what);
  assert.equal(report.conformance, 'B', what);
  assert.ok(report.complete, what);
  assert.deepEqual(
    report.findings.map((f) => `${f.clause}: ${f.message}`),
    [],
    what,
  );
  const q = qpdfCheck(pdf);
  assert.equal(q.status, 0, `${what}: ${q.output}`);
}

/** Every term of the model (its display text; a code's meaning and the code) is in the document's text. */
function assertAllTerms(model: RenderModel, pdf: Uint8Array, lang: Lang, what: string): number {
  const text = rawText(pdf);
  let n = 0;
  for (const section of model.sections)
    for (const group of section.groups)
      for (const t of termsOf(group)) {
        const v = valueText(t, lang);
        const shown = squeeze(prepareText(v.text, t.kind === 'note').text).slice(0, 300);
        assert.ok(text.includes(shown), `${what} (${lang}): ${t.bt} "${shown.slice(0, 80)}" not in the text`);
        if (v.code !== undefined)
          assert.ok(text.includes(squeeze(`(${prepareText(v.code, false).text})`)), `${what}: ${t.bt} code ${v.code}`);
        n++;
      }
  return n;
}

test('the writer scenarios in en, de and fr: PDF/A-3b, qpdf --check, and poppler reads the invoice number and the amount due', async () => {
  for (const [name, meta] of Object.entries(SCENARIOS)) {
    const ing = await ingest(Buffer.from(buildInvoiceXml(meta).xml));
    for (const lang of LANGS) {
      const page = await renderIngested(ing, { format: 'pdf', lang });
      const what = `${name} ${lang}`;
      assertPdfa3b(page.pdf, what);
      const text = poppler('pdftotext', page.pdf, ['-enc', 'UTF-8']);
      assert.ok(text.includes(meta.invoice_number), `${what}: invoice number`);
      const due = ing.invoice!.totals.amountDue!;
      const shown = formatDecimal(due, lang, false, 2)!;
      // French groups digits with a narrow no-break space, which poppler extracts as a space.
      assert.ok(text.includes(shown.replace(/\u202f/g, ' ')), `${what}: amount due ${shown} in\n${text.slice(0, 400)}`);
      assert.ok(text.includes({ en: 'Amount due', de: 'Zahlbetrag', fr: 'Montant à payer' }[lang]), `${what}: label`);
      assert.match(text, { en: /Page 1 of \d/, de: /Seite 1 von \d/, fr: /Page 1 sur \d/ }[lang], what);
      assert.equal(page.missingGlyphs, 0, what);
    }
  }
});

function fixtureInvoices(): string[] {
  const dirs = [
    'cen/examples/cii',
    'cen/examples/ubl',
    'kosit/instances/cii',
    'kosit/instances/ubl-inv',
    'kosit/instances/ubl-cn',
    'extended-ctc-fr/invoices',
  ];
  return dirs.flatMap((d) =>
    readdirSync(join(FIXTURES, d))
      .filter((f) => f.endsWith('.xml'))
      .map((f) => `${d}/${f}`),
  );
}

test('every term the render model holds is in the document text, for the fixture invoices and a Factur-X PDF', async () => {
  const files = fixtureInvoices();
  assert.ok(files.length >= 25, `${files.length} fixtures`);
  let terms = 0;
  const inputs: [string, Uint8Array][] = files.map((f) => [f, readFixture(f)]);
  inputs.push(['Factur-X EN 16931 PDF', await facturxPdf()]);
  for (const [i, [what, bytes]] of inputs.entries()) {
    const lang = LANGS[i % 3];
    const ing = await ingest(bytes);
    if (!ing.invoice) continue;
    const model = renderModelOf(ing);
    const { pdf } = await renderPdf(model, lang);
    assertPdfa3b(pdf, what);
    terms += assertAllTerms(model, pdf, lang, what);
  }
  assert.ok(terms > 1500, `${terms} terms checked`);
});

test('every term of a full EN 16931 invoice and of EXTENDED-CTC-FR sub-lines, in all three languages', async () => {
  for (const meta of [SCENARIOS.full_en16931, SCENARIOS.allowances_and_charges, FR_SCENARIOS.uc12_sublines]) {
    const { invoice } = buildInvoiceXml(meta);
    const model = toRenderModel(invoice);
    for (const lang of LANGS) {
      const { pdf } = await renderPdf(model, lang, { termIds: lang !== 'fr' });
      assertAllTerms(model, pdf, lang, meta.invoice_number);
    }
  }
});

test('fonts: two embedded subsets (Type 0 over CID TrueType) with ToUnicode; BT ids beside the labels unless asked not to', async () => {
  const model = renderModelOf(await ingest(readFixture('cen/examples/cii/CII_example4.xml')));
  const { pdf } = await renderPdf(model, 'en');
  const fonts = poppler('pdffonts', pdf).split('\n').slice(2).filter(Boolean);
  assert.equal(fonts.length, 2, fonts.join('\n'));
  for (const line of fonts) {
    assert.match(line, /^[A-Z]{6}\+EinvoiceSans(-Bold)?\s+CID TrueType\s+Identity-H\s+yes\s+yes\s+yes\s/, line);
  }
  const withIds = poppler('pdftotext', pdf, ['-enc', 'UTF-8']);
  assert.match(withIds, /Invoice number|BT-1\b/);
  assert.match(withIds, /Seller BG-4/);
  const { pdf: plain } = await renderPdf(model, 'en', { termIds: false });
  const withoutIds = poppler('pdftotext', plain, ['-enc', 'UTF-8']);
  assert.doesNotMatch(withoutIds, /\bB[TG]-\d/);
  assert.match(withoutIds, /Seller/);
});

test('the same invoice at the same time gives the same bytes (the trailer /ID comes from the content)', async () => {
  const model = renderModelOf(await ingest(readFixture('cen/examples/cii/CII_example5.xml')));
  const now = new Date('2026-11-28T10:00:00Z');
  const a = await renderPdf(model, 'de', { now });
  const b = await renderPdf(model, 'de', { now });
  assert.deepEqual(Buffer.from(a.pdf), Buffer.from(b.pdf));
  const c = await renderPdf(model, 'fr', { now });
  assert.notDeepEqual(Buffer.from(a.pdf), Buffer.from(c.pdf));
});

/** Metadata with `n` lines, each with a description. */
function manyLines(n: number, extra: Partial<InvoiceMetadata> = {}): InvoiceMetadata {
  return {
    ...SCENARIOS.domestic,
    invoice_number: `LONG-${n}`,
    line_items: Array.from({ length: n }, (_, i) => ({
      name: `Item ${i + 1}`,
      description:
        i % 7 === 0 ? 'A description long enough to wrap onto a second line of the item column in the table of lines.' : undefined,
      quantity: String((i % 5) + 1),
      unit_code: 'C62',
      net_price: `${(i % 90) + 10}.50`,
      vat_rate: '19',
    })),
    ...extra,
  };
}

test('a long invoice: the lines table breaks across pages with its header repeated, every page numbered, totals at the end', async () => {
  const { invoice } = buildInvoiceXml(manyLines(300));
  const model = toRenderModel(invoice);
  const page = await renderPdf(model, 'en');
  assertPdfa3b(page.pdf, '300 lines');
  assert.equal(page.linesDrawn, 300);
  assert.ok(page.pages >= 6, `${page.pages} pages`);
  for (let p = 1; p <= page.pages; p++) {
    const text = poppler('pdftotext', page.pdf, ['-f', String(p), '-l', String(p), '-enc', 'UTF-8']);
    assert.match(text, new RegExp(`Page ${p} of ${page.pages}`), `page ${p}`);
    assert.match(text, /Invoice LONG-300/, `running title on page ${p}`);
    const hasLines = /Item \d+/.test(text);
    if (hasLines) assert.match(text, /Unit price[\s\S]*Net amount/, `header on page ${p}`);
  }
  const all = rawText(page.pdf);
  for (const id of ['Item1', 'Item150', 'Item300']) assert.ok(all.includes(id), id);
  assert.ok(all.indexOf('Amountdue') > all.indexOf('Item300'), 'the totals after the last line');
});

test('bounds: the lines stop at their page bound and the document at its bound, each saying so; the sections after the lines stay', async () => {
  const { invoice } = buildInvoiceXml(manyLines(400));
  const model = toRenderModel(invoice);
  const cut = await renderPdf(model, 'de', { maxLinePages: 2 });
  assertPdfa3b(cut.pdf, 'line bound');
  assert.ok(cut.linesDrawn > 20 && cut.linesDrawn < 400, `${cut.linesDrawn} lines drawn`);
  const text = poppler('pdftotext', cut.pdf, ['-enc', 'UTF-8']);
  const shown = formatDecimal(String(cut.linesDrawn), 'de');
  assert.match(text.replace(/\s+/g, ' '), new RegExp(`zeigt die ersten ${shown} von 400 Positionen`));
  assert.match(text, /Zahlbetrag/, 'totals after the cut lines');

  const full = await renderPdf(model, 'en', { maxPages: 3 });
  assertPdfa3b(full.pdf, 'document bound');
  assert.equal(full.pages, 3);
  const last = poppler('pdftotext', full.pdf, ['-f', '3', '-l', '3', '-enc', 'UTF-8']);
  assert.match(last.replace(/\s+/g, ' '), /This document stops here, at 3 pages/);
});

test('characters no shipped font has: drawn as □ (never .notdef), extracted as themselves, named in a notice', async () => {
  const meta: InvoiceMetadata = {
    ...SCENARIOS.domestic,
    invoice_number: 'CJK-1',
    buyer: { ...SCENARIOS.domestic.buyer, name: '北京示例有限公司 Ünïcödé' },
    notes: [{ text: 'Emoji 😀, Arabic مرحبا, Greek αβγ, Cyrillic Привет, combining e\u0301' }],
  };
  const model = toRenderModel(buildInvoiceXml(meta).invoice);
  const page = await renderPdf(model, 'fr');
  assertPdfa3b(page.pdf, 'CJK');
  const missing = new Set(page.missingGlyphs.map((m) => m.codePoint));
  assert.ok(missing.has(0x5317) && missing.has(0x1f600) && missing.has(0x0645), [...missing].join(','));
  for (const covered of [0xdc, 0x3b1, 0x41f, 0xe9]) assert.ok(!missing.has(covered), `U+${covered.toString(16)} is in the font`);
  const text = poppler('pdftotext', page.pdf, ['-enc', 'UTF-8']);
  assert.ok(text.includes('北京示例有限公司 Ünïcödé'), 'CJK extracted as itself');
  assert.ok(text.includes('😀'), 'emoji extracted');
  // The combining accent is composed (NFC) and drawn with the font's é.
  assert.ok(text.includes('combining é'), 'composed');
  assert.match(text.replace(/\s+/g, ' '), /caractères ne figurent pas dans les polices intégrées .*U\+5317/);
});

test('a value longer than the cut is drawn up to it and says how much is left out; hostile text stays text', async () => {
  const long = `${'Lorem ipsum dolor sit amet. '.repeat(500)}END`;
  const meta: InvoiceMetadata = {
    ...SCENARIOS.domestic,
    invoice_number: 'LONG-NOTE',
    notes: [{ text: long }, { text: 'BT /F1 12 Tf (injected) Tj ET <> ) ( \\ %%EOF' }],
    line_items: [{ name: 'x'.repeat(3000), quantity: '1', unit_code: 'C62', net_price: '10.00', vat_rate: '19' }],
  };
  const model = toRenderModel(buildInvoiceXml(meta).invoice);
  const page = await renderPdf(model, 'en');
  assertPdfa3b(page.pdf, 'long note');
  const text = poppler('pdftotext', page.pdf, ['-enc', 'UTF-8']).replace(/\s+/g, ' ');
  assert.match(
    text,
    new RegExp(`… \\(${formatDecimal(String(long.length - MAX_VALUE_CHARS), 'en')} more characters in the invoice XML\\)`),
  );
  assert.ok(!text.includes('END'), 'the cut part is not drawn');
  assert.ok(text.includes('BT /F1 12 Tf (injected) Tj ET <> ) ( \\ %%EOF'), 'operators in a value are text');
  // A 3,000-character word is broken across lines (and pages): every character drawn.
  assert.ok((squeeze(text).match(/x{20,}/g) ?? []).join('').length === 3000, 'every x of the long word');
});

// ------------------------------------------------------------------------------------------ over HTTP

let server: ServerProcess | undefined;

/** The real service in a process of its own, started once for the tests below, killed when the file ends. */
async function service(): Promise<ServerProcess> {
  // The 10,000-line CII below is 11.4 MB of XML: over the default 10 MB upload limit, so the limit is raised for it.
  server ??= await startServer(undefined, { MAX_UPLOAD_SIZE_MB: '32' });
  return server;
}
after(async () => {
  await server?.kill();
});

async function renderOverHttp(parts: Part[]): Promise<HttpAnswer> {
  return postOverHttp((await service()).url, '/v1/render', parts, 180_000);
}

const upload = (value: Uint8Array | string, filename: string): Part => ({
  name: 'file',
  value: typeof value === 'string' ? value : Buffer.from(value),
  filename,
});

/** A ProblemDetails answer (RFC 9457) with its status and code. */
function assertProblem(res: HttpAnswer, status: number, code: string): void {
  assert.equal(res.statusCode, status, res.body.slice(0, 300));
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json();
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(typeof body.title, 'string');
  assert.equal(body.instance, '/v1/render');
}

/** A request-shape 422 (HTTPValidationError) at `loc`. */
function assertShape(res: HttpAnswer, loc: string[], type?: string): void {
  assert.equal(res.statusCode, 422, res.body.slice(0, 300));
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const [first] = res.json().detail;
  assert.deepEqual(first.loc, loc);
  if (type) assert.equal(first.type, type);
}

test('HTTP, the real service: format=pdf for an XML and a Factur-X PDF in en, de and fr — PDF/A-3b, qpdf, the number and the amount due in the text', async () => {
  const inputs: [string, Uint8Array, string, string][] = [
    ['CII EN 16931', readFixture('cen/examples/cii/CII_example4.xml'), 'invoice.xml', 'TOSL110'],
    ['UBL invoice', readFixture('cen/examples/ubl/ubl-tc434-example1.xml'), 'ubl.xml', '12115118'],
    ['Factur-X PDF', await facturxPdf(), 'invoice.pdf', 'TOSL110'],
  ];
  for (const [what, bytes, filename, number] of inputs) {
    const ing = await ingest(bytes);
    const due = ing.invoice!.totals.amountDue!;
    for (const lang of LANGS) {
      const res = await renderOverHttp([upload(bytes, filename), { name: 'format', value: 'pdf' }, { name: 'lang', value: lang }]);
      const label = `${what} ${lang}`;
      assert.equal(res.statusCode, 200, `${label}: ${res.body.slice(0, 300)}`);
      assert.equal(res.headers['content-type'], 'application/pdf', label);
      assert.equal(res.headers['content-disposition'], `attachment; filename="${number}.pdf"`, label);
      assert.match(String(res.headers['x-render-lines']), /^(\d+)\/\1$/, label);
      assert.match(String(res.headers['x-render-pages']), /^[1-9]\d*$/, label);
      assertPdfa3b(res.rawPayload, label);
      const text = poppler('pdftotext', res.rawPayload, ['-enc', 'UTF-8']);
      assert.ok(text.includes(number), `${label}: invoice number`);
      const shown = formatDecimal(due, lang, false, 2)!.replace(/\u202f/g, ' ');
      assert.ok(text.includes(shown), `${label}: amount due ${shown}`);
      assert.ok(text.includes({ en: 'Amount due', de: 'Zahlbetrag', fr: 'Montant à payer' }[lang]), `${label}: label`);
    }
  }
});

test('HTTP, the real service: a format or lang not accepted and a missing file are 422 HTTPValidationError; an empty file, a non-invoice and a PDF without invoice XML are ProblemDetails', async () => {
  const xml = readFixture('cen/examples/cii/CII_example4.xml');
  assertShape(await renderOverHttp([upload(xml, 'i.xml'), { name: 'format', value: 'docx' }]), ['body', 'format'], 'enum');
  assertShape(
    await renderOverHttp([upload(xml, 'i.xml'), { name: 'format', value: 'pdf' }, { name: 'lang', value: 'es' }]),
    ['body', 'lang'],
    'enum',
  );
  assertShape(await renderOverHttp([{ name: 'format', value: 'pdf' }]), ['body', 'file']);
  assertProblem(await renderOverHttp([upload('', 'empty.xml'), { name: 'format', value: 'pdf' }]), 400, 'EMPTY_FILE');
  assertProblem(await renderOverHttp([upload('just text', 'a.txt'), { name: 'format', value: 'pdf' }]), 400, 'NOT_PDF_OR_XML');
  assertProblem(await renderOverHttp([upload(await makePdf(), 'plain.pdf'), { name: 'format', value: 'pdf' }]), 422, 'NO_XML');
  assertProblem(await renderOverHttp([upload('<a/>', 'a.xml'), { name: 'format', value: 'pdf' }]), 422, 'UNKNOWN_XML');
});

/** The peak resident memory of a process (VmHWM), in MB. */
function peakMb(pid: number): number {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(m, 'VmHWM');
  return Number(m[1]) / 1024;
}

test('HTTP, the real service: a 10,000-line invoice is drawn whole (every line, PDF/A-3b) and the server stays within its memory bound', async (t) => {
  const { xml, invoice } = buildInvoiceXml(manyLines(10_000));
  const srv = await service();
  const pid = srv.listening()[0] ?? srv.child.pid!;
  const started = Date.now();
  const res = await renderOverHttp([upload(xml, 'long.xml'), { name: 'format', value: 'pdf' }, { name: 'lang', value: 'de' }]);
  const ms = Date.now() - started;
  const peak = peakMb(pid);
  t.diagnostic(
    `10,000 lines (${(xml.length / 2 ** 20).toFixed(1)} MB XML): ${ms} ms end to end, ${res.headers['x-render-pages']} pages, ` +
      `${(res.rawPayload.length / 2 ** 20).toFixed(1)} MB PDF, server peak RSS ${peak.toFixed(0)} MB`,
  );
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  assert.equal(res.headers['x-render-lines'], '10000/10000');
  const pages = Number(res.headers['x-render-pages']);
  assert.ok(pages > 150 && pages < 2_500, `${pages} pages`);
  // Drawn in bounded memory: the server process (HTTP, parse, model, drawing, its worker threads) never held 1 GB.
  assert.ok(peak < 1024, `server peak RSS ${peak.toFixed(0)} MB`);
  assertPdfa3b(res.rawPayload, '10,000 lines');
  const first = poppler('pdftotext', res.rawPayload, ['-f', '1', '-l', '1', '-enc', 'UTF-8']);
  assert.match(first, new RegExp(`Seite 1 von ${pages}`));
  assert.match(first, /Rechnung LONG-10000/);
  const end = poppler('pdftotext', res.rawPayload, ['-f', String(pages - 2), '-enc', 'UTF-8']);
  assert.match(end, /Item 10000\b/);
  const due = formatDecimal(invoice.totals.amountDue!, 'de', false, 2)!;
  assert.ok(end.includes(due), `amount due ${due} at the end`);
  // The bound the issue asks for holds by construction too: the lines may take MAX_LINE_PAGES pages, then the page says
  // how many it shows (the bounds test above reaches it with a lower bound).
});
