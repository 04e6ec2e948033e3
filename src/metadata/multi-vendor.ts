/**
 * Multi-vendor invoices (French billing frameworks S8, B8, M8; AFNOR XP Z12-012, rules BR-FR-MV-*): one invoice made of
 * sub-invoices, one per seller, each a GROUP line without parent over its DETAIL (and INFORMATION) sub-lines. What the
 * caller states once per sub-invoice is carried to every line of it here, before the amounts are computed, and the
 * sub-invoice totals are filled in after:
 * - the head's seller (`line_items[].seller`, by default the invoice's own seller: name, SIREN, VAT number, country); every
 *   sub-line carries its legal identifier (BR-FR-MV-03, MV-06);
 * - the sub-invoice number (BT-128, reference type AFL, type 130) on every line (MV-07): `sub_invoice_number` of the head,
 *   by default the invoice number for the invoice seller's own sub-invoice (MV-11); the sub-invoice's framework (AVV) on
 *   the head: `sub_invoice_framework`, by default S1 / B1 / M1 for S8 / B8 / M8 (MV-03);
 * - every line states its subtype (MV-01: DETAIL when not given);
 * - the VAT exemption reason of each DETAIL line starts with `#<sub-invoice number>#` (MV-08), so the VAT breakdown is
 *   split per sub-invoice (src/metadata/compute.ts groups by reason) and each head's VAT total (EXT-FR-FE-181) is the sum
 *   of its sub-invoice's breakdowns (MV-09), its total with VAT (EXT-FR-FE-184) net + VAT (MV-10).
 * The metadata checks (src/metadata/validate.ts, multiVendorErrors) have made sure each line has a head and each head
 * what it needs, so nothing here fails.
 */
import { Big, decOrZero, toFixedHalfUp } from '../model/decimal.js';
import type { Invoice, InvoiceLine, LineSeller } from '../model/invoice.js';

export const MULTI_VENDOR_FRAMEWORKS = ['S8', 'B8', 'M8'] as const;

/** The framework (BT-23) makes this a multi-vendor invoice. */
export function isMultiVendor(businessProcess: string | undefined): boolean {
  return (MULTI_VENDOR_FRAMEWORKS as readonly string[]).includes(businessProcess ?? '');
}

/** The framework of a sub-invoice when the caller names none: the single-invoice framework of the same kind. */
export const defaultSubInvoiceFramework = (businessProcess: string): string => `${businessProcess[0]}1`;

/** The GROUP line without parent above a line (the line itself for a head), following parent_line_id. */
export function headOf(line: InvoiceLine, byId: Map<string | undefined, InvoiceLine>): InvoiceLine | undefined {
  const seen = new Set<InvoiceLine>();
  let cur: InvoiceLine | undefined = line;
  while (cur && !seen.has(cur)) {
    if (cur.parentLineId === undefined) return cur.subtype === 'GROUP' ? cur : undefined;
    seen.add(cur);
    cur = byId.get(cur.parentLineId);
  }
  return undefined;
}

/** The invoice seller as the seller of a sub-invoice. */
function ownSeller(inv: Invoice): LineSeller {
  return {
    name: inv.seller.name,
    legalRegistrationId: inv.seller.legalRegistrationId,
    vatId: inv.seller.vatId,
    countryCode: inv.seller.address?.countryCode,
  };
}

/** Same legal registration (SIREN) as the invoice's seller: the seller's own sub-invoice. */
export const isOwnSubInvoice = (sellerId: string | undefined, invoiceSellerId: string | undefined): boolean =>
  sellerId === undefined || sellerId === invoiceSellerId;

/** Before the amounts: carry each sub-invoice's seller, number and marker to its lines (see the module comment). */
export function prepareMultiVendor(inv: Invoice): void {
  if (!isMultiVendor(inv.businessProcess)) return;
  const byId = new Map(inv.lines.map((l) => [l.id, l]));
  const own = ownSeller(inv);
  for (const head of inv.lines.filter((l) => l.subtype === 'GROUP' && l.parentLineId === undefined)) {
    head.itemSeller ??= own;
    if (isOwnSubInvoice(head.itemSeller.legalRegistrationId?.value, own.legalRegistrationId?.value)) head.subInvoiceNumber ??= inv.number;
    head.subInvoiceFramework ??= defaultSubInvoiceFramework(inv.businessProcess!);
  }
  for (const line of inv.lines) {
    line.subtype ??= 'DETAIL';
    const head = headOf(line, byId);
    if (!head || head === line) continue;
    line.subInvoiceNumber = head.subInvoiceNumber;
    // Sub-lines name their seller by its legal identifier, as the sub-invoice's head does (BR-FR-MV-06).
    line.itemSeller = { ...(line.itemSeller ?? {}), legalRegistrationId: head.itemSeller?.legalRegistrationId };
    if (line.subtype === 'DETAIL') {
      const marker = `#${head.subInvoiceNumber}#`;
      const reason = line.vatExemptionReason ?? '';
      line.vatExemptionReason = reason.startsWith(marker) ? reason : marker + reason;
    }
  }
}

/** After the amounts: each sub-invoice's VAT total (its VAT breakdowns) and total with VAT, on its head. */
export function completeMultiVendor(inv: Invoice): void {
  if (!isMultiVendor(inv.businessProcess)) return;
  for (const head of inv.lines.filter((l) => l.subtype === 'GROUP' && l.parentLineId === undefined)) {
    const marker = `#${head.subInvoiceNumber}#`;
    let vat = new Big('0');
    for (const b of inv.vatBreakdown) if ((b.exemptionReason ?? '').startsWith(marker)) vat = vat.plus(decOrZero(b.taxAmount));
    head.taxTotal = toFixedHalfUp(vat);
    head.grossTotal = toFixedHalfUp(decOrZero(head.netAmount).plus(vat));
  }
}
