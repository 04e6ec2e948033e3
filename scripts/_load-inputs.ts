/**
 * Inputs for the soak and the memory measurement, made by the project itself (no ../shared): CII from the
 * writer (test scenarios), UBL from the hand-written BR-FR fixture, a plain PDF built with pdf-lib, and a
 * Factur-X PDF the running server makes from them (/v1/convert). `lines` scales an invoice up for the
 * memory measurement.
 */
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import type { InvoiceMetadata } from '../src/metadata/schema.js';
import { buildInvoiceXml } from '../src/metadata/build.js';
import { SCENARIOS } from '../test/invoice-scenarios.js';
import { UBL_BASE } from '../test/br-fr-fixtures.js';

export interface FormPart {
  name: string;
  value: Uint8Array | string;
  filename?: string;
  contentType?: string;
}

/** multipart/form-data encoded by hand, as a client sends it. */
export function form(parts: FormPart[]): { body: Buffer; contentType: string } {
  const boundary = '----soak-boundary-7f3a';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename) head += `; filename="${p.filename}"\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`), Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Scenario metadata with its first line repeated `lines` times. */
export function metadataWithLines(lines: number, scenario: InvoiceMetadata = SCENARIOS.domestic): InvoiceMetadata {
  const line = scenario.line_items![0];
  return { ...scenario, line_items: Array.from({ length: lines }, (_, i) => ({ ...line, name: `${line.name} ${i + 1}` })) };
}

export function ciiInvoice(lines = 1, scenario: InvoiceMetadata = SCENARIOS.domestic): string {
  return buildInvoiceXml(lines === 1 ? scenario : metadataWithLines(lines, scenario)).xml;
}

/** The UBL fixture with its invoice line repeated `lines` times (totals then disagree: findings, as in real traffic). */
export function ublInvoice(lines = 1): string {
  if (lines === 1) return UBL_BASE;
  const start = UBL_BASE.indexOf('<cac:InvoiceLine>');
  const end = UBL_BASE.lastIndexOf('</cac:InvoiceLine>') + '</cac:InvoiceLine>'.length;
  const line = UBL_BASE.slice(start, end);
  const copies = Array.from({ length: lines }, (_, i) => line.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, `<cbc:ID>${i + 1}</cbc:ID>`));
  return UBL_BASE.slice(0, start) + copies.join('\n') + UBL_BASE.slice(end);
}

/**
 * A plain invoice PDF (no PDF/A declaration) with vector content on each page. No text: pdf-lib cannot embed a
 * font program for its standard fonts, and /v1/convert refuses a PDF whose fonts are not embedded (PDF/A-3b).
 */
export async function basePdf(pages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawRectangle({ x: 50, y: 780, width: 20 * i, height: 14, borderWidth: 1 });
    page.drawRectangle({ x: 50, y: 700, width: 200, height: 40, borderWidth: 1 });
  }
  return doc.save();
}

/** A PDF that declares PDF/A-3b in its XMP and carries no invoice: what /v1/merge takes. */
export async function pdfa3Pdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([595, 842]).drawRectangle({ x: 50, y: 780, width: 200, height: 14, borderWidth: 1 });
  const xmp = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
</rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;
  const stream = doc.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
  return doc.save();
}

/** A Factur-X PDF made by the server under test from the base PDF and metadata. */
export async function facturxPdf(baseUrl: string, pdf: Uint8Array, metadata: InvoiceMetadata = SCENARIOS.domestic): Promise<Buffer> {
  const f = form([
    { name: 'pdf', value: pdf, filename: 'invoice.pdf', contentType: 'application/pdf' },
    { name: 'metadata', value: JSON.stringify(metadata) },
  ]);
  const res = await fetch(`${baseUrl}/v1/convert`, {
    method: 'POST',
    body: new Blob([new Uint8Array(f.body)]),
    headers: { 'content-type': f.contentType },
  });
  if (res.status !== 200) throw new Error(`/v1/convert answered ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

export { SCENARIOS };
