export { buildInvoice, buildInvoiceXml, type BuiltInvoice } from './build.js';
export { MetadataContentError, MetadataNotJsonError, MetadataShapeError, type ContentIssue, type ShapeErrorItem } from './errors.js';
export { InvoiceMetadataSchema, type InvoiceMetadata } from './schema.js';
export { parseMetadata, validateMetadata } from './validate.js';

import { METADATA_EXAMPLES } from './examples.js';
import { InvoiceMetadataSchema as schema } from './schema.js';
/** The JSON Schema with its examples, as published in OpenAPI under components.schemas.InvoiceMetadata. */
export const INVOICE_METADATA_COMPONENT = { ...schema, examples: Object.values(METADATA_EXAMPLES) };
