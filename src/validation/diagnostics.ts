/**
 * Pro "smart diagnostics": for every finding, a short title, an explanation and a suggestion in
 * our own words. Specific texts for the rules invoices fail most often; a generic but truthful
 * text per rule family for the rest.
 */
import type { ValidationErrorDetail } from './validate.js';

export interface DiagnosticDetail {
  rule_id: string;
  severity: 'error' | 'warning' | 'info';
  title: string;
  explanation: string;
  suggestion: string;
  context: Record<string, unknown> | null;
}

interface Advice {
  title: string;
  explanation: string;
  suggestion: string;
}

const SPECIFIC: Record<string, Advice> = {
  'BR-CO-10': {
    title: 'Line total does not match the lines',
    explanation:
      'The sum of invoice line net amounts (BT-106) must equal the sum of every line net amount (BT-131), rounded to two decimals.',
    suggestion: 'Recompute BT-106 as the sum of all line net amounts, or correct the line amounts that were changed.',
  },
  'BR-CO-13': {
    title: 'Total without VAT is inconsistent',
    explanation:
      'The invoice total without VAT (BT-109) must be the line total (BT-106) minus document allowances (BT-107) plus document charges (BT-108).',
    suggestion: 'Recompute BT-109 from BT-106, BT-107 and BT-108, and check that the allowance and charge totals match their items.',
  },
  'BR-CO-14': {
    title: 'VAT total does not match the VAT breakdown',
    explanation: 'The invoice total VAT amount (BT-110) must equal the sum of the tax amounts of all VAT breakdown groups (BT-117).',
    suggestion: 'Recompute BT-110 as the sum of the VAT breakdown tax amounts.',
  },
  'BR-CO-15': {
    title: 'Total with VAT is inconsistent',
    explanation:
      'The invoice total with VAT (BT-112) must equal the total without VAT (BT-109) plus the total VAT amount (BT-110); exactly one VAT total in the invoice currency is expected.',
    suggestion: 'Set BT-112 to BT-109 + BT-110 and give the VAT total in the invoice currency once.',
  },
  'BR-CO-16': {
    title: 'Amount due is inconsistent',
    explanation:
      'The amount due for payment (BT-115) must equal the total with VAT (BT-112) minus the paid amount (BT-113) plus the rounding amount (BT-114).',
    suggestion: 'Recompute BT-115 from BT-112, BT-113 and BT-114.',
  },
  'BR-CO-17': {
    title: 'VAT amount of a VAT group is wrong',
    explanation:
      'Each VAT breakdown tax amount (BT-117) must be its taxable amount (BT-116) times its rate (BT-119), rounded to two decimals (a difference of less than one unit is tolerated).',
    suggestion: 'Recompute the tax amount of the VAT group from its taxable amount and rate.',
  },
  'BR-CO-18': {
    title: 'VAT breakdown missing',
    explanation: 'An invoice must contain at least one VAT breakdown group (BG-23).',
    suggestion: 'Add one VAT breakdown per VAT category and rate used on the lines, allowances and charges.',
  },
  'BR-CO-26': {
    title: 'Seller cannot be identified',
    explanation:
      'The seller needs at least one of: seller identifier (BT-29), legal registration identifier (BT-30) or VAT identifier (BT-31).',
    suggestion: "Add the seller's VAT number or company registration number.",
  },
  'BR-S-08': {
    title: 'Standard-rate taxable amount is wrong',
    explanation:
      'For each standard-rated (S) VAT group, the taxable amount must equal the line net amounts plus charges minus allowances with category S and the same rate.',
    suggestion: 'Recompute the taxable amount of each S group per rate, or fix the category/rate of the lines that belong to it.',
  },
  'BR-S-09': {
    title: 'Standard-rate VAT amount is wrong',
    explanation: 'For a standard-rated (S) VAT group, the VAT amount must be the taxable amount times the rate, rounded to two decimals.',
    suggestion: 'Recompute the VAT amount of the S group.',
  },
  'BR-01': {
    title: 'Specification identifier missing',
    explanation: 'The invoice must say which specification it follows (BT-24).',
    suggestion: 'Set BT-24, e.g. urn:cen.eu:en16931:2017.',
  },
  'BR-02': {
    title: 'Invoice number missing',
    explanation: 'Every invoice needs an invoice number (BT-1).',
    suggestion: 'Set the invoice number.',
  },
  'BR-03': { title: 'Issue date missing', explanation: 'Every invoice needs an issue date (BT-2).', suggestion: 'Set the issue date.' },
  'BR-05': {
    title: 'Currency missing',
    explanation: 'Every invoice must state its currency code (BT-5).',
    suggestion: 'Set the invoice currency, e.g. EUR.',
  },
  'BR-06': {
    title: 'Seller name missing',
    explanation: 'The seller name (BT-27) is mandatory.',
    suggestion: "Add the seller's registered name.",
  },
  'BR-07': { title: 'Buyer name missing', explanation: 'The buyer name (BT-44) is mandatory.', suggestion: "Add the buyer's name." },
  'BR-16': {
    title: 'No invoice lines',
    explanation: 'An invoice must have at least one invoice line (BG-25).',
    suggestion: 'Add the invoiced items as lines.',
  },
  XSD: {
    title: 'Not valid against the schema',
    explanation:
      'The XML does not follow the XML schema of its syntax/profile (wrong element order, unknown element, invalid value format).',
    suggestion: 'Fix the structure at the reported line; generating the XML with a schema-aware writer avoids these errors.',
  },
  PDF_ENCRYPTED_READ: {
    title: 'The PDF is encrypted',
    explanation:
      'The PDF is encrypted with an empty user password (permissions only), so it opens without a password and was read; the invoice data was checked as usual. A Factur-X / ZUGFeRD PDF must be PDF/A-3, and PDF/A forbids encryption.',
    suggestion:
      'Send the invoice PDF without encryption: save it again without "document protection", or remove it (e.g. qpdf --decrypt in.pdf out.pdf).',
  },
};

function family(ruleId: string): Advice {
  const id = ruleId.toUpperCase();
  if (id.startsWith('BR-CL-'))
    return {
      title: 'Code not in the allowed code list',
      explanation: 'A code (currency, country, unit, VAT category, scheme, ...) is not in the code list EN 16931 requires for it.',
      suggestion: 'Use a code from the list named in the message.',
    };
  if (id.startsWith('BR-DEC-'))
    return {
      title: 'Too many decimals',
      explanation: 'Amounts of this kind may have at most two decimals.',
      suggestion: 'Round the amount to two decimals (half up) and recompute the totals that depend on it.',
    };
  if (id.startsWith('BR-CO-'))
    return {
      title: 'Calculation or consistency error',
      explanation: 'A calculated amount or a combination of fields does not satisfy an EN 16931 condition.',
      suggestion: 'Recompute the totals from the lines, allowances and charges, and check the fields named in the message.',
    };
  if (/^BR-(S|Z|E|AE|IC|G|O|AF|AG|B)-/.test(id))
    return {
      title: 'VAT category rules not met',
      explanation: 'Each VAT category has its own requirements (VAT identifiers, allowed rate, exemption reason, matching VAT breakdown).',
      suggestion:
        'Check the VAT category, rate and exemption reason of the lines, allowances, charges and VAT breakdown named in the message.',
    };
  if (id.startsWith('BR-'))
    return {
      title: 'Required information missing or wrong',
      explanation: 'An EN 16931 business rule about a mandatory or conditional field is not met.',
      suggestion: 'Add or correct the field named in the message.',
    };
  if (/^6\.\d/.test(id))
    return {
      title: 'PDF/A requirement not met',
      explanation:
        'The PDF does not meet the ISO 19005 (PDF/A) clause named by the rule id; archive and Factur-X/ZUGFeRD conformance need it.',
      suggestion:
        'Fix the object named in the context, or re-create the PDF with a PDF/A-3b producer (embedded fonts, output intent, XMP metadata).',
    };
  if (id.startsWith('CII-') || id.startsWith('UBL-'))
    return {
      title: 'Syntax binding rule not met',
      explanation: 'The XML uses an element or a value format that the EN 16931 binding of this syntax does not allow.',
      suggestion: 'Remove the element or correct its format as the message says.',
    };
  return {
    title: 'Validation finding',
    explanation: 'The invoice does not satisfy a validation rule.',
    suggestion: 'Read the message and correct the field it names.',
  };
}

export function toDiagnostic(f: ValidationErrorDetail): DiagnosticDetail {
  const id = f.rule_id ?? 'XSD';
  const advice = SPECIFIC[id] ?? family(id);
  return {
    rule_id: id,
    severity: f.severity === 'information' ? 'info' : f.severity,
    title: advice.title,
    // The rule's own message names the exact field; keep it in front of the general explanation.
    explanation: f.message === advice.explanation ? advice.explanation : `${f.message} ${advice.explanation}`,
    suggestion: advice.suggestion,
    context:
      f.location || f.rule_set || f.omitted !== undefined
        ? {
            ...(f.location ? { location: f.location } : {}),
            ...(f.rule_set ? { rule_set: f.rule_set } : {}),
            ...(f.omitted !== undefined ? { omitted: f.omitted } : {}),
          }
        : null,
  };
}
