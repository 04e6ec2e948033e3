/**
 * Finding the invoice XML in PDFs built here with @cantoo/pdf-lib (two XML attachments, /AF only,
 * name-tree Kids, encryption, object streams, incremental update, damaged xref, truncation) and in
 * the curated real PDFs of test/fixtures (every corpus PDF: test/conformance/pdf-extract-corpus.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AFRelationship, PDFArray, PDFDict, PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib';
import { findInvoiceAttachment, isPdf, PdfReadError, readPdf, readPdfLazily } from '../src/pdf/extract.js';
import { listAttachments } from '../src/pdf/extract-full.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readXmp } from '../src/pdf/xmp.js';
import { ingest, IngestError } from '../src/input/ingest.js';
import { facturxPdf, FIXTURES, readFixture } from './fixtures.js';

const CII = readFixture('cen/examples/cii/CII_example2.xml');
const UBL = readFixture('cen/examples/ubl/ubl-tc434-example2.xml');
const OTHER_XML = Buffer.from('<?xml version="1.0"?><delivery-note xmlns="urn:example:dn"><id>DN-1</id></delivery-note>');
const text = (b: Uint8Array): string => Buffer.from(b).toString('utf8');

async function pdfWith(
  files: { name: string; data: Uint8Array; rel?: AFRelationship; mime?: string }[],
  save: { useObjectStreams?: boolean } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([200, 200]);
  for (const f of files) {
    await doc.attach(f.data, f.name, { mimeType: f.mime ?? 'text/xml', afRelationship: f.rel ?? AFRelationship.Data });
  }
  return doc.save({ useObjectStreams: save.useObjectStreams ?? false });
}

test('prefers factur-x.xml over another XML attachment listed before it, and reports both', async () => {
  const pdf = await pdfWith([
    { name: 'delivery-note.xml', data: OTHER_XML },
    { name: 'factur-x.xml', data: CII, rel: AFRelationship.Alternative },
  ]);
  const { attachments } = await readPdf(pdf);
  assert.deepEqual(attachments.map((a) => a.name).sort(), ['delivery-note.xml', 'factur-x.xml']);
  const chosen = findInvoiceAttachment(attachments)!;
  assert.equal(chosen.name, 'factur-x.xml');
  assert.equal(chosen.afRelationship, 'Alternative');
  assert.equal(chosen.mimeType, 'text/xml');
  assert.equal(text(chosen.content()), text(CII));

  const r = await ingest(pdf);
  assert.equal(r.attachmentName, 'factur-x.xml');
  assert.equal(r.invoice?.number, 'TOSL108');
  const multi = r.problems.find((p) => p.code === 'MULTIPLE_XML_ATTACHMENTS');
  assert.ok(multi && multi.message.includes('delivery-note.xml'), JSON.stringify(r.problems));
});

test('ZUGFeRD 2 file name wins over the ZUGFeRD 1 one when both are present', async () => {
  const pdf = await pdfWith([
    { name: 'ZUGFeRD-invoice.xml', data: OTHER_XML },
    { name: 'zugferd-invoice.xml', data: CII },
  ]);
  assert.equal(findInvoiceAttachment((await readPdf(pdf)).attachments)?.name, 'zugferd-invoice.xml');
});

test('an invoice under a non-standard name is found by its root element, not the other XML', async () => {
  const pdf = await pdfWith([
    { name: 'notes.xml', data: OTHER_XML },
    { name: 'rechnung.xml', data: UBL },
  ]);
  const r = await ingest(pdf);
  assert.equal(r.attachmentName, 'rechnung.xml');
  assert.equal(r.syntax, 'ubl');
  assert.equal(r.invoice?.number, 'TOSL108');
});

test('a PDF whose only attachment is not an invoice yields NO_XML', async () => {
  const pdf = await pdfWith([{ name: 'notes.xml', data: OTHER_XML }]);
  const r = await ingest(pdf);
  assert.equal(r.xmlBytes, undefined);
  assert.equal(r.format, null);
  assert.deepEqual(
    r.problems.map((p) => p.code),
    ['NO_XML'],
  );
  assert.deepEqual(r.attachmentNames, ['notes.xml']);
});

test('attachments listed only in the catalog /AF array are found', async () => {
  const doc = await PDFDocument.load(await pdfWith([{ name: 'factur-x.xml', data: CII }]), { updateMetadata: false });
  doc.catalog.delete(PDFName.of('Names'));
  const pdf = await doc.save({ useObjectStreams: false });
  const { attachments } = await readPdf(pdf);
  assert.equal(attachments.length, 1);
  assert.equal(attachments[0].inNameTree, false);
  assert.equal(attachments[0].inAssociatedFiles, true);
  assert.equal(findInvoiceAttachment(attachments)?.name, 'factur-x.xml');
});

test('a name tree split into /Kids is walked', async () => {
  const doc = await PDFDocument.load(await pdfWith([{ name: 'factur-x.xml', data: CII }]), { updateMetadata: false });
  const ctx = doc.context;
  const tree = doc.catalog.lookup(PDFName.of('Names'), PDFDict).lookup(PDFName.of('EmbeddedFiles'), PDFDict);
  const flat = tree.lookup(PDFName.of('Names'), PDFArray);
  // Move the flat /Names array into a leaf, and make the root an intermediate node with /Kids.
  const leaf = ctx.obj({ Names: flat, Limits: [PDFString.of('factur-x.xml'), PDFString.of('factur-x.xml')] });
  tree.delete(PDFName.of('Names'));
  tree.set(PDFName.of('Kids'), ctx.obj([ctx.register(leaf)]));
  doc.catalog.delete(PDFName.of('AF')); // so only the tree can find it
  const pdf = await doc.save({ useObjectStreams: false });
  const { attachments } = await readPdf(pdf);
  assert.equal(attachments.length, 1);
  assert.equal(attachments[0].inNameTree, true);
  assert.equal(text(attachments[0].content()), text(CII));
});

test('object streams (compressed object storage) are read', async () => {
  const pdf = await pdfWith([{ name: 'factur-x.xml', data: CII }], { useObjectStreams: true });
  assert.ok(Buffer.from(pdf).toString('latin1').includes('/ObjStm'), 'the test PDF really uses object streams');
  const r = await ingest(pdf);
  assert.equal(r.attachmentName, 'factur-x.xml');
  assert.equal(r.invoice?.seller.name, 'Salescompany ltd.');
});

test('an incremental update that replaces the attachment stream is honoured (newest object wins)', async () => {
  const base = Buffer.from(await pdfWith([{ name: 'factur-x.xml', data: OTHER_XML }]));
  // Find the embedded file stream's object number, then append a new version of that object.
  const m = /(\d+) 0 obj\s*<<[^>]*\/Type \/EmbeddedFile/.exec(base.toString('latin1'));
  assert.ok(m, 'embedded file object found');
  const obj = Buffer.concat([
    Buffer.from(`\n${m[1]} 0 obj\n<< /Type /EmbeddedFile /Subtype /text#2Fxml /Length ${CII.length} >>\nstream\n`, 'latin1'),
    CII,
    Buffer.from('\nendstream\nendobj\n', 'latin1'),
  ]);
  const offset = base.length + 1;
  const prevXref = /startxref\s+(\d+)/.exec(base.toString('latin1').slice(-64))![1];
  const size = /\/Size (\d+)/.exec(base.toString('latin1'))![1];
  const root = /\/Root (\d+ \d+ R)/.exec(base.toString('latin1'))![1];
  const xrefAt = base.length + obj.length;
  const xref = `xref\n${m[1]} 1\n${String(offset).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${size} /Root ${root} /Prev ${prevXref} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  const pdf = new Uint8Array(Buffer.concat([base, obj, Buffer.from(xref, 'latin1')]));
  const r = await ingest(pdf);
  assert.equal(r.syntax, 'cii', JSON.stringify(r.problems));
  assert.equal(r.invoice?.number, 'TOSL108');
});

test('a damaged cross-reference table (wrong startxref, xref removed) does not stop extraction', async () => {
  const good = Buffer.from(await pdfWith([{ name: 'factur-x.xml', data: CII }])).toString('latin1');
  const wrongStart = good.replace(/startxref\s+(\d+)/, (_m, n) => `startxref\n${Number(n) + 37}`);
  const noXref = good.replace(/xref\n[\s\S]*?trailer/, 'trailer');
  for (const variant of [wrongStart, noXref]) {
    assert.notEqual(variant, good);
    const r = await ingest(new Uint8Array(Buffer.from(variant, 'latin1')));
    assert.equal(r.invoice?.number, 'TOSL108');
  }
});

test('a truncated PDF (cut inside the cross-reference table) still gives up its attachment', async () => {
  const full = Buffer.from(await pdfWith([{ name: 'factur-x.xml', data: CII }]));
  const truncated = new Uint8Array(full.subarray(0, full.toString('latin1').lastIndexOf('xref') + 30));
  const r = await ingest(truncated);
  assert.equal(r.attachmentName, 'factur-x.xml');
  assert.equal(r.invoice?.number, 'TOSL108');
});

test('when the catalog no longer reaches the attachment, a raw scan of the objects finds the file stream', async () => {
  const full = Buffer.from(await pdfWith([{ name: 'factur-x.xml', data: CII }])).toString('latin1');
  // Break the catalog's links (same byte length, so offsets stay right): /Names → /Namez, /AF → /AX.
  const broken = full.replace('/Names <<', '/Namez <<').replace('/AF [', '/AX [');
  assert.notEqual(broken, full);
  const contents = await readPdf(new Uint8Array(Buffer.from(broken, 'latin1')));
  assert.equal(contents.recovered, true);
  assert.equal(findInvoiceAttachment(contents.attachments)?.name, 'factur-x.xml');
  assert.equal(text(findInvoiceAttachment(contents.attachments)!.content()), text(CII));
});

test('an encrypted PDF is refused with PDF_ENCRYPTED (a clear 400, never a crash)', async () => {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([200, 200]);
  await doc.attach(CII, 'factur-x.xml', { mimeType: 'text/xml', afRelationship: AFRelationship.Alternative });
  doc.encrypt({ userPassword: 'secret', ownerPassword: 'owner' });
  const pdf = await doc.save();
  assert.ok(Buffer.from(pdf).toString('latin1').includes('/Encrypt'));
  await assert.rejects(readPdf(pdf), (e: unknown) => e instanceof PdfReadError && e.code === 'PDF_ENCRYPTED');
  await assert.rejects(ingest(pdf), (e: unknown) => e instanceof IngestError && e.code === 'PDF_ENCRYPTED');
});

test('bytes that start like a PDF but are not one are PDF_UNREADABLE', async () => {
  const junk = new Uint8Array(Buffer.from('%PDF-1.7\n%garbage that is not a PDF at all\n'));
  assert.equal(isPdf(junk), true);
  await assert.rejects(ingest(junk), (e: unknown) => e instanceof IngestError && e.code === 'PDF_UNREADABLE');
});

test('a real Factur-X PDF (FNFE-MPE MINIMUM example): XMP names PDF/A-3B and the conformance level', async () => {
  const r = await ingest(
    new Uint8Array(readFixture('lunatech/specs/examples/facturx-1.08/MINIMUM/Facture_F20260023-LE_FOURNISSEUR-POUR-LE_CLIENT_MINIMUM.pdf')),
  );
  assert.equal(r.xmp?.pdfaPart, '3');
  assert.equal(r.xmp?.pdfaConformance, 'B');
  assert.equal(r.xmp?.documentFileName, 'factur-x.xml');
  assert.equal(r.xmp?.conformanceLevel, 'MINIMUM');
  assert.equal(r.format, 'factur-x');
  assert.equal(r.profile, 'minimum');
});

test('XMP read with properties as attributes and as elements', () => {
  const xmp = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="3" pdfaid:conformance="B"/>
<rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
<fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>
<fx:Version>1.0</fx:Version><fx:ConformanceLevel>BASIC WL</fx:ConformanceLevel></rdf:Description>
</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  assert.deepEqual(readXmp(Buffer.from(xmp)), {
    pdfaPart: '3',
    pdfaConformance: 'B',
    invoiceNamespace: 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#',
    documentType: 'INVOICE',
    documentFileName: 'factur-x.xml',
    version: '1.0',
    conformanceLevel: 'BASIC WL',
  });
  assert.equal(readXmp(Buffer.from('<x:xmpmeta')), undefined);
});

test('the lazy reader (fast path) agrees with the full parser on the fixture PDFs and a Factur-X PDF built here', async () => {
  const pdfs: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      // The fuzz fixtures (fuzz/, fuzz-open/) are hostile on purpose: test/fuzz-regressions.test.ts replays fuzz/.
      // The real-world corpus (real-world-pdf/) holds damaged files the lazy reader steps aside for by design:
      // test/real-world-pdf.test.ts covers it.
      if (e.isDirectory()) {
        if (!e.name.startsWith('fuzz') && e.name !== 'real-world-pdf') walk(join(dir, e.name));
      } else if (e.name.endsWith('.pdf')) pdfs.push(join(dir, e.name));
    }
  };
  walk(FIXTURES);
  const inputs: [string, Uint8Array][] = pdfs.map((file) => [file, new Uint8Array(readFileSync(file))]);
  inputs.push(['built factur-x', new Uint8Array(await facturxPdf())]);
  let compared = 0;
  for (const [file, bytes] of inputs) {
    if (/-fail-/.test(file)) continue; // veraPDF negative files (one is encrypted: refused outright): not Factur-X containers
    const fast = readPdfLazily(bytes);
    assert.ok(fast, `lazy reader gave up on ${file}`);
    const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
    const full = listAttachments(doc);
    const meta = (list: typeof full) =>
      list.map((a) => [a.name, a.filename, a.mimeType, a.afRelationship, a.inNameTree, a.inAssociatedFiles]);
    assert.deepEqual(meta(fast.attachments), meta(full), file);
    // XML content byte for byte. (Other attachments are not compared: pdf-lib's Flate decoder dropped the
    // last byte of the 843,023-byte PDF inside zugferd_2p1_EN16931_Elektron.pdf, where zlib and pdfjs-dist
    // agree with the lazy reader; corpus-read.test.ts checks every invoice XML against pdfjs-dist.)
    fast.attachments.forEach((a, i) => {
      if (/\.xml$/i.test(a.name))
        assert.equal(Buffer.compare(Buffer.from(a.content()), Buffer.from(full[i].content())), 0, `${file}: ${a.name}`);
    });
    compared++;
  }
  assert.ok(compared >= 5, String(compared));
});

test('the lazy reader follows incremental updates and object streams, and steps aside for damaged files', async () => {
  const withObjStm = await pdfWith([{ name: 'factur-x.xml', data: CII }], { useObjectStreams: true });
  assert.equal(text(findInvoiceAttachment(readPdfLazily(withObjStm)!.attachments)!.content()), text(CII));
  const good = Buffer.from(await pdfWith([{ name: 'factur-x.xml', data: CII }])).toString('latin1');
  const wrongStart = good.replace(/startxref\s+(\d+)/, (_m, n) => `startxref\n${Number(n) + 37}`);
  assert.equal(readPdfLazily(new Uint8Array(Buffer.from(wrongStart, 'latin1'))), undefined);
});

test('a decompression bomb posing as the invoice is refused, not inflated without bound', async () => {
  const bomb = new Uint8Array(65 * 1024 * 1024); // zeros: compresses to ~64 KB, inflates past the 64 MiB cap
  const pdf = await pdfWith([{ name: 'factur-x.xml', data: bomb }]);
  assert.ok(pdf.length < 2 * 1024 * 1024, `test PDF is ${pdf.length} bytes`);
  const r = await ingest(pdf);
  assert.equal(r.attachmentName, 'factur-x.xml');
  assert.equal(r.invoice, undefined);
  assert.deepEqual(
    r.problems.map((p) => p.code),
    ['PDF_ATTACHMENT_UNREADABLE'],
  );
});
