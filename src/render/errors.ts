/** The render step's own error, in a module of its own so that the runner can name it without loading the views. */

/**
 * The upload holds no invoice that can be drawn (a PDF without invoice XML, embedded XML that cannot be parsed, XML
 * that is not CII or UBL): `code` is ingest's problem code (NO_XML, XML_MALFORMED, UNKNOWN_XML, ...).
 */
export class NothingToRenderError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'NothingToRenderError';
  }
}
