/** Uploaded invoice files → ingest(), with unusable input answered as 400 ProblemDetails carrying the ingest code. */
import { ingest, IngestError, type IngestResult } from '../input/ingest.js';
import { ProblemError } from './errors.js';
import type { UploadedFile } from './multipart.js';

export async function ingestUpload(file: UploadedFile): Promise<IngestResult> {
  try {
    return await ingest(file.data, file.filename);
  } catch (err) {
    if (err instanceof IngestError) throw new ProblemError(400, 'Bad Request', err.message, { code: err.code });
    throw err;
  }
}
