/**
 * The EN 16931 semantic invoice model: one hub between syntaxes.
 *
 * Field names are readable; each carries its business term (BT-/BG-) in a comment.
 * Readers (CII, UBL) fill it, writers (CII) read from it, business rules check it.
 *
 * Conventions:
 * - Amounts, quantities, rates and percentages are `Dec`: the decimal's lexical form exactly as
 *   given (e.g. "100.00", "19", "-3.5"). Compute with `src/model/decimal.ts`, never with JS numbers.
 * - Dates are ISO `YYYY-MM-DD` strings where the source could be read as a date; otherwise the raw
 *   text as found (rules may then report the format).
 * - A field that is absent in the source is `undefined`; a present-but-empty element is `""`.
 * - Repeatable terms are arrays (always present, possibly empty).
 * - `$loc` (optional, filled by readers) maps a field name of the object to an XPath-like location in
 *   the source document; `$loc.self` is the object's own element. Writers ignore it.
 */

/** Decimal in lexical form. */
export type Dec = string;

/** Field name → XPath-like location (e.g. "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID"). */
export type Locations = Partial<Record<string, string>> & { self?: string };

export interface Located {
  $loc?: Locations;
}

/** An identifier with an optional scheme (ISO 6523 ICD, CEF EAS, ...). */
export interface Identifier {
  value: string;
  schemeId?: string;
  schemeVersionId?: string;
}

/** BG-5 / BG-8 / BG-12 / BG-15 postal address. */
export interface Address extends Located {
  line1?: string; // BT-35 / BT-50 / BT-64 / BT-75
  line2?: string; // BT-36 / BT-51 / BT-65 / BT-76
  line3?: string; // BT-162 / BT-163 / BT-164 / BT-165
  city?: string; // BT-37 / BT-52 / BT-66 / BT-77
  postcode?: string; // BT-38 / BT-53 / BT-67 / BT-78
  countrySubdivision?: string; // BT-39 / BT-54 / BT-68 / BT-79
  countryCode?: string; // BT-40 / BT-55 / BT-69 / BT-80 (ISO 3166-1 alpha-2)
}

/** BG-6 / BG-9 contact. */
export interface Contact extends Located {
  name?: string; // BT-41 / BT-56 (contact point)
  department?: string; // CII DepartmentName (part of BT-41/BT-56 in CII)
  phone?: string; // BT-42 / BT-57
  email?: string; // BT-43 / BT-58
}

/** BG-4 seller / BG-7 buyer. */
export interface Party extends Located {
  name?: string; // BT-27 / BT-44
  tradingName?: string; // BT-28 / BT-45
  identifiers: Identifier[]; // BT-29 / BT-46 (with scheme = global id)
  legalRegistrationId?: Identifier; // BT-30 / BT-47
  vatId?: string; // BT-31 / BT-48
  taxRegistrationId?: string; // BT-32 (seller only: local tax id, CII schemeID "FC")
  additionalLegalInfo?: string; // BT-33 (seller only)
  electronicAddress?: Identifier; // BT-34 / BT-49 (scheme = CEF EAS)
  address?: Address; // BG-5 / BG-8
  contacts: Contact[]; // BG-6 / BG-9 (EN 16931 allows one; CII syntax may carry more)
}

/** BG-10 payee. */
export interface Payee extends Located {
  name?: string; // BT-59
  identifiers: Identifier[]; // BT-60
  legalRegistrationId?: Identifier; // BT-61
}

/** BG-11 seller tax representative. */
export interface TaxRepresentative extends Located {
  name?: string; // BT-62
  vatId?: string; // BT-63
  address?: Address; // BG-12
}

/** BG-13 delivery information. */
export interface Delivery extends Located {
  partyName?: string; // BT-70
  locationId?: Identifier; // BT-71
  actualDeliveryDate?: string; // BT-72
  address?: Address; // BG-15
}

/** BG-14 / BG-26 period. */
export interface Period extends Located {
  start?: string; // BT-73 / BT-134
  end?: string; // BT-74 / BT-135
}

/** BG-1 invoice note. */
export interface Note extends Located {
  subjectCode?: string; // BT-21
  text: string; // BT-22
}

/** BG-3 preceding invoice reference. */
export interface PrecedingInvoice extends Located {
  number: string; // BT-25
  date?: string; // BT-26
}

/** BG-17 credit transfer. */
export interface CreditTransfer extends Located {
  accountId?: string; // BT-84 (IBAN or proprietary)
  proprietaryId?: boolean; // true when BT-84 is not given as an IBAN (CII ProprietaryID)
  accountName?: string; // BT-85
  serviceProviderId?: string; // BT-86 (BIC)
}

/** BG-18 payment card. */
export interface PaymentCard extends Located {
  primaryAccountNumber?: string; // BT-87
  holderName?: string; // BT-88
}

/** BG-19 direct debit. */
export interface DirectDebit extends Located {
  mandateReference?: string; // BT-89
  creditorId?: string; // BT-90
  debitedAccountId?: string; // BT-91
}

/** BG-16 payment instructions. */
export interface PaymentInstructions extends Located {
  meansCode?: string; // BT-81 (UNTDID 4461)
  meansText?: string; // BT-82
  remittanceInformation?: string; // BT-83
  creditTransfers: CreditTransfer[]; // BG-17
  card?: PaymentCard; // BG-18
  directDebit?: DirectDebit; // BG-19
}

/** BG-20 document level allowance / BG-21 document level charge. */
export interface DocumentAllowanceCharge extends Located {
  amount?: Dec; // BT-92 / BT-99
  baseAmount?: Dec; // BT-93 / BT-100
  percentage?: Dec; // BT-94 / BT-101
  vatCategoryCode?: string; // BT-95 / BT-102
  vatRate?: Dec; // BT-96 / BT-103
  reason?: string; // BT-97 / BT-104
  reasonCode?: string; // BT-98 / BT-105 (UNTDID 5189 allowances, 7161 charges)
}

/** BG-27 line allowance / BG-28 line charge. */
export interface LineAllowanceCharge extends Located {
  amount?: Dec; // BT-136 / BT-141
  baseAmount?: Dec; // BT-137 / BT-142
  percentage?: Dec; // BT-138 / BT-143
  reason?: string; // BT-139 / BT-144
  reasonCode?: string; // BT-140 / BT-145
}

/** BG-22 document totals. */
export interface DocumentTotals extends Located {
  lineNetTotal?: Dec; // BT-106
  allowanceTotal?: Dec; // BT-107
  chargeTotal?: Dec; // BT-108
  taxExclusiveAmount?: Dec; // BT-109
  taxTotal?: Dec; // BT-110 (in invoice currency)
  taxTotalAccountingCurrency?: Dec; // BT-111 (in BT-6 currency)
  taxInclusiveAmount?: Dec; // BT-112
  paidAmount?: Dec; // BT-113
  roundingAmount?: Dec; // BT-114
  amountDue?: Dec; // BT-115
}

/** BG-23 VAT breakdown. */
export interface VatBreakdown extends Located {
  taxableAmount?: Dec; // BT-116
  taxAmount?: Dec; // BT-117
  categoryCode?: string; // BT-118 (UNTDID 5305 subset)
  rate?: Dec; // BT-119
  exemptionReason?: string; // BT-120
  exemptionReasonCode?: string; // BT-121 (VATEX)
}

/** BG-24 additional supporting document. */
export interface SupportingDocument extends Located {
  reference: string; // BT-122
  description?: string; // BT-123
  externalLocation?: string; // BT-124 (URI)
  attachment?: { mimeCode?: string; filename?: string; contentBase64: string }; // BT-125, -1, -2
}

/** BG-32 item attribute. */
export interface ItemAttribute {
  name: string; // BT-160
  value: string; // BT-161
}

/** BG-25 invoice line. */
export interface InvoiceLine extends Located {
  id: string; // BT-126
  note?: string; // BT-127
  objectIdentifier?: Identifier; // BT-128
  quantity?: Dec; // BT-129
  unitCode?: string; // BT-130 (UN/ECE Rec 20/21)
  netAmount?: Dec; // BT-131
  orderLineReference?: string; // BT-132
  buyerAccountingReference?: string; // BT-133
  period?: Period; // BG-26
  allowances: LineAllowanceCharge[]; // BG-27
  charges: LineAllowanceCharge[]; // BG-28
  // BG-29 price details
  netPrice?: Dec; // BT-146
  priceDiscount?: Dec; // BT-147
  grossPrice?: Dec; // BT-148
  priceBaseQuantity?: Dec; // BT-149
  priceBaseQuantityUnitCode?: string; // BT-150
  // CII: the gross price's own base quantity (BT-149 / BT-150 of GrossPriceProductTradePrice) when the net price
  // states another one (priceBaseQuantity is then the net price's); absent otherwise.
  grossPriceBaseQuantity?: Dec;
  grossPriceBaseQuantityUnitCode?: string;
  // BG-30 line VAT information
  vatCategoryCode?: string; // BT-151
  vatRate?: Dec; // BT-152
  // BG-31 item information
  itemName?: string; // BT-153
  itemDescription?: string; // BT-154
  sellerItemId?: string; // BT-155
  buyerItemId?: string; // BT-156
  standardItemId?: Identifier; // BT-157
  classifications: (Identifier & { listVersionId?: string })[]; // BT-158
  originCountryCode?: string; // BT-159
  attributes: ItemAttribute[]; // BG-32
  // XRechnung extension (UBL cac:SubInvoiceLine / cac:SubCreditNoteLine, BG-DEX-01): the line's sub-lines, each an
  // InvoiceLine of its own (BT-126... and the same groups); absent when the line has none. (CII writes its sub-lines
  // flat, each with parentLineId and subtype below.)
  subLines?: InvoiceLine[];
  // EXTENDED / EXTENDED-CTC-FR (AFNOR XP Z12-012): sub-lines and multi-vendor invoices
  subtype?: 'DETAIL' | 'GROUP' | 'INFORMATION'; // BT-X-8 / EXT-FR-FE-163 line subtype (absent: DETAIL)
  parentLineId?: string; // BT-X-304 / EXT-FR-FE-162 parent line
  itemSeller?: LineSeller; // EXT-FR-FE-164… seller of the line (multi-vendor invoices)
  vatExemptionReason?: string; // EXT-FR-FE-178 line VAT exemption reason text (multi-vendor: the third-party marker)
  vatExemptionReasonCode?: string; // EXT-FR-FE-179 line VAT exemption reason code
  // Multi-vendor invoices (frameworks S8/B8/M8): each GROUP line without parent is a sub-invoice of one seller.
  subInvoiceNumber?: string; // BT-128 with reference type AFL: the number of the sub-invoice the line belongs to
  subInvoiceFramework?: string; // BT-128 with reference type AVV: the sub-invoice's billing framework (e.g. S1)
  taxTotal?: Dec; // EXT-FR-FE-181 VAT total of the sub-invoice (GROUP line), in the invoice currency
  grossTotal?: Dec; // EXT-FR-FE-184 total with VAT of the sub-invoice (GROUP line)
}

/** XRechnung extension BG-DEX-09 third party payment (UBL cac:PrepaidPayment). */
export interface ThirdPartyPayment extends Located {
  type?: string; // BT-DEX-001
  amount?: Dec; // BT-DEX-002
  description?: string; // BT-DEX-003
}

/** The seller of one line of a multi-vendor invoice (CII ItemSellerTradeParty). */
export interface LineSeller {
  name?: string; // EXT-FR-FE-164
  globalId?: Identifier; // EXT-FR-FE-166
  legalRegistrationId?: Identifier; // EXT-FR-FE-167 (SIREN: scheme 0002)
  vatId?: string; // EXT-FR-FE-168
  countryCode?: string; // EXT-FR-FE-177
}

/** Document kind as the syntax expresses it (UBL distinguishes Invoice and CreditNote roots). */
export type DocumentKind = 'invoice' | 'credit-note';

/** The whole EN 16931 invoice. */
export interface Invoice extends Located {
  kind: DocumentKind;
  number?: string; // BT-1
  issueDate?: string; // BT-2
  typeCode?: string; // BT-3 (UNTDID 1001 subset)
  currency?: string; // BT-5 (ISO 4217)
  vatAccountingCurrency?: string; // BT-6
  taxPointDate?: string; // BT-7
  taxPointDateCode?: string; // BT-8 (UNTDID 2005 subset)
  dueDate?: string; // BT-9
  buyerReference?: string; // BT-10
  projectReference?: string; // BT-11
  contractReference?: string; // BT-12
  purchaseOrderReference?: string; // BT-13
  salesOrderReference?: string; // BT-14
  receivingAdviceReference?: string; // BT-15
  despatchAdviceReference?: string; // BT-16
  tenderOrLotReference?: string; // BT-17
  invoicedObjectIdentifier?: Identifier; // BT-18
  buyerAccountingReference?: string; // BT-19
  paymentTerms?: string; // BT-20
  notes: Note[]; // BG-1
  businessProcess?: string; // BT-23
  specificationId?: string; // BT-24 (guideline / CustomizationID)
  precedingInvoices: PrecedingInvoice[]; // BG-3
  seller: Party; // BG-4
  buyer: Party; // BG-7
  payee?: Payee; // BG-10
  taxRepresentative?: TaxRepresentative; // BG-11
  delivery?: Delivery; // BG-13
  invoicingPeriod?: Period; // BG-14
  payment?: PaymentInstructions; // BG-16
  allowances: DocumentAllowanceCharge[]; // BG-20
  charges: DocumentAllowanceCharge[]; // BG-21
  totals: DocumentTotals; // BG-22
  vatBreakdown: VatBreakdown[]; // BG-23
  supportingDocuments: SupportingDocument[]; // BG-24
  lines: InvoiceLine[]; // BG-25
  thirdPartyPayments?: ThirdPartyPayment[]; // BG-DEX-09 (XRechnung extension, UBL); absent when there is none
}

/** A fresh, empty invoice: every array present, every optional field absent. */
export function emptyInvoice(kind: DocumentKind = 'invoice'): Invoice {
  return {
    kind,
    notes: [],
    precedingInvoices: [],
    seller: emptyParty(),
    buyer: emptyParty(),
    allowances: [],
    charges: [],
    totals: {},
    vatBreakdown: [],
    supportingDocuments: [],
    lines: [],
  };
}

export function emptyParty(): Party {
  return { identifiers: [], contacts: [] };
}

export function emptyLine(id: string): InvoiceLine {
  return { id, allowances: [], charges: [], classifications: [], attributes: [] };
}
