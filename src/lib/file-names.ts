/** Download names for generated files, derived from the invoice number (the HTTP layer puts them in Content-Disposition). */

/**
 * A safe file name stem from an invoice number: letters, digits, dot, dash and underscore kept (other
 * characters become "_"), no leading dots, at most 100 characters; `fallback` when nothing usable is left.
 */
export function fileStem(invoiceNumber: string | undefined | null, fallback: string): string {
  const stem = (invoiceNumber ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off, "Rechnung-Nr-ü" → "Rechnung-Nr-u"
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .replace(/_+$/, '')
    .slice(0, 100);
  return stem || fallback;
}

/** The download name of a hybrid invoice PDF, e.g. "RE-2026-0042.pdf", "invoice.pdf" without a number. */
export function invoicePdfName(invoiceNumber: string | undefined | null): string {
  return `${fileStem(invoiceNumber, 'invoice')}.pdf`;
}
