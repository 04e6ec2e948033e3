/**
 * PROCESSES > 1: this process only supervises, and that many server processes share its listening
 * socket (node:cluster; connections are handed to them in turn). Node serves HTTP on one thread, so one
 * process uses one core for everything that is not a worker-pool job; with two cores and a typical
 * invoice, a second process is what lets the service use the second core. The service is stateless:
 * the processes share nothing, and each has its own worker pool (WORKERS threads) and its own memory.
 *
 * The supervisor starts a new server process when one dies, stops when they keep dying (a process
 * that exits before it listens is a start-up failure, not a crash to repeat), and on SIGTERM/SIGINT
 * asks every process to finish its requests and exits when they have. A connection it had handed to a
 * process that died before taking it is closed at once (closeLostConnections), so its client gets an error
 * rather than a wait without end.
 */
import type { ChildProcess } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import type { EventEmitter } from 'node:events';
import { pino } from 'pino';
import type { Config } from './config.js';

/** Deaths are counted over this window: one more than MAX_RESTARTS_PER_MINUTE (default 5) and the supervisor gives up. */
const RESTART_WINDOW_MS = 60_000;
const RESTART_DELAY_MS = 500;
/** Beyond SHUTDOWN_GRACE_S, within which each server process ends by itself, before it is killed. */
const SHUTDOWN_MARGIN_MS = 2_000;

export function runSupervisor(config: Config): void {
  const log = pino({ level: config.logLevel, base: { pid: process.pid, role: 'supervisor' } });
  const live = new Set<Worker>();
  const listening = new WeakSet<Worker>();
  const restarts: number[] = [];
  let closing = false;
  let exitCode = 0;

  const start = (): void => {
    const worker = cluster.fork();
    closeLostConnections(worker, (lost) =>
      log.warn({ worker_pid: worker.process.pid, connections: lost }, 'closed connections the dead server process had not taken'),
    );
    live.add(worker);
    worker.on('listening', () => listening.add(worker));
  };

  const shutdown = (reason: string, code: number): void => {
    if (closing) return;
    closing = true;
    exitCode = code;
    log.info({ reason, processes: live.size }, 'stopping the server processes');
    if (live.size === 0) process.exit(exitCode);
    for (const worker of live) worker.process.kill('SIGTERM');
    setTimeout(
      () => {
        log.error({ processes: live.size }, 'server processes still running after the grace period: killing them');
        for (const worker of live) worker.process.kill('SIGKILL');
        process.exit(1);
      },
      config.shutdownGraceS * 1000 + SHUTDOWN_MARGIN_MS,
    ).unref();
  };

  cluster.on('exit', (worker, code, signal) => {
    live.delete(worker);
    if (closing) {
      if (code !== 0 && signal === null) exitCode = 1;
      if (live.size === 0) process.exit(exitCode);
      return;
    }
    if (!listening.has(worker)) {
      // It never listened (port taken, bad license file, ...): starting it again would fail the same way.
      log.fatal({ worker_pid: worker.process.pid, code, signal }, 'a server process failed to start');
      shutdown('start-up failure', 1);
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while (restarts.length > 0 && now - restarts[0] > RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length > config.maxRestartsPerMinute) {
      log.fatal({ restarts: restarts.length, window_ms: RESTART_WINDOW_MS }, 'server processes keep dying: giving up');
      shutdown('crash loop', 1);
      return;
    }
    log.error({ worker_pid: worker.process.pid, code, signal }, 'a server process died: starting a new one');
    setTimeout(() => {
      if (!closing) start();
    }, RESTART_DELAY_MS);
  });

  process.on('SIGTERM', () => shutdown('SIGTERM', 0));
  process.on('SIGINT', () => shutdown('SIGINT', 0));
  log.info({ processes: config.processes, port: config.port, host: config.host }, `starting ${config.processes} server processes`);
  for (let i = 0; i < config.processes; i++) start();
}

/** A connection handle as the supervisor holds it (a libuv TCP handle). */
interface RawHandle {
  close(): void;
}

/** The message cluster's round-robin scheduler sends with a connection, and the answer it waits for. */
interface ClusterMessage {
  cmd?: unknown;
  act?: unknown;
  seq?: unknown;
  ack?: unknown;
}

/**
 * With cluster's round-robin scheduling (the default outside Windows) the supervisor accepts every connection
 * and passes its handle to a server process ('newconn'), closing its own copy of the socket only when that
 * process answers that it took it. A process that dies before it answers (killed, crashed, out of memory, with
 * the handle still in its IPC queue) never does: node keeps the supervisor's copy open, the client's connection
 * stays established with nobody reading or closing it, and the client waits until its own timeout (300 s for
 * node's fetch). Seen in the tests as a request that hung for 300 s after a SIGKILL.
 *
 * So the handles passed to `worker` are noted until it answers for them, and those still unanswered when its
 * process is gone ('close': it has exited and its IPC channel is read to the end, so no answer can still come)
 * are closed: the kernel then resets the connection (the request was never read), and the client sees
 * ECONNRESET within milliseconds of the death. They are not handed to another process: if the dead one had
 * started to read a request before its answer left, a second reader would get half a request.
 *
 * This reads node's internal cluster protocol (messages { cmd: 'NODE_CLUSTER', act: 'newconn', seq } out,
 * { cmd: 'NODE_CLUSTER', ack } back, the same since node 0.12); should it change, nothing is noted and the
 * behaviour is node's own. test/transport.test.ts holds a stopped-then-killed process to the bound, so a node
 * upgrade that breaks this fails there.
 */
export function closeLostConnections(worker: Worker, onLost: (count: number) => void = () => {}): void {
  const proc = worker.process as ChildProcess & { send: (...args: unknown[]) => boolean };
  const pending = new Map<unknown, RawHandle>();
  const send = proc.send;
  proc.send = function (this: ChildProcess, message: unknown, handle?: unknown, ...rest: unknown[]): boolean {
    const m = message as ClusterMessage | null;
    if (m?.cmd === 'NODE_CLUSTER' && m.act === 'newconn' && typeof (handle as RawHandle | undefined)?.close === 'function') {
      pending.set(m.seq, handle as RawHandle);
    }
    return send.call(this, message, handle, ...rest);
  };
  // Node's internal messages are emitted as 'internalMessage', an event its types do not list.
  (proc as EventEmitter).on('internalMessage', (message: unknown) => {
    const m = message as ClusterMessage | null;
    if (m?.cmd === 'NODE_CLUSTER' && m.ack !== undefined) pending.delete(m.ack);
  });
  proc.once('close', () => {
    if (pending.size === 0) return;
    // Closing a handle node has closed already is a no-op.
    for (const handle of pending.values()) handle.close();
    onLost(pending.size);
    pending.clear();
  });
}

/** Should this process supervise (rather than serve)? */
export function isSupervisor(config: Config): boolean {
  return config.processes > 1 && cluster.isPrimary;
}
