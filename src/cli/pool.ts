/**
 * The batch's worker threads: `jobs` threads, each sent its files in chunks and kept a chunk ahead (a thread
 * never waits for the main thread between two files), results delivered as they come, a batch of them per
 * message (the caller restores input order). Two messages per chunk rather than two per file: at a thousand files
 * a second the per-message cost (structured clone, waking the other thread) was a tenth of the batch's CPU.
 * Chunks shrink towards the end of the list so the threads finish together.
 *
 * A file that takes longer than `timeoutMs`, or kills its thread (out of memory, crash), is a failed entry: the
 * thread is replaced and the files queued behind it go to the new one. Which file a thread was on when it stopped
 * is read from the progress array it shares with this thread (pool-protocol.ts), so the outcomes it had finished
 * but not yet sent are validated again rather than blamed.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { ValidateCallOptions } from '../lib/operations.js';
import { unreadable, type FileOutcome, type Rendering } from './outcome.js';
import { P_AHEAD, P_BUSY, P_FINISHED, P_STARTED, PROGRESS_SLOTS, type Chunk, type Results } from './pool-protocol.js';

export interface PoolOptions {
  jobs: number;
  options: ValidateCallOptions;
  maxBytes: number;
  timeoutMs: number;
  /** Heap limit of each thread, MB: a hostile file exhausts its thread, not the process. */
  maxHeapMb?: number;
  /** Render each outcome in its thread (FileOutcome.rendered) instead of sending its result. */
  render?: Rendering;
}

/** Largest chunk sent to a thread (files): big enough that messages are rare, small enough to balance the tail. */
export const MAX_CHUNK = 16;

/**
 * V8 flags for the batch's threads. A thread starts cold and meets the engine's thousand-odd rule functions, each
 * run once per document, so over a batch of a few thousand files V8 spent much of its CPU compiling and collecting
 * rather than validating (measured with --trace-opt: 30–60 TurboFan compiles per pass over the 383 corpus XML files
 * even after ten passes, up to 130 ms each for functions with large inlined trees). For this load:
 * - four times the default interrupt budget (67,584 in Node 20): only the functions that stay hot are optimised;
 * - no TurboFan inlining: the optimised functions compile in a fraction of the time, and run about as fast;
 * - Sparkplug (baseline code) for every function when it is first compiled: cold rule code leaves the
 *   interpreter at once.
 * On the 383 corpus XML files repeated to 4,213 with 2 jobs (three A/B pairs interleaved on the quiet 2-core
 * machine, against the budget alone): CPU per file 2.39–2.50 → 2.24–2.42 ms, V8 helper threads 0.69–0.73 →
 * 0.56–0.60 ms, 778–808 → 793–862 files/s end to end. Most of the helpers' remaining CPU is the parallel and
 * concurrent GC: --single-threaded-gc saves another ~20%, but set at run time (as here) it crashed V8 on a 20,000-file
 * run ("Check failed: concurrent_marking_handle_"): a large batch gets it on the command line of a process of its
 * own instead (BATCH_NODE_FLAGS below).
 * Set before the threads start, so their isolates take them (V8 flags are process-wide: the main thread, which
 * only reads outcomes, gets them too). EINVOICE_V8_DEFAULTS=1 leaves V8's defaults.
 */
export const BATCH_INTERRUPT_BUDGET = 4 * 67_584;
export const BATCH_V8_FLAGS = [`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`, '--no-turbo-inlining', '--always-sparkplug'] as const;
/**
 * The flags a large batch's process is started with (validate-cmd.ts): BATCH_V8_FLAGS and the single-threaded GC.
 * On the 383 corpus XML files repeated to 20,299 with 2 jobs (quiet machine): 1,262 files/s end to end and 1.54 ms
 * CPU per file with the run-time flags alone (one run); with these 1,113–1,613 files/s and 1.23–1.77 ms in four
 * runs (the machine's speed drifts between them), V8 helper threads 0.33 → 0.09–0.10 ms.
 */
export const BATCH_NODE_FLAGS: readonly string[] = [...BATCH_V8_FLAGS, '--single-threaded-gc'];

/** Should a batch here move to a process started with BATCH_NODE_FLAGS? No when this is one, or V8's defaults were asked for. */
export function batchProcessWanted(): boolean {
  if (process.env.EINVOICE_V8_DEFAULTS === '1') return false;
  return !BATCH_NODE_FLAGS.every((flag) => process.execArgv.includes(flag));
}
let tuned = false;
/** Set BATCH_V8_FLAGS at run time: not with V8's defaults asked for, nor in a process started with the flags. */
function tuneForBatch(): void {
  if (tuned || !batchProcessWanted()) return;
  tuned = true;
  for (const flag of BATCH_V8_FLAGS) setFlagsFromString(flag);
}

function workerFile(): string {
  const js = fileURLToPath(new URL('./worker.js', import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL('./worker-tsx.mjs', import.meta.url));
}

/**
 * The node options of a batch thread: none when it runs the compiled worker, which needs none of its parent's (V8
 * flags are the process's whatever a thread is given, its heap limit comes with resourceLimits, module loaders are
 * for the sources); the parent's, inherited, when it runs the sources (worker-tsx.mjs). A parent run through a
 * loader (tsx, as `npm run bench:cli` is) otherwise had each compiled thread load and register it again: ~85 ms
 * more of every thread's start, 3–4% fewer files per second over 4,213 files with 2 jobs (measured).
 */
export const workerExecArgv = (file: string): string[] | undefined => (file.endsWith('.js') ? [] : undefined);

/**
 * A thread of a batch pays its start and its own JIT warm-up (about 1.4 s of CPU on the 2-core VM, see
 * docs/performance.md) before it runs at full speed, so a second thread only pays for itself on a batch with enough
 * work to share. Measured with the command on the corpus's XML files (2026-11-27, three runs each): 20 files 0.70 s
 * with 1 thread, 0.83 s with 2; 100 files 0.94 / 1.00 s; 390 files 1.26 / 1.40 s; equal at ~770 files, 2 threads
 * ahead from ~1,150; the 156 corpus PDFs (56 MB) took the same with 1 or 2. A batch therefore gets one thread per
 * FILES_PER_THREAD files or BYTES_PER_THREAD bytes (whichever asks for more: a few large files are work enough), up
 * to `jobs`.
 */
export const FILES_PER_THREAD = 800;
export const BYTES_PER_THREAD = 16 * 1024 * 1024;

/** How many threads a batch of `files` gets with --jobs `jobs`; `sizeOf` is asked only while it could change that. */
export function threadsFor(jobs: number, files: readonly string[], sizeOf: (file: string) => number): number {
  let threads = Math.max(1, Math.min(jobs, Math.ceil(files.length / FILES_PER_THREAD)));
  let bytes = 0;
  for (let i = 0; i < files.length && threads < jobs; i++) {
    bytes += sizeOf(files[i]);
    threads = Math.max(threads, Math.min(jobs, Math.ceil(bytes / BYTES_PER_THREAD)));
  }
  return threads;
}

interface Slot {
  worker: Worker;
  /** Files sent and not answered yet, oldest first (the thread works through them in this order). */
  pending: { id: number; file: string }[];
  /** Outcomes received from this thread. */
  received: number;
  /** Shared with the thread: files finished, busy flag, start of the current file (pool-protocol.ts). */
  progress: Int32Array;
  epoch: number;
  dead: boolean;
  lose(code: string, message: string): void;
}

/** Validate `files` over the threads; `onOutcome(index, outcome)` for each, in completion order. */
export async function runPool(
  files: readonly string[],
  pool: PoolOptions,
  onOutcome: (index: number, outcome: FileOutcome) => void,
): Promise<void> {
  let next = 0;
  let done = 0;
  const total = files.length;
  if (total === 0) return;
  const jobs = Math.max(1, Math.min(pool.jobs, total));
  const retry: number[] = []; // files to resend (their thread stopped before answering them)
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

  // About four chunks per thread of what is left, at most MAX_CHUNK: the last chunks are single files.
  const chunkSize = () => Math.max(1, Math.min(MAX_CHUNK, Math.ceil((total - next + retry.length) / (jobs * 4))));

  const feed = (slot: Slot) => {
    while (!slot.dead && (retry.length > 0 || next < total)) {
      const size = chunkSize();
      if (slot.pending.length >= 2 * size) break; // the chunk in work and one queued behind it
      const chunk: Chunk = { ids: [], files: [] };
      while (chunk.ids.length < size && (retry.length > 0 || next < total)) {
        const id = retry.length > 0 ? retry.shift()! : next++;
        chunk.ids.push(id);
        chunk.files.push(files[id]);
        slot.pending.push({ id, file: files[id] });
      }
      slot.worker.postMessage(chunk);
    }
  };

  const spawn = (index: number): Slot => {
    const shared = new SharedArrayBuffer(PROGRESS_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    const epoch = Date.now();
    const file = workerFile();
    const worker = new Worker(file, {
      execArgv: workerExecArgv(file),
      workerData: { options: pool.options, maxBytes: pool.maxBytes, progress: shared, epoch, render: pool.render },
      resourceLimits: { maxOldGenerationSizeMb: pool.maxHeapMb ?? 2048 },
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, pending: [], received: 0, progress: new Int32Array(shared), epoch, dead: false, lose: () => {} };
    slots[index] = slot;
    worker.on('message', (msg: Results) => {
      if (slot.dead) return; // its files were already given to another thread
      for (let i = 0; i < msg.ids.length; i++) {
        const id = msg.ids[i];
        const at = slot.pending[0]?.id === id ? 0 : slot.pending.findIndex((p) => p.id === id);
        if (at >= 0) slot.pending.splice(at, 1);
        slot.received++;
        deliver(id, msg.outcomes[i]);
      }
      feed(slot);
    });
    slot.lose = (code: string, message: string) => {
      if (slot.dead) return;
      slot.dead = true;
      // The thread finished (but did not send) the first `unsent` pending files; it was on the next one, or, while
      // reading its chunk ahead, on the one P_AHEAD places further.
      const unsent = Math.max(0, Math.min(slot.pending.length, Atomics.load(slot.progress, P_FINISHED) - slot.received));
      const on = Math.min(slot.pending.length, unsent + Atomics.load(slot.progress, P_AHEAD));
      const head = slot.pending[on];
      retry.push(...slot.pending.filter((_, i) => i !== on).map((p) => p.id));
      slot.pending = [];
      void worker.terminate();
      if (head) deliver(head.id, unreadable(head.file, code, message));
      if (done < total) {
        try {
          feed(spawn(index));
        } catch (err) {
          fail(err);
        }
      }
    };
    worker.on('error', (err) => slot.lose('WORKER_CRASHED', `the validation thread failed on this file: ${err.message}`));
    worker.on('exit', (code) => {
      if (!slot.dead && done < total) slot.lose('WORKER_CRASHED', `the validation thread exited (code ${code}) on this file`);
    });
    return slot;
  };

  tuneForBatch();
  for (let i = 0; i < jobs; i++) feed(spawn(i));

  const watchdog = setInterval(
    () => {
      const now = Date.now();
      for (const slot of slots) {
        if (
          !slot.dead &&
          Atomics.load(slot.progress, P_BUSY) === 1 &&
          now - (slot.epoch + Atomics.load(slot.progress, P_STARTED)) > pool.timeoutMs
        ) {
          slot.lose('TIMEOUT', `validation did not finish within ${pool.timeoutMs} ms`);
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
