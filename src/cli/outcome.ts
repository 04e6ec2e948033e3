/** One file's outcome in a batch, as a worker sends it back and the reporters print it. */
import type { ValidationErrorDetail, ValidationResult } from '../lib/operations.js';

export interface FileOutcome {
  file: string;
  /** valid / invalid (per the engine's verdict), or unreadable (not an invoice file, I/O error, too big, timed out, crashed). */
  status: 'valid' | 'invalid' | 'unreadable';
  /** The validation result (absent when unreadable). */
  result?: ValidationResult;
  /** Why the file could not be validated: the API's code (NOT_PDF_OR_XML, XML_MALFORMED, ...) or the CLI's (READ_ERROR, FILE_TOO_LARGE, TIMEOUT, WORKER_CRASHED). */
  problem?: { code: string; message: string };
  errorCount: number;
  warningCount: number;
  /** Wall time of the file's validation in the worker, ms. */
  ms: number;
  /**
   * The file's report as the batch prints it, made in its thread (see Rendering): `line` in place of `result`, so
   * a thread sends text, not the result's object tree, for the main thread to copy in and print.
   */
  rendered?: { line: string; findings: string };
}

/**
 * How a batch thread renders its outcomes for text, json or html output (junit and sarif need the results); html
 * links each file from `reportDir`, the folder the report is written to.
 */
export type Rendering = { format: 'json' } | { format: 'text'; colour: boolean } | { format: 'html'; reportDir: string };

/** A file's outcome without its report (result or rendered text): what the summary and the exit code read. */
export const withoutReport = ({ result: _result, rendered: _rendered, ...verdict }: FileOutcome): FileOutcome => verdict;

export function countFindings(errors: readonly ValidationErrorDetail[]): { errorCount: number; warningCount: number } {
  let errorCount = 0;
  let warningCount = 0;
  for (const e of errors) {
    if (e.severity === 'error') errorCount++;
    else if (e.severity === 'warning') warningCount++;
  }
  return { errorCount, warningCount };
}

export function unreadable(file: string, code: string, message: string, ms = 0): FileOutcome {
  return { file, status: 'unreadable', problem: { code, message }, errorCount: 1, warningCount: 0, ms };
}
