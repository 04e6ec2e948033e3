/**
 * Where validation runs: in worker threads (piscina, `WORKERS` > 0) so that a large invoice does
 * not stall the event loop for other requests and a pathological one can be cut off, or inline
 * (`WORKERS=0`) for the lowest latency when the caller accepts that trade-off.
 *
 * Bounds: the upload size is bounded by the multipart reader (MAX_UPLOAD_SIZE_MB), the XML by the
 * parser's depth/element limits, and the time by `timeoutMs` (pool mode: the worker running an
 * over-time task is terminated and replaced; the request is answered with ValidationTimeoutError).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { IngestError } from '../input/ingest.js';
import type { ValidateOptions, ValidationResult } from './validate.js';
import type { WorkerAnswer, WorkerTask } from './worker.js';

export class ValidationTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Validation did not finish within ${timeoutMs} ms`);
    this.name = 'ValidationTimeoutError';
  }
}

export interface ValidationRunner {
  readonly mode: 'inline' | 'pool';
  /** `timeoutMs` overrides the runner's bound for this call (pool mode). */
  validate(bytes: Uint8Array, filename?: string, options?: ValidateOptions, timeoutMs?: number): Promise<ValidationResult>;
  close(): Promise<void>;
}

export interface RunnerOptions {
  /** Worker threads; 0 = validate inline on the calling thread. */
  workers: number;
  /** Time bound per validation (pool mode only; an inline call cannot be interrupted). */
  timeoutMs: number;
}

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
  if (opts.workers <= 0) {
    // Loaded only here: in pool mode the rule sets and the XSD schemas (~140 MB) live in the workers alone.
    const loaded = import('./validate.js');
    return { mode: 'inline', validate: async (bytes, filename, options) => (await loaded).validateBytes(bytes, filename, options), close: async () => {} };
  }
  const threads = Math.min(opts.workers, Math.max(1, availableParallelism()));
  const pool = new Piscina({
    filename: workerFile(),
    minThreads: threads,
    maxThreads: threads,
    // Queue bound: beyond this many waiting tasks the pool refuses (answered as 503 by the route).
    maxQueue: threads * 256,
    idleTimeout: 60_000,
  });
  return {
    mode: 'pool',
    async validate(bytes, filename, options, timeoutMs = opts.timeoutMs) {
      const task: WorkerTask = { bytes, ...(filename ? { filename } : {}), ...(options ? { options } : {}) };
      let answer: WorkerAnswer;
      try {
        answer = await pool.run(task, { signal: AbortSignal.timeout(timeoutMs) });
      } catch (err) {
        const name = (err as Error).name;
        if (name === 'AbortError' || name === 'TimeoutError') throw new ValidationTimeoutError(timeoutMs);
        throw err;
      }
      if ('ingestError' in answer) throw new IngestError(answer.ingestError.code, answer.ingestError.message);
      return answer.result;
    },
    close: () => pool.destroy(),
  };
}
