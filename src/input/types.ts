/**
 * What `ingest()` hands to every endpoint (extract, validate, serialize, merge): the container, the
 * invoice XML found in it, the parsed document, what kind of invoice it is, and the model.
 */
import type { Invoice } from '../model/invoice.js';
import type { ProfileId } from '../model/profiles.js';
import type { XmlDoc } from '../xml/dom.js';
import type { XmpInfo } from '../pdf/xmp.js';
import type { EncryptionInfo } from '../pdf/crypt.js';
import type { InvoiceFormat, InvoiceSyntax } from '../syntax/detect.js';
import type { ReadCdar } from '../syntax/cdar/reader.js';

export type { InvoiceFormat, InvoiceSyntax } from '../syntax/detect.js';

/** A non-fatal finding of ingestion (reported in 200 answers, e.g. ExtractionResult.errors). */
export interface IngestProblem {
  /** Stable code: NO_XML, XML_MALFORMED, XML_DTD_FORBIDDEN, ..., UNKNOWN_XML, ZUGFERD_1_LEGACY, MULTIPLE_XML_ATTACHMENTS, PDF_ENCRYPTED_READ. */
  code: string;
  message: string;
}

export interface IngestResult {
  /** What was uploaded: a PDF (hybrid invoice or plain PDF) or bare XML. */
  container: 'pdf' | 'xml';
  /** The invoice XML bytes: the upload itself, or the attachment taken from the PDF. Absent when a PDF has none. */
  xmlBytes?: Uint8Array;
  /** The parsed XML; absent when there is no XML or it is not well-formed (then `problems` says why). */
  doc?: XmlDoc;
  /** Syntax of `doc`; absent when the root is neither CII, ZUGFeRD 1.0 nor UBL (e.g. FatturaPA). */
  syntax?: InvoiceSyntax;
  /** factur-x | zugferd | xrechnung | ubl, or null when unknown (no XML, not an invoice syntax). */
  format: InvoiceFormat | null;
  /** Profile from BT-24 (CII guideline / UBL CustomizationID), the PDF's XMP as a fallback; null when unknown. */
  profile: ProfileId | null;
  /** BT-24 exactly as in the document (CII GuidelineSpecifiedDocumentContextParameter/ID, UBL CustomizationID). */
  guideline: string | null;
  /** The EN 16931 model read from `doc`; absent when there is no readable invoice. */
  invoice?: Invoice;
  /** PDF only: the name of the attachment the XML came from (e.g. "factur-x.xml"). */
  attachmentName?: string;
  /** PDF only: names of all embedded files found (name tree and /AF). */
  attachmentNames?: string[];
  /** PDF only: the document's XMP metadata (pdfaid:*, fx:*), when present and readable; parsed on first access. */
  xmp?: XmpInfo;
  /** PDF only: the PDF was encrypted with an empty user password and read decrypted (also a PDF_ENCRYPTED_READ problem). */
  encryption?: EncryptionInfo;
  /** Non-fatal findings, in the order found. Empty when all went well. */
  problems: IngestProblem[];
  /**
   * `cdar` when the XML is a French lifecycle status message (UN/CEFACT CDAR D22B), not an invoice: then `syntax`,
   * `format` and `profile` stay unset and `guideline` is its MDT-3; readModel() fills `cdar`.
   */
  document?: 'cdar';
  /** The status message read from a CDAR document (src/syntax/cdar/reader.ts). */
  cdar?: ReadCdar;
}

/**
 * The upload cannot be used at all: not a PDF or XML, an encrypted or unreadable PDF, or uploaded XML that is
 * not well-formed. Endpoints answer 400 ProblemDetails with `code`.
 */
export class IngestError extends Error {
  constructor(
    readonly code:
      | 'EMPTY_FILE'
      | 'NOT_PDF_OR_XML'
      | 'PDF_ENCRYPTED'
      | 'PDF_UNREADABLE'
      | 'PDF_LIMIT'
      | 'XML_MALFORMED'
      | 'XML_DTD_FORBIDDEN'
      | 'XML_TOO_DEEP'
      | 'XML_TOO_LARGE'
      | 'XML_ENCODING'
      | 'XML_ENCODING_UNSUPPORTED',
    message: string,
  ) {
    super(message);
    this.name = 'IngestError';
  }
}
