/**
 * The service as shipped, for the HTTP benchmarks: `node <flags> dist/src/main.js` (what `npm start`
 * runs after building) in its own process on 127.0.0.1, so the load generator never shares its event
 * loop and the figures include nothing of tsx. Builds dist/ first when it is missing or older than src/.
 * Measures the server process from outside: CPU time (/proc/<pid>/stat) and memory (/proc/<pid>/smaps_rollup,
 * all threads: the main thread and any validation workers), both summed over the server processes of a
 * supervisor. Memory is given as RSS and as PSS: RSS counts the pages that processes share (the node
 * binary and libraries, ~43 MB, mapped by every process) once per process, PSS divides them among the
 * processes that share them. With one process the two differ by the shared pages only; with
 * PROCESSES > 1 the summed RSS counts the same pages several times, and PSS is the memory the service
 * occupies.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { listeningPort } from '../scripts/listening-port.js';

/** Node flags of the service: the same as the `start` script of package.json. */
export const SERVER_NODE_FLAGS = startFlags();

function startFlags(): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.start;
  const m = /node ((?:--\S+ )*)dist\/src\/main\.js/.exec(script);
  if (!m) throw new Error(`cannot read the node flags from the start script: ${script}`);
  return m[1].trim().split(/\s+/).filter(Boolean);
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Build dist/ unless it is newer than every file of src/. */
export function ensureBuilt(): void {
  const stamp = 'dist/build-info.json';
  if (existsSync(stamp) && statSync(stamp).mtimeMs > newestMtime('src')) return;
  const build = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('npm run build failed');
}

/**
 * The port a server started with PORT=0 listens on (read from /proc: the service logs nothing at LOG_LEVEL=silent),
 * polled every `everyMs`. A port picked here and freed first could be taken by another program before the server
 * binds it; then the benchmark would measure that program.
 */
export async function portOf(child: ChildProcess, withinMs: number, everyMs = 2): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const port = listeningPort(child.pid!);
    if (port) return port;
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (performance.now() - t0 > withinMs) throw new Error(`server did not listen within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface BenchServer {
  port: number;
  pid: number;
  /** CPU time (user + system, all threads) the server has used so far, in ms. */
  cpuMs(): number;
  /** Resident set size now, in MB. */
  rssMb(): number;
  /** Sample memory every 50 ms until the returned function is called; it returns the peaks in MB. */
  sampleMemory(): () => { rss: number; pss: number };
  stop(): Promise<void>;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * CPU time (user + system) in the text of a /proc/<pid>/stat file, in ms: the process's own (utime, stime),
 * or that of its children it has waited for (cutime, cstime).
 */
export function statCpuMs(stat: string, whose: 'own' | 'children' = 'own'): number {
  const fields = stat.split(') ')[1].split(' '); // from field 3 (state) on: the command name may hold spaces
  const first = whose === 'own' ? 11 : 13;
  return ((Number(fields[first]) + Number(fields[first + 1])) * 1000) / TICKS_PER_SECOND;
}

/** A /proc file's text, or undefined when the process has gone. */
function readProc(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** `pid` and its child processes (the server processes of a supervisor). */
function processTree(pid: number): number[] {
  const pids = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(`/proc/${entry}/stat`);
    if (stat && Number(stat.split(') ')[1].split(' ')[1]) === pid) pids.push(Number(entry)); // ppid
  }
  return pids;
}

export async function startServer(env: Record<string, string> = {}): Promise<BenchServer> {
  ensureBuilt();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/src/main.js'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pid = child.pid!;
  // A benchmark that dies (an exception, or SIGPIPE when its output is cut short) must not leave its server running.
  const killOnExit = () => child.kill('SIGTERM'); // SIGTERM: a supervisor (PROCESSES > 1) then stops its server processes too
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const started = performance.now();
  const port = await portOf(child, 30_000, 20);
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (performance.now() - started > 30_000) throw new Error('server did not answer within 30 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  // The server and, with PROCESSES > 1, the server processes its supervisor started.
  const cpuMs = () => {
    let ms = 0;
    for (const p of processTree(pid)) {
      const stat = readProc(`/proc/${p}/stat`);
      if (stat) ms += statCpuMs(stat);
    }
    return ms;
  };
  /** RSS and PSS in MB, summed over `pids`. */
  const memoryMb = (pids = processTree(pid)) => {
    let rss = 0;
    let pss = 0;
    for (const p of pids) {
      const rollup = readProc(`/proc/${p}/smaps_rollup`);
      if (!rollup) continue;
      rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)![1]) / 1024;
      pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)![1]) / 1024;
    }
    return { rss, pss };
  };
  return {
    port,
    pid,
    cpuMs,
    rssMb: () => memoryMb().rss,
    sampleMemory() {
      const pids = processTree(pid); // once: walking /proc every 50 ms would load the machine being measured
      const peak = memoryMb(pids);
      const sample = () => {
        const now = memoryMb(pids);
        peak.rss = Math.max(peak.rss, now.rss);
        peak.pss = Math.max(peak.pss, now.pss);
      };
      const timer = setInterval(sample, 50);
      return () => {
        clearInterval(timer);
        sample();
        return peak;
      };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The part of autocannon's API the benchmarks use (the package ships no type declarations). */
export interface AutocannonResult {
  requests: { average: number; min: number; p50: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** The load generator, typed. */
export const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

/** Peak memory as the benchmarks print it: RSS, and PSS in brackets (see the header). */
export function memoryText(m: { rss: number; pss: number }): string {
  return `${m.rss.toFixed(0)} MB (PSS ${m.pss.toFixed(0)} MB)`;
}
