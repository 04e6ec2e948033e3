/**
 * BR-FR rules on CII (Factur-X / ZUGFeRD / CII D22B), as FNFE-MPE's "BR-FR-Flux2" CII rules define
 * them, for release 1.2.0 and release 1.4.x. Each assert carries the official assert id; the rule
 * context (which element is tested, hence the reported location) follows the reference rules.
 *
 * Where the two releases differ, the difference is spelled out with `release`:
 * - 1.4 requires BT-23 (BR-FR-08) and accepts B9/S9/M9, B2CINT, RECAPITULATIF_COTRAITANCE, '.' in
 *   0225/0224 identifiers; it exempts GROUP/INFORMATION sub-lines from BR-FR-15 and BR-FR-CO-05;
 *   BR-FR-28 became one assert; BR-FR-30_BT-21 was renamed BR-FR-31_BT-21; BR-FR-32, BR-FR-MV-* and
 *   BR-FR-BD-* are new.
 * - 1.2 reads BR-FR-CO-07's framework from ram:BusinessTypeCode, and its BR-FR-CO-10 rules for the
 *   invoicee / invoicer name an element without namespace, so they never apply.
 */
import type { XmlElement } from '../../xml/dom.js';
import {
  attachmentCodes,
  barTreatments,
  BIDIRECTIONAL,
  billingModes,
  DOCUMENT_TYPE_CODES,
  isDecimal19x2,
  isDecimal19x4,
  isDecimal19x6,
  isDecimal19x6Positive,
  isPercent4x2,
  isValidDate,
  isValidIdFormat,
  isValidSchemeIdFormat,
  MULTI_VENDOR,
  num,
  numEq,
  SELF_BILLED_TYPES,
  VAT_CATEGORY_CODES,
  VAT_RATES,
  type FrAssert,
  type FrRelease,
} from './checks.js';
import { anyEquals, attribute, descendants, first, fromRoot, is, length, norm, sel, text, textAt, withAttr } from './xml.js';
import { Big } from '../../model/decimal.js';
import { perDocument, PropertyMap } from '../../util/property-map.js';

const CII = 'rsm:CrossIndustryInvoice';
const TX = `${CII}/rsm:SupplyChainTradeTransaction`;
const AGREEMENT = `${TX}/ram:ApplicableHeaderTradeAgreement`;
const SETTLEMENT = `${TX}/ram:ApplicableHeaderTradeSettlement`;
const DELIVERY = `${TX}/ram:ApplicableHeaderTradeDelivery`;
const LINE = `${TX}/ram:IncludedSupplyChainTradeLineItem`;
const TOTALS = `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`;

const at = (path: string) => (root: XmlElement) => fromRoot(root, path);
const atRoot = at(CII);

// Document-level values read by several rules.
const typeCode = (root: XmlElement) => sel(root, 'rsm:ExchangedDocument/ram:TypeCode');
const framework = (root: XmlElement) =>
  sel(root, 'rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID');
const notes = (root: XmlElement) => sel(root, 'rsm:ExchangedDocument/ram:IncludedNote');
const notesWith = (root: XmlElement, subject: string) => notes(root).filter((n) => anyEquals(sel(n, 'ram:SubjectCode'), subject));
const barContents = (root: XmlElement) => notesWith(root, 'BAR').flatMap((n) => sel(n, 'ram:Content'));

/** Release 1.4: BT-23 names a multi-vendor (S8/B8/M8) or bidirectional (S9/B9/M9) invoice. */
function frameworkIn(root: XmlElement, codes: string[]): boolean {
  const ids = framework(root);
  return ids.length > 0 && codes.includes(norm(text(ids[0])));
}
const isSpecial = (root: XmlElement) => frameworkIn(root, [...MULTI_VENDOR, ...BIDIRECTIONAL]);
const isMultiVendor = (root: XmlElement) => frameworkIn(root, MULTI_VENDOR);
const isBidirectional = (root: XmlElement) => frameworkIn(root, BIDIRECTIONAL);

// Parties that carry identifiers, with the term used in the assert ids.
const PARTIES: { term: string; path: string }[] = [
  { term: 'BT-29', path: `${AGREEMENT}/ram:SellerTradeParty` },
  { term: 'BT-46', path: `${AGREEMENT}/ram:BuyerTradeParty` },
  { term: 'BT-60', path: `${SETTLEMENT}/ram:PayeeTradeParty` },
  { term: 'EXT-FR-FE-06', path: `${AGREEMENT}/ram:BuyerAgentTradeParty` },
  { term: 'EXT-FR-FE-46', path: `${SETTLEMENT}/ram:PayerTradeParty` },
  { term: 'EXT-FR-FE-69', path: `${AGREEMENT}/ram:SalesAgentTradeParty` },
  { term: 'EXT-FR-FE-92', path: `${SETTLEMENT}/ram:InvoiceeTradeParty` },
  { term: 'EXT-FR-FE-115', path: `${SETTLEMENT}/ram:InvoicerTradeParty` },
  { term: 'BT-71', path: `${DELIVERY}/ram:ShipToTradeParty` },
  { term: 'EXT-FR-FE-146', path: `${LINE}/ram:SpecifiedLineTradeDelivery/ram:ShipToTradeParty` },
];

// Parties whose electronic address (URIID) BR-FR-23/25 constrain, with the term of the address.
const ADDRESSES: { term: string; party: string }[] = [
  { term: 'BT-34', party: `${AGREEMENT}/ram:SellerTradeParty` },
  { term: 'BT-49', party: `${AGREEMENT}/ram:BuyerTradeParty` },
  { term: 'EXT-FR-FE-12', party: `${AGREEMENT}/ram:BuyerAgentTradeParty` },
  { term: 'EXT-FR-FE-29', party: `${SETTLEMENT}/ram:PayeeTradeParty` },
  { term: 'EXT-FR-FE-52', party: `${SETTLEMENT}/ram:PayerTradeParty` },
  { term: 'EXT-FR-FE-75', party: `${AGREEMENT}/ram:SalesAgentTradeParty` },
  { term: 'EXT-FR-FE-98', party: `${SETTLEMENT}/ram:InvoiceeTradeParty` },
  { term: 'EXT-FR-FE-121', party: `${SETTLEMENT}/ram:InvoicerTradeParty` },
];

/** BR-FR-09: the first SIRET (0009) of the party has 14 digits and starts with the party's SIREN. */
function siretMatchesSiren(party: XmlElement, sirenFallsBackToSiret: boolean): boolean {
  const sirets = withAttr(sel(party, 'ram:GlobalID'), 'schemeID', '0009');
  if (sirets.length === 0) return true;
  const siret = text(sirets[0]);
  const legal = withAttr(sel(party, 'ram:SpecifiedLegalOrganization/ram:ID'), 'schemeID', '0002');
  let sirens = legal.map(text);
  if (sirenFallsBackToSiret && text(legal[0]) === '') sirens = [siret.slice(0, 9)];
  return /^\d{14}$/.test(siret) && sirens.includes(siret.slice(0, 9));
}

/** The GROUP lines without parent line: the sub-invoice heads of multi-vendor / bidirectional invoices. */
function isGroupHead(line: XmlElement): boolean {
  const doc = first(line, 'ram:AssociatedDocumentLineDocument');
  return anyEquals(sel(doc, 'ram:LineStatusReasonCode'), 'GROUP') && sel(doc, 'ram:ParentLineID').length === 0;
}
const lineStatus = (line: XmlElement) => sel(line, 'ram:AssociatedDocumentLineDocument/ram:LineStatusReasonCode');
const aflInvoiceNumber = (line: XmlElement) =>
  norm(
    text(
      sel(line, 'ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument')
        .filter((d) => anyEquals(sel(d, 'ram:ReferenceTypeCode'), 'AFL') && anyEquals(sel(d, 'ram:TypeCode'), '130'))
        .flatMap((d) => sel(d, 'ram:IssuerAssignedID'))[0],
    ),
  );
const lineSum = (line: XmlElement) => sel(line, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation');
/** The header settlement, found once per document (it follows every line item in the transaction). */
const headerSettlement = perDocument((root: XmlElement) =>
  first(root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement'),
);
const invoiceCurrency = (root: XmlElement) => textAt(headerSettlement(root), 'ram:InvoiceCurrencyCode');
const lineTaxTotalIn = (line: XmlElement, currency: string) =>
  withAttr(
    lineSum(line).flatMap((s) => sel(s, 'ram:TaxTotalAmount')),
    'currencyID',
    currency,
  );

function releaseRules(release: FrRelease): FrAssert[] {
  const r14 = release === '1.4';
  const rules: FrAssert[] = [];
  const add = (id: string, message: string, contexts: FrAssert['contexts'], holds: FrAssert['holds']) =>
    rules.push({ id, message, contexts, holds });

  // BR-FR-01 / BR-FR-02: invoice numbers at most 35 characters, restricted character set.
  for (const [term, path, what] of [
    ['BT-1', `${CII}/rsm:ExchangedDocument/ram:ID`, 'invoice number (BT-1)'],
    ['BT-25', `${SETTLEMENT}/ram:InvoiceReferencedDocument/ram:IssuerAssignedID`, 'preceding invoice number (BT-25)'],
    [
      'EXT-FR-FE-136',
      `${LINE}/ram:SpecifiedLineTradeSettlement/ram:InvoiceReferencedDocument/ram:IssuerAssignedID`,
      'preceding invoice number on a line (EXT-FR-FE-136)',
    ],
  ] as const) {
    add(`BR-FR-01_${term}`, `The ${what} must not exceed 35 characters.`, at(path), (el) => length(text(el)) <= 35);
    add(`BR-FR-02_${term}`, `The ${what} may only contain letters, digits and + - _ /, without spaces.`, at(path), (el) =>
      isValidIdFormat(text(el)),
    );
  }

  // BR-FR-03: dates are real dates YYYYMMDD in 2000–2099.
  for (const [term, path] of [
    ['BT-2', `${CII}/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString`],
    ['BT-7', `${SETTLEMENT}/ram:ApplicableTradeTax/ram:TaxPointDate/udt:DateString`],
    ['BT-9', `${SETTLEMENT}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString`],
    ['BT-26', `${SETTLEMENT}/ram:InvoiceReferencedDocument/ram:FormattedIssueDateTime/qdt:DateTimeString`],
    ['BT-72', `${DELIVERY}/ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/udt:DateTimeString`],
    ['BT-73', `${SETTLEMENT}/ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString`],
    ['BT-74', `${SETTLEMENT}/ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString`],
    [
      'EXT-FR-FE-138',
      `${LINE}/ram:SpecifiedLineTradeSettlement/ram:InvoiceReferencedDocument/ram:FormattedIssueDateTime/qdt:DateTimeString`,
    ],
    [
      'EXT-FR-FE-158',
      `${LINE}/ram:SpecifiedLineTradeDelivery/ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/udt:DateTimeString`,
    ],
    ['EXT-FR-FE-134', `${LINE}/ram:SpecifiedLineTradeSettlement/ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString`],
    ['EXT-FR-FE-135', `${LINE}/ram:SpecifiedLineTradeSettlement/ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString`],
  ] as const) {
    add(`BR-FR-03_${term}`, `The date ${term} must be a valid date YYYYMMDD with a year between 2000 and 2099.`, at(path), (el) =>
      isValidDate(text(el)),
    );
  }

  // BR-FR-04: document type codes.
  for (const [term, path] of [
    ['BT-3', `${CII}/rsm:ExchangedDocument/ram:TypeCode`],
    ['EXT-FR-FE-02', `${SETTLEMENT}/ram:InvoiceReferencedDocument/ram:TypeCode`],
    ['EXT-FR-FE-137', `${LINE}/ram:SpecifiedLineTradeSettlement/ram:InvoiceReferencedDocument/ram:TypeCode`],
  ] as const) {
    add(
      `BR-FR-04_${term}`,
      `The document type code (${term}) is not one of the codes allowed in France (380, 389, 393, 501, 386, 500, 384, 471, 472, 473, 261, 262, 381, 396, 502, 503).`,
      at(path),
      (el) => DOCUMENT_TYPE_CODES.includes(text(el)),
    );
  }

  // BR-FR-05 / BR-FR-06: mandatory legal notes, each subject at most once.
  const docPath = `${CII}/rsm:ExchangedDocument`;
  const subjectCount = (doc: XmlElement, code: string) =>
    sel(doc, 'ram:IncludedNote').filter((n) => anyEquals(sel(n, 'ram:SubjectCode'), code)).length;
  const legalNotes: Record<string, string> = {
    PMT: 'the fixed recovery-cost indemnity (PMT)',
    PMD: 'the late-payment penalties (PMD)',
    AAB: 'the early-payment discount or its absence (AAB)',
  };
  for (const code of ['PMT', 'PMD', 'AAB']) {
    add(
      `BR-FR-05_BT-22_${code}`,
      `A note (BG-1) stating ${legalNotes[code]} is mandatory.`,
      at(docPath),
      (doc) => subjectCount(doc, code) >= 1,
    );
  }
  for (const code of ['PMT', 'PMD', 'AAB', 'TXD']) {
    add(
      `BR-FR-06_BT-21_${code}`,
      `The note subject code ${code} (BT-21) may appear only once.`,
      at(docPath),
      (doc) => subjectCount(doc, code) <= 1,
    );
  }

  // BR-FR-08: billing framework (cadre de facturation, BT-23).
  const modes = billingModes(release);
  if (r14) {
    add(
      'BR-FR-08_BT-23',
      `The billing framework (BT-23) is mandatory and must be one of ${modes.join(', ')}.`,
      at(`${CII}/rsm:ExchangedDocumentContext`),
      (ctx) => {
        const ids = sel(ctx, 'ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID');
        return ids.length > 0 && modes.includes(text(ids[0]));
      },
    );
  } else {
    add(
      'BR-FR-08_BT-23',
      `The billing framework (BT-23) must be one of ${modes.join(', ')}.`,
      at(`${CII}/rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID`),
      (el) => modes.includes(text(el)),
    );
  }

  // BR-FR-09: SIRET (0009) consistent with the SIREN (0002). Seller and buyer must carry the SIREN;
  // for the other parties the SIRET's own first 9 digits stand in when no SIREN is given.
  for (const { term, path } of PARTIES) {
    const strict = term === 'BT-29' || term === 'BT-46';
    add(
      `BR-FR-09_${term}`,
      `The SIRET (identifier with scheme 0009) of party ${term} must have 14 digits and start with the party's SIREN.`,
      at(path),
      (p) => siretMatchesSiren(p, !strict),
    );
  }

  // BR-FR-10 / BR-FR-11: SIRENs of seller (always) and buyer (B2B).
  const sellerSiren = (root: XmlElement) =>
    withAttr(
      sel(
        root,
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID',
      ),
      'schemeID',
      '0002',
    );
  add('BR-FR-10_BT-30', "The seller's SIREN (BT-30 with scheme 0002) is mandatory and must have exactly 9 digits.", atRoot, (root) => {
    const s = sellerSiren(root);
    return s.length > 0 && /^\d{9}$/.test(norm(text(s[0])));
  });
  add(
    'BR-FR-11_BT-47',
    "When the BAR note says B2B, the buyer's SIREN (BT-47 with scheme 0002) is mandatory and must have exactly 9 digits.",
    atRoot,
    (root) => {
      if (!anyEquals(barContents(root), 'B2B')) return true;
      const s = withAttr(
        sel(
          root,
          'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:SpecifiedLegalOrganization/ram:ID',
        ),
        'schemeID',
        '0002',
      );
      return /^\d{9}$/.test(text(s[0]));
    },
  );

  // BR-FR-12 / BR-FR-13: electronic addresses of buyer and seller are mandatory.
  add(
    'BR-FR-12_BT-49',
    "The buyer's electronic address (BT-49) is mandatory.",
    atRoot,
    (root) =>
      textAt(
        root,
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:URIUniversalCommunication/ram:URIID',
      ) !== '',
  );
  add(
    'BR-FR-13_BT-34',
    "The seller's electronic address (BT-34) is mandatory.",
    atRoot,
    (root) =>
      textAt(
        root,
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:URIUniversalCommunication/ram:URIID',
      ) !== '',
  );

  // BR-FR-15 / BR-FR-16: VAT categories and rates used in France.
  const categoryOk = (tax: XmlElement) => anyEquals(sel(tax, 'ram:CategoryCode'), ...VAT_CATEGORY_CODES);
  const notLM = (tax: XmlElement) => !anyEquals(sel(tax, 'ram:CategoryCode'), 'L', 'M');
  const rateOk = (tax: XmlElement) => {
    const rate = textAt(tax, 'ram:RateApplicablePercent');
    return rate === '' || VAT_RATES.includes(rate);
  };
  const chargeTax = `${SETTLEMENT}/ram:SpecifiedTradeAllowanceCharge/ram:CategoryTradeTax`;
  const headerTax = `${SETTLEMENT}/ram:ApplicableTradeTax`;
  const lineTax = `${LINE}/ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax`;
  const catMsg = (t: string) => `The VAT category code (${t}) must be one of S, E, AE, K, G, O, Z.`;
  const lmMsg = (t: string) => `The VAT category codes L and M (${t}) do not apply in France.`;
  add('BR-FR-15_BT-95_BT-102', catMsg('BT-95/BT-102'), at(chargeTax), categoryOk);
  add('BR-FR-15_BT-95_BT-102_LM', lmMsg('BT-95/BT-102'), at(chargeTax), notLM);
  add('BR-FR-15_BT-95_BT-118', catMsg('BT-118'), at(headerTax), categoryOk);
  add('BR-FR-15_BT-95_BT-118_LM', lmMsg('BT-118'), at(headerTax), notLM);
  add('BR-FR-15_BT-95_BT-151', catMsg('BT-151'), at(lineTax), (tax) => {
    if (categoryOk(tax)) return true;
    if (!r14 || sel(tax, 'ram:CategoryCode').length > 0) return false;
    // 1.4: GROUP and INFORMATION sub-lines may leave the category out.
    const line = tax.parent!.parent!;
    return anyEquals(lineStatus(line), 'GROUP', 'INFORMATION');
  });
  add('BR-FR-15_BT-95_BT-151_LM', lmMsg('BT-151'), at(lineTax), notLM);
  const rateMsg = (t: string) => `The VAT rate (${t}) must be one of the rates in use in France, written as a plain percentage.`;
  add('BR-FR-16_BT-96_BT-103', rateMsg('BT-96/BT-103'), at(chargeTax), rateOk);
  add('BR-FR-16_BT-119', rateMsg('BT-119'), at(headerTax), rateOk);
  add('BR-FR-16_BT-152', rateMsg('BT-152'), at(lineTax), rateOk);

  // BR-FR-17 / BR-FR-18: attachment qualifiers; at most one readable copy (LISIBLE).
  const attachCodes = attachmentCodes(release);
  add(
    'BR-FR-17_BT-123',
    `The attachment qualifier (BT-123) must be one of ${attachCodes.join(', ')}.`,
    (root) => fromRoot(root, `${AGREEMENT}/ram:AdditionalReferencedDocument`).filter((d) => anyEquals(sel(d, 'ram:TypeCode'), '916')),
    (d) => {
      const code = norm(textAt(d, 'ram:Name'));
      return code === '' || attachCodes.includes(code);
    },
  );
  add(
    'BR-FR-18_BT-123',
    'At most one additional document (BG-24) may be described as LISIBLE (BT-123).',
    atRoot,
    (root) =>
      sel(root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:AdditionalReferencedDocument').filter((d) =>
        anyEquals(sel(d, 'ram:Name'), 'LISIBLE'),
      ).length <= 1,
  );

  // BR-FR-20 / BR-FR-21 / BR-FR-22: the BAR note (processing: B2B, B2C, ...) and what it implies.
  const bars = barTreatments(release);
  add(
    'BR-FR-20_BT-21',
    `A note with subject BAR must say one of ${bars.join(', ')}.`,
    (root) => fromRoot(root, `${CII}/rsm:ExchangedDocument/ram:IncludedNote`).filter((n) => anyEquals(sel(n, 'ram:SubjectCode'), 'BAR')),
    (n) => anyEquals(sel(n, 'ram:Content'), ...bars),
  );
  const endpointStartsWithSiren = (root: XmlElement, party: string) => {
    const p = sel(root, `rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/${party}`);
    const siren = text(p.flatMap((x) => sel(x, 'ram:SpecifiedLegalOrganization/ram:ID'))[0]);
    const uri = p.flatMap((x) => sel(x, 'ram:URIUniversalCommunication/ram:URIID'));
    return text(uri[0]).startsWith(siren) && uri.some((u) => attribute(u, 'schemeID') === '0225');
  };
  const selfBilled = (root: XmlElement) => anyEquals(typeCode(root), ...SELF_BILLED_TYPES);
  add(
    'BR-FR-21_BT-49',
    "For a B2B invoice that is not self-billed, the buyer's electronic address (BT-49) must start with the buyer's SIREN and use scheme 0225.",
    atRoot,
    (root) => !(anyEquals(barContents(root), 'B2B') && !selfBilled(root)) || endpointStartsWithSiren(root, 'ram:BuyerTradeParty'),
  );
  add(
    'BR-FR-22_BT-34',
    "For a self-billed B2B invoice, the seller's electronic address (BT-34) must start with the seller's SIREN and use scheme 0225.",
    atRoot,
    (root) => !(anyEquals(barContents(root), 'B2B') && selfBilled(root)) || endpointStartsWithSiren(root, 'ram:SellerTradeParty'),
  );

  // BR-FR-23 / BR-FR-25: format and length of electronic addresses.
  const allowed = r14 ? 'letters, digits and + - _ .' : 'letters, digits and + - _ /';
  for (const { term, party } of ADDRESSES) {
    const uris = at(`${party}/ram:URIUniversalCommunication/ram:URIID`);
    add(
      `BR-FR-23_${term}`,
      `An electronic address with scheme 0225 (${term}) may only contain ${allowed}.`,
      (root) => withAttr(uris(root), 'schemeID', '0225'),
      (el) => isValidSchemeIdFormat(text(el), release),
    );
  }
  // BR-FR-24 / BR-FR-26: private identifiers (scheme 0224) of seller and buyer.
  for (const [term, party] of [
    ['BT-29', `${AGREEMENT}/ram:SellerTradeParty`],
    ['BT-46', `${AGREEMENT}/ram:BuyerTradeParty`],
  ] as const) {
    add(
      `BR-FR-24_${term}`,
      `A private identifier with scheme 0224 (${term}) may only contain ${allowed}.`,
      (root) => withAttr(fromRoot(root, `${party}/ram:GlobalID`), 'schemeID', '0224'),
      (el) => isValidSchemeIdFormat(text(el), release),
    );
  }
  for (const { term, party } of ADDRESSES) {
    add(
      `BR-FR-25_${term}`,
      `The electronic address (${term}) must not exceed 125 characters.`,
      at(`${party}/ram:URIUniversalCommunication/ram:URIID`),
      (el) => length(text(el)) <= 125,
    );
  }
  for (const [term, party] of [
    ['BT-29', `${AGREEMENT}/ram:SellerTradeParty`],
    ['BT-46', `${AGREEMENT}/ram:BuyerTradeParty`],
  ] as const) {
    add(
      `BR-FR-26_${term}`,
      `A private identifier with scheme 0224 (${term}) must not exceed 100 characters.`,
      (root) => withAttr(fromRoot(root, `${party}/ram:GlobalID`), 'schemeID', '0224'),
      (el) => length(text(el)) <= 100,
    );
  }

  // BR-FR-27 / BR-FR-28: item attributes (BG-32) need a name or code, and a value or a measure.
  const characteristic = `${LINE}/ram:SpecifiedTradeProduct/ram:ApplicableProductCharacteristic`;
  add(
    'BR-FR-27_BG-32',
    'An item attribute (BG-32) needs a name (BT-160) or a code (EXT-FR-FE-159).',
    at(characteristic),
    (c) => sel(c, 'ram:Description').length > 0 || sel(c, 'ram:TypeCode').length > 0,
  );
  add(
    'BR-FR-27_BT-160',
    'The item attribute name (BT-160) must not be empty.',
    at(`${characteristic}/ram:Description`),
    (el) => norm(text(el)) !== '',
  );
  add(
    'BR-FR-27_EXT-FR-FE-159',
    'The item attribute code (EXT-FR-FE-159) must not be empty.',
    at(`${characteristic}/ram:TypeCode`),
    (el) => norm(text(el)) !== '',
  );
  if (r14) {
    add(
      'BR-FR-28-Value',
      'An item attribute (BG-32) needs either a value (BT-161) or a measured value with its unit (EXT-FR-FE-160/161), not both.',
      at(characteristic),
      (c) => {
        const value = sel(c, 'ram:Value').length > 0;
        const measures = sel(c, 'ram:ValueMeasure');
        return (
          (value && measures.length === 0) ||
          (!value && measures.some((m) => (attribute(m, 'unitCode') ?? '') !== '' && attribute(m, 'unitCode') !== undefined))
        );
      },
    );
  } else {
    add(
      'BR-FR-28_BT-161-1',
      'An item attribute (BG-32) needs either a value (BT-161) or a measured value with its unit (EXT-FR-FE-160/161), not both.',
      at(characteristic),
      (c) => {
        const value = sel(c, 'ram:Value').length > 0;
        const measured = sel(c, 'ram:ValueMeasure').some((m) => attribute(m, 'unitCode') !== undefined);
        return (value || measured) && !(value && measured);
      },
    );
    add(
      'BR-FR-28_BT-161-2',
      'The item attribute value (BT-161) must not be empty.',
      at(`${characteristic}/ram:Value`),
      (el) => norm(text(el)) !== '',
    );
    add(
      'BR-FR-28_EXT-FR-FE-160',
      'The measured item attribute value (EXT-FR-FE-160) must not be empty.',
      at(`${characteristic}/ram:ValueMeasure`),
      (el) => norm(text(el)) !== '',
    );
    add(
      'BR-FR-28_EXT-FR-FE-161',
      'The unit of a measured item attribute value (EXT-FR-FE-161) must not be empty.',
      (root) => fromRoot(root, `${characteristic}/ram:ValueMeasure`).filter((m) => attribute(m, 'unitCode') !== undefined),
      (m) => norm(attribute(m, 'unitCode') ?? '') !== '',
    );
  }

  // BR-FR-29 / BR-FR-30: invoiced objects (BT-18 / BT-128): AFL and AVV at most once each, not empty.
  const refsOfType = (holder: XmlElement, code: string) =>
    sel(holder, 'ram:AdditionalReferencedDocument').filter((d) => anyEquals(sel(d, 'ram:ReferenceTypeCode'), code));
  const onceEach = (holder: XmlElement) => refsOfType(holder, 'AFL').length <= 1 && refsOfType(holder, 'AVV').length <= 1;
  for (const [rule, term, holderPath] of [
    ['BR-FR-29', 'BT-18', AGREEMENT],
    ['BR-FR-30', 'BT-128', LINE],
  ] as const) {
    add(
      `${rule}_${term}`,
      `The invoiced object identifiers (${term}) may use the schemes AFL and AVV at most once each.`,
      at(holderPath),
      onceEach,
    );
    for (const code of ['AFL', 'AVV']) {
      add(
        `${rule}_${code}`,
        `The invoiced object identifier with scheme ${code} (${term}) must not be empty.`,
        (root) => fromRoot(root, holderPath).flatMap((h) => refsOfType(h, code).flatMap((d) => sel(d, 'ram:IssuerAssignedID'))),
        (el) => norm(text(el)) !== '',
      );
    }
  }

  // BR-FR-30_BT-21 (1.2) / BR-FR-31_BT-21 (1.4): at most one coded BAR note.
  add(
    r14 ? 'BR-FR-31_BT-21' : 'BR-FR-30_BT-21',
    `At most one note with subject BAR may carry one of ${bars.join(', ')}.`,
    at(docPath),
    (doc) =>
      sel(doc, 'ram:IncludedNote').filter(
        (n) => anyEquals(sel(n, 'ram:SubjectCode'), 'BAR') && sel(n, 'ram:Content').some((c) => bars.includes(norm(text(c)))),
      ).length <= 1,
  );

  // BR-FR-32 (1.4): SIRENs anywhere have exactly 9 digits.
  if (r14) {
    add(
      'BR-FR-32-LEGALID',
      'A legal registration identifier with scheme 0002 (SIREN) must have exactly 9 digits.',
      (root) =>
        withAttr(
          descendants(root, 'ram:SpecifiedLegalOrganization').flatMap((o) => sel(o, 'ram:ID')),
          'schemeID',
          '0002',
        ),
      (el) => /^\d{9}$/.test(norm(text(el))),
    );
    add(
      'BR-FR-32-GLOBALID',
      'A party identifier with scheme 0002 or 0231 must have exactly 9 digits.',
      (root) => descendants(root, 'ram:GlobalID').filter((g) => ['0002', '0231'].includes(attribute(g, 'schemeID') ?? '')),
      (el) => /^\d{9}$/.test(norm(text(el))),
    );
  }

  // BR-FR-CO-03: a global-discount credit note (262) names its contract and billing period.
  add(
    'BR-FR-CO-03_BT-3',
    'A document of type 262 needs the contract reference (BT-12) and the billing period start and end (BG-14).',
    atRoot,
    (root) =>
      !anyEquals(typeCode(root), '262') ||
      (textAt(
        root,
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:ContractReferencedDocument/ram:IssuerAssignedID',
      ) !== '' &&
        textAt(
          root,
          'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString',
        ) !== '' &&
        textAt(
          root,
          'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString',
        ) !== ''),
  );
  // BR-FR-CO-04: corrective invoices reference exactly one preceding invoice.
  const headerRefs = (root: XmlElement) =>
    sel(root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:InvoiceReferencedDocument');
  add(
    'BR-FR-CO-04_BT-4',
    'A corrective invoice (384, 471, 472, 473) must reference exactly one preceding invoice (BG-3).',
    atRoot,
    (root) => !anyEquals(typeCode(root), '384', '471', '472', '473') || headerRefs(root).length === 1,
  );
  // BR-FR-CO-05: credit notes reference the preceding invoice, in the header or on every line.
  const datedRef = (ref: XmlElement) =>
    sel(ref, 'ram:IssuerAssignedID').length > 0 && sel(ref, 'ram:FormattedIssueDateTime/qdt:DateTimeString').length > 0;
  add(
    'BR-FR-CO-05_BT-3',
    'A credit note (261, 381, 396, 502, 503) must reference a preceding invoice with its date, in the header (BG-3) or on every line.',
    atRoot,
    (root) => {
      if (!anyEquals(typeCode(root), '261', '381', '396', '502', '503')) return true;
      if (headerRefs(root).some(datedRef)) return true;
      let lines = sel(root, 'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem');
      if (r14) lines = lines.filter((l) => lineStatus(l).length === 0 || anyEquals(lineStatus(l), 'DETAIL'));
      return lines.every((l) => sel(l, 'ram:SpecifiedLineTradeSettlement/ram:InvoiceReferencedDocument').some(datedRef));
    },
  );
  // BR-FR-CO-07: the due date is not before the issue date, except for prepayments and paid invoices.
  add(
    'BR-FR-CO-07_BT-9',
    'The payment due date (BT-9) must not be before the invoice date (BT-2), except for prepayment invoices and already-paid frameworks (B2, S2, M2).',
    atRoot,
    (root) => {
      const due = textAt(
        root,
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString',
      );
      if (due === '') return true;
      const fw = r14
        ? framework(root)
        : sel(root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BusinessTypeCode');
      if (anyEquals(typeCode(root), '386', '500', '503') || anyEquals(fw, 'B2', 'S2', 'M2')) return true;
      const issued = sel(root, 'rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString');
      // XPath compares the two untyped values as strings.
      const dues = sel(
        root,
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString',
      );
      return dues.some((d) => issued.some((i) => text(d) >= text(i)));
    },
  );
  // BR-FR-CO-08: final invoices after prepayment (B4/S4/M4) are not prepayment documents.
  add(
    'BR-FR-CO-08_BT-23',
    'With a framework B4, S4 or M4 (final invoice after prepayment) the document cannot be a prepayment invoice or credit note (386, 500, 503).',
    atRoot,
    (root) => !anyEquals(framework(root), 'B4', 'S4', 'M4') || !anyEquals(typeCode(root), '386', '500', '503'),
  );
  // BR-FR-CO-09: already-paid frameworks (B2/S2/M2).
  const paid = (root: XmlElement) => anyEquals(framework(root), 'B2', 'S2', 'M2');
  const total = (root: XmlElement, name: string) => {
    const els = sel(
      root,
      `rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/${name}`,
    );
    return els.length ? text(els[0]) : undefined;
  };
  add(
    'BR-FR-CO-09_BT-23-1',
    'With an already-paid framework (B2, S2, M2) the paid amount (BT-113) must equal the invoice total with VAT (BT-112).',
    atRoot,
    (root) => !paid(root) || numEq(total(root, 'ram:TotalPrepaidAmount'), total(root, 'ram:GrandTotalAmount')),
  );
  add('BR-FR-CO-09_BT-23-2', 'With an already-paid framework (B2, S2, M2) the amount due (BT-115) must be 0.', atRoot, (root) => {
    if (!paid(root)) return true;
    const due = num(total(root, 'ram:DuePayableAmount'));
    return due !== undefined && due.eq(new Big('0'));
  });
  add(
    'BR-FR-CO-09_BT-23-3',
    'With an already-paid framework (B2, S2, M2) the due date (BT-9) must give the payment date.',
    atRoot,
    (root) =>
      !paid(root) ||
      textAt(
        root,
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString',
      ) !== '',
  );
  // BR-FR-CO-10: every party identifier states its scheme, each scheme at most once per party.
  for (const { term, path } of PARTIES) {
    if (!r14 && (term === 'EXT-FR-FE-92' || term === 'EXT-FR-FE-115')) {
      // Release 1.2 names these contexts without namespace: they never match a CII document.
      const never = () => [];
      add(`BR-FR-CO-10_${term}-1`, `Each identifier of party ${term} must state its scheme.`, never, () => true);
      add(`BR-FR-CO-10_${term}-2`, `Each identifier scheme may appear only once for party ${term}.`, never, () => true);
      continue;
    }
    add(`BR-FR-CO-10_${term}-1`, `Each identifier of party ${term} must state its scheme (schemeID).`, at(path), (p) =>
      sel(p, 'ram:GlobalID').every((g) => attribute(g, 'schemeID') !== undefined),
    );
    add(`BR-FR-CO-10_${term}-2`, `Each identifier scheme may appear only once among the identifiers of party ${term}.`, at(path), (p) => {
      const schemes = sel(p, 'ram:GlobalID')
        .map((g) => attribute(g, 'schemeID'))
        .filter((s): s is string => s !== undefined);
      return new Set(schemes).size === schemes.length;
    });
  }
  // BR-FR-CO-12: invoices not in EUR give the VAT total in EUR.
  add(
    'BR-FR-CO-12_BT-5',
    'An invoice not in EUR must have EUR as VAT accounting currency (BT-6) and give the VAT total in EUR (BT-111).',
    atRoot,
    (root) => {
      const settlement = 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement';
      if (!sel(root, `${settlement}/ram:InvoiceCurrencyCode`).some((c) => text(c) !== 'EUR')) return true;
      const eurTax = withAttr(
        sel(root, `${settlement}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxTotalAmount`),
        'currencyID',
        'EUR',
      );
      return anyEquals(sel(root, `${settlement}/ram:TaxCurrencyCode`), 'EUR') && text(eurTax[0]) !== '';
    },
  );
  // BR-FR-CO-14 / BR-FR-CO-15: members of a VAT group (scheme 0231).
  const vatGroupMember = (root: XmlElement) =>
    withAttr(
      sel(root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:GlobalID'),
      'schemeID',
      '0231',
    ).length > 0;
  add(
    'BR-FR-CO-14_BT-29-1',
    'A seller identified with scheme 0231 (member of a VAT group) needs a TXD note saying MEMBRE_ASSUJETTI_UNIQUE.',
    atRoot,
    (root) => !vatGroupMember(root) || notesWith(root, 'TXD').some((n) => anyEquals(sel(n, 'ram:Content'), 'MEMBRE_ASSUJETTI_UNIQUE')),
  );
  add(
    'BR-FR-CO-15_BT-29-1',
    "A seller identified with scheme 0231 (member of a VAT group) needs a tax representative (BG-11) with the group's VAT number (BT-63).",
    atRoot,
    (root) => {
      if (!vatGroupMember(root)) return true;
      const rep = sel(root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTaxRepresentativeTradeParty');
      return (
        rep.length > 0 &&
        text(
          withAttr(
            rep.flatMap((x) => sel(x, 'ram:SpecifiedTaxRegistration/ram:ID')),
            'schemeID',
            'VA',
          )[0],
        ) !== ''
      );
    },
  );

  // BR-FR-DEC-01 … 04: decimal formats.
  const amountMsg = (t: string) => `The amount ${t} must be a decimal with at most 2 decimals, a '.' separator and at most 19 digits.`;
  for (const [term, path] of [
    ['BT-92_BT-99', `${SETTLEMENT}/ram:SpecifiedTradeAllowanceCharge/ram:ActualAmount`],
    ['BT-93_BT-100', `${SETTLEMENT}/ram:SpecifiedTradeAllowanceCharge/ram:BasisAmount`],
    ['BT-106', `${TOTALS}/ram:LineTotalAmount`],
    ['BT-107', `${TOTALS}/ram:AllowanceTotalAmount`],
    ['BT-108', `${TOTALS}/ram:ChargeTotalAmount`],
    ['BT-109', `${TOTALS}/ram:TaxBasisTotalAmount`],
    ['BT-110', `${TOTALS}/ram:TaxTotalAmount`],
    ['BT-111', ''], // same context as BT-110 in the reference rules: the first rule of the pattern wins, so it never applies
    ['BT-112', `${TOTALS}/ram:GrandTotalAmount`],
    ['BT-113', `${TOTALS}/ram:TotalPrepaidAmount`],
    ['BT-114', `${TOTALS}/ram:RoundingAmount`],
    ['BT-115', `${TOTALS}/ram:DuePayableAmount`],
    ['BT-116', `${SETTLEMENT}/ram:ApplicableTradeTax/ram:BasisAmount`],
    ['BT-117', `${SETTLEMENT}/ram:ApplicableTradeTax/ram:CalculatedAmount`],
    ['BT-131', `${LINE}/ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount`],
    ['BT-136_BT-141', `${LINE}/ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge/ram:ActualAmount`],
    ['BT-137_BT-142', `${LINE}/ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge/ram:BasisAmount`],
  ] as const) {
    add(`BR-FR-DEC-01_${term}`, amountMsg(term.replace('_', '/')), path ? at(path) : () => [], (el) => isDecimal19x2(norm(text(el))));
  }
  const qtyMsg = (t: string) => `The quantity ${t} must be a decimal with at most 4 decimals, a '.' separator and at most 19 digits.`;
  add('BR-FR-DEC-02_BT-129', qtyMsg('BT-129'), at(`${LINE}/ram:SpecifiedLineTradeDelivery/ram:BilledQuantity`), (el) =>
    isDecimal19x4(norm(text(el))),
  );
  add(
    'BR-FR-DEC-02_BT-149',
    qtyMsg('BT-149'),
    at(`${LINE}/ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:BasisQuantity`),
    (el) => isDecimal19x4(norm(text(el))),
  );
  const priceOk = (el: XmlElement, root: XmlElement) => {
    const v = norm(text(el));
    return r14 && isBidirectional(root) ? isDecimal19x6(v) : isDecimal19x6Positive(v);
  };
  const priceMsg = (t: string) =>
    `The price ${t} must be a decimal without sign${r14 ? ' (a sign is allowed with the bidirectional frameworks S9, B9, M9)' : ''}, with at most 6 decimals, a '.' separator and at most 19 digits.`;
  const linePrices = `${LINE}/ram:SpecifiedLineTradeAgreement`;
  add('BR-FR-DEC-03_BT-146', priceMsg('BT-146'), at(`${linePrices}/ram:NetPriceProductTradePrice/ram:ChargeAmount`), priceOk);
  add(
    'BR-FR-DEC-03_BT-147',
    priceMsg('BT-147'),
    at(`${linePrices}/ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge/ram:ActualAmount`),
    priceOk,
  );
  add('BR-FR-DEC-03_BT-148', priceMsg('BT-148'), at(`${linePrices}/ram:GrossPriceProductTradePrice/ram:ChargeAmount`), priceOk);
  const pctMsg = (t: string) => `The VAT rate ${t} must be a decimal without sign, with at most 2 decimals and at most 4 digits.`;
  add('BR-FR-DEC-04_BT-96_BT-103', pctMsg('BT-96/BT-103'), at(`${chargeTax}/ram:RateApplicablePercent`), (el) =>
    isPercent4x2(norm(text(el))),
  );
  add('BR-FR-DEC-04_BT-119', pctMsg('BT-119'), at(`${headerTax}/ram:RateApplicablePercent`), (el) => isPercent4x2(norm(text(el))));
  add('BR-FR-DEC-04_BT-152', pctMsg('BT-152'), at(`${lineTax}/ram:RateApplicablePercent`), (el) => isPercent4x2(norm(text(el))));

  if (r14) rules.push(...multiVendorRules());
  return rules;
}

/** Lines of a transaction by the text of their ParentLineID. */
const childrenByParent = perDocument((tx: XmlElement) => {
  const map = new Map<string, XmlElement[]>();
  for (const l of sel(tx, 'ram:IncludedSupplyChainTradeLineItem')) {
    for (const p of new Set(sel(l, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID').map(text))) {
      const list = map.get(p) ?? [];
      list.push(l);
      map.set(p, list);
    }
  }
  return map;
});

/**
 * BR-FR-MV-11: how many sub-invoice references (AFL, type 130) equal to BT-1 the main seller's GROUP
 * lines carry; the reference counts over every line item in the document (//).
 */
const mainSellerSubInvoices = perDocument((root: XmlElement) => {
  const invIds = sel(root, 'rsm:ExchangedDocument/ram:ID').map(text);
  const sellerIds = sel(
    root,
    'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID',
  ).map(text);
  return descendants(root, 'ram:IncludedSupplyChainTradeLineItem')
    .filter(
      (x) =>
        isGroupHead(x) &&
        sel(x, 'ram:SpecifiedLineTradeAgreement/ram:ItemSellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID').some((i) =>
          sellerIds.includes(text(i)),
        ),
    )
    .flatMap((x) => sel(x, 'ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument'))
    .filter(
      (d) =>
        anyEquals(sel(d, 'ram:ReferenceTypeCode'), 'AFL') &&
        anyEquals(sel(d, 'ram:TypeCode'), '130') &&
        sel(d, 'ram:IssuerAssignedID').some((i) => invIds.includes(text(i))),
    ).length;
});

/** Release 1.4: multi-vendor (S8/B8/M8) and bidirectional (S9/B9/M9) invoices, made of sub-invoices under GROUP lines. */
function multiVendorRules(): FrAssert[] {
  const rules: FrAssert[] = [];
  const add = (id: string, message: string, contexts: FrAssert['contexts'], holds: FrAssert['holds']) =>
    rules.push({ id, message, contexts, holds });
  const lines = at(LINE);
  const groupHeads = (root: XmlElement) => lines(root).filter(isGroupHead);
  const lineSeller = (line: XmlElement) => sel(line, 'ram:SpecifiedLineTradeAgreement/ram:ItemSellerTradeParty');

  add(
    'BR-FR-MV-01_EXT-FR-FE-163',
    'With a framework S8, B8, M8, S9, B9 or M9 every line must give its sub-type (EXT-FR-FE-163).',
    at(`${LINE}/ram:AssociatedDocumentLineDocument/ram:LineStatusReasonCode`),
    (el, root) => !isSpecial(root) || norm(text(el)) !== '',
  );
  add(
    'BR-FR-MV-02_EXT-FR-FE-163',
    'With a framework S8, B8 or M8 the invoice needs at least one GROUP line without parent line.',
    at(TX),
    (tx, root) => !isMultiVendor(root) || sel(tx, 'ram:IncludedSupplyChainTradeLineItem').filter(isGroupHead).length >= 1,
  );
  const sameLegalIdAs = (partyPath: string) => (tx: XmlElement) => {
    const ids = sel(tx, `ram:ApplicableHeaderTradeAgreement/${partyPath}/ram:SpecifiedLegalOrganization/ram:ID`).map(text);
    return sel(tx, 'ram:IncludedSupplyChainTradeLineItem').filter(
      (l) =>
        isGroupHead(l) &&
        sel(l, 'ram:SpecifiedLineTradeAgreement/ram:ItemSellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID').some((i) =>
          ids.includes(text(i)),
        ),
    ).length;
  };
  add(
    'BR-FR-BD-02_EXT-FR-FE-163',
    'With a framework S9, B9 or M9 the invoice needs exactly two GROUP lines without parent line.',
    at(TX),
    (tx, root) => !isBidirectional(root) || sel(tx, 'ram:IncludedSupplyChainTradeLineItem').filter(isGroupHead).length === 2,
  );
  add(
    'BR-FR-BD-02_BT-31',
    "With a framework S9, B9 or M9 exactly one GROUP line must have the seller's legal identifier (BT-30) as line seller.",
    at(TX),
    (tx, root) => !isBidirectional(root) || sameLegalIdAs('ram:SellerTradeParty')(tx) === 1,
  );
  add(
    'BR-FR-BD-02_BT-47',
    "With a framework S9, B9 or M9 exactly one GROUP line must have the buyer's legal identifier (BT-47) as line seller.",
    at(TX),
    (tx, root) => !isBidirectional(root) || sameLegalIdAs('ram:BuyerTradeParty')(tx) === 1,
  );

  // BR-FR-MV-03: what a sub-invoice head (GROUP line without parent) must carry.
  add(
    'BR-FR-MV-03_EXT-FR-FE-164',
    'A GROUP line without parent must name its seller (EXT-FR-FE-164).',
    groupHeads,
    (l, root) => !isSpecial(root) || norm(text(lineSeller(l).flatMap((s) => sel(s, 'ram:Name'))[0])) !== '',
  );
  add(
    'BR-FR-MV-03_EXT-FR-FE-167',
    "A GROUP line without parent must give its seller's legal identifier (EXT-FR-FE-167).",
    groupHeads,
    (l, root) => !isSpecial(root) || norm(text(lineSeller(l).flatMap((s) => sel(s, 'ram:SpecifiedLegalOrganization/ram:ID'))[0])) !== '',
  );
  add(
    'BR-FR-MV-03_EXT-FR-FE-177',
    "A GROUP line without parent must give its seller's country (EXT-FR-FE-177).",
    groupHeads,
    (l, root) => !isSpecial(root) || norm(text(lineSeller(l).flatMap((s) => sel(s, 'ram:PostalTradeAddress/ram:CountryID'))[0])) !== '',
  );
  add(
    'BR-FR-MV-03_EXT-FR-FE-181',
    'A GROUP line without parent must give its VAT total in the invoice currency (EXT-FR-FE-181).',
    groupHeads,
    (l, root) => !isSpecial(root) || norm(text(lineTaxTotalIn(l, invoiceCurrency(root))[0])) !== '',
  );
  add(
    'BR-FR-MV-03_EXT-FR-FE-182',
    'A GROUP line without parent must give its VAT total in the VAT accounting currency (EXT-FR-FE-182) when BT-6 is given.',
    groupHeads,
    (l, root) => {
      if (!isSpecial(root)) return true;
      const acc = sel(headerSettlement(root), 'ram:TaxCurrencyCode');
      if (acc.length === 0) return true;
      const cur = text(acc[0]);
      return cur !== '' && norm(text(lineTaxTotalIn(l, cur)[0])) !== '';
    },
  );
  const headRefs = (code: string) => (root: XmlElement) =>
    groupHeads(root).flatMap((l) =>
      sel(l, 'ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument').filter((d) =>
        anyEquals(sel(d, 'ram:ReferenceTypeCode'), code),
      ),
    );
  add(
    'BR-FR-MV-03_BT-128_AFL',
    'On a GROUP line without parent, the AFL invoiced object (BT-128) must have type 130 and a value.',
    headRefs('AFL'),
    (d, root) => !isSpecial(root) || (anyEquals(sel(d, 'ram:TypeCode'), '130') && norm(textAt(d, 'ram:IssuerAssignedID')) !== ''),
  );
  add(
    'BR-FR-MV-03_BT-128_AVV',
    'On a GROUP line without parent, the AVV invoiced object (BT-128) must have type 130 and a value other than M8, S8, B8.',
    headRefs('AVV'),
    (d, root) =>
      !isSpecial(root) ||
      (anyEquals(sel(d, 'ram:TypeCode'), '130') &&
        norm(textAt(d, 'ram:IssuerAssignedID')) !== '' &&
        !anyEquals(sel(d, 'ram:IssuerAssignedID'), 'M8', 'S8', 'B8')),
  );

  // BR-FR-MV-05: the net total of a GROUP line equals the sum over its sub-lines (±0.01 per sub-line).
  add(
    'BR-FR-MV-05_EXT-FR-FE-BG-12',
    'The net amount (BT-131) of a GROUP line must equal the sum of its sub-lines (within 0.01 per sub-line).',
    groupHeads,
    (l, root) => {
      if (!isSpecial(root)) return true;
      const id = norm(textAt(l, 'ram:AssociatedDocumentLineDocument/ram:LineID'));
      const children = (childrenByParent(l.parent!).get(id) ?? []).filter((c) => lineStatus(c).some((s) => text(s) !== 'INFORMATION'));
      const amounts = children.flatMap((c) => lineSum(c).flatMap((s) => sel(s, 'ram:LineTotalAmount')));
      let sum = new Big('0');
      for (const a of amounts) {
        const v = num(text(a));
        if (v === undefined) return false; // sum() over a non-number is NaN
        sum = sum.plus(v);
      }
      const own = num(text(lineSum(l).flatMap((s) => sel(s, 'ram:LineTotalAmount'))[0]));
      return (
        own !== undefined &&
        own
          .minus(sum)
          .abs()
          .lte(new Big('0.01').times(new Big(String(amounts.length))))
      );
    },
  );
  // BR-FR-MV-06 / MV-07: each line carries the seller's legal id and the AFL number of its sub-invoice, equal to its parent's.
  const parentOf = (l: XmlElement) => {
    const parentIds = sel(l, 'ram:AssociatedDocumentLineDocument/ram:ParentLineID');
    const byId = linesById(l.parent!);
    const parents = [...new Set(parentIds.flatMap((p) => byId.get(text(p)) ?? []))];
    return { hasParent: parentIds.length > 0, parents };
  };
  add(
    'BR-FR-MV-06_EXT-FR-FE-167',
    "With a framework S8, B8, M8, S9, B9 or M9 every line gives its seller's legal identifier, the same as its parent line's.",
    lines,
    (l, root) => {
      if (!isSpecial(root)) return true;
      const legal = norm(textAt(l, 'ram:SpecifiedLineTradeAgreement/ram:ItemSellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID'));
      const { hasParent, parents } = parentOf(l);
      return (
        legal !== '' &&
        (!hasParent ||
          legal ===
            norm(textAt(parents[0], 'ram:SpecifiedLineTradeAgreement/ram:ItemSellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID')))
      );
    },
  );
  add(
    'BR-FR-MV-07_BT-128',
    'With a framework S8, B8, M8, S9, B9 or M9 every line gives its sub-invoice number (BT-128, AFL, type 130), the same as its parent line.',
    lines,
    (l, root) => {
      if (!isSpecial(root)) return true;
      const own = aflInvoiceNumber(l);
      const { hasParent, parents } = parentOf(l);
      return own !== '' && (!hasParent || (parents.length > 0 && own === aflInvoiceNumber(parents[0])));
    },
  );
  // BR-FR-MV-08: DETAIL lines say which sub-invoice they belong to, as #number# at the start of the exemption reason.
  add(
    'BR-FR-MV-08_BT-128',
    'With a framework S8, B8, M8, S9, B9 or M9 every DETAIL line has a VAT exemption reason starting with its sub-invoice number between # signs.',
    (root) => lines(root).filter((l) => anyEquals(lineStatus(l), 'DETAIL')),
    (l, root) => {
      if (!isSpecial(root)) return true;
      const reason = textAt(l, 'ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:ExemptionReason');
      const n = aflInvoiceNumber(l);
      return norm(reason) !== '' && n !== '' && reason.startsWith(`#${n}#`);
    },
  );
  // BR-FR-MV-09: the VAT of a GROUP line equals the VAT breakdowns tagged with its sub-invoice number.
  add(
    'BR-FR-MV-09_EXT-FR-FE-181',
    'The VAT total of a GROUP line must equal the sum of the VAT breakdowns (BT-117) whose exemption reason starts with its #sub-invoice number#.',
    groupHeads,
    (l, root) => {
      if (!isSpecial(root)) return true;
      const n = aflInvoiceNumber(l);
      const taxes = sel(headerSettlement(root), 'ram:ApplicableTradeTax').filter(
        (t) => anyEquals(sel(t, 'ram:TypeCode'), 'VAT') && textAt(t, 'ram:ExemptionReason').startsWith(`#${n}#`),
      );
      let sum = new Big('0');
      for (const a of taxes.flatMap((t) => sel(t, 'ram:CalculatedAmount'))) {
        const v = num(text(a));
        if (v === undefined) return false;
        sum = sum.plus(v);
      }
      const own = num(text(lineTaxTotalIn(l, invoiceCurrency(root))[0]));
      return own !== undefined && own.minus(sum).abs().lte(new Big('0.01'));
    },
  );
  // BR-FR-MV-10: a GROUP line's total with VAT equals net + VAT (±0.01 per DETAIL sub-line).
  add(
    'BR-FR-MV-10_EXT-FR-FE-184',
    "A GROUP line's total with VAT (EXT-FR-FE-184), when given, must equal its net amount plus its VAT (within 0.01 per DETAIL sub-line).",
    groupHeads,
    (l, root) => {
      if (!isSpecial(root)) return true;
      const grand = lineSum(l).flatMap((s) => sel(s, 'ram:GrandTotalAmount'));
      if (grand.length === 0) return true;
      const id = textAt(l, 'ram:AssociatedDocumentLineDocument/ram:LineID');
      const details = (childrenByParent(l.parent!).get(id) ?? []).filter((c) => anyEquals(lineStatus(c), 'DETAIL')).length;
      const g = num(text(grand[0]));
      const net = num(text(lineSum(l).flatMap((s) => sel(s, 'ram:LineTotalAmount'))[0]));
      const vat = num(text(lineTaxTotalIn(l, invoiceCurrency(root))[0]));
      if (norm(text(grand[0])) === '' || g === undefined || net === undefined || vat === undefined) return false;
      return g
        .minus(net)
        .minus(vat)
        .abs()
        .lte(new Big('0.01').times(new Big(String(details))));
    },
  );
  // BR-FR-MV-11: the main seller's sub-invoice carries the invoice number (BT-1).
  add(
    'BR-FR-MV-11_BT-128',
    "The GROUP line of the invoice's own seller must carry the invoice number (BT-1) as its sub-invoice number, unless another one does.",
    (root) => {
      const sellerIds = sel(
        root,
        'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID',
      ).map(text);
      return groupHeads(root).filter((l) =>
        sel(l, 'ram:SpecifiedLineTradeAgreement/ram:ItemSellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID').some((i) =>
          sellerIds.includes(text(i)),
        ),
      );
    },
    (l, root) => {
      if (!isSpecial(root)) return true;
      const invIds = sel(root, 'rsm:ExchangedDocument/ram:ID').map(text);
      const count = mainSellerSubInvoices(root);
      const own = aflInvoiceNumber(l);
      return count === 1 || (count === 0 && invIds.includes(own)) || (count > 1 && invIds.some((i) => i !== own));
    },
  );
  // BR-FR-MV-12: sub-invoice numbers of GROUP lines are unique.
  add(
    'BR-FR-MV-12_BT-128',
    'The sub-invoice numbers (BT-128, AFL) of the GROUP lines without parent must be unique.',
    at(TX),
    (tx, root) => {
      if (!isSpecial(root)) return true;
      // Compare with every IssuerAssignedID before it in the document, as the reference does.
      const all = descendants(root, 'ram:IssuerAssignedID');
      const candidates = sel(tx, 'ram:IncludedSupplyChainTradeLineItem')
        .filter(isGroupHead)
        .flatMap((l) => sel(l, 'ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument'))
        .filter((d) => anyEquals(sel(d, 'ram:ReferenceTypeCode'), 'AFL') && anyEquals(sel(d, 'ram:TypeCode'), '130'))
        .flatMap((d) => sel(d, 'ram:IssuerAssignedID'));
      return !repeatsEarlierValue(all, new Set(candidates));
    },
  );
  // BR-FR-MV-13 / BR-FR-BD-13: self-billing is excluded for multi-vendor invoices and required for bidirectional ones.
  add(
    'BR-FR-MV-13_BT-3',
    'With a framework S8, B8 or M8 the document type (BT-3) cannot be a self-billed type (389, 261, 501, 500, 502, 471, 473).',
    at(`${CII}/rsm:ExchangedDocument/ram:TypeCode`),
    (el, root) => !isMultiVendor(root) || (norm(text(el)) !== '' && !SELF_BILLED_TYPES.includes(text(el))),
  );
  add(
    'BR-FR-BD-13_BT-3',
    'With a framework S9, B9 or M9 the document type (BT-3) must be a self-billed type (389, 261, 501, 500, 502, 471, 473).',
    at(`${CII}/rsm:ExchangedDocument/ram:TypeCode`),
    (el, root) => !isBidirectional(root) || SELF_BILLED_TYPES.includes(norm(text(el))),
  );
  // BR-FR-MV-14 / BR-FR-BD-14: corrective invoices and credit notes reference the preceding sub-invoice on each GROUP line.
  for (const [rule, types, applies] of [
    ['BR-FR-MV-14', ['384', '472', '381', '396', '503'], isMultiVendor],
    ['BR-FR-BD-14', ['261', '471', '473', '502'], isBidirectional],
  ] as const) {
    const heads = (root: XmlElement) => (anyEquals(typeCode(root), ...types) ? groupHeads(root) : []);
    add(
      `${rule}-EXT-FR-FE-136`,
      'On a corrective invoice or credit note, each GROUP line without parent must reference the preceding invoice (EXT-FR-FE-136).',
      heads,
      (l, root) =>
        !applies(root) || sel(l, 'ram:SpecifiedLineTradeSettlement/ram:InvoiceReferencedDocument/ram:IssuerAssignedID').length > 0,
    );
    add(
      `${rule}-EXT-FR-FE-138`,
      'On a corrective invoice or credit note, each GROUP line without parent must give the date of the preceding invoice (EXT-FR-FE-138).',
      heads,
      (l, root) =>
        !applies(root) ||
        sel(l, 'ram:SpecifiedLineTradeSettlement/ram:InvoiceReferencedDocument/ram:FormattedIssueDateTime/qdt:DateTimeString').length > 0,
    );
  }
  return rules;
}

/** Lines of a transaction by their LineID, built once per document (sub-line rules look parents up for every line). */
const lineIndex = new PropertyMap<XmlElement, Map<string, XmlElement[]>>();
function linesById(tx: XmlElement): Map<string, XmlElement[]> {
  let index = lineIndex.get(tx);
  if (!index) {
    index = new Map();
    for (const l of sel(tx, 'ram:IncludedSupplyChainTradeLineItem')) {
      for (const id of sel(l, 'ram:AssociatedDocumentLineDocument/ram:LineID')) {
        const list = index.get(text(id)) ?? [];
        list.push(l);
        index.set(text(id), list);
      }
    }
    lineIndex.set(tx, index);
  }
  return index;
}

/**
 * XPath `$candidate[. = preceding::x]` over `all` (every x in document order): does any candidate
 * carry a value that an element before it already had? (Identifier elements never nest, so
 * "preceding" is simply "earlier in document order".)
 */
export function repeatsEarlierValue(all: XmlElement[], candidates: Set<XmlElement>): boolean {
  const seen = new Set<string>();
  for (const e of all) {
    const v = text(e);
    if (candidates.has(e) && seen.has(v)) return true;
    seen.add(v);
  }
  return false;
}

export const ciiRules12: readonly FrAssert[] = releaseRules('1.2');
export const ciiRules14: readonly FrAssert[] = releaseRules('1.4');

/** Only for documents whose root is a CII invoice. */
export const isCiiRoot = (root: XmlElement) => is(root, CII);
