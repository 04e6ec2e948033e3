/**
 * Runs the inline jobs (small validations, XML generation, extraction) that arrive in one turn of the
 * event loop together, and only then settles them, so that their HTTP answers are written one after the
 * other too. A job written as stages (validation: parse, read, XSD, each rule set and family; src/util/stages.ts)
 * runs in rounds with the others: every job's first stage, then every job's second, and so on.
 *
 * Why, measured on the 2-core machine (wrk, concurrency 8, the 26 KB CII example, one process):
 * - Answering each request as soon as its validation ended put a socket write (on loopback, the
 *   kernel's whole TCP path for the reader as well) between every two validations, and the next
 *   validation ran on cold CPU caches: a second validation of the same upload in the same request cost
 *   0.75–0.8 ms of CPU, the first ~1.0. Validating a turn's requests back to back but writing each
 *   answer at once saved nothing; writing the answers after the whole batch took the service from
 *   1.06–1.09 to 0.87 ms of CPU per request, 920 → 1,150 req/s.
 * - A validation is bound by memory access, and its stages each bring their own code and tables into
 *   the caches; within one document they evict each other. Run stage by stage over a batch, a stage
 *   finds them still cached from the document before: 7 validations in rounds cost 0.75 of the CPU time
 *   of the same 7 one after the other, 3 cost 0.81–0.83 (README, Performance).
 *
 * A batch takes as many jobs as fit in `maxBatchMs` at the recent cost per job (at least one), so that
 * the first answer of a batch waits at most about that long for the others; the rest run in the next
 * turn, after the event loop has served I/O. A lone request waits for nothing but one setImmediate.
 */
import { performance } from 'node:perf_hooks';
import type { AsyncStages } from '../util/stages.js';

interface Job {
  start: () => AsyncStages<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

export const DEFAULT_MAX_BATCH_MS = 10;

/** Work that is not written as stages: one stage. */
// biome-ignore lint/correctness/useYield: one stage, so no intermediate yield: the result is the generator's return value
async function* oneStage<T>(work: () => Promise<T>): AsyncStages<T> {
  return await work();
}

export class InlineBatch {
  private readonly queue: Job[] = [];
  private scheduled = false;
  /** Recent CPU time per job, for the batch size (a moving average; starts at a typical validation). */
  private msPerJob = 1;
  /** Batches run so far and the jobs in them (diagnostics, tests). */
  readonly stats = { batches: 0, jobs: 0 };

  constructor(private readonly maxBatchMs = DEFAULT_MAX_BATCH_MS) {}

  /** Runs `work` in the next batch; settles as `work` does, after the whole batch has run. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.runStages(() => oneStage(work));
  }

  /** Runs the stages of `work` in the next batch, in rounds with the other jobs; settles as `work` does, after the whole batch. */
  runStages<T>(work: () => AsyncStages<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ start: work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    const started = performance.now();
    const capacity = Math.max(1, Math.floor(this.maxBatchMs / this.msPerJob));
    const settle: (() => void)[] = [];
    let active: { job: Job; stages: AsyncStages<unknown> }[] = [];
    let taken = 0;
    do {
      // Jobs queued since (a request whose body was read in this turn) join the batch while there is room.
      while (taken < capacity && this.queue.length > 0) {
        const job = this.queue.shift()!;
        taken++;
        try {
          active.push({ job, stages: job.start() });
        } catch (err) {
          settle.push(() => job.reject(err));
        }
      }
      const next: typeof active = [];
      for (const entry of active) {
        try {
          const step = await entry.stages.next();
          if (step.done) settle.push(() => entry.job.resolve(step.value));
          else next.push(entry);
        } catch (err) {
          settle.push(() => entry.job.reject(err));
        }
      }
      active = next;
    } while (active.length > 0 || (taken < capacity && this.queue.length > 0));
    const elapsed = performance.now() - started;
    this.msPerJob = 0.7 * this.msPerJob + 0.3 * (elapsed / taken);
    this.stats.batches++;
    this.stats.jobs += taken;
    this.scheduled = false;
    if (this.queue.length > 0) this.schedule();
    for (const done of settle) done();
  }
}
