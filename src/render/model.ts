/**
 * The model step of rendering: the EN 16931 invoice model → a language-independent render model of sections,
 * groups and terms, each value with its business term id (BT-/BG-), its raw value exactly as the model holds it, and
 * how it is displayed (date, amount, quantity, code of a named list, identifier with scheme, ...). Views draw it
 * (./html.ts; a PDF view beside it), with the labels of ./labels.ts and the code meanings of ./codes.ts: no view
 * reads the invoice model itself, so every view shows the same terms.
 *
 * Every term the model holds becomes one RenderTerm, every occurrence of a repeated term one more (lines, sub-lines,
 * notes, references, identifiers, contacts, ...). Groups and terms carry `src`, the XPath-like location of their source
 * element (the form validation findings use), so a finding can be mapped to the value it concerns.
 */
import type {
  Address,
  Contact,
  DocumentAllowanceCharge,
  Identifier,
  Invoice,
  InvoiceLine,
  LineAllowanceCharge,
  Located,
  Party,
  Period,
} from '../model/invoice.js';
import { fieldLocationOf, locationOf } from '../syntax/reader-helpers.js';

/** How a raw value is displayed. */
export type ValueKind =
  | 'text' // one line of text, shown as is
  | 'note' // free text that may span lines (notes, descriptions): shown with its line breaks
  | 'date' // ISO YYYY-MM-DD when the source could be read as a date (else shown as written)
  | 'amount' // money in the invoice currency (or `currency`)
  | 'price' // unit price (more decimals than money)
  | 'quantity'
  | 'percent'
  | 'code' // a code of `list`, shown with its meaning
  | 'id' // an identifier (its scheme is a term of its own, BT-n-1)
  | 'email'
  | 'uri'
  | 'binary'; // BT-125: base64 content (with mime code and file name)

/** The code lists a view can give meanings for (./codes.ts). */
export type CodeListName =
  | 'invoiceType'
  | 'currency'
  | 'country'
  | 'unit'
  | 'vatCategory'
  | 'vatex'
  | 'paymentMeans'
  | 'noteSubject'
  | 'allowanceReason'
  | 'chargeReason'
  | 'taxPointDate'
  | 'mime'
  | 'scheme'
  | 'lineStatus';

export interface RenderTerm {
  readonly type: 'term';
  /** EN 16931 id: 'BT-1', 'BT-29-1' (a scheme), 'BT-DEX-002' (XRechnung extension), 'BT-X-304' (Factur-X EXTENDED). */
  bt: string;
  kind: ValueKind;
  /** The value exactly as the model holds it. */
  raw: string;
  /** kind 'code': the list whose meaning is shown. */
  list?: CodeListName;
  /** kind 'amount' / 'price': the currency (BT-5, or BT-6 for BT-111). */
  currency?: string;
  /** kind 'binary': mime code (BT-125-1) and file name (BT-125-2), as given. */
  mime?: string;
  filename?: string;
  /** Location of the source element (or `…/@attr`), as in validation findings; absent when unknown. */
  src?: string;
}

export interface RenderGroup {
  readonly type: 'group';
  /** 'BG-4', 'BG-25', 'BG-DEX-01', ...; our own 'DOC' for the document's header terms. */
  bg: string;
  items: RenderItem[];
  src?: string;
}

export type RenderItem = RenderTerm | RenderGroup;

/** Where a part of the invoice sits on the page; views lay each out their own way, in this order. */
export type SectionId =
  | 'heading'
  | 'parties'
  | 'references'
  | 'delivery'
  | 'lines'
  | 'allowancesCharges'
  | 'vat'
  | 'totals'
  | 'payment'
  | 'notes'
  | 'attachments';

export interface RenderSection {
  id: SectionId;
  groups: RenderGroup[];
}

/** What the rendering says about where the invoice came from (not business terms: no ids). */
export interface RenderSource {
  container: 'pdf' | 'xml';
  syntax?: 'cii' | 'ubl' | 'zugferd1';
  format: string | null;
  profile: string | null;
  /** PDF: the attachment the XML was taken from. */
  attachmentName?: string;
  /** Non-fatal findings of reading (code + message), shown as notices. */
  notices: { code: string; message: string }[];
}

export interface RenderModel {
  kind: Invoice['kind'];
  /** BT-1 and BT-3 for titles and file names (raw). */
  number?: string;
  typeCode?: string;
  currency?: string;
  sections: RenderSection[];
  /** Lines (sub-lines included) in the invoice and drawn; `shown < total` when the page cap cut the rest. */
  lineCount: { total: number; shown: number };
  /** Which items carry `src`: every group and term, or groups only (long invoices, SOURCE_PATHS_MAX_LINES). */
  sourcePaths: 'all' | 'groups';
  source?: RenderSource;
}

export interface RenderModelOptions {
  /** At most this many lines (sub-lines included) are drawn; the rest are counted (default MAX_RENDERED_LINES). */
  maxLines?: number;
  /**
   * Which items carry `src`: 'all' (groups and terms) or 'groups' only. Default: 'all' up to SOURCE_PATHS_MAX_LINES
   * lines, 'groups' beyond (see there).
   */
  sourcePaths?: 'all' | 'groups';
}

/**
 * A term's source location is a string of ~150 characters: on a 10,000-line invoice, one per term tripled the page
 * (9.5 → 25.8 MB) and doubled the time to draw it. Past this many lines only groups carry theirs (a line, an
 * allowance, an attribute, ...), which still places a finding on its line; the page says which (`data-src-detail`).
 */
export const SOURCE_PATHS_MAX_LINES = 500;

/**
 * The page's bound: a 10,000-line invoice draws in tens of milliseconds; beyond this many lines (sub-lines
 * included) the rest are counted and the page says how many were left out, so that time and memory stay bounded
 * whatever the upload limit.
 */
export const MAX_RENDERED_LINES = 20_000;

// ------------------------------------------------------------------------------------------------
// builders

type Kind = ValueKind;

/** Whether terms get their source location (set per toRenderModel call; the builders run synchronously). */
let termSources = true;

class GroupBuilder {
  readonly group: RenderGroup;
  constructor(bg: string, src?: Located | string) {
    this.group = { type: 'group', bg, items: [] };
    const at = typeof src === 'string' ? src : locationOf(src);
    if (at) this.group.src = at;
  }

  /** A term from `obj[field]` (skipped when absent), located at the field's source. */
  term(bt: string, kind: Kind, obj: Located | undefined, field: string, extra?: Partial<RenderTerm>): this {
    const raw = obj ? (obj as Record<string, unknown>)[field] : undefined;
    if (typeof raw !== 'string') return this;
    return this.value(bt, kind, raw, termSources ? fieldLocationOf(obj, field) : undefined, extra);
  }

  /** A term with a value at hand. */
  value(bt: string, kind: Kind, raw: string | undefined, src?: string, extra?: Partial<RenderTerm>): this {
    if (raw === undefined) return this;
    const t: RenderTerm = { type: 'term', bt, kind, raw, ...extra };
    if (src && termSources) t.src = src;
    this.group.items.push(t);
    return this;
  }

  code(bt: string, list: CodeListName, obj: Located | undefined, field: string): this {
    return this.term(bt, 'code', obj, field, { list });
  }

  amount(bt: string, obj: Located | undefined, field: string, currency: string | undefined, kind: 'amount' | 'price' = 'amount'): this {
    return this.term(bt, kind, obj, field, currency === undefined ? undefined : { currency });
  }

  /** An identifier and its scheme (BT-n-1) and scheme version (BT-n-2 where EN 16931 has one). */
  identifier(bt: string, id: Identifier | undefined, src: string | undefined, schemeBt?: string, versionBt?: string): this {
    if (!id) return this;
    this.value(bt, 'id', id.value, src);
    if (schemeBt && id.schemeId !== undefined) this.value(schemeBt, 'code', id.schemeId, src && `${src}/@schemeID`, { list: 'scheme' });
    if (versionBt && id.schemeVersionId !== undefined) this.value(versionBt, 'text', id.schemeVersionId, src && `${src}/@schemeVersionID`);
    return this;
  }

  add(child: RenderGroup | undefined): this {
    if (child && child.items.length > 0) this.group.items.push(child);
    return this;
  }

  done(): RenderGroup {
    return this.group;
  }
}

const g = (bg: string, src?: Located | string) => new GroupBuilder(bg, src);

// ------------------------------------------------------------------------------------------------
// parts

function address(
  bg: string,
  a: Address | undefined,
  ids: [string, string, string, string, string, string, string],
): RenderGroup | undefined {
  if (!a) return undefined;
  const [l1, l2, l3, city, postcode, sub, country] = ids;
  return g(bg, a)
    .term(l1, 'text', a, 'line1')
    .term(l2, 'text', a, 'line2')
    .term(l3, 'text', a, 'line3')
    .term(postcode, 'text', a, 'postcode')
    .term(city, 'text', a, 'city')
    .term(sub, 'text', a, 'countrySubdivision')
    .code(country, 'country', a, 'countryCode')
    .done();
}

/** BG-6 / BG-9: CII may carry several contacts, each its own group; the department is part of BT-41 / BT-56 in CII. */
function contact(bg: string, c: Contact, [name, phone, email]: [string, string, string]): RenderGroup {
  return g(bg, c)
    .term(name, 'text', c, 'name')
    .term(name, 'text', c, 'department')
    .term(phone, 'text', c, 'phone')
    .term(email, 'email', c, 'email')
    .done();
}

function identifiers(b: GroupBuilder, obj: { identifiers: Identifier[] } & Located, bt: string, schemeBt: string): void {
  obj.identifiers.forEach((id, i) => b.identifier(bt, id, fieldLocationOf(obj, `identifiers[${i}]`), schemeBt));
}

function seller(p: Party): RenderGroup {
  const b = g('BG-4', p).term('BT-27', 'text', p, 'name').term('BT-28', 'text', p, 'tradingName');
  identifiers(b, p, 'BT-29', 'BT-29-1');
  b.identifier('BT-30', p.legalRegistrationId, fieldLocationOf(p, 'legalRegistrationId'), 'BT-30-1')
    .term('BT-31', 'id', p, 'vatId')
    .term('BT-32', 'id', p, 'taxRegistrationId')
    .term('BT-33', 'note', p, 'additionalLegalInfo')
    .identifier('BT-34', p.electronicAddress, fieldLocationOf(p, 'electronicAddress'), 'BT-34-1')
    .add(address('BG-5', p.address, ['BT-35', 'BT-36', 'BT-162', 'BT-37', 'BT-38', 'BT-39', 'BT-40']));
  for (const c of p.contacts) b.add(contact('BG-6', c, ['BT-41', 'BT-42', 'BT-43']));
  return b.done();
}

function buyer(p: Party): RenderGroup {
  const b = g('BG-7', p).term('BT-44', 'text', p, 'name').term('BT-45', 'text', p, 'tradingName');
  identifiers(b, p, 'BT-46', 'BT-46-1');
  b.identifier('BT-47', p.legalRegistrationId, fieldLocationOf(p, 'legalRegistrationId'), 'BT-47-1')
    .term('BT-48', 'id', p, 'vatId')
    // The model's taxRegistrationId and additionalLegalInfo are seller terms (BT-32, BT-33): EN 16931 has none for the buyer.
    .identifier('BT-49', p.electronicAddress, fieldLocationOf(p, 'electronicAddress'), 'BT-49-1')
    .add(address('BG-8', p.address, ['BT-50', 'BT-51', 'BT-163', 'BT-52', 'BT-53', 'BT-54', 'BT-55']));
  for (const c of p.contacts) b.add(contact('BG-9', c, ['BT-56', 'BT-57', 'BT-58']));
  return b.done();
}

function payee(inv: Invoice): RenderGroup | undefined {
  const p = inv.payee;
  if (!p) return undefined;
  const b = g('BG-10', p).term('BT-59', 'text', p, 'name');
  identifiers(b, p, 'BT-60', 'BT-60-1');
  return b.identifier('BT-61', p.legalRegistrationId, fieldLocationOf(p, 'legalRegistrationId'), 'BT-61-1').done();
}

function taxRepresentative(inv: Invoice): RenderGroup | undefined {
  const t = inv.taxRepresentative;
  if (!t) return undefined;
  return g('BG-11', t)
    .term('BT-62', 'text', t, 'name')
    .term('BT-63', 'id', t, 'vatId')
    .add(address('BG-12', t.address, ['BT-64', 'BT-65', 'BT-164', 'BT-66', 'BT-67', 'BT-68', 'BT-69']))
    .done();
}

function period(bg: string, p: Period | undefined, [start, end]: [string, string]): RenderGroup | undefined {
  if (!p) return undefined;
  return g(bg, p).term(start, 'date', p, 'start').term(end, 'date', p, 'end').done();
}

function heading(inv: Invoice): RenderGroup {
  return g('DOC', inv)
    .code('BT-3', 'invoiceType', inv, 'typeCode')
    .term('BT-1', 'id', inv, 'number')
    .term('BT-2', 'date', inv, 'issueDate')
    .term('BT-9', 'date', inv, 'dueDate')
    .term('BT-7', 'date', inv, 'taxPointDate')
    .code('BT-8', 'taxPointDate', inv, 'taxPointDateCode')
    .code('BT-5', 'currency', inv, 'currency')
    .code('BT-6', 'currency', inv, 'vatAccountingCurrency')
    .term('BT-10', 'text', inv, 'buyerReference')
    .add(g('BG-2', inv).term('BT-23', 'text', inv, 'businessProcess').term('BT-24', 'id', inv, 'specificationId').done())
    .done();
}

function references(inv: Invoice): RenderGroup[] {
  const refs = g('REFS', inv)
    .term('BT-11', 'id', inv, 'projectReference')
    .term('BT-12', 'id', inv, 'contractReference')
    .term('BT-13', 'id', inv, 'purchaseOrderReference')
    .term('BT-14', 'id', inv, 'salesOrderReference')
    .term('BT-15', 'id', inv, 'receivingAdviceReference')
    .term('BT-16', 'id', inv, 'despatchAdviceReference')
    .term('BT-17', 'id', inv, 'tenderOrLotReference')
    .identifier('BT-18', inv.invoicedObjectIdentifier, fieldLocationOf(inv, 'invoicedObjectIdentifier'), 'BT-18-1')
    .term('BT-19', 'text', inv, 'buyerAccountingReference')
    .add(period('BG-14', inv.invoicingPeriod, ['BT-73', 'BT-74']));
  for (const pi of inv.precedingInvoices)
    refs.add(g('BG-3', pi).term('BT-25', 'id', pi, 'number').term('BT-26', 'date', pi, 'date').done());
  return nonEmpty([refs.done()]);
}

function delivery(inv: Invoice): RenderGroup[] {
  const d = inv.delivery;
  if (!d) return [];
  return nonEmpty([
    g('BG-13', d)
      .term('BT-70', 'text', d, 'partyName')
      .identifier('BT-71', d.locationId, fieldLocationOf(d, 'locationId'), 'BT-71-1')
      .term('BT-72', 'date', d, 'actualDeliveryDate')
      .add(address('BG-15', d.address, ['BT-75', 'BT-76', 'BT-165', 'BT-77', 'BT-78', 'BT-79', 'BT-80']))
      .done(),
  ]);
}

function documentAllowanceCharge(charge: boolean, ac: DocumentAllowanceCharge, currency: string | undefined): RenderGroup {
  const ids = charge
    ? ['BG-21', 'BT-99', 'BT-100', 'BT-101', 'BT-102', 'BT-103', 'BT-104', 'BT-105']
    : ['BG-20', 'BT-92', 'BT-93', 'BT-94', 'BT-95', 'BT-96', 'BT-97', 'BT-98'];
  return g(ids[0], ac)
    .amount(ids[1], ac, 'amount', currency)
    .amount(ids[2], ac, 'baseAmount', currency)
    .term(ids[3], 'percent', ac, 'percentage')
    .code(ids[4], 'vatCategory', ac, 'vatCategoryCode')
    .term(ids[5], 'percent', ac, 'vatRate')
    .term(ids[6], 'text', ac, 'reason')
    .code(ids[7], charge ? 'chargeReason' : 'allowanceReason', ac, 'reasonCode')
    .done();
}

/** XRechnung's ids of the groups inside a sub-line (BG-DEX-01), in place of the line's BG-26...BG-32. */
const SUB_LINE_GROUPS: Record<string, string> = {
  'BG-25': 'BG-DEX-01',
  'BG-26': 'BG-DEX-05',
  'BG-27': 'BG-DEX-03',
  'BG-28': 'BG-DEX-04',
  'BG-29': 'BG-DEX-07',
  'BG-30': 'BG-DEX-06',
  'BG-31': 'BG-DEX-02',
  'BG-32': 'BG-DEX-08',
};

function lineAllowanceCharge(bg: string, charge: boolean, ac: LineAllowanceCharge, currency: string | undefined): RenderGroup {
  const ids = charge ? ['BT-141', 'BT-142', 'BT-143', 'BT-144', 'BT-145'] : ['BT-136', 'BT-137', 'BT-138', 'BT-139', 'BT-140'];
  return g(bg, ac)
    .amount(ids[0], ac, 'amount', currency)
    .amount(ids[1], ac, 'baseAmount', currency)
    .term(ids[2], 'percent', ac, 'percentage')
    .term(ids[3], 'text', ac, 'reason')
    .code(ids[4], charge ? 'chargeReason' : 'allowanceReason', ac, 'reasonCode')
    .done();
}

/** One line as a BG-25 group (a sub-line as BG-DEX-01), with its sub-lines nested in it. */
class LineWriter {
  shown = 0;
  total = 0;
  constructor(
    private readonly max: number,
    private readonly currency: string | undefined,
  ) {}

  line(l: InvoiceLine, sub: boolean, children: InvoiceLine[] | undefined, depth: number): RenderGroup | undefined {
    this.total++;
    const nested = children ?? l.subLines;
    if (this.shown >= this.max) {
      if (nested) this.count(nested, children !== undefined);
      return undefined;
    }
    this.shown++;
    const id = (bg: string) => (sub ? SUB_LINE_GROUPS[bg] : bg);
    const cur = this.currency;
    const b = g(id('BG-25'), l)
      .term('BT-126', 'id', l, 'id')
      .term('BT-127', 'note', l, 'note')
      .identifier('BT-128', l.objectIdentifier, fieldLocationOf(l, 'objectIdentifier'), 'BT-128-1')
      .term('BT-129', 'quantity', l, 'quantity')
      .code('BT-130', 'unit', l, 'unitCode')
      .amount('BT-131', l, 'netAmount', cur)
      .term('BT-132', 'id', l, 'orderLineReference')
      .term('BT-133', 'text', l, 'buyerAccountingReference')
      .term('BT-X-304', 'id', l, 'parentLineId')
      .code('BT-X-8', 'lineStatus', l, 'subtype')
      .add(period(id('BG-26'), l.period, ['BT-134', 'BT-135']));
    for (const ac of l.allowances) b.add(lineAllowanceCharge(id('BG-27'), false, ac, cur));
    for (const ac of l.charges) b.add(lineAllowanceCharge(id('BG-28'), true, ac, cur));
    b.add(
      g(id('BG-29'))
        .amount('BT-146', l, 'netPrice', cur, 'price')
        .amount('BT-147', l, 'priceDiscount', cur, 'price')
        .amount('BT-148', l, 'grossPrice', cur, 'price')
        .term('BT-149', 'quantity', l, 'priceBaseQuantity')
        .code('BT-150', 'unit', l, 'priceBaseQuantityUnitCode')
        .term('BT-149', 'quantity', l, 'grossPriceBaseQuantity')
        .code('BT-150', 'unit', l, 'grossPriceBaseQuantityUnitCode')
        .done(),
    );
    b.add(g(id('BG-30')).code('BT-151', 'vatCategory', l, 'vatCategoryCode').term('BT-152', 'percent', l, 'vatRate').done());
    const item = g(id('BG-31'))
      .term('BT-153', 'text', l, 'itemName')
      .term('BT-154', 'note', l, 'itemDescription')
      .term('BT-155', 'id', l, 'sellerItemId')
      .term('BT-156', 'id', l, 'buyerItemId')
      .identifier('BT-157', l.standardItemId, fieldLocationOf(l, 'standardItemId'), 'BT-157-1');
    l.classifications.forEach((c, i) => {
      const src = fieldLocationOf(l, `classifications[${i}]`);
      item.identifier('BT-158', c, src, 'BT-158-1');
      if (c.listVersionId !== undefined) item.value('BT-158-2', 'text', c.listVersionId, src && `${src}/@listVersionID`);
    });
    item.code('BT-159', 'country', l, 'originCountryCode');
    l.attributes.forEach((a, i) => {
      const src = fieldLocationOf(l, `attributes[${i}]`);
      item.add(g(id('BG-32'), src).value('BT-160', 'text', a.name).value('BT-161', 'text', a.value).done());
    });
    b.add(item.done());
    if (nested && depth < MAX_SUB_LINE_DEPTH) {
      for (const s of nested) b.add(this.line(s, true, children === undefined ? undefined : this.childrenOf(s), depth + 1));
    } else if (nested) {
      // Deeper than any real invoice nests: drawn flat at this level rather than risking the stack.
      for (const s of flatten(nested, children !== undefined ? this.childrenOf.bind(this) : undefined))
        b.add(this.line(s, true, [], depth));
    }
    return b.done();
  }

  /** CII sub-lines: the lines whose ParentLineID names a line (see nestCii). */
  private tree = new Map<InvoiceLine, InvoiceLine[]>();
  childrenOf(l: InvoiceLine): InvoiceLine[] | undefined {
    return this.tree.get(l);
  }
  setTree(tree: Map<InvoiceLine, InvoiceLine[]>): void {
    this.tree = tree;
  }

  private count(lines: InvoiceLine[], cii: boolean): void {
    // Iterative: counting must not recurse as deep as a hostile nesting goes.
    const stack = [...lines];
    while (stack.length > 0) {
      const l = stack.pop()!;
      this.total++;
      const next = cii ? this.childrenOf(l) : l.subLines;
      if (next) stack.push(...next);
    }
  }
}

/** Sub-lines nest at most this deep on the page (XRechnung examples nest 3); deeper ones are drawn at this level. */
const MAX_SUB_LINE_DEPTH = 8;

function flatten(lines: InvoiceLine[], childrenOf: ((l: InvoiceLine) => InvoiceLine[] | undefined) | undefined): InvoiceLine[] {
  const out: InvoiceLine[] = [];
  const stack = [...lines].reverse();
  while (stack.length > 0) {
    const l = stack.pop()!;
    out.push(l);
    const next = childrenOf ? childrenOf(l) : l.subLines;
    if (next) for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
  }
  return out;
}

/**
 * CII (Factur-X EXTENDED) writes sub-lines flat, each naming its parent's line id (ParentLineID). A line is drawn
 * under the first earlier line with that id; one whose parent is not found before it stays a line of its own. Only
 * earlier lines can be parents, so the tree has no cycles whatever the input.
 */
function nestCii(lines: InvoiceLine[]): { top: InvoiceLine[]; tree: Map<InvoiceLine, InvoiceLine[]> } {
  const tree = new Map<InvoiceLine, InvoiceLine[]>();
  if (!lines.some((l) => l.parentLineId !== undefined)) return { top: lines, tree };
  const byId = new Map<string, InvoiceLine>();
  const top: InvoiceLine[] = [];
  for (const l of lines) {
    const parent = l.parentLineId === undefined ? undefined : byId.get(l.parentLineId.trim());
    if (parent) {
      const list = tree.get(parent);
      if (list) list.push(l);
      else tree.set(parent, [l]);
    } else top.push(l);
    const id = l.id.trim();
    if (!byId.has(id)) byId.set(id, l);
  }
  return { top, tree };
}

function linesSection(inv: Invoice, max: number): { groups: RenderGroup[]; total: number; shown: number } {
  const w = new LineWriter(max, inv.currency);
  const { top, tree } = nestCii(inv.lines);
  const cii = tree.size > 0;
  w.setTree(tree);
  const groups: RenderGroup[] = [];
  for (const l of top) {
    const group = w.line(l, false, cii ? (tree.get(l) ?? []) : undefined, 0);
    if (group) groups.push(group);
  }
  return { groups, total: w.total, shown: w.shown };
}

function vat(inv: Invoice): RenderGroup[] {
  return inv.vatBreakdown.map((v) =>
    g('BG-23', v)
      .amount('BT-116', v, 'taxableAmount', inv.currency)
      .amount('BT-117', v, 'taxAmount', inv.currency)
      .code('BT-118', 'vatCategory', v, 'categoryCode')
      .term('BT-119', 'percent', v, 'rate')
      .term('BT-120', 'text', v, 'exemptionReason')
      .code('BT-121', 'vatex', v, 'exemptionReasonCode')
      .done(),
  );
}

function totals(inv: Invoice): RenderGroup[] {
  const t = inv.totals;
  const cur = inv.currency;
  return nonEmpty([
    g('BG-22', t)
      .amount('BT-106', t, 'lineNetTotal', cur)
      .amount('BT-107', t, 'allowanceTotal', cur)
      .amount('BT-108', t, 'chargeTotal', cur)
      .amount('BT-109', t, 'taxExclusiveAmount', cur)
      .amount('BT-110', t, 'taxTotal', cur)
      .amount('BT-111', t, 'taxTotalAccountingCurrency', inv.vatAccountingCurrency)
      .amount('BT-112', t, 'taxInclusiveAmount', cur)
      .amount('BT-113', t, 'paidAmount', cur)
      .amount('BT-114', t, 'roundingAmount', cur)
      .amount('BT-115', t, 'amountDue', cur)
      .done(),
  ]);
}

function payment(inv: Invoice): RenderGroup[] {
  const out: RenderGroup[] = [];
  const p = inv.payment;
  if (p) {
    const b = g('BG-16', p)
      .code('BT-81', 'paymentMeans', p, 'meansCode')
      .term('BT-82', 'text', p, 'meansText')
      .term('BT-83', 'id', p, 'remittanceInformation');
    for (const ct of p.creditTransfers) {
      b.add(
        g('BG-17', ct)
          .term('BT-84', 'id', ct, 'accountId')
          .term('BT-85', 'text', ct, 'accountName')
          .term('BT-86', 'id', ct, 'serviceProviderId')
          .done(),
      );
    }
    if (p.card)
      b.add(g('BG-18', p.card).term('BT-87', 'id', p.card, 'primaryAccountNumber').term('BT-88', 'text', p.card, 'holderName').done());
    const dd = p.directDebit;
    if (dd) {
      b.add(
        g('BG-19', dd)
          .term('BT-89', 'id', dd, 'mandateReference')
          .term('BT-90', 'id', dd, 'creditorId')
          .term('BT-91', 'id', dd, 'debitedAccountId')
          .done(),
      );
    }
    out.push(b.done());
  }
  // BT-20 has no group of its own in EN 16931; shown with the payment instructions.
  out.push(g('TERMS', inv).term('BT-20', 'note', inv, 'paymentTerms').done());
  for (const tp of inv.thirdPartyPayments ?? []) {
    out.push(
      g('BG-DEX-09', tp)
        .term('BT-DEX-001', 'text', tp, 'type')
        .amount('BT-DEX-002', tp, 'amount', inv.currency)
        .term('BT-DEX-003', 'text', tp, 'description')
        .done(),
    );
  }
  return nonEmpty(out);
}

function notes(inv: Invoice): RenderGroup[] {
  return inv.notes.map((n) => g('BG-1', n).code('BT-21', 'noteSubject', n, 'subjectCode').term('BT-22', 'note', n, 'text').done());
}

function attachments(inv: Invoice): RenderGroup[] {
  return inv.supportingDocuments.map((d) => {
    const b = g('BG-24', d)
      .term('BT-122', 'id', d, 'reference')
      .term('BT-123', 'text', d, 'description')
      .term('BT-124', 'uri', d, 'externalLocation');
    const a = d.attachment;
    if (a) {
      const src = fieldLocationOf(d, 'attachment');
      const extra: Partial<RenderTerm> = {};
      if (a.mimeCode !== undefined) extra.mime = a.mimeCode;
      if (a.filename !== undefined) extra.filename = a.filename;
      b.value('BT-125', 'binary', a.contentBase64, src, extra);
      if (a.mimeCode !== undefined) b.value('BT-125-1', 'code', a.mimeCode, src && `${src}/@mimeCode`, { list: 'mime' });
      if (a.filename !== undefined) b.value('BT-125-2', 'text', a.filename, src && `${src}/@filename`);
    }
    return b.done();
  });
}

function nonEmpty(groups: RenderGroup[]): RenderGroup[] {
  return groups.filter((x) => x.items.length > 0);
}

/** The render model of an invoice (the model step; views: ./html.ts). */
export function toRenderModel(inv: Invoice, options: RenderModelOptions = {}): RenderModel {
  const sourcePaths = options.sourcePaths ?? (inv.lines.length <= SOURCE_PATHS_MAX_LINES ? 'all' : 'groups');
  termSources = sourcePaths === 'all';
  try {
    return buildModel(inv, options, sourcePaths);
  } finally {
    termSources = true;
  }
}

function buildModel(inv: Invoice, options: RenderModelOptions, sourcePaths: 'all' | 'groups'): RenderModel {
  const lines = linesSection(inv, options.maxLines ?? MAX_RENDERED_LINES);
  const parties = nonEmpty([
    seller(inv.seller),
    buyer(inv.buyer),
    payee(inv) ?? g('BG-10').done(),
    taxRepresentative(inv) ?? g('BG-11').done(),
  ]);
  const model: RenderModel = {
    kind: inv.kind,
    sections: [
      { id: 'heading', groups: [heading(inv)] },
      { id: 'parties', groups: parties },
      { id: 'references', groups: references(inv) },
      { id: 'delivery', groups: delivery(inv) },
      { id: 'lines', groups: lines.groups },
      {
        id: 'allowancesCharges',
        groups: [
          ...inv.allowances.map((ac) => documentAllowanceCharge(false, ac, inv.currency)),
          ...inv.charges.map((ac) => documentAllowanceCharge(true, ac, inv.currency)),
        ],
      },
      { id: 'vat', groups: vat(inv) },
      { id: 'totals', groups: totals(inv) },
      { id: 'payment', groups: payment(inv) },
      { id: 'notes', groups: notes(inv) },
      { id: 'attachments', groups: attachments(inv) },
    ],
    lineCount: { total: lines.total, shown: lines.shown },
    sourcePaths,
  };
  if (inv.number !== undefined) model.number = inv.number;
  if (inv.typeCode !== undefined) model.typeCode = inv.typeCode;
  if (inv.currency !== undefined) model.currency = inv.currency;
  return model;
}

// ------------------------------------------------------------------------------------------------
// reading a render model (shared by the views)

/** Every term of a group and its subgroups, in order (iterative). */
export function termsOf(group: RenderGroup): RenderTerm[] {
  const out: RenderTerm[] = [];
  const stack: RenderItem[] = [...group.items].reverse();
  while (stack.length > 0) {
    const it = stack.pop()!;
    if (it.type === 'term') out.push(it);
    else for (let i = it.items.length - 1; i >= 0; i--) stack.push(it.items[i]);
  }
  return out;
}

/** The first direct term of `group` with id `bt`. */
export function termOf(group: RenderGroup | undefined, bt: string): RenderTerm | undefined {
  if (!group) return undefined;
  for (const it of group.items) if (it.type === 'term' && it.bt === bt) return it;
  return undefined;
}

/** The direct subgroups of `group` with id `bg`. */
export function groupsOf(group: RenderGroup | undefined, bg: string): RenderGroup[] {
  if (!group) return [];
  const out: RenderGroup[] = [];
  for (const it of group.items) if (it.type === 'group' && it.bg === bg) out.push(it);
  return out;
}
