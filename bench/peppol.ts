/**
 * Peppol BIS Billing 3.0 validation cost, in-process: a typical Peppol invoice (our Belgian test base: 2 lines, 7 KB)
 * and a 1,000-line one (its second line repeated, totals adjusted, so both are valid), bench/_peppol-invoices.ts. For
 * each, the whole validation (parse, model, UBL schema, EN 16931 UBL and the Peppol rules) against the same invoice
 * declared as plain EN 16931 (no Peppol rules); the difference is what the Peppol layer adds (target ≤ 20%). Also the
 * Peppol rule set alone on a parsed document. Prints medians and p99 of wall time, and CPU time per validation.
 *
 * On a shared or loaded machine wall time mostly measures the others, and even CPU time moves with their cache
 * traffic: `--instructions` counts the main thread's instructions instead (valgrind's callgrind, the same whatever
 * the load; what it cannot see is the cache, see below). Each figure is two runs of bench/_peppol-loop.ts, `warm`
 * rounds then none, and `warm` rounds then `runs` more: their difference divided by `runs` is one warm round,
 * start-up, compilation and warm-up cancelled out. Slow (callgrind runs ~50x slower): about 30 minutes on the 2-core
 * machine.
 *
 * One validation after another, each stage's code and tables are cold when the next document reaches it, and the
 * Peppol layer's own code pushes the EN 16931 layer's out (a plain validation right after a Peppol one costs more than
 * after a plain one). The service runs the validations of concurrent requests in rounds, stage by stage
 * (src/validation/inline-batch.ts), where each stage finds its code still cached: `batched` prints the CPU time per
 * validation of both invoices run that way, n at a time, as /v1/validate does under concurrent load.
 *
 * Run: node --import tsx bench/peppol.ts [runs, default 300 (small) / 20 (1,000 lines)] [--instructions]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cpus, loadavg, tmpdir } from 'node:os';
import { getRuleSet, runRules } from '../src/rules/engine.js';
import { InlineBatch } from '../src/validation/inline-batch.js';
import { validateBytes, validationStages } from '../src/validation/validate.js';
import { elementsNamedAnywhere, parseXml } from '../src/xml/dom.js';
import { asPlainEn16931, peppolInvoice, type InvoiceSize } from './_peppol-invoices.js';
import { stats } from './_timing.js';

const args = process.argv.slice(2);
const instructions = args.includes('--instructions');
const RUNS = Number(args.find((a) => /^\d+$/.test(a)) ?? 300);

/**
 * Median CPU time per validation of `peppol` and of `plain`, each run in `batches` batches of `calls` calls alternating
 * between the two (process.cpuUsage: on a busy machine wall time mostly measures the others); a call validates
 * `perCall` invoices.
 */
async function cpuPerValidation(
  peppol: () => Promise<unknown>,
  plain: () => Promise<unknown>,
  batches: number,
  calls: number,
  perCall = 1,
): Promise<[number, number]> {
  const cpu: [number[], number[]] = [[], []];
  for (let k = 0; k < batches; k++)
    for (const [work, out] of [
      [peppol, cpu[0]],
      [plain, cpu[1]],
    ] as const) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < calls; i++) await work();
      const c = process.cpuUsage(c0);
      out.push((c.user + c.system) / 1000 / (calls * perCall));
    }
  return [stats(cpu[0]).median, stats(cpu[1]).median];
}

/** CPU per validation of both invoices when `n` validations of one run in rounds, as the service runs concurrent requests. */
async function batched(peppolXml: string, sizes: readonly number[]): Promise<void> {
  const peppol = Buffer.from(peppolXml);
  const plain = Buffer.from(asPlainEn16931(peppolXml));
  const batch = new InlineBatch(1_000); // no time cap: every job of a round in one batch
  const round = (bytes: Buffer, n: number) =>
    Promise.all(Array.from({ length: n }, () => batch.runStages(() => validationStages(bytes, 'x.xml'))));
  const parts: string[] = [];
  for (const n of sizes) {
    const rounds = Math.ceil(400 / n);
    for (let i = 0; i < 50; i++) await Promise.all([round(peppol, n), round(plain, n)]);
    const [a, b] = await cpuPerValidation(
      () => round(peppol, n),
      () => round(plain, n),
      20,
      rounds,
      n,
    );
    parts.push(`${n} at a time ${a.toFixed(3)} / ${b.toFixed(3)} ms (+${((100 * (a - b)) / b).toFixed(1)}%)`);
  }
  console.log(
    `${'typical, batched'.padEnd(24)} CPU per validation, Peppol / plain, run in rounds as the service runs concurrent requests: ${parts.join('; ')}`,
  );
}

async function compare(name: string, peppolXml: string, runs: number): Promise<void> {
  const peppol = Buffer.from(peppolXml);
  const plain = Buffer.from(asPlainEn16931(peppolXml));
  const check = await validateBytes(peppol, 'peppol.xml');
  if (!check.valid || !check.rule_sets.includes('peppol-bis-3'))
    throw new Error(`${name}: not a valid Peppol invoice: ${JSON.stringify(check.errors.slice(0, 3))}`);
  // Warm first: measured from the start, most of 300 typical runs ran before the compiler had optimised the code.
  for (let i = 0; i < runs * 5; i++) {
    await validateBytes(peppol, 'peppol.xml');
    await validateBytes(plain, 'plain.xml');
  }
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
  // CPU time per validation in batches of one invoice (a stream of Peppol invoices, a stream of plain ones; process.cpuUsage):
  // on a busy machine wall time mostly measures the others.
  const batch = Math.max(5, Math.round(runs / 10));
  const [ca, cb] = await cpuPerValidation(
    () => validateBytes(peppol, 'x.xml'),
    () => validateBytes(plain, 'x.xml'),
    10,
    batch,
  );
  const rules = getRuleSet('peppol-bis-3')!;
  const alone: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const doc = parseXml(peppol); // fresh per run: the rules keep their evaluation on the document
    elementsNamedAnywhere(doc, 'Invoice'); // the name index, which a validation's syntax walk fills before the rules run
    const t = performance.now();
    runRules('peppol-bis-3', rules, { doc, invoice: {} as never, syntax: 'ubl' });
    if (i >= 5) alone.push(performance.now() - t);
  }
  const sr = stats(alone);
  console.log(
    `${name.padEnd(24)} Peppol validation (interleaved with plain) median ${sa.median.toFixed(3)} ms (p99 ${sa.p99.toFixed(3)}), ` +
      `as plain EN 16931 UBL ${sb.median.toFixed(3)} ms (p99 ${sb.p99.toFixed(3)}): Peppol adds ${((100 * (sa.median - sb.median)) / sb.median).toFixed(1)}%; ` +
      `peppol-bis-3 alone ${sr.median.toFixed(3)} ms (p99 ${sr.p99.toFixed(3)}); CPU per validation, each invoice in a stream of its own, ${ca.toFixed(3)} / ${cb.toFixed(3)} ms: ` +
      `Peppol adds ${((100 * (ca - cb)) / cb).toFixed(1)}%`,
  );
}

/**
 * Main-thread instructions of one warm round of bench/_peppol-loop.ts (see the header), or why they could not be
 * counted. The main thread only: V8's compiler and GC threads run whenever they are scheduled, and counted with them
 * two runs of the same loop differed by a billion instructions (a plain validation came out dearer than a Peppol one).
 */
function instructionsPerRound(kind: string, size: InvoiceSize, warm: number, runs: number): number | string {
  const count = (n: number): number | string => {
    const dir = mkdtempSync(path.join(tmpdir(), 'einvoice-callgrind-'));
    try {
      const r = spawnSync(
        'valgrind',
        [
          '--tool=callgrind',
          '--separate-threads=yes',
          `--callgrind-out-file=${path.join(dir, 'out')}`,
          process.execPath,
          '--import',
          'tsx',
          'bench/_peppol-loop.ts',
          kind,
          size,
          String(warm),
          String(n),
        ],
        { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60 * 60 * 1000 },
      );
      if (r.error) return `valgrind not runnable (${r.error.message}); scripts/install-bench-tools.sh installs it`;
      const main = path.join(dir, 'out-01'); // thread 1: the main thread
      const m = existsSync(main) ? /^summary: (\d+)/m.exec(readFileSync(main, 'utf8')) : null;
      return m ? Number(m[1]) : `callgrind gave no count (exit ${r.status}): ${r.stderr.slice(-300)}`;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const base = count(0);
  if (typeof base === 'string') return base;
  const more = count(runs);
  return typeof more === 'string' ? more : (more - base) / runs;
}

function countInstructions(): void {
  const M = (n: number) => `${(n / 1e6).toFixed(2)} M`;
  for (const [size, warm, runs] of [
    ['typical', 1000, 800],
    ['1000', 10, 20],
  ] as const) {
    const peppol = instructionsPerRound('peppol', size, warm, runs);
    const plain = instructionsPerRound('plain', size, warm, runs);
    const rules = instructionsPerRound('rules', size, warm, runs);
    const parse = instructionsPerRound('parse', size, warm, runs);
    if ([peppol, plain, rules, parse].some((x) => typeof x === 'string')) {
      console.log(`instructions, ${size}: ${[peppol, plain, rules, parse].find((x) => typeof x === 'string')}`);
      return;
    }
    const [p, q, r, s] = [peppol, plain, rules, parse] as number[];
    console.log(
      `main-thread instructions per validation, ${size === 'typical' ? 'typical' : '1,000 lines'} (callgrind, ${warm} warm rounds, ${runs} counted): ` +
        `Peppol ${M(p)}, as plain EN 16931 UBL ${M(q)}: Peppol adds ${((100 * (p - q)) / q).toFixed(1)}%; peppol-bis-3 alone ${M(r - s)}`,
    );
  }
}

console.log(`Peppol BIS Billing 3.0 (${cpus().length} cores, load ${loadavg()[0].toFixed(2)})`);
const typical = peppolInvoice('typical');
await compare('typical (2 lines, 7 KB)', typical, RUNS);
await batched(typical, [1, 4, 8, 16]);
const big = peppolInvoice('1000');
await compare(`1,000 lines (${Math.round(big.length / 1024)} KB)`, big, Math.max(10, Math.round(RUNS / 15)));
if (instructions) countInstructions();
else console.log('(instruction counts, the same whatever the load: --instructions)');
