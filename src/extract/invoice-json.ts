/**
 * The model → the spec's InvoiceJson (the /v1/extract answer): a flat, best-effort view with strings or
 * null. Amounts stay in their lexical form. Where a value is not the EN 16931 term the field names, the
 * mapping says so in `_meta.limitations`:
 * - `heuristic_mapping`: a neighbouring term stood in (item description for a missing item name, an EM
 *   electronic address for a missing contact e-mail), or the whole document was read by a best-effort
 *   mapping (ZUGFeRD 1.0);
 * - `fallback_values_used`: a total was missing and was taken or summed from other terms.
 * `_meta.fallbacks` lists each such field with where its value came from.
 */
import type { Invoice, Party } from '../model/invoice.js';
import { parseDec, sumDec } from '../model/decimal.js';

export type Limitation = 'heuristic_mapping' | 'fallback_values_used';

export interface PartyJson {
  name: string | null;
  registration_id: string | null;
  email: string | null;
  line1: string | null;
  city: string | null;
  postcode: string | null;
  country: string | null;
  vat_number: string | null;
}

export interface InvoiceJson {
  invoice_number: string | null;
  invoice_date: string | null;
  due_date: string | null;
  document_type_code: string | null;
  currency: string | null;
  buyer_reference: string | null;
  contract_reference: string | null;
  seller: PartyJson | null;
  buyer: PartyJson | null;
  totals: { net_amount: string | null; tax_amount: string | null; gross_amount: string | null; payable_amount: string | null } | null;
  tax_breakdown: { category: string | null; vat_rate: string | null; basis_amount: string | null; tax_amount: string | null }[];
  line_items: {
    description: string | null;
    quantity: string | null;
    unit_code: string | null;
    unit_price: string | null;
    vat_rate: string | null;
    line_total: string | null;
  }[];
  _meta: {
    limitations: Limitation[];
    /** Each field whose value is not the term the field names: JSON path and the source used. */
    fallbacks: { field: string; source: string; kind: Limitation }[];
  };
}

export interface InvoiceJsonOptions {
  /** The document was read by a best-effort mapping (ZUGFeRD 1.0): every field is heuristic. */
  bestEffortSyntax?: boolean;
}

const orNull = (v: string | undefined): string | null => (v === undefined ? null : v);

export function toInvoiceJson(inv: Invoice, options: InvoiceJsonOptions = {}): InvoiceJson {
  const fallbacks: InvoiceJson['_meta']['fallbacks'] = [];
  const note = (field: string, source: string, kind: Limitation): void => {
    fallbacks.push({ field, source, kind });
  };

  const t = inv.totals;
  let net = t.taxExclusiveAmount;
  if (net === undefined && t.lineNetTotal !== undefined) {
    net = t.lineNetTotal;
    note('totals.net_amount', 'BT-106 sum of invoice line net amounts', 'fallback_values_used');
  }
  let tax = t.taxTotal;
  if (tax === undefined && inv.vatBreakdown.length > 0 && inv.vatBreakdown.every((v) => parseDec(v.taxAmount) !== undefined)) {
    tax = sumDec(inv.vatBreakdown.map((v) => v.taxAmount)).toFixed();
    note('totals.tax_amount', 'sum of BT-117 VAT category tax amounts', 'fallback_values_used');
  }
  let payable = t.amountDue;
  if (payable === undefined && t.taxInclusiveAmount !== undefined && t.paidAmount === undefined && t.roundingAmount === undefined) {
    payable = t.taxInclusiveAmount;
    note('totals.payable_amount', 'BT-112 invoice total with VAT (nothing prepaid, no rounding)', 'fallback_values_used');
  }
  const hasTotals = net !== undefined || tax !== undefined || t.taxInclusiveAmount !== undefined || payable !== undefined;

  const json: InvoiceJson = {
    invoice_number: orNull(inv.number),
    invoice_date: orNull(inv.issueDate),
    due_date: orNull(inv.dueDate),
    document_type_code: orNull(inv.typeCode),
    currency: orNull(inv.currency),
    buyer_reference: orNull(inv.buyerReference),
    contract_reference: orNull(inv.contractReference),
    seller: partyJson(inv.seller, 'seller', note),
    buyer: partyJson(inv.buyer, 'buyer', note),
    totals: hasTotals
      ? { net_amount: orNull(net), tax_amount: orNull(tax), gross_amount: orNull(t.taxInclusiveAmount), payable_amount: orNull(payable) }
      : null,
    tax_breakdown: inv.vatBreakdown.map((v) => ({
      category: orNull(v.categoryCode),
      vat_rate: orNull(v.rate),
      basis_amount: orNull(v.taxableAmount),
      tax_amount: orNull(v.taxAmount),
    })),
    line_items: inv.lines.map((l, i) => {
      let description = l.itemName;
      if ((description === undefined || description.trim() === '') && l.itemDescription !== undefined) {
        description = l.itemDescription;
        note(`line_items[${i}].description`, 'BT-154 item description (no item name)', 'heuristic_mapping');
      }
      return {
        description: orNull(description),
        quantity: orNull(l.quantity),
        unit_code: orNull(l.unitCode),
        unit_price: orNull(l.netPrice),
        vat_rate: orNull(l.vatRate),
        line_total: orNull(l.netAmount),
      };
    }),
    _meta: { limitations: [], fallbacks },
  };

  const limitations = new Set<Limitation>(fallbacks.map((f) => f.kind));
  if (options.bestEffortSyntax) limitations.add('heuristic_mapping');
  json._meta.limitations = (['heuristic_mapping', 'fallback_values_used'] as const).filter((l) => limitations.has(l));
  return json;
}

function partyJson(p: Party, role: 'seller' | 'buyer', note: (field: string, source: string, kind: Limitation) => void): PartyJson | null {
  const contactEmail = p.contacts.find((c) => c.email !== undefined)?.email;
  let email = contactEmail;
  if (email === undefined && p.electronicAddress && p.electronicAddress.schemeId?.trim().toUpperCase() === 'EM') {
    email = p.electronicAddress.value;
    note(`${role}.email`, `electronic address with scheme EM (${role === 'seller' ? 'BT-34' : 'BT-49'})`, 'heuristic_mapping');
  }
  // Only BT-30/BT-47: a party identifier (BT-29/BT-46) is often a customer-assigned supplier number, not a
  // trade registration, so it is not offered in its place.
  const registration = p.legalRegistrationId?.value;
  const out: PartyJson = {
    name: orNull(p.name),
    registration_id: orNull(registration),
    email: orNull(email),
    line1: orNull(p.address?.line1),
    city: orNull(p.address?.city),
    postcode: orNull(p.address?.postcode),
    country: orNull(p.address?.countryCode),
    vat_number: orNull(p.vatId),
  };
  return Object.values(out).every((v) => v === null) ? null : out;
}
