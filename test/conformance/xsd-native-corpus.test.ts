/**
 * Conformance: the native XSD engine against libxml2 on every CII XML file of the corpus and on the CII
 * embedded in its PDFs, for all five Factur-X schema sets (targeted and random cases: test/xsd-native.test.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { ingest } from '../../src/input/ingest.js';
import { parseXml, type XmlDoc } from '../../src/xml/dom.js';
import { validateXsdTree } from '../../src/xml/xsd.js';
import { assertAgree, disposeLibxml2Validators, libxml2ValidateXsd, SETS } from '../libxml2-xsd.js';
import { CORPUS as corpus } from './corpus.js';

after(() => disposeLibxml2Validators());

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

describe('native XSD engine vs libxml2 on the corpus', () => {
  test('every CII XML file of the corpus, against all five schema sets', (t) => {
    const files = walk(corpus).filter((f) => /\.xml$/i.test(f));
    let compared = 0;
    let invalid = 0;
    let countsAgree = 0;
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(file));
      let doc: XmlDoc;
      try {
        doc = parseXml(bytes);
      } catch {
        continue; // not well-formed: no schema verdict to compare
      }
      if (doc.root.local !== 'CrossIndustryInvoice') continue;
      for (const set of SETS) {
        const native = validateXsdTree(doc, set);
        const oracle = libxml2ValidateXsd(bytes, set);
        assertAgree({ native, oracle }, `${path.relative(corpus, file)} against ${set}`);
        compared++;
        if (!native.valid) invalid++;
        if (native.errors.length === oracle.errors.length) countsAgree++;
      }
    }
    t.diagnostic(
      `corpus XML: ${compared} (file, schema set) pairs, ${invalid} invalid; verdicts agree 100%, error counts agree ${countsAgree}/${compared}`,
    );
    assert.ok(compared >= 900, `${compared} comparisons`);
    assert.ok(invalid > 100 && invalid < compared - 100, 'both verdicts occur often');
  });

  test('the CII XML embedded in the corpus PDFs, against all five schema sets', async (t) => {
    const pdfs = [...walk(path.join(corpus, 'zugferd')), ...walk(path.join(corpus, 'fr-ctc'))].filter((f) => /\.pdf$/i.test(f));
    let compared = 0;
    let invoices = 0;
    for (const file of pdfs) {
      let ing;
      try {
        ing = await ingest(new Uint8Array(readFileSync(file)));
      } catch {
        continue; // encrypted or unreadable PDF: no XML
      }
      if (!ing.doc || !ing.xmlBytes || ing.doc.root.local !== 'CrossIndustryInvoice') continue;
      invoices++;
      for (const set of SETS) {
        assertAgree(
          { native: validateXsdTree(ing.doc, set), oracle: libxml2ValidateXsd(ing.xmlBytes, set) },
          `${path.relative(corpus, file)} against ${set}`,
        );
        compared++;
      }
    }
    t.diagnostic(`corpus PDFs: ${invoices} embedded CII invoices, ${compared} pairs; verdicts agree 100%`);
    assert.ok(invoices >= 50, `${invoices} CII invoices found in PDFs`);
  });
});
