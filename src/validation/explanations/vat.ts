/**
 * The VAT category rules (BR-S-*, BR-Z-*, BR-E-*, BR-AE-*, BR-IC-*, BR-G-*, BR-O-*, BR-AF-*, BR-AG-*, BR-B-*):
 * the same ten checks per category, so one builder per check number, in our words, naming the terms.
 */
import type { Advice } from './types.js';
import { named } from './terms.js';

interface Category {
  code: string;
  name: string;
  /** What the category needs from the parties' VAT identifiers (checks 02–04). */
  ids: 'seller' | 'seller+buyer' | 'none' | 'seller-or-buyer';
  /** What the rate must be (checks 05–07). */
  rate: 'positive' | 'zero' | 'absent' | 'zero-or-positive';
  /** Whether the breakdown must give an exemption reason (check 10): true = required, false = forbidden. */
  exemption: boolean;
}

export const VAT_CATEGORIES: Record<string, Category> = {
  S: { code: 'S', name: 'Standard rated', ids: 'seller', rate: 'positive', exemption: false },
  Z: { code: 'Z', name: 'Zero rated', ids: 'seller', rate: 'zero', exemption: false },
  E: { code: 'E', name: 'Exempt from VAT', ids: 'seller', rate: 'zero', exemption: true },
  AE: { code: 'AE', name: 'Reverse charge', ids: 'seller+buyer', rate: 'zero', exemption: true },
  IC: { code: 'K', name: 'Intra-community supply', ids: 'seller+buyer', rate: 'zero', exemption: true },
  G: { code: 'G', name: 'Export outside the EU', ids: 'seller', rate: 'zero', exemption: true },
  O: { code: 'O', name: 'Not subject to VAT', ids: 'none', rate: 'absent', exemption: true },
  AF: { code: 'L', name: 'IGIC (Canary Islands)', ids: 'seller', rate: 'positive', exemption: false },
  AG: { code: 'M', name: 'IPSI (Ceuta and Melilla)', ids: 'seller', rate: 'positive', exemption: false },
  B: { code: 'B', name: 'Split payment (Italy)', ids: 'seller', rate: 'positive', exemption: false },
};

const WHERE: Record<string, { what: string; code: string; rate: string }> = {
  line: { what: 'invoice line', code: 'BT-151', rate: 'BT-152' },
  allowance: { what: 'document level allowance', code: 'BT-95', rate: 'BT-96' },
  charge: { what: 'document level charge', code: 'BT-102', rate: 'BT-103' },
};

/** Advice for BR-<family>-<nn>, or undefined when the id is not a VAT category rule. */
export function vatCategoryAdvice(ruleId: string): (Advice & { terms: string[] }) | undefined {
  const m = /^BR-(S|Z|E|AE|IC|G|O|AF|AG|B)-(\d\d)$/.exec(ruleId);
  // Split payment (B) has two rules of its own shape: the message-shape builder explains them.
  if (!m || m[1] === 'B') return undefined;
  const c = VAT_CATEGORIES[m[1]];
  const n = +m[2];
  const cat = `"${c.name}" (${c.code})`;
  switch (n) {
    case 1:
      return {
        title: `VAT breakdown for category ${c.code} missing or not matching`,
        explanation: `An invoice that uses VAT category ${cat} on a line (${named('BT-151')}), an allowance (${named('BT-95')}) or a charge (${named('BT-102')}) needs exactly the matching ${named('BG-23')} with ${named('BT-118')} = ${c.code}.`,
        suggestion: `Add one VAT breakdown with category ${c.code} (per rate) and the taxable and tax amounts of those lines, allowances and charges, or correct the category codes that should not be ${c.code}.`,
        terms: ['BG-23', 'BT-118', 'BT-151', 'BT-95', 'BT-102'],
      };
    case 2:
    case 3:
    case 4: {
      const where = n === 2 ? WHERE.line : n === 3 ? WHERE.allowance : WHERE.charge;
      if (c.ids === 'none')
        return {
          title: `No VAT identifiers allowed with category ${c.code}`,
          explanation: `${capitalArticle(where.what)} in category ${cat} means the supply is outside the scope of VAT, so the invoice must not carry ${named('BT-31')}, ${named('BT-63')} or ${named('BT-48')}.`,
          suggestion: `Remove the VAT identifiers, or use the VAT category that really applies (${named(where.code)}).`,
          terms: [where.code, 'BT-31', 'BT-63', 'BT-48'],
        };
      const buyer = c.ids === 'seller+buyer';
      return {
        title: `VAT identifier${buyer ? 's' : ''} needed for category ${c.code}`,
        explanation: `${capitalArticle(where.what)} with ${named(where.code)} = ${c.code} (${c.name}) needs the ${named('BT-31')}${c.code !== 'K' && c.code !== 'G' ? `, the ${named('BT-32')}` : ''} or the ${named('BT-63')}${buyer ? `, and the ${named('BT-48')}${c.code === 'AE' ? ` or the ${named('BT-47')}` : ''}` : ''}.`,
        suggestion: buyer
          ? "Add the seller's VAT identifier (or its tax representative's) and the buyer's VAT identifier, both with their country prefix."
          : "Add the seller's VAT identifier (with its country prefix), or its tax registration identifier, or a tax representative with a VAT identifier.",
        terms: [where.code, 'BT-31', 'BT-32', 'BT-63', ...(buyer ? ['BT-48'] : [])],
      };
    }
    case 5:
    case 6:
    case 7: {
      const where = n === 5 ? WHERE.line : n === 6 ? WHERE.allowance : WHERE.charge;
      const need =
        c.rate === 'positive'
          ? 'greater than zero'
          : c.rate === 'zero'
            ? 'zero'
            : c.rate === 'absent'
              ? 'absent (no rate for a supply outside the scope of VAT)'
              : 'zero or greater';
      return {
        title: `Wrong VAT rate for category ${c.code} on ${article(where.what)}`,
        explanation: `On ${article(where.what)} with ${named(where.code)} = ${c.code} (${c.name}), ${named(where.rate)} must be ${need}.`,
        suggestion:
          c.rate === 'absent'
            ? `Remove the VAT rate from the ${where.what}, or use the VAT category that applies.`
            : `Set the ${where.what}'s VAT rate to the rate that applies (${need}), or correct its VAT category code.`,
        terms: [where.code, where.rate],
      };
    }
    case 8:
      return {
        title: `Taxable amount of category ${c.code} does not add up`,
        explanation: `For each ${named('BG-23')} of category ${cat}${c.rate === 'positive' || c.rate === 'zero-or-positive' ? ' and rate' : ''}, ${named('BT-116')} must equal the sum of ${named('BT-131')} of the lines in that category${c.rate === 'positive' || c.rate === 'zero-or-positive' ? ' and rate' : ''}, plus ${named('BT-99')} minus ${named('BT-92')} of the document level charges and allowances in it.`,
        suggestion: `Recompute the taxable amount of the ${c.code} breakdown from the lines, allowances and charges of that category${c.rate === 'positive' || c.rate === 'zero-or-positive' ? ' and rate' : ''} (see context.compared), or fix the category/rate of items that belong elsewhere.`,
        terms: ['BT-116', 'BT-131', 'BT-99', 'BT-92', 'BT-118', 'BT-119'],
      };
    case 9:
      return c.rate === 'positive' || c.rate === 'zero-or-positive'
        ? {
            title: `VAT amount of category ${c.code} is wrong`,
            explanation: `In a ${named('BG-23')} of category ${cat}, ${named('BT-117')} must be ${named('BT-116')} × ${named('BT-119')} / 100, rounded to two decimals.`,
            suggestion: 'Recompute the tax amount of that breakdown from its taxable amount and rate (see context.compared).',
            terms: ['BT-117', 'BT-116', 'BT-119'],
          }
        : {
            title: `VAT amount of category ${c.code} must be zero`,
            explanation: `Category ${cat} carries no VAT: ${named('BT-117')} of its ${named('BG-23')} must be 0.`,
            suggestion: `Set the tax amount of the ${c.code} breakdown to 0, or use the VAT category that really applies.`,
            terms: ['BT-117', 'BG-23'],
          };
    case 10:
      return c.exemption
        ? {
            title: `Exemption reason missing for category ${c.code}`,
            explanation: `A ${named('BG-23')} of category ${cat} must say why no VAT is charged: ${named('BT-120')} or ${named('BT-121')}.`,
            suggestion: `Add the exemption reason text or a VATEX code (e.g. ${c.code === 'AE' ? 'VATEX-EU-AE' : c.code === 'K' ? 'VATEX-EU-IC' : c.code === 'G' ? 'VATEX-EU-G' : c.code === 'O' ? 'VATEX-EU-O' : 'the VATEX code of the exemption'}) to that breakdown.`,
            terms: ['BT-120', 'BT-121', 'BG-23'],
          }
        : {
            title: `No exemption reason allowed for category ${c.code}`,
            explanation: `VAT is charged in category ${cat}, so its ${named('BG-23')} must not give ${named('BT-120')} or ${named('BT-121')}.`,
            suggestion:
              'Remove the exemption reason and code from that breakdown, or use the exempt category that applies (E, AE, K, G, O).',
            terms: ['BT-120', 'BT-121', 'BG-23'],
          };
    case 11:
    case 12:
      if (c.code === 'K')
        return n === 11
          ? {
              title: 'Delivery date or period needed for an intra-community supply',
              explanation: `An intra-community supply (K) must say when the goods or services were supplied: ${named('BT-72')} or an ${named('BG-14')}.`,
              suggestion: 'Add the actual delivery date or the invoicing period start and end dates.',
              terms: ['BT-72', 'BG-14'],
            }
          : {
              title: 'Deliver-to country needed for an intra-community supply',
              explanation: `An intra-community supply (K) must give ${named('BT-80')}, the member state the goods went to.`,
              suggestion: 'Add the deliver-to address with its country code.',
              terms: ['BT-80', 'BG-15'],
            };
      return {
        title: `Category ${c.code} excludes other VAT categories`,
        explanation: `An invoice with a ${named('BG-23')} of category ${cat} must not also have ${n === 11 ? 'VAT breakdowns' : 'invoice lines'} of other categories (${named(n === 11 ? 'BT-118' : 'BT-151')}).`,
        suggestion: 'Invoice supplies outside the scope of VAT separately from taxable ones, or correct the category codes.',
        terms: [n === 11 ? 'BT-118' : 'BT-151', 'BG-23'],
      };
    case 13:
    case 14:
      return {
        title: `Category ${c.code} excludes other VAT categories`,
        explanation: `An invoice with a ${named('BG-23')} of category ${cat} must not have document level ${n === 13 ? 'allowances' : 'charges'} of other categories (${named(n === 13 ? 'BT-95' : 'BT-102')}).`,
        suggestion: `Give the ${n === 13 ? 'allowance' : 'charge'} category ${c.code}, or invoice it separately.`,
        terms: [n === 13 ? 'BT-95' : 'BT-102', 'BG-23'],
      };
    default:
      return undefined;
  }
}

function article(what: string): string {
  return `${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what}`;
}

function capitalArticle(what: string): string {
  const a = article(what);
  return a.charAt(0).toUpperCase() + a.slice(1);
}
