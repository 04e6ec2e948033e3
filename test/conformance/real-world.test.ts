/**
 * Conformance on real-world files of the corpus whose licence does not let us commit them (the ZUGFeRD
 * community collection): readers and converters on ZUGFeRD 1.0 and mixed-version PDFs of real producers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ingest } from '../../src/input/ingest.js';
import { embedInvoiceXml, hybridFlavour } from '../../src/pdf/embed.js';
import { readPdf } from '../../src/pdf/extract.js';
import { FX_NAMESPACE } from '../../src/pdf/xmp-write.js';
import { assertContainer, xmlFor } from '../hybrid-fixtures.js';
import { embeddedFileEntries, parseXmpPacket } from '../hybrid-pdf-reader.js';
import { communityApp, multipart } from '../helpers.js';
import { corpusPath } from './corpus.js';

test('ZUGFeRD 1.0: header, parties, totals and lines read through the older element names', async () => {
  const r = await ingest(new Uint8Array(readFileSync(corpusPath('zugferd/ZUGFeRDv1/correct/Intarsys/ZUGFeRD_1p0_COMFORT_Rabatte.pdf'))));
  assert.equal(r.syntax, 'zugferd1');
  assert.equal(r.format, 'zugferd');
  assert.ok(r.problems.some((p) => p.code === 'ZUGFERD_1_LEGACY'));
  const root = r.doc!.root;
  assert.equal(root.local, 'CrossIndustryDocument');
  const inv = r.invoice!;
  // Spot values against the XML text itself.
  const xml = Buffer.from(r.xmlBytes!).toString('utf8');
  assert.ok(xml.includes(`<ram:ID>${inv.number}</ram:ID>`), inv.number);
  assert.match(inv.issueDate!, /^\d{4}-\d{2}-\d{2}$/);
  assert.ok(inv.seller.name && xml.includes(`<ram:Name>${inv.seller.name}</ram:Name>`));
  // ZUGFeRD 1.0 allows note-only "text lines" (no LineID); every real line has quantity and amount.
  const realLines = inv.lines.filter((l) => l.id !== '');
  assert.equal(realLines.length, 4);
  assert.ok(realLines.every((l) => l.netAmount !== undefined && l.quantity !== undefined && l.vatRate !== undefined));
  assert.deepEqual(
    realLines.map((l) => l.netAmount),
    ['10.00', '27.50', '109.80', '55.46'],
  );
  assert.ok(inv.vatBreakdown.length > 0);
  assert.ok(
    xml.includes(`<ram:GrandTotalAmount currencyID="EUR">${inv.totals.taxInclusiveAmount}</ram:GrandTotalAmount>`),
    inv.totals.taxInclusiveAmount,
  );
});

test('converting a ZUGFeRD 1.0 / 2.0 PDF: old invoice XML and its XMP (incl. nested descriptions) are replaced cleanly', async () => {
  for (const file of [
    'zugferd/ZUGFeRDv1/correct/Intarsys/ZUGFeRD_1p0_BASIC_Rechnungskorrektur.pdf',
    'zugferd/ZUGFeRDv2/correct/intarsys/BASIC/zugferd_2p0_BASIC_Rechnungskorrektur.pdf',
    'zugferd/ZUGFeRDv2/correct/Mustangproject/MustangGnuaccountingBeispielRE-20190610_507.pdf',
  ]) {
    const xml = xmlFor('en16931');
    const flavour = hybridFlavour('en16931');
    const input = readFileSync(corpusPath(file));
    const declared = (await readPdf(input)).xmp;
    const { pdf } = await embedInvoiceXml(input, { xml, flavour, replaceInvoiceAttachments: true });
    // A 3U input stays 3U, everything else is declared 3B.
    const v = assertContainer(pdf, xml, flavour, declared?.pdfaPart === '3' && declared.pdfaConformance === 'U' ? 'U' : 'B');
    assert.deepEqual(
      embeddedFileEntries(v).map(([k]) => k),
      ['factur-x.xml'],
      file,
    );
    const xmp = parseXmpPacket(v.data(v.catalog['/Metadata']));
    // No property or schema of the old ZUGFeRD namespaces is left behind.
    const stale = [...xmp.props.keys()].filter((k) => /^urn:(ferd|zugferd):/.test(k));
    assert.deepEqual(stale, [], file);
    assert.deepEqual(
      xmp.schemas.map((s) => s.namespaceURI),
      [FX_NAMESPACE],
      file,
    );
  }
});

/** POST /v1/extract on the real app. */
async function extract(bytes: Buffer, filename: string) {
  const app = await communityApp();
  try {
    const res = await app.inject({ method: 'POST', url: '/v1/extract', ...multipart([{ name: 'file', value: bytes, filename }]) });
    return { status: res.statusCode, body: res.json() };
  } finally {
    await app.close();
  }
}

test('ZUGFeRD 1.0 PDF: read best-effort, flagged ZUGFERD_1_LEGACY and heuristic_mapping', async () => {
  const { status, body } = await extract(
    readFileSync(corpusPath('zugferd/ZUGFeRDv1/correct/Intarsys/ZUGFeRD_1p0_COMFORT_Rabatte.pdf')),
    'zf1.pdf',
  );
  assert.equal(status, 200);
  assert.equal(body.xml_extracted, true);
  assert.equal(body.format_detected, 'zugferd');
  assert.equal(body.profile_detected, null);
  assert.deepEqual(
    body.errors.map((e: { code: string }) => e.code),
    ['ZUGFERD_1_LEGACY'],
  );
  const j = body.invoice_json;
  assert.ok(j.invoice_number && j.seller.name && j.buyer.name && j.totals.gross_amount, JSON.stringify(j));
  assert.ok(j.line_items.length > 0);
  assert.ok(j._meta.limitations.includes('heuristic_mapping'));
});
