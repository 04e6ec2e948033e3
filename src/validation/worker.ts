/**
 * Worker-thread entry of the validation pool: validates bytes off the main event loop. Errors that
 * mean "bad upload" are returned as data, because class identity does not survive the thread hop.
 */
import { IngestError } from '../input/ingest.js';
import { validateBytes, type ValidateOptions, type ValidationResult } from './validate.js';

export interface WorkerTask {
  bytes: Uint8Array;
  filename?: string;
  options?: ValidateOptions;
}

export type WorkerAnswer = { result: ValidationResult } | { ingestError: { code: IngestError['code']; message: string } };

export default async function validateInWorker(task: WorkerTask): Promise<WorkerAnswer> {
  try {
    return { result: await validateBytes(task.bytes, task.filename, task.options) };
  } catch (err) {
    if (err instanceof IngestError) return { ingestError: { code: err.code, message: err.message } };
    throw err;
  }
}
