/**
 * Rendering (issue #32), in process: the HTML page of a typical invoice and of a 10,000-line one.
 *  1. typical: the CEN example invoices (CII and UBL), each rendered from its model (the model step and the HTML view:
 *     what /v1/render adds to reading the invoice), and end to end from the bytes (parse, read, render); the median of
 *     the per-file medians, with p99 over all runs. Target: HTML ≤ 1 ms for a typical invoice.
 *  2. 10,000-line CII and UBL invoices (bench/_fixtures.ts): median and best of the same two, the page's size, and the
 *     heap the page and its render model hold.
 *  3. the PDF view (format=pdf): the same typical invoices and the 10,000-line CII, model → PDF/A-3b (drawing, font
 *     subsetting, compression). Target: PDF ≤ 30 ms for a typical invoice.
 * KoSIT's visualisation takes ~1.5 ms warm for its model step alone (issue #32); scripts/kosit-check.ts runs it.
 * Run: node --import tsx bench/render.ts [--quick]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { ingest } from '../src/input/ingest.js';
import { renderIngested } from '../src/render/render.js';
import { cenExamples, tenThousandLineInvoices } from './_fixtures.js';
import { median, stats, timeRuns } from './_timing.js';

const quick = process.argv.includes('--quick');
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (figures taken while other work runs on the machine are noisy)`,
);

// 1. Typical invoices.
const n = quick ? 100 : 400;
const fromModel: number[] = [];
const endToEnd: number[] = [];
const allFromModel: number[] = [];
let bytesOut = 0;
const examples = cenExamples();
for (const file of examples) {
  const bytes = readFileSync(file);
  const ing = await ingest(bytes);
  await timeRuns(50, () => renderIngested(ing, { lang: 'de' }));
  const m = await timeRuns(n, () => renderIngested(ing, { lang: 'de' }));
  allFromModel.push(...m);
  fromModel.push(median(m));
  await timeRuns(50, async () => renderIngested(await ingest(bytes), { lang: 'de' }));
  endToEnd.push(median(await timeRuns(n, async () => renderIngested(await ingest(bytes), { lang: 'de' }))));
  bytesOut += renderIngested(ing, { lang: 'de' }).html.length;
}
console.log(
  `render typical CEN examples (${examples.length}, median page ${Math.round(bytesOut / examples.length / 1024)} KB): ` +
    `model → HTML median of medians ${median(fromModel).toFixed(3)} ms (p99 of all runs ${stats(allFromModel).p99.toFixed(3)} ms); ` +
    `bytes → HTML (parse, read, render) ${median(endToEnd).toFixed(3)} ms`,
);

// 2. 10,000-line invoices.
const runs = quick ? 5 : 9;
for (const [syntax, bytes] of Object.entries(tenThousandLineInvoices())) {
  const ing = await ingest(bytes);
  renderIngested(ing); // warm-up
  const cpuStart = process.cpuUsage();
  const model = await timeRuns(runs, () => renderIngested(ing, { lang: 'de' }));
  const cpu = process.cpuUsage(cpuStart);
  const cpuPerRun = (cpu.user + cpu.system) / 1000 / runs;
  const whole = await timeRuns(runs, async () => renderIngested(await ingest(bytes), { lang: 'de' }));
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  const page = renderIngested(ing, { lang: 'de' });
  const held = process.memoryUsage().heapUsed - before;
  console.log(
    `render 10,000-line ${syntax.toUpperCase()} (${(bytes.length / 2 ** 20).toFixed(1)} MB XML → ${(page.html.length / 2 ** 20).toFixed(1)} MB page, ${page.lines.shown} lines): ` +
      `model → HTML median ${median(model).toFixed(0)} ms, best ${Math.min(...model).toFixed(0)} ms (CPU ${cpuPerRun.toFixed(0)} ms a run, all threads); bytes → HTML median ${median(whole).toFixed(0)} ms` +
      (global.gc ? `; heap grown by the page ${(held / 2 ** 20).toFixed(0)} MB` : ''),
  );
}

// 3. The PDF view.
const pdfMedians: number[] = [];
const allPdf: number[] = [];
let pdfBytes = 0;
for (const file of examples) {
  const ing = await ingest(readFileSync(file));
  await timeRuns(5, () => renderIngested(ing, { lang: 'de', format: 'pdf' }));
  const m = await timeRuns(quick ? 10 : 30, () => renderIngested(ing, { lang: 'de', format: 'pdf' }));
  allPdf.push(...m);
  pdfMedians.push(median(m));
  const page = await renderIngested(ing, { lang: 'de', format: 'pdf' });
  if (page.format === 'pdf') pdfBytes += page.pdf.length;
}
console.log(
  `render PDF typical CEN examples (${examples.length}, median document ${Math.round(pdfBytes / examples.length / 1024)} KB): ` +
    `model → PDF/A-3b median of medians ${median(pdfMedians).toFixed(1)} ms (p99 of all runs ${stats(allPdf).p99.toFixed(1)} ms)`,
);
{
  const ing = await ingest(tenThousandLineInvoices().cii);
  const m = await timeRuns(quick ? 2 : 3, () => renderIngested(ing, { lang: 'de', format: 'pdf' }));
  const page = await renderIngested(ing, { lang: 'de', format: 'pdf' });
  if (page.format === 'pdf')
    console.log(
      `render PDF 10,000-line CII (${page.lines.shown} lines → ${page.pages} pages, ${(page.pdf.length / 2 ** 20).toFixed(1)} MB): ` +
        `model → PDF/A-3b median ${median(m).toFixed(0)} ms, best ${Math.min(...m).toFixed(0)} ms`,
    );
}
