/**
 * Conformance: every corpus PDF that already carries attachments gets an invoice embedded as /v1/convert does
 * (the engine, without the PDF/A gate, which refuses many corpus inputs for their content); the output's name
 * tree must be searchable by every reader: qpdf's lookup (`--show-attachment`, a search by key as pikepdf does)
 * finds factur-x.xml with the XML's bytes, qpdf, pdf.js and @cantoo/pdf-lib list every attachment, and the keys
 * are in one encoding, sorted by their decoded text. (Built inputs with UTF-16 keys: test/pdf-name-tree.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { buildInvoiceXml } from '../../src/metadata/index.js';
import { DOMESTIC_EXAMPLE } from '../../src/metadata/examples.js';
import { compareCodePoints } from '../../src/pdf/embed.js';
import { EmbedError, embedInvoiceXml, hybridFlavour } from '../../src/pdf/hybrid.js';
import { PdfReadError, readPdf, walkNameTree } from '../../src/pdf/extract.js';
import { listAttachments } from '../../src/pdf/extract-full.js';
import { isDict, LazyPdf } from '../../src/pdf/lazy.js';
import { qpdfAttachments } from '../hybrid-pdf-reader.js';
import { CORPUS } from './corpus.js';

const XML = new TextEncoder().encode(buildInvoiceXml(DOMESTIC_EXAMPLE).xml);
const FLAVOUR = hybridFlavour('en16931');

function pdfsUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...pdfsUnder(join(dir, e.name)));
    else if (e.name.toLowerCase().endsWith('.pdf')) out.push(join(dir, e.name));
  }
  return out;
}

/** Raw key bytes of the EmbeddedFiles name tree, in tree order. */
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

let pdfjs: typeof import('pdfjs-dist/legacy/build/pdf.mjs') | undefined;
async function pdfjsAttachments(pdf: Uint8Array): Promise<Map<string, Uint8Array>> {
  pdfjs ??= await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, useSystemFonts: false, verbosity: 0 });
  const doc = await task.promise;
  try {
    const atts = ((await doc.getAttachments()) ?? {}) as Record<string, { filename: string; content: Uint8Array }>;
    return new Map(Object.entries(atts).map(([k, a]) => [k, a.content]));
  } finally {
    await task.destroy();
  }
}

test('merge/convert outputs of every corpus PDF with attachments: qpdf, pdf.js and pdf-lib find every key', async (t) => {
  let checked = 0;
  let utf16Inputs = 0;
  const refused: string[] = [];
  for (const file of pdfsUnder(CORPUS)) {
    const bytes = new Uint8Array(readFileSync(file));
    if (!Buffer.from(bytes).includes('/EmbeddedFile')) continue;
    let inputKeys: string[];
    try {
      inputKeys = (await readPdf(bytes)).attachments.filter((a) => a.inNameTree).map((a) => a.name);
    } catch (err) {
      if (err instanceof PdfReadError) continue; // unreadable or over a limit: nothing to embed into
      throw err;
    }
    if (inputKeys.length === 0) continue;
    if (rawKeys(bytes).some((k) => k[0] === 0xfe && k[1] === 0xff)) utf16Inputs++;
    let pdf: Uint8Array;
    try {
      ({ pdf } = await embedInvoiceXml(bytes, {
        xml: XML,
        flavour: FLAVOUR,
        replaceInvoiceAttachments: true,
        allowSignatureInvalidation: true,
      }));
    } catch (err) {
      if (err instanceof EmbedError && err.code !== 'EMBED_CHECK_FAILED') {
        refused.push(`${file}: ${err.code}`); // encrypted, damaged, over a limit: refused as the API does
        continue;
      }
      throw err;
    }
    const where = file.slice(CORPUS.length + 1);
    const q = qpdfAttachments(pdf, ['factur-x.xml']);
    const fx = q.shown.get('factur-x.xml');
    assert.ok(fx?.equals(Buffer.from(XML)), `${where}: qpdf --show-attachment=factur-x.xml finds the XML`);
    const ours = (await readPdf(pdf)).attachments.filter((a) => a.inNameTree).map((a) => a.name);
    const sorted = [...ours].sort(compareCodePoints);
    assert.deepEqual(ours, sorted, `${where}: keys sorted by decoded text`);
    assert.deepEqual(q.keys, sorted, `${where}: qpdf lists the same keys`);
    for (const k of inputKeys)
      if (!['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'ZUGFeRD-invoice.xml'].includes(k))
        assert.ok(ours.includes(k), `${where}: the input's ${k} is kept`);
    const raw = rawKeys(pdf);
    const utf16 = raw.filter((b) => b[0] === 0xfe && b[1] === 0xff).length;
    assert.ok(utf16 === 0 || utf16 === raw.length, `${where}: one key encoding (${utf16} of ${raw.length} UTF-16)`);
    const js = await pdfjsAttachments(pdf);
    assert.ok(
      js.get('factur-x.xml') && Buffer.from(js.get('factur-x.xml')!).equals(Buffer.from(XML)),
      `${where}: pdf.js finds factur-x.xml`,
    );
    assert.equal(js.size, new Set(ours).size, `${where}: pdf.js lists every attachment`);
    const lib = listAttachments(await PDFDocument.load(pdf, { updateMetadata: false }));
    assert.ok(
      lib.some((a) => a.name === 'factur-x.xml' && a.inNameTree),
      `${where}: @cantoo/pdf-lib reaches factur-x.xml`,
    );
    checked++;
  }
  t.diagnostic(
    `${checked} PDFs with attachments checked (${utf16Inputs} with UTF-16 keys); ${refused.length} refused: ${refused.join('; ')}`,
  );
  // The corpus holds well over a hundred PDFs with attachments, some with UTF-16 keys: the test never passes on nothing.
  assert.ok(checked > 100, `checked ${checked}; refused ${refused.length}: ${refused.slice(0, 5).join('; ')}`);
  assert.ok(utf16Inputs > 0, 'some inputs have UTF-16 keys');
});
