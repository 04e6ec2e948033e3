/**
 * /v1/convert and /v1/merge with the PDF/A repairs (issue 30), over HTTP against the real app: the headers that say
 * how PDF/A went, strict mode and its bounded body, and the four findings built here: an ImageMagick-style
 * Info title ending in U+0000 (a 500: it reached the XMP), an empty signature field (a false PDF_SIGNED), a refusal
 * of 500 findings (182 KB, every finding listed twice), and a cyclic /EmbeddedFiles name tree (500 EMBED_CHECK_FAILED).
 * Then the library's result and the CLI's lines.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { convert, merge } from '../src/lib/index.js';
import { EInvoiceError } from '../src/lib/errors.js';
import { checkPdfa } from '../src/pdfa/index.js';
import { readPdf } from '../src/pdf/extract.js';
import { boundedList } from '../src/http/pdfa-answer.js';
import { communityApp, multipart, type Part } from './helpers.js';
import { runCli } from './cli-fixtures.js';
import { xmlFor } from './hybrid-fixtures.js';
import { hasQpdf, parseXmpPacket, qpdfAttachments, qpdfCheck } from './hybrid-pdf-reader.js';
import { buildPdf, pageContents, plainPdf, streamData } from './pdf-build.js';
import { PDFDocument, PDFName, type PDFRef } from '@cantoo/pdf-lib';

let app: FastifyInstance;
before(async () => {
  app = await communityApp();
});
after(() => app.close());

const meta = JSON.stringify(DOMESTIC_EXAMPLE);
const pdfPart = (pdf: Uint8Array): Part => ({ name: 'pdf', value: Buffer.from(pdf), filename: 'in.pdf', contentType: 'application/pdf' });
const post = (url: string, parts: Part[]) => {
  const { payload, headers } = multipart(parts);
  return app.inject({ method: 'POST', url, payload, headers });
};
const convertHttp = (pdf: Uint8Array, extra: Part[] = []) =>
  post('/v1/convert', [pdfPart(pdf), { name: 'metadata', value: meta }, ...extra]);

/** `pages` pages, each drawing with an operator ISO 32000-1 does not define (6.2.2-1, one finding per page). */
function undefinedOperatorPdf(pages: number): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${3 + 2 * i} 0 R`).join(' ');
  const objects: Parameters<typeof buildPdf>[0] = ['<</Type/Catalog/Pages 2 0 R>>', `<</Type/Pages/Kids[${kids}]/Count ${pages}>>`];
  for (let i = 0; i < pages; i++) {
    objects.push(`<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Resources<<>>/Contents ${4 + 2 * i} 0 R>>`);
    objects.push({ dict: '<<>>', data: `0 0 ${10 + i} 10 re S 1 frobnicate` });
  }
  return buildPdf(objects);
}

describe('convert: PDF/A is never a reason to refuse', () => {
  test('headers: passed with the repairs named; failed with the clauses unmet; the lists are bounded', async () => {
    const link = plainPdf({
      page: '/Annots[5 0 R]',
      catalog: '/OpenAction<</S/JavaScript/JS(app.alert(1))>>',
      extra: ['<</Type/Annot/Subtype/Link/Rect[10 10 60 30]/A<</S/URI/URI(https://example.org)>>>>'],
    });
    const ok = await convertHttp(link);
    assert.equal(ok.statusCode, 200, ok.body.slice(0, 300));
    assert.equal(ok.headers['x-pdfa-check'], 'passed');
    assert.equal(ok.headers['x-pdfa-repairs'], 'forbidden-actions, annotation-flags');
    assert.equal(ok.headers['x-pdfa-unmet'], undefined);
    assert.deepEqual(checkPdfa(ok.rawPayload).findings, []);
    assert.deepEqual(await pageContents(ok.rawPayload), await pageContents(link));

    const failed = await convertHttp(undefinedOperatorPdf(3));
    assert.equal(failed.statusCode, 200);
    assert.equal(failed.headers['x-pdfa-check'], 'failed');
    assert.equal(failed.headers['x-pdfa-unmet'], '6.2.2-1');
    assert.equal((await PDFDocument.load(failed.rawPayload)).getPageCount(), 3);

    assert.equal(boundedList(['a', 'b']), 'a, b');
    const many = Array.from({ length: 100 }, (_, i) => `6.2.11.4.${i}-1`);
    const cut = boundedList(many);
    assert.ok(cut.length <= 512, `${cut.length}`);
    const shown = cut.split(', ').filter((x) => !x.startsWith('…'));
    assert.equal(Number(/\(\+(\d+)\)$/.exec(cut)?.[1]) + shown.length, 100);
  });

  test('X-PDFA-Partial: a field value that cannot be drawn with an embedded font is reported, though the PDF passes', async () => {
    const input = plainPdf({
      catalog: '/AcroForm<</Fields[5 0 R]/DA(/Helv 0 Tf 0 g)/DR<</Font<</Helv<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>>>>>',
      page: '/Annots[5 0 R]',
      extra: ['<</Type/Annot/Subtype/Widget/FT/Tx/T(name)/V(Ada Lovelace)/F 4/Rect[10 10 150 30]>>'],
    });
    const res = await convertHttp(input);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(res.headers['x-pdfa-check'], 'passed');
    assert.equal(res.headers['x-pdfa-repairs'], 'annotation-appearances');
    assert.equal(res.headers['x-pdfa-partial'], '6.3.3-1');
    const lib = await convert(input, DOMESTIC_EXAMPLE);
    assert.match(lib.pdfaPartial[0].message, /could not be drawn with an embedded font/);
  });

  test('finding 1: an ImageMagick PDF whose Info title ends in U+0000 converts (the XMP stays well-formed)', async () => {
    for (const title of ['(image.png\\000)', '<FEFF0069006D0061006700650000>']) {
      const input = plainPdf({
        extra: [`<</Title ${title}/Producer(ImageMagick 6.9.11)/CreationDate(D:20240101120000Z)>>`],
        trailer: '/Info 5 0 R',
      });
      const res = await convertHttp(input);
      assert.equal(res.statusCode, 200, `${title}: ${res.body.slice(0, 300)}`);
      assert.equal(res.headers['x-pdfa-check'], 'passed');
      const doc = await PDFDocument.load(res.rawPayload, { updateMetadata: false });
      assert.equal(doc.getTitle(), title.startsWith('(') ? 'image.png' : 'image');
      const xmp = parseXmpPacket(streamData(doc, (doc.catalog.get(PDFName.of('Metadata')) as PDFRef).objectNumber));
      assert.equal(xmp.props.get('http://purl.org/dc/elements/1.1/|title'), doc.getTitle());
    }
  });

  test('finding 2: an empty, unsigned signature field (SigFlags set) is not PDF_SIGNED', async () => {
    const input = plainPdf({
      catalog: '/AcroForm<</Fields[5 0 R]/SigFlags 3>>',
      page: '/Annots[5 0 R]',
      extra: ['<</Type/Annot/Subtype/Widget/FT/Sig/T(Signature1)/F 4/Rect[10 10 110 40]/P 3 0 R>>'],
    });
    const res = await convertHttp(input);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(res.headers['x-signature-invalidated'], undefined);
    assert.equal(res.headers['x-pdfa-check'], 'passed');
    assert.equal(res.headers['x-pdfa-repairs'], 'annotation-appearances');
  });

  test('finding 3: strict mode refuses with a bounded body (each finding once, at most 50, the rest counted)', async () => {
    const input = undefinedOperatorPdf(120);
    const res = await convertHttp(input, [{ name: 'pdfa_strict', value: 'true' }]);
    assert.equal(res.statusCode, 422, res.body.slice(0, 300));
    const body = res.json();
    assert.equal(body.code, 'PDFA_NONCONFORMANT');
    assert.equal(body.errors.length, 50);
    assert.equal(body.findings_omitted, 70);
    assert.equal(body.report_truncated, true);
    assert.deepEqual(body.unmet_clauses, ['6.2.2-1']);
    const keys = body.errors.map((e: { rule_id: string; location: string }) => `${e.rule_id}@${e.location}`);
    assert.equal(new Set(keys).size, 50, 'each finding once');
    assert.ok(res.body.length < 40_000, `${res.body.length} bytes`);
    // Without strict mode: the PDF, all its pages.
    const lenient = await convertHttp(input);
    assert.equal(lenient.statusCode, 200);
    assert.equal(lenient.headers['x-pdfa-check'], 'failed');
    assert.equal((await PDFDocument.load(lenient.rawPayload)).getPageCount(), 120);
  });

  test('finding 4: a cyclic /EmbeddedFiles name tree converts, factur-x.xml found by our reader and by qpdf', async () => {
    const input = plainPdf({
      catalog: '/Names<</EmbeddedFiles 5 0 R>>',
      extra: [
        '<</Kids[6 0 R 5 0 R]>>', // 5: the root, its own kid
        '<</Kids[5 0 R 7 0 R]/Limits[(a.txt)(a.txt)]>>', // 6: back to the root
        '<</Names[(a.txt) 8 0 R]/Limits[(a.txt)(a.txt)]>>', // 7
        '<</Type/Filespec/F(a.txt)/UF(a.txt)/EF<</F 9 0 R>>>>', // 8
        { dict: '<</Type/EmbeddedFile/Subtype/text#2Fplain>>', data: 'hello' }, // 9
      ],
    });
    const res = await convertHttp(input);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(res.headers['x-pdfa-check'], 'passed');
    const names = (await readPdf(res.rawPayload)).attachments.map((a) => a.name).sort();
    assert.deepEqual(names, ['a.txt', 'factur-x.xml']);
    if (hasQpdf()) {
      assert.equal(qpdfCheck(res.rawPayload).status, 0, qpdfCheck(res.rawPayload).output);
      const q = qpdfAttachments(res.rawPayload, ['factur-x.xml']);
      assert.deepEqual(q.keys.sort(), ['a.txt', 'factur-x.xml']);
      assert.ok(q.shown.get('factur-x.xml')?.toString('utf8').includes('CrossIndustryInvoice'));
    }
  });

  test('merge: a declared PDF/A-3b with JavaScript is repaired; a PDF not declared PDF/A-3b stays 422 NOT_PDFA3', async () => {
    const xmp =
      '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>';
    const declared = plainPdf({
      catalog: '/Metadata 5 0 R/Names<</JavaScript<</Names[(x) 6 0 R]>>>>',
      extra: [{ dict: '<</Type/Metadata/Subtype/XML>>', data: Buffer.from(xmp, 'utf8') }, '<</S/JavaScript/JS(app.alert(1))>>'],
    });
    const mergeHttp = (pdf: Uint8Array) =>
      post('/v1/merge', [
        pdfPart(pdf),
        { name: 'xml', value: Buffer.from(xmlFor('en16931')), filename: 'factur-x.xml', contentType: 'application/xml' },
      ]);
    const ok = await mergeHttp(declared);
    assert.equal(ok.statusCode, 200, ok.body.slice(0, 300));
    assert.equal(ok.headers['x-pdfa-check'], 'passed');
    assert.equal(ok.headers['x-pdfa-repairs'], 'forbidden-actions');
    assert.deepEqual(checkPdfa(ok.rawPayload).findings, []);
    const plain = await mergeHttp(plainPdf({ catalog: '/Names<</JavaScript<</Names[(x) 5 0 R]>>>>', extra: ['<</S/JavaScript/JS(1)>>'] }));
    assert.equal(plain.statusCode, 422);
    assert.equal(plain.json().code, 'NOT_PDFA3');
  });

  test('the OpenAPI document names the headers and the strict field on convert and merge', async () => {
    const doc = (await app.inject({ url: '/openapi.json' })).json();
    for (const path of ['/v1/convert', '/v1/merge']) {
      const op = doc.paths[path].post;
      const headers = op.responses['200'].headers;
      assert.deepEqual(headers['X-PDFA-Check'].schema?.enum ?? headers['X-PDFA-Check'].enum, ['passed', 'failed', 'unverified'], path);
      assert.ok(headers['X-PDFA-Repairs'] && headers['X-PDFA-Unmet'], path);
      assert.equal(op.requestBody.content['multipart/form-data'].schema.properties.pdfa_strict.type, 'boolean', path);
    }
  });

  test('pdfa_strict must be a boolean (422 on convert, ProblemDetails REQUEST_INVALID on merge)', async () => {
    const res = await convertHttp(plainPdf(), [{ name: 'pdfa_strict', value: 'banana' }]);
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().detail[0].loc, ['body', 'pdfa_strict']);
  });
});

describe('library and CLI', () => {
  test('convert() and merge() return the check, the repairs and what is unmet; pdfaStrict rejects PDFA_NONCONFORMANT', async () => {
    const r = await convert(plainPdf({ catalog: '/AA<</WC<</S/JavaScript/JS(1)>>>>' }), DOMESTIC_EXAMPLE);
    assert.equal(r.pdfaCheck, 'passed');
    assert.deepEqual(r.pdfaRepairs, ['forbidden-actions']);
    assert.deepEqual(r.pdfaUnmet, []);
    const f = await convert(undefinedOperatorPdf(60), DOMESTIC_EXAMPLE);
    assert.equal(f.pdfaCheck, 'failed');
    assert.deepEqual(f.pdfaUnmet, ['6.2.2-1']);
    assert.equal(f.pdfaFindings.length, 50);
    assert.equal(f.pdfaFindingsOmitted, 10);
    await assert.rejects(
      convert(undefinedOperatorPdf(1), DOMESTIC_EXAMPLE, { pdfaStrict: true }),
      (e: unknown) => e instanceof EInvoiceError && e.code === 'PDFA_NONCONFORMANT' && e.status === 422,
    );
    await assert.rejects(
      merge(undefinedOperatorPdf(1), xmlFor('en16931'), { pdfaStrict: true }),
      (e: unknown) => e instanceof EInvoiceError && e.code === 'NOT_PDFA3',
    );
  });

  test('einvoice convert prints what was repaired or is unmet; --pdfa-strict refuses (exit 1, nothing written)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-pdfa-'));
    try {
      const metaFile = join(dir, 'meta.json');
      writeFileSync(metaFile, meta);
      const repairedIn = join(dir, 'js.pdf');
      writeFileSync(repairedIn, plainPdf({ catalog: '/OpenAction<</S/JavaScript/JS(1)>>' }));
      const out = join(dir, 'out.pdf');
      const ok = await runCli(['convert', repairedIn, metaFile, '-o', out]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stderr, /^PDF\/A-3b: passed; repaired: forbidden-actions$/m);
      assert.deepEqual(checkPdfa(readFileSync(out)).findings, []);
      const bad = join(dir, 'op.pdf');
      writeFileSync(bad, undefinedOperatorPdf(2));
      const failed = await runCli(['convert', bad, metaFile, '-o', out]);
      assert.equal(failed.code, 0, failed.stderr);
      assert.match(failed.stderr, /^PDF\/A-3b: failed, unmet: 6\.2\.2-1$/m);
      assert.match(failed.stderr, /^ {2}6\.2\.2-1: .*frobnicate.* at page 1$/m);
      const out2 = join(dir, 'strict.pdf');
      const strict = await runCli(['convert', bad, metaFile, '-o', out2, '--pdfa-strict']);
      assert.equal(strict.code, 1, strict.stderr);
      assert.match(strict.stderr, /^einvoice: PDFA_NONCONFORMANT: /);
      assert.throws(() => readFileSync(out2));
      const quiet = await runCli(['convert', join(dir, 'js.pdf'), metaFile, '-o', out]);
      assert.doesNotMatch(quiet.stderr, /unmet/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
