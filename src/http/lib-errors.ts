/**
 * The library's typed errors (src/lib/errors.ts) as the HTTP answers the central error handler sends:
 * EInvoiceError → ProblemDetails with the same `code` and extension members, ShapeError → 422 HTTPValidationError.
 */
import { EInvoiceError, ShapeError } from '../lib/errors.js';
import { ProblemError, RequestShapeError } from './errors.js';

const TITLE_BY_CODE: Record<string, string> = { LICENSE_REQUIRED: 'License required' };

/** A library error as the HTTP error the handler answers; anything else passes through unchanged. */
export function libErrorToHttp(err: unknown): unknown {
  if (err instanceof ShapeError) return new RequestShapeError(err.issues);
  if (err instanceof EInvoiceError)
    return new ProblemError(err.status, TITLE_BY_CODE[err.code], err.message, { code: err.code, ...err.extras });
  return err;
}

/** Run a library call; its typed errors become HTTP errors. */
export async function viaLib<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw libErrorToHttp(err);
  }
}
