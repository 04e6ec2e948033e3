/**
 * A validation thread of `einvoice validate --jobs N`: it reads and validates the files it is sent, one result
 * message per file, in the order received.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ValidateCallOptions } from '../lib/operations.js';
import { validateFile } from './validate-file.js';

const { options, maxBytes } = workerData as { options: ValidateCallOptions; maxBytes: number };

parentPort!.on('message', async (msg: { id: number; file: string }) => {
  const outcome = await validateFile(msg.file, options, maxBytes);
  parentPort!.postMessage({ id: msg.id, outcome });
});
