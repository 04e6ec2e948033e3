/**
 * A validation thread of `einvoice validate --jobs N`: it is sent chunks of files, validates them in the order
 * received and answers with the outcomes in batches (one message per chunk, or sooner when a chunk runs long), so
 * a batch costs two messages per chunk instead of two per file. Before and after each file it notes in the
 * shared `progress` array how far it got, so the main thread can tell, without a message, which file a stuck or
 * crashed thread was on (see pool.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ValidateCallOptions } from '../lib/operations.js';
import type { FileOutcome, Rendering } from './outcome.js';
import { COLOURS, jsonLine, PLAIN, textFindings, textLine } from './report.js';
import { FLUSH_MS, P_BUSY, P_FINISHED, P_STARTED, type Chunk, type Results } from './pool-protocol.js';
import { validateFile } from './validate-file.js';

const { options, maxBytes, progress, epoch, render } = workerData as {
  options: ValidateCallOptions;
  maxBytes: number;
  progress: SharedArrayBuffer;
  epoch: number;
  render?: Rendering;
};
const style = render?.format === 'text' && render.colour ? COLOURS : PLAIN;

/**
 * The outcome as the batch prints it, its result dropped: copying a result's object tree to the main thread (and
 * building the JSON line there) was ~0.09 ms of the main thread's CPU per file with --format json, beside the two
 * validating threads on a 2-core machine; a string costs next to nothing to send.
 */
function rendered(outcome: FileOutcome): FileOutcome {
  if (!render) return outcome;
  const line = render.format === 'json' ? jsonLine(outcome) : `${textLine(outcome, style)}\n`;
  const findings = render.format === 'text' ? textFindings(outcome, style) : '';
  const { result: _result, ...verdict } = outcome;
  return { ...verdict, rendered: { line, findings } };
}
const state = new Int32Array(progress);
const queue: Chunk[] = [];
let running = false;
let finished = 0;

async function drain(): Promise<void> {
  running = true;
  while (queue.length > 0) {
    const chunk = queue.shift()!;
    let ids: number[] = [];
    let outcomes: FileOutcome[] = [];
    let lastFlush = performance.now();
    for (let i = 0; i < chunk.ids.length; i++) {
      Atomics.store(state, P_STARTED, Date.now() - epoch);
      Atomics.store(state, P_BUSY, 1);
      const outcome = rendered(await validateFile(chunk.files[i], options, maxBytes));
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
