/**
 * The values a calculation or consistency rule compared, for the pro diagnostics' `context.compared`:
 * e.g. for BR-CO-10 the line net amounts, their sum, the stated BT-106 and the difference. Computed from the
 * model after the rules ran, only for findings of these rules and only when diagnostics are asked for
 * (ValidateOptions.explain), so an honest invoice never pays for it. Amounts are decimal strings (big.js).
 */
import type { Dec, Invoice, InvoiceLine, VatBreakdown } from '../../model/invoice.js';
import { dec, round2, sum, ZERO, HUNDRED, ONE } from '../../rules/en16931/helpers.js';
import { locationOf } from '../../syntax/reader-helpers.js';
import type { BigValue } from '../../model/decimal.js';

export type Compared = Record<string, unknown>;

/** At most this many amounts are listed per term (an invoice can have 100,000 lines); `count` gives them all. */
const MAX_LISTED = 50;

function listed(values: (Dec | undefined)[]): { values: string[]; count: number; truncated?: true } {
  const present = values.filter((v): v is string => v !== undefined).map((v) => v.trim());
  return present.length > MAX_LISTED
    ? { values: present.slice(0, MAX_LISTED), count: present.length, truncated: true }
    : { values: present, count: present.length };
}

/** An amount as a decimal string with at least two decimals (and all the digits it has beyond). */
function money(v: BigValue): string {
  return v.toFixed(Math.max(2, v.c.length - v.e - 1));
}

const str = (v: BigValue | undefined): string | null => (v === undefined ? null : money(v));
const stated = (v: Dec | undefined): string | null => (v === undefined ? null : v.trim());

function difference(statedValue: Dec | undefined, expected: BigValue | undefined): string | null {
  const s = dec(statedValue);
  return s === undefined || expected === undefined ? null : money(s.minus(expected));
}

/** A total compared with the sum of its items (BR-CO-10/11/12/14). */
function totalOfItems(itemTerm: string, items: (Dec | undefined)[], totalTerm: string, total: Dec | undefined): Compared {
  const exact = sum(items);
  const expected = round2(exact);
  return {
    [itemTerm]: listed(items),
    sum: money(exact),
    expected: money(expected),
    [totalTerm]: stated(total),
    difference: difference(total, expected),
  };
}

function breakdownAt(invoice: Invoice, location: string | undefined): VatBreakdown | undefined {
  if (!location) return undefined;
  return invoice.vatBreakdown.find((b) => locationOf(b) === location || location.startsWith(`${locationOf(b)}/`));
}

function lineAt(invoice: Invoice, location: string | undefined): InvoiceLine | undefined {
  if (!location) return undefined;
  return invoice.lines.find((l) => {
    const at = locationOf(l);
    return at !== undefined && (at === location || location.startsWith(`${at}/`));
  });
}

const sameRate = (a: Dec | undefined, b: Dec | undefined): boolean => {
  const x = dec(a);
  const y = dec(b);
  return x === undefined || y === undefined ? x === y : x.eq(y);
};

/** BR-<cat>-08: the taxable amount of one category (and rate) against its lines, allowances and charges. */
function taxableOfCategory(invoice: Invoice, b: VatBreakdown, withRate: boolean): Compared {
  const code = b.categoryCode;
  const inGroup = (c: string | undefined, r: Dec | undefined) => c === code && (!withRate || sameRate(r, b.rate));
  const lines = invoice.lines.filter((l) => inGroup(l.vatCategoryCode, l.vatRate)).map((l) => l.netAmount);
  const charges = invoice.charges.filter((c) => inGroup(c.vatCategoryCode, c.vatRate)).map((c) => c.amount);
  const allowances = invoice.allowances.filter((a) => inGroup(a.vatCategoryCode, a.vatRate)).map((a) => a.amount);
  const expected = round2(sum(lines).plus(sum(charges)).minus(sum(allowances)));
  return {
    'BT-118': code ?? null,
    ...(withRate ? { 'BT-119': stated(b.rate) } : {}),
    'BT-131': listed(lines),
    'BT-99': listed(charges),
    'BT-92': listed(allowances),
    expected: money(expected),
    'BT-116': stated(b.taxableAmount),
    difference: difference(b.taxableAmount, expected),
  };
}

function taxOfBreakdown(b: VatBreakdown): Compared {
  const basis = dec(b.taxableAmount);
  const rate = dec(b.rate);
  const expected = basis !== undefined && rate !== undefined ? round2(basis.times(rate).div(HUNDRED)) : undefined;
  return {
    'BT-118': b.categoryCode ?? null,
    'BT-116': stated(b.taxableAmount),
    'BT-119': stated(b.rate),
    expected: str(expected),
    'BT-117': stated(b.taxAmount),
    difference: difference(b.taxAmount, expected),
  };
}

const orZero = (v: Dec | undefined): BigValue | undefined => (v === undefined ? ZERO : dec(v));

/** The compared values for a finding of `ruleId` at `location`, or undefined when the rule has none to show. */
export function comparedValues(ruleId: string, invoice: Invoice, location: string | undefined): Compared | undefined {
  const t = invoice.totals;
  switch (ruleId) {
    case 'BR-CO-10':
      return totalOfItems(
        'BT-131',
        invoice.lines.map((l) => l.netAmount),
        'BT-106',
        t.lineNetTotal,
      );
    case 'BR-CO-11':
      return totalOfItems(
        'BT-92',
        invoice.allowances.map((a) => a.amount),
        'BT-107',
        t.allowanceTotal,
      );
    case 'BR-CO-12':
      return totalOfItems(
        'BT-99',
        invoice.charges.map((c) => c.amount),
        'BT-108',
        t.chargeTotal,
      );
    case 'BR-CO-14':
      return totalOfItems(
        'BT-117',
        invoice.vatBreakdown.map((b) => b.taxAmount),
        'BT-110',
        t.taxTotal,
      );
    case 'BR-CO-13': {
      const ln = dec(t.lineNetTotal);
      const a = orZero(t.allowanceTotal);
      const c = orZero(t.chargeTotal);
      const expected = ln && a && c ? round2(ln.minus(a).plus(c)) : undefined;
      return {
        'BT-106': stated(t.lineNetTotal),
        'BT-107': stated(t.allowanceTotal),
        'BT-108': stated(t.chargeTotal),
        expected: str(expected),
        'BT-109': stated(t.taxExclusiveAmount),
        difference: difference(t.taxExclusiveAmount, expected),
      };
    }
    case 'BR-CO-15': {
      const basis = dec(t.taxExclusiveAmount);
      const tax = orZero(t.taxTotal);
      const expected = basis && tax ? round2(basis.plus(tax)) : undefined;
      return {
        'BT-109': stated(t.taxExclusiveAmount),
        'BT-110': stated(t.taxTotal),
        expected: str(expected),
        'BT-112': stated(t.taxInclusiveAmount),
        difference: difference(t.taxInclusiveAmount, expected),
      };
    }
    case 'BR-CO-16': {
      const grand = dec(t.taxInclusiveAmount);
      const paid = orZero(t.paidAmount);
      const rounding = orZero(t.roundingAmount);
      const expected = grand && paid && rounding ? round2(grand.minus(paid).plus(rounding)) : undefined;
      return {
        'BT-112': stated(t.taxInclusiveAmount),
        'BT-113': stated(t.paidAmount),
        'BT-114': stated(t.roundingAmount),
        expected: str(expected),
        'BT-115': stated(t.amountDue),
        difference: difference(t.amountDue, expected),
      };
    }
    case 'BR-CO-18': {
      // What the missing VAT breakdown would have to cover: the categories and rates in use.
      const used = new Set<string>();
      for (const l of invoice.lines) used.add(`${l.vatCategoryCode ?? '?'} ${l.vatRate?.trim() ?? ''}`.trim());
      for (const a of invoice.allowances) used.add(`${a.vatCategoryCode ?? '?'} ${a.vatRate?.trim() ?? ''}`.trim());
      for (const c of invoice.charges) used.add(`${c.vatCategoryCode ?? '?'} ${c.vatRate?.trim() ?? ''}`.trim());
      return { 'BG-23': invoice.vatBreakdown.length, categories_and_rates_used: [...used].slice(0, MAX_LISTED) };
    }
    case 'BR-CO-17': {
      const b = breakdownAt(invoice, location);
      return b ? taxOfBreakdown(b) : undefined;
    }
    case 'PEPPOL-EN16931-R120': {
      const line = lineAt(invoice, location);
      if (!line) return undefined;
      const qty = line.quantity === undefined ? ONE : dec(line.quantity);
      const price = orZero(line.netPrice);
      const baseGiven = line.priceBaseQuantity === undefined ? ONE : dec(line.priceBaseQuantity);
      const base = baseGiven === undefined || baseGiven.eq(ZERO) ? ONE : baseGiven;
      const charges = line.charges.map((c) => c.amount);
      const allowances = line.allowances.map((a) => a.amount);
      const expected = qty && price ? round2(qty.times(price).div(base).plus(sum(charges)).minus(sum(allowances))) : undefined;
      return {
        'BT-129': stated(line.quantity),
        'BT-146': stated(line.netPrice),
        'BT-149': stated(line.priceBaseQuantity),
        'BT-141': listed(charges),
        'BT-136': listed(allowances),
        expected: str(expected),
        'BT-131': stated(line.netAmount),
        difference: difference(line.netAmount, expected),
      };
    }
    case 'PEPPOL-EN16931-R046': {
      const line = lineAt(invoice, location);
      if (!line) return undefined;
      const gross = dec(line.grossPrice);
      const discount = orZero(line.priceDiscount);
      const expected = gross && discount ? gross.minus(discount) : undefined;
      return {
        'BT-148': stated(line.grossPrice),
        'BT-147': stated(line.priceDiscount),
        expected: str(expected),
        'BT-146': stated(line.netPrice),
        difference: difference(line.netPrice, expected),
      };
    }
  }
  const vat = /^BR-(S|Z|E|AE|IC|G|O|AF|AG)-(08|09)$/.exec(ruleId);
  if (vat) {
    const b = breakdownAt(invoice, location);
    if (!b) return undefined;
    if (vat[2] === '09') return taxOfBreakdown(b);
    return taxableOfCategory(invoice, b, vat[1] === 'S' || vat[1] === 'AF' || vat[1] === 'AG');
  }
  return undefined;
}
