/**
 * Errors of the metadata → invoice pipeline, free of any HTTP type so that /v1/xml, /v1/convert and scripts can
 * share them. The HTTP layer maps them: not JSON → 400, shape → 422 (FastAPI HTTPValidationError), content
 * that would make a non-conformant invoice → 400 ProblemDetails with the list of reasons.
 */

/** One FastAPI-style validation item; `loc` starts with 'body', 'metadata'. */
export interface ShapeErrorItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/**
 * The metadata form field is not JSON at all (code METADATA_NOT_JSON), or JSON the service refuses to read
 * (code JSON_TOO_DEEP: nested deeper than MAX_JSON_DEPTH, see src/util/json-limits.ts).
 */
export class MetadataNotJsonError extends Error {
  constructor(
    detail: string,
    readonly code: 'METADATA_NOT_JSON' | 'JSON_TOO_DEEP' = 'METADATA_NOT_JSON',
  ) {
    super(detail);
    this.name = 'MetadataNotJsonError';
  }
}

/** The JSON misses a required field, has a wrong type or a value out of its format. */
export class MetadataShapeError extends Error {
  readonly items: ShapeErrorItem[];
  constructor(items: ShapeErrorItem[]) {
    super(items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'MetadataShapeError';
    this.items = items;
  }
}

/** One reason why the metadata cannot become a conformant invoice. */
export interface ContentIssue {
  /** Dot/bracket path into the metadata, e.g. `line_items[2].line_total`. */
  field: string;
  message: string;
  /** The EN 16931 / XRechnung rule the invoice would break, when there is one. */
  rule?: string;
  given?: string;
  expected?: string;
}

/** Well-formed metadata whose content is inconsistent (given totals ≠ computed) or cannot be written in the profile. */
export class MetadataContentError extends Error {
  readonly issues: ContentIssue[];
  constructor(title: string, issues: ContentIssue[]) {
    super(`${title}: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`);
    this.name = 'MetadataContentError';
    this.issues = issues;
  }
}
