/**
 * The PDF/A repairs (src/pdf/repair), each on a PDF built here with exactly its defect: the native checker flags the
 * repair's clause on the input (checked as PDF/A-3), the hybrid PDF written by the embedder passes the same checker,
 * the repair is named in the report, and the pages' content streams are byte for byte what they were. The registry
 * runs a repair only when its clause was reported.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from '@cantoo/pdf-lib';
import { embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';
import { repairForPdfa, REPAIRS } from '../src/pdf/repair/index.js';
import { cmykProfile, cmykToRgb, cmykToXyz } from '../src/pdf/repair/icc-cmyk.js';
import { checkPdfa } from '../src/pdfa/index.js';
import { cleanXmp } from '../src/pdf/repair/xmp.js';
import { readPdf } from '../src/pdf/extract.js';
import { buildPdf, lzwEncode, pageContents, plainPdf, streamData } from './pdf-build.js';
import { xmlFor } from './hybrid-fixtures.js';

const clausesOf = (pdf: Uint8Array) => [...new Set(checkPdfa(pdf, { part: 3 }).findings.map((f) => f.clause))].sort();

/** Convert `input` the way /v1/convert does, and check what the issue asks of every repair. */
async function repaired(input: Uint8Array, expectRepairs: string[], expectClauses: string[]) {
  const before = clausesOf(input);
  for (const c of expectClauses) assert.ok(before.includes(c), `the input is flagged ${c}: ${before.join(', ')}`);
  const out = await embedInvoiceXml(input, { xml: xmlFor('en16931'), flavour: hybridFlavour('en16931') });
  const after = checkPdfa(out.pdf);
  assert.deepEqual(after.findings, [], 'the output passes PDF/A-3b');
  assert.deepEqual(out.repairs?.repaired, expectRepairs);
  assert.deepEqual(await pageContents(out.pdf), await pageContents(input), 'page content untouched');
  assert.ok((await readPdf(out.pdf)).attachments.some((a) => a.name === 'factur-x.xml'));
  return { out, doc: await PDFDocument.load(out.pdf, { updateMetadata: false }) };
}

const annots = (doc: PDFDocument) =>
  doc
    .getPages()[0]
    .node.Annots()!
    .asArray()
    .map((r) => doc.context.lookup(r) as PDFDict);
const num = (d: PDFDict, k: string) => (d.lookup(PDFName.of(k)) as unknown as { asNumber(): number }).asNumber();

describe('repairs, one clause at a time', () => {
  test('a clean input: nothing is repaired', async () => {
    const out = await embedInvoiceXml(plainPdf(), { xml: xmlFor('en16931'), flavour: hybridFlavour('en16931') });
    assert.deepEqual(out.repairs?.repaired, []);
    // DeviceRGB without an output intent is reported on the input; the writer's sRGB intent covers it, so the
    // device-colour repair runs and changes nothing.
    assert.deepEqual(
      out.repairs?.runs.map((r) => [r.name, r.changed]),
      [['default-colour-spaces', 0]],
    );
    assert.deepEqual(checkPdfa(out.pdf).findings, []);
  });

  test('annotation-flags (6.3.2): Print set; a hidden annotation made visible draws nothing', async () => {
    const input = plainPdf({
      page: '/Annots[5 0 R 6 0 R]',
      extra: [
        '<</Type/Annot/Subtype/Link/Rect[10 10 60 30]/Border[0 0 0]/A<</S/URI/URI(https://example.org)>>>>',
        '<</Type/Annot/Subtype/Square/Rect[10 50 60 90]/F 6/C[1 0 0]/AP<</N 7 0 R>>>>',
        { dict: '<</Type/XObject/Subtype/Form/BBox[0 0 50 40]/Resources<<>>>>', data: '1 0 0 RG 0 0 50 40 re S' },
      ],
    });
    const { doc } = await repaired(input, ['annotation-flags'], ['6.3.2-1', '6.3.2-2']);
    const [link, square] = annots(doc);
    assert.equal(num(link, 'F'), 4);
    assert.equal(num(square, 'F'), 4);
    const ap = square.lookup(PDFName.of('AP')) as PDFDict;
    const n = ap.lookup(PDFName.of('N')) as PDFRawStream;
    assert.equal(streamData(doc, (ap.get(PDFName.of('N')) as PDFRef).objectNumber).length, 0, 'the hidden square draws nothing');
    assert.ok(n instanceof PDFRawStream);
  });

  test('annotation-appearances (6.3.3): missing appearance, /D and /R, a button without states, /N that is not a stream', async () => {
    const form = { dict: '<</Type/XObject/Subtype/Form/BBox[0 0 50 20]/Resources<<>>>>', data: '0 g 0 0 50 20 re f' };
    const input = plainPdf({
      page: '/Annots[5 0 R 6 0 R 7 0 R 8 0 R]',
      catalog: '/AcroForm<</Fields[7 0 R]>>',
      extra: [
        '<</Type/Annot/Subtype/Square/F 4/Rect[10 10 60 30]/C[0 0 1]>>', // 5: no appearance
        '<</Type/Annot/Subtype/Circle/F 4/Rect[10 40 60 60]/AP<</N 9 0 R/D 9 0 R/R 9 0 R>>>>', // 6: /D and /R
        '<</Type/Annot/Subtype/Widget/FT/Btn/T(cb)/F 4/Rect[10 70 30 90]/AS/Yes/AP<</N 9 0 R>>>>', // 7: button, stream
        '<</Type/Annot/Subtype/FreeText/F 4/Rect[10 100 60 120]/DA(0 g)/AS/On/AP<</N<</On 9 0 R/Off 9 0 R>>>>>>', // 8: dict
        form, // 9
      ],
    });
    const { doc, out } = await repaired(input, ['annotation-appearances'], ['6.3.3-1', '6.3.3-2', '6.3.3-3', '6.3.3-4']);
    const [square, circle, button, free] = annots(doc);
    assert.ok(square.lookup(PDFName.of('AP')) instanceof PDFDict);
    assert.deepEqual(
      (circle.lookup(PDFName.of('AP')) as PDFDict).keys().map((k) => k.decodeText()),
      ['N'],
    );
    const states = (button.lookup(PDFName.of('AP')) as PDFDict).lookup(PDFName.of('N'));
    assert.ok(states instanceof PDFDict && states.has(PDFName.of('Yes')), 'the button keeps its stream under its state');
    assert.ok((free.lookup(PDFName.of('AP')) as PDFDict).lookup(PDFName.of('N')) instanceof PDFRawStream);
    // The square had nothing to show in its own appearance: reported, not hidden.
    assert.ok(out.repairs?.unrepaired.some((u) => u.clause === '6.3.3-1' && /Square annotation/.test(u.message)));
  });

  test('forbidden-actions (6.5, 6.4.1): JavaScript, Launch, additional actions go; URI links and their allowed chain stay', async () => {
    const input = plainPdf({
      catalog:
        '/OpenAction<</S/JavaScript/JS(app.alert(1))>>/AA<</WC<</S/JavaScript/JS(1)>>>>/Names<</JavaScript<</Names[(a) 8 0 R]>>>>/AcroForm<</Fields[7 0 R]>>',
      page: '/AA<</O<</S/JavaScript/JS(1)>>>>/Annots[5 0 R 6 0 R 7 0 R]',
      extra: [
        '<</Type/Annot/Subtype/Link/F 4/Rect[10 10 60 30]/A<</S/Launch/F(calc.exe)>>>>',
        '<</Type/Annot/Subtype/Link/F 4/Rect[10 40 60 60]/A<</S/URI/URI(https://example.org)/Next[<</S/JavaScript/JS(1)>> <</S/Named/N/NextPage>>]>>>>',
        '<</Type/Annot/Subtype/Widget/FT/Tx/T(f)/F 4/Rect[10 70 60 90]/AP<</N 9 0 R>>/A<</S/SubmitForm/F(x)>>/AA<</K<</S/JavaScript/JS(1)>>>>>>',
        '<</S/JavaScript/JS(1)>>',
        { dict: '<</Type/XObject/Subtype/Form/BBox[0 0 50 20]/Resources<<>>>>', data: '' },
      ],
    });
    const { doc } = await repaired(input, ['forbidden-actions'], ['6.4.1-1', '6.4.1-2', '6.5.1-1', '6.5.2-1', '6.5.2-2']);
    for (const k of ['OpenAction', 'AA']) assert.equal(doc.catalog.has(PDFName.of(k)), false, k);
    const [launch, uri, widget] = annots(doc);
    assert.equal(launch.has(PDFName.of('A')), false);
    const a = uri.lookup(PDFName.of('A')) as PDFDict;
    assert.equal((a.lookup(PDFName.of('URI')) as unknown as { decodeText(): string }).decodeText(), 'https://example.org');
    assert.equal(String(a.lookup(PDFName.of('Next'))).replace(/\s+/g, ' '), '[ << /S /Named /N /NextPage >> ]');
    assert.equal(widget.has(PDFName.of('A')) || widget.has(PDFName.of('AA')), false);
  });

  test('xfa and need-appearances (6.4.2, 6.4.1-3): the AcroForm stays with its fields', async () => {
    const input = plainPdf({
      catalog: '/AcroForm<</Fields[5 0 R]/NeedAppearances true/XFA 6 0 R>>/NeedsRendering true',
      page: '/Annots[5 0 R]',
      extra: [
        '<</Type/Annot/Subtype/Widget/FT/Tx/T(name)/V(Ada)/F 4/Rect[10 10 100 30]/AP<</N 7 0 R>>>>',
        { dict: '<<>>', data: '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"/>' },
        { dict: '<</Type/XObject/Subtype/Form/BBox[0 0 90 20]/Resources<<>>>>', data: '' },
      ],
    });
    const { doc } = await repaired(input, ['xfa', 'need-appearances'], ['6.4.1-3', '6.4.2-1', '6.4.2-2']);
    const form = doc.catalog.lookup(PDFName.of('AcroForm')) as PDFDict;
    assert.deepEqual(
      form.keys().map((k) => k.decodeText()),
      ['Fields'],
    );
  });

  test('lzw-to-flate (6.1.7.2): the same bytes under Flate', async () => {
    const content = '0 0 1 rg 20 20 100 50 re f 1 0 0 RG 10 10 m 150 150 l S';
    const input = buildPdf([
      '<</Type/Catalog/Pages 2 0 R>>',
      '<</Type/Pages/Kids[3 0 R]/Count 1>>',
      '<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Resources<<>>/Contents 4 0 R>>',
      { dict: '<</Filter/LZWDecode>>', data: lzwEncode(Buffer.from(content, 'latin1')) },
    ]);
    assert.deepEqual(await pageContents(input), [content], 'the test encoder writes LZW pdf-lib reads');
    const { doc } = await repaired(input, ['lzw-to-flate'], ['6.1.7.2-1']);
    const stream = doc.getPages()[0].node.Contents() as PDFRawStream;
    assert.equal(String(stream.dict.get(PDFName.of('Filter'))), '/FlateDecode');
  });

  test('image-interpolate (6.2.8-3): /Interpolate removed, the image data kept', async () => {
    const input = plainPdf({
      content: 'q 100 0 0 100 0 0 cm /Im1 Do Q',
      resources: '/XObject<</Im1 5 0 R>>',
      extra: [
        {
          dict: '<</Type/XObject/Subtype/Image/Width 2/Height 1/ColorSpace/DeviceRGB/BitsPerComponent 8/Interpolate true>>',
          data: '\xff\x00\x00\x00\x00\xff',
        },
      ],
    });
    const { doc } = await repaired(input, ['image-interpolate'], ['6.2.8-3']);
    const img = doc.context.lookup(PDFRef.of(5)) as PDFRawStream;
    assert.equal(img.dict.has(PDFName.of('Interpolate')), false);
    assert.deepEqual([...streamData(doc, 5)], [255, 0, 0, 0, 0, 255]);
  });

  test('optional-content (6.9): names, /Order and /AS', async () => {
    const input = plainPdf({
      catalog:
        '/OCProperties<</OCGs[5 0 R 6 0 R]/D<</Order[5 0 R]/AS[<</Event/Print/OCGs[5 0 R]/Category[/Print]>>]>>/Configs[<</Name(Default)>>]>>',
      extra: ['<</Type/OCG/Name(Layer 1)>>', '<</Type/OCG/Name(Layer 2)>>'],
    });
    const { doc } = await repaired(input, ['optional-content'], ['6.9-1', '6.9-3', '6.9-4']);
    const d = (doc.catalog.lookup(PDFName.of('OCProperties')) as PDFDict).lookup(PDFName.of('D')) as PDFDict;
    assert.equal(d.has(PDFName.of('AS')), false);
    assert.equal(String(d.get(PDFName.of('Order'))), '[ 5 0 R 6 0 R ]');
  });

  test('transfer-functions and halftones (6.2.5): /TR, /TR2, /HTP and a type 6 halftone go', async () => {
    const input = plainPdf({
      content: '/GS1 gs 0 0 1 rg 20 20 100 50 re f',
      resources: '/ExtGState<</GS1<</TR/Identity/TR2 5 0 R/HTP[1 2]/HT<</HalftoneType 6/Width 1/Height 1>>>>>>',
      extra: ['<</FunctionType 2/Domain[0 1]/C0[0]/C1[1]/N 1>>'],
    });
    await repaired(input, ['transfer-functions', 'halftones'], ['6.2.5-1', '6.2.5-2', '6.2.5-3', '6.2.5-4']);
  });

  test('default-colour-spaces (6.2.4.3): DeviceCMYK next to the sRGB intent gets DefaultCMYK with our profile', async () => {
    const input = plainPdf({ content: '0 0 0 1 k 20 20 100 50 re f 1 0 0 0 K 10 10 m 150 150 l S' });
    const { doc } = await repaired(input, ['default-colour-spaces'], ['6.2.4.3-3']);
    const res = doc.getPages()[0].node.Resources()!;
    const cs = (res.lookup(PDFName.of('ColorSpace')) as PDFDict).lookup(PDFName.of('DefaultCMYK'));
    assert.match(String(cs), /^\[ \/ICCBased \d+ 0 R \]$/);
  });

  test('the generated CMYK profile: ICC v2 scanner class, CMYK to XYZ, paper white and the inks as viewers draw them', () => {
    const p = Buffer.from(cmykProfile());
    assert.equal(p.readUInt32BE(0), p.length);
    assert.equal(p.toString('latin1', 12, 20), 'scnrCMYK');
    assert.equal(p.toString('latin1', 20, 24), 'Lab ');
    assert.equal(p.toString('latin1', 36, 40), 'acsp');
    assert.equal(p[8], 2);
    assert.deepEqual(
      cmykToXyz(0, 0, 0, 0).map((v) => Math.round(v * 1000)),
      [964, 1000, 825],
    );
    assert.deepEqual(cmykToXyz(1, 1, 1, 1), [0, 0, 0]);
    // Corners come out as the viewer draws them; a 50 % tint lies between paper and ink.
    assert.deepEqual(
      cmykToRgb(1, 0, 0, 0).map((v) => Math.round(v * 255)),
      [0, 173, 239],
    );
    assert.deepEqual(
      cmykToRgb(0.5, 0, 0, 0).map((v) => Math.round(v * 255)),
      [128, 214, 247],
    );
  });

  test('output-intents (6.2.3): two intents with different profiles and a /DestOutputProfileRef', async () => {
    const { getDefaultSRGBProfile } = await import('@cantoo/pdf-lib');
    const srgb = Buffer.from(getDefaultSRGBProfile());
    const other = Buffer.from(srgb);
    other[100] ^= 1; // another profile, byte for byte
    const input = plainPdf({
      catalog:
        '/OutputIntents[<</Type/OutputIntent/S/GTS_PDFA1/OutputConditionIdentifier(sRGB IEC61966-2.1)/DestOutputProfile 5 0 R>> <</Type/OutputIntent/S/GTS_PDFX/OutputConditionIdentifier(x)/DestOutputProfile 6 0 R/DestOutputProfileRef<<>>>>]',
      extra: [
        { dict: '<</N 3>>', data: srgb },
        { dict: '<</N 3>>', data: other },
      ],
    });
    const { doc } = await repaired(input, ['output-intents'], ['6.2.3-2', '6.2.3-3']);
    assert.equal((doc.catalog.lookup(PDFName.of('OutputIntents')) as unknown as { size(): number }).size(), 1);
  });

  test('utf8-names (6.1.8): a Windows-1252 colourant name re-encoded as UTF-8', async () => {
    const input = plainPdf({
      content: '/CS1 cs 1 scn 20 20 100 50 re f',
      resources: '/ColorSpace<</CS1[/Separation/Gr#FCn/DeviceRGB 5 0 R]>>',
      extra: ['<</FunctionType 2/Domain[0 1]/C0[1 1 1]/C1[0 0.5 0]/N 1>>'],
    });
    const { doc } = await repaired(input, ['utf8-names'], ['6.1.8-1']);
    const cs = (
      (doc.getPages()[0].node.Resources()!.lookup(PDFName.of('ColorSpace')) as PDFDict).lookup(PDFName.of('CS1')) as unknown as {
        get(i: number): PDFName;
      }
    ).get(1);
    assert.equal(Buffer.from(cs.asBytes()).toString('utf8'), 'Grün');
  });

  test('xmp-properties (6.6.2.3): a custom text property declared, an unknown property of a predefined schema dropped', async () => {
    const xmp = Buffer.from(
      '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
        '<rdf:Description rdf:about="" xmlns:acme="http://example.com/acme/1.0/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">' +
        '<acme:Batch>B-17</acme:Batch><acme:Tags><rdf:Bag><rdf:li>a</rdf:li><rdf:li>b</rdf:li></rdf:Bag></acme:Tags>' +
        '<xmpMM:DocumentID>uuid:1</xmpMM:DocumentID><xmpMM:Frobnicated>yes</xmpMM:Frobnicated></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>',
      'utf8',
    );
    const input = plainPdf({ catalog: '/Metadata 5 0 R', extra: [{ dict: '<</Type/Metadata/Subtype/XML>>', data: xmp }] });
    const { doc, out } = await repaired(input, ['xmp-properties'], ['6.6.2.3.1-1']);
    const packet = streamData(doc, (doc.catalog.get(PDFName.of('Metadata')) as PDFRef).objectNumber).toString('utf8');
    assert.match(packet, /<acme:Batch>B-17<\/acme:Batch>/);
    assert.match(packet, /<pdfaSchema:namespaceURI>http:\/\/example.com\/acme\/1.0\/<\/pdfaSchema:namespaceURI>/);
    assert.match(packet, /xmpMM:DocumentID/);
    assert.doesNotMatch(packet, /Frobnicated/);
    assert.ok(
      out.repairs?.unrepaired.some((u) => /xmpMM:Frobnicated/.test(u.message)),
      'the dropped property is reported',
    );
  });

  test('cleanXmp: a broken extension schema entry is dropped, a valid one kept', () => {
    const ext = (ns: string, extra = '') =>
      `<rdf:li rdf:parseType="Resource"><pdfaSchema:schema>s</pdfaSchema:schema><pdfaSchema:namespaceURI>${ns}</pdfaSchema:namespaceURI><pdfaSchema:prefix>p</pdfaSchema:prefix>${extra}<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource"><pdfaProperty:name>A</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>a</pdfaProperty:description></rdf:li></rdf:Seq></pdfaSchema:property></rdf:li>`;
    const xmp =
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#"><pdfaExtension:schemas><rdf:Bag>' +
      ext('http://good/') +
      ext('http://bad/', '<pdfaSchema:bogus>x</pdfaSchema:bogus>') +
      '</rdf:Bag></pdfaExtension:schemas></rdf:Description></rdf:RDF></x:xmpmeta>';
    const clean = cleanXmp(Buffer.from(xmp));
    assert.ok(clean);
    assert.match(clean.xml, /http:\/\/good\//);
    assert.doesNotMatch(clean.xml, /http:\/\/bad\//);
  });

  test('presentations, requirements, permissions, embedded-file-names, associated-files (6.10, 6.11, 6.1.12, 6.8)', async () => {
    const input = plainPdf({
      catalog:
        '/Requirements[<</S/EnableJavaScripts>>]/Perms<</DocMDP 6 0 R/Foo 6 0 R>>/Names<</EmbeddedFiles<</Names[(a.txt) 5 0 R]>>/AlternatePresentations<<>>>>',
      page: '/PresSteps<<>>/Annots[8 0 R]',
      extra: [
        '<</Type/Filespec/F(a.txt)/EF<</F 7 0 R>>/AFRelationship/Data>>',
        '<</Type/Sig/Filter/Adobe.PPKLite/Reference[<</TransformMethod/DocMDP/DigestMethod/MD5>>]>>',
        { dict: '<</Type/EmbeddedFile>>', data: 'hello' },
        // A FileAttachment annotation's file: outside the name tree, so only the repair associates it.
        '<</Type/Annot/Subtype/FileAttachment/F 4/Rect[10 10 30 30]/FS 9 0 R/AP<</N 11 0 R>>>>',
        '<</Type/Filespec/F(b.txt)/UF(b.txt)/EF<</F 10 0 R>>>>',
        { dict: '<</Type/EmbeddedFile/Subtype/text#2Fplain>>', data: 'note' },
        { dict: '<</Type/XObject/Subtype/Form/BBox[0 0 20 20]/Resources<<>>>>', data: '' },
      ],
    });
    const { doc } = await repaired(
      input,
      ['associated-files', 'presentations', 'requirements', 'permissions', 'embedded-file-names'],
      ['6.10-1', '6.10-2', '6.11-1', '6.1.12-1', '6.1.12-2', '6.8-1', '6.8-2', '6.8-3', '6.8-4'],
    );
    assert.equal(String((doc.context.lookup(PDFRef.of(9)) as PDFDict).get(PDFName.of('AFRelationship'))), '/Unspecified');
  });
});

describe('repairs, more clauses', () => {
  test('annotation-types (6.3.1): a Screen annotation leaves the page, the link stays', async () => {
    const input = plainPdf({
      page: '/Annots[5 0 R 6 0 R]',
      extra: ['<</Type/Annot/Subtype/Screen/F 4/Rect[10 10 60 60]>>', '<</Type/Annot/Subtype/Link/F 4/Rect[70 10 120 30]>>'],
    });
    const { doc } = await repaired(input, ['annotation-types'], ['6.3.1-1']);
    assert.deepEqual(
      annots(doc).map((a) => String(a.get(PDFName.of('Subtype')))),
      ['/Link'],
    );
  });

  test('explicit-resources (6.2.2-2): resources inherited from the page tree and from the page are written where used', async () => {
    const input = buildPdf([
      '<</Type/Catalog/Pages 2 0 R>>',
      '<</Type/Pages/Kids[3 0 R]/Count 1/Resources 6 0 R>>',
      '<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Contents 4 0 R>>',
      { dict: '<<>>', data: '/Fm1 Do' },
      { dict: '<</Type/XObject/Subtype/Form/BBox[0 0 200 200]>>', data: '/GS1 gs 0 0 1 rg 10 10 50 50 re f' },
      '<</XObject<</Fm1 5 0 R>>/ExtGState<</GS1<</CA 1>>>>>>',
    ]);
    const { doc } = await repaired(input, ['explicit-resources'], ['6.2.2-2']);
    assert.equal(String(doc.getPages()[0].node.get(PDFName.of('Resources'))), '6 0 R');
    assert.equal(String((doc.context.lookup(PDFRef.of(5)) as PDFRawStream).dict.get(PDFName.of('Resources'))), '6 0 R');
  });

  test('overprint-mode (6.2.4.2-2): OPM 1 with overprint on ICCBased CMYK goes back to 0', async () => {
    const input = plainPdf({
      content: '/CS0 cs /GS1 gs 0 0 0 1 sc 20 20 100 50 re f',
      resources: '/ColorSpace<</CS0[/ICCBased 5 0 R]>>/ExtGState<</GS1<</OP true/op true/OPM 1>>>>',
      extra: [{ dict: '<</N 4>>', data: Buffer.from(cmykProfile()) }],
    });
    await repaired(input, ['overprint-mode'], ['6.2.4.2-2']);
  });

  test('the output intent: a PDF/X intent with a usable profile is shared by the PDF/A intent; an empty /ID is replaced', async () => {
    const { getDefaultSRGBProfile } = await import('@cantoo/pdf-lib');
    const input = plainPdf({
      catalog: '/OutputIntents[<</Type/OutputIntent/S/GTS_PDFX/OutputConditionIdentifier(sRGB)/DestOutputProfile 5 0 R>>]',
      extra: [{ dict: '<</N 3>>', data: Buffer.from(getDefaultSRGBProfile()) }],
      trailer: '/ID[<><>]',
    });
    assert.ok(clausesOf(input).includes('6.1.3-1'));
    const { doc } = await repaired(input, [], ['6.1.3-1', '6.2.4.3-2']);
    const intents = doc.catalog.lookup(PDFName.of('OutputIntents')) as unknown as { asArray(): PDFRef[]; size(): number };
    assert.equal(intents.size(), 2);
    const profiles = intents.asArray().map((r) => String((doc.context.lookup(r) as PDFDict).get(PDFName.of('DestOutputProfile'))));
    assert.deepEqual(profiles, ['5 0 R', '5 0 R']);
  });

  test('past the report cap of 500 findings every clause is still named, and the repairs see every object', async () => {
    // 600 links without /F (one 6.3.2-1 finding each) fill the cap before the catalog's JavaScript (6.5) is reached.
    const links = Array.from({ length: 600 }, (_, i) => `<</Type/Annot/Subtype/Link/Rect[${i % 150} 10 ${(i % 150) + 1} 11]>>`);
    const input = plainPdf({
      page: `/Annots[${links.map((_, i) => `${i + 5} 0 R`).join(' ')}]`,
      catalog: '/OpenAction<</S/JavaScript/JS(app.alert(1))>>',
      extra: links,
    });
    const report = checkPdfa(input, { part: 3 });
    const flags = report.findings.filter((f) => f.clause === '6.3.2-1').length;
    assert.ok(flags >= 450 && flags < 600, `the cap holds for one clause: ${flags}`);
    assert.ok(report.findings.length < 520, `${report.findings.length} findings`);
    assert.ok(
      clausesOf(input).some((c) => c.startsWith('6.5')),
      'the JavaScript past the cap is named',
    );
    const { doc } = await repaired(input, ['forbidden-actions', 'annotation-flags'], ['6.3.2-1']);
    assert.equal(annots(doc).length, 600);
    assert.ok(annots(doc).every((a) => num(a, 'F') === 4));
  });
});

describe('the registry', () => {
  test('a repair runs only when its clause is reported, and is listed only when it changed something', async () => {
    const input = plainPdf({ page: '/Annots[5 0 R]', extra: ['<</Type/Annot/Subtype/Link/Rect[10 10 60 30]>>'] });
    const calls: string[] = [];
    const spy = REPAIRS.map((r) => ({ ...r, apply: (ctx: Parameters<typeof r.apply>[0]) => (calls.push(r.name), r.apply(ctx)) }));
    const doc = await PDFDocument.load(input, { updateMetadata: false });
    const report = await repairForPdfa(doc, input, { repairs: spy });
    assert.deepEqual(calls, ['annotation-flags', 'default-colour-spaces']);
    assert.deepEqual(report.repaired, ['annotation-flags']);
    assert.equal(report.runs.length, 2);
    assert.ok(report.runs[0].ms >= 0);
    assert.ok(report.inputCheck.findings >= 1);
  });

  test('a repair that throws leaves its findings reported, the others still run', async () => {
    const input = plainPdf({ page: '/Annots[5 0 R]', extra: ['<</Type/Annot/Subtype/Link/Rect[10 10 60 30]/A<</S/Launch/F(x)>>>>'] });
    const doc = await PDFDocument.load(input, { updateMetadata: false });
    const broken = REPAIRS.map((r) =>
      r.name === 'forbidden-actions'
        ? {
            ...r,
            apply: () => {
              throw new Error('boom');
            },
          }
        : r,
    );
    const report = await repairForPdfa(doc, input, { repairs: broken });
    assert.deepEqual(report.repaired, ['annotation-flags']);
    assert.ok(report.unrepaired.some((u) => u.clause === '6.5.1-1' && /repair forbidden-actions failed: boom/.test(u.message)));
  });
});
