/**
 * French CTC layer speed: the BR-FR rule sets (1.2.0 and 1.4, CII and UBL) on a small invoice and
 * on a 4,000-line multi-vendor invoice (1,000 sub-invoices of a GROUP and a DETAIL line each, the
 * worst case for the sub-line rules). Parsing is not timed. Prints median and p90 per case.
 *
 * Run: node --import tsx bench/br-fr.ts [iterations, default 15]
 */
import { cpus, loadavg } from 'node:os';
import { runRuleSet } from '../src/rules/engine.js';
import '../src/rules/br-fr/index.js';
import { parseXml, type XmlDoc } from '../src/xml/dom.js';
import { CII_BASE, UBL_BASE, ciiMultiVendor, ublMultiVendor } from '../test/br-fr-fixtures.js';

const ITERATIONS = Number(process.argv[2] ?? 15);

/** Repeat the sub-invoices of a multi-vendor fixture `copies` times, with distinct line ids. */
function manyLines(xml: string, copies: number, syntax: 'cii' | 'ubl'): string {
  const open = syntax === 'cii' ? '<ram:IncludedSupplyChainTradeLineItem>' : '<cac:InvoiceLine>';
  const close = syntax === 'cii' ? '</ram:IncludedSupplyChainTradeLineItem>' : '</cac:InvoiceLine>';
  const i = xml.indexOf(open);
  const j = xml.lastIndexOf(close) + close.length;
  const block = xml.slice(i, j);
  const copiesXml = Array.from({ length: copies }, (_, k) =>
    block.replace(/<ram:(LineID|ParentLineID)>(\d)</g, `<ram:$1>${k}_$2<`).replace(/<cbc:ID>(\d)<\/cbc:ID>/g, `<cbc:ID>${k}_$1</cbc:ID>`),
  );
  return xml.slice(0, i) + copiesXml.join('\n') + xml.slice(j);
}

function measure(xml: string, set: string, syntax: 'cii' | 'ubl'): { median: number; p90: number } {
  const times: number[] = [];
  for (let n = 0; n < ITERATIONS + 2; n++) {
    const doc: XmlDoc = parseXml(xml); // fresh per run: the rules keep per-document indexes
    const t0 = performance.now();
    runRuleSet(set, { invoice: {} as never, doc, syntax });
    if (n >= 2) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)] };
}

console.log(`BR-FR rule sets, ${ITERATIONS} runs each (${cpus().length} cores, load ${loadavg()[0].toFixed(2)})`);
const cases: [string, string, 'cii' | 'ubl', string[]][] = [
  ['small CII invoice', CII_BASE, 'cii', ['br-fr-1.2-cii', 'br-fr-1.4-cii']],
  ['small UBL invoice', UBL_BASE, 'ubl', ['br-fr-1.2-ubl', 'br-fr-1.4-ubl']],
  ['4,000-line multi-vendor CII', manyLines(ciiMultiVendor('S8', '380'), 1000, 'cii'), 'cii', ['br-fr-1.2-cii', 'br-fr-1.4-cii']],
  ['4,000-line multi-vendor UBL', manyLines(ublMultiVendor('S8', '380'), 1000, 'ubl'), 'ubl', ['br-fr-1.2-ubl', 'br-fr-1.4-ubl']],
];
for (const [name, xml, syntax, sets] of cases) {
  const doc = parseXml(xml);
  for (const set of sets) {
    const { median, p90 } = measure(xml, set, syntax);
    console.log(
      `${name.padEnd(30)} ${set.padEnd(16)} median ${median.toFixed(2)} ms  p90 ${p90.toFixed(2)} ms  (${doc.elementCount} elements)`,
    );
  }
}
