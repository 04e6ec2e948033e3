/**
 * Where @cantoo/pdf-lib runs: a worker thread with a heap cap and a deadline, killed and replaced on
 * overrun. The library parses every object of a file and allocates what the file claims; our gate
 * (lazy.ts, full-read.ts) vets counts and sizes first, and this is the second line: whatever the gate
 * missed can cost one worker, never the process or its event loop.
 *
 * /v1/convert and /v1/merge embed small PDFs whose xref the gate read cleanly on the calling thread (see
 * INLINE_EMBED_MAX_BYTES in full-read.ts for the measurement and the reasoning); everything else that needs
 * the library (the full parse of a damaged file, embedding a large one) runs here. The first job pays the
 * worker's start and module load once (excluded from its deadline); the thread then stays.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Piscina } from 'piscina';
import { PoolBusyError, WorkerGate } from '../workers/gate.js';
import type { PdfTask, PdfTaskAnswer } from './pdf-task.js';

/** Time for one pdf-lib job, waiting for a worker included (the bound: an answer within 5 s). */
export const PDF_TASK_TIMEOUT_MS = 4_000;
/** Old-generation heap of a PDF worker: a 10 MB honest PDF needs well under 100 MB of pdf-lib objects. */
export const PDF_WORKER_HEAP_MB = 256;
/** PDF worker threads (the machine's cores are shared with the validation pool). */
export const PDF_WORKER_THREADS = 1;
/** Jobs that may wait for a PDF worker; one more is answered 503 with Retry-After. */
export const PDF_MAX_WAITING = 32;

/** The job ran out of time or memory in the worker (which was killed and is replaced). */
export class PdfWorkerOverrunError extends Error {
  constructor(readonly reason: 'time' | 'memory') {
    super(
      reason === 'time'
        ? `reading it takes longer than ${PDF_TASK_TIMEOUT_MS / 1000} s`
        : `reading it needs more than ${PDF_WORKER_HEAP_MB} MB of memory`,
    );
    this.name = 'PdfWorkerOverrunError';
  }
}

function workerFile(): string {
  const js = fileURLToPath(new URL('./pdf-worker.js', import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL('./pdf-worker-tsx.mjs', import.meta.url));
}

let pool: Piscina | undefined;
let gate: WorkerGate | undefined;
/** Threads that have loaded the library: a job's deadline must not pay for a thread's start. */
const warm = new Set<number>();
/** Time a new thread may take to start and load pdf-lib (under tsx, in tests, this compiles ~400 modules). */
const WARM_UP_TIMEOUT_MS = 60_000;

function thePool(): { pool: Piscina; gate: WorkerGate } {
  pool ??= new Piscina({
    filename: workerFile(),
    // Created on the first PDF job, then one thread stays (with pdf-lib loaded, ~50 MB): a cold start
    // (module load) on a later request would cost that request its latency. A killed thread is replaced.
    minThreads: 1,
    maxThreads: PDF_WORKER_THREADS,
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: PDF_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
  });
  gate ??= new WorkerGate(PDF_WORKER_THREADS, PDF_MAX_WAITING);
  return { pool, gate };
}

/** Run a pdf-lib job in the PDF worker. Throws PdfWorkerOverrunError (time, memory) or PoolBusyError (queue full, or no worker in time). */
export async function runPdfTask(task: PdfTask, timeoutMs = PDF_TASK_TIMEOUT_MS): Promise<PdfTaskAnswer> {
  const { pool, gate } = thePool();
  let deadline = performance.now() + timeoutMs;
  if (!(await gate.acquire(deadline))) throw new PoolBusyError();
  try {
    if (!pool.threads.some((t) => warm.has(t.threadId))) {
      warm.add((await pool.run({ kind: 'warm' } satisfies PdfTask, { signal: AbortSignal.timeout(WARM_UP_TIMEOUT_MS) })) as number);
      deadline = Math.max(deadline, performance.now() + timeoutMs);
    }
    return (await pool.run(task, { signal: AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now()))) })) as PdfTaskAnswer;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.name === 'AbortError' || e.name === 'TimeoutError') throw new PdfWorkerOverrunError('time');
    if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') throw new PdfWorkerOverrunError('memory');
    throw err;
  } finally {
    gate.release();
  }
}

/** End the PDF workers (tests, shutdown). */
export async function closePdfPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  gate = undefined;
  await p?.destroy();
}
