/**
 * EN 16931 syntax binding rules for UBL 2.1 (UBL-SR-*, UBL-CR-*, UBL-DT-*), rule set `en16931-ubl`,
 * as in the CEN/TC 434 validation artefacts 1.3.16.
 *
 * Most rules are table data (./rules-table.ts); the ones with conditions are written below. All
 * of them are evaluated in one pass per document (see ../syntax-table.ts).
 */
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import type { Rule, Severity } from '../../rules/types.js';
import {
  attrValue,
  compileSyntaxRules,
  evaluateSyntaxRules,
  hasAttr,
  kids,
  elementsNamed,
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
} from '../syntax-table.js';
import { UBL_RULE_TABLE } from './rules-table.js';
import { NS } from '../../xml/namespaces.js';

export const UBL_RULE_SET = 'en16931-ubl';

export const NS_INVOICE = NS.ubl;
export const NS_CREDIT_NOTE = NS.cn;
export const NS_CAC = NS.cac;
export const NS_CBC = NS.cbc;
export const NS_EXT = NS.ext;

const isCac = (el: XmlElement | null, local: string): boolean => !!el && el.local === local && el.ns === NS_CAC;

function isRoot(el: XmlElement): boolean {
  return (
    el.parent === null && ((el.ns === NS_INVOICE && el.local === 'Invoice') || (el.ns === NS_CREDIT_NOTE && el.local === 'CreditNote'))
  );
}

/** XPath `cbc:ChargeIndicator = false()/true()`: the indicator text cast to xs:boolean. */
function chargeIndicatorIs(el: XmlElement, wanted: boolean): boolean {
  for (const c of el.children) {
    if (c.local !== 'ChargeIndicator' || c.ns !== NS_CBC) continue;
    const v = stringValue(c).trim();
    const b = v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : undefined;
    if (b === wanted) return true;
  }
  return false;
}

/** Inside a cac:Price that carries an allowance (the item price discount's amounts are not checked). */
function insidePriceWithAllowance(el: XmlElement): boolean {
  for (let p = el.parent; p; p = p.parent) {
    if (isCac(p, 'Price') && p.children.some((c) => isCac(c, 'AllowanceCharge'))) return true;
  }
  return false;
}

const SIMPLE_CAC_CONTEXTS = new Map<string, string>([
  ['InvoiceLine', 'LINE'],
  ['CreditNoteLine', 'LINE'],
  ['PartyTaxScheme', 'PTS'],
  ['BillingReference', 'BREF'],
  ['PayeeParty', 'PAYEE'],
  ['TaxRepresentativeParty', 'TAXREP'],
  ['Delivery', 'DELIV'],
  ['PaymentMeans', 'PM'],
  ['TaxSubtotal', 'TSUB'],
  ['AdditionalDocumentReference', 'ADR'],
  ['PostalAddress', 'ADDR'],
  ['Address', 'ADDR'],
]);

/**
 * Which syntax-rule context an element is. The contexts do not overlap, except an allowance with
 * two contradicting charge indicators, which the allowance rule (first in the artefact) takes.
 */
export function classifyUbl(el: XmlElement): string | undefined {
  const local = el.local;
  if (el.ns === NS_CAC) {
    const simple = SIMPLE_CAC_CONTEXTS.get(local);
    if (simple) return simple;
    if (local === 'AllowanceCharge') {
      if (chargeIndicatorIs(el, false)) return 'ACF';
      if (chargeIndicatorIs(el, true)) return 'ACT';
      return undefined;
    }
    if (local === 'Party' && isCac(el.parent, 'AccountingSupplierParty')) return 'ASPP';
    return local.endsWith('BinaryObject') ? 'BIN' : undefined;
  }
  if (el.parent === null) return isRoot(el) ? 'ROOT' : undefined;
  if (local.endsWith('Amount')) return !local.endsWith('PriceAmount') && !insidePriceWithAllowance(el) ? 'AMT' : undefined;
  return local.endsWith('BinaryObject') ? 'BIN' : undefined;
}

// ---------------------------------------------------------------------------------------------
// Rules with conditions.

/** Parsed paths: the rules below ask for the same few paths on every document. */
const parsedPaths = new Map<string, Step[]>();

/** Parse `a/b:c` with the table's conventions (unprefixed = cac, `b:` = cbc), once per distinct path. */
function p(path: string): Step[] {
  let steps = parsedPaths.get(path);
  if (!steps) {
    steps = path.split('/').map((s) => (s.startsWith('b:') ? { ns: NS_CBC, local: s.slice(2) } : { ns: NS_CAC, local: s }));
    parsedPaths.set(path, steps);
  }
  return steps;
}
const sel = (el: XmlElement, path: string): XmlElement[] => selectPath(el, p(path));

/** XPath `[cac:TaxScheme/upper-case(cbc:ID) = 'VAT']` (or `!=`): one tax scheme compares true. */
function taxSchemeIdCompares(pts: XmlElement, vat: boolean): boolean {
  for (const ts of kids(pts, NS_CAC, 'TaxScheme')) {
    const ids = kids(ts, NS_CBC, 'ID');
    const value = ids.length ? stringValue(ids[0]).toUpperCase() : '';
    if ((value === 'VAT') === vat) return true;
  }
  return false;
}

function countCompanyIds(root: XmlElement, party: string, vat: boolean): number {
  let n = 0;
  for (const pts of sel(root, `${party}/Party/PartyTaxScheme`)) {
    if (taxSchemeIdCompares(pts, vat)) n += kids(pts, NS_CBC, 'CompanyID').length;
  }
  return n;
}

/**
 * XPath `(cac:PartyName/cbc:Name) != (../cac:AccountingSupplierParty/.../cbc:RegistrationName)`:
 * true only when both sides have a value and some pair differs (an absent side makes it false).
 */
function payeeNameDiffersFromSeller(payee: XmlElement): boolean {
  const names = sel(payee, 'PartyName/b:Name').map(stringValue);
  const root = payee.parent;
  const seller = root ? sel(root, 'AccountingSupplierParty/Party/PartyLegalEntity/b:RegistrationName').map(stringValue) : [];
  for (const a of names) for (const b of seller) if (a !== b) return true;
  return false;
}

/** Number of distinct string values of a name anywhere in the document. */
function distinctAnywhere(index: DocIndex, ns: string, local: string): number {
  return new Set(elementsNamed(index, ns, local).map(stringValue)).size;
}

function rootOf(el: XmlElement): XmlElement {
  let r = el;
  while (r.parent) r = r.parent;
  return r;
}

const upperAttr = (el: XmlElement, name: string): string => (attrValue(el, name) ?? '').toUpperCase();

function adrTypeIs(adr: XmlElement, code: string): boolean {
  return kids(adr, NS_CBC, 'DocumentTypeCode').some((c) => stringValue(c) === code);
}

function anywhereAdr(index: DocIndex, test: (adr: XmlElement) => boolean): boolean {
  return elementsNamed(index, NS_CAC, 'AdditionalDocumentReference').some(test);
}

export const UBL_CUSTOM_RULES: CustomRule[] = [
  {
    id: 'UBL-SR-04',
    context: 'ROOT',
    fails: (n) =>
      kids(n, NS_CAC, 'AdditionalDocumentReference')
        .filter((a) => adrTypeIs(a, '130'))
        .reduce((s, a) => s + kids(a, NS_CBC, 'ID').length, 0) > 1,
    message: 'The invoiced object identifier (BT-18) may occur at most once.',
  },
  {
    id: 'UBL-SR-07',
    context: 'BREF',
    fails: (n) => sel(n, 'InvoiceDocumentReference/b:ID').length === 0,
    message: 'A preceding invoice reference must give the preceding invoice number (BT-25).',
  },
  {
    id: 'UBL-SR-12',
    context: 'ROOT',
    fails: (n) => countCompanyIds(n, 'AccountingSupplierParty', true) > 1,
    message: 'The seller VAT identifier (BT-31) may occur at most once.',
  },
  {
    id: 'UBL-SR-13',
    context: 'ROOT',
    fails: (n) => countCompanyIds(n, 'AccountingSupplierParty', false) > 1,
    message: 'The seller tax registration identifier (BT-32) may occur at most once.',
  },
  {
    id: 'UBL-SR-18',
    context: 'ROOT',
    fails: (n) => countCompanyIds(n, 'AccountingCustomerParty', true) > 1,
    message: 'The buyer VAT identifier (BT-48) may occur at most once.',
  },
  {
    id: 'UBL-SR-19',
    context: 'PAYEE',
    fails: (n) => !(sel(n, 'PartyName/b:Name').length <= 1 && payeeNameDiffersFromSeller(n)),
    message: 'A payee (BG-10) must have at most one name (BT-59), and only when it differs from the seller name.',
  },
  {
    id: 'UBL-SR-20',
    context: 'PAYEE',
    fails: (n) =>
      !(sel(n, 'PartyIdentification/b:ID').filter((i) => upperAttr(i, 'schemeID') !== 'SEPA').length <= 1 && payeeNameDiffersFromSeller(n)),
    message: 'A payee (BG-10) must have at most one identifier (BT-60), and only when it differs from the seller.',
  },
  {
    id: 'UBL-SR-21',
    context: 'PAYEE',
    fails: (n) => !(sel(n, 'PartyLegalEntity/b:CompanyID').length <= 1 && payeeNameDiffersFromSeller(n)),
    message: 'A payee (BG-10) must have at most one legal registration identifier (BT-61), and only when it differs from the seller.',
  },
  {
    id: 'UBL-SR-29',
    context: 'ROOT',
    fails: (_n, index) =>
      elementsNamed(index, NS_CAC, 'PartyIdentification').reduce(
        (s, pi) => s + kids(pi, NS_CBC, 'ID').filter((i) => upperAttr(i, 'schemeID') === 'SEPA').length,
        0,
      ) > 1,
    message: 'The bank assigned creditor identifier (BT-90) may occur at most once.',
  },
  {
    id: 'UBL-SR-43',
    context: 'ADR',
    fails: (n) => {
      const typed130 = adrTypeIs(n, '130');
      const creditNote50 = rootOf(n).local === 'CreditNote' && adrTypeIs(n, '50');
      const plain = !kids(n, NS_CBC, 'ID').some((i) => hasAttr(i, 'schemeID')) && kids(n, NS_CBC, 'DocumentTypeCode').length === 0;
      return !(typed130 || creditNote50 || plain);
    },
    message: 'A scheme identifier on a document reference is only used for an invoiced object identifier (type code 130).',
  },
  {
    id: 'UBL-SR-44',
    context: 'ROOT',
    fails: (_n, index) => distinctAnywhere(index, NS_CBC, 'PaymentID') > 1,
    message: 'The remittance information (BT-83) may have only one value.',
  },
  {
    id: 'UBL-SR-47',
    context: 'ROOT',
    fails: (_n, index) => distinctAnywhere(index, NS_CBC, 'PaymentMeansCode') > 1,
    message: 'The payment means type code (BT-81) may have only one value.',
  },
  {
    id: 'UBL-SR-53',
    context: 'PTS',
    fails: (n) => !(sel(n, 'TaxScheme/b:ID').length > 0 && kids(n, NS_CBC, 'CompanyID').length > 0),
    message: 'A party tax scheme needs both the tax identifier (CompanyID) and the tax scheme identifier.',
  },

  {
    id: 'UBL-DT-01',
    context: 'AMT',
    fails: (n) => decimalsAfterPoint(stringValue(n)) > 2,
    message: 'An amount may have at most two decimals.',
  },
  {
    id: 'UBL-DT-06',
    context: 'BIN',
    fails: (n) => !hasAttr(n, 'mimeCode'),
    message: 'An attached document needs its MIME code (BT-125-1).',
  },
  {
    id: 'UBL-DT-07',
    context: 'BIN',
    fails: (n) => !hasAttr(n, 'filename'),
    message: 'An attached document needs its file name (BT-125-2).',
  },
  {
    id: 'UBL-DT-18',
    context: 'ROOT',
    fails: (_n, index) => (index.attributes.get('name') ?? []).some((el) => !(el.local === 'PaymentMeansCode' && el.ns === NS_CBC)),
    message: 'A name attribute is only used on the payment means code.',
  },

  {
    id: 'UBL-CR-002',
    context: 'ROOT',
    fails: (n) => {
      const v = kids(n, NS_CBC, 'UBLVersionID');
      return v.length > 0 && !v.some((x) => stringValue(x) === '2.1');
    },
    message: 'The UBL version identifier should be absent or 2.1.',
  },
  {
    id: 'UBL-CR-412',
    context: 'ROOT',
    fails: (n) => n.local !== 'CreditNote' && sel(n, 'PaymentMeans/b:PaymentDueDate').length > 0,
    message: 'A payment due date in the payment means is only used in a credit note; an invoice gives it as cbc:DueDate.',
  },
  {
    id: 'UBL-CR-665',
    context: 'ROOT',
    fails: (_n, index) =>
      anywhereAdr(index, (a) => {
        const codes = kids(a, NS_CBC, 'DocumentTypeCode');
        const notObject = codes.length === 0 || codes.some((c) => stringValue(c) !== '130');
        return notObject && kids(a, NS_CBC, 'ID').some((i) => hasAttr(i, 'schemeID'));
      }),
    message: 'A scheme identifier on a supporting document reference should not be used (only on the invoiced object identifier).',
  },
  {
    id: 'UBL-CR-666',
    context: 'ROOT',
    fails: (_n, index) => anywhereAdr(index, (a) => adrTypeIs(a, '130') && kids(a, NS_CAC, 'Attachment').length > 0),
    message: 'An invoiced object identifier (type code 130) must not carry an attachment.',
  },
  {
    id: 'UBL-CR-673',
    context: 'ROOT',
    fails: (_n, index) => anywhereAdr(index, (a) => adrTypeIs(a, '130') && kids(a, NS_CBC, 'DocumentDescription').length > 0),
    message: 'An invoiced object identifier (type code 130) must not carry a document description.',
  },
];

/** XPath `string-length(substring-after(., '.'))`. */
function decimalsAfterPoint(s: string): number {
  const i = s.indexOf('.');
  return i < 0 ? 0 : [...s.slice(i + 1)].length;
}

// ---------------------------------------------------------------------------------------------

const TABLE_NOTATION = {
  idPrefixes: { c: 'UBL-CR-', r: 'UBL-SR-', t: 'UBL-DT-' },
  namespaces: { cac: NS_CAC, b: NS_CBC, cbc: NS_CBC, ext: NS_EXT },
  defaultPrefix: 'cac',
  aliases: { LINE: ['InvoiceLine', 'CreditNoteLine'] },
};

export const UBL_TABLE: TableRule[] = parseRuleTable(UBL_RULE_TABLE, TABLE_NOTATION);

/** Severity as the official artefact flags it: UBL-SR all fatal, UBL-CR warnings but two, UBL-DT warnings but three. */
const FATAL_UBL = new Set(['UBL-CR-666', 'UBL-CR-673', 'UBL-DT-01', 'UBL-DT-06', 'UBL-DT-07']);

export function ublSyntaxSeverity(id: string): Severity {
  return id.startsWith('UBL-SR-') || FATAL_UBL.has(id) ? 'error' : 'warning';
}

const CONTEXT_LABEL: Record<string, string> = {
  ROOT: 'the invoice',
  LINE: 'an invoice line',
  PTS: 'a party tax scheme',
  BREF: 'a preceding invoice reference',
  PAYEE: 'the payee',
  TAXREP: 'the seller tax representative',
  DELIV: 'a delivery',
  PM: 'a payment instruction',
  ACF: 'an allowance',
  ACT: 'a charge',
  TSUB: 'a VAT breakdown',
  ADR: 'a document reference',
  ASPP: 'the seller',
  ADDR: 'an address',
  AMT: 'an amount',
  BIN: 'an attachment',
};

function tableMessage(r: TableRule, severity: Severity): string {
  const path = r.paths[0];
  const what =
    (path.anywhere ? 'any ' : '') +
    path.steps.map((s) => s.local).join('/') +
    (path.attr ? (path.steps.length ? '/' : '') + '@' + path.attr : '');
  const where = CONTEXT_LABEL[r.context] ?? r.context;
  if (r.kind === 'absent') {
    return severity === 'error'
      ? `${what} must not be used in ${where}: EN 16931 does not use it.`
      : `${what} in ${where} is not part of EN 16931 and should not be used.`;
  }
  if (r.kind === 'max') return `${what} may occur at most ${r.n === 1 ? 'once' : `${r.n} times`} in ${where}.`;
  return `${what} must occur exactly ${r.n === 1 ? 'once' : `${r.n} times`} in ${where}.`;
}

export const UBL_SYNTAX: CompiledSyntaxRules = compileSyntaxRules(classifyUbl, UBL_TABLE, UBL_CUSTOM_RULES, {
  // Looked up document-wide by the hand-written rules above.
  names: ['PaymentID', 'PaymentMeansCode', 'AdditionalDocumentReference', 'PartyIdentification'],
  attributes: ['name'],
});

const MESSAGES = new Map<string, string>();
for (const r of UBL_TABLE) if (!MESSAGES.has(r.id)) MESSAGES.set(r.id, tableMessage(r, ublSyntaxSeverity(r.id)));
for (const c of UBL_CUSTOM_RULES) MESSAGES.set(c.id, c.message ?? c.id);

/** Every UBL-SR-*, UBL-CR-* and UBL-DT-* rule, ready to be registered in the `en16931-ubl` rule set. */
export const ublSyntaxRules: Rule[] = toRules(
  UBL_SYNTAX,
  ublSyntaxSeverity,
  (id) => MESSAGES.get(id) ?? id,
  (ctx) => ctx.syntax === 'ubl',
);

/**
 * Rows of the table notation (./rules-table.ts) as rules of their own, evaluated in a walk of their own: the rows an
 * older artefact release states differently (src/rules/en16931/ubl-releases.ts).
 */
export function ublTableRules(rows: string): Rule[] {
  const table = parseRuleTable(rows, TABLE_NOTATION);
  const messages = new Map(table.map((r) => [r.id, tableMessage(r, ublSyntaxSeverity(r.id))]));
  return toRules(
    compileSyntaxRules(classifyUbl, table, []),
    ublSyntaxSeverity,
    (id) => messages.get(id) ?? id,
    (ctx) => ctx.syntax === 'ubl',
  );
}

/** Evaluate all UBL syntax rules on a parsed document (violations per rule id). */
export function evaluateUblSyntax(doc: XmlDoc): SyntaxResult {
  return evaluateSyntaxRules(UBL_SYNTAX, doc);
}
