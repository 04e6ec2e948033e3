/**
 * Structural asserts of the Factur-X profile schematrons (FX-SCH-A-*: "element X must occur exactly
 * once / at most once here", "attribute required"), written as data: context, kind, child.
 */
import type { Rule } from '../types.js';
import { attr, sel, where } from '../xrechnung/dom.js';
import { contextNodes } from './codelists.js';

type Kind = 'exactly1' | 'max1' | 'attr';

const TX = '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction';
interface StructureAssert {
  id: string;
  context: string;
  kind: Kind;
  /** Child path (for exactly1/max1) or attribute name (for attr). */
  what: string;
}

/** Asserts shared by the profiles that carry them (the ids are the same across profiles). */
const ASSERTS: StructureAssert[] = [
  { id: 'FX-SCH-A-000019', context: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument', kind: 'exactly1', what: 'ram:ID' },
  { id: 'FX-SCH-A-000020', context: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument', kind: 'exactly1', what: 'ram:TypeCode' },
  { id: 'FX-SCH-A-000021', context: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString', kind: 'attr', what: 'format' },
  { id: 'FX-SCH-A-000028', context: `${TX}/ram:ApplicableHeaderTradeAgreement`, kind: 'exactly1', what: 'ram:BuyerTradeParty' },
  { id: 'FX-SCH-A-000038', context: `${TX}/ram:ApplicableHeaderTradeSettlement`, kind: 'exactly1', what: 'ram:InvoiceCurrencyCode' },
  { id: 'FX-SCH-A-000278', context: `${TX}/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedLineTradeSettlement`, kind: 'exactly1', what: 'ram:ApplicableTradeTax' },
  { id: 'FX-SCH-A-000409', context: `${TX}/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty`, kind: 'exactly1', what: 'ram:Name' },
  { id: 'FX-SCH-A-000616', context: `${TX}/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument`, kind: 'exactly1', what: 'ram:TypeCode' },
];

function message(a: StructureAssert): string {
  const name = a.what.replace(/^ram:/, '');
  if (a.kind === 'attr') return `The attribute @${a.what} is required here.`;
  return a.kind === 'exactly1' ? `${name} must occur exactly once here.` : `${name} may occur at most once here.`;
}

export function structureRules(_set: string): Rule[] {
  return ASSERTS.map((a) => ({
    id: a.id,
    severity: 'error' as const,
    message: message(a),
    check(ctx) {
      const out = [];
      for (const node of contextNodes(ctx.doc, a.context)) {
        const ok = a.kind === 'attr' ? attr(node, a.what) !== undefined : a.kind === 'exactly1' ? sel(node, a.what).length === 1 : sel(node, a.what).length <= 1;
        if (!ok) out.push({ location: where(node) });
      }
      return out;
    },
  }));
}

