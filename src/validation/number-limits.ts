/**
 * Numbers of an invoice longer than the service reads (MAX_DECIMAL_LENGTH, src/model/decimal.ts), named
 * as findings. parseDec reads such a value as unreadable, so no rule spends time on it (a 100,000-digit
 * amount cost seconds in big.js); this layer says why the value was not read, at its location, so that
 * the report names the field instead of only the knock-on findings of the rules that needed it.
 *
 * It checks the decimals of the model (the BT-s the business rules compute with): a few dozen length
 * comparisons per invoice.
 */
import { decimalTooLong, MAX_DECIMAL_LENGTH } from '../model/decimal.js';
import type { Invoice, Located } from '../model/invoice.js';
import type { Finding } from '../rules/types.js';
import { locationOf } from '../syntax/reader-helpers.js';

export const NUMBER_TOO_LONG = 'NUMBER_TOO_LONG';
export const INPUT_LIMITS_RULE_SET = 'input-limits';

const TOTALS = [
  ['lineNetTotal', 'BT-106'],
  ['allowanceTotal', 'BT-107'],
  ['chargeTotal', 'BT-108'],
  ['taxExclusiveAmount', 'BT-109'],
  ['taxTotal', 'BT-110'],
  ['taxTotalAccountingCurrency', 'BT-111'],
  ['taxInclusiveAmount', 'BT-112'],
  ['paidAmount', 'BT-113'],
  ['roundingAmount', 'BT-114'],
  ['amountDue', 'BT-115'],
] as const;
const BREAKDOWN = [
  ['taxableAmount', 'BT-116'],
  ['taxAmount', 'BT-117'],
  ['rate', 'BT-119'],
] as const;
const DOC_ALLOWANCE = [
  ['amount', 'BT-92/BT-99'],
  ['baseAmount', 'BT-93/BT-100'],
  ['percentage', 'BT-94/BT-101'],
  ['vatRate', 'BT-96/BT-103'],
] as const;
const LINE = [
  ['quantity', 'BT-129'],
  ['netAmount', 'BT-131'],
  ['netPrice', 'BT-146'],
  ['priceDiscount', 'BT-147'],
  ['grossPrice', 'BT-148'],
  ['priceBaseQuantity', 'BT-149'],
  ['vatRate', 'BT-152'],
] as const;
const LINE_ALLOWANCE = [
  ['amount', 'BT-136/BT-141'],
  ['baseAmount', 'BT-137/BT-142'],
  ['percentage', 'BT-138/BT-143'],
] as const;

function check(out: Finding[], obj: Located, fields: readonly (readonly [string, string])[]): void {
  const values = obj as unknown as Record<string, unknown>;
  for (const [field, bt] of fields) {
    const v = values[field];
    if (typeof v !== 'string' || v.length <= MAX_DECIMAL_LENGTH || !decimalTooLong(v)) continue;
    const location = locationOf(obj, field);
    out.push({
      ruleId: NUMBER_TOO_LONG,
      severity: 'error',
      message: `${bt} has a number of ${v.trim().length} characters; numbers of more than ${MAX_DECIMAL_LENGTH} characters are not read (limit MAX_DECIMAL_LENGTH).`,
      ...(location ? { location } : {}),
      ruleSet: INPUT_LIMITS_RULE_SET,
    });
  }
}

/** Findings for each decimal of the invoice that is longer than MAX_DECIMAL_LENGTH (usually none). */
export function overlongNumbers(invoice: Invoice): Finding[] {
  const out: Finding[] = [];
  check(out, invoice.totals, TOTALS);
  for (const b of invoice.vatBreakdown) check(out, b, BREAKDOWN);
  for (const a of invoice.allowances) check(out, a, DOC_ALLOWANCE);
  for (const c of invoice.charges) check(out, c, DOC_ALLOWANCE);
  for (const l of invoice.lines) {
    check(out, l, LINE);
    for (const a of l.allowances) check(out, a, LINE_ALLOWANCE);
    for (const c of l.charges) check(out, c, LINE_ALLOWANCE);
  }
  return out;
}
