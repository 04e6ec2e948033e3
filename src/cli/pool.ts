/**
 * The batch's worker threads: `jobs` threads, each kept `depth` files ahead (a thread never waits for the main
 * thread between two files), results delivered as they come (the caller restores input order). A file that
 * takes longer than `timeoutMs`, or kills its thread (out of memory, crash), is a failed entry: the thread is
 * replaced and the files queued behind it go to the new one.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ValidateCallOptions } from '../lib/operations.js';
import { unreadable, type FileOutcome } from './outcome.js';

export interface PoolOptions {
  jobs: number;
  options: ValidateCallOptions;
  maxBytes: number;
  timeoutMs: number;
  /** Heap limit of each thread, MB: a hostile file exhausts its thread, not the process. */
  maxHeapMb?: number;
}

function workerFile(): string {
  const js = fileURLToPath(new URL('./worker.js', import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL('./worker-tsx.mjs', import.meta.url));
}

interface Slot {
  worker: Worker;
  /** Files sent and not answered yet, oldest first. */
  pending: { id: number; file: string }[];
  /** When the oldest pending file started (its predecessor's answer, or its send). */
  since: number;
  dead: boolean;
}

/** Validate `files` over the threads; `onOutcome(index, outcome)` for each, in completion order. */
export async function runPool(
  files: readonly string[],
  pool: PoolOptions,
  onOutcome: (index: number, outcome: FileOutcome) => void,
): Promise<void> {
  const depth = 4;
  let next = 0;
  let done = 0;
  const total = files.length;
  if (total === 0) return;
  const retry: number[] = []; // files to resend (their thread died behind another file)
  let finish!: () => void;
  let fail!: (err: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const slots: Slot[] = [];

  const deliver = (id: number, outcome: FileOutcome) => {
    done++;
    onOutcome(id, outcome);
    if (done === total) finish();
  };

  const feed = (slot: Slot) => {
    while (!slot.dead && slot.pending.length < depth && (retry.length > 0 || next < total)) {
      const id = retry.length > 0 ? retry.shift()! : next++;
      if (slot.pending.length === 0) slot.since = Date.now();
      slot.pending.push({ id, file: files[id] });
      slot.worker.postMessage({ id, file: files[id] });
    }
  };

  const spawn = (index: number) => {
    const worker = new Worker(workerFile(), {
      workerData: { options: pool.options, maxBytes: pool.maxBytes },
      resourceLimits: { maxOldGenerationSizeMb: pool.maxHeapMb ?? 2048 },
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, pending: [], since: Date.now(), dead: false };
    slots[index] = slot;
    worker.on('message', (msg: { id: number; outcome: FileOutcome }) => {
      const at = slot.pending.findIndex((p) => p.id === msg.id);
      if (at >= 0) slot.pending.splice(at, 1);
      slot.since = Date.now();
      deliver(msg.id, msg.outcome);
      feed(slot);
    });
    const lose = (code: string, message: string) => {
      if (slot.dead) return;
      slot.dead = true;
      const [head, ...rest] = slot.pending;
      slot.pending = [];
      void worker.terminate();
      if (head) deliver(head.id, unreadable(head.file, code, message));
      retry.push(...rest.map((r) => r.id));
      if (done < total) {
        try {
          spawn(index);
          feed(slots[index]);
        } catch (err) {
          fail(err);
        }
      }
    };
    worker.on('error', (err) => lose('WORKER_CRASHED', `the validation thread failed on this file: ${err.message}`));
    worker.on('exit', (code) => {
      if (!slot.dead && done < total) lose('WORKER_CRASHED', `the validation thread exited (code ${code}) on this file`);
    });
    (slot as Slot & { lose: typeof lose }).lose = lose;
    return slot;
  };

  const jobs = Math.max(1, Math.min(pool.jobs, total));
  for (let i = 0; i < jobs; i++) feed(spawn(i));

  const watchdog = setInterval(
    () => {
      const now = Date.now();
      for (const slot of slots) {
        if (!slot.dead && slot.pending.length > 0 && now - slot.since > pool.timeoutMs) {
          (slot as Slot & { lose: (c: string, m: string) => void }).lose(
            'TIMEOUT',
            `validation did not finish within ${pool.timeoutMs} ms`,
          );
        }
      }
    },
    Math.min(1000, Math.max(50, pool.timeoutMs / 4)),
  );
  try {
    await finished;
  } finally {
    clearInterval(watchdog);
    await Promise.all(slots.map((s) => (s.dead ? undefined : s.worker.terminate())));
  }
}
