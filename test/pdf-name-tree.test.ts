/**
 * The EmbeddedFiles name tree of /v1/merge and /v1/convert outputs is searchable by every reader: one key
 * encoding per tree, keys sorted by their decoded text, /Limits on intermediate nodes. Inputs that already
 * carry attachments (one with UTF-16 keys, one with a tree large enough to need intermediate nodes) are built
 * here; the outputs are looked up with qpdf (`--show-attachment`, a binary search by key, as pikepdf does),
 * pdf.js getAttachments, @cantoo/pdf-lib and our own reader.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString, type PDFRef } from '@cantoo/pdf-lib';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { compareCodePoints } from '../src/pdf/embed.js';
import { readPdf, walkNameTree } from '../src/pdf/extract.js';
import { isDict, LazyPdf } from '../src/pdf/lazy.js';
import { listAttachments } from '../src/pdf/extract-full.js';
import { communityApp, multipart, type Part } from './helpers.js';
import { readFixture } from './fixtures.js';
import { makeBasePdf, xmlFor } from './hybrid-fixtures.js';
import { embeddedFileEntries, pdfjsRead, qpdfAttachments, qpdfCheck, qpdfView } from './hybrid-pdf-reader.js';

const PDFA3B = () => readFixture('verapdf/3b/6.8/6-8-t02-pass-e.pdf'); // PDF/A-3b with TextFile.txt attached

let app: FastifyInstance;
before(async () => {
  app = await communityApp();
});
after(() => app.close());

/** `base` with attachments added under these keys (UTF-16BE with BOM when `utf16`), in the order given, in one leaf or in leaves of `perLeaf`. */
async function withAttachments(base: Uint8Array, keys: { key: string; utf16: boolean }[], perLeaf?: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(base, { updateMetadata: false });
  const ctx = doc.context;
  const pairs: [PDFString | PDFHexString, PDFRef][] = keys.map(({ key, utf16 }) => [
    utf16 ? PDFHexString.fromText(key) : PDFString.of(key),
    ctx.register(
      ctx.obj({
        Type: 'Filespec',
        F: PDFString.of('file.txt'),
        UF: PDFHexString.fromText(key),
        AFRelationship: 'Supplement',
        EF: {
          F: ctx.register(ctx.flateStream(new TextEncoder().encode(`content of ${key}`), { Type: 'EmbeddedFile', Subtype: 'text/plain' })),
        },
      }),
    ),
  ]);
  // Keep what the input had (the PDF/A-3b fixture's TextFile.txt) ahead, as a naive writer would append.
  const existing = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const tree = existing?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const flat = tree?.lookupMaybe(PDFName.of('Names'), PDFArray);
  const before: [PDFString | PDFHexString, PDFRef][] = [];
  if (flat) for (let i = 0; i + 1 < flat.size(); i += 2) before.push([flat.get(i) as PDFString, flat.get(i + 1) as PDFRef]);
  const all = [...before, ...pairs];
  let embedded;
  if (perLeaf) {
    const kids = [];
    for (let i = 0; i < all.length; i += perLeaf) {
      const chunk = all.slice(i, i + perLeaf);
      kids.push(ctx.register(ctx.obj({ Names: chunk.flat(), Limits: [chunk[0][0], chunk[chunk.length - 1][0]] })));
    }
    embedded = ctx.obj({ Kids: kids });
  } else {
    embedded = ctx.obj({ Names: all.flat() });
  }
  doc.catalog.set(PDFName.of('Names'), ctx.obj({ EmbeddedFiles: embedded }));
  return doc.save({ useObjectStreams: false, addDefaultPage: false });
}

/** The name tree's keys as stored (bytes), in tree order, read with our lazy reader. */
function rawKeys(pdf: Uint8Array): Uint8Array[] {
  const lazy = new LazyPdf(pdf);
  const catalog = lazy.resolve(lazy.trailer.map.get('Root'));
  const names = isDict(catalog) ? lazy.resolve(catalog.map.get('Names')) : null;
  const out: Uint8Array[] = [];
  if (isDict(names))
    walkNameTree(
      names.map.get('EmbeddedFiles') ?? null,
      (x) => lazy.resolve(x),
      (_v, key) => {
        const k = lazy.resolve(key);
        if (k && typeof k === 'object' && !Array.isArray(k) && k.kind === 'string') out.push(k.bytes);
      },
    );
  return out;
}

async function post(url: string, parts: Part[]) {
  const { payload, headers } = multipart(parts);
  return app.inject({ method: 'POST', url, payload, headers });
}

/** Every reader finds every key, qpdf's search finds factur-x.xml with the XML's bytes, and the tree is sorted in one encoding. */
async function assertSearchable(pdf: Uint8Array, expectedKeys: string[], xml: Uint8Array): Promise<void> {
  assert.equal(qpdfCheck(pdf).status, 0, qpdfCheck(pdf).output);
  const sorted = [...expectedKeys].sort(compareCodePoints);
  const q = qpdfAttachments(pdf, ['factur-x.xml', ...expectedKeys.slice(0, 3)]);
  assert.deepEqual(q.keys, sorted, 'qpdf lists every key, in order');
  const fx = q.shown.get('factur-x.xml');
  assert.ok(fx, 'qpdf --show-attachment=factur-x.xml finds the invoice');
  assert.ok(fx.equals(Buffer.from(xml)), 'with the XML bytes');
  for (const k of expectedKeys.slice(0, 3)) assert.ok(q.shown.get(k), `qpdf --show-attachment finds ${k}`);

  // One encoding per tree: the raw keys are all UTF-16 (BOM) or all byte strings, in decoded-text order.
  const v = qpdfView(pdf);
  const entries = embeddedFileEntries(v).map(([k]) => k);
  assert.deepEqual(entries, sorted);
  const js = await pdfjsRead(pdf);
  assert.deepEqual(Object.keys(js.attachments).length, expectedKeys.length, 'pdf.js lists every attachment');
  assert.ok(Buffer.from(js.attachments['factur-x.xml']).equals(Buffer.from(xml)));
  const lib = listAttachments(await PDFDocument.load(pdf, { updateMetadata: false }));
  assert.deepEqual(lib.map((a) => a.name).sort(compareCodePoints), sorted, '@cantoo/pdf-lib reaches every key');
  const raw = rawKeys(pdf);
  assert.equal(raw.length, expectedKeys.length);
  const utf16 = raw.filter((b) => b[0] === 0xfe && b[1] === 0xff).length;
  assert.ok(utf16 === 0 || utf16 === raw.length, `one key encoding per tree (${utf16} of ${raw.length} keys are UTF-16)`);
  // UTF-16 exactly when some key is not printable ASCII (then byte strings could not keep text order).
  assert.equal(
    utf16 > 0,
    expectedKeys.some((k) => /[^\x20-\x7e]/.test(k)),
  );
  const ours = await readPdf(pdf);
  assert.deepEqual(
    ours.attachments.filter((a) => a.inNameTree).map((a) => a.name),
    sorted,
  );
}

test('merge into a PDF/A-3b whose name tree has UTF-16 keys: qpdf, pdf.js and pdf-lib all find factur-x.xml', async () => {
  // "Attachment.txt" in UTF-16 sorts before "factur-x.xml" by text, after it by raw bytes (FE FF 00 41 > 66).
  const input = await withAttachments(PDFA3B(), [
    { key: 'Attachment.txt', utf16: true },
    { key: 'Übersicht.pdf', utf16: true },
    { key: 'zeta.txt', utf16: false },
  ]);
  const xml = xmlFor('en16931');
  const res = await post('/v1/merge', [
    { name: 'pdf', filename: 'in.pdf', contentType: 'application/pdf', value: Buffer.from(input) },
    { name: 'xml', filename: 'invoice.xml', contentType: 'application/xml', value: Buffer.from(xml) },
  ]);
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  assert.equal(res.headers['x-pdfa-check'], 'passed');
  await assertSearchable(res.rawPayload, ['TextFile.txt', 'Attachment.txt', 'Übersicht.pdf', 'zeta.txt', 'factur-x.xml'], xml);
});

test('convert into a PDF with a large mixed-encoding tree: rebuilt with intermediate nodes and /Limits that qpdf can search', async () => {
  const keys = Array.from({ length: 150 }, (_, i) => ({ key: `Beleg-${String(i).padStart(3, '0')}.txt`, utf16: i % 3 === 0 }));
  keys.push({ key: 'Anlage.pdf', utf16: true }, { key: 'zz-last.txt', utf16: false });
  const input = await withAttachments(await makeBasePdf(), keys, 40);
  const res = await post('/v1/convert', [
    { name: 'pdf', filename: 'in.pdf', contentType: 'application/pdf', value: Buffer.from(input) },
    { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) },
  ]);
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  const fromPdf = await readPdf(res.rawPayload);
  const xml = fromPdf.attachments.find((a) => a.name === 'factur-x.xml')!.content();
  await assertSearchable(res.rawPayload, [...keys.map((k) => k.key), 'factur-x.xml'], xml);
  // The root has /Kids and no /Limits; each kid has /Limits that bracket its keys.
  const v = qpdfView(res.rawPayload);
  const root = v.get(v.get(v.catalog['/Names'])['/EmbeddedFiles']);
  assert.ok(Array.isArray(root['/Kids']) && root['/Kids'].length > 1, 'intermediate nodes');
  assert.equal(root['/Limits'], undefined);
  for (const kid of root['/Kids']) assert.equal(v.get(kid)['/Limits'].length, 2);
});
