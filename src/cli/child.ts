/**
 * One of the CLI's entry modules in a child node process with node flags of its own: `einvoice serve` (the service
 * with the flags `npm start` gives it) and a large `einvoice validate` batch (V8 flags that only take on node's
 * command line, see pool.ts). The standard streams are shared and SIGINT / SIGTERM passed on.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The compiled module beside this one, or its TypeScript source in a checkout run through tsx (whose --import is in process.execArgv). */
export function entryModule(name: string): string {
  const js = fileURLToPath(new URL(`${name}.js`, import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL(`${name}.ts`, import.meta.url));
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Run `entry` with `args` in `node <this process's flags> <nodeFlags>`; resolves when it exits, rejects if it cannot start.
 * SIGINT / SIGTERM are listened for before the child is started: a signal that came while spawn() ran, before a
 * listener existed, killed this process at once by default and left the child running on its own (seen once in CI: a
 * Ctrl-C right after a batch's child process started). One that comes before the child exists is passed on to it as
 * soon as it does.
 */
export function runNodeChild(entry: string, nodeFlags: readonly string[], args: readonly string[]): Promise<ChildExit> {
  let child: ChildProcess | undefined;
  let early: NodeJS.Signals | undefined;
  const pass = (sig: NodeJS.Signals) => {
    if (child) child.kill(sig);
    else early = sig;
  };
  const signals = ['SIGTERM', 'SIGINT'] as const;
  for (const sig of signals) process.on(sig, pass);
  const stopPassing = () => {
    for (const sig of signals) process.off(sig, pass);
  };
  let started: ChildProcess;
  try {
    started = spawn(process.execPath, [...process.execArgv, ...nodeFlags, entry, ...args], { stdio: 'inherit' });
  } catch (err) {
    stopPassing();
    return Promise.reject(err);
  }
  child = started;
  if (early) started.kill(early);
  return new Promise((resolve, reject) => {
    started.once('error', (err) => {
      stopPassing();
      reject(err);
    });
    started.once('exit', (code, signal) => {
      stopPassing();
      resolve({ code, signal });
    });
  });
}
