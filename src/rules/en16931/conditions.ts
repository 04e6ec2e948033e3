/**
 * EN 16931 conditions and calculations (BR-CO-*), decimal precision (BR-DEC-*) and the Italian
 * split payment rules (BR-B-*), written against the model.
 */
import { fractionDigits } from '../../model/decimal.js';
import type { Invoice, Dec, Located } from '../../model/invoice.js';
import { codeSet, CODELISTS } from '../data/codelists.js';
import { attr, pathOf, type XmlElement } from '../../xml/dom.js';
import type { RuleContext, Violation } from '../types.js';
import {
  NO_VIOLATIONS,
  type RuleDef,
  acList,
  acrossLines,
  nonVatScope,
  descendants,
  kid,
  kids,
  rootChildren,
  present,
  exists,
  filled,
  loc,
  dec,
  sum,
  round2,
  round0,
  ZERO,
  ONE,
  HUNDRED,
  unless,
  each,
  code,
  elementOf,
} from './helpers.js';
import { locatedAt } from '../report-bounds.js';

const totalsPresent = (inv: Invoice) => exists(inv.totals);

function vatIds(inv: Invoice): { owner: Located; value: string }[] {
  const out: { owner: Located; value: string }[] = [];
  if (present(inv.seller.vatId)) out.push({ owner: inv.seller, value: inv.seller.vatId! });
  if (present(inv.buyer.vatId)) out.push({ owner: inv.buyer, value: inv.buyer.vatId! });
  if (inv.taxRepresentative && present(inv.taxRepresentative.vatId))
    out.push({ owner: inv.taxRepresentative, value: inv.taxRepresentative.vatId! });
  return out;
}

let ublCountryText: string | undefined;
function vatPrefixOk(syntax: 'cii' | 'ubl', value: string): boolean {
  const prefix = value.slice(0, 2);
  if (syntax === 'cii') return prefix.length === 2 && codeSet('en16931-cii', 'BR-CO-09').has(prefix);
  // The UBL artefact tests the prefix as a substring of the space-separated list.
  ublCountryText ??= ' ' + CODELISTS['en16931-ubl']['BR-CO-09'].codes.join(' ') + ' ';
  return ublCountryText.includes(prefix);
}

/** Amounts that must not carry more than two decimals. */
function dec2(
  id: string,
  message: string,
  pick: (inv: Invoice, ctx: RuleContext) => { value: Dec | undefined; of: Located; field: string }[],
): RuleDef {
  return {
    id,
    message,
    check: (ctx) => {
      const out: Violation[] = [];
      // The location is looked up for offending values only (every line's would cost a path string each).
      for (const { value, of, field } of pick(ctx.invoice, ctx)) {
        if (value !== undefined && fractionDigits(value.trim()) > 2) out.push({ location: loc(of, field) });
      }
      return out;
    },
  };
}

/**
 * UBL BR-DEC-13 / BR-DEC-15 as the artefacts write them: `//cac:TaxTotal/cbc:TaxAmount[@currencyID = cbc:DocumentCurrencyCode]`
 * (resp. `cbc:TaxCurrencyCode`) reads the code as a child of the TaxAmount itself, so only a TaxAmount carrying such an
 * element is checked, its decimals counted after the first '.' of its string value. A plain TaxAmount with three
 * decimals is UBL-DT-01's finding, not these rules' (the official XSLT fires UBL-DT-01 alone on it).
 */
function ublTaxAmountDecimals(ctx: RuleContext, codeElement: 'DocumentCurrencyCode' | 'TaxCurrencyCode'): readonly Violation[] {
  const stringValue = (el: XmlElement): string => el.text + el.children.map(stringValue).join('');
  const hit = descendants(ctx, 'TaxAmount').find((el) => {
    if (el.parent?.local !== 'TaxTotal') return false;
    const code = el.children.find((c) => c.local === codeElement);
    if (!code || stringValue(code) !== attr(el, 'currencyID')) return false;
    const v = stringValue(el);
    const dot = v.indexOf('.');
    return dot >= 0 && v.length - dot - 1 > 2;
  });
  return hit ? [locatedAt(pathOf)(hit, 0)] : NO_VIOLATIONS;
}

const totalsField = (field: keyof Invoice['totals']) => (inv: Invoice) =>
  totalsPresent(inv) ? [{ value: inv.totals[field] as Dec | undefined, of: inv.totals, field: field }] : [];

function allCategories(inv: Invoice): string[] {
  const out: string[] = [];
  for (const l of inv.lines) if (l.vatCategoryCode !== undefined) out.push(code(l.vatCategoryCode)!);
  for (const b of inv.vatBreakdown) if (b.categoryCode !== undefined) out.push(code(b.categoryCode)!);
  for (const a of inv.allowances) if (a.vatCategoryCode !== undefined) out.push(code(a.vatCategoryCode)!);
  for (const c of inv.charges) if (c.vatCategoryCode !== undefined) out.push(code(c.vatCategoryCode)!);
  return out;
}

function allCountries(inv: Invoice): string[] {
  return [inv.seller.address, inv.buyer.address, inv.taxRepresentative?.address, inv.delivery?.address]
    .map((a) => a?.countryCode)
    .filter((c): c is string => c !== undefined);
}

/**
 * BR-CO-17 on each VAT breakdown. In the CEN CII artefact the rule's context (every header
 * ApplicableTradeTax) shares one Schematron pattern with the L, M and O category rules, whose contexts
 * (ApplicableTradeTax[CategoryCode = 'L'|'M'|'O'][upper-case(TypeCode) = 'VAT'], compared without
 * trimming) take precedence: the XSLT applies one rule per node and pattern, so BR-CO-17 is never
 * evaluated on those breakdowns (`ciiShadow`). The Factur-X profile schematrons give BR-CO-17 a pattern
 * of its own: there it sees every breakdown.
 */
export function brCo17(ctx: RuleContext, ciiShadow: boolean): readonly Violation[] {
  return each(
    ctx.invoice.vatBreakdown,
    (b) => {
      const syntax = ctx.syntax;
      if (syntax === 'cii' && ciiShadow && takenByCategoryRule(ctx, b)) return true;
      const tax = dec(b.taxAmount);
      if (tax === undefined) return false;
      // A rate not declared for VAT counts as no rate.
      const rate = nonVatScope(ctx).has(b) ? undefined : dec(b.rate);
      if (rate === undefined) return round0(tax).eq(ZERO);
      if (round0(rate).eq(ZERO)) return round0(tax).eq(ZERO);
      const basis = dec(b.taxableAmount);
      if (basis === undefined) return false;
      const expected = round2(basis.abs().times(rate).div(HUNDRED));
      const a = tax.abs();
      return syntax === 'cii'
        ? a.minus(ONE).lte(expected) && a.plus(ONE).gte(expected)
        : a.minus(ONE).lt(expected) && a.plus(ONE).gt(expected);
    },
    (b) => loc(b),
  );
}

/** Whether a CII header breakdown is the context of the artefact's L, M or O category rule (exact texts, as there). */
function takenByCategoryRule(ctx: RuleContext, b: Located): boolean {
  const holder = elementOf(ctx, b);
  if (!holder) return false;
  let category = false;
  let vat = false;
  for (const c of holder.children) {
    if (c.local === 'CategoryCode' && (c.text === 'L' || c.text === 'M' || c.text === 'O')) category = true;
    else if (c.local === 'TypeCode' && c.text.toUpperCase() === 'VAT') vat = true;
  }
  return category && vat;
}

/** UBL `cac:InvoicePeriod` elements: a line's (BR-CO-20's context, which takes them first) or the others (BR-CO-19's). */
function ublPeriods(ctx: RuleContext, ofLines: boolean) {
  return descendants(ctx, 'InvoicePeriod').filter(
    (p) => (p.parent?.local === 'InvoiceLine' || p.parent?.local === 'CreditNoteLine') === ofLines,
  );
}

export const conditionRules: RuleDef[] = [
  {
    id: 'BR-CO-03',
    message: 'The VAT point date (BT-7) and the VAT point date code (BT-8) are mutually exclusive.',
    check: ({ invoice: i, syntax }) => {
      if (syntax === 'cii' && i.vatBreakdown.length === 0) return NO_VIOLATIONS;
      return unless(!(present(i.taxPointDate) && present(i.taxPointDateCode)), i);
    },
  },
  {
    id: 'BR-CO-04',
    message: 'Each invoice line must be categorised with an invoiced item VAT category code (BT-151).',
    check: (ctx) =>
      each(
        ctx.invoice.lines,
        (l) => present(l.vatCategoryCode) && !nonVatScope(ctx).has(l),
        (l) => loc(l),
      ),
  },
  {
    id: 'BR-CO-05',
    message: 'A document level allowance reason code (BT-98) and reason (BT-97) must describe the same allowance.',
    check: () => [],
  },
  {
    id: 'BR-CO-06',
    message: 'A document level charge reason code (BT-105) and reason (BT-104) must describe the same charge.',
    check: () => [],
  },
  {
    id: 'BR-CO-07',
    message: 'An invoice line allowance reason code (BT-140) and reason (BT-139) must describe the same allowance.',
    check: () => [],
  },
  {
    id: 'BR-CO-08',
    message: 'An invoice line charge reason code (BT-145) and reason (BT-144) must describe the same charge.',
    check: () => [],
  },
  {
    id: 'BR-CO-09',
    message:
      'A VAT identifier (BT-31, BT-48, BT-63) must start with a country prefix (ISO 3166-1 alpha-2; EL for Greece, XI for Northern Ireland).',
    // Every VAT identifier element of the document counts, also repeated ones the model keeps only once.
    check: (ctx) => {
      const ids =
        ctx.syntax === 'ubl'
          ? descendants(ctx, 'PartyTaxScheme')
              .filter((pts) => (kid(kid(pts, 'TaxScheme'), 'ID')?.text ?? '').trim().toUpperCase() === 'VAT')
              .map((pts) => kid(pts, 'CompanyID'))
          : descendants(ctx, 'SpecifiedTaxRegistration')
              .flatMap((r) => r.children)
              .filter((c) => c.local === 'ID' && attr(c, 'schemeID') === 'VA');
      return ids.filter((el) => el && !vatPrefixOk(ctx.syntax, el.text)).map((el) => ({ location: el ? pathOf(el) : undefined }));
    },
  },
  {
    id: 'BR-CO-10',
    message: 'The sum of invoice line net amounts (BT-106) must equal the sum of all line net amounts (BT-131).',
    check: ({ invoice: i }) => {
      if (!totalsPresent(i)) return NO_VIOLATIONS;
      const t = dec(i.totals.lineNetTotal);
      return unless(t !== undefined && t.eq(round2(sum(i.lines.map((l) => l.netAmount)))), i.totals, 'lineNetTotal');
    },
  },
  {
    id: 'BR-CO-11',
    message: 'The sum of allowances on document level (BT-107) must equal the sum of all document level allowance amounts (BT-92).',
    check: ({ invoice: i }) => {
      if (!totalsPresent(i)) return NO_VIOLATIONS;
      const t = i.totals.allowanceTotal;
      if (t === undefined && i.allowances.length === 0) return NO_VIOLATIONS;
      const d = dec(t);
      return unless(d !== undefined && d.eq(round2(sum(i.allowances.map((a) => a.amount)))), i.totals, 'allowanceTotal');
    },
  },
  {
    id: 'BR-CO-12',
    message: 'The sum of charges on document level (BT-108) must equal the sum of all document level charge amounts (BT-99).',
    check: ({ invoice: i }) => {
      if (!totalsPresent(i)) return NO_VIOLATIONS;
      const t = i.totals.chargeTotal;
      if (t === undefined && i.charges.length === 0) return NO_VIOLATIONS;
      const d = dec(t);
      return unless(d !== undefined && d.eq(round2(sum(i.charges.map((a) => a.amount)))), i.totals, 'chargeTotal');
    },
  },
  {
    id: 'BR-CO-13',
    message:
      'The invoice total without VAT (BT-109) must equal the line net total (BT-106) minus allowances (BT-107) plus charges (BT-108).',
    check: ({ invoice: i }) => {
      if (!totalsPresent(i)) return NO_VIOLATIONS;
      const t = i.totals;
      const te = dec(t.taxExclusiveAmount);
      const ln = dec(t.lineNetTotal);
      let ok = false;
      if (te && ln) {
        const allow = t.allowanceTotal !== undefined ? dec(t.allowanceTotal) : ZERO;
        const charge = t.chargeTotal !== undefined ? dec(t.chargeTotal) : ZERO;
        ok = allow !== undefined && charge !== undefined && te.eq(round2(ln.minus(allow).plus(charge)));
      }
      return unless(ok, t, 'taxExclusiveAmount');
    },
  },
  {
    id: 'BR-CO-14',
    message: 'The invoice total VAT amount (BT-110) must equal the sum of the VAT category tax amounts (BT-117).',
    check: (ctx) => {
      if (ctx.syntax === 'ubl') {
        // Each TaxTotal with subtotals must add up on its own.
        return rootChildren(ctx, 'TaxTotal')
          .filter((tt) => tt.children.some((c) => c.local === 'TaxSubtotal'))
          .filter((tt) => {
            const amount = dec(kid(tt, 'TaxAmount')?.text);
            const subtotal = sum(tt.children.filter((c) => c.local === 'TaxSubtotal').map((st) => kid(st, 'TaxAmount')?.text));
            return amount === undefined || !amount.eq(round2(subtotal));
          })
          .map(locatedAt(pathOf));
      }
      // CII: on each VAT total element in the invoice currency, of any totals element (the model keeps one).
      const settlements = kids(ctx.doc.root, 'SupplyChainTradeTransaction').flatMap((tx) => kids(tx, 'ApplicableHeaderTradeSettlement'));
      const currencies = settlements.flatMap((s) => kids(s, 'InvoiceCurrencyCode')).map((c) => c.text);
      const totals = descendants(ctx, 'SpecifiedTradeSettlementHeaderMonetarySummation')
        .flatMap((s) => kids(s, 'TaxTotalAmount'))
        .filter((t) => currencies.includes(attr(t, 'currencyID') ?? '\u0000'));
      if (totals.length === 0) return NO_VIOLATIONS;
      const expected = round2(
        sum(
          settlements
            .flatMap((s) => kids(s, 'ApplicableTradeTax'))
            .flatMap((t) => kids(t, 'CalculatedAmount'))
            .map((c) => c.text),
        ),
      );
      return totals
        .filter((t) => {
          const d = dec(t.text);
          return d === undefined || !d.eq(expected);
        })
        .map(locatedAt(pathOf));
    },
  },
  {
    id: 'BR-CO-15',
    message: 'The invoice total with VAT (BT-112) must equal the total without VAT (BT-109) plus the total VAT amount (BT-110).',
    check: (ctx) => {
      const { invoice: i, syntax } = ctx;
      if (!present(i.currency)) return NO_VIOLATIONS; // the artefacts quantify over the invoice currency
      const t = i.totals;
      const grand = dec(t.taxInclusiveAmount);
      const basis = dec(t.taxExclusiveAmount);
      const tax = dec(t.taxTotal);
      if (syntax === 'ubl') {
        // Exactly one tax total in the invoice currency is required.
        const amounts = rootChildren(ctx, 'TaxTotal').flatMap((tt) =>
          tt.children.filter((c) => c.local === 'TaxAmount' && attr(c, 'currencyID') === i.currency),
        );
        if (amounts.length !== 1) return unless(false, i);
        const only = dec(amounts[0].text);
        return unless(grand !== undefined && basis !== undefined && only !== undefined && grand.eq(round2(basis.plus(only))), i);
      }
      const withTax = grand !== undefined && basis !== undefined && tax !== undefined && grand.eq(round2(basis.plus(tax)));
      if (syntax === 'cii') {
        const noTax = grand !== undefined && basis !== undefined && grand.eq(basis);
        const inCurrency = descendants(ctx, 'TaxTotalAmount').filter((el) => attr(el, 'currencyID') === i.currency).length;
        return unless((withTax && inCurrency === 1) || noTax, i);
      }
      return unless(withTax, i);
    },
  },
  {
    id: 'BR-CO-16',
    message:
      'The amount due (BT-115) must equal the total with VAT (BT-112) minus the paid amount (BT-113) plus the rounding amount (BT-114).',
    check: ({ invoice: i }) => {
      if (!totalsPresent(i)) return NO_VIOLATIONS;
      const t = i.totals;
      const due = dec(t.amountDue);
      const grand = dec(t.taxInclusiveAmount);
      const paid = t.paidAmount !== undefined ? dec(t.paidAmount) : ZERO;
      const rounding = t.roundingAmount !== undefined ? dec(t.roundingAmount) : ZERO;
      const ok =
        due !== undefined &&
        grand !== undefined &&
        paid !== undefined &&
        rounding !== undefined &&
        round2(due.minus(rounding)).eq(round2(grand.minus(paid)));
      return unless(ok, t, 'amountDue');
    },
  },
  {
    id: 'BR-CO-17',
    message:
      'The VAT category tax amount (BT-117) must equal the taxable amount (BT-116) times the VAT rate (BT-119), rounded to two decimals.',
    check: (ctx) => brCo17(ctx, true),
  },
  {
    id: 'BR-CO-18',
    message: 'The invoice must contain at least one VAT breakdown group (BG-23).',
    check: ({ invoice: i, syntax }) => {
      if (syntax === 'cii' && i.lines.length === 0) return NO_VIOLATIONS;
      return unless(i.vatBreakdown.length > 0, i);
    },
  },
  {
    id: 'BR-CO-19',
    message: 'An invoicing period (BG-14) must have a start date (BT-73) or an end date (BT-74).',
    check: (ctx) => {
      // UBL: every period element other than a line's (the model keeps one).
      if (ctx.syntax === 'ubl')
        return ublPeriods(ctx, false)
          .filter((p) => !['StartDate', 'EndDate', 'DescriptionCode'].some((c) => kid(p, c)))
          .map(locatedAt(pathOf));
      const p = ctx.invoice.invoicingPeriod;
      if (!p) return NO_VIOLATIONS;
      return unless(present(p.start) || present(p.end), p);
    },
  },
  {
    id: 'BR-CO-20',
    message: 'An invoice line period (BG-26) must have a start date (BT-134) or an end date (BT-135).',
    check: (ctx) =>
      ctx.syntax === 'ubl'
        ? ublPeriods(ctx, true)
            .filter((p) => !kid(p, 'StartDate') && !kid(p, 'EndDate'))
            .map(locatedAt(pathOf))
        : each(
            ctx.invoice.lines,
            (l) => !l.period || present(l.period.start) || present(l.period.end),
            (l) => loc(l.period),
          ),
  },
  {
    id: 'BR-CO-21',
    message: 'Each document level allowance must have a reason (BT-97) or a reason code (BT-98), or both.',
    check: (ctx) =>
      each(
        acList(ctx, ctx.invoice.allowances, false),
        (a) => present(a.reason) || present(a.reasonCode),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-CO-22',
    message: 'Each document level charge must have a reason (BT-104) or a reason code (BT-105), or both.',
    check: (ctx) =>
      each(
        acList(ctx, ctx.invoice.charges, true),
        (a) => present(a.reason) || present(a.reasonCode),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-CO-23',
    message: 'Each invoice line allowance must have a reason (BT-139) or a reason code (BT-140), or both.',
    check: (ctx) =>
      each(
        acrossLines(ctx.invoice.lines, (l) => acList(ctx, l.allowances, false)),
        (a) => present(a.reason) || present(a.reasonCode),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-CO-24',
    message: 'Each invoice line charge must have a reason (BT-144) or a reason code (BT-145), or both.',
    check: (ctx) =>
      each(
        acrossLines(ctx.invoice.lines, (l) => acList(ctx, l.charges, true)),
        (a) => present(a.reason) || present(a.reasonCode),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-CO-26',
    message:
      'The seller must be identifiable: give a seller identifier (BT-29), a legal registration identifier (BT-30) or a VAT identifier (BT-31).',
    check: (ctx) => {
      const i = ctx.invoice;
      const s = i.seller;
      // Context: the seller element (UBL: AccountingSupplierParty, even without a Party inside).
      if (ctx.syntax === 'ubl' ? rootChildren(ctx, 'AccountingSupplierParty').length === 0 : !exists(s)) return NO_VIOLATIONS;
      return unless(s.identifiers.length > 0 || present(s.legalRegistrationId) || present(s.vatId), s);
    },
  },
];

export const decimalRules: RuleDef[] = [
  dec2('BR-DEC-01', 'The document level allowance amount (BT-92) may have at most two decimals.', (i, ctx) =>
    acList(ctx, i.allowances, false).map((a) => ({ value: a.amount, of: a, field: 'amount' })),
  ),
  dec2('BR-DEC-02', 'The document level allowance base amount (BT-93) may have at most two decimals.', (i, ctx) =>
    acList(ctx, i.allowances, false).map((a) => ({ value: a.baseAmount, of: a, field: 'baseAmount' })),
  ),
  dec2('BR-DEC-05', 'The document level charge amount (BT-99) may have at most two decimals.', (i, ctx) =>
    acList(ctx, i.charges, true).map((a) => ({ value: a.amount, of: a, field: 'amount' })),
  ),
  dec2('BR-DEC-06', 'The document level charge base amount (BT-100) may have at most two decimals.', (i, ctx) =>
    acList(ctx, i.charges, true).map((a) => ({ value: a.baseAmount, of: a, field: 'baseAmount' })),
  ),
  dec2('BR-DEC-09', 'The sum of invoice line net amounts (BT-106) may have at most two decimals.', totalsField('lineNetTotal')),
  dec2('BR-DEC-10', 'The sum of document level allowances (BT-107) may have at most two decimals.', totalsField('allowanceTotal')),
  dec2('BR-DEC-11', 'The sum of document level charges (BT-108) may have at most two decimals.', totalsField('chargeTotal')),
  dec2('BR-DEC-12', 'The invoice total without VAT (BT-109) may have at most two decimals.', totalsField('taxExclusiveAmount')),
  {
    id: 'BR-DEC-13',
    message: 'The invoice total VAT amount (BT-110) may have at most two decimals.',
    check: (ctx) => {
      const { invoice: i, syntax } = ctx;
      if (syntax === 'ubl') return ublTaxAmountDecimals(ctx, 'DocumentCurrencyCode');
      const v = i.totals.taxTotal;
      if (v === undefined) return NO_VIOLATIONS;
      // CII compares the value with itself rounded (so "1.500" passes); UBL counts the written decimals.
      const d = dec(v);
      const ok = syntax === 'cii' ? d === undefined || d.eq(round2(d)) : fractionDigits(v.trim()) <= 2;
      return unless(ok, i.totals, 'taxTotal');
    },
  },
  dec2('BR-DEC-14', 'The invoice total with VAT (BT-112) may have at most two decimals.', totalsField('taxInclusiveAmount')),
  {
    id: 'BR-DEC-15',
    message: 'The invoice total VAT amount in accounting currency (BT-111) may have at most two decimals.',
    check: (ctx) => {
      const { invoice: i, syntax } = ctx;
      if (syntax === 'ubl') return ublTaxAmountDecimals(ctx, 'TaxCurrencyCode');
      const v = i.totals.taxTotalAccountingCurrency;
      // CII asks that one of the VAT totals be in the accounting currency (BT-6) when that is given: VAT totals present
      // with BT-6 but none in it fail, as the official test's predicate then selects nothing.
      if (v === undefined)
        return unless(
          !(syntax === 'cii' && i.vatAccountingCurrency !== undefined && i.totals.taxTotal !== undefined),
          i.totals,
          'taxTotal',
        );
      const d = dec(v);
      const ok = syntax === 'cii' ? d === undefined || d.eq(round2(d)) : fractionDigits(v.trim()) <= 2;
      return unless(ok, i.totals, 'taxTotalAccountingCurrency');
    },
  },
  dec2('BR-DEC-16', 'The paid amount (BT-113) may have at most two decimals.', totalsField('paidAmount')),
  dec2('BR-DEC-17', 'The rounding amount (BT-114) may have at most two decimals.', totalsField('roundingAmount')),
  dec2('BR-DEC-18', 'The amount due for payment (BT-115) may have at most two decimals.', totalsField('amountDue')),
  dec2('BR-DEC-19', 'The VAT category taxable amount (BT-116) may have at most two decimals.', (i) =>
    i.vatBreakdown.map((b) => ({ value: b.taxableAmount, of: b, field: 'taxableAmount' })),
  ),
  dec2('BR-DEC-20', 'The VAT category tax amount (BT-117) may have at most two decimals.', (i) =>
    i.vatBreakdown.map((b) => ({ value: b.taxAmount, of: b, field: 'taxAmount' })),
  ),
  dec2('BR-DEC-23', 'The invoice line net amount (BT-131) may have at most two decimals.', (i) =>
    i.lines.map((l) => ({ value: l.netAmount, of: l, field: 'netAmount' })),
  ),
  dec2('BR-DEC-24', 'The invoice line allowance amount (BT-136) may have at most two decimals.', (i, ctx) =>
    acrossLines(i.lines, (l) => acList(ctx, l.allowances, false)).map((a) => ({ value: a.amount, of: a, field: 'amount' })),
  ),
  dec2('BR-DEC-25', 'The invoice line allowance base amount (BT-137) may have at most two decimals.', (i, ctx) =>
    acrossLines(i.lines, (l) => acList(ctx, l.allowances, false)).map((a) => ({ value: a.baseAmount, of: a, field: 'baseAmount' })),
  ),
  dec2('BR-DEC-27', 'The invoice line charge amount (BT-141) may have at most two decimals.', (i, ctx) =>
    acrossLines(i.lines, (l) => acList(ctx, l.charges, true)).map((a) => ({ value: a.amount, of: a, field: 'amount' })),
  ),
  dec2('BR-DEC-28', 'The invoice line charge base amount (BT-142) may have at most two decimals.', (i, ctx) =>
    acrossLines(i.lines, (l) => acList(ctx, l.charges, true)).map((a) => ({ value: a.baseAmount, of: a, field: 'baseAmount' })),
  ),
];

export const splitPaymentRules: RuleDef[] = [
  {
    id: 'BR-B-01',
    message: 'Split payment (VAT category B) is only allowed when all countries on the invoice are Italy (IT).',
    check: ({ invoice: i }) => {
      if (!allCategories(i).includes('B')) return NO_VIOLATIONS;
      return unless(
        allCountries(i).every((c) => c === 'IT'),
        i,
      );
    },
  },
  {
    id: 'BR-B-02',
    message: 'An invoice with split payment (VAT category B) must not also use the standard rated category (S).',
    check: ({ invoice: i }) => {
      const cats = allCategories(i);
      return unless(!(cats.includes('B') && cats.includes('S')), i);
    },
  },
];

export { filled };
