/**
 * The invoices of the Peppol benchmarks: our Belgian Peppol test base (2 lines, 7 KB) and the same with its second
 * line repeated to 1,000 lines (totals recomputed, so both are valid), each also declared as plain EN 16931 UBL (the
 * CustomizationID only), the baseline the Peppol layer's cost is measured against.
 */
import { Big } from '../src/model/decimal.js';
import { BASES, buildBase } from '../scripts/peppol-cases/bases.js';

export const PEPPOL_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';

/** The base with its second line repeated to `lines` lines in all, the totals recomputed (21% VAT). */
export function withLines(xml: string, lines: number): string {
  const open = '<cac:InvoiceLine><cbc:ID>2</cbc:ID>';
  const start = xml.indexOf(open);
  const end = xml.indexOf('</cac:InvoiceLine>', start) + '</cac:InvoiceLine>'.length;
  const line = xml.slice(start, end);
  const copies = Array.from({ length: lines - 1 }, (_, i) => line.replace('<cbc:ID>2</cbc:ID>', `<cbc:ID>${i + 2}</cbc:ID>`));
  const lineTotal = new Big('475').plus(new Big('200').times(new Big(String(lines - 1))));
  const taxable = lineTotal.minus(new Big('50')).plus(new Big('20'));
  const tax = taxable.times(new Big('0.21')).round(2, Big.roundHalfUp);
  const f = (v: InstanceType<typeof Big>) => v.toFixed(2);
  return (xml.slice(0, start) + copies.join('') + xml.slice(end))
    .replace(/(<cbc:TaxAmount currencyID="EUR">)[^<]*/g, `$1${f(tax)}`)
    .replace(/(<cbc:TaxableAmount currencyID="EUR">)[^<]*/, `$1${f(taxable)}`)
    .replace(/(<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">)[^<]*/, `$1${f(lineTotal)}`)
    .replace(/(<cbc:TaxExclusiveAmount currencyID="EUR">)[^<]*/, `$1${f(taxable)}`)
    .replace(/(<cbc:TaxInclusiveAmount currencyID="EUR">)[^<]*/, `$1${f(taxable.plus(tax))}`)
    .replace(/(<cbc:PayableAmount currencyID="EUR">)[^<]*/, `$1${f(taxable.plus(tax))}`);
}

export type InvoiceSize = 'typical' | '1000';

/** The Peppol invoice of a size, as XML text. */
export function peppolInvoice(size: InvoiceSize): string {
  const base = buildBase(BASES.be);
  return size === 'typical' ? base : withLines(base, 1000);
}

/** The same invoice declared as plain EN 16931 UBL: no Peppol rules run on it. */
export const asPlainEn16931 = (peppolXml: string) => peppolXml.replace(PEPPOL_ID, 'urn:cen.eu:en16931:2017');
