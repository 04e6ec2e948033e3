/**
 * Model → BusinessReadyInvoice (the pro ERP JSON, schema 1.0.0), with every fallback listed.
 *
 * Normalized: money has two decimals ("473" → "473.00") unless that would lose precision; quantities,
 * prices and rates are canonical decimals without trailing zeros ("20.0000" → "20").
 *
 * Nothing is invented silently: each value that is not read as-is from the invoice (a default, a
 * placeholder, a value derived from other values, a coerced value) is reported in `fallbacks` with
 * the stable dot-path of the field, what was wrong with the source, and the value applied.
 */
import type { Address, DocumentAllowanceCharge, Invoice, InvoiceLine, LineAllowanceCharge, Party } from '../model/invoice.js';
import { parseDec, sumDec, toFixedHalfUp, type BigValue } from '../model/decimal.js';
import type { ProfileId } from '../model/profiles.js';
import type { InvoiceFormat } from '../input/types.js';
import { unitLabel } from './unit-labels.js';

/**
 * 1.1.0 added optional members, present only when the invoice has them, so that a serialized invoice sent back to
 * /v1/xml re-issues with the same totals and lines: line `price_base_quantity`, `allowances`, `charges`; document
 * `allowances`, `charges`, `paid_amount`, `rounding_amount`, `payment_terms`, `payment`, `tax_currency`,
 * `tax_total_in_tax_currency`, `delivery`, `invoice_period`; party `electronic_address`, `contact`; breakdown exemption reasons. Their names and
 * shapes are the InvoiceMetadata ones.
 */
export const SCHEMA_VERSION = '1.1.0';

export type FallbackType =
  | 'default_value'
  | 'placeholder_value'
  | 'derived_value'
  | 'coercion'
  | 'xml_parser_recovery'
  | 'line_skipped'
  | 'line_truncated';
export type OriginalState = 'missing' | 'invalid' | 'malformed' | 'unparseable' | 'truncated';

export interface FallbackApplied {
  field: string;
  fallback_type: FallbackType;
  original_state: OriginalState;
  applied_value: string | number | boolean | null;
}

export interface BusinessAddress {
  line1: string;
  line2: string | null;
  city: string;
  postcode: string;
  country_code: string;
}

export interface BusinessParty {
  name: string;
  vat_number: string | null;
  registration_id: string | null;
  address: BusinessAddress | null;
  email: string | null;
  /** BT-34 / BT-49 (since 1.1.0, when present). */
  electronic_address?: { id: string; scheme?: string };
  /** BG-6 / BG-9 (since 1.1.0, when present). */
  contact?: { name?: string; department?: string; phone?: string; email?: string };
}

/** BG-16 in the metadata's shape (since 1.1.0). */
export interface BusinessPayment {
  means_code: string;
  means_text?: string;
  remittance_information?: string;
  credit_transfers?: { iban?: string; account_id?: string; account_name?: string; bic?: string }[];
  card?: { account_number: string; holder_name?: string };
  direct_debit?: { mandate_reference: string; creditor_id: string; debited_account: string };
}

export interface BusinessLineItem {
  name: string;
  description: string | null;
  quantity: string;
  unit_code: string;
  unit_label: string | null;
  net_price: string;
  line_total: string;
  vat_rate: string;
  vat_category: string;
  /** BT-149, when not 1 (since 1.1.0). */
  price_base_quantity?: string;
  /** BG-27 / BG-28 (since 1.1.0, when present). */
  allowances?: BusinessAllowanceCharge[];
  charges?: BusinessAllowanceCharge[];
}

/** A line or document allowance/charge (since 1.1.0). VAT members on document level only. */
export interface BusinessAllowanceCharge {
  amount: string;
  base_amount?: string;
  percentage?: string;
  vat_category?: string;
  vat_rate?: string;
  reason?: string;
  reason_code?: string;
}

export interface BusinessTaxBreakdown {
  category: string;
  rate: string;
  basis_amount: string;
  tax_amount: string;
  /** BT-120 / BT-121 (since 1.1.0, when present). */
  exemption_reason?: string;
  exemption_reason_code?: string;
}

export interface BusinessReadyInvoice {
  invoice_number: string;
  invoice_date: string;
  due_date: string | null;
  currency: string;
  buyer_reference: string | null;
  contract_reference: string | null;
  seller: BusinessParty;
  buyer: BusinessParty;
  line_items: BusinessLineItem[];
  tax_breakdown: BusinessTaxBreakdown[];
  total_net_amount: string;
  total_tax_amount: string;
  total_gross_amount: string;
  amount_due: string;
  format: InvoiceFormat;
  profile: 'minimum' | 'basic' | 'en16931' | 'extended' | 'xrechnung_3.0';
  /** Since 1.1.0, each only when the invoice has it: BG-20, BG-21, BT-113, BT-114, BT-20. */
  allowances?: BusinessAllowanceCharge[];
  charges?: BusinessAllowanceCharge[];
  paid_amount?: string;
  rounding_amount?: string;
  payment_terms?: string;
  /** Since 1.1.0, when present: BG-13 (BT-70, BT-72, BG-15), BG-14, BG-16, BT-6, BT-111. */
  delivery?: { party_name?: string; date?: string; address?: Partial<BusinessAddress> & { country_code: string } };
  invoice_period?: { start?: string; end?: string };
  payment?: BusinessPayment;
  tax_currency?: string;
  tax_total_in_tax_currency?: string;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day in YYYY-MM-DD ("2026-02-30" and "2026-13-99" are not): what `format: date` accepts. */
export function isCalendarDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  return d <= days;
}

const ZERO = parseDec('0')!;
const ONE = parseDec('1')!;
const HUNDRED = parseDec('100')!;

/**
 * A decimal this module built or checked itself (a parsed amount, a computed total, a default). Never
 * throws: should a value ever not parse, it counts as zero rather than answering 500.
 */
function big(text: string): BigValue {
  return parseDec(text) ?? ZERO;
}
/** Categories whose rate is zero by definition (EN 16931 BR-Z/E/AE/K/G/O). */
const ZERO_RATE_CATEGORIES = new Set(['Z', 'E', 'AE', 'K', 'G', 'O']);

class Recorder {
  readonly fallbacks: FallbackApplied[] = [];

  /** Take `value` when usable; otherwise apply `fallback` and record it. */
  use<T extends string | null>(
    field: string,
    value: string | undefined,
    fallback: T,
    type: FallbackType,
    state?: OriginalState,
  ): string | T {
    if (value !== undefined && value.trim() !== '') return value.trim();
    this.fallbacks.push({ field, fallback_type: type, original_state: state ?? 'missing', applied_value: fallback });
    return fallback;
  }

  record(field: string, type: FallbackType, state: OriginalState, applied: string | null): void {
    this.fallbacks.push({ field, fallback_type: type, original_state: state, applied_value: applied });
  }
}

/** Money normalized to two decimals when that loses nothing ("473" → "473.00"), else kept exact. */
function normalMoney(text: string): string {
  const v = big(text);
  return v.round(2).eq(v) ? v.toFixed(2) : v.toFixed();
}

/** Quantities, prices and rates in canonical form, trailing zeros dropped ("20.0000" → "20"). */
function canonical(text: string): string {
  return big(text).toFixed();
}

function optional(value: string | undefined): string | null {
  return value !== undefined && value.trim() !== '' ? value.trim() : null;
}

function address(r: Recorder, path: string, a: Address | undefined): BusinessAddress | null {
  if (!a || [a.line1, a.line2, a.city, a.postcode, a.countryCode].every((v) => !v || !v.trim())) return null;
  return {
    line1: r.use(`${path}.line1`, a.line1, '', 'placeholder_value'),
    line2: optional(a.line2),
    city: r.use(`${path}.city`, a.city, '', 'placeholder_value'),
    postcode: r.use(`${path}.postcode`, a.postcode, '', 'placeholder_value'),
    country_code: r.use(`${path}.country_code`, a.countryCode, '', 'placeholder_value'),
  };
}

/**
 * The trade registration number is the legal registration identifier (BT-30 / BT-47). Without one, the first party
 * identifier (BT-29 / BT-46, e.g. a GLN) stands in, recorded as a derived value: it identifies the party, but it
 * is not a registration number.
 */
function registrationId(r: Recorder, path: string, p: Party): string | null {
  const legal = optional(p.legalRegistrationId?.value);
  if (legal !== null) return legal;
  const other = p.identifiers.map((i) => optional(i.value)).find((v) => v !== null) ?? null;
  if (other !== null) r.record(`${path}.registration_id`, 'derived_value', 'missing', other);
  return other;
}

function party(r: Recorder, path: string, p: Party): BusinessParty {
  const out: BusinessParty = {
    name: r.use(`${path}.name`, p.name, 'UNKNOWN', 'placeholder_value'),
    vat_number: optional(p.vatId),
    registration_id: registrationId(r, path, p),
    address: address(r, `${path}.address`, p.address),
    email: optional(p.contacts[0]?.email) ?? null,
  };
  // Since 1.1.0: what XRechnung needs to re-issue (BT-34/49, BG-6/9), when the invoice has it.
  const eaddr = optional(p.electronicAddress?.value);
  if (eaddr !== null) {
    out.electronic_address = { id: eaddr };
    const scheme = optional(p.electronicAddress?.schemeId);
    if (scheme !== null) out.electronic_address.scheme = scheme;
  }
  const c = p.contacts[0];
  if (c) {
    const contact = compact({
      name: optional(c.name),
      department: optional(c.department),
      phone: optional(c.phone),
      email: optional(c.email),
    });
    if (Object.keys(contact).length) out.contact = contact;
  }
  return out;
}

/** The members with a value. */
function compact<T extends Record<string, string | null | undefined>>(o: T): { [K in keyof T]?: string } {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v;
  return out as { [K in keyof T]?: string };
}

/** BG-16 payment instructions in the metadata's shape (since 1.1.0), when the invoice has a payment means code. */
function payment(invoice: Invoice): BusinessPayment | undefined {
  const p = invoice.payment;
  const code = optional(p?.meansCode);
  if (!p || code === null) return undefined;
  const out: BusinessPayment = {
    means_code: code,
    ...compact({ means_text: optional(p.meansText), remittance_information: optional(p.remittanceInformation) }),
  };
  const transfers = p.creditTransfers
    .filter((ct) => optional(ct.accountId) !== null)
    .map((ct) =>
      compact({
        [ct.proprietaryId ? 'account_id' : 'iban']: optional(ct.accountId),
        account_name: optional(ct.accountName),
        bic: optional(ct.serviceProviderId),
      }),
    );
  if (transfers.length) out.credit_transfers = transfers;
  const pan = optional(p.card?.primaryAccountNumber);
  if (pan !== null) out.card = { account_number: pan, ...compact({ holder_name: optional(p.card?.holderName) }) };
  const dd = p.directDebit;
  if (dd && optional(dd.mandateReference) !== null && optional(dd.creditorId) !== null && optional(dd.debitedAccountId) !== null) {
    out.direct_debit = {
      mandate_reference: dd.mandateReference!.trim(),
      creditor_id: dd.creditorId!.trim(),
      debited_account: dd.debitedAccountId!.trim(),
    };
  }
  return out;
}

/** A decimal field: as given when it parses, else derived (when a derivation exists) or a default. */
function amount(r: Recorder, field: string, given: string | undefined, derive: () => BigValue | undefined, fallback = '0.00'): string {
  const parsed = parseDec(given?.trim());
  if (parsed) return normalMoney(given!.trim());
  const state: OriginalState = given !== undefined && given.trim() !== '' ? 'unparseable' : 'missing';
  const derived = derive();
  if (derived) {
    const value = toFixedHalfUp(derived);
    r.record(field, 'derived_value', state, value);
    return value;
  }
  r.record(field, 'default_value', state, fallback);
  return fallback;
}

function lineItem(r: Recorder, line: InvoiceLine, index: number): BusinessLineItem {
  const path = `invoice.line_items[${index}]`;
  const category = r.use(`${path}.vat_category`, line.vatCategoryCode, 'S', 'default_value');
  const quantityText = parseDec(line.quantity?.trim()) ? line.quantity!.trim() : undefined;
  const quantity = r.use(`${path}.quantity`, quantityText, '1', 'default_value', line.quantity ? 'unparseable' : 'missing');
  const net = parseDec(line.netAmount?.trim());
  const price = parseDec(line.netPrice?.trim());
  const baseQty = parseDec(line.priceBaseQuantity?.trim());
  const qty = big(quantity);
  const netPrice = amount(r, `${path}.net_price`, line.netPrice, () => {
    // Compared with a Big: big.js in strict mode throws on a JS number (the 500 of lines with an amount but no price).
    if (!net || qty.eq(ZERO)) return undefined;
    return net.div(qty);
  });
  const lineTotal = amount(r, `${path}.line_total`, line.netAmount, () => {
    if (!price) return undefined;
    return qty.times(price).div(baseQty && !baseQty.eq(ZERO) ? baseQty : ONE);
  });
  const rate = parseDec(line.vatRate?.trim())
    ? line.vatRate!.trim()
    : ZERO_RATE_CATEGORIES.has(category)
      ? (r.record(`${path}.vat_rate`, 'derived_value', line.vatRate ? 'unparseable' : 'missing', '0'), '0')
      : r.use(`${path}.vat_rate`, undefined, '0', 'default_value', line.vatRate ? 'unparseable' : 'missing');
  const unitCode = r.use(`${path}.unit_code`, line.unitCode, 'C62', 'default_value');
  const item: BusinessLineItem = {
    name: r.use(`${path}.name`, line.itemName, 'UNKNOWN', 'placeholder_value'),
    description: optional(line.itemDescription),
    quantity: canonical(quantity),
    unit_code: unitCode,
    unit_label: unitLabel(unitCode),
    net_price: canonical(netPrice),
    line_total: lineTotal,
    vat_rate: canonical(rate),
    vat_category: category,
  };
  if (baseQty && !baseQty.eq(ONE) && !baseQty.eq(ZERO)) item.price_base_quantity = baseQty.toFixed();
  const allowances = allowanceCharges(r, `${path}.allowances`, line.allowances, false);
  const charges = allowanceCharges(r, `${path}.charges`, line.charges, false);
  if (allowances.length) item.allowances = allowances;
  if (charges.length) item.charges = charges;
  return item;
}

/** Allowances/charges with an amount (given, else base × percentage); VAT members for document level only. */
function allowanceCharges(
  r: Recorder,
  path: string,
  list: (LineAllowanceCharge & Partial<DocumentAllowanceCharge>)[],
  withVat: boolean,
): BusinessAllowanceCharge[] {
  return list.map((ac, i) => {
    const out: BusinessAllowanceCharge = {
      amount: amount(r, `${path}[${i}].amount`, ac.amount, () => {
        const base = parseDec(ac.baseAmount?.trim());
        const pct = parseDec(ac.percentage?.trim());
        return base && pct ? base.times(pct).div(HUNDRED) : undefined;
      }),
    };
    if (parseDec(ac.baseAmount?.trim()) && parseDec(ac.percentage?.trim())) {
      out.base_amount = normalMoney(ac.baseAmount!.trim());
      out.percentage = canonical(ac.percentage!.trim());
    }
    if (withVat) {
      out.vat_category = r.use(`${path}[${i}].vat_category`, ac.vatCategoryCode, 'S', 'default_value');
      if (parseDec(ac.vatRate?.trim())) out.vat_rate = canonical(ac.vatRate!.trim());
    }
    const reason = optional(ac.reason);
    const code = optional(ac.reasonCode);
    if (reason !== null) out.reason = reason;
    if (code !== null) out.reason_code = code;
    return out;
  });
}

/** BT-120 / BT-121 onto a breakdown entry, when the invoice states them. */
function withExemption(b: { exemptionReason?: string; exemptionReasonCode?: string }, entry: BusinessTaxBreakdown): BusinessTaxBreakdown {
  const reason = optional(b.exemptionReason);
  const code = optional(b.exemptionReasonCode);
  if (reason !== null) entry.exemption_reason = reason;
  if (code !== null) entry.exemption_reason_code = code;
  return entry;
}

function serializedProfile(r: Recorder, profile: ProfileId | null): BusinessReadyInvoice['profile'] {
  switch (profile) {
    case 'minimum':
    case 'basic':
    case 'en16931':
    case 'extended':
      return profile;
    case 'xrechnung':
      return 'xrechnung_3.0';
    case 'basic_wl':
      // BASIC WL is not in the schema's enumeration: the nearest profile is BASIC (same header data, no lines).
      r.record('invoice.profile', 'coercion', 'invalid', 'basic');
      return 'basic';
    default:
      r.record('invoice.profile', 'default_value', 'missing', 'en16931');
      return 'en16931';
  }
}

export function toBusinessReady(
  invoice: Invoice,
  format: InvoiceFormat | null,
  profile: ProfileId | null,
): { invoice: BusinessReadyInvoice; fallbacks: FallbackApplied[] } {
  const r = new Recorder();
  // A real calendar day only: "2026-02-30" passes a pattern, not the contract's `format: date` (it was a 500).
  const dateOk = (d: string | undefined) => (d && isCalendarDate(d.trim()) ? d.trim() : undefined);
  const lines = invoice.lines.map((l, i) => lineItem(r, l, i));

  const breakdown: BusinessTaxBreakdown[] = invoice.vatBreakdown.map((b, i) =>
    withExemption(b, {
      category: r.use(`invoice.tax_breakdown[${i}].category`, b.categoryCode, 'S', 'default_value'),
      rate: canonical(
        r.use(
          `invoice.tax_breakdown[${i}].rate`,
          parseDec(b.rate?.trim()) ? b.rate : undefined,
          '0',
          'default_value',
          b.rate ? 'unparseable' : 'missing',
        ),
      ),
      basis_amount: amount(r, `invoice.tax_breakdown[${i}].basis_amount`, b.taxableAmount, () => undefined),
      tax_amount: amount(r, `invoice.tax_breakdown[${i}].tax_amount`, b.taxAmount, () => {
        const base = parseDec(b.taxableAmount?.trim());
        const rate = parseDec(b.rate?.trim());
        return base && rate ? base.times(rate).div(HUNDRED) : undefined;
      }),
    }),
  );
  if (breakdown.length === 0 && lines.length > 0) {
    // Derive the breakdown from the lines, grouped by category and rate.
    const groups = new Map<string, { category: string; rate: string; base: BigValue }>();
    for (const l of lines) {
      const key = `${l.vat_category}|${big(l.vat_rate).toString()}`;
      const g = groups.get(key) ?? { category: l.vat_category, rate: l.vat_rate, base: ZERO };
      g.base = g.base.plus(big(l.line_total));
      groups.set(key, g);
    }
    [...groups.values()].forEach((g, i) => {
      const entry = {
        category: g.category,
        rate: g.rate,
        basis_amount: toFixedHalfUp(g.base),
        tax_amount: toFixedHalfUp(g.base.times(big(g.rate)).div(HUNDRED)),
      };
      breakdown.push(entry);
      r.record(`invoice.tax_breakdown[${i}]`, 'derived_value', 'missing', `${entry.category} ${entry.rate}%`);
    });
  }

  const t = invoice.totals;
  const net = amount(r, 'invoice.total_net_amount', t.taxExclusiveAmount, () =>
    lines.length > 0
      ? sumDec(lines.map((l) => l.line_total))
          .minus(sumDec(invoice.allowances.map((a) => a.amount)))
          .plus(sumDec(invoice.charges.map((c) => c.amount)))
      : undefined,
  );
  const tax = amount(r, 'invoice.total_tax_amount', t.taxTotal, () =>
    breakdown.length > 0 ? sumDec(breakdown.map((b) => b.tax_amount)) : undefined,
  );
  const gross = amount(r, 'invoice.total_gross_amount', t.taxInclusiveAmount, () => big(net).plus(big(tax)));
  const due = amount(r, 'invoice.amount_due', t.amountDue, () =>
    big(gross)
      .minus(parseDec(t.paidAmount?.trim()) ?? ZERO)
      .plus(parseDec(t.roundingAmount?.trim()) ?? ZERO),
  );

  const invoiceDate = dateOk(invoice.issueDate);
  const result: BusinessReadyInvoice = {
    invoice_number: r.use('invoice.invoice_number', invoice.number, 'UNKNOWN', 'placeholder_value'),
    invoice_date:
      invoiceDate ?? r.use('invoice.invoice_date', undefined, '1970-01-01', 'placeholder_value', invoice.issueDate ? 'invalid' : 'missing'),
    due_date: dateOk(invoice.dueDate) ?? null,
    currency: r.use('invoice.currency', invoice.currency, 'EUR', 'default_value'),
    buyer_reference: optional(invoice.buyerReference),
    contract_reference: optional(invoice.contractReference),
    seller: party(r, 'invoice.seller', invoice.seller),
    buyer: party(r, 'invoice.buyer', invoice.buyer),
    line_items: lines,
    tax_breakdown: breakdown,
    total_net_amount: net,
    total_tax_amount: tax,
    total_gross_amount: gross,
    amount_due: due,
    format: format ?? (r.record('invoice.format', 'default_value', 'missing', 'factur-x'), 'factur-x'),
    profile: serializedProfile(r, profile),
  };
  if (invoice.dueDate && !result.due_date) r.record('invoice.due_date', 'coercion', 'invalid', null);
  const docAllowances = allowanceCharges(r, 'invoice.allowances', invoice.allowances, true);
  const docCharges = allowanceCharges(r, 'invoice.charges', invoice.charges, true);
  if (docAllowances.length) result.allowances = docAllowances;
  if (docCharges.length) result.charges = docCharges;
  if (parseDec(t.paidAmount?.trim())) result.paid_amount = normalMoney(t.paidAmount!.trim());
  if (parseDec(t.roundingAmount?.trim())) result.rounding_amount = normalMoney(t.roundingAmount!.trim());
  const terms = optional(invoice.paymentTerms);
  if (terms !== null) result.payment_terms = terms;
  const d = invoice.delivery;
  if (d) {
    const delivery: NonNullable<BusinessReadyInvoice['delivery']> = compact({
      party_name: optional(d.partyName),
      date: dateOk(d.actualDeliveryDate),
    });
    const country = optional(d.address?.countryCode);
    if (country !== null) {
      const a = d.address!;
      delivery.address = {
        ...compact({ line1: optional(a.line1), line2: optional(a.line2), city: optional(a.city), postcode: optional(a.postcode) }),
        country_code: country,
      };
    }
    if (Object.keys(delivery).length) result.delivery = delivery;
  }
  const period = compact({ start: dateOk(invoice.invoicingPeriod?.start), end: dateOk(invoice.invoicingPeriod?.end) });
  if (Object.keys(period).length) result.invoice_period = period;
  const pay = payment(invoice);
  if (pay) result.payment = pay;
  const taxCurrency = optional(invoice.vatAccountingCurrency);
  if (taxCurrency !== null) {
    result.tax_currency = taxCurrency;
    if (parseDec(t.taxTotalAccountingCurrency?.trim()))
      result.tax_total_in_tax_currency = normalMoney(t.taxTotalAccountingCurrency!.trim());
  }
  return { invoice: result, fallbacks: r.fallbacks };
}
