/**
 * Code list rules BR-CL-*. The official artefacts test every element of a kind wherever it occurs
 * in the document (for instance every currencyID attribute in UBL, including ones the EN 16931
 * model does not carry), so these rules read the parsed document, per syntax, with the code lists
 * generated from the artefacts (src/rules/data/codelists.ts).
 */
import { UBL_AMOUNT_ELEMENTS } from '../../syntax/ubl/amounts.js';
import { attr, pathOf, type XmlElement } from '../../xml/dom.js';
import { codeSet, CODELISTS } from '../data/codelists.js';
import type { RuleContext, Violation } from '../types.js';
import { NO_VIOLATIONS, descendants, type RuleDef } from './helpers.js';

type Syntax = 'cii' | 'ubl';

const parentIs = (el: XmlElement, local: string) => el.parent?.local === local;
const hasAncestor = (el: XmlElement, local: string) => {
  for (let p = el.parent; p; p = p.parent) if (p.local === local) return true;
  return false;
};
const childText = (el: XmlElement | null | undefined, local: string) => el?.children.find((c) => c.local === local)?.text.trim();

/** XPath boolean cast of an indicator's text; undefined when it is not a boolean. */
function indicator(text: string | undefined): boolean | undefined {
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return undefined;
}
const ciiChargeIndicator = (ac: XmlElement | null) =>
  indicator(
    ac?.children
      .find((c) => c.local === 'ChargeIndicator')
      ?.children.find((c) => c.local === 'Indicator')
      ?.text.trim(),
  );
const ublChargeIndicator = (ac: XmlElement | null) => indicator(childText(ac, 'ChargeIndicator'));

/** What one code list rule looks at: the value to test on a matching element (undefined = not matched), as written. */
type Pick = (el: XmlElement) => string | undefined;
const text: (el: XmlElement) => string = (el) => el.text;

/** XPath normalize-space(): only space, tab, CR and LF are whitespace (a no-break space is not). */
export function normalizeSpace(s: string): string {
  return s.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '');
}

/**
 * How the artefact compares a value with its list (EN16931-CII-codes.sch / EN16931-UBL-codes.sch 1.3.16):
 * - `space` (nearly all): normalize-space(value) is one token of the list;
 * - `upper` (BR-CL-22, VATEX): normalize-space(upper-case(value)), so `vatex-eu-132-1g` is accepted;
 * - `exact` (BR-CL-24, MIME codes): `@mimeCode = '…'` comparisons, no normalisation at all.
 */
type Normalisation = 'space' | 'upper' | 'exact';
const NORMALISE: Record<Normalisation, (v: string) => string> = {
  space: normalizeSpace,
  upper: (v) => normalizeSpace(v.toUpperCase()),
  exact: (v) => v,
};
const attribute = (name: string) => (el: XmlElement) => attr(el, name);

/** The codes a rule accepts in one syntax: its list, and each of its alternative lists (BR-CL-01: invoice, credit note). */
interface Accepting {
  codes: ReadonlySet<string>;
  lists: readonly ReadonlySet<string>[];
}

interface CodeRuleSpec {
  id: string;
  /** Local names of the elements the rule can match, per syntax (so only those are visited). */
  locals: { cii: string[]; ubl: string[] };
  message: string;
  cii?: Pick;
  ubl?: Pick;
  /** Accept the (normalised) value given the element (defaults to membership in the rule's list). */
  ublAccept?: (el: XmlElement, value: string, accepting: Accepting) => boolean;
  /** How the value is normalised before the comparison (default `space`). */
  normalise?: Normalisation;
}

const UBL_AMOUNTS = new Set(UBL_AMOUNT_ELEMENTS);

const specs: CodeRuleSpec[] = [
  {
    id: 'BR-CL-01',
    locals: { cii: ['TypeCode'], ubl: ['InvoiceTypeCode', 'CreditNoteTypeCode'] },
    message: 'The invoice type code (BT-3) must be a code of UNTDID 1001 accepted by EN 16931.',
    cii: (el) => (el.local === 'TypeCode' && parentIs(el, 'ExchangedDocument') ? text(el) : undefined),
    ubl: (el) => (el.local === 'InvoiceTypeCode' || el.local === 'CreditNoteTypeCode' ? text(el) : undefined),
    ublAccept: (el, v, accepting) => accepting.lists[el.local === 'InvoiceTypeCode' ? 0 : 1].has(v),
  },
  {
    id: 'BR-CL-03',
    locals: {
      cii: ['TaxTotalAmount'],
      ubl: [
        'Amount',
        'BaseAmount',
        'PriceAmount',
        'TaxAmount',
        'TaxableAmount',
        'LineExtensionAmount',
        'TaxExclusiveAmount',
        'TaxInclusiveAmount',
        'AllowanceTotalAmount',
        'ChargeTotalAmount',
        'PrepaidAmount',
        'PayableRoundingAmount',
        'PayableAmount',
      ],
    },
    message: 'The currency identifier of an amount must be an ISO 4217 code.',
    cii: (el) => (el.local === 'TaxTotalAmount' ? attr(el, 'currencyID') : undefined),
    // UBL tests every amount element, so a missing currencyID fails too.
    ubl: (el) => (UBL_AMOUNTS.has(el.local) ? (attr(el, 'currencyID') ?? '') : undefined),
  },
  {
    id: 'BR-CL-04',
    locals: { cii: ['InvoiceCurrencyCode'], ubl: ['DocumentCurrencyCode'] },
    message: 'The invoice currency code (BT-5) must be an ISO 4217 code.',
    cii: (el) => (el.local === 'InvoiceCurrencyCode' ? text(el) : undefined),
    ubl: (el) => (el.local === 'DocumentCurrencyCode' ? text(el) : undefined),
  },
  {
    id: 'BR-CL-05',
    locals: { cii: ['TaxCurrencyCode'], ubl: ['TaxCurrencyCode'] },
    message: 'The VAT accounting currency code (BT-6) must be an ISO 4217 code.',
    cii: (el) => (el.local === 'TaxCurrencyCode' ? text(el) : undefined),
    ubl: (el) => (el.local === 'TaxCurrencyCode' ? text(el) : undefined),
  },
  {
    id: 'BR-CL-06',
    locals: { cii: ['DueDateTypeCode'], ubl: ['DescriptionCode'] },
    message: 'The VAT point date code (BT-8) must be a code of UNTDID 2005 accepted by EN 16931.',
    cii: (el) => (el.local === 'DueDateTypeCode' ? text(el) : undefined),
    ubl: (el) => (el.local === 'DescriptionCode' && parentIs(el, 'InvoicePeriod') ? text(el) : undefined),
  },
  {
    id: 'BR-CL-07',
    locals: { cii: ['ReferenceTypeCode'], ubl: ['ID'] },
    message: 'The scheme of an invoiced object identifier (BT-18) must be a code of UNTDID 1153.',
    cii: (el) => (el.local === 'ReferenceTypeCode' ? text(el) : undefined),
    ubl: (el) =>
      el.local === 'ID' &&
      (parentIs(el, 'AdditionalDocumentReference') || parentIs(el, 'DocumentReference')) &&
      childText(el.parent, 'DocumentTypeCode') === '130'
        ? attr(el, 'schemeID')
        : undefined,
  },
  {
    id: 'BR-CL-08',
    locals: { cii: ['SubjectCode'], ubl: ['Note'] },
    message: 'An invoice note subject code (BT-21) must be a code of UNTDID 4451.',
    cii: (el) => (el.local === 'SubjectCode' ? text(el) : undefined),
    ubl: (el) => {
      if (el.local !== 'Note' || el.parent?.parent !== null) return undefined;
      // UBL writes the subject code as "#CODE#note text".
      const m = /^#([^#]*)#/.exec(el.text);
      return m ? m[1] : undefined;
    },
  },
  {
    id: 'BR-CL-10',
    locals: { cii: ['GlobalID'], ubl: ['ID'] },
    message: 'The scheme of an identifier must be an ISO 6523 ICD code.',
    cii: (el) =>
      el.local === 'GlobalID' && !hasAncestor(el, 'SpecifiedTradeProduct') && !hasAncestor(el, 'ShipToTradeParty')
        ? attr(el, 'schemeID')
        : undefined,
    ubl: (el) => (el.local === 'ID' && parentIs(el, 'PartyIdentification') ? attr(el, 'schemeID') : undefined),
    ublAccept: (el, v, accepting) =>
      accepting.lists[0].has(v) || (v === 'SEPA' && (hasAncestor(el, 'AccountingSupplierParty') || hasAncestor(el, 'PayeeParty'))),
  },
  {
    id: 'BR-CL-11',
    locals: { cii: ['ID'], ubl: ['CompanyID'] },
    message: 'The scheme of a legal registration identifier must be an ISO 6523 ICD code.',
    cii: (el) => (el.local === 'ID' && !hasAncestor(el, 'SpecifiedTaxRegistration') ? attr(el, 'schemeID') : undefined),
    ubl: (el) => (el.local === 'CompanyID' && parentIs(el, 'PartyLegalEntity') ? attr(el, 'schemeID') : undefined),
  },
  {
    id: 'BR-CL-13',
    locals: { cii: ['ClassCode'], ubl: ['ItemClassificationCode'] },
    message: 'The scheme of an item classification identifier (BT-158) must be a code of UNTDID 7143.',
    cii: (el) => (el.local === 'ClassCode' ? attr(el, 'listID') : undefined),
    ubl: (el) => (el.local === 'ItemClassificationCode' && parentIs(el, 'CommodityClassification') ? attr(el, 'listID') : undefined),
  },
  {
    id: 'BR-CL-14',
    locals: { cii: ['CountryID'], ubl: ['IdentificationCode'] },
    message: 'A country code must be an ISO 3166-1 alpha-2 code.',
    cii: (el) => (el.local === 'CountryID' ? text(el) : undefined),
    ubl: (el) => (el.local === 'IdentificationCode' && parentIs(el, 'Country') ? text(el) : undefined),
  },
  {
    id: 'BR-CL-15',
    locals: { cii: ['ID'], ubl: ['IdentificationCode'] },
    message: 'The item country of origin (BT-159) must be an ISO 3166-1 alpha-2 code.',
    cii: (el) => (el.local === 'ID' && parentIs(el, 'OriginTradeCountry') ? text(el) : undefined),
    ubl: (el) => (el.local === 'IdentificationCode' && parentIs(el, 'OriginCountry') ? text(el) : undefined),
  },
  {
    id: 'BR-CL-16',
    locals: { cii: ['TypeCode'], ubl: ['PaymentMeansCode'] },
    message: 'The payment means code (BT-81) must be a code of UNTDID 4461.',
    cii: (el) => (el.local === 'TypeCode' && parentIs(el, 'SpecifiedTradeSettlementPaymentMeans') ? text(el) : undefined),
    ubl: (el) => (el.local === 'PaymentMeansCode' && parentIs(el, 'PaymentMeans') ? text(el) : undefined),
  },
  {
    id: 'BR-CL-17',
    locals: { cii: ['CategoryCode'], ubl: ['ID'] },
    message: 'A VAT category code must be one of the UNTDID 5305 codes accepted by EN 16931.',
    cii: (el) => (el.local === 'CategoryCode' && parentIs(el, 'CategoryTradeTax') ? text(el) : undefined),
    ubl: (el) => (el.local === 'ID' && parentIs(el, 'TaxCategory') ? text(el) : undefined),
  },
  {
    id: 'BR-CL-18',
    locals: { cii: ['CategoryCode'], ubl: ['ID'] },
    message: 'An invoiced item VAT category code must be one of the UNTDID 5305 codes accepted by EN 16931.',
    cii: (el) => (el.local === 'CategoryCode' && parentIs(el, 'ApplicableTradeTax') ? text(el) : undefined),
    ubl: (el) => (el.local === 'ID' && parentIs(el, 'ClassifiedTaxCategory') ? text(el) : undefined),
  },
  {
    id: 'BR-CL-19',
    locals: { cii: ['ReasonCode'], ubl: ['AllowanceChargeReasonCode'] },
    message: 'An allowance reason code must be a code of UNTDID 5189.',
    cii: (el) =>
      el.local === 'ReasonCode' && parentIs(el, 'SpecifiedTradeAllowanceCharge') && ciiChargeIndicator(el.parent) === false
        ? text(el)
        : undefined,
    ubl: (el) =>
      el.local === 'AllowanceChargeReasonCode' && parentIs(el, 'AllowanceCharge') && ublChargeIndicator(el.parent) === false
        ? text(el)
        : undefined,
  },
  {
    id: 'BR-CL-20',
    locals: { cii: ['ReasonCode'], ubl: ['AllowanceChargeReasonCode'] },
    message: 'A charge reason code must be a code of UNTDID 7161.',
    cii: (el) =>
      el.local === 'ReasonCode' && parentIs(el, 'SpecifiedTradeAllowanceCharge') && ciiChargeIndicator(el.parent) === true
        ? text(el)
        : undefined,
    ubl: (el) =>
      el.local === 'AllowanceChargeReasonCode' && parentIs(el, 'AllowanceCharge') && ublChargeIndicator(el.parent) === true
        ? text(el)
        : undefined,
  },
  {
    id: 'BR-CL-21',
    locals: { cii: ['GlobalID'], ubl: ['ID'] },
    message: 'The scheme of an item standard identifier (BT-157) must be an ISO 6523 ICD code.',
    cii: (el) => (el.local === 'GlobalID' && parentIs(el, 'SpecifiedTradeProduct') ? attr(el, 'schemeID') : undefined),
    ubl: (el) => (el.local === 'ID' && parentIs(el, 'StandardItemIdentification') ? attr(el, 'schemeID') : undefined),
  },
  {
    id: 'BR-CL-22',
    locals: { cii: ['ExemptionReasonCode'], ubl: ['TaxExemptionReasonCode'] },
    message: 'A VAT exemption reason code (BT-121) must be a VATEX code.',
    // Both artefacts upper-case the value before the comparison: VATEX codes are case-insensitive.
    cii: (el) => (el.local === 'ExemptionReasonCode' ? text(el) : undefined),
    ubl: (el) => (el.local === 'TaxExemptionReasonCode' ? text(el) : undefined),
    normalise: 'upper',
  },
  {
    id: 'BR-CL-23',
    locals: { cii: ['BasisQuantity', 'BilledQuantity'], ubl: ['InvoicedQuantity', 'BaseQuantity', 'CreditedQuantity'] },
    message: 'A unit of measure must be a code of UN/ECE Recommendation 20 or 21.',
    cii: (el) => (el.local === 'BasisQuantity' || el.local === 'BilledQuantity' ? attr(el, 'unitCode') : undefined),
    ubl: (el) =>
      el.local === 'InvoicedQuantity' || el.local === 'BaseQuantity' || el.local === 'CreditedQuantity' ? attr(el, 'unitCode') : undefined,
  },
  {
    id: 'BR-CL-24',
    locals: { cii: ['AttachmentBinaryObject'], ubl: ['EmbeddedDocumentBinaryObject'] },
    message: 'The MIME code of an attached document (BT-125) must be one of the accepted media types.',
    cii: (el) => (el.local === 'AttachmentBinaryObject' ? attr(el, 'mimeCode') : undefined),
    ubl: (el) => (el.local === 'EmbeddedDocumentBinaryObject' ? attr(el, 'mimeCode') : undefined),
    normalise: 'exact',
  },
  {
    id: 'BR-CL-25',
    locals: { cii: ['URIID'], ubl: ['EndpointID'] },
    message: 'The scheme of an electronic address must be a code of the CEF EAS list.',
    cii: (el) => (el.local === 'URIID' && parentIs(el, 'URIUniversalCommunication') ? attr(el, 'schemeID') : undefined),
    ubl: (el) => (el.local === 'EndpointID' ? attr(el, 'schemeID') : undefined),
  },
  {
    id: 'BR-CL-26',
    locals: { cii: ['GlobalID'], ubl: ['ID'] },
    message: 'The scheme of a delivery location identifier (BT-71) must be an ISO 6523 ICD code.',
    cii: (el) =>
      el.local === 'GlobalID' && parentIs(el, 'ShipToTradeParty') && el.parent?.parent?.local === 'ApplicableHeaderTradeDelivery'
        ? attr(el, 'schemeID')
        : undefined,
    ubl: (el) => (el.local === 'ID' && parentIs(el, 'DeliveryLocation') ? attr(el, 'schemeID') : undefined),
  },
];

/** A rule's accepted codes per syntax; undefined when that syntax's artefact has no list for the rule. */
type Accepted = Record<Syntax, Accepting | undefined>;

/**
 * The codes a release's artefact accepts for a rule in a syntax: its list, or with `listIndex` one of its alternative
 * lists; undefined when the artefact has no list for the rule.
 */
export type CodeListSource = (syntax: Syntax, id: string, listIndex?: number) => ReadonlySet<string> | undefined;

/** The bundled artefacts' lists (1.3.16, src/rules/data/codelists.ts). */
export const bundledCodeLists: CodeListSource = (syntax, id, listIndex) => {
  const set = `en16931-${syntax}`;
  const entry = CODELISTS[set]?.[id];
  if (!entry || (listIndex !== undefined && !entry.lists?.[listIndex])) return undefined;
  return codeSet(set, id, listIndex);
};

function acceptedCodes(id: string, source: CodeListSource): Accepted {
  const of = (syntax: Syntax): Accepting | undefined => {
    const codes = source(syntax, id);
    if (!codes) return undefined;
    const lists: ReadonlySet<string>[] = [];
    for (let i = 0; ; i++) {
      const list = source(syntax, id, i);
      if (!list) break;
      lists.push(list);
    }
    return { codes, lists };
  };
  return { cii: of('cii'), ubl: of('ubl') };
}

function checkCodes(spec: CodeRuleSpec, accepted: Accepted, ctx: RuleContext): readonly Violation[] {
  const { doc, syntax } = ctx;
  const pick = syntax === 'cii' ? spec.cii : spec.ubl;
  if (!pick || !doc) return NO_VIOLATIONS;
  const accepting = accepted[syntax as Syntax];
  if (!accepting) return NO_VIOLATIONS;
  const set = accepting.codes;
  let out: Violation[] | undefined;
  const normalise = NORMALISE[spec.normalise ?? 'space'];
  const locals = spec.locals[syntax];
  for (let k = 0; k < locals.length; k++) {
    const elements = descendants(ctx, locals[k]);
    for (let i = 0; i < elements.length; i++) {
      const el = elements[i];
      const value = pick(el);
      if (value === undefined) continue;
      const v = normalise(value);
      const ok = syntax === 'ubl' && spec.ublAccept ? spec.ublAccept(el, v, accepting) : set.has(v);
      if (!ok) (out ??= []).push({ location: pathOf(el), message: `${spec.message} "${value}" is not one.` });
    }
  }
  return out ?? NO_VIOLATIONS;
}

/** The BR-CL rules with the lists of a release's artefacts (src/rules/en16931/ubl-releases.ts builds the older ones). */
export function buildCodeListRules(source: CodeListSource = bundledCodeLists): RuleDef[] {
  return specs.map((s) => {
    // Resolved once, not per document: the lookup built a key string per call.
    const accepted = acceptedCodes(s.id, source);
    return { id: s.id, message: s.message, check: (ctx) => checkCodes(s, accepted, ctx) };
  });
}

export const codeListRules: RuleDef[] = buildCodeListRules();
