/**
 * embedInvoiceXml (src/pdf/embed.ts): the container Factur-X 1.08 / ZUGFeRD 2.4 / XRechnung prescribe,
 * checked with readers that did not write it: qpdf's JSON object view and pdfjs-dist, XMP parsed as XML.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib';
import type { ProfileId } from '../src/model/profiles.js';
import { EmbedError, embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';
import { readPdf } from '../src/pdf/extract.js';
import { carryOverXmp, FX_NAMESPACE } from '../src/pdf/xmp-write.js';
import { embeddedFileEntries, parseXmpPacket, pdfjsRead, qpdfStringHex, qpdfText, qpdfView } from './hybrid-pdf-reader.js';
import { assertContainer, makeBasePdf, xmlFor } from './hybrid-fixtures.js';
import { fixturePath } from './fixtures.js';

const PROFILES: ProfileId[] = ['minimum', 'basic_wl', 'basic', 'en16931', 'extended', 'xrechnung'];

test('every profile: the container is complete, read back by qpdf and pdf.js, pages unchanged', async () => {
  const base = await makeBasePdf(2);
  const baseRaw = qpdfView(base, { raw: true });
  const baseText = (await pdfjsRead(base)).pageTexts;
  for (const profile of PROFILES) {
    const xml = xmlFor(profile);
    const flavour = hybridFlavour(profile);
    const { pdf, pdfa } = await embedInvoiceXml(base, { xml, flavour, title: `Invoice for ${profile}` });
    assert.deepEqual(pdfa, { part: 3, conformance: 'B' });
    const v = assertContainer(pdf, xml, flavour);
    // The OutputIntent we add names its condition fully (/Info, /RegistryName), not only the identifier.
    const intent = v.get(v.get(v.catalog['/OutputIntents'])[0]);
    assert.equal(qpdfText(intent['/OutputConditionIdentifier']), 'sRGB IEC61966-2.1');
    assert.equal(qpdfText(intent['/Info']), 'sRGB IEC61966-2.1');
    assert.equal(qpdfText(intent['/RegistryName']), 'http://www.color.org');
    assert.equal(qpdfText(v.get(v.trailer['/Info'])['/Title']), `Invoice for ${profile}`);

    const js = await pdfjsRead(pdf);
    assert.ok(js.attachments[flavour.fileName], `pdf.js sees ${flavour.fileName}`);
    assert.equal(Buffer.compare(Buffer.from(js.attachments[flavour.fileName]), Buffer.from(xml)), 0);
    assert.deepEqual(js.pageTexts, baseText, 'page text unchanged');
    const id = qpdfView(pdf).trailer['/ID'];
    assert.equal(js.fingerprints[0], qpdfStringHex(id[0]), 'pdf.js reads the same /ID');

    // Page content streams byte for byte as they were.
    const raw = qpdfView(pdf, { raw: true });
    assert.equal(raw.pages.length, baseRaw.pages.length);
    raw.pages.forEach((p, i) => {
      const before = baseRaw.pages[i].contents.map((r) => baseRaw.data(r).toString('base64'));
      const after = p.contents.map((r) => raw.data(r).toString('base64'));
      assert.deepEqual(after, before, `page ${i + 1} content unchanged`);
    });
  }
});

test('profile → attachment name, level and relationship', () => {
  assert.deepEqual(
    PROFILES.map((p) => {
      const f = hybridFlavour(p);
      return [p, f.fileName, f.conformanceLevel, f.afRelationship, f.version];
    }),
    [
      ['minimum', 'factur-x.xml', 'MINIMUM', 'Data', '1.0'],
      ['basic_wl', 'factur-x.xml', 'BASIC WL', 'Data', '1.0'],
      ['basic', 'factur-x.xml', 'BASIC', 'Alternative', '1.0'],
      ['en16931', 'factur-x.xml', 'EN 16931', 'Alternative', '1.0'],
      ['extended', 'factur-x.xml', 'EXTENDED', 'Alternative', '1.0'],
      ['xrechnung', 'xrechnung.xml', 'XRECHNUNG', 'Alternative', '3.0'],
    ],
  );
  // An explicit format wins over the profile.
  assert.equal(hybridFlavour('xrechnung', 'factur-x').fileName, 'factur-x.xml');
  assert.equal(hybridFlavour('xrechnung', 'zugferd').conformanceLevel, 'EN 16931');
  assert.equal(hybridFlavour('en16931', 'xrechnung').fileName, 'xrechnung.xml');
});

test('a PDF/A-3b input keeps its declaration, its OutputIntent, its /ID and its other attachment', async () => {
  const input = readFileSync(fixturePath('verapdf/3b/6.8/6-8-t02-pass-e.pdf'));
  const before = qpdfView(input);
  const xml = xmlFor('en16931');
  const flavour = hybridFlavour('en16931');
  const { pdf } = await embedInvoiceXml(input, { xml, flavour });
  const v = assertContainer(pdf, xml, flavour);
  assert.equal(v.trailer['/ID'][0], before.trailer['/ID'][0], 'permanent /ID kept');
  assert.notEqual(v.trailer['/ID'][1], before.trailer['/ID'][1], 'changing /ID renewed');
  assert.equal(v.get(v.catalog['/OutputIntents']).length, before.get(before.catalog['/OutputIntents']).length, 'no second OutputIntent');
  // The input's key is UTF-16 (FE FF …): the tree is rewritten in that one encoding, sorted by the decoded text
  // (sorting raw bytes put factur-x.xml first, where qpdf's and pikepdf's search by text did not find it).
  const names = embeddedFileEntries(v).map(([k]) => k);
  assert.deepEqual(names, ['TextFile.txt', 'factur-x.xml']);
  const read = await readPdf(pdf);
  assert.deepEqual(read.attachments.map((a) => [a.name, a.inNameTree, a.inAssociatedFiles]).sort(), [
    ['TextFile.txt', true, true],
    ['factur-x.xml', true, true],
  ]);
});

test('a 3U input stays 3U; a custom extension schema of the input is kept next to fx', async () => {
  const doc = await PDFDocument.load(await makeBasePdf(), { updateMetadata: false });
  const customNs = 'http://example.com/ns/custom/1.0/';
  doc.convertToPDFA({
    conformance: '3U',
    extensions: [
      `<rdf:Description rdf:about="" xmlns:cu="${customNs}"><cu:Batch>42</cu:Batch></rdf:Description>`,
      '<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">' +
        '<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource"><pdfaSchema:schema>Custom</pdfaSchema:schema>' +
        `<pdfaSchema:namespaceURI>${customNs}</pdfaSchema:namespaceURI><pdfaSchema:prefix>cu</pdfaSchema:prefix>` +
        '<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource"><pdfaProperty:name>Batch</pdfaProperty:name>' +
        '<pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category>' +
        '<pdfaProperty:description>batch</pdfaProperty:description></rdf:li></rdf:Seq></pdfaSchema:property></rdf:li></rdf:Bag>' +
        '</pdfaExtension:schemas></rdf:Description>',
    ],
  });
  const input = await doc.save();
  const xml = xmlFor('basic');
  const flavour = hybridFlavour('basic');
  const { pdf, pdfa } = await embedInvoiceXml(input, { xml, flavour });
  assert.deepEqual(pdfa, { part: 3, conformance: 'U' });
  const v = assertContainer(pdf, xml, flavour, 'U');
  const xmp = parseXmpPacket(v.data(v.catalog['/Metadata']));
  assert.equal(xmp.props.get(`${customNs}|Batch`), '42');
  assert.deepEqual(xmp.schemas.map((s) => s.namespaceURI).sort(), [customNs, FX_NAMESPACE].sort());
});

test('an invoice XML already attached is replaced, never duplicated', async () => {
  const first = await embedInvoiceXml(await makeBasePdf(), { xml: xmlFor('en16931'), flavour: hybridFlavour('en16931') });
  const xml = xmlFor('extended');
  const flavour = hybridFlavour('extended');
  const { pdf } = await embedInvoiceXml(first.pdf, { xml, flavour, replaceInvoiceAttachments: true });
  const v = assertContainer(pdf, xml, flavour);
  assert.equal(v.get(v.catalog['/AF']).length, 1);
  assert.equal(embeddedFileEntries(v).length, 1);
  // ZUGFeRD's older name is replaced too when converting.
  const xr = await embedInvoiceXml(pdf, { xml: xmlFor('xrechnung'), flavour: hybridFlavour('xrechnung'), replaceInvoiceAttachments: true });
  const names = (await readPdf(xr.pdf)).attachments.map((a) => a.name);
  assert.deepEqual(names, ['xrechnung.xml']);
});

test('a name tree with /Kids gets the entry in key order', async () => {
  const doc = await PDFDocument.load(await makeBasePdf(), { updateMetadata: false });
  const ctx = doc.context;
  const fileSpec = (name: string) =>
    ctx.register(
      ctx.obj({
        Type: 'Filespec',
        F: PDFString.of(name),
        UF: PDFString.of(name),
        AFRelationship: 'Supplement',
        EF: { F: ctx.register(ctx.flateStream(new TextEncoder().encode(name), { Type: 'EmbeddedFile' })) },
      }),
    );
  const leaf = (a: string, b: string) =>
    ctx.register(
      ctx.obj({ Names: [PDFString.of(a), fileSpec(a), PDFString.of(b), fileSpec(b)], Limits: [PDFString.of(a), PDFString.of(b)] }),
    );
  doc.catalog.set(PDFName.of('Names'), ctx.obj({ EmbeddedFiles: ctx.obj({ Kids: [leaf('a.txt', 'b.txt'), leaf('x.txt', 'z.txt')] }) }));
  const input = await doc.save();
  const xml = xmlFor('en16931');
  const flavour = hybridFlavour('en16931');
  const { pdf } = await embedInvoiceXml(input, { xml, flavour });
  const v = assertContainer(pdf, xml, flavour);
  assert.deepEqual(
    embeddedFileEntries(v).map(([k]) => k),
    ['a.txt', 'b.txt', 'factur-x.xml', 'x.txt', 'z.txt'],
  );
  const js = await pdfjsRead(pdf);
  assert.ok(js.attachments['factur-x.xml'], 'pdf.js finds the entry in the Kids tree');
});

test('unusable input: not a PDF; an encrypted PDF that opens without a password is written decrypted', async () => {
  const xml = xmlFor('en16931');
  const flavour = hybridFlavour('en16931');
  await assert.rejects(
    embedInvoiceXml(new TextEncoder().encode('hello'), { xml, flavour }),
    (e: unknown) => e instanceof EmbedError && e.code === 'NOT_PDF',
  );
  // Encrypted with the empty user password: decrypted (PDF/A forbids encryption), said in the repairs.
  const encrypted = readFileSync(fixturePath('verapdf/2b/6.1.3/6-1-3-t02-fail-a.pdf'));
  const clear = await embedInvoiceXml(encrypted, { xml, flavour });
  assert.equal(clear.repairs?.repaired[0], 'decryption');
  assert.doesNotMatch(Buffer.from(clear.pdf).toString('latin1'), /\/Encrypt\b/);
});

test('carryOverXmp keeps predefined and declared blocks, drops what cannot travel', () => {
  const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
  const packet =
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="${RDF}" xmlns:outer="http://example.com/outer/">` +
    // predefined xmpMM without nesting: kept
    '<rdf:Description rdf:about="" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"><xmpMM:DocumentID>uuid:1</xmpMM:DocumentID></rdf:Description>' +
    // nested rdf:Description (history): dropped, the library could not carry it
    '<rdf:Description rdf:about="" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"><xmpMM:History><rdf:Seq><rdf:li><rdf:Description><xmpMM:x>1</xmpMM:x></rdf:Description></rdf:li></rdf:Seq></xmpMM:History></rdf:Description>' +
    // prefix declared outside the block: dropped
    '<rdf:Description rdf:about="" outer:a="1"/>' +
    // undeclared custom namespace: dropped
    '<rdf:Description rdf:about="" xmlns:cu="http://example.com/undeclared/"><cu:a>1</cu:a></rdf:Description>' +
    // owned (dc) and invoice (zf) blocks: dropped
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:format>application/pdf</dc:format></rdf:Description>' +
    '<rdf:Description rdf:about="" xmlns:zf="urn:ferd:pdfa:CrossIndustryDocument:invoice:1p0#" zf:DocumentType="INVOICE"/>' +
    '</rdf:RDF></x:xmpmeta>';
  const carried = carryOverXmp(packet);
  assert.equal(carried.extension, undefined);
  assert.deepEqual(carried.blocks, [
    '<rdf:Description rdf:about="" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"><xmpMM:DocumentID>uuid:1</xmpMM:DocumentID></rdf:Description>',
  ]);
});
