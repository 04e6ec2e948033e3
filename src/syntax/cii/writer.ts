/**
 * EN 16931 model → UN/CEFACT Cross Industry Invoice (D22B) XML, for the Factur-X / ZUGFeRD profiles
 * MINIMUM, BASIC WL, BASIC, EN 16931, EXTENDED and for XRechnung 3.0 (CII).
 *
 * Elements are written in schema order, and only those the profile allows (the Factur-X XSD of each profile
 * plus its "not used in this profile" rules): a term the profile cannot carry is left out here and reported
 * by the caller (src/metadata/profile-fit.ts). The writer does not compute anything: amounts come from
 * the model as they are.
 */
import type {
  Address,
  DocumentAllowanceCharge,
  Identifier,
  Invoice,
  InvoiceLine,
  LineAllowanceCharge,
  LineSeller,
  Party,
  VatBreakdown,
} from '../../model/invoice.js';
import { decOrZero } from '../../model/decimal.js';
import type { ProfileId } from '../../model/profiles.js';
import { PROFILE_LEVEL, LEVEL } from './writer-profile.js';
import { XmlBuilder } from './writer-xml.js';

const NS =
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"' +
  ' xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100"' +
  ' xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"' +
  ' xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"';

/**
 * BT-8 in CII is a UNTDID 2475 code (5, 29, 72); a model read from UBL holds the UNTDID 2005 code EN 16931 names
 * (3, 35, 432). The metadata and the CII reader already hold the CII codes.
 */
const CII_TAX_POINT_CODE: Record<string, string> = { '3': '5', '35': '29', '432': '72' };

/** ISO date (YYYY-MM-DD) → CII format 102 (YYYYMMDD). */
export function toCiiDate(iso: string): string {
  return iso.length === 10 && iso[4] === '-' && iso[7] === '-' ? iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10) : iso;
}

interface Ctx {
  x: XmlBuilder;
  level: number;
  profile: ProfileId;
  inv: Invoice;
}

function dateTime(c: Ctx, wrapper: string, iso: string | undefined): void {
  if (!iso) return;
  c.x.open(wrapper).leaf('udt:DateTimeString', toCiiDate(iso), { format: '102' }).close(wrapper);
}

/** Writes the CII XML of `invoice` for `profile`; throws XmlOutputTooLargeError past `maxChars`. */
export function writeCii(invoice: Invoice, profile: ProfileId, maxChars?: number): string {
  const c: Ctx = { x: new XmlBuilder(maxChars), level: PROFILE_LEVEL[profile], profile, inv: invoice };
  const x = c.x;
  x.open(`rsm:CrossIndustryInvoice ${NS}`);

  x.open('rsm:ExchangedDocumentContext');
  x.wrapped('ram:BusinessProcessSpecifiedDocumentContextParameter', 'ram:ID', invoice.businessProcess);
  x.wrapped('ram:GuidelineSpecifiedDocumentContextParameter', 'ram:ID', invoice.specificationId);
  x.close('rsm:ExchangedDocumentContext');

  x.open('rsm:ExchangedDocument');
  x.leaf('ram:ID', invoice.number);
  x.leaf('ram:TypeCode', invoice.typeCode);
  dateTime(c, 'ram:IssueDateTime', invoice.issueDate);
  if (c.level >= LEVEL.BASIC_WL) {
    for (const note of invoice.notes) {
      if (!note.text) continue;
      x.open('ram:IncludedNote').leaf('ram:Content', note.text).leaf('ram:SubjectCode', note.subjectCode).close('ram:IncludedNote');
    }
  }
  x.close('rsm:ExchangedDocument');

  x.open('rsm:SupplyChainTradeTransaction');
  if (c.level >= LEVEL.BASIC) for (const line of invoice.lines) writeLine(c, line);
  writeAgreement(c);
  writeDelivery(c);
  writeSettlement(c);
  x.close('rsm:SupplyChainTradeTransaction');

  x.close('rsm:CrossIndustryInvoice');
  return x.toString();
}

// ---- lines --------------------------------------------------------------------------------------------------

function writeLine(c: Ctx, l: InvoiceLine): void {
  const { x, level } = c;
  const full = level >= LEVEL.EN16931;
  x.open('ram:IncludedSupplyChainTradeLineItem');

  x.open('ram:AssociatedDocumentLineDocument');
  x.leaf('ram:LineID', l.id);
  if (level >= LEVEL.EXTENDED) {
    // Sub-lines (BT-X-304 parent line, BT-X-8 subtype): EXTENDED and the French EXTENDED-CTC-FR.
    x.leaf('ram:ParentLineID', l.parentLineId);
    x.leaf('ram:LineStatusReasonCode', l.subtype);
  }
  x.wrapped('ram:IncludedNote', 'ram:Content', l.note);
  x.close('ram:AssociatedDocumentLineDocument');

  x.open('ram:SpecifiedTradeProduct');
  if (l.standardItemId) x.leaf('ram:GlobalID', l.standardItemId.value, { schemeID: l.standardItemId.schemeId });
  if (full) {
    x.leaf('ram:SellerAssignedID', l.sellerItemId);
    x.leaf('ram:BuyerAssignedID', l.buyerItemId);
  }
  x.leaf('ram:Name', l.itemName);
  if (full) {
    x.leaf('ram:Description', l.itemDescription);
    for (const a of l.attributes) {
      x.open('ram:ApplicableProductCharacteristic')
        .leaf('ram:Description', a.name)
        .leaf('ram:Value', a.value)
        .close('ram:ApplicableProductCharacteristic');
    }
    for (const cl of l.classifications) {
      x.wrapped('ram:DesignatedProductClassification', 'ram:ClassCode', cl.value, { listID: cl.schemeId, listVersionID: cl.listVersionId });
    }
    x.wrapped('ram:OriginTradeCountry', 'ram:ID', l.originCountryCode);
  }
  x.close('ram:SpecifiedTradeProduct');

  x.open('ram:SpecifiedLineTradeAgreement');
  if (full) x.wrapped('ram:BuyerOrderReferencedDocument', 'ram:LineID', l.orderLineReference);
  const baseQty = l.priceBaseQuantity ? { unitCode: l.priceBaseQuantityUnitCode ?? l.unitCode } : undefined;
  if (l.grossPrice !== undefined) {
    x.open('ram:GrossPriceProductTradePrice');
    x.leaf('ram:ChargeAmount', l.grossPrice);
    if (baseQty) x.leaf('ram:BasisQuantity', l.priceBaseQuantity, baseQty);
    if (l.priceDiscount !== undefined && l.priceDiscount !== '' && !/^0*(\.0*)?$/.test(l.priceDiscount)) {
      x.open('ram:AppliedTradeAllowanceCharge');
      x.wrapped('ram:ChargeIndicator', 'udt:Indicator', 'false');
      x.leaf('ram:ActualAmount', l.priceDiscount);
      x.close('ram:AppliedTradeAllowanceCharge');
    }
    x.close('ram:GrossPriceProductTradePrice');
  }
  x.open('ram:NetPriceProductTradePrice');
  x.leaf('ram:ChargeAmount', l.netPrice);
  if (baseQty) x.leaf('ram:BasisQuantity', l.priceBaseQuantity, baseQty);
  x.close('ram:NetPriceProductTradePrice');
  if (level >= LEVEL.EXTENDED && l.itemSeller) writeLineSeller(c, l.itemSeller);
  x.close('ram:SpecifiedLineTradeAgreement');

  x.open('ram:SpecifiedLineTradeDelivery');
  x.leaf('ram:BilledQuantity', l.quantity, { unitCode: l.unitCode });
  x.close('ram:SpecifiedLineTradeDelivery');

  x.open('ram:SpecifiedLineTradeSettlement');
  x.open('ram:ApplicableTradeTax');
  x.leaf('ram:TypeCode', 'VAT');
  // EXTENDED repeats the exemption reason on the line (its breakdown rules compare the two).
  const exemption =
    level < LEVEL.EXTENDED
      ? undefined
      : l.vatExemptionReason !== undefined || l.vatExemptionReasonCode !== undefined
        ? { exemptionReason: l.vatExemptionReason, exemptionReasonCode: l.vatExemptionReasonCode }
        : lineExemption(c, l);
  x.leaf('ram:ExemptionReason', exemption?.exemptionReason);
  x.leaf('ram:CategoryCode', l.vatCategoryCode);
  x.leaf('ram:ExemptionReasonCode', exemption?.exemptionReasonCode);
  if (l.vatCategoryCode !== 'O') x.leaf('ram:RateApplicablePercent', l.vatRate);
  x.close('ram:ApplicableTradeTax');
  writePeriod(c, l.period);
  for (const a of l.allowances) writeLineAllowanceCharge(c, a, false);
  for (const ch of l.charges) writeLineAllowanceCharge(c, ch, true);
  x.open('ram:SpecifiedTradeSettlementLineMonetarySummation').leaf('ram:LineTotalAmount', l.netAmount);
  if (level >= LEVEL.EXTENDED) {
    // A multi-vendor sub-invoice's VAT total and total with VAT (EXT-FR-FE-181, EXT-FR-FE-184) on its GROUP line.
    x.leaf('ram:TaxTotalAmount', l.taxTotal, { currencyID: c.inv.currency });
    x.leaf('ram:GrandTotalAmount', l.grossTotal);
  }
  x.close('ram:SpecifiedTradeSettlementLineMonetarySummation');
  if (full) {
    const reference = (id: string | undefined, referenceType: string | undefined) => {
      if (id === undefined) return;
      x.open('ram:AdditionalReferencedDocument');
      x.leaf('ram:IssuerAssignedID', id);
      x.leaf('ram:TypeCode', '130');
      x.leaf('ram:ReferenceTypeCode', referenceType);
      x.close('ram:AdditionalReferencedDocument');
    };
    reference(l.objectIdentifier?.value, l.objectIdentifier?.schemeId);
    if (level >= LEVEL.EXTENDED) {
      // Multi-vendor invoices: the sub-invoice's framework (AVV) and number (AFL), as BT-128 with those reference types.
      reference(l.subInvoiceFramework, 'AVV');
      reference(l.subInvoiceNumber, 'AFL');
    }
    x.wrapped('ram:ReceivableSpecifiedTradeAccountingAccount', 'ram:ID', l.buyerAccountingReference);
  }
  x.close('ram:SpecifiedLineTradeSettlement');

  x.close('ram:IncludedSupplyChainTradeLineItem');
}

/** The seller of a line of a multi-vendor invoice (ItemSellerTradeParty, EXTENDED / EXTENDED-CTC-FR). */
function writeLineSeller(c: Ctx, s: LineSeller): void {
  const { x } = c;
  x.open('ram:ItemSellerTradeParty');
  if (s.globalId) x.leaf('ram:GlobalID', s.globalId.value, { schemeID: s.globalId.schemeId });
  x.leaf('ram:Name', s.name);
  if (s.legalRegistrationId) {
    x.open('ram:SpecifiedLegalOrganization');
    x.leaf('ram:ID', s.legalRegistrationId.value, { schemeID: s.legalRegistrationId.schemeId });
    x.close('ram:SpecifiedLegalOrganization');
  }
  x.wrapped('ram:PostalTradeAddress', 'ram:CountryID', s.countryCode);
  x.wrapped('ram:SpecifiedTaxRegistration', 'ram:ID', s.vatId, { schemeID: 'VA' });
  x.close('ram:ItemSellerTradeParty');
}

/** The breakdown entry of a line's VAT category (and rate) when it carries an exemption reason. */
function lineExemption(c: Ctx, l: InvoiceLine): VatBreakdown | undefined {
  // When lines state their own reasons, the breakdown is split by them (src/metadata/compute.ts): a line without one
  // belongs to the breakdown without one.
  if (c.inv.lines.some((x) => x.vatExemptionReason !== undefined || x.vatExemptionReasonCode !== undefined)) return undefined;
  const rate = decOrZero(l.vatRate);
  return c.inv.vatBreakdown.find(
    (b) => b.categoryCode === l.vatCategoryCode && (b.exemptionReason || b.exemptionReasonCode) && decOrZero(b.rate).eq(rate),
  );
}

function writePeriod(c: Ctx, p: { start?: string; end?: string } | undefined): void {
  if (!p || (!p.start && !p.end)) return;
  c.x.open('ram:BillingSpecifiedPeriod');
  dateTime(c, 'ram:StartDateTime', p.start);
  dateTime(c, 'ram:EndDateTime', p.end);
  c.x.close('ram:BillingSpecifiedPeriod');
}

function indicator(c: Ctx, charge: boolean): void {
  c.x.wrapped('ram:ChargeIndicator', 'udt:Indicator', charge ? 'true' : 'false');
}

function writeLineAllowanceCharge(c: Ctx, ac: LineAllowanceCharge, charge: boolean): void {
  const { x } = c;
  x.open('ram:SpecifiedTradeAllowanceCharge');
  indicator(c, charge);
  if (c.level >= LEVEL.EN16931) {
    x.leaf('ram:CalculationPercent', ac.percentage);
    x.leaf('ram:BasisAmount', ac.baseAmount);
  }
  x.leaf('ram:ActualAmount', ac.amount);
  x.leaf('ram:ReasonCode', ac.reasonCode);
  x.leaf('ram:Reason', ac.reason);
  x.close('ram:SpecifiedTradeAllowanceCharge');
}

// ---- header agreement -------------------------------------------------------------------------------------

function writeAddress(c: Ctx, a: Address | undefined, countryOnly = false): void {
  if (!a) return;
  const { x } = c;
  x.open('ram:PostalTradeAddress');
  if (!countryOnly) {
    x.leaf('ram:PostcodeCode', a.postcode);
    x.leaf('ram:LineOne', a.line1);
    x.leaf('ram:LineTwo', a.line2);
    x.leaf('ram:LineThree', a.line3);
    x.leaf('ram:CityName', a.city);
  }
  x.leaf('ram:CountryID', a.countryCode);
  if (!countryOnly) x.leaf('ram:CountrySubDivisionName', a.countrySubdivision);
  x.close('ram:PostalTradeAddress');
}

/** BT-29/46/60/71: with a scheme as GlobalID, without as ID (IDs first, schema order). */
function writeIdentifiers(c: Ctx, ids: (Identifier | undefined)[]): void {
  for (const id of ids) if (id && !id.schemeId) c.x.leaf('ram:ID', id.value);
  for (const id of ids) if (id && id.schemeId) c.x.leaf('ram:GlobalID', id.value, { schemeID: id.schemeId });
}

function writeParty(c: Ctx, element: string, p: Party, role: 'seller' | 'buyer'): void {
  const { x, level } = c;
  const minimum = level === LEVEL.MINIMUM;
  x.open(element);
  if (!minimum) writeIdentifiers(c, p.identifiers);
  x.leaf('ram:Name', p.name);
  if (role === 'seller' && level >= LEVEL.EN16931) x.leaf('ram:Description', p.additionalLegalInfo);
  const trading = !minimum && (role === 'seller' || level >= LEVEL.EN16931) ? p.tradingName : undefined;
  if (p.legalRegistrationId || trading) {
    x.open('ram:SpecifiedLegalOrganization');
    if (p.legalRegistrationId) x.leaf('ram:ID', p.legalRegistrationId.value, { schemeID: p.legalRegistrationId.schemeId });
    x.leaf('ram:TradingBusinessName', trading);
    x.close('ram:SpecifiedLegalOrganization');
  }
  if (level >= LEVEL.EN16931) {
    const contact = p.contacts[0];
    if (contact && (contact.name || contact.department || contact.phone || contact.email)) {
      x.open('ram:DefinedTradeContact');
      x.leaf('ram:PersonName', contact.name);
      // CII-SR-465/466: a person name or a department, not both.
      if (!contact.name) x.leaf('ram:DepartmentName', contact.department);
      x.wrapped('ram:TelephoneUniversalCommunication', 'ram:CompleteNumber', contact.phone);
      x.wrapped('ram:EmailURIUniversalCommunication', 'ram:URIID', contact.email);
      x.close('ram:DefinedTradeContact');
    }
  }
  if (minimum) {
    if (role === 'seller') writeAddress(c, p.address, true);
  } else {
    writeAddress(c, p.address);
    if (p.electronicAddress)
      x.wrapped('ram:URIUniversalCommunication', 'ram:URIID', p.electronicAddress.value, { schemeID: p.electronicAddress.schemeId });
  }
  if (role === 'seller' || !minimum) x.wrapped('ram:SpecifiedTaxRegistration', 'ram:ID', p.vatId, { schemeID: 'VA' });
  if (role === 'seller') x.wrapped('ram:SpecifiedTaxRegistration', 'ram:ID', p.taxRegistrationId, { schemeID: 'FC' });
  x.close(element);
}

function writeAgreement(c: Ctx): void {
  const { x, inv, level } = c;
  x.open('ram:ApplicableHeaderTradeAgreement');
  x.leaf('ram:BuyerReference', inv.buyerReference);
  writeParty(c, 'ram:SellerTradeParty', inv.seller, 'seller');
  writeParty(c, 'ram:BuyerTradeParty', inv.buyer, 'buyer');
  const rep = inv.taxRepresentative;
  if (rep && level >= LEVEL.BASIC_WL) {
    x.open('ram:SellerTaxRepresentativeTradeParty');
    x.leaf('ram:Name', rep.name);
    writeAddress(c, rep.address);
    x.wrapped('ram:SpecifiedTaxRegistration', 'ram:ID', rep.vatId, { schemeID: 'VA' });
    x.close('ram:SellerTaxRepresentativeTradeParty');
  }
  if (level >= LEVEL.EN16931) x.wrapped('ram:SellerOrderReferencedDocument', 'ram:IssuerAssignedID', inv.salesOrderReference);
  x.wrapped('ram:BuyerOrderReferencedDocument', 'ram:IssuerAssignedID', inv.purchaseOrderReference);
  if (level >= LEVEL.BASIC_WL) x.wrapped('ram:ContractReferencedDocument', 'ram:IssuerAssignedID', inv.contractReference);
  if (level >= LEVEL.EN16931) {
    // BG-24: schema order in ReferencedDocumentType is IssuerAssignedID, URIID, TypeCode, Name, AttachmentBinaryObject.
    for (const d of inv.supportingDocuments) {
      x.open('ram:AdditionalReferencedDocument');
      x.leaf('ram:IssuerAssignedID', d.reference);
      x.leaf('ram:URIID', d.externalLocation);
      x.leaf('ram:TypeCode', '916');
      x.leaf('ram:Name', d.description);
      if (d.attachment?.contentBase64) {
        x.leaf('ram:AttachmentBinaryObject', d.attachment.contentBase64, {
          mimeCode: d.attachment.mimeCode,
          filename: d.attachment.filename,
        });
      }
      x.close('ram:AdditionalReferencedDocument');
    }
    if (inv.tenderOrLotReference) {
      x.open('ram:AdditionalReferencedDocument')
        .leaf('ram:IssuerAssignedID', inv.tenderOrLotReference)
        .leaf('ram:TypeCode', '50')
        .close('ram:AdditionalReferencedDocument');
    }
    if (inv.invoicedObjectIdentifier) {
      x.open('ram:AdditionalReferencedDocument');
      x.leaf('ram:IssuerAssignedID', inv.invoicedObjectIdentifier.value);
      x.leaf('ram:TypeCode', '130');
      x.leaf('ram:ReferenceTypeCode', inv.invoicedObjectIdentifier.schemeId);
      x.close('ram:AdditionalReferencedDocument');
    }
    if (inv.projectReference) {
      // CII needs a project name; EN 16931 carries only the reference (BT-11).
      x.open('ram:SpecifiedProcuringProject')
        .leaf('ram:ID', inv.projectReference)
        .leaf('ram:Name', 'Project reference')
        .close('ram:SpecifiedProcuringProject');
    }
  }
  x.close('ram:ApplicableHeaderTradeAgreement');
}

function writeDelivery(c: Ctx): void {
  const { x, inv, level } = c;
  x.open('ram:ApplicableHeaderTradeDelivery');
  const d = inv.delivery;
  if (level >= LEVEL.BASIC_WL && d) {
    if (d.partyName || d.locationId || d.address) {
      x.open('ram:ShipToTradeParty');
      writeIdentifiers(c, [d.locationId]);
      x.leaf('ram:Name', d.partyName);
      writeAddress(c, d.address);
      x.close('ram:ShipToTradeParty');
    }
    if (d.actualDeliveryDate) {
      x.open('ram:ActualDeliverySupplyChainEvent');
      dateTime(c, 'ram:OccurrenceDateTime', d.actualDeliveryDate);
      x.close('ram:ActualDeliverySupplyChainEvent');
    }
  }
  if (level >= LEVEL.BASIC_WL) x.wrapped('ram:DespatchAdviceReferencedDocument', 'ram:IssuerAssignedID', inv.despatchAdviceReference);
  if (level >= LEVEL.EN16931) x.wrapped('ram:ReceivingAdviceReferencedDocument', 'ram:IssuerAssignedID', inv.receivingAdviceReference);
  x.close('ram:ApplicableHeaderTradeDelivery');
}

// ---- header settlement ------------------------------------------------------------------------------------

function writePaymentMeans(c: Ctx): void {
  const { x, inv, level } = c;
  const pay = inv.payment;
  if (!pay?.meansCode) return;
  const full = level >= LEVEL.EN16931;
  // CII repeats the payment means once per credit transfer account (BG-17 is 0..n).
  const accounts = pay.creditTransfers.length ? pay.creditTransfers : [undefined];
  for (const [i, ct] of accounts.entries()) {
    x.open('ram:SpecifiedTradeSettlementPaymentMeans');
    x.leaf('ram:TypeCode', pay.meansCode);
    if (full) x.leaf('ram:Information', pay.meansText);
    if (full && pay.card && i === 0) {
      x.open('ram:ApplicableTradeSettlementFinancialCard');
      x.leaf('ram:ID', pay.card.primaryAccountNumber);
      x.leaf('ram:CardholderName', pay.card.holderName);
      x.close('ram:ApplicableTradeSettlementFinancialCard');
    }
    if (i === 0) x.wrapped('ram:PayerPartyDebtorFinancialAccount', 'ram:IBANID', pay.directDebit?.debitedAccountId);
    if (ct?.accountId) {
      x.open('ram:PayeePartyCreditorFinancialAccount');
      if (!ct.proprietaryId) x.leaf('ram:IBANID', ct.accountId);
      if (full) x.leaf('ram:AccountName', ct.accountName);
      if (ct.proprietaryId) x.leaf('ram:ProprietaryID', ct.accountId);
      x.close('ram:PayeePartyCreditorFinancialAccount');
    }
    if (full && ct?.serviceProviderId) x.wrapped('ram:PayeeSpecifiedCreditorFinancialInstitution', 'ram:BICID', ct.serviceProviderId);
    x.close('ram:SpecifiedTradeSettlementPaymentMeans');
  }
}

function writeTradeTax(c: Ctx, b: VatBreakdown, first: boolean): void {
  const { x, inv, level } = c;
  x.open('ram:ApplicableTradeTax');
  x.leaf('ram:CalculatedAmount', b.taxAmount);
  x.leaf('ram:TypeCode', 'VAT');
  x.leaf('ram:ExemptionReason', b.exemptionReason);
  x.leaf('ram:BasisAmount', b.taxableAmount);
  x.leaf('ram:CategoryCode', b.categoryCode);
  x.leaf('ram:ExemptionReasonCode', b.exemptionReasonCode);
  // BT-7 / BT-8 are document level in EN 16931; CII puts them into the breakdown entries, the date at most once
  // (CII-SR-461), so into the first.
  if (first && level >= LEVEL.EN16931 && inv.taxPointDate) {
    x.open('ram:TaxPointDate').leaf('udt:DateString', toCiiDate(inv.taxPointDate), { format: '102' }).close('ram:TaxPointDate');
  }
  x.leaf('ram:DueDateTypeCode', inv.taxPointDateCode && (CII_TAX_POINT_CODE[inv.taxPointDateCode] ?? inv.taxPointDateCode));
  // Category O has no rate; XRechnung still wants one in the breakdown (BR-DE-14), where 0 is the only sensible value.
  if (b.categoryCode !== 'O') x.leaf('ram:RateApplicablePercent', b.rate);
  else if (c.profile === 'xrechnung') x.leaf('ram:RateApplicablePercent', '0');
  x.close('ram:ApplicableTradeTax');
}

function writeDocumentAllowanceCharge(c: Ctx, ac: DocumentAllowanceCharge, charge: boolean): void {
  const { x } = c;
  x.open('ram:SpecifiedTradeAllowanceCharge');
  indicator(c, charge);
  x.leaf('ram:CalculationPercent', ac.percentage);
  x.leaf('ram:BasisAmount', ac.baseAmount);
  x.leaf('ram:ActualAmount', ac.amount);
  x.leaf('ram:ReasonCode', ac.reasonCode);
  x.leaf('ram:Reason', ac.reason);
  x.open('ram:CategoryTradeTax');
  x.leaf('ram:TypeCode', 'VAT');
  x.leaf('ram:CategoryCode', ac.vatCategoryCode);
  if (ac.vatCategoryCode !== 'O') x.leaf('ram:RateApplicablePercent', ac.vatRate);
  x.close('ram:CategoryTradeTax');
  x.close('ram:SpecifiedTradeAllowanceCharge');
}

function writeSettlement(c: Ctx): void {
  const { x, inv, level } = c;
  const t = inv.totals;
  x.open('ram:ApplicableHeaderTradeSettlement');
  if (level >= LEVEL.BASIC_WL) {
    x.leaf('ram:CreditorReferenceID', inv.payment?.directDebit?.creditorId);
    x.leaf('ram:PaymentReference', inv.payment?.remittanceInformation);
    x.leaf('ram:TaxCurrencyCode', inv.vatAccountingCurrency);
  }
  x.leaf('ram:InvoiceCurrencyCode', inv.currency);
  if (level >= LEVEL.BASIC_WL) {
    const payee = inv.payee;
    if (payee) {
      x.open('ram:PayeeTradeParty');
      writeIdentifiers(c, payee.identifiers);
      x.leaf('ram:Name', payee.name);
      if (payee.legalRegistrationId) {
        x.wrapped('ram:SpecifiedLegalOrganization', 'ram:ID', payee.legalRegistrationId.value, {
          schemeID: payee.legalRegistrationId.schemeId,
        });
      }
      x.close('ram:PayeeTradeParty');
    }
    writePaymentMeans(c);
    for (const [i, b] of inv.vatBreakdown.entries()) writeTradeTax(c, b, i === 0);
    writePeriod(c, inv.invoicingPeriod);
    for (const a of inv.allowances) writeDocumentAllowanceCharge(c, a, false);
    for (const ch of inv.charges) writeDocumentAllowanceCharge(c, ch, true);
    const mandate = inv.payment?.directDebit?.mandateReference;
    if (inv.paymentTerms || inv.dueDate || mandate) {
      x.open('ram:SpecifiedTradePaymentTerms');
      x.leaf('ram:Description', inv.paymentTerms);
      dateTime(c, 'ram:DueDateDateTime', inv.dueDate);
      x.leaf('ram:DirectDebitMandateID', mandate);
      x.close('ram:SpecifiedTradePaymentTerms');
    }
  }

  x.open('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  if (level >= LEVEL.BASIC_WL) {
    x.leaf('ram:LineTotalAmount', t.lineNetTotal);
    x.leaf('ram:ChargeTotalAmount', t.chargeTotal);
    x.leaf('ram:AllowanceTotalAmount', t.allowanceTotal);
  }
  x.leaf('ram:TaxBasisTotalAmount', t.taxExclusiveAmount);
  x.leaf('ram:TaxTotalAmount', t.taxTotal, { currencyID: inv.currency });
  if (level >= LEVEL.BASIC_WL && inv.vatAccountingCurrency) {
    x.leaf('ram:TaxTotalAmount', t.taxTotalAccountingCurrency, { currencyID: inv.vatAccountingCurrency });
  }
  if (level >= LEVEL.EN16931) x.leaf('ram:RoundingAmount', t.roundingAmount);
  x.leaf('ram:GrandTotalAmount', t.taxInclusiveAmount);
  if (level >= LEVEL.BASIC_WL) x.leaf('ram:TotalPrepaidAmount', t.paidAmount);
  x.leaf('ram:DuePayableAmount', t.amountDue);
  x.close('ram:SpecifiedTradeSettlementHeaderMonetarySummation');

  if (level >= LEVEL.BASIC_WL) {
    for (const p of inv.precedingInvoices) {
      x.open('ram:InvoiceReferencedDocument');
      x.leaf('ram:IssuerAssignedID', p.number);
      if (p.date) {
        x.open('ram:FormattedIssueDateTime')
          .leaf('qdt:DateTimeString', toCiiDate(p.date), { format: '102' })
          .close('ram:FormattedIssueDateTime');
      }
      x.close('ram:InvoiceReferencedDocument');
    }
    x.wrapped('ram:ReceivableSpecifiedTradeAccountingAccount', 'ram:ID', inv.buyerAccountingReference);
  }
  x.close('ram:ApplicableHeaderTradeSettlement');
}
