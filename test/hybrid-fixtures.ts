/**
 * Fixtures for the hybrid-invoice tests: a plain input PDF, the XML per profile, and the full container
 * check (qpdf JSON view + XMP parsed as XML), shared by embed, convert and merge tests.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { buildInvoiceXml } from '../src/metadata/index.js';
import { DOMESTIC_EXAMPLE, XRECHNUNG_EXAMPLE } from '../src/metadata/examples.js';
import type { ProfileId } from '../src/model/profiles.js';
import type { HybridFlavour } from '../src/pdf/embed.js';
import { FX_NAMESPACE } from '../src/pdf/xmp-write.js';
import { embeddedFileEntries, parseXmpPacket, qpdfCheck, qpdfStringHex, qpdfText, qpdfView, type QpdfView } from './hybrid-pdf-reader.js';

const PDFAID = 'http://www.aiim.org/pdfa/ns/id/';
const PDF_NS = 'http://ns.adobe.com/pdf/1.3/';
const DC = 'http://purl.org/dc/elements/1.1/';
const XMP_NS = 'http://ns.adobe.com/xap/1.0/';

/**
 * A plain (non-PDF/A) invoice PDF with vector content on each page, an Info dictionary and no /ID.
 * No text: pdf-lib's standard fonts are not embedded, and /v1/convert and /v1/merge refuse to answer a
 * PDF that claims PDF/A-3b with unembedded fonts (see makeUnembeddedFontPdf for that case).
 */
export async function makeBasePdf(pages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawRectangle({ x: 50, y: 780, width: 20 * i, height: 14, borderWidth: 1 });
    page.drawRectangle({ x: 50, y: 700, width: 200, height: 40, borderWidth: 1 });
  }
  doc.setCreator('Test word processor');
  return doc.save();
}

/** Like makeBasePdf, with text in Helvetica, which pdf-lib does not embed: it can never be PDF/A. */
export async function makeUnembeddedFontPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Invoice', { x: 50, y: 780, size: 14, font });
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

/**
 * The trailer /ID as qpdf prints it: two 16-byte strings. Their bytes are digests (of the input, the XML and the
 * time), so qpdf prints `b:<hex>` mostly, but `u:<text>` when the 16 bytes happen to read as text: both are read.
 */
export function assertFileId(id: unknown): void {
  assert.ok(Array.isArray(id) && id.length === 2, `two /ID strings: ${JSON.stringify(id)}`);
  for (const part of id) assert.match(qpdfStringHex(part), /^[0-9a-f]{32}$/, `a 16-byte /ID string: ${JSON.stringify(part)}`);
}

/** Everything a Factur-X / XRechnung container must hold, read with qpdf and parsed XMP. */
export function assertContainer(pdf: Uint8Array, xml: Uint8Array, f: HybridFlavour, expectedConformance = 'B'): QpdfView {
  assert.equal(qpdfCheck(pdf).status, 0, qpdfCheck(pdf).output);
  // Header: %PDF-1.7 and a binary comment line (four bytes ≥ 0x80).
  assert.match(Buffer.from(pdf.subarray(0, 9)).toString('latin1'), /^%PDF-1\.7\s/);
  const second = Buffer.from(pdf.subarray(9, 16));
  assert.equal(second[0], 0x25);
  assert.ok(
    [1, 2, 3, 4].every((i) => second[i] >= 0x80),
    'binary comment after the header',
  );

  const v = qpdfView(pdf);
  assertFileId(v.trailer['/ID']);

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
  // PDF dates: D:YYYYMMDDHHmmSS followed by Z, or by +HH'mm' / -HH'mm' (the offset matters).
  const pdfDateToMs = (d: string) => {
    const m = /^D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(?:(Z)|([+-])(\d\d)'?(\d\d)?'?)?/.exec(d);
    assert.ok(m, `PDF date ${d}`);
    const zone = m[8] ? `${m[8]}${m[9]}:${m[10] ?? '00'}` : 'Z';
    return Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${zone}`);
  };
  assert.equal(pdfDateToMs(qpdfText(info['/ModDate'])!), Date.parse(xmp.props.get(`${XMP_NS}|ModifyDate`)!));
  assert.equal(pdfDateToMs(qpdfText(info['/CreationDate'])!), Date.parse(xmp.props.get(`${XMP_NS}|CreateDate`)!));
  return v;
}
