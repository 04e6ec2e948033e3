/**
 * embedInvoiceXml (src/pdf/embed.ts): the container Factur-X 1.08 / ZUGFeRD 2.4 / XRechnung prescribe,
 * checked with readers that did not write it: qpdf's JSON object view and pdfjs-dist, XMP parsed as XML.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PDFDocument, PDFName, PDFString, StandardFonts } from '@cantoo/pdf-lib';
import { buildInvoiceXml } from '../src/metadata/index.js';
import { DOMESTIC_EXAMPLE, XRECHNUNG_EXAMPLE } from '../src/metadata/examples.js';
import type { ProfileId } from '../src/model/profiles.js';
import { EmbedError, embedInvoiceXml, hybridFlavour, type HybridFlavour } from '../src/pdf/embed.js';
import { readPdf } from '../src/pdf/extract.js';
import { FX_NAMESPACE } from '../src/pdf/xmp-write.js';
import { embeddedFileEntries, parseXmpPacket, pdfjsRead, qpdfCheck, qpdfText, qpdfView, type QpdfView } from './hybrid-pdf-reader.js';

const CORPUS = resolve(process.cwd(), '../shared/corpus');
const PDFAID = 'http://www.aiim.org/pdfa/ns/id/';
const PDF_NS = 'http://ns.adobe.com/pdf/1.3/';
const DC = 'http://purl.org/dc/elements/1.1/';
const XMP_NS = 'http://ns.adobe.com/xap/1.0/';

/** A plain (non-PDF/A) invoice PDF with text on each page, an Info dictionary and no /ID. */
export async function makeBasePdf(pages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Invoice page ${i} of ${pages}`, { x: 50, y: 780, size: 14, font });
    page.drawRectangle({ x: 50, y: 700, width: 200, height: 40, borderWidth: 1 });
  }
  doc.setCreator('Test word processor');
  return doc.save();
}

export function xmlFor(profile: ProfileId): Uint8Array {
  const meta = profile === 'xrechnung' ? XRECHNUNG_EXAMPLE : { ...DOMESTIC_EXAMPLE, profile };
  return new TextEncoder().encode(buildInvoiceXml(meta).xml);
}

function md5(b: Uint8Array): string {
  return createHash('md5').update(b).digest('hex');
}

/** Everything a Factur-X / XRechnung container must hold, read with qpdf and parsed XMP. */
export function assertContainer(pdf: Uint8Array, xml: Uint8Array, f: HybridFlavour, expectedConformance = 'B'): QpdfView {
  assert.equal(qpdfCheck(pdf).status, 0, qpdfCheck(pdf).output);
  // Header: %PDF-1.7 and a binary comment line (four bytes ≥ 0x80).
  assert.match(Buffer.from(pdf.subarray(0, 9)).toString('latin1'), /^%PDF-1\.7\s/);
  const second = Buffer.from(pdf.subarray(9, 16));
  assert.equal(second[0], 0x25);
  assert.ok([1, 2, 3, 4].every((i) => second[i] >= 0x80), 'binary comment after the header');

  const v = qpdfView(pdf);
  // Trailer /ID: two 16-byte strings.
  const id = v.trailer['/ID'];
  assert.equal(id.length, 2);
  for (const part of id) assert.match(part, /^b:[0-9a-f]{32}$/);

  // Name tree and /AF reference the same indirect file specification.
  const entries = embeddedFileEntries(v);
  const hit = entries.filter(([k]) => k === f.fileName);
  assert.equal(hit.length, 1, `one ${f.fileName} in the name tree: ${JSON.stringify(entries)}`);
  const specRef = hit[0][1];
  assert.match(specRef, /^\d+ \d+ R$/);
  const af = v.get(v.catalog['/AF']);
  assert.ok(af.includes(specRef), 'file spec listed in the catalog /AF');
  assert.equal(af.filter((r: string) => qpdfText(v.get(r)['/F']) === f.fileName).length, 1, 'listed once in /AF');

  const spec = v.get(specRef);
  assert.equal(spec['/Type'], '/Filespec');
  assert.equal(qpdfText(spec['/F']), f.fileName);
  assert.equal(qpdfText(spec['/UF']), f.fileName);
  assert.equal(spec['/AFRelationship'], `/${f.afRelationship}`);
  const streamRef = spec['/EF']['/F'];
  assert.equal(spec['/EF']['/UF'], streamRef);
  const ef = v.get(streamRef);
  assert.equal(ef['/Type'], '/EmbeddedFile');
  assert.equal(ef['/Subtype'], '/text/xml');
  assert.equal(ef['/Params']['/Size'], xml.length);
  assert.match(qpdfText(ef['/Params']['/ModDate'])!, /^D:\d{14}/);
  assert.equal(ef['/Params']['/CheckSum'], `b:${md5(xml)}`);
  assert.ok(Buffer.compare(v.data(streamRef), Buffer.from(xml)) === 0, 'embedded bytes identical to the XML');
  // The MIME type is a name with the slash escaped, as it must be written in the file.
  assert.ok(Buffer.from(pdf).includes('/Subtype /text#2Fxml'), 'raw /Subtype /text#2Fxml');

  // OutputIntent with an sRGB ICC profile (v2/v4 header facts read from the stream).
  const intents = v.get(v.catalog['/OutputIntents']);
  const intent = v.get(intents[0]);
  assert.equal(intent['/S'], '/GTS_PDFA1');
  assert.ok(qpdfText(intent['/OutputConditionIdentifier']));
  const iccRef = intent['/DestOutputProfile'];
  assert.equal(v.get(iccRef)['/N'], 3);
  const icc = v.data(iccRef);
  assert.equal(icc.readUInt32BE(0), icc.length, 'ICC size field = length');
  assert.equal(icc.toString('latin1', 36, 40), 'acsp');
  assert.ok(['mntr', 'prtr'].includes(icc.toString('latin1', 12, 16)));
  assert.equal(icc.toString('latin1', 16, 20), 'RGB ');
  assert.ok(icc[8] < 5, 'ICC version below 5');

  // XMP, parsed as XML.
  const metaRef = v.catalog['/Metadata'];
  assert.equal(v.get(metaRef)['/Subtype'], '/XML');
  const xmp = parseXmpPacket(v.data(metaRef));
  assert.equal(xmp.props.get(`${PDFAID}|part`), '3');
  assert.equal(xmp.props.get(`${PDFAID}|conformance`), expectedConformance);
  assert.equal(xmp.props.get(`${FX_NAMESPACE}|DocumentType`), 'INVOICE');
  assert.equal(xmp.props.get(`${FX_NAMESPACE}|DocumentFileName`), f.fileName);
  assert.equal(xmp.props.get(`${FX_NAMESPACE}|Version`), f.version);
  assert.equal(xmp.props.get(`${FX_NAMESPACE}|ConformanceLevel`), f.conformanceLevel);
  assert.equal(xmp.prefixes.get(`${FX_NAMESPACE}|ConformanceLevel`), 'fx');
  const fxSchema = xmp.schemas.filter((s) => s.namespaceURI === FX_NAMESPACE);
  assert.equal(fxSchema.length, 1, 'fx schema declared once in pdfaExtension');
  assert.equal(fxSchema[0].prefix, 'fx');
  assert.deepEqual([...fxSchema[0].properties].sort(), ['ConformanceLevel', 'DocumentFileName', 'DocumentType', 'Version']);

  // Info dictionary and XMP say the same.
  const info = v.get(v.trailer['/Info']);
  assert.equal(qpdfText(info['/Producer']), xmp.props.get(`${PDF_NS}|Producer`));
  if (info['/Title']) assert.equal(qpdfText(info['/Title']), xmp.props.get(`${DC}|title`));
  const pdfDateToMs = (d: string) => Date.parse(d.replace(/^D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d).*$/, '$1-$2-$3T$4:$5:$6Z'));
  assert.equal(pdfDateToMs(qpdfText(info['/ModDate'])!), Date.parse(xmp.props.get(`${XMP_NS}|ModifyDate`)!));
  assert.equal(pdfDateToMs(qpdfText(info['/CreationDate'])!), Date.parse(xmp.props.get(`${XMP_NS}|CreateDate`)!));
  return v;
}

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
    assertContainer(pdf, xml, flavour);

    const js = await pdfjsRead(pdf);
    assert.ok(js.attachments[flavour.fileName], `pdf.js sees ${flavour.fileName}`);
    assert.equal(Buffer.compare(Buffer.from(js.attachments[flavour.fileName]), Buffer.from(xml)), 0);
    assert.deepEqual(js.pageTexts, baseText, 'page text unchanged');
    const id = qpdfView(pdf).trailer['/ID'];
    assert.equal(js.fingerprints[0], id[0].slice(2), 'pdf.js reads the same /ID');

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
  const input = readFileSync(resolve(CORPUS, 'pdfa/3b/6.8/6-8-t02-pass-e.pdf'));
  const before = qpdfView(input);
  const xml = xmlFor('en16931');
  const flavour = hybridFlavour('en16931');
  const { pdf } = await embedInvoiceXml(input, { xml, flavour });
  const v = assertContainer(pdf, xml, flavour);
  assert.equal(v.trailer['/ID'][0], before.trailer['/ID'][0], 'permanent /ID kept');
  assert.notEqual(v.trailer['/ID'][1], before.trailer['/ID'][1], 'changing /ID renewed');
  assert.equal(v.get(v.catalog['/OutputIntents']).length, before.get(before.catalog['/OutputIntents']).length, 'no second OutputIntent');
  // Name-tree keys sort by their bytes: the input's key is UTF-16 (FE FF …), ours PDFDocEncoding, so ours comes first.
  const names = embeddedFileEntries(v).map(([k]) => k);
  assert.deepEqual(names, ['factur-x.xml', 'TextFile.txt']);
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
    ctx.register(ctx.obj({ Type: 'Filespec', F: PDFString.of(name), UF: PDFString.of(name), AFRelationship: 'Supplement', EF: { F: ctx.register(ctx.flateStream(new TextEncoder().encode(name), { Type: 'EmbeddedFile' })) } }));
  const leaf = (a: string, b: string) => ctx.register(ctx.obj({ Names: [PDFString.of(a), fileSpec(a), PDFString.of(b), fileSpec(b)], Limits: [PDFString.of(a), PDFString.of(b)] }));
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

test('unusable input: not a PDF, encrypted', async () => {
  const xml = xmlFor('en16931');
  const flavour = hybridFlavour('en16931');
  await assert.rejects(embedInvoiceXml(new TextEncoder().encode('hello'), { xml, flavour }), (e: unknown) => e instanceof EmbedError && e.code === 'NOT_PDF');
  const encrypted = readFileSync(resolve(CORPUS, 'pdfa/2b/6.1.3/6-1-3-t02-fail-a.pdf'));
  await assert.rejects(embedInvoiceXml(encrypted, { xml, flavour }), (e: unknown) => e instanceof EmbedError && e.code === 'PDF_ENCRYPTED');
});
