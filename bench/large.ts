/**
 * Large invoices, in process only (issues 4 and 5), quick enough to run after every change:
 *  1. validateBytes on a 10,000-line CII and UBL invoice (lines of the CEN example 1, built as in
 *     bench/validate.ts), with a breakdown: parse+read, XSD layer, each applicable rule set;
 *  2. ingest + toExtractionResult on the 10,000-line CII of bench/extract.ts;
 *  3. the typical CEN examples: median of the per-file medians of validateBytes, and of the
 *     extraction of every example (so a change for large files cannot hide a loss on small ones).
 * Run: node --import tsx bench/large.ts [--quick]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { ingest } from '../src/input/ingest.js';
import { toExtractionResult } from '../src/extract/result.js';
import { getRuleSet, runRules } from '../src/rules/engine.js';
import { applicableRuleSets, validateBytes } from '../src/validation/validate.js';
import { runXsdLayer } from '../src/validation/xsd-layer.js';
import { ciiWithLines } from './extract.js';
import { cenExamples, tenThousandLineInvoices } from './_fixtures.js';
import { median, timeRuns } from './_timing.js';

const quick = process.argv.includes('--quick');
const examples = cenExamples();

console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

// 1. 10,000-line validation.
const big = tenThousandLineInvoices();
const runs = quick ? 5 : 9;
for (const [syntax, bytes] of Object.entries(big)) {
  await validateBytes(bytes); // warm-up
  const whole = await timeRuns(runs, () => validateBytes(bytes));
  const parts = new Map<string, number[]>();
  const add = (k: string, v: number) => parts.set(k, [...(parts.get(k) ?? []), v]);
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    const r = await ingest(bytes);
    add('parse+read', performance.now() - t);
    t = performance.now();
    runXsdLayer({ xmlBytes: bytes, syntax: r.syntax as 'cii' | 'ubl', profile: r.profile, doc: r.doc });
    add('XSD', performance.now() - t);
    for (const set of applicableRuleSets(r.syntax as 'cii' | 'ubl', r.guideline)) {
      t = performance.now();
      runRules(set, getRuleSet(set)!, { doc: r.doc!, invoice: r.invoice!, syntax: r.syntax as 'cii' | 'ubl' });
      add(set, performance.now() - t);
    }
  }
  const breakdown = [...parts].map(([k, v]) => `${k} ${median(v).toFixed(0)}`).join(', ');
  console.log(
    `validate 10,000-line ${syntax.toUpperCase()} (${(bytes.length / 2 ** 20).toFixed(1)} MB): median ${median(whole).toFixed(0)} ms, best ${Math.min(...whole).toFixed(0)} ms (${breakdown}; sets alone, no shared memo)`,
  );
}

// 2. 10,000-line extraction.
const bigExtract = Buffer.from(ciiWithLines(10_000));
for (let i = 0; i < 2; i++) toExtractionResult(await ingest(bigExtract));
const extractTimes = await timeRuns(runs, async () => toExtractionResult(await ingest(bigExtract)));
const readTimes = await timeRuns(runs, () => ingest(bigExtract));
console.log(
  `extract 10,000-line CII (${(bigExtract.length / 2 ** 20).toFixed(1)} MB): median ${median(extractTimes).toFixed(0)} ms, best ${Math.min(...extractTimes).toFixed(0)} ms (parse+read ${median(readTimes).toFixed(0)} ms)`,
);

// 3. Typical invoices.
const n = quick ? 60 : 200;
const validateMedians: number[] = [];
const extractMedians: number[] = [];
for (const file of examples) {
  const bytes = readFileSync(file);
  await timeRuns(30, () => validateBytes(bytes));
  validateMedians.push(median(await timeRuns(n, () => validateBytes(bytes))));
  await timeRuns(30, async () => toExtractionResult(await ingest(bytes)));
  extractMedians.push(median(await timeRuns(n, async () => toExtractionResult(await ingest(bytes)))));
}
console.log(
  `typical CEN examples (${examples.length}): median of medians validate ${median(validateMedians).toFixed(3)} ms, extract ${median(extractMedians).toFixed(3)} ms`,
);
