/**
 * npm run fuzz -- [--seed N] [--count N] [--minutes M] [--sample] [--corpus-sample K] [--no-minimise]
 *                 [--no-fixtures] [--endpoints /v1/validate,/v1/merge] [--write-docs] [--json FILE]
 * npm run fuzz -- --replay [--update-known] [--dir test/fixtures/fuzz-open]
 *
 * Structure-aware fuzzing of every endpoint that reads uploads, against one real server process.
 * Deterministic: the same seed and count send the same inputs. --sample is the CI run (≤ 2 minutes on two
 * cores). Failures are confirmed, minimised and written to test/fixtures/fuzz/ (replayed by
 * test/fuzz-regressions.test.ts). With --count ≥ 20000 (or --write-docs) the figures go to
 * docs/reliability.md under "## Fuzzing". Exit code 1 when any input failed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  DEFAULT_ORACLE,
  ENDPOINTS,
  FIXTURE_DIR,
  HttpTarget,
  KNOWN_FAILING,
  judge,
  readFixtures,
  ServerProcess,
  signatureOf,
  writeFixture,
  type Endpoint,
  type Failure,
  type FuzzCase,
  type Outcome,
} from './harness.js';
import { minimise } from './minimise.js';
import { generate } from './generate.js';
import { Rng } from './rng.js';
import { buildSeeds, corpusDir } from './seeds.js';

interface Args {
  seed: number;
  count: number;
  minutes: number;
  sample: boolean;
  corpusSample: number;
  minimise: boolean;
  fixtures: boolean;
  endpoints: Endpoint[];
  writeDocs: boolean;
  json?: string;
}

function parseArgs(argv: string[]): Args {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const has = (name: string) => argv.includes(`--${name}`);
  const sample = has('sample');
  const count = Number(get('count') ?? (sample ? 120 : 1000));
  const a: Args = {
    seed: Number(get('seed') ?? 17),
    count,
    // The whole run, start-up included (the sample must end within 2 minutes: a slow last input can add ~20 s).
    minutes: Number(get('minutes') ?? (sample ? 1.4 : 60)),
    sample,
    corpusSample: Number(get('corpus-sample') ?? (sample ? 4 : 40)),
    // The CI sample only reports; fixtures (confirmed and minimised) come from local runs, or --fixtures.
    minimise: !has('no-minimise') && (!sample || has('fixtures')),
    fixtures: !has('no-fixtures') && (!sample || has('fixtures')),
    endpoints: (get('endpoints')?.split(',') as Endpoint[] | undefined) ?? ENDPOINTS,
    writeDocs: has('write-docs') || count >= 20000,
    json: get('json'),
  };
  for (const [k, v] of Object.entries({ seed: a.seed, count: a.count, minutes: a.minutes, corpusSample: a.corpusSample })) {
    if (!Number.isFinite(v) || v < 0) throw new Error(`--${k} must be a non-negative number`);
  }
  for (const e of a.endpoints) if (!ENDPOINTS.includes(e)) throw new Error(`unknown endpoint ${e}; one of ${ENDPOINTS.join(', ')}`);
  return a;
}

const PRIORITY = ['crash', 'timeout', 'memory', '500', 'health-stall', 'internal-text', 'connection'];
function primary(fs: Failure[]): Failure {
  return [...fs].sort((a, b) => (PRIORITY.indexOf(a.class) + 1 || 99) - (PRIORITY.indexOf(b.class) + 1 || 99))[0];
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Stats {
  n: number;
  statuses: Map<string, number>;
  times: number[];
  failures: number;
}
const newStats = (): Stats => ({ n: 0, statuses: new Map(), times: [], failures: 0 });

function table(headers: string[], rows: (string | number)[][]): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/**
 * --replay: send every regression fixture once (as test/fuzz-regressions.test.ts does) and list what fails;
 * with --update-known, write that list to known-failing.txt (after merging fixes, this clears it).
 */
async function replay(update: boolean, dir = FIXTURE_DIR): Promise<number> {
  if (update && dir !== FIXTURE_DIR) throw new Error('--update-known applies to test/fixtures/fuzz only');
  const server = new ServerProcess();
  await server.start();
  const target = new HttpTarget(server, DEFAULT_ORACLE);
  target.recoveryMs = 3000;
  const failing: string[] = [];
  for (const fx of readFixtures(dir)) {
    const o = await target.send(fx.case);
    const fs = judge(fx.case, o);
    process.stdout.write(
      `${fs.length ? 'FAIL' : 'pass'} ${fx.base} (${o.status ?? '-'}, ${Math.round(o.ms)} ms, /health max ${Math.round(o.healthMaxMs)} ms, ${(o.body.length / 1024).toFixed(0)} KB)${fs.length ? `: ${fs.map((f) => `${f.class}: ${f.detail.slice(0, 120)}`).join('; ')}` : ''}\n`,
    );
    if (fs.length) failing.push(fx.base);
  }
  await target.close();
  if (update) {
    const header = readFileSync(KNOWN_FAILING, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('#'));
    writeFileSync(KNOWN_FAILING, `${[...header, ...failing].join('\n')}\n`);
    process.stdout.write(`wrote ${failing.length} names to ${KNOWN_FAILING}\n`);
  }
  return failing.length ? 1 : 0;
}

async function main(): Promise<number> {
  if (process.argv.includes('--replay')) {
    const i = process.argv.indexOf('--dir');
    return replay(process.argv.includes('--update-known'), i >= 0 ? resolve(process.argv[i + 1]) : FIXTURE_DIR);
  }
  const args = parseArgs(process.argv.slice(2));
  const started = Math.round(performance.timeOrigin);
  const deadline = started + args.minutes * 60_000;
  watchdog(deadline + WATCHDOG_GRACE_MS);
  const base = new Rng(args.seed);
  // The server starts (and warms up) while the seeds are built: start-up counts against the sample's 2 minutes.
  const server = new ServerProcess();
  const serverReady = server.start();
  const seeds = await buildSeeds(base.fork(0x5eed), args.corpusSample);
  const corpusNote =
    seeds.corpusXml + seeds.corpusPdf
      ? `corpus ${corpusDir()}: ${seeds.corpusXml} XML + ${seeds.corpusPdf} PDF sampled`
      : 'no corpus (repository seeds only)';
  process.stderr.write(
    `fuzz: seed ${args.seed}, up to ${args.count} inputs / ${args.minutes} min; ${seeds.xml.length} XML + ${seeds.pdf.length} PDF + ${seeds.metadata.length} metadata seeds; ${corpusNote}\n`,
  );

  await serverReady;
  const target = new HttpTarget(server, DEFAULT_ORACLE);
  if (args.sample) target.recoveryMs = 5000;
  process.stderr.write(
    `fuzz: server pid ${server.pid} on port ${server.port}, idle RSS ${Math.round(server.idleRssMb)} MB, ${((Date.now() - started) / 1000).toFixed(1)} s after start\n`,
  );

  const byEndpoint = new Map<string, Stats>();
  const byMutator = new Map<string, Stats>();
  const byClass = new Map<string, number>();
  const examples = new Map<
    string,
    { sig: string; fixture?: string; detail: string; endpoint: string; mutator: string; iteration: number }
  >();
  const known = new Set(readFixtures().map((f) => signatureOf(f.case, f.file.failure, f.file.found.mutator)));
  let failed = 0;
  let sent = 0;
  let flaky = 0;
  const minimiseBudget = args.sample ? { trials: 12, ms: 8000 } : { trials: 80, ms: 60_000 };

  for (let i = 0; i < args.count && Date.now() < deadline; i++) {
    const g = generate(i, base, seeds, args.endpoints);
    if (!g) continue;
    const o: Outcome = await target.send(g.case);
    sent++;
    if (sent % 100 === 0)
      process.stderr.write(`fuzz: ${sent} inputs, ${failed} failing, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    const fs = judge(g.case, o);
    const ep = byEndpoint.get(g.case.endpoint) ?? newStats();
    byEndpoint.set(g.case.endpoint, ep);
    const mutKey = g.mutator.split('+')[0];
    const mu = byMutator.get(mutKey) ?? newStats();
    byMutator.set(mutKey, mu);
    const st = o.crashed ? 'crash' : o.timedOut ? 'timeout' : o.status === undefined ? 'no answer' : String(o.status);
    for (const s of [ep, mu]) {
      s.n++;
      s.statuses.set(st, (s.statuses.get(st) ?? 0) + 1);
      s.times.push(o.ms);
    }
    if (!fs.length) continue;
    failed++;
    ep.failures++;
    mu.failures++;
    const f = primary(fs);
    for (const x of fs) byClass.set(x.class, (byClass.get(x.class) ?? 0) + 1);
    const sig = signatureOf(g.case, f, g.mutator);
    process.stderr.write(`fuzz: #${i} ${g.case.endpoint} ${g.mutator} (${g.seedName}): ${f.class}: ${f.detail.slice(0, 160)}\n`);
    if (examples.has(sig)) continue;
    const ex = { sig, detail: f.detail, endpoint: g.case.endpoint, mutator: g.mutator, iteration: i } as {
      sig: string;
      fixture?: string;
      detail: string;
      endpoint: string;
      mutator: string;
      iteration: number;
    };
    examples.set(sig, ex);
    if (!args.fixtures) continue;
    if (known.has(sig)) {
      ex.fixture = '(same as a kept fixture)';
      continue;
    }
    if (g.seedName.startsWith('corpus:')) {
      // The corpus must not be copied into the repository, not even minimised: report it, keep nothing.
      ex.fixture = `(from ${g.seedName}; not kept)`;
      continue;
    }
    // Confirm (a loaded machine can be slow once), then minimise and keep the case.
    const sameClass = async (c: FuzzCase) => judge(c, await target.send(c)).some((x) => x.class === f.class);
    if (!(await sameClass(g.case))) {
      flaky++;
      process.stderr.write('fuzz:   did not reproduce; not kept\n');
      continue;
    }
    let c = g.case;
    if (args.minimise && Date.now() < deadline) {
      // Slowness is mostly size: its trials cost seconds each and rarely shrink much, so they get a small budget.
      const slow = ['timeout', 'health-stall', 'memory', 'crash'].includes(f.class);
      const budget = slow ? { trials: Math.min(6, minimiseBudget.trials), ms: Math.min(40_000, minimiseBudget.ms) } : minimiseBudget;
      const r = await minimise(c, g.kind, sameClass, { trials: budget.trials, deadline: Math.min(deadline, Date.now() + budget.ms) });
      c = r.case;
      const before = g.case.parts.find((p) => p.name === g.case.mutated)!.data.length;
      const after = c.parts.find((p) => p.name === c.mutated)!.data.length;
      process.stderr.write(`fuzz:   minimised ${before} → ${after} bytes in ${r.trials} trials\n`);
    }
    ex.fixture = writeFixture(c, f, {
      seed: args.seed,
      iteration: i,
      mutator: g.mutator,
      seedInput: g.seedName,
      date: new Date().toISOString().slice(0, 10),
    });
    known.add(sig);
  }
  await target.close();

  const elapsed = (Date.now() - started) / 1000;
  const statusCols = (s: Stats) =>
    [...s.statuses.entries()]
      .sort()
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
  const timeCols = (s: Stats) => {
    const t = [...s.times].sort((a, b) => a - b);
    return [Math.round(pct(t, 50)), Math.round(pct(t, 99)), Math.round(t[t.length - 1] ?? 0)];
  };
  const epRows = [...byEndpoint.entries()].sort().map(([k, s]) => [k, s.n, statusCols(s), ...timeCols(s), s.failures]);
  const muRows = [...byMutator.entries()].sort().map(([k, s]) => [k, s.n, statusCols(s), ...timeCols(s), s.failures]);
  const classRows = [...byClass.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v]);
  const exRows = [...examples.values()].map((e) => [
    e.sig.split('|')[0],
    e.endpoint,
    e.mutator,
    e.fixture ?? '(not kept)',
    e.detail.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 140),
  ]);
  const summary = [
    `Fuzz run: seed ${args.seed}, ${sent} inputs in ${elapsed.toFixed(0)} s (${corpusNote}); ${failed} failing inputs, ${examples.size} distinct failures, ${flaky} not reproduced; server starts ${server.starts}; idle RSS ${Math.round(server.idleRssMb)} MB, peak RSS ${Math.round(server.peakRssMb)} MB.`,
    '',
    '### Per endpoint',
    table(['endpoint', 'inputs', 'statuses', 'p50 ms', 'p99 ms', 'max ms', 'failing'], epRows),
    '',
    '### Per mutator (first mutator of the input)',
    table(['mutator', 'inputs', 'statuses', 'p50 ms', 'p99 ms', 'max ms', 'failing'], muRows),
    '',
    '### Failures by class (inputs; one input can fail several ways)',
    classRows.length ? table(['class', 'inputs'], classRows) : 'none',
    '',
    '### Distinct failures',
    exRows.length ? table(['class', 'endpoint', 'mutator', 'fixture', 'detail'], exRows) : 'none',
  ].join('\n');
  process.stdout.write(`${summary}\n`);
  if (args.json) {
    writeFileSync(
      args.json,
      JSON.stringify(
        {
          seed: args.seed,
          sent,
          failed,
          elapsed,
          peakRssMb: server.peakRssMb,
          idleRssMb: server.idleRssMb,
          byClass: Object.fromEntries(byClass),
          examples: [...examples.values()],
          endpoints: epRows,
          mutators: muRows,
        },
        null,
        2,
      ),
    );
  }
  if (args.writeDocs)
    writeDocs(
      `Command: \`npm run fuzz -- --seed ${args.seed} --count ${args.count} --minutes ${args.minutes}\` (${new Date().toISOString().slice(0, 16)}Z).\n\n${summary}`,
    );
  return failed ? 1 : 0;
}

/** Replace (or add) the "## Fuzzing" section of docs/reliability.md; other sections are left alone. */
function writeDocs(body: string): void {
  const path = resolve(FIXTURE_DIR, '../../../docs/reliability.md');
  mkdirSync(dirname(path), { recursive: true });
  const old = existsSync(path) ? readFileSync(path, 'utf8') : '# Reliability\n';
  const section = `## Fuzzing\n\n${body}\n`;
  const start = old.indexOf('\n## Fuzzing');
  let out: string;
  if (start < 0) out = `${old.trimEnd()}\n\n${section}`;
  else {
    const next = old.indexOf('\n## ', start + 1);
    out = `${old.slice(0, start)}\n${section}${next < 0 ? '' : old.slice(next)}`;
  }
  writeFileSync(path, out);
}

/**
 * A time-bounded run ends by itself: the loop stops taking inputs at the deadline, and if anything after it
 * hangs (a server that will not start, a request past every bound), this timer ends the run anyway, with exit
 * code 2. Servers are killed on every way out: the 'exit' handlers SIGKILL them, and a harness killed with
 * SIGKILL leaves none either (their stdin closes, see orphan-guard.mjs).
 */
const WATCHDOG_GRACE_MS = 4 * 60_000;
function watchdog(at: number): void {
  setTimeout(
    () => {
      process.stderr.write('fuzz: still running long after the deadline; ending the run (exit 2)\n');
      process.exit(2);
    },
    Math.max(0, at - Date.now()),
  ).unref();
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => process.exit(130)); // 'exit' reaps the servers

// A socket of ours that the server closed while we wrote (EPIPE/ECONNRESET) is the server's business, judged through
// the request's own outcome; it must not end the run (a 5-minute run died on one such unhandled error).
process.on('uncaughtException', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE' || err.code === 'ECONNRESET') {
    process.stderr.write(`fuzz: ignored a socket ${err.code} outside any request\n`);
    return;
  }
  process.stderr.write(`fuzz: ${err.stack ?? String(err)}\n`);
  process.exit(2);
});

// Exit explicitly: a keep-alive socket or a pending spare server must not keep the harness alive after its report.
main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`fuzz: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(2);
  },
);
