/**
 * `npm run test:kills` (in .ci/run): 50 server processes killed under load, one after another (test/kill-under-load.ts;
 * npm test runs the same with 4). Every request must end with its answer or, within LOST_CONNECTION_BOUND_MS of a
 * kill, an error; the supervisor must replace every process. KILLS=n runs another count, CLIENTS=n another number
 * of client loops (4).
 */
import { test } from 'node:test';
import { killUnderLoad, LOST_CONNECTION_BOUND_MS } from './kill-under-load.js';
import { startServer } from './spawned.js';

const KILLS = Number(process.env.KILLS ?? 50);
const CLIENTS = Number(process.env.CLIENTS ?? 4);

// Each kill waits for its replacement to listen: a process start under tsx, seconds each (more when loaded).
test(`PROCESSES=2 under load: ${KILLS} server processes killed, each replaced; every request answered or failed within ${LOST_CONNECTION_BOUND_MS} ms of a kill`, {
  timeout: 90 * 60_000,
}, async (t) => {
  const server = await startServer(t, { PROCESSES: '2', MAX_RESTARTS_PER_MINUTE: '10000' }, { listeners: 2 });
  const started = Date.now();
  const report = await killUnderLoad(server, KILLS, CLIENTS);
  const afterKill = report.errors.map((e) => e.afterKillMs).sort((a, b) => a - b);
  const summary = {
    kills: report.kills,
    seconds: Math.round((Date.now() - started) / 1000),
    requests: report.requests,
    answered: report.answered,
    errors: report.errors.length,
    errorCodes: Object.fromEntries(
      [...new Set(report.errors.map((e) => e.code))].map((c) => [c, report.errors.filter((e) => e.code === c).length]),
    ),
    closedByTheSupervisor: report.closedByTheSupervisor,
    errorAfterKillMs: { median: afterKill[afterKill.length >> 1] ?? 0, max: afterKill.at(-1) ?? 0 },
    slowestAnswerMs: report.slowestAnswerMs,
  };
  t.diagnostic(JSON.stringify(summary));
  console.log(JSON.stringify(summary));
});
