/**
 * EN 16931 core business rules BR-01 … BR-65, written once against the model.
 * Where the CII and UBL artefacts test a rule differently, the rule looks at ctx.syntax.
 */
import type { Invoice } from '../../model/invoice.js';
import type { RuleContext, Violation } from '../types.js';
import { pathOf, type XmlElement } from '../../xml/dom.js';
import {
  NO_VIOLATIONS,
  type RuleDef,
  acList,
  acrossLines,
  nonVatScope,
  descendants,
  kid,
  kids,
  rootChildren,
  filled,
  present,
  exists,
  loc,
  dec,
  ZERO,
  unless,
  each,
  code,
} from './helpers.js';
import { locatedAt } from '../report-bounds.js';

/**
 * BR-62…BR-65's scheme identifier: the CII artefact wants it non-blank (`normalize-space(@schemeID) != ''`), the UBL
 * artefact only present (`exists(@schemeID)`: an empty schemeID passes).
 */
const hasScheme = (syntax: 'cii' | 'ubl', scheme: string | undefined) => (syntax === 'ubl' ? present(scheme) : filled(scheme));

// The totals rules hang on the monetary summation element (CII) / LegalMonetaryTotal (UBL).
const totalsPresent = (inv: Invoice) => exists(inv.totals);

function identifierValues(p: { identifiers: { value: string }[] } | undefined): Set<string> {
  return new Set((p?.identifiers ?? []).map((i) => i.value));
}

/** UBL BR-17 (the CII rule reads the elements, see ciiPayeeFails). */
function payeeDistinct(inv: Invoice): boolean {
  const payee = inv.payee!;
  if (!present(payee.name)) return false;
  // UBL compares with the seller's PartyName (its trading name).
  const sellerName = inv.seller.tradingName;
  if (sellerName !== undefined && payee.name === sellerName) return false;
  const sellerIds = identifierValues(inv.seller);
  return !payee.identifiers.some((i) => sellerIds.has(i.value));
}

/** BR-12…15: the totals element lacks an amount. UBL asks on every `cac:LegalMonetaryTotal` (the model keeps one). */
function totalsLack(ctx: RuleContext, field: 'lineNetTotal' | 'taxExclusiveAmount' | 'taxInclusiveAmount' | 'amountDue', child: string) {
  if (ctx.syntax === 'ubl')
    return descendants(ctx, 'LegalMonetaryTotal')
      .filter((t) => kid(t, child) === undefined)
      .map(locatedAt(pathOf));
  const i = ctx.invoice;
  return totalsPresent(i) ? unless(present(i.totals[field]), i.totals) : NO_VIOLATIONS;
}

// ---------------------------------------------------------------------------------------------
// CII rules whose official test reads elements the model step collapses (a second party, product or
// communication element; a payee element outside the settlement): they look at the elements, as the artefact does.

const attrOf = (el: XmlElement, name: string) => el.attrs.find((a) => a.local === name && a.ns === '')?.value;
/** XPath `a = b` on leaf elements: some pair with the same string value. */
const someEqual = (a: XmlElement[], b: XmlElement[]) => a.some((x) => b.some((y) => x.text === y.text));

/**
 * CII BR-62/63: `normalize-space(…/ram:<party>/ram:URIUniversalCommunication[1]/ram:URIID/@schemeID) != '' or
 * not(…/ram:<party>/ram:URIUniversalCommunication)`, from the root: an electronic address element without a URIID
 * (which the model cannot record) has no scheme either.
 */
function ciiAddressSchemed(ctx: RuleContext, party: 'SellerTradeParty' | 'BuyerTradeParty'): boolean {
  let any = false;
  const schemes: string[] = [];
  for (const tx of kids(ctx.doc.root, 'SupplyChainTradeTransaction'))
    for (const agreement of kids(tx, 'ApplicableHeaderTradeAgreement'))
      for (const p of kids(agreement, party)) {
        const comms = kids(p, 'URIUniversalCommunication');
        if (comms.length === 0) continue;
        any = true;
        for (const id of kids(comms[0], 'URIID')) {
          const scheme = attrOf(id, 'schemeID');
          if (scheme !== undefined) schemes.push(scheme);
        }
      }
  // Two scheme attributes stop the official stylesheet (normalize-space of a sequence): no verdict; the first counts here.
  return !any || filled(schemes[0]);
}

/** CII BR-64 on a line: `normalize-space(ram:SpecifiedTradeProduct/ram:GlobalID/@schemeID) != '' or not(…/ram:GlobalID)`. */
function ciiItemIdUnschemed(line: XmlElement): boolean {
  const ids = kids(line, 'SpecifiedTradeProduct').flatMap((p) => kids(p, 'GlobalID'));
  if (ids.length === 0) return false;
  return !filled(ids.map((id) => attrOf(id, 'schemeID')).find((s) => s !== undefined));
}

/** UBL BR-61 on a payment means element: code 30 or 58 without `cac:PayeeFinancialAccount/cbc:ID`. */
function ublTransferWithoutAccount(means: XmlElement): boolean {
  const meansCode = kids(means, 'PaymentMeansCode')[0]?.text.trim();
  if (meansCode !== '30' && meansCode !== '58') return false;
  return !kids(means, 'PayeeFinancialAccount').some((a) => kids(a, 'ID').length > 0);
}

/**
 * CII BR-17 on a payee element: it has a name, and neither its name, its ids nor its legal registration id equals the
 * seller's of `../../ram:ApplicableHeaderTradeAgreement` (for a payee in the payment terms that path is empty: only
 * the name counts).
 */
function ciiPayeeFails(payee: XmlElement): boolean {
  const names = kids(payee, 'Name');
  if (names.length === 0) return true;
  const all = (els: XmlElement[], local: string) => els.flatMap((e) => kids(e, local));
  const sellers = all(kids(payee.parent?.parent ?? undefined, 'ApplicableHeaderTradeAgreement'), 'SellerTradeParty');
  const legal = (els: XmlElement[]) => all(all(els, 'SpecifiedLegalOrganization'), 'ID');
  return (
    someEqual(names, all(sellers, 'Name')) || someEqual(kids(payee, 'ID'), all(sellers, 'ID')) || someEqual(legal([payee]), legal(sellers))
  );
}

export const coreRules: RuleDef[] = [
  {
    id: 'BR-01',
    message: 'The invoice must state its specification identifier (BT-24).',
    check: ({ invoice: i }) => unless(filled(i.specificationId), i),
  },
  { id: 'BR-02', message: 'The invoice must have an invoice number (BT-1).', check: ({ invoice: i }) => unless(filled(i.number), i) },
  { id: 'BR-03', message: 'The invoice must have an issue date (BT-2).', check: ({ invoice: i }) => unless(filled(i.issueDate), i) },
  { id: 'BR-04', message: 'The invoice must have an invoice type code (BT-3).', check: ({ invoice: i }) => unless(filled(i.typeCode), i) },
  { id: 'BR-05', message: 'The invoice must state its currency (BT-5).', check: ({ invoice: i }) => unless(filled(i.currency), i) },
  { id: 'BR-06', message: 'The seller name (BT-27) is missing.', check: ({ invoice: i }) => unless(filled(i.seller.name), i) },
  { id: 'BR-07', message: 'The buyer name (BT-44) is missing.', check: ({ invoice: i }) => unless(filled(i.buyer.name), i) },
  { id: 'BR-08', message: 'The seller postal address (BG-5) is missing.', check: ({ invoice: i }) => unless(present(i.seller.address), i) },
  {
    id: 'BR-09',
    message: 'The seller postal address must have a country code (BT-40).',
    check: ({ invoice: i, syntax }) => {
      const a = i.seller.address;
      if (!a) return syntax === 'cii' ? unless(false, i) : NO_VIOLATIONS;
      return unless(filled(a.countryCode), a);
    },
  },
  { id: 'BR-10', message: 'The buyer postal address (BG-8) is missing.', check: ({ invoice: i }) => unless(present(i.buyer.address), i) },
  {
    id: 'BR-11',
    message: 'The buyer postal address must have a country code (BT-55).',
    check: ({ invoice: i, syntax }) => {
      const a = i.buyer.address;
      if (!a) return syntax === 'cii' ? unless(false, i) : NO_VIOLATIONS;
      return unless(filled(a.countryCode), a);
    },
  },
  {
    id: 'BR-12',
    message: 'The sum of invoice line net amounts (BT-106) is missing.',
    check: (ctx) => totalsLack(ctx, 'lineNetTotal', 'LineExtensionAmount'),
  },
  {
    id: 'BR-13',
    message: 'The invoice total without VAT (BT-109) is missing.',
    check: (ctx) => totalsLack(ctx, 'taxExclusiveAmount', 'TaxExclusiveAmount'),
  },
  {
    id: 'BR-14',
    message: 'The invoice total with VAT (BT-112) is missing.',
    check: (ctx) => totalsLack(ctx, 'taxInclusiveAmount', 'TaxInclusiveAmount'),
  },
  {
    id: 'BR-15',
    message: 'The amount due for payment (BT-115) is missing.',
    check: (ctx) => totalsLack(ctx, 'amountDue', 'PayableAmount'),
  },
  {
    id: 'BR-16',
    message: 'The invoice must have at least one invoice line (BG-25).',
    check: ({ invoice: i }) => unless(i.lines.length > 0, i),
  },
  {
    id: 'BR-17',
    message: 'A payee (BG-10) must have a name (BT-59) and be a party other than the seller.',
    check: (ctx) => {
      // CII: every payee element anywhere (the model reads only the settlement's), compared with its own transaction's seller.
      if (ctx.syntax === 'cii') return descendants(ctx, 'PayeeTradeParty').filter(ciiPayeeFails).map(locatedAt(pathOf));
      const i = ctx.invoice;
      return i.payee ? unless(payeeDistinct(i), i.payee) : NO_VIOLATIONS;
    },
  },
  {
    id: 'BR-18',
    message: 'The seller tax representative must have a name (BT-62).',
    check: ({ invoice: i }) => (i.taxRepresentative ? unless(filled(i.taxRepresentative.name), i.taxRepresentative) : NO_VIOLATIONS),
  },
  {
    id: 'BR-19',
    message: 'The seller tax representative must have a postal address (BG-12).',
    check: ({ invoice: i }) => (i.taxRepresentative ? unless(present(i.taxRepresentative.address), i.taxRepresentative) : NO_VIOLATIONS),
  },
  {
    id: 'BR-20',
    message: "The seller tax representative's postal address must have a country code (BT-69).",
    check: ({ invoice: i, syntax }) => {
      const t = i.taxRepresentative;
      if (!t) return NO_VIOLATIONS;
      if (!t.address) return syntax === 'cii' ? unless(false, t) : NO_VIOLATIONS;
      return unless(filled(t.address.countryCode), t.address);
    },
  },
  {
    id: 'BR-21',
    message: 'Each invoice line must have an identifier (BT-126).',
    check: ({ invoice: i }) =>
      each(
        i.lines,
        (l) => filled(l.id),
        (l) => loc(l),
      ),
  },
  {
    id: 'BR-22',
    message: 'Each invoice line must have an invoiced quantity (BT-129).',
    check: ({ invoice: i }) =>
      each(
        i.lines,
        (l) => present(l.quantity),
        (l) => loc(l),
      ),
  },
  {
    id: 'BR-23',
    message: 'Each invoiced quantity must have a unit of measure (BT-130).',
    check: ({ invoice: i }) =>
      each(
        i.lines,
        (l) => present(l.unitCode),
        (l) => loc(l),
      ),
  },
  {
    id: 'BR-24',
    message: 'Each invoice line must have a line net amount (BT-131).',
    check: ({ invoice: i }) =>
      each(
        i.lines,
        (l) => present(l.netAmount),
        (l) => loc(l),
      ),
  },
  {
    id: 'BR-25',
    message: 'Each invoice line must have an item name (BT-153).',
    check: ({ invoice: i }) =>
      each(
        i.lines,
        (l) => filled(l.itemName),
        (l) => loc(l),
      ),
  },
  {
    id: 'BR-26',
    message: 'Each invoice line must have an item net price (BT-146).',
    check: ({ invoice: i }) =>
      each(
        i.lines,
        (l) => present(l.netPrice),
        (l) => loc(l),
      ),
  },
  {
    id: 'BR-27',
    message: 'The item net price (BT-146) must not be negative.',
    check: ({ invoice: i }) =>
      each(
        i.lines,
        (l) => dec(l.netPrice)?.gte(ZERO) ?? false,
        (l) => loc(l, 'netPrice'),
      ),
  },
  {
    id: 'BR-28',
    message: 'The item gross price (BT-148) must not be negative.',
    check: ({ invoice: i }) =>
      each(
        i.lines,
        (l) => l.grossPrice === undefined || (dec(l.grossPrice)?.gte(ZERO) ?? false),
        (l) => loc(l, 'grossPrice'),
      ),
  },
  {
    id: 'BR-29',
    message: 'The invoicing period end date (BT-74) must not be before its start date (BT-73).',
    check: ({ invoice: i }) => {
      const p = i.invoicingPeriod;
      if (!p || !filled(p.start) || !filled(p.end)) return NO_VIOLATIONS;
      return unless(p.end >= p.start, p);
    },
  },
  {
    id: 'BR-30',
    message: 'The invoice line period end date (BT-135) must not be before its start date (BT-134).',
    check: ({ invoice: i }) =>
      each(
        i.lines,
        (l) => !l.period || !filled(l.period.start) || !filled(l.period.end) || l.period.end >= l.period.start,
        (l) => loc(l.period),
      ),
  },
  {
    id: 'BR-31',
    message: 'Each document level allowance must have an amount (BT-92).',
    check: (ctx) =>
      each(
        acList(ctx, ctx.invoice.allowances, false),
        (a) => present(a.amount),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-32',
    message: 'Each document level allowance must have a VAT category code (BT-95).',
    check: (ctx) =>
      each(
        acList(ctx, ctx.invoice.allowances, false),
        (a) => present(a.vatCategoryCode) && !nonVatScope(ctx).has(a),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-33',
    message: 'Each document level allowance must have a reason (BT-97) or a reason code (BT-98).',
    check: (ctx) =>
      each(
        acList(ctx, ctx.invoice.allowances, false),
        (a) => present(a.reason) || present(a.reasonCode),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-36',
    message: 'Each document level charge must have an amount (BT-99).',
    check: (ctx) =>
      each(
        acList(ctx, ctx.invoice.charges, true),
        (a) => present(a.amount),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-37',
    message: 'Each document level charge must have a VAT category code (BT-102).',
    check: (ctx) =>
      each(
        acList(ctx, ctx.invoice.charges, true),
        (a) => present(a.vatCategoryCode) && !nonVatScope(ctx).has(a),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-38',
    message: 'Each document level charge must have a reason (BT-104) or a reason code (BT-105).',
    check: (ctx) =>
      each(
        acList(ctx, ctx.invoice.charges, true),
        (a) => present(a.reason) || present(a.reasonCode),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-41',
    message: 'Each invoice line allowance must have an amount (BT-136).',
    check: (ctx) =>
      each(
        acrossLines(ctx.invoice.lines, (l) => acList(ctx, l.allowances, false)),
        (a) => present(a.amount),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-42',
    message: 'Each invoice line allowance must have a reason (BT-139) or a reason code (BT-140).',
    check: (ctx) =>
      each(
        acrossLines(ctx.invoice.lines, (l) => acList(ctx, l.allowances, false)),
        (a) => present(a.reason) || present(a.reasonCode),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-43',
    message: 'Each invoice line charge must have an amount (BT-141).',
    check: (ctx) =>
      each(
        acrossLines(ctx.invoice.lines, (l) => acList(ctx, l.charges, true)),
        (a) => present(a.amount),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-44',
    message: 'Each invoice line charge must have a reason (BT-144) or a reason code (BT-145).',
    check: (ctx) =>
      each(
        acrossLines(ctx.invoice.lines, (l) => acList(ctx, l.charges, true)),
        (a) => present(a.reason) || present(a.reasonCode),
        (a) => loc(a),
      ),
  },
  {
    id: 'BR-45',
    message: 'Each VAT breakdown must have a VAT category taxable amount (BT-116).',
    check: ({ invoice: i }) =>
      each(
        i.vatBreakdown,
        (b) => present(b.taxableAmount),
        (b) => loc(b),
      ),
  },
  {
    id: 'BR-46',
    message: 'Each VAT breakdown must have a VAT category tax amount (BT-117).',
    check: ({ invoice: i }) =>
      each(
        i.vatBreakdown,
        (b) => present(b.taxAmount),
        (b) => loc(b),
      ),
  },
  {
    id: 'BR-47',
    message: 'Each VAT breakdown must have a VAT category code (BT-118).',
    check: (ctx) =>
      each(
        ctx.invoice.vatBreakdown,
        (b) => present(b.categoryCode) && !nonVatScope(ctx).has(b),
        (b) => loc(b),
      ),
  },
  {
    id: 'BR-48',
    message: 'Each VAT breakdown must have a VAT rate (BT-119), unless the category is "Not subject to VAT" (O).',
    check: (ctx) =>
      each(
        ctx.invoice.vatBreakdown,
        (b) => !nonVatScope(ctx).has(b) && (present(b.rate) || code(b.categoryCode) === 'O'),
        (b) => loc(b),
      ),
  },
  {
    id: 'BR-49',
    message: 'Payment instructions must have a payment means type code (BT-81).',
    // Context: each payment means element of the document (the model merges them; UBL: also one in an allowance).
    check: (ctx) =>
      (ctx.syntax === 'ubl' ? descendants(ctx, 'PaymentMeans') : descendants(ctx, 'SpecifiedTradeSettlementPaymentMeans'))
        .filter((pm) => kid(pm, ctx.syntax === 'ubl' ? 'PaymentMeansCode' : 'TypeCode') === undefined)
        .map(locatedAt(pathOf)),
  },
  {
    id: 'BR-50',
    message: 'A credit transfer must give the payment account identifier (BT-84).',
    check: ({ invoice: i }) => {
      const p = i.payment;
      if (!p || !['30', '58'].includes(code(p.meansCode) ?? '')) return NO_VIOLATIONS;
      return each(
        p.creditTransfers,
        (c) => filled(c.accountId),
        (c) => loc(c),
      );
    },
  },
  {
    id: 'BR-51',
    message: 'Only the last 4 to 6 digits of the payment card primary account number (BT-87) may be shown.',
    severity: { cii: 'error', ubl: 'warning' },
    check: ({ invoice: i }) => {
      const c = i.payment?.card;
      if (!c) return NO_VIOLATIONS;
      return unless((c.primaryAccountNumber ?? '').trim().length <= 10, c, 'primaryAccountNumber');
    },
  },
  {
    id: 'BR-52',
    message: 'Each additional supporting document must have a reference (BT-122).',
    // Every document reference element counts, also the invoiced-object one (type 130) the model files elsewhere.
    // UBL's context is every cac:AdditionalDocumentReference, wherever it sits (also inside a billing reference).
    check: (ctx) =>
      (ctx.syntax === 'ubl' ? descendants(ctx, 'AdditionalDocumentReference') : descendants(ctx, 'AdditionalReferencedDocument'))
        .filter((el) => !filled(kid(el, ctx.syntax === 'ubl' ? 'ID' : 'IssuerAssignedID')?.text))
        .map(locatedAt(pathOf)),
  },
  {
    id: 'BR-53',
    message: 'When a VAT accounting currency (BT-6) is given, the total VAT amount in that currency (BT-111) must be given too.',
    check: ({ invoice: i, syntax }) => {
      if (!present(i.vatAccountingCurrency)) return NO_VIOLATIONS;
      if (syntax === 'cii') {
        if (!totalsPresent(i)) return NO_VIOLATIONS;
        return unless(present(i.totals.taxTotalAccountingCurrency) && i.vatAccountingCurrency !== i.currency, i.totals);
      }
      const sameAsInvoice = i.vatAccountingCurrency === i.currency && present(i.totals.taxTotal);
      return unless(present(i.totals.taxTotalAccountingCurrency) || sameAsInvoice, i);
    },
  },
  {
    id: 'BR-54',
    message: 'Each item attribute must have a name (BT-160) and a value (BT-161).',
    // The model cannot tell a missing name from an empty one: look at the elements.
    check: (ctx) =>
      (ctx.syntax === 'ubl' ? descendants(ctx, 'AdditionalItemProperty') : descendants(ctx, 'ApplicableProductCharacteristic'))
        .filter((el) => kid(el, ctx.syntax === 'ubl' ? 'Name' : 'Description') === undefined || kid(el, 'Value') === undefined)
        .map(locatedAt(pathOf)),
  },
  {
    id: 'BR-55',
    message: 'Each preceding invoice reference must contain the preceding invoice number (BT-25).',
    check: (ctx) => {
      if (ctx.syntax === 'ubl') {
        return rootChildren(ctx, 'BillingReference')
          .filter((br) => kid(kid(br, 'InvoiceDocumentReference'), 'ID') === undefined)
          .map(locatedAt(pathOf));
      }
      return descendants(ctx, 'InvoiceReferencedDocument')
        .filter((el) => el.parent?.local === 'ApplicableHeaderTradeSettlement' && !filled(kid(el, 'IssuerAssignedID')?.text))
        .map(locatedAt(pathOf));
    },
  },
  {
    id: 'BR-56',
    message: 'The seller tax representative must have a VAT identifier (BT-63).',
    check: (ctx) => {
      const t = ctx.invoice.taxRepresentative;
      if (!t) return NO_VIOLATIONS;
      if (ctx.syntax === 'ubl') {
        // Only a tax scheme declared as VAT counts.
        const ok = rootChildren(ctx, 'TaxRepresentativeParty').some((p) =>
          p.children.some(
            (c) =>
              c.local === 'PartyTaxScheme' &&
              kid(c, 'CompanyID') !== undefined &&
              (kid(kid(c, 'TaxScheme'), 'ID')?.text ?? '').trim().toUpperCase() === 'VAT',
          ),
        );
        return unless(ok, t);
      }
      return unless(filled(t.vatId), t);
    },
  },
  {
    id: 'BR-57',
    message: 'A deliver-to address (BG-15) must have a country code (BT-80).',
    check: ({ invoice: i, syntax }) => {
      const a = i.delivery?.address;
      if (!a) return NO_VIOLATIONS;
      // UBL only asks for the element; CII wants a value.
      return unless(syntax === 'ubl' ? present(a.countryCode) : filled(a.countryCode), a);
    },
  },
  {
    id: 'BR-61',
    message: 'For payment by credit transfer (code 30 or 58) the payment account identifier (BT-84) is required.',
    check: (ctx) => {
      // UBL asks on each payment means element (the model merges them into one payment).
      if (ctx.syntax === 'ubl') return descendants(ctx, 'PaymentMeans').filter(ublTransferWithoutAccount).map(locatedAt(pathOf));
      const p = ctx.invoice.payment;
      if (!p || !['30', '58'].includes(code(p.meansCode) ?? '')) return NO_VIOLATIONS;
      return each(
        p.creditTransfers,
        (c) => filled(c.accountId),
        (c) => loc(c),
      );
    },
  },
  {
    id: 'BR-62',
    message: "The seller's electronic address (BT-34) must have a scheme identifier.",
    check: (ctx) => {
      if (ctx.syntax === 'cii') return ciiAddressSchemed(ctx, 'SellerTradeParty') ? NO_VIOLATIONS : [{ location: pathOf(ctx.doc.root) }];
      const e = ctx.invoice.seller.electronicAddress;
      return e ? unless(hasScheme(ctx.syntax, e.schemeId), ctx.invoice.seller, 'electronicAddress') : NO_VIOLATIONS;
    },
  },
  {
    id: 'BR-63',
    message: "The buyer's electronic address (BT-49) must have a scheme identifier.",
    check: (ctx) => {
      if (ctx.syntax === 'cii') return ciiAddressSchemed(ctx, 'BuyerTradeParty') ? NO_VIOLATIONS : [{ location: pathOf(ctx.doc.root) }];
      const e = ctx.invoice.buyer.electronicAddress;
      return e ? unless(hasScheme(ctx.syntax, e.schemeId), ctx.invoice.buyer, 'electronicAddress') : NO_VIOLATIONS;
    },
  },
  {
    id: 'BR-64',
    message: 'An item standard identifier (BT-157) must have a scheme identifier.',
    check: (ctx) => {
      // CII: on every line element, over all its products' global ids (the model keeps the first product's first one).
      if (ctx.syntax === 'cii')
        return descendants(ctx, 'IncludedSupplyChainTradeLineItem').filter(ciiItemIdUnschemed).map(locatedAt(pathOf));
      return each(
        ctx.invoice.lines,
        (l) => !l.standardItemId || hasScheme(ctx.syntax, l.standardItemId.schemeId),
        (l) => loc(l, 'standardItemId'),
      );
    },
  },
  {
    id: 'BR-65',
    message: 'An item classification identifier (BT-158) must have a scheme identifier.',
    check: ({ invoice: i, syntax }) => {
      const out: Violation[] = [];
      for (const l of i.lines)
        for (const c of l.classifications) if (!hasScheme(syntax, c.schemeId)) out.push({ location: loc(l, 'classifications') });
      return out;
    },
  },
];
