/**
 * XRechnung 3.0 CIUS for CII (rule set `xrechnung-cii`, KoSIT schematron 2.5.0, and 2.4.0 on request):
 * the national rules BR-DE-*, the extension rules BR-DEX-*, the Clean Vehicles Directive rules
 * BR-DE-CVD-*, the transitional BR-TMP-* rules and the Peppol rules PEPPOL-EN16931-R* that
 * XRechnung applies. Written against the parsed CII document, because XRechnung states them in
 * terms of CII elements (e.g. BG-19 has no element of its own in CII).
 */
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import { codeSet } from '../data/codelists.js';
import type { Rule, RuleContext } from '../types.js';
import { anyIn, anywhere, attr, first, has, hasAncestor, hasFilled, is, norm, sel, text, value, values } from './dom.js';
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
  rootCtx,
  skontoOk,
  toRule,
  type XrRuleDef,
  type XrRelease,
  DEFAULT_XR_RELEASE,
  XR_CODE_ADDITIONS,
  withAdditions,
} from './common.js';
import { peppolCiiRulesFor } from './peppol.js';

const TX = 'rsm:SupplyChainTradeTransaction';
const AGR = `${TX}/ram:ApplicableHeaderTradeAgreement`;
const DEL = `${TX}/ram:ApplicableHeaderTradeDelivery`;
const SET = `${TX}/ram:ApplicableHeaderTradeSettlement`;
const PM = `${SET}/ram:SpecifiedTradeSettlementPaymentMeans`;

const guideline = (doc: XmlDoc) => values(doc.root, 'rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID');
/** The extension is declared by BT-24 exactly (text node comparison, no trimming). */
const isExtension = (doc: XmlDoc) => guideline(doc).includes(XR_EXTENSION_ID);
const isCvd = (doc: XmlDoc) => guideline(doc).includes(XR_CVD_ID);

/** Payment means whose type code is one of these (the artefact compares the trimmed code). */
const paymentMeansWith = (codes: string[]) => (doc: XmlDoc) =>
  sel(doc.root, PM).filter((pm) => codes.includes(norm(value(pm, 'ram:TypeCode'))));

const directDebitMandate = (doc: XmlDoc) => has(doc.root, `${SET}/ram:SpecifiedTradePaymentTerms/ram:DirectDebitMandateID`);
const creditorId = (doc: XmlDoc) => has(doc.root, `${SET}/ram:CreditorReferenceID`);
const debitedAccount = (pm: XmlElement) => has(pm, 'ram:PayerPartyDebtorFinancialAccount/ram:IBANID');

const VAT_CATEGORIES_NEEDING_SELLER_TAX_ID = ['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M'];

/** BR-DE-16 as XRechnung tests it: a VAT category from the list on a line or a document allowance/charge. */
function usesListedVatCategory(doc: XmlDoc): boolean {
  const root = doc.root;
  const lineTaxes = `${TX}/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax`;
  const acTaxes = `${SET}/ram:SpecifiedTradeAllowanceCharge/ram:CategoryTradeTax`;
  // XPath general comparisons over the whole sequences, as the artefact writes them.
  const lines =
    anyIn(root, `${lineTaxes}/ram:TypeCode`, ['VAT']) && anyIn(root, `${lineTaxes}/ram:CategoryCode`, VAT_CATEGORIES_NEEDING_SELLER_TAX_ID);
  const acs = anyIn(root, acTaxes, ['VAT']) && anyIn(root, `${acTaxes}/ram:CategoryCode`, VAT_CATEGORIES_NEEDING_SELLER_TAX_ID);
  return lines || acs;
}

function sellerTaxIdentified(doc: XmlDoc): boolean {
  const ids = sel(doc.root, `${AGR}/ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID`).filter((id) => {
    const scheme = attr(id, 'schemeID');
    return (scheme === 'VA' || scheme === 'FC') && norm(id.text) !== '';
  });
  return ids.length > 0 || has(doc.root, `${AGR}/ram:SellerTaxRepresentativeTradeParty`);
}

/** BR-DE-22: the filenames of attached documents are unique. */
function attachmentFilenamesUnique(doc: XmlDoc): boolean {
  for (const d of anywhere(doc, 'ram:AdditionalReferencedDocument')) {
    const name = values(d, 'ram:AttachmentBinaryObject/@filename');
    if (name.length === 0) continue;
    const siblings = d.parent ? d.parent.children : [];
    for (const s of siblings) {
      if (s === d) break;
      if (!is(s, 'ram:AdditionalReferencedDocument')) continue;
      if (values(s, 'ram:AttachmentBinaryObject/@filename').some((n) => name.includes(n))) return false;
    }
  }
  return true;
}

const UNTDID_7143_CVD = () => codeSet('xrechnung-cii', 'BR-TMP-CVD-01');

/** The release's rules; where releases differ, the definition says so. */
function defsFor(release: XrRelease): XrRuleDef[] {
  const add = XR_CODE_ADDITIONS[release];
  const ICD_EXT = () => withAdditions(`cii icd ${release}`, codeSet('xrechnung-cii', 'BR-DEX-04'), add.icd);
  const EAS_EXT = () => withAdditions(`cii eas ${release}`, codeSet('xrechnung-cii', 'BR-DEX-07'), add.eas);
  return [
    // --- the invoice as a whole
    {
      id: 'BR-DE-1',
      severity: 'error',
      message: 'An XRechnung must contain payment instructions (BG-16).',
      contexts: rootCtx,
      test: (r) => has(r, PM),
    },
    {
      id: 'BR-DE-15',
      severity: 'error',
      message: 'An XRechnung must contain the buyer reference (BT-10).',
      contexts: rootCtx,
      test: (r) => hasFilled(r, `${AGR}/ram:BuyerReference`),
    },
    {
      id: 'BR-DE-16',
      severity: 'error',
      message:
        'When VAT categories S, Z, E, AE, K, G, L or M are used, the seller VAT identifier (BT-31), the seller tax registration identifier (BT-32) or a seller tax representative (BG-11) must be given.',
      contexts: rootCtx,
      test: (_r, ctx) => !usesListedVatCategory(ctx.doc) || sellerTaxIdentified(ctx.doc),
    },
    {
      id: 'BR-DE-17',
      severity: 'warning',
      message: 'The invoice type code (BT-3) should be one of 326, 380, 384, 389, 381, 875, 876 or 877.',
      contexts: rootCtx,
      test: (r) => anyIn(r, 'rsm:ExchangedDocument/ram:TypeCode', [...codeSet('xrechnung-cii', 'BR-DE-17')]),
    },
    {
      id: 'BR-DE-18',
      severity: 'error',
      message:
        'Skonto statements in the payment terms (BT-20) must follow the XRechnung syntax "#SKONTO#TAGE=n#PROZENT=n.nn[#BASISBETRAG=n.nn]#", one per line, each ending with a line break.',
      contexts: rootCtx,
      test: (r) => firstDescriptions(r).every(skontoOk),
    },
    {
      id: 'BR-DE-22',
      severity: 'error',
      message: 'The filenames of attached documents (BT-125-2) must be unique.',
      contexts: rootCtx,
      test: (_r, ctx) => attachmentFilenamesUnique(ctx.doc),
    },
    {
      id: 'BR-DE-26',
      severity: 'warning',
      message: 'A corrected invoice (type code 384) should reference the preceding invoice (BG-3).',
      contexts: rootCtx,
      test: (r) =>
        !values(r, 'rsm:ExchangedDocument/ram:TypeCode').some((c) => Number(c) === 384) || has(r, `${SET}/ram:InvoiceReferencedDocument`),
    },
    {
      id: 'BR-DE-30',
      severity: 'error',
      message: 'When direct debit (BG-19) is used, the bank assigned creditor identifier (BT-90) must be given.',
      contexts: rootCtx,
      test: (r, ctx) => {
        const mandate = directDebitMandate(ctx.doc);
        const creditor = creditorId(ctx.doc);
        const debited = sel(r, PM).some(debitedAccount);
        return (!mandate && !creditor && !debited) || ((mandate || debited) && creditor);
      },
    },
    {
      id: 'BR-DE-31',
      severity: 'error',
      message: 'When direct debit (BG-19) is used, the debited account identifier (BT-91) must be given.',
      contexts: rootCtx,
      test: (r, ctx) => {
        const mandate = directDebitMandate(ctx.doc);
        const creditor = creditorId(ctx.doc);
        const debited = sel(r, PM).some(debitedAccount);
        return (!mandate && !creditor && !debited) || ((mandate || creditor) && debited);
      },
    },
    {
      id: 'BR-DE-21',
      severity: 'warning',
      message: 'The specification identifier (BT-24) should be the XRechnung identifier.',
      contexts: (doc) => sel(doc.root, 'rsm:ExchangedDocumentContext'),
      test: (n) =>
        values(n, 'ram:GuidelineSpecifiedDocumentContextParameter/ram:ID').some(
          (v) => v === XR_CIUS_ID || v === XR_EXTENSION_ID || v === XR_CVD_ID,
        ),
    },
    {
      id: 'BR-DE-TMP-32',
      severity: 'information',
      message:
        'The invoice should state when the goods or services were supplied: an actual delivery date (BT-72), an invoicing period (BG-14), or a period (BG-26) on every line.',
      contexts: (doc) => sel(doc.root, TX),
      test: (tx) =>
        has(tx, 'ram:ApplicableHeaderTradeDelivery/ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime') ||
        has(tx, 'ram:ApplicableHeaderTradeSettlement/ram:BillingSpecifiedPeriod') ||
        sel(tx, 'ram:IncludedSupplyChainTradeLineItem').every((l) => has(l, 'ram:SpecifiedLineTradeSettlement/ram:BillingSpecifiedPeriod')),
    },
    // --- seller, buyer, delivery
    {
      id: 'BR-DE-2',
      severity: 'error',
      message: 'The seller contact (BG-6) must be given.',
      contexts: (doc) => sel(doc.root, `${AGR}/ram:SellerTradeParty`),
      test: (n) => has(n, 'ram:DefinedTradeContact'),
    },
    {
      id: 'BR-DE-3',
      severity: 'error',
      message: 'The seller city (BT-37) must be given.',
      contexts: (doc) => sel(doc.root, `${AGR}/ram:SellerTradeParty/ram:PostalTradeAddress`),
      test: (n) => hasFilled(n, 'ram:CityName'),
    },
    {
      id: 'BR-DE-4',
      severity: 'error',
      message: 'The seller post code (BT-38) must be given.',
      contexts: (doc) => sel(doc.root, `${AGR}/ram:SellerTradeParty/ram:PostalTradeAddress`),
      test: (n) => hasFilled(n, 'ram:PostcodeCode'),
    },
    {
      id: 'BR-DE-5',
      severity: 'error',
      message: 'The seller contact point (BT-41) must be given.',
      contexts: (doc) => sel(doc.root, `${AGR}/ram:SellerTradeParty/ram:DefinedTradeContact`),
      test: (n) => hasFilled(n, 'ram:PersonName') || hasFilled(n, 'ram:DepartmentName'),
    },
    {
      id: 'BR-DE-6',
      severity: 'error',
      message: 'The seller contact telephone number (BT-42) must be given.',
      contexts: (doc) => sel(doc.root, `${AGR}/ram:SellerTradeParty/ram:DefinedTradeContact`),
      test: (n) => hasFilled(n, 'ram:TelephoneUniversalCommunication/ram:CompleteNumber'),
    },
    {
      id: 'BR-DE-7',
      severity: 'error',
      message: 'The seller contact email address (BT-43) must be given.',
      contexts: (doc) => sel(doc.root, `${AGR}/ram:SellerTradeParty/ram:DefinedTradeContact`),
      test: (n) => hasFilled(n, 'ram:EmailURIUniversalCommunication/ram:URIID'),
    },
    {
      id: 'BR-DE-27',
      severity: 'warning',
      message: 'The seller contact telephone number (BT-42) should contain at least three digits.',
      contexts: (doc) => sel(doc.root, `${AGR}/ram:SellerTradeParty/ram:DefinedTradeContact`),
      test: (n) => TELEPHONE.test(norm(value(n, 'ram:TelephoneUniversalCommunication/ram:CompleteNumber'))),
    },
    {
      id: 'BR-DE-28',
      severity: 'warning',
      message: 'The seller contact email address (BT-43) should be a plausible address: one @ with text on both sides and a dotted domain.',
      contexts: (doc) => sel(doc.root, `${AGR}/ram:SellerTradeParty/ram:DefinedTradeContact`),
      test: (n) => EMAIL.test(norm(value(n, 'ram:EmailURIUniversalCommunication/ram:URIID'))),
    },
    {
      id: 'BR-DE-8',
      severity: 'error',
      message: 'The buyer city (BT-52) must be given.',
      contexts: (doc) => sel(doc.root, `${AGR}/ram:BuyerTradeParty/ram:PostalTradeAddress`),
      test: (n) => hasFilled(n, 'ram:CityName'),
    },
    {
      id: 'BR-DE-9',
      severity: 'error',
      message: 'The buyer post code (BT-53) must be given.',
      contexts: (doc) => sel(doc.root, `${AGR}/ram:BuyerTradeParty/ram:PostalTradeAddress`),
      test: (n) => hasFilled(n, 'ram:PostcodeCode'),
    },
    {
      id: 'BR-DE-10',
      severity: 'error',
      message: 'A deliver-to address (BG-15) must have a city (BT-77).',
      contexts: (doc) => sel(doc.root, `${DEL}/ram:ShipToTradeParty/ram:PostalTradeAddress`),
      test: (n) => hasFilled(n, 'ram:CityName'),
    },
    {
      id: 'BR-DE-11',
      severity: 'error',
      message: 'A deliver-to address (BG-15) must have a post code (BT-78).',
      contexts: (doc) => sel(doc.root, `${DEL}/ram:ShipToTradeParty/ram:PostalTradeAddress`),
      test: (n) => hasFilled(n, 'ram:PostcodeCode'),
    },
    // --- payment instructions
    {
      id: 'BR-DE-19',
      severity: 'warning',
      message: 'With SEPA credit transfer (payment means 58) the payment account identifier (BT-84) should be a valid IBAN.',
      contexts: paymentMeansWith(['30', '58']),
      test: (pm) => norm(value(pm, 'ram:TypeCode')) !== '58' || ibanOk(value(pm, 'ram:PayeePartyCreditorFinancialAccount/ram:IBANID')),
    },
    {
      id: 'BR-DE-23-a',
      severity: 'error',
      message: 'Payment by credit transfer (30, 58) requires the credit transfer group (BG-17).',
      contexts: paymentMeansWith(['30', '58']),
      test: (pm) => has(pm, 'ram:PayeePartyCreditorFinancialAccount'),
    },
    {
      id: 'BR-DE-23-b',
      severity: 'error',
      message: 'Payment by credit transfer (30, 58) excludes payment card (BG-18) and direct debit (BG-19) information.',
      contexts: paymentMeansWith(['30', '58']),
      test: (pm, ctx) =>
        !has(pm, 'ram:ApplicableTradeSettlementFinancialCard') &&
        !(directDebitMandate(ctx.doc) || creditorId(ctx.doc) || debitedAccount(pm)),
    },
    {
      id: 'BR-DE-24-a',
      severity: 'error',
      message: 'Payment by card (48, 54, 55) requires the payment card group (BG-18).',
      contexts: paymentMeansWith(['48', '54', '55']),
      test: (pm) => has(pm, 'ram:ApplicableTradeSettlementFinancialCard'),
    },
    {
      id: 'BR-DE-24-b',
      severity: 'error',
      message: 'Payment by card (48, 54, 55) excludes credit transfer (BG-17) and direct debit (BG-19) information.',
      contexts: paymentMeansWith(['48', '54', '55']),
      test: (pm, ctx) =>
        !has(pm, 'ram:PayeePartyCreditorFinancialAccount') && !(directDebitMandate(ctx.doc) || creditorId(ctx.doc) || debitedAccount(pm)),
    },
    {
      id: 'BR-DE-20',
      severity: 'warning',
      message: 'With SEPA direct debit (payment means 59) the debited account identifier (BT-91) should be a valid IBAN.',
      contexts: paymentMeansWith(['59']),
      test: (pm) => ibanOk(value(pm, 'ram:PayerPartyDebtorFinancialAccount/ram:IBANID')),
    },
    {
      id: 'BR-DE-25-a',
      severity: 'error',
      message: 'Payment by direct debit (59) requires the direct debit group (BG-19).',
      contexts: paymentMeansWith(['59']),
      test: (pm, ctx) => directDebitMandate(ctx.doc) || creditorId(ctx.doc) || debitedAccount(pm),
    },
    {
      id: 'BR-DE-25-b',
      severity: 'error',
      message: 'Payment by direct debit (59) excludes credit transfer (BG-17) and payment card (BG-18) information.',
      contexts: paymentMeansWith(['59']),
      // 2.5.0 fixed the rule: BT-86 (payment service provider, PayeeSpecifiedCreditorFinancialInstitution) and the
      // debtor's institution are credit-transfer information too; 2.4.0 did not see them.
      test: (pm) =>
        !has(pm, 'ram:PayeePartyCreditorFinancialAccount') &&
        !has(pm, 'ram:ApplicableTradeSettlementFinancialCard') &&
        (release === '2.4.0' ||
          (!has(pm, 'ram:PayeeSpecifiedCreditorFinancialInstitution') && !has(pm, 'ram:PayerSpecifiedDebtorFinancialInstitution'))),
    },
    {
      id: 'BR-DE-14',
      severity: 'error',
      message: 'Each VAT breakdown must state the VAT category rate (BT-119).',
      contexts: (doc) => sel(doc.root, `${SET}/ram:ApplicableTradeTax`),
      test: (n) => hasFilled(n, 'ram:RateApplicablePercent'),
    },
    // --- transitional rules
    {
      id: 'BR-TMP-2',
      severity: 'warning',
      message: 'The external document location (BT-124) should be an absolute URL with a scheme (e.g. https:).',
      contexts: (doc) => sel(doc.root, `${AGR}/ram:AdditionalReferencedDocument`).filter((d) => anyIn(d, 'ram:TypeCode', ['916'])),
      test: (d) => values(d, 'ram:URIID').every((u) => URL_WITH_SCHEME.test(norm(u))),
    },
    release === '2.4.0'
      ? {
          // 2.4.0: on the line agreement; the units must be equal, so two base quantities without a unit failed (the bug 2.5.0 fixed).
          id: 'BR-TMP-3',
          severity: 'error',
          message:
            'When the item price base quantity (BT-149) is given for both the gross and the net price, the two must be equal, with the same unit (BT-150).',
          contexts: (doc) => sel(doc.root, `${TX}/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedLineTradeAgreement`),
          test: (a) => {
            const net = sel(a, 'ram:NetPriceProductTradePrice/ram:BasisQuantity');
            const gross = sel(a, 'ram:GrossPriceProductTradePrice/ram:BasisQuantity');
            if (net.length === 0 || gross.length === 0) return true;
            return generalEq(net.map(text), gross.map(text)) && generalEq(units(net), units(gross));
          },
        }
      : {
          // 2.5.0: on the line; the units are compared only when both prices carry one.
          id: 'BR-TMP-3',
          severity: 'error',
          message:
            'When the item price base quantity (BT-149) is given for both the gross and the net price, the two must be equal, with the same unit (BT-150) when both carry one.',
          contexts: (doc) => sel(doc.root, `${TX}/ram:IncludedSupplyChainTradeLineItem`),
          test: (line) => {
            const gross = sel(line, 'ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice/ram:BasisQuantity');
            const net = sel(line, 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:BasisQuantity');
            if (gross.length === 0 || net.length === 0) return true;
            const gu = units(gross);
            const nu = units(net);
            return generalEq(gross.map(text), net.map(text)) && (gu.length === 0 || nu.length === 0 || generalEq(gu, nu));
          },
        },
    // --- extension
    {
      id: 'BR-DEX-01',
      severity: 'error',
      message: 'An attached document (BT-125) uses a MIME code the XRechnung extension does not allow.',
      contexts: (doc) => (isExtension(doc) ? anywhere(doc, 'ram:AttachmentBinaryObject') : []),
      test: (n) => EXTENSION_MIME_CODES.includes(attr(n, 'mimeCode') ?? ''),
    },
    {
      id: 'BR-DEX-04',
      severity: 'error',
      message: 'A global identifier scheme must be an ISO 6523 ICD code (or XR01–XR03).',
      contexts: (doc) =>
        isExtension(doc)
          ? anywhere(doc, 'ram:GlobalID').filter(
              (g) =>
                attr(g, 'schemeID') !== undefined &&
                !hasAncestor(g, 'ram:SpecifiedTradeProduct') &&
                !hasAncestor(g, 'ram:ShipToTradeParty'),
            )
          : [],
      test: (n) => inCodeList(attr(n, 'schemeID'), ICD_EXT()),
    },
    {
      id: 'BR-DEX-05',
      severity: 'error',
      message: 'An identifier scheme must be an ISO 6523 ICD code (or XR01–XR03).',
      contexts: (doc) =>
        isExtension(doc)
          ? anywhere(doc, 'ram:ID').filter((g) => attr(g, 'schemeID') !== undefined && !hasAncestor(g, 'ram:SpecifiedTaxRegistration'))
          : [],
      test: (n) => inCodeList(attr(n, 'schemeID'), ICD_EXT()),
    },
    {
      id: 'BR-DEX-06',
      severity: 'error',
      message: 'An item standard identifier scheme must be an ISO 6523 ICD code (or XR01–XR03).',
      contexts: (doc) =>
        isExtension(doc)
          ? anywhere(doc, 'ram:GlobalID').filter((g) => attr(g, 'schemeID') !== undefined && is(g.parent, 'ram:SpecifiedTradeProduct'))
          : [],
      test: (n) => inCodeList(attr(n, 'schemeID'), ICD_EXT()),
    },
    {
      id: 'BR-DEX-07',
      severity: 'error',
      message: 'An electronic address scheme must be a CEF EAS code (or XR01–XR03).',
      contexts: (doc) =>
        isExtension(doc)
          ? anywhere(doc, 'ram:URIID').filter((g) => attr(g, 'schemeID') !== undefined && is(g.parent, 'ram:URIUniversalCommunication'))
          : [],
      test: (n) => inCodeList(attr(n, 'schemeID'), EAS_EXT()),
    },
    {
      id: 'BR-DEX-08',
      severity: 'error',
      message: 'A delivery location identifier scheme must be an ISO 6523 ICD code (or XR01–XR03).',
      contexts: (doc) =>
        isExtension(doc)
          ? anywhere(doc, 'ram:GlobalID').filter(
              (g) =>
                attr(g, 'schemeID') !== undefined &&
                is(g.parent, 'ram:ShipToTradeParty') &&
                is(g.parent!.parent, 'ram:ApplicableHeaderTradeDelivery'),
            )
          : [],
      test: (n) => inCodeList(attr(n, 'schemeID'), ICD_EXT()),
    },
    {
      id: 'BR-DEX-15',
      severity: 'warning',
      message: 'The invoice uses sub-invoice lines (ParentLineID), which XRechnung does not support.',
      contexts: (doc) =>
        isExtension(doc) ? sel(doc.root, `${TX}/ram:IncludedSupplyChainTradeLineItem/ram:AssociatedDocumentLineDocument`) : [],
      test: (_n, ctx) => anywhere(ctx.doc, 'ram:ParentLineID').length === 0,
    },
    // --- Clean Vehicles Directive reporting
    {
      id: 'BR-DE-CVD-01',
      severity: 'error',
      message: 'A CVD invoice must give the contract reference (BT-12).',
      contexts: (doc) => (isCvd(doc) ? sel(doc.root, AGR) : []),
      test: (n) => hasFilled(n, 'ram:ContractReferencedDocument/ram:IssuerAssignedID'),
    },
    {
      id: 'BR-DE-CVD-02',
      severity: 'error',
      message: 'A CVD invoice must give the tender or lot reference (BT-17).',
      contexts: (doc) => (isCvd(doc) ? sel(doc.root, AGR) : []),
      test: (n) =>
        sel(n, 'ram:AdditionalReferencedDocument').some(
          (d) => norm(value(d, 'ram:TypeCode')) === '50' && norm(value(d, 'ram:IssuerAssignedID')) !== '',
        ),
    },
    {
      id: 'BR-DE-CVD-03',
      severity: 'error',
      message:
        "A CVD invoice must have at least one line with an item classification of scheme 'CVD' (BT-158) and an item attribute named 'cva' (BT-160).",
      contexts: (doc) => (isCvd(doc) ? sel(doc.root, TX) : []),
      test: (tx) =>
        sel(tx, 'ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedTradeProduct').some(
          (p) =>
            values(p, 'ram:DesignatedProductClassification/ram:ClassCode/@listID').includes('CVD') &&
            values(p, 'ram:ApplicableProductCharacteristic/ram:Description').includes('cva'),
        ),
    },
    {
      id: 'BR-DE-CVD-06-b',
      severity: 'error',
      message: "A line with the item attribute 'cva' (BT-160) must have exactly one item classification of scheme 'CVD' (BT-158).",
      contexts: (doc) => (isCvd(doc) ? sel(doc.root, `${TX}/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedTradeProduct`) : []),
      test: (p) =>
        !values(p, 'ram:ApplicableProductCharacteristic/ram:Description').includes('cva') ||
        sel(p, 'ram:DesignatedProductClassification/ram:ClassCode').filter((c) => attr(c, 'listID') === 'CVD').length === 1,
    },
    {
      id: 'BR-DE-CVD-06-a',
      severity: 'error',
      message: "A line with an item classification of scheme 'CVD' (BT-158) must have exactly one item attribute named 'cva' (BT-160).",
      contexts: (doc) => (isCvd(doc) ? sel(doc.root, `${TX}/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedTradeProduct`) : []),
      test: (p) =>
        !values(p, 'ram:DesignatedProductClassification/ram:ClassCode/@listID').includes('CVD') ||
        sel(p, 'ram:ApplicableProductCharacteristic').filter((c) => values(c, 'ram:Description').includes('cva')).length === 1,
    },
    {
      id: 'BR-TMP-CVD-01',
      severity: 'error',
      message: 'The scheme of an item classification (BT-158) must come from UNTDID 7143 (or be CVD).',
      contexts: (doc) =>
        isCvd(doc)
          ? sel(
              doc.root,
              `${TX}/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedTradeProduct/ram:DesignatedProductClassification/ram:ClassCode`,
            )
          : [],
      test: (c) => inCodeList(attr(c, 'listID'), UNTDID_7143_CVD()),
    },
    {
      id: 'BR-DE-CVD-04',
      severity: 'error',
      message: "An item classification of scheme 'CVD' (BT-158) must be a vehicle category (M1, M2, M3, N1, N2, N3).",
      contexts: (doc) =>
        isCvd(doc)
          ? sel(
              doc.root,
              `${TX}/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedTradeProduct/ram:DesignatedProductClassification/ram:ClassCode`,
            )
          : [],
      test: (c) => norm(attr(c, 'listID')) !== 'CVD' || CVD_VEHICLE_CATEGORIES.includes(norm(c.text)),
    },
    {
      id: 'BR-DE-CVD-05',
      severity: 'error',
      message: "The value (BT-161) of the item attribute 'cva' must be clean, zero-emission or other.",
      contexts: (doc) =>
        isCvd(doc)
          ? sel(
              doc.root,
              `${TX}/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedTradeProduct/ram:ApplicableProductCharacteristic`,
            ).filter((c) => values(c, 'ram:Description').includes('cva'))
          : [],
      test: (c) =>
        values(c, 'ram:Value').some((v) => CVA_CODES.includes(norm(v))) || (values(c, 'ram:Value').length === 0 && CVA_CODES.includes('')),
    },
  ];
}

/** The first description (BT-20) of each payment terms element. */
function firstDescriptions(root: XmlElement): string[] {
  const out: string[] = [];
  for (const terms of sel(root, `${SET}/ram:SpecifiedTradePaymentTerms`)) {
    const d = first(terms, 'ram:Description');
    if (d) out.push(text(d));
  }
  return out;
}

/**
 * XPath `=` between two node sets of a schema-less document: true when some pair of string values is equal
 * (untyped values compare as strings: "1" and "1.0" differ, as in the artefact).
 */
function generalEq(a: string[], b: string[]): boolean {
  return a.some((x) => b.includes(x));
}

const units = (qs: XmlElement[]): string[] => qs.map((q) => attr(q, 'unitCode')).filter((u): u is string => u !== undefined);

/** The xrechnung-cii table of each bundled release. */
export const xrechnungCiiRulesByRelease: Record<XrRelease, Rule[]> = {
  '2.5.0': [...defsFor('2.5.0').map(toRule), ...peppolCiiRulesFor('2.5.0')],
  '2.4.0': [...defsFor('2.4.0').map(toRule), ...peppolCiiRulesFor('2.4.0')],
};
/** The default release's table. */
export const xrechnungCiiRules: Rule[] = xrechnungCiiRulesByRelease[DEFAULT_XR_RELEASE];

export type { RuleContext };
