/**
 * EXTENDED-CTC-FR for CII (FNFE-MPE `EXTENDED-CTC-FR-CII`, France_RFE 1.4.0.x): the EN 16931 CII artefact 1.3.16 with
 * the French extended profile's changes. The rules the two share are our EN 16931 rules, unchanged (syntax table rows and
 * business rules); what differs is written here:
 * - rules dropped by the profile (sub-lines, several VAT breakdowns per category, negative prices, more elements);
 * - replacements under the profile's ids (BR-FREXT-*, BR-FXEXT-*-08, CII-FREXT-*), which count only DETAIL lines, add
 *   the logistics service fees, and match VAT exemption reasons;
 * - a rule context the profile added shadows EN rules: the artefact applies one rule per node and pattern, and the new
 *   per-category VAT breakdown rules come before the rule on every header ApplicableTradeTax, so BR-45…48, BR-CO-03 and
 *   BR-DEC-19/20 are evaluated only on breakdowns of another category or tax type, and BR-AF-09 / BR-AG-09 never.
 */
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import type { Rule, Severity } from '../types.js';
import { NO_VIOLATIONS } from '../engine.js';
import { EN16931_RULE_DEFS } from '../en16931/index.js';
import { forSyntax } from '../en16931/helpers.js';
import { extendedLineRules, extendedTotalsRules } from '../facturx/adapted.js';
import { attr, has, sel, text, value, values } from '../xrechnung/dom.js';
import { contextNodes } from '../facturx/codelists.js';
import { PropertyMap } from '../../util/property-map.js';
import { CII_CUSTOM_RULES, CII_TABLE, CII_TOP_DOWN, NS_RAM, ciiSyntaxRules, ciiSyntaxSeverity } from '../../syntax/cii/rules.js';
import { compileSyntaxRules, hasAttr, toRules, type CustomRule, type TableRule } from '../../syntax/syntax-table.js';
import { decimal, HUNDRED, inList, ns, onEach, round2, withinCents, roundedSum, ZERO } from './xpath.js';
import { codeListRules, GP_REASONS, ICD, ITEM_CODES, itemAttributeRules, type Binding } from './shared.js';
import { CATEGORIES, type Category } from './categories.js';

// ---------------------------------------------------------------------------------------------
// What the profile leaves out of the EN 16931 CII artefact.

/** EN 16931 CII ids the EXTENDED-CTC-FR CII artefact does not carry (replaced or dropped). */
export const CII_DROPPED = new Set(
  [
    ...'BR-38 BR-CO-22 BR-CO-10 BR-CO-11 BR-CO-12 BR-CO-13 BR-CO-15 BR-22 BR-23 BR-24 BR-26 BR-27 BR-28 BR-CO-04 BR-44 BR-CO-24 BR-54 BR-CO-17'.split(
      ' ',
    ),
    ...'S Z E AE IC G O AF AG'.split(' ').map((c) => `BR-${c}-01`),
    ...'AE AF AG E G IC O S Z'.split(' ').map((c) => `BR-${c}-08`),
    ...'BR-AF-10 BR-AG-10 BR-O-09 BR-O-10 BR-O-11 BR-O-12 BR-O-13 BR-O-14 BR-O-03 BR-O-04 BR-O-02 BR-S-09 BR-S-10 BR-Z-10'.split(' '),
    ...'464 039 040 041 068 070 106 107 108 439 127 128 148 471 472 473 156 164 170 173 174 175 200 201 210 474 278 293 305 458 475 476 333 334 350 351 352 353 354 355 356 357 358 359 360 361 362 363 365 366 422 470 477 478 479 480 481 482 483 484 485 486 487 488 489 490 491 492 493 494 467 468 469'
      .split(' ')
      .map((n) => `CII-SR-${n}`),
    ...'018 024 027 052 098 058'.split(' ').map((n) => `CII-DT-${n}`),
    ...'BR-CL-07 BR-CL-10 BR-CL-20 BR-CL-24'.split(' '),
  ].filter((id) => id !== ''),
);

// ---------------------------------------------------------------------------------------------
// Syntax rules: the EN table without the dropped rows, CII-SR-454 relaxed to "at most one", CII-SR-439 as
// CII-FREXT-SR-439 (at most one net price), and the profile's own element checks.

const isRam = (el: XmlElement | null | undefined, local: string) => !!el && el.ns === NS_RAM && el.local === local;
const child = (el: XmlElement, local: string) => el.children.filter((c) => isRam(c, local));

function extTable(): TableRule[] {
  const out: TableRule[] = [];
  for (const r of CII_TABLE) {
    if (r.id === 'CII-SR-454') out.push({ ...r, kind: 'max' });
    else if (r.id === 'CII-SR-439') out.push({ ...r, id: 'CII-FREXT-SR-439', kind: 'max' });
    else if (!CII_DROPPED.has(r.id)) out.push(r);
  }
  return out;
}

/** Delivery terms with nothing but a delivery type code and a location that has only a name. */
function onlyIncotermsAndPlace(holder: XmlElement): boolean {
  for (const terms of child(holder, 'ApplicableTradeDeliveryTerms')) {
    for (const c of terms.children) {
      if (isRam(c, 'DeliveryTypeCode')) continue;
      if (!isRam(c, 'RelevantTradeLocation')) return false;
      if (c.children.some((g) => !isRam(g, 'Name'))) return false;
    }
  }
  return true;
}

const EXCHANGE_CHILDREN = new Set(['SourceCurrencyCode', 'TargetCurrencyCode', 'ConversionRate', 'ConversionRateDateTime']);

const typeCodeIs = (doc: XmlElement, ...codes: string[]) => child(doc, 'TypeCode').some((t) => codes.includes(text(t)));

const EXT_CUSTOM: CustomRule[] = [
  {
    id: 'CII-FREXT-SR-106',
    context: 'LAGR',
    fails: (n) => !onlyIncotermsAndPlace(n),
    message: 'Line delivery terms may only give an Incoterms code (delivery type code) and a place name.',
  },
  {
    id: 'CII-FREXT-SR-293',
    context: 'HAGR',
    fails: (n) => !onlyIncotermsAndPlace(n),
    message: 'Document delivery terms may only give an Incoterms code (delivery type code) and a place name.',
  },
  {
    id: 'CII-FREXT-SR-366',
    context: 'HSET',
    fails: (n) =>
      child(n, 'TaxApplicableTradeCurrencyExchange').some((x) =>
        x.children.some((c) => !(c.ns === NS_RAM && EXCHANGE_CHILDREN.has(c.local))),
      ),
    message: 'A tax currency exchange may only give the source and target currencies, the conversion rate (BT-167) and its date.',
  },
  {
    id: 'CII-EXT-DT-018',
    context: 'REFDOC',
    fails: (n) =>
      child(n, 'TypeCode').length > 0 &&
      !((isRam(n, 'AdditionalReferencedDocument') && typeCodeIs(n, '50', '130', '916')) || isRam(n, 'InvoiceReferencedDocument')),
    message: 'A document type code is only used on an additional document (50, 130 or 916) or a preceding invoice reference.',
  },
  {
    id: 'CII-FREXT-DT-024',
    context: 'REFDOC',
    fails: (n) =>
      child(n, 'ReferenceTypeCode').length > 0 &&
      !((isRam(n, 'AdditionalReferencedDocument') && typeCodeIs(n, '130')) || isRam(n, 'ContractReferencedDocument')),
    message: 'A reference type code is only used on an invoiced object identifier (type 130) or a contract reference.',
  },
  {
    id: 'CII-FREXTDT-027',
    context: 'REFDOC',
    fails: (n) =>
      child(n, 'FormattedIssueDateTime').length > 0 &&
      !['InvoiceReferencedDocument', 'ContractReferencedDocument', 'BuyerOrderReferencedDocument', 'DespatchAdviceReferencedDocument'].some(
        (l) => isRam(n, l),
      ),
    message: 'An issue date is only used on a preceding invoice, contract, purchase order or despatch advice reference.',
  },
];

const EXT_SYNTAX_SEVERITY: Record<string, Severity> = {
  'CII-FREXT-SR-106': 'warning',
  'CII-FREXT-SR-293': 'warning',
  'CII-FREXT-SR-366': 'warning',
  'CII-FREXT-SR-439': 'error',
  'CII-EXT-DT-018': 'error',
  'CII-FREXT-DT-024': 'error',
  'CII-FREXTDT-027': 'error',
};

const EXT_SYNTAX_MESSAGE: Record<string, string> = {
  'CII-FREXT-SR-439': 'The item net price (BT-146) may be given at most once on a line.',
  'CII-SR-454': 'A line should have at most one VAT category (ApplicableTradeTax).',
};

function syntaxRules(): Rule[] {
  const table = extTable();
  const custom = [...CII_CUSTOM_RULES.filter((c) => !CII_DROPPED.has(c.id)), ...EXT_CUSTOM];
  const compiled = compileSyntaxRules(CII_TOP_DOWN, table, custom, {
    names: ['ApplicableTradeTax', 'SpecifiedTradeSettlementPaymentMeans', 'ApplicableHeaderTradeSettlement', 'BilledQuantity'],
  });
  const base = new Map<string, string>();
  // The EN rules' own messages (from the shared rows), the profile's for the new ids.
  for (const c of custom) base.set(c.id, c.message ?? c.id);
  return toRules(
    compiled,
    (id) => EXT_SYNTAX_SEVERITY[id] ?? ciiSyntaxSeverity(id),
    (id) => EXT_SYNTAX_MESSAGE[id] ?? base.get(id) ?? enSyntaxMessage(id),
    (ctx) => ctx.syntax === 'cii',
  );
}

let enMessages: Map<string, string> | undefined;
/** The EN table rows' wording, from the EN rules themselves (one implementation of the messages). */
function enSyntaxMessage(id: string): string {
  enMessages ??= new Map(ciiSyntaxRules.map((r) => [r.id, r.message]));
  return enMessages.get(id) ?? id;
}

// ---------------------------------------------------------------------------------------------
// Business rules.

const TX = '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction';
const HEADER_TAX = '//ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax';

/** XPath `upper-case(ram:TypeCode) = 'VAT'` (one type code; an element with several is no match). */
function typeIsVat(tax: XmlElement): boolean {
  const codes = child(tax, 'TypeCode');
  return codes.length === 1 && text(codes[0]).toUpperCase() === 'VAT';
}

/** `ram:CategoryCode = 'X'`: some category code whose string value is exactly X. */
const categoryIs = (tax: XmlElement, code: string) => child(tax, 'CategoryCode').some((c) => text(c) === code);

/** A header breakdown the profile's per-category rule takes (so the rule on every breakdown never sees it). */
function takenByCategoryRule(tax: XmlElement): boolean {
  return typeIsVat(tax) && CATEGORIES.some((c) => categoryIs(tax, c.code));
}

const headerTaxes = (doc: XmlDoc) => contextNodes(doc, HEADER_TAX);

/**
 * The rules on every header breakdown the profile's per-category rules leave over, on each such element as the artefact
 * evaluates it (our EN 16931 rules read the model, which has one breakdown list: the artefact also sees a breakdown
 * in a second settlement element).
 */
const upperVat = (t: XmlElement) => typeIsVat(t);
const fraction = (v: string | undefined) => {
  const s = v ?? '';
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
};
const BREAKDOWN_RULES: Record<string, (t: XmlElement) => boolean> = {
  'BR-45': (t) => has(t, 'ram:BasisAmount'),
  'BR-46': (t) => has(t, 'ram:CalculatedAmount'),
  'BR-47': (t) => upperVat(t) && has(t, 'ram:CategoryCode'),
  'BR-48': (t) => upperVat(t) && (has(t, 'ram:RateApplicablePercent') || categoryIs(t, 'O')),
  'BR-DEC-19': (t) => fraction(value(t, 'ram:BasisAmount')) <= 2,
  'BR-DEC-20': (t) => fraction(value(t, 'ram:CalculatedAmount')) <= 2,
};
const SHADOWED_EN = new Set(Object.keys(BREAKDOWN_RULES));
function onUnshadowed(r: Rule): Rule {
  return onEach(r.id, r.severity, r.message, (doc) => headerTaxes(doc).filter((t) => !takenByCategoryRule(t)), BREAKDOWN_RULES[r.id]);
}

/** BR-CO-16 on each totals element: BT-115 = BT-112 − BT-113 + BT-114 (the first of each). */
const brCo16 = (message: string): Rule =>
  onEach(
    'BR-CO-16',
    'error',
    message,
    (doc) => contextNodes(doc, SUMMATION),
    (s) => {
      const first = (n: string) => decimal(values(s, `ram:${n}`)[0]);
      const due = first('DuePayableAmount');
      const grand = first('GrandTotalAmount');
      if (due === undefined || grand === undefined) return false;
      const paid = has(s, 'ram:TotalPrepaidAmount') ? first('TotalPrepaidAmount') : ZERO;
      const rounding = has(s, 'ram:RoundingAmount') ? first('RoundingAmount') : ZERO;
      if (paid === undefined || rounding === undefined) return false;
      return due.eq(grand.minus(paid).plus(rounding));
    },
  );

/** BR-CO-03 on each header breakdown the artefact evaluates: the VAT point date and its code are not both in the document. */
const brCo03: Rule = onEach(
  'BR-CO-03',
  'error',
  'The VAT point date (BT-7) and the VAT point date code (BT-8) are mutually exclusive.',
  (doc) => headerTaxes(doc).filter((t) => !takenByCategoryRule(t)),
  (_t, doc) => !(contextNodes(doc, '//ram:TaxPointDate').length > 0 && contextNodes(doc, '//ram:DueDateTypeCode').length > 0),
);

/** BR-CO-26 on each seller party element, as the artefact counts it (a document with two reports it twice). */
const brCo26: Rule = onEach(
  'BR-CO-26',
  'error',
  '',
  (doc) => contextNodes(doc, '//ram:SellerTradeParty'),
  (p) =>
    has(p, 'ram:ID') ||
    has(p, 'ram:GlobalID') ||
    has(p, 'ram:SpecifiedLegalOrganization/ram:ID') ||
    sel(p, 'ram:SpecifiedTaxRegistration/ram:ID').some((id) =>
      id.attrs.some((a) => a.local === 'schemeID' && a.ns === '' && a.value === 'VA'),
    ),
);

/** Rules whose context is always taken by an earlier rule of the same pattern (see the header): they never fire. */
function neverEvaluated(id: string, message: string): Rule {
  return { id, severity: 'error', message, check: () => NO_VIOLATIONS };
}

// Line subtypes.

const lineItems = (doc: XmlDoc) => sel(doc.root, 'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem');
const statusOf = (line: XmlElement) => values(line, 'ram:AssociatedDocumentLineDocument/ram:LineStatusReasonCode');
/** A line that counts in the totals: no subtype, or DETAIL. */
const isDetail = (line: XmlElement) => {
  const s = statusOf(line);
  return s.length === 0 || s.includes('DETAIL');
};
const lineTotals = (line: XmlElement) =>
  values(line, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount');

const LINE_DOCS =
  "//ram:IncludedSupplyChainTradeLineItem/ram:AssociatedDocumentLineDocument[not(ram:LineStatusReasonCode) or ram:LineStatusReasonCode = 'DETAIL']";

const detailRules: Rule[] = [
  onEach(
    'BR-FREXT-CO-04',
    'error',
    'Each DETAIL line (or line without subtype) must have an invoiced item VAT category code (BT-151).',
    (doc) => contextNodes(doc, LINE_DOCS),
    (d) => sel(d, '../ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax').some((t) => typeIsVat(t) && has(t, 'ram:CategoryCode')),
  ),
];

/** The Factur-X EXTENDED rules this profile carries with the same test under its own id. */
const SAME_AS_FACTURX: Record<string, string> = {
  'BR-FXEXT-BR-38': 'BR-FREXT-BR-38',
  'BR-FXEXT-BR-44': 'BR-FREXT-BR-44',
  'BR-FXEXT-BR-22': 'BR-FREXT-BR-22',
  'BR-FXEXT-BR-23': 'BR-FREXT-BR-23',
  'BR-FXEXT-BR-24': 'BR-FREXT-BR-24',
  'BR-FXEXT-BR-26': 'BR-FREXT-BR-26',
  'BR-FXEXT-CO-15': 'BR-FREXT-CO-15',
};

function fromFacturx(): Rule[] {
  const out: Rule[] = [];
  for (const r of [...extendedLineRules, ...extendedTotalsRules]) {
    const id = SAME_AS_FACTURX[r.id];
    if (id) out.push({ ...r, id, severity: 'error', family: undefined });
  }
  return out;
}

// Totals (BR-FREXT-CO-10…13): DETAIL lines, logistics fees with the charges, 0.01 per item.

const SUMMATION = '//ram:SpecifiedTradeSettlementHeaderMonetarySummation';
const HEADER_AC = `${TX}/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeAllowanceCharge`;

/** Document allowances or charges, selected as the totals rules do (`udt:Indicator = 'false'|'true'`, exact text). */
function documentAcs(doc: XmlDoc, indicator: 'true' | 'false'): XmlElement[] {
  return contextNodes(doc, HEADER_AC).filter((ac) => values(ac, 'ram:ChargeIndicator/udt:Indicator').includes(indicator));
}
const siblingAcs = (summation: XmlElement, indicator: 'true' | 'false') =>
  sel(summation, '../ram:SpecifiedTradeAllowanceCharge').filter((ac) =>
    values(ac, 'ram:ChargeIndicator/udt:Indicator').includes(indicator),
  );
const logisticsFees = (doc: XmlDoc) => contextNodes(doc, `${TX}/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedLogisticsServiceCharge`);
const amountsOf = (els: XmlElement[], path: string) => els.flatMap((e) => values(e, path));

function detailLineSum(summation: XmlElement): ReturnType<typeof roundedSum> {
  const tx = summation.parent?.parent;
  const lines = tx ? sel(tx, 'ram:IncludedSupplyChainTradeLineItem').filter(isDetail) : [];
  return roundedSum(lines.flatMap(lineTotals));
}

const totalsRules: Rule[] = [
  onEach(
    'BR-FREXT-CO-10',
    'error',
    'The sum of line net amounts (BT-106) must equal the sum of the DETAIL line net amounts (BT-131), within 0.01 per line.',
    (doc) => contextNodes(doc, SUMMATION),
    (s) => {
      const total = decimal(value(s, 'ram:LineTotalAmount'));
      if (total === undefined) return false;
      const tx = s.parent?.parent;
      const lines = tx ? sel(tx, 'ram:IncludedSupplyChainTradeLineItem').length : 0;
      return withinCents(total.minus(detailLineSum(s)), lines);
    },
  ),
  onEach(
    'BR-FREXT-CO-11',
    'error',
    'The sum of document allowances (BT-107) must equal the document allowance amounts (BT-92), within 0.01 per allowance.',
    (doc) => contextNodes(doc, SUMMATION),
    (s, doc) => {
      const acs = documentAcs(doc, 'false');
      if (acs.length === 0 && !has(s, 'ram:AllowanceTotalAmount')) return true;
      const total = decimal(value(s, 'ram:AllowanceTotalAmount'));
      if (total === undefined) return false;
      return withinCents(total.minus(roundedSum(amountsOf(acs, 'ram:ActualAmount'))), siblingAcs(s, 'false').length);
    },
  ),
  onEach(
    'BR-FREXT-CO-12',
    'error',
    'The sum of document charges (BT-108) must equal the document charge amounts (BT-99) plus the logistics service fees (BT-X-272), within 0.01 per item.',
    (doc) => contextNodes(doc, SUMMATION),
    (s, doc) => {
      const acs = documentAcs(doc, 'true');
      if (acs.length === 0 && !has(s, 'ram:ChargeTotalAmount')) return true;
      const total = decimal(value(s, 'ram:ChargeTotalAmount'));
      if (total === undefined) return false;
      const expected = roundedSum(amountsOf(acs, 'ram:ActualAmount')).plus(roundedSum(amountsOf(logisticsFees(doc), 'ram:AppliedAmount')));
      return withinCents(total.minus(expected), siblingAcs(s, 'true').length + sel(s, '../ram:SpecifiedLogisticsServiceCharge').length);
    },
  ),
  onEach(
    'BR-FREXT-CO-13',
    'error',
    'The total without VAT (BT-109) must equal the DETAIL line net amounts minus allowances plus charges and logistics fees, within 0.01 per item.',
    (doc) => contextNodes(doc, SUMMATION),
    (s, doc) => {
      const bt109 = decimal(value(s, 'ram:TaxBasisTotalAmount'));
      if (bt109 === undefined) return false;
      const allowances = roundedSum(amountsOf(documentAcs(doc, 'false'), 'ram:ActualAmount'));
      const charges = roundedSum(amountsOf(documentAcs(doc, 'true'), 'ram:ActualAmount')).plus(
        roundedSum(amountsOf(logisticsFees(doc), 'ram:AppliedAmount')),
      );
      const tx = s.parent?.parent;
      const detailLines = tx ? sel(tx, 'ram:IncludedSupplyChainTradeLineItem').filter(isDetail).length : 0;
      const items =
        detailLines +
        siblingAcs(s, 'false').length +
        siblingAcs(s, 'true').length +
        sel(s, '../ram:SpecifiedLogisticsServiceCharge').length;
      return withinCents(bt109.minus(detailLineSum(s)).plus(allowances).minus(charges), items);
    },
  ),
];

/** BR-CO-25: a positive amount due (the first BT-115 of the document) needs a due date or payment terms. */
const brCo25: Rule = onEach(
  'BR-CO-25',
  'error',
  'When the amount due for payment (BT-115) is positive, a payment due date (BT-9) or payment terms (BT-20) must be given.',
  (doc) => [doc.root],
  (_root, doc) => {
    const due = contextNodes(doc, '//ram:DuePayableAmount')[0];
    const positive = due !== undefined && (decimal(text(due))?.gt(ZERO) ?? false);
    if (!positive) return true;
    return contextNodes(doc, '//ram:SpecifiedTradePaymentTerms').some((t) => has(t, 'ram:DueDateDateTime') || has(t, 'ram:Description'));
  },
);

// A VAT category is used on a line or an allowance/charge if and only if it has a breakdown (BR-FREXT-<cat>-01).
function categoryUsed(c: Category): Rule {
  return onEach(
    `BR-FREXT-${c.name}-01`,
    'error',
    `VAT category ${c.code} is used on an invoice line or a document allowance or charge if and only if the invoice has a VAT breakdown (BG-23) for it.`,
    (doc) => [doc.root],
    (_root, doc) => {
      const withCode = (els: readonly XmlElement[]) => els.filter((t) => categoryIs(t, c.code)).length;
      const breakdowns = withCode(headerTaxes(doc));
      const lines = withCode(contextNodes(doc, '//ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax'));
      const acs = withCode(contextNodes(doc, '//ram:CategoryTradeTax'));
      return (breakdowns === 0 && lines === 0 && acs === 0) || (breakdowns >= 1 && lines + acs > 0);
    },
  );
}

// VAT breakdown taxable amounts (BR-FXEXT-<cat>-08, -08ini, -08rev) and BR-FXEXT-S-09.

interface TaxedItem {
  amount: string | undefined;
  tax: XmlElement[];
}

/** Does an item's tax group match the breakdown: category, rate (not for O) and, for the "rev" variant, the exemption reasons. */
function itemMatches(
  item: TaxedItem,
  c: Category,
  rate: ReturnType<typeof decimal>,
  code: string,
  reason: string,
  withReason: boolean,
): boolean {
  const taxes = item.tax;
  if (!taxes.some((t) => categoryIs(t, c.code))) return false;
  if (c.code !== 'O') {
    if (rate === undefined) return false;
    if (!taxes.some((t) => values(t, 'ram:RateApplicablePercent').some((r) => decimal(r)?.eq(rate) ?? false))) return false;
  }
  if (!withReason) return true;
  const first = (path: string) => ns(taxes.flatMap((t) => values(t, path))[0]);
  return first('ram:ExemptionReasonCode') === code && first('ram:ExemptionReason') === reason;
}

interface BreakdownItems {
  lines: TaxedItem[];
  allowances: TaxedItem[];
  charges: TaxedItem[];
  others: TaxedItem[];
  logistics: TaxedItem[];
}

const itemsCache = new PropertyMap<XmlDoc, BreakdownItems>();
function breakdownItems(doc: XmlDoc): BreakdownItems {
  let items = itemsCache.get(doc);
  if (items) return items;
  const root = doc.root;
  const acs = sel(root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeAllowanceCharge');
  const indicator = (ac: XmlElement) => {
    const v = values(ac, 'ram:ChargeIndicator/udt:Indicator').map((s) => s.trim());
    return { charge: v.some((s) => s === 'true' || s === '1'), allowance: v.some((s) => s === 'false' || s === '0') };
  };
  const acItem = (ac: XmlElement): TaxedItem => ({ amount: value(ac, 'ram:ActualAmount'), tax: sel(ac, 'ram:CategoryTradeTax') });
  items = {
    lines: lineItems(doc)
      .filter(isDetail)
      .flatMap((l) => sel(l, 'ram:SpecifiedLineTradeSettlement'))
      .map((s) => ({
        amount: value(s, 'ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount'),
        tax: sel(s, 'ram:ApplicableTradeTax'),
      })),
    allowances: acs.filter((a) => indicator(a).allowance).map(acItem),
    charges: acs.filter((a) => indicator(a).charge).map(acItem),
    others: acs.map(acItem),
    logistics: sel(root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedLogisticsServiceCharge').map(
      (lc) => ({ amount: value(lc, 'ram:AppliedAmount'), tax: sel(lc, 'ram:AppliedTradeTax') }),
    ),
  };
  itemsCache.set(doc, items);
  return items;
}

interface Variant {
  /** taxable amount minus the items' sum */
  diff: ReturnType<typeof decimal>;
  count: number;
}

function variant(doc: XmlDoc, bd: XmlElement, c: Category, withReason: boolean): Variant {
  const rate = decimal(value(bd, 'ram:RateApplicablePercent'));
  const basis = decimal(value(bd, 'ram:BasisAmount'));
  const code = ns(value(bd, 'ram:ExemptionReasonCode'));
  const reason = ns(value(bd, 'ram:ExemptionReason'));
  const { lines, allowances, charges, others, logistics } = breakdownItems(doc);
  const m = (i: TaxedItem) => itemMatches(i, c, rate, code, reason, withReason);
  const sum = (list: TaxedItem[]) => roundedSum(list.filter(m).map((i) => i.amount));
  const count = lines.filter(m).length + others.filter(m).length + logistics.filter(m).length;
  if (basis === undefined) return { diff: undefined, count };
  return { diff: basis.minus(sum(lines)).plus(sum(allowances)).minus(sum(charges)).minus(sum(logistics)), count };
}

const agrees = (v: Variant) => v.diff !== undefined && withinCents(v.diff, v.count);

function breakdownRules(c: Category): Rule[] {
  const nodes = (doc: XmlDoc) => headerTaxes(doc).filter((t) => categoryIs(t, c.code) && typeIsVat(t));
  const what = `In a VAT breakdown of category ${c.code}, the taxable amount (BT-116) must equal the DETAIL line net amounts minus document allowances plus document charges and logistics fees of that category${c.code === 'O' ? '' : ' and rate'}`;
  const rules = [
    onEach(
      `BR-FXEXT-${c.name}-08`,
      'error',
      `${what}, with or without matching exemption reasons (0.01 per item).`,
      nodes,
      (bd, doc) => agrees(variant(doc, bd, c, true)) || agrees(variant(doc, bd, c, false)),
    ),
    onEach(`BR-FXEXT-${c.name}-08ini`, 'warning', `${what} (0.01 per item), exemption reasons not considered.`, nodes, (bd, doc) =>
      agrees(variant(doc, bd, c, false)),
    ),
    onEach(`BR-FXEXT-${c.name}-08rev`, 'warning', `${what} with the same exemption reason (0.01 per item).`, nodes, (bd, doc) =>
      agrees(variant(doc, bd, c, true)),
    ),
  ];
  if (c.code === 'S')
    rules.push(
      onEach(
        'BR-FXEXT-S-09',
        'error',
        'In a VAT breakdown of category S, the tax amount (BT-117) must equal the taxable amount (BT-116) times the rate (BT-119), rounded to two decimals (0.01 per item of that rate).',
        nodes,
        (bd, doc) => {
          const rate = decimal(value(bd, 'ram:RateApplicablePercent'));
          const basis = decimal(value(bd, 'ram:BasisAmount'));
          const vat = decimal(value(bd, 'ram:CalculatedAmount'));
          if (rate === undefined || basis === undefined || vat === undefined) return false;
          const diff = vat.minus(round2(basis.times(rate).div(HUNDRED)));
          return withinCents(diff, variant(doc, bd, c, true).count) || withinCents(diff, variant(doc, bd, c, false).count);
        },
      ),
    );
  return rules;
}

// Sub-lines (BR-FREXT-05, 06, 08, 11, 12): a pattern of their own on each line.

const LINE_CONTEXT = '//ram:IncludedSupplyChainTradeLineItem';
const lineId = (l: XmlElement) => values(l, 'ram:AssociatedDocumentLineDocument/ram:LineID');
const parentIdOf = (l: XmlElement) => ns(values(l, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID').join(' '));
const childrenOf = (doc: XmlDoc, l: XmlElement) => {
  const ids = lineId(l);
  return lineItems(doc).filter((c) => values(c, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID').some((p) => ids.includes(p)));
};
const isGroupWithTotal = (l: XmlElement) => statusOf(l).includes('GROUP') && lineTotals(l).length > 0;

const subLineRules: Rule[] = [
  onEach(
    'BR-FREXT-05',
    'error',
    'The line subtype (BT-X-8) must be DETAIL, GROUP or INFORMATION.',
    (doc) => contextNodes(doc, LINE_CONTEXT),
    (l) => {
      const s = statusOf(l);
      if (s.length === 0) return true;
      return s.length === 1 && !s[0].includes(' ') && ['DETAIL', 'GROUP', 'INFORMATION'].includes(s[0]);
    },
  ),
  onEach(
    'BR-FREXT-06',
    'error',
    'A line with a parent line (BT-X-304) must state its line subtype (BT-X-8).',
    (doc) => contextNodes(doc, LINE_CONTEXT),
    (l) => parentIdOf(l) === '' || statusOf(l).some((s) => s !== ''),
  ),
  onEach(
    'BR-FREXT-08',
    'error',
    'The net amount (BT-131) of a GROUP line must equal the sum of the net amounts of its DETAIL and GROUP sub-lines.',
    (doc) => contextNodes(doc, LINE_CONTEXT),
    (l, doc) => {
      if (!isGroupWithTotal(l)) return true;
      const kids = childrenOf(doc, l).filter((c) => statusOf(c).some((s) => s === 'GROUP' || s === 'DETAIL'));
      const expected = roundedSum(kids.flatMap(lineTotals));
      return lineTotals(l).some((t) => decimal(t)?.eq(expected) ?? false);
    },
  ),
  onEach(
    'BR-FREXT-11',
    'error',
    'Each parent line reference (BT-X-304) must name another line of the invoice (BT-126).',
    (doc) => contextNodes(doc, LINE_CONTEXT),
    (l, doc) => {
      const parent = parentIdOf(l);
      if (parent === '') return true;
      const own = lineId(l);
      return lineItems(doc).some((x) => {
        const ids = lineId(x);
        return ids.includes(parent) && ids.some((id) => own.some((o) => id !== o));
      });
    },
  ),
  onEach(
    'BR-FREXT-12',
    'error',
    'When a GROUP line has a net amount (BT-131), all its GROUP sub-lines must have one too.',
    (doc) => contextNodes(doc, LINE_CONTEXT),
    (l, doc) => {
      if (!isGroupWithTotal(l)) return true;
      const groups = childrenOf(doc, l).filter((c) => statusOf(c).includes('GROUP'));
      return groups.length === groups.reduce((n, g) => n + lineTotals(g).length, 0);
    },
  ),
];

// Item attributes, payment accounts, code lists.

/** XPath `ram:ChargeIndicator/udt:Indicator = true()|false()`: some indicator whose text casts to that boolean. */
function indicatorIs(ac: XmlElement, wanted: boolean): boolean {
  return values(ac, 'ram:ChargeIndicator/udt:Indicator').some((v) => {
    const t = v.trim();
    return wanted ? t === 'true' || t === '1' : t === 'false' || t === '0';
  });
}

/** Where the shared rules look in CII. */
const CII_BINDING: Binding = {
  chargeReasonCodes: (doc) =>
    contextNodes(doc, '//ram:SpecifiedTradeAllowanceCharge/ram:ReasonCode').filter(
      (rc) => rc.parent !== null && indicatorIs(rc.parent, true),
    ),
  attachmentsWithMime: (doc) => contextNodes(doc, '//ram:AttachmentBinaryObject').filter((b) => hasAttr(b, 'mimeCode')),
  deliveryTermsCodes: (doc) => contextNodes(doc, '//ram:ApplicableTradeDeliveryTerms/ram:DeliveryTypeCode'),
  itemAttributes: (doc) => contextNodes(doc, '//ram:ApplicableProductCharacteristic'),
  attribute: { name: 'ram:Description', code: 'ram:TypeCode', value: 'ram:Value', quantity: 'ram:ValueMeasure' },
};

const miscRules: Rule[] = [
  ...itemAttributeRules(CII_BINDING),
  onEach(
    'BR-FXEXT-04',
    'warning',
    'An item attribute code should come from UNTDID 6313 or the Factur-X extension list.',
    (doc) => contextNodes(doc, '//ram:ApplicableProductCharacteristic/ram:TypeCode'),
    (t) => inList(ITEM_CODES, text(t)),
  ),
  onEach(
    'BR-CO-27',
    'error',
    'A credit transfer (payment means 30 or 58) must give the payment account (BT-84) as an IBAN or as a proprietary identifier, not both.',
    (doc) =>
      contextNodes(doc, '//ram:SpecifiedTradeSettlementPaymentMeans').filter((pm) =>
        values(pm, 'ram:TypeCode').some((v) => ['30', '58'].includes(ns(v))),
      ),
    (pm) => {
      const iban = has(pm, 'ram:PayeePartyCreditorFinancialAccount/ram:IBANID');
      const other = has(pm, 'ram:PayeePartyCreditorFinancialAccount/ram:ProprietaryID');
      return (iban || other) && !(iban && other);
    },
  ),
  // Never fires: its test asks whether a ReferenceTypeCode element is itself a contract reference (the official
  // artefact's temporary exemption of the contract type codes CONTRAT/MARCHE from UNTDID 1153).
  neverEvaluated('BR-EXT-CL-07', 'An object identifier scheme (BT-18-1) must come from UNTDID 1153.'),
  onEach(
    'BR-FREXT-CL-10',
    'error',
    'An identifier scheme (@schemeID of a global identifier) must come from the ISO 6523 ICD list, or be BY or SE.',
    (doc) =>
      contextNodes(doc, '//ram:GlobalID').filter(
        (g) => hasAttr(g, 'schemeID') && !ancestorNamed(g, 'SpecifiedTradeProduct') && !ancestorNamed(g, 'ShipToTradeParty'),
      ),
    (g) => inList(ICD, attr(g, 'schemeID') ?? ''),
  ),
  onEach(
    'BR-FREXT-CL-19-GP',
    'error',
    'A coded allowance reason on the gross price must come from UNTDID 5189.',
    (doc) =>
      contextNodes(doc, '//ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge/ram:ReasonCode').filter(
        (rc) => rc.parent !== null && indicatorIs(rc.parent, false),
      ),
    (rc) => inList(GP_REASONS, text(rc)),
  ),
  ...codeListRules(CII_BINDING),
];

function ancestorNamed(el: XmlElement, local: string): boolean {
  for (let p = el.parent; p; p = p.parent) if (isRam(p, local)) return true;
  return false;
}

/** Every rule of the EXTENDED-CTC-FR CII artefact (release 1.4.0.x; the CII artefact has one release). */
export function buildCiiRules(): Rule[] {
  const business: Rule[] = [];
  for (const r of forSyntax(EN16931_RULE_DEFS, 'cii')) {
    if (CII_DROPPED.has(r.id)) continue;
    if (r.id === 'BR-CO-03') business.push(brCo03);
    else if (r.id === 'BR-CO-26') business.push({ ...brCo26, message: r.message });
    else if (r.id === 'BR-AF-09' || r.id === 'BR-AG-09') business.push(neverEvaluated(r.id, r.message));
    else if (SHADOWED_EN.has(r.id)) business.push(onUnshadowed(r));
    else if (r.id === 'BR-CO-16') business.push(brCo16(r.message));
    else business.push(r);
  }
  return [
    ...syntaxRules(),
    ...business,
    brCo25,
    ...totalsRules,
    ...fromFacturx(),
    ...detailRules,
    ...CATEGORIES.map(categoryUsed),
    ...CATEGORIES.flatMap(breakdownRules),
    ...subLineRules,
    ...miscRules,
  ];
}
