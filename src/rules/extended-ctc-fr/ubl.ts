/**
 * EXTENDED-CTC-FR for UBL (FNFE-MPE `EXTENDED-CTC-FR-UBL`, France_RFE 1.4.0.x): the EN 16931 UBL artefact 1.3.16 with
 * the French extended profile's changes. Shared rules are our EN 16931 UBL rules unchanged; what differs is here.
 *
 * UBL sub-lines: a line that refers to the invoice itself in its BillingReference carries its subtype in
 * DocumentStatusCode (DETAIL, GROUP, INFORMATION) and its parent line in BillingReferenceLine/ID. Only lines that do
 * not refer to the invoice, or refer to it as DETAIL, count in the totals and the VAT breakdown.
 */
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import type { Rule, Severity } from '../types.js';
import { EN16931_RULE_DEFS } from '../en16931/index.js';
import { forSyntax } from '../en16931/helpers.js';
import { attr, has, sel, text, value, values } from '../xrechnung/dom.js';
import {
  NS_CAC,
  NS_CBC,
  NS_CREDIT_NOTE,
  NS_INVOICE,
  UBL_CUSTOM_RULES,
  UBL_TABLE,
  classifyUbl,
  ublSyntaxRules,
  ublSyntaxSeverity,
} from '../../syntax/ubl/rules.js';
import { compileSyntaxRules, toRules, type Classifier, type CustomRule } from '../../syntax/syntax-table.js';
import { decimal, HUNDRED, inList, ns, onEach, round2, roundedSum, withinCents, ZERO } from './xpath.js';
import { codeListRules, ICD, ITEM_CODES, itemAttributeRules, type Binding } from './shared.js';
import { CATEGORIES, type Category } from './categories.js';
import type { UblRelease } from './releases.js';

/** EN 16931 UBL ids the EXTENDED-CTC-FR UBL artefact does not carry (replaced or dropped). */
export const UBL_DROPPED = new Set([
  ...'BR-CO-10 BR-CO-11 BR-CO-12 BR-CO-13 BR-CO-15 BR-22 BR-23 BR-24 BR-26 BR-27 BR-28 BR-CO-04 BR-54 BR-CO-17'.split(' '),
  ...'S Z E IC G O AF'.split(' ').map((c) => `BR-${c}-01`),
  ...'AE E G IC AF AG O S Z'.split(' ').map((c) => `BR-${c}-08`),
  ...'BR-O-02 BR-O-03 BR-O-04 BR-O-11 BR-O-12 BR-O-13 BR-O-14 BR-S-09 BR-S-10 BR-Z-10'.split(' '),
  ...'018 026 047 096 099 194 195 258 259 269 270 271 272 273 274 288 410 439 480 481 490 523 524 525 528 529 530 531 550 561 563 600 601 609 611 619 633 634 645 662 669 670'
    .split(' ')
    .map((n) => `UBL-CR-${n}`),
  ...'04 16 34 37 48 52 20'.split(' ').map((n) => `UBL-SR-${n}`),
  ...'BR-CL-10 BR-CL-20 BR-CL-24'.split(' '),
]);

const isCac = (el: XmlElement | null | undefined, local: string) => !!el && el.ns === NS_CAC && el.local === local;
const isCbc = (el: XmlElement | null | undefined, local: string) => !!el && el.ns === NS_CBC && el.local === local;
const isRoot = (el: XmlElement | null | undefined) =>
  !!el &&
  el.parent === null &&
  ((el.ns === NS_INVOICE && el.local === 'Invoice') || (el.ns === NS_CREDIT_NOTE && el.local === 'CreditNote'));

// ---------------------------------------------------------------------------------------------
// Syntax rules. The profile's BillingReference rule (UBL-SR-06/07) only takes the document's own references: a line's
// BillingReference carries its subtype and parent line.

const classifyExt: Classifier = (el) => {
  if (isCac(el, 'BillingReference') && !isRoot(el.parent)) return undefined;
  return classifyUbl(el);
};

/** Delivery terms with only an Incoterms code (ID) and a delivery location that has only a name. */
function onlyIncotermsAndPlace(terms: XmlElement[]): boolean {
  for (const t of terms) {
    for (const c of t.children) {
      if (isCbc(c, 'ID')) continue;
      if (!isCac(c, 'DeliveryLocation')) return false;
      if (c.children.some((g) => !isCbc(g, 'Name'))) return false;
    }
  }
  return true;
}

const RATE_CHILDREN = new Set(['SourceCurrencyCode', 'TargetCurrencyCode', 'CalculationRate', 'Date']);
const lines = (root: XmlElement) => root.children.filter((c) => isCac(c, 'InvoiceLine') || isCac(c, 'CreditNoteLine'));
const kidsNamed = (el: XmlElement, pred: (c: XmlElement) => boolean) => el.children.filter(pred);

const EXT_CUSTOM: CustomRule[] = [
  {
    id: 'UBL-FREXT-CR-410',
    context: 'ROOT',
    fails: (n) => !onlyIncotermsAndPlace(kidsNamed(n, (c) => isCac(c, 'DeliveryTerms'))),
    message: 'Document delivery terms may only give an Incoterms code and a place name.',
  },
  {
    id: 'CII-FREXT-CR-490',
    context: 'ROOT',
    fails: (n) => kidsNamed(n, (c) => isCac(c, 'TaxExchangeRate')).some((x) => x.children.some((c) => !RATE_CHILDREN.has(c.local))),
    message: 'A tax exchange rate may only give the source and target currencies, the rate (BT-167) and its date.',
  },
  {
    id: 'UBL-FREXT-CR-645',
    context: 'ROOT',
    fails: (n) => !onlyIncotermsAndPlace(lines(n).flatMap((l) => kidsNamed(l, (c) => isCac(c, 'DeliveryTerms')))),
    message: 'Line delivery terms may only give an Incoterms code and a place name.',
  },
  {
    id: 'UBL-FREXT-SR-48',
    context: 'LINE',
    fails: (n) => {
      const count = sel(n, 'cac:Item/cac:ClassifiedTaxCategory').length;
      return inCalculationSr48(n) ? count !== 1 : count > 1;
    },
    message: 'A line that counts in the totals must have exactly one item VAT category (a GROUP or INFORMATION line at most one).',
  },
];

const EXT_SYNTAX_SEVERITY: Record<string, Severity> = {
  'UBL-FREXT-CR-410': 'warning',
  'CII-FREXT-CR-490': 'warning',
  'UBL-FREXT-CR-645': 'warning',
  'UBL-FREXT-SR-48': 'error',
};

let enMessages: Map<string, string> | undefined;
function enSyntaxMessage(id: string): string {
  enMessages ??= new Map(ublSyntaxRules.map((r) => [r.id, r.message]));
  return enMessages.get(id) ?? id;
}

function syntaxRules(): Rule[] {
  const table = UBL_TABLE.filter((r) => !UBL_DROPPED.has(r.id));
  const custom = [...UBL_CUSTOM_RULES.filter((c) => !UBL_DROPPED.has(c.id)), ...EXT_CUSTOM];
  const compiled = compileSyntaxRules(classifyExt, table, custom, {
    names: ['PaymentID', 'PaymentMeansCode', 'AdditionalDocumentReference', 'PartyIdentification'],
    attributes: ['name'],
  });
  const own = new Map(EXT_CUSTOM.map((c) => [c.id, c.message ?? c.id]));
  return toRules(
    compiled,
    (id) => EXT_SYNTAX_SEVERITY[id] ?? ublSyntaxSeverity(id),
    (id) => own.get(id) ?? enSyntaxMessage(id),
    (ctx) => ctx.syntax === 'ubl',
  );
}

// ---------------------------------------------------------------------------------------------
// Lines and sub-lines.

const invoiceIdOf = (root: XmlElement) => values(root, 'cbc:ID');
/** The line's BillingReferences that refer to the invoice itself. */
const selfRefs = (line: XmlElement, invoiceIds: string[]) =>
  sel(line, 'cac:BillingReference').filter((br) => values(br, 'cac:InvoiceDocumentReference/cbc:ID').some((id) => invoiceIds.includes(id)));
const statusOf = (line: XmlElement, invoiceIds: string[]) =>
  selfRefs(line, invoiceIds).flatMap((br) => values(br, 'cac:InvoiceDocumentReference/cbc:DocumentStatusCode'));

/** `$lineInCalul` of the totals and breakdown rules: the line does not refer to the invoice, or does as DETAIL. */
function inCalculation(line: XmlElement, invoiceIds: string[]): boolean {
  const refersToInvoice = values(line, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID').some((id) => invoiceIds.includes(id));
  return !refersToInvoice || statusOf(line, invoiceIds).includes('DETAIL');
}

/** UBL-FREXT-SR-48's variant: a line with no preceding-invoice reference at all, or one to the invoice as DETAIL. */
function inCalculationSr48(line: XmlElement): boolean {
  const root = line.parent;
  if (!root) return true;
  if (!has(line, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')) return true;
  return statusOf(line, invoiceIdOf(root)).includes('DETAIL');
}

const allLines = (doc: XmlDoc) => lines(doc.root);
const inCalcLines = (doc: XmlDoc) => {
  const ids = invoiceIdOf(doc.root);
  return allLines(doc).filter((l) => inCalculation(l, ids));
};

const lineRule = (id: string, message: string, holds: (line: XmlElement) => boolean) =>
  onEach(id, 'error', message, allLines, (l, doc) => !inCalculation(l, invoiceIdOf(doc.root)) || holds(l));

const detailRules: Rule[] = [
  lineRule(
    'BR-FREXT-22',
    'Each line that counts in the totals (DETAIL or no subtype) must have an invoiced quantity (BT-129).',
    (l) => has(l, 'cbc:InvoicedQuantity') || has(l, 'cbc:CreditedQuantity'),
  ),
  lineRule(
    'BR-FREXT-23',
    'Each line that counts in the totals must have the unit of its invoiced quantity (BT-130).',
    (l) => has(l, 'cbc:InvoicedQuantity/@unitCode') || has(l, 'cbc:CreditedQuantity/@unitCode'),
  ),
  lineRule('BR-FREXT-24', 'Each line that counts in the totals must have a net amount (BT-131).', (l) => has(l, 'cbc:LineExtensionAmount')),
  lineRule('BR-FREXT-26', 'Each line that counts in the totals must have an item net price (BT-146).', (l) =>
    has(l, 'cac:Price/cbc:PriceAmount'),
  ),
  lineRule('BR-FREXT-CO-04', 'Each line that counts in the totals must have an item VAT category code (BT-151).', (l) =>
    sel(l, 'cac:Item/cac:ClassifiedTaxCategory').some(
      (c) => sel(c, 'cac:TaxScheme').some((s) => ns(value(s, 'cbc:ID')).toUpperCase() === 'VAT') && has(c, 'cbc:ID'),
    ),
  ),
];

const subLineRules: Rule[] = (() => {
  const ctx = (doc: XmlDoc) => allLines(doc);
  const facts = (l: XmlElement) => {
    const root = l.parent!;
    const ids = invoiceIdOf(root);
    const refs = selfRefs(l, ids);
    const codes = refs.flatMap((br) => values(br, 'cac:InvoiceDocumentReference/cbc:DocumentStatusCode'));
    const parents = refs.flatMap((br) => values(br, 'cac:BillingReferenceLine/cbc:ID'));
    const groupStatus = sel(l, 'cac:BillingReference/cac:InvoiceDocumentReference')
      .filter((r) => values(r, 'cbc:ID').some((id) => ids.includes(id)))
      .flatMap((r) => values(r, 'cbc:DocumentStatusCode'));
    return {
      ids,
      codes,
      parents,
      isGroup: groupStatus.includes('GROUP') && has(l, 'cbc:LineExtensionAmount'),
      lineId: values(l, 'cbc:ID'),
    };
  };
  /** Sibling lines whose self reference names this line as parent and whose status is one of `statuses`. */
  const childrenOf = (l: XmlElement, statuses: string[]) => {
    const { ids, lineId } = facts(l);
    return lines(l.parent!).filter((c) => {
      const refs = selfRefs(c, ids);
      return (
        refs.some((br) => values(br, 'cac:BillingReferenceLine/cbc:ID').some((p) => lineId.includes(p))) &&
        refs.some((br) => values(br, 'cac:InvoiceDocumentReference/cbc:DocumentStatusCode').some((s) => statuses.includes(s)))
      );
    });
  };
  return [
    onEach(
      'BR-FREXT-04',
      'error',
      'An item attribute code must come from UNTDID 6313 or the Factur-X extension list.',
      (doc) => allLines(doc).flatMap((l) => sel(l, 'cac:Item/cac:AdditionalItemProperty/cbc:NameCode')),
      (c) => inList(ITEM_CODES, text(c)),
    ),
    onEach('BR-FREXT-05', 'error', 'The line subtype (DocumentStatusCode) must be DETAIL, GROUP or INFORMATION.', ctx, (l) => {
      const { codes } = facts(l);
      if (codes.length === 0) return true;
      const status = values(l, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:DocumentStatusCode').map(ns);
      return status.length === 1 && !status[0].includes(' ') && ['DETAIL', 'GROUP', 'INFORMATION'].includes(status[0]);
    }),
    onEach('BR-FREXT-06', 'error', 'A line with a parent line must state its subtype.', ctx, (l) => {
      const { codes, parents } = facts(l);
      return parents.length === 0 || codes.length > 0;
    }),
    onEach(
      'BR-FREXT-08',
      'error',
      'The net amount (BT-131) of a GROUP line must equal the sum of the net amounts of its DETAIL and GROUP sub-lines.',
      ctx,
      (l) => {
        if (!facts(l).isGroup) return true;
        const expected = round2(
          childrenOf(l, ['DETAIL', 'GROUP'])
            .flatMap((c) => values(c, 'cbc:LineExtensionAmount'))
            .reduce((acc, v) => acc.plus(decimal(v) ?? ZERO), ZERO),
        );
        return values(l, 'cbc:LineExtensionAmount').some((v) => decimal(v)?.eq(expected) ?? false);
      },
    ),
    onEach('BR-FREXT-11', 'error', 'Each parent line reference must name another line of the invoice (BT-126).', ctx, (l) => {
      const { parents, lineId } = facts(l);
      if (parents.length === 0) return true;
      return lines(l.parent!).some((x) => {
        const ids = values(x, 'cbc:ID');
        return ids.some((id) => parents.includes(id)) && ids.some((id) => lineId.some((own) => own !== id));
      });
    }),
    onEach('BR-FREXT-12', 'error', 'When a GROUP line has a net amount (BT-131), all its GROUP sub-lines must have one too.', ctx, (l) => {
      if (!facts(l).isGroup) return true;
      const groups = childrenOf(l, ['GROUP']);
      return groups.length === groups.reduce((n, g) => n + values(g, 'cbc:LineExtensionAmount').length, 0);
    }),
  ];
})();

// ---------------------------------------------------------------------------------------------
// Totals (BR-FREXT-CO-10…15).

interface Totals {
  bt106: ReturnType<typeof decimal>;
  lineSum: NonNullable<ReturnType<typeof decimal>>;
  lineCount: number;
  allowanceSum: NonNullable<ReturnType<typeof decimal>>;
  allowanceCount: number;
  chargeSum: NonNullable<ReturnType<typeof decimal>>;
  chargeCount: number;
}

/** `cbc:ChargeIndicator = true()|false()` on a UBL allowance or charge. */
function indicatorIs(ac: XmlElement, wanted: boolean): boolean {
  return values(ac, 'cbc:ChargeIndicator').some((v) => {
    const t = v.trim();
    return wanted ? t === 'true' || t === '1' : t === 'false' || t === '0';
  });
}
const rootAcs = (root: XmlElement, charge: boolean) => root.children.filter((c) => isCac(c, 'AllowanceCharge') && indicatorIs(c, charge));

function totalsOf(lmt: XmlElement): Totals | undefined {
  const root = lmt.parent;
  if (!root) return undefined;
  const lineAmounts = inCalcLinesOf(rootOfDoc(lmt)).flatMap((l) => values(l, 'cbc:LineExtensionAmount'));
  const allowances = rootAcs(root, false);
  const charges = rootAcs(root, true);
  return {
    bt106: decimal(value(lmt, 'cbc:LineExtensionAmount')),
    lineSum: roundedSum(lineAmounts),
    lineCount: lineAmounts.length,
    allowanceSum: roundedSum(allowances.flatMap((a) => values(a, 'cbc:Amount'))),
    allowanceCount: allowances.length,
    chargeSum: roundedSum(charges.flatMap((a) => values(a, 'cbc:Amount'))),
    chargeCount: charges.length,
  };
}

function rootOfDoc(el: XmlElement): XmlElement {
  let r = el;
  while (r.parent) r = r.parent;
  return r;
}
/** Lines anywhere (`//cac:InvoiceLine`) that count in the totals. */
function inCalcLinesOf(root: XmlElement): XmlElement[] {
  const ids = invoiceIdOf(root);
  const out: XmlElement[] = [];
  const visit = (el: XmlElement) => {
    for (const c of el.children) {
      if (isCac(c, 'InvoiceLine') || isCac(c, 'CreditNoteLine')) {
        if (inCalculation(c, ids)) out.push(c);
      }
      visit(c);
    }
  };
  visit(root);
  return out;
}

const LMT = (doc: XmlDoc) => {
  const out: XmlElement[] = [];
  const visit = (el: XmlElement) => {
    for (const c of el.children) {
      if (isCac(c, 'LegalMonetaryTotal')) out.push(c);
      visit(c);
    }
  };
  visit(doc.root);
  return out;
};

function totalsRules(release: UblRelease): Rule[] {
  const rule = (id: string, message: string, holds: (lmt: XmlElement, t: Totals) => boolean) =>
    onEach(id, 'error', message, LMT, (lmt) => {
      const t = totalsOf(lmt);
      return t !== undefined && holds(lmt, t);
    });
  const roundedAbs = (v: NonNullable<ReturnType<typeof decimal>>) => round2(v.abs());
  return [
    rule(
      'BR-FREXT-CO-10',
      'The sum of line net amounts (BT-106) must equal the net amounts of the lines that count (BT-131), within 0.01 per line.',
      (_l, t) => (t.bt106 === undefined ? false : withinCents(roundedAbs(t.bt106.minus(t.lineSum)), t.lineCount)),
    ),
    rule(
      'BR-FREXT-CO-11',
      'The sum of document allowances (BT-107) must equal the allowance amounts (BT-92), within 0.01 per allowance.',
      (l, t) => {
        const bt107 = decimal(value(l, 'cbc:AllowanceTotalAmount'));
        if (bt107 !== undefined && withinCents(bt107.minus(t.allowanceSum), t.allowanceCount)) return true;
        return !has(l, 'cbc:AllowanceTotalAmount') && t.allowanceCount === 0;
      },
    ),
    rule('BR-FREXT-CO-12', 'The sum of document charges (BT-108) must equal the charge amounts (BT-99), within 0.01 per charge.', (l, t) =>
      chargeTotalAgrees(release, l, t),
    ),
    rule(
      'BR-FREXT-CO-13',
      'The total without VAT (BT-109) must equal the line net amounts minus allowances plus charges, within 0.01 per item.',
      (l, t) => {
        const bt109 = decimal(value(l, 'cbc:TaxExclusiveAmount'));
        if (bt109 === undefined) return false;
        return withinCents(
          roundedAbs(bt109.minus(t.lineSum).plus(t.allowanceSum).minus(t.chargeSum)),
          t.lineCount + t.allowanceCount + t.chargeCount,
        );
      },
    ),
    rule(
      'BR-FREXT-CO-15',
      'The total with VAT (BT-112) must equal the total without VAT (BT-109) plus the VAT total (BT-110), within 0.01 per item.',
      (l, t) => {
        const root = l.parent!;
        const currency = values(root, 'cbc:DocumentCurrencyCode');
        const vat = sel(root, 'cac:TaxTotal/cbc:TaxAmount').filter((a) =>
          currency.includes(a.attrs.find((x) => x.local === 'currencyID' && x.ns === '')?.value ?? '\u0000'),
        );
        if (vat.length === 0) return true;
        const bt110 = decimal(text(vat[0]));
        const bt109 = decimal(value(l, 'cbc:TaxExclusiveAmount'));
        const bt112 = decimal(value(l, 'cbc:TaxInclusiveAmount'));
        if (bt110 === undefined || bt109 === undefined || bt112 === undefined) return false;
        return withinCents(bt112.minus(bt110).minus(bt109), t.lineCount + t.allowanceCount + t.chargeCount);
      },
    ),
  ];
}

/**
 * BR-FREXT-CO-12 by release: BT-108 agrees with the charges, or there are neither charges nor BT-108; in 1.4.0 the
 * second branch asked for no allowance total (BT-107) instead, which refused invoices with an allowance total and
 * neither charges nor charge total (France_RFE issue #6, fixed in 1.4.0.01).
 */
function chargeTotalAgrees(release: UblRelease, l: XmlElement, t: Totals): boolean {
  const bt108 = decimal(value(l, 'cbc:ChargeTotalAmount'));
  if (bt108 !== undefined && withinCents(bt108.minus(t.chargeSum), t.chargeCount)) return true;
  // 1.4.0 asked for the allowance total's absence instead (France_RFE issue #6).
  if (release === '1.4.0') return !has(l, 'cbc:AllowanceTotalAmount') && t.chargeCount === 0;
  return !has(l, 'cbc:ChargeTotalAmount') && t.chargeCount === 0;
}

// ---------------------------------------------------------------------------------------------
// VAT categories: used if and only if broken down (-01), breakdown taxable amounts (-08, -08ini, -08rev), S-09.

const categoryIdIs = (cat: XmlElement, code: string) => ns(value(cat, 'cbc:ID')) === code;
const vatScheme = (cat: XmlElement) => sel(cat, 'cac:TaxScheme').some((s) => ns(values(s, 'cbc:ID').join(' ').toUpperCase()) === 'VAT');

function categoryUsed(c: Category): Rule {
  return onEach(
    `BR-FREXT-${c.name}-01`,
    'error',
    `VAT category ${c.code} is used on a line that counts or on a document allowance or charge if and only if the invoice has a VAT breakdown (BG-23) for it.`,
    (doc) => [doc.root],
    (root, doc) => {
      const acs = root.children
        .filter((x) => isCac(x, 'AllowanceCharge'))
        .flatMap((a) => sel(a, 'cac:TaxCategory'))
        .filter((t) => categoryIdIs(t, c.code)).length;
      const ls = inCalcLines(doc)
        .flatMap((l) => sel(l, 'cac:Item/cac:ClassifiedTaxCategory'))
        .filter((t) => categoryIdIs(t, c.code)).length;
      const subtotals = sel(root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory').filter((t) => categoryIdIs(t, c.code)).length;
      return acs + ls + subtotals === 0 || (subtotals >= 1 && acs + ls > 0);
    },
  );
}

interface Variant {
  diff: ReturnType<typeof decimal>;
  count: number;
}

function breakdownVariant(cat: XmlElement, c: Category, withReason: boolean): Variant {
  const root = rootOfDoc(cat);
  const rate = decimal(value(cat, 'cbc:Percent'));
  const code = ns(value(cat, 'cbc:TaxExemptionReasonCode'));
  const reason = ns(value(cat, 'cbc:TaxExemptionReason'));
  const basis = decimal(value(cat, '../cbc:TaxableAmount'));
  const matches = (tc: XmlElement) =>
    categoryIdIs(tc, c.code) &&
    (c.code === 'O' || (rate !== undefined && (decimal(value(tc, 'cbc:Percent'))?.eq(rate) ?? false))) &&
    (!withReason || (ns(value(tc, 'cbc:TaxExemptionReasonCode')) === code && ns(value(tc, 'cbc:TaxExemptionReason')) === reason));
  const lineAmounts = inCalcLinesOf(root)
    .filter((l) => sel(l, 'cac:Item/cac:ClassifiedTaxCategory').some(matches))
    .flatMap((l) => values(l, 'cbc:LineExtensionAmount'));
  const acs = root.children.filter((x) => isCac(x, 'AllowanceCharge') && sel(x, 'cac:TaxCategory').some(matches));
  const allowances = acs.filter((a) => indicatorIs(a, false)).flatMap((a) => values(a, 'cbc:Amount'));
  const charges = acs.filter((a) => indicatorIs(a, true)).flatMap((a) => values(a, 'cbc:Amount'));
  const count = lineAmounts.length + acs.flatMap((a) => values(a, 'cbc:Amount')).length;
  if (basis === undefined) return { diff: undefined, count };
  return { diff: basis.minus(roundedSum(lineAmounts)).plus(roundedSum(allowances)).minus(roundedSum(charges)), count };
}

const agrees = (v: Variant) => v.diff !== undefined && withinCents(v.diff, v.count);

function breakdownRules(c: Category): Rule[] {
  const nodes = (doc: XmlDoc) =>
    sel(doc.root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory').filter((t) => categoryIdIs(t, c.code) && vatScheme(t));
  const what = `In a VAT breakdown of category ${c.code}, the taxable amount (BT-116) must equal the net amounts of the lines that count minus document allowances plus document charges of that category${c.code === 'O' ? '' : ' and rate'}`;
  const rules = [
    onEach(
      `BR-FREXT-${c.name}-08`,
      'error',
      `${what}, with or without matching exemption reasons (0.01 per item).`,
      nodes,
      (t) => agrees(breakdownVariant(t, c, true)) || agrees(breakdownVariant(t, c, false)),
    ),
    onEach(`BR-FREXT-${c.name}-08ini`, 'warning', `${what} (0.01 per item), exemption reasons not considered.`, nodes, (t) =>
      agrees(breakdownVariant(t, c, false)),
    ),
    onEach(`BR-FREXT-${c.name}-08rev`, 'warning', `${what} with the same exemption reason (0.01 per item).`, nodes, (t) =>
      agrees(breakdownVariant(t, c, true)),
    ),
  ];
  if (c.code === 'S')
    rules.push(
      onEach(
        'BR-FREXT-S-09',
        'error',
        'In a VAT breakdown of category S, the tax amount (BT-117) must equal the taxable amount (BT-116) times the rate (BT-119), rounded to two decimals (0.01 per item with the same exemption reason).',
        nodes,
        (t) => {
          const rate = decimal(value(t, 'cbc:Percent'));
          const basis = decimal(value(t, '../cbc:TaxableAmount'));
          const vat = decimal(value(t, '../cbc:TaxAmount'));
          if (rate === undefined || basis === undefined || vat === undefined) return false;
          return withinCents(vat.minus(round2(basis.times(rate).div(HUNDRED))), breakdownVariant(t, c, true).count);
        },
      ),
    );
  return rules;
}

// ---------------------------------------------------------------------------------------------
// BR-CO-25, item attributes, code lists.

function ancestorIs(el: XmlElement, test: (a: XmlElement) => boolean): boolean {
  for (let p = el.parent; p; p = p.parent) if (test(p)) return true;
  return false;
}

/** All descendants named (cbc or cac) local, in document order. */
function anywhere(doc: XmlDoc, test: (el: XmlElement) => boolean): XmlElement[] {
  const out: XmlElement[] = [];
  const visit = (el: XmlElement) => {
    for (const c of el.children) {
      if (test(c)) out.push(c);
      visit(c);
    }
  };
  visit(doc.root);
  return out;
}

/** Where the shared rules look in UBL. */
const UBL_BINDING: Binding = {
  chargeReasonCodes: (doc) =>
    anywhere(doc, (el) => isCbc(el, 'AllowanceChargeReasonCode') && isCac(el.parent, 'AllowanceCharge') && indicatorIs(el.parent!, true)),
  attachmentsWithMime: (doc) => anywhere(doc, (el) => isCbc(el, 'EmbeddedDocumentBinaryObject') && attr(el, 'mimeCode') !== undefined),
  deliveryTermsCodes: (doc) => anywhere(doc, (el) => isCbc(el, 'ID') && isCac(el.parent, 'DeliveryTerms')),
  itemAttributes: (doc) => anywhere(doc, (el) => isCac(el, 'AdditionalItemProperty')),
  attribute: { name: 'cbc:Name', code: 'cbc:NameCode', value: 'cbc:Value', quantity: 'cbc:ValueQuantity' },
};

const otherRules: Rule[] = [
  onEach(
    'BR-CO-25',
    'error',
    'When the amount due for payment (BT-115) is positive, a payment due date (BT-9) or payment terms (BT-20) must be given.',
    (doc) => (doc.root.ns === NS_INVOICE && doc.root.local === 'Invoice' ? sel(doc.root, 'cac:LegalMonetaryTotal/cbc:PayableAmount') : []),
    (amount, doc) => {
      const v = decimal(text(amount));
      if (v === undefined || !v.gt(ZERO)) return true;
      return (
        anywhere(doc, (el) => isCbc(el, 'DueDate')).length > 0 ||
        anywhere(doc, (el) => isCbc(el, 'Note') && isCac(el.parent, 'PaymentTerms')).length > 0
      );
    },
  ),
  ...itemAttributeRules(UBL_BINDING),
  onEach(
    'BR-FREXT-CL-10',
    'error',
    'A party identifier scheme (@schemeID) must come from the ISO 6523 ICD list, or be BY or SE.',
    (doc) => anywhere(doc, (el) => isCbc(el, 'ID') && isCac(el.parent, 'PartyIdentification') && attr(el, 'schemeID') !== undefined),
    (id) => {
      const scheme = attr(id, 'schemeID') ?? '';
      if (inList(ICD, scheme)) return true;
      // SEPA (a creditor identifier) is accepted for the seller and the payee.
      return ns(scheme) === 'SEPA' && ancestorIs(id, (a) => isCac(a, 'AccountingSupplierParty') || isCac(a, 'PayeeParty'));
    },
  ),
  ...codeListRules(UBL_BINDING),
];

/** BR-CO-26 on each seller element (cac:AccountingSupplierParty), as the artefact counts it. */
const brCo26: Rule = onEach(
  'BR-CO-26',
  'error',
  '',
  (doc) => anywhere(doc, (el) => isCac(el, 'AccountingSupplierParty')),
  (asp) =>
    sel(asp, 'cac:Party/cac:PartyTaxScheme').some(
      (pts) =>
        has(pts, 'cbc:CompanyID') && sel(pts, 'cac:TaxScheme').some((ts) => ns(values(ts, 'cbc:ID').join(' ')).toUpperCase() === 'VAT'),
    ) ||
    sel(asp, 'cac:Party/cac:PartyIdentification/cbc:ID').some((id) => attr(id, 'schemeID') !== 'SEPA') ||
    has(asp, 'cac:Party/cac:PartyLegalEntity/cbc:CompanyID'),
);

/**
 * Seller and buyer rules on each element of their context, as the artefact evaluates them (our EN 16931 rules read the
 * model's one seller and buyer).
 */
const PER_NODE: Record<string, Rule> = {
  // BR-CO-16 on each LegalMonetaryTotal: BT-115 = BT-112 − BT-113 + BT-114, the differences rounded to cents.
  'BR-CO-16': onEach('BR-CO-16', 'error', '', LMT, (l) => {
    const d = (n: string) => decimal(value(l, `cbc:${n}`));
    const payable = d('PayableAmount');
    const inclusive = d('TaxInclusiveAmount');
    if (payable === undefined || inclusive === undefined) return false;
    const prepaid = has(l, 'cbc:PrepaidAmount') ? d('PrepaidAmount') : ZERO;
    const rounding = has(l, 'cbc:PayableRoundingAmount') ? d('PayableRoundingAmount') : undefined;
    if (prepaid === undefined) return false;
    const due = has(l, 'cbc:PrepaidAmount') ? round2(inclusive.minus(prepaid)) : inclusive;
    if (!has(l, 'cbc:PayableRoundingAmount')) return payable.eq(due);
    return rounding !== undefined && round2(payable.minus(rounding)).eq(due);
  }),
  'BR-09': onEach(
    'BR-09',
    'error',
    '',
    (doc) =>
      anywhere(doc, (el) => isCac(el, 'PostalAddress') && isCac(el.parent, 'Party') && isCac(el.parent?.parent, 'AccountingSupplierParty')),
    (a) => ns(values(a, 'cac:Country/cbc:IdentificationCode').join(' ')) !== '',
  ),
  'BR-62': onEach(
    'BR-62',
    'error',
    '',
    (doc) =>
      anywhere(doc, (el) => isCbc(el, 'EndpointID') && isCac(el.parent, 'Party') && isCac(el.parent?.parent, 'AccountingSupplierParty')),
    (e) => attr(e, 'schemeID') !== undefined,
  ),
  'BR-63': onEach(
    'BR-63',
    'error',
    '',
    (doc) =>
      anywhere(doc, (el) => isCbc(el, 'EndpointID') && isCac(el.parent, 'Party') && isCac(el.parent?.parent, 'AccountingCustomerParty')),
    (e) => attr(e, 'schemeID') !== undefined,
  ),
};

/** Every rule of the EXTENDED-CTC-FR UBL artefact of a release. */
export function buildUblRules(release: UblRelease): Rule[] {
  // Before 1.4.0.02 the artefact kept the EN 16931 BR-CL-10 (ICD list without BY / SE) instead of BR-FREXT-CL-10.
  const enCl10 = release !== '1.4.0.02';
  const business = forSyntax(EN16931_RULE_DEFS, 'ubl')
    .filter((r) => !UBL_DROPPED.has(r.id) || (enCl10 && r.id === 'BR-CL-10'))
    .map((r) => (r.id === 'BR-CO-26' ? { ...brCo26, message: r.message } : PER_NODE[r.id] ? { ...PER_NODE[r.id], message: r.message } : r));
  return [
    ...syntaxRules(),
    ...business,
    ...totalsRules(release),
    ...detailRules,
    ...CATEGORIES.map(categoryUsed),
    ...CATEGORIES.flatMap(breakdownRules),
    ...subLineRules,
    ...otherRules.filter((r) => !(enCl10 && r.id === 'BR-FREXT-CL-10')),
  ];
}
