/**
 * Which metadata fields a profile cannot carry. The CII writer leaves them out; the caller gets their paths
 * (response header X-Dropped-Fields) so nothing disappears silently.
 *
 * Documented exceptions (not listed): for MINIMUM and BASIC WL the line items, document allowances/charges and
 * the VAT breakdown input feed the computed totals (and BASIC WL writes the breakdown and the
 * allowances/charges); they are the way these profiles are meant to be filled.
 * Array members are reported once with `[]`, e.g. `line_items[].description`.
 */
import type { Invoice } from '../model/invoice.js';
import type { ProfileId } from '../model/profiles.js';
import { LEVEL, PROFILE_LEVEL } from '../syntax/cii/writer-profile.js';
import type { InvoiceMetadata } from './schema.js';

/** Top-level fields MINIMUM writes or uses for its totals. */
const MINIMUM_TOP = new Set([
  'profile',
  'invoice_number',
  'invoice_date',
  'document_type_code',
  'currency',
  'buyer_reference',
  'purchase_order_reference',
  'business_process',
  'seller',
  'buyer',
  'line_items',
  'allowances',
  'charges',
  'tax_breakdown',
  'line_total_amount',
  'allowance_total_amount',
  'charge_total_amount',
  'total_net_amount',
  'total_tax_amount',
  'total_gross_amount',
  'amount_due',
]);
const MINIMUM_SELLER = new Set(['name', 'registration_id', 'registration_scheme', 'vat_number', 'tax_number', 'address']);
const MINIMUM_BUYER = new Set(['name', 'registration_id', 'registration_scheme']);

/** Fields that need EN 16931 (BASIC WL and BASIC lack them). */
const EN16931_TOP = [
  'project_reference',
  'sales_order_reference',
  'receiving_advice_reference',
  'tender_or_lot_reference',
  'invoiced_object_identifier',
  'tax_point_date',
  'rounding_amount',
  'supporting_documents',
];
const EN16931_LINE = [
  'description',
  'seller_item_id',
  'buyer_item_id',
  'classifications',
  'origin_country',
  'attributes',
  'order_line_reference',
  'accounting_reference',
  'object_identifier',
];

function present(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

export function droppedFields(meta: InvoiceMetadata, profile: ProfileId): string[] {
  const level = PROFILE_LEVEL[profile];
  const out: string[] = [];
  const add = (path: string) => {
    if (!out.includes(path)) out.push(path);
  };
  const m = meta as Record<string, unknown>;

  if (level === LEVEL.MINIMUM) {
    for (const [k, v] of Object.entries(m)) if (!MINIMUM_TOP.has(k) && present(v)) add(k);
    for (const [k, v] of Object.entries(meta.seller)) if (!MINIMUM_SELLER.has(k) && present(v)) add(`seller.${k}`);
    for (const [k, v] of Object.entries(meta.seller.address ?? {})) if (k !== 'country_code' && present(v)) add(`seller.address.${k}`);
    for (const [k, v] of Object.entries(meta.buyer)) if (!MINIMUM_BUYER.has(k) && present(v)) add(`buyer.${k}`);
    return out;
  }

  if (level < LEVEL.EN16931) {
    for (const k of EN16931_TOP) if (present(m[k])) add(k);
    for (const who of ['seller', 'buyer'] as const) {
      if (present(meta[who].contact)) add(`${who}.contact`);
      if (present(meta[who].email)) add(`${who}.email`);
    }
    if (present(meta.seller.additional_legal_info)) add('seller.additional_legal_info');
    if (present(meta.buyer.trading_name)) add('buyer.trading_name');
    const pay = meta.payment;
    if (pay) {
      if (present(pay.means_text)) add('payment.means_text');
      if (present(pay.card)) add('payment.card');
      for (const ct of pay.credit_transfers ?? []) {
        if (present(ct.account_name)) add('payment.credit_transfers[].account_name');
        if (present(ct.bic)) add('payment.credit_transfers[].bic');
      }
    }
    if (level === LEVEL.BASIC) {
      for (const l of meta.line_items ?? []) {
        for (const k of EN16931_LINE) if (present((l as Record<string, unknown>)[k])) add(`line_items[].${k}`);
        for (const kind of ['allowances', 'charges'] as const) {
          for (const ac of l[kind] ?? []) {
            if (present(ac.percentage)) add(`line_items[].${kind}[].percentage`);
            if (present(ac.base_amount)) add(`line_items[].${kind}[].base_amount`);
          }
        }
      }
    }
  }

  // Sub-lines and line sellers (multi-vendor invoices) exist from EXTENDED up.
  if (level < LEVEL.EXTENDED) {
    for (const k of [
      'subtype',
      'parent_line_id',
      'seller',
      'vat_exemption_reason',
      'vat_exemption_reason_code',
      'sub_invoice_number',
      'sub_invoice_framework',
    ])
      if ((meta.line_items ?? []).some((l) => present((l as Record<string, unknown>)[k]))) add(`line_items[].${k}`);
  }

  // No EN 16931 term for a unit label: CII carries only the unit code.
  if (level > LEVEL.BASIC_WL && (meta.line_items ?? []).some((l) => present(l.unit_label))) add('line_items[].unit_label');

  // Factur-X EN16931 allows a contact person or a department, not both (CII-SR-465/466): the name wins.
  for (const who of ['seller', 'buyer'] as const) {
    const c = meta[who].contact;
    if (level >= LEVEL.EN16931 && c?.name && c.department) add(`${who}.contact.department`);
  }
  return out;
}

/**
 * What UBL cannot carry beyond the profile's limits: a credit note's due date (BT-9) sits in a payment means
 * (cac:PaymentMeans/cbc:PaymentDueDate), which needs the payment means code; UBL 2.1 CreditNote has no DueDate.
 */
export function ublDroppedFields(meta: InvoiceMetadata, invoice: Invoice): string[] {
  const out: string[] = [];
  if (invoice.kind === 'credit-note' && present(meta.due_date) && !meta.payment) out.push('due_date');
  return out;
}
