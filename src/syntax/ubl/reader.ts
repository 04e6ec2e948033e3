/**
 * UBL 2.1 reader: Invoice and CreditNote (EN 16931 UBL binding, XRechnung UBL, Peppol BIS Billing 3.0)
 * into the EN 16931 model, following the EN 16931-3-2 UBL syntax binding. Values are kept as written
 * (decimals trimmed of surrounding whitespace only); every value set records its location in `$loc`.
 */
import {
  emptyInvoice,
  emptyLine,
  emptyParty,
  type Address,
  type Contact,
  type CreditTransfer,
  type DocumentAllowanceCharge,
  type Invoice,
  type InvoiceLine,
  type LineAllowanceCharge,
  type Note,
  type PrecedingInvoice,
  type Party,
  type Payee,
  type PaymentInstructions,
  type Period,
  type SupportingDocument,
  type TaxRepresentative,
  type ThirdPartyPayment,
  type VatBreakdown,
} from '../../model/invoice.js';
import { attr, child, childrenNamed, type XmlElement } from '../../xml/dom.js';
import { identifierOf, locate, located, put, putAttachment, putAttr, putDec, putIdentifier, textOf } from '../reader-helpers.js';
import { NS } from '../../xml/namespaces.js';

export const UBL_NS = { invoice: NS.ubl, creditNote: NS.cn, cac: NS.cac, cbc: NS.cbc } as const;

export function isUblRoot(root: XmlElement): boolean {
  return (root.ns === UBL_NS.invoice && root.local === 'Invoice') || (root.ns === UBL_NS.creditNote && root.local === 'CreditNote');
}

const cac = (el: XmlElement | undefined, local: string): XmlElement | undefined => child(el, UBL_NS.cac, local);
const cacs = (el: XmlElement | undefined, local: string): XmlElement[] => childrenNamed(el, UBL_NS.cac, local);
const cbc = (el: XmlElement | undefined, local: string): XmlElement | undefined => child(el, UBL_NS.cbc, local);
const cbcs = (el: XmlElement | undefined, local: string): XmlElement[] => childrenNamed(el, UBL_NS.cbc, local);
const code = (el: XmlElement | undefined): string | undefined => (el ? textOf(el).trim() : undefined);

/** Read a UBL Invoice or CreditNote into the model. */
export function readUbl(root: XmlElement): Invoice {
  if (!isUblRoot(root)) throw new Error(`Not a UBL invoice root: {${root.ns}}${root.local}`);
  const creditNote = root.local === 'CreditNote';
  const inv = located(emptyInvoice(creditNote ? 'credit-note' : 'invoice'), root);

  put(inv, 'specificationId', cbc(root, 'CustomizationID'));
  put(inv, 'businessProcess', cbc(root, 'ProfileID'));
  put(inv, 'number', cbc(root, 'ID'));
  put(inv, 'issueDate', cbc(root, 'IssueDate'));
  put(inv, 'dueDate', cbc(root, 'DueDate'));
  // The official rules read either element under either root (cbc:InvoiceTypeCode | cbc:CreditNoteTypeCode); so do we.
  put(
    inv,
    'typeCode',
    cbc(root, creditNote ? 'CreditNoteTypeCode' : 'InvoiceTypeCode') ?? cbc(root, creditNote ? 'InvoiceTypeCode' : 'CreditNoteTypeCode'),
  );
  for (const n of cbcs(root, 'Note')) {
    const note = located<Note>({ text: textOf(n) }, n);
    locate(note, 'text', n);
    inv.notes.push(note);
  }
  put(inv, 'taxPointDate', cbc(root, 'TaxPointDate'));
  put(inv, 'currency', cbc(root, 'DocumentCurrencyCode'));
  put(inv, 'vatAccountingCurrency', cbc(root, 'TaxCurrencyCode'));
  put(inv, 'buyerAccountingReference', cbc(root, 'AccountingCost'));
  put(inv, 'buyerReference', cbc(root, 'BuyerReference'));

  const period = cac(root, 'InvoicePeriod');
  if (period) {
    inv.invoicingPeriod = readPeriod(period);
    put(inv, 'taxPointDateCode', cbc(period, 'DescriptionCode'));
  }
  const order = cac(root, 'OrderReference');
  put(inv, 'purchaseOrderReference', cbc(order, 'ID'));
  put(inv, 'salesOrderReference', cbc(order, 'SalesOrderID'));
  for (const billing of cacs(root, 'BillingReference')) {
    const ref = cac(billing, 'InvoiceDocumentReference');
    if (!ref) continue;
    const idEl = cbc(ref, 'ID');
    const pi = located<PrecedingInvoice>({ number: idEl ? textOf(idEl) : '' }, ref);
    if (idEl) locate(pi, 'number', idEl);
    put(pi, 'date', cbc(ref, 'IssueDate'));
    inv.precedingInvoices.push(pi);
  }
  put(inv, 'despatchAdviceReference', cbc(cac(root, 'DespatchDocumentReference'), 'ID'));
  put(inv, 'receivingAdviceReference', cbc(cac(root, 'ReceiptDocumentReference'), 'ID'));
  put(inv, 'tenderOrLotReference', cbc(cac(root, 'OriginatorDocumentReference'), 'ID'));
  put(inv, 'contractReference', cbc(cac(root, 'ContractDocumentReference'), 'ID'));
  for (const doc of cacs(root, 'AdditionalDocumentReference')) {
    const idEl = cbc(doc, 'ID');
    const typeCode = code(cbc(doc, 'DocumentTypeCode'));
    if (typeCode === '130') {
      if (!inv.invoicedObjectIdentifier && idEl) putIdentifier(inv, 'invoicedObjectIdentifier', idEl);
      continue;
    }
    // A CreditNote has no cac:ProjectReference: the binding carries BT-11 as a document reference of type 50.
    if (typeCode === '50' && creditNote && inv.projectReference === undefined && idEl) {
      put(inv, 'projectReference', idEl);
      continue;
    }
    inv.supportingDocuments.push(readSupportingDocument(doc));
  }
  put(inv, 'projectReference', cbc(cac(root, 'ProjectReference'), 'ID'));

  const seller = cac(cac(root, 'AccountingSupplierParty'), 'Party');
  if (seller) inv.seller = readParty(seller, inv);
  const buyer = cac(cac(root, 'AccountingCustomerParty'), 'Party');
  if (buyer) inv.buyer = readParty(buyer, inv);
  const payee = cac(root, 'PayeeParty');
  if (payee) inv.payee = readPayee(payee, inv);
  const rep = cac(root, 'TaxRepresentativeParty');
  if (rep) inv.taxRepresentative = readTaxRepresentative(rep);
  readDelivery(inv, cac(root, 'Delivery'));

  for (const means of cacs(root, 'PaymentMeans')) readPaymentMeans(inv, means, creditNote);
  const terms = cac(root, 'PaymentTerms');
  put(inv, 'paymentTerms', cbc(terms, 'Note'));

  readThirdPartyPayments(inv, root);
  for (const acEl of cacs(root, 'AllowanceCharge')) {
    const ac = located<DocumentAllowanceCharge>({}, acEl);
    readAllowanceChargeCommon(ac, acEl);
    const cat = cac(acEl, 'TaxCategory');
    put(ac, 'vatCategoryCode', cbc(cat, 'ID'));
    putDec(ac, 'vatRate', cbc(cat, 'Percent'));
    (isCharge(acEl) ? inv.charges : inv.allowances).push(ac);
  }

  readTaxTotals(inv, root);
  const sum = cac(root, 'LegalMonetaryTotal');
  if (sum) {
    const t = located(inv.totals, sum);
    putDec(t, 'lineNetTotal', cbc(sum, 'LineExtensionAmount'));
    putDec(t, 'taxExclusiveAmount', cbc(sum, 'TaxExclusiveAmount'));
    putDec(t, 'taxInclusiveAmount', cbc(sum, 'TaxInclusiveAmount'));
    putDec(t, 'allowanceTotal', cbc(sum, 'AllowanceTotalAmount'));
    putDec(t, 'chargeTotal', cbc(sum, 'ChargeTotalAmount'));
    putDec(t, 'paidAmount', cbc(sum, 'PrepaidAmount'));
    putDec(t, 'roundingAmount', cbc(sum, 'PayableRoundingAmount'));
    putDec(t, 'amountDue', cbc(sum, 'PayableAmount'));
  }

  // Lines: cac:InvoiceLine | cac:CreditNoteLine under either root, in document order (as the official rules see them).
  for (const lineEl of root.children) {
    if (lineEl.ns === UBL_NS.cac && (lineEl.local === 'InvoiceLine' || lineEl.local === 'CreditNoteLine'))
      inv.lines.push(readLine(lineEl, creditNote));
  }
  return inv;
}

/** XRechnung extension BG-DEX-09: cac:PrepaidPayment (type, amount, description), in document order. */
function readThirdPartyPayments(inv: Invoice, root: XmlElement): void {
  for (const el of cacs(root, 'PrepaidPayment')) {
    const p = located<ThirdPartyPayment>({}, el);
    put(p, 'type', cbc(el, 'ID'));
    putDec(p, 'amount', cbc(el, 'PaidAmount'));
    put(p, 'description', cbc(el, 'InstructionID'));
    (inv.thirdPartyPayments ??= []).push(p);
  }
}

/**
 * cac:TaxTotal appears once in the invoice currency (with subtotals: BT-110 and BG-23) and once more in
 * the VAT accounting currency (BT-111) when BT-6 is given; cbc:TaxAmount's currencyID tells them apart.
 */
function readTaxTotals(inv: Invoice, root: XmlElement): void {
  const invoiceCurrency = inv.currency?.trim();
  const taxCurrency = inv.vatAccountingCurrency?.trim();
  for (const total of cacs(root, 'TaxTotal')) {
    const amount = cbc(total, 'TaxAmount');
    const cur = attr(amount, 'currencyID')?.trim();
    const inInvoiceCurrency = cur === undefined || invoiceCurrency === undefined || cur === invoiceCurrency;
    if (amount && inInvoiceCurrency && inv.totals.taxTotal === undefined) putDec(inv.totals, 'taxTotal', amount);
    // Not `else`: when BT-6 equals BT-5, one TaxAmount is both BT-110 and BT-111 (as the CII reader reads it).
    if (amount && cur !== undefined && cur === taxCurrency && inv.totals.taxTotalAccountingCurrency === undefined) {
      putDec(inv.totals, 'taxTotalAccountingCurrency', amount);
    }
    for (const sub of cacs(total, 'TaxSubtotal')) inv.vatBreakdown.push(readVatBreakdown(sub));
  }
}

function readVatBreakdown(sub: XmlElement): VatBreakdown {
  const v = located<VatBreakdown>({}, sub);
  putDec(v, 'taxableAmount', cbc(sub, 'TaxableAmount'));
  putDec(v, 'taxAmount', cbc(sub, 'TaxAmount'));
  const cat = cac(sub, 'TaxCategory');
  put(v, 'categoryCode', cbc(cat, 'ID'));
  putDec(v, 'rate', cbc(cat, 'Percent'));
  put(v, 'exemptionReasonCode', cbc(cat, 'TaxExemptionReasonCode'));
  put(v, 'exemptionReason', cbc(cat, 'TaxExemptionReason'));
  return v;
}

function readSupportingDocument(doc: XmlElement): SupportingDocument {
  const idEl = cbc(doc, 'ID');
  const sd = located<SupportingDocument>({ reference: idEl ? textOf(idEl) : '' }, doc);
  if (idEl) locate(sd, 'reference', idEl);
  put(sd, 'description', cbc(doc, 'DocumentDescription'));
  const att = cac(doc, 'Attachment');
  put(sd, 'externalLocation', cbc(cac(att, 'ExternalReference'), 'URI'));
  putAttachment(sd, cbc(att, 'EmbeddedDocumentBinaryObject'));
  return sd;
}

/** SEPA creditor identifiers (BT-90) travel as a party identification with schemeID "SEPA". */
function isSepaCreditorId(id: XmlElement): boolean {
  return attr(id, 'schemeID')?.trim() === 'SEPA';
}

function setCreditorId(inv: Invoice, id: XmlElement): void {
  const pay = (inv.payment ??= located<PaymentInstructions>({ creditTransfers: [] }, id));
  pay.directDebit ??= located({}, id);
  if (pay.directDebit.creditorId === undefined) put(pay.directDebit, 'creditorId', id);
}

function readParty(el: XmlElement, inv: Invoice): Party {
  const p = located(emptyParty(), el);
  putIdentifier(p, 'electronicAddress', cbc(el, 'EndpointID'));
  for (const pid of cacs(el, 'PartyIdentification')) {
    const id = cbc(pid, 'ID');
    if (!id) continue;
    if (isSepaCreditorId(id)) {
      setCreditorId(inv, id);
      continue;
    }
    locate(p, `identifiers[${p.identifiers.length}]`, id);
    p.identifiers.push(identifierOf(id));
  }
  put(p, 'tradingName', cbc(cac(el, 'PartyName'), 'Name'));
  const addr = cac(el, 'PostalAddress');
  if (addr) p.address = readAddress(addr);
  for (const scheme of cacs(el, 'PartyTaxScheme')) {
    const id = cbc(scheme, 'CompanyID');
    const isVat = code(cbc(cac(scheme, 'TaxScheme'), 'ID')) === 'VAT';
    if (isVat && p.vatId === undefined) put(p, 'vatId', id);
    else if (!isVat && p.taxRegistrationId === undefined) put(p, 'taxRegistrationId', id);
  }
  const legal = cac(el, 'PartyLegalEntity');
  put(p, 'name', cbc(legal, 'RegistrationName'));
  putIdentifier(p, 'legalRegistrationId', cbc(legal, 'CompanyID'));
  put(p, 'additionalLegalInfo', cbc(legal, 'CompanyLegalForm'));
  for (const contactEl of cacs(el, 'Contact')) {
    const c = located<Contact>({}, contactEl);
    put(c, 'name', cbc(contactEl, 'Name'));
    put(c, 'phone', cbc(contactEl, 'Telephone'));
    put(c, 'email', cbc(contactEl, 'ElectronicMail'));
    p.contacts.push(c);
  }
  return p;
}

function readAddress(el: XmlElement): Address {
  const a = located<Address>({}, el);
  put(a, 'line1', cbc(el, 'StreetName'));
  put(a, 'line2', cbc(el, 'AdditionalStreetName'));
  put(a, 'city', cbc(el, 'CityName'));
  put(a, 'postcode', cbc(el, 'PostalZone'));
  put(a, 'countrySubdivision', cbc(el, 'CountrySubentity'));
  put(a, 'line3', cbc(cac(el, 'AddressLine'), 'Line'));
  put(a, 'countryCode', cbc(cac(el, 'Country'), 'IdentificationCode'));
  return a;
}

function readPayee(el: XmlElement, inv: Invoice): Payee {
  const p = located<Payee>({ identifiers: [] }, el);
  for (const pid of cacs(el, 'PartyIdentification')) {
    const id = cbc(pid, 'ID');
    if (!id) continue;
    if (isSepaCreditorId(id)) {
      setCreditorId(inv, id);
      continue;
    }
    locate(p, `identifiers[${p.identifiers.length}]`, id);
    p.identifiers.push(identifierOf(id));
  }
  put(p, 'name', cbc(cac(el, 'PartyName'), 'Name'));
  putIdentifier(p, 'legalRegistrationId', cbc(cac(el, 'PartyLegalEntity'), 'CompanyID'));
  return p;
}

function readTaxRepresentative(el: XmlElement): TaxRepresentative {
  const t = located<TaxRepresentative>({}, el);
  put(t, 'name', cbc(cac(el, 'PartyName'), 'Name'));
  const addr = cac(el, 'PostalAddress');
  if (addr) t.address = readAddress(addr);
  // BT-63 is the identifier of a tax scheme VAT, as for the seller (the rules that ask for it, e.g. BR-56 and BR-S-02,
  // look at those only).
  const vat = cacs(el, 'PartyTaxScheme').find((s) => code(cbc(cac(s, 'TaxScheme'), 'ID')) === 'VAT');
  put(t, 'vatId', cbc(vat, 'CompanyID'));
  return t;
}

function readDelivery(inv: Invoice, el: XmlElement | undefined): void {
  if (!el) return;
  const del = located<NonNullable<Invoice['delivery']>>({}, el);
  put(del, 'actualDeliveryDate', cbc(el, 'ActualDeliveryDate'));
  const loc = cac(el, 'DeliveryLocation');
  putIdentifier(del, 'locationId', cbc(loc, 'ID'));
  const addr = cac(loc, 'Address');
  if (addr) del.address = readAddress(addr);
  put(del, 'partyName', cbc(cac(cac(el, 'DeliveryParty'), 'PartyName'), 'Name'));
  inv.delivery = del;
}

function readPaymentMeans(inv: Invoice, el: XmlElement, creditNote: boolean): void {
  const pay = (inv.payment ??= located<PaymentInstructions>({ creditTransfers: [] }, el));
  if (pay.meansCode === undefined) {
    const meansCode = cbc(el, 'PaymentMeansCode');
    put(pay, 'meansCode', meansCode);
    putAttr(pay, 'meansText', meansCode, 'name');
  }
  if (pay.remittanceInformation === undefined) put(pay, 'remittanceInformation', cbc(el, 'PaymentID'));
  if (creditNote && inv.dueDate === undefined) put(inv, 'dueDate', cbc(el, 'PaymentDueDate'));
  const account = cac(el, 'PayeeFinancialAccount');
  if (account) {
    const ct = located<CreditTransfer>({}, account);
    put(ct, 'accountId', cbc(account, 'ID'));
    put(ct, 'accountName', cbc(account, 'Name'));
    put(ct, 'serviceProviderId', cbc(cac(account, 'FinancialInstitutionBranch'), 'ID'));
    pay.creditTransfers.push(ct);
  }
  const card = cac(el, 'CardAccount');
  if (card && !pay.card) {
    pay.card = located({}, card);
    put(pay.card, 'primaryAccountNumber', cbc(card, 'PrimaryAccountNumberID'));
    put(pay.card, 'holderName', cbc(card, 'HolderName'));
  }
  const mandate = cac(el, 'PaymentMandate');
  if (mandate) {
    pay.directDebit ??= located({}, mandate);
    if (pay.directDebit.mandateReference === undefined) put(pay.directDebit, 'mandateReference', cbc(mandate, 'ID'));
    if (pay.directDebit.debitedAccountId === undefined) {
      put(pay.directDebit, 'debitedAccountId', cbc(cac(mandate, 'PayerFinancialAccount'), 'ID'));
    }
  }
}

function readPeriod(el: XmlElement): Period {
  const p = located<Period>({}, el);
  put(p, 'start', cbc(el, 'StartDate'));
  put(p, 'end', cbc(el, 'EndDate'));
  return p;
}

/** cbc:ChargeIndicator is an xs:boolean: "true" or "1" is a charge. */
function isCharge(el: XmlElement): boolean {
  const v = code(cbc(el, 'ChargeIndicator'));
  return v === 'true' || v === '1';
}

function readAllowanceChargeCommon(ac: DocumentAllowanceCharge | LineAllowanceCharge, el: XmlElement): void {
  put(ac, 'reasonCode', cbc(el, 'AllowanceChargeReasonCode'));
  put(ac, 'reason', cbc(el, 'AllowanceChargeReason'));
  putDec(ac, 'percentage', cbc(el, 'MultiplierFactorNumeric'));
  putDec(ac, 'amount', cbc(el, 'Amount'));
  putDec(ac, 'baseAmount', cbc(el, 'BaseAmount'));
}

function readLine(el: XmlElement, creditNote: boolean): InvoiceLine {
  const idEl = cbc(el, 'ID');
  const line = located(emptyLine(idEl ? textOf(idEl) : ''), el);
  if (idEl) locate(line, 'id', idEl);
  put(line, 'note', cbc(el, 'Note'));
  const qty =
    cbc(el, creditNote ? 'CreditedQuantity' : 'InvoicedQuantity') ?? cbc(el, creditNote ? 'InvoicedQuantity' : 'CreditedQuantity');
  putDec(line, 'quantity', qty);
  putAttr(line, 'unitCode', qty, 'unitCode');
  putDec(line, 'netAmount', cbc(el, 'LineExtensionAmount'));
  put(line, 'buyerAccountingReference', cbc(el, 'AccountingCost'));
  const period = cac(el, 'InvoicePeriod');
  if (period) line.period = readPeriod(period);
  put(line, 'orderLineReference', cbc(cac(el, 'OrderLineReference'), 'LineID'));
  // BT-128: the line's only document reference in EN 16931; DocumentTypeCode 130 is expected but often missing.
  const refs = cacs(el, 'DocumentReference');
  const objectRef = refs.find((r) => code(cbc(r, 'DocumentTypeCode')) === '130') ?? refs[0];
  putIdentifier(line, 'objectIdentifier', cbc(objectRef, 'ID'));
  for (const acEl of cacs(el, 'AllowanceCharge')) {
    const ac = located<LineAllowanceCharge>({}, acEl);
    readAllowanceChargeCommon(ac, acEl);
    (isCharge(acEl) ? line.charges : line.allowances).push(ac);
  }

  const item = cac(el, 'Item');
  put(line, 'itemDescription', cbc(item, 'Description'));
  put(line, 'itemName', cbc(item, 'Name'));
  put(line, 'buyerItemId', cbc(cac(item, 'BuyersItemIdentification'), 'ID'));
  put(line, 'sellerItemId', cbc(cac(item, 'SellersItemIdentification'), 'ID'));
  putIdentifier(line, 'standardItemId', cbc(cac(item, 'StandardItemIdentification'), 'ID'));
  put(line, 'originCountryCode', cbc(cac(item, 'OriginCountry'), 'IdentificationCode'));
  for (const cls of cacs(item, 'CommodityClassification')) {
    const c = cbc(cls, 'ItemClassificationCode');
    if (!c) continue;
    const id: InvoiceLine['classifications'][number] = identifierOf(c, 'listID');
    const version = attr(c, 'listVersionID');
    if (version !== undefined) id.listVersionId = version;
    locate(line, `classifications[${line.classifications.length}]`, c);
    line.classifications.push(id);
  }
  const taxCat = cac(item, 'ClassifiedTaxCategory');
  put(line, 'vatCategoryCode', cbc(taxCat, 'ID'));
  putDec(line, 'vatRate', cbc(taxCat, 'Percent'));
  for (const prop of cacs(item, 'AdditionalItemProperty')) {
    const name = cbc(prop, 'Name');
    const value = cbc(prop, 'Value');
    locate(line, `attributes[${line.attributes.length}]`, prop);
    line.attributes.push({ name: name ? textOf(name) : '', value: value ? textOf(value) : '' });
  }

  const price = cac(el, 'Price');
  putDec(line, 'netPrice', cbc(price, 'PriceAmount'));
  const baseQty = cbc(price, 'BaseQuantity');
  putDec(line, 'priceBaseQuantity', baseQty);
  putAttr(line, 'priceBaseQuantityUnitCode', baseQty, 'unitCode');
  const priceAc = cac(price, 'AllowanceCharge');
  if (priceAc) {
    putDec(line, 'priceDiscount', cbc(priceAc, 'Amount'));
    putDec(line, 'grossPrice', cbc(priceAc, 'BaseAmount'));
  }
  // XRechnung extension: sub-lines (BG-DEX-01), as deep as they nest (the parser bounds the depth).
  for (const sub of el.children) {
    if (sub.ns === UBL_NS.cac && (sub.local === 'SubInvoiceLine' || sub.local === 'SubCreditNoteLine')) {
      (line.subLines ??= []).push(readLine(sub, creditNote));
    }
  }
  return line;
}
