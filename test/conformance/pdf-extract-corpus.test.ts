/** Conformance: the PDF readers on every Factur-X / ZUGFeRD PDF of the corpus (built and curated cases: test/pdf-extract.test.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { readPdfLazily } from '../../src/pdf/extract.js';
import { listAttachments } from '../../src/pdf/extract-full.js';
import { ingest } from '../../src/input/ingest.js';
import { corpusPath } from './corpus.js';

test('the lazy reader (fast path) agrees with the full parser on every Factur-X/ZUGFeRD PDF of the corpus', async () => {
  const pdfs: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.pdf')) pdfs.push(join(dir, e.name));
    }
  };
  walk(corpusPath('zugferd'));
  walk(corpusPath('fr-ctc'));
  let compared = 0;
  for (const file of pdfs) {
    const bytes = new Uint8Array(readFileSync(file));
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
  assert.ok(compared > 150, String(compared));
});

test('the PDF carrying both a ZUGFeRD 1 and a ZUGFeRD 2 invoice is read as ZUGFeRD 2', async () => {
  const r = await ingest(new Uint8Array(readFileSync(corpusPath('zugferd/ZUGFeRDv2/fail/MustangRE-20171118_506_ZUGFeRD1and2.pdf'))));
  assert.equal(r.syntax, 'cii');
  assert.ok(r.attachmentNames!.length >= 1);
});
