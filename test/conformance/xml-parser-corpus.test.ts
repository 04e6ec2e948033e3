/**
 * Conformance: the XML parser against saxes on every XML file of the corpus and on the XML embedded in its
 * real producers' PDFs (the hand-made and mutated cases are in test/xml-parser.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ingest } from '../../src/input/ingest.js';
import { disagreement, ours } from '../xml-differential.js';
import { CORPUS as corpus } from './corpus.js';

function xmlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) xmlFiles(p, out);
    else if (name.toLowerCase().endsWith('.xml')) out.push(p);
  }
  return out;
}

test('every XML file of the corpus: the same tree as saxes builds, or both reject', () => {
  const files = xmlFiles(corpus);
  assert.ok(files.length > 1500, `corpus XML files: ${files.length}`);
  const problems: string[] = [];
  let accepted = 0;
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(file));
    const d = disagreement(bytes);
    if (d) problems.push(`${path.relative(corpus, file)}: ${d}`);
    else if (ours(bytes).verdict === 'ok') accepted++;
  }
  assert.deepEqual(problems, []);
  assert.ok(accepted > 1500, `accepted ${accepted}`);
});

test('the XML embedded in the corpus PDFs of real producers: the same tree as saxes builds, or both reject', async () => {
  const pdfs: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.toLowerCase().endsWith('.pdf')) pdfs.push(p);
    }
  };
  walk(path.join(corpus, 'zugferd'));
  const problems: string[] = [];
  let compared = 0;
  for (const file of pdfs) {
    let xml: Uint8Array | undefined;
    try {
      xml = (await ingest(new Uint8Array(readFileSync(file)))).xmlBytes;
    } catch {
      continue; // unreadable or encrypted PDFs carry no XML to compare
    }
    if (!xml) continue;
    compared++;
    const d = disagreement(xml);
    if (d) problems.push(`${path.relative(corpus, file)}: ${d}`);
  }
  assert.deepEqual(problems, []);
  assert.ok(compared > 40, `PDFs with embedded XML: ${compared}`);
});
