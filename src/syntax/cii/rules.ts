/**
 * EN 16931 syntax binding rules for UN/CEFACT CII D16B (CII-SR-*, CII-DT-*), rule set
 * `en16931-cii`, as in the CEN/TC 434 validation artefacts 1.3.16.
 *
 * Most rules are table data (./rules-table.ts); the ones with conditions are written below. All
 * of them are evaluated in one pass per document (see ../syntax-table.ts).
 */
import type { XmlElement } from '../../xml/dom.js';
import type { Rule, Severity } from '../../rules/types.js';
import {
  anyValueIs,
  countPath,
  compileSyntaxRules,
  countChildren,
  someChild,
  evaluateSyntaxRules,
  hasAttr,
  kids,
  elementsNamed,
  existsPath,
  normalizeSpace,
  parseRuleTable,
  selectPath,
  stringValue,
  toRules,
  type CompiledSyntaxRules,
  type CustomRule,
  type DocIndex,
  type Step,
  type SyntaxResult,
  type TableRule,
  type TopDownClassifier,
} from '../syntax-table.js';
import { CII_RULE_TABLE } from './rules-table.js';
import type { XmlDoc } from '../../xml/dom.js';
import { NS } from '../../xml/namespaces.js';
import { perDocument } from '../../util/property-map.js';

export const CII_RULE_SET = 'en16931-cii';

export const NS_RSM = NS.rsm;
export const NS_RAM = NS.ram;
export const NS_UDT = NS.udt;
export const NS_QDT = NS.qdt;

const is = (el: XmlElement | null, ns: string, local: string): boolean => !!el && el.local === local && el.ns === ns;
const isRam = (el: XmlElement | null, local: string): boolean => is(el, NS_RAM, local);

function isRoot(el: XmlElement | null): boolean {
  return !!el && el.parent === null && is(el, NS_RSM, 'CrossIndustryInvoice');
}
function isTransaction(el: XmlElement | null): boolean {
  return !!el && is(el, NS_RSM, 'SupplyChainTradeTransaction') && isRoot(el.parent);
}
function isLine(el: XmlElement | null): boolean {
  return !!el && isRam(el, 'IncludedSupplyChainTradeLineItem') && isTransaction(el.parent);
}
function isDocContext(el: XmlElement | null): boolean {
  return !!el && is(el, NS_RSM, 'ExchangedDocumentContext') && isRoot(el.parent);
}
function isExchangedDoc(el: XmlElement | null): boolean {
  return !!el && is(el, NS_RSM, 'ExchangedDocument') && isRoot(el.parent);
}
function isLineChild(el: XmlElement | null, local: string): boolean {
  return !!el && isRam(el, local) && isLine(el.parent);
}
function isHeader(el: XmlElement | null, local: string): boolean {
  return !!el && isRam(el, local) && isTransaction(el.parent);
}

/** The four identifiers the binding wants without any attribute (BT-24, BT-1, BT-126, BT-155). */
function isBareId(el: XmlElement): boolean {
  const p = el.parent;
  if (!p) return false;
  if (el.local === 'ID') {
    return (isRam(p, 'GuidelineSpecifiedDocumentContextParameter') && isDocContext(p.parent)) || isExchangedDoc(p);
  }
  if (el.local === 'LineID') return isLineChild(p, 'AssociatedDocumentLineDocument');
  if (el.local === 'SellerAssignedID') return isLineChild(p, 'SpecifiedTradeProduct');
  return false;
}

type Placer = (el: XmlElement) => string | undefined;
const when =
  (test: (parent: XmlElement | null) => boolean, context: string): Placer =>
  (el) =>
    test(el.parent) ? context : undefined;

/** ram elements whose context is given by their name (and, for most, their place). */
const RAM_BY_NAME = new Map<string, Placer>([
  ['IncludedSupplyChainTradeLineItem', when(isTransaction, 'LI')],
  ['AssociatedDocumentLineDocument', when(isLine, 'LDOC')],
  ['SpecifiedTradeProduct', when(isLine, 'PROD')],
  ['SpecifiedLineTradeAgreement', when(isLine, 'LAGR')],
  ['SpecifiedLineTradeDelivery', when(isLine, 'LDEL')],
  ['SpecifiedLineTradeSettlement', when(isLine, 'LSET')],
  ['ApplicableHeaderTradeAgreement', when(isTransaction, 'HAGR')],
  ['ApplicableHeaderTradeDelivery', when(isTransaction, 'HDEL')],
  ['ApplicableHeaderTradeSettlement', when(isTransaction, 'HSET')],
  ['IncludedNote', when(isExchangedDoc, 'EDN')],
  ['ApplicableProductCharacteristic', when((p) => isLineChild(p, 'SpecifiedTradeProduct'), 'PCHAR')],
  ['SpecifiedTradeSettlementHeaderMonetarySummation', when((p) => isHeader(p, 'ApplicableHeaderTradeSettlement'), 'SUM')],
  ['CategoryCode', when((p) => isRam(p, 'ApplicableTradeTax') && isLineChild(p!.parent, 'SpecifiedLineTradeSettlement'), 'CATC')],
  ['SpecifiedTradeAllowanceCharge', () => 'STAC'],
  ['AppliedTradeAllowanceCharge', when((p) => isRam(p, 'GrossPriceProductTradePrice'), 'GPAC')],
  ['SpecifiedTradeSettlementPaymentMeans', () => 'PM'],
  ['BillingSpecifiedPeriod', () => 'BSP'],
  ['PostalTradeAddress', () => 'PTA'],
  ['TypeCode', () => 'TCANY'],
]);

/** ram elements whose context is given by the end of their name (the artefact's ends-with(name(), ...)). */
function ramBySuffix(el: XmlElement): string | undefined {
  const local = el.local;
  if (local.endsWith('ID')) return isBareId(el) ? 'IDX' : 'IDANY';
  if (local.endsWith('ReferencedDocument')) return 'REFDOC';
  if (local.endsWith('Amount')) return local === 'TaxTotalAmount' ? undefined : 'AMT';
  if (local.endsWith('Quantity')) return 'QTY';
  if (local.endsWith('TradeTax')) return 'TT';
  if (local.endsWith('DocumentContextParameter')) return 'DCP';
  return undefined;
}

/**
 * Which syntax-rule context an element is. Within the official syntax pattern an element is
 * handled by the first rule whose context matches it; the only overlaps are the four bare
 * identifiers (their own rule comes before the rule for all identifiers) and the invoice type code
 * (the rule for all type codes comes first, so the type-code-without-attributes rule never runs).
 */
export function classifyCii(el: XmlElement): string | undefined {
  if (el.ns === NS_RAM) {
    const byName = RAM_BY_NAME.get(el.local);
    return (byName && byName(el)) ?? ramBySuffix(el);
  }
  if (el.ns === NS_RSM) {
    if (isRoot(el)) return 'ROOT';
    if (isDocContext(el)) return 'DC';
    if (isExchangedDoc(el)) return 'ED';
  } else if (el.ns === NS_UDT && el.local === 'DateTimeString') {
    for (const a of el.attrs) if (a.local === 'format' && a.ns === '' && a.value === '102') return 'DTS';
    return undefined;
  }
  return el.local.endsWith('DocumentContextParameter') ? 'DCP' : undefined;
}

// ---------------------------------------------------------------------------------------------
// The same classification top-down (what indexing uses): the ancestor tests above become the
// parent's role, so each element costs one name lookup. classifyCii stays the reference; the tests
// check that both agree on every element of the corpus.

/** The structural facts classifyCii asks of an element's ancestors. */
type Role =
  | 'document'
  | 'root'
  | 'transaction'
  | 'docContext'
  | 'exchangedDoc'
  | 'guideline'
  | 'line'
  | 'lineDoc'
  | 'product'
  | 'lineSettlement'
  | 'lineTax'
  | 'headerSettlement'
  | 'grossPrice'
  | 'other';

interface CiiState {
  readonly role: Role;
  readonly context: string | undefined;
}

/** States are shared constants: one per role with a fixed context, one per context for the others. */
const roleState = (role: Role, context: string | undefined): CiiState => ({ role, context });
const DOCUMENT = roleState('document', undefined);
const ROOT = roleState('root', 'ROOT');
const TRANSACTION = roleState('transaction', undefined);
const DOC_CONTEXT = roleState('docContext', 'DC');
const EXCHANGED_DOC = roleState('exchangedDoc', 'ED');
const GUIDELINE = roleState('guideline', 'DCP');
const LINE = roleState('line', 'LI');
const LINE_DOC = roleState('lineDoc', 'LDOC');
const PRODUCT = roleState('product', 'PROD');
const LINE_SETTLEMENT = roleState('lineSettlement', 'LSET');
const LINE_TAX = roleState('lineTax', 'TT');
const HEADER_SETTLEMENT = roleState('headerSettlement', 'HSET');
const GROSS_PRICE = roleState('grossPrice', undefined);
const OTHER = new Map<string | undefined, CiiState>();
function other(context: string | undefined): CiiState {
  let state = OTHER.get(context);
  if (!state) OTHER.set(context, (state = roleState('other', context)));
  return state;
}

/** A ram name's placement rule (RAM_BY_NAME), as the parent role it needs and the state it gives. */
interface Placement {
  /** Parent role required; undefined: any parent. */
  parent?: Role;
  state: CiiState;
}

const RAM_PLACEMENT = new Map<string, Placement>([
  ['IncludedSupplyChainTradeLineItem', { parent: 'transaction', state: LINE }],
  ['AssociatedDocumentLineDocument', { parent: 'line', state: LINE_DOC }],
  ['SpecifiedTradeProduct', { parent: 'line', state: PRODUCT }],
  ['SpecifiedLineTradeAgreement', { parent: 'line', state: other('LAGR') }],
  ['SpecifiedLineTradeDelivery', { parent: 'line', state: other('LDEL') }],
  ['SpecifiedLineTradeSettlement', { parent: 'line', state: LINE_SETTLEMENT }],
  ['ApplicableHeaderTradeAgreement', { parent: 'transaction', state: other('HAGR') }],
  ['ApplicableHeaderTradeDelivery', { parent: 'transaction', state: other('HDEL') }],
  ['ApplicableHeaderTradeSettlement', { parent: 'transaction', state: HEADER_SETTLEMENT }],
  ['IncludedNote', { parent: 'exchangedDoc', state: other('EDN') }],
  ['ApplicableProductCharacteristic', { parent: 'product', state: other('PCHAR') }],
  ['SpecifiedTradeSettlementHeaderMonetarySummation', { parent: 'headerSettlement', state: other('SUM') }],
  ['CategoryCode', { parent: 'lineTax', state: other('CATC') }],
  ['SpecifiedTradeAllowanceCharge', { state: other('STAC') }],
  ['AppliedTradeAllowanceCharge', { parent: 'grossPrice', state: other('GPAC') }],
  ['SpecifiedTradeSettlementPaymentMeans', { state: other('PM') }],
  ['BillingSpecifiedPeriod', { state: other('BSP') }],
  ['PostalTradeAddress', { state: other('PTA') }],
  ['TypeCode', { state: other('TCANY') }],
]);

/** What a ram element's name alone says (computed once per distinct name of a document). */
interface RamName {
  placement: Placement | undefined;
  /** ramBySuffix's answer for names not ending in "ID". */
  bySuffix: CiiState;
  endsWithId: boolean;
  local: string;
}

function ramName(local: string): RamName {
  const placement = RAM_PLACEMENT.get(local);
  const endsWithId = local.endsWith('ID');
  let context: string | undefined;
  if (!endsWithId) {
    if (local.endsWith('ReferencedDocument')) context = 'REFDOC';
    else if (local.endsWith('Amount')) context = local === 'TaxTotalAmount' ? undefined : 'AMT';
    else if (local.endsWith('Quantity')) context = 'QTY';
    else if (local.endsWith('TradeTax')) context = 'TT';
    else if (local.endsWith('DocumentContextParameter')) context = 'DCP';
  }
  return { placement, bySuffix: other(context), endsWithId, local };
}

/**
 * What each ram name says, shared by all documents: the parser interns names, so a hit is an identity
 * test (a Map per document was ~7 KB of garbage per invoice). Bounded, since names come from documents:
 * when full it starts over, so a document of made-up names cannot keep the real ones out for good.
 */
const RAM_NAMES = new Map<string, RamName>();
const MAX_RAM_NAMES = 2048;

function ramNameOf(local: string): RamName {
  let name = RAM_NAMES.get(local);
  if (!name) {
    name = ramName(local);
    if (RAM_NAMES.size >= MAX_RAM_NAMES) RAM_NAMES.clear();
    RAM_NAMES.set(local, name);
  }
  return name;
}

/** The state of a ram element whose placement rule did not apply. */
function ramUnplaced(name: RamName, parent: CiiState): CiiState {
  const local = name.local;
  if (name.endsWithId) {
    const bare =
      local === 'ID'
        ? parent.role === 'guideline' || parent.role === 'exchangedDoc'
        : local === 'LineID'
          ? parent.role === 'lineDoc'
          : local === 'SellerAssignedID' && parent.role === 'product';
    return other(bare ? 'IDX' : 'IDANY');
  }
  if (local === 'ApplicableTradeTax' && parent.role === 'lineSettlement') return LINE_TAX;
  if (local === 'GrossPriceProductTradePrice') return GROSS_PRICE;
  return name.bySuffix;
}

const NO_CONTEXT = other(undefined);
const DCP_ONLY = other('DCP');

export const CII_TOP_DOWN: TopDownClassifier = {
  documentState: DOCUMENT,
  forDocument() {
    // Per document: its namespace strings once recognised (then an identity test per element).
    let ramNs: string | undefined;
    let rsmNs: string | undefined;
    return (el, parentState) => {
      const parent = parentState as CiiState;
      const ns = el.ns;
      if (ns === ramNs || (ns === NS_RAM && (ramNs = ns) !== undefined)) {
        const name = ramNameOf(el.local);
        const p = name.placement;
        if (p && (p.parent === undefined || p.parent === parent.role)) return p.state;
        if (name.local === 'GuidelineSpecifiedDocumentContextParameter' && parent.role === 'docContext') return GUIDELINE;
        return ramUnplaced(name, parent);
      }
      const local = el.local;
      if (ns === rsmNs || (ns === NS_RSM && (rsmNs = ns) !== undefined)) {
        if (parent.role === 'document' && local === 'CrossIndustryInvoice') return ROOT;
        if (parent.role === 'root') {
          if (local === 'SupplyChainTradeTransaction') return TRANSACTION;
          if (local === 'ExchangedDocumentContext') return DOC_CONTEXT;
          if (local === 'ExchangedDocument') return EXCHANGED_DOC;
        }
      } else if (ns === NS_UDT && local === 'DateTimeString') {
        for (const a of el.attrs) if (a.local === 'format' && a.ns === '' && a.value === '102') return other('DTS');
        return NO_CONTEXT;
      }
      return local.endsWith('DocumentContextParameter') ? DCP_ONLY : NO_CONTEXT;
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Rules with conditions.

const ram = (...locals: string[]): Step[] => locals.map((local) => ({ ns: NS_RAM, local }));
/** Step arrays of `a/b/c` ram paths, built once per distinct path. */
const stepCache = new Map<string, Step[]>();
function ramPath(path: string): Step[] {
  let steps = stepCache.get(path);
  if (!steps) stepCache.set(path, (steps = ram(...path.split('/'))));
  return steps;
}
const has = (el: XmlElement, path: string): boolean => existsPath(el, ramPath(path));
const count = (el: XmlElement, path: string): number => countPath(el, { steps: ramPath(path) });

/** XPath `udt:Indicator = false()`: the indicator's text cast to a boolean is false. */
function indicatorIsFalse(chargeIndicator: XmlElement): boolean {
  return someChild(chargeIndicator, NS_UDT, 'Indicator', (ind) => {
    const v = stringValue(ind).trim();
    return v === 'false' || v === '0';
  });
}

/** Party has both an identifier and a global identifier (the binding wants one of them). */
const bothPartyIds = (party: string) => (node: XmlElement) => has(node, `${party}/ID`) && has(node, `${party}/GlobalID`);

/**
 * CII-SR-462 asks a question about the whole document per settlement: answered once per document (3,000
 * duplicated settlements made it 3,000 walks over every ApplicableTradeTax).
 */
const vatPointCodesDiffer = perDocument(
  (index: DocIndex) => new Set(valuesAnywhere(index, 'ApplicableTradeTax', 'DueDateTypeCode')).size > 1,
);

/** All values of a path, document-wide through the name index (`//a/b`). */
function valuesAnywhere(index: DocIndex, parent: string, child: string): string[] {
  const out: string[] = [];
  for (const p of elementsNamed(index, NS_RAM, parent)) for (const c of kids(p, NS_RAM, child)) out.push(stringValue(c));
  return out;
}

/** `count(//X[normalize-space(.) != normalize-space((//X)[1])]) = 0`: all occurrences agree. */
function allAgreeNormalized(values: string[]): boolean {
  if (values.length < 2) return true;
  const first = normalizeSpace(values[0]);
  return values.every((v) => normalizeSpace(v) === first);
}

function typeCodeNormalizedIs(doc: XmlElement, value: string): boolean {
  return someChild(doc, NS_RAM, 'TypeCode', (t) => normalizeSpace(stringValue(t)) === value);
}

function countDocsOfType(node: XmlElement, child: string | null, typeCode: string, normalized: boolean): number {
  let n = 0;
  for (const d of node.children) {
    if (d.local !== 'AdditionalReferencedDocument' || d.ns !== NS_RAM) continue;
    const match = normalized ? typeCodeNormalizedIs(d, typeCode) : anyValueIs(d, ramPath('TypeCode'), typeCode);
    if (!match) continue;
    n += child === null ? 1 : countChildren(d, NS_RAM, child);
  }
  return n;
}

const isAdditionalDoc = (n: XmlElement): boolean => isRam(n, 'AdditionalReferencedDocument');
const refDocTypeIs = (n: XmlElement, ...codes: string[]): boolean => codes.some((c) => anyValueIs(n, ramPath('TypeCode'), c));
const insideHeaderSettlement = (n: XmlElement): boolean => {
  for (let p = n.parent; p; p = p.parent) if (isRam(p, 'ApplicableHeaderTradeSettlement')) return true;
  return false;
};

/** XPath `\d` is any Unicode decimal digit. */
const DATE_102 = /^[ \t\r\n]*(\p{Nd}{4})(1[0-2]|0[1-9])(3[01]|[12][0-9]|0[1-9])[ \t\r\n]*$/u;

export const CII_CUSTOM_RULES: CustomRule[] = [
  {
    id: 'CII-SR-046',
    context: 'PROD',
    fails: (n) => someChild(n, NS_RAM, 'GlobalID') && !someChild(n, NS_RAM, 'GlobalID', (g) => hasAttr(g, 'schemeID')),
    message: 'The item standard identifier (BT-157) needs a scheme identifier (@schemeID).',
  },
  {
    id: 'CII-SR-090',
    context: 'PROD',
    fails: (n) => has(n, 'OriginTradeCountry') && count(n, 'OriginTradeCountry/ID') !== 1,
    message: 'An item country of origin (BT-159) group must hold exactly one country identifier.',
  },
  {
    id: 'CII-SR-119',
    context: 'LAGR',
    fails: (n) => {
      const indicators = selectPath(n, ramPath('GrossPriceProductTradePrice/AppliedTradeAllowanceCharge/ChargeIndicator'));
      const amount = has(n, 'GrossPriceProductTradePrice/AppliedTradeAllowanceCharge/ActualAmount');
      const okAllowance = indicators.some(indicatorIsFalse) && amount;
      const okNone = indicators.length === 0 && !amount;
      return !(okAllowance || okNone);
    },
    message: 'An item price discount must be an allowance (charge indicator false) with an amount (BT-147).',
  },
  {
    id: 'CII-SR-449',
    context: 'HDEL',
    fails: bothPartyIds('ShipToTradeParty'),
    message: 'The deliver-to location identifier (BT-71) should be given either as ID or as GlobalID, not both.',
  },
  {
    id: 'CII-SR-450',
    context: 'HAGR',
    fails: bothPartyIds('BuyerTradeParty'),
    message: 'The buyer identifier (BT-46) should be given either as ID or as GlobalID, not both.',
  },
  {
    id: 'CII-SR-451',
    context: 'HSET',
    fails: bothPartyIds('PayeeTradeParty'),
    message: 'The payee identifier (BT-60) should be given either as ID or as GlobalID, not both.',
  },
  {
    id: 'CII-SR-457',
    context: 'HAGR',
    fails: (n) => countDocsOfType(n, null, '50', false) > 1,
    message: 'At most one tender or lot reference (BT-17, additional document of type 50) should be given.',
  },
  {
    id: 'CII-SR-458',
    context: 'HAGR',
    fails: (n) => countDocsOfType(n, null, '130', false) > 1,
    message: 'At most one invoiced object identifier (BT-18, additional document of type 130) should be given.',
  },
  {
    id: 'CII-SR-462',
    context: 'HSET',
    fails: (_n, index) => vatPointCodesDiffer(index),
    message: 'All VAT point date codes (BT-8) in the document must have the same value.',
  },
  {
    id: 'CII-SR-463',
    context: 'STAC',
    fails: (n) => !has(n, 'ChargeIndicator'),
    message: 'An allowance or charge must carry a charge indicator.',
  },
  {
    id: 'CII-SR-465',
    context: 'HAGR',
    fails: (n) =>
      has(n, 'SellerTradeParty/DefinedTradeContact/PersonName') && has(n, 'SellerTradeParty/DefinedTradeContact/DepartmentName'),
    message: 'The seller contact point (BT-41) should be given as a person name or a department name, not both.',
  },
  {
    id: 'CII-SR-466',
    context: 'HAGR',
    fails: (n) => has(n, 'BuyerTradeParty/DefinedTradeContact/PersonName') && has(n, 'BuyerTradeParty/DefinedTradeContact/DepartmentName'),
    message: 'The buyer contact point (BT-56) should be given as a person name or a department name, not both.',
  },
  {
    id: 'CII-SR-467',
    context: 'ROOT',
    fails: (_n, index) => !allAgreeNormalized(valuesAnywhere(index, 'SpecifiedTradeSettlementPaymentMeans', 'TypeCode')),
    message: 'All payment means type codes (BT-81) in the document must be the same.',
  },
  {
    id: 'CII-SR-468',
    context: 'ROOT',
    fails: (_n, index) => !allAgreeNormalized(valuesAnywhere(index, 'SpecifiedTradeSettlementPaymentMeans', 'Information')),
    message: 'All payment means texts (BT-82) in the document must be the same.',
  },
  {
    id: 'CII-SR-469',
    context: 'ROOT',
    fails: (_n, index) => valuesAnywhere(index, 'ApplicableHeaderTradeSettlement', 'PaymentReference').length > 1,
    message: 'The remittance information (BT-83) may be given at most once.',
  },
  {
    id: 'CII-SR-470',
    context: 'HSET',
    fails: (n) =>
      someChild(
        n,
        NS_RAM,
        'SpecifiedTradeSettlementPaymentMeans',
        (pm) =>
          (typeCodeNormalizedIs(pm, '30') || typeCodeNormalizedIs(pm, '58')) &&
          !(has(pm, 'PayeePartyCreditorFinancialAccount/IBANID') || has(pm, 'PayeePartyCreditorFinancialAccount/ProprietaryID')),
      ),
    message: 'A credit transfer (payment means 30 or 58) needs the payment account identifier (BT-84) as IBAN or proprietary ID.',
  },
  {
    id: 'CII-SR-474',
    context: 'LSET',
    fails: (n) => countDocsOfType(n, null, '130', true) > 1,
    message: 'At most one invoice line object identifier (BT-128) should be given.',
  },
  {
    id: 'CII-SR-475',
    context: 'HAGR',
    fails: (n) => countDocsOfType(n, 'Name', '916', true) > 1,
    message: 'At most one supporting document description (BT-123) should be given over the supporting documents.',
  },
  {
    id: 'CII-SR-476',
    context: 'HAGR',
    fails: (n) => countDocsOfType(n, 'AttachmentBinaryObject', '916', true) > 1,
    message: 'At most one attached document (BT-125) should be given over the supporting documents.',
  },

  // Referenced documents: some children are allowed only on a supporting document of a given type.
  {
    id: 'CII-DT-015',
    context: 'REFDOC',
    fails: (n) => has(n, 'URIID') && !(isAdditionalDoc(n) && refDocTypeIs(n, '916')),
    message: 'A URIID is only used on a supporting document (type code 916), as its external location (BT-124).',
  },
  {
    id: 'CII-DT-018',
    context: 'REFDOC',
    fails: (n) => has(n, 'TypeCode') && !(isAdditionalDoc(n) && refDocTypeIs(n, '50', '130', '916')),
    message: 'A document type code is only used on an additional referenced document, with value 50, 130 or 916.',
  },
  {
    id: 'CII-DT-021',
    context: 'REFDOC',
    fails: (n) => has(n, 'Name') && !(isAdditionalDoc(n) && refDocTypeIs(n, '916')),
    message: 'A document name is only used on a supporting document (type code 916), as its description (BT-123).',
  },
  {
    id: 'CII-DT-022',
    context: 'REFDOC',
    fails: (n) => has(n, 'AttachmentBinaryObject') && !(isAdditionalDoc(n) && refDocTypeIs(n, '916')),
    message: 'An attachment is only used on a supporting document (type code 916) (BT-125).',
  },
  {
    id: 'CII-DT-024',
    context: 'REFDOC',
    fails: (n) => has(n, 'ReferenceTypeCode') && !(isAdditionalDoc(n) && refDocTypeIs(n, '130')),
    message: 'A reference type code is only used on an invoiced object identifier (type code 130) (BT-18-1).',
  },
  {
    id: 'CII-DT-027',
    context: 'REFDOC',
    fails: (n) => has(n, 'FormattedIssueDateTime') && !isRam(n, 'InvoiceReferencedDocument'),
    message: 'An issue date is only used on a preceding invoice reference (BT-26).',
  },
  {
    id: 'CII-DT-033',
    context: 'QTY',
    fails: (n, index) => hasAttr(n, 'unitCode') && !billedQuantityHasUnit(index),
    message: 'A unit code on a quantity is only used when the invoiced quantities carry their unit code (BT-130).',
  },

  // Trade tax groups.
  {
    id: 'CII-DT-037',
    context: 'TT',
    fails: (n) => has(n, 'TypeCode') && !anyValueIs(n, ramPath('TypeCode'), 'VAT'),
    message: "The tax type code must be 'VAT'.",
  },
  {
    id: 'CII-DT-041',
    context: 'TT',
    fails: (n) => has(n, 'BasisAmount') && !insideHeaderSettlement(n),
    message: 'A tax basis amount is only used in the document level VAT breakdown (BT-116).',
  },
  {
    id: 'CII-DT-052',
    context: 'TT',
    fails: (n) => has(n, 'ExemptionReasonCode') && !isRam(n, 'ApplicableTradeTax'),
    message: 'A VAT exemption reason code is only used in a VAT breakdown (BT-121).',
  },
  {
    id: 'CII-DT-098',
    context: 'TT',
    fails: (n) => has(n, 'ExemptionReason') && !isRam(n, 'ApplicableTradeTax'),
    message: 'A VAT exemption reason text is only used in a VAT breakdown (BT-120).',
  },
  {
    id: 'CII-DT-054',
    context: 'TT',
    fails: (n) => has(n, 'TaxPointDate') && !insideHeaderSettlement(n),
    message: 'A VAT point date (BT-7) is only used at document level.',
  },
  {
    id: 'CII-DT-058',
    context: 'TT',
    fails: (n) => has(n, 'DueDateTypeCode') && !insideHeaderSettlement(n),
    message: 'A VAT point date code (BT-8) is only used at document level.',
  },

  {
    id: 'CII-DT-097',
    context: 'DTS',
    fails: (n) => !DATE_102.test(stringValue(n)),
    message: 'A date in format 102 must be written YYYYMMDD with a valid month and day.',
  },
];

/** Document-wide fact, computed once per document (it is asked for every quantity). */
const billedQuantityHasUnit = perDocument(anyBilledQuantityHasUnit);

function anyBilledQuantityHasUnit(index: DocIndex): boolean {
  for (const q of elementsNamed(index, NS_RAM, 'BilledQuantity')) {
    const del = q.parent;
    if (hasAttr(q, 'unitCode') && del && isLineChild(del, 'SpecifiedLineTradeDelivery')) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------

export const CII_TABLE: TableRule[] = parseRuleTable(CII_RULE_TABLE, {
  idPrefixes: { s: 'CII-SR-', d: 'CII-DT-' },
  namespaces: { ram: NS_RAM, udt: NS_UDT, rsm: NS_RSM, qdt: NS_QDT },
  defaultPrefix: 'ram',
});

/** Ids the official artefact flags `fatal`; every other CII-SR/CII-DT id is a warning. */
const FATAL = new Set<string>([
  ...'009 010 014 046 069 072 090 439 440 441 455 456 459 460 461 462 463 467 468 469 470 471 472 473 477 478 479 480 481 482 483 484 485 486 487 488 489 490 491 492 493 494'
    .split(' ')
    .map((n) => `CII-SR-${n}`),
  ...'001 002 003 004 005 006 007 008 009 010 011 012 013 014 015 016 017 018 019 020 021 022 023 024 025 026 027 028 029 030 031 032 033 034 035 036 037 068 069 070 071 072 073 074 075 076 077 078 079 080 081 082 083 084 086 087 088 089 090 091 092 093 094 095 096 097 101 102 103 104'
    .split(' ')
    .map((n) => `CII-DT-${n}`),
]);

export function ciiSyntaxSeverity(id: string): Severity {
  return FATAL.has(id) ? 'error' : 'warning';
}

const CONTEXT_LABEL: Record<string, string> = {
  ROOT: 'the invoice',
  DC: 'the document context',
  DCP: 'a document context parameter',
  ED: 'the exchanged document',
  EDN: 'an invoice note',
  LI: 'an invoice line',
  LDOC: 'the line document',
  PROD: 'the line item',
  PCHAR: 'an item attribute',
  LAGR: 'the line agreement',
  LDEL: 'the line delivery',
  LSET: 'the line settlement',
  HAGR: 'the header agreement',
  HDEL: 'the header delivery',
  HSET: 'the header settlement',
  SUM: 'the document totals',
  STAC: 'an allowance or charge',
  GPAC: 'the item price discount',
  PM: 'a payment instruction',
  IDX: 'this identifier',
  IDANY: 'an identifier',
  TCANY: 'a type code',
  TCED: 'the invoice type code',
  CATC: 'a line VAT category code',
  REFDOC: 'a referenced document',
  AMT: 'an amount',
  QTY: 'a quantity',
  TT: 'a trade tax group',
  BSP: 'a billing period',
  PTA: 'a postal address',
};

/** Our own wording, derived from what the rule checks. */
function tableMessage(r: TableRule, severity: Severity): string {
  const p = r.paths[0];
  const what = p.steps.map((s) => s.local).join('/') + (p.attr ? (p.steps.length ? '/' : '') + '@' + p.attr : '');
  const where = CONTEXT_LABEL[r.context] ?? r.context;
  if (r.kind === 'absent') {
    return severity === 'error'
      ? `${what} must not be used in ${where}: EN 16931 does not use it.`
      : `${what} in ${where} is not part of EN 16931 and should not be used.`;
  }
  if (r.kind === 'max') return `${what} may occur at most ${r.n === 1 ? 'once' : `${r.n} times`} in ${where}.`;
  return `${what} must occur exactly ${r.n === 1 ? 'once' : `${r.n} times`} in ${where}.`;
}

export const CII_SYNTAX: CompiledSyntaxRules = compileSyntaxRules(CII_TOP_DOWN, CII_TABLE, CII_CUSTOM_RULES, {
  // Looked up document-wide by the hand-written rules above.
  names: ['ApplicableTradeTax', 'SpecifiedTradeSettlementPaymentMeans', 'ApplicableHeaderTradeSettlement', 'BilledQuantity'],
});

const MESSAGES = new Map<string, string>();
for (const r of CII_TABLE) if (!MESSAGES.has(r.id)) MESSAGES.set(r.id, tableMessage(r, ciiSyntaxSeverity(r.id)));
for (const c of CII_CUSTOM_RULES) MESSAGES.set(c.id, c.message ?? c.id);

/** Every CII-SR-* and CII-DT-* rule, ready to be registered in the `en16931-cii` rule set. */
export const ciiSyntaxRules: Rule[] = toRules(
  CII_SYNTAX,
  ciiSyntaxSeverity,
  (id) => MESSAGES.get(id) ?? id,
  (ctx) => ctx.syntax === 'cii',
);

/** Evaluate all CII syntax rules on a parsed document (violations per rule id). */
export function evaluateCiiSyntax(doc: XmlDoc): SyntaxResult {
  return evaluateSyntaxRules(CII_SYNTAX, doc);
}
