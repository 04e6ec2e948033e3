/**
 * UBL writing and CII ⇄ UBL conversion, in-process, for a typical invoice (10 lines) and a 1,000-line one.
 *
 * 1. Writing: the EN 16931 model (computed from metadata once) → UBL 2.1 XML with writeUbl(), beside writeCii() on the
 *    same model (targets as the CII side: ≤ 0.1 ms and ≤ 10 ms).
 * 2. Conversion: transform() as the library runs it, bytes in (ingest: parse, detect, read the model), the other
 *    syntax out with the dropped list (the source rewritten and compared, the target read back and compared); and,
 *    to show what that accounting costs, the bare path (parse, read, write) without it.
 *
 * Prints median, p95 and p99 of the wall time and the mean CPU time (all threads: GC included) per case, and the ratios. Run: node --import tsx bench/ubl.ts [ms per case, default 3000]
 */
import { ingest } from '../src/input/ingest.js';
import { buildInvoice } from '../src/metadata/build.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import type { InvoiceMetadata } from '../src/metadata/schema.js';
import { parseMetadata } from '../src/metadata/validate.js';
import type { Invoice } from '../src/model/invoice.js';
import { readCii } from '../src/syntax/cii/reader.js';
import { writeCii } from '../src/syntax/cii/writer.js';
import { readUbl } from '../src/syntax/ubl/reader.js';
import { writeUbl } from '../src/syntax/ubl/writer.js';
import { transformIngested } from '../src/transform/transform.js';
import { parseXml } from '../src/xml/dom.js';

const budgetMs = Math.max(200, Math.min(60_000, Number(process.argv[2] ?? 3000)));

function invoiceWithLines(n: number): InvoiceMetadata {
  const rates = ['19', '7'];
  return {
    ...DOMESTIC_EXAMPLE,
    invoice_number: `BENCH-${n}`,
    line_items: Array.from({ length: n }, (_, i) => ({
      name: `Article ${i + 1}`,
      description: `Description of article ${i + 1}`,
      seller_item_id: `ART-${String(i + 1).padStart(5, '0')}`,
      quantity: String((i % 7) + 1),
      unit_code: 'C62',
      net_price: `${(i % 50) + 1}.${String(i % 100).padStart(2, '0')}`,
      vat_rate: rates[i % 2],
    })),
  };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Median (ms) of `fn` run for the budget, after a warm-up; prints a line. */
async function measure(label: string, fn: () => unknown): Promise<number> {
  const warm = performance.now();
  while (performance.now() - warm < Math.min(500, budgetMs / 4)) await fn();
  const times: number[] = [];
  const start = performance.now();
  // CPU time beside wall time: on a shared machine the wall time includes waiting for a core.
  const cpu0 = process.cpuUsage();
  while (times.length < 20 || performance.now() - start < budgetMs) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuPerRun = (cpu.user + cpu.system) / 1000 / times.length;
  times.sort((a, b) => a - b);
  const median = pct(times, 50);
  console.log(
    `${label.padEnd(46)} runs ${String(times.length).padStart(6)}  median ${median.toFixed(3)} ms  p95 ${pct(times, 95).toFixed(3)} ms  p99 ${pct(times, 99).toFixed(3)} ms  CPU ${cpuPerRun.toFixed(3)} ms/run`,
  );
  return median;
}

/** parse → read → write, without the dropped-list accounting. */
function bare(bytes: Uint8Array, to: 'cii' | 'ubl'): string {
  const root = parseXml(bytes).root;
  const model: Invoice = root.local === 'CrossIndustryInvoice' ? readCii(root) : readUbl(root);
  return to === 'ubl' ? writeUbl(model) : writeCii(model, 'en16931');
}

for (const lines of [10, 1000]) {
  const { invoice } = buildInvoice(parseMetadata(invoiceWithLines(lines)));
  const cii = writeCii(invoice, 'en16931');
  const ubl = writeUbl(invoice);
  console.log(`\n${lines} lines: CII ${(cii.length / 1024).toFixed(1)} KiB, UBL ${(ubl.length / 1024).toFixed(1)} KiB`);
  const wUbl = await measure(`write UBL (writeUbl, model → XML)`, () => writeUbl(invoice));
  const wCii = await measure(`write CII (writeCii, model → XML)`, () => writeCii(invoice, 'en16931'));
  console.log(
    `  UBL / CII writing: ${(wUbl / wCii).toFixed(2)}x; target ${lines === 10 ? '≤ 0.1 ms' : '≤ 10 ms'}: ${wUbl <= (lines === 10 ? 0.1 : 10) ? 'met' : 'NOT met'}`,
  );
  const ciiBytes = new TextEncoder().encode(cii);
  const ublBytes = new TextEncoder().encode(ubl);
  const c2u = await measure('transform CII → UBL (library, with dropped list)', async () =>
    transformIngested(await ingest(ciiBytes), { to: 'ubl' }),
  );
  const u2c = await measure('transform UBL → CII (library, with dropped list)', async () =>
    transformIngested(await ingest(ublBytes), { to: 'cii' }),
  );
  const c2uBare = await measure('CII → UBL bare (parse, read, write)', () => bare(ciiBytes, 'ubl'));
  const u2cBare = await measure('UBL → CII bare (parse, read, write)', () => bare(ublBytes, 'cii'));
  console.log(
    `  the dropped-list accounting: CII → UBL ${(c2u / c2uBare).toFixed(2)}x the bare path, UBL → CII ${(u2c / u2cBare).toFixed(2)}x`,
  );
}
