/**
 * The /v1/extract answer (ExtractionResult) from an ingested upload.
 */
import type { IngestResult } from '../input/types.js';
import { toInvoiceJson, type InvoiceJson } from './invoice-json.js';

export interface ExtractionResult {
  format_detected: string | null;
  profile_detected: string | null;
  xml_extracted: boolean;
  invoice_json: InvoiceJson | null;
  errors: { code: string; message: string }[];
}

export function toExtractionResult(r: IngestResult): ExtractionResult {
  return {
    format_detected: r.format,
    profile_detected: r.profile,
    xml_extracted: r.xmlBytes !== undefined,
    invoice_json: r.invoice ? toInvoiceJson(r.invoice, { bestEffortSyntax: r.syntax === 'zugferd1' }) : null,
    errors: r.problems.map((p) => ({ code: p.code, message: p.message })),
  };
}
