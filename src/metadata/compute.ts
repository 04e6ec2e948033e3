/**
 * Derived values of an EN 16931 invoice, computed with the standard's rounding (half-up to 2 decimals):
 * line net amounts (BT-131), document allowance/charge amounts, VAT breakdown (BG-23) and document totals (BG-22).
 * Values the caller gave are kept when they agree with the computation and reported when they do not.
 */
import { Big, type BigValue, decOrZero, parseDec, toFixedHalfUp } from '../model/decimal.js';
import type { DocumentAllowanceCharge, Invoice, InvoiceLine, LineAllowanceCharge, VatBreakdown } from '../model/invoice.js';
import type { ContentIssue } from './errors.js';

const ZERO = new Big('0');
const HUNDRED = new Big('100');
const ONE = new Big('1');

/** Categories whose VAT amount is always zero. */
const NO_VAT_CATEGORIES = new Set(['Z', 'E', 'AE', 'K', 'G', 'O']);

/** Key of a VAT breakdown group: category plus numeric rate ("19" and "19.00" are one group). */
export function vatKey(category: string | undefined, rate: string | undefined): string {
  const raw = `${category ?? ''}|${rate ?? ''}`;
  let key = vatKeys.get(raw);
  if (key === undefined) {
    const r = parseDec(rate);
    key = `${category ?? ''}|${r ? r.toFixed() : ''}`;
    // A handful of category/rate spellings per process: memoise the decimal normalisation.
    if (vatKeys.size < 1000) vatKeys.set(raw, key);
  }
  return key;
}
const vatKeys = new Map<string, string>();

/** Amount of an allowance/charge: given, or base × percentage / 100 rounded; fills `amount` in place. */
function settleAllowanceCharge(
  ac: LineAllowanceCharge | DocumentAllowanceCharge,
  defaultBase: BigValue | undefined,
  field: string,
  issues: ContentIssue[],
): BigValue {
  const pct = parseDec(ac.percentage);
  if (pct && !ac.baseAmount && defaultBase) ac.baseAmount = toFixedHalfUp(defaultBase);
  const base = parseDec(ac.baseAmount);
  const computed = pct && base ? base.times(pct).div(HUNDRED).round(2, Big.roundHalfUp) : undefined;
  if (ac.amount === undefined) {
    ac.amount = toFixedHalfUp(computed ?? ZERO);
  } else if (computed && !computed.eq(decOrZero(ac.amount))) {
    issues.push({
      field: `${field}.amount`,
      message: 'amount differs from base_amount × percentage / 100',
      rule: 'PEPPOL-EN16931-R040',
      given: ac.amount,
      expected: toFixedHalfUp(computed),
    });
  }
  return decOrZero(ac.amount);
}

/** BT-131 = quantity × net price / base quantity (rounded) + line charges − line allowances. */
export function computeLine(line: InvoiceLine, field: string, issues: ContentIssue[]): BigValue {
  const qty = decOrZero(line.quantity);
  const net = decOrZero(line.netPrice);
  const baseQty = parseDec(line.priceBaseQuantity);
  // Division is big.js's slow path (20 decimal places): skip it for the usual base quantity of 1.
  const priced = baseQty && !baseQty.eq(ONE) ? qty.times(net).div(baseQty) : qty.times(net);
  const gross = priced.round(2, Big.roundHalfUp);
  let total = gross;
  for (const [j, a] of line.allowances.entries()) total = total.minus(settleAllowanceCharge(a, gross, `${field}.allowances[${j}]`, issues));
  for (const [j, c] of line.charges.entries()) total = total.plus(settleAllowanceCharge(c, gross, `${field}.charges[${j}]`, issues));
  if (line.netAmount === undefined) {
    line.netAmount = toFixedHalfUp(total);
    return total;
  }
  const given = decOrZero(line.netAmount);
  if (!given.eq(total)) {
    issues.push({
      field: `${field}.line_total`,
      message: 'line_total differs from quantity × net_price / price_base_quantity + charges − allowances',
      given: line.netAmount,
      expected: toFixedHalfUp(total),
    });
  }
  return given;
}

interface Group {
  category: string;
  rate?: string;
  taxable: BigValue;
  /** The exemption reason of the lines of this group (lines that state one: sub-lines of multi-vendor invoices). */
  reason?: string;
  reasonCode?: string;
}

/** A line that counts in the totals and the VAT breakdown: DETAIL or no subtype (GROUP and INFORMATION lines do not). */
export const countsInTotals = (line: InvoiceLine): boolean => line.subtype === undefined || line.subtype === 'DETAIL';

/**
 * Fill line amounts, allowance/charge amounts, the VAT breakdown and the document totals of `invoice` in place.
 * `given` holds the caller's values (breakdown and totals) to check; issues list every disagreement.
 */
export function completeInvoice(
  invoice: Invoice,
  given: { breakdown: VatBreakdown[]; totals: Invoice['totals'] },
  options: { hasLines: boolean },
): ContentIssue[] {
  const issues: ContentIssue[] = [];
  const t = invoice.totals;
  const groups = new Map<string, Group>();
  const group = (category: string, rate: string | undefined, reason?: string, reasonCode?: string) => {
    const key = vatKey(category, rate) + (reason || reasonCode ? `\u0000${reason ?? ''}\u0000${reasonCode ?? ''}` : '');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { category, rate, taxable: ZERO, reason, reasonCode }));
    return g;
  };

  let lineTotal = ZERO;
  for (const [i, line] of invoice.lines.entries()) {
    const amount = computeLine(line, `line_items[${i}]`, issues);
    if (!countsInTotals(line)) continue;
    lineTotal = lineTotal.plus(amount);
    const g = group(line.vatCategoryCode ?? 'S', line.vatRate, line.vatExemptionReason, line.vatExemptionReasonCode);
    g.taxable = g.taxable.plus(amount);
  }
  groupTotalsAgree(invoice, issues);

  let allowanceTotal = ZERO;
  let chargeTotal = ZERO;
  // Percentages of document allowances/charges apply to the line total by default.
  for (const [j, a] of invoice.allowances.entries()) {
    const amount = settleAllowanceCharge(a, options.hasLines ? lineTotal : undefined, `allowances[${j}]`, issues);
    allowanceTotal = allowanceTotal.plus(amount);
    if (options.hasLines)
      group(a.vatCategoryCode ?? 'S', a.vatRate).taxable = group(a.vatCategoryCode ?? 'S', a.vatRate).taxable.minus(amount);
  }
  for (const [j, c] of invoice.charges.entries()) {
    const amount = settleAllowanceCharge(c, options.hasLines ? lineTotal : undefined, `charges[${j}]`, issues);
    chargeTotal = chargeTotal.plus(amount);
    if (options.hasLines)
      group(c.vatCategoryCode ?? 'S', c.vatRate).taxable = group(c.vatCategoryCode ?? 'S', c.vatRate).taxable.plus(amount);
  }

  // BG-23: computed from the lines, or taken from the caller when there are no lines (MINIMUM / BASIC WL).
  const breakdown: VatBreakdown[] = [];
  const givenByKey = new Map(given.breakdown.map((b) => [vatKey(b.categoryCode, b.rate), b]));
  if (options.hasLines) {
    for (const g of groups.values()) {
      const key = vatKey(g.category, g.rate);
      const own = g.reason !== undefined || g.reasonCode !== undefined;
      const rate = parseDec(g.rate) ?? ZERO;
      const tax = NO_VAT_CATEGORIES.has(g.category) ? ZERO : g.taxable.times(rate).div(HUNDRED).round(2, Big.roundHalfUp);
      const entry: VatBreakdown = {
        categoryCode: g.category,
        rate: g.rate,
        taxableAmount: toFixedHalfUp(g.taxable),
        taxAmount: toFixedHalfUp(tax),
      };
      // A group of lines with their own exemption reason (a multi-vendor invoice's third-party lines) is a breakdown
      // of its own with that reason; the caller's breakdown entries describe the other groups.
      if (own) {
        entry.exemptionReason = g.reason;
        entry.exemptionReasonCode = g.reasonCode;
        breakdown.push(entry);
        continue;
      }
      const mine = givenByKey.get(key);
      const where = `tax_breakdown[${mine ? given.breakdown.indexOf(mine) : '?'}]`;
      if (mine) {
        givenByKey.delete(key);
        if (mine.taxableAmount !== undefined && !decOrZero(mine.taxableAmount).eq(g.taxable)) {
          issues.push({
            field: `${where}.basis_amount`,
            message: `taxable amount of VAT category ${g.category}${g.rate ? ` at ${g.rate} %` : ''} differs from the sum of its lines, allowances and charges`,
            rule: `BR-${ruleCat(g.category)}-08`,
            given: mine.taxableAmount,
            expected: entry.taxableAmount,
          });
        }
        if (mine.taxAmount !== undefined) {
          // BR-CO-17 tolerates a difference below one unit; keep the caller's amount inside that band.
          const diff = decOrZero(mine.taxAmount).minus(tax).abs();
          if (NO_VAT_CATEGORIES.has(g.category) ? !diff.eq(ZERO) : diff.gte(new Big('1'))) {
            issues.push({
              field: `${where}.tax_amount`,
              message: `VAT amount of category ${g.category}${g.rate ? ` at ${g.rate} %` : ''} differs from taxable amount × rate`,
              rule: NO_VAT_CATEGORIES.has(g.category) ? `BR-${ruleCat(g.category)}-09` : 'BR-CO-17',
              given: mine.taxAmount,
              expected: entry.taxAmount,
            });
          } else {
            entry.taxAmount = mine.taxAmount;
          }
        }
        entry.exemptionReason = mine.exemptionReason;
        entry.exemptionReasonCode = mine.exemptionReasonCode;
      }
      breakdown.push(entry);
    }
    for (const rest of givenByKey.values()) {
      issues.push({
        field: `tax_breakdown[${given.breakdown.indexOf(rest)}]`,
        message: `no line, allowance or charge uses VAT category ${rest.categoryCode}${rest.rate ? ` at ${rest.rate} %` : ''}`,
        rule: 'BR-CO-18',
      });
    }
  } else {
    for (const b of given.breakdown) breakdown.push({ ...b });
  }
  invoice.vatBreakdown = breakdown;

  // BG-22 document totals.
  const taxTotal = breakdown.reduce((sum, b) => sum.plus(decOrZero(b.taxAmount)), ZERO);
  const computedTotals: Record<string, BigValue | undefined> = {};
  if (options.hasLines) {
    computedTotals.lineNetTotal = lineTotal;
    computedTotals.taxExclusiveAmount = lineTotal.minus(allowanceTotal).plus(chargeTotal);
    computedTotals.taxTotal = taxTotal;
  } else if (breakdown.length && breakdown.every((b) => b.taxableAmount !== undefined)) {
    computedTotals.taxExclusiveAmount = breakdown.reduce((sum, b) => sum.plus(decOrZero(b.taxableAmount)), ZERO);
    computedTotals.taxTotal = taxTotal;
  } else {
    computedTotals.taxExclusiveAmount = parseDec(given.totals.taxExclusiveAmount);
    computedTotals.taxTotal = parseDec(given.totals.taxTotal);
  }
  if (!computedTotals.lineNetTotal && computedTotals.taxExclusiveAmount) {
    computedTotals.lineNetTotal = computedTotals.taxExclusiveAmount.plus(allowanceTotal).minus(chargeTotal);
  }
  computedTotals.allowanceTotal = allowanceTotal;
  computedTotals.chargeTotal = chargeTotal;
  const net = computedTotals.taxExclusiveAmount ?? ZERO;
  const vat = computedTotals.taxTotal ?? ZERO;
  computedTotals.taxInclusiveAmount = net.plus(vat);
  const paid = decOrZero(given.totals.paidAmount);
  const rounding = decOrZero(given.totals.roundingAmount);
  computedTotals.amountDue = computedTotals.taxInclusiveAmount.minus(paid).plus(rounding);

  const checks: [Exclude<keyof Invoice['totals'], '$loc'>, string, string][] = [
    ['lineNetTotal', 'line_total_amount', 'BR-CO-10'],
    ['allowanceTotal', 'allowance_total_amount', 'BR-CO-11'],
    ['chargeTotal', 'charge_total_amount', 'BR-CO-12'],
    ['taxExclusiveAmount', 'total_net_amount', 'BR-CO-13'],
    ['taxTotal', 'total_tax_amount', 'BR-CO-14'],
    ['taxInclusiveAmount', 'total_gross_amount', 'BR-CO-15'],
    ['amountDue', 'amount_due', 'BR-CO-16'],
  ];
  for (const [key, field, rule] of checks) {
    const value = computedTotals[key];
    const mine = given.totals[key];
    if (value === undefined) continue;
    if (mine !== undefined && !decOrZero(mine).eq(value)) {
      issues.push({
        field,
        message: `${field} differs from the value computed from the invoice content`,
        rule,
        given: mine,
        expected: toFixedHalfUp(value),
      });
    }
    t[key] = mine ?? toFixedHalfUp(value);
  }
  // Allowance/charge totals are written only when there are allowances/charges.
  if (!invoice.allowances.length && given.totals.allowanceTotal === undefined) delete t.allowanceTotal;
  if (!invoice.charges.length && given.totals.chargeTotal === undefined) delete t.chargeTotal;
  if (given.totals.paidAmount !== undefined) t.paidAmount = given.totals.paidAmount;
  if (given.totals.roundingAmount !== undefined) t.roundingAmount = given.totals.roundingAmount;
  if (given.totals.taxTotalAccountingCurrency !== undefined) t.taxTotalAccountingCurrency = given.totals.taxTotalAccountingCurrency;
  return issues;
}

/** Category letter(s) as used in the BR-<x>-nn rule ids. */
function ruleCat(category: string): string {
  return category === 'K' ? 'IC' : category === 'L' ? 'AF' : category === 'M' ? 'AG' : category;
}

/**
 * BR-FREXT-08 / BR-FXEXT-08: a GROUP line's net amount is the sum of the net amounts of its DETAIL and GROUP sub-lines.
 * Sub-lines name their parent by its id (parent_line_id).
 */
function groupTotalsAgree(invoice: Invoice, issues: ContentIssue[]): void {
  for (const [i, g] of invoice.lines.entries()) {
    if (g.subtype !== 'GROUP' || g.netAmount === undefined) continue;
    const children = invoice.lines.filter((c) => c.parentLineId === g.id && (c.subtype === 'DETAIL' || c.subtype === 'GROUP'));
    if (children.length === 0) continue;
    const sum = children.reduce((acc, c) => acc.plus(decOrZero(c.netAmount)), ZERO);
    if (!decOrZero(g.netAmount).eq(sum)) {
      issues.push({
        field: `line_items[${i}].line_total`,
        message: 'the net amount of a GROUP line must equal the sum of the net amounts of its DETAIL and GROUP sub-lines',
        rule: 'BR-FREXT-08',
        given: g.netAmount,
        expected: toFixedHalfUp(sum),
      });
    }
  }
}
