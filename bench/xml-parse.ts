/**
 * XML parsing speed: parseXml() (src/xml/parser.ts) against the saxes tree builder it replaced
 * (test/saxes-reference.ts, the same work the old parseXml did), from bytes to element tree.
 *
 * Three typical corpus invoices (CII, UBL, XRechnung UBL) and the generated 10,000-line CII invoice of
 * bench/extract.ts (target: ≤ 80 ms, 3-5x faster than saxes; typical invoices ≥ 2x faster).
 * Old and new runs alternate, so that a change in the machine's load hits both alike.
 *
 * Run: node --import tsx bench/xml-parse.ts [milliseconds per document, default 3000]
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { decodeXmlBytes, parseXml } from '../src/xml/dom.js';
import { saxesTree } from '../test/saxes-reference.js';
import { ciiWithLines } from './extract.js';

const corpus = path.resolve(process.cwd(), '../shared/corpus');
const budgetMs = Math.max(200, Number(process.argv[2] ?? 3000));

function oldParse(bytes: Uint8Array): void {
  const text = decodeXmlBytes(bytes).text.replace(/^[\s\uFEFF]+/, '');
  if (!saxesTree(text).ok) throw new Error('saxes rejected a benchmark document');
}

function newParse(bytes: Uint8Array): void {
  parseXml(bytes);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function measure(label: string, bytes: Uint8Array, minRuns: number): void {
  for (let i = 0; i < 5; i++) {
    oldParse(bytes);
    newParse(bytes);
  }
  const before: number[] = [];
  const after: number[] = [];
  const start = performance.now();
  while (after.length < minRuns || performance.now() - start < budgetMs) {
    let t = performance.now();
    oldParse(bytes);
    before.push(performance.now() - t);
    t = performance.now();
    newParse(bytes);
    after.push(performance.now() - t);
  }
  before.sort((a, b) => a - b);
  after.sort((a, b) => a - b);
  const fmt = (v: number) => (v < 10 ? v.toFixed(3) : v.toFixed(1)).padStart(7);
  console.log(
    `${label.padEnd(34)} ${(bytes.length / 1024).toFixed(0).padStart(6)} KiB  runs ${String(after.length).padStart(5)}  ` +
      `saxes median ${fmt(percentile(before, 50))} ms p95 ${fmt(percentile(before, 95))} ms  |  ` +
      `new median ${fmt(percentile(after, 50))} ms p95 ${fmt(percentile(after, 95))} ms  |  ${(percentile(before, 50) / percentile(after, 50)).toFixed(1)}x`,
  );
}

console.log(`node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(2)}`);
const typical: [string, string][] = [
  ['CII (CEN example 1)', 'en16931/examples/cii/CII_example1.xml'],
  ['UBL (CEN example 1)', 'en16931/examples/ubl/ubl-tc434-example1.xml'],
  ['XRechnung UBL (KoSIT instance)', 'xrechnung/instances/ubl-inv/ubl-inv-paymentmeans-test.xml'],
];
for (const [label, rel] of typical) measure(label, new Uint8Array(readFileSync(path.join(corpus, rel))), 200);
measure('CII, 10,000 lines (generated)', new Uint8Array(Buffer.from(ciiWithLines(10_000))), 10);
