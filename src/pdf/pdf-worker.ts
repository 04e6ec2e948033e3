/**
 * Entry of the PDF worker (./pool.ts): the jobs that run @cantoo/pdf-lib. Answers are data (class
 * identity does not survive the thread hop); the main thread turns them back into its errors.
 */
import type { PdfTask, PdfTaskAnswer } from './pdf-task.js';

import { threadId } from 'node:worker_threads';

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
