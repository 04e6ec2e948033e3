/**
 * The typed library: `import { validate, extract, toXml, convert, merge, serialize, transform, buildStatus } from 'einvoice-service'`.
 * The same operations as the HTTP API and the CLI (one implementation each, ./operations.ts), in-process, on
 * bytes and plain objects. Importing this module loads neither fastify nor the rule sets (they load on first use).
 */
export {
  validate,
  extract,
  toXml,
  convert,
  merge,
  serialize,
  transform,
  buildStatus,
  parseValidateOptions,
  invoicePdfName,
  BR_FR_EDITIONS,
  DEFAULT_BR_FR_EDITION,
  EXTRA_RULE_LAYERS,
  HYBRID_FORMATS,
  XRECHNUNG_VERSIONS,
  type Bytes,
  type BrFrEdition,
  type ConvertOptions,
  type DroppedContent,
  type ExtractOptions,
  type ExtractionResult,
  type HybridFormat,
  type InvoiceMetadata,
  type MergeOptions,
  type OutputProfile,
  type OutputSyntax,
  type PdfResult,
  type ProfileId,
  type SerializationResult,
  type SerializeOptions,
  type StatusMessage,
  type StatusResult,
  type ToXmlOptions,
  type TransformCallOptions as TransformOptions,
  type TransformResult,
  type ValidateCallOptions as ValidateOptions,
  type ValidationErrorDetail,
  type ValidationResult,
  type XmlResult,
  type XRechnungVersion,
} from './operations.js';
export {
  ConflictError,
  EInvoiceError,
  InternalError,
  InvalidInputError,
  LicenseRequiredError,
  ShapeError,
  UnprocessableError,
  type ShapeIssue,
} from './errors.js';
export { versions, type Versions } from './versions.js';
export type { LicenseOptions } from './license-check.js';
