/**
 * Validation benchmark (issue 5). Prints:
 *  1. in-process time per CEN example invoice (median, p99): the whole pipeline (validateBytes:
 *     parse, read, XSD, every applicable rule set) and the EN 16931 rule sets alone on a freshly
 *     read document (syntax binding rules + business rules);
 *  2. a generated 10,000-line invoice (CII and UBL);
 *  3. POST /v1/validate over HTTP on 127.0.0.1 at concurrency 8 (autocannon in this process, then wrk
 *     when it is installed, see bench/_wrk.ts; the server in its own process), with the default
 *     configuration (typical invoices inline, worker pool for large ones), with everything in the pool
 *     (VALIDATION_INLINE_MAX_KB=0) and with two server processes (PROCESSES=2): requests/s, latency,
 *     server CPU per request, the load generator's CPU per request, and the server's peak memory under
 *     that load (RSS and PSS, all its threads and processes; see bench/_server.ts).
 * Run: node --import tsx bench/validate.ts [--quick] [--in-process (skip 3.)]
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ingest } from '../src/input/ingest.js';
import { getRuleSet, runRules } from '../src/rules/engine.js';
import { validateBytes } from '../src/validation/validate.js';
import { runXsdLayer } from '../src/validation/xsd-layer.js';
import { autocannon, memoryText, SERVER_NODE_FLAGS, startServer, type BenchServer } from './_server.js';
import { wrkAvailable, wrkPost } from './_wrk.js';
import { cenExamples, CORPUS, multipartForm, tenThousandLineInvoices } from './_fixtures.js';
import { stats, timeRuns } from './_timing.js';

const quick = process.argv.includes('--quick');
const examples = cenExamples();

const timeIt = (n: number, fn: () => unknown) => timeRuns(n, fn, Math.min(50, n));

const ms = (v: number) => v.toFixed(3).padStart(8);

if (process.argv.includes('--http-child')) {
  await httpBenchmark();
  process.exit(0);
}

// HTTP first, in a fresh child process, so that its RSS is the server's and not this process's.
if (!process.argv.includes('--in-process')) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', 'bench/validate.ts', '--http-child', ...(quick ? ['--quick'] : [])], {
    stdio: 'inherit',
  });
  if (child.status !== 0) process.exitCode = 1;
}

// 1. In-process, per example.
console.log('In-process, per CEN example (ms): whole pipeline | EN 16931 rule sets on a fresh read');
console.log(
  `${'file'.padEnd(48)} ${'KB'.padStart(5)} ${'median'.padStart(8)} ${'p99'.padStart(8)} | ${'median'.padStart(8)} ${'p99'.padStart(8)}`,
);
const n = quick ? 100 : 400;
const allPipeline: number[] = [];
const allRules: number[] = [];
for (const file of examples) {
  const bytes = readFileSync(file);
  const pipeline = await timeIt(n, () => validateBytes(bytes));
  // Rules alone: documents read beforehand, each used once (no per-document cache is warm).
  const reads = await Promise.all(Array.from({ length: n + 50 }, () => ingest(bytes)));
  let k = 0;
  const rules = await timeIt(n, () => {
    const r = reads[k++];
    const set = r.syntax === 'cii' ? 'en16931-cii' : 'en16931-ubl';
    return runRules(set, getRuleSet(set)!, { doc: r.doc!, invoice: r.invoice!, syntax: r.syntax as 'cii' | 'ubl' });
  });
  const p = stats(pipeline);
  const r = stats(rules);
  allPipeline.push(p.median);
  allRules.push(r.median);
  console.log(
    `${path.relative(CORPUS, file).slice(0, 48).padEnd(48)} ${(bytes.length / 1024).toFixed(0).padStart(5)} ${ms(p.median)} ${ms(p.p99)} | ${ms(r.median)} ${ms(r.p99)}`,
  );
}
console.log(
  `median of medians: whole pipeline ${stats(allPipeline).median.toFixed(3)} ms, EN 16931 rule sets ${stats(allRules).median.toFixed(3)} ms`,
);

// 2. A 10,000-line invoice.
const big = tenThousandLineInvoices();
for (const [syntax, bytes] of Object.entries(big)) {
  const runs = quick ? 3 : 5;
  const whole: number[] = [];
  const parts = { read: [] as number[], xsd: [] as number[], en16931: [] as number[] };
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await validateBytes(bytes);
    whole.push(performance.now() - t);
    t = performance.now();
    const r = await ingest(bytes);
    parts.read.push(performance.now() - t);
    t = performance.now();
    runXsdLayer({ xmlBytes: bytes, syntax: r.syntax as 'cii' | 'ubl', profile: r.profile, doc: r.doc });
    parts.xsd.push(performance.now() - t);
    const set = r.syntax === 'cii' ? 'en16931-cii' : 'en16931-ubl';
    t = performance.now();
    runRules(set, getRuleSet(set)!, { doc: r.doc!, invoice: r.invoice!, syntax: r.syntax as 'cii' | 'ubl' });
    parts.en16931.push(performance.now() - t);
  }
  const med = (a: number[]) => stats(a).median.toFixed(0);
  console.log(
    `10,000-line ${syntax.toUpperCase()} invoice (${(bytes.length / 1024 / 1024).toFixed(1)} MB): whole pipeline median ${med(whole)} ms ` +
      `(parse+read ${med(parts.read)} ms, XSD ${med(parts.xsd)} ms, EN 16931 rule sets ${med(parts.en16931)} ms)`,
  );
}

/** What a load generator reports of one run; `clientMs` is its own CPU time. */
interface LoadRun {
  requestsPerSecond: number;
  requests: number;
  non2xx: number;
  errors: number;
  latency: string;
  clientMs: number;
}

/** One load run against `server`, printed with the server's CPU time per request and its peak memory during the run. */
async function measured(server: BenchServer, what: string, generator: string, run: () => Promise<LoadRun>): Promise<void> {
  const cpu0 = server.cpuMs();
  const peakMemory = server.sampleMemory();
  const r = await run();
  const serverMs = server.cpuMs() - cpu0;
  console.log(
    `${what}, ${generator}: ${r.requestsPerSecond.toFixed(0)} req/s (${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors), ` +
      `latency ${r.latency}, server CPU ${(serverMs / r.requests).toFixed(3)} ms/request (load generator ${(r.clientMs / r.requests).toFixed(3)}), ` +
      `server peak RSS ${memoryText(peakMemory())}`,
  );
}

// 3. HTTP under concurrency 8: the compiled service in its own process (bench/_server.ts), autocannon here, then wrk.
async function httpBenchmark(): Promise<void> {
  const files = {
    'CII (CEN example 2)': path.join(CORPUS, 'en16931/examples/cii/CII_example2.xml'),
    'UBL (CEN example 2)': path.join(CORPUS, 'en16931/examples/ubl/ubl-tc434-example2.xml'),
  };
  const setups: [string, Record<string, string>][] = [
    ['default (inline up to 128 KB, pool above)', {}],
    ['everything in the pool (VALIDATION_INLINE_MAX_KB=0, WORKERS=1)', { VALIDATION_INLINE_MAX_KB: '0' }],
    ['two server processes (PROCESSES=2), each as the default', { PROCESSES: '2' }],
  ];
  const withWrk = wrkAvailable();
  console.log(
    `node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(2)}; server: node ${SERVER_NODE_FLAGS.join(' ')} dist/src/main.js`,
  );
  console.log(
    `load generators: autocannon in this process${withWrk ? ', then wrk (one thread)' : '; wrk is not installed (scripts/install-bench-tools.sh), so no wrk rows'}`,
  );
  for (const [setupLabel, env] of setups) {
    const server = await startServer(env);
    console.log(`-- POST /v1/validate, ${setupLabel}`);
    try {
      for (const [label, file] of Object.entries(files)) {
        const xml = readFileSync(file);
        const form = multipartForm(
          [{ name: 'file', value: xml, filename: 'invoice.xml', contentType: 'application/xml' }],
          '----bench-validate',
        );
        const opts = {
          url: `http://127.0.0.1:${server.port}/v1/validate`,
          method: 'POST' as const,
          headers: form.headers,
          body: form.payload,
          connections: 8,
        };
        await autocannon({ ...opts, duration: 2 }); // warm-up (JIT, rule sets, worker start)
        const seconds = quick ? 5 : 15;
        const what = `${label} ${(xml.length / 1024).toFixed(0)} KB, concurrency 8`;
        await measured(server, what, 'autocannon', async () => {
          const client0 = process.cpuUsage();
          const r = await autocannon({ ...opts, duration: seconds });
          const client = process.cpuUsage(client0);
          return {
            requestsPerSecond: r.requests.average,
            requests: r.requests.total,
            non2xx: r.non2xx,
            errors: r.errors,
            latency: `p50 ${r.latency.p50} ms p99 ${r.latency.p99} ms`,
            clientMs: (client.user + client.system) / 1000,
          };
        });
        if (!withWrk) continue;
        await measured(server, what, 'wrk', async () => {
          const r = await wrkPost({ ...opts, seconds });
          return { ...r, latency: `p50 ${r.latencyMs.p50.toFixed(2)} ms p99 ${r.latencyMs.p99.toFixed(2)} ms`, clientMs: r.cpuMs };
        });
      }
    } finally {
      await server.stop();
    }
  }
}
