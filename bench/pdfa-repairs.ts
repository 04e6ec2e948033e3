/**
 * What the PDF/A repairs achieve and cost, on a folder of PDFs: each file is embedded the way /v1/convert does
 * (embedInvoiceXml, in process: check of the input, repairs, write), and the written PDF is checked again as the
 * convert gate does. Prints how many inputs pass PDF/A-3b before (checked as PDF/A-3) and after, the clauses still
 * unmet with their counts, each repair's use and time (median, max), and the time per file (median, p90, max) of
 * the input check, the whole embed and the output check.
 *
 *   node --import tsx bench/pdfa-repairs.ts [DIR ...]      (default: ../shared/corpus/pdfa and ../shared/corpus/zugferd)
 *   PDFA_REPAIRS_LIST=1 …                                  lists every file that still fails, with its clauses
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CORPUS } from './_fixtures.js';
import { embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';
import { checkPdfa } from '../src/pdfa/index.js';
import { buildInvoiceXml } from '../src/metadata/index.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';

function pdfsUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d).sort()) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.pdf$/i.test(e)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function main(): Promise<void> {
  const dirs = process.argv.slice(2);
  const files = (dirs.length ? dirs : [path.join(CORPUS, 'pdfa'), path.join(CORPUS, 'zugferd')]).flatMap(pdfsUnder);
  const xml = new TextEncoder().encode(buildInvoiceXml(DOMESTIC_EXAMPLE).xml);
  let before = 0;
  let after = 0;
  let refused = 0;
  const unmet = new Map<string, number>();
  const repairs = new Map<string, { used: number; changed: number; times: number[] }>();
  const embedTimes: number[] = [];
  const inputTimes: number[] = [];
  const gateTimes: number[] = [];
  const stillFailing: string[] = [];
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(file));
    const input = checkPdfa(bytes, { part: 3 });
    if (input.valid) before++;
    const t0 = performance.now();
    let out;
    try {
      out = await embedInvoiceXml(bytes, { xml, flavour: hybridFlavour('en16931'), replaceInvoiceAttachments: true });
    } catch (err) {
      refused++;
      stillFailing.push(`${path.relative(process.cwd(), file)}: refused ${(err as { code?: string }).code ?? (err as Error).message}`);
      continue;
    }
    embedTimes.push(performance.now() - t0);
    inputTimes.push(out.repairs?.inputCheckMs ?? NaN);
    for (const r of out.repairs?.runs ?? []) {
      const e = repairs.get(r.name) ?? { used: 0, changed: 0, times: [] };
      e.used++;
      if (r.changed > 0) e.changed++;
      e.times.push(r.ms);
      repairs.set(r.name, e);
    }
    const g0 = performance.now();
    const result = checkPdfa(out.pdf, { part: 3 });
    gateTimes.push(performance.now() - g0);
    if (result.valid) after++;
    else {
      const clauses = [...new Set(result.findings.map((f) => f.clause))];
      for (const c of clauses) unmet.set(c, (unmet.get(c) ?? 0) + 1);
      stillFailing.push(`${path.relative(process.cwd(), file)}: ${clauses.join(', ')}`);
    }
  }
  const n = files.length;
  console.log(
    `${n} PDFs; PDF/A-3b before (input checked as PDF/A-3): ${before}; after convert: ${after} (${((100 * after) / n).toFixed(1)} %); refused: ${refused}`,
  );
  console.log(
    'still unmet (files):',
    [...unmet]
      .sort((a, b) => b[1] - a[1])
      .map(([c, k]) => `${c} ${k}`)
      .join(', ') || 'none',
  );
  console.log('repair                     ran  changed  median     max');
  for (const [name, e] of [...repairs].sort((a, b) => b[1].used - a[1].used))
    console.log(
      `${name.padEnd(26)} ${String(e.used).padStart(4)} ${String(e.changed).padStart(8)}  ${ms(q(e.times, 0.5)).padStart(8)} ${ms(Math.max(...e.times)).padStart(8)}`,
    );
  for (const [label, xs] of [
    ['input check', inputTimes],
    ['embed (check, repairs, write)', embedTimes],
    ['output check', gateTimes],
  ] as const)
    console.log(`${label.padEnd(30)} median ${ms(q(xs, 0.5))}, p90 ${ms(q(xs, 0.9))}, max ${ms(Math.max(...xs))}`);
  if (process.env.PDFA_REPAIRS_LIST) for (const l of stillFailing) console.log(l);
}

await main();
