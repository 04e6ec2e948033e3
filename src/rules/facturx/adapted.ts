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
import { PropertyMap } from '../../util/property-map.js';
import { NO_VIOLATIONS } from '../engine.js';
import { locatedAt } from '../report-bounds.js';

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

const paymentMeans3058 = (doc: XmlDoc) =>
  contextNodes(doc, '//ram:SpecifiedTradeSettlementPaymentMeans').filter((pm) => ['30', '58'].includes(norm(value(pm, 'ram:TypeCode'))));

export const adaptedRules: Rule[] = [
  {
    id: 'CII-SR-470',
    severity: 'error',
    message:
      'A credit transfer (payment means 30 or 58) must give the payment account (BT-84) either as an IBAN or as a proprietary identifier, not both.',
    check: (ctx) =>
      paymentMeans3058(ctx.doc)
        .filter(
          (pm) =>
            has(pm, 'ram:PayeePartyCreditorFinancialAccount/ram:IBANID') ===
            has(pm, 'ram:PayeePartyCreditorFinancialAccount/ram:ProprietaryID'),
        )
        .map(locatedAt(where)),
  },
  {
    id: 'BR-CO-25',
    severity: 'error',
    message: 'When the amount due for payment (BT-115) is positive, a payment due date (BT-9) or payment terms (BT-20) must be given.',
    check: (ctx) => {
      const root = ctx.doc.root;
      const due = values(root, `${SET}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:DuePayableAmount`).map(dec);
      const positive = due.some((d) => d !== undefined && d.gt(ZERO));
      if (!positive) return NO_VIOLATIONS;
      const terms =
        has(root, `${SET}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime`) ||
        has(root, `${SET}/ram:SpecifiedTradePaymentTerms/ram:Description`);
      return terms ? NO_VIOLATIONS : [{ location: where(root) }];
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

const itemsCache = new PropertyMap<XmlDoc, Items>();
function itemsOf(doc: XmlDoc): Items {
  let items = itemsCache.get(doc);
  if (items) return items;
  const root = doc.root;
  items = {
    lines: sel(root, `${TX}/ram:IncludedSupplyChainTradeLineItem`)
      .filter(isDetailLine)
      .flatMap((l) => sel(l, 'ram:SpecifiedLineTradeSettlement'))
      .map((s) => ({
        amount: dec(value(s, 'ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount')),
        ...taxOf(s, 'ram:ApplicableTradeTax'),
      })),
    allowanceCharges: sel(root, `${SET}/ram:SpecifiedTradeAllowanceCharge`).map((ac) => ({
      amount: dec(value(ac, 'ram:ActualAmount')),
      charge: indicator(ac),
      ...taxOf(ac, 'ram:CategoryTradeTax'),
    })),
    logistics: sel(root, `${SET}/ram:SpecifiedLogisticsServiceCharge`).map((lc) => ({
      amount: dec(value(lc, 'ram:AppliedAmount')),
      ...taxOf(lc, 'ram:AppliedTradeTax'),
    })),
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
  const matches = (i: TaxItem) =>
    i.category.includes(cat) &&
    (!rated || i.rate.some((r) => r !== undefined && r.eq(rate!))) &&
    (!withReason || (i.reasonCode === code && i.reasonText === reason));
  const sumOf = (list: TaxItem[]) => round2(list.reduce((acc, i) => acc.plus(i.amount ?? ZERO), ZERO));
  const { lines, allowanceCharges, logistics } = itemsOf(doc);
  const l = lines.filter(matches);
  const acs = allowanceCharges.filter(matches);
  const lg = logistics.filter(matches);
  const diff = basis
    .minus(sumOf(l))
    .plus(sumOf(acs.filter((a) => a.charge === false)))
    .minus(sumOf(acs.filter((a) => a.charge === true)))
    .minus(sumOf(lg));
  const tolerance = new Big('0.01').times(new Big(String(l.length + acs.length + lg.length)));
  return diff.abs().lte(tolerance);
}

function breakdownsOf(doc: XmlDoc, code: string): XmlElement[] {
  return sel(doc.root, `${SET}/ram:ApplicableTradeTax`).filter(
    (t) => values(t, 'ram:CategoryCode').includes(code) && values(t, 'ram:TypeCode').some((v) => v.toUpperCase() === 'VAT'),
  );
}

function categoryRules(c: Category): Rule[] {
  const bId = c.name === 'S' ? 'BR-FXEXT-S08b' : `BR-FXEXT-${c.name}-08b`;
  const label = `VAT category ${c.code}`;
  const rule = (id: string, severity: 'error' | 'warning', test: (doc: XmlDoc, bd: XmlElement) => boolean, what: string): Rule => ({
    id,
    severity,
    message: `In a VAT breakdown of ${label}, the taxable amount (BT-116) must equal the detail line net amounts minus allowances plus charges and logistics fees of that category and rate${what} (tolerance 0.01 per item).`,
    check: (ctx) =>
      breakdownsOf(ctx.doc, c.code)
        .filter((bd) => !test(ctx.doc, bd))
        .map(locatedAt(where)),
  });
  return [
    rule(
      bId,
      'error',
      (doc, bd) => breakdownAgrees(doc, bd, c.code, true) || breakdownAgrees(doc, bd, c.code, false),
      ', with or without matching exemption reasons',
    ),
    rule(`BR-FXEXT-${c.name}-08ini`, 'warning', (doc, bd) => breakdownAgrees(doc, bd, c.code, false), ''),
    rule(`BR-FXEXT-${c.name}-08rev`, 'warning', (doc, bd) => breakdownAgrees(doc, bd, c.code, true), ' and exemption reason'),
  ];
}

/**
 * BR-FXEXT-S-09b: in a standard-rated breakdown (any tax type), the tax amount (BT-117) equals the
 * taxable amount times the rate, rounded to two decimals, within 0.01 per contributing item (DETAIL
 * lines, allowances/charges and logistics fees of that rate; with or without matching exemption
 * reasons: the looser count decides). Without a rate, taxable amount or tax amount the official
 * expression yields no value and the assert fails.
 */
function standardTaxAgrees(doc: XmlDoc, bd: XmlElement): boolean {
  const rate = dec(value(bd, 'ram:RateApplicablePercent'));
  const basis = dec(value(bd, 'ram:BasisAmount'));
  const vat = dec(value(bd, 'ram:CalculatedAmount'));
  if (rate === undefined || basis === undefined || vat === undefined) return false;
  const matches = (i: TaxItem) => i.category.includes('S') && i.rate.some((r) => r !== undefined && r.eq(rate));
  const { lines, allowanceCharges, logistics } = itemsOf(doc);
  const items = lines.filter(matches).length + allowanceCharges.filter(matches).length + logistics.filter(matches).length;
  const expected = round2(basis.times(rate).div(new Big('100')));
  return vat
    .minus(expected)
    .abs()
    .lte(new Big('0.01').times(new Big(String(items))));
}

export const extendedRules: Rule[] = [
  ...CATEGORIES.flatMap(categoryRules),
  {
    id: 'BR-FXEXT-S-09b',
    severity: 'error',
    message:
      'In a VAT breakdown of VAT category S, the tax amount (BT-117) must equal the taxable amount (BT-116) times the rate (BT-119), rounded to two decimals (tolerance 0.01 per item of that rate).',
    check: (ctx) =>
      contextNodes(ctx.doc, "//ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax[ram:CategoryCode='S']")
        .filter((bd) => !standardTaxAgrees(ctx.doc, bd))
        .map(locatedAt(where)),
  },
];

// ---------------------------------------------------------------------------------------------
// EXTENDED: sub-lines (GROUP / DETAIL / INFORMATION line subtypes), item attributes, charges.

const LINE = '//ram:IncludedSupplyChainTradeLineItem';
const lineStatus = (line: XmlElement) => values(line, 'ram:AssociatedDocumentLineDocument/ram:LineStatusReasonCode');
const lineTotal = (line: XmlElement) =>
  value(line, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount');
const detailDocs = (doc: XmlDoc) =>
  contextNodes(doc, `${LINE}/ram:AssociatedDocumentLineDocument`).filter((d) => {
    const s = values(d, 'ram:LineStatusReasonCode');
    return s.length === 0 || s.includes('DETAIL');
  });

function onNodes(
  id: string,
  severity: 'error' | 'warning',
  message: string,
  nodes: (doc: XmlDoc) => XmlElement[],
  test: (n: XmlElement, doc: XmlDoc) => boolean,
): Rule {
  return {
    id,
    severity,
    message,
    check: (ctx) =>
      nodes(ctx.doc)
        .filter((n) => !test(n, ctx.doc))
        .map(locatedAt(where)),
  };
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
    (doc) =>
      contextNodes(
        doc,
        "//ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeAllowanceCharge/ram:ChargeIndicator[udt:Indicator='true']",
      ),
    (ind) => has(ind, '../ram:Reason') || has(ind, '../ram:ReasonCode'),
  ),
  onNodes(
    'BR-FXEXT-BR-54-1',
    'error',
    'Each item attribute (BG-32) must have a name (BT-160) or a code (BT-X-11).',
    (doc) => contextNodes(doc, '//ram:ApplicableProductCharacteristic'),
    (c) => has(c, 'ram:Description') || has(c, 'ram:TypeCode'),
  ),
  onNodes(
    'BR-FXEXT-BR-54-2',
    'error',
    'Each item attribute (BG-32) must have either a value (BT-161) or a value with unit (BT-X-12), not both.',
    (doc) => contextNodes(doc, '//ram:ApplicableProductCharacteristic'),
    (c) =>
      (has(c, 'ram:Value') && !has(c, 'ram:ValueMeasure')) ||
      (!has(c, 'ram:Value') && values(c, 'ram:ValueMeasure/@unitCode').some((u) => u !== '')),
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
    check: (ctx) => (groupTotalsAgree(ctx.doc) ? NO_VIOLATIONS : contextNodes(ctx.doc, LINE).map(locatedAt(where))),
  },
  onNodes(
    'BR-FXEXT-11',
    'error',
    'Each parent line reference (BT-X-304) must name an existing line (BT-126).',
    (doc) => contextNodes(doc, LINE).filter((l) => norm(value(l, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID')) !== ''),
    (l, doc) => {
      const parent = norm(value(l, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID'));
      return contextNodes(doc, LINE).some((x) =>
        values(x, 'ram:AssociatedDocumentLineDocument/ram:LineID').some((id) => norm(id) === parent),
      );
    },
  ),
  onNodes('BR-FXEXT-BR-22', 'error', 'A DETAIL line (or one without subtype) must have an invoiced quantity (BT-129).', detailDocs, (d) =>
    has(d, '../ram:SpecifiedLineTradeDelivery/ram:BilledQuantity'),
  ),
  onNodes(
    'BR-FXEXT-BR-23',
    'error',
    'A DETAIL line (or one without subtype) must have the unit of the invoiced quantity (BT-130).',
    detailDocs,
    (d) => has(d, '../ram:SpecifiedLineTradeDelivery/ram:BilledQuantity/@unitCode'),
  ),
  onNodes('BR-FXEXT-BR-24', 'error', 'A DETAIL line (or one without subtype) must have a net amount (BT-131).', detailDocs, (d) =>
    has(d, '../ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount'),
  ),
  onNodes('BR-FXEXT-BR-26', 'error', 'A DETAIL line (or one without subtype) must have an item net price (BT-146).', detailDocs, (d) =>
    has(d, '../ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount'),
  ),
  onNodes('BR-FXEXT-CO-04', 'error', 'A DETAIL line (or one without subtype) must have a VAT category code (BT-151).', detailDocs, (d) => {
    const taxes = sel(d, '../ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax');
    return (
      taxes.some((t) => values(t, 'ram:TypeCode').includes('VAT')) &&
      taxes.some((t) => values(t, 'ram:TypeCode').some((v) => v.toUpperCase() === 'VAT') && has(t, 'ram:CategoryCode'))
    );
  }),
  onNodes(
    'BR-FXEXT-12',
    'error',
    'When a GROUP line has a net amount (BT-131), all its GROUP sub-lines must have one too.',
    (doc) =>
      contextNodes(doc, LINE).filter(
        (l) =>
          lineStatus(l).includes('GROUP') &&
          has(l, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount'),
      ),
    (l, doc) => {
      const ids = values(l, 'ram:AssociatedDocumentLineDocument/ram:LineID');
      if (ids.length === 0) return false;
      const groups = contextNodes(doc, LINE).filter(
        (c) =>
          values(c, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID').some((p) => ids.includes(p)) && lineStatus(c).includes('GROUP'),
      );
      return groups.every((g) =>
        has(g, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount'),
      );
    },
  ),
];

// ---------------------------------------------------------------------------------------------
// EXTENDED: document totals (BR-FXEXT-CO-10…16). EXTENDED totals count DETAIL lines only, add
// logistics service charges to the charges and allow 0.01 per contributing item.

const SUMMATION = '//ram:SpecifiedTradeSettlementHeaderMonetarySummation';

interface TotalsItems {
  detailLines: BigValue[];
  allLines: number;
  allowances: BigValue[];
  charges: BigValue[];
  logistics: BigValue[];
}

/** The amounts the totals rules add up, as the official expressions select them (../.. of the summation). */
function totalsItems(summation: XmlElement): TotalsItems | undefined {
  const tx = summation.parent?.parent;
  const settlement = summation.parent;
  if (!tx || !settlement) return undefined;
  const lines = sel(tx, 'ram:IncludedSupplyChainTradeLineItem');
  const amounts = (els: XmlElement[], path: string) => els.flatMap((e) => values(e, path)).map((v) => dec(v) ?? ZERO);
  const acs = sel(settlement, 'ram:SpecifiedTradeAllowanceCharge');
  const indicatorText = (ac: XmlElement) => values(ac, 'ram:ChargeIndicator/udt:Indicator');
  return {
    detailLines: amounts(
      lines.filter(isDetailLine),
      'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount',
    ),
    allLines: lines.length,
    allowances: amounts(
      acs.filter((a) => indicatorText(a).includes('false')),
      'ram:ActualAmount',
    ),
    charges: amounts(
      acs.filter((a) => indicatorText(a).includes('true')),
      'ram:ActualAmount',
    ),
    logistics: amounts(sel(settlement, 'ram:SpecifiedLogisticsServiceCharge'), 'ram:AppliedAmount'),
  };
}

const sumRounded = (xs: BigValue[]) => round2(xs.reduce((a, b) => a.plus(b), ZERO));
const tolerance = (n: number) => new Big('0.01').times(new Big(String(n)));
const within = (a: BigValue, b: BigValue, n: number) => a.minus(b).abs().lte(tolerance(n));
const allowanceCount = (summation: XmlElement) =>
  sel(summation, '../ram:SpecifiedTradeAllowanceCharge').filter((a) => values(a, 'ram:ChargeIndicator/udt:Indicator').includes('false'))
    .length;
const chargeCount = (summation: XmlElement) =>
  sel(summation, '../ram:SpecifiedTradeAllowanceCharge').filter((a) => values(a, 'ram:ChargeIndicator/udt:Indicator').includes('true'))
    .length + sel(summation, '../ram:SpecifiedLogisticsServiceCharge').length;

function totalsRule(id: string, message: string, test: (s: XmlElement, items: TotalsItems) => boolean): Rule {
  return onNodes(
    id,
    'error',
    message,
    (doc) => contextNodes(doc, SUMMATION),
    (s) => {
      const items = totalsItems(s);
      return items !== undefined && test(s, items);
    },
  );
}

export const extendedTotalsRules: Rule[] = [
  totalsRule(
    'BR-FXEXT-CO-10',
    'The sum of line net amounts (BT-106) must equal the sum of the DETAIL line net amounts (BT-131), within 0.01 per line.',
    (s, i) => {
      const total = dec(value(s, 'ram:LineTotalAmount'));
      return total !== undefined && within(total, sumRounded(i.detailLines), i.allLines);
    },
  ),
  totalsRule(
    'BR-FXEXT-CO-11',
    'The sum of document allowances (BT-107) must equal the document allowance amounts (BT-92), within 0.01 per allowance.',
    (s, i) => {
      if (i.allowances.length === 0 && !has(s, 'ram:AllowanceTotalAmount')) return true;
      const total = dec(value(s, 'ram:AllowanceTotalAmount'));
      return total !== undefined && within(total, sumRounded(i.allowances), allowanceCount(s));
    },
  ),
  totalsRule(
    'BR-FXEXT-CO-12',
    'The sum of document charges (BT-108) must equal the document charge amounts (BT-99) plus the logistics service fees (BT-X-272), within 0.01 per item.',
    (s, i) => {
      if (i.charges.length === 0 && !has(s, 'ram:ChargeTotalAmount')) return true;
      const total = dec(value(s, 'ram:ChargeTotalAmount'));
      return total !== undefined && within(total, sumRounded(i.charges).plus(sumRounded(i.logistics)), chargeCount(s));
    },
  ),
  totalsRule(
    'BR-FXEXT-CO-13',
    'The total without VAT (BT-109) must equal the DETAIL line net amounts minus allowances plus charges and logistics fees, within 0.01 per item.',
    (s, i) => {
      const bt109 = dec(value(s, 'ram:TaxBasisTotalAmount'));
      if (bt109 === undefined) return false;
      const expected = sumRounded(i.detailLines)
        .minus(sumRounded(i.allowances))
        .plus(sumRounded(i.charges).plus(sumRounded(i.logistics)));
      return within(bt109, expected, i.detailLines.length + allowanceCount(s) + chargeCount(s));
    },
  ),
  totalsRule(
    'BR-FXEXT-CO-15',
    'The total with VAT (BT-112) must equal the total without VAT (BT-109) plus the VAT total in the invoice currency (BT-110), within 0.01 per item.',
    (s, i) => {
      const currency = values(s, '../ram:InvoiceCurrencyCode');
      if (currency.length === 0) return false;
      const vat = sel(s, 'ram:TaxTotalAmount').filter((t) => currency.includes(attr(t) ?? '\u0000'));
      const bt109 = dec(value(s, 'ram:TaxBasisTotalAmount'));
      const bt112 = dec(value(s, 'ram:GrandTotalAmount'));
      if (vat.length !== 1 || bt109 === undefined || bt112 === undefined) return false;
      const bt110 = dec(text(vat[0]));
      return bt110 !== undefined && within(bt112.minus(bt110), bt109, i.detailLines.length + allowanceCount(s) + chargeCount(s));
    },
  ),
  totalsRule(
    'BR-FXEXT-CO-16',
    'The amount due (BT-115) must equal the total with VAT (BT-112) minus the paid amount (BT-113) plus rounding (BT-114) plus amounts collected for third parties (BT-179).',
    (s) => {
      const due = dec(value(s, 'ram:DuePayableAmount'));
      if (due === undefined) return false;
      const sumOf = (path: string) => values(s, path).reduce((a, v) => a.plus(dec(v) ?? ZERO), ZERO);
      return due.eq(
        sumOf('ram:GrandTotalAmount')
          .minus(sumOf('ram:TotalPrepaidAmount'))
          .plus(sumOf('ram:RoundingAmount'))
          .plus(sumOf('../ram:SpecifiedFinancialAdjustment/ram:ActualAmount')),
      );
    },
  ),
  onNodes(
    'BR-FXEXT-BR-44',
    'error',
    'Each line charge (BG-28) must have a reason (BT-144) or a reason code (BT-145).',
    (doc) =>
      contextNodes(doc, "//ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge/ram:ChargeIndicator[udt:Indicator = 'true']"),
    (ind) => has(ind, '../ram:Reason') || has(ind, '../ram:ReasonCode'),
  ),
  onNodes(
    'BR-FXEXT-03',
    'error',
    'Parties other than the seller may only carry a VAT registration identifier (scheme VA).',
    (doc) => contextNodes(doc, '//ram:SpecifiedTaxRegistration/ram:ID').filter((id) => !hasSellerAncestor(id)),
    (id) => id.attrs.some((a) => a.local === 'schemeID' && a.ns === '' && a.value === 'VA'),
  ),
];

function attr(el: XmlElement): string | undefined {
  return el.attrs.find((a) => a.local === 'currencyID' && a.ns === '')?.value;
}

function hasSellerAncestor(el: XmlElement): boolean {
  for (let p = el.parent; p; p = p.parent) if (p.local === 'SellerTradeParty') return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// EXTENDED: a VAT category is used by items if and only if it has a VAT breakdown
// (BR-FXEXT-<cat>-01), dates in format 205, and document notes.

function categoryUsage(doc: XmlDoc, code: string): { breakdowns: number; used: boolean } {
  const withCode = (els: XmlElement[]) => els.filter((t) => values(t, 'ram:CategoryCode').includes(code)).length;
  const breakdowns = withCode(contextNodes(doc, '//ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax'));
  // The official expression filters line settlements on a subtype they cannot have (the subtype
  // sits on the line document), so every line counts.
  const lines = withCode(contextNodes(doc, '//ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax'));
  const acs = withCode(contextNodes(doc, '//ram:CategoryTradeTax'));
  const logistics = withCode(contextNodes(doc, '//ram:AppliedTradeTax'));
  return { breakdowns, used: lines + acs + logistics > 0 };
}

export const extendedCategoryRules: Rule[] = [
  ...CATEGORIES.map((c) =>
    onNodes(
      `BR-FXEXT-${c.name}-01`,
      'error',
      `VAT category ${c.code} is used on a line, an allowance or charge or a logistics fee if and only if there is a VAT breakdown (BG-23) for it.`,
      (doc) => contextNodes(doc, '/rsm:CrossIndustryInvoice'),
      (_root, doc) => {
        const u = categoryUsage(doc, c.code);
        return (u.breakdowns === 0 && !u.used) || (u.breakdowns >= 1 && u.used);
      },
    ),
  ),
  onNodes(
    'BR-FXEXT-CII-DT-097a',
    'error',
    'A date-time in format 205 must be written YYYYMMDDHHMM.',
    (doc) => contextNodes(doc, "//udt:DateTimeString[@format = '205']"),
    (d) => /^\s*(\d{4})(1[0-2]|0[1-9])(3[01]|[12][0-9]|0[1-9])([01][0-9]|2[0-3])[0-5][0-9]\s*$/.test(text(d)),
  ),
  onNodes(
    'BR-FXEXT-01',
    'error',
    'A document note with a subject code (BT-21) must have a text (BT-22) or a coded text (BT-X-5).',
    (doc) => contextNodes(doc, '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IncludedNote').filter((n) => has(n, 'ram:SubjectCode')),
    (n) => has(n, 'ram:ContentCode') || has(n, 'ram:Content'),
  ),
];
