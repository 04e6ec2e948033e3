/**
 * Syntax rules (CII-SR/DT, UBL-SR/CR/DT) and the XSD layer, in process:
 * median and p99 per CEN example, and a 10,000-line invoice of each syntax.
 *
 *   node --import tsx bench/syntax-rules.ts
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseXml } from '../src/xml/dom.js';
import { evaluateCiiSyntax } from '../src/syntax/cii/rules.js';
import { evaluateUblSyntax } from '../src/syntax/ubl/rules.js';
import { runXsdLayer } from '../src/validation/xsd-layer.js';
import { stats } from './_timing.js';

const corpus = path.resolve(process.cwd(), '../shared/corpus');

function time(fn: () => void, runs: number): { median: number; p99: number } {
  for (let i = 0; i < Math.min(50, runs); i++) fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return stats(samples);
}

const ms = (x: number) => x.toFixed(3).padStart(8);

console.log('file'.padEnd(44), 'KB'.padStart(6), '  parse med/p99   syntax med/p99      xsd med/p99   (ms)');
for (const [dir, syntax] of [
  ['en16931/examples/cii', 'cii'],
  ['en16931/examples/ubl', 'ubl'],
] as const) {
  for (const f of readdirSync(path.join(corpus, dir)).sort()) {
    const bytes = new Uint8Array(readFileSync(path.join(corpus, dir, f)));
    const doc = parseXml(bytes);
    const parse = time(() => parseXml(bytes), 300);
    const rules = time(() => (syntax === 'cii' ? evaluateCiiSyntax(doc) : evaluateUblSyntax(doc)), 1000);
    const xsd = syntax === 'cii' ? time(() => runXsdLayer(bytes, 'cii', 'en16931'), 200) : undefined;
    console.log(
      f.slice(0, 44).padEnd(44),
      (bytes.length / 1024).toFixed(1).padStart(6),
      ms(parse.median),
      ms(parse.p99),
      ms(rules.median),
      ms(rules.p99),
      xsd ? `${ms(xsd.median)} ${ms(xsd.p99)}` : '   (UBL XSD layer skipped)',
    );
  }
}

/** A large invoice: the first line item repeated `n` times. */
function bigInvoice(rel: string, lineTag: string, n: number): Uint8Array {
  const text = readFileSync(path.join(corpus, rel), 'utf8');
  const re = new RegExp(`<${lineTag}>[\\s\\S]*?</${lineTag}>`);
  const line = re.exec(text)![0];
  return new TextEncoder().encode(text.replace(line, line.repeat(n)));
}

for (const [rel, tag, syntax] of [
  ['en16931/examples/cii/CII_example1.xml', 'ram:IncludedSupplyChainTradeLineItem', 'cii'],
  ['en16931/examples/ubl/ubl-tc434-example1.xml', 'cac:InvoiceLine', 'ubl'],
] as const) {
  const bytes = bigInvoice(rel, tag, 10_000);
  const doc = parseXml(bytes, { maxDepth: 200, maxElements: 10_000_000 });
  const parse = time(() => parseXml(bytes, { maxDepth: 200, maxElements: 10_000_000 }), 5);
  const rules = time(() => (syntax === 'cii' ? evaluateCiiSyntax(doc) : evaluateUblSyntax(doc)), 10);
  const xsd = syntax === 'cii' ? time(() => runXsdLayer(bytes, 'cii', 'en16931'), 5) : undefined;
  console.log(
    `10,000-line ${syntax.toUpperCase()} (${(bytes.length / 1024 / 1024).toFixed(1)} MB, ${doc.elementCount} elements): ` +
      `parse ${parse.median.toFixed(1)} ms, syntax rules ${rules.median.toFixed(1)} ms` +
      (xsd ? `, XSD ${xsd.median.toFixed(1)} ms` : ''),
  );
}
console.log(`RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
