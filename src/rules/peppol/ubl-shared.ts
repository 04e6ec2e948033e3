/**
 * The Peppol BIS 3.0 UBL tests that Peppol's own rule set (core.ts) and XRechnung's copy of the Peppol rules
 * (src/rules/xrechnung/peppol.ts) state identically: one implementation, used by both. Rules whose XRechnung form
 * differs stay with their set (XRechnung's R040/R120 slack depends on the currency, its R046 holds when the
 * discount amount is missing, R055 compares decimals).
 */
import type { XmlElement } from '../../xml/dom.js';
import { has, norm, sel, value, values } from '../xrechnung/dom.js';

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
export const lineReferenceIsObject = (line: XmlElement) =>
  !has(line, 'cac:DocumentReference') || values(line, 'cac:DocumentReference/cbc:DocumentTypeCode').includes('130');

/** R044 on a price allowance: its charge indicator is 'false'. */
export const priceAllowanceIsAllowance = (ac: XmlElement) => norm(value(ac, 'cbc:ChargeIndicator')) === 'false';
