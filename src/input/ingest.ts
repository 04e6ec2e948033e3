/**
 * The one entry point for uploaded invoices (extract, validate, serialize, merge): sniff PDF vs XML,
 * take the invoice XML out of a PDF, parse it safely, detect syntax / format / profile, read the model.
 *
 * Fatal input problems throw IngestError (→ 400); anything that still lets us answer (a PDF without
 * invoice XML, embedded XML that is not well-formed, an XML that is not an invoice) is reported in
 * `problems` with a stable code.
 */
import { findInvoiceAttachmentAsync, isPdf, loadContent, PdfReadError, readPdf, type PdfContents } from '../pdf/extract.js';
import type { Invoice } from '../model/invoice.js';
import { readCii } from '../syntax/cii/reader.js';
import { detectFormat, detectSyntax, profileFromConformanceLevel, profileFromGuideline, readGuideline } from '../syntax/detect.js';
import { readUbl } from '../syntax/ubl/reader.js';
import { isCdarRoot } from '../syntax/cdar/namespaces.js';
import { readCdar } from '../syntax/cdar/reader.js';
import { looksLikeXml, parseXml, XmlParseError, type XmlDoc } from '../xml/dom.js';
import { IngestError, type IngestProblem, type IngestResult, type InvoiceSyntax } from './types.js';
import type { EncryptionInfo } from '../pdf/crypt.js';

export { IngestError } from './types.js';
export type { IngestProblem, IngestResult, InvoiceFormat, InvoiceSyntax } from './types.js';

/** Options of ingest(). */
export interface IngestOptions {
  /**
   * Stop before parsing when the invoice XML (the upload, or the attachment taken from a PDF) is larger
   * than this: throws XmlTooLargeError. Lets a caller do small jobs in place and hand big ones elsewhere.
   */
  maxXmlBytes?: number;
}

/** The invoice XML is larger than IngestOptions.maxXmlBytes (not an input error: the caller's choice). */
export class XmlTooLargeError extends Error {
  constructor(readonly xmlBytes: number) {
    super(`The invoice XML has ${xmlBytes} bytes`);
    this.name = 'XmlTooLargeError';
  }
}

/** Read an uploaded file. `filename` is only a hint for messages; the bytes decide what the file is. */
export async function ingest(bytes: Uint8Array, filename?: string, options: IngestOptions = {}): Promise<IngestResult> {
  return readModel(await parseUpload(bytes, filename, options));
}

/**
 * ingest() up to the parsed XML and what it declares (syntax, guideline, format, profile), without the
 * model: readModel() completes it. Two steps so that a batch of uploads can be parsed together and then
 * read together (see InlineBatch).
 */
export async function parseUpload(bytes: Uint8Array, filename?: string, options: IngestOptions = {}): Promise<IngestResult> {
  if (bytes.length === 0) throw new IngestError('EMPTY_FILE', 'The uploaded file is empty');
  if (isPdf(bytes)) return ingestPdf(bytes, options);
  if (looksLikeXml(bytes)) {
    if (options.maxXmlBytes !== undefined && bytes.length > options.maxXmlBytes) throw new XmlTooLargeError(bytes.length);
    return ingestXml(bytes);
  }
  const what = filename ? `"${filename}"` : 'The uploaded file';
  throw new IngestError('NOT_PDF_OR_XML', `${what} is neither a PDF nor an XML document`);
}

const PDF_CONTENTS = Symbol('pdfContents');

function xmpOfPdf(this: { [PDF_CONTENTS]: PdfContents }): IngestResult['xmp'] {
  return this[PDF_CONTENTS].xmp;
}

/**
 * `result.xmp` as an accessor that reads the PDF's XMP on first use. One shared getter function (the
 * contents sit in a hidden property): a getter closure per result gave every result a hidden class of its
 * own in the old generation, which kept each request's data alive through young-generation GCs.
 */
function withLazyXmp(result: IngestResult, contents: PdfContents): void {
  Object.defineProperty(result, PDF_CONTENTS, { value: contents, enumerable: false });
  Object.defineProperty(result, 'xmp', { get: xmpOfPdf, enumerable: true, configurable: true });
}

async function ingestPdf(bytes: Uint8Array, options: IngestOptions): Promise<IngestResult> {
  let contents;
  try {
    contents = await readPdf(bytes);
  } catch (err) {
    if (err instanceof PdfReadError) throw new IngestError(err.code, err.message);
    if ((err as Error).name === 'PoolBusyError') throw err; // the PDF pool is full: 503, try again
    // Never a library's internal message (e.g. "Cannot create a Buffer ...") in an answer.
    throw new IngestError('PDF_UNREADABLE', 'The PDF could not be read: its structure is damaged');
  }
  const { attachments } = contents;
  const result: IngestResult = {
    container: 'pdf',
    format: null,
    profile: null,
    guideline: null,
    attachmentNames: attachments.map((a) => a.name),
    problems: [],
  };
  if (contents.encryption) {
    result.encryption = contents.encryption;
    result.problems.push(encryptedProblem(contents.encryption));
  }
  // Lazy: parsing the XMP packet cost ~10 % of a request, and only some answers need it.
  withLazyXmp(result, contents);
  const invoiceAttachment = await findInvoiceAttachmentAsync(attachments);
  if (!invoiceAttachment) {
    result.problems.push({
      code: 'NO_XML',
      message: 'The PDF carries no embedded invoice XML (no factur-x.xml, zugferd-invoice.xml, xrechnung.xml or other CII/UBL attachment)',
    });
    return result;
  }
  result.attachmentName = invoiceAttachment.name;
  const otherXml = attachments.filter((a) => a !== invoiceAttachment && /\.xml$/i.test(a.filename || a.name));
  if (otherXml.length > 0) {
    result.problems.push({
      code: 'MULTIPLE_XML_ATTACHMENTS',
      message: `The PDF has more than one XML attachment; read "${invoiceAttachment.name}", ignored ${otherXml.map((a) => `"${a.name}"`).join(', ')}`,
    });
  }
  try {
    result.xmlBytes = await loadContent(invoiceAttachment);
  } catch (err) {
    // A decompression bomb (PDF_LIMIT) or a damaged attachment: a finding, in user terms.
    result.problems.push({
      code: 'PDF_ATTACHMENT_UNREADABLE',
      message: err instanceof PdfReadError ? err.message : 'The embedded invoice could not be decoded',
    });
    return result;
  }
  if (options.maxXmlBytes !== undefined && result.xmlBytes.length > options.maxXmlBytes) throw new XmlTooLargeError(result.xmlBytes.length);
  let doc: XmlDoc;
  try {
    doc = parseXml(result.xmlBytes);
  } catch (err) {
    if (!(err instanceof XmlParseError)) throw err;
    result.problems.push({ code: err.code, message: `The embedded "${invoiceAttachment.name}": ${err.message}` });
    result.format = detectFormat({ attachmentName: invoiceAttachment.name, xmp: () => result.xmp });
    result.profile = profileFromConformanceLevel(result.xmp?.conformanceLevel);
    return result;
  }
  return describe(result, doc);
}

/** Code of the finding that says a PDF was encrypted (with an empty user password) and read decrypted. */
export const PDF_ENCRYPTED_READ = 'PDF_ENCRYPTED_READ';

function encryptedProblem(e: EncryptionInfo): IngestProblem {
  return {
    code: PDF_ENCRYPTED_READ,
    message: `The PDF is encrypted (${e.algorithm}, security handler revision ${e.revision}) with an empty user password; it was read without a password. A Factur-X / ZUGFeRD PDF (PDF/A-3) must not be encrypted`,
  };
}

function ingestXml(bytes: Uint8Array): IngestResult {
  let doc: XmlDoc;
  try {
    doc = parseXml(bytes);
  } catch (err) {
    if (err instanceof XmlParseError) throw new IngestError(err.code, err.message);
    throw err;
  }
  return describe({ container: 'xml', xmlBytes: bytes, format: null, profile: null, guideline: null, problems: [] }, doc);
}

/** Fill syntax, guideline, format and profile from a parsed document (the model: readModel). */
function describe(result: IngestResult, doc: XmlDoc): IngestResult {
  result.doc = doc;
  if (isCdarRoot(doc.root)) {
    // A lifecycle status message (CDAR), not an invoice: read by readModel(), validated by src/cdar/.
    result.document = 'cdar';
    return result;
  }
  const syntax = detectSyntax(doc.root);
  if (!syntax) {
    result.problems.push({
      code: 'UNKNOWN_XML',
      message: `The XML is not a CII or UBL invoice (root element {${doc.root.ns}}${doc.root.local})`,
    });
    if (result.container === 'pdf') result.format = detectFormat({ attachmentName: result.attachmentName, xmp: () => result.xmp });
    return result;
  }
  result.syntax = syntax;
  result.guideline = readGuideline(doc.root, syntax);
  result.format = detectFormat({
    syntax,
    guideline: result.guideline,
    attachmentName: result.attachmentName,
    ...(result.container === 'pdf' ? { xmp: () => result.xmp } : {}),
  });
  result.profile = profileFromGuideline(result.guideline);
  if (result.profile === null && syntax !== 'zugferd1' && result.container === 'pdf') {
    result.profile = profileFromConformanceLevel(result.xmp?.conformanceLevel);
  }
  if (syntax === 'zugferd1') {
    result.problems.push({
      code: 'ZUGFERD_1_LEGACY',
      message: 'ZUGFeRD 1.0 (CrossIndustryDocument) predates EN 16931: read best-effort, not validated against EN 16931',
    });
  }
  return result;
}

/** The second step of ingest(): the EN 16931 model of what parseUpload() found, when it found an invoice. */
export function readModel(result: IngestResult): IngestResult {
  if (result.doc && result.syntax) result.invoice = readInvoice(result.doc, result.syntax);
  else if (result.doc && result.document === 'cdar') {
    result.cdar = readCdar(result.doc.root);
    result.guideline = result.cdar.message.guideline ?? null;
  }
  return result;
}

/** The model for a parsed document of a known syntax. */
export function readInvoice(doc: XmlDoc, syntax: InvoiceSyntax): Invoice {
  return syntax === 'ubl' ? readUbl(doc.root) : readCii(doc.root);
}
