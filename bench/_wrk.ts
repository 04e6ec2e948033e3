/**
 * wrk (Debian package `wrk`, C, one epoll loop per thread) as the HTTP load generator when it is installed.
 * On a 2-core machine the load generator shares the cores with the server: autocannon, being Node,
 * spends 0.12-0.19 ms of CPU per validation request that the server then lacks, wrk 0.02-0.06. The
 * benchmarks print both when they can, so that a figure is never read without its generator.
 * `scripts/install-bench-tools.sh` (run by `npm run bench`) installs it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { statCpuMs } from './_server.js';

export interface WrkResult {
  requestsPerSecond: number;
  requests: number;
  non2xx: number;
  errors: number;
  latencyMs: { p50: number; p99: number };
  /** CPU time wrk itself used, in ms. */
  cpuMs: number;
}

export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/** wrk prints latencies as `812.00us`, `1.25ms` or `2.01s`. */
export function toMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!m) throw new Error(`unexpected wrk latency ${text}`);
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
}

/**
 * POST `body` to `url` with `connections` keep-alive connections for `seconds`, one wrk thread.
 * The body goes to wrk through a temporary file read by a Lua script (deleted afterwards).
 */
export async function wrkPost(opts: {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  connections: number;
  seconds: number;
}): Promise<WrkResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'einvoice-wrk-'));
  try {
    const bodyFile = path.join(dir, 'body');
    writeFileSync(bodyFile, opts.body);
    const headerLines = Object.entries(opts.headers)
      .filter(([name]) => name.toLowerCase() !== 'content-length')
      .map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
    const script = path.join(dir, 'post.lua');
    writeFileSync(
      script,
      [
        `local f = assert(io.open(${JSON.stringify(bodyFile)}, "rb"))`,
        'wrk.method = "POST"',
        'wrk.body = f:read("*a")',
        'f:close()',
        ...headerLines,
        '',
      ].join('\n'),
    );
    const childrenCpu0 = childrenCpuMs();
    const child = spawn('wrk', ['-t1', `-c${opts.connections}`, `-d${opts.seconds}s`, '--latency', '-s', script, opts.url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const cpuMs = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => {
        if (code !== 0) reject(new Error(`wrk exited with ${code}: ${out}`));
        else resolve(childrenCpuMs() - childrenCpu0);
      });
    });
    return { ...parseWrkOutput(out), cpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures of wrk's report (`--latency`), without wrk's CPU time. */
export function parseWrkOutput(out: string): Omit<WrkResult, 'cpuMs'> {
  const number = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
  const latency = (percentile: number) => {
    const m = new RegExp(`\\n\\s+${percentile}%\\s+(\\S+)`).exec(out);
    if (!m) throw new Error(`no ${percentile}% latency in the wrk report: ${out}`);
    return toMs(m[1]);
  };
  if (!/Requests\/sec:/.test(out)) throw new Error(`not a wrk report: ${out}`);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    requests: number(/(\d+) requests in/),
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    errors: errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    latencyMs: { p50: latency(50), p99: latency(99) },
  };
}

/**
 * CPU time of this process's waited-for children (cutime + cstime of /proc/self/stat), in ms: Node does
 * not report a child's CPU time, and wrk's is the growth of this total while it runs (the server, the
 * other child, is still running then and not counted).
 */
function childrenCpuMs(): number {
  return statCpuMs(readFileSync('/proc/self/stat', 'utf8'), 'children');
}
