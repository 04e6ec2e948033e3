/**
 * One of the CLI's entry modules in a child node process with node flags of its own: `einvoice serve` (the service
 * with the flags `npm start` gives it) and a large `einvoice validate` batch (V8 flags that only take on node's
 * command line, see pool.ts). The standard streams are shared and SIGINT / SIGTERM passed on.
 */
import { spawn } from 'node:child_process';
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

/** Run `entry` with `args` in `node <this process's flags> <nodeFlags>`; resolves when it exits, rejects if it cannot start. */
export function runNodeChild(entry: string, nodeFlags: readonly string[], args: readonly string[]): Promise<ChildExit> {
  const child = spawn(process.execPath, [...process.execArgv, ...nodeFlags, entry, ...args], { stdio: 'inherit' });
  const pass = (sig: NodeJS.Signals) => child.kill(sig);
  const signals = ['SIGTERM', 'SIGINT'] as const;
  for (const sig of signals) process.on(sig, pass);
  const stopPassing = () => {
    for (const sig of signals) process.off(sig, pass);
  };
  return new Promise((resolve, reject) => {
    child.once('error', (err) => {
      stopPassing();
      reject(err);
    });
    child.once('exit', (code, signal) => {
      stopPassing();
      resolve({ code, signal });
    });
  });
}
