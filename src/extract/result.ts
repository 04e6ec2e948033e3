/**
 * The /v1/extract answer (ExtractionResult) from an ingested upload.
 */
import type { IngestResult } from '../input/types.js';
import { toInvoiceJson, type InvoiceJson } from './invoice-json.js';
import type { ReadCdar } from '../syntax/cdar/reader.js';
import type { StatusMessage } from '../syntax/cdar/model.js';

export interface ExtractionResult {
  format_detected: string | null;
  profile_detected: string | null;
  xml_extracted: boolean;
  invoice_json: InvoiceJson | null;
  errors: { code: string; message: string }[];
  /**
   * Only for a French lifecycle status message (CDAR): what it says, in the JSON of POST /v1/status (so it can be
   * sent back as it is). `format_detected` is then "cdar" and `invoice_json` null.
   */
  status_json?: StatusMessage;
}

export function toExtractionResult(r: IngestResult): ExtractionResult {
  if (r.cdar) return cdarExtraction(r, r.cdar);
  return {
    format_detected: r.format,
    profile_detected: r.profile,
    xml_extracted: r.xmlBytes !== undefined,
    invoice_json: r.invoice ? toInvoiceJson(r.invoice, { bestEffortSyntax: r.syntax === 'zugferd1' }) : null,
    errors: r.problems.map((p) => ({ code: p.code, message: p.message })),
  };
}

/** A status message: `status_json`, and a note when it concerns more invoices than the one read. */
function cdarExtraction(r: IngestResult, cdar: ReadCdar): ExtractionResult {
  const errors = r.problems.map((p) => ({ code: p.code, message: p.message }));
  if (cdar.extraReferences > 0) {
    errors.push({
      code: 'CDAR_MULTIPLE_REFERENCES',
      message: `The status message concerns ${cdar.extraReferences + 1} documents; status_json describes the first`,
    });
  }
  return {
    format_detected: 'cdar',
    profile_detected: null,
    xml_extracted: r.xmlBytes !== undefined,
    invoice_json: null,
    errors,
    status_json: cdar.message,
  };
}
