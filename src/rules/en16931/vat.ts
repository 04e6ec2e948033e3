/**
 * VAT category rule families (BR-S, BR-Z, BR-E, BR-AE, BR-IC, BR-G, BR-O, BR-AF, BR-AG), generated
 * from one description per category: which VAT identifiers it needs, which rate it allows, how the
 * taxable amount is checked, and whether an exemption reason is required or forbidden. The places
 * where the CII and UBL artefacts test differently are spelled out with ctx.syntax.
 */
import type { BigValue } from '../../model/decimal.js';
import type { Invoice, InvoiceLine, DocumentAllowanceCharge, VatBreakdown, Dec, Located } from '../../model/invoice.js';
import type { RuleContext, Violation } from '../types.js';
import { pathOf, type XmlElement } from '../../xml/dom.js';
import {
  type RuleDef,
  NO_VIOLATIONS,
  elementOf,
  descendants,
  nonVatScope,
  present,
  loc,
  dec,
  sum,
  round2,
  ZERO,
  ONE,
  HUNDRED,
  unless,
  each,
  code,
  sameRate,
  within1,
} from './helpers.js';
import { PropertyMap } from '../../util/property-map.js';

type Syntax = 'cii' | 'ubl';
type Party = 'sellerAny' | 'sellerVat';

interface Category {
  prefix: string; // BR-S, BR-IC, ...
  code: string; // S, K, ...
  name: string;
  /** Requirements on VAT identifiers when the category is used. */
  ids: 'seller' | 'seller+buyerAny' | 'sellerVat+buyerVat' | 'sellerVat' | 'none';
  rate: (syntax: Syntax, which: 'line' | 'allowance' | 'charge') => 'positive' | 'nonNegative' | 'zero' | 'absent';
  /** Shape of the -01 rule and the -08 check. */
  kind: 'rated' | 'single' | 'outside';
  exemption: 'forbidden' | 'required';
}

const CATEGORIES: Category[] = [
  { prefix: 'BR-S', code: 'S', name: 'Standard rated', ids: 'seller', rate: () => 'positive', kind: 'rated', exemption: 'forbidden' },
  { prefix: 'BR-Z', code: 'Z', name: 'Zero rated', ids: 'seller', rate: () => 'zero', kind: 'single', exemption: 'forbidden' },
  { prefix: 'BR-E', code: 'E', name: 'Exempt from VAT', ids: 'seller', rate: () => 'zero', kind: 'single', exemption: 'required' },
  {
    prefix: 'BR-AE',
    code: 'AE',
    name: 'Reverse charge',
    ids: 'seller+buyerAny',
    rate: () => 'zero',
    kind: 'single',
    exemption: 'required',
  },
  {
    prefix: 'BR-IC',
    code: 'K',
    name: 'Intra-community supply',
    ids: 'sellerVat+buyerVat',
    rate: () => 'zero',
    kind: 'single',
    exemption: 'required',
  },
  { prefix: 'BR-G', code: 'G', name: 'Export outside the EU', ids: 'sellerVat', rate: () => 'zero', kind: 'single', exemption: 'required' },
  { prefix: 'BR-O', code: 'O', name: 'Not subject to VAT', ids: 'none', rate: () => 'absent', kind: 'outside', exemption: 'required' },
  {
    prefix: 'BR-AF',
    code: 'L',
    name: 'IGIC (Canary Islands)',
    ids: 'seller',
    rate: (syntax) => (syntax === 'ubl' ? 'nonNegative' : 'positive'),
    kind: 'rated',
    exemption: 'forbidden',
  },
  {
    prefix: 'BR-AG',
    code: 'M',
    name: 'IPSI (Ceuta and Melilla)',
    ids: 'seller',
    rate: (syntax, which) => (syntax === 'ubl' || which === 'line' ? 'nonNegative' : 'positive'),
    kind: 'rated',
    exemption: 'forbidden',
  },
];

/**
 * Objects whose category is not declared for VAT, for the rule being evaluated. Set on entry of
 * every check of this module (checks are synchronous, so it cannot leak between documents).
 */
let notVat: Set<object> = new Set();
const NONE: Set<object> = new Set();

const is = (c: string | undefined, want: string) => code(c) === want;
const vatCat = (obj: object, c: string | undefined, want: string) => !notVat.has(obj) && is(c, want);

interface Groups {
  lines: Map<string, InvoiceLine[]>;
  allowances: Map<string, DocumentAllowanceCharge[]>;
  charges: Map<string, DocumentAllowanceCharge[]>;
  breakdown: Map<string, VatBreakdown[]>;
}
// Lines, allowances, charges and breakdowns grouped by category once per invoice (and scope),
// instead of every rule of every family filtering all lines again.
const scopedGroups = new PropertyMap<Invoice, Groups>();
const unscopedGroups = new PropertyMap<Invoice, Groups>();

function groupBy<T extends object>(items: readonly T[], codeOf: (t: T) => string | undefined): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const it of items) {
    if (notVat.has(it)) continue;
    const c = code(codeOf(it));
    if (c === undefined) continue;
    const list = map.get(c);
    if (list) list.push(it);
    else map.set(c, [it]);
  }
  return map;
}

function groups(inv: Invoice): Groups {
  const cache = notVat === NONE ? unscopedGroups : scopedGroups;
  let g = cache.get(inv);
  if (!g) {
    g = {
      lines: groupBy(inv.lines, (l) => l.vatCategoryCode),
      allowances: groupBy(inv.allowances, (a) => a.vatCategoryCode),
      charges: groupBy(inv.charges, (a) => a.vatCategoryCode),
      breakdown: groupBy(inv.vatBreakdown, (b) => b.categoryCode),
    };
    cache.set(inv, g);
  }
  return g;
}

const NO_ITEMS: never[] = [];
function linesOf(inv: Invoice, cat: string): InvoiceLine[] {
  return groups(inv).lines.get(cat) ?? NO_ITEMS;
}
function acOf(list: DocumentAllowanceCharge[], cat: string, inv: Invoice): DocumentAllowanceCharge[] {
  const g = groups(inv);
  return (
    (list === inv.charges ? g.charges : list === inv.allowances ? g.allowances : groupBy(list, (a) => a.vatCategoryCode)).get(cat) ??
    NO_ITEMS
  );
}
function breakdownOf(inv: Invoice, cat: string): VatBreakdown[] {
  return groups(inv).breakdown.get(cat) ?? NO_ITEMS;
}
/** Evaluate with every category counted, declared for VAT or not (BR-S-01 does not look at the scheme). */
function unscoped<T>(fn: () => T): T {
  const saved = notVat;
  notVat = NONE;
  try {
    return fn();
  } finally {
    notVat = saved;
  }
}

function idsOk(inv: Invoice, ids: Category['ids']): boolean {
  const s = inv.seller;
  const repVat = present(inv.taxRepresentative?.vatId);
  const sellerVat = present(s.vatId);
  const sellerAny = sellerVat || present(s.taxRegistrationId) || repVat;
  switch (ids) {
    case 'seller':
      return sellerAny;
    case 'seller+buyerAny':
      return sellerAny && (present(inv.buyer.vatId) || present(inv.buyer.legalRegistrationId));
    case 'sellerVat+buyerVat':
      return (sellerVat || repVat) && present(inv.buyer.vatId);
    case 'sellerVat':
      return sellerVat || repVat;
    case 'none':
      return true;
  }
}

function rateOk(rate: Dec | undefined, want: ReturnType<Category['rate']>): boolean {
  if (want === 'absent') return rate === undefined;
  const r = dec(rate);
  if (r === undefined) return false;
  if (want === 'positive') return r.gt(ZERO);
  if (want === 'nonNegative') return r.gte(ZERO);
  return r.eq(ZERO);
}

/**
 * Sum of line net amounts, charges and allowances of one category (optionally one rate); the artefacts' sums
 * do not look at the tax scheme. CII compares the category codes exactly (`CategoryCode = 'S'`), UBL after
 * normalize-space.
 */
function categoryBasis(inv: Invoice, cat: string, rate: BigValue | undefined, rounded: boolean, exact = false): BigValue {
  const rateMatches = (r: Dec | undefined) => rate === undefined || (dec(r)?.eq(rate) ?? false);
  const isCat = exact ? (c: string | undefined) => c === cat : (c: string | undefined) => is(c, cat);
  const lines = sum(inv.lines.filter((l) => isCat(l.vatCategoryCode) && rateMatches(l.vatRate)).map((l) => l.netAmount));
  const charges = sum(inv.charges.filter((a) => isCat(a.vatCategoryCode) && rateMatches(a.vatRate)).map((a) => a.amount));
  const allowances = sum(inv.allowances.filter((a) => isCat(a.vatCategoryCode) && rateMatches(a.vatRate)).map((a) => a.amount));
  return rounded ? round2(lines).plus(round2(charges)).minus(round2(allowances)) : lines.plus(charges).minus(allowances);
}

/**
 * Which artefact a CII -08 rule follows: the CEN CII validation, the Factur-X 1.09.2 profile schematrons, or
 * Factur-X 1.08's (selected like 1.09.2, with CEN's tolerance).
 */
export type Artefact = 'cen' | 'fx' | 'fx-1.08';

/**
 * The CII breakdowns a -08 rule looks at, as its context selects them: the category code compared exactly;
 * CEN also requires upper-case(TypeCode) = 'VAT' (untrimmed) except for S and Z, Factur-X never does.
 */
function ciiBreakdowns08(ctx: RuleContext, c: Category, artefact: Artefact): VatBreakdown[] {
  return ctx.invoice.vatBreakdown.filter((b) => {
    if (b.categoryCode !== c.code) return false;
    if (artefact !== 'cen' || c.code === 'S' || c.code === 'Z') return true;
    const holder = elementOf(ctx, b);
    return holder !== undefined && holder.children.some((e) => e.local === 'TypeCode' && e.text.toUpperCase() === 'VAT');
  });
}

/**
 * The UBL -08 tests other than BR-S-08 are `exists(//cac:InvoiceLine) and …` or
 * `exists(//cac:CreditNoteLine) and …`: a document without lines fails them whatever its amounts.
 */
function ublHasLines(ctx: RuleContext): boolean {
  return descendants(ctx, 'InvoiceLine').length > 0 || descendants(ctx, 'CreditNoteLine').length > 0;
}

function taxableOk(ctx: RuleContext, c: Category, b: VatBreakdown, artefact: Artefact = 'cen'): boolean {
  const { invoice: inv, syntax } = ctx;
  const basis = dec(b.taxableAmount);
  if (c.kind === 'rated' && syntax === 'cii' && c.code !== 'S') return ciiLmTaxableOk(ctx, c, b);
  if (c.kind === 'rated') {
    const rate = dec(b.rate);
    if (rate === undefined) return true; // the artefacts quantify over the rate: no rate, nothing to test
    if (basis === undefined) return false;
    if (syntax === 'cii') return basis.eq(categoryBasis(inv, c.code, rate, true, true));
    // UBL: something must carry this category and rate, and the amounts agree within 1.
    const used =
      inv.lines.some((l) => is(l.vatCategoryCode, c.code) && sameRate(l.vatRate, b.rate)) ||
      [...inv.allowances, ...inv.charges].some((a) => is(a.vatCategoryCode, c.code) && sameRate(a.vatRate, b.rate));
    const withinOne = within1(basis, categoryBasis(inv, c.code, rate, false));
    return c.code === 'S' ? used && withinOne : withinOne && ublHasLines(ctx);
  }
  if (basis === undefined) return false;
  if (syntax === 'ubl') return ublHasLines(ctx) && basis.eq(categoryBasis(inv, c.code, undefined, false));
  const expected = categoryBasis(inv, c.code, undefined, true, true);
  if (c.kind === 'outside') return basis.eq(expected);
  // CEN and Factur-X 1.08: BasisAmount - 1 < sum and BasisAmount + 1 > sum; Factur-X 1.09.2: BasisAmount - 1 <= sum.
  return artefact === 'fx' ? basis.minus(ONE).lte(expected) && basis.plus(ONE).gt(expected) : within1(basis, expected);
}

/**
 * CII BR-AF-08 / BR-AG-08 (IGIC, IPSI), in the CEN artefact and the Factur-X profiles alike: the context
 * is the breakdown (ApplicableTradeTax), but the rates the test quantifies over are
 * `../ram:RateApplicablePercent` and the amount it compares `../ram:BasisAmount`, children of the header
 * settlement. A settlement has neither, so the rule holds; only a settlement that carries rates of its
 * own is compared, its BasisAmount (none: a violation) against the category's sums at each such rate.
 */
function ciiLmTaxableOk(ctx: RuleContext, c: Category, b: VatBreakdown): boolean {
  const settlement = elementOf(ctx, b)?.parent;
  if (!settlement) return true;
  const rates = settlement.children.filter((e) => e.local === 'RateApplicablePercent');
  if (rates.length === 0) return true;
  const bases = settlement.children.filter((e) => e.local === 'BasisAmount').map((e) => dec(e.text));
  return rates.every((r) => {
    const rate = dec(r.text);
    if (rate === undefined) return false;
    const expected = categoryBasis(ctx.invoice, c.code, rate, true, true);
    return bases.some((x) => x !== undefined && x.eq(expected));
  });
}

function taxableRule(c: Category, ctx: RuleContext, artefact: Artefact): readonly Violation[] {
  const breakdowns = ctx.syntax === 'cii' ? ciiBreakdowns08(ctx, c, artefact) : breakdownOf(ctx.invoice, c.code);
  return each(
    breakdowns,
    (b) => taxableOk(ctx, c, b, artefact),
    (b) => loc(b, 'taxableAmount'),
  );
}

/** The Factur-X profile schematrons' version of a CII -08 rule (see ciiBreakdowns08 and taxableOk). */
export function fxTaxableCheck(id: string, artefact: Artefact = 'fx'): ((ctx: RuleContext) => readonly Violation[]) | undefined {
  const c = CATEGORIES.find((k) => `${k.prefix}-08` === id);
  return c
    ? (ctx) => {
        notVat = nonVatScope(ctx);
        return taxableRule(c, ctx, artefact);
      }
    : undefined;
}

function taxOk(c: Category, b: VatBreakdown, syntax: Syntax): boolean {
  const tax = dec(b.taxAmount);
  if (c.kind !== 'rated') return tax !== undefined && tax.eq(ZERO);
  if (c.code !== 'S' && syntax === 'cii') return true; // CII leaves IGIC/IPSI to BR-CO-17
  const basis = dec(b.taxableAmount);
  const rate = dec(b.rate);
  if (tax === undefined || basis === undefined || rate === undefined) return false;
  const expected = round2(basis.abs().times(rate).div(HUNDRED));
  return tax.abs().minus(ONE).lt(expected) && tax.abs().plus(ONE).gt(expected);
}

const NO_ELEMENTS: readonly XmlElement[] = [];

/**
 * CII: the allowance/charge VAT categories (`CategoryTradeTax`) the model does not read, i.e. of an allowance or charge
 * outside the header settlement (a line's, which Factur-X EXTENDED allows with a category): the artefact's contexts
 * (`//ram:SpecifiedTradeAllowanceCharge[indicator]/ram:CategoryTradeTax[category][VAT]`) take them too. Rare: found
 * only when such an element exists.
 */
function unreadAllowanceTaxes(ctx: RuleContext, charge: boolean, category: string): readonly XmlElement[] {
  const all = descendants(ctx, 'SpecifiedTradeAllowanceCharge');
  if (all.length === 0) return NO_ELEMENTS;
  const out: XmlElement[] = [];
  for (const ac of all) {
    if (ac.parent?.local === 'ApplicableHeaderTradeSettlement') continue;
    const indicator = ac.children
      .find((x) => x.local === 'ChargeIndicator')
      ?.children.find((x) => x.local === 'Indicator')
      ?.text.trim();
    if ((charge ? ['true', '1'] : ['false', '0']).indexOf(indicator ?? '') < 0) continue;
    for (const t of ac.children) {
      if (t.local !== 'CategoryTradeTax') continue;
      const types = t.children.filter((x) => x.local === 'TypeCode');
      if (!t.children.some((x) => x.local === 'CategoryCode' && x.text === category)) continue;
      if (types.length === 1 && types[0].text.toUpperCase() === 'VAT') out.push(t);
    }
  }
  return out;
}

function firstRule(c: Category, { invoice: inv, syntax }: RuleContext): readonly Violation[] {
  const lines = linesOf(inv, c.code).length;
  const ac = acOf(inv.allowances, c.code, inv).length + acOf(inv.charges, c.code, inv).length;
  const bd = breakdownOf(inv, c.code).length;
  let ok: boolean;
  if (c.kind === 'rated') {
    ok =
      syntax === 'cii'
        ? (lines === 0 || lines + bd >= 2) && (ac === 0 || ac + bd >= 2)
        : (lines + ac > 0 && bd > 0) || (lines + ac === 0 && bd === 0);
  } else if (syntax === 'ubl') {
    ok = lines + ac + bd === 0 || bd === 1;
  } else if (c.kind === 'outside') {
    ok = bd === 0 || (bd === 1 && lines + ac > 0);
  } else {
    ok = (bd === 0 && lines === 0 && ac === 0) || (bd === 1 && lines + ac > 0);
  }
  return unless(ok, inv);
}

function outsideIdsOk(inv: Invoice, syntax: Syntax): boolean {
  // The CII artefact's buyer test never matches (its path starts at the root), so only UBL checks the buyer.
  return !present(inv.seller.vatId) && !present(inv.taxRepresentative?.vatId) && (syntax === 'cii' || !present(inv.buyer.vatId));
}

function familyRules(c: Category): RuleDef[] {
  const p = c.prefix;
  const n = `"${c.name}" (${c.code})`;
  const idRule =
    (which: 'line' | 'allowance' | 'charge') =>
    (ctx: RuleContext): readonly Violation[] => {
      const { invoice: inv, syntax } = ctx;
      let items: Located[] =
        which === 'line' ? linesOf(inv, c.code) : acOf(which === 'allowance' ? inv.allowances : inv.charges, c.code, inv);
      if (c.code === 'L' && which === 'charge' && syntax === 'ubl') {
        // The UBL BR-AF-04 trigger compares the category code without trimming it.
        items = items.filter((a) => elementOf(ctx, a, 'vatCategoryCode')?.text === 'L');
      }
      let declared = true;
      if (c.code === 'S' && which === 'line') {
        // BR-S-02 triggers on any S line but is only satisfied by one declared for VAT.
        const any = inv.lines.filter((l) => is(l.vatCategoryCode, 'S'));
        declared = items.length > 0;
        items = any;
      }
      const extra = which !== 'line' && syntax === 'cii' ? unreadAllowanceTaxes(ctx, which === 'charge', c.code) : NO_ELEMENTS;
      if (items.length === 0 && extra.length === 0) return NO_VIOLATIONS;
      const ok = declared && (c.ids === 'none' ? outsideIdsOk(inv, syntax) : idsOk(inv, c.ids));
      if (ok) return NO_VIOLATIONS;
      // CII asks on each line / allowance / charge of the category; UBL once, on the document.
      if (syntax === 'ubl') return [{ location: loc(inv) }];
      return [...items.map((it) => ({ location: loc(it) })), ...extra.map((t) => ({ location: pathOf(t) }))];
    };
  const rateRule =
    (which: 'line' | 'allowance' | 'charge') =>
    (ctx: RuleContext): readonly Violation[] => {
      const { invoice: inv, syntax } = ctx;
      const want = c.rate(syntax, which);
      if (which === 'line')
        return each(
          linesOf(inv, c.code),
          (l) => rateOk(l.vatRate, want),
          (l) => loc(l, 'vatRate'),
        );
      const found = each(
        acOf(which === 'allowance' ? inv.allowances : inv.charges, c.code, inv),
        (a) => rateOk(a.vatRate, want),
        (a) => loc(a, 'vatRate'),
      );
      if (syntax !== 'cii') return found;
      const extra = unreadAllowanceTaxes(ctx, which === 'charge', c.code).filter(
        (t) => !rateOk(t.children.find((x) => x.local === 'RateApplicablePercent')?.text, want),
      );
      return extra.length ? [...found, ...extra.map((t) => ({ location: pathOf(t) }))] : found;
    };
  const idsText =
    c.ids === 'none'
      ? 'must not carry a seller, tax representative or buyer VAT identifier'
      : c.ids === 'seller+buyerAny'
        ? "needs the seller's VAT identifier (or tax registration / tax representative VAT id) and the buyer's VAT identifier or legal registration identifier"
        : c.ids === 'sellerVat+buyerVat'
          ? "needs the seller's (or tax representative's) VAT identifier and the buyer's VAT identifier"
          : c.ids === 'sellerVat'
            ? "needs the seller's or the tax representative's VAT identifier"
            : "needs the seller's VAT identifier, tax registration identifier or the tax representative's VAT identifier";
  const rateText = { positive: 'greater than zero', nonNegative: 'zero or more', zero: 'zero', absent: 'absent' }[c.rate('cii', 'line')];
  const rules: RuleDef[] = [
    {
      id: `${p}-01`,
      message: `An invoice using VAT category ${n} must have exactly the matching VAT breakdown for it.`,
      check: (ctx) => (c.code === 'S' ? unscoped(() => firstRule(c, ctx)) : firstRule(c, ctx)),
    },
    { id: `${p}-02`, message: `An invoice line with VAT category ${n} ${idsText}.`, check: idRule('line') },
    { id: `${p}-03`, message: `A document level allowance with VAT category ${n} ${idsText}.`, check: idRule('allowance') },
    { id: `${p}-04`, message: `A document level charge with VAT category ${n} ${idsText}.`, check: idRule('charge') },
    { id: `${p}-05`, message: `The VAT rate of an invoice line with VAT category ${n} must be ${rateText}.`, check: rateRule('line') },
    {
      id: `${p}-06`,
      message: `The VAT rate of a document level allowance with VAT category ${n} must be ${rateText}.`,
      check: rateRule('allowance'),
    },
    {
      id: `${p}-07`,
      message: `The VAT rate of a document level charge with VAT category ${n} must be ${rateText}.`,
      check: rateRule('charge'),
    },
    {
      id: `${p}-08`,
      message: `The taxable amount (BT-116) of the VAT breakdown for category ${n} must equal the line net amounts plus charges minus allowances of that category${c.kind === 'rated' ? ' and rate' : ''}.`,
      check: (ctx) => taxableRule(c, ctx, 'cen'),
    },
    {
      id: `${p}-09`,
      message:
        c.kind === 'rated'
          ? `The VAT amount (BT-117) of category ${n} must equal its taxable amount times its rate.`
          : `The VAT amount (BT-117) of category ${n} must be zero.`,
      check: ({ invoice: inv, syntax }) =>
        each(
          breakdownOf(inv, c.code),
          (b) => taxOk(c, b, syntax),
          (b) => loc(b, 'taxAmount'),
        ),
    },
    {
      id: `${p}-10`,
      message:
        c.exemption === 'forbidden'
          ? `A VAT breakdown for category ${n} must not give an exemption reason (BT-120) or code (BT-121).`
          : `A VAT breakdown for category ${n} must give an exemption reason (BT-120) or code (BT-121).`,
      check: ({ invoice: inv }) =>
        each(
          breakdownOf(inv, c.code),
          (b) =>
            c.exemption === 'forbidden'
              ? !present(b.exemptionReason) && !present(b.exemptionReasonCode)
              : present(b.exemptionReason) || present(b.exemptionReasonCode),
          (b) => loc(b),
        ),
    },
  ];
  if (c.code === 'K') {
    rules.push(
      {
        id: 'BR-IC-11',
        message: 'An intra-community supply (K) needs the actual delivery date (BT-72) or an invoicing period (BG-14).',
        check: ({ invoice: inv, syntax }) => {
          if (breakdownOf(inv, 'K').length === 0) return NO_VIOLATIONS;
          const p = inv.invoicingPeriod;
          const delivered =
            syntax === 'ubl' ? (inv.delivery?.actualDeliveryDate ?? '').length > 1 : present(inv.delivery?.actualDeliveryDate);
          const period = present(p?.start) || present(p?.end) || (syntax === 'ubl' && present(p) && present(inv.taxPointDateCode));
          return unless(delivered || period, inv);
        },
      },
      {
        id: 'BR-IC-12',
        message: 'An intra-community supply (K) needs the deliver-to country code (BT-80).',
        check: ({ invoice: inv, syntax }) => {
          if (breakdownOf(inv, 'K').length === 0) return NO_VIOLATIONS;
          const country = inv.delivery?.address?.countryCode;
          return unless(syntax === 'ubl' ? (country ?? '').length > 1 : present(country), inv);
        },
      },
    );
  }
  if (c.code === 'O') {
    const hasO = (inv: Invoice) => breakdownOf(inv, 'O').length > 0;
    const otherBreakdown = (inv: Invoice) =>
      inv.vatBreakdown.some((b) => !notVat.has(b) && present(b.categoryCode) && !is(b.categoryCode, 'O'));
    const otherLine = (inv: Invoice) => inv.lines.some((l) => !notVat.has(l) && present(l.vatCategoryCode) && !is(l.vatCategoryCode, 'O'));
    const otherAc = (list: DocumentAllowanceCharge[]) =>
      list.some((a) => !notVat.has(a) && present(a.vatCategoryCode) && !is(a.vatCategoryCode, 'O'));
    rules.push(
      {
        id: 'BR-O-11',
        message: 'An invoice with a "Not subject to VAT" (O) breakdown must not have breakdowns of other VAT categories.',
        // The CII artefact looks at every trade tax, lines included.
        check: ({ invoice: inv, syntax }) =>
          hasO(inv) ? unless(!(otherBreakdown(inv) || (syntax === 'cii' && otherLine(inv))), inv) : NO_VIOLATIONS,
      },
      {
        id: 'BR-O-12',
        message: 'An invoice with a "Not subject to VAT" (O) breakdown must not have invoice lines of other VAT categories.',
        check: ({ invoice: inv, syntax }) =>
          hasO(inv) ? unless(!(otherLine(inv) || (syntax === 'cii' && otherBreakdown(inv))), inv) : NO_VIOLATIONS,
      },
      {
        id: 'BR-O-13',
        message: 'An invoice with a "Not subject to VAT" (O) breakdown must not have document level allowances of other VAT categories.',
        check: ({ invoice: inv, syntax }) =>
          hasO(inv) ? unless(!(otherAc(inv.allowances) || (syntax === 'cii' && otherAc(inv.charges))), inv) : NO_VIOLATIONS,
      },
      {
        id: 'BR-O-14',
        message: 'An invoice with a "Not subject to VAT" (O) breakdown must not have document level charges of other VAT categories.',
        check: ({ invoice: inv, syntax }) =>
          hasO(inv) ? unless(!(otherAc(inv.charges) || (syntax === 'cii' && otherAc(inv.allowances))), inv) : NO_VIOLATIONS,
      },
    );
  }
  // Every check sees the VAT scope of its own document.
  return rules.map((r) => ({
    ...r,
    check: (ctx: RuleContext) => {
      notVat = nonVatScope(ctx);
      return r.check(ctx);
    },
  }));
}

export const vatCategoryRules: RuleDef[] = CATEGORIES.flatMap(familyRules);
