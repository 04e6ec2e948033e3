/**
 * Writes the sample files of the README's tour into examples/, with the project's own code (no third-party files):
 *   invoice.json   invoice metadata (the domestic example the OpenAPI shows)
 *   invoice.xml    the CII the writer makes from it (what POST /v1/xml answers)
 *   plain.pdf      a one-page PDF with no invoice in it (input of POST /v1/convert)
 *   pdfa3.pdf      the same page declared PDF/A-3B, without invoice XML (input of POST /v1/merge)
 *   factur-x.pdf   plain.pdf with invoice.xml embedded (what POST /v1/convert answers)
 * Usage: npm run examples   (deterministic apart from the PDFs' dates and /ID)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { buildInvoiceXml } from '../src/metadata/index.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';

const out = path.resolve(process.argv[2] ?? 'examples');
mkdirSync(out, { recursive: true });

async function plainPdf(pdfa: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  // Shapes, not text: pdf-lib's standard fonts are not embedded, and a PDF/A-3b answer must embed every font it
  // uses (POST /v1/convert refuses to write one that fails PDF/A: PDFA_NONCONFORMANT). A letterhead and a table.
  const page = doc.addPage([595, 842]);
  page.drawRectangle({ x: 50, y: 760, width: 200, height: 40, borderWidth: 1 });
  for (let row = 0; row < 6; row++) page.drawRectangle({ x: 50, y: 600 - row * 24, width: 495, height: 24, borderWidth: 0.5 });
  doc.setTitle(`Invoice ${DOMESTIC_EXAMPLE.invoice_number}`);
  doc.setCreator('einvoice-service examples');
  if (pdfa) doc.convertToPDFA({ conformance: '3B' });
  return doc.save();
}

const meta = structuredClone(DOMESTIC_EXAMPLE);
const { xml, profile } = buildInvoiceXml(meta);
const plain = await plainPdf(false);
const { pdf } = await embedInvoiceXml(plain, {
  xml: new TextEncoder().encode(xml),
  flavour: hybridFlavour(profile),
  title: `Invoice ${meta.invoice_number}`,
});

writeFileSync(path.join(out, 'invoice.json'), `${JSON.stringify(meta, null, 2)}\n`);
writeFileSync(path.join(out, 'invoice.xml'), xml);
writeFileSync(path.join(out, 'plain.pdf'), plain);
writeFileSync(path.join(out, 'pdfa3.pdf'), await plainPdf(true));
writeFileSync(path.join(out, 'factur-x.pdf'), pdf);
console.log(`examples written to ${out}`);
