/** The messages between the batch's main thread (pool.ts) and its validation threads (worker.ts). */
import type { FileOutcome } from './outcome.js';

/** Main → worker: files to validate, in this order. */
export interface Chunk {
  ids: number[];
  files: string[];
}

/** Worker → main: outcomes of the oldest files sent and not answered yet, in the order sent. */
export interface Results {
  ids: number[];
  outcomes: FileOutcome[];
}

/** A worker answers at least this often (ms) while a chunk runs, so progress and streamed output stay live. */
export const FLUSH_MS = 100;

// Slots of the Int32Array each worker shares with the main thread.
/** Files the worker has finished since it started. */
export const P_FINISHED = 0;
/** 1 while a file is being read or validated. */
export const P_BUSY = 1;
/** When the current file started, ms after the worker's `epoch`. */
export const P_STARTED = 2;
/**
 * While the worker reads a chunk's files ahead of validating them: the position in the chunk of the file being
 * read (0 otherwise, when the file it is on is the first of its chunk not finished).
 */
export const P_AHEAD = 3;
export const PROGRESS_SLOTS = 4;
