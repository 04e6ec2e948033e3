/**
 * Start-up benchmark: time from process start to the first 200 on /health, for the compiled service
 * (`node dist/src/main.js`, what `npm start` runs after building). Target: under 1 s.
 */
import { spawn } from 'node:child_process';
import { ensureBuilt, portOf, SERVER_NODE_FLAGS } from './_server.js';

const RUNS = Number(process.env.RUNS ?? 10);

async function startOnce(): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/src/main.js'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    const port = await portOf(child, 15_000);
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        if (res.status === 200) return performance.now() - t0;
      } catch {
        // not listening yet
      }
      if (performance.now() - t0 > 15_000) throw new Error('service did not answer within 15 s');
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

ensureBuilt();
const times: number[] = [];
for (let i = 0; i < RUNS; i++) times.push(await startOnce());
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
console.log(
  `startup (process start → first 200 on /health), ${RUNS} runs: median ${pct(50).toFixed(0)} ms, p90 ${pct(90).toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms (target < 1000 ms: ${pct(50) < 1000 ? 'met' : 'NOT met'})`,
);
