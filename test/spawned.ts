/**
 * The real service in a process of its own, for the tests that need one (transport limits, shutdown, the
 * supervisor, hostile uploads whose client must not share the server's event loop), and the rules every such
 * test keeps:
 * - the server listens on PORT=0 and the test reads the port it got from the server's own log line, so two
 *   runs (or two helpers on one machine) never race for a port;
 * - every server is killed — with the processes under it (cluster's server processes) — when its test ends,
 *   pass or fail (`t.after`, or the file's `after` for a server shared by its tests): a failed assertion never
 *   leaves a process that keeps the test file, and so `npm test`, from ending (test/setup.mjs is the net under this);
 * - every wait has a bound, so a server that does not start or a request that hangs fails by name.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import type { TestContext } from 'node:test';
import { descendants } from './process-tree.mjs';

/**
 * For spawnSync / execFileSync: a synchronous child blocks the test's event loop, so no per-test time limit can end
 * it; it gets its own bound (generous: a tsx start or a qpdf run on a loaded machine) and is killed past it.
 */
export const SYNC_CHILD = { timeout: 180_000, killSignal: 'SIGKILL' } as const;

/** A server may take this long to listen: a module load under tsx on a loaded 2-core machine. */
export const START_BOUND_MS = 120_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Date.now() when it was seen */
  at: number;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything it wrote so far, stdout and stderr. */
  logs(): string;
  /** Its JSON log lines so far (stdout; every server process of a supervisor writes there). */
  lines(): Record<string, unknown>[];
  /** The pids of the server processes that logged "Server listening", in the order they did. */
  listening(): number[];
  exited: Promise<Exit>;
  /** SIGKILL it and every process under it, and wait until it has exited. Safe to call twice. */
  kill(): Promise<void>;
}

/**
 * Start the real entry point (`node --import tsx src/main.ts`) on an ephemeral loopback port, LOG_LEVEL=info;
 * resolve once `listeners` server processes listen (2 for PROCESSES=2). With `t`, the server is killed when the
 * test ends; without, the caller kills it (in a `finally` or the file's `after`).
 */
export async function startServer(
  t: TestContext | undefined,
  env: Record<string, string> = {},
  options: { listeners?: number; startMs?: number } = {},
): Promise<ServerProcess> {
  const listeners = options.listeners ?? 1;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      // Children first: killed after their supervisor, cluster's server processes would exit by themselves,
      // but a stopped one (SIGSTOP) would not.
      for (const { pid } of descendants(child.pid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      child.kill('SIGKILL');
    }
    await exited;
  };
  t?.after(kill);
  child.stderr!.on('data', (c) => (out += c));
  const listening = (): number[] =>
    [...stdout.matchAll(/^\{[^\n]*"msg":"Server listening at http:\/\/127\.0\.0\.1:\d+"[^\n]*$/gm)].map((m) => JSON.parse(m[0]).pid);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill();
      reject(new Error(`the server did not start within ${options.startMs ?? START_BOUND_MS} ms: ${out.slice(-2000)}`));
    }, options.startMs ?? START_BOUND_MS);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      stdout += chunk;
      const all = [...stdout.matchAll(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/g)];
      if (all.length >= listeners) {
        clearTimeout(timer);
        resolve(Number(all[0][1]));
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code ?? signal}) before it listened: ${out.slice(-2000)}`));
    });
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    logs: () => out,
    lines: () =>
      stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l)),
    listening,
    exited,
    kill,
  };
}

/**
 * Run the entry point expecting it to end by itself (a start it refuses): its exit code and output. Killed when the
 * test ends if it has not, and a failure if it has not within `withinMs`.
 */
export async function runToExit(
  t: TestContext,
  env: Record<string, string>,
  withinMs = START_BOUND_MS,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      for (const { pid } of descendants(child.pid!)) process.kill(pid, 'SIGKILL');
      child.kill('SIGKILL');
    }
    await exited;
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    exited,
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the process did not end within ${withinMs} ms: ${stdout.slice(-1000)} ${stderr.slice(-1000)}`)),
        withinMs,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  return { code, stdout, stderr };
}

/** Poll `check` every `everyMs` until it is true; fail naming `what` after `withinMs`. */
export async function waitFor(check: () => boolean, withinMs: number, what: string, everyMs = 50): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${withinMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * How oversubscribed the machine is: runnable threads per core over the last minute (load average), at least 1,
 * at most 10. Wall-clock bounds in tests (an answer within 5 s) are promises for a machine with a core to spare;
 * when other work shares the cores, every wait stretches alike, and the bound is scaled by this factor.
 */
export function loadFactor(): number {
  return Math.min(10, Math.max(1, loadavg()[0] / availableParallelism()));
}
