/**
 * The library's errors: one class per HTTP answer class, each carrying the `code` the HTTP API puts in its
 * ProblemDetails (and its extension members in `extras`), so a caller of the library, of the CLI and of the
 * API sees the same codes. src/http/lib-errors.ts maps them to ProblemDetails.
 */

export class EInvoiceError extends Error {
  constructor(
    /** The ProblemDetails `code` (NOT_PDF_OR_XML, XML_MALFORMED, NOT_PDFA3, LICENSE_REQUIRED, ...). */
    readonly code: string,
    message: string,
    /** The HTTP status the API answers this error with. */
    readonly status: number,
    /** The ProblemDetails extension members besides `code` (e.g. `errors`, `attachment`, `license_url`). */
    readonly extras: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'EInvoiceError';
  }
}

/** Unusable input (HTTP 400): not a PDF or XML, encrypted PDF, malformed XML, metadata not JSON or inconsistent. */
export class InvalidInputError extends EInvoiceError {
  constructor(code: string, message: string, extras: Record<string, unknown> = {}) {
    super(code, message, 400, extras);
    this.name = 'InvalidInputError';
  }
}

/** One failed field of a request or of invoice metadata (the API's HTTPValidationError item). */
export interface ShapeIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/**
 * An option or metadata field of the wrong shape (HTTP 422 HTTPValidationError, which has no code there;
 * here `code` is OPTION_INVALID for options, METADATA_INVALID for metadata, STATUS_INVALID for a status message).
 */
export class ShapeError extends EInvoiceError {
  constructor(
    code: 'OPTION_INVALID' | 'METADATA_INVALID' | 'STATUS_INVALID',
    readonly issues: ShapeIssue[],
  ) {
    super(code, issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '), 422, {});
    this.name = 'ShapeError';
  }
}

/** The PDF already carries an invoice XML (HTTP 409, XML_ALREADY_EMBEDDED). */
export class ConflictError extends EInvoiceError {
  constructor(code: string, message: string, extras: Record<string, unknown> = {}) {
    super(code, message, 409, extras);
    this.name = 'ConflictError';
  }
}

/** Well-formed input that cannot be processed (HTTP 422): NOT_PDFA3, EN16931_INVALID, VALIDATION_TIMEOUT, PROCESSING_TIMEOUT. */
export class UnprocessableError extends EInvoiceError {
  constructor(code: string, message: string, extras: Record<string, unknown> = {}) {
    super(code, message, 422, extras);
    this.name = 'UnprocessableError';
  }
}

/** A pro feature without a valid license (HTTP 403, LICENSE_REQUIRED). */
export class LicenseRequiredError extends EInvoiceError {
  constructor(message: string, extras: Record<string, unknown> = {}) {
    super('LICENSE_REQUIRED', message, 403, extras);
    this.name = 'LicenseRequiredError';
  }
}

/** The engine failed a self-check on its own output (HTTP 500, e.g. EMBED_CHECK_FAILED). */
export class InternalError extends EInvoiceError {
  constructor(code: string, message: string) {
    super(code, message, 500, {});
    this.name = 'InternalError';
  }
}
