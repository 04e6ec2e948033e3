/**
 * /v1/convert and /v1/merge rewrite the PDF, which breaks any digital signature in it: a signed PDF is refused
 * with 422 PDF_SIGNED unless the caller opts in (allow_signature_invalidation=true), and an answer made from a
 * signed PDF says so (X-Signature-Invalidated: true). The signed-looking PDFs are built here with pdf-lib:
 * a signature field with a value, a /Perms /DocMDP entry, and a raw signature dictionary behind a broken
 * cross-reference table. An empty signature field (to be signed later) is not a signature, /SigFlags or not (issue 30:
 * such a form was refused PDF_SIGNED).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PDFDocument, PDFHexString, PDFName, PDFString } from '@cantoo/pdf-lib';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { convert, merge } from '../src/lib/index.js';
import { EInvoiceError } from '../src/lib/errors.js';
import { gateForEmbed } from '../src/pdf/full-read.js';
import { communityApp, multipart, type Part } from './helpers.js';
import { runCli } from './cli-fixtures.js';
import { readFixture } from './fixtures.js';
import { makeBasePdf, xmlFor } from './hybrid-fixtures.js';

const PDFA3B = () => readFixture('verapdf/3b/6.8/6-8-t02-pass-e.pdf'); // PDF/A-3b, no invoice

let app: FastifyInstance;
before(async () => {
  app = await communityApp();
});
after(() => app.close());

type How = 'field' | 'nested-field' | 'docmdp' | 'sigflags' | 'unsigned-field';

/** `base` with a signature added the way `how` says (no widget on a page: the PDF/A check of outputs stays clean). */
async function signedLike(base: Uint8Array, how: How): Promise<Uint8Array> {
  const doc = await PDFDocument.load(base, { updateMetadata: false });
  const ctx = doc.context;
  const sig = ctx.register(
    ctx.obj({
      Type: 'Sig',
      Filter: 'Adobe.PPKLite',
      SubFilter: 'adbe.pkcs7.detached',
      ByteRange: [0, 1000, 9000, 1000],
      Contents: PDFHexString.of('00'.repeat(64)),
      M: PDFString.of('D:20260101120000Z'),
    }),
  );
  const field = ctx.obj({ FT: 'Sig', T: PDFString.of('Signature1') });
  if (how !== 'unsigned-field') field.set(PDFName.of('V'), sig);
  const fieldRef = ctx.register(field);
  let fields = [fieldRef];
  if (how === 'nested-field') {
    const parent = ctx.register(ctx.obj({ T: PDFString.of('Approvals'), Kids: [fieldRef] }));
    field.set(PDFName.of('Parent'), parent);
    fields = [parent];
  }
  if (how === 'docmdp') {
    doc.catalog.set(PDFName.of('Perms'), ctx.obj({ DocMDP: sig }));
  } else if (how === 'sigflags') {
    doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [], SigFlags: 3 }));
  } else {
    // SignaturesExist | AppendOnly, as signing tools and forms with an empty signature field both set it.
    doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: fields, SigFlags: 3 }));
  }
  return doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
}

async function post(url: string, parts: Part[]) {
  const { payload, headers } = multipart(parts);
  return app.inject({ method: 'POST', url, payload, headers });
}
const pdfPart = (data: Uint8Array): Part => ({ name: 'pdf', filename: 'in.pdf', contentType: 'application/pdf', value: Buffer.from(data) });
const metadataPart: Part = { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) };
const xmlPart = (): Part => ({
  name: 'xml',
  filename: 'invoice.xml',
  contentType: 'application/xml',
  value: Buffer.from(xmlFor('en16931')),
});
const allow = (v: string): Part => ({ name: 'allow_signature_invalidation', value: v });

test('the gate sees every kind of signature, and not an empty signature field', async () => {
  const base = await makeBasePdf();
  assert.equal(gateForEmbed(base).signature, undefined);
  assert.equal(gateForEmbed(await signedLike(base, 'unsigned-field')).signature, undefined);
  assert.match(gateForEmbed(await signedLike(base, 'field')).signature ?? '', /signature field "Signature1" is signed/);
  assert.match(gateForEmbed(await signedLike(base, 'nested-field')).signature ?? '', /"Approvals\.Signature1" is signed/);
  assert.match(gateForEmbed(await signedLike(base, 'docmdp')).signature ?? '', /DocMDP/);
  assert.equal(gateForEmbed(await signedLike(base, 'sigflags')).signature, undefined);
  // The cross-reference broken (the structure cannot be followed): the signature dictionary in the bytes decides.
  const broken = Buffer.from(await signedLike(base, 'field'));
  const at = broken.lastIndexOf('startxref');
  broken.write('startxref\n9999999\n%%EOF\n', at, 'latin1');
  assert.match(gateForEmbed(broken.subarray(0, at + 24)).signature ?? '', /signature dictionary/);
});

test('/v1/convert: a signed PDF is 422 PDF_SIGNED; allow_signature_invalidation=true embeds and says so', async () => {
  const signed = await signedLike(await makeBasePdf(), 'field');
  const refused = await post('/v1/convert', [pdfPart(signed), metadataPart]);
  assert.equal(refused.statusCode, 422, refused.body.slice(0, 300));
  assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
  const p = refused.json();
  assert.equal(p.code, 'PDF_SIGNED');
  assert.match(p.detail, /digitally signed.*Signature1.*allow_signature_invalidation=true/s);
  assert.equal(p.opt_in, 'allow_signature_invalidation');

  const explicitNo = await post('/v1/convert', [pdfPart(signed), metadataPart, allow('false')]);
  assert.equal(explicitNo.statusCode, 422);

  const ok = await post('/v1/convert', [pdfPart(signed), metadataPart, allow('true')]);
  assert.equal(ok.statusCode, 200, ok.body.slice(0, 300));
  assert.equal(ok.headers['content-type'], 'application/pdf');
  assert.equal(ok.headers['x-signature-invalidated'], 'true');
  assert.equal(ok.headers['x-pdfa-check'], 'passed');

  // An unsigned PDF: no header, opt-in or not.
  const plain = await post('/v1/convert', [pdfPart(await makeBasePdf()), metadataPart, allow('true')]);
  assert.equal(plain.statusCode, 200);
  assert.equal(plain.headers['x-signature-invalidated'], undefined);

  const bad = await post('/v1/convert', [pdfPart(signed), metadataPart, allow('banana')]);
  assert.equal(bad.statusCode, 422);
  assert.deepEqual(bad.json().detail[0].loc, ['body', 'allow_signature_invalidation']);
});

test('/v1/convert: an empty signature field (SigFlags set, no /V) is not a signature: 200 without X-Signature-Invalidated', async () => {
  for (const how of ['unsigned-field', 'sigflags'] as const) {
    const res = await post('/v1/convert', [pdfPart(await signedLike(await makeBasePdf(), how)), metadataPart]);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(res.headers['x-signature-invalidated'], undefined);
  }
});

test('/v1/merge: a signed PDF/A-3b is 422 PDF_SIGNED; with the opt-in 200 and X-Signature-Invalidated', async () => {
  for (const how of ['field', 'docmdp'] as const) {
    const signed = await signedLike(PDFA3B(), how);
    const refused = await post('/v1/merge', [pdfPart(signed), xmlPart()]);
    assert.equal(refused.statusCode, 422, refused.body.slice(0, 300));
    assert.equal(refused.json().code, 'PDF_SIGNED');
    const ok = await post('/v1/merge', [pdfPart(signed), xmlPart(), allow('true')]);
    assert.equal(ok.statusCode, 200, ok.body.slice(0, 300));
    assert.equal(ok.headers['x-signature-invalidated'], 'true');
  }
  const plain = await post('/v1/merge', [pdfPart(PDFA3B()), xmlPart()]);
  assert.equal(plain.statusCode, 200);
  assert.equal(plain.headers['x-signature-invalidated'], undefined);
});

test('the library: convert and merge reject PDF_SIGNED (status 422) and report signatureInvalidated when allowed', async () => {
  const signed = await signedLike(await makeBasePdf(), 'docmdp');
  await assert.rejects(
    convert(signed, DOMESTIC_EXAMPLE),
    (e: unknown) => e instanceof EInvoiceError && e.code === 'PDF_SIGNED' && e.status === 422,
  );
  const r = await convert(signed, DOMESTIC_EXAMPLE, { allowSignatureInvalidation: true });
  assert.equal(r.signatureInvalidated, true);
  assert.equal((await convert(await makeBasePdf(), DOMESTIC_EXAMPLE)).signatureInvalidated, false);
  const signedA = await signedLike(PDFA3B(), 'field');
  await assert.rejects(merge(signedA, xmlFor('en16931')), (e: unknown) => e instanceof EInvoiceError && e.code === 'PDF_SIGNED');
  assert.equal((await merge(signedA, xmlFor('en16931'), { allowSignatureInvalidation: true })).signatureInvalidated, true);
});

test('the CLI: convert refuses a signed PDF (exit 1, PDF_SIGNED); --allow-signature-invalidation writes it and says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-signed-'));
  try {
    const pdf = join(dir, 'signed.pdf');
    const meta = join(dir, 'meta.json');
    const out = join(dir, 'out.pdf');
    writeFileSync(pdf, await signedLike(await makeBasePdf(), 'field'));
    writeFileSync(meta, JSON.stringify(DOMESTIC_EXAMPLE));
    const refused = await runCli(['convert', pdf, meta, '-o', out]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /PDF_SIGNED/);
    assert.equal(existsSync(out), false);
    const ok = await runCli(['convert', pdf, meta, '-o', out, '--allow-signature-invalidation']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, /digitally signed: its signatures no longer verify/);
    assert.ok(readFileSync(out).subarray(0, 5).equals(Buffer.from('%PDF-')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
