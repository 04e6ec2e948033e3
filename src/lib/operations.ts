/**
 * One implementation of each operation of the service, free of HTTP: the library's functions, the CLI and the
 * HTTP routes (src/http/routes/*.ts, thin adapters) all call these. Inputs are bytes and plain objects; the
 * results are the HTTP API's answer shapes; failures are the typed errors of ./errors.ts with the API's codes.
 * The validation pipeline (and with it every rule set) is loaded on first use, so importing is cheap.
 */
import { ingest, IngestError, type IngestResult } from '../input/ingest.js';
import type { ExtractionResult } from '../extract/result.js';
import { MetadataContentError, MetadataNotJsonError, MetadataShapeError } from '../metadata/errors.js';
import type { InvoiceMetadata } from '../metadata/schema.js';
import { PROFILE_IDS, type OutputProfile, type OutputSyntax, type ProfileId } from '../model/profiles.js';
import { checkTransformOptions, TransformInputError, TransformOptionError, type TransformOptions } from '../transform/options.js';
import type { DroppedContent, TransformResult } from '../transform/transform.js';
import { EmbedError, embedInvoiceXml, HYBRID_FORMATS, hybridFlavour, type HybridFormat } from '../pdf/hybrid.js';
import { isPdf } from '../pdf/extract.js';
import { licenseOf, requireFeature, type LicenseOptions } from './license-check.js';
import type { BusinessReadyInvoice, FallbackApplied } from '../serialize/business-ready.js';
import type { FallbacksOmitted } from '../serialize/fallback-bounds.js';
import type { SerializedUpload } from '../serialize/upload.js';
import type { ValidationErrorDetail, ValidationResult } from '../validation/validate.js';
import { SERVICE_VERSION } from '../version.js';
import { MAX_JSON_DEPTH } from '../util/json-limits.js';
import { gateWrittenPdf } from '../pdfa/layer.js';
import { withPdfa } from '../validation/with-pdfa.js';
// Pure string helpers (no HTTP framework): the download name of a generated PDF.
import { fileStem, invoicePdfName } from './file-names.js';
import { ConflictError, EInvoiceError, InternalError, InvalidInputError, ShapeError, UnprocessableError } from './errors.js';
import { parseValidateOptions, type ValidateCallOptions } from './validate-options.js';
import { parseRenderOptions, type ParsedRenderOptions, type RenderCallOptions, type RenderLanguage } from './render-options.js';
import { NothingToRenderError } from '../render/errors.js';
import type { RenderedPage } from '../render/render.js';

export type { ExtractionResult, ValidationErrorDetail, ValidationResult, InvoiceMetadata, ProfileId, HybridFormat };
export type { DroppedContent, OutputProfile, OutputSyntax, TransformResult };
export type { BrFrEdition } from '../validation/br-fr-edition.js';

/** The producer written into generated PDFs. */
export const PRODUCER = `einvoice-service ${SERVICE_VERSION}`;

/** Input bytes: a Uint8Array (a Node Buffer is one). */
export type Bytes = Uint8Array;

const asBytes = (b: Uint8Array): Uint8Array => (b.constructor === Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, b.byteLength));

function requireBytes(value: unknown, name: string): Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new ShapeError('OPTION_INVALID', [{ loc: [name], msg: 'Input should be a Uint8Array or Buffer', type: 'bytes_type' }]);
  }
  return asBytes(value);
}

/** IngestError → InvalidInputError with the same code (HTTP 400). */
function fromIngest(err: unknown): unknown {
  return err instanceof IngestError ? new InvalidInputError(err.code, err.message) : err;
}

// ------------------------------------------------------------------------------------------------
// validate

export {
  BR_FR_EDITIONS,
  DEFAULT_BR_FR_EDITION,
  EXTRA_RULE_LAYERS,
  FACTURX_VERSIONS,
  parseValidateOptions,
  XRECHNUNG_VERSIONS,
  type FacturxVersion,
  type ValidateCallOptions,
  type XRechnungVersion,
} from './validate-options.js';

let pipeline: Promise<typeof import('../validation/validate.js')> | undefined;
const loadPipeline = () => (pipeline ??= import('../validation/validate.js'));

/**
 * Validate a Factur-X/ZUGFeRD PDF or CII/UBL XML against EN 16931 (XSD layer, syntax binding rules, business
 * rules, and the layers asked for). An invalid invoice resolves with `valid: false`; unusable input (neither PDF
 * nor XML, encrypted PDF, XML not well-formed) rejects with InvalidInputError (the API's 400 codes).
 */
export async function validate(input: Bytes, options: ValidateCallOptions = {}): Promise<ValidationResult> {
  const bytes = requireBytes(input, 'input');
  const engineOptions = parseValidateOptions(options);
  if (options.pdfa) requireFeature(licenseOf(options), 'pdfa_validation');
  const { validateBytes } = await loadPipeline();
  try {
    // `syntax` is for callers inside the service (merge); the API's ValidationResult has no such field.
    const { syntax: _syntax, ...result } = await validateBytes(bytes, options.filename, engineOptions);
    return await withPdfa(result, bytes, options.pdfa);
  } catch (err) {
    throw fromIngest(err);
  }
}

// ------------------------------------------------------------------------------------------------
// extract

export interface ExtractOptions {
  filename?: string;
}

/** Read a PDF or XML invoice: detected format and profile, whether XML was found, best-effort invoice JSON, findings. */
export async function extract(input: Bytes, options: ExtractOptions = {}): Promise<ExtractionResult> {
  const bytes = requireBytes(input, 'input');
  const { toExtractionResult } = await import('../extract/result.js');
  try {
    return toExtractionResult(await ingest(bytes, options.filename));
  } catch (err) {
    throw fromIngest(err);
  }
}

export interface ExtractXmlOptions extends ExtractOptions {
  /**
   * How the upload is read first (default: extract() here). The HTTP service passes its runner's, which takes a
   * large invoice off the event loop and bounds its time.
   */
  extractor?: (bytes: Uint8Array, filename: string | undefined) => Promise<ExtractionResult>;
}

export interface ExtractedXml {
  /** The invoice XML, byte for byte as uploaded or as embedded in the PDF. */
  xml: Uint8Array;
  /** Its name: the PDF attachment's (factur-x.xml, xrechnung.xml, ...), else the upload's file name, else invoice.xml. */
  filename: string;
}

/** A safe file name: the last path segment, no quotes or control characters; `invoice.xml` when nothing is left. */
function xmlFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[\u0000-\u001f\u007f"]+/g, '_')
    .trim()
    .slice(0, 120);
  return cleaned || 'invoice.xml';
}

/**
 * The invoice XML of an upload, byte for byte (what `einvoice extract --xml` writes and `POST /v1/extract` answers
 * to `Accept: application/xml`): an uploaded XML as it is, a PDF's invoice attachment as embedded, even when it is
 * not well-formed (the JSON answer of extract() says what is wrong with it). The upload is read by extract() first,
 * so unusable uploads reject as there (InvalidInputError: NOT_PDF_OR_XML, XML_MALFORMED of an uploaded XML, ...);
 * a PDF without an invoice XML to give rejects with UnprocessableError NO_XML or PDF_ATTACHMENT_UNREADABLE.
 */
export async function extractXml(input: Bytes, options: ExtractXmlOptions = {}): Promise<ExtractedXml> {
  const bytes = requireBytes(input, 'input');
  let read: ExtractionResult;
  try {
    read = await (options.extractor ?? ((b, f) => extract(b, { filename: f })))(bytes, options.filename);
  } catch (err) {
    throw fromIngest(err);
  }
  if (!isPdf(bytes)) return { xml: bytes, filename: xmlFileName(options.filename) };
  const missing = read.errors.find((e) => e.code === 'NO_XML' || e.code === 'PDF_ATTACHMENT_UNREADABLE');
  if (!read.xml_extracted || missing) {
    throw new UnprocessableError(missing?.code ?? 'NO_XML', missing?.message ?? 'The PDF carries no embedded invoice XML');
  }
  // extract() read the attachment already; its bytes are taken out again here (extraction results carry no bytes).
  const { findInvoiceAttachmentAsync, loadContent, readPdf } = await import('../pdf/extract.js');
  try {
    const attachment = await findInvoiceAttachmentAsync((await readPdf(bytes)).attachments);
    if (!attachment) throw new UnprocessableError('NO_XML', 'The PDF carries no embedded invoice XML');
    return { xml: await loadContent(attachment), filename: xmlFileName(attachment.name) };
  } catch (err) {
    if (err instanceof EInvoiceError) throw err;
    throw new UnprocessableError('PDF_ATTACHMENT_UNREADABLE', 'The embedded invoice could not be decoded');
  }
}

// ------------------------------------------------------------------------------------------------
// toXml / convert

/** The metadata pipeline's errors as library errors (METADATA_NOT_JSON, METADATA_INVALID, METADATA_INCONSISTENT). */
export function fromMetadataError(err: unknown): unknown {
  if (err instanceof MetadataNotJsonError) {
    if (err.code === 'JSON_TOO_DEEP') return new InvalidInputError('JSON_TOO_DEEP', err.message, { max_json_depth: MAX_JSON_DEPTH });
    return new InvalidInputError('METADATA_NOT_JSON', err.message);
  }
  if (err instanceof MetadataShapeError) return new ShapeError('METADATA_INVALID', err.items);
  if (err instanceof MetadataContentError) {
    return new InvalidInputError(
      'METADATA_INCONSISTENT',
      `The invoice metadata is inconsistent: ${err.issues.map((i) => `${i.field}: ${i.message}${i.expected !== undefined ? ` (given ${i.given}, expected ${i.expected})` : ''}`).join('; ')}`,
      { errors: err.issues },
    );
  }
  return err;
}

export interface ToXmlOptions {
  /** Output profile, overriding the metadata's `profile`: minimum, basic_wl, basic, en16931, extended, xrechnung, extended_ctc_fr, peppol. */
  profile?: OutputProfile | string;
  /** Output syntax, overriding the metadata's `syntax`: cii (CII D22B) or ubl (UBL 2.1, for en16931, xrechnung, peppol). */
  syntax?: OutputSyntax | string;
}

export interface XmlResult {
  /** The CII D22B or UBL 2.1 XML. */
  xml: string;
  /** The profile written (peppol: Peppol BIS Billing 3.0). */
  profile: OutputProfile;
  /** The syntax written. */
  syntax: OutputSyntax;
  /** Metadata paths the profile cannot carry, left out of the XML (the API's X-Dropped-Fields header). */
  droppedFields: string[];
  /** BT-1, when given. */
  invoiceNumber: string | undefined;
}

const OUTPUT_PROFILES: readonly string[] = [...PROFILE_IDS, 'peppol'];

/** The metadata with `profile` (and `syntax`) put in (JSON text is parsed first). */
async function withProfile(metadata: string | object, profile: string | undefined, syntax?: string): Promise<unknown> {
  if (profile === undefined && syntax === undefined) return metadata;
  if (profile !== undefined && !OUTPUT_PROFILES.includes(profile) && profile !== 'xrechnung_3.0') {
    throw new ShapeError('OPTION_INVALID', [
      { loc: ['profile'], msg: `Input should be ${OUTPUT_PROFILES.map((p) => `'${p}'`).join(', ')}`, type: 'enum', input: profile },
    ]);
  }
  if (syntax !== undefined && syntax !== 'cii' && syntax !== 'ubl') {
    throw new ShapeError('OPTION_INVALID', [{ loc: ['syntax'], msg: "Input should be 'cii' or 'ubl'", type: 'enum', input: syntax }]);
  }
  // Numbers kept as written, a serialized invoice mapped: the profile then goes onto the metadata itself.
  const { parseMetadataText, plainMetadataValue } = await import('../metadata/validate.js');
  let value: unknown;
  try {
    value = plainMetadataValue(typeof metadata === 'string' ? parseMetadataText(metadata) : metadata);
  } catch (err) {
    throw fromMetadataError(err);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return { ...(value as object), ...(profile !== undefined ? { profile } : {}), ...(syntax !== undefined ? { syntax } : {}) };
}

/** Build the metadata into CII XML; the model too (convert needs it). */
async function buildXml(metadata: string | object | InvoiceMetadata, options: ToXmlOptions) {
  const { buildInvoiceXml } = await import('../metadata/build.js');
  try {
    return buildInvoiceXml(await withProfile(metadata as string | object, options.profile, options.syntax));
  } catch (err) {
    throw fromMetadataError(err);
  }
}

/**
 * Invoice metadata (the API's InvoiceMetadata, as an object or JSON text) → Factur-X / ZUGFeRD / XRechnung CII
 * XML, or (`syntax: 'ubl'`, or the peppol profile) EN 16931 / XRechnung / Peppol BIS UBL. Totals and the VAT
 * breakdown are computed when absent; given values that disagree reject with InvalidInputError
 * METADATA_INCONSISTENT; a missing or ill-typed field, or a profile the syntax does not have, with ShapeError
 * METADATA_INVALID.
 */
export async function toXml(metadata: InvoiceMetadata | string | object, options: ToXmlOptions = {}): Promise<XmlResult> {
  const built = await buildXml(metadata, options);
  return {
    xml: built.xml,
    profile: built.target,
    syntax: built.syntax,
    droppedFields: built.droppedFields,
    invoiceNumber: built.invoice.number ?? undefined,
  };
}

// ------------------------------------------------------------------------------------------------
// transform

export interface TransformCallOptions {
  /** The target syntax: cii or ubl. */
  to: OutputSyntax | string;
  /** The target profile: with ubl en16931, xrechnung or peppol; with cii a Factur-X profile or xrechnung. Default: the source's. */
  profile?: OutputProfile | string;
  /** Name of the upload, for messages. */
  filename?: string;
}

/** A transform option of the wrong value as the library's ShapeError (HTTP 422 at `locRoot` + the field). */
export function transformOptions(to: unknown, profile: unknown, locRoot: (string | number)[] = []): TransformOptions {
  try {
    return checkTransformOptions(to, profile);
  } catch (err) {
    if (!(err instanceof TransformOptionError)) throw err;
    const missing = err.field === 'to' && (to === undefined || to === null || to === '');
    throw new ShapeError('OPTION_INVALID', [
      missing
        ? { loc: [...locRoot, 'to'], msg: 'Field required', type: 'missing' }
        : { loc: [...locRoot, err.field], msg: err.message, type: err.type, input: err.input },
    ]);
  }
}

/** TransformInputError (and IngestError) → InvalidInputError with the same code (HTTP 400). */
export function fromTransformError(err: unknown): unknown {
  if (err instanceof TransformInputError) return new InvalidInputError(err.code, err.message);
  return fromIngest(err);
}

/**
 * A CII or UBL invoice, or a Factur-X / ZUGFeRD PDF → the invoice in the other syntax (`to`), through the EN 16931
 * model, with everything the target does not carry listed in `dropped` (business term, source locations, reason).
 * `run` does the work (default: here, in-process); the HTTP service passes its runner's. Rejects with ShapeError
 * OPTION_INVALID for a bad `to` / `profile`, InvalidInputError for an upload without a readable invoice (NOT_PDF_OR_XML,
 * XML_MALFORMED, NO_XML, UNKNOWN_XML, UNSUPPORTED_XML, ...).
 */
export async function transform(
  input: Bytes,
  options: TransformCallOptions,
  run?: (bytes: Uint8Array, filename: string | undefined, options: TransformOptions) => Promise<TransformResult>,
): Promise<TransformResult> {
  const bytes = requireBytes(input, 'input');
  const checked = transformOptions(options?.to, options?.profile);
  try {
    if (run) return await run(bytes, options.filename, checked);
    const { transformIngested } = await import('../transform/transform.js');
    return transformIngested(await ingest(bytes, options.filename), checked);
  } catch (err) {
    throw fromTransformError(err);
  }
}

/** EmbedError → library error: unusable input is 400 with its code, a failed self-check is 500. */
export function fromEmbedError(err: unknown): unknown {
  if (!(err instanceof EmbedError)) return err;
  if (err.code === 'EMBED_CHECK_FAILED') return new InternalError(err.code, err.message);
  // A signed PDF is well-formed input the operation would damage: 422, like the other input-PDF states (NOT_PDFA3, PDFA_NONCONFORMANT).
  if (err.code === 'PDF_SIGNED') return new UnprocessableError(err.code, err.message, { opt_in: 'allow_signature_invalidation' });
  return new InvalidInputError(err.code, err.message);
}

export interface PdfResult {
  /** The hybrid invoice PDF. */
  pdf: Uint8Array;
  /** Download name from the invoice number, e.g. "RE-2026-0042.pdf". */
  filename: string;
  /** Metadata paths the profile could not carry (convert only; empty for merge). */
  droppedFields: string[];
  /**
   * The PDF/A-3b check of the written PDF (HTTP X-PDFA-Check): passed, failed (the input's content breaks a clause
   * no repair could mend; see pdfaUnmet), or unverified when its time budget ran out.
   */
  pdfaCheck: PdfaCheck;
  /** Names of the PDF/A repairs that changed something, in the order they ran (HTTP X-PDFA-Repairs); empty when none was needed. */
  pdfaRepairs: string[];
  /** When pdfaCheck is "failed": the clause-test ids the written PDF still fails, each once (HTTP X-PDFA-Unmet). Else empty. */
  pdfaUnmet: string[];
  /** When pdfaCheck is "failed": the findings behind pdfaUnmet, each once, at most 50 (pdfaFindingsOmitted counts the rest). */
  pdfaFindings: ValidationErrorDetail[];
  pdfaFindingsOmitted: number;
  /**
   * What a repair could do only in part, though the output may pass (HTTP X-PDFA-Partial: the clause ids): e.g. a
   * text field's value that could not be drawn with an embedded font, a media annotation removed with its poster,
   * XMP properties dropped because they cannot be declared. At most 50.
   */
  pdfaPartial: { clause: string; message: string; object?: string }[];
  /** The input PDF was digitally signed and allowSignatureInvalidation let it through: its signatures no longer verify (HTTP X-Signature-Invalidated). */
  signatureInvalidated: boolean;
  /** convert without a PDF: the invoice was drawn (pages, lines drawn / in the invoice, characters drawn as □). */
  drawn?: Omit<DrawnPdf, 'pdf'>;
}

/** Shared by convert and merge. */
interface SignatureOption {
  /**
   * Embed into a digitally signed PDF anyway (the signatures stop verifying). Default false: a signed PDF is
   * refused with UnprocessableError PDF_SIGNED (HTTP 422).
   */
  allowSignatureInvalidation?: boolean;
}

/** Shared by convert and merge. */
interface PdfaStrictOption {
  /**
   * Refuse instead of answering a PDF that fails PDF/A-3b after the repairs: UnprocessableError PDFA_NONCONFORMANT
   * (HTTP 422) listing each finding once, at most 50 (the rest counted). Default false: the PDF is answered with
   * pdfaCheck "failed" and the clauses in pdfaUnmet.
   */
  pdfaStrict?: boolean;
}

export type PdfaCheck = 'passed' | 'failed' | 'unverified';

/** Findings listed in a PDFA_NONCONFORMANT refusal (and in pdfaFindings); the rest are counted. */
export const MAX_PDFA_FINDINGS_LISTED = 50;

/**
 * The written PDF is checked again after the repairs (src/pdf/repair): passed, failed (with the clauses still unmet),
 * or unverified. In strict mode a failure is the 422 PDFA_NONCONFORMANT of before, its body bounded: each finding
 * once, at most 50 listed, `findings_omitted` counting the rest.
 */
function gatePdfa(
  pdf: Uint8Array,
  strict: boolean | undefined,
): Pick<PdfResult, 'pdfaCheck' | 'pdfaUnmet' | 'pdfaFindings' | 'pdfaFindingsOmitted'> {
  const gate = gateWrittenPdf(pdf);
  if (!gate.failures) return { pdfaCheck: gate.header, pdfaUnmet: [], pdfaFindings: [], pdfaFindingsOmitted: 0 };
  const seen = new Set<string>();
  const unique = gate.failures.filter((f) => {
    const k = `${f.rule_id}|${f.location ?? ''}|${f.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const listed = unique.slice(0, MAX_PDFA_FINDINGS_LISTED);
  const omitted = unique.length - listed.length;
  if (strict)
    throw new UnprocessableError('PDFA_NONCONFORMANT', gate.detail!, {
      errors: listed,
      unmet_clauses: gate.clauses,
      ...(omitted > 0 ? { report_truncated: true, findings_omitted: omitted } : {}),
    });
  return { pdfaCheck: 'failed', pdfaUnmet: gate.clauses ?? [], pdfaFindings: listed, pdfaFindingsOmitted: omitted };
}

export interface ConvertOptions extends ToXmlOptions, SignatureOption, PdfaStrictOption {
  /** Name of the PDF, for messages. */
  filename?: string;
  /**
   * Without a PDF: the language of the drawn invoice's labels, en (default), de or fr. Checked either way (a bad value
   * is ShapeError OPTION_INVALID at `lang`).
   */
  lang?: string;
  /**
   * How the XML is generated from the metadata (default: here, in-process). The HTTP service passes its runner's,
   * which takes large metadata off the event loop (9 MB of line items held /health for seconds). With `draw` (no PDF
   * given) it draws the invoice too and answers it as `drawn`.
   */
  buildXml?: (metadata: InvoiceMetadata | string | object, draw?: { lang: RenderLanguage }) => Promise<BuiltForConvert>;
}

/** What convert needs from the XML generation (the runner's BuiltXml). */
interface BuiltForConvert {
  xml: string;
  droppedFields: string[];
  profile: ProfileId;
  invoiceNumber?: string;
  syntax?: OutputSyntax;
  drawn?: DrawnPdf;
}

/** The invoice convert drew when no PDF was given. */
export interface DrawnPdf {
  pdf: Uint8Array;
  pages: number;
  /** Lines drawn and in the invoice (sub-lines included). */
  lines: { shown: number; total: number };
  /** Characters no shipped font has, drawn as □ (the document lists them). */
  missingGlyphs: number;
}

export { invoicePdfName };

/**
 * A PDF plus invoice metadata → a hybrid invoice PDF: the XML generated as toXml does, embedded as factur-x.xml
 * (or xrechnung.xml for the xrechnung profile), invoice XML already attached replaced. Without a PDF (`pdf` undefined
 * or null) the invoice is drawn from the metadata as a PDF/A-3b (labels in `options.lang`; the result's `drawn` says
 * so) and the XML embedded into that: a complete Factur-X / XRechnung from metadata alone. An empty Uint8Array is not
 * "no PDF": it is NOT_PDF. Rejects with InvalidInputError NOT_PDF / PDF_ENCRYPTED / PDF_UNREADABLE, or the metadata
 * errors of toXml.
 */
export async function convert(
  pdf: Bytes | null | undefined,
  metadata: InvoiceMetadata | string | object,
  options: ConvertOptions = {},
): Promise<PdfResult> {
  const draw = pdf === undefined || pdf === null;
  const given = draw ? undefined : requireBytes(pdf, 'pdf');
  if (given && !isPdf(given)) throw new InvalidInputError('NOT_PDF', `"${options.filename ?? 'pdf'}" is not a PDF`);
  const lang = parseRenderOptions({ lang: options.lang }).lang;
  let built: BuiltForConvert;
  if (options.buildXml) {
    try {
      built = await options.buildXml(
        (await withProfile(metadata as string | object, options.profile, options.syntax)) as string | object,
        draw ? { lang } : undefined,
      );
    } catch (err) {
      throw fromMetadataError(err);
    }
  } else {
    const b = await buildXml(metadata, options);
    built = {
      xml: b.xml,
      droppedFields: b.droppedFields,
      profile: b.profile,
      invoiceNumber: b.invoice.number ?? undefined,
      syntax: b.syntax,
    };
    if (draw && b.syntax !== 'ubl') {
      const { renderInvoicePdf } = await import('../render/render.js');
      const page = await renderInvoicePdf(b.invoice, { lang, termIds: false });
      built.drawn = { pdf: page.pdf, pages: page.pages, lines: page.lines, missingGlyphs: page.missingGlyphs };
    }
  }
  // A hybrid PDF carries CII (Factur-X / ZUGFeRD / XRechnung CII): UBL and Peppol are /v1/xml's.
  if (built.syntax === 'ubl') {
    throw new ShapeError('METADATA_INVALID', [
      {
        loc: ['body', 'metadata', 'syntax'],
        msg: 'convert embeds CII (Factur-X, ZUGFeRD, XRechnung CII): for UBL or Peppol use /v1/xml (toXml)',
        type: 'value_error',
        input: 'ubl',
      },
    ]);
  }
  const number = built.invoiceNumber;
  const pdfBytes = given ?? built.drawn?.pdf;
  if (!pdfBytes) throw new InternalError('DRAW_FAILED', 'The invoice could not be drawn as a PDF');
  let result;
  try {
    result = await embedInvoiceXml(pdfBytes, {
      xml: new TextEncoder().encode(built.xml),
      flavour: hybridFlavour(built.profile),
      title: number ? `Invoice ${number}` : undefined,
      producer: PRODUCER,
      replaceInvoiceAttachments: true,
      allowSignatureInvalidation: options.allowSignatureInvalidation === true,
    });
  } catch (err) {
    throw fromEmbedError(err);
  }
  return {
    pdf: result.pdf,
    filename: invoicePdfName(number),
    droppedFields: built.droppedFields,
    ...gatePdfa(result.pdf, options.pdfaStrict),
    pdfaRepairs: result.repairs?.repaired ?? [],
    pdfaPartial: result.repairs?.unrepaired ?? [],
    signatureInvalidated: result.signatureInvalidated === true,
    ...(given ? {} : { drawn: { pages: built.drawn!.pages, lines: built.drawn!.lines, missingGlyphs: built.drawn!.missingGlyphs } }),
  };
}

// ------------------------------------------------------------------------------------------------
// merge

export { HYBRID_FORMATS };

export interface MergeOptions extends SignatureOption, PdfaStrictOption {
  /** Container override: factur-x, zugferd or xrechnung. Default: from the XML's profile. */
  format?: HybridFormat | string | null;
  /** File names, for messages. */
  pdfFilename?: string;
  xmlFilename?: string;
  /**
   * How the XML is validated (default: validate() in-process). The HTTP service passes its worker-pool runner
   * (off the event loop, time-bounded).
   */
  validateXml?: (xml: Uint8Array, filename: string | undefined) => Promise<ValidationResult>;
  /**
   * Validate the XML before reading it here (set by the HTTP service for XML its runner validates in a worker):
   * parsing a 5 MB XML on the event loop held /health for a second, so a large one is parsed here only once it is
   * valid, to be embedded. Its syntax checks then come from the validation.
   */
  validateFirst?: boolean;
}

export function parseMergeFormat(value: string | null | undefined, locRoot: (string | number)[] = []): HybridFormat | undefined {
  const v = value?.trim().toLowerCase();
  if (!v || v === 'null') return undefined;
  if ((HYBRID_FORMATS as readonly string[]).includes(v)) return v as HybridFormat;
  throw new ShapeError('OPTION_INVALID', [
    { loc: [...locRoot, 'format'], msg: `Input should be ${HYBRID_FORMATS.map((f) => `'${f}'`).join(', ')}`, type: 'enum', input: value },
  ]);
}

async function ingestPdfPart(bytes: Uint8Array, filename: string | undefined): Promise<IngestResult> {
  if (!isPdf(bytes)) throw new InvalidInputError('NOT_PDF', `The pdf part ("${filename ?? 'pdf'}") is not a PDF`);
  let ing: IngestResult;
  try {
    ing = await ingest(bytes, filename);
  } catch (err) {
    throw fromIngest(err);
  }
  // Readable with the empty user password: the embedder writes it decrypted (a PDF/A-3 cannot be encrypted).
  return ing;
}

/** Step 1 for the XML: an invoice syntax that a hybrid PDF can carry (`problem`: why there is none, when unknown). */
function checkXmlSyntax(syntax: string | undefined, problem: string | undefined, format: HybridFormat | undefined): void {
  if (!syntax) throw new InvalidInputError('UNKNOWN_XML', problem ?? 'The XML is not a CII or UBL invoice');
  if (syntax === 'zugferd1') {
    throw new InvalidInputError(
      'UNSUPPORTED_XML',
      'ZUGFeRD 1.0 XML predates EN 16931 and cannot be embedded as Factur-X / ZUGFeRD 2.4 or XRechnung',
    );
  }
  if (syntax === 'ubl' && format !== undefined && format !== 'xrechnung') {
    throw new InvalidInputError('XML_SYNTAX_MISMATCH', `A ${format} PDF carries CII XML; this is UBL (embed it with format=xrechnung)`);
  }
}

const xmlIngestError = (err: IngestError) =>
  new InvalidInputError(err.code === 'NOT_PDF_OR_XML' || err.code === 'EMPTY_FILE' ? 'NOT_XML' : err.code, err.message);

async function ingestXmlPart(bytes: Uint8Array, filename: string | undefined, format: HybridFormat | undefined): Promise<IngestResult> {
  if (isPdf(bytes)) throw new InvalidInputError('NOT_XML', `The xml part ("${filename ?? 'xml'}") is a PDF, not XML`);
  let ing: IngestResult;
  try {
    ing = await ingest(bytes, filename);
  } catch (err) {
    if (err instanceof IngestError) throw xmlIngestError(err);
    throw err;
  }
  checkXmlSyntax(ing.syntax, ing.problems[0]?.message, format);
  return ing;
}

/**
 * An existing PDF/A-3 plus an existing invoice XML → one hybrid invoice PDF. Checks in the API's order:
 * InvalidInputError (400: NOT_PDF, PDF_ENCRYPTED, NOT_XML, XML_MALFORMED, UNKNOWN_XML, ...), ConflictError (409:
 * XML_ALREADY_EMBEDDED), UnprocessableError (422: NOT_PDFA3 and/or EN16931_INVALID, every failure under `extras.errors`).
 */
export async function merge(pdf: Bytes, xml: Bytes, options: MergeOptions = {}): Promise<PdfResult> {
  const pdfBytes = requireBytes(pdf, 'pdf');
  const xmlBytes = requireBytes(xml, 'xml');
  const format = parseMergeFormat(options.format ?? undefined);

  // 1. 400: both files must be what they claim to be.
  const pdfIng = await ingestPdfPart(pdfBytes, options.pdfFilename);
  const validateXml = async (): Promise<ValidationResult> => {
    try {
      return options.validateXml
        ? await options.validateXml(xmlBytes, options.xmlFilename)
        : await validate(xmlBytes, { filename: options.xmlFilename });
    } catch (err) {
      if (err instanceof IngestError) throw xmlIngestError(err);
      if (err instanceof InvalidInputError && (err.code === 'NOT_PDF_OR_XML' || err.code === 'EMPTY_FILE'))
        throw new InvalidInputError('NOT_XML', err.message);
      throw err;
    }
  };
  let xmlIng: IngestResult | undefined;
  let validation: ValidationResult | undefined;
  if (options.validateFirst) {
    if (isPdf(xmlBytes)) throw new InvalidInputError('NOT_XML', `The xml part ("${options.xmlFilename ?? 'xml'}") is a PDF, not XML`);
    validation = await validateXml();
    checkXmlSyntax(validation.syntax, validation.errors[0]?.message, format);
  } else {
    xmlIng = await ingestXmlPart(xmlBytes, options.xmlFilename, format);
  }

  // 2. 409: the PDF already is a hybrid invoice.
  if (pdfIng.attachmentName !== undefined) {
    throw new ConflictError('XML_ALREADY_EMBEDDED', `The PDF already carries an invoice XML ("${pdfIng.attachmentName}")`, {
      attachment: pdfIng.attachmentName,
    });
  }

  // 3. 422: PDF/A-3 declaration and EN 16931 validity, every failure listed.
  const errors: ValidationErrorDetail[] = [];
  const part = pdfIng.xmp?.pdfaPart?.trim();
  const conformance = pdfIng.xmp?.pdfaConformance?.trim().toUpperCase();
  if (part !== '3' || !conformance || !['A', 'B', 'U'].includes(conformance)) {
    errors.push({
      rule_id: 'PDFA3_DECLARATION',
      message: pdfIng.xmp
        ? `The PDF declares ${part ? `PDF/A-${part}${conformance ?? ''}` : 'no PDF/A part'} in its XMP; PDF/A-3b (pdfaid:part 3) is required`
        : 'The PDF has no readable XMP metadata, so it does not declare PDF/A-3b (pdfaid:part 3)',
      severity: 'error',
      rule_set: 'pdfa',
    });
  }
  validation ??= await validateXml();
  const invalid = !validation.valid;
  if (invalid) for (const e of validation.errors) if (e.severity === 'error') errors.push(e);
  if (errors.length > 0) {
    const pdfaFailed = errors[0].rule_id === 'PDFA3_DECLARATION';
    throw new UnprocessableError(
      pdfaFailed ? 'NOT_PDFA3' : 'EN16931_INVALID',
      [pdfaFailed ? 'The PDF is not declared PDF/A-3b' : '', invalid ? 'the XML fails EN 16931 validation' : '']
        .filter(Boolean)
        .join('; ')
        .replace(/^t/, 'T'),
      {
        errors,
        // Report size bounds, as in validate: summary entries (`omitted`) stand for the findings not listed.
        ...(validation.report_truncated ? { report_truncated: true, findings_omitted: validation.findings_omitted } : {}),
      },
    );
  }

  // 4. the hybrid PDF
  xmlIng ??= await ingestXmlPart(xmlBytes, options.xmlFilename, format);
  const number = xmlIng.invoice?.number;
  const container: HybridFormat = format ?? (xmlIng.profile === 'xrechnung' || xmlIng.syntax === 'ubl' ? 'xrechnung' : 'factur-x');
  let result;
  try {
    result = await embedInvoiceXml(pdfBytes, {
      xml: xmlIng.xmlBytes!,
      flavour: hybridFlavour(xmlIng.profile, container),
      title: number ? `Invoice ${number}` : undefined,
      producer: PRODUCER,
      allowSignatureInvalidation: options.allowSignatureInvalidation === true,
    });
  } catch (err) {
    throw fromEmbedError(err);
  }
  return {
    pdf: result.pdf,
    filename: invoicePdfName(number),
    droppedFields: [],
    ...gatePdfa(result.pdf, options.pdfaStrict),
    pdfaRepairs: result.repairs?.repaired ?? [],
    pdfaPartial: result.repairs?.unrepaired ?? [],
    signatureInvalidated: result.signatureInvalidated === true,
  };
}

// ------------------------------------------------------------------------------------------------
// serialize (pro)

export interface SerializationResult {
  success: boolean;
  schema_version: string;
  engine_version: string;
  xml_recovery_applied: false;
  invoice: BusinessReadyInvoice | null;
  fallbacks_applied: FallbackApplied[];
  /** Present (true) only when some fallbacks are counted instead of listed (over 100 of one field pattern). */
  fallbacks_truncated?: true;
  /** With fallbacks_truncated: the groups not listed in full, each with how many were left out. */
  fallbacks_omitted?: FallbacksOmitted[];
  errors: { code: string; message: string }[];
}

export interface SerializeOptions extends LicenseOptions {
  filename?: string;
}

/**
 * serialize() without the license check: the HTTP route checks the license of the running server itself. `read`
 * reads and serializes the upload (default: here, in-process); the route passes its runner's, which takes a large
 * invoice off the event loop.
 */
export async function serializeUnlicensed(
  bytes: Uint8Array,
  filename?: string,
  read?: (bytes: Uint8Array, filename?: string) => Promise<SerializedUpload>,
): Promise<SerializationResult> {
  let done: SerializedUpload;
  try {
    done = read ? await read(bytes, filename) : (await import('../serialize/upload.js')).serializeIngested(await ingest(bytes, filename));
  } catch (err) {
    throw fromIngest(err);
  }
  const { SCHEMA_VERSION } = await import('../serialize/business-ready.js');
  const base = { schema_version: SCHEMA_VERSION, engine_version: SERVICE_VERSION, xml_recovery_applied: false as const };
  if (!done.invoice) return { success: false, ...base, invoice: null, fallbacks_applied: [], errors: done.problems };
  const bounded = done.fallbacksOmitted.length ? { fallbacks_truncated: true as const, fallbacks_omitted: done.fallbacksOmitted } : {};
  return { success: true, ...base, invoice: done.invoice, fallbacks_applied: done.fallbacks, ...bounded, errors: done.problems };
}

/**
 * Pro: a PDF or XML invoice → normalized, typed ERP JSON (BusinessReadyInvoice) with every fallback listed.
 * Needs a valid license key (options.licenseKey or LICENSE_KEY), verified as the server does; without one it
 * rejects with LicenseRequiredError (LICENSE_REQUIRED).
 */
export async function serialize(input: Bytes, options: SerializeOptions = {}): Promise<SerializationResult> {
  const bytes = requireBytes(input, 'input');
  requireFeature(licenseOf(options), 'serialize');
  return serializeUnlicensed(bytes, options.filename);
}

export { EInvoiceError, requireFeature };

// ------------------------------------------------------------------------------------------------
// buildStatus: French lifecycle status messages (CDAR)

export type { StatusMessage } from '../syntax/cdar/model.js';

export interface StatusResult {
  /** The CDAR D22B XML. */
  xml: string;
  /** The complete message written (defaults filled in): what extract() reads back from `xml` as `status_json`. */
  status: import('../syntax/cdar/model.js').StatusMessage;
  /** BR-FR-CDV warnings of the message (a status code outside the published list); never errors. */
  warnings: ValidationErrorDetail[];
  /** Download name from the message id, e.g. "FA-2026-0042_205.xml". */
  filename: string;
}

/** The status builder's errors as library errors (STATUS_NOT_JSON / JSON_TOO_DEEP 400, STATUS_INVALID and STATUS_NOT_ALLOWED 422). */
export async function fromStatusError(err: unknown): Promise<unknown> {
  const { StatusNotAllowedError, StatusNotJsonError, StatusShapeError } = await import('../cdar/build.js');
  if (err instanceof StatusNotJsonError) {
    return new InvalidInputError(err.code, err.message, err.code === 'JSON_TOO_DEEP' ? { max_json_depth: MAX_JSON_DEPTH } : {});
  }
  if (err instanceof StatusShapeError) return new ShapeError('STATUS_INVALID', err.items);
  if (err instanceof StatusNotAllowedError) {
    const errors: ValidationErrorDetail[] = err.findings.map((f) => ({
      rule_id: f.ruleId,
      message: f.message,
      severity: f.severity,
      ...(f.location ? { location: f.location } : {}),
      rule_set: f.ruleSet,
    }));
    return new UnprocessableError('STATUS_NOT_ALLOWED', err.message, { errors });
  }
  return err;
}

/**
 * A lifecycle status message as JSON (the API's StatusMessage, an object or JSON text) → CDAR D22B XML, checked by
 * the CDAR XSD and the BR-FR-CDV rules before it is handed out. Rejects with InvalidInputError STATUS_NOT_JSON /
 * JSON_TOO_DEEP, ShapeError STATUS_INVALID (a field missing or out of its format; `issues` locate it under
 * `['body', …]`), or UnprocessableError STATUS_NOT_ALLOWED (a combination the rules forbid, `extras.errors` lists
 * their findings).
 */
export async function buildStatus(message: import('../syntax/cdar/model.js').StatusMessage | string | object): Promise<StatusResult> {
  const { buildStatusMessage } = await import('../cdar/build.js');
  let built;
  try {
    built = buildStatusMessage(message);
  } catch (err) {
    throw await fromStatusError(err);
  }
  const warnings: ValidationErrorDetail[] = built.warnings.map((f) => ({
    rule_id: f.ruleId,
    message: f.message,
    severity: f.severity,
    ...(f.location ? { location: f.location } : {}),
    rule_set: f.ruleSet,
  }));
  const base = built.status.message_id.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120) || 'status';
  return { xml: built.xml, status: built.status, warnings, filename: `${base}.xml` };
}

// ------------------------------------------------------------------------------------------------
// render

export {
  AVAILABLE_RENDER_FORMATS,
  parseRenderOptions,
  RENDER_FORMATS,
  RENDER_LANGUAGES,
  type RenderCallOptions,
  type RenderFormat,
  type RenderLanguage,
} from './render-options.js';

export interface RenderOptions extends RenderCallOptions {
  /** Where a bad option's 422 points (the HTTP route passes ["body"]: `loc` ["body","lang"]). */
  locRoot?: (string | number)[];
  /**
   * How the upload is read and drawn (default: here, in-process). The HTTP service passes its runner's, which takes a
   * large invoice off the event loop and bounds its time.
   */
  renderPage?: (bytes: Uint8Array, filename: string | undefined, options: ParsedRenderOptions) => Promise<RenderedPage>;
}

interface RenderResultCommon {
  /** Download name from the invoice number, e.g. "RE-2026-0042.html" / ".pdf". */
  filename: string;
  lang: RenderLanguage;
  /** Lines drawn and in the invoice (sub-lines included); shown < total when the page's bound cut the rest. */
  lines: { shown: number; total: number };
}

/** format 'html': one self-contained HTML document (inline CSS, no script). */
export interface RenderHtmlResult extends RenderResultCommon {
  format: 'html';
  html: string;
  /** The HTTP Content-Type of the page. */
  contentType: 'text/html; charset=utf-8';
}

/** format 'pdf': the invoice drawn as a PDF/A-3b (embedded fonts, no browser). */
export interface RenderPdfResult extends RenderResultCommon {
  format: 'pdf';
  pdf: Uint8Array;
  contentType: 'application/pdf';
  pages: number;
  /** Characters no shipped font has, drawn as □ (the document lists them in a notice); 0 almost always. */
  missingGlyphs: number;
}

export type RenderResult = RenderHtmlResult | RenderPdfResult;

/** NothingToRenderError (no invoice in the upload) → UnprocessableError with ingest's code; IngestError → 400. */
export function fromRenderError(err: unknown): unknown {
  if (err instanceof NothingToRenderError) return new UnprocessableError(err.code, `Nothing to render: ${err.message}`);
  return fromIngest(err);
}

/**
 * A PDF or XML invoice → a human-readable page: every business term the invoice carries, labels in English, German or
 * French. `format` 'html' (default): one HTML page, each value marked with its EN 16931 id (`data-bt`); 'pdf': the same
 * invoice drawn as a PDF/A-3b on A4 pages. Rejects with ShapeError (OPTION_INVALID: lang or format not accepted),
 * InvalidInputError (unusable upload, as extract) or UnprocessableError with ingest's code when the upload holds no
 * invoice (NO_XML, UNKNOWN_XML, XML_MALFORMED of an embedded XML, PDF_ATTACHMENT_UNREADABLE).
 */
export async function render(input: Bytes, options: RenderOptions = {}): Promise<RenderResult> {
  const bytes = requireBytes(input, 'input');
  const parsed = parseRenderOptions(options, options.locRoot);
  let page: RenderedPage;
  try {
    if (options.renderPage) page = await options.renderPage(bytes, options.filename, parsed);
    else {
      const { renderIngested } = await import('../render/render.js');
      page = await renderIngested(await ingest(bytes, options.filename), { lang: parsed.lang, format: parsed.format });
    }
  } catch (err) {
    throw fromRenderError(err);
  }
  const common = { lang: page.lang, lines: page.lines };
  if (page.format === 'pdf') {
    return {
      format: 'pdf',
      pdf: page.pdf,
      contentType: 'application/pdf',
      filename: `${fileStem(page.invoiceNumber, 'invoice')}.pdf`,
      pages: page.pages,
      missingGlyphs: page.missingGlyphs,
      ...common,
    };
  }
  return {
    format: 'html',
    html: page.html,
    contentType: 'text/html; charset=utf-8',
    filename: `${fileStem(page.invoiceNumber, 'invoice')}.html`,
    ...common,
  };
}
