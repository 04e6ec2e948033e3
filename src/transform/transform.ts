/**
 * CII ⇄ UBL through the EN 16931 model: an ingested invoice (CII, UBL, or the CII of a Factur-X / ZUGFeRD PDF) is
 * written in the other syntax (or the same one for another profile), and everything that does not make it across
 * is listed, never lost silently:
 *
 * - `not_in_model`: source content the model has no place for (src/transform/coverage.ts: the source rewritten
 *   from its model and compared with itself), e.g. Factur-X EXTENDED elements, UBL elements outside EN 16931;
 * - `not_in_target`: business terms the target syntax or profile cannot carry (the target read back and compared
 *   with the source model term by term, src/transform/model-diff.ts), e.g. the lines of a MINIMUM target, a credit
 *   note's due date in UBL without a payment means;
 * - `replaced`: the specification identifier (BT-24) and business process (BT-23) the target prescribes in place
 *   of the source's.
 *
 * Entries are grouped by term (or source element) and model path pattern, each with the count, the first source
 * locations and the first value, so that a 10,000-line invoice gets a list a reader can act on.
 */
import type { IngestResult } from '../input/types.js';
import type { Invoice } from '../model/invoice.js';
import {
  CREDIT_NOTE_TYPE_CODES,
  GUIDELINE_ID,
  PEPPOL_BILLING_PROCESS,
  UBL_CUSTOMIZATION_ID,
  ublProfileOf,
  type OutputProfile,
  type OutputSyntax,
  type ProfileId,
  type UblProfileId,
} from '../model/profiles.js';
import { XRECHNUNG_BUSINESS_PROCESS } from '../metadata/to-model.js';
import { readCii } from '../syntax/cii/reader.js';
import { fieldLocationOf } from '../syntax/reader-helpers.js';
import { writeCii } from '../syntax/cii/writer.js';
import { profileFromGuideline } from '../syntax/detect.js';
import { readUbl } from '../syntax/ubl/reader.js';
import { writeUbl } from '../syntax/ubl/writer.js';
import { termName } from '../validation/explanations/terms.js';
import { termsAt } from '../validation/explanations/paths.js';
import { parseXml, pathOf, type XmlElement } from '../xml/dom.js';
import { unmappedContent, unmappedLocation } from './coverage.js';
import { diffInvoices, splitNoteSubject } from './model-diff.js';
import { checkTransformOptions, TransformInputError, type TransformOptions } from './options.js';

export { checkTransformOptions, TransformInputError, TransformOptionError, type TransformOptions } from './options.js';

/** Why an entry is in the dropped list. */
export type DropReason = 'not_in_model' | 'not_in_target' | 'replaced';

/** One group of source content that did not make it into the target. */
export interface DroppedContent {
  /** The business term (`BT-154`, `BT-29-1`, `BG-13`), or null for content outside EN 16931. */
  term: string | null;
  /** The term's name, or the source element's name when there is no term. */
  name: string;
  reason: DropReason;
  /** The model path pattern (`lines[].itemDescription`) or, for content outside the model, the source element path without positions. */
  path: string;
  /** How many values of this group were dropped. */
  count: number;
  /** Source locations (XPath with positions) of the first ones, at most MAX_LOCATIONS. */
  locations: string[];
  /** The first dropped value (cut at MAX_VALUE characters); absent for whole elements. */
  value?: string;
  /** `replaced`: the value the target carries instead. */
  replacement?: string;
}

export interface TransformResult {
  /** The invoice in the target syntax. */
  xml: string;
  syntax: OutputSyntax;
  profile: OutputProfile;
  /** What the source was. */
  source: { syntax: 'cii' | 'ubl'; profile: ProfileId | UblProfileId | null; specification_id: string | null };
  dropped: DroppedContent[];
}

export const MAX_LOCATIONS = 10;
export const MAX_VALUE = 200;

/** The source's invoice, or why there is none (TransformInputError). */
function sourceOf(ing: IngestResult): { root: XmlElement; syntax: 'cii' | 'ubl'; invoice: Invoice } {
  if (!ing.doc || !ing.syntax || !ing.invoice) {
    const problem = ing.problems.find((p) => p.code !== 'PDF_ENCRYPTED_READ' && p.code !== 'MULTIPLE_XML_ATTACHMENTS');
    if (problem) throw new TransformInputError(problem.code, problem.message);
    throw new TransformInputError('UNKNOWN_XML', 'The upload holds no CII or UBL invoice');
  }
  if (ing.syntax === 'zugferd1') {
    throw new TransformInputError('UNSUPPORTED_XML', 'ZUGFeRD 1.0 XML predates EN 16931 and cannot be transformed');
  }
  return { root: ing.doc.root, syntax: ing.syntax, invoice: ing.invoice };
}

function write(invoice: Invoice, syntax: OutputSyntax, ciiProfile: ProfileId): string {
  return syntax === 'ubl' ? writeUbl(invoice) : writeCii(invoice, ciiProfile);
}

/**
 * Reading UBL for a transform: what the binding spells in its own way becomes the model's terms. A note's "#CODE#"
 * prefix is its subject code (BT-21); the "NA" purchase order placeholder beside a sales order is no purchase order;
 * an account that is not an IBAN is a proprietary id (CII writes it as ProprietaryID).
 */
function normaliseUblModel(inv: Invoice): void {
  for (const note of inv.notes) {
    if (note.subjectCode) continue;
    const split = splitNoteSubject(note.text);
    if (split.subjectCode) {
      note.subjectCode = split.subjectCode;
      note.text = split.text;
    }
  }
  if (inv.purchaseOrderReference === 'NA' && inv.salesOrderReference) inv.purchaseOrderReference = undefined;
  for (const ct of inv.payment?.creditTransfers ?? []) {
    if (ct.accountId && !/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(ct.accountId.replace(/\s+/g, ''))) ct.proprietaryId = true;
  }
}

/** Categories whose CII rules (BR-Z-01, BR-E-01, BR-AE-01, BR-IC-01, BR-G-01) refuse a breakdown no line, allowance or charge uses. */
const SINGLE_BREAKDOWN_CATEGORIES = new Set(['Z', 'E', 'AE', 'K', 'G']);

/**
 * The model for a CII target without the VAT breakdown entries CII cannot carry: an entry of category Z, E, AE, K or G
 * with zero taxable and tax amounts that no line, document allowance or charge uses. The UBL rules accept such an
 * entry (the breakdown's own TaxCategory counts as a use there), the CII rules refuse it; its amounts say nothing,
 * so it is left out — and listed as dropped, since the comparison is with the source model.
 */
function withoutOrphanBreakdowns(inv: Invoice): Invoice {
  const used = new Set<string>();
  for (const item of [...inv.lines, ...inv.allowances, ...inv.charges]) if (item.vatCategoryCode) used.add(item.vatCategoryCode.trim());
  const zero = (v: string | undefined) => v === undefined || /^[+-]?0*(\.0*)?$/.test(v.trim());
  const kept = inv.vatBreakdown.filter((b) => {
    const cat = b.categoryCode?.trim() ?? '';
    return !(SINGLE_BREAKDOWN_CATEGORIES.has(cat) && !used.has(cat) && zero(b.taxableAmount) && zero(b.taxAmount));
  });
  return kept.length === inv.vatBreakdown.length ? inv : { ...inv, vatBreakdown: kept };
}

/** The target profile: as asked, or the source's own when the target syntax has it, else plain EN 16931. */
function targetProfile(to: OutputSyntax, asked: OutputProfile | undefined, spec: string | undefined): OutputProfile {
  if (asked) return asked;
  const ubl = ublProfileOf(spec);
  if (to === 'ubl') return ubl ?? 'en16931';
  if (ubl === 'xrechnung') return 'xrechnung';
  return profileFromGuideline(spec) ?? 'en16931';
}

/** BT-23 for the target: Peppol prescribes its billing process, XRechnung a default; otherwise the source's stays. */
function targetProcess(profile: OutputProfile, source: string | undefined): string | undefined {
  if (profile === 'peppol') {
    return source && /^urn:fdc:peppol\.eu:2017:poacc:billing:[0-9]{2}:1\.0$/.test(source.trim()) ? source : PEPPOL_BILLING_PROCESS;
  }
  if (profile === 'xrechnung') return source || XRECHNUNG_BUSINESS_PROCESS;
  return source;
}

const pattern = (path: string) => path.replace(/\[\d+\]/g, '[]');
const cut = (v: string | undefined) => (v !== undefined && v.length > MAX_VALUE ? `${v.slice(0, MAX_VALUE)}…` : v);

class DropList {
  private readonly groups = new Map<string, DroppedContent>();

  add(reason: DropReason, term: string | null, name: string, path: string, location: string | undefined, value?: string): void {
    const key = `${reason}\u0000${term ?? ''}\u0000${path}`;
    let g = this.groups.get(key);
    if (!g) {
      g = { term, name, reason, path, count: 0, locations: [] };
      const v = cut(value);
      if (v !== undefined) g.value = v;
      this.groups.set(key, g);
    }
    g.count++;
    if (location && g.locations.length < MAX_LOCATIONS) g.locations.push(location);
  }

  replaced(term: string, path: string, location: string | undefined, value: string | undefined, replacement: string | undefined): void {
    if ((value ?? '') === (replacement ?? '') || value === undefined || value === '') return;
    const entry: DroppedContent = { term, name: termName(term), reason: 'replaced', path, count: 1, locations: location ? [location] : [] };
    entry.value = cut(value)!;
    if (replacement) entry.replacement = replacement;
    this.groups.set(`replaced\u0000${term}`, entry);
  }

  list(): DroppedContent[] {
    return [...this.groups.values()];
  }
}

/** The element's qualified name as in the source. */
const qname = (el: XmlElement) => (el.prefix ? `${el.prefix}:${el.local}` : el.local);

/** Source element path without positions: `/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IncludedNote`. */
function elementPattern(el: XmlElement): string {
  const names: string[] = [];
  for (let e: XmlElement | null = el; e; e = e.parent) names.push(qname(e));
  return `/${names.reverse().join('/')}`;
}

/**
 * The term a piece of unmapped source content belongs to, as far as its location tells: its own term, or the group
 * it sits in; null when it would only inherit an ancestor's business term (a Factur-X EXTENDED ram:ParentLineID is
 * no line identifier, BT-126).
 */
function ownTerm(el: XmlElement, location: string): string | null {
  const term = termsAt(location)[0];
  if (!term) return null;
  if (term.startsWith('BG-') || !el.parent) return term;
  return termsAt(pathOf(el.parent))[0] === term ? null : term;
}

/** Transform an ingested upload (see the module comment). Throws TransformInputError / TransformOptionError. */
export function transformIngested(ing: IngestResult, options: TransformOptions): TransformResult {
  const { to, profile: asked } = checkTransformOptions(options.to, options.profile);
  const src = sourceOf(ing);
  const inv = src.invoice;
  const dropped = new DropList();

  // 1. What the model does not hold: the source rewritten from its model (CII for its own profile, whose level
  // decides what the writer writes), compared with the source.
  const sourceProfile = profileFromGuideline(inv.specificationId) ?? 'extended';
  const rewrite = parseXml(write(inv, src.syntax, sourceProfile));
  const unmapped = unmappedContent(src.root, rewrite.root).map((u) => ({ u, location: unmappedLocation(u) }));

  // 2. The target: its identifiers, the model written in its syntax.
  if (src.syntax === 'ubl') normaliseUblModel(inv);
  const profile = targetProfile(to, asked, inv.specificationId);
  const sourceSpec = inv.specificationId;
  const sourceProcess = inv.businessProcess;
  const specLocation = fieldLocationOf(inv, 'specificationId');
  const processLocation = fieldLocationOf(inv, 'businessProcess');
  const ciiProfile: ProfileId = profile === 'peppol' ? 'en16931' : profile;
  inv.specificationId = to === 'ubl' ? UBL_CUSTOMIZATION_ID[profile as UblProfileId] : GUIDELINE_ID[ciiProfile];
  inv.businessProcess = targetProcess(profile, sourceProcess);
  inv.kind = inv.typeCode !== undefined && CREDIT_NOTE_TYPE_CODES.has(inv.typeCode.trim()) ? 'credit-note' : 'invoice';
  const xml = write(to === 'cii' ? withoutOrphanBreakdowns(inv) : inv, to, ciiProfile);

  // 3. What the target does not carry: read it back and compare term by term.
  const back = parseXml(xml).root;
  const target = to === 'ubl' ? readUbl(back) : readCii(back);
  if (to === 'ubl') normaliseUblModel(target);
  const targetLost = new Set<string>();
  for (const d of diffInvoices(inv, target)) {
    if (d.a === undefined) continue; // added by the target syntax (e.g. BT-110 as the breakdown's sum): nothing lost
    dropped.add('not_in_target', d.term, termName(d.term), pattern(d.path), d.location, d.a);
    if (d.location) targetLost.add(d.location);
  }
  // Content the model holds but our own writer would not write back (a contact's department beside a person, an
  // empty attachment) is lost on the way to the target too: listed once, as not in the target.
  for (const { u, location } of unmapped) {
    if (targetLost.has(location)) continue;
    const element = qname(u.element);
    const path = u.attribute ? `${elementPattern(u.element)}/@${u.attribute}` : elementPattern(u.element);
    const value = u.attribute
      ? u.element.attrs.find((a) => (a.prefix ? `${a.prefix}:${a.local}` : a.local) === u.attribute)?.value
      : undefined;
    const leafText = !u.attribute && u.element.children.length === 0 ? u.element.text.trim() : undefined;
    dropped.add(
      'not_in_model',
      ownTerm(u.element, location),
      u.attribute ? `${element}/@${u.attribute}` : element,
      path,
      location,
      value ?? leafText,
    );
  }
  dropped.replaced('BT-24', 'specificationId', specLocation, sourceSpec, inv.specificationId);
  dropped.replaced('BT-23', 'businessProcess', processLocation, sourceProcess, inv.businessProcess);

  return {
    xml,
    syntax: to,
    profile,
    source: {
      syntax: src.syntax,
      profile: src.syntax === 'ubl' ? (ublProfileOf(sourceSpec) ?? null) : profileFromGuideline(sourceSpec),
      specification_id: sourceSpec ?? null,
    },
    dropped: dropped.list(),
  };
}
