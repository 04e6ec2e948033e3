/**
 * CII reader: UN/CEFACT Cross Industry Invoice (D16B/D22B as used by Factur-X / ZUGFeRD 2.x in every
 * profile and by XRechnung CII) into the EN 16931 model, following the EN 16931-3-3 CII syntax binding.
 *
 * ZUGFeRD 1.0 (CrossIndustryDocument, D13B-era element names) has the same party, tax and allowance
 * structures under different container names; it is read with the same code through a dialect table,
 * best-effort, and callers flag it (it is not an EN 16931 invoice).
 *
 * Values are taken exactly as written (decimals trimmed of surrounding whitespace only; dates in format
 * 102 turned into ISO); every value set records its location in `$loc`.
 */
import {
  emptyInvoice,
  emptyLine,
  emptyParty,
  type Address,
  type Contact,
  type CreditTransfer,
  type Delivery,
  type DocumentAllowanceCharge,
  type Invoice,
  type InvoiceLine,
  type LineAllowanceCharge,
  type Located,
  type Note,
  type PrecedingInvoice,
  type Party,
  type Payee,
  type PaymentInstructions,
  type Period,
  type SupportingDocument,
  type TaxRepresentative,
  type VatBreakdown,
} from '../../model/invoice.js';
import { attr, child, childrenNamed, type XmlElement } from '../../xml/dom.js';
import {
  childAnyNs,
  decOf,
  identifierOf,
  isoFromFormat102,
  locate,
  located,
  put,
  putAttr,
  putDec,
  putAttachment,
  putIdentifier,
  textOf,
} from '../reader-helpers.js';
import { NS } from '../../xml/namespaces.js';

export const CII_NS = { rsm: NS.rsm, ram: NS.ram, udt: NS.udt, qdt: NS.qdt } as const;

export const ZUGFERD1_NS = {
  rsm: 'urn:ferd:CrossIndustryDocument:invoice:1p0',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:12',
} as const;

/** Element names that differ between CII D16B+ and ZUGFeRD 1.0. */
interface Dialect {
  rsm: string;
  ram: string;
  dateNs: readonly string[];
  root: string;
  context: string;
  header: string;
  transaction: string;
  agreement: string;
  delivery: string;
  settlement: string;
  headerSummation: string;
  lineAgreement: string;
  lineDelivery: string;
  lineSettlement: string;
  lineSummation: string;
}

const D16B: Dialect = {
  rsm: CII_NS.rsm,
  ram: CII_NS.ram,
  dateNs: [CII_NS.udt, CII_NS.qdt],
  root: 'CrossIndustryInvoice',
  context: 'ExchangedDocumentContext',
  header: 'ExchangedDocument',
  transaction: 'SupplyChainTradeTransaction',
  agreement: 'ApplicableHeaderTradeAgreement',
  delivery: 'ApplicableHeaderTradeDelivery',
  settlement: 'ApplicableHeaderTradeSettlement',
  headerSummation: 'SpecifiedTradeSettlementHeaderMonetarySummation',
  lineAgreement: 'SpecifiedLineTradeAgreement',
  lineDelivery: 'SpecifiedLineTradeDelivery',
  lineSettlement: 'SpecifiedLineTradeSettlement',
  lineSummation: 'SpecifiedTradeSettlementLineMonetarySummation',
};

const ZF1: Dialect = {
  rsm: ZUGFERD1_NS.rsm,
  ram: ZUGFERD1_NS.ram,
  dateNs: [ZUGFERD1_NS.udt, ZUGFERD1_NS.qdt, CII_NS.udt, CII_NS.qdt],
  root: 'CrossIndustryDocument',
  context: 'SpecifiedExchangedDocumentContext',
  header: 'HeaderExchangedDocument',
  transaction: 'SpecifiedSupplyChainTradeTransaction',
  agreement: 'ApplicableSupplyChainTradeAgreement',
  delivery: 'ApplicableSupplyChainTradeDelivery',
  settlement: 'ApplicableSupplyChainTradeSettlement',
  headerSummation: 'SpecifiedTradeSettlementMonetarySummation',
  lineAgreement: 'SpecifiedSupplyChainTradeAgreement',
  lineDelivery: 'SpecifiedSupplyChainTradeDelivery',
  lineSettlement: 'SpecifiedSupplyChainTradeSettlement',
  lineSummation: 'SpecifiedTradeSettlementMonetarySummation',
};

export function isCiiRoot(root: XmlElement): boolean {
  return root.ns === CII_NS.rsm && root.local === 'CrossIndustryInvoice';
}

export function isZugferd1Root(root: XmlElement): boolean {
  return root.ns === ZUGFERD1_NS.rsm && root.local === 'CrossIndustryDocument';
}

/** Read a CII (or ZUGFeRD 1.0) invoice into the model. The root must satisfy isCiiRoot or isZugferd1Root. */
export function readCii(root: XmlElement): Invoice {
  const d = isZugferd1Root(root) ? ZF1 : D16B;
  if (root.ns !== d.rsm || root.local !== d.root) {
    throw new Error(`Not a CII invoice root: {${root.ns}}${root.local}`);
  }
  return new CiiReader(d).read(root);
}

class CiiReader {
  constructor(private readonly d: Dialect) {}

  private ram(el: XmlElement | undefined, local: string): XmlElement | undefined {
    return child(el, this.d.ram, local);
  }

  private rams(el: XmlElement | undefined, local: string): XmlElement[] {
    return childrenNamed(el, this.d.ram, local);
  }

  /** The date element inside a DateTime container (udt:DateTimeString, qdt:DateTimeString or udt:DateString). */
  private dateEl(container: XmlElement | undefined): XmlElement | undefined {
    return childAnyNs(container, this.d.dateNs, 'DateTimeString') ?? childAnyNs(container, this.d.dateNs, 'DateString');
  }

  private putDate<T extends Located>(target: T, field: keyof T & string, container: XmlElement | undefined): void {
    const el = this.dateEl(container);
    if (el) put(target, field, el, isoFromFormat102(textOf(el), attr(el, 'format')));
  }

  read(root: XmlElement): Invoice {
    const inv = located(emptyInvoice('invoice'), root);
    const context = child(root, this.d.rsm, this.d.context);
    put(inv, 'businessProcess', this.ram(this.ram(context, 'BusinessProcessSpecifiedDocumentContextParameter'), 'ID'));
    put(inv, 'specificationId', this.ram(this.ram(context, 'GuidelineSpecifiedDocumentContextParameter'), 'ID'));

    const header = child(root, this.d.rsm, this.d.header);
    put(inv, 'number', this.ram(header, 'ID'));
    put(inv, 'typeCode', this.ram(header, 'TypeCode'));
    this.putDate(inv, 'issueDate', this.ram(header, 'IssueDateTime'));
    for (const noteEl of this.rams(header, 'IncludedNote')) {
      const content = this.ram(noteEl, 'Content');
      const note = located<Note>({ text: content ? textOf(content) : '' }, noteEl);
      if (content) locate(note, 'text', content);
      put(note, 'subjectCode', this.ram(noteEl, 'SubjectCode'));
      inv.notes.push(note);
    }

    const tx = child(root, this.d.rsm, this.d.transaction);
    this.readAgreement(inv, this.ram(tx, this.d.agreement));
    this.readDelivery(inv, this.ram(tx, this.d.delivery));
    this.readSettlement(inv, this.ram(tx, this.d.settlement));
    for (const lineEl of this.rams(tx, 'IncludedSupplyChainTradeLineItem')) inv.lines.push(this.readLine(lineEl));
    return inv;
  }

  // -- header trade agreement: parties, references -------------------------------------------

  private readAgreement(inv: Invoice, ag: XmlElement | undefined): void {
    if (!ag) return;
    put(inv, 'buyerReference', this.ram(ag, 'BuyerReference'));
    const seller = this.ram(ag, 'SellerTradeParty');
    if (seller) inv.seller = this.readParty(seller);
    const buyer = this.ram(ag, 'BuyerTradeParty');
    if (buyer) inv.buyer = this.readParty(buyer);
    const rep = this.ram(ag, 'SellerTaxRepresentativeTradeParty');
    if (rep) inv.taxRepresentative = this.readTaxRepresentative(rep);
    put(inv, 'salesOrderReference', this.ram(this.ram(ag, 'SellerOrderReferencedDocument'), 'IssuerAssignedID'));
    put(inv, 'purchaseOrderReference', this.ram(this.ram(ag, 'BuyerOrderReferencedDocument'), 'IssuerAssignedID'));
    put(inv, 'contractReference', this.ram(this.ram(ag, 'ContractReferencedDocument'), 'IssuerAssignedID'));
    for (const doc of this.rams(ag, 'AdditionalReferencedDocument')) {
      const type = this.ram(doc, 'TypeCode');
      const code = type ? textOf(type).trim() : undefined;
      const id = this.ram(doc, 'IssuerAssignedID');
      if (code === '916') inv.supportingDocuments.push(this.readSupportingDocument(doc));
      else if (code === '50' && inv.tenderOrLotReference === undefined) put(inv, 'tenderOrLotReference', id);
      else if (code === '130' && inv.invoicedObjectIdentifier === undefined && id) {
        inv.invoicedObjectIdentifier = { value: textOf(id) };
        const scheme = this.ram(doc, 'ReferenceTypeCode');
        if (scheme) inv.invoicedObjectIdentifier.schemeId = textOf(scheme);
        locate(inv, 'invoicedObjectIdentifier', id);
      }
    }
    put(inv, 'projectReference', this.ram(this.ram(ag, 'SpecifiedProcuringProject'), 'ID'));
  }

  private readSupportingDocument(doc: XmlElement): SupportingDocument {
    const idEl = this.ram(doc, 'IssuerAssignedID');
    const sd = located<SupportingDocument>({ reference: idEl ? textOf(idEl) : '' }, doc);
    if (idEl) locate(sd, 'reference', idEl);
    put(sd, 'externalLocation', this.ram(doc, 'URIID'));
    put(sd, 'description', this.ram(doc, 'Name'));
    putAttachment(sd, this.ram(doc, 'AttachmentBinaryObject'));
    return sd;
  }

  private readParty(el: XmlElement): Party {
    const p = located(emptyParty(), el);
    for (const c of el.children) {
      if (c.ns !== this.d.ram) continue;
      if (c.local === 'ID' || c.local === 'GlobalID') {
        locate(p, `identifiers[${p.identifiers.length}]`, c);
        p.identifiers.push(identifierOf(c));
      }
    }
    put(p, 'name', this.ram(el, 'Name'));
    put(p, 'additionalLegalInfo', this.ram(el, 'Description'));
    const legal = this.ram(el, 'SpecifiedLegalOrganization');
    putIdentifier(p, 'legalRegistrationId', this.ram(legal, 'ID'));
    put(p, 'tradingName', this.ram(legal, 'TradingBusinessName'));
    for (const contactEl of this.rams(el, 'DefinedTradeContact')) p.contacts.push(this.readContact(contactEl));
    const addr = this.ram(el, 'PostalTradeAddress');
    if (addr) p.address = this.readAddress(addr);
    putIdentifier(p, 'electronicAddress', this.ram(this.ram(el, 'URIUniversalCommunication'), 'URIID'));
    for (const reg of this.rams(el, 'SpecifiedTaxRegistration')) {
      const id = this.ram(reg, 'ID');
      const scheme = attr(id, 'schemeID')?.trim();
      if (scheme === 'VA' && p.vatId === undefined) put(p, 'vatId', id);
      else if (scheme === 'FC' && p.taxRegistrationId === undefined) put(p, 'taxRegistrationId', id);
    }
    return p;
  }

  private readContact(el: XmlElement): Contact {
    const c = located<Contact>({}, el);
    put(c, 'name', this.ram(el, 'PersonName'));
    put(c, 'department', this.ram(el, 'DepartmentName'));
    put(c, 'phone', this.ram(this.ram(el, 'TelephoneUniversalCommunication'), 'CompleteNumber'));
    put(c, 'email', this.ram(this.ram(el, 'EmailURIUniversalCommunication'), 'URIID'));
    return c;
  }

  private readAddress(el: XmlElement): Address {
    const a = located<Address>({}, el);
    put(a, 'postcode', this.ram(el, 'PostcodeCode'));
    put(a, 'line1', this.ram(el, 'LineOne'));
    put(a, 'line2', this.ram(el, 'LineTwo'));
    put(a, 'line3', this.ram(el, 'LineThree'));
    put(a, 'city', this.ram(el, 'CityName'));
    put(a, 'countryCode', this.ram(el, 'CountryID'));
    put(a, 'countrySubdivision', this.ram(el, 'CountrySubDivisionName'));
    return a;
  }

  private readTaxRepresentative(el: XmlElement): TaxRepresentative {
    const t = located<TaxRepresentative>({}, el);
    put(t, 'name', this.ram(el, 'Name'));
    const addr = this.ram(el, 'PostalTradeAddress');
    if (addr) t.address = this.readAddress(addr);
    for (const reg of this.rams(el, 'SpecifiedTaxRegistration')) {
      const id = this.ram(reg, 'ID');
      if (attr(id, 'schemeID')?.trim() === 'VA' && t.vatId === undefined) put(t, 'vatId', id);
    }
    return t;
  }

  // -- header trade delivery ------------------------------------------------------------------

  private readDelivery(inv: Invoice, dl: XmlElement | undefined): void {
    if (!dl) return;
    const shipTo = this.ram(dl, 'ShipToTradeParty');
    const event = this.ram(dl, 'ActualDeliverySupplyChainEvent');
    if (shipTo || event) {
      const del = located<Delivery>({}, shipTo ?? dl);
      if (shipTo) {
        put(del, 'partyName', this.ram(shipTo, 'Name'));
        putIdentifier(del, 'locationId', this.ram(shipTo, 'ID') ?? this.ram(shipTo, 'GlobalID'));
        const addr = this.ram(shipTo, 'PostalTradeAddress');
        if (addr) del.address = this.readAddress(addr);
      }
      this.putDate(del, 'actualDeliveryDate', this.ram(event, 'OccurrenceDateTime'));
      inv.delivery = del;
    }
    put(inv, 'despatchAdviceReference', this.ram(this.ram(dl, 'DespatchAdviceReferencedDocument'), 'IssuerAssignedID'));
    put(inv, 'receivingAdviceReference', this.ram(this.ram(dl, 'ReceivingAdviceReferencedDocument'), 'IssuerAssignedID'));
  }

  // -- header trade settlement: currency, payment, VAT, allowances, totals ----------------------

  private readSettlement(inv: Invoice, st: XmlElement | undefined): void {
    if (!st) return;
    put(inv, 'currency', this.ram(st, 'InvoiceCurrencyCode'));
    put(inv, 'vatAccountingCurrency', this.ram(st, 'TaxCurrencyCode'));
    const payee = this.ram(st, 'PayeeTradeParty');
    if (payee) inv.payee = this.readPayee(payee);
    this.readPayment(inv, st);

    for (const taxEl of this.rams(st, 'ApplicableTradeTax')) {
      inv.vatBreakdown.push(this.readVatBreakdown(taxEl));
      if (inv.taxPointDateCode === undefined) put(inv, 'taxPointDateCode', this.ram(taxEl, 'DueDateTypeCode'));
      if (inv.taxPointDate === undefined) this.putDate(inv, 'taxPointDate', this.ram(taxEl, 'TaxPointDate'));
    }
    const period = this.ram(st, 'BillingSpecifiedPeriod');
    if (period) inv.invoicingPeriod = this.readPeriod(period);

    for (const acEl of this.rams(st, 'SpecifiedTradeAllowanceCharge')) {
      const ac = located<DocumentAllowanceCharge>({}, acEl);
      this.readAllowanceChargeCommon(ac, acEl);
      const tax = this.ram(acEl, 'CategoryTradeTax');
      put(ac, 'vatCategoryCode', this.ram(tax, 'CategoryCode'));
      putDec(ac, 'vatRate', this.ram(tax, 'RateApplicablePercent'));
      (this.isCharge(acEl) ? inv.charges : inv.allowances).push(ac);
    }

    for (const terms of this.rams(st, 'SpecifiedTradePaymentTerms')) {
      if (inv.paymentTerms === undefined) put(inv, 'paymentTerms', this.ram(terms, 'Description'));
      if (inv.dueDate === undefined) this.putDate(inv, 'dueDate', this.ram(terms, 'DueDateDateTime'));
      const mandate = this.ram(terms, 'DirectDebitMandateID');
      if (mandate) {
        const pay = this.payment(inv, st);
        pay.directDebit ??= located({}, terms);
        if (pay.directDebit.mandateReference === undefined) put(pay.directDebit, 'mandateReference', mandate);
      }
    }

    const sum = this.ram(st, this.d.headerSummation);
    if (sum) {
      const t = located(inv.totals, sum);
      putDec(t, 'lineNetTotal', this.ram(sum, 'LineTotalAmount'));
      putDec(t, 'chargeTotal', this.ram(sum, 'ChargeTotalAmount'));
      putDec(t, 'allowanceTotal', this.ram(sum, 'AllowanceTotalAmount'));
      putDec(t, 'taxExclusiveAmount', this.ram(sum, 'TaxBasisTotalAmount'));
      this.readTaxTotals(inv, sum);
      putDec(t, 'roundingAmount', this.ram(sum, 'RoundingAmount'));
      putDec(t, 'taxInclusiveAmount', this.ram(sum, 'GrandTotalAmount'));
      putDec(t, 'paidAmount', this.ram(sum, 'TotalPrepaidAmount'));
      putDec(t, 'amountDue', this.ram(sum, 'DuePayableAmount'));
    }

    for (const ref of this.rams(st, 'InvoiceReferencedDocument')) {
      const idEl = this.ram(ref, 'IssuerAssignedID');
      const pi = located<PrecedingInvoice>({ number: idEl ? textOf(idEl) : '' }, ref);
      if (idEl) locate(pi, 'number', idEl);
      this.putDate(pi, 'date', this.ram(ref, 'FormattedIssueDateTime'));
      inv.precedingInvoices.push(pi);
    }
    put(inv, 'buyerAccountingReference', this.ram(this.ram(st, 'ReceivableSpecifiedTradeAccountingAccount'), 'ID'));
  }

  /**
   * BT-110 is the TaxTotalAmount in the invoice currency (BT-5), BT-111 the one in the VAT accounting
   * currency (BT-6); the currencyID attribute tells them apart.
   */
  private readTaxTotals(inv: Invoice, sum: XmlElement): void {
    const invoiceCurrency = inv.currency?.trim();
    const taxCurrency = inv.vatAccountingCurrency?.trim();
    for (const el of this.rams(sum, 'TaxTotalAmount')) {
      const cur = attr(el, 'currencyID')?.trim();
      const inInvoiceCurrency = cur === undefined || invoiceCurrency === undefined || cur === invoiceCurrency;
      if (inInvoiceCurrency && inv.totals.taxTotal === undefined) putDec(inv.totals, 'taxTotal', el);
      if (cur !== undefined && cur === taxCurrency && inv.totals.taxTotalAccountingCurrency === undefined) {
        putDec(inv.totals, 'taxTotalAccountingCurrency', el);
      }
    }
  }

  private payment(inv: Invoice, st: XmlElement): PaymentInstructions {
    return (inv.payment ??= located<PaymentInstructions>({ creditTransfers: [] }, st));
  }

  private readPayment(inv: Invoice, st: XmlElement): void {
    const creditorRef = this.ram(st, 'CreditorReferenceID');
    if (creditorRef) {
      const pay = this.payment(inv, st);
      pay.directDebit ??= located({}, st);
      put(pay.directDebit, 'creditorId', creditorRef);
    }
    const remittance = this.ram(st, 'PaymentReference');
    if (remittance) put(this.payment(inv, st), 'remittanceInformation', remittance);

    for (const means of this.rams(st, 'SpecifiedTradeSettlementPaymentMeans')) {
      const pay = this.payment(inv, st);
      if (pay.meansCode === undefined) {
        put(pay, 'meansCode', this.ram(means, 'TypeCode'));
        put(pay, 'meansText', this.ram(means, 'Information'));
      }
      const card = this.ram(means, 'ApplicableTradeSettlementFinancialCard');
      if (card && !pay.card) {
        pay.card = located({}, card);
        put(pay.card, 'primaryAccountNumber', this.ram(card, 'ID'));
        put(pay.card, 'holderName', this.ram(card, 'CardholderName'));
      }
      const debtor = this.ram(means, 'PayerPartyDebtorFinancialAccount');
      if (debtor) {
        pay.directDebit ??= located({}, debtor);
        if (pay.directDebit.debitedAccountId === undefined) put(pay.directDebit, 'debitedAccountId', this.ram(debtor, 'IBANID'));
      }
      const creditor = this.ram(means, 'PayeePartyCreditorFinancialAccount');
      const institution = this.ram(means, 'PayeeSpecifiedCreditorFinancialInstitution');
      if (creditor || institution) {
        const ct = located<CreditTransfer>({}, creditor ?? institution!);
        const iban = this.ram(creditor, 'IBANID');
        const proprietary = this.ram(creditor, 'ProprietaryID');
        if (iban) put(ct, 'accountId', iban);
        else if (proprietary) {
          put(ct, 'accountId', proprietary);
          ct.proprietaryId = true;
        }
        put(ct, 'accountName', this.ram(creditor, 'AccountName'));
        put(ct, 'serviceProviderId', this.ram(institution, 'BICID'));
        pay.creditTransfers.push(ct);
      }
    }
  }

  private readPayee(el: XmlElement): Payee {
    const p = located<Payee>({ identifiers: [] }, el);
    for (const c of el.children) {
      if (c.ns === this.d.ram && (c.local === 'ID' || c.local === 'GlobalID')) {
        locate(p, `identifiers[${p.identifiers.length}]`, c);
        p.identifiers.push(identifierOf(c));
      }
    }
    put(p, 'name', this.ram(el, 'Name'));
    putIdentifier(p, 'legalRegistrationId', this.ram(this.ram(el, 'SpecifiedLegalOrganization'), 'ID'));
    return p;
  }

  private readVatBreakdown(el: XmlElement): VatBreakdown {
    const v = located<VatBreakdown>({}, el);
    putDec(v, 'taxAmount', this.ram(el, 'CalculatedAmount'));
    put(v, 'exemptionReason', this.ram(el, 'ExemptionReason'));
    putDec(v, 'taxableAmount', this.ram(el, 'BasisAmount'));
    put(v, 'categoryCode', this.ram(el, 'CategoryCode'));
    put(v, 'exemptionReasonCode', this.ram(el, 'ExemptionReasonCode'));
    putDec(v, 'rate', this.ram(el, 'RateApplicablePercent') ?? this.ram(el, 'ApplicablePercent'));
    return v;
  }

  private readPeriod(el: XmlElement): Period {
    const p = located<Period>({}, el);
    this.putDate(p, 'start', this.ram(el, 'StartDateTime'));
    this.putDate(p, 'end', this.ram(el, 'EndDateTime'));
    return p;
  }

  /** ChargeIndicator/Indicator: "true" (or "1") is a charge, anything else an allowance. */
  private isCharge(acEl: XmlElement): boolean {
    const ind = childAnyNs(this.ram(acEl, 'ChargeIndicator'), this.d.dateNs, 'Indicator');
    const v = ind ? textOf(ind).trim() : '';
    return v === 'true' || v === '1';
  }

  private readAllowanceChargeCommon(ac: DocumentAllowanceCharge | LineAllowanceCharge, el: XmlElement): void {
    putDec(ac, 'percentage', this.ram(el, 'CalculationPercent'));
    putDec(ac, 'baseAmount', this.ram(el, 'BasisAmount'));
    putDec(ac, 'amount', this.ram(el, 'ActualAmount'));
    put(ac, 'reasonCode', this.ram(el, 'ReasonCode'));
    put(ac, 'reason', this.ram(el, 'Reason'));
  }

  // -- lines ------------------------------------------------------------------------------------

  private readLine(el: XmlElement): InvoiceLine {
    const doc = this.ram(el, 'AssociatedDocumentLineDocument');
    const idEl = this.ram(doc, 'LineID');
    const line = located(emptyLine(idEl ? textOf(idEl) : ''), el);
    if (idEl) locate(line, 'id', idEl);
    const noteEl = this.ram(doc, 'IncludedNote');
    put(line, 'note', this.ram(noteEl, 'Content'));
    put(line, 'parentLineId', this.ram(doc, 'ParentLineID'));
    // BT-X-8: the model holds the three codes Factur-X EXTENDED defines; another value is not a subtype (the
    // profile rules report it from the XML).
    const status = this.ram(doc, 'LineStatusReasonCode');
    const subtype = status ? textOf(status).trim() : undefined;
    if (subtype === 'DETAIL' || subtype === 'GROUP' || subtype === 'INFORMATION') put(line, 'subtype', status, subtype);

    const product = this.ram(el, 'SpecifiedTradeProduct');
    if (product) {
      putIdentifier(line, 'standardItemId', this.ram(product, 'GlobalID'));
      put(line, 'sellerItemId', this.ram(product, 'SellerAssignedID'));
      put(line, 'buyerItemId', this.ram(product, 'BuyerAssignedID'));
      put(line, 'itemName', this.ram(product, 'Name'));
      put(line, 'itemDescription', this.ram(product, 'Description'));
      for (const ch of this.rams(product, 'ApplicableProductCharacteristic')) {
        const name = this.ram(ch, 'Description');
        const value = this.ram(ch, 'Value');
        locate(line, `attributes[${line.attributes.length}]`, ch);
        line.attributes.push({ name: name ? textOf(name) : '', value: value ? textOf(value) : '' });
      }
      for (const cls of this.rams(product, 'DesignatedProductClassification')) {
        const code = this.ram(cls, 'ClassCode');
        if (!code) continue;
        const c: InvoiceLine['classifications'][number] = identifierOf(code, 'listID');
        const version = attr(code, 'listVersionID');
        if (version !== undefined) c.listVersionId = version;
        locate(line, `classifications[${line.classifications.length}]`, code);
        line.classifications.push(c);
      }
      put(line, 'originCountryCode', this.ram(this.ram(product, 'OriginTradeCountry'), 'ID'));
    }

    const ag = this.ram(el, this.d.lineAgreement);
    put(line, 'orderLineReference', this.ram(this.ram(ag, 'BuyerOrderReferencedDocument'), 'LineID'));
    const gross = this.ram(ag, 'GrossPriceProductTradePrice');
    putDec(line, 'grossPrice', this.ram(gross, 'ChargeAmount'));
    for (const ac of this.rams(gross, 'AppliedTradeAllowanceCharge')) {
      if (!this.isCharge(ac) && line.priceDiscount === undefined) putDec(line, 'priceDiscount', this.ram(ac, 'ActualAmount'));
    }
    const net = this.ram(ag, 'NetPriceProductTradePrice');
    putDec(line, 'netPrice', this.ram(net, 'ChargeAmount'));
    const netBaseQty = this.ram(net, 'BasisQuantity');
    const grossBaseQty = this.ram(gross, 'BasisQuantity');
    const baseQty = netBaseQty ?? grossBaseQty;
    putDec(line, 'priceBaseQuantity', baseQty);
    putAttr(line, 'priceBaseQuantityUnitCode', baseQty, 'unitCode');
    if (
      netBaseQty &&
      grossBaseQty &&
      (decOf(netBaseQty) !== decOf(grossBaseQty) || attr(netBaseQty, 'unitCode') !== attr(grossBaseQty, 'unitCode'))
    ) {
      putDec(line, 'grossPriceBaseQuantity', grossBaseQty);
      putAttr(line, 'grossPriceBaseQuantityUnitCode', grossBaseQty, 'unitCode');
    }

    const dl = this.ram(el, this.d.lineDelivery);
    const qty = this.ram(dl, 'BilledQuantity');
    putDec(line, 'quantity', qty);
    putAttr(line, 'unitCode', qty, 'unitCode');

    const st = this.ram(el, this.d.lineSettlement);
    const tax = this.ram(st, 'ApplicableTradeTax');
    put(line, 'vatCategoryCode', this.ram(tax, 'CategoryCode'));
    putDec(line, 'vatRate', this.ram(tax, 'RateApplicablePercent') ?? this.ram(tax, 'ApplicablePercent'));
    const period = this.ram(st, 'BillingSpecifiedPeriod');
    if (period) line.period = this.readPeriod(period);
    for (const acEl of this.rams(st, 'SpecifiedTradeAllowanceCharge')) {
      const ac = located<LineAllowanceCharge>({}, acEl);
      this.readAllowanceChargeCommon(ac, acEl);
      (this.isCharge(acEl) ? line.charges : line.allowances).push(ac);
    }
    putDec(line, 'netAmount', this.ram(this.ram(st, this.d.lineSummation), 'LineTotalAmount'));
    for (const ref of this.rams(st, 'AdditionalReferencedDocument')) {
      const type = this.ram(ref, 'TypeCode');
      const id = this.ram(ref, 'IssuerAssignedID');
      if (id && type && textOf(type).trim() === '130' && !line.objectIdentifier) {
        line.objectIdentifier = { value: textOf(id) };
        const scheme = this.ram(ref, 'ReferenceTypeCode');
        if (scheme) line.objectIdentifier.schemeId = textOf(scheme);
        locate(line, 'objectIdentifier', id);
      }
    }
    put(line, 'buyerAccountingReference', this.ram(this.ram(st, 'ReceivableSpecifiedTradeAccountingAccount'), 'ID'));
    return line;
  }
}
