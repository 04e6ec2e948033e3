/**
 * The fuzzer's own parts, without a server: inputs are a function of (seed, number), every mutator
 * produces something from the repository seeds, the PDF builder writes files a PDF library reads, and the
 * bombs really expand (a bomb that does not inflate would make the fuzz suite prove nothing).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { test } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { encodeCase } from '../scripts/fuzz/harness.js';
import { generate } from '../scripts/fuzz/generate.js';
import { JSON_MUTATORS } from '../scripts/fuzz/mutate-json.js';
import { PDF_MUTATORS } from '../scripts/fuzz/mutate-pdf.js';
import { spans, XML_MUTATORS } from '../scripts/fuzz/mutate-xml.js';
import {
  attachment,
  basicObjects,
  buildPdf,
  flateBomb,
  lzwEncode,
  lzwRunBomb,
  objectStream,
  pdfa3Base,
} from '../scripts/fuzz/pdf-builder.js';
import { Rng } from '../scripts/fuzz/rng.js';
import { buildSeeds } from '../scripts/fuzz/seeds.js';
import { ENDPOINTS } from '../scripts/fuzz/harness.js';

const seedsP = buildSeeds(new Rng(1), 0); // no corpus: the suite must work without it

function digest(seed: number, n: number, seeds: Awaited<typeof seedsP>): string[] {
  const base = new Rng(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const g = generate(i, base, seeds, ENDPOINTS);
    out.push(g ? `${g.case.endpoint} ${g.mutator} ${createHash('sha1').update(encodeCase(g.case).body).digest('hex')}` : 'none');
  }
  return out;
}

test('the same seed sends the same inputs; another seed sends others', async () => {
  const seeds = await seedsP;
  const a = digest(17, 12, seeds);
  assert.deepEqual(digest(17, 12, seeds), a);
  assert.notDeepEqual(digest(18, 12, seeds), a);
  assert.ok(new Set(a).size > 10, 'inputs differ from each other');
});

test('every XML and JSON mutator changes a repository seed and stays under the upload limit', async () => {
  const seeds = await seedsP;
  const rng = new Rng(3);
  // A CII and the UBL seed; a few tries each (mutators pick sizes at random).
  const pick = [seeds.xml[0], seeds.xml.find((s) => s.name.startsWith('ubl'))!];
  for (const m of XML_MUTATORS) {
    let changed = 0;
    for (let k = 0; k < 6 && !changed; k++) {
      const s = pick[k % 2];
      const out = m.apply(s.data, rng);
      if (out && !out.equals(s.data)) changed++;
      if (out) assert.ok(out.length <= 9 * 1024 * 1024 + 64, `${m.name}: ${out.length} bytes`);
    }
    assert.ok(changed > 0, `${m.name} never applied`);
  }
  for (const m of JSON_MUTATORS) {
    const outs = seeds.metadata.map((s) => m.apply(JSON.parse(JSON.stringify(s.value)), rng)).filter((x) => x !== null);
    assert.ok(outs.length > 0, `${m.name} never applied`);
  }
});

test('every PDF mutator yields a file from a repository seed', async () => {
  const seeds = await seedsP;
  const rng = new Rng(5);
  for (const m of PDF_MUTATORS) {
    let ok = 0;
    for (const s of seeds.pdf) if (!ok && m.apply(s.data, rng, seeds.mergeXml)) ok++;
    assert.ok(ok, `${m.name} never applied`);
  }
});

test('the XML scanner finds every element of a seed', async () => {
  const seeds = await seedsP;
  const xml = seeds.xml[0].data.toString('utf8');
  const all = spans(xml);
  assert.equal(all.length, (xml.match(/<[A-Za-z]/g) ?? []).length);
  assert.equal(all[0].depth, 0);
  assert.ok(all.every((s) => xml.slice(s.start, s.end).startsWith(`<${s.name}`)));
});

test('the PDF builder writes files pdf-lib reads: xref tables, xref streams, object streams, attachments', async () => {
  const table = await PDFDocument.load(pdfa3Base());
  assert.equal(table.getPageCount(), 1);
  const objs = basicObjects('/Names << /EmbeddedFiles << /Names [(a.xml) 11 0 R] >> >>');
  objs.push(...attachment(10, 'a.xml', Buffer.from('<a/>')), objectStream(12, [{ num: 13, body: '<< /Answer 42 >>' }]));
  const doc = await PDFDocument.load(buildPdf(objs, { xref: 'stream', trailer: '/Root 1 0 R' }));
  assert.equal(doc.getPageCount(), 1);
});

test('the bombs expand as claimed', () => {
  const prefix = Buffer.from('<?xml version="1.0"?><a/>');
  const flate = flateBomb(4, 0x20, prefix);
  const out = inflateSync(flate);
  assert.equal(out.length, prefix.length + 4 * 1024 * 1024);
  assert.ok(out.subarray(0, prefix.length).equals(prefix));
  assert.ok(flateBomb(1024).length < 1.2 * 1024 * 1024, '1 GiB in about 1 MB');
  // The run-length LZW bomb is exactly what the general encoder writes for the same bytes.
  for (const n of [1, 2, 3, 4095, 100_000]) assert.ok(lzwRunBomb(0x20, n).equals(lzwEncode(Buffer.alloc(n, 0x20))), `n=${n}`);
  assert.ok(lzwRunBomb(0x20, 1 << 30).length < 1024 * 1024, '1 GiB of LZW in under 1 MB');
});
