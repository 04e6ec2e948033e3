/**
 * EN 16931 model → OASIS UBL 2.1 Invoice or CreditNote, following the EN 16931-3-2 UBL syntax binding: plain
 * EN 16931, XRechnung 3.0 UBL and Peppol BIS Billing 3.0 (which differ only in CustomizationID / ProfileID, taken
 * from the model's BT-24 / BT-23, and in what their rules require of the content).
 *
 * Elements are written in the order and with the cardinalities of the UBL 2.1 schema (src/xml/ubl/). A credit note
 * (the model's `kind`) is a CreditNote root with its own element names (CreditNoteTypeCode, CreditNoteLine,
 * CreditedQuantity) and order. Like the CII writer it computes nothing, with one exception the syntax forces: UBL
 * carries the VAT breakdown inside a TaxTotal whose TaxAmount (BT-110) is mandatory, so a model with a breakdown
 * and no BT-110 gets the sum of its category tax amounts there.
 *
 * What UBL cannot carry is left out, never invented: a credit note's due date (BT-9) needs a payment means to sit
 * in; a payment reference (BT-83), mandate (BT-89/91) or account needs a payment means code (BT-81); a contact gets
 * one name (a department is the name when there is no person). Callers find such losses by reading the output back
 * (src/transform/) or from the metadata (src/metadata/profile-fit.ts).
 */
import type {
  Address,
  Contact,
  DocumentAllowanceCharge,
  Identifier,
  Invoice,
  InvoiceLine,
  LineAllowanceCharge,
  Party,
  Period,
  VatBreakdown,
} from '../../model/invoice.js';
import { sumDec } from '../../model/decimal.js';
import { XmlBuilder } from '../cii/writer-xml.js';
import { UBL_NS } from './reader.js';

/** BT-8: the UNTDID 2005 codes UBL carries; CII's UNTDID 2475 codes (as the CII reader and the metadata keep them) mapped back. */
const UBL_TAX_POINT_CODE: Record<string, string> = { '5': '3', '29': '35', '72': '432' };

/**
 * cac:CardAccount/cbc:NetworkID is mandatory in UBL 2.1 and has no EN 16931 term (CII carries no card network):
 * written when nothing else is known, meaning "not available".
 */
export const UNKNOWN_CARD_NETWORK = 'NA';

/**
 * cac:OrderReference/cbc:ID (BT-13) is mandatory in UBL when the element is there; a sales order reference (BT-14)
 * without a purchase order reference is written with this placeholder, as the EN 16931 UBL binding prescribes.
 */
export const NO_PURCHASE_ORDER = 'NA';

/**
 * Category O has no rate, but the German rules want one in every VAT breakdown entry, where 0 is the only sensible
 * value: XRechnung (BR-DE-14), and Peppol BIS between a German seller and a German buyer (DE-R-014, by the countries of
 * their postal addresses).
 */
function breakdownRateForO(inv: Invoice): boolean {
  const spec = (inv.specificationId ?? '').toLowerCase();
  if (spec.includes('xrechnung')) return true;
  const german = (p: Party) => p.address?.countryCode?.trim().toUpperCase() === 'DE';
  return spec.includes('urn:fdc:peppol.eu:2017:poacc:billing:3.0') && german(inv.seller) && german(inv.buyer);
}

interface Ctx {
  x: XmlBuilder;
  inv: Invoice;
  creditNote: boolean;
  /** currencyID of every amount but BT-111. */
  currency: string | undefined;
}

/** Writes the UBL XML of `invoice`; throws XmlOutputTooLargeError past `maxChars`. */
export function writeUbl(invoice: Invoice, maxChars?: number): string {
  const creditNote = invoice.kind === 'credit-note';
  const c: Ctx = { x: new XmlBuilder(maxChars), inv: invoice, creditNote, currency: invoice.currency };
  const x = c.x;
  const root = creditNote ? 'CreditNote' : 'Invoice';
  x.open(`${root} xmlns="${creditNote ? UBL_NS.creditNote : UBL_NS.invoice}" xmlns:cac="${UBL_NS.cac}" xmlns:cbc="${UBL_NS.cbc}"`);
  x.leaf('cbc:CustomizationID', invoice.specificationId);
  x.leaf('cbc:ProfileID', invoice.businessProcess);
  x.leaf('cbc:ID', invoice.number);
  x.leaf('cbc:IssueDate', invoice.issueDate);
  if (creditNote) {
    x.leaf('cbc:TaxPointDate', invoice.taxPointDate);
    x.leaf('cbc:CreditNoteTypeCode', invoice.typeCode);
  } else {
    x.leaf('cbc:DueDate', invoice.dueDate);
    x.leaf('cbc:InvoiceTypeCode', invoice.typeCode);
  }
  // BT-21 has no element of its own in UBL: the binding puts the subject code before the text as "#CODE#".
  for (const note of invoice.notes) {
    if (note.text) x.leaf('cbc:Note', note.subjectCode ? `#${note.subjectCode}#${note.text}` : note.text);
  }
  if (!creditNote) x.leaf('cbc:TaxPointDate', invoice.taxPointDate);
  x.leaf('cbc:DocumentCurrencyCode', invoice.currency);
  x.leaf('cbc:TaxCurrencyCode', invoice.vatAccountingCurrency);
  x.leaf('cbc:AccountingCost', invoice.buyerAccountingReference);
  x.leaf('cbc:BuyerReference', invoice.buyerReference);
  const taxPointCode = invoice.taxPointDateCode && (UBL_TAX_POINT_CODE[invoice.taxPointDateCode] ?? invoice.taxPointDateCode);
  writePeriod(c, 'cac:InvoicePeriod', invoice.invoicingPeriod, taxPointCode);
  writeOrderReference(c);
  for (const p of invoice.precedingInvoices) {
    if (!p.number) continue;
    x.open('cac:BillingReference').open('cac:InvoiceDocumentReference');
    x.leaf('cbc:ID', p.number).leaf('cbc:IssueDate', p.date);
    x.close('cac:InvoiceDocumentReference').close('cac:BillingReference');
  }
  x.wrapped('cac:DespatchDocumentReference', 'cbc:ID', invoice.despatchAdviceReference);
  x.wrapped('cac:ReceiptDocumentReference', 'cbc:ID', invoice.receivingAdviceReference);
  // The two roots order the remaining document references differently.
  if (creditNote) {
    x.wrapped('cac:ContractDocumentReference', 'cbc:ID', invoice.contractReference);
    writeAdditionalDocuments(c);
    x.wrapped('cac:OriginatorDocumentReference', 'cbc:ID', invoice.tenderOrLotReference);
  } else {
    x.wrapped('cac:OriginatorDocumentReference', 'cbc:ID', invoice.tenderOrLotReference);
    x.wrapped('cac:ContractDocumentReference', 'cbc:ID', invoice.contractReference);
    writeAdditionalDocuments(c);
    x.wrapped('cac:ProjectReference', 'cbc:ID', invoice.projectReference);
  }

  const creditorId = invoice.payment?.directDebit?.creditorId;
  x.open('cac:AccountingSupplierParty');
  writeParty(c, invoice.seller, 'seller', invoice.payee ? undefined : creditorId);
  x.close('cac:AccountingSupplierParty');
  x.open('cac:AccountingCustomerParty');
  writeParty(c, invoice.buyer, 'buyer');
  x.close('cac:AccountingCustomerParty');
  writePayee(c, creditorId);
  writeTaxRepresentative(c);
  writeDelivery(c);
  writePaymentMeans(c);
  x.wrapped('cac:PaymentTerms', 'cbc:Note', invoice.paymentTerms);
  for (const a of invoice.allowances) writeDocumentAllowanceCharge(c, a, false);
  for (const ch of invoice.charges) writeDocumentAllowanceCharge(c, ch, true);
  writeTaxTotals(c);
  writeMonetaryTotal(c);
  for (const line of invoice.lines) writeLine(c, line);
  x.close(root);
  return x.toString();
}

// ---- document level ---------------------------------------------------------------------------------------

function amount(c: Ctx, name: string, value: string | undefined, currency = c.currency): void {
  c.x.leaf(name, value, { currencyID: currency });
}

function writePeriod(c: Ctx, element: string, p: Period | undefined, descriptionCode?: string): void {
  if (!p?.start && !p?.end && !descriptionCode) return;
  c.x.open(element);
  c.x.leaf('cbc:StartDate', p?.start).leaf('cbc:EndDate', p?.end).leaf('cbc:DescriptionCode', descriptionCode);
  c.x.close(element);
}

function writeOrderReference(c: Ctx): void {
  const { x, inv } = c;
  if (!inv.purchaseOrderReference && !inv.salesOrderReference) return;
  x.open('cac:OrderReference');
  x.leaf('cbc:ID', inv.purchaseOrderReference || NO_PURCHASE_ORDER);
  x.leaf('cbc:SalesOrderID', inv.salesOrderReference);
  x.close('cac:OrderReference');
}

/** BG-24, BT-18 (type code 130) and, in a credit note (which has no ProjectReference), BT-11 (type code 50). */
function writeAdditionalDocuments(c: Ctx): void {
  const { x, inv } = c;
  for (const d of inv.supportingDocuments) {
    if (!d.reference) continue;
    x.open('cac:AdditionalDocumentReference');
    x.leaf('cbc:ID', d.reference);
    x.leaf('cbc:DocumentDescription', d.description);
    const content = d.attachment?.contentBase64;
    if (content || d.externalLocation) {
      x.open('cac:Attachment');
      if (content) {
        x.leaf('cbc:EmbeddedDocumentBinaryObject', content, { mimeCode: d.attachment?.mimeCode, filename: d.attachment?.filename });
      }
      x.wrapped('cac:ExternalReference', 'cbc:URI', d.externalLocation);
      x.close('cac:Attachment');
    }
    x.close('cac:AdditionalDocumentReference');
  }
  const object = inv.invoicedObjectIdentifier;
  if (object?.value) {
    x.open('cac:AdditionalDocumentReference');
    x.leaf('cbc:ID', object.value, { schemeID: object.schemeId });
    x.leaf('cbc:DocumentTypeCode', '130');
    x.close('cac:AdditionalDocumentReference');
  }
  if (c.creditNote && inv.projectReference) {
    x.open('cac:AdditionalDocumentReference').leaf('cbc:ID', inv.projectReference).leaf('cbc:DocumentTypeCode', '50');
    x.close('cac:AdditionalDocumentReference');
  }
}

function writeAddress(c: Ctx, element: string, a: Address | undefined): void {
  if (!a) return;
  const { x } = c;
  x.open(element);
  x.leaf('cbc:StreetName', a.line1);
  x.leaf('cbc:AdditionalStreetName', a.line2);
  x.leaf('cbc:CityName', a.city);
  x.leaf('cbc:PostalZone', a.postcode);
  x.leaf('cbc:CountrySubentity', a.countrySubdivision);
  x.wrapped('cac:AddressLine', 'cbc:Line', a.line3);
  x.wrapped('cac:Country', 'cbc:IdentificationCode', a.countryCode);
  x.close(element);
}

function writePartyIdentification(c: Ctx, id: Identifier | undefined): void {
  if (id?.value) c.x.wrapped('cac:PartyIdentification', 'cbc:ID', id.value, { schemeID: id.schemeId });
}

function writeTaxScheme(c: Ctx, element: string, companyId: string | undefined, scheme: string): void {
  if (!companyId) return;
  c.x.open(element).leaf('cbc:CompanyID', companyId).wrapped('cac:TaxScheme', 'cbc:ID', scheme).close(element);
}

/** BG-6 / BG-9: UBL has one contact name, which is the person or else the department (CII DepartmentName). */
function writeContact(c: Ctx, contact: Contact | undefined): void {
  if (!contact) return;
  const name = contact.name || contact.department;
  if (!name && !contact.phone && !contact.email) return;
  c.x.open('cac:Contact').leaf('cbc:Name', name).leaf('cbc:Telephone', contact.phone).leaf('cbc:ElectronicMail', contact.email);
  c.x.close('cac:Contact');
}

/**
 * BG-4 / BG-7 in cac:Party. The seller carries the SEPA creditor identifier (BT-90) as a party identification with
 * scheme "SEPA" unless there is a payee, which then carries it.
 */
function writeParty(c: Ctx, p: Party, role: 'seller' | 'buyer', creditorId?: string): void {
  const { x } = c;
  x.open('cac:Party');
  if (p.electronicAddress?.value) x.leaf('cbc:EndpointID', p.electronicAddress.value, { schemeID: p.electronicAddress.schemeId });
  // BT-29 repeats; the buyer's BT-46 is 0..1 (UBL-SR-16): a second one is left out.
  for (const id of role === 'seller' ? p.identifiers : p.identifiers.slice(0, 1)) writePartyIdentification(c, id);
  if (creditorId) writePartyIdentification(c, { value: creditorId, schemeId: 'SEPA' });
  x.wrapped('cac:PartyName', 'cbc:Name', p.tradingName);
  writeAddress(c, 'cac:PostalAddress', p.address);
  writeTaxScheme(c, 'cac:PartyTaxScheme', p.vatId, 'VAT');
  // BT-32: a tax registration other than VAT; "FC" as CII's schemeID for it (the KoSIT and CEN examples use it too).
  if (role === 'seller') writeTaxScheme(c, 'cac:PartyTaxScheme', p.taxRegistrationId, 'FC');
  if (p.name || p.legalRegistrationId?.value || (role === 'seller' && p.additionalLegalInfo)) {
    x.open('cac:PartyLegalEntity');
    x.leaf('cbc:RegistrationName', p.name);
    if (p.legalRegistrationId?.value) x.leaf('cbc:CompanyID', p.legalRegistrationId.value, { schemeID: p.legalRegistrationId.schemeId });
    if (role === 'seller') x.leaf('cbc:CompanyLegalForm', p.additionalLegalInfo);
    x.close('cac:PartyLegalEntity');
  }
  writeContact(c, p.contacts[0]);
  x.close('cac:Party');
}

function writePayee(c: Ctx, creditorId: string | undefined): void {
  const { x, inv } = c;
  const p = inv.payee;
  if (!p) return;
  x.open('cac:PayeeParty');
  // BT-60 is 0..1 (UBL-SR-20): a second one is left out.
  writePartyIdentification(c, p.identifiers[0]);
  if (creditorId) writePartyIdentification(c, { value: creditorId, schemeId: 'SEPA' });
  x.wrapped('cac:PartyName', 'cbc:Name', p.name);
  if (p.legalRegistrationId?.value) {
    x.wrapped('cac:PartyLegalEntity', 'cbc:CompanyID', p.legalRegistrationId.value, { schemeID: p.legalRegistrationId.schemeId });
  }
  x.close('cac:PayeeParty');
}

function writeTaxRepresentative(c: Ctx): void {
  const { x, inv } = c;
  const rep = inv.taxRepresentative;
  if (!rep) return;
  x.open('cac:TaxRepresentativeParty');
  x.wrapped('cac:PartyName', 'cbc:Name', rep.name);
  writeAddress(c, 'cac:PostalAddress', rep.address);
  writeTaxScheme(c, 'cac:PartyTaxScheme', rep.vatId, 'VAT');
  x.close('cac:TaxRepresentativeParty');
}

function writeDelivery(c: Ctx): void {
  const { x, inv } = c;
  const d = inv.delivery;
  if (!d || (!d.actualDeliveryDate && !d.locationId?.value && !d.address && !d.partyName)) return;
  x.open('cac:Delivery');
  x.leaf('cbc:ActualDeliveryDate', d.actualDeliveryDate);
  if (d.locationId?.value || d.address) {
    x.open('cac:DeliveryLocation');
    if (d.locationId?.value) x.leaf('cbc:ID', d.locationId.value, { schemeID: d.locationId.schemeId });
    writeAddress(c, 'cac:Address', d.address);
    x.close('cac:DeliveryLocation');
  }
  if (d.partyName) x.open('cac:DeliveryParty').wrapped('cac:PartyName', 'cbc:Name', d.partyName).close('cac:DeliveryParty');
  x.close('cac:Delivery');
}

/**
 * BG-16: one cac:PaymentMeans per credit transfer account (BG-17 is 0..n, a payment means has one payee account),
 * or one without an account. The card (BG-18), the mandate (BG-19) and a credit note's due date go into the first.
 */
function writePaymentMeans(c: Ctx): void {
  const { x, inv } = c;
  const pay = inv.payment;
  if (!pay?.meansCode) return;
  const accounts = pay.creditTransfers.length ? pay.creditTransfers : [undefined];
  for (const [i, ct] of accounts.entries()) {
    x.open('cac:PaymentMeans');
    // BT-82 once (UBL-SR-46), on the first.
    x.leaf('cbc:PaymentMeansCode', pay.meansCode, i === 0 ? { name: pay.meansText } : undefined);
    if (c.creditNote && i === 0) x.leaf('cbc:PaymentDueDate', inv.dueDate);
    x.leaf('cbc:PaymentID', pay.remittanceInformation);
    if (i === 0 && pay.card?.primaryAccountNumber) {
      x.open('cac:CardAccount');
      x.leaf('cbc:PrimaryAccountNumberID', pay.card.primaryAccountNumber);
      x.leaf('cbc:NetworkID', UNKNOWN_CARD_NETWORK);
      x.leaf('cbc:HolderName', pay.card.holderName);
      x.close('cac:CardAccount');
    }
    if (ct?.accountId || ct?.accountName || ct?.serviceProviderId) {
      x.open('cac:PayeeFinancialAccount');
      x.leaf('cbc:ID', ct.accountId);
      x.leaf('cbc:Name', ct.accountName);
      x.wrapped('cac:FinancialInstitutionBranch', 'cbc:ID', ct.serviceProviderId);
      x.close('cac:PayeeFinancialAccount');
    }
    const dd = pay.directDebit;
    if (i === 0 && (dd?.mandateReference || dd?.debitedAccountId)) {
      x.open('cac:PaymentMandate');
      x.leaf('cbc:ID', dd.mandateReference);
      x.wrapped('cac:PayerFinancialAccount', 'cbc:ID', dd.debitedAccountId);
      x.close('cac:PaymentMandate');
    }
    x.close('cac:PaymentMeans');
  }
}

/** cac:TaxCategory or cac:ClassifiedTaxCategory; the caller leaves the rate out where the category has none (O). */
function writeTaxCategory(c: Ctx, element: string, category: string | undefined, rate: string | undefined, exemption?: VatBreakdown): void {
  const { x } = c;
  x.open(element);
  x.leaf('cbc:ID', category);
  x.leaf('cbc:Percent', rate);
  if (exemption) {
    x.leaf('cbc:TaxExemptionReasonCode', exemption.exemptionReasonCode);
    x.leaf('cbc:TaxExemptionReason', exemption.exemptionReason);
  }
  x.wrapped('cac:TaxScheme', 'cbc:ID', 'VAT');
  x.close(element);
}

function writeAllowanceChargeCommon(c: Ctx, ac: LineAllowanceCharge | DocumentAllowanceCharge, charge: boolean): void {
  const { x } = c;
  x.leaf('cbc:ChargeIndicator', charge ? 'true' : 'false');
  x.leaf('cbc:AllowanceChargeReasonCode', ac.reasonCode);
  x.leaf('cbc:AllowanceChargeReason', ac.reason);
  x.leaf('cbc:MultiplierFactorNumeric', ac.percentage);
  amount(c, 'cbc:Amount', ac.amount);
  amount(c, 'cbc:BaseAmount', ac.baseAmount);
}

function writeDocumentAllowanceCharge(c: Ctx, ac: DocumentAllowanceCharge, charge: boolean): void {
  c.x.open('cac:AllowanceCharge');
  writeAllowanceChargeCommon(c, ac, charge);
  writeTaxCategory(c, 'cac:TaxCategory', ac.vatCategoryCode, ac.vatCategoryCode === 'O' ? undefined : ac.vatRate);
  c.x.close('cac:AllowanceCharge');
}

function writeTaxTotals(c: Ctx): void {
  const { x, inv } = c;
  const t = inv.totals;
  if (t.taxTotal !== undefined || inv.vatBreakdown.length) {
    const total = t.taxTotal ?? sumDec(inv.vatBreakdown.map((b) => b.taxAmount)).toFixed(2);
    const rateForO = breakdownRateForO(inv);
    x.open('cac:TaxTotal');
    amount(c, 'cbc:TaxAmount', total);
    for (const b of inv.vatBreakdown) {
      x.open('cac:TaxSubtotal');
      amount(c, 'cbc:TaxableAmount', b.taxableAmount);
      amount(c, 'cbc:TaxAmount', b.taxAmount);
      const rate = b.categoryCode !== 'O' ? b.rate : rateForO ? '0' : undefined;
      writeTaxCategory(c, 'cac:TaxCategory', b.categoryCode, rate, b);
      x.close('cac:TaxSubtotal');
    }
    x.close('cac:TaxTotal');
  }
  if (inv.vatAccountingCurrency && t.taxTotalAccountingCurrency !== undefined) {
    x.open('cac:TaxTotal');
    amount(c, 'cbc:TaxAmount', t.taxTotalAccountingCurrency, inv.vatAccountingCurrency);
    x.close('cac:TaxTotal');
  }
}

function writeMonetaryTotal(c: Ctx): void {
  const t = c.inv.totals;
  c.x.open('cac:LegalMonetaryTotal');
  amount(c, 'cbc:LineExtensionAmount', t.lineNetTotal);
  amount(c, 'cbc:TaxExclusiveAmount', t.taxExclusiveAmount);
  amount(c, 'cbc:TaxInclusiveAmount', t.taxInclusiveAmount);
  amount(c, 'cbc:AllowanceTotalAmount', t.allowanceTotal);
  amount(c, 'cbc:ChargeTotalAmount', t.chargeTotal);
  amount(c, 'cbc:PrepaidAmount', t.paidAmount);
  amount(c, 'cbc:PayableRoundingAmount', t.roundingAmount);
  amount(c, 'cbc:PayableAmount', t.amountDue);
  c.x.close('cac:LegalMonetaryTotal');
}

// ---- lines ------------------------------------------------------------------------------------------------

function writeLine(c: Ctx, l: InvoiceLine): void {
  const { x } = c;
  const element = c.creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  x.open(element);
  x.leaf('cbc:ID', l.id);
  x.leaf('cbc:Note', l.note);
  x.leaf(c.creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', l.quantity, { unitCode: l.unitCode });
  amount(c, 'cbc:LineExtensionAmount', l.netAmount);
  x.leaf('cbc:AccountingCost', l.buyerAccountingReference);
  writePeriod(c, 'cac:InvoicePeriod', l.period);
  x.wrapped('cac:OrderLineReference', 'cbc:LineID', l.orderLineReference);
  if (l.objectIdentifier?.value) {
    x.open('cac:DocumentReference');
    x.leaf('cbc:ID', l.objectIdentifier.value, { schemeID: l.objectIdentifier.schemeId });
    x.leaf('cbc:DocumentTypeCode', '130');
    x.close('cac:DocumentReference');
  }
  for (const a of l.allowances) writeLineAllowanceCharge(c, a, false);
  for (const ch of l.charges) writeLineAllowanceCharge(c, ch, true);
  writeItem(c, l);
  writePrice(c, l);
  x.close(element);
}

function writeLineAllowanceCharge(c: Ctx, ac: LineAllowanceCharge, charge: boolean): void {
  c.x.open('cac:AllowanceCharge');
  writeAllowanceChargeCommon(c, ac, charge);
  c.x.close('cac:AllowanceCharge');
}

function writeItem(c: Ctx, l: InvoiceLine): void {
  const { x } = c;
  x.open('cac:Item');
  x.leaf('cbc:Description', l.itemDescription);
  x.leaf('cbc:Name', l.itemName);
  x.wrapped('cac:BuyersItemIdentification', 'cbc:ID', l.buyerItemId);
  x.wrapped('cac:SellersItemIdentification', 'cbc:ID', l.sellerItemId);
  if (l.standardItemId?.value) {
    x.wrapped('cac:StandardItemIdentification', 'cbc:ID', l.standardItemId.value, { schemeID: l.standardItemId.schemeId });
  }
  x.wrapped('cac:OriginCountry', 'cbc:IdentificationCode', l.originCountryCode);
  for (const cl of l.classifications) {
    if (!cl.value) continue;
    x.wrapped('cac:CommodityClassification', 'cbc:ItemClassificationCode', cl.value, {
      listID: cl.schemeId,
      listVersionID: cl.listVersionId,
    });
  }
  writeTaxCategory(c, 'cac:ClassifiedTaxCategory', l.vatCategoryCode, l.vatCategoryCode === 'O' ? undefined : l.vatRate);
  for (const a of l.attributes) {
    if (!a.name) continue;
    x.open('cac:AdditionalItemProperty').leaf('cbc:Name', a.name).leaf('cbc:Value', a.value).close('cac:AdditionalItemProperty');
  }
  x.close('cac:Item');
}

/** BG-29: net price, base quantity; the gross price (BT-148) with its discount (BT-147) as the price's allowance. */
function writePrice(c: Ctx, l: InvoiceLine): void {
  const { x } = c;
  if (l.netPrice === undefined && l.grossPrice === undefined) return;
  x.open('cac:Price');
  amount(c, 'cbc:PriceAmount', l.netPrice);
  if (l.priceBaseQuantity) x.leaf('cbc:BaseQuantity', l.priceBaseQuantity, { unitCode: l.priceBaseQuantityUnitCode ?? l.unitCode });
  const gross = l.grossPrice !== undefined && l.grossPrice !== '';
  if (gross || l.priceDiscount) {
    x.open('cac:AllowanceCharge');
    x.leaf('cbc:ChargeIndicator', 'false');
    // cbc:Amount is mandatory in an allowance: a gross price without a discount has a discount of zero.
    amount(c, 'cbc:Amount', l.priceDiscount || '0');
    amount(c, 'cbc:BaseAmount', gross ? l.grossPrice : undefined);
    x.close('cac:AllowanceCharge');
  }
  x.close('cac:Price');
}
