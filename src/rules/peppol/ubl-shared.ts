/**
 * The Peppol BIS 3.0 UBL tests that Peppol's own rule set (core.ts) and XRechnung's copy of the Peppol rules
 * (src/rules/xrechnung/peppol.ts) state identically: one implementation, used by both. Rules whose XRechnung form
 * differs stay with their set (XRechnung's R040/R120 slack depends on the currency, its R046 holds when the
 * discount amount is missing, R055 compares decimals).
 */
import { child, type XmlElement } from '../../xml/dom.js';
import { NS } from '../../xml/namespaces.js';
import { has, norm, sel, text, value } from '../xrechnung/dom.js';

/** R001 on the document element: the business process (BT-23) is there. */
export const hasProfileId = (root: XmlElement) => has(root, 'cbc:ProfileID');

/** R010 / R020 on a party: its electronic address (BT-49 / BT-34) is there. */
export const hasEndpointId = (party: XmlElement) => has(party, 'cbc:EndpointID');

/** R053: exactly one TaxTotal with VAT breakdown. */
export const oneTaxTotalWithBreakdown = (root: XmlElement) =>
  sel(root, 'cac:TaxTotal').filter((t) => has(t, 'cac:TaxSubtotal')).length === 1;

/** R054: one TaxTotal without breakdown when the VAT accounting currency (BT-6) is given, none otherwise. */
export const taxTotalInAccountingCurrency = (root: XmlElement) =>
  sel(root, 'cac:TaxTotal').filter((t) => !has(t, 'cac:TaxSubtotal')).length === (has(root, 'cbc:TaxCurrencyCode') ? 1 : 0);

/** R061's context: payment means 49 or 59 (direct debit), normalised. */
export const isDirectDebit = (pm: XmlElement) => ['49', '59'].includes(norm(value(pm, 'cbc:PaymentMeansCode')));

/** R061: a direct debit gives the mandate reference (BT-89). */
export const hasMandateReference = (pm: XmlElement) => has(pm, 'cac:PaymentMandate/cbc:ID');

/** R101 on a line: a referenced document may only be the invoiced object (type code 130). */
export function lineReferenceIsObject(line: XmlElement): boolean {
  let any = false;
  for (const ref of line.children) {
    if (ref.local !== 'DocumentReference' || ref.ns !== NS.cac) continue;
    any = true;
    for (const c of ref.children) if (c.local === 'DocumentTypeCode' && c.ns === NS.cbc && text(c) === '130') return true;
  }
  return !any;
}

/** R044 on a price allowance: its charge indicator is 'false'. */
export const priceAllowanceIsAllowance = (ac: XmlElement) => {
  const indicator = child(ac, NS.cbc, 'ChargeIndicator');
  return indicator !== undefined && norm(text(indicator)) === 'false';
};
