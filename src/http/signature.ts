/**
 * The opt-in of /v1/convert and /v1/merge for digitally signed PDFs (src/pdf/signature.ts): the form field that
 * allows the signature to be invalidated, and the response header that says it was.
 */

/** Form field: embed into a signed PDF anyway (default false: 422 PDF_SIGNED). */
export const ALLOW_SIGNATURE_FIELD = 'allow_signature_invalidation';

export const ALLOW_SIGNATURE_SCHEMA = {
  type: 'boolean',
  default: false,
  description:
    'Embed into a digitally signed PDF anyway. Embedding rewrites the file, so its signatures no longer verify; without this a signed PDF is refused with 422 PDF_SIGNED.',
} as const;

/** Response header, present ("true") when the input was signed and the signature has been invalidated. */
export const SIGNATURE_INVALIDATED_HEADER = 'X-Signature-Invalidated';

export const SIGNATURE_INVALIDATED_HEADER_SCHEMA = {
  type: 'string',
  enum: ['true'],
  description:
    'Present when the input PDF was digitally signed and allow_signature_invalidation let it through: its signatures no longer verify.',
} as const;
