/**
 * Peppol BIS Billing 3.0 validation speed, in-process: a typical Peppol invoice (our Belgian test base: 2 lines, 7 KB)
 * and a 1,000-line one (its second line repeated, totals adjusted, so both are valid). For each, the whole validation
 * (parse, model, UBL schema, EN 16931 UBL and the Peppol rules) against the same invoice declared as plain EN 16931
 * (no Peppol rules), interleaved; the difference is what the Peppol layer adds (target ≤ 20%). Also the Peppol rule set
 * alone on a parsed document. Prints medians and p99.
 *
 * Run: node --import tsx bench/peppol.ts [runs, default 300 (small) / 20 (1,000 lines)]
 */
import { cpus, loadavg } from 'node:os';
import { Big } from '../src/model/decimal.js';
import { getRuleSet, runRules } from '../src/rules/engine.js';
import { validateBytes } from '../src/validation/validate.js';
import { parseXml } from '../src/xml/dom.js';
import { BASES, buildBase } from '../scripts/peppol-cases/bases.js';
import { stats } from './_timing.js';

const RUNS = Number(process.argv[2] ?? 300);
const PEPPOL_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';

/** The base with its second line repeated to `lines` lines in all, the totals recomputed (21% VAT). */
function withLines(xml: string, lines: number): string {
  const open = '<cac:InvoiceLine><cbc:ID>2</cbc:ID>';
  const start = xml.indexOf(open);
  const end = xml.indexOf('</cac:InvoiceLine>', start) + '</cac:InvoiceLine>'.length;
  const line = xml.slice(start, end);
  const copies = Array.from({ length: lines - 1 }, (_, i) => line.replace('<cbc:ID>2</cbc:ID>', `<cbc:ID>${i + 2}</cbc:ID>`));
  const lineTotal = new Big('475').plus(new Big('200').times(new Big(String(lines - 1))));
  const taxable = lineTotal.minus(new Big('50')).plus(new Big('20'));
  const tax = taxable.times(new Big('0.21')).round(2, Big.roundHalfUp);
  const f = (v: InstanceType<typeof Big>) => v.toFixed(2);
  return (xml.slice(0, start) + copies.join('') + xml.slice(end))
    .replace(/(<cbc:TaxAmount currencyID="EUR">)[^<]*/g, `$1${f(tax)}`)
    .replace(/(<cbc:TaxableAmount currencyID="EUR">)[^<]*/, `$1${f(taxable)}`)
    .replace(/(<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">)[^<]*/, `$1${f(lineTotal)}`)
    .replace(/(<cbc:TaxExclusiveAmount currencyID="EUR">)[^<]*/, `$1${f(taxable)}`)
    .replace(/(<cbc:TaxInclusiveAmount currencyID="EUR">)[^<]*/, `$1${f(taxable.plus(tax))}`)
    .replace(/(<cbc:PayableAmount currencyID="EUR">)[^<]*/, `$1${f(taxable.plus(tax))}`);
}

async function compare(name: string, peppolXml: string, runs: number): Promise<void> {
  const plainXml = peppolXml.replace(PEPPOL_ID, 'urn:cen.eu:en16931:2017');
  const peppol = Buffer.from(peppolXml);
  const plain = Buffer.from(plainXml);
  const check = await validateBytes(peppol, 'peppol.xml');
  if (!check.valid || !check.rule_sets.includes('peppol-bis-3'))
    throw new Error(`${name}: not a valid Peppol invoice: ${JSON.stringify(check.errors.slice(0, 3))}`);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    // Interleaved, so that the machine's drift touches both alike.
    let t = performance.now();
    await validateBytes(peppol, 'peppol.xml');
    const ta = performance.now() - t;
    t = performance.now();
    await validateBytes(plain, 'plain.xml');
    const tb = performance.now() - t;
    if (i >= 5) {
      a.push(ta);
      b.push(tb);
    }
  }
  const sa = stats(a);
  const sb = stats(b);
  // CPU time per validation in batches (process.cpuUsage): on a busy machine wall time mostly measures the others.
  const batch = Math.max(5, Math.round(runs / 10));
  const cpuA: number[] = [];
  const cpuB: number[] = [];
  for (let k = 0; k < 10; k++)
    for (const [buf, out] of [
      [peppol, cpuA],
      [plain, cpuB],
    ] as const) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < batch; i++) await validateBytes(buf, 'x.xml');
      const c = process.cpuUsage(c0);
      out.push((c.user + c.system) / 1000 / batch);
    }
  const ca = stats(cpuA).median;
  const cb = stats(cpuB).median;
  const rules = getRuleSet('peppol-bis-3')!;
  const alone: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const doc = parseXml(peppol); // fresh per run: the rules keep their evaluation on the document
    const t = performance.now();
    runRules('peppol-bis-3', rules, { doc, invoice: {} as never, syntax: 'ubl' });
    if (i >= 5) alone.push(performance.now() - t);
  }
  const sr = stats(alone);
  console.log(
    `${name.padEnd(24)} Peppol validation median ${sa.median.toFixed(3)} ms (p99 ${sa.p99.toFixed(3)}), ` +
      `as plain EN 16931 UBL ${sb.median.toFixed(3)} ms (p99 ${sb.p99.toFixed(3)}): Peppol adds ${((100 * (sa.median - sb.median)) / sb.median).toFixed(1)}%; ` +
      `peppol-bis-3 alone ${sr.median.toFixed(3)} ms (p99 ${sr.p99.toFixed(3)}); CPU per validation ${ca.toFixed(3)} / ${cb.toFixed(3)} ms: ` +
      `Peppol adds ${((100 * (ca - cb)) / cb).toFixed(1)}%`,
  );
}

console.log(`Peppol BIS Billing 3.0 (${cpus().length} cores, load ${loadavg()[0].toFixed(2)})`);
const base = buildBase(BASES.be);
await compare('typical (2 lines, 7 KB)', base, RUNS);
const big = withLines(base, 1000);
await compare(`1,000 lines (${Math.round(big.length / 1024)} KB)`, big, Math.max(10, Math.round(RUNS / 15)));
