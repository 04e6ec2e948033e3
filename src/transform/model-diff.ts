/**
 * Business-term equality of two EN 16931 models: each model is flattened into (model path → canonical value)
 * pairs, every pair named by its business term, and the two sets compared. The transform uses it to find what a
 * target syntax or profile did not carry (the source model against the target read back), the round-trip tests to
 * prove two models say the same.
 *
 * Canonical forms make equal what the syntaxes only spell differently: decimals by value ("19" = "19.00"), the
 * VAT point date code in UNTDID 2005 (CII writes 5/29/72 for 3/35/432), a UBL note's "#CODE#" prefix as its
 * subject code (BT-21), a contact department as the contact name when there is no name (UBL has one name), a gross
 * price without a discount as a discount of zero, a price base quantity without its own unit in the quantity's unit,
 * UBL's "NA" purchase order placeholder beside a sales order as no purchase order, and empty values as absent
 * (neither syntax writes empty elements). BT-24 / BT-23 are compared by the caller (a target replaces them).
 */
import { parseDec } from '../model/decimal.js';
import type {
  Address,
  Contact,
  DocumentAllowanceCharge,
  Identifier,
  Invoice,
  InvoiceLine,
  LineAllowanceCharge,
  Located,
  Period,
} from '../model/invoice.js';
import { locationOf } from '../syntax/reader-helpers.js';

/** One flattened value: its term, and the model object and field it came from (for the source location). */
export interface FlatValue {
  term: string;
  value: string;
  owner: Located | undefined;
  field: string;
}

/** A business term the two models do not agree on. */
export interface TermDifference {
  /** Model path, e.g. `lines[3].itemDescription`, `seller.identifiers[0]@scheme`. */
  path: string;
  /** The business term, e.g. `BT-154`, `BT-29-1`. */
  term: string;
  /** Canonical value in the first model (absent: it has none). */
  a?: string;
  /** Canonical value in the second model (absent: it has none). */
  b?: string;
  /** Where the first model's value was read (its source location), when known. */
  location?: string;
}

const TAX_POINT_CODE: Record<string, string> = { '5': '3', '29': '35', '72': '432' };

/** Decimal by value; an unreadable one keeps its text. */
function dec(v: string): string {
  const d = parseDec(v.trim());
  return d ? d.toFixed() : v.trim();
}

/** The subject code a UBL note carries as "#CODE#text" (UNTDID 4451 codes are three letters). */
const NOTE_PREFIX = /^#([A-Z]{3})#([\s\S]*)$/;

/** Split a UBL note's "#CODE#" prefix into subject code and text (the EN 16931 UBL binding of BT-21). */
export function splitNoteSubject(text: string): { subjectCode?: string; text: string } {
  const m = NOTE_PREFIX.exec(text);
  return m ? { subjectCode: m[1], text: m[2] } : { text };
}

class Flattener {
  readonly out = new Map<string, FlatValue>();

  put(path: string, term: string, value: string | undefined, owner: Located | undefined, field: string, decimal = false): void {
    if (value === undefined || value === '') return;
    this.out.set(path, { term, value: decimal ? dec(value) : value, owner, field });
  }

  id(path: string, term: string, schemeTerm: string, id: Identifier | undefined, owner: Located | undefined, field: string): void {
    if (!id || !id.value) return;
    this.put(path, term, id.value, owner, field);
    this.put(`${path}@scheme`, schemeTerm, id.schemeId, owner, field);
  }

  address(path: string, terms: readonly string[], a: Address | undefined): void {
    if (!a) return;
    const [line1, line2, line3, city, postcode, subdivision, country] = terms;
    this.put(`${path}.line1`, line1, a.line1, a, 'line1');
    this.put(`${path}.line2`, line2, a.line2, a, 'line2');
    this.put(`${path}.line3`, line3, a.line3, a, 'line3');
    this.put(`${path}.city`, city, a.city, a, 'city');
    this.put(`${path}.postcode`, postcode, a.postcode, a, 'postcode');
    this.put(`${path}.countrySubdivision`, subdivision, a.countrySubdivision, a, 'countrySubdivision');
    this.put(`${path}.countryCode`, country, a.countryCode, a, 'countryCode');
  }

  contact(path: string, terms: readonly string[], c: Contact | undefined): void {
    if (!c) return;
    const [name, phone, email] = terms;
    // UBL has one contact name: a department without a person is the name; beside a person it is its own value.
    this.put(`${path}.name`, name, c.name || c.department, c, c.name ? 'name' : 'department');
    if (c.name) this.put(`${path}.department`, name, c.department, c, 'department');
    this.put(`${path}.phone`, phone, c.phone, c, 'phone');
    this.put(`${path}.email`, email, c.email, c, 'email');
  }

  period(path: string, startTerm: string, endTerm: string, p: Period | undefined): void {
    if (!p) return;
    this.put(`${path}.start`, startTerm, p.start, p, 'start');
    this.put(`${path}.end`, endTerm, p.end, p, 'end');
  }
}

const SELLER = {
  name: 'BT-27',
  trading: 'BT-28',
  id: 'BT-29',
  idScheme: 'BT-29-1',
  legal: 'BT-30',
  legalScheme: 'BT-30-1',
  vat: 'BT-31',
  taxReg: 'BT-32',
  legalInfo: 'BT-33',
  eaddr: 'BT-34',
  eaddrScheme: 'BT-34-1',
  address: ['BT-35', 'BT-36', 'BT-162', 'BT-37', 'BT-38', 'BT-39', 'BT-40'],
  contact: ['BT-41', 'BT-42', 'BT-43'],
  group: 'BG-4',
} as const;
const BUYER = {
  name: 'BT-44',
  trading: 'BT-45',
  id: 'BT-46',
  idScheme: 'BT-46-1',
  legal: 'BT-47',
  legalScheme: 'BT-47-1',
  vat: 'BT-48',
  // Not EN 16931 terms for the buyer; kept so that a syntax carrying them is compared too.
  taxReg: 'BG-7',
  legalInfo: 'BG-7',
  eaddr: 'BT-49',
  eaddrScheme: 'BT-49-1',
  address: ['BT-50', 'BT-51', 'BT-163', 'BT-52', 'BT-53', 'BT-54', 'BT-55'],
  contact: ['BT-56', 'BT-57', 'BT-58'],
  group: 'BG-7',
} as const;

function allowanceCharge(
  f: Flattener,
  path: string,
  ac: DocumentAllowanceCharge | LineAllowanceCharge,
  terms: readonly string[],
  withVat: boolean,
): void {
  const [amount, base, pct, reason, code, cat, rate] = terms;
  f.put(`${path}.amount`, amount, ac.amount, ac, 'amount', true);
  f.put(`${path}.baseAmount`, base, ac.baseAmount, ac, 'baseAmount', true);
  f.put(`${path}.percentage`, pct, ac.percentage, ac, 'percentage', true);
  f.put(`${path}.reason`, reason, ac.reason, ac, 'reason');
  f.put(`${path}.reasonCode`, code, ac.reasonCode, ac, 'reasonCode');
  if (withVat) {
    const d = ac as DocumentAllowanceCharge;
    f.put(`${path}.vatCategoryCode`, cat, d.vatCategoryCode, ac, 'vatCategoryCode');
    f.put(`${path}.vatRate`, rate, d.vatRate, ac, 'vatRate', true);
  }
}

function line(f: Flattener, path: string, l: InvoiceLine): void {
  f.put(`${path}.id`, 'BT-126', l.id, l, 'id');
  f.put(`${path}.note`, 'BT-127', l.note, l, 'note');
  f.id(`${path}.objectIdentifier`, 'BT-128', 'BT-128-1', l.objectIdentifier, l, 'objectIdentifier');
  f.put(`${path}.quantity`, 'BT-129', l.quantity, l, 'quantity', true);
  f.put(`${path}.unitCode`, 'BT-130', l.unitCode, l, 'unitCode');
  f.put(`${path}.netAmount`, 'BT-131', l.netAmount, l, 'netAmount', true);
  f.put(`${path}.orderLineReference`, 'BT-132', l.orderLineReference, l, 'orderLineReference');
  f.put(`${path}.buyerAccountingReference`, 'BT-133', l.buyerAccountingReference, l, 'buyerAccountingReference');
  f.period(`${path}.period`, 'BT-134', 'BT-135', l.period);
  l.allowances.forEach((a, i) =>
    allowanceCharge(f, `${path}.allowances[${i}]`, a, ['BT-136', 'BT-137', 'BT-138', 'BT-139', 'BT-140'], false),
  );
  l.charges.forEach((c, i) => allowanceCharge(f, `${path}.charges[${i}]`, c, ['BT-141', 'BT-142', 'BT-143', 'BT-144', 'BT-145'], false));
  f.put(`${path}.netPrice`, 'BT-146', l.netPrice, l, 'netPrice', true);
  // A gross price without a discount has a discount of zero (UBL writes the zero: its allowance needs an amount).
  const gross = l.grossPrice !== undefined && l.grossPrice !== '';
  f.put(`${path}.priceDiscount`, 'BT-147', l.priceDiscount || (gross ? '0' : undefined), l, 'priceDiscount', true);
  f.put(`${path}.grossPrice`, 'BT-148', l.grossPrice, l, 'grossPrice', true);
  f.put(`${path}.priceBaseQuantity`, 'BT-149', l.priceBaseQuantity, l, 'priceBaseQuantity', true);
  // Both writers give the base quantity the invoiced quantity's unit when it has none of its own.
  const baseUnit = l.priceBaseQuantity ? (l.priceBaseQuantityUnitCode ?? l.unitCode) : l.priceBaseQuantityUnitCode;
  f.put(`${path}.priceBaseQuantityUnitCode`, 'BT-150', baseUnit, l, 'priceBaseQuantityUnitCode');
  f.put(`${path}.vatCategoryCode`, 'BT-151', l.vatCategoryCode, l, 'vatCategoryCode');
  f.put(`${path}.vatRate`, 'BT-152', l.vatRate, l, 'vatRate', true);
  f.put(`${path}.itemName`, 'BT-153', l.itemName, l, 'itemName');
  f.put(`${path}.itemDescription`, 'BT-154', l.itemDescription, l, 'itemDescription');
  f.put(`${path}.sellerItemId`, 'BT-155', l.sellerItemId, l, 'sellerItemId');
  f.put(`${path}.buyerItemId`, 'BT-156', l.buyerItemId, l, 'buyerItemId');
  f.id(`${path}.standardItemId`, 'BT-157', 'BT-157-1', l.standardItemId, l, 'standardItemId');
  l.classifications.forEach((c, i) => {
    f.id(`${path}.classifications[${i}]`, 'BT-158', 'BT-158-1', c, l, `classifications[${i}]`);
    f.put(`${path}.classifications[${i}]@version`, 'BT-158-2', c.listVersionId, l, `classifications[${i}]`);
  });
  f.put(`${path}.originCountryCode`, 'BT-159', l.originCountryCode, l, 'originCountryCode');
  l.attributes.forEach((a, i) => {
    f.put(`${path}.attributes[${i}].name`, 'BT-160', a.name, l, `attributes[${i}]`);
    f.put(`${path}.attributes[${i}].value`, 'BT-161', a.value, l, `attributes[${i}]`);
  });
}

/** Every business term of `inv` (but BT-24 and BT-23) as model path → canonical value. */
export function flattenInvoice(inv: Invoice): Map<string, FlatValue> {
  const f = new Flattener();
  f.put('number', 'BT-1', inv.number, inv, 'number');
  f.put('issueDate', 'BT-2', inv.issueDate, inv, 'issueDate');
  f.put('typeCode', 'BT-3', inv.typeCode, inv, 'typeCode');
  f.put('currency', 'BT-5', inv.currency, inv, 'currency');
  f.put('vatAccountingCurrency', 'BT-6', inv.vatAccountingCurrency, inv, 'vatAccountingCurrency');
  f.put('taxPointDate', 'BT-7', inv.taxPointDate, inv, 'taxPointDate');
  const tpc = inv.taxPointDateCode?.trim();
  f.put('taxPointDateCode', 'BT-8', tpc && (TAX_POINT_CODE[tpc] ?? tpc), inv, 'taxPointDateCode');
  f.put('dueDate', 'BT-9', inv.dueDate, inv, 'dueDate');
  f.put('buyerReference', 'BT-10', inv.buyerReference, inv, 'buyerReference');
  f.put('projectReference', 'BT-11', inv.projectReference, inv, 'projectReference');
  f.put('contractReference', 'BT-12', inv.contractReference, inv, 'contractReference');
  // UBL needs an order reference id beside a sales order reference: "NA" there means none.
  const po = inv.purchaseOrderReference === 'NA' && inv.salesOrderReference ? undefined : inv.purchaseOrderReference;
  f.put('purchaseOrderReference', 'BT-13', po, inv, 'purchaseOrderReference');
  f.put('salesOrderReference', 'BT-14', inv.salesOrderReference, inv, 'salesOrderReference');
  f.put('receivingAdviceReference', 'BT-15', inv.receivingAdviceReference, inv, 'receivingAdviceReference');
  f.put('despatchAdviceReference', 'BT-16', inv.despatchAdviceReference, inv, 'despatchAdviceReference');
  f.put('tenderOrLotReference', 'BT-17', inv.tenderOrLotReference, inv, 'tenderOrLotReference');
  f.id('invoicedObjectIdentifier', 'BT-18', 'BT-18-1', inv.invoicedObjectIdentifier, inv, 'invoicedObjectIdentifier');
  f.put('buyerAccountingReference', 'BT-19', inv.buyerAccountingReference, inv, 'buyerAccountingReference');
  f.put('paymentTerms', 'BT-20', inv.paymentTerms, inv, 'paymentTerms');
  let n = 0;
  for (const note of inv.notes) {
    const split = note.subjectCode ? { subjectCode: note.subjectCode, text: note.text } : splitNoteSubject(note.text);
    if (!split.text && !split.subjectCode) continue;
    f.put(`notes[${n}].subjectCode`, 'BT-21', split.subjectCode, note, 'subjectCode');
    f.put(`notes[${n}].text`, 'BT-22', split.text, note, 'text');
    n++;
  }
  inv.precedingInvoices.forEach((p, i) => {
    f.put(`precedingInvoices[${i}].number`, 'BT-25', p.number, p, 'number');
    f.put(`precedingInvoices[${i}].date`, 'BT-26', p.date, p, 'date');
  });

  for (const [key, t] of [
    ['seller', SELLER],
    ['buyer', BUYER],
  ] as const) {
    const p = inv[key];
    f.put(`${key}.name`, t.name, p.name, p, 'name');
    f.put(`${key}.tradingName`, t.trading, p.tradingName, p, 'tradingName');
    p.identifiers.forEach((id, i) => f.id(`${key}.identifiers[${i}]`, t.id, t.idScheme, id, p, `identifiers[${i}]`));
    f.id(`${key}.legalRegistrationId`, t.legal, t.legalScheme, p.legalRegistrationId, p, 'legalRegistrationId');
    f.put(`${key}.vatId`, t.vat, p.vatId, p, 'vatId');
    f.put(`${key}.taxRegistrationId`, t.taxReg, p.taxRegistrationId, p, 'taxRegistrationId');
    f.put(`${key}.additionalLegalInfo`, t.legalInfo, p.additionalLegalInfo, p, 'additionalLegalInfo');
    f.id(`${key}.electronicAddress`, t.eaddr, t.eaddrScheme, p.electronicAddress, p, 'electronicAddress');
    f.address(`${key}.address`, t.address, p.address);
    p.contacts.forEach((c, i) => f.contact(`${key}.contacts[${i}]`, t.contact, c));
  }
  const payee = inv.payee;
  if (payee) {
    f.put('payee.name', 'BT-59', payee.name, payee, 'name');
    payee.identifiers.forEach((id, i) => f.id(`payee.identifiers[${i}]`, 'BT-60', 'BT-60-1', id, payee, `identifiers[${i}]`));
    f.id('payee.legalRegistrationId', 'BT-61', 'BT-61-1', payee.legalRegistrationId, payee, 'legalRegistrationId');
  }
  const rep = inv.taxRepresentative;
  if (rep) {
    f.put('taxRepresentative.name', 'BT-62', rep.name, rep, 'name');
    f.put('taxRepresentative.vatId', 'BT-63', rep.vatId, rep, 'vatId');
    f.address('taxRepresentative.address', ['BT-64', 'BT-65', 'BT-164', 'BT-66', 'BT-67', 'BT-68', 'BT-69'], rep.address);
  }
  const del = inv.delivery;
  if (del) {
    f.put('delivery.partyName', 'BT-70', del.partyName, del, 'partyName');
    f.id('delivery.locationId', 'BT-71', 'BT-71-1', del.locationId, del, 'locationId');
    f.put('delivery.actualDeliveryDate', 'BT-72', del.actualDeliveryDate, del, 'actualDeliveryDate');
    f.address('delivery.address', ['BT-75', 'BT-76', 'BT-165', 'BT-77', 'BT-78', 'BT-79', 'BT-80'], del.address);
  }
  f.period('invoicingPeriod', 'BT-73', 'BT-74', inv.invoicingPeriod);

  const pay = inv.payment;
  if (pay) {
    f.put('payment.meansCode', 'BT-81', pay.meansCode, pay, 'meansCode');
    f.put('payment.meansText', 'BT-82', pay.meansText, pay, 'meansText');
    f.put('payment.remittanceInformation', 'BT-83', pay.remittanceInformation, pay, 'remittanceInformation');
    pay.creditTransfers.forEach((ct, i) => {
      f.put(`payment.creditTransfers[${i}].accountId`, 'BT-84', ct.accountId, ct, 'accountId');
      f.put(`payment.creditTransfers[${i}].accountName`, 'BT-85', ct.accountName, ct, 'accountName');
      f.put(`payment.creditTransfers[${i}].serviceProviderId`, 'BT-86', ct.serviceProviderId, ct, 'serviceProviderId');
    });
    if (pay.card) {
      f.put('payment.card.primaryAccountNumber', 'BT-87', pay.card.primaryAccountNumber, pay.card, 'primaryAccountNumber');
      f.put('payment.card.holderName', 'BT-88', pay.card.holderName, pay.card, 'holderName');
    }
    const dd = pay.directDebit;
    if (dd) {
      f.put('payment.directDebit.mandateReference', 'BT-89', dd.mandateReference, dd, 'mandateReference');
      f.put('payment.directDebit.creditorId', 'BT-90', dd.creditorId, dd, 'creditorId');
      f.put('payment.directDebit.debitedAccountId', 'BT-91', dd.debitedAccountId, dd, 'debitedAccountId');
    }
  }
  inv.allowances.forEach((a, i) =>
    allowanceCharge(f, `allowances[${i}]`, a, ['BT-92', 'BT-93', 'BT-94', 'BT-97', 'BT-98', 'BT-95', 'BT-96'], true),
  );
  inv.charges.forEach((c, i) =>
    allowanceCharge(f, `charges[${i}]`, c, ['BT-99', 'BT-100', 'BT-101', 'BT-104', 'BT-105', 'BT-102', 'BT-103'], true),
  );
  const t = inv.totals;
  f.put('totals.lineNetTotal', 'BT-106', t.lineNetTotal, t, 'lineNetTotal', true);
  f.put('totals.allowanceTotal', 'BT-107', t.allowanceTotal, t, 'allowanceTotal', true);
  f.put('totals.chargeTotal', 'BT-108', t.chargeTotal, t, 'chargeTotal', true);
  f.put('totals.taxExclusiveAmount', 'BT-109', t.taxExclusiveAmount, t, 'taxExclusiveAmount', true);
  f.put('totals.taxTotal', 'BT-110', t.taxTotal, t, 'taxTotal', true);
  f.put('totals.taxTotalAccountingCurrency', 'BT-111', t.taxTotalAccountingCurrency, t, 'taxTotalAccountingCurrency', true);
  f.put('totals.taxInclusiveAmount', 'BT-112', t.taxInclusiveAmount, t, 'taxInclusiveAmount', true);
  f.put('totals.paidAmount', 'BT-113', t.paidAmount, t, 'paidAmount', true);
  f.put('totals.roundingAmount', 'BT-114', t.roundingAmount, t, 'roundingAmount', true);
  f.put('totals.amountDue', 'BT-115', t.amountDue, t, 'amountDue', true);
  inv.vatBreakdown.forEach((b, i) => {
    const p = `vatBreakdown[${i}]`;
    f.put(`${p}.taxableAmount`, 'BT-116', b.taxableAmount, b, 'taxableAmount', true);
    f.put(`${p}.taxAmount`, 'BT-117', b.taxAmount, b, 'taxAmount', true);
    f.put(`${p}.categoryCode`, 'BT-118', b.categoryCode, b, 'categoryCode');
    f.put(`${p}.rate`, 'BT-119', b.rate, b, 'rate', true);
    f.put(`${p}.exemptionReason`, 'BT-120', b.exemptionReason, b, 'exemptionReason');
    f.put(`${p}.exemptionReasonCode`, 'BT-121', b.exemptionReasonCode, b, 'exemptionReasonCode');
  });
  inv.supportingDocuments.forEach((d, i) => {
    const p = `supportingDocuments[${i}]`;
    f.put(`${p}.reference`, 'BT-122', d.reference, d, 'reference');
    f.put(`${p}.description`, 'BT-123', d.description, d, 'description');
    f.put(`${p}.externalLocation`, 'BT-124', d.externalLocation, d, 'externalLocation');
    const att = d.attachment;
    if (att) {
      f.put(`${p}.attachment`, 'BT-125', att.contentBase64, d, 'attachment');
      f.put(`${p}.attachment@mimeCode`, 'BT-125-1', att.mimeCode, d, 'attachment');
      f.put(`${p}.attachment@filename`, 'BT-125-2', att.filename, d, 'attachment');
    }
  });
  inv.lines.forEach((l, i) => line(f, `lines[${i}]`, l));
  return f.out;
}

/**
 * Where `a` and `b` differ, term by term: values of `a` that `b` lacks or holds otherwise (`b` absent or
 * different), and values only `b` has (`a` absent). In model-path order of `a`, then `b`'s additions.
 */
export function diffInvoices(a: Invoice, b: Invoice): TermDifference[] {
  const fa = flattenInvoice(a);
  const fb = flattenInvoice(b);
  const out: TermDifference[] = [];
  for (const [path, va] of fa) {
    const vb = fb.get(path);
    if (vb?.value === va.value) continue;
    const d: TermDifference = { path, term: va.term, a: va.value, location: locationOf(va.owner, va.field) };
    if (vb) d.b = vb.value;
    out.push(d);
  }
  for (const [path, vb] of fb) if (!fa.has(path)) out.push({ path, term: vb.term, b: vb.value });
  return out;
}
