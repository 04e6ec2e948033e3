/**
 * Batch throughput of `einvoice validate` (the CLI's worker pool, src/cli/pool.ts) over the corpus's XML and PDF
 * invoices, with 1 and 2 jobs: files/s end to end (thread start-up included), files/s in steady state (from the
 * first result to the last), CPU per file (the whole process: main thread, workers and V8's helper threads), the
 * same over the second half of the run (threads started and warm), percentiles of the time a file takes in its
 * worker, and on Linux where the CPU went (per thread, from /proc). CPU per file is what to compare on a loaded
 * machine: a quiet 2-core machine runs min(2, jobs) / (CPU per file) files per ms at best. Each set is repeated to
 * at least MIN_FILES files, and the XML set once more to LONG_FILES with 2 jobs, in the pool and then through the
 * command itself (two node processes, listing and output included); then, where it can run here, the official EN
 * 16931 Schematron on a warm JVM over the same XML files (officialSchematron below). Run: npm run bench:cli
 * (EINVOICE_CORPUS overrides the corpus folder; build first,
 * `npm run build`, to measure the compiled workers the package ships).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileOutcome } from '../src/cli/outcome.js';

const CORPUS = resolve(process.env.EINVOICE_CORPUS ?? '../shared/corpus');
const MIN_FILES = Number(process.env.MIN_FILES ?? 4000);
/** The XML set's long batch with 2 jobs (0: none). */
const LONG_FILES = Number(process.env.LONG_FILES ?? 20_000);

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
  /** CPU per file over the second half of the files (threads warm). */
  warmCpuMsPerFile: number;
  startupMs: number;
  /** Per-file time in the worker (read + validate), ms: p50, p90, p99. */
  fileMs: [number, number, number];
  /** CPU per file by thread: main, validation workers, V8's helpers (JIT compiler, GC); Linux only. */
  threads?: { main: number; workers: number; helpers: number };
  statuses: Record<string, number>;
}

/** The fields of a /proc stat file after the command name: state is [0], utime [11], stime [12], cutime [13], cstime [14] (10 ms ticks). */
function procStat(path: string): string[] {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU ms of each thread of this process (utime + stime from /proc, 10 ms ticks), or undefined off Linux. */
function threadCpu(): Map<string, number> | undefined {
  if (!existsSync('/proc/self/task')) return undefined;
  const out = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const f = procStat(`/proc/self/task/${tid}/stat`);
      out.set(tid, (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // the thread ended
    }
  }
  return out;
}

async function measure(files: string[], jobs: number): Promise<Figures> {
  const before = threadCpu();
  const last = new Map(before);
  const sample = () => {
    for (const [tid, ms] of threadCpu() ?? []) last.set(tid, ms);
  };
  const sampler = before ? setInterval(sample, 250) : undefined; // worker threads' figures vanish when they end
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let first = 0;
  let lastAt = 0;
  let done = 0;
  let cpuHalf = cpu0;
  const ms: number[] = [];
  const statuses: Record<string, number> = {};
  await runPool(files, { jobs, options: {}, maxBytes: 100 * 1024 * 1024, timeoutMs: 60_000 }, (_i, o: FileOutcome) => {
    const now = performance.now();
    if (first === 0) first = now;
    lastAt = now;
    if (++done === files.length >> 1) cpuHalf = process.cpuUsage();
    ms.push(o.ms);
    statuses[o.status] = (statuses[o.status] ?? 0) + 1;
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSecondHalf = process.cpuUsage(cpuHalf);
  clearInterval(sampler);
  let threads: Figures['threads'];
  if (before) {
    sample();
    const t = { main: 0, workers: 0, helpers: 0 };
    for (const [tid, cpuMs] of last) {
      const d = cpuMs - (before.get(tid) ?? 0);
      if (tid === String(process.pid)) t.main += d;
      else if (before.has(tid))
        t.helpers += d; // V8's platform threads exist before the run
      else t.workers += d;
    }
    threads = { main: t.main / files.length, workers: t.workers / files.length, helpers: t.helpers / files.length };
  }
  ms.sort((a, b) => a - b);
  const pct = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  return {
    files: files.length,
    seconds,
    steadyRate: (files.length - 1) / ((lastAt - first) / 1000),
    cpuMsPerFile: (cpu.user + cpu.system) / 1000 / files.length,
    warmCpuMsPerFile: (cpuSecondHalf.user + cpuSecondHalf.system) / 1000 / (files.length - (files.length >> 1)),
    startupMs: first - t0,
    fileMs: [pct(0.5), pct(0.9), pct(0.99)],
    threads,
    statuses,
  };
}

/**
 * How much of two cores the machine gives right now: the same fixed loop of integer arithmetic in one thread, then
 * in two at once; the ratio of the work done per second (2.0 on two idle cores). This VM's speed drifts from minute
 * to minute and at times its second core does little (2 jobs once validated no faster than one here), so each set's
 * figures are printed with the loop's rate and the ratio measured just before them.
 */
async function twoCoreRatio(): Promise<string> {
  const code = `const { parentPort } = require('node:worker_threads');
    let x = 1, n = 0; const t0 = performance.now();
    while (performance.now() - t0 < 400) { for (let i = 0; i < 1e5; i++) x = (x * 1103515245 + 12345) | 0; n++; }
    parentPort.postMessage({ rate: n / ((performance.now() - t0) / 1000), x });`;
  const spin = () =>
    new Promise<number>((done, fail) => {
      const w = new Worker(code, { eval: true });
      w.once('message', (m: { rate: number }) => done(m.rate));
      w.once('error', fail);
    });
  const one = await spin();
  const two = await Promise.all([spin(), spin()]);
  return `a fixed loop ${one.toFixed(0)} times/s in one thread, two threads do ${((two[0] + two[1]) / one).toFixed(2)}x that`;
}

function repeated(files: string[], count: number): string[] {
  const out: string[] = [];
  while (out.length < count) out.push(...files);
  return out;
}

if (!existsSync(CORPUS)) {
  console.log(`no corpus at ${CORPUS}; set EINVOICE_CORPUS`);
  process.exit(0);
}
// The compiled pool and workers (what the package ships) when built, else the sources through tsx.
const DIST_POOL = new URL('../dist/src/cli/pool.js', import.meta.url);
const compiled = existsSync(DIST_POOL) ? 'compiled (dist/)' : 'sources through tsx (run npm run build first)';
const { runPool, BATCH_NODE_FLAGS, batchProcessWanted } = (await import(
  existsSync(DIST_POOL) ? DIST_POOL.href : '../src/cli/pool.js'
)) as typeof import('../src/cli/pool.js');
// `einvoice validate` runs a batch of 1,000 files or more in a process started with BATCH_NODE_FLAGS: so does this
// benchmark (EINVOICE_V8_DEFAULTS=1 measures V8's defaults, as it does for the CLI).
if (batchProcessWanted()) {
  const run = spawnSync(
    process.execPath,
    [...process.execArgv, ...BATCH_NODE_FLAGS, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(run.status ?? 1);
}
console.log(`node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(2)}; workers: ${compiled}`);

const sets: [string, string[]][] = [
  [
    'XML (CEN examples + XRechnung instances)',
    [...walk(join(CORPUS, 'en16931/examples'), /\.xml$/i), ...walk(join(CORPUS, 'xrechnung/instances'), /\.xml$/i)],
  ],
  ['PDF (zugferd + fr-ctc Factur-X)', [...walk(join(CORPUS, 'zugferd'), /\.pdf$/i), ...walk(join(CORPUS, 'fr-ctc'), /\.pdf$/i)]],
];

function line(label: string, f: Figures): string {
  return (
    `  ${label}: ${(f.files / f.seconds).toFixed(0)} files/s end to end (${f.seconds.toFixed(2)} s, thread start ${f.startupMs.toFixed(0)} ms), ` +
    `${f.steadyRate.toFixed(0)} files/s steady; CPU ${f.cpuMsPerFile.toFixed(3)} ms/file (second half ${f.warmCpuMsPerFile.toFixed(3)})` +
    (f.threads
      ? ` = main ${f.threads.main.toFixed(2)} + workers ${f.threads.workers.toFixed(2)} + V8 helpers ${f.threads.helpers.toFixed(2)}`
      : '') +
    `; per file in its worker p50 ${f.fileMs[0].toFixed(2)} / p90 ${f.fileMs[1].toFixed(2)} / p99 ${f.fileMs[2].toFixed(2)} ms; ${JSON.stringify(f.statuses)}`
  );
}

for (const [name, unique] of sets) {
  const files = repeated(unique, MIN_FILES);
  console.log(`\n${name}: ${unique.length} files, repeated to ${files.length} (machine: ${await twoCoreRatio()})`);
  const byJobs: Record<number, Figures> = {};
  for (const jobs of [1, 2]) {
    await measure(files.slice(0, 200), jobs); // warm the page cache
    byJobs[jobs] = await measure(files, jobs);
    console.log(line(`${jobs} job${jobs > 1 ? 's' : ' '}`, byJobs[jobs]));
  }
  console.log(
    `  2 jobs / 1 job: ${(byJobs[1].seconds / byJobs[2].seconds).toFixed(2)}x end to end, ${(byJobs[2].steadyRate / byJobs[1].steadyRate).toFixed(2)}x steady, CPU per file ${(byJobs[2].cpuMsPerFile / byJobs[1].cpuMsPerFile).toFixed(2)}x`,
  );
}

// A longer batch: thread start-up and the JIT's warm-up weigh less (the first half of a 4,000-file run costs about
// twice the CPU per file of the second).
if (LONG_FILES > 0) {
  const files = repeated(sets[0][1], LONG_FILES);
  console.log(`\n${sets[0][0]}, a long batch: repeated to ${files.length} (machine: ${await twoCoreRatio()})`);
  console.log(line('2 jobs', await measure(files, 2)));
  commandEndToEnd(files);
}
officialSchematron(sets[0][1]);

/** CPU ms of this process's ended children (and theirs): cutime + cstime from /proc, or NaN off Linux. */
function childrenCpuMs(): number {
  if (!existsSync('/proc/self/stat')) return Number.NaN;
  const f = procStat('/proc/self/stat');
  return (Number(f[13]) + Number(f[14])) * 10;
}

/**
 * What a user sees: the installed command (`einvoice validate --jobs 2 --format json FOLDER`, compiled) over a folder
 * of the same files (symbolic links, made here and removed after), timed from its start to its exit: two node
 * processes (the command and its batch process), listing the folder, and writing 20,000 JSON lines included.
 */
function commandEndToEnd(files: string[]): void {
  const bin = fileURLToPath(new URL('../bin/einvoice.js', import.meta.url));
  if (!existsSync(DIST_POOL)) {
    console.log('  (the command end to end needs the build: npm run build)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-bench-'));
  try {
    files.forEach((f, i) => {
      if (i % 1000 === 0) mkdirSync(join(dir, String(i / 1000).padStart(3, '0')));
      symlinkSync(resolve(f), join(dir, String(Math.floor(i / 1000)).padStart(3, '0'), `${String(i).padStart(6, '0')}.xml`));
    });
    const cpu0 = childrenCpuMs();
    const t0 = performance.now();
    const run = spawnSync(process.execPath, [bin, 'validate', '--jobs', '2', '--format', 'json', '--quiet', dir], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: process.env,
    });
    const seconds = (performance.now() - t0) / 1000;
    if (run.status !== 0 && run.status !== 1) throw new Error(`einvoice validate exited with ${run.status ?? run.signal}`);
    const cpuMs = childrenCpuMs() - cpu0;
    console.log(
      `  the command, einvoice validate --jobs 2 --format json on a folder of them: ${(files.length / seconds).toFixed(0)} files/s end to end (${seconds.toFixed(2)} s from start to exit)` +
        (Number.isNaN(cpuMs) ? '' : `; CPU ${(cpuMs / files.length).toFixed(3)} ms/file (both processes)`),
    );
  } catch (err) {
    console.log(`  (the command end to end was not measured: ${(err as Error).message})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The official EN 16931 Schematron on a warm JVM over the same XML files (bench/schematron/SchematronBench.java),
 * when it can run here: the CEN validation artefacts' compiled XSLT (a checkout or release of
 * github.com/ConnectingEurope/eInvoicing-EN16931, named by EN16931_ARTEFACTS: cii/xslt/EN16931-CII-validation.xslt
 * and ubl/xslt/EN16931-UBL-validation.xslt; not part of this repository), Saxon-HE (SAXON_JAR, default Debian's
 * libsaxonhe-java, which scripts/install-bench-tools.sh installs) and a JDK (java, javac). It runs the EN 16931
 * rules only: no XSD and none of the XRechnung rules, which the CLI's figures above include.
 */
function officialSchematron(unique: string[]): void {
  const artefacts = process.env.EN16931_ARTEFACTS;
  const saxon = process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar';
  const xslt = (syntax: string) => join(artefacts ?? '', syntax, 'xslt', `EN16931-${syntax.toUpperCase()}-validation.xslt`);
  const missing = (): string | undefined => {
    if (!artefacts) return 'set EN16931_ARTEFACTS to a checkout of the CEN validation artefacts';
    if (![xslt('cii'), xslt('ubl')].every((f) => existsSync(f))) return `no cii/xslt and ubl/xslt stylesheets under ${artefacts}`;
    if (!existsSync(saxon)) return `no Saxon-HE jar at ${saxon} (SAXON_JAR)`;
    if (spawnSync('javac', ['-version']).status !== 0) return 'no javac';
    return undefined;
  };
  console.log(`\nThe official EN 16931 Schematron (XSLT, Saxon-HE) on a warm JVM, the same ${unique.length} XML files:`);
  const why = missing();
  if (why) {
    console.log(`  not run: ${why}`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-schematron-'));
  try {
    const source = fileURLToPath(new URL('./schematron/SchematronBench.java', import.meta.url));
    const javac = spawnSync('javac', ['-cp', saxon, '-d', dir, source], { encoding: 'utf8' });
    if (javac.status !== 0) throw new Error(`javac: ${javac.stderr}`);
    const list = join(dir, 'files.txt');
    writeFileSync(list, unique.map((f) => resolve(f)).join('\n'));
    const warmup = Number(process.env.SCHEMATRON_WARMUP ?? 25);
    const passes = Number(process.env.SCHEMATRON_PASSES ?? 5);
    for (const jobs of [1, 2]) {
      const run = spawnSync(
        'java',
        ['-cp', `${saxon}:${dir}`, 'SchematronBench', xslt('cii'), xslt('ubl'), list, String(jobs), String(warmup), String(passes)],
        { encoding: 'utf8', maxBuffer: 1 << 20 },
      );
      if (run.status !== 0) throw new Error(`java: ${run.stderr}`);
      const r = JSON.parse(run.stdout) as { files: number; filesPerSecond: number; cpuMsPerFile: number; fatalFiles: number };
      console.log(
        `  ${jobs} thread${jobs > 1 ? 's' : ' '}: ${r.filesPerSecond.toFixed(0)} files/s, CPU ${r.cpuMsPerFile.toFixed(3)} ms/file ` +
          `(${passes} pass${passes === 1 ? '' : 'es'} timed after ${warmup} to warm the JIT; ${r.fatalFiles} of ${unique.length} files with a fatal assert)`,
      );
    }
  } catch (err) {
    console.log(`  not measured: ${(err as Error).message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
