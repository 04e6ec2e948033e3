/**
 * The TCP port a process listens on, read from /proc (Linux). For harnesses that start the service with PORT=0 and
 * keep its log quiet: a port picked by the harness and freed before the service binds it can be taken by anything
 * else on the machine meanwhile (then the service fails to start, or worse, the harness talks to someone else's
 * server on that port).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Inode → port of the sockets in the LISTEN state in /proc/<pid>/net/tcp and tcp6 (the process's network namespace). */
function listeningSockets(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '0A') continue; // 0A: LISTEN
      out.set(f[9], Number.parseInt(f[1].split(':')[1], 16));
    }
  }
  return out;
}

/** The port `pid` itself listens on (one of its own file descriptors is the listening socket), or undefined. */
export function listeningPort(pid: number): number | undefined {
  const sockets = listeningSockets(pid);
  if (sockets.size === 0) return undefined;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return undefined;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m && sockets.has(m[1])) return sockets.get(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  return undefined;
}
