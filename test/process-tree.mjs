/** The processes under a process, read from /proc (Linux): for killing what a test started, and nothing else. */
import { readdirSync, readFileSync } from 'node:fs';

/** Every running process descended from `root` (children first found, then theirs), read from /proc (Linux; [] elsewhere). */
export function descendants(root) {
  const parentOf = new Map();
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const [state, ppidField] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // A zombie (Z) or dead (X) process runs nothing: it has ended and waits to be reaped by its parent.
      if (state === 'Z' || state === 'X') continue;
      const ppid = Number(ppidField);
      const list = parentOf.get(ppid) ?? [];
      list.push(Number(entry));
      parentOf.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const pid of parentOf.get(queue.shift()) ?? []) {
      let command = '';
      try {
        command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      } catch {
        // gone meanwhile
      }
      out.push({ pid, command });
      queue.push(pid);
    }
  }
  return out;
}

/** tsx's esbuild service: started by the loader itself, ended by it with the process. */
const LOADER_SERVICE = /\/esbuild --service=/;

/** SIGKILL every process descended from `root` (but the loader's own service); returns what was still running. */
export function killDescendants(root) {
  const left = descendants(root).filter((p) => !LOADER_SERVICE.test(p.command));
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left;
}
