/**
 * The PDF/A layer merged into a validation result where the validation runs (inline, or in the worker for a
 * big PDF): the library's withPdfaRequest, loaded on first use.
 */
import type { ValidationResult } from './validate.js';

let operations: Promise<typeof import('../lib/operations.js')> | undefined;

export async function withPdfa(result: ValidationResult, bytes: Uint8Array, pdfa: boolean | undefined): Promise<ValidationResult> {
  if (!pdfa) return result;
  return (await (operations ??= import('../lib/operations.js'))).withPdfaRequest(result, bytes, true);
}
