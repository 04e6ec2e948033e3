/**
 * Where validation runs. Small jobs on the calling thread, big ones in worker threads (piscina):
 *
 * - A typical invoice (10–30 KB) validates in well under a millisecond. Sending it to a worker
 *   costs more than the work (structured clone of the bytes and of the result, a thread hop, a
 *   second copy of the rule sets in memory), and on a 2-core machine the hop's CPU is what limits
 *   throughput. So invoices whose XML is at most `inlineMaxBytes` (VALIDATION_INLINE_MAX_KB, default
 *   128 KB: a few milliseconds of work at most) are validated inline.
 * - A bigger invoice goes to the pool, so that it does not stall the event loop for other requests,
 *   and a pathological one is cut off by `timeoutMs` (the worker running it is terminated and
 *   replaced; the request is answered with ValidationTimeoutError). For a PDF the size that counts
 *   is that of the embedded XML (a small PDF can carry a large compressed XML): it is taken out of
 *   the PDF inline, and if it is too big the whole upload is handed to the pool.
 * - Inline work uses one core. When the main thread is saturated (its event-loop utilisation over the
 *   last 100 ms is above 80%) and a worker is free, small invoices are sent to the pool as well, so
 *   that under sustained load both the main thread and the workers validate.
 * - The pool starts its threads on first need and lets idle ones go, so a service that only sees
 *   typical invoices at a moderate rate does not carry them in memory.
 *
 * `WORKERS=0` validates everything inline (no pool, no time bound); `VALIDATION_INLINE_MAX_KB=0`
 * sends everything to the pool.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Piscina } from 'piscina';
import { IngestError, XmlTooLargeError } from '../input/ingest.js';
import type { ValidateOptions, ValidationResult } from './validate.js';
import type { WorkerAnswer, WorkerTask } from './worker.js';

export class ValidationTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Validation did not finish within ${timeoutMs} ms`);
    this.name = 'ValidationTimeoutError';
  }
}

export interface ValidationRunner {
  /** inline: everything on the calling thread (WORKERS=0); pool: big jobs in worker threads, small ones inline. */
  readonly mode: 'inline' | 'pool';
  /** Always through a worker (pool mode only): the readiness check uses it to prove the pool works. */
  /** How many validations ran where, since start (tests, diagnostics). */
  readonly counts: { inline: number; pool: number };
  validateInWorker?(bytes: Uint8Array, filename?: string, options?: ValidateOptions, timeoutMs?: number): Promise<ValidationResult>;
  /** `timeoutMs` overrides the runner's bound for this call (pool mode). */
  validate(bytes: Uint8Array, filename?: string, options?: ValidateOptions, timeoutMs?: number): Promise<ValidationResult>;
  close(): Promise<void>;
}

export interface RunnerOptions {
  /** Worker threads; 0 = validate inline on the calling thread. */
  workers: number;
  /** Time bound per validation (pool mode only; an inline call cannot be interrupted). */
  timeoutMs: number;
  /** Pool mode: invoice XML up to this many bytes is validated inline (default 128 KB; 0 = never inline). */
  inlineMaxBytes?: number;
  /** Pool mode: is the main thread saturated? (default: event-loop utilisation, see mainThreadBusy). Tests inject it. */
  isBusy?: () => boolean;
}

/**
 * Event-loop utilisation of this thread over the last ~100 ms is above 80%: the main thread is the
 * bottleneck, so small jobs may go to idle workers too. Sampled by an unref'd timer, so the check is a
 * property read; the timer starts with the first pool-mode runner.
 */
let busy = false;
let busyTimer: NodeJS.Timeout | undefined;
function mainThreadBusy(): boolean {
  if (!busyTimer) {
    let last = performance.eventLoopUtilization();
    busyTimer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      busy = performance.eventLoopUtilization(now, last).utilization > 0.8;
      last = now;
    }, 100);
    busyTimer.unref();
  }
  return busy;
}

export const DEFAULT_INLINE_MAX_BYTES = 128 * 1024;

export const DEFAULT_VALIDATION_TIMEOUT_MS = 30_000;

/**
 * The worker module next to this file: worker.js when running compiled code (dist/); under tsx
 * (tests, benchmarks) a small .mjs shim that registers tsx in the worker, then loads worker.ts.
 */
function workerFile(): string {
  const js = fileURLToPath(new URL('./worker.js', import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL('./worker-tsx.mjs', import.meta.url));
}

export function createValidationRunner(opts: RunnerOptions): ValidationRunner {
  // The pipeline is loaded on first use, not at start-up (it brings every rule set).
  let pipeline: Promise<typeof import('./validate.js')> | undefined;
  const loadPipeline = () => (pipeline ??= import('./validate.js'));
  const counts = { inline: 0, pool: 0 };
  if (opts.workers <= 0) {
    return {
      mode: 'inline',
      counts,
      async validate(bytes, filename, options) {
        counts.inline++;
        return (await loadPipeline()).validateBytes(bytes, filename, options);
      },
      close: async () => {},
    };
  }
  const inlineMaxBytes = opts.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES;
  const isBusy = opts.isBusy ?? mainThreadBusy;
  isBusy(); // start sampling now, so that the first busy period is seen
  let inPool = 0;
  const threads = Math.min(opts.workers, Math.max(1, availableParallelism()));
  const pool = new Piscina({
    filename: workerFile(),
    // Threads start on first need; idle ones end after idleTimeout.
    minThreads: 0,
    maxThreads: threads,
    // Queue bound: beyond this many waiting tasks the pool refuses (answered as 503 by the route).
    maxQueue: threads * 256,
    idleTimeout: 60_000,
    // A young generation of 48 MB (semi-spaces of 16 MB, as `npm start` gives the main thread): validation
    // makes short-lived garbage, and the default small semi-spaces made the scavenger run every few invoices.
    resourceLimits: { maxYoungGenerationSizeMb: 48 },
  });
  async function inWorker(bytes: Uint8Array, filename?: string, options?: ValidateOptions, timeoutMs = opts.timeoutMs): Promise<ValidationResult> {
    const task: WorkerTask = { bytes, ...(filename ? { filename } : {}), ...(options ? { options } : {}) };
    let answer: WorkerAnswer;
    counts.pool++;
    inPool++;
    try {
      answer = await pool.run(task, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'AbortError' || name === 'TimeoutError') throw new ValidationTimeoutError(timeoutMs);
      throw err;
    } finally {
      inPool--;
    }
    if ('ingestError' in answer) throw new IngestError(answer.ingestError.code, answer.ingestError.message);
    return answer.result;
  }
  return {
    mode: 'pool',
    counts,
    async validate(bytes, filename, options, timeoutMs) {
      // Small jobs stay inline unless the main thread is saturated and a worker is free.
      if (inlineMaxBytes > 0 && !(inPool < threads && isBusy())) {
        try {
          const result = await (await loadPipeline()).validateBytes(bytes, filename, options, { maxXmlBytes: inlineMaxBytes });
          counts.inline++;
          return result;
        } catch (err) {
          if (!(err instanceof XmlTooLargeError)) {
            counts.inline++;
            throw err;
          }
        }
      }
      return inWorker(bytes, filename, options, timeoutMs);
    },
    validateInWorker: inWorker,
    close: () => pool.destroy(),
  };
}
