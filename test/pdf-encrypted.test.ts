/**
 * PDFs encrypted with an empty user password (permissions only) are read like any other: a Factur-X PDF made
 * by the service, encrypted by qpdf with each method of the standard security handler, gives up the same XML
 * through the library, /v1/extract and /v1/validate, and the answers say that it was encrypted. A PDF that
 * needs a password stays a clear 400 PDF_ENCRYPTED; /v1/convert and /v1/merge write one that opens without a
 * password decrypted (PDF/A forbids encryption) and refuse one that needs a password.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AFRelationship, PDFDocument, PDFHexString, PDFName } from '@cantoo/pdf-lib';
import { rc4 } from '../src/pdf/crypt.js';
import { findInvoiceAttachment, PdfReadError, readPdf } from '../src/pdf/extract.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { communityApp, multipart, proApp, type Part } from './helpers.js';
import { facturxPdf } from './fixtures.js';
import { xmlFor } from './hybrid-fixtures.js';
import { SYNC_CHILD } from './spawned.js';

let app: FastifyInstance;
let dir: string;
before(async () => {
  app = await communityApp();
  dir = mkdtempSync(path.join(tmpdir(), 'pdf-encrypted-'));
});
after(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The PDF encrypted by qpdf (`qpdf --encrypt <user> owner <bits> [options] --`). */
function encrypt(pdf: Uint8Array, user: string, bits: '40' | '128' | '256', ...options: string[]): Uint8Array {
  const input = path.join(dir, 'in.pdf');
  const output = path.join(dir, 'out.pdf');
  writeFileSync(input, pdf);
  const r = spawnSync('qpdf', ['--allow-weak-crypto', '--encrypt', user, 'owner', bits, ...options, '--', input, output], {
    encoding: 'utf8',
    ...SYNC_CHILD,
  });
  assert.ok(r.status === 0 || r.status === 3, `qpdf: ${r.stderr}`); // 3: warnings only
  const out = new Uint8Array(readFileSync(output));
  assert.ok(Buffer.from(out).toString('latin1').includes('/Encrypt'), 'qpdf wrote an /Encrypt dictionary');
  return out;
}

const METHODS: { label: string; bits: '40' | '128' | '256'; options: string[]; algorithm: string; revision: number }[] = [
  { label: 'RC4 40-bit (R2)', bits: '40', options: [], algorithm: 'RC4-40', revision: 2 },
  { label: 'RC4 128-bit (R3)', bits: '128', options: [], algorithm: 'RC4-128', revision: 3 },
  { label: 'AES-128 (V4 R4, AESV2 crypt filter)', bits: '128', options: ['--use-aes=y'], algorithm: 'AES-128', revision: 4 },
  {
    label: 'AES-128 with /EncryptMetadata false',
    bits: '128',
    options: ['--use-aes=y', '--cleartext-metadata'],
    algorithm: 'AES-128',
    revision: 4,
  },
  { label: 'AES-256 (V5 R6)', bits: '256', options: [], algorithm: 'AES-256', revision: 6 },
  { label: 'AES-256 (V5 R5, deprecated)', bits: '256', options: ['--force-R5'], algorithm: 'AES-256', revision: 5 },
];

async function post(url: string, parts: Part[]) {
  const { payload, headers } = multipart(parts);
  return app.inject({ method: 'POST', url, payload, headers });
}
const pdfPart = (name: string, data: Uint8Array): Part => ({
  name,
  filename: 'in.pdf',
  contentType: 'application/pdf',
  value: Buffer.from(data),
});

test('RC4 matches the published test vectors', () => {
  const hex = (key: string, text: string) => Buffer.from(rc4(Buffer.from(key), Buffer.from(text))).toString('hex');
  assert.equal(hex('Key', 'Plaintext'), 'bbf316e8d940af0ad3');
  assert.equal(hex('Wiki', 'pedia'), '1021bf0420');
  assert.equal(hex('Secret', 'Attack at dawn'), '45a01f645fc35b383552544b9bf5');
});

for (const m of METHODS) {
  test(`empty user password, ${m.label}: the library reads the same XML and XMP, and says it was encrypted`, async () => {
    const plain = await facturxPdf();
    const clear = await readPdf(plain);
    const want = Buffer.from(findInvoiceAttachment(clear.attachments)!.content());
    const encrypted = encrypt(plain, '', m.bits, ...m.options);
    const contents = await readPdf(encrypted);
    assert.deepEqual(contents.encryption, { algorithm: m.algorithm, revision: m.revision });
    const a = findInvoiceAttachment(contents.attachments);
    assert.equal(a?.name, 'factur-x.xml');
    assert.equal(a.filename, 'factur-x.xml'); // a decrypted string of the file specification
    assert.equal(a.description, 'Factur-X invoice data');
    assert.ok(Buffer.from(a.content()).equals(want), 'the embedded XML is byte for byte the unencrypted one');
    assert.equal(contents.xmp?.conformanceLevel, 'EN 16931');
    assert.equal(contents.xmp?.documentFileName, 'factur-x.xml');
  });
}

test('/v1/extract and /v1/validate answer an encrypted PDF as the unencrypted one, plus PDF_ENCRYPTED_READ', async () => {
  const plain = await facturxPdf();
  const clearExtract = (await post('/v1/extract', [pdfPart('file', plain)])).json();
  const clearValidate = (await post('/v1/validate', [pdfPart('file', plain)])).json();
  assert.equal(clearValidate.valid, true, JSON.stringify(clearValidate.errors));
  for (const m of METHODS.filter((x) => x.options.length === 0 || x.options[0] === '--use-aes=y')) {
    const encrypted = encrypt(plain, '', m.bits, ...m.options);
    const ex = await post('/v1/extract', [pdfPart('file', encrypted)]);
    assert.equal(ex.statusCode, 200, ex.body.slice(0, 300));
    const body = ex.json();
    assert.equal(body.xml_extracted, true);
    assert.equal(body.format_detected, clearExtract.format_detected);
    assert.equal(body.profile_detected, clearExtract.profile_detected);
    assert.deepEqual(body.invoice_json, clearExtract.invoice_json, m.label);
    assert.equal(body.errors.length, 1, JSON.stringify(body.errors));
    assert.equal(body.errors[0].code, 'PDF_ENCRYPTED_READ');
    assert.match(body.errors[0].message, new RegExp(`${m.algorithm}.*revision ${m.revision}.*empty user password`));

    const va = await post('/v1/validate', [pdfPart('file', encrypted)]);
    assert.equal(va.statusCode, 200, va.body.slice(0, 300));
    const v = va.json();
    assert.equal(v.valid, true, JSON.stringify(v.errors));
    assert.equal(v.format, clearValidate.format);
    assert.equal(v.flavor, clearValidate.flavor);
    const said = v.errors.filter((e: { rule_id: string }) => e.rule_id === 'PDF_ENCRYPTED_READ');
    assert.equal(said.length, 1, JSON.stringify(v.errors));
    assert.equal(said[0].severity, 'warning');
    assert.deepEqual(
      v.errors.filter((e: { rule_id: string }) => e.rule_id !== 'PDF_ENCRYPTED_READ'),
      clearValidate.errors,
    );
  }
});

test('pro /v1/validate: the encrypted PDF is one warning diagnostic with its own title, the rest as for the clear file', async () => {
  const pro = await proApp();
  try {
    const res = await pro.inject({
      method: 'POST',
      url: '/v1/validate',
      ...multipart([pdfPart('file', encrypt(await facturxPdf(), '', '128', '--use-aes=y')), { name: 'validate_pdfa', value: 'false' }]),
    });
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    const body = res.json();
    assert.equal(body.valid, true);
    const d = body.diagnostics.filter((x: { rule_id: string }) => x.rule_id === 'PDF_ENCRYPTED_READ');
    assert.equal(d.length, 1);
    assert.equal(d[0].severity, 'warning');
    assert.equal(d[0].title, 'The PDF is encrypted');
    assert.ok(body.warning_count >= 1);
  } finally {
    await pro.close();
  }
});

test('a PDF that needs a user password stays a clear 400 PDF_ENCRYPTED, on every method', async () => {
  const plain = await facturxPdf();
  for (const m of METHODS) {
    const locked = encrypt(plain, 'secret', m.bits, ...m.options);
    await assert.rejects(
      readPdf(locked),
      (e: unknown) => e instanceof PdfReadError && e.code === 'PDF_ENCRYPTED' && /needs a password/.test(e.message),
    );
    const res = await post('/v1/extract', [pdfPart('file', locked)]);
    assert.equal(res.statusCode, 400, m.label);
    assert.equal(res.json().code, 'PDF_ENCRYPTED');
    assert.match(res.json().detail, /password/);
  }
});

test('pdf-lib-encrypted PDFs: an empty user password is read, a set one refused', async () => {
  const make = async (userPassword: string) => {
    // pdf-lib refuses to encrypt a PDF/A document: a plain one with the XML attached.
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.addPage([200, 200]);
    await doc.attach(xmlFor('en16931'), 'factur-x.xml', { mimeType: 'text/xml', afRelationship: AFRelationship.Alternative });
    doc.encrypt({ userPassword, ownerPassword: 'owner' });
    return doc.save({ useObjectStreams: false });
  };
  const open = await readPdf(await make(''));
  assert.ok(open.encryption, 'encrypted');
  // (pdf-lib garbles the strings it encrypts, the file name included: qpdf reads the same garbage. Streams are fine.)
  assert.equal(open.attachments.length, 1);
  assert.ok(Buffer.from(open.attachments[0].content()).equals(Buffer.from(xmlFor('en16931'))));
  await assert.rejects(readPdf(await make('u')), (e: unknown) => e instanceof PdfReadError && e.code === 'PDF_ENCRYPTED');
});

/**
 * A /V 4 /R 4 file whose crypt filters are Identity (everything stored in clear, as ISO 32000 allows), with /O and /U
 * computed here from the standard's algorithms 2 and 5 for the empty user password; also variants that must be refused.
 */
async function identityEncrypted(plain: Uint8Array, dictExtra: string, breakU = false): Promise<Uint8Array> {
  const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
  const md5 = (...p: Uint8Array[]) => p.reduce((h, x) => h.update(x), createHash('md5')).digest();
  const id0 = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');
  const o = md5(Buffer.from('any owner entry'), Buffer.alloc(16)); // 32 bytes of /O: only hashed for the user key
  const oEntry = Buffer.concat([o, o]).subarray(0, 32);
  const p = -4;
  const pBytes = Buffer.alloc(4);
  pBytes.writeInt32LE(p);
  let key = md5(PAD, oEntry, pBytes, id0);
  for (let i = 0; i < 50; i++) key = md5(key.subarray(0, 16));
  key = key.subarray(0, 16);
  let u = Buffer.from(rc4(key, md5(PAD, id0)));
  for (let i = 1; i <= 19; i++)
    u = Buffer.from(
      rc4(
        key.map((b) => b ^ i),
        u,
      ),
    );
  if (breakU) u[0] ^= 0xff;
  const uEntry = Buffer.concat([u, Buffer.alloc(16)]);
  const doc = await PDFDocument.load(plain, { updateMetadata: false });
  const ctx = doc.context;
  const dict = ctx.obj({ Filter: 'Standard', V: 4, R: 4, Length: 128, P: p });
  dict.set(PDFName.of('O'), PDFHexString.of(oEntry.toString('hex')));
  dict.set(PDFName.of('U'), PDFHexString.of(uEntry.toString('hex')));
  for (const [k, v] of Object.entries(JSON.parse(dictExtra) as Record<string, unknown>)) dict.set(PDFName.of(k), ctx.obj(v as never));
  ctx.trailerInfo.Encrypt = ctx.register(dict);
  ctx.trailerInfo.ID = ctx.obj([PDFHexString.of(id0.toString('hex')), PDFHexString.of(id0.toString('hex'))]);
  return doc.save({ useObjectStreams: false, addDefaultPage: false });
}

test('/V 4 with Identity crypt filters (explicit, and by default) reads the file in clear; a wrong /U or an undefined filter is refused', async () => {
  const plain = await facturxPdf();
  const want = Buffer.from(findInvoiceAttachment((await readPdf(plain)).attachments)!.content());
  for (const extra of ['{"StmF":"Identity","StrF":"Identity"}', '{}', '{"CF":{"StdCF":{"CFM":"None"}},"StmF":"StdCF","StrF":"StdCF"}']) {
    const contents = await readPdf(await identityEncrypted(plain, extra));
    assert.deepEqual(contents.encryption, { algorithm: 'Identity', revision: 4 }, extra);
    assert.ok(Buffer.from(findInvoiceAttachment(contents.attachments)!.content()).equals(want), extra);
    assert.equal(contents.xmp?.documentFileName, 'factur-x.xml');
  }
  await assert.rejects(
    readPdf(await identityEncrypted(plain, '{"StmF":"Identity","StrF":"Identity"}', true)),
    (e: unknown) => e instanceof PdfReadError && e.code === 'PDF_ENCRYPTED' && /needs a password/.test(e.message),
  );
  await assert.rejects(
    readPdf(await identityEncrypted(plain, '{"StmF":"NoSuchFilter"}')),
    (e: unknown) => e instanceof PdfReadError && e.code === 'PDF_ENCRYPTED' && /NoSuchFilter/.test(e.message),
  );
});

test('hostile /Encrypt dictionaries are refused at once (bounded work): R6 with a short /U, a public-key handler, /V 9', async () => {
  const plain = await facturxPdf();
  const cases: [string, RegExp][] = [
    ['{"V":5,"R":6,"CF":{"StdCF":{"CFM":"AESV3"}},"StmF":"StdCF","StrF":"StdCF"}', /valid \/U/],
    ['{"Filter":"Adobe.PubSec"}', /certificates/],
    ['{"V":9}', /version/],
  ];
  for (const [extra, why] of cases) {
    const started = process.cpuUsage();
    await assert.rejects(
      readPdf(await identityEncrypted(plain, extra)),
      (e: unknown) => e instanceof PdfReadError && e.code === 'PDF_ENCRYPTED' && why.test(e.message),
      extra,
    );
    const used = process.cpuUsage(started);
    assert.ok(used.user + used.system < 2_000_000, `${extra}: ${used.user} µs`);
  }
});

test('/v1/convert and /v1/merge write an encrypted PDF that opens without a password decrypted; one that needs a password is 400', async () => {
  for (const m of METHODS) {
    const encrypted = encrypt(await facturxPdf(), '', m.bits, ...m.options);
    const conv = await post('/v1/convert', [pdfPart('pdf', encrypted), { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) }]);
    assert.equal(conv.statusCode, 200, `${m.label}: ${conv.body.slice(0, 300)}`);
    assert.equal(conv.headers['x-pdfa-check'], 'passed', m.label);
    assert.match(String(conv.headers['x-pdfa-repairs']), /^decryption\b/, m.label);
    assert.equal((await readPdf(conv.rawPayload)).encryption, undefined, `${m.label}: written in clear`);
    const locked = await post('/v1/convert', [
      pdfPart('pdf', encrypt(await facturxPdf(), 'secret', m.bits, ...m.options)),
      { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) },
    ]);
    assert.equal(locked.statusCode, 400, m.label);
    assert.equal(locked.json().code, 'PDF_ENCRYPTED');
    assert.match(locked.json().detail, /password/);
  }
  // A PDF/A-3b input without invoice, encrypted (which PDF/A forbids): merged and written in clear.
  const merged = await post('/v1/merge', [
    pdfPart('pdf', encrypt(await plainPdfa(), '', '128', '--use-aes=y')),
    { name: 'xml', filename: 'invoice.xml', contentType: 'application/xml', value: Buffer.from(xmlFor('en16931')) },
  ]);
  assert.equal(merged.statusCode, 200, merged.body.slice(0, 300));
  assert.equal(merged.headers['x-pdfa-check'], 'passed');
  assert.equal((await readPdf(merged.rawPayload)).encryption, undefined);
});

/** A PDF/A-3b PDF without an invoice: a converted PDF with its factur-x.xml taken out again by qpdf. */
async function plainPdfa(): Promise<Uint8Array> {
  const input = path.join(dir, 'fx.pdf');
  const output = path.join(dir, 'plain.pdf');
  writeFileSync(input, await facturxPdf());
  const r = spawnSync('qpdf', ['--remove-attachment=factur-x.xml', '--', input, output], { encoding: 'utf8', ...SYNC_CHILD });
  assert.ok(r.status === 0 || r.status === 3, r.stderr);
  return new Uint8Array(readFileSync(output));
}
