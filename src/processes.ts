/**
 * PROCESSES > 1: this process only supervises, and that many server processes share its listening
 * socket (node:cluster; connections are handed to them in turn). Node serves HTTP on one thread, so one
 * process uses one core for everything that is not a worker-pool job; with two cores and a typical
 * invoice, a second process is what lets the service use the second core. The service is stateless:
 * the processes share nothing, and each has its own worker pool (WORKERS threads) and its own memory.
 *
 * The supervisor starts a new server process when one dies, stops when they keep dying (a process
 * that exits before it listens is a start-up failure, not a crash to repeat), and on SIGTERM/SIGINT
 * asks every process to finish its requests and exits when they have.
 */
import cluster, { type Worker } from 'node:cluster';
import { pino } from 'pino';
import type { Config } from './config.js';

/** Restarts within RESTART_WINDOW_MS beyond which the supervisor gives up. */
const MAX_RESTARTS = 5;
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
    if (restarts.length > MAX_RESTARTS) {
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

/** Should this process supervise (rather than serve)? */
export function isSupervisor(config: Config): boolean {
  return config.processes > 1 && cluster.isPrimary;
}
