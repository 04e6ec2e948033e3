/**
 * Entry of the PDF worker (./pool.ts): the jobs that run @cantoo/pdf-lib. Answers are data (class
 * identity does not survive the thread hop); the main thread turns them back into its errors.
 */
import type { EmbedOptions, EmbedResult } from './hybrid.js';
import type { FullParseAnswer } from './extract-full.js';

import { threadId } from 'node:worker_threads';

export type PdfTask = { kind: 'warm' } | { kind: 'read'; bytes: Uint8Array } | { kind: 'embed'; bytes: Uint8Array; opts: EmbedOptions };

export type PdfTaskAnswer = FullParseAnswer | { embedded: EmbedResult } | { embedError: { code: string; message: string } };

export default async function runPdfTask(task: PdfTask): Promise<PdfTaskAnswer | number> {
  if (task.kind === 'warm') {
    // Load the library before the first timed job (see pool.ts).
    await Promise.all([import('./extract-full.js'), import('./embed.js')]);
    return threadId;
  }
  if (task.kind === 'read') return (await import('./extract-full.js')).parseFully(task.bytes);
  const { embedInWorker } = await import('./embed.js');
  return embedInWorker(task.bytes, task.opts);
}
