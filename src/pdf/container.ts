/**
 * The hybrid-invoice container vocabulary (attachment names, XMP values, relationships per profile) and what
 * embedding takes and answers: shared by the entry point (hybrid.ts), the embedder (embed.ts), the gate
 * (full-read.ts) and the PDF worker, below all of them. Free of the PDF library.
 */
import type { ProfileId } from '../model/profiles.js';

export type HybridFormat = 'factur-x' | 'zugferd' | 'xrechnung';
export const HYBRID_FORMATS: readonly HybridFormat[] = ['factur-x', 'zugferd', 'xrechnung'];

/** How the XML is presented in the PDF: attachment name, XMP values, associated-file relationship. */
export interface HybridFlavour {
  fileName: 'factur-x.xml' | 'xrechnung.xml';
  /** fx:ConformanceLevel */
  conformanceLevel: string;
  /** fx:Version */
  version: string;
  /** /AFRelationship of the file specification. */
  afRelationship: 'Data' | 'Alternative';
  description: string;
}

const CONFORMANCE_LEVEL: Record<ProfileId, string> = {
  minimum: 'MINIMUM',
  basic_wl: 'BASIC WL',
  basic: 'BASIC',
  en16931: 'EN 16931',
  extended: 'EXTENDED',
  // XRechnung CII presented as Factur-X: it is a CIUS of EN 16931.
  xrechnung: 'EN 16931',
  // A Factur-X PDF whose CII declares EXTENDED-CTC-FR carries the EXTENDED element set.
  extended_ctc_fr: 'EXTENDED',
};

/**
 * The container flavour for an invoice profile, or for an explicit format. ZUGFeRD 2.4 and Factur-X 1.08
 * are one standard (factur-x.xml, fx version 1.0); XRechnung uses xrechnung.xml and level XRECHNUNG.
 * MINIMUM and BASIC WL are not full invoices, so their XML is /Data, the others /Alternative
 * (Factur-X 1.08 / ZUGFeRD 2.4 technical appendix on the data relationship).
 */
export function hybridFlavour(profile: ProfileId | null, format?: HybridFormat): HybridFlavour {
  const asXRechnung = format === 'xrechnung' || (format === undefined && profile === 'xrechnung');
  if (asXRechnung) {
    return {
      fileName: 'xrechnung.xml',
      conformanceLevel: 'XRECHNUNG',
      version: '3.0',
      afRelationship: 'Alternative',
      description: 'XRechnung invoice data',
    };
  }
  const level = CONFORMANCE_LEVEL[profile ?? 'en16931'];
  const partial = profile === 'minimum' || profile === 'basic_wl';
  return {
    fileName: 'factur-x.xml',
    conformanceLevel: level,
    version: '1.0',
    afRelationship: partial ? 'Data' : 'Alternative',
    description: format === 'zugferd' ? 'ZUGFeRD invoice data' : 'Factur-X invoice data',
  };
}

export class EmbedError extends Error {
  constructor(
    readonly code: 'NOT_PDF' | 'PDF_ENCRYPTED' | 'PDF_SIGNED' | 'PDF_UNREADABLE' | 'PDF_LIMIT' | 'EMBED_CHECK_FAILED',
    message: string,
  ) {
    super(message);
    this.name = 'EmbedError';
  }
}

export interface EmbedOptions {
  xml: Uint8Array;
  flavour: HybridFlavour;
  /** Document title (Info /Title, dc:title) when the PDF has none, e.g. "Invoice RE-2026-0042". */
  title?: string;
  /** Producer written to Info and XMP. */
  producer?: string;
  /** Remove invoice XMLs already attached (factur-x.xml, zugferd-invoice.xml, ...) first. */
  replaceInvoiceAttachments?: boolean;
  /** Clock, for tests. */
  now?: Date;
  /**
   * Embed into a digitally signed PDF anyway. Embedding rewrites the file, which invalidates every signature in
   * it; without this a signed PDF is refused (EmbedError PDF_SIGNED).
   */
  allowSignatureInvalidation?: boolean;
}

export interface EmbedResult {
  pdf: Uint8Array;
  /** PDF/A declaration written to the XMP, e.g. { part: 3, conformance: 'B' }. */
  pdfa: { part: number; conformance: string };
  pageCount: number;
  /** The input was digitally signed (and allowSignatureInvalidation let it through): its signatures no longer verify. */
  signatureInvalidated?: boolean;
  /** What the PDF/A repairs did (src/pdf/repair): absent only for results made without them. */
  repairs?: EmbedRepairs;
}

/** The PDF/A repairs' account, as plain data (it crosses the PDF worker's thread boundary). */
export interface EmbedRepairs {
  /** Names of the repairs that changed something, in the order they ran. */
  repaired: string[];
  /** Every repair that ran: objects changed and wall time (ms). */
  runs: { name: string; changed: number; ms: number }[];
  /** What the repairs saw but could not (fully) repair (at most 50). */
  unrepaired: { clause: string; message: string; object?: string }[];
  /** The input check (as PDF/A-3): its time (ms) and how many findings it had. */
  inputCheckMs: number;
  inputFindings: number;
}

export const DEFAULT_PRODUCER = 'einvoice-service';
