/**
 * XSD layer alone: the native engine (src/xml/xsd-native/) against libxml2-wasm (test/libxml2-xsd.ts, the
 * tests' oracle) on the same Factur-X 1.07.3 EN16931 schema. Prints median and p99 (ms) of:
 *  - native on the already parsed tree (what the validation pipeline pays now),
 *  - native including our parse of the bytes,
 *  - libxml2 including its parse of the bytes (what the pipeline paid before),
 * for typical CEN example invoices and a generated 10,000-line CII invoice; then the RSS of a fresh process that
 * validates one invoice 200 times with each engine (what each engine adds to a worker thread's footprint).
 * Run: node --import tsx bench/xsd.ts [--quick]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stats } from './_timing.js';

const quick = process.argv.includes('--quick');
const corpus = path.resolve(process.cwd(), '../shared/corpus');
const typical = path.join(corpus, 'en16931/examples/cii/CII_example1.xml');

// Child mode: load one engine only (the engines are imported dynamically for this), validate, report the RSS.
const rssOf = process.argv.indexOf('--rss-child');
if (rssOf > 0) {
  const bytes = new Uint8Array(readFileSync(typical));
  const before = process.memoryUsage().rss;
  const run =
    process.argv[rssOf + 1] === 'libxml2'
      ? (await import('../test/libxml2-xsd.js')).libxml2ValidateXsd
      : (await import('../src/xml/xsd.js')).validateXsd;
  for (let i = 0; i < 200; i++) run(bytes, 'EN16931');
  const after = process.memoryUsage().rss;
  console.log(JSON.stringify({ before, after }));
  process.exit(0);
}

const { parseXml } = await import('../src/xml/dom.js');
const { validateXsd, validateXsdTree } = await import('../src/xml/xsd.js');
const { libxml2ValidateXsd } = await import('../test/libxml2-xsd.js');
const { ciiWithLines } = await import('./extract.js');

function timeIt(n: number, fn: () => unknown): { median: number; p99: number } {
  for (let i = 0; i < Math.min(30, n); i++) fn();
  const ts: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    ts.push(performance.now() - t);
  }
  return stats(ts);
}

const cell = (s: { median: number; p99: number }) => `${s.median.toFixed(3).padStart(9)} ${s.p99.toFixed(3).padStart(9)}`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const inputs: { label: string; bytes: Uint8Array; n: number }[] = [
  ...['CII_example1.xml', 'CII_business_example_01.xml', 'CII_example4.xml'].map((f) => ({
    label: f,
    bytes: new Uint8Array(readFileSync(path.join(corpus, 'en16931/examples/cii', f))),
    n: quick ? 200 : 1000,
  })),
  { label: 'generated CII, 10,000 lines', bytes: new Uint8Array(Buffer.from(ciiWithLines(10_000))), n: quick ? 3 : 7 },
];

console.log(`${'EN16931 schema, ms'.padEnd(30)} ${'KB'.padStart(6)} | native on tree      | native incl. parse  | libxml2 incl. parse`);
console.log(
  `${''.padEnd(30)} ${''.padStart(6)} | ${'median'.padStart(9)} ${'p99'.padStart(9)} | ${'median'.padStart(9)} ${'p99'.padStart(9)} | ${'median'.padStart(9)} ${'p99'.padStart(9)}`,
);
const rows: string[] = [];
for (const { label, bytes, n } of inputs) {
  const doc = parseXml(bytes);
  // Same verdict from both, or the comparison would time different work. (The generated invoice has no header
  // VAT breakdown: both report that one error, at the end, after checking every line.)
  if (validateXsdTree(doc, 'EN16931').valid !== libxml2ValidateXsd(bytes, 'EN16931').valid)
    throw new Error(`${label}: the engines disagree`);
  const onTree = timeIt(n, () => validateXsdTree(doc, 'EN16931'));
  const withParse = timeIt(n, () => validateXsd(bytes, 'EN16931'));
  rows.push(`${label.padEnd(30)} ${(bytes.length / 1024).toFixed(0).padStart(6)} | ${cell(onTree)} | ${cell(withParse)} |`);
}
for (const [i, { bytes, n }] of inputs.entries()) {
  const libxml2 = timeIt(n, () => libxml2ValidateXsd(bytes, 'EN16931'));
  console.log(`${rows[i]} ${cell(libxml2)}`);
}

for (const engine of ['native', 'libxml2']) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', 'bench/xsd.ts', '--rss-child', engine], { encoding: 'utf8' });
  const { before, after } = JSON.parse(child.stdout.trim().split('\n').pop()!) as { before: number; after: number };
  console.log(`fresh process, ${engine}: RSS ${mb(before)} before loading it, ${mb(after)} after 200 validations (+${mb(after - before)})`);
}
