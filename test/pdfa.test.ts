/**
 * The native PDF/A-2b/3b checker (src/pdfa) on PDFs built here: a PDF/A-3b written by our own embed path
 * passes; hand-written PDFs with one defect each fail on the clause that defect breaks; a decompression
 * bomb is a finding, not an expansion; the time budget makes the check incomplete. Then the HTTP side:
 * the pdfa3b layer of /v1/validate (pro and community) and the gate on /v1/convert.
 */
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';
import { checkPdfa, type PdfaReport } from '../src/pdfa/index.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { communityApp, multipart, proApp } from './helpers.js';
import { makeBasePdf, xmlFor } from './hybrid-fixtures.js';

// ---------------------------------------------------------------------------------------------
// A tiny PDF writer: objects in order, a classic xref table with exact offsets.

const FX_NS = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

function xmp(opts: { part?: string | null; fx?: boolean; fxSchema?: boolean; header?: string } = {}): string {
  const part = opts.part === undefined ? '3' : opts.part;
  const fxProps = opts.fx
    ? `<rdf:Description rdf:about="" xmlns:fx="${FX_NS}"><fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>factur-x.xml</fx:DocumentFileName><fx:Version>1.0</fx:Version><fx:ConformanceLevel>EN 16931</fx:ConformanceLevel></rdf:Description>`
    : '';
  const prop = (n: string) =>
    `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${n}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${n}</pdfaProperty:description></rdf:li>`;
  const schema = opts.fxSchema
    ? `<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#"><pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource"><pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema><pdfaSchema:namespaceURI>${FX_NS}</pdfaSchema:namespaceURI><pdfaSchema:prefix>fx</pdfaSchema:prefix><pdfaSchema:property><rdf:Seq>${['DocumentFileName', 'DocumentType', 'Version', 'ConformanceLevel'].map(prop).join('')}</rdf:Seq></pdfaSchema:property></rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>`
    : '';
  const id =
    part === null
      ? ''
      : `<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>${part}</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>`;
  return `${opts.header ?? '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>'}<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${id}<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Test</rdf:li></rdf:Alt></dc:title></rdf:Description>${fxProps}${schema}</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
}

interface Spec {
  /** Object bodies for objects 1..n (dictionary text, or {dict, data} for streams). */
  objects: (string | { dict: string; data: Buffer | string })[];
  trailer?: string;
  header?: string;
  tail?: string;
}

function buildPdf(spec: Spec): Buffer {
  const parts: Buffer[] = [Buffer.from(spec.header ?? '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let len = parts[0].length;
  const offsets: number[] = [];
  spec.objects.forEach((o, i) => {
    offsets.push(len);
    let chunk: Buffer;
    if (typeof o === 'string') chunk = Buffer.from(`${i + 1} 0 obj\n${o}\nendobj\n`, 'latin1');
    else {
      const data = typeof o.data === 'string' ? Buffer.from(o.data, 'latin1') : o.data;
      const dict = o.dict.includes('/Length') ? o.dict : o.dict.replace(/>>\s*$/, `/Length ${data.length}>>`);
      chunk = Buffer.concat([
        Buffer.from(`${i + 1} 0 obj\n${dict}\nstream\n`, 'latin1'),
        data,
        Buffer.from('\nendstream\nendobj\n', 'latin1'),
      ]);
    }
    parts.push(chunk);
    len += chunk.length;
  });
  const xref = ['xref', `0 ${spec.objects.length + 1}`, '0000000000 65535 f '].concat(
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
  );
  const trailer =
    spec.trailer ??
    `<</Size ${spec.objects.length + 1}/Root 1 0 R/ID[<00112233445566778899AABBCCDDEEFF><00112233445566778899AABBCCDDEEFF>]>>`;
  parts.push(Buffer.from(`${xref.join('\n')}\ntrailer\n${trailer}\nstartxref\n${len}\n%%EOF\n${spec.tail ?? ''}`, 'latin1'));
  return Buffer.concat(parts);
}

/** A minimal PDF/A-3b: catalog, XMP, one empty page. Variations through `patch`. */
function minimalPdfa(
  patch: { catalog?: string; page?: string; extra?: Spec['objects']; xmp?: string; trailer?: string; header?: string; tail?: string } = {},
): Buffer {
  return buildPdf({
    header: patch.header,
    tail: patch.tail,
    trailer: patch.trailer,
    objects: [
      `<</Type/Catalog/Pages 2 0 R/Metadata 4 0 R${patch.catalog ?? ''}>>`,
      '<</Type/Pages/Kids[3 0 R]/Count 1>>',
      `<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Resources<<>>${patch.page ?? ''}>>`,
      { dict: '<</Type/Metadata/Subtype/XML>>', data: Buffer.from(patch.xmp ?? xmp(), 'utf8') },
      ...(patch.extra ?? []),
    ],
  });
}

const clauses = (r: PdfaReport) => new Set(r.findings.map((f) => f.clause));

describe('PDF/A checker on PDFs built in code', () => {
  test('a PDF/A-3b written by our embed path passes, and the minimal hand-written one too', async () => {
    const out = await embedInvoiceXml(await makeBasePdf(2), { xml: xmlFor('en16931'), flavour: hybridFlavour('en16931') });
    const r = checkPdfa(out.pdf);
    assert.equal(r.part, 3);
    assert.equal(r.conformance, 'B');
    assert.deepEqual(r.findings, []);
    assert.equal(r.valid, true);
    assert.equal(r.complete, true);

    const m = checkPdfa(minimalPdfa());
    assert.deepEqual(m.findings, []);
    assert.equal(m.valid, true);
  });

  test('no PDF/A identification: not PDF/A, one finding that says so', () => {
    const r = checkPdfa(minimalPdfa({ xmp: xmp({ part: null }) }));
    assert.equal(r.part, null);
    assert.equal(r.valid, false);
    assert.equal(r.findings.length, 1);
    assert.match(r.findings[0].message, /not a PDF\/A-2 or PDF\/A-3 file/);
    const noMeta = checkPdfa(buildPdf({ objects: ['<</Type/Catalog/Pages 2 0 R>>', '<</Type/Pages/Kids[]/Count 0>>'] }));
    assert.equal(noMeta.findings.length, 1);
    assert.equal(noMeta.findings[0].clause, '6.6.2.1-1');
  });

  test('the declared part decides: part 2 files are checked as PDF/A-2 (no /AF rule), part 3 as PDF/A-3', () => {
    const ef = (rel: string) => [
      `<</Type/Filespec/F(a.txt)/UF(a.txt)/EF<</F 6 0 R>>${rel}>>`,
      { dict: '<</Type/EmbeddedFile/Subtype/text#2Fplain/Params<</ModDate(D:20260101000000Z)>>>>', data: 'hello' },
    ];
    const names = '/Names<</EmbeddedFiles<</Names[(a.txt) 5 0 R]>>>>';
    const three = checkPdfa(minimalPdfa({ catalog: names, extra: ef('') }));
    assert.ok(clauses(three).has('6.8-3'), JSON.stringify(three.findings));
    assert.ok(clauses(three).has('6.8-4'));
    const fixed = checkPdfa(minimalPdfa({ catalog: `${names}/AF[5 0 R]`, extra: ef('/AFRelationship/Data') }));
    assert.deepEqual(fixed.findings, []);
    // PDF/A-2: an embedded file must itself be PDF/A; a text file is not.
    const two = checkPdfa(minimalPdfa({ catalog: names, extra: ef(''), xmp: xmp({ part: '2' }) }));
    assert.equal(two.part, 2);
    assert.deepEqual([...clauses(two)], ['6.8-5']);
  });

  test('file structure defects fail on their clause', () => {
    const cases: [string, Buffer][] = [
      ['6.1.2-1', minimalPdfa({ header: '%PDF-2.0\n%\xe2\xe3\xcf\xd3\n' })],
      ['6.1.2-2', minimalPdfa({ header: '%PDF-1.7\n%abcd\n' })],
      ['6.1.3-1', minimalPdfa({ trailer: '<</Size 5/Root 1 0 R>>' })],
      ['6.1.3-2', minimalPdfa({ trailer: '<</Size 5/Root 1 0 R/Encrypt<</Filter/Standard>>/ID[<00><00>]>>' })],
      ['6.1.3-3', minimalPdfa({ tail: 'garbage after the end' })],
      ['6.1.6-1', minimalPdfa({ catalog: '/X <ABC>' })],
      ['6.1.7.2-1', minimalPdfa({ extra: [{ dict: '<</Filter/LZWDecode>>', data: 'x' }], catalog: '/X 5 0 R' })],
      ['6.1.7.1-3', minimalPdfa({ extra: [{ dict: '<</F(external.dat)>>', data: '' }], catalog: '/X 5 0 R' })],
      ['6.1.13-1', minimalPdfa({ catalog: '/X 2147483648' })],
      ['6.1.13-4', minimalPdfa({ catalog: `/X /${'n'.repeat(128)}` })],
    ];
    for (const [clause, pdf] of cases) {
      const r = checkPdfa(pdf);
      assert.equal(r.valid, false, clause);
      assert.ok(clauses(r).has(clause), `${clause}: ${JSON.stringify(r.findings)}`);
    }
    // A wrong /Length is found (the real data length is measured, not trusted).
    const good = minimalPdfa({ page: '/Contents 5 0 R', extra: [{ dict: '<</Length 18>>', data: '0 0 10 10 re S\n% x' }] });
    assert.deepEqual(
      checkPdfa(good).findings.filter((f) => f.clause.startsWith('6.1')),
      [],
    );
    const broken = Buffer.from(good.toString('latin1').replace('/Length 18', '/Length 15'), 'latin1');
    assert.ok(clauses(checkPdfa(broken)).has('6.1.7.1-1'));
  });

  test('metadata: the fx: properties need the Factur-X extension schema; bytes= in the xpacket header is refused', () => {
    const undeclared = checkPdfa(minimalPdfa({ xmp: xmp({ fx: true }) }));
    assert.deepEqual([...clauses(undeclared)], ['6.6.2.3.1-1']);
    assert.equal(undeclared.findings.length, 4);
    assert.match(undeclared.findings[0].object ?? '', /^XMP fx:/);
    assert.deepEqual(checkPdfa(minimalPdfa({ xmp: xmp({ fx: true, fxSchema: true }) })).findings, []);
    const bytes = checkPdfa(minimalPdfa({ xmp: xmp({ header: '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d" bytes="1234"?>' }) }));
    assert.ok(clauses(bytes).has('6.6.2.1-2'));
    const badType = checkPdfa(
      minimalPdfa({
        xmp: xmp().replace(
          '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Test</rdf:li></rdf:Alt></dc:title>',
          '<dc:title>Test</dc:title>',
        ),
      }),
    );
    assert.ok(clauses(badType).has('6.6.2.3.1-2'));
  });

  test('fonts, colour, annotations and actions', () => {
    const withFont = Buffer.from(
      minimalPdfa({
        page: '/Contents 5 0 R',
        extra: [{ dict: '<<>>', data: 'BT /F1 12 Tf 0 0 Td (Hi) Tj ET' }, '<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>'],
      })
        .toString('latin1')
        .replace('/Resources<<>>', '/Resources<</Font<</F1 6 0 R>>>>'),
      'latin1',
    );
    // The replacement shifts offsets after object 3; the checker reads objects by scanning, so it still finds them.
    const f = checkPdfa(withFont);
    assert.ok(clauses(f).has('6.2.11.4.1-1'), JSON.stringify(f.findings));
    // Default DeviceGray text colour without any output intent.
    assert.ok(clauses(f).has('6.2.4.3-4'));

    const rgb = checkPdfa(minimalPdfa({ page: '/Contents 5 0 R', extra: [{ dict: '<<>>', data: '1 0 0 rg 0 0 10 10 re f' }] }));
    assert.deepEqual([...clauses(rgb)], ['6.2.4.3-2']);

    const js = checkPdfa(minimalPdfa({ catalog: '/OpenAction<</S/JavaScript/JS(app.alert(1))>>' }));
    assert.ok(clauses(js).has('6.5.1-1'));
    const annot = checkPdfa(minimalPdfa({ page: '/Annots[<</Type/Annot/Subtype/Text/Rect[0 0 10 10]>>]' }));
    assert.ok(clauses(annot).has('6.3.2-1'));
    assert.ok(clauses(annot).has('6.3.3-1'));
  });

  test('a decompression bomb is a finding and is never expanded', () => {
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }); // ~64 KB that would inflate to 64 MB
    const rss = process.memoryUsage().rss;
    const r = checkPdfa(minimalPdfa({ page: '/Contents 5 0 R', extra: [{ dict: '<</Filter/FlateDecode>>', data: bomb }] }));
    assert.ok(clauses(r).has('6.1.7-limit'), JSON.stringify(r.findings));
    assert.equal(r.valid, false);
    assert.ok(process.memoryUsage().rss - rss < 60 * 1024 * 1024, 'the stream was expanded');
  });

  test('the time budget makes the check incomplete instead of answering', async () => {
    const pdf = (await embedInvoiceXml(await makeBasePdf(30), { xml: xmlFor('en16931'), flavour: hybridFlavour('en16931') })).pdf;
    const r = checkPdfa(pdf, { timeBudgetMs: -1 });
    assert.equal(r.complete, false);
    assert.equal(r.valid, false);
    assert.match(r.skippedReason ?? '', /time budget/);
  });
});

// ---------------------------------------------------------------------------------------------
// HTTP

function post(
  app: FastifyInstance,
  url: string,
  parts: { name: string; value: Buffer | string; filename?: string; contentType?: string }[],
) {
  const { payload, headers } = multipart(parts);
  return app.inject({ method: 'POST', url, payload, headers });
}

describe('pdfa3b layer of /v1/validate and the /v1/convert gate', () => {
  let pro: FastifyInstance;
  let community: FastifyInstance;
  let facturx: Uint8Array;
  before(async () => {
    pro = await proApp();
    community = await communityApp();
    facturx = (await embedInvoiceXml(await makeBasePdf(1), { xml: xmlFor('en16931'), flavour: hybridFlavour('en16931') })).pdf;
  });
  after(async () => {
    await pro.close();
    await community.close();
  });

  test('pro: a Factur-X PDF/A-3b is pdfa_valid true with pdfa3b executed; validate_pdfa=false skips the layer', async () => {
    const res = await post(pro, '/v1/validate', [{ name: 'file', value: Buffer.from(facturx), filename: 'inv.pdf' }]);
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.pdfa_valid, true);
    assert.ok(body.layers_executed.includes('pdfa3b'));
    assert.ok(!body.layers_skipped.some((l: { layer: string }) => l.layer === 'pdfa3b'));
    const off = (
      await post(pro, '/v1/validate', [
        { name: 'file', value: Buffer.from(facturx), filename: 'inv.pdf' },
        { name: 'validate_pdfa', value: 'false' },
      ])
    ).json();
    assert.equal(off.pdfa_valid, null);
    assert.ok(!off.layers_executed.includes('pdfa3b'));
  });

  test('pro: a PDF without invoice XML gets both NO_XML and the PDF/A verdict with clause findings', async () => {
    const res = await post(pro, '/v1/validate', [{ name: 'file', value: minimalPdfa({ xmp: xmp({ fx: true }) }), filename: 'plain.pdf' }]);
    const body = res.json();
    assert.equal(body.pdfa_valid, false);
    assert.equal(body.valid, false);
    assert.ok(body.layers_executed.includes('pdfa3b'));
    const ids = body.diagnostics.map((d: { rule_id: string }) => d.rule_id);
    assert.ok(ids.includes('NO_XML'), JSON.stringify(ids));
    const pdfa = body.diagnostics.filter((d: { context: { rule_set?: string } | null }) => d.context?.rule_set === 'pdfa');
    assert.equal(pdfa.length, 4);
    assert.equal(pdfa[0].rule_id, '6.6.2.3.1-1');
    assert.match(pdfa[0].context.location, /^XMP fx:/);
  });

  test('pro: raw XML has pdfa_valid null; community lists the layer skipped (license_required)', async () => {
    const xml = await post(pro, '/v1/validate', [{ name: 'file', value: Buffer.from(xmlFor('en16931')), filename: 'inv.xml' }]);
    assert.equal(xml.json().pdfa_valid, null);
    assert.ok(!xml.json().layers_executed.includes('pdfa3b'));
    const c = (
      await post(community, '/v1/validate', [
        { name: 'file', value: Buffer.from(facturx), filename: 'inv.pdf' },
        { name: 'validate_pdfa', value: 'true' },
      ])
    ).json();
    assert.equal(c.pdfa_valid, null);
    assert.deepEqual(
      c.layers_skipped.find((l: { layer: string }) => l.layer === 'pdfa3b'),
      { layer: 'pdfa3b', reason: 'license_required' },
    );
    assert.equal(c.validation_completeness, 'partial');
  });

  test('/healthz reports the PDF/A validator ready', async () => {
    const body = (await pro.inject({ url: '/healthz' })).json();
    assert.equal(body.checks.pdfa_validator.status, 'ok');
    assert.match(body.checks.pdfa_validator.detail, /native PDF\/A-2b\/3b checker/);
  });

  test('/v1/convert: a PDF/A-3b result is 200 with X-PDFA-Check passed; content no repair can mend is 200 failed, or 422 in strict mode', async () => {
    const meta = JSON.stringify(DOMESTIC_EXAMPLE);
    const ok = await post(pro, '/v1/convert', [
      { name: 'pdf', value: Buffer.from(await makeBasePdf(1)), filename: 'a.pdf', contentType: 'application/pdf' },
      { name: 'metadata', value: meta },
    ]);
    assert.equal(ok.statusCode, 200, ok.body.slice(0, 300));
    assert.equal(ok.headers['x-pdfa-check'], 'passed');
    assert.equal(ok.headers['x-pdfa-unmet'], undefined);
    assert.equal(checkPdfa(ok.rawPayload).valid, true);
    // An operator ISO 32000-1 does not define (6.2.2-1): the page content is not rewritten, so it stays.
    const undefinedOperator = minimalPdfa({ page: '/Contents 5 0 R', extra: [{ dict: '<<>>', data: '0 0 10 10 re S 1 frobnicate' }] });
    const convert = (strict?: string) =>
      post(community, '/v1/convert', [
        { name: 'pdf', value: undefinedOperator, filename: 'a.pdf', contentType: 'application/pdf' },
        { name: 'metadata', value: meta },
        ...(strict ? [{ name: 'pdfa_strict', value: strict }] : []),
      ]);
    const failed = await convert();
    assert.equal(failed.statusCode, 200, failed.body.slice(0, 300));
    assert.equal(failed.headers['x-pdfa-check'], 'failed');
    assert.equal(failed.headers['x-pdfa-unmet'], '6.2.2-1');
    assert.deepEqual([...clauses(checkPdfa(failed.rawPayload))], ['6.2.2-1']);
    assert.equal((await convert('false')).statusCode, 200);
    const bad = await convert('true');
    assert.equal(bad.statusCode, 422);
    assert.match(bad.headers['content-type'] as string, /application\/problem\+json/);
    const body = bad.json();
    assert.equal(body.code, 'PDFA_NONCONFORMANT');
    assert.deepEqual(
      body.errors.map((e: { rule_id: string; rule_set: string }) => [e.rule_id, e.rule_set]),
      [['6.2.2-1', 'pdfa']],
    );
    assert.deepEqual(body.unmet_clauses, ['6.2.2-1']);
    assert.match(body.detail, /6\.2\.2-1/);
    assert.equal(body.report_truncated, undefined);
  });

  test('/v1/merge: a declared PDF/A-3b is repaired (an unflagged link gets Print), content no repair can mend is 200 failed or 422 strict', async () => {
    const xml = Buffer.from(xmlFor('en16931'));
    const merge = (pdf: Buffer, strict?: string) =>
      post(community, '/v1/merge', [
        { name: 'pdf', value: pdf, filename: 'a.pdf', contentType: 'application/pdf' },
        { name: 'xml', value: xml, filename: 'factur-x.xml', contentType: 'application/xml' },
        ...(strict ? [{ name: 'pdfa_strict', value: strict }] : []),
      ]);
    const link = minimalPdfa({
      page: '/Annots[5 0 R]',
      extra: ['<</Type/Annot/Subtype/Link/Rect[10 10 100 30]/A<</S/URI/URI(https://example.org)>>>>'],
    });
    assert.deepEqual([...clauses(checkPdfa(link))], ['6.3.2-1']);
    const repaired = await merge(link);
    assert.equal(repaired.statusCode, 200, repaired.body.slice(0, 300));
    assert.equal(repaired.headers['x-pdfa-check'], 'passed');
    assert.equal(repaired.headers['x-pdfa-repairs'], 'annotation-flags');
    assert.deepEqual(checkPdfa(repaired.rawPayload).findings, []);
    const undefinedOperator = minimalPdfa({ page: '/Contents 5 0 R', extra: [{ dict: '<<>>', data: '0 0 10 10 re S 1 frobnicate' }] });
    const failed = await merge(undefinedOperator);
    assert.equal(failed.statusCode, 200, failed.body.slice(0, 300));
    assert.equal(failed.headers['x-pdfa-check'], 'failed');
    assert.equal(failed.headers['x-pdfa-unmet'], '6.2.2-1');
    const strict = await merge(undefinedOperator, 'true');
    assert.equal(strict.statusCode, 422, strict.body.slice(0, 300));
    assert.equal(strict.json().code, 'PDFA_NONCONFORMANT');
    assert.deepEqual([...new Set(strict.json().errors.map((e: { rule_id: string }) => e.rule_id))], ['6.2.2-1']);
    const good = await merge(minimalPdfa({ page: '/Contents 5 0 R', extra: [{ dict: '<<>>', data: '0 0 10 10 re S' }] }));
    assert.equal(good.statusCode, 200, good.body.slice(0, 300));
    assert.equal(good.headers['x-pdfa-check'], 'passed');
    assert.equal(good.headers['x-pdfa-repairs'], undefined);
    // An input attachment without /AFRelationship and outside /AF (fails 6.8-3/4) is associated by the writer.
    const loose = minimalPdfa({
      catalog: '/Names<</EmbeddedFiles<</Names[(a.txt) 5 0 R]>>>>',
      extra: [
        '<</Type/Filespec/F(a.txt)/UF(a.txt)/EF<</F 6 0 R>>>>',
        { dict: '<</Type/EmbeddedFile/Subtype/text#2Fplain>>', data: 'hello' },
      ],
    });
    assert.deepEqual([...clauses(checkPdfa(loose))].sort(), ['6.8-3', '6.8-4']);
    const merged = await merge(loose);
    assert.equal(merged.statusCode, 200, merged.body.slice(0, 300));
    assert.deepEqual(checkPdfa(merged.rawPayload).findings, []);
  });
});
