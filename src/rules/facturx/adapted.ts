/**
 * Rules whose Factur-X profile version differs from the EN 16931 rule of the same id, and the
 * EXTENDED-only business rules (BR-FXEXT-*), written against the parsed CII document.
 */
import { Big, parseDec, type BigValue } from '../../model/decimal.js';
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import { CODELISTS } from '../data/codelists.js';
import type { Rule } from '../types.js';
import { has, norm, sel, text, value, values, where } from '../xrechnung/dom.js';
import { contextNodes } from './codelists.js';

const TX = 'rsm:SupplyChainTradeTransaction';
const SET = `${TX}/ram:ApplicableHeaderTradeSettlement`;
const dec = (s: string | undefined): BigValue | undefined => (s === undefined ? undefined : parseDec(s.trim()));
const ZERO = new Big('0');

/** XPath round(x * 100) div 100 (halves towards +infinity). */
function round2(v: BigValue): BigValue {
  const scaled = v.times(new Big('100')).plus(new Big('0.5'));
  let t = scaled.round(0, Big.roundDown);
  if (t.gt(scaled)) t = t.minus(new Big('1'));
  return t.div(new Big('100'));
}

/** An xs:boolean read of an indicator ('true'/'1', 'false'/'0'); undefined otherwise. */
function indicator(el: XmlElement): boolean | undefined {
  const t = norm(value(el, 'ram:ChargeIndicator/udt:Indicator'));
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Profile versions of EN 16931 rules

const paymentMeans3058 = (doc: XmlDoc) => contextNodes(doc, '//ram:SpecifiedTradeSettlementPaymentMeans').filter((pm) => ['30', '58'].includes(norm(value(pm, 'ram:TypeCode'))));

export const adaptedRules: Rule[] = [
  {
    id: 'CII-SR-470',
    severity: 'error',
    message: 'A credit transfer (payment means 30 or 58) must give the payment account (BT-84) either as an IBAN or as a proprietary identifier, not both.',
    check: (ctx) =>
      paymentMeans3058(ctx.doc)
        .filter((pm) => has(pm, 'ram:PayeePartyCreditorFinancialAccount/ram:IBANID') === has(pm, 'ram:PayeePartyCreditorFinancialAccount/ram:ProprietaryID'))
        .map((pm) => ({ location: where(pm) })),
  },
  {
    id: 'BR-CO-25',
    severity: 'error',
    message: 'When the amount due for payment (BT-115) is positive, a payment due date (BT-9) or payment terms (BT-20) must be given.',
    check: (ctx) => {
      const root = ctx.doc.root;
      const due = values(root, `${SET}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:DuePayableAmount`).map(dec);
      const positive = due.some((d) => d !== undefined && d.gt(ZERO));
      if (!positive) return [];
      const terms = has(root, `${SET}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime`) || has(root, `${SET}/ram:SpecifiedTradePaymentTerms/ram:Description`);
      return terms ? [] : [{ location: where(root) }];
    },
  },
];

// ---------------------------------------------------------------------------------------------
// EXTENDED: VAT breakdown taxable amount per category (BR-FXEXT-<cat>-08b / -08ini / -08rev).
// EXTENDED adds logistics service charges and sub-lines; only DETAIL lines count, and the
// taxable amount may deviate by 0.01 per contributing item. The "rev" variant also matches the
// exemption reason (text and code) of each item with the breakdown's; "b" accepts either variant.

interface Category {
  /** Rule id infix (AE, AF, AG, E, G, IC, O, S, Z). */
  name: string;
  code: string;
}
const CATEGORIES: Category[] = [
  { name: 'S', code: 'S' },
  { name: 'Z', code: 'Z' },
  { name: 'E', code: 'E' },
  { name: 'AE', code: 'AE' },
  { name: 'IC', code: 'K' },
  { name: 'G', code: 'G' },
  { name: 'O', code: 'O' },
  { name: 'AF', code: 'L' },
  { name: 'AG', code: 'M' },
];

interface TaxItem {
  amount: BigValue | undefined;
  category: string[];
  rate: (BigValue | undefined)[];
  reasonCode: string;
  reasonText: string;
  /** For allowances/charges: the charge indicator. */
  charge?: boolean;
}

function taxOf(holder: XmlElement, tax: string): Omit<TaxItem, 'amount' | 'charge'> {
  const taxes = sel(holder, tax);
  return {
    category: taxes.flatMap((t) => values(t, 'ram:CategoryCode')),
    rate: taxes.flatMap((t) => values(t, 'ram:RateApplicablePercent')).map(dec),
    reasonCode: norm(taxes.flatMap((t) => values(t, 'ram:ExemptionReasonCode'))[0]),
    reasonText: norm(taxes.flatMap((t) => values(t, 'ram:ExemptionReason'))[0]),
  };
}

function isDetailLine(line: XmlElement): boolean {
  const status = values(line, 'ram:AssociatedDocumentLineDocument/ram:LineStatusReasonCode');
  return status.length === 0 || status.includes('DETAIL');
}

interface Items {
  lines: TaxItem[];
  allowanceCharges: TaxItem[];
  logistics: TaxItem[];
}

const itemsCache = new WeakMap<XmlDoc, Items>();
function itemsOf(doc: XmlDoc): Items {
  let items = itemsCache.get(doc);
  if (items) return items;
  const root = doc.root;
  items = {
    lines: sel(root, `${TX}/ram:IncludedSupplyChainTradeLineItem`)
      .filter(isDetailLine)
      .flatMap((l) => sel(l, 'ram:SpecifiedLineTradeSettlement'))
      .map((s) => ({ amount: dec(value(s, 'ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount')), ...taxOf(s, 'ram:ApplicableTradeTax') })),
    allowanceCharges: sel(root, `${SET}/ram:SpecifiedTradeAllowanceCharge`).map((ac) => ({ amount: dec(value(ac, 'ram:ActualAmount')), charge: indicator(ac), ...taxOf(ac, 'ram:CategoryTradeTax') })),
    logistics: sel(root, `${SET}/ram:SpecifiedLogisticsServiceCharge`).map((lc) => ({ amount: dec(value(lc, 'ram:AppliedAmount')), ...taxOf(lc, 'ram:AppliedTradeTax') })),
  };
  itemsCache.set(doc, items);
  return items;
}

/** Does the breakdown's taxable amount agree with the items of its category and rate (optionally: and exemption reason)? */
function breakdownAgrees(doc: XmlDoc, bd: XmlElement, cat: string, withReason: boolean): boolean {
  // "Not subject to VAT" (O) has no rate: its items are matched on the category alone.
  const rated = cat !== 'O';
  const rate = dec(value(bd, 'ram:RateApplicablePercent'));
  const basis = dec(value(bd, 'ram:BasisAmount'));
  // Without a rate or a taxable amount the official expression yields no value: the assert fails.
  if ((rated && rate === undefined) || basis === undefined) return false;
  const code = norm(value(bd, 'ram:ExemptionReasonCode'));
  const reason = norm(value(bd, 'ram:ExemptionReason'));
  const matches = (i: TaxItem) => i.category.includes(cat) && (!rated || i.rate.some((r) => r !== undefined && r.eq(rate!))) && (!withReason || (i.reasonCode === code && i.reasonText === reason));
  const sumOf = (list: TaxItem[]) => round2(list.reduce((acc, i) => acc.plus(i.amount ?? ZERO), ZERO));
  const { lines, allowanceCharges, logistics } = itemsOf(doc);
  const l = lines.filter(matches);
  const acs = allowanceCharges.filter(matches);
  const lg = logistics.filter(matches);
  const diff = basis.minus(sumOf(l)).plus(sumOf(acs.filter((a) => a.charge === false))).minus(sumOf(acs.filter((a) => a.charge === true))).minus(sumOf(lg));
  const tolerance = new Big('0.01').times(new Big(String(l.length + acs.length + lg.length)));
  return diff.abs().lte(tolerance);
}

function breakdownsOf(doc: XmlDoc, code: string): XmlElement[] {
  return sel(doc.root, `${SET}/ram:ApplicableTradeTax`).filter((t) => values(t, 'ram:CategoryCode').includes(code) && values(t, 'ram:TypeCode').some((v) => v.toUpperCase() === 'VAT'));
}

function categoryRules(c: Category): Rule[] {
  const bId = c.name === 'S' ? 'BR-FXEXT-S08b' : `BR-FXEXT-${c.name}-08b`;
  const label = `VAT category ${c.code}`;
  const rule = (id: string, severity: 'error' | 'warning', test: (doc: XmlDoc, bd: XmlElement) => boolean, what: string): Rule => ({
    id,
    severity,
    message: `In a VAT breakdown of ${label}, the taxable amount (BT-116) must equal the detail line net amounts minus allowances plus charges and logistics fees of that category and rate${what} (tolerance 0.01 per item).`,
    check: (ctx) => breakdownsOf(ctx.doc, c.code).filter((bd) => !test(ctx.doc, bd)).map((bd) => ({ location: where(bd) })),
  });
  return [
    rule(bId, 'error', (doc, bd) => breakdownAgrees(doc, bd, c.code, true) || breakdownAgrees(doc, bd, c.code, false), ', with or without matching exemption reasons'),
    rule(`BR-FXEXT-${c.name}-08ini`, 'warning', (doc, bd) => breakdownAgrees(doc, bd, c.code, false), ''),
    rule(`BR-FXEXT-${c.name}-08rev`, 'warning', (doc, bd) => breakdownAgrees(doc, bd, c.code, true), ' and exemption reason'),
  ];
}

export const extendedRules: Rule[] = CATEGORIES.flatMap(categoryRules);



// ---------------------------------------------------------------------------------------------
// EXTENDED: sub-lines (GROUP / DETAIL / INFORMATION line subtypes), item attributes, charges.

const LINE = '//ram:IncludedSupplyChainTradeLineItem';
const lineStatus = (line: XmlElement) => values(line, 'ram:AssociatedDocumentLineDocument/ram:LineStatusReasonCode');
const lineTotal = (line: XmlElement) => value(line, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount');
const detailDocs = (doc: XmlDoc) =>
  contextNodes(doc, `${LINE}/ram:AssociatedDocumentLineDocument`).filter((d) => {
    const s = values(d, 'ram:LineStatusReasonCode');
    return s.length === 0 || s.includes('DETAIL');
  });

function onNodes(id: string, severity: 'error' | 'warning', message: string, nodes: (doc: XmlDoc) => XmlElement[], test: (n: XmlElement, doc: XmlDoc) => boolean): Rule {
  return { id, severity, message, check: (ctx) => nodes(ctx.doc).filter((n) => !test(n, ctx.doc)).map((n) => ({ location: where(n) })) };
}

/** BR-FXEXT-08: every GROUP line with a net amount equals the rounded sum of its DETAIL/GROUP children. */
function groupTotalsAgree(doc: XmlDoc): boolean {
  const lines = contextNodes(doc, LINE);
  for (const item of lines) {
    if (!lineStatus(item).includes('GROUP') || norm(lineTotal(item)) === '') continue;
    const own = dec(norm(lineTotal(item)));
    const id = norm(value(item, 'ram:AssociatedDocumentLineDocument/ram:LineID'));
    let total: BigValue | undefined = ZERO;
    for (const child of lines) {
      if (norm(value(child, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID')) !== id) continue;
      const st = lineStatus(child);
      if (!st.includes('DETAIL') && !st.includes('GROUP')) continue;
      const amount = dec(norm(lineTotal(child)));
      total = amount === undefined || total === undefined ? undefined : total.plus(amount);
    }
    if (own === undefined || total === undefined || !own.eq(round2(total))) return false;
  }
  return true;
}

const ITEM_ATTRIBUTE_CODES = () => new Set(CODELISTS['fx-extended']?.['BR-FXEXT-04']?.codes ?? []);

export const extendedLineRules: Rule[] = [
  onNodes(
    'BR-FXEXT-BR-38',
    'error',
    'Each document level charge (BG-21) must have a reason (BT-104) or a reason code (BT-105).',
    (doc) => contextNodes(doc, "//ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeAllowanceCharge/ram:ChargeIndicator[udt:Indicator='true']"),
    (ind) => has(ind, '../ram:Reason') || has(ind, '../ram:ReasonCode'),
  ),
  onNodes('BR-FXEXT-BR-54-1', 'error', 'Each item attribute (BG-32) must have a name (BT-160) or a code (BT-X-11).', (doc) => contextNodes(doc, '//ram:ApplicableProductCharacteristic'), (c) => has(c, 'ram:Description') || has(c, 'ram:TypeCode')),
  onNodes(
    'BR-FXEXT-BR-54-2',
    'error',
    'Each item attribute (BG-32) must have either a value (BT-161) or a value with unit (BT-X-12), not both.',
    (doc) => contextNodes(doc, '//ram:ApplicableProductCharacteristic'),
    (c) => (has(c, 'ram:Value') && !has(c, 'ram:ValueMeasure')) || (!has(c, 'ram:Value') && values(c, 'ram:ValueMeasure/@unitCode').some((u) => u !== '')),
  ),
  onNodes(
    'BR-FXEXT-04',
    'warning',
    'An item attribute code (BT-X-11) should come from UNTDED 6313 or the Factur-X extension list.',
    (doc) => contextNodes(doc, '//ram:ApplicableProductCharacteristic/ram:TypeCode'),
    (t) => {
      const v = norm(text(t));
      return !v.includes(' ') && ITEM_ATTRIBUTE_CODES().has(v);
    },
  ),
  onNodes(
    'BR-FXEXT-02',
    'error',
    'A line note with a subject code (BT-X-10) must have a text (BT-127) or a coded text (BT-X-9).',
    (doc) => contextNodes(doc, '//ram:AssociatedDocumentLineDocument/ram:IncludedNote').filter((n) => has(n, 'ram:SubjectCode')),
    (n) => has(n, 'ram:ContentCode') || has(n, 'ram:Content'),
  ),
  onNodes(
    'BR-FXEXT-06',
    'error',
    'A line with a parent line (BT-X-304) must state its line subtype (BT-X-8).',
    (doc) => contextNodes(doc, LINE),
    (l) => norm(value(l, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID')) === '' || lineStatus(l).some((s) => s !== ''),
  ),
  {
    id: 'BR-FXEXT-08',
    severity: 'error',
    message: 'The net amount (BT-131) of a GROUP line must equal the sum of the net amounts of its DETAIL and GROUP sub-lines.',
    check: (ctx) => (groupTotalsAgree(ctx.doc) ? [] : contextNodes(ctx.doc, LINE).map((l) => ({ location: where(l) }))),
  },
  onNodes(
    'BR-FXEXT-11',
    'error',
    'Each parent line reference (BT-X-304) must name an existing line (BT-126).',
    (doc) => contextNodes(doc, LINE).filter((l) => norm(value(l, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID')) !== ''),
    (l, doc) => {
      const parent = norm(value(l, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID'));
      return contextNodes(doc, LINE).some((x) => values(x, 'ram:AssociatedDocumentLineDocument/ram:LineID').some((id) => norm(id) === parent));
    },
  ),
  onNodes('BR-FXEXT-BR-22', 'error', 'A DETAIL line (or one without subtype) must have an invoiced quantity (BT-129).', detailDocs, (d) => has(d, '../ram:SpecifiedLineTradeDelivery/ram:BilledQuantity')),
  onNodes('BR-FXEXT-BR-23', 'error', 'A DETAIL line (or one without subtype) must have the unit of the invoiced quantity (BT-130).', detailDocs, (d) => has(d, '../ram:SpecifiedLineTradeDelivery/ram:BilledQuantity/@unitCode')),
  onNodes(
    'BR-FXEXT-BR-24',
    'error',
    'A DETAIL line (or one without subtype) must have a net amount (BT-131).',
    detailDocs,
    (d) => has(d, '../ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount'),
  ),
  onNodes('BR-FXEXT-BR-26', 'error', 'A DETAIL line (or one without subtype) must have an item net price (BT-146).', detailDocs, (d) => has(d, '../ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount')),
  onNodes(
    'BR-FXEXT-CO-04',
    'error',
    'A DETAIL line (or one without subtype) must have a VAT category code (BT-151).',
    detailDocs,
    (d) => {
      const taxes = sel(d, '../ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax');
      return taxes.some((t) => values(t, 'ram:TypeCode').includes('VAT')) && taxes.some((t) => values(t, 'ram:TypeCode').some((v) => v.toUpperCase() === 'VAT') && has(t, 'ram:CategoryCode'));
    },
  ),
  onNodes(
    'BR-FXEXT-12',
    'error',
    'When a GROUP line has a net amount (BT-131), all its GROUP sub-lines must have one too.',
    (doc) => contextNodes(doc, LINE).filter((l) => lineStatus(l).includes('GROUP') && has(l, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount')),
    (l, doc) => {
      const ids = values(l, 'ram:AssociatedDocumentLineDocument/ram:LineID');
      if (ids.length === 0) return false;
      const groups = contextNodes(doc, LINE).filter((c) => values(c, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID').some((p) => ids.includes(p)) && lineStatus(c).includes('GROUP'));
      return groups.every((g) => has(g, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount'));
    },
  ),
];
