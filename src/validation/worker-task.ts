/**
 * What the runner (./runner.ts) sends its worker threads (./worker.ts) and gets back: the protocol both sides
 * import, so that neither imports the other. Errors that mean "bad input" travel as data, because class
 * identity does not survive the thread hop; the runner turns them back into the same error classes.
 */
import type { IngestError } from '../input/ingest.js';
import type { ExtractionResult } from '../extract/result.js';
import type { ContentIssue, ShapeErrorItem } from '../metadata/errors.js';
import type { OutputProfile, OutputSyntax, ProfileId } from '../model/profiles.js';
import type { SerializedUpload } from '../serialize/upload.js';
import type { TransformOptions } from '../transform/options.js';
import type { TransformResult } from '../transform/transform.js';
import type { ValidateOptions, ValidationResult } from './validate.js';
import type { RenderedPage, RenderPageOptions } from '../render/render.js';
import type { Lang } from '../render/labels.js';

/** What /v1/xml answers: the XML and the metadata fields the profile could not carry. */
export interface BuiltXml {
  xml: string;
  droppedFields: string[];
  /** The profile the XML was written for, and BT-1 (for /v1/convert's container and download name). */
  profile: ProfileId;
  invoiceNumber?: string;
  /** The syntax written (UBL for the UBL targets), and the profile asked for (Peppol included). */
  syntax?: OutputSyntax;
  target?: OutputProfile;
  /** The invoice drawn as a PDF/A-3b (asked with `draw`: /v1/convert without a PDF); never for UBL. */
  drawn?: DrawnInvoicePdf;
}

/** Asks buildXml to draw the invoice too (the PDF /v1/convert embeds the XML into when no PDF is sent). */
export interface DrawOptions {
  lang: Lang;
}

/** The drawn invoice: the PDF and what the PDF view reports about it. */
export interface DrawnInvoicePdf {
  pdf: Uint8Array;
  pages: number;
  /** Lines drawn and in the invoice (sub-lines included). */
  lines: { shown: number; total: number };
  /** Characters no shipped font has (drawn as □). */
  missingGlyphs: number;
}

export type WorkerTask =
  | { kind?: 'validate'; bytes: Uint8Array; filename?: string; options?: ValidateOptions; pdfa?: boolean }
  | { kind: 'xml'; metadata: unknown; draw?: DrawOptions }
  | { kind: 'extract'; bytes: Uint8Array; filename?: string }
  | { kind: 'serialize'; bytes: Uint8Array; filename?: string }
  | { kind: 'render'; bytes: Uint8Array; filename?: string; options: RenderPageOptions }
  | { kind: 'transform'; bytes: Uint8Array; filename?: string; options: TransformOptions };

/** A metadata error of buildInvoiceXml, as data. */
export type MetadataErrorData =
  | { kind: 'notJson'; message: string; code?: 'METADATA_NOT_JSON' | 'JSON_TOO_DEEP' }
  | { kind: 'shape'; items: ShapeErrorItem[] }
  | { kind: 'content'; message: string; issues: ContentIssue[] };

export type WorkerAnswer =
  | { result: ValidationResult }
  | { xml: BuiltXml }
  | { extraction: ExtractionResult }
  | { serialized: SerializedUpload }
  | { rendered: RenderedPage }
  | { renderError: { code: string; message: string } }
  | { transformed: TransformResult }
  | { transformError: { code: string; message: string } }
  | { ingestError: { code: IngestError['code']; message: string } }
  | { metadataError: MetadataErrorData };
