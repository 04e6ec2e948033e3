/** Read and validate files from disk into FileOutcomes; nothing here throws (a bad file is one failed entry). */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { EInvoiceError } from '../lib/errors.js';
import { validate, type ValidateCallOptions } from '../lib/operations.js';
import { countFindings, unreadable, type FileOutcome } from './outcome.js';

// Non-blocking open: a FIFO would otherwise block open() until a writer comes (O_NONBLOCK is POSIX; 0 elsewhere).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function readBounded(file: string, maxBytes: number): Uint8Array {
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const st = fstatSync(fd);
    // Not a regular file (a FIFO, a device that never ends, a folder): not read at all.
    if (!st.isFile()) throw new EInvoiceError('NOT_A_FILE', 'not a regular file', 400);
    const size = st.size;
    if (size > maxBytes)
      throw new EInvoiceError('FILE_TOO_LARGE', `the file has ${size} bytes, more than --max-size allows (${maxBytes})`, 413);
    const buf = Buffer.allocUnsafe(size);
    let off = 0;
    while (off < size) {
      const n = readSync(fd, buf, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    return new Uint8Array(buf.buffer, buf.byteOffset, off);
  } finally {
    closeSync(fd);
  }
}

/** A file's bytes, or its failed entry when it cannot be read (never throws). */
export function readInput(file: string, maxBytes: number): Uint8Array | FileOutcome {
  try {
    return readBounded(file, maxBytes);
  } catch (err) {
    if (err instanceof EInvoiceError) return unreadable(file, err.code, err.message);
    return unreadable(file, 'READ_ERROR', (err as Error).message);
  }
}

/**
 * Validate a file's bytes as read by readInput (a failed read passes through) into its outcome; never throws.
 * `readMs` is the time its read took, counted in the outcome's `ms`.
 */
export async function validateInput(
  file: string,
  input: Uint8Array | FileOutcome,
  options: ValidateCallOptions,
  readMs = 0,
): Promise<FileOutcome> {
  if (!(input instanceof Uint8Array)) return input;
  const t0 = performance.now() - readMs;
  try {
    const result = await validate(input, { ...options, filename: file });
    const { errorCount, warningCount } = countFindings(result.errors);
    return { file, status: result.valid ? 'valid' : 'invalid', result, errorCount, warningCount, ms: performance.now() - t0 };
  } catch (err) {
    if (err instanceof EInvoiceError) return unreadable(file, err.code, err.message, performance.now() - t0);
    return unreadable(
      file,
      'INTERNAL_ERROR',
      `the engine failed on this file: ${(err as Error)?.message ?? String(err)}`,
      performance.now() - t0,
    );
  }
}
