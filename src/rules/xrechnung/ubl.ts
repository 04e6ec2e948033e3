/**
 * XRechnung 3.0 CIUS for UBL invoices and credit notes (rule set `xrechnung-ubl`, KoSIT schematron
 * 2.4.0 for XRechnung 3.0.2): BR-DE-*, the extension rules BR-DEX-* (sub-invoice lines, third-party
 * payments, extended code lists), BR-DE-CVD-*, BR-TMP-* and the Peppol rules XRechnung applies.
 */
import { Big, parseDec, type BigValue } from '../../model/decimal.js';
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import { codeSet } from '../data/codelists.js';
import type { Rule } from '../types.js';
import { anyIn, anywhere, attr, has, hasAncestor, hasFilled, is, norm, sel, text, value, values } from './dom.js';
import {
  CVA_CODES,
  CVD_VEHICLE_CATEGORIES,
  EMAIL,
  EXTENSION_MIME_CODES,
  TELEPHONE,
  URL_WITH_SCHEME,
  XR_CIUS_ID,
  XR_CVD_ID,
  XR_EXTENSION_ID,
  ibanOk,
  inCodeList,
  skontoOk,
  toRule,
  type XrRuleDef,
  type XrRelease,
  DEFAULT_XR_RELEASE,
  XR_CODE_ADDITIONS,
  withAdditions,
} from './common.js';
import { peppolUblRulesFor } from './peppol.js';

const isRoot = (el: XmlElement) => el.parent === null && (is(el, 'ubl:Invoice') || is(el, 'cn:CreditNote'));
const rootOnly = (doc: XmlDoc) => (isRoot(doc.root) ? [doc.root] : []);
const customization = (doc: XmlDoc) => values(doc.root, 'cbc:CustomizationID');
const isExtension = (doc: XmlDoc) => customization(doc).includes(XR_EXTENSION_ID);
const isCvd = (doc: XmlDoc) => customization(doc).includes(XR_CVD_ID);
const lines = (doc: XmlDoc) => doc.root.children.filter((c) => is(c, 'cac:InvoiceLine') || is(c, 'cac:CreditNoteLine'));

const at = (path: string) => (doc: XmlDoc) => (isRoot(doc.root) ? sel(doc.root, path) : []);
const paymentMeansWith = (codes: string[]) => (doc: XmlDoc) =>
  at('cac:PaymentMeans')(doc).filter((pm) => codes.includes(norm(value(pm, 'cbc:PaymentMeansCode'))));

const VAT_CATEGORIES_NEEDING_SELLER_TAX_ID = ['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M'];

function usesListedVatCategory(root: XmlElement): boolean {
  const categories: string[] = [];
  for (const ac of sel(root, 'cac:AllowanceCharge')) {
    // XRechnung compares the raw indicator text here (no trimming).
    if (values(ac, 'cbc:ChargeIndicator').some((v) => v === 'false' || v === 'true'))
      categories.push(...values(ac, 'cac:TaxCategory/cbc:ID'));
  }
  for (const l of root.children)
    if (is(l, 'cac:InvoiceLine') || is(l, 'cac:CreditNoteLine')) categories.push(...values(l, 'cac:Item/cac:ClassifiedTaxCategory/cbc:ID'));
  return categories.some((c) => VAT_CATEGORIES_NEEDING_SELLER_TAX_ID.includes(c));
}

function attachmentFilenamesUnique(root: XmlElement): boolean {
  const refs = sel(root, 'cac:AdditionalDocumentReference');
  // A set: an array's includes() made thousands of references quadratic.
  const seen = new Set<string>();
  for (const r of refs) {
    const names = values(r, 'cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@filename');
    if (names.some((n) => seen.has(n))) return false;
    for (const n of names) seen.add(n);
  }
  return true;
}

const UNTDID_7143_CVD = () => codeSet('xrechnung-ubl', 'BR-TMP-CVD-01');

const dec = (s: string | undefined): BigValue | undefined => (s === undefined ? undefined : parseDec(s.trim()));

/** XPath round(x * 100) div 100. */
function round2(v: BigValue): BigValue {
  const scaled = v.times(new Big('100')).plus(new Big('0.5'));
  let t = scaled.round(0, Big.roundDown);
  if (t.gt(scaled)) t = t.minus(new Big('1'));
  return t.div(new Big('100'));
}

const SUPPLIER_CONTACT = 'cac:AccountingSupplierParty/cac:Party/cac:Contact';

/** The release's rules (they differ in the code lists of the extension rules BR-DEX-04…08). */
function defsFor(release: XrRelease): XrRuleDef[] {
  const add = XR_CODE_ADDITIONS[release];
  const ICD_EXT = () => withAdditions(`ubl icd ${release}`, codeSet('xrechnung-ubl', 'BR-DEX-05'), add.icd);
  const EAS_EXT = () => withAdditions(`ubl eas ${release}`, codeSet('xrechnung-ubl', 'BR-DEX-07'), add.eas);
  return [
    {
      id: 'BR-DE-1',
      severity: 'error',
      message: 'An XRechnung must contain payment instructions (BG-16).',
      contexts: rootOnly,
      test: (r) => has(r, 'cac:PaymentMeans'),
    },
    {
      id: 'BR-DE-15',
      severity: 'error',
      message: 'An XRechnung must contain the buyer reference (BT-10).',
      contexts: rootOnly,
      test: (r) => hasFilled(r, 'cbc:BuyerReference'),
    },
    {
      id: 'BR-DE-16',
      severity: 'error',
      message:
        'When VAT categories S, Z, E, AE, K, G, L or M are used, the seller VAT identifier (BT-31), the seller tax registration identifier (BT-32) or a seller tax representative (BG-11) must be given.',
      contexts: rootOnly,
      test: (r) =>
        !usesListedVatCategory(r) ||
        has(r, 'cac:TaxRepresentativeParty') ||
        hasFilled(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID'),
    },
    {
      id: 'BR-DE-17',
      severity: 'warning',
      message: 'The invoice type code (BT-3) should be one of 326, 380, 384, 389, 381, 875, 876 or 877.',
      contexts: rootOnly,
      test: (r) => {
        const accepted = [...codeSet('xrechnung-ubl', 'BR-DE-17')];
        return anyIn(r, 'cbc:InvoiceTypeCode', accepted) || anyIn(r, 'cbc:CreditNoteTypeCode', accepted);
      },
    },
    {
      id: 'BR-DE-18',
      severity: 'error',
      message:
        'Skonto statements in the payment terms (BT-20) must follow the XRechnung syntax "#SKONTO#TAGE=n#PROZENT=n.nn[#BASISBETRAG=n.nn]#", one per line, each ending with a line break.',
      contexts: rootOnly,
      test: (r) =>
        sel(r, 'cac:PaymentTerms').every((t) => {
          const note = sel(t, 'cbc:Note')[0];
          return note === undefined || skontoOk(text(note));
        }),
    },
    {
      id: 'BR-DE-21',
      severity: 'warning',
      message: 'The specification identifier (BT-24) should be the XRechnung identifier.',
      contexts: rootOnly,
      test: (r) => values(r, 'cbc:CustomizationID').some((v) => v === XR_CIUS_ID || v === XR_EXTENSION_ID || v === XR_CVD_ID),
    },
    {
      id: 'BR-DE-22',
      severity: 'error',
      message: 'The filenames of attached documents (BT-125-2) must be unique.',
      contexts: rootOnly,
      test: attachmentFilenamesUnique,
    },
    {
      id: 'BR-DE-26',
      severity: 'warning',
      message: 'A corrected invoice (type code 384) should reference the preceding invoice (BG-3).',
      contexts: rootOnly,
      test: (r) =>
        ![...values(r, 'cbc:InvoiceTypeCode'), ...values(r, 'cbc:CreditNoteTypeCode')].some((c) => Number(c) === 384) ||
        has(r, 'cac:BillingReference/cac:InvoiceDocumentReference'),
    },
    {
      id: 'BR-DE-30',
      severity: 'error',
      message: 'When direct debit (BG-19) is used, the bank assigned creditor identifier (BT-90) must be given.',
      contexts: rootOnly,
      test: (r) =>
        !has(r, 'cac:PaymentMeans/cac:PaymentMandate') ||
        [
          ...sel(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID'),
          ...sel(r, 'cac:PayeeParty/cac:PartyIdentification/cbc:ID'),
        ].some((id) => attr(id, 'schemeID') === 'SEPA'),
    },
    {
      id: 'BR-DE-31',
      severity: 'error',
      message: 'When direct debit (BG-19) is used, the debited account identifier (BT-91) must be given.',
      contexts: rootOnly,
      test: (r) =>
        !has(r, 'cac:PaymentMeans/cac:PaymentMandate') || has(r, 'cac:PaymentMeans/cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID'),
    },
    {
      id: 'BR-DE-TMP-32',
      severity: 'information',
      message:
        'The invoice should state when the goods or services were supplied: an actual delivery date (BT-72), an invoicing period (BG-14), or a period (BG-26) on every line.',
      contexts: rootOnly,
      test: (r, ctx) =>
        has(r, 'cac:Delivery/cbc:ActualDeliveryDate') ||
        has(r, 'cac:InvoicePeriod') ||
        lines(ctx.doc).every((l) => has(l, 'cac:InvoicePeriod')),
    },
    {
      id: 'BR-DE-2',
      severity: 'error',
      message: 'The seller contact (BG-6) must be given.',
      contexts: at('cac:AccountingSupplierParty'),
      test: (n) => has(n, 'cac:Party/cac:Contact'),
    },
    {
      id: 'BR-DE-3',
      severity: 'error',
      message: 'The seller city (BT-37) must be given.',
      contexts: at('cac:AccountingSupplierParty/cac:Party/cac:PostalAddress'),
      test: (n) => hasFilled(n, 'cbc:CityName'),
    },
    {
      id: 'BR-DE-4',
      severity: 'error',
      message: 'The seller post code (BT-38) must be given.',
      contexts: at('cac:AccountingSupplierParty/cac:Party/cac:PostalAddress'),
      test: (n) => hasFilled(n, 'cbc:PostalZone'),
    },
    {
      id: 'BR-DE-5',
      severity: 'error',
      message: 'The seller contact point (BT-41) must be given.',
      contexts: at(SUPPLIER_CONTACT),
      test: (n) => hasFilled(n, 'cbc:Name'),
    },
    {
      id: 'BR-DE-6',
      severity: 'error',
      message: 'The seller contact telephone number (BT-42) must be given.',
      contexts: at(SUPPLIER_CONTACT),
      test: (n) => hasFilled(n, 'cbc:Telephone'),
    },
    {
      id: 'BR-DE-7',
      severity: 'error',
      message: 'The seller contact email address (BT-43) must be given.',
      contexts: at(SUPPLIER_CONTACT),
      test: (n) => hasFilled(n, 'cbc:ElectronicMail'),
    },
    {
      id: 'BR-DE-27',
      severity: 'warning',
      message: 'The seller contact telephone number (BT-42) should contain at least three digits.',
      contexts: at(SUPPLIER_CONTACT),
      test: (n) => TELEPHONE.test(norm(value(n, 'cbc:Telephone'))),
    },
    {
      id: 'BR-DE-28',
      severity: 'warning',
      message: 'The seller contact email address (BT-43) should be a plausible address: one @ with text on both sides and a dotted domain.',
      contexts: at(SUPPLIER_CONTACT),
      test: (n) => EMAIL.test(norm(value(n, 'cbc:ElectronicMail'))),
    },
    {
      id: 'BR-DE-8',
      severity: 'error',
      message: 'The buyer city (BT-52) must be given.',
      contexts: at('cac:AccountingCustomerParty/cac:Party/cac:PostalAddress'),
      test: (n) => hasFilled(n, 'cbc:CityName'),
    },
    {
      id: 'BR-DE-9',
      severity: 'error',
      message: 'The buyer post code (BT-53) must be given.',
      contexts: at('cac:AccountingCustomerParty/cac:Party/cac:PostalAddress'),
      test: (n) => hasFilled(n, 'cbc:PostalZone'),
    },
    {
      id: 'BR-DE-10',
      severity: 'error',
      message: 'A deliver-to address (BG-15) must have a city (BT-77).',
      contexts: at('cac:Delivery/cac:DeliveryLocation/cac:Address'),
      test: (n) => hasFilled(n, 'cbc:CityName'),
    },
    {
      id: 'BR-DE-11',
      severity: 'error',
      message: 'A deliver-to address (BG-15) must have a post code (BT-78).',
      contexts: at('cac:Delivery/cac:DeliveryLocation/cac:Address'),
      test: (n) => hasFilled(n, 'cbc:PostalZone'),
    },
    {
      id: 'BR-DE-19',
      severity: 'warning',
      message: 'With SEPA credit transfer (payment means 58) the payment account identifier (BT-84) should be a valid IBAN.',
      contexts: paymentMeansWith(['30', '58']),
      test: (pm) => !values(pm, 'cbc:PaymentMeansCode').includes('58') || ibanOk(value(pm, 'cac:PayeeFinancialAccount/cbc:ID')),
    },
    {
      id: 'BR-DE-23-a',
      severity: 'error',
      message: 'Payment by credit transfer (30, 58) requires the credit transfer group (BG-17).',
      contexts: paymentMeansWith(['30', '58']),
      test: (pm) => has(pm, 'cac:PayeeFinancialAccount'),
    },
    {
      id: 'BR-DE-23-b',
      severity: 'error',
      message: 'Payment by credit transfer (30, 58) excludes payment card (BG-18) and direct debit (BG-19) information.',
      contexts: paymentMeansWith(['30', '58']),
      test: (pm) => !has(pm, 'cac:CardAccount') && !has(pm, 'cac:PaymentMandate'),
    },
    {
      id: 'BR-DE-24-a',
      severity: 'error',
      message: 'Payment by card (48, 54, 55) requires the payment card group (BG-18).',
      contexts: paymentMeansWith(['48', '54', '55']),
      test: (pm) => has(pm, 'cac:CardAccount'),
    },
    {
      id: 'BR-DE-24-b',
      severity: 'error',
      message: 'Payment by card (48, 54, 55) excludes credit transfer (BG-17) and direct debit (BG-19) information.',
      contexts: paymentMeansWith(['48', '54', '55']),
      test: (pm) => !has(pm, 'cac:PayeeFinancialAccount') && !has(pm, 'cac:PaymentMandate'),
    },
    {
      id: 'BR-DE-20',
      severity: 'warning',
      message: 'With SEPA direct debit (payment means 59) the debited account identifier (BT-91) should be a valid IBAN.',
      contexts: paymentMeansWith(['59']),
      test: (pm) =>
        !values(pm, 'cbc:PaymentMeansCode').includes('59') || ibanOk(value(pm, 'cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID')),
    },
    {
      id: 'BR-DE-25-a',
      severity: 'error',
      message: 'Payment by direct debit (59) requires the direct debit group (BG-19).',
      contexts: paymentMeansWith(['59']),
      test: (pm) => has(pm, 'cac:PaymentMandate'),
    },
    {
      id: 'BR-DE-25-b',
      severity: 'error',
      message: 'Payment by direct debit (59) excludes credit transfer (BG-17) and payment card (BG-18) information.',
      contexts: paymentMeansWith(['59']),
      test: (pm) => !has(pm, 'cac:PayeeFinancialAccount') && !has(pm, 'cac:CardAccount'),
    },
    {
      id: 'BR-DE-14',
      severity: 'error',
      message: 'Each VAT breakdown must state the VAT category rate (BT-119).',
      contexts: at('cac:TaxTotal/cac:TaxSubtotal'),
      test: (n) => hasFilled(n, 'cac:TaxCategory/cbc:Percent'),
    },
    {
      id: 'BR-TMP-2',
      severity: 'warning',
      message: 'The external document location (BT-124) should be an absolute URL with a scheme (e.g. https:).',
      contexts: at('cac:AdditionalDocumentReference/cac:Attachment/cac:ExternalReference'),
      test: (n) => URL_WITH_SCHEME.test(norm(value(n, 'cbc:URI'))),
    },
    // --- extension
    {
      id: 'BR-DEX-01',
      severity: 'error',
      message: 'An attached document (BT-125) uses a MIME code the XRechnung extension does not allow.',
      contexts: (doc) => (isExtension(doc) ? anywhere(doc, 'cbc:EmbeddedDocumentBinaryObject') : []),
      test: (n) => EXTENSION_MIME_CODES.includes(attr(n, 'mimeCode') ?? ''),
    },
    {
      id: 'BR-DEX-02',
      severity: 'warning',
      message:
        'The net amount (BT-131) of a line or sub-invoice line with sub-invoice lines should equal the sum of the net amounts of its direct sub-invoice lines.',
      contexts: (doc) => (isExtension(doc) && is(doc.root, 'ubl:Invoice') ? [doc.root] : []),
      test: (_r, ctx) => {
        const holders = [...sel(ctx.doc.root, 'cac:InvoiceLine'), ...anywhere(ctx.doc, 'cac:SubInvoiceLine')].filter((l) =>
          has(l, 'cac:SubInvoiceLine'),
        );
        return holders.every((l) => {
          const own = dec(value(l, 'cbc:LineExtensionAmount'));
          let total = new Big('0');
          for (const s of sel(l, 'cac:SubInvoiceLine')) total = total.plus(dec(value(s, 'cbc:LineExtensionAmount')) ?? new Big('0'));
          return own !== undefined && own.eq(total);
        });
      },
    },
    {
      id: 'BR-DEX-03',
      severity: 'error',
      message: 'Each sub-invoice line (BG-DEX-01) must carry exactly one VAT information group (BG-DEX-06).',
      contexts: (doc) => (isExtension(doc) && is(doc.root, 'ubl:Invoice') ? [doc.root] : []),
      test: (_r, ctx) =>
        !anywhere(ctx.doc, 'cac:SubInvoiceLine').some((s) =>
          sel(s, 'cac:Item').some((i) => sel(i, 'cac:ClassifiedTaxCategory').length !== 1),
        ),
    },
    {
      id: 'BR-DEX-09',
      severity: 'error',
      message:
        'Amount due (BT-115) must equal total with VAT (BT-112) − paid amount (BT-113) + rounding (BT-114) + the third-party payments (BT-DEX-002).',
      contexts: (doc) => (isExtension(doc) ? anywhere(doc, 'cac:LegalMonetaryTotal') : []),
      test: (t) => {
        const prepaid = has(t, 'cbc:PrepaidAmount') ? dec(value(t, 'cbc:PrepaidAmount')) : new Big('0');
        const rounding = has(t, 'cbc:PayableRoundingAmount') ? dec(value(t, 'cbc:PayableRoundingAmount')) : new Big('0');
        const paid = values(t, '../cac:PrepaidPayment/cbc:PaidAmount');
        let thirdParty: BigValue | undefined = new Big('0');
        if (paid.some((p) => norm(p) !== ''))
          for (const p of paid) thirdParty = thirdParty && dec(p) ? thirdParty.plus(dec(p)!) : undefined;
        const payable = dec(value(t, 'cbc:PayableAmount'));
        const inclusive = dec(value(t, 'cbc:TaxInclusiveAmount'));
        if (!prepaid || !rounding || !thirdParty || !payable || !inclusive) return true;
        return round2(payable.minus(rounding)).eq(round2(inclusive.minus(prepaid).plus(thirdParty)));
      },
    },
    {
      id: 'BR-DEX-04',
      severity: 'error',
      message: 'A party identifier scheme must be an ISO 6523 ICD code (or XR01–XR03; SEPA for the seller and payee).',
      contexts: (doc) =>
        isExtension(doc)
          ? anywhere(doc, 'cbc:ID').filter((e) => is(e.parent, 'cac:PartyIdentification') && attr(e, 'schemeID') !== undefined)
          : [],
      test: (n) =>
        inCodeList(attr(n, 'schemeID'), ICD_EXT()) ||
        (norm(attr(n, 'schemeID')) === 'SEPA' && (hasAncestor(n, 'cac:AccountingSupplierParty') || hasAncestor(n, 'cac:PayeeParty'))),
    },
    {
      id: 'BR-DEX-05',
      severity: 'error',
      message: 'A legal registration identifier scheme must be an ISO 6523 ICD code (or XR01–XR03).',
      contexts: (doc) =>
        isExtension(doc)
          ? anywhere(doc, 'cbc:CompanyID').filter((e) => is(e.parent, 'cac:PartyLegalEntity') && attr(e, 'schemeID') !== undefined)
          : [],
      test: (n) => inCodeList(attr(n, 'schemeID'), ICD_EXT()),
    },
    {
      id: 'BR-DEX-06',
      severity: 'error',
      message: 'An item standard identifier scheme must be an ISO 6523 ICD code (or XR01–XR03).',
      contexts: (doc) =>
        isExtension(doc)
          ? anywhere(doc, 'cbc:ID').filter((e) => is(e.parent, 'cac:StandardItemIdentification') && attr(e, 'schemeID') !== undefined)
          : [],
      test: (n) => inCodeList(attr(n, 'schemeID'), ICD_EXT()),
    },
    {
      id: 'BR-DEX-07',
      severity: 'error',
      message: 'An electronic address scheme must be a CEF EAS code (or XR01–XR03).',
      contexts: (doc) => (isExtension(doc) ? anywhere(doc, 'cbc:EndpointID').filter((e) => attr(e, 'schemeID') !== undefined) : []),
      test: (n) => inCodeList(attr(n, 'schemeID'), EAS_EXT()),
    },
    {
      id: 'BR-DEX-08',
      severity: 'error',
      message: 'A delivery location identifier scheme must be an ISO 6523 ICD code (or XR01–XR03).',
      contexts: (doc) =>
        isExtension(doc)
          ? anywhere(doc, 'cbc:ID').filter((e) => is(e.parent, 'cac:DeliveryLocation') && attr(e, 'schemeID') !== undefined)
          : [],
      test: (n) => inCodeList(attr(n, 'schemeID'), ICD_EXT()),
    },
    ...thirdPartyPaymentRules(),
    // --- Clean Vehicles Directive reporting
    {
      id: 'BR-DE-CVD-01',
      severity: 'error',
      message: 'A CVD invoice must give the contract reference (BT-12).',
      contexts: (doc) => (isCvd(doc) ? rootOnly(doc) : []),
      test: (r) => hasFilled(r, 'cac:ContractDocumentReference/cbc:ID'),
    },
    {
      id: 'BR-DE-CVD-02',
      severity: 'error',
      message: 'A CVD invoice must give the tender or lot reference (BT-17).',
      contexts: (doc) => (isCvd(doc) ? rootOnly(doc) : []),
      test: (r) => hasFilled(r, 'cac:OriginatorDocumentReference/cbc:ID'),
    },
    {
      id: 'BR-DE-CVD-03',
      severity: 'error',
      message:
        "A CVD invoice must have at least one line with an item classification of scheme 'CVD' (BT-158) and an item attribute named 'cva' (BT-160).",
      contexts: (doc) => (isCvd(doc) ? rootOnly(doc) : []),
      test: (_r, ctx) =>
        lines(ctx.doc).some((l) =>
          sel(l, 'cac:Item').some(
            (i) =>
              values(i, 'cac:CommodityClassification/cbc:ItemClassificationCode/@listID').includes('CVD') &&
              values(i, 'cac:AdditionalItemProperty/cbc:Name').includes('cva'),
          ),
        ),
    },
    {
      id: 'BR-TMP-CVD-01',
      severity: 'error',
      message: 'The scheme of an item classification (BT-158) must come from UNTDID 7143 (or be CVD).',
      contexts: (doc) =>
        isCvd(doc) ? lines(doc).flatMap((l) => sel(l, 'cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode')) : [],
      test: (c) => inCodeList(attr(c, 'listID'), UNTDID_7143_CVD()),
    },
    {
      id: 'BR-DE-CVD-04',
      severity: 'error',
      message: "An item classification of scheme 'CVD' (BT-158) must be a vehicle category (M1, M2, M3, N1, N2, N3).",
      contexts: (doc) =>
        isCvd(doc) ? lines(doc).flatMap((l) => sel(l, 'cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode')) : [],
      test: (c) => norm(attr(c, 'listID')) !== 'CVD' || CVD_VEHICLE_CATEGORIES.includes(norm(c.text)),
    },
    {
      id: 'BR-DE-CVD-05',
      severity: 'error',
      message: "The value (BT-161) of the item attribute 'cva' must be clean, zero-emission or other.",
      contexts: (doc) =>
        isCvd(doc)
          ? lines(doc).flatMap((l) => sel(l, 'cac:Item/cac:AdditionalItemProperty').filter((p) => values(p, 'cbc:Name').includes('cva')))
          : [],
      test: (p) => values(p, 'cbc:Value').some((v) => CVA_CODES.includes(norm(v))),
    },
    {
      id: 'BR-DE-CVD-06-a',
      severity: 'error',
      message: "A line with an item classification of scheme 'CVD' (BT-158) must have exactly one item attribute named 'cva' (BT-160).",
      contexts: (doc) => (isCvd(doc) ? lines(doc).flatMap((l) => sel(l, 'cac:Item')) : []),
      test: (i) =>
        !values(i, 'cac:CommodityClassification/cbc:ItemClassificationCode/@listID').includes('CVD') ||
        sel(i, 'cac:AdditionalItemProperty').filter((p) => values(p, 'cbc:Name').includes('cva')).length === 1,
    },
    {
      id: 'BR-DE-CVD-06-b',
      severity: 'error',
      message: "A line with the item attribute 'cva' (BT-160) must have exactly one item classification of scheme 'CVD' (BT-158).",
      contexts: (doc) => (isCvd(doc) ? lines(doc).flatMap((l) => sel(l, 'cac:Item')) : []),
      test: (i) =>
        !values(i, 'cac:AdditionalItemProperty/cbc:Name').includes('cva') ||
        sel(i, 'cac:CommodityClassification/cbc:ItemClassificationCode').filter((c) => attr(c, 'listID') === 'CVD').length === 1,
    },
  ];
}

/** BR-DEX-10 … 14: the third-party payment group (BG-DEX-09, cac:PrepaidPayment) of the extension. */
function thirdPartyPaymentRules(): XrRuleDef[] {
  const ctx = (doc: XmlDoc) => (isExtension(doc) && is(doc.root, 'ubl:Invoice') ? sel(doc.root, 'cac:PrepaidPayment') : []);
  return [
    {
      id: 'BR-DEX-10',
      severity: 'error',
      message: 'A third-party payment (BG-DEX-09) must state its type (BT-DEX-001).',
      contexts: ctx,
      test: (n) => hasFilled(n, 'cbc:ID'),
    },
    {
      id: 'BR-DEX-11',
      severity: 'error',
      message: 'A third-party payment (BG-DEX-09) must state its amount (BT-DEX-002).',
      contexts: ctx,
      test: (n) => hasFilled(n, 'cbc:PaidAmount'),
    },
    {
      id: 'BR-DEX-12',
      severity: 'error',
      message: 'A third-party payment (BG-DEX-09) must state its description (BT-DEX-003).',
      contexts: ctx,
      test: (n) => hasFilled(n, 'cbc:InstructionID'),
    },
    {
      id: 'BR-DEX-13',
      severity: 'error',
      message: 'The third-party payment amount (BT-DEX-002) may have at most two decimals.',
      contexts: ctx,
      test: (n) => {
        const v = value(n, 'cbc:PaidAmount') ?? '';
        const dot = v.indexOf('.');
        return dot < 0 || v.length - dot - 1 <= 2;
      },
    },
    {
      id: 'BR-DEX-14',
      severity: 'error',
      message: 'The third-party payment amount (BT-DEX-002) must be in the invoice currency (BT-5).',
      contexts: ctx,
      test: (n) => {
        const cur = values(n, '../cbc:DocumentCurrencyCode');
        return values(n, 'cbc:PaidAmount/@currencyID').some((c) => cur.includes(c));
      },
    },
  ];
}

/** The xrechnung-ubl table of each bundled release. */
export const xrechnungUblRulesByRelease: Record<XrRelease, Rule[]> = {
  '2.5.0': [...defsFor('2.5.0').map(toRule), ...peppolUblRulesFor('2.5.0')],
  '2.4.0': [...defsFor('2.4.0').map(toRule), ...peppolUblRulesFor('2.4.0')],
};
/** The default release's table. */
export const xrechnungUblRules: Rule[] = xrechnungUblRulesByRelease[DEFAULT_XR_RELEASE];
