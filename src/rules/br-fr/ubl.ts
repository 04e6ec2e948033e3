/**
 * BR-FR rules on UBL (Invoice and CreditNote), as FNFE-MPE's "BR-FR-Flux2" UBL rules define them,
 * for release 1.2.0 and release 1.4.x. Rule contexts follow the reference rules, including their
 * quirks, so that findings and locations agree with the official verdicts:
 * - several UBL contexts are relative and match anywhere in the document (e.g. any
 *   cac:AllowanceCharge/cac:TaxCategory), others are anchored at the root;
 * - BR-FR-27 (and the 1.2 BR-FR-28 asserts) name cac:Item directly under the root, which never
 *   exists in UBL, so they never apply; the same holds for BR-FR-09_EXT-FR-FE-146 (its SIRET path
 *   repeats cac:DeliveryLocation);
 * - BR-FR-16_BT-103 and BR-FR-DEC-01_BT-111 share their context with an earlier rule of the same
 *   pattern (BT-96, BT-110), and only the first rule of a pattern applies to a node;
 * - notes are coded inline: "#PMT#…", "#BAR#B2B" (the UBL notes carry no subject code element).
 * Release 1.4 reads the billing framework from cbc:ProfileID (1.2: cac:PaymentTerms/cbc:Note for
 * BR-FR-CO-07/08/09), requires it (BR-FR-08), adds B2CINT / RECAPITULATIF_COTRAITANCE, allows '.'
 * in 0225/0224 identifiers, and adds BR-FR-32 and the multi-vendor / bidirectional rules, in which
 * a sub-line points at its invoice through cac:BillingReference (DocumentStatusCode GROUP/DETAIL,
 * cac:BillingReferenceLine for the parent line) and names its seller in cac:Item/cac:ManufacturerParty.
 */
import type { XmlElement } from '../../xml/dom.js';
import { Big } from '../../model/decimal.js';
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
import { repeatsEarlierValue } from './cii.js';
import { anyEquals, attribute, descendants, fromRoot, is, length, norm, sel, text, textAt, withAttr } from './xml.js';
import { perDocument, PropertyMap } from '../../util/property-map.js';

export const isUblRoot = (root: XmlElement) => is(root, 'ubl:Invoice') || is(root, 'cn:CreditNote');

/** Root-anchored context `ubl:Invoice/<path> | cn:CreditNote/<path>`. */
const doc = (path: string) => (root: XmlElement) => [...fromRoot(root, `ubl:Invoice/${path}`), ...fromRoot(root, `cn:CreditNote/${path}`)];
/** Root-anchored context on the lines: `ubl:Invoice/cac:InvoiceLine/<path> | cn:CreditNote/cac:CreditNoteLine/<path>`. */
const line = (path?: string) => (root: XmlElement) => [
  ...fromRoot(root, path ? `ubl:Invoice/cac:InvoiceLine/${path}` : 'ubl:Invoice/cac:InvoiceLine'),
  ...fromRoot(root, path ? `cn:CreditNote/cac:CreditNoteLine/${path}` : 'cn:CreditNote/cac:CreditNoteLine'),
];
const theRoot = (root: XmlElement) => (isUblRoot(root) ? [root] : []);
const creditNoteRoot = (root: XmlElement) => (is(root, 'cn:CreditNote') ? [root] : []);

/** Relative context (`cac:A/cac:B`): every element named by the last step whose ancestors match the steps before it. */
function anywhere(path: string) {
  const stepsOf = path.split('/');
  return (root: XmlElement) =>
    descendants(root, stepsOf[stepsOf.length - 1]).filter((el) => {
      let p: XmlElement | null = el;
      for (let i = stepsOf.length - 2; i >= 0; i--) {
        p = p.parent;
        if (!p || !is(p, stepsOf[i])) return false;
      }
      return true;
    });
}

const typeCodes = (root: XmlElement) => [...sel(root, 'cbc:InvoiceTypeCode'), ...sel(root, 'cbc:CreditNoteTypeCode')];
const invoiceLines = (root: XmlElement) => [...sel(root, 'cac:InvoiceLine'), ...sel(root, 'cac:CreditNoteLine')];

/** All notes joined (1.2 joins with '', 1.4 with '#'). */
const joinedNotes = (root: XmlElement, release: FrRelease) =>
  sel(root, 'cbc:Note')
    .map(text)
    .join(release === '1.4' ? '#' : '');

/** The value coded after `#<code>#` in the notes, up to the next '#' (the UBL way of writing a subject code). */
function codedNote(root: XmlElement, code: string, release: FrRelease): string {
  const all = joinedNotes(root, release);
  const marker = `#${code}#`;
  const at = all.indexOf(marker);
  if (at < 0) return '';
  const after = all.slice(at + marker.length);
  const hash = after.indexOf('#');
  return hash >= 0 ? after.slice(0, hash) : after;
}

const occurrences = (s: string, token: string) => (s === '' ? 0 : s.split(token).length - 1);

const SUPPLIER = 'cac:AccountingSupplierParty/cac:Party';
const CUSTOMER = 'cac:AccountingCustomerParty/cac:Party';

// Parties for BR-FR-09: where the SIRET and the SIREN sit, and whether the SIREN is required.
const SIRET_PARTIES: { term: string; ctx: (root: XmlElement) => XmlElement[]; siret: string; siren: string; strict: boolean }[] = [
  { term: 'BT-29', ctx: doc(SUPPLIER), siret: 'cac:PartyIdentification/cbc:ID', siren: 'cac:PartyLegalEntity/cbc:CompanyID', strict: true },
  { term: 'BT-46', ctx: doc(CUSTOMER), siret: 'cac:PartyIdentification/cbc:ID', siren: 'cac:PartyLegalEntity/cbc:CompanyID', strict: true },
  {
    term: 'BT-60',
    ctx: doc('cac:PayeeParty'),
    siret: 'cac:PartyIdentification/cbc:ID',
    siren: 'cac:PartyLegalEntity/cbc:CompanyID',
    strict: false,
  },
  {
    term: 'EXT-FR-FE-06',
    ctx: doc(`${CUSTOMER}/cac:AgentParty`),
    siret: 'cac:PartyIdentification/cbc:ID',
    siren: 'cac:PartyLegalEntity/cbc:CompanyID',
    strict: false,
  },
  {
    term: 'EXT-FR-FE-46',
    ctx: doc('cac:PaymentMeans/cac:PaymentMandate/cac:PayerParty'),
    siret: 'cac:PartyIdentification/cbc:ID',
    siren: 'cac:PartyLegalEntity/cbc:CompanyID',
    strict: false,
  },
  {
    term: 'EXT-FR-FE-69',
    ctx: doc(`${SUPPLIER}/cac:AgentParty`),
    siret: 'cac:PartyIdentification/cbc:ID',
    siren: 'cac:PartyLegalEntity/cbc:CompanyID',
    strict: false,
  },
  {
    term: 'EXT-FR-FE-92',
    ctx: doc(`${CUSTOMER}/cac:ServiceProviderParty/cac:Party`),
    siret: 'cac:PartyIdentification/cbc:ID',
    siren: 'cac:PartyLegalEntity/cbc:CompanyID',
    strict: false,
  },
  {
    term: 'EXT-FR-FE-115',
    ctx: doc(`${SUPPLIER}/cac:ServiceProviderParty/cac:Party`),
    siret: 'cac:PartyIdentification/cbc:ID',
    siren: 'cac:PartyLegalEntity/cbc:CompanyID',
    strict: false,
  },
  {
    term: 'BT-71',
    ctx: doc('cac:Delivery'),
    siret: 'cac:DeliveryLocation/cbc:ID',
    siren: 'cac:DeliveryParty/cac:PartyLegalEntity/cbc:CompanyID',
    strict: false,
  },
  // The reference looks for the SIRET in a cac:DeliveryLocation below the line's cac:DeliveryLocation.
  {
    term: 'EXT-FR-FE-146',
    ctx: line('cac:Delivery/cac:DeliveryLocation'),
    siret: 'cac:DeliveryLocation/cbc:ID',
    siren: 'cac:DeliveryParty/cac:PartyLegalEntity/cbc:CompanyID',
    strict: false,
  },
];

function siretMatchesSiren(party: XmlElement, siretPath: string, sirenPath: string, strict: boolean): boolean {
  const sirets = withAttr(sel(party, siretPath), 'schemeID', '0009');
  if (sirets.length === 0) return true;
  const siret = text(sirets[0]);
  const legal = withAttr(sel(party, sirenPath), 'schemeID', '0002');
  let sirens = legal.map(text);
  if (!strict && text(legal[0]) === '') sirens = [siret.slice(0, 9)];
  return /^\d{14}$/.test(siret) && sirens.includes(siret.slice(0, 9));
}

// Electronic addresses (BR-FR-23/25), with the term of the address.
const ENDPOINT_PARTIES: [string, string][] = [
  ['BT-34', SUPPLIER],
  ['BT-49', CUSTOMER],
  ['EXT-FR-FE-12', `${CUSTOMER}/cac:AgentParty`],
  ['EXT-FR-FE-29', 'cac:PayeeParty'],
  ['EXT-FR-FE-52', 'cac:PaymentMeans/cac:PaymentMandate/cac:PayerParty'],
  ['EXT-FR-FE-75', `${SUPPLIER}/cac:AgentParty`],
  ['EXT-FR-FE-98', `${CUSTOMER}/cac:ServiceProviderParty/cac:Party`],
  ['EXT-FR-FE-121', `${SUPPLIER}/cac:ServiceProviderParty/cac:Party`],
];

// Parties for BR-FR-CO-10: contexts and where their identifiers sit.
const SCHEME_PARTIES: { term: string; ctx: (root: XmlElement) => XmlElement[]; ids: string }[] = [
  { term: 'BT-29', ctx: anywhere(SUPPLIER), ids: 'cac:PartyIdentification/cbc:ID' },
  { term: 'BT-46', ctx: anywhere(CUSTOMER), ids: 'cac:PartyIdentification/cbc:ID' },
  { term: 'BT-60', ctx: anywhere('cac:PayeeParty'), ids: 'cac:PartyIdentification/cbc:ID' },
  { term: 'EXT-FR-FE-06', ctx: anywhere(`${CUSTOMER}/cac:AgentParty`), ids: 'cac:PartyIdentification/cbc:ID' },
  { term: 'EXT-FR-FE-46', ctx: anywhere('cac:PaymentMeans/cac:PaymentMandate/cac:PayerParty'), ids: 'cac:PartyIdentification/cbc:ID' },
  { term: 'EXT-FR-FE-69', ctx: anywhere(`${SUPPLIER}/cac:AgentParty`), ids: 'cac:PartyIdentification/cbc:ID' },
  { term: 'EXT-FR-FE-92', ctx: anywhere(`${CUSTOMER}/cac:ServiceProviderParty/cac:Party`), ids: 'cac:PartyIdentification/cbc:ID' },
  { term: 'EXT-FR-FE-115', ctx: anywhere(`${SUPPLIER}/cac:ServiceProviderParty/cac:Party`), ids: 'cac:PartyIdentification/cbc:ID' },
  { term: 'BT-71', ctx: doc('cac:Delivery/cac:DeliveryLocation'), ids: 'cbc:ID' },
  { term: 'EXT-FR-FE-146', ctx: line('cac:Delivery/cac:DeliveryLocation'), ids: 'cbc:ID' },
];

function releaseRules(release: FrRelease): FrAssert[] {
  const r14 = release === '1.4';
  const rules: FrAssert[] = [];
  const add = (id: string, message: string, contexts: FrAssert['contexts'], holds: FrAssert['holds']) =>
    rules.push({ id, message, contexts, holds });
  const framework = (root: XmlElement) => (r14 ? sel(root, 'cbc:ProfileID') : sel(root, 'cac:PaymentTerms/cbc:Note'));
  const dueDates = (root: XmlElement) =>
    r14 ? [...sel(root, 'cbc:DueDate'), ...sel(root, 'cac:PaymentMeans/cbc:PaymentDueDate')] : sel(root, 'cbc:DueDate');

  // BR-FR-01 / BR-FR-02: invoice numbers at most 35 characters, restricted character set.
  const idLen = (what: string) => `The ${what} must not exceed 35 characters.`;
  const idFmt = (what: string) => `The ${what} may only contain letters, digits and + - _ /, without spaces.`;
  const lineRefId = line('cac:BillingReference/cac:DocumentReference/cbc:ID');
  add('BR-FR-01_BT-1-1', idLen('invoice number (BT-1)'), doc('cbc:ID'), (el) => length(text(el)) <= 35);
  add('BR-FR-01_BT-1-2', idFmt('invoice number (BT-1)'), doc('cbc:ID'), (el) => isValidIdFormat(text(el)));
  add(
    'BR-FR-01_BT-25-1',
    idLen('preceding invoice number (BT-25)'),
    doc('cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID'),
    (el) => length(text(el)) <= 35,
  );
  add(
    'BR-FR-01_BT-25-2',
    idFmt('preceding invoice number (BT-25)'),
    doc('cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID'),
    (el) => isValidIdFormat(text(el)),
  );
  add('BR-FR-01_EXT-FR-FE-136-1', idLen('preceding invoice number on a line (EXT-FR-FE-136)'), lineRefId, (el) => length(text(el)) <= 35);
  add('BR-FR-01_BT-EXT-FR-FE-136-2', idFmt('preceding invoice number on a line (EXT-FR-FE-136)'), lineRefId, (el) =>
    isValidIdFormat(text(el)),
  );
  add('BR-FR-02_BT-1', idFmt('invoice number (BT-1)'), doc('cbc:ID'), (el) => isValidIdFormat(text(el)));
  add('BR-FR-02_BT-25', idFmt('preceding invoice number (BT-25)'), doc('cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID'), (el) =>
    isValidIdFormat(text(el)),
  );
  add('BR-FR-02_EXT-FR-FE-136', idFmt('preceding invoice number on a line (EXT-FR-FE-136)'), line('cac:DocumentReference/cbc:ID'), (el) =>
    isValidIdFormat(text(el)),
  );

  // BR-FR-03: dates YYYY-MM-DD, real calendar dates in 2000–2099.
  for (const [term, ctx] of [
    ['BT-2', doc('cbc:IssueDate')],
    ['BT-7', doc('cbc:TaxPointDate')],
    ['BT-9', doc('cbc:DueDate')],
    ['BT-26', doc('cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate')],
    ['BT-72', doc('cac:Delivery/cbc:ActualDeliveryDate')],
    ['BT-73', doc('cac:InvoicePeriod/cbc:StartDate')],
    ['BT-74', doc('cac:InvoicePeriod/cbc:EndDate')],
    ['EXT-FR-FE-138', line('cac:DocumentReference/cbc:IssueDate')],
    ['EXT-FR-FE-158', line('cac:Delivery/cbc:ActualDeliveryDate')],
    ['BT-134', line('cac:InvoicePeriod/cbc:StartDate')],
    ['BT-135', line('cac:InvoicePeriod/cbc:EndDate')],
  ] as const) {
    add(`BR-FR-03_${term}`, `The date ${term} must be a valid date YYYY-MM-DD with a year between 2000 and 2099.`, ctx, (el) =>
      isValidUblDate(text(el)),
    );
  }

  // BR-FR-04: document type codes.
  for (const [term, ctx] of [
    [
      'BT-3',
      (root: XmlElement) => [
        ...fromRoot(root, 'ubl:Invoice/cbc:InvoiceTypeCode'),
        ...fromRoot(root, 'cn:CreditNote/cbc:CreditNoteTypeCode'),
      ],
    ],
    ['EXT-FR-FE-02', doc('cac:BillingReference/cac:InvoiceDocumentReference/cbc:DocumentTypeCode')],
    ['EXT-FR-FE-137', line('cac:BillingReference/cac:InvoiceDocumentReference/cbc:DocumentTypeCode')],
  ] as const) {
    add(`BR-FR-04_${term}`, `The document type code (${term}) is not one of the codes allowed in France.`, ctx, (el) =>
      DOCUMENT_TYPE_CODES.includes(text(el)),
    );
  }

  // BR-FR-05 / BR-FR-06: mandatory legal notes (#PMT#, #PMD#, #AAB#), each at most once (and #TXD#).
  const legal: [string, string][] = [
    ['PMT', 'the fixed recovery-cost indemnity (#PMT#)'],
    ['PMD', 'the late-payment penalties (#PMD#)'],
    ['AAB', 'the early-payment discount or its absence (#AAB#)'],
  ];
  legal.forEach(([code, what], i) =>
    add(`BR-FR-05_BT-22-${i + 1}`, `A note (BG-1) stating ${what} is mandatory.`, theRoot, (root) =>
      joinedNotes(root, release).includes(`#${code}#`),
    ),
  );
  ['PMT', 'PMD', 'AAB', 'TXD'].forEach((code, i) =>
    add(
      `BR-FR-06_BT-21-${i + 1}`,
      `The note subject #${code}# may appear only once.`,
      theRoot,
      (root) => occurrences(joinedNotes(root, release), `#${code}#`) <= 1,
    ),
  );

  // BR-FR-08: billing framework (BT-23, cbc:ProfileID).
  const modes = billingModes(release);
  if (r14) {
    add('BR-FR-08_BT-23', `The billing framework (BT-23) is mandatory and must be one of ${modes.join(', ')}.`, theRoot, (root) => {
      const p = sel(root, 'cbc:ProfileID');
      return p.length > 0 && modes.includes(text(p[0]));
    });
  } else {
    add('BR-FR-08_BT-23', `The billing framework (BT-23) must be one of ${modes.join(', ')}.`, doc('cbc:ProfileID'), (el) =>
      modes.includes(text(el)),
    );
  }

  // BR-FR-09: SIRET consistent with SIREN.
  for (const p of SIRET_PARTIES) {
    add(
      `BR-FR-09_${p.term}`,
      `The SIRET (identifier with scheme 0009) of party ${p.term} must have 14 digits and start with the party's SIREN.`,
      p.ctx,
      (el) => siretMatchesSiren(el, p.siret, p.siren, p.strict),
    );
  }

  // BR-FR-10 / BR-FR-11: SIRENs of seller (always) and buyer (B2B).
  add(
    'BR-FR-10_BT-30',
    "The seller's SIREN (BT-30, CompanyID with scheme 0002) is mandatory and must have exactly 9 digits.",
    anywhere(`${SUPPLIER}/cac:PartyLegalEntity`),
    (el) => {
      const s = withAttr(sel(el, 'cbc:CompanyID'), 'schemeID', '0002');
      return s.length > 0 && /^\d{9}$/.test(norm(text(s[0])));
    },
  );
  const customerSiren = (root: XmlElement) => withAttr(sel(root, `${CUSTOMER}/cac:PartyLegalEntity/cbc:CompanyID`), 'schemeID', '0002');
  add(
    'BR-FR-11_BT-47',
    "When the BAR note says B2B, the buyer's SIREN (BT-47) is mandatory and must have exactly 9 digits.",
    theRoot,
    (root) => {
      if (codedNote(root, 'BAR', release) !== 'B2B') return true;
      const s = customerSiren(root);
      return s.length > 0 && /^\d{9}$/.test(norm(text(s[0])));
    },
  );
  add(
    'BR-FR-12_BT-49',
    "The buyer's electronic address (BT-49) is mandatory.",
    theRoot,
    (root) => norm(textAt(root, `${CUSTOMER}/cbc:EndpointID`)) !== '',
  );
  add(
    'BR-FR-13_BT-34',
    "The seller's electronic address (BT-34) is mandatory.",
    theRoot,
    (root) => norm(textAt(root, `${SUPPLIER}/cbc:EndpointID`)) !== '',
  );

  // BR-FR-15 / BR-FR-16: VAT categories and rates.
  const catOk = (tax: XmlElement) => sel(tax, 'cbc:ID').length === 0 || anyEquals(sel(tax, 'cbc:ID'), ...VAT_CATEGORY_CODES);
  const notLM = (tax: XmlElement) => !anyEquals(sel(tax, 'cbc:ID'), 'L', 'M');
  const rateOk = (tax: XmlElement) => sel(tax, 'cbc:Percent').length === 0 || anyEquals(sel(tax, 'cbc:Percent'), ...VAT_RATES);
  const chargeTax = anywhere('cac:AllowanceCharge/cac:TaxCategory');
  const breakdownTax = anywhere('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory');
  const itemTax = anywhere('cac:Item/cac:ClassifiedTaxCategory');
  const catMsg = (t: string) => `The VAT category code (${t}) must be one of S, E, AE, K, G, O, Z.`;
  const lmMsg = (t: string) => `The VAT category codes L and M (${t}) do not apply in France.`;
  add('BR-FR-15_BT-95_BT-102-1', catMsg('BT-95/BT-102'), chargeTax, catOk);
  add('BR-FR-15_BT-95_BT-102-2', lmMsg('BT-95/BT-102'), chargeTax, notLM);
  add('BR-FR-15_BT-118-1', catMsg('BT-118'), breakdownTax, catOk);
  add('BR-FR-15_BT-118-2', lmMsg('BT-118'), breakdownTax, notLM);
  add('BR-FR-15_BT-151-1', catMsg('BT-151'), itemTax, catOk);
  add('BR-FR-08_BT-151-2', lmMsg('BT-151'), itemTax, notLM); // the reference files this BR-FR-15 assert under BR-FR-08
  const rateMsg = (t: string) => `The VAT rate (${t}) must be one of the rates in use in France, written as a plain percentage.`;
  add('BR-FR-16_BT-96', rateMsg('BT-96'), chargeTax, rateOk);
  add('BR-FR-16_BT-103', rateMsg('BT-103'), () => [], rateOk); // same context as BR-FR-16_BT-96 in the same pattern: never applies
  add('BR-FR-16_BT-119', rateMsg('BT-119'), breakdownTax, rateOk);
  add('BR-FR-16_BT-152', rateMsg('BT-152'), anywhere('cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory'), rateOk);

  // BR-FR-17 / BR-FR-18: attachment qualifiers (cbc:DocumentDescription); at most one LISIBLE.
  const attach = attachmentCodes(release);
  add(
    'BR-FR-17_BT-123',
    `The attachment qualifier (BT-123) must be one of ${attach.join(', ')}.`,
    anywhere('cac:AdditionalDocumentReference'),
    (d) => {
      const desc = sel(d, 'cbc:DocumentDescription');
      return desc.length === 0 || anyEquals(desc, ...attach);
    },
  );
  add(
    'BR-FR-18_BT-123',
    'At most one additional document (BG-24) may be described as LISIBLE (BT-123).',
    theRoot,
    (root) =>
      sel(root, 'cac:AdditionalDocumentReference').filter((d) => anyEquals(sel(d, 'cbc:DocumentDescription'), 'LISIBLE')).length <= 1,
  );

  // BR-FR-20 / 21 / 22: the #BAR# note.
  const bars = barTreatments(release);
  add('BR-FR-20_BT-21', `A #BAR# note must say one of ${bars.join(', ')}.`, theRoot, (root) => {
    const t = codedNote(root, 'BAR', release);
    return t === '' || bars.includes(t);
  });
  const endpointStartsWithSiren = (root: XmlElement, party: string) => {
    const siren = text(withAttr(sel(root, `${party}/cac:PartyLegalEntity/cbc:CompanyID`), 'schemeID', '0002')[0]);
    const endpoints = sel(root, `${party}/cbc:EndpointID`);
    return text(endpoints[0]).startsWith(siren) && endpoints.some((e) => attribute(e, 'schemeID') === '0225');
  };
  const selfBilled = (root: XmlElement) => anyEquals(typeCodes(root), ...SELF_BILLED_TYPES);
  add(
    'BR-FR-21_BT-49',
    "For a B2B invoice that is not self-billed, the buyer's electronic address (BT-49) must start with the buyer's SIREN and use scheme 0225.",
    theRoot,
    (root) => codedNote(root, 'BAR', release) !== 'B2B' || selfBilled(root) || endpointStartsWithSiren(root, CUSTOMER),
  );
  add(
    'BR-FR-22_BT-34',
    "For a self-billed B2B invoice, the seller's electronic address (BT-34) must start with the seller's SIREN and use scheme 0225.",
    theRoot,
    (root) => {
      const t = codedNote(root, 'BAR', release);
      // 1.2 applies the check whenever a BAR value is given; 1.4 only for B2B.
      const applies = r14 ? t === 'B2B' : t !== '';
      return !applies || !selfBilled(root) || endpointStartsWithSiren(root, SUPPLIER);
    },
  );

  // BR-FR-23 … 26: formats and lengths of electronic addresses (0225) and private identifiers (0224).
  const allowed = r14 ? 'letters, digits and + - _ .' : 'letters, digits and + - _ /';
  for (const [term, party] of ENDPOINT_PARTIES) {
    const endpoints = doc(`${party}/cbc:EndpointID`);
    add(
      `BR-FR-23_${term}`,
      `An electronic address with scheme 0225 (${term}) may only contain ${allowed}.`,
      (root) => withAttr(endpoints(root), 'schemeID', '0225'),
      (el) => isValidSchemeIdFormat(text(el), release),
    );
  }
  for (const [term, party] of [
    ['BT-29', SUPPLIER],
    ['BT-46', CUSTOMER],
  ] as const) {
    const ids = doc(`${party}/cac:PartyIdentification/cbc:ID`);
    add(
      `BR-FR-24_${term}`,
      `A private identifier with scheme 0224 (${term}) may only contain ${allowed}.`,
      (root) => withAttr(ids(root), 'schemeID', '0224'),
      (el) => isValidSchemeIdFormat(text(el), release),
    );
  }
  for (const [term, party] of ENDPOINT_PARTIES) {
    add(
      `BR-FR-25_${term}`,
      `The electronic address (${term}) must not exceed 125 characters.`,
      doc(`${party}/cbc:EndpointID`),
      (el) => length(text(el)) <= 125,
    );
  }
  for (const [term, party] of [
    ['BT-29', SUPPLIER],
    ['BT-46', CUSTOMER],
  ] as const) {
    const ids = doc(`${party}/cac:PartyIdentification/cbc:ID`);
    add(
      `BR-FR-26_${term}`,
      `A private identifier with scheme 0224 (${term}) must not exceed 100 characters.`,
      (root) => withAttr(ids(root), 'schemeID', '0224'),
      (el) => length(text(el)) <= 100,
    );
  }

  // BR-FR-27 / BR-FR-28: item attributes. The reference anchors BR-FR-27 (and 1.2's BR-FR-28) at a
  // cac:Item directly under the root, which UBL never has; 1.4's BR-FR-28 looks at the line items.
  const rootItemProperty = doc('cac:Item/cac:AdditionalItemProperty');
  add(
    'BR-FR-27_BG-32',
    'An item attribute (BG-32) needs a name (BT-160) or a code (EXT-FR-FE-159).',
    rootItemProperty,
    (p) => sel(p, 'cbc:Name').length > 0 || sel(p, 'cbc:NameCode').length > 0,
  );
  add(
    'BR-FR-27_BT-160',
    'The item attribute name (BT-160) must not be empty.',
    doc('cac:Item/cac:AdditionalItemProperty/cbc:Name'),
    (el) => norm(text(el)) !== '',
  );
  add(
    'BR-FR-27_EXT-FR-FE-159',
    'The item attribute code (EXT-FR-FE-159) must not be empty.',
    doc('cac:Item/cac:AdditionalItemProperty/cbc:NameCode'),
    (el) => norm(text(el)) !== '',
  );
  if (r14) {
    add(
      'BR-FR-28-Value',
      'An item attribute (BG-32) needs either a value (BT-161) or a measured value with its unit (EXT-FR-FE-160/161), not both.',
      line('cac:Item/cac:AdditionalItemProperty'),
      (p) => {
        const value = sel(p, 'cbc:Value').length > 0;
        const quantities = sel(p, 'cbc:ValueQuantity');
        return (
          (value && quantities.length === 0) ||
          (!value && quantities.some((q) => (attribute(q, 'unitCode') ?? '') !== '' && attribute(q, 'unitCode') !== undefined))
        );
      },
    );
  } else {
    // The 1.2 test requires a thing and its negation at once; its context never matches anyway.
    add(
      'BR-FR-28_BT-161',
      'An item attribute (BG-32) needs either a value (BT-161) or a measured value with its unit (EXT-FR-FE-160/161), not both.',
      rootItemProperty,
      () => false,
    );
    add(
      'BR-FR-28_Value',
      'The item attribute value (BT-161) must not be empty.',
      doc('cac:Item/cac:AdditionalItemProperty/cbc:Value'),
      (el) => norm(text(el)) !== '',
    );
    add(
      'BR-FR-28_ValueQuantity',
      'The measured item attribute value (EXT-FR-FE-160) must not be empty.',
      doc('cac:Item/cac:AdditionalItemProperty/cbc:ValueQuantity'),
      (el) => norm(text(el)) !== '',
    );
    add(
      'BR-FR-28_UnitCode',
      'The unit of a measured item attribute value (EXT-FR-FE-161) must not be empty.',
      (root) => doc('cac:Item/cac:AdditionalItemProperty/cbc:ValueQuantity')(root).filter((q) => attribute(q, 'unitCode') !== undefined),
      (q) => norm(attribute(q, 'unitCode') ?? '') !== '',
    );
  }

  // BR-FR-29 / BR-FR-30: invoiced objects (BT-18 / BT-128) with schemes AFL / AVV.
  const onceEach = (d: XmlElement) =>
    withAttr(sel(d, 'cbc:ID'), 'schemeID', 'AFL').length <= 1 && withAttr(sel(d, 'cbc:ID'), 'schemeID', 'AVV').length <= 1;
  add(
    'BR-FR-29_BT-18',
    'The invoiced object identifiers (BT-18) may use the schemes AFL and AVV at most once each.',
    doc('cac:AdditionalDocumentReference'),
    onceEach,
  );
  add(
    'BR-FR-30_BT-128',
    'The invoiced object identifiers of a line (BT-128) may use the schemes AFL and AVV at most once each.',
    line('cac:DocumentReference'),
    onceEach,
  );
  for (const code of ['AFL', 'AVV']) {
    const header = doc('cac:AdditionalDocumentReference/cbc:ID');
    const lineIds = line('cac:DocumentReference/cbc:ID');
    add(
      `BR-FR-29_${code}`,
      `The invoiced object identifier with scheme ${code} (BT-18) must not be empty.`,
      (root) => withAttr(header(root), 'schemeID', code),
      (el) => norm(text(el)) !== '',
    );
    add(
      `BR-FR-30_${code}`,
      `The invoiced object identifier of a line with scheme ${code} (BT-128) must not be empty.`,
      (root) => withAttr(lineIds(root), 'schemeID', code),
      (el) => norm(text(el)) !== '',
    );
  }
  // BR-FR-31 (filed as BR-FR-30_BT-21 in UBL): at most one coded #BAR# value.
  add('BR-FR-30_BT-21', `At most one #BAR# note may carry one of ${bars.join(', ')}.`, theRoot, (root) => {
    const all = `${sel(root, 'cbc:Note')
      .map(text)
      .filter((n) => n.includes('#BAR#'))
      .join('')}#`;
    return bars.reduce((n, b) => n + occurrences(all, `BAR#${b}#`), 0) <= 1;
  });

  // BR-FR-32 (1.4): SIRENs anywhere have exactly 9 digits.
  if (r14) {
    add(
      'BR-FR-32-LEGALID',
      'A legal registration identifier with scheme 0002 (SIREN) must have exactly 9 digits.',
      (root) => withAttr(anywhere('cac:PartyLegalEntity/cbc:CompanyID')(root), 'schemeID', '0002'),
      (el) => /^\d{9}$/.test(norm(text(el))),
    );
    add(
      'BR-FR-32-ID',
      'A party identifier with scheme 0002 or 0231 must have exactly 9 digits.',
      (root) => anywhere('cac:PartyIdentification/cbc:ID')(root).filter((e) => ['0002', '0231'].includes(attribute(e, 'schemeID') ?? '')),
      (el) => /^\d{9}$/.test(norm(text(el))),
    );
  }

  // BR-FR-CO-03 … CO-15.
  add(
    'BR-FR-CO-03_BT-3',
    'A credit note of type 262 needs the contract reference (BT-12) and the billing period start and end (BG-14).',
    creditNoteRoot,
    (root) =>
      !anyEquals(sel(root, 'cbc:CreditNoteTypeCode'), '262') ||
      (textAt(root, 'cac:ContractDocumentReference/cbc:ID') !== '' &&
        textAt(root, 'cac:InvoicePeriod/cbc:StartDate') !== '' &&
        textAt(root, 'cac:InvoicePeriod/cbc:EndDate') !== ''),
  );
  add(
    'BR-FR-CO-04_BT-3',
    'A corrective invoice (384, 471, 472, 473) must reference exactly one preceding invoice (BG-3).',
    theRoot,
    (root) => !anyEquals(sel(root, 'cbc:InvoiceTypeCode'), '384', '471', '472', '473') || sel(root, 'cac:BillingReference').length === 1,
  );
  add(
    'BR-FR-CO-05_BT-3',
    'A credit note (261, 381, 396, 502, 503) must reference a preceding invoice with its date, in the header (BG-3) or on every line.',
    creditNoteRoot,
    (root) => {
      if (!anyEquals(sel(root, 'cbc:CreditNoteTypeCode'), '261', '381', '396', '502', '503')) return true;
      const dated = (r: XmlElement) => sel(r, 'cbc:ID').length > 0 && sel(r, 'cbc:IssueDate').length > 0;
      if (sel(root, 'cac:BillingReference/cac:InvoiceDocumentReference').some(dated)) return true;
      const lines = sel(root, 'cac:CreditNoteLine');
      if (!r14)
        return sel(root, 'cac:CreditNoteLine/cac:BillingReference/cac:InvoiceDocumentReference').filter(dated).length === lines.length;
      // 1.4: sub-invoice heads and informative sub-lines (their BillingReference points at this document) are left out.
      const ownIds = sel(root, 'cbc:ID').map(text);
      const ownRefs = (l: XmlElement) =>
        sel(l, 'cac:BillingReference').filter((b) => sel(b, 'cac:InvoiceDocumentReference/cbc:ID').some((i) => ownIds.includes(text(i))));
      const counted = lines.filter(
        (l) =>
          ownRefs(l).length === 0 ||
          ownRefs(l).some((b) => anyEquals(sel(b, 'cac:InvoiceDocumentReference/cbc:DocumentStatusCode'), 'DETAIL')),
      );
      const referenced = counted.filter((l) =>
        sel(l, 'cac:BillingReference')
          .filter((b) => sel(b, 'cac:InvoiceDocumentReference/cbc:ID').some((i) => ownIds.some((o) => o !== text(i))))
          .some((b) => sel(b, 'cac:InvoiceDocumentReference').some(dated)),
      );
      return referenced.length === counted.length;
    },
  );
  add(
    'BR-FR-CO-07_BT-9',
    'The payment due date (BT-9) must not be before the invoice date (BT-2), except for prepayment invoices and already-paid frameworks (B2, S2, M2).',
    theRoot,
    (root) => {
      const due = dueDates(root);
      if (due.length === 0) return true;
      if (anyEquals(typeCodes(root), '386', '500', '503') || anyEquals(framework(root), 'B2', 'S2', 'M2')) return true;
      const issued = sel(root, 'cbc:IssueDate');
      return !due.some((d) => issued.some((i) => text(d) < text(i)));
    },
  );
  add(
    'BR-FR-CO-08_BT-23',
    'With a framework B4, S4 or M4 (final invoice after prepayment) the document cannot be a prepayment invoice or credit note (386, 500, 503).',
    theRoot,
    (root) => !anyEquals(framework(root), 'B4', 'S4', 'M4') || !anyEquals(typeCodes(root), '386', '500', '503'),
  );
  const paid = (root: XmlElement) => anyEquals(framework(root), 'B2', 'S2', 'M2');
  const total = (root: XmlElement, name: string) => {
    const els = sel(root, `cac:LegalMonetaryTotal/${name}`);
    return els.length ? text(els[0]) : undefined;
  };
  add(
    'BR-FR-CO-09_BT-23-1',
    'With an already-paid framework (B2, S2, M2) the paid amount (BT-113) must equal the invoice total with VAT (BT-112).',
    theRoot,
    (root) => !paid(root) || numEq(total(root, 'cbc:PrepaidAmount'), total(root, 'cbc:TaxInclusiveAmount')),
  );
  add('BR-FR-CO-09_BT-23-2', 'With an already-paid framework (B2, S2, M2) the amount due (BT-115) must be 0.', theRoot, (root) => {
    if (!paid(root)) return true;
    const due = num(total(root, 'cbc:PayableAmount'));
    return due !== undefined && due.eq(new Big('0'));
  });
  add(
    'BR-FR-CO-09_BT-23-3',
    'With an already-paid framework (B2, S2, M2) the due date (BT-9) must give the payment date.',
    theRoot,
    (root) => !paid(root) || text(dueDates(root)[0]) !== '',
  );
  for (const p of SCHEME_PARTIES) {
    add(`BR-FR-CO-10_${p.term}-1`, `Each identifier of party ${p.term} must state its scheme (schemeID).`, p.ctx, (el) =>
      sel(el, p.ids).every((i) => attribute(i, 'schemeID') !== undefined),
    );
    add(`BR-FR-CO-10_${p.term}-2`, `Each identifier scheme may appear only once among the identifiers of party ${p.term}.`, p.ctx, (el) => {
      const schemes = sel(el, p.ids)
        .map((i) => attribute(i, 'schemeID'))
        .filter((s): s is string => s !== undefined);
      return new Set(schemes).size === schemes.length;
    });
  }
  add(
    'BR-FR-CO-12_BT-5',
    'An invoice not in EUR must have EUR as VAT accounting currency (BT-6) and give the VAT total in EUR (BT-111).',
    theRoot,
    (root) => {
      if (!sel(root, 'cbc:DocumentCurrencyCode').some((c) => text(c) !== 'EUR')) return true;
      return (
        anyEquals(sel(root, 'cbc:TaxCurrencyCode'), 'EUR') &&
        text(withAttr(sel(root, 'cac:TaxTotal/cbc:TaxAmount'), 'currencyID', 'EUR')[0]) !== ''
      );
    },
  );
  const vatGroupMember = (root: XmlElement) =>
    withAttr(sel(root, `${SUPPLIER}/cac:PartyIdentification/cbc:ID`), 'schemeID', '0231').length > 0;
  add(
    'BR-FR-CO-14_BT-29-1',
    'A seller identified with scheme 0231 (member of a VAT group) needs a #TXD# note saying MEMBRE_ASSUJETTI_UNIQUE.',
    theRoot,
    (root) => !vatGroupMember(root) || codedNote(root, 'TXD', release) === 'MEMBRE_ASSUJETTI_UNIQUE',
  );
  add(
    'BR-FR-CO-15_BT-29-1',
    "A seller identified with scheme 0231 (member of a VAT group) needs a tax representative (BG-11) with the group's VAT number (BT-63).",
    theRoot,
    (root) => {
      if (!vatGroupMember(root)) return true;
      const scheme = sel(root, 'cac:TaxRepresentativeParty/cac:PartyTaxScheme');
      return scheme.length > 0 && text(scheme.flatMap((s) => sel(s, 'cbc:CompanyID'))[0]) !== '';
    },
  );

  // BR-FR-DEC-01 … 04: decimal formats.
  const amountMsg = (t: string) => `The amount ${t} must be a decimal with at most 2 decimals, a '.' separator and at most 19 digits.`;
  for (const [term, ctx] of [
    ['BT-93_BT-100', doc('cac:AllowanceCharge/cbc:BaseAmount')],
    ['BT-92_BT-99', doc('cac:AllowanceCharge/cbc:Amount')],
    ['BT-106', anywhere('cac:LegalMonetaryTotal/cbc:LineExtensionAmount')],
    ['BT-107', anywhere('cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount')],
    ['BT-108', anywhere('cac:LegalMonetaryTotal/cbc:ChargeTotalAmount')],
    ['BT-109', anywhere('cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount')],
    ['BT-110', anywhere('cac:TaxTotal/cbc:TaxAmount')],
    ['BT-111', () => []], // same context as BT-110 in the same pattern: never applies
    ['BT-112', anywhere('cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount')],
    ['BT-113', anywhere('cac:LegalMonetaryTotal/cbc:PrepaidAmount')],
    ['BT-114', anywhere('cac:LegalMonetaryTotal/cbc:PayableRoundingAmount')],
    ['BT-115', anywhere('cac:LegalMonetaryTotal/cbc:PayableAmount')],
    ['BT-116', anywhere('cac:TaxTotal/cac:TaxSubtotal/cbc:TaxableAmount')],
    ['BT-117', anywhere('cac:TaxTotal/cac:TaxSubtotal/cbc:TaxAmount')],
    ['BT-131', line('cbc:LineExtensionAmount')],
    ['BT-136_BT-141', line('cac:AllowanceCharge/cbc:Amount')],
    ['BT-137_BT-142', line('cac:AllowanceCharge/cbc:BaseAmount')],
  ] as const) {
    add(`BR-FR-DEC-01_${term}`, amountMsg(term.replace('_', '/')), ctx, (el) => isDecimal19x2(norm(text(el))));
  }
  const qtyMsg = (t: string) => `The quantity ${t} must be a decimal with at most 4 decimals, a '.' separator and at most 19 digits.`;
  add(
    'BR-FR-DEC-02_BT-129',
    qtyMsg('BT-129'),
    (root) => [
      ...fromRoot(root, 'ubl:Invoice/cac:InvoiceLine/cbc:InvoicedQuantity'),
      ...fromRoot(root, 'cn:CreditNote/cac:CreditNoteLine/cbc:CreditedQuantity'),
    ],
    (el) => isDecimal19x4(norm(text(el))),
  );
  add('BR-FR-DEC-02_BT-149', qtyMsg('BT-149'), line(), (l) => {
    const q = norm(textAt(l, 'cac:Price/cbc:BaseQuantity'));
    return q === '' || isDecimal19x4(q);
  });
  const bidirectional = (root: XmlElement) => r14 && frameworkIs(root, BIDIRECTIONAL);
  const priceOk = (v: string, root: XmlElement) => v === '' || (bidirectional(root) ? isDecimal19x6(v) : isDecimal19x6Positive(v));
  const priceMsg = (t: string) =>
    `The price ${t} must be a decimal without sign${r14 ? ' (a sign is allowed with the bidirectional frameworks S9, B9, M9)' : ''}, with at most 6 decimals and at most 19 digits.`;
  add('BR-FR-DEC-03_BT-146', priceMsg('BT-146'), line(), (l, root) => priceOk(norm(textAt(l, 'cac:Price/cbc:PriceAmount')), root));
  add('BR-FR-DEC-03_BT-147', priceMsg('BT-147'), line('cac:Price/cac:AllowanceCharge'), (a, root) =>
    priceOk(norm(textAt(a, 'cbc:Amount')), root),
  );
  add('BR-FR-DEC-03_BT-148', priceMsg('BT-148'), line('cac:Price/cac:AllowanceCharge/cbc:BaseAmount'), (el, root) =>
    priceOk(norm(text(el)), root),
  );
  const pctMsg = (t: string) => `The VAT rate ${t} must be a decimal without sign, with at most 2 decimals and at most 4 digits.`;
  add('BR-FR-DEC-04_BT-96_BT-103', pctMsg('BT-96/BT-103'), anywhere('cac:AllowanceCharge/cac:TaxCategory/cbc:Percent'), (el) =>
    isPercent4x2(norm(text(el))),
  );
  add('BR-FR-DEC-04_BT-119', pctMsg('BT-119'), anywhere('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent'), (el) =>
    isPercent4x2(norm(text(el))),
  );
  add('BR-FR-DEC-04_BT-152', pctMsg('BT-152'), anywhere('cac:Item/cac:ClassifiedTaxCategory/cbc:Percent'), (el) =>
    isPercent4x2(norm(text(el))),
  );

  if (r14) rules.push(...multiVendorRules());
  return rules;
}

/** BR-FR-03 for UBL: YYYY-MM-DD, a real date, year 2000–2099. */
function isValidUblDate(v: string): boolean {
  const m = /^20(\d{2})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.exec(v);
  if (!m) return false;
  const year = 2000 + Number(m[1]);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const max = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][Number(m[2]) - 1];
  return Number(m[3]) <= max;
}

/** cbc:ProfileID, found once per document (the root's children include every line). */
const profileIds = perDocument((root: XmlElement) => sel(root, 'cbc:ProfileID'));

function frameworkIs(root: XmlElement, codes: string[]): boolean {
  const p = profileIds(root);
  return p.length > 0 && codes.includes(norm(text(p[0])));
}

/**
 * Release 1.4, multi-vendor (S8/B8/M8) and bidirectional (S9/B9/M9) invoices in UBL: a line says
 * which part of the invoice it is through a cac:BillingReference whose InvoiceDocumentReference/ID
 * is this invoice's number, with DocumentStatusCode GROUP / DETAIL / INFORMATION and, for a
 * sub-line, cac:BillingReferenceLine/cbc:ID = its parent line.
 */
function multiVendorRules(): FrAssert[] {
  const rules: FrAssert[] = [];
  const add = (id: string, message: string, contexts: FrAssert['contexts'], holds: FrAssert['holds']) =>
    rules.push({ id, message, contexts, holds });
  const special = (root: XmlElement) => frameworkIs(root, [...MULTI_VENDOR, ...BIDIRECTIONAL]);
  const multiVendor = (root: XmlElement) => frameworkIs(root, MULTI_VENDOR);
  const bidir = (root: XmlElement) => frameworkIs(root, BIDIRECTIONAL);
  const invoiceIds = perDocument((root: XmlElement) => sel(root, 'cbc:ID').map(text));
  const rootOf = (el: XmlElement) => {
    let r = el;
    while (r.parent) r = r.parent;
    return r;
  };
  /** The line's BillingReferences that point at this very document. */
  const ownRefs = (l: XmlElement) => {
    const ids = invoiceIds(rootOf(l));
    return sel(l, 'cac:BillingReference').filter((b) => sel(b, 'cac:InvoiceDocumentReference/cbc:ID').some((i) => ids.includes(text(i))));
  };
  const status = (b: XmlElement) => sel(b, 'cac:InvoiceDocumentReference/cbc:DocumentStatusCode');
  const isHeadRef = (b: XmlElement) => anyEquals(status(b), 'GROUP') && sel(b, 'cac:BillingReferenceLine/cbc:ID').length === 0;
  const lineSeller = 'cac:Item/cac:ManufacturerParty';
  /** Context of most rules: the BillingReference that makes a line the head of a sub-invoice. */
  const headRefs = (root: XmlElement) => line()(root).flatMap((l) => ownRefs(l).filter(isHeadRef));
  const lineOf = (b: XmlElement) => b.parent!;
  const afl = (l: XmlElement) =>
    norm(
      text(
        withAttr(
          sel(l, 'cac:DocumentReference')
            .filter((d) => anyEquals(sel(d, 'cbc:DocumentTypeCode'), '130'))
            .flatMap((d) => sel(d, 'cbc:ID')),
          'schemeID',
          'AFL',
        )[0],
      ),
    );
  const avv = (l: XmlElement) =>
    withAttr(
      sel(l, 'cac:DocumentReference')
        .filter((d) => anyEquals(sel(d, 'cbc:DocumentTypeCode'), '130'))
        .flatMap((d) => sel(d, 'cbc:ID')),
      'schemeID',
      'AVV',
    );
  const lineTaxIn = (l: XmlElement, currency: string) => withAttr(sel(l, 'cac:TaxTotal/cbc:TaxAmount'), 'currencyID', currency);
  const currency = perDocument((root: XmlElement) => textAt(root, 'cbc:DocumentCurrencyCode'));
  const vatSubtotals = perDocument((root: XmlElement) => sel(root, 'cac:TaxTotal/cac:TaxSubtotal'));
  const parentIds = (l: XmlElement) =>
    ownRefs(l)
      .flatMap((b) => sel(b, 'cac:BillingReferenceLine/cbc:ID'))
      .map(text);
  const linesWithId = (l: XmlElement, ids: string[]) => {
    const byId = ublLinesById(l.parent!);
    return [...new Set(ids.flatMap((i) => byId.get(i) ?? []))];
  };
  const headsOf = perDocument((root: XmlElement) => invoiceLines(root).flatMap((l) => ownRefs(l).filter(isHeadRef)));
  /** Sub-lines by the parent line they name: each (line, BillingReference to this invoice) under its BillingReferenceLine/cbc:ID. */
  const subLinesByParent = perDocument((root: XmlElement) => {
    const map = new Map<string, { line: XmlElement; ref: XmlElement }[]>();
    for (const l of invoiceLines(root)) {
      for (const r of ownRefs(l)) {
        for (const p of sel(r, 'cac:BillingReferenceLine/cbc:ID')) {
          const list = map.get(text(p)) ?? [];
          list.push({ line: l, ref: r });
          map.set(text(p), list);
        }
      }
    }
    return map;
  });
  const accountingCurrencies = perDocument((root: XmlElement) => descendants(root, 'cbc:TaxCurrencyCode'));
  const dec = (v: string) => num(v);

  add(
    'BR-FR-MV-01_EXT-FR-FE-163',
    'With a framework S8, B8, M8, S9, B9 or M9 every line must point at this invoice and give its sub-type (EXT-FR-FE-163).',
    (root) => (isUblRoot(root) ? anywhereLines(root) : []),
    (l, root) => {
      if (!special(root)) return true;
      const refs = ownRefs(l);
      return refs.length > 0 && norm(text(refs.flatMap(status)[0])) !== '';
    },
  );
  add(
    'BR-FR-MV-02_EXT-FR-FE-163',
    'With a framework S8, B8 or M8 the invoice needs at least one GROUP line without parent line.',
    (root) => (isUblRoot(root) ? [root] : []),
    (root) => !multiVendor(root) || headsOf(root).length >= 1,
  );
  const headsSoldBy = (root: XmlElement, party: string) => {
    const ids = sel(root, `${party}/cac:PartyLegalEntity/cbc:CompanyID`).map(text);
    return headsOf(root).filter((b) =>
      sel(lineOf(b), `${lineSeller}/cac:PartyLegalEntity/cbc:CompanyID`).some((i) => ids.includes(text(i))),
    ).length;
  };
  add(
    'BR-FR-BD-02_EXT-FR-FE-163',
    'With a framework S9, B9 or M9 the invoice needs exactly two GROUP lines without parent line.',
    (root) => (isUblRoot(root) ? [root] : []),
    (root) => !bidir(root) || headsOf(root).length === 2,
  );
  add(
    'BR-FR-BD-02_BT-30',
    "With a framework S9, B9 or M9 exactly one GROUP line must have the seller's legal identifier (BT-30) as line seller.",
    (root) => (isUblRoot(root) ? [root] : []),
    (root) => !bidir(root) || headsSoldBy(root, SUPPLIER) === 1,
  );
  add(
    'BR-FR-BD-02_BT-47',
    "With a framework S9, B9 or M9 exactly one GROUP line must have the buyer's legal identifier (BT-47) as line seller.",
    (root) => (isUblRoot(root) ? [root] : []),
    (root) => !bidir(root) || headsSoldBy(root, CUSTOMER) === 1,
  );

  add(
    'BR-FR-MV-03_EXT-FR-FE-164',
    'A GROUP line without parent must name its seller (EXT-FR-FE-164).',
    headRefs,
    (b, root) => !special(root) || norm(textAt(lineOf(b), `${lineSeller}/cac:PartyLegalEntity/cbc:RegistrationName`)) !== '',
  );
  add(
    'BR-FR-MV-03_EXT-FR-FE-167',
    "A GROUP line without parent must give its seller's legal identifier (EXT-FR-FE-167).",
    headRefs,
    (b, root) => !special(root) || norm(textAt(lineOf(b), `${lineSeller}/cac:PartyLegalEntity/cbc:CompanyID`)) !== '',
  );
  add(
    'BR-FR-MV-03_EXT-FR-FE-177',
    "A GROUP line without parent must give its seller's country (EXT-FR-FE-177).",
    headRefs,
    (b, root) =>
      !special(root) ||
      norm(
        text(
          descendants(lineOf(b), 'cac:Item').flatMap((i) =>
            sel(i, 'cac:ManufacturerParty/cac:PostalAddress/cac:Country/cbc:IdentificationCode'),
          )[0],
        ),
      ) !== '',
  );
  add(
    'BR-FR-MV-03_EXT-FR-FE-181',
    'A GROUP line without parent must give its VAT total in the invoice currency (EXT-FR-FE-181).',
    headRefs,
    (b, root) => !special(root) || norm(text(lineTaxIn(lineOf(b), currency(root))[0])) !== '',
  );
  add(
    'BR-FR-MV-03_EXT-FR-FE-182',
    'A GROUP line without parent must give its VAT total in the VAT accounting currency (EXT-FR-FE-182) when BT-6 is given.',
    headRefs,
    (b, root) => {
      if (!special(root)) return true;
      const acc = accountingCurrencies(root);
      if (acc.length === 0) return true;
      const cur = text(acc[0]);
      return cur !== '' && norm(text(lineTaxIn(lineOf(b), cur)[0])) !== '';
    },
  );
  add(
    'BR-FR-MV-03_BT-128_AFL',
    'A GROUP line without parent must carry its sub-invoice number (BT-128, scheme AFL, document type 130).',
    headRefs,
    (b, root) => !special(root) || afl(lineOf(b)) !== '',
  );
  add(
    'BR-FR-MV-03_BT-128_AVV',
    'A GROUP line without parent must carry an AVV invoiced object (BT-128, document type 130) other than M8, S8, B8.',
    headRefs,
    (b, root) => {
      if (!special(root)) return true;
      const ids = avv(lineOf(b));
      return norm(text(ids[0])) !== '' && !anyEquals(ids, 'M8', 'S8', 'B8');
    },
  );

  add(
    'BR-FR-MV-05_EXT-FR-FE-BG-12',
    'The net amount (BT-131) of a GROUP line must equal the sum of its sub-lines (within 0.01 per sub-line).',
    headRefs,
    (b, root) => {
      if (!special(root)) return true;
      const l = lineOf(b);
      const id = norm(textAt(l, 'cbc:ID'));
      const children = [
        ...new Set(
          (subLinesByParent(root).get(id) ?? [])
            .filter(({ ref }) => status(ref).some((s) => text(s) !== 'INFORMATION'))
            .map(({ line: c }) => c),
        ),
      ];
      const amounts = children.flatMap((c) => sel(c, 'cbc:LineExtensionAmount'));
      let sum = new Big('0');
      for (const a of amounts) {
        const v = dec(text(a));
        if (v === undefined) return false;
        sum = sum.plus(v);
      }
      const own = dec(textAt(l, 'cbc:LineExtensionAmount'));
      return (
        own !== undefined &&
        own
          .minus(sum)
          .abs()
          .lte(new Big('0.01').times(new Big(String(amounts.length))))
      );
    },
  );
  add(
    'BR-FR-MV-06_EXT-FR-FE-167',
    "With a framework S8, B8, M8, S9, B9 or M9 every line gives its seller's legal identifier, the same as its parent line's.",
    line(),
    (l, root) => {
      if (!special(root)) return true;
      const legal = norm(textAt(l, `${lineSeller}/cac:PartyLegalEntity/cbc:CompanyID`));
      const parents = parentIds(l);
      const parentLegal = norm(textAt(linesWithId(l, parents)[0], `${lineSeller}/cac:PartyLegalEntity/cbc:CompanyID`));
      return legal !== '' && (parents.length === 0 || legal === parentLegal);
    },
  );
  add(
    'BR-FR-MV-07_BT-128',
    'With a framework S8, B8, M8, S9, B9 or M9 every line gives its sub-invoice number (BT-128, AFL), the same as its parent line.',
    line(),
    (l, root) => {
      if (!special(root)) return true;
      const own = afl(l);
      const parents = parentIds(l);
      const parentLine = linesWithId(l, parents)[0];
      return own !== '' && (parents.length === 0 || own === (parentLine ? afl(parentLine) : ''));
    },
  );
  add(
    'BR-FR-MV-08_BT-128',
    'With a framework S8, B8, M8, S9, B9 or M9 every DETAIL line has a VAT exemption reason starting with its sub-invoice number between # signs.',
    (root) => line()(root).filter((l) => ownRefs(l).some((b) => anyEquals(status(b), 'DETAIL'))),
    (l, root) => {
      if (!special(root)) return true;
      const reason = textAt(l, 'cac:Item/cac:ClassifiedTaxCategory/cbc:TaxExemptionReason');
      const n = afl(l);
      return norm(reason) !== '' && n !== '' && reason.startsWith(`#${n}#`);
    },
  );
  add(
    'BR-FR-MV-09_EXT-FR-FE-181',
    'The VAT total of a GROUP line must equal the sum of the VAT breakdowns whose exemption reason starts with its #sub-invoice number#.',
    headRefs,
    (b, root) => {
      if (!special(root)) return true;
      const l = lineOf(b);
      const n = afl(l);
      const subtotals = vatSubtotals(root).filter(
        (s) =>
          anyEquals(sel(s, 'cac:TaxCategory/cac:TaxScheme/cbc:ID'), 'VAT') &&
          textAt(s, 'cac:TaxCategory/cbc:TaxExemptionReason').startsWith(`#${n}#`),
      );
      let sum = new Big('0');
      for (const a of subtotals.flatMap((s) => sel(s, 'cbc:TaxAmount'))) {
        const v = dec(text(a));
        if (v === undefined) return false;
        sum = sum.plus(v);
      }
      const own = dec(text(lineTaxIn(l, currency(root))[0]));
      return own !== undefined && own.minus(sum).abs().lte(new Big('0.01'));
    },
  );
  add(
    'BR-FR-MV-10_EXT-FR-FE-184',
    "A GROUP line's amount with VAT (EXT-FR-FE-184), when given, must equal its net amount plus its VAT (within 0.01 per sub-line).",
    headRefs,
    (b, root) => {
      if (!special(root)) return true;
      const l = lineOf(b);
      const gross = sel(l, 'cbc:TaxInclusiveLineExtensionAmount');
      if (gross.length === 0) return true;
      const id = textAt(l, 'cbc:ID');
      const subLines = new Set(
        (subLinesByParent(root).get(id) ?? []).filter(({ ref }) => anyEquals(status(ref), 'DETAIL', 'GROUP')).map(({ ref }) => ref),
      ).size;
      const g = dec(text(gross[0]));
      const net = dec(textAt(l, 'cbc:LineExtensionAmount'));
      const vat = dec(text(lineTaxIn(l, currency(root))[0]));
      if (norm(text(gross[0])) === '' || g === undefined || net === undefined || vat === undefined) return false;
      return g
        .minus(net)
        .minus(vat)
        .abs()
        .lte(new Big('0.01').times(new Big(String(subLines))));
    },
  );
  add(
    'BR-FR-MV-11_BT-128',
    "The GROUP line of the invoice's own seller must carry the invoice number (BT-1) as its sub-invoice number, unless another one does.",
    (root) => {
      const sellerIds = sel(root, `${SUPPLIER}/cac:PartyLegalEntity/cbc:CompanyID`).map(text);
      return line()(root)
        .filter((l) => sellerIds.includes(norm(textAt(l, `${lineSeller}/cac:PartyLegalEntity/cbc:CompanyID`))))
        .flatMap((l) => ownRefs(l).filter(isHeadRef));
    },
    (b, root) => {
      if (!special(root)) return true;
      const ids = invoiceIds(root);
      const count = mainSellerSubInvoices(root);
      const own = afl(lineOf(b));
      return count === 1 || (count === 0 && ids.includes(own)) || (count > 1 && ids.some((i) => i !== own));
    },
  );
  /** BR-FR-MV-11: lines of the main seller heading a sub-invoice of this invoice whose AFL number (type 130) is BT-1. */
  const mainSellerSubInvoices = perDocument((root: XmlElement) => {
    const ids = invoiceIds(root);
    const sellerIds = sel(root, `${SUPPLIER}/cac:PartyLegalEntity/cbc:CompanyID`).map(text);
    return line()(root).filter(
      (l) =>
        sellerIds.includes(norm(textAt(l, `${lineSeller}/cac:PartyLegalEntity/cbc:CompanyID`))) &&
        sel(l, 'cac:BillingReference')
          .filter(isHeadRef)
          .some((r) => sel(r, 'cac:InvoiceDocumentReference/cbc:ID').some((i) => ids.includes(text(i)))) &&
        withAttr(
          sel(l, 'cac:DocumentReference')
            .filter((d) => anyEquals(sel(d, 'cbc:DocumentTypeCode'), '130'))
            .flatMap((d) => sel(d, 'cbc:ID')),
          'schemeID',
          'AFL',
        ).some((a) => ids.includes(text(a))),
    ).length;
  });
  add(
    'BR-FR-MV-12_BT-128',
    'The sub-invoice numbers (BT-128, AFL) of the GROUP lines without parent must be unique.',
    (root) => (isUblRoot(root) ? [root] : []),
    (root) => {
      if (!special(root)) return true;
      const aflIdsOf = (l: XmlElement) =>
        withAttr(
          sel(l, 'cac:DocumentReference')
            .filter((d) => anyEquals(sel(d, 'cbc:DocumentTypeCode'), '130'))
            .flatMap((d) => sel(d, 'cbc:ID')),
          'schemeID',
          'AFL',
        );
      // Every AFL number of a type-130 document reference, in document order (the reference's preceding:: axis).
      const all = descendants(root, 'cac:DocumentReference')
        .filter((d) => anyEquals(sel(d, 'cbc:DocumentTypeCode'), '130'))
        .flatMap((d) => withAttr(sel(d, 'cbc:ID'), 'schemeID', 'AFL'));
      const heads = invoiceLines(root)
        .filter((l) => ownRefs(l).some(isHeadRef))
        .flatMap(aflIdsOf);
      return !repeatsEarlierValue(all, new Set(heads));
    },
  );
  const typeCodeCtx = (root: XmlElement) => [
    ...fromRoot(root, 'ubl:Invoice/cbc:InvoiceTypeCode'),
    ...fromRoot(root, 'cn:CreditNote/cbc:CreditNoteTypeCode'),
  ];
  add(
    'BR-FR-MV-13_BT-3',
    'With a framework S8, B8 or M8 the document type (BT-3) cannot be a self-billed type (389, 261, 501, 500, 502, 471, 473).',
    typeCodeCtx,
    (el, root) => !multiVendor(root) || (norm(text(el)) !== '' && !SELF_BILLED_TYPES.includes(norm(text(el)))),
  );
  add(
    'BR-FR-MV-BD_BT-3',
    'With a framework S9, B9 or M9 the document type (BT-3) must be a self-billed type (389, 261, 501, 500, 502, 471, 473).',
    typeCodeCtx,
    (el, root) => !bidir(root) || SELF_BILLED_TYPES.includes(norm(text(el))),
  );
  for (const [rule, types, applies] of [
    ['BR-FR-MV-14', ['384', '472', '381', '396', '503'], multiVendor],
    ['BR-FR-BD-14', ['261', '471', '473', '502'], bidir],
  ] as const) {
    const heads = (root: XmlElement) => (anyEquals(typeCodes(root), ...types) ? headRefs(root) : []);
    const precedingRefs = (b: XmlElement) => {
      const ids = invoiceIds(rootOf(b));
      return sel(lineOf(b), 'cac:BillingReference').filter((r) =>
        sel(r, 'cac:InvoiceDocumentReference/cbc:ID').some((i) => ids.some((o) => o !== text(i))),
      );
    };
    add(
      `${rule}-EXT-FR-FE-136`,
      'On a corrective invoice or credit note, each GROUP line without parent must reference the preceding invoice (EXT-FR-FE-136).',
      heads,
      (b, root) => !applies(root) || precedingRefs(b).some((r) => sel(r, 'cac:InvoiceDocumentReference/cbc:ID').length > 0),
    );
    add(
      `${rule}-EXT-FR-FE-138`,
      'On a corrective invoice or credit note, each GROUP line without parent must give the date of the preceding invoice (EXT-FR-FE-138).',
      heads,
      (b, root) => !applies(root) || precedingRefs(b).some((r) => sel(r, 'cac:InvoiceDocumentReference/cbc:IssueDate').length > 0),
    );
  }
  return rules;
}

/** Lines of a document by their cbc:ID, built once per document (sub-line rules look parents up for every line). */
const ublLineIndex = new PropertyMap<XmlElement, Map<string, XmlElement[]>>();
function ublLinesById(root: XmlElement): Map<string, XmlElement[]> {
  let index = ublLineIndex.get(root);
  if (!index) {
    index = new Map();
    for (const l of invoiceLines(root)) {
      for (const id of sel(l, 'cbc:ID')) {
        const list = index.get(text(id)) ?? [];
        list.push(l);
        index.set(text(id), list);
      }
    }
    ublLineIndex.set(root, index);
  }
  return index;
}

/** BR-FR-MV-01's context `cac:InvoiceLine|cac:CreditNoteLine` matches lines anywhere. */
function anywhereLines(root: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    if (is(e, 'cac:InvoiceLine') || is(e, 'cac:CreditNoteLine')) out.push(e);
    for (const c of e.children) walk(c);
  };
  walk(root);
  return out;
}

export const ublRules12: readonly FrAssert[] = releaseRules('1.2');
export const ublRules14: readonly FrAssert[] = releaseRules('1.4');
