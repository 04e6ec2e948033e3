/**
 * Metadata JSON → CII or UBL XML in one call, for POST /v1/xml and POST /v1/convert.
 *
 * Throws MetadataNotJsonError (→ 400), MetadataShapeError (→ 422) or MetadataContentError (→ 400) from ./errors.js.
 */
import { Big, decOrZero } from '../model/decimal.js';
import type { Invoice } from '../model/invoice.js';
import type { OutputProfile, OutputSyntax, ProfileId } from '../model/profiles.js';
import { writeCii } from '../syntax/cii/writer.js';
import { writeUbl } from '../syntax/ubl/writer.js';
import { XmlOutputTooLargeError } from '../syntax/cii/writer-xml.js';
import { completeInvoice } from './compute.js';
import { completeMultiVendor, prepareMultiVendor } from './multi-vendor.js';
import { MetadataContentError, MetadataShapeError } from './errors.js';
import { droppedFields, ublDroppedFields } from './profile-fit.js';
import type { InvoiceMetadata } from './schema.js';
import { metadataToModel } from './to-model.js';
import { parseMetadata } from './validate.js';

const ZERO = new Big('0');

/**
 * The longest invoice XML /v1/xml and /v1/convert write (characters): 16 MiB, about 13,000 lines, 1.6 times
 * the default upload limit (25,000 lines took 4 s to convert). Metadata is at most MAX_UPLOAD_SIZE_MB, but its lines grow ~10x as CII (10 MB of
 * short lines wrote 113 MB of XML in 2.9 s, then embedding it held the event loop); past this the writing stops.
 */
export const MAX_GENERATED_XML_CHARS = 16 * 1024 * 1024;

export interface BuiltInvoice {
  /** Complete, computed EN 16931 model. */
  invoice: Invoice;
  /** The CII profile whose content the invoice has (a Peppol invoice: en16931). */
  profile: ProfileId;
  /** The profile asked for: `profile`, Peppol included. */
  target: OutputProfile;
  /** The syntax the XML is written in. */
  syntax: OutputSyntax;
  /** Metadata paths the profile cannot carry (left out of the XML), e.g. `seller.contact`. */
  droppedFields: string[];
}

/** Validated metadata → computed model, checked for consistency. */
export function buildInvoice(meta: InvoiceMetadata): BuiltInvoice {
  const { invoice, profile, target, syntax, given } = metadataToModel(meta);
  const subInvoices = profile === 'extended' || profile === 'extended_ctc_fr';
  if (subInvoices) prepareMultiVendor(invoice);
  const issues = completeInvoice(invoice, given, { hasLines: invoice.lines.length > 0 });
  if (issues.length) throw new MetadataContentError('The given amounts do not match the invoice content', issues);
  if (subInvoices) completeMultiVendor(invoice);
  // BR-CO-25: a positive amount due needs a due date or payment terms (EN 16931 invoices: BASIC and above).
  if (
    invoice.lines.length &&
    profile !== 'basic_wl' &&
    profile !== 'minimum' &&
    !invoice.dueDate &&
    !invoice.paymentTerms &&
    decOrZero(invoice.totals.amountDue).gt(ZERO)
  ) {
    throw new MetadataShapeError([
      {
        loc: ['body', 'metadata', 'due_date'],
        msg: 'Field required: the amount due is positive, so give due_date or payment_terms (BR-CO-25)',
        type: 'missing',
      },
    ]);
  }
  const dropped = droppedFields(meta, profile);
  if (syntax === 'ubl') for (const path of ublDroppedFields(meta, invoice)) if (!dropped.includes(path)) dropped.push(path);
  return { invoice, profile, target, syntax, droppedFields: dropped };
}

/** Metadata (JSON text or parsed value) → CII D22B or UBL 2.1 XML for the metadata's profile and syntax. */
export function buildInvoiceXml(metadataJson: string | unknown): BuiltInvoice & { xml: string } {
  const meta = parseMetadata(metadataJson);
  const built = buildInvoice(meta);
  try {
    const xml =
      built.syntax === 'ubl'
        ? writeUbl(built.invoice, MAX_GENERATED_XML_CHARS)
        : writeCii(built.invoice, built.profile, MAX_GENERATED_XML_CHARS);
    return { ...built, xml };
  } catch (err) {
    if (!(err instanceof XmlOutputTooLargeError)) throw err;
    const mb = MAX_GENERATED_XML_CHARS / 1024 / 1024;
    throw new MetadataShapeError([
      {
        loc: ['body', 'metadata', ...(meta.line_items?.length ? ['line_items'] : [])],
        msg: `The invoice XML would be longer than ${mb} MiB (limit MAX_GENERATED_XML_MB; ${built.invoice.lines.length} lines): split the invoice`,
        type: 'too_long',
        ctx: { max_generated_xml_mb: mb, lines: built.invoice.lines.length },
      },
    ]);
  }
}
