/**
 * Rendering (issue #32), from the fixtures and the writer's invoices (no corpus: test/conformance/render-corpus.test.ts
 * runs the same check over every corpus invoice):
 * - the page shows every term the model holds, with its value, as often as it occurs (test/render-terms.ts: the model
 *   walked with its own table, the page read back with parse5), in every profile and syntax and in all three languages;
 * - hostile text stays text; code meanings, number and date forms; sub-lines nested; attachments as data: links within
 *   their bound; the line bound says so on the page; every id the render model uses has a label in every language;
 * - the library's render() and its typed errors.
 * HTTP and CLI: test/render-endpoint.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'parse5';
import { ingest } from '../src/input/ingest.js';
import { buildInvoiceXml } from '../src/metadata/index.js';
import { PROFILE_IDS } from '../src/model/profiles.js';
import { renderIngested, renderModelOf } from '../src/render/render.js';
import { SOURCE_PATHS_MAX_LINES, termsOf } from '../src/render/model.js';
import { labelledIds, LANGUAGES, label } from '../src/render/labels.js';
import { codeMeaning } from '../src/render/codes.js';
import { formatDate, formatDecimal, isIsoDate } from '../src/render/format.js';
import { MAX_DATA_URL_CHARS } from '../src/render/html.js';
import { render, InvalidInputError, ShapeError, UnprocessableError } from '../src/lib/index.js';
import { facturxPdf, FIXTURES, readFixture } from './fixtures.js';
import { makePdf } from './cli-fixtures.js';
import { SCENARIOS } from './invoice-scenarios.js';
import { compareTerms, modelTerms, pageTerms } from './render-terms.js';

function fixtureInvoices(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      // real-world-pdf/ holds ordinary PDFs (no invoice in most) and damaged ones: test/real-world-pdf.test.ts covers it.
      else if (/\.(xml|pdf)$/i.test(e.name) && !p.includes('/fuzz') && !p.includes('/verapdf/') && !p.includes('/real-world-pdf/'))
        out.push(p);
    }
  };
  walk(FIXTURES);
  return out;
}

async function pageOf(bytes: Uint8Array, lang: 'en' | 'de' | 'fr' = 'en') {
  const ing = await ingest(bytes);
  assert.ok(ing.invoice, 'an invoice');
  return { ing, page: renderIngested(ing, { lang }) };
}

/** Every term of the model on the page, with its value, as often as it occurs; nothing else marked. */
async function assertComplete(bytes: Uint8Array, what: string, lang: 'en' | 'de' | 'fr' = 'en'): Promise<number> {
  const { ing, page } = await pageOf(bytes, lang);
  const pairs = modelTerms(ing.invoice!);
  const diff = compareTerms(pairs, pageTerms(page.html));
  assert.deepEqual({ missing: diff.missing, extra: diff.extra }, { missing: [], extra: [] }, what);
  return pairs.length;
}

test('every fixture invoice: the page shows every term of the model with its value, as often as it occurs', async () => {
  let files = 0;
  let pairs = 0;
  for (const file of fixtureInvoices()) {
    const ing = await ingest(readFixture(relative(FIXTURES, file)));
    if (!ing.invoice) continue;
    files++;
    pairs += await assertComplete(readFixture(relative(FIXTURES, file)), file);
  }
  assert.ok(files >= 30, `${files} fixture invoices`);
  assert.ok(pairs > 2_000, `${pairs} pairs`);
});

test('every profile the writer makes, and a Factur-X PDF, in all three languages', async () => {
  for (const profile of PROFILE_IDS) {
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      let xml: string;
      try {
        xml = buildInvoiceXml({ ...scenario, profile }).xml;
      } catch {
        continue; // a scenario a profile cannot carry (the writer refuses it)
      }
      for (const lang of LANGUAGES) await assertComplete(Buffer.from(xml), `${name} ${profile} ${lang}`, lang);
    }
  }
  const pdf = await facturxPdf();
  const { page } = await pageOf(pdf);
  assert.match(page.html, /<p class="source">Source: Factur-X · EN 16931 · CII · from the PDF attachment factur-x\.xml<\/p>/);
  await assertComplete(pdf, 'Factur-X PDF');
});

test('the comparison can fail: a value missing from the page, or a changed one, is reported', async () => {
  const { ing, page } = await pageOf(readFixture('cen/examples/cii/CII_example4.xml'));
  const terms = pageTerms(page.html);
  const i = terms.findIndex((t) => t.bt === 'BT-131');
  const dropped = compareTerms(modelTerms(ing.invoice!), [...terms.slice(0, i), ...terms.slice(i + 1)]);
  assert.deepEqual(dropped.missing, [['BT-131', terms[i].value]]);
  const changed = compareTerms(
    modelTerms(ing.invoice!),
    terms.map((t) => (t.bt === 'BT-1' ? { ...t, value: `${t.value}x` } : t)),
  );
  assert.equal(changed.missing.length, 1);
  assert.equal(changed.extra.length, 1);
});

test('the page is self-contained: no script, nothing loaded from elsewhere, a CSP that forbids both', async () => {
  const { page } = await pageOf(readFixture('cen/examples/ubl/ubl-tc434-example1.xml'));
  const html = page.html;
  assert.match(html, /^<!DOCTYPE html><html lang="en">/);
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'/);
  assert.doesNotMatch(html, /<script|<link|<img|<iframe|<object|<embed|@import|url\(|\ssrc=/i);
  assert.match(html, /@page\{size:A4/);
});

/** A UBL invoice with hostile text in a name, a note, a line, and a javascript: location. */
function hostileUbl(): Buffer {
  const xml = readFixture('cen/examples/ubl/ubl-tc434-example1.xml').toString('utf8');
  return Buffer.from(
    xml
      .replace(
        /(<cac:AccountingSupplierParty>[\s\S]*?<cbc:RegistrationName>)[^<]*/,
        '$1&lt;script&gt;alert(1)&lt;/script&gt; "Q" &amp; \'A\'&#13;',
      )
      .replace(/<cbc:Note>[^<]*/, '<cbc:Note>Line one\n&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;img src=x onerror=alert(2)&gt;')
      .replace(/(<cac:InvoiceLine>[\s\S]*?<cbc:Name>)[^<]*/, '$1<![CDATA[<b onmouseover="x">bold</b>]]>')
      .replace(
        '<cac:AccountingSupplierParty>',
        '<cac:AdditionalDocumentReference><cbc:ID>X1</cbc:ID><cac:Attachment><cac:ExternalReference><cbc:URI>javascript:alert(3)</cbc:URI></cac:ExternalReference></cac:Attachment></cac:AdditionalDocumentReference><cac:AccountingSupplierParty>',
      ),
  );
}

test('hostile text stays text: markup, quotes, a carriage return and a javascript: location are escaped values', async () => {
  const bytes = hostileUbl();
  await assertComplete(bytes, 'hostile UBL');
  const { page } = await pageOf(bytes);
  const elements: string[] = [];
  const stack = [parse(page.html) as unknown as { nodeName: string; attrs?: { name: string; value: string }[]; childNodes?: unknown[] }];
  while (stack.length) {
    const n = stack.pop()!;
    elements.push(n.nodeName);
    for (const a of n.attrs ?? []) {
      assert.doesNotMatch(a.name, /^on/, `no event handler attribute (${a.name})`);
      if (a.name === 'href') assert.match(a.value, /^(https?:|mailto:|data:)/, a.value);
    }
    stack.push(...((n.childNodes ?? []) as (typeof stack)[number][]));
  }
  for (const tag of ['script', 'img', 'b']) assert.ok(!elements.includes(tag), `no <${tag}> element`);
  const seller = pageTerms(page.html).find((t) => t.bt === 'BT-27');
  assert.equal(seller?.value, '<script>alert(1)</script> "Q" & \'A\'\r');
  assert.ok(pageTerms(page.html).some((t) => t.bt === 'BT-124' && t.value === 'javascript:alert(3)' && t.tag === 'span'));
});

test('values: dates in <time datetime>, decimals and codes in <data value>, shown in the language’s forms with meanings', async () => {
  const bytes = readFixture('cen/examples/cii/CII_example4.xml');
  const de = (await pageOf(bytes, 'de')).page.html;
  assert.match(de, /<time data-bt="BT-2" data-src="[^"]+" datetime="2013-04-10">10\.04\.2013<\/time>/);
  assert.match(de, /<data data-bt="BT-112" data-src="[^"]+" value="4675">4\.675,00<\/data>/);
  assert.match(de, /<data data-bt="BT-5" data-src="[^"]+" value="DKK">Dänische Krone <span class="code">\(DKK\)<\/span><\/data>/);
  assert.match(de, /<data data-bt="BT-118" [^>]*value="S">Normalsatz/);
  const fr = (await pageOf(bytes, 'fr')).page.html;
  assert.match(fr, /<time data-bt="BT-2" [^>]*datetime="2013-04-10">10\/04\/2013<\/time>/);
  assert.match(fr, />4\u202f675,00<\/data>/);
  assert.match(fr, /<h1>Facture <span data-bt="BT-1"/);
  const en = (await pageOf(bytes, 'en')).page.html;
  assert.match(en, />10 Apr 2013<\/time>/);
  assert.match(en, />4,675.00<\/data>/);
  assert.match(en, /<data data-bt="BT-130" [^>]*value="C62">unit <span class="code">\(C62\)<\/span><\/data>/);
  assert.equal(formatDecimal('-1234567.5', 'de', false, 2), '-1.234.567,50');
  assert.equal(formatDecimal('19.000', 'en', true), '19');
  assert.equal(formatDecimal('.5', 'en'), '0.5');
  assert.equal(formatDecimal('12345678901234567890.123456789', 'en'), '12,345,678,901,234,567,890.123456789');
  assert.equal(formatDecimal('1e5', 'en'), undefined);
  assert.equal(formatDecimal('9'.repeat(101), 'en'), undefined); // too long to be an amount: shown as written
  assert.equal(isIsoDate('2024-02-29'), true);
  assert.equal(isIsoDate('2023-02-29'), false);
  assert.equal(formatDate('2026-01-31', 'en'), '31 Jan 2026');
  assert.equal(codeMeaning('country', 'DE', 'fr'), 'Allemagne');
  assert.equal(codeMeaning('unit', 'constructor', 'en'), undefined);
  assert.equal(codeMeaning('paymentMeans', '58', 'de'), 'SEPA-Überweisung');
});

test('a value that is not a date or a decimal is shown as written, marked, without a formatted form', async () => {
  const xml = readFixture('cen/examples/ubl/ubl-tc434-example1.xml')
    .toString('utf8')
    .replace(/<cbc:IssueDate>[^<]*/, '<cbc:IssueDate>31.01.2024')
    .replace(/(<cac:LegalMonetaryTotal>[\s\S]*?<cbc:LineExtensionAmount[^>]*>)[^<]*/, `$1${'9'.repeat(2_000_000)}`)
    .replace(/(<cac:LegalMonetaryTotal>[\s\S]*?<cbc:PayableAmount[^>]*>)[^<]*/, '$1twelve');
  await assertComplete(Buffer.from(xml), 'bad values');
  const { page } = await pageOf(Buffer.from(xml));
  assert.match(page.html, /<span data-bt="BT-2" [^>]*class="bad"[^>]*>31\.01\.2024<\/span>/);
  assert.match(page.html, /<span data-bt="BT-115" [^>]*class="bad">twelve<\/span>/);
  assert.match(page.html, /<span data-bt="BT-106" [^>]*class="bad">9{2000000}<\/span>/);
});

/** UBL example 1 with sub-lines (XRechnung extension) two deep in its first line. */
function ublWithSubLines(): Buffer {
  const xml = readFixture('cen/examples/ubl/ubl-tc434-example1.xml').toString('utf8');
  const sub = (id: string, inner = '') =>
    `<cac:SubInvoiceLine><cbc:ID>${id}</cbc:ID><cbc:InvoicedQuantity unitCode="HUR">2</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">20.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Part ${id}</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">10</cbc:PriceAmount></cac:Price>${inner}</cac:SubInvoiceLine>`;
  const i = xml.indexOf('</cac:InvoiceLine>');
  return Buffer.from(xml.slice(0, i) + sub('1.1', sub('1.1.1')) + sub('1.2') + xml.slice(i));
}

test('XRechnung sub-lines are drawn under their line (BG-DEX-01 rows in the line’s tbody), every term of them too', async () => {
  const bytes = ublWithSubLines();
  const { ing, page } = await pageOf(bytes);
  assert.equal(ing.invoice!.lines[0].subLines?.length, 2);
  assert.equal(ing.invoice!.lines[0].subLines?.[0].subLines?.[0].id, '1.1.1');
  await assertComplete(bytes, 'sub-lines');
  const firstLine = page.html.slice(page.html.indexOf('<tbody data-bg="BG-25"'), page.html.indexOf('</tbody>'));
  assert.equal(firstLine.match(/<tr class="sub" data-bg="BG-DEX-01"/g)?.length, 3);
  assert.match(firstLine, /data-depth="2"[\s\S]*?Part 1\.1\.1/);
  assert.match(firstLine, /data-bg="BG-DEX-02"/);
  const lines = ing.invoice!.lines.length;
  assert.deepEqual(page.lines, { shown: lines + 3, total: lines + 3 }); // the lines and 3 sub-lines
});

test('CII sub-lines (ParentLineID) nest under the line they name; a parent that is not an earlier line leaves the line on top', async () => {
  const bytes = readFixture('kosit/instances/cii/cii-br-dex-15-test-on-sub-invoice-lines.xml');
  await assertComplete(bytes, 'CII ParentLineID');
  const { page } = await pageOf(bytes);
  assert.match(page.html, /<tr class="sub" data-bg="BG-DEX-01"[^>]*data-depth="1"/);
  assert.match(page.html, /<span data-bt="BT-X-304"[^>]*>1234<\/span>/);
  const model = renderModelOf(await ingest(bytes));
  const lines = model.sections.find((s) => s.id === 'lines')!;
  const top = lines.groups.map((g) => termsOf(g).find((t) => t.bt === 'BT-126')?.raw);
  assert.ok(!top.includes('Porto + Versandkosten'), 'the sub-line is not a line of its own');
});

test('supporting documents: a data: download link within the browsers’ bound, else name, type and size', async () => {
  const xml = readFixture('cen/examples/ubl/ubl-tc434-example1.xml').toString('utf8');
  const doc = (content: string, mime = 'application/pdf') =>
    `<cac:AdditionalDocumentReference><cbc:ID>D</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="${mime}" filename="../evil&quot;.pdf">${content}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>`;
  const big = 'QUFB'.repeat(MAX_DATA_URL_CHARS / 4);
  const withDocs = xml.replace(
    '<cac:AccountingSupplierParty>',
    `${doc('SGVs\nbG8=')}${doc(big)}${doc('not base64!')}${doc('SGk=', 'text/html')}<cac:AccountingSupplierParty>`,
  );
  await assertComplete(Buffer.from(withDocs), 'attachments');
  const { page } = await pageOf(Buffer.from(withDocs));
  assert.match(
    page.html,
    /<a data-bt="BT-125" [^>]*href="data:application\/pdf;base64,SGVsbG8=" download="\.\._evil_\.pdf">Download \.\.\/evil&quot;\.pdf \(5 bytes\)<\/a>/,
  );
  assert.match(page.html, /<span data-bt="BT-125" [^>]*data-omitted="size">\.\.\/evil&quot;\.pdf \(1,572,864 bytes\)\. Not embedded/);
  assert.match(page.html, /<span data-bt="BT-125" [^>]*data-omitted="not-base64">/);
  // A type outside the code list is offered as a download of octet-stream, never as text/html.
  assert.match(page.html, /href="data:application\/octet-stream;base64,SGk="/);
});

test('the line bound: lines past it are counted, and the page says how many it shows', async () => {
  const ing = await ingest(readFixture('cen/examples/cii/CII_example4.xml'));
  const page = renderIngested(ing, { maxLines: 2 });
  assert.deepEqual(page.lines, { shown: 2, total: 3 });
  assert.match(page.html, /<p class="notice cut">This page shows the first 2 of 3 lines/);
  assert.equal(page.html.match(/<tbody data-bg="BG-25"/g)?.length, 2);
});

test('every id the render model uses has a label in every language', async () => {
  const known = new Set(labelledIds());
  const used = new Set<string>();
  for (const bytes of [
    readFixture('cen/examples/cii/CII_example5.xml'),
    ublWithSubLines(),
    readFixture('kosit/instances/cii/cii-br-dex-15-test-on-sub-invoice-lines.xml'),
  ]) {
    const model = renderModelOf(await ingest(bytes));
    for (const s of model.sections)
      for (const g of s.groups) {
        const stack = [g];
        while (stack.length) {
          const x = stack.pop()!;
          used.add(x.bg);
          for (const it of x.items)
            if (it.type === 'group') stack.push(it);
            else used.add(it.bt);
        }
      }
  }
  for (const id of used) assert.ok(known.has(id), `label for ${id}`);
  for (const id of known) for (const lang of LANGUAGES) assert.notEqual(label(id, lang), id, `${id} in ${lang}`);
});

test('library: render() answers the page with its name and lines; typed errors with the API’s codes', async () => {
  const out = await render(readFixture('cen/examples/cii/CII_example4.xml'), { lang: 'DE ' });
  assert.equal(out.format, 'html');
  assert.equal(out.lang, 'de');
  assert.equal(out.contentType, 'text/html; charset=utf-8');
  assert.equal(out.filename, 'TOSL110.html');
  assert.deepEqual(out.lines, { shown: 3, total: 3 });
  await assert.rejects(
    render(Buffer.from('hello')),
    (e) => e instanceof InvalidInputError && e.code === 'NOT_PDF_OR_XML' && e.status === 400,
  );
  await assert.rejects(render(Buffer.from('<a>')), (e) => e instanceof InvalidInputError && e.code === 'XML_MALFORMED');
  await assert.rejects(render(await makePdf()), (e) => e instanceof UnprocessableError && e.code === 'NO_XML' && e.status === 422);
  await assert.rejects(render(Buffer.from('<a/>')), (e) => e instanceof UnprocessableError && e.code === 'UNKNOWN_XML');
  await assert.rejects(render(Buffer.from('<a/>'), { lang: 'es' }), (e) => e instanceof ShapeError && e.issues[0].loc[0] === 'lang');
  await assert.rejects(render(Buffer.from('<a/>'), { format: 'docx' }), (e) => e instanceof ShapeError && e.issues[0].loc[0] === 'format');
  // format 'pdf': the same invoice as a PDF (test/render-pdf.test.ts checks the document itself).
  const pdf = await render(readFixture('cen/examples/cii/CII_example4.xml'), { format: 'PDF', lang: 'fr' });
  assert.equal(pdf.format, 'pdf');
  assert.ok(pdf.format === 'pdf' && Buffer.from(pdf.pdf.subarray(0, 8)).toString('latin1') === '%PDF-1.7');
  assert.equal(pdf.contentType, 'application/pdf');
  assert.equal(pdf.filename, 'TOSL110.pdf');
  assert.equal(pdf.lang, 'fr');
  assert.deepEqual(pdf.lines, { shown: 3, total: 3 });
});

/** CEN example 4 with its first line repeated `n` times (fresh line ids): n + 2 lines. */
function manyLines(n: number): Buffer {
  const xml = readFixture('cen/examples/cii/CII_example4.xml').toString('utf8');
  const open = '<ram:IncludedSupplyChainTradeLineItem>';
  const close = '</ram:IncludedSupplyChainTradeLineItem>';
  const start = xml.indexOf(open);
  const end = xml.indexOf(close, start) + close.length;
  const line = xml.slice(start, end);
  const copies: string[] = [];
  for (let i = 0; i < n; i++) copies.push(line.replace(/(<ram:LineID>)[^<]*/, `$1${i + 1}`));
  return Buffer.from(xml.slice(0, start) + copies.join('') + xml.slice(end));
}

test('long invoices: past SOURCE_PATHS_MAX_LINES only groups carry data-src; a 10,000-line invoice draws every line', async () => {
  const short = (await pageOf(manyLines(SOURCE_PATHS_MAX_LINES - 2))).page.html;
  assert.match(short, /<main class="invoice" data-kind="invoice" data-src-detail="all">/);
  const bytes = manyLines(SOURCE_PATHS_MAX_LINES - 1);
  await assertComplete(bytes, 'long invoice');
  const long = (await pageOf(bytes)).page.html;
  assert.match(long, /data-src-detail="groups"/);
  assert.doesNotMatch(long, /data-bt="[^"]+" data-src=/);
  assert.match(
    long,
    /<tbody data-bg="BG-25" data-src="\/rsm:CrossIndustryInvoice\[1\]\/rsm:SupplyChainTradeTransaction\[1\]\/ram:IncludedSupplyChainTradeLineItem\[501\]">/,
  );
  const huge = await pageOf(manyLines(10_000 - 2));
  assert.deepEqual(huge.page.lines, { shown: 10_000, total: 10_000 });
  assert.equal(huge.page.html.match(/<tbody data-bg="BG-25"/g)?.length, 10_000);
});

test('a validation finding’s location finds its element on the page: data-src equal to it, or to its nearest ancestor', async () => {
  const { validate } = await import('../src/lib/index.js');
  const cii = readFixture('cen/examples/cii/CII_example4.xml')
    .toString('utf8')
    .replace(/<ram:GrandTotalAmount>[^<]*</, '<ram:GrandTotalAmount>1.00<')
    .replace(/<ram:BilledQuantity unitCode="C62">/, '<ram:BilledQuantity unitCode="XXX">');
  const ubl = readFixture('cen/examples/ubl/ubl-tc434-example1.xml')
    .toString('utf8')
    .replace(/(<cac:LegalMonetaryTotal>[\s\S]*?<cbc:PayableAmount currencyID="EUR">)[^<]*/, '$11.00')
    .replace(/<cbc:InvoicedQuantity unitCode="[^"]*">/, '<cbc:InvoicedQuantity unitCode="XXX">');
  for (const xml of [cii, ubl]) {
    const result = await validate(Buffer.from(xml));
    assert.equal(result.valid, false);
    const html = (await pageOf(Buffer.from(xml))).page.html;
    let exact = 0;
    for (const finding of result.errors) {
      let loc = finding.location ?? '';
      while (loc && !html.includes(`data-src="${loc}"`)) loc = loc.replace(/\/[^/]*$/, '');
      assert.ok(loc, `${finding.rule_id} at ${finding.location}: no element on the page`);
      if (loc === finding.location) exact++;
    }
    assert.ok(exact >= 2, `${exact} findings located exactly`);
    // The changed total a calculation rule points at is the element that shows it.
    assert.match(html, /<data data-bt="BT-11[25]" data-src="[^"]*(GrandTotalAmount|PayableAmount)\[1\]" value="1\.00">/);
  }
});
