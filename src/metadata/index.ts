export { buildInvoice, buildInvoiceXml, type BuiltInvoice } from './build.js';
export { MetadataContentError, MetadataNotJsonError, MetadataShapeError, type ContentIssue, type ShapeErrorItem } from './errors.js';
export { InvoiceMetadataSchema, type InvoiceMetadata } from './schema.js';
export { parseMetadata, validateMetadata } from './validate.js';
