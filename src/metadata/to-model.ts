/**
 * Invoice metadata (validated) → EN 16931 semantic model, with the defaults the service applies:
 * type code 380, currency EUR, VAT category S, line ids 1..n, price base quantity 1, exemption reasons for
 * AE/K/G/O, guideline id (BT-24) and business process (BT-23) of the profile. Derived amounts are computed
 * afterwards by compute.ts.
 */
import { Big, parseDec } from '../model/decimal.js';
import {
  emptyInvoice,
  emptyLine,
  type Address,
  type Contact,
  type DocumentAllowanceCharge,
  type Identifier,
  type Invoice,
  type InvoiceLine,
  type LineAllowanceCharge,
  type Party,
  type VatBreakdown,
} from '../model/invoice.js';
import {
  CREDIT_NOTE_TYPE_CODES,
  GUIDELINE_ID,
  PEPPOL_BILLING_PROCESS,
  UBL_CUSTOMIZATION_ID,
  type OutputProfile,
  type OutputSyntax,
  type ProfileId,
  type UblProfileId,
} from '../model/profiles.js';
import { vatKey } from './compute.js';
import type { AddressMetadata, InvoiceMetadata, LineItemMetadata } from './schema.js';

/** BT-23 written for XRechnung (Peppol BIS billing process, which XRechnung 3.0 expects). */
export const XRECHNUNG_BUSINESS_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** Exemption reasons written when the caller gives none for a category that needs one. */
export const DEFAULT_EXEMPTIONS: Record<string, { reason: string; code: string }> = {
  AE: { reason: 'Reverse charge', code: 'VATEX-EU-AE' },
  K: { reason: 'Intra-community supply', code: 'VATEX-EU-IC' },
  G: { reason: 'Export outside the EU', code: 'VATEX-EU-G' },
  O: { reason: 'Not subject to VAT', code: 'VATEX-EU-O' },
};

/** BT-8: EN 16931 names UNTDID 2005 codes; CII writes them as UNTDID 2475 (3 → 5, 35 → 29, 432 → 72). */
const CII_TAX_POINT_CODE: Record<string, string> = { '3': '5', '35': '29', '432': '72' };

function address(a: AddressMetadata | undefined): Address | undefined {
  if (!a) return undefined;
  return {
    line1: a.line1,
    line2: a.line2,
    line3: a.line3,
    city: a.city,
    postcode: a.postcode,
    countrySubdivision: a.country_subdivision,
    countryCode: a.country_code,
  };
}

function identifier(i: { id: string; scheme?: string } | undefined): Identifier | undefined {
  return i ? { value: i.id, schemeId: i.scheme } : undefined;
}

function party(p: InvoiceMetadata['seller'] | InvoiceMetadata['buyer']): Party {
  const contacts: Contact[] = [];
  const c = p.contact;
  const email = c?.email ?? p.email;
  if (c || email) contacts.push({ name: c?.name, department: c?.department, phone: c?.phone, email });
  const out: Party = {
    name: p.name,
    tradingName: p.trading_name,
    identifiers: (p.identifiers ?? []).map((i) => identifier(i)!),
    legalRegistrationId: p.registration_id ? { value: p.registration_id, schemeId: p.registration_scheme } : undefined,
    vatId: p.vat_number,
    electronicAddress: identifier(p.electronic_address),
    address: address(p.address),
    contacts,
  };
  if ('tax_number' in p) out.taxRegistrationId = p.tax_number;
  if ('additional_legal_info' in p) out.additionalLegalInfo = p.additional_legal_info;
  return out;
}

function allowanceCharge(ac: {
  amount?: string;
  base_amount?: string;
  percentage?: string;
  reason?: string;
  reason_code?: string;
}): LineAllowanceCharge {
  return { amount: ac.amount, baseAmount: ac.base_amount, percentage: ac.percentage, reason: ac.reason, reasonCode: ac.reason_code };
}

function line(l: LineItemMetadata, index: number): InvoiceLine {
  const out = emptyLine(l.id ?? String(index + 1));
  out.note = l.note;
  out.quantity = l.quantity;
  out.unitCode = l.unit_code;
  out.netAmount = l.line_total;
  out.objectIdentifier = identifier(l.object_identifier);
  out.orderLineReference = l.order_line_reference;
  out.buyerAccountingReference = l.accounting_reference;
  if (l.period) out.period = { start: l.period.start, end: l.period.end };
  out.allowances = (l.allowances ?? []).map(allowanceCharge);
  out.charges = (l.charges ?? []).map(allowanceCharge);
  // BG-29: net = gross − discount; discount = gross − net (PEPPOL-EN16931-R046).
  out.netPrice = l.net_price;
  const gross = parseDec(l.gross_price);
  if (gross) {
    const discount = parseDec(l.price_discount);
    const net = parseDec(l.net_price) ?? gross.minus(discount ?? new Big('0'));
    out.netPrice ??= net.toFixed();
    out.grossPrice = l.gross_price;
    out.priceDiscount = l.price_discount ?? gross.minus(net).toFixed();
  }
  out.priceBaseQuantity = l.price_base_quantity;
  if (l.price_base_quantity) out.priceBaseQuantityUnitCode = l.price_base_quantity_unit_code ?? l.unit_code;
  out.vatCategoryCode = l.vat_category ?? 'S';
  out.vatRate = rateFor(out.vatCategoryCode, l.vat_rate);
  out.itemName = l.name;
  out.itemDescription = l.description;
  out.sellerItemId = l.seller_item_id;
  out.buyerItemId = l.buyer_item_id;
  out.standardItemId = identifier(l.standard_item_id);
  out.classifications = (l.classifications ?? []).map((c) => ({ value: c.code, schemeId: c.list_id, listVersionId: c.list_version }));
  out.originCountryCode = l.origin_country;
  out.attributes = (l.attributes ?? []).map((a) => ({ name: a.name, value: a.value }));
  out.subtype = l.subtype;
  out.parentLineId = l.parent_line_id;
  out.vatExemptionReason = l.vat_exemption_reason;
  out.vatExemptionReasonCode = l.vat_exemption_reason_code;
  out.subInvoiceNumber = l.sub_invoice_number;
  out.subInvoiceFramework = l.sub_invoice_framework;
  if (l.seller) {
    const s = l.seller;
    out.itemSeller = {
      name: s.name,
      globalId: identifier(s.global_id),
      legalRegistrationId: s.registration_id ? { value: s.registration_id, schemeId: s.registration_scheme } : undefined,
      vatId: s.vat_number,
      countryCode: s.country_code,
    };
  }
  return out;
}

/** Zero-rated and exempt categories carry rate 0; O carries none. */
function rateFor(category: string, rate: string | undefined): string | undefined {
  if (category === 'O') return undefined;
  if (rate !== undefined) return rate;
  return ['Z', 'E', 'AE', 'K', 'G'].includes(category) ? '0' : undefined;
}

function documentAllowanceCharge(
  ac: NonNullable<InvoiceMetadata['allowances']>[number],
  soleLineVat: { category: string; rate?: string } | undefined,
): DocumentAllowanceCharge {
  const category = ac.vat_category ?? soleLineVat?.category ?? 'S';
  return {
    ...allowanceCharge(ac),
    vatCategoryCode: category,
    vatRate: rateFor(category, ac.vat_rate ?? (ac.vat_category ? undefined : soleLineVat?.rate)),
  };
}

/**
 * BT-72 when the metadata gives no delivery date, and only where the invoice would otherwise lack one of:
 * - the time of supply: no delivery date, no invoicing period, not every line with a period. An invoice states when
 *   it supplied (EU VAT directive art. 226 (7), German UStG §14 (4) 6; XRechnung's BR-DE-TMP-32 asks for it);
 *   without another statement the supply is dated on the invoice: BT-72 = BT-2.
 * - content in CII's mandatory delivery element (BASIC and up): an empty ApplicableHeaderTradeDelivery draws
 *   PEPPOL-EN16931-R008 in the Factur-X sets. With an invoicing period the supply ended with it: BT-72 = its end.
 * Documented in docs/api.md; a delivery.date given always wins.
 */
function defaultDeliveryDate(meta: InvoiceMetadata, profile: ProfileId): string | undefined {
  const d = meta.delivery;
  if (d?.date || profile === 'minimum') return undefined;
  const lines = meta.line_items ?? [];
  const period = meta.invoice_period;
  const timeOfSupply = !!(period?.start || period?.end) || (lines.length > 0 && lines.every((l) => l.period?.start || l.period?.end));
  const deliveryContent =
    !!(d?.party_name || d?.location_id || d?.address || meta.despatch_advice_reference) ||
    (!!meta.receiving_advice_reference && profile !== 'basic_wl' && profile !== 'basic');
  if (!timeOfSupply) return meta.invoice_date;
  // XRechnung exempts the delivery element from R008; BASIC WL's set does not carry R008.
  if (deliveryContent || !(profile === 'basic' || profile === 'en16931' || profile === 'extended' || profile === 'extended_ctc_fr'))
    return undefined;
  return period?.end ?? period?.start ?? meta.invoice_date;
}

export interface ModelWithGiven {
  invoice: Invoice;
  /** The CII profile whose content the invoice has (Peppol: en16931). */
  profile: ProfileId;
  /** The profile asked for (`profile`, default en16931), Peppol included. */
  target: OutputProfile;
  /** The syntax to write: `syntax`, by default CII (UBL for Peppol). */
  syntax: OutputSyntax;
  /** What the caller gave for values that are otherwise computed (checked by compute.ts). */
  given: { breakdown: VatBreakdown[]; totals: Invoice['totals'] };
}

/**
 * EXTENDED-CTC-FR needs a billing framework (BT-23, BR-FR-08): without one, M1, the framework of a single invoice for
 * goods and services alike (B1 goods, S1 services are narrower), is written.
 */
const FRENCH_DEFAULT_FRAMEWORK = 'M1';

export function metadataToModel(meta: InvoiceMetadata): ModelWithGiven {
  const target: OutputProfile = meta.profile ?? 'en16931';
  const syntax: OutputSyntax = meta.syntax ?? (target === 'peppol' ? 'ubl' : 'cii');
  // Peppol BIS Billing 3.0 carries what EN 16931 carries: the same content, its own identifiers.
  const profile: ProfileId = target === 'peppol' ? 'en16931' : target;
  const typeCode = meta.document_type_code ?? '380';
  const inv = emptyInvoice(CREDIT_NOTE_TYPE_CODES.has(typeCode) ? 'credit-note' : 'invoice');
  inv.number = meta.invoice_number;
  inv.issueDate = meta.invoice_date;
  inv.typeCode = typeCode;
  inv.currency = meta.currency ?? 'EUR';
  inv.vatAccountingCurrency = meta.tax_currency;
  inv.taxPointDate = meta.tax_point_date;
  inv.taxPointDateCode = meta.tax_point_date_code && (CII_TAX_POINT_CODE[meta.tax_point_date_code] ?? meta.tax_point_date_code);
  inv.dueDate = meta.due_date;
  inv.buyerReference = meta.buyer_reference;
  inv.projectReference = meta.project_reference;
  inv.contractReference = meta.contract_reference;
  inv.purchaseOrderReference = meta.purchase_order_reference;
  inv.salesOrderReference = meta.sales_order_reference;
  inv.receivingAdviceReference = meta.receiving_advice_reference;
  inv.despatchAdviceReference = meta.despatch_advice_reference;
  inv.tenderOrLotReference = meta.tender_or_lot_reference;
  inv.invoicedObjectIdentifier = identifier(meta.invoiced_object_identifier);
  inv.buyerAccountingReference = meta.buyer_accounting_reference;
  inv.paymentTerms = meta.payment_terms;
  inv.notes = (meta.notes ?? []).map((n) => ({ text: n.text, subjectCode: n.subject_code }));
  inv.businessProcess =
    meta.business_process ??
    (profile === 'xrechnung'
      ? XRECHNUNG_BUSINESS_PROCESS
      : target === 'peppol'
        ? PEPPOL_BILLING_PROCESS
        : profile === 'extended_ctc_fr'
          ? FRENCH_DEFAULT_FRAMEWORK
          : undefined);
  inv.specificationId = syntax === 'ubl' ? UBL_CUSTOMIZATION_ID[target as UblProfileId] : GUIDELINE_ID[profile];
  inv.precedingInvoices = (meta.preceding_invoices ?? []).map((p) => ({ number: p.number, date: p.date }));
  inv.seller = party(meta.seller);
  inv.buyer = party(meta.buyer);
  if (meta.payee) {
    inv.payee = {
      name: meta.payee.name,
      identifiers: (meta.payee.identifiers ?? []).map((i) => identifier(i)!),
      legalRegistrationId: meta.payee.registration_id
        ? { value: meta.payee.registration_id, schemeId: meta.payee.registration_scheme }
        : undefined,
    };
  }
  if (meta.tax_representative) {
    inv.taxRepresentative = {
      name: meta.tax_representative.name,
      vatId: meta.tax_representative.vat_number,
      address: address(meta.tax_representative.address),
    };
  }
  if (meta.delivery) {
    inv.delivery = {
      partyName: meta.delivery.party_name,
      locationId: identifier(meta.delivery.location_id),
      actualDeliveryDate: meta.delivery.date,
      address: address(meta.delivery.address),
    };
  }
  if (meta.invoice_period) inv.invoicingPeriod = { start: meta.invoice_period.start, end: meta.invoice_period.end };
  const defaultDate = defaultDeliveryDate(meta, profile);
  if (defaultDate) inv.delivery = { ...(inv.delivery ?? {}), actualDeliveryDate: defaultDate };
  inv.supportingDocuments = (meta.supporting_documents ?? []).map((d) => ({
    reference: d.reference,
    description: d.description,
    externalLocation: d.external_location,
    attachment: d.attachment && { mimeCode: d.attachment.mime_code, filename: d.attachment.filename, contentBase64: d.attachment.content },
  }));
  if (meta.payment) {
    const p = meta.payment;
    inv.payment = {
      meansCode: p.means_code,
      meansText: p.means_text,
      remittanceInformation: p.remittance_information,
      creditTransfers: (p.credit_transfers ?? []).map((ct) => ({
        accountId: ct.iban ?? ct.account_id,
        proprietaryId: !ct.iban,
        accountName: ct.account_name,
        serviceProviderId: ct.bic,
      })),
      card: p.card ? { primaryAccountNumber: p.card.account_number, holderName: p.card.holder_name } : undefined,
      directDebit: p.direct_debit
        ? {
            mandateReference: p.direct_debit.mandate_reference,
            creditorId: p.direct_debit.creditor_id,
            debitedAccountId: p.direct_debit.debited_account,
          }
        : undefined,
    };
  }

  inv.lines = (meta.line_items ?? []).map(line);
  const lineVats = new Map(inv.lines.map((l) => [vatKey(l.vatCategoryCode, l.vatRate), l]));
  const sole = lineVats.size === 1 ? [...lineVats.values()][0] : undefined;
  const soleVat = sole ? { category: sole.vatCategoryCode ?? 'S', rate: sole.vatRate } : undefined;
  inv.allowances = (meta.allowances ?? []).map((a) => documentAllowanceCharge(a, soleVat));
  inv.charges = (meta.charges ?? []).map((c) => documentAllowanceCharge(c, soleVat));

  const givenBreakdown: VatBreakdown[] = (meta.tax_breakdown ?? []).map((t) => {
    const fallback = DEFAULT_EXEMPTIONS[t.category];
    const hasOwn = t.exemption_reason !== undefined || t.exemption_reason_code !== undefined;
    return {
      categoryCode: t.category,
      rate: rateFor(t.category, t.rate),
      taxableAmount: t.basis_amount,
      taxAmount: t.tax_amount,
      exemptionReason: hasOwn ? t.exemption_reason : fallback?.reason,
      exemptionReasonCode: hasOwn ? t.exemption_reason_code : fallback?.code,
    };
  });
  // Categories used by lines but absent from the given breakdown still need their default exemption reason.
  for (const l of [...inv.lines, ...inv.allowances, ...inv.charges]) {
    const cat = l.vatCategoryCode ?? 'S';
    const fallback = DEFAULT_EXEMPTIONS[cat];
    if (!fallback) continue;
    const rate = l.vatRate;
    if (givenBreakdown.some((b) => b.categoryCode === cat && vatKey(cat, b.rate) === vatKey(cat, rate))) continue;
    givenBreakdown.push({ categoryCode: cat, rate, exemptionReason: fallback.reason, exemptionReasonCode: fallback.code });
  }

  return {
    invoice: inv,
    profile,
    target,
    syntax,
    given: {
      breakdown: givenBreakdown,
      totals: {
        lineNetTotal: meta.line_total_amount,
        allowanceTotal: meta.allowance_total_amount,
        chargeTotal: meta.charge_total_amount,
        taxExclusiveAmount: meta.total_net_amount,
        taxTotal: meta.total_tax_amount,
        taxTotalAccountingCurrency: meta.tax_total_in_tax_currency,
        taxInclusiveAmount: meta.total_gross_amount,
        paidAmount: meta.paid_amount,
        roundingAmount: meta.rounding_amount,
        amountDue: meta.amount_due,
      },
    },
  };
}
