/**
 * POST /v1/convert over real HTTP (app.inject): PDF + metadata → hybrid PDF, for every profile; the result
 * read back through /v1/extract and /v1/validate and checked with qpdf / pdf.js; errors as documented.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildInvoiceXml } from '../src/metadata/index.js';
import { DOMESTIC_EXAMPLE, XRECHNUNG_EXAMPLE } from '../src/metadata/examples.js';
import type { ProfileId } from '../src/model/profiles.js';
import { hybridFlavour } from '../src/pdf/embed.js';
import { validateBytes } from '../src/validation/validate.js';
import { communityApp, multipart } from './helpers.js';
import { assertContainer, makeBasePdf } from './hybrid-fixtures.js';
import { fixturePath } from './fixtures.js';
import { pdfjsRead } from './hybrid-pdf-reader.js';

let app: FastifyInstance;
let basePdf: Uint8Array;

before(async () => {
  app = await communityApp();
  basePdf = await makeBasePdf(1);
});
after(() => app.close());

function metadataFor(profile: ProfileId) {
  return profile === 'xrechnung' ? XRECHNUNG_EXAMPLE : { ...DOMESTIC_EXAMPLE, profile };
}

async function convert(pdf: Uint8Array | Buffer, metadata: unknown) {
  const { payload, headers } = multipart([
    { name: 'pdf', filename: 'invoice.pdf', contentType: 'application/pdf', value: Buffer.from(pdf) },
    { name: 'metadata', value: typeof metadata === 'string' ? metadata : JSON.stringify(metadata) },
  ]);
  return app.inject({ method: 'POST', url: '/v1/convert', payload, headers });
}

async function postFile(url: string, file: Buffer, filename: string) {
  const { payload, headers } = multipart([{ name: 'file', filename, contentType: 'application/pdf', value: file }]);
  return app.inject({ method: 'POST', url, payload, headers });
}

const PROFILES: ProfileId[] = ['minimum', 'basic_wl', 'basic', 'en16931', 'extended', 'xrechnung'];

test('every profile: convert → extract gives the same invoice, validate says valid, the container is complete', async () => {
  for (const profile of PROFILES) {
    const meta = metadataFor(profile);
    const expectedXml = buildInvoiceXml(meta).xml;
    const res = await convert(basePdf, meta);
    assert.equal(res.statusCode, 200, `${profile}: ${res.body.slice(0, 300)}`);
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(res.headers['content-disposition'], `attachment; filename="${meta.invoice_number}.pdf"`);
    const pdf = res.rawPayload;

    // Independent readers: qpdf for the structure, pdf.js for the attachment.
    const flavour = hybridFlavour(profile);
    assertContainer(pdf, new TextEncoder().encode(expectedXml), flavour);
    const js = await pdfjsRead(pdf);
    assert.equal(Buffer.from(js.attachments[flavour.fileName]).toString('utf8'), expectedXml, `${profile}: pdf.js reads the generated XML`);

    // Round trip through the service's own readers.
    const extracted = await postFile('/v1/extract', pdf, 'out.pdf');
    assert.equal(extracted.statusCode, 200);
    const ex = extracted.json();
    assert.equal(ex.xml_extracted, true);
    assert.equal(ex.profile_detected, profile);
    assert.equal(ex.invoice_json.invoice_number, meta.invoice_number);
    assert.equal(ex.invoice_json.invoice_date, meta.invoice_date);
    assert.equal(ex.invoice_json.currency, meta.currency);
    assert.equal(ex.invoice_json.seller.name, meta.seller.name);
    assert.equal(ex.invoice_json.buyer.name, meta.buyer.name);
    // The same invoice as the XML /v1/xml produces from the same metadata.
    const fromXmlRes = await postFile('/v1/extract', Buffer.from(expectedXml), 'invoice.xml');
    const { _meta: _a, ...fromPdf } = ex.invoice_json;
    const { _meta: _b, ...fromXml } = fromXmlRes.json().invoice_json;
    assert.deepEqual(fromPdf, fromXml, `${profile}: same invoice from the PDF as from the XML`);

    // EN 16931 validation of what the PDF carries (the engine directly, and the HTTP route where it is registered).
    const direct = await validateBytes(new Uint8Array(pdf));
    assert.equal(direct.valid, true, `${profile}: ${JSON.stringify(direct.errors.filter((e) => e.severity === 'error'))}`);
    const validated = await postFile('/v1/validate', pdf, 'out.pdf');
    if (validated.statusCode !== 404) {
      assert.equal(validated.statusCode, 200, validated.body.slice(0, 300));
      const v = validated.json();
      assert.equal(v.valid, true, `${profile}: ${JSON.stringify(v.errors?.filter((e: { severity: string }) => e.severity === 'error'))}`);
    }
  }
});

test('X-Dropped-Fields is passed on as /v1/xml does', async () => {
  const res = await convert(basePdf, { ...DOMESTIC_EXAMPLE, profile: 'minimum' });
  assert.equal(res.statusCode, 200);
  const dropped = String(res.headers['x-dropped-fields'] ?? '');
  assert.ok(dropped.split(', ').includes('seller.contact'), dropped);
});

test('the download name comes from the invoice number, sanitized', async () => {
  const res = await convert(basePdf, { ...DOMESTIC_EXAMPLE, invoice_number: 'RE 2026/ü"42' });
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  assert.equal(res.headers['content-disposition'], 'attachment; filename="RE_2026_u_42.pdf"');
});

test('a real Factur-X PDF (FNFE-MPE MINIMUM example): its invoice XML is replaced by the new one', async () => {
  const input = readFileSync(
    fixturePath('lunatech/specs/examples/facturx-1.08/MINIMUM/Facture_F20260023-LE_FOURNISSEUR-POUR-LE_CLIENT_MINIMUM.pdf'),
  );
  const res = await convert(input, DOMESTIC_EXAMPLE);
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  const js = await pdfjsRead(res.rawPayload);
  // The old factur-x.xml is replaced; the example's other attachment (a delivery note) stays.
  assert.deepEqual(Object.keys(js.attachments).sort(), ['Bon_de_livraison.pdf', 'factur-x.xml']);
  assert.equal(Buffer.from(js.attachments['factur-x.xml']).toString('utf8'), buildInvoiceXml(DOMESTIC_EXAMPLE).xml);
});

test('errors: not a PDF, encrypted PDF, bad metadata, missing parts', async () => {
  const notPdf = await convert(Buffer.from('just text'), DOMESTIC_EXAMPLE);
  assert.equal(notPdf.statusCode, 400);
  assert.match(String(notPdf.headers['content-type']), /^application\/problem\+json/);
  assert.equal(notPdf.json().code, 'NOT_PDF');

  // Encrypted, opening with the empty user password: written decrypted (PDF/A forbids encryption), not refused.
  const encrypted = await convert(readFileSync(fixturePath('verapdf/2b/6.1.3/6-1-3-t02-fail-a.pdf')), DOMESTIC_EXAMPLE);
  assert.equal(encrypted.statusCode, 200, encrypted.body.slice(0, 300));
  assert.match(String(encrypted.headers['x-pdfa-repairs']), /^decryption/);
  assert.doesNotMatch(encrypted.rawPayload.toString('latin1'), /\/Encrypt\b/);

  const notJson = await convert(basePdf, '{not json');
  assert.equal(notJson.statusCode, 400);
  assert.equal(notJson.json().code, 'METADATA_NOT_JSON');

  const { seller: _s, ...noSeller } = DOMESTIC_EXAMPLE;
  const shape = await convert(basePdf, noSeller);
  assert.equal(shape.statusCode, 422);
  assert.ok(
    shape.json().detail.some((d: { loc: string[] }) => d.loc.join('.') === 'body.metadata.seller'),
    shape.body,
  );

  const inconsistent = await convert(basePdf, { ...DOMESTIC_EXAMPLE, amount_due: '1.00' });
  assert.equal(inconsistent.statusCode, 400, inconsistent.body);
  assert.equal(inconsistent.json().code, 'METADATA_INCONSISTENT');

  // Without a pdf part the invoice is drawn (test/convert-drawn.test.ts); without metadata there is nothing to convert.
  const { payload, headers } = multipart([{ name: 'pdf', value: Buffer.from(basePdf), filename: 'a.pdf' }]);
  const missing = await app.inject({ method: 'POST', url: '/v1/convert', payload, headers });
  assert.equal(missing.statusCode, 422);
  assert.deepEqual(missing.json().detail[0].loc, ['body', 'metadata']);
});

test('bad metadata is answered exactly as POST /v1/xml answers it', async () => {
  const { seller: _s, ...noSeller } = DOMESTIC_EXAMPLE;
  for (const metadata of ['{not json', JSON.stringify(noSeller), JSON.stringify({ ...DOMESTIC_EXAMPLE, amount_due: '1.00' })]) {
    const viaConvert = await convert(basePdf, metadata);
    const { payload, headers } = multipart([{ name: 'metadata', value: metadata }]);
    const viaXml = await app.inject({ method: 'POST', url: '/v1/xml', payload, headers });
    assert.equal(viaConvert.statusCode, viaXml.statusCode, metadata);
    assert.ok([400, 422].includes(viaConvert.statusCode));
    const strip = (body: Record<string, unknown>) => ({ ...body, instance: undefined });
    assert.deepEqual(strip(viaConvert.json()), strip(viaXml.json()), metadata);
  }
});
