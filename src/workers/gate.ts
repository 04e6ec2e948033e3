/**
 * What the service's worker pools share (validation's in src/validation/runner.ts, pdf-lib's in src/pdf/pool.ts):
 * the gate that hands jobs to a pool in the order they came, and the error for a pool whose queue is full. A
 * module of its own below both, so that PDF work and validation work use it without importing each other.
 */
import { performance } from 'node:perf_hooks';

/** The pool's queue is full: the service is overloaded with large jobs (HTTP 503, with Retry-After). */
export class PoolBusyError extends Error {
  constructor() {
    super('Too many large documents are waiting to be processed; try again shortly');
    this.name = 'PoolBusyError';
  }
}

/**
 * Hands jobs to the pool in the order they came. Piscina queues a job that carries an AbortSignal (ours all
 * do: the time bound) in a side queue of its own, and puts back at its tail a job it could not place, so
 * waiting jobs overtake each other: at concurrency 8 with one worker, a few jobs waited the whole 8 s of a
 * load test behind thousands of newer ones (its `stricterFIFO` option made it worse, not better). So the
 * pool gets one job per worker plus one, which then waits in piscina alone: a worker that finishes a job
 * finds the next one there at once instead of idling while the main thread hands it over (with one job per
 * worker, throughput fell by 10-20%). The other jobs wait here, first come first served, until their deadline.
 */
export class WorkerGate {
  private free: number;
  private readonly waiting: { grant: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    private readonly slots: number,
    /** Jobs that may wait; one more is refused (PoolBusyError, answered 503). */
    private readonly maxWaiting: number,
  ) {
    this.free = slots;
  }

  /** Jobs waiting for a worker now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Jobs in the pool or waiting for it. */
  get jobs(): number {
    return this.slots - this.free + this.waiting.length;
  }

  /**
   * Resolves true when the job may run (call release() when it is done), false when `deadline` (a
   * performance.now() time) passed first. Throws PoolBusyError when too many jobs wait already.
   */
  acquire(deadline: number): Promise<boolean> {
    if (this.free > 0 && this.waiting.length === 0) {
      this.free--;
      return Promise.resolve(true);
    }
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(new PoolBusyError());
    return new Promise<boolean>((resolve) => {
      const waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          resolve(true);
        },
        timer: setTimeout(
          () => {
            this.waiting.splice(this.waiting.indexOf(waiter), 1);
            resolve(false);
          },
          Math.max(0, deadline - performance.now()),
        ),
      };
      this.waiting.push(waiter);
    });
  }

  /** A job is done: its worker goes to the longest-waiting job, or back to the free ones. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next.grant();
    else this.free++;
  }
}
