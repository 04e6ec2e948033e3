/**
 * The Peppol BIS 3.0 rules (PEPPOL-EN16931-R*) that XRechnung 3.0.x applies, with XRechnung's
 * severities, for CII and UBL: all fatal in schematron 2.4.0; from 2.5.0 R120 is a warning, and is
 * also checked for CII (2.4.0 left it out there). Within one Schematron pattern an element is checked by
 * the first rule whose context matches it; the context functions below honour that order (e.g. an
 * allowance with a percentage but no base amount gets R041 only, not R040/R043).
 */
import { Big, parseDec, type BigValue } from '../../model/decimal.js';
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import { isBlankText } from '../../xml/parser.js';
import type { Rule } from '../types.js';
import { allElements, anywhere, attr, first, has, is, norm, NS, sel, text, value, values } from './dom.js';
import { perDocument } from '../../util/property-map.js';
import { toRule, type XrRelease, type XrRuleDef } from './common.js';
import {
  hasEndpointId,
  hasMandateReference,
  hasProfileId,
  isDirectDebit,
  lineReferenceIsObject,
  oneTaxTotalWithBreakdown,
  priceAllowanceIsAllowance,
  taxTotalInAccountingCurrency,
} from '../peppol/ubl-shared.js';

const dec = (s: string | undefined): BigValue | undefined => (s === undefined ? undefined : parseDec(s.trim()));
const ZERO = new Big('0');
const HUNDRED = new Big('100');

/** XPath round(x * 100) div 100 (halves towards +infinity). */
function round2(v: BigValue): BigValue {
  const scaled = v.times(HUNDRED).plus(new Big('0.5'));
  let t = scaled.round(0, Big.roundDown);
  if (t.gt(scaled)) t = t.minus(new Big('1'));
  return t.div(HUNDRED);
}

/** u:slack(exp, val, slack): |exp - val| <= slack. */
const withinSlack = (exp: BigValue, val: BigValue, slack: BigValue) => exp.plus(slack).gte(val) && exp.minus(slack).lte(val);

function slackFor(currency: string | undefined): BigValue {
  return new Big(currency === 'HUF' ? '0.5' : '0.02');
}

/** PEPPOL-EN16931-R008: elements without child elements and without text (attributes do not count). */
function emptyElements(doc: XmlDoc, exempt?: (el: XmlElement) => boolean): XmlElement[] {
  // The parser lists them; a document built otherwise is walked in document order (as allElements
  // lists it), without building the list of all elements: a 10,000-line invoice has 180,000.
  const listed = doc.blankLeaves;
  if (listed !== undefined) return listed.filter((el) => !(exempt && exempt(el)));
  const out: XmlElement[] = [];
  const visit = (el: XmlElement): void => {
    const children = el.children;
    if (children.length === 0) {
      if (isBlankText(el.text) && !(exempt && exempt(el))) out.push(el);
      return;
    }
    for (let i = 0; i < children.length; i++) visit(children[i]);
  };
  visit(doc.root);
  return out;
}

// ---------------------------------------------------------------------------------------------
// CII

const ciiAcFirstMatch = (ac: XmlElement): 'R041' | 'R042' | 'other' => {
  const pct = has(ac, 'ram:CalculationPercent');
  const basis = has(ac, 'ram:BasisAmount');
  if (pct && !basis) return 'R041';
  if (!pct && basis) return 'R042';
  return 'other';
};

const indicatorOk = (ac: XmlElement, path: string) => {
  const v = norm(value(ac, path));
  return v === 'true' || v === 'false';
};

/** The invoice currency codes (BT-5) as text; cached per document (dom.ts). */
const ciiDocCurrency = (doc: XmlDoc) =>
  values(doc.root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:InvoiceCurrencyCode');

const ciiDefs: XrRuleDef[] = [
  {
    id: 'PEPPOL-EN16931-R001',
    severity: 'error',
    message: 'The business process (BT-23) must be given.',
    contexts: (doc) => anywhere(doc, 'rsm:ExchangedDocumentContext'),
    test: (n) => has(n, 'ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID'),
  },
  {
    id: 'PEPPOL-EN16931-R005',
    severity: 'error',
    message: 'The VAT accounting currency (BT-6) must differ from the invoice currency (BT-5) when given.',
    contexts: (doc) => anywhere(doc, 'ram:ApplicableHeaderTradeSettlement'),
    test: (n) => !has(n, 'ram:TaxCurrencyCode') || norm(value(n, 'ram:TaxCurrencyCode')) !== norm(value(n, 'ram:InvoiceCurrencyCode')),
  },
  {
    id: 'PEPPOL-EN16931-R053',
    severity: 'error',
    message: 'At most one VAT total amount may be given in the invoice currency.',
    contexts: (doc) => anywhere(doc, 'ram:ApplicableHeaderTradeSettlement'),
    test: (n, ctx) => {
      const cur = ciiDocCurrency(ctx.doc);
      return (
        sel(n, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxTotalAmount').filter((t) =>
          cur.includes(attr(t, 'currencyID') ?? '\u0000'),
        ).length <= 1
      );
    },
  },
  {
    id: 'PEPPOL-EN16931-R054',
    severity: 'error',
    message:
      'Exactly one VAT total amount in the VAT accounting currency must be given when that currency (BT-6) is given, and none otherwise.',
    contexts: (doc) => anywhere(doc, 'ram:ApplicableHeaderTradeSettlement'),
    test: (n, ctx) => {
      const cur = ciiDocCurrency(ctx.doc);
      const other = sel(n, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxTotalAmount').filter((t) => {
        const c = attr(t, 'currencyID');
        return c !== undefined && cur.some((x) => x !== c);
      }).length;
      return other === (has(n, 'ram:TaxCurrencyCode') ? 1 : 0);
    },
  },
  {
    id: 'PEPPOL-EN16931-R055',
    severity: 'error',
    message: 'The VAT total in the invoice currency and in the VAT accounting currency must have the same sign.',
    contexts: (doc) => anywhere(doc, 'ram:ApplicableHeaderTradeSettlement'),
    test: (n, ctx) => {
      const docCur = ciiDocCurrency(ctx.doc);
      const taxCur = sel(ctx.doc.root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:TaxCurrencyCode').map(text);
      const totals = sel(n, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxTotalAmount');
      const inDoc = totals.filter((t) => docCur.includes(attr(t, 'currencyID') ?? '\u0000')).map((t) => dec(text(t)));
      const inTax = totals.filter((t) => taxCur.includes(attr(t, 'currencyID') ?? '\u0000')).map((t) => dec(text(t)));
      if (!(taxCur.length > 0 && inDoc.length > 0)) return true;
      const some = (xs: (BigValue | undefined)[], p: (x: BigValue) => boolean) => xs.some((x) => x !== undefined && p(x));
      return (
        (some(inTax, (x) => x.lt(ZERO)) && some(inDoc, (x) => x.lt(ZERO))) ||
        (some(inTax, (x) => x.gte(ZERO)) && some(inDoc, (x) => x.gte(ZERO)))
      );
    },
  },
  {
    id: 'PEPPOL-EN16931-R010',
    severity: 'error',
    message: 'The buyer electronic address (BT-49) must be given.',
    contexts: (doc) => anywhere(doc, 'ram:BuyerTradeParty'),
    test: (n) => has(n, 'ram:URIUniversalCommunication/ram:URIID'),
  },
  {
    id: 'PEPPOL-EN16931-R020',
    severity: 'error',
    message: 'The seller electronic address (BT-34) must be given.',
    contexts: (doc) => anywhere(doc, 'ram:SellerTradeParty'),
    test: (n) => has(n, 'ram:URIUniversalCommunication/ram:URIID'),
  },
  {
    id: 'PEPPOL-EN16931-R041',
    severity: 'error',
    message: 'An allowance or charge with a percentage must also give its base amount.',
    contexts: (doc) => anywhere(doc, 'ram:SpecifiedTradeAllowanceCharge').filter((ac) => ciiAcFirstMatch(ac) === 'R041'),
    test: () => false,
  },
  {
    id: 'PEPPOL-EN16931-R042',
    severity: 'error',
    message: 'An allowance or charge with a base amount must also give its percentage.',
    contexts: (doc) => anywhere(doc, 'ram:SpecifiedTradeAllowanceCharge').filter((ac) => ciiAcFirstMatch(ac) === 'R042'),
    test: () => false,
  },
  {
    id: 'PEPPOL-EN16931-R040',
    severity: 'error',
    message: 'An allowance or charge amount must equal base amount × percentage / 100 when both are given.',
    contexts: (doc) => anywhere(doc, 'ram:SpecifiedTradeAllowanceCharge').filter((ac) => ciiAcFirstMatch(ac) === 'other'),
    test: (ac, ctx) => {
      if (!(has(ac, 'ram:CalculationPercent') && has(ac, 'ram:BasisAmount'))) return true;
      const amount = has(ac, 'ram:ActualAmount') ? dec(value(ac, 'ram:ActualAmount')) : ZERO;
      const basis = dec(value(ac, 'ram:BasisAmount'));
      const pct = dec(value(ac, 'ram:CalculationPercent'));
      if (!amount || !basis || !pct) return true;
      return withinSlack(amount, basis.times(pct).div(HUNDRED), slackFor(ciiDocCurrency(ctx.doc)[0]));
    },
  },
  {
    id: 'PEPPOL-EN16931-R043-1',
    severity: 'error',
    message: "The charge indicator of an allowance or charge must be 'true' or 'false'.",
    contexts: (doc) => anywhere(doc, 'ram:SpecifiedTradeAllowanceCharge').filter((ac) => ciiAcFirstMatch(ac) === 'other'),
    test: (ac) => indicatorOk(ac, 'ram:ChargeIndicator/udt:Indicator'),
  },
  {
    id: 'PEPPOL-EN16931-R043-2',
    severity: 'error',
    message: "The charge indicator of a price allowance must be 'true' or 'false'.",
    contexts: (doc) => anywhere(doc, 'ram:AppliedTradeAllowanceCharge'),
    test: (ac) => indicatorOk(ac, 'ram:ChargeIndicator/udt:Indicator'),
  },
  {
    id: 'PEPPOL-EN16931-R061',
    severity: 'error',
    message: 'Payment by direct debit (49, 59) requires the mandate reference (BT-89).',
    contexts: (doc) =>
      anywhere(doc, 'ram:SpecifiedTradeSettlementPaymentMeans').filter((pm) => ['49', '59'].includes(norm(value(pm, 'ram:TypeCode')))),
    test: (pm) => has(pm, '../ram:SpecifiedTradePaymentTerms/ram:DirectDebitMandateID'),
  },
  {
    id: 'PEPPOL-EN16931-R110',
    severity: 'error',
    message: 'A line period (BG-26) must not start before the invoicing period (BG-14).',
    contexts: (doc) => linePeriodDates(doc, 'StartDateTime'),
    test: (d, ctx) => {
      const own = values(d, 'udt:DateTimeString');
      const header = values(
        ctx.doc.root,
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString',
      );
      return own.some((a) => header.some((b) => a >= b));
    },
  },
  {
    id: 'PEPPOL-EN16931-R111',
    severity: 'error',
    message: 'A line period (BG-26) must not end after the invoicing period (BG-14).',
    contexts: (doc) => linePeriodDates(doc, 'EndDateTime'),
    test: (d, ctx) => {
      const own = values(d, 'udt:DateTimeString');
      const header = values(
        ctx.doc.root,
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString',
      );
      return own.some((a) => header.some((b) => a <= b));
    },
  },
  {
    id: 'PEPPOL-EN16931-R101',
    severity: 'error',
    message: 'A document referenced on a line may only be the invoiced object (type code 130).',
    contexts: (doc) => anywhere(doc, 'ram:IncludedSupplyChainTradeLineItem'),
    test: (l) =>
      !has(l, 'ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument') ||
      values(l, 'ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument/ram:TypeCode').includes('130'),
  },
  {
    id: 'PEPPOL-EN16931-R121',
    severity: 'error',
    message: 'The item price base quantity (BT-149) must be greater than zero.',
    contexts: (doc) =>
      allElements(doc).filter(
        (e) => (e.local === 'NetPriceProductTradePrice' || e.local === 'GrossPriceProductTradePrice') && e.ns === NS.ram,
      ),
    test: (p) => {
      const q = first(p, 'ram:BasisQuantity');
      if (!q) return true;
      const d = dec(text(q));
      return d === undefined || d.gt(ZERO);
    },
  },
  {
    id: 'PEPPOL-EN16931-R130',
    severity: 'error',
    message: 'The unit of the price base quantity (BT-150) must be the unit of the invoiced quantity (BT-130).',
    contexts: (doc) =>
      anywhere(doc, 'ram:BasisQuantity').filter(
        (q) =>
          attr(q, 'unitCode') !== undefined &&
          (is(q.parent, 'ram:NetPriceProductTradePrice') || is(q.parent, 'ram:GrossPriceProductTradePrice')),
      ),
    test: (q) => values(q, '../../../ram:SpecifiedLineTradeDelivery/ram:BilledQuantity/@unitCode').includes(attr(q, 'unitCode')!),
  },
  {
    id: 'PEPPOL-EN16931-R008',
    severity: 'error',
    message: 'The document must not contain empty elements.',
    contexts: (doc) => emptyElements(doc, (el) => is(el, 'ram:ApplicableHeaderTradeDelivery')),
    test: () => false,
  },
  {
    id: 'PEPPOL-EN16931-R044',
    severity: 'error',
    message: 'A charge on price level is not allowed: a price allowance must have the charge indicator false.',
    contexts: (doc) =>
      sel(
        doc.root,
        'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice',
      ),
    test: (g) =>
      !has(g, 'ram:AppliedTradeAllowanceCharge/ram:ActualAmount') ||
      values(g, 'ram:AppliedTradeAllowanceCharge/ram:ChargeIndicator/udt:Indicator').includes('false'),
  },
  {
    id: 'PEPPOL-EN16931-R046',
    severity: 'error',
    message: 'The item net price (BT-146) must equal the gross price (BT-148) minus the price discount (BT-147).',
    contexts: (doc) =>
      sel(
        doc.root,
        'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice',
      ),
    test: (g) => {
      if (!has(g, 'ram:ChargeAmount')) return true;
      const net = dec(value(g, '../ram:NetPriceProductTradePrice/ram:ChargeAmount'));
      const gross = dec(value(g, 'ram:ChargeAmount'));
      const discountText = value(g, 'ram:AppliedTradeAllowanceCharge/ram:ActualAmount');
      const discount = discountText === undefined ? ZERO : dec(discountText);
      if (net === undefined) return false;
      if (gross === undefined || discount === undefined) return true;
      return net.eq(gross.minus(discount));
    },
  },
];

function linePeriodDates(doc: XmlDoc, which: 'StartDateTime' | 'EndDateTime'): XmlElement[] {
  const out: XmlElement[] = [];
  for (const tx of sel(doc.root, 'rsm:SupplyChainTradeTransaction')) {
    if (!has(tx, `ram:ApplicableHeaderTradeSettlement/ram:BillingSpecifiedPeriod/ram:${which}`)) continue;
    // A loop, not push(...): a spread of one argument per line overflows the stack on a huge invoice.
    for (const el of sel(
      tx,
      `ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedLineTradeSettlement/ram:BillingSpecifiedPeriod/ram:${which}`,
    ))
      out.push(el);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// UBL

const isUblRoot = (el: XmlElement | null) => !!el && el.parent === null && (is(el, 'ubl:Invoice') || is(el, 'cn:CreditNote'));
const ublLines = (doc: XmlDoc) => doc.root.children.filter((c) => is(c, 'cac:InvoiceLine') || is(c, 'cac:CreditNoteLine'));

/**
 * Document- and line-level allowances/charges (the contexts of R040–R044 in UBL), once per document: five rules
 * ask. Callers must not modify the list.
 */
const ublAllowanceCharges = perDocument((doc: XmlDoc): readonly XmlElement[] => {
  const out: XmlElement[] = [];
  const root = doc.root;
  for (const c of root.children) {
    if (is(c, 'cac:AllowanceCharge')) out.push(c);
    const lineName = is(root, 'ubl:Invoice') ? 'cac:InvoiceLine' : 'cac:CreditNoteLine';
    if (is(c, lineName)) for (const a of c.children) if (is(a, 'cac:AllowanceCharge')) out.push(a);
  }
  return out;
});

const ublAcFirstMatch = (ac: XmlElement): 'R041' | 'R042' | 'other' => {
  const pct = has(ac, 'cbc:MultiplierFactorNumeric');
  const basis = has(ac, 'cbc:BaseAmount');
  if (pct && !basis) return 'R041';
  if (!pct && basis) return 'R042';
  return 'other';
};

const ublDocCurrency = (doc: XmlDoc) => value(doc.root, 'cbc:DocumentCurrencyCode');

/** xs:date comparison of two UBL dates (YYYY-MM-DD, optionally with a zone); undefined if not dates. */
function compareDates(a: string, b: string): number | undefined {
  const re = /^\s*(-?\d{4,})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?\s*$/;
  const x = re.exec(a);
  const y = re.exec(b);
  if (!x || !y) return undefined;
  const ka = `${x[1]}${x[2]}${x[3]}`;
  const kb = `${y[1]}${y[2]}${y[3]}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

const ublDefs: XrRuleDef[] = [
  {
    id: 'PEPPOL-EN16931-R001',
    severity: 'error',
    message: 'The business process (BT-23) must be given.',
    contexts: (doc) => (isUblRoot(doc.root) ? [doc.root] : []),
    test: hasProfileId,
  },
  {
    id: 'PEPPOL-EN16931-R053',
    severity: 'error',
    message: 'Exactly one tax total with VAT breakdowns must be given.',
    contexts: (doc) => (isUblRoot(doc.root) ? [doc.root] : []),
    test: oneTaxTotalWithBreakdown,
  },
  {
    id: 'PEPPOL-EN16931-R054',
    severity: 'error',
    message:
      'Exactly one tax total without VAT breakdowns must be given when the VAT accounting currency (BT-6) is given, and none otherwise.',
    contexts: (doc) => (isUblRoot(doc.root) ? [doc.root] : []),
    test: taxTotalInAccountingCurrency,
  },
  {
    id: 'PEPPOL-EN16931-R055',
    severity: 'error',
    message: 'The VAT total in the invoice currency and in the VAT accounting currency must have the same sign.',
    contexts: (doc) => (isUblRoot(doc.root) ? [doc.root] : []),
    test: (r) => {
      if (!has(r, 'cbc:TaxCurrencyCode')) return true;
      const taxCur = norm(value(r, 'cbc:TaxCurrencyCode'));
      const docCur = norm(value(r, 'cbc:DocumentCurrencyCode'));
      const amounts = sel(r, 'cac:TaxTotal/cbc:TaxAmount');
      const inTax = amounts.filter((a) => attr(a, 'currencyID') === taxCur).map((a) => dec(text(a)));
      const inDoc = amounts.filter((a) => attr(a, 'currencyID') === docCur).map((a) => dec(text(a)));
      const some = (xs: (BigValue | undefined)[], p: (x: BigValue) => boolean) => xs.some((x) => x !== undefined && p(x));
      return (
        (some(inTax, (x) => x.lte(ZERO)) && some(inDoc, (x) => x.lte(ZERO))) ||
        (some(inTax, (x) => x.gte(ZERO)) && some(inDoc, (x) => x.gte(ZERO)))
      );
    },
  },
  {
    id: 'PEPPOL-EN16931-R005',
    severity: 'error',
    message: 'The VAT accounting currency (BT-6) must differ from the invoice currency (BT-5).',
    contexts: (doc) => anywhere(doc, 'cbc:TaxCurrencyCode'),
    test: (n) => norm(n.text) !== norm(value(n, '../cbc:DocumentCurrencyCode')),
  },
  {
    id: 'PEPPOL-EN16931-R010',
    severity: 'error',
    message: 'The buyer electronic address (BT-49) must be given.',
    contexts: (doc) => anywhere(doc, 'cac:Party').filter((p) => is(p.parent, 'cac:AccountingCustomerParty')),
    test: hasEndpointId,
  },
  {
    id: 'PEPPOL-EN16931-R020',
    severity: 'error',
    message: 'The seller electronic address (BT-34) must be given.',
    contexts: (doc) => anywhere(doc, 'cac:Party').filter((p) => is(p.parent, 'cac:AccountingSupplierParty')),
    test: hasEndpointId,
  },
  {
    id: 'PEPPOL-EN16931-R041',
    severity: 'error',
    message: 'An allowance or charge with a percentage must also give its base amount.',
    contexts: (doc) => ublAllowanceCharges(doc).filter((ac) => ublAcFirstMatch(ac) === 'R041'),
    test: () => false,
  },
  {
    id: 'PEPPOL-EN16931-R042',
    severity: 'error',
    message: 'An allowance or charge with a base amount must also give its percentage.',
    contexts: (doc) => ublAllowanceCharges(doc).filter((ac) => ublAcFirstMatch(ac) === 'R042'),
    test: () => false,
  },
  {
    id: 'PEPPOL-EN16931-R040',
    severity: 'error',
    message: 'An allowance or charge amount must equal base amount × percentage / 100 when both are given.',
    contexts: (doc) => ublAllowanceCharges(doc).filter((ac) => ublAcFirstMatch(ac) === 'other'),
    test: (ac, ctx) => {
      if (!(has(ac, 'cbc:MultiplierFactorNumeric') && has(ac, 'cbc:BaseAmount'))) return true;
      const amount = has(ac, 'cbc:Amount') ? dec(value(ac, 'cbc:Amount')) : ZERO;
      const basis = dec(value(ac, 'cbc:BaseAmount'));
      const pct = dec(value(ac, 'cbc:MultiplierFactorNumeric'));
      if (!amount || !basis || !pct) return true;
      return withinSlack(amount, basis.times(pct).div(HUNDRED), slackFor(ublDocCurrency(ctx.doc)));
    },
  },
  {
    id: 'PEPPOL-EN16931-R043',
    severity: 'error',
    message: "The charge indicator of an allowance or charge must be 'true' or 'false'.",
    contexts: (doc) => ublAllowanceCharges(doc).filter((ac) => ublAcFirstMatch(ac) === 'other'),
    test: (ac) => indicatorOk(ac, 'cbc:ChargeIndicator'),
  },
  {
    id: 'PEPPOL-EN16931-R061',
    severity: 'error',
    message: 'Payment by direct debit (49, 59) requires the mandate reference (BT-89).',
    contexts: (doc) => anywhere(doc, 'cac:PaymentMeans').filter(isDirectDebit),
    test: hasMandateReference,
  },
  {
    id: 'PEPPOL-EN16931-R110',
    severity: 'error',
    message: 'A line period (BG-26) must not start before the invoicing period (BG-14).',
    contexts: (doc) =>
      has(doc.root, 'cac:InvoicePeriod/cbc:StartDate') ? ublLines(doc).flatMap((l) => sel(l, 'cac:InvoicePeriod/cbc:StartDate')) : [],
    test: (d, ctx) => values(ctx.doc.root, 'cac:InvoicePeriod/cbc:StartDate').every((h) => (compareDates(d.text, h) ?? 0) >= 0),
  },
  {
    id: 'PEPPOL-EN16931-R111',
    severity: 'error',
    message: 'A line period (BG-26) must not end after the invoicing period (BG-14).',
    contexts: (doc) =>
      has(doc.root, 'cac:InvoicePeriod/cbc:EndDate') ? ublLines(doc).flatMap((l) => sel(l, 'cac:InvoicePeriod/cbc:EndDate')) : [],
    test: (d, ctx) => values(ctx.doc.root, 'cac:InvoicePeriod/cbc:EndDate').every((h) => (compareDates(d.text, h) ?? 0) <= 0),
  },
  {
    id: 'PEPPOL-EN16931-R120',
    severity: 'error',
    message: 'The line net amount (BT-131) must equal quantity × (net price / base quantity) + line charges − line allowances.',
    contexts: (doc) => anywhere(doc, 'cac:InvoiceLine').concat(anywhere(doc, 'cac:CreditNoteLine')),
    test: (l, ctx) => {
      const amountText = value(l, 'cbc:LineExtensionAmount');
      const lineAmount = amountText === undefined ? ZERO : dec(amountText);
      const qtyPath = is(ctx.doc.root, 'ubl:Invoice') ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity';
      const qtyText = value(l, qtyPath);
      const qty = qtyText === undefined ? new Big('1') : dec(qtyText);
      const priceText = value(l, 'cac:Price/cbc:PriceAmount');
      const price = priceText === undefined ? ZERO : dec(priceText);
      const baseText = value(l, 'cac:Price/cbc:BaseQuantity');
      let base: BigValue | undefined = new Big('1');
      if (baseText !== undefined) {
        const b = dec(baseText);
        if (b === undefined) return true;
        if (!b.eq(ZERO)) base = b;
      }
      if (lineAmount === undefined || qty === undefined || price === undefined) return true;
      const sumOf = (flag: string) => {
        const acs = sel(l, 'cac:AllowanceCharge').filter((a) => norm(value(a, 'cbc:ChargeIndicator')) === flag);
        if (acs.length === 0) return ZERO;
        let total = ZERO;
        for (const a of acs) for (const v of values(a, 'cbc:Amount')) total = total.plus(dec(v) ?? ZERO);
        return round2(total);
      };
      const expected = qty.times(price.div(base)).plus(sumOf('true')).minus(sumOf('false'));
      return withinSlack(lineAmount, expected, slackFor(ublDocCurrency(ctx.doc)));
    },
  },
  {
    id: 'PEPPOL-EN16931-R121',
    severity: 'error',
    message: 'The item price base quantity (BT-149) must be greater than zero.',
    contexts: (doc) => anywhere(doc, 'cac:InvoiceLine').concat(anywhere(doc, 'cac:CreditNoteLine')),
    test: (l) => {
      const b = value(l, 'cac:Price/cbc:BaseQuantity');
      if (b === undefined) return true;
      const d = dec(b);
      return d === undefined || d.gt(ZERO);
    },
  },
  {
    id: 'PEPPOL-EN16931-R101',
    severity: 'error',
    message: 'A document referenced on a line may only be the invoiced object (type code 130).',
    contexts: (doc) => anywhere(doc, 'cac:InvoiceLine').concat(anywhere(doc, 'cac:CreditNoteLine')),
    test: lineReferenceIsObject,
  },
  {
    id: 'PEPPOL-EN16931-R044',
    severity: 'error',
    message: 'A charge on price level is not allowed: a price allowance must have the charge indicator false.',
    contexts: (doc) => anywhere(doc, 'cac:AllowanceCharge').filter((a) => is(a.parent, 'cac:Price')),
    test: priceAllowanceIsAllowance,
  },
  {
    id: 'PEPPOL-EN16931-R046',
    severity: 'error',
    message: 'The item net price (BT-146) must equal the gross price (BT-148) minus the price discount (BT-147).',
    contexts: (doc) => anywhere(doc, 'cac:AllowanceCharge').filter((a) => is(a.parent, 'cac:Price')),
    test: (a) => {
      if (!has(a, 'cbc:BaseAmount')) return true;
      const net = dec(value(a, '../cbc:PriceAmount'));
      const gross = dec(value(a, 'cbc:BaseAmount'));
      const amount = dec(value(a, 'cbc:Amount'));
      if (net === undefined || gross === undefined || amount === undefined) return net !== undefined;
      return net.eq(gross.minus(amount));
    },
  },
  {
    id: 'PEPPOL-EN16931-R130',
    severity: 'error',
    message: 'The unit of the price base quantity (BT-150) must be the unit of the invoiced quantity (BT-130).',
    contexts: (doc) => anywhere(doc, 'cbc:BaseQuantity').filter((q) => is(q.parent, 'cac:Price') && attr(q, 'unitCode') !== undefined),
    test: (q, ctx) => {
      const line = q.parent?.parent;
      if (!line || !(has(line, 'cbc:InvoicedQuantity') || has(line, 'cbc:CreditedQuantity'))) return true;
      const qtyPath = is(ctx.doc.root, 'ubl:Invoice') ? 'cbc:InvoicedQuantity/@unitCode' : 'cbc:CreditedQuantity/@unitCode';
      return values(line, qtyPath).includes(attr(q, 'unitCode')!);
    },
  },
  {
    id: 'PEPPOL-EN16931-R008',
    severity: 'error',
    message: 'The document must not contain empty elements.',
    contexts: (doc) => emptyElements(doc),
    test: () => false,
  },
];

/**
 * PEPPOL-EN16931-R120 for CII, as XRechnung 2.5.0 states it: the line net amount (BT-131) equals
 * quantity × (net price / base quantity) + line charges − line allowances, within the slack (HUF 0.5,
 * else 0.02). XRechnung's base quantity falls back from the net price's to the gross price's (each
 * only when non-zero), then to 1; charges and allowances are summed and rounded to two decimals.
 */
const ciiR120: XrRuleDef = {
  id: 'PEPPOL-EN16931-R120',
  severity: 'warning',
  message: 'The line net amount (BT-131) should equal quantity × (net price / base quantity) + line charges − line allowances.',
  contexts: (doc) => anywhere(doc, 'ram:IncludedSupplyChainTradeLineItem'),
  test: (l, ctx) => {
    const num = (path: string, otherwise: BigValue): BigValue | undefined => {
      const t = value(l, path);
      return t === undefined ? otherwise : dec(t);
    };
    const lineAmount = num('ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount', ZERO);
    const qty = num('ram:SpecifiedLineTradeDelivery/ram:BilledQuantity', new Big('1'));
    const price = num('ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount', ZERO);
    let base: BigValue = new Big('1');
    for (const p of ['ram:NetPriceProductTradePrice', 'ram:GrossPriceProductTradePrice']) {
      const t = value(l, `ram:SpecifiedLineTradeAgreement/${p}/ram:BasisQuantity`);
      if (t === undefined) continue;
      const b = dec(t);
      if (b === undefined) return true; // xs:decimal() of a non-number: the artefact's test errors, it does not fail
      if (!b.eq(ZERO)) {
        base = b;
        break;
      }
    }
    if (lineAmount === undefined || qty === undefined || price === undefined) return true;
    const sumOf = (flag: string) => {
      const acs = sel(l, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge').filter(
        (a) => norm(value(a, 'ram:ChargeIndicator/udt:Indicator')) === flag,
      );
      if (acs.length === 0) return ZERO;
      let total = ZERO;
      for (const a of acs) for (const v of values(a, 'ram:ActualAmount')) total = total.plus(dec(v) ?? ZERO);
      return round2(total);
    };
    const expected = qty.times(price.div(base)).plus(sumOf('true')).minus(sumOf('false'));
    return withinSlack(lineAmount, expected, slackFor(ciiDocCurrency(ctx.doc)[0]));
  },
};

const ciiRules2_4 = ciiDefs.map(toRule);
const ublRules2_4 = ublDefs.map(toRule);
const at = (rules: Rule[], id: string) => rules.findIndex((r) => r.id === id);

/** The Peppol rules of XRechnung's CII set in a schematron release (2.5.0 adds R120, next to R101 as in Peppol's rule). */
export function peppolCiiRulesFor(release: XrRelease): Rule[] {
  if (release === '2.4.0') return ciiRules2_4;
  const rules = [...ciiRules2_4];
  rules.splice(at(rules, 'PEPPOL-EN16931-R101'), 0, toRule(ciiR120));
  return rules;
}

/** The Peppol rules of XRechnung's UBL set in a schematron release (2.5.0 flags R120 as a warning). */
export function peppolUblRulesFor(release: XrRelease): Rule[] {
  if (release === '2.4.0') return ublRules2_4;
  return ublRules2_4.map((r) =>
    r.id === 'PEPPOL-EN16931-R120'
      ? {
          ...r,
          severity: 'warning' as const,
          message: 'The line net amount (BT-131) should equal quantity × (net price / base quantity) + line charges − line allowances.',
        }
      : r,
  );
}

/** The 2.4.0 tables (all Peppol rules fatal, no R120 for CII). */
export const peppolCiiRules: Rule[] = ciiRules2_4;
export const peppolUblRules: Rule[] = ublRules2_4;

/** R008 for other rule sets that carry it (the Factur-X profile sets flag it as a warning). */
export function emptyElementsOf(doc: XmlDoc, exemptLocal?: string): XmlElement[] {
  return emptyElements(doc, exemptLocal ? (el) => el.local === exemptLocal : undefined);
}
