/**
 * Batch throughput of `einvoice validate` (the CLI's worker pool, src/cli/pool.ts) over the corpus's XML and PDF
 * invoices, with 1 and 2 jobs: files/s end to end (thread start-up included), files/s in steady state (from the
 * first result to the last), and CPU per file (the whole process: main thread and workers). Each set is repeated
 * to at least MIN_FILES files, so the steady state dominates. Run: npm run bench:cli (EINVOICE_CORPUS overrides
 * the corpus folder; build first, `npm run build`, to measure the compiled workers the package ships).
 */
import { existsSync, readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { FileOutcome } from '../src/cli/outcome.js';

const CORPUS = resolve(process.env.EINVOICE_CORPUS ?? '../shared/corpus');
const MIN_FILES = Number(process.env.MIN_FILES ?? 4000);

function walk(dir: string, ext: RegExp, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, ext, out);
    else if (ext.test(e.name)) out.push(p);
  }
  return out;
}

interface Figures {
  files: number;
  seconds: number;
  steadyRate: number;
  cpuMsPerFile: number;
  startupMs: number;
  statuses: Record<string, number>;
}

async function measure(files: string[], jobs: number): Promise<Figures> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let first = 0;
  let last = 0;
  const statuses: Record<string, number> = {};
  await runPool(files, { jobs, options: {}, maxBytes: 100 * 1024 * 1024, timeoutMs: 60_000 }, (_i, o: FileOutcome) => {
    const now = performance.now();
    if (first === 0) first = now;
    last = now;
    statuses[o.status] = (statuses[o.status] ?? 0) + 1;
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    files: files.length,
    seconds,
    steadyRate: (files.length - 1) / ((last - first) / 1000),
    cpuMsPerFile: (cpu.user + cpu.system) / 1000 / files.length,
    startupMs: first - t0,
    statuses,
  };
}

function repeated(files: string[]): string[] {
  const out: string[] = [];
  while (out.length < MIN_FILES) out.push(...files);
  return out;
}

if (!existsSync(CORPUS)) {
  console.log(`no corpus at ${CORPUS}; set EINVOICE_CORPUS`);
  process.exit(0);
}
// The compiled pool and workers (what the package ships) when built, else the sources through tsx.
const DIST_POOL = new URL('../dist/src/cli/pool.js', import.meta.url);
const compiled = existsSync(DIST_POOL) ? 'compiled (dist/)' : 'sources through tsx (run npm run build first)';
const { runPool } = (await import(existsSync(DIST_POOL) ? DIST_POOL.href : '../src/cli/pool.js')) as typeof import('../src/cli/pool.js');
console.log(`node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(2)}; workers: ${compiled}`);

const sets: [string, string[]][] = [
  [
    'XML (CEN examples + XRechnung instances)',
    [...walk(join(CORPUS, 'en16931/examples'), /\.xml$/i), ...walk(join(CORPUS, 'xrechnung/instances'), /\.xml$/i)],
  ],
  ['PDF (zugferd + fr-ctc Factur-X)', [...walk(join(CORPUS, 'zugferd'), /\.pdf$/i), ...walk(join(CORPUS, 'fr-ctc'), /\.pdf$/i)]],
];

for (const [name, unique] of sets) {
  const files = repeated(unique);
  console.log(`\n${name}: ${unique.length} files, repeated to ${files.length}`);
  const byJobs: Record<number, Figures> = {};
  for (const jobs of [1, 2]) {
    await measure(files.slice(0, 200), jobs); // warm the page cache
    const f = await measure(files, jobs);
    byJobs[jobs] = f;
    console.log(
      `  ${jobs} job${jobs > 1 ? 's' : ' '}: ${(f.files / f.seconds).toFixed(0)} files/s end to end (${f.seconds.toFixed(2)} s, thread start ${f.startupMs.toFixed(0)} ms), ` +
        `${f.steadyRate.toFixed(0)} files/s steady, CPU ${f.cpuMsPerFile.toFixed(3)} ms/file; ${JSON.stringify(f.statuses)}`,
    );
  }
  console.log(
    `  2 jobs / 1 job: ${(byJobs[1].seconds / byJobs[2].seconds).toFixed(2)}x end to end, ${(byJobs[2].steadyRate / byJobs[1].steadyRate).toFixed(2)}x steady, CPU per file ${(byJobs[2].cpuMsPerFile / byJobs[1].cpuMsPerFile).toFixed(2)}x`,
  );
}
