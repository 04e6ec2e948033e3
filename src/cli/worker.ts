/**
 * A validation thread of `einvoice validate --jobs N`: it is sent chunks of files, validates them in the order
 * received and answers with the outcomes in batches (one message per chunk, or sooner when a chunk runs long), so
 * a batch costs two messages per chunk instead of two per file. A chunk's files are read first, then validated.
 * Before and after each read and each validation it notes in the shared `progress` array how far it got, so the
 * main thread can tell, without a message, which file a stuck or crashed thread was on (see pool.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ValidateCallOptions } from '../lib/operations.js';
import { withoutReport, type FileOutcome, type Rendering } from './outcome.js';
import { COLOURS, jsonLine, PLAIN, textFindings, textLine } from './report.js';
import { htmlFile, loadReportView } from './html-report.js';
import { FLUSH_MS, P_AHEAD, P_BUSY, P_FINISHED, P_STARTED, type Chunk, type Results } from './pool-protocol.js';
import { readInput, validateInput } from './validate-file.js';

const { options, maxBytes, progress, epoch, render } = workerData as {
  options: ValidateCallOptions;
  maxBytes: number;
  progress: SharedArrayBuffer;
  epoch: number;
  render?: Rendering;
};
const style = render?.format === 'text' && render.colour ? COLOURS : PLAIN;
const view = render?.format === 'html' ? await loadReportView() : undefined;

/**
 * The outcome as the batch prints it, its result dropped: copying a result's object tree to the main thread (and
 * building the JSON line there) was ~0.09 ms of the main thread's CPU per file with --format json, beside the two
 * validating threads on a 2-core machine; a string costs next to nothing to send.
 */
function rendered(outcome: FileOutcome, index: number): FileOutcome {
  if (!render) return outcome;
  const line =
    render.format === 'json'
      ? jsonLine(outcome)
      : render.format === 'html'
        ? htmlFile(view!, outcome, index, render.reportDir)
        : `${textLine(outcome, style)}\n`;
  const findings = render.format === 'text' ? textFindings(outcome, style) : '';
  return { ...withoutReport(outcome), rendered: { line, findings } };
}
const state = new Int32Array(progress);
const queue: Chunk[] = [];
let running = false;
let finished = 0;

/**
 * A chunk's files are read before any of them is validated, up to this many bytes (the rest at their turn). On the
 * 2-core VM a burst of file system calls (open, fstat, read, close) slowed the validation after it by far more than
 * the calls cost, and one call as much as four (measured with a bare fstat before each validation; likely because
 * each kernel entry flushes the CPU's address translations, which the validation then refills: page-table
 * isolation without PCID here): one burst per chunk instead of one per file cost 2 jobs over the 383 corpus XML files
 * repeated to 4,213 3-6% less CPU per file (1.56 -> 1.47 ms in a fast minute, 2.31 -> 2.17 in a slow one) and
 * gave 2-7% more files per second, in six alternating pairs (2026-11-27; a seventh straddled a change in the
 * machine's speed).
 */
const READ_AHEAD_BYTES = 4 * 1024 * 1024;

interface Read {
  input: Uint8Array | FileOutcome;
  ms: number;
}

/** Note in the shared progress array that the thread is on a file (read or validation) from now. */
function busy(): void {
  Atomics.store(state, P_STARTED, Date.now() - epoch);
  Atomics.store(state, P_BUSY, 1);
}

function read(file: string): Read {
  const t0 = performance.now();
  const input = readInput(file, maxBytes);
  return { input, ms: performance.now() - t0 };
}

/** Read the chunk's first files, until READ_AHEAD_BYTES are held; P_AHEAD tells the main thread which is being read. */
function readAhead(files: readonly string[]): (Read | undefined)[] {
  const reads: (Read | undefined)[] = [];
  let held = 0;
  for (let k = 0; k < files.length && held < READ_AHEAD_BYTES; k++) {
    Atomics.store(state, P_AHEAD, k);
    busy();
    const r = read(files[k]);
    Atomics.store(state, P_BUSY, 0);
    if (r.input instanceof Uint8Array) held += r.input.length;
    reads.push(r);
  }
  Atomics.store(state, P_AHEAD, 0);
  return reads;
}

async function drain(): Promise<void> {
  running = true;
  while (queue.length > 0) {
    const chunk = queue.shift()!;
    const reads = readAhead(chunk.files);
    let ids: number[] = [];
    let outcomes: FileOutcome[] = [];
    let lastFlush = performance.now();
    for (let i = 0; i < chunk.ids.length; i++) {
      busy();
      const r = reads[i] ?? read(chunk.files[i]);
      reads[i] = undefined; // its bytes can go once validated
      const outcome = rendered(await validateInput(chunk.files[i], r.input, options, r.ms), chunk.ids[i]);
      Atomics.store(state, P_BUSY, 0);
      Atomics.store(state, P_FINISHED, ++finished);
      ids.push(chunk.ids[i]);
      outcomes.push(outcome);
      const now = performance.now();
      if (i === chunk.ids.length - 1 || now - lastFlush >= FLUSH_MS) {
        parentPort!.postMessage({ ids, outcomes } satisfies Results);
        ids = [];
        outcomes = [];
        lastFlush = now;
      }
    }
  }
  running = false;
}

parentPort!.on('message', (chunk: Chunk) => {
  queue.push(chunk);
  if (!running) void drain();
});
