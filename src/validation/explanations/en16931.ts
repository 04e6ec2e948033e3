/**
 * Per-id advice where the general builders would say too little: the EN 16931 calculation rules (BR-CO-*),
 * the code-list rules (BR-CL-*, by list), and the Peppol rules XRechnung applies. Written in our own words
 * from the rules' business terms; the finding's own message (also ours) stays in front of the explanation.
 */
import type { Advice } from './types.js';

export interface Entry extends Partial<Advice> {
  /** The terms the rule involves, when its message does not name them all. */
  terms?: string[];
}

export const EN16931: Record<string, Entry> = {
  'BR-27': { title: 'Item net price (BT-146) is negative' },
  'BR-28': { title: 'Item gross price (BT-148) is negative' },
  'BR-29': {
    title: 'Invoicing period ends before it starts',
    suggestion:
      'Set the invoicing period end date (BT-74) on or after its start date (BT-73); swap them if they were entered the wrong way round.',
  },
  'BR-30': {
    title: 'Invoice line period ends before it starts',
    suggestion:
      'Set the line period end date (BT-135) on or after its start date (BT-134); swap them if they were entered the wrong way round.',
  },
  'BR-CO-03': {
    title: 'VAT point date and VAT point date code both given',
    suggestion: 'Give either the actual VAT point date (BT-7) or the code saying how it is determined (BT-8), not both.',
  },
  'BR-CO-04': {
    title: 'Invoice line without VAT category',
    suggestion: 'Give every line its VAT category code (BT-151), e.g. S for standard rated, with the matching VAT rate (BT-152).',
    terms: ['BT-151', 'BG-25'],
  },
  'BR-CO-09': {
    title: 'VAT identifier without country prefix',
    suggestion: 'Write the VAT identifier with its two-letter country prefix, e.g. DE123456789 (EL for Greece, XI for Northern Ireland).',
  },
  'BR-CO-10': {
    title: 'Sum of line net amounts (BT-106) does not match the lines',
    explanation:
      'The Sum of Invoice line net amount (BT-106) must be the sum of every Invoice line net amount (BT-131). The lines as sent add up to a different figure (context.compared lists the line amounts, their sum, the stated BT-106 and the difference).',
    suggestion:
      'Set BT-106 to the sum of all line net amounts, or correct the line whose net amount (quantity × net price − line allowances + line charges) was changed without updating the total.',
  },
  'BR-CO-11': {
    title: 'Sum of document allowances (BT-107) does not match the allowances',
    explanation:
      'The Sum of allowances on document level (BT-107) must be the sum of every Document level allowance amount (BT-92) (context.compared lists them, their sum and the difference).',
    suggestion: 'Set BT-107 to the sum of the document level allowance amounts, or remove BT-107 when there is no allowance.',
  },
  'BR-CO-12': {
    title: 'Sum of document charges (BT-108) does not match the charges',
    explanation:
      'The Sum of charges on document level (BT-108) must be the sum of every Document level charge amount (BT-99) (context.compared lists them, their sum and the difference).',
    suggestion: 'Set BT-108 to the sum of the document level charge amounts, or remove BT-108 when there is no charge.',
  },
  'BR-CO-13': {
    title: 'Total without VAT (BT-109) does not add up',
    explanation:
      'The Invoice total amount without VAT (BT-109) must be the Sum of Invoice line net amount (BT-106) minus the Sum of allowances on document level (BT-107) plus the Sum of charges on document level (BT-108) (context.compared gives each figure, the expected total and the difference).',
    suggestion: 'Recompute BT-109 = BT-106 − BT-107 + BT-108, and check that BT-107 and BT-108 match their allowances and charges.',
  },
  'BR-CO-14': {
    title: 'Total VAT (BT-110) does not match the VAT breakdown',
    explanation:
      'The Invoice total VAT amount (BT-110) must be the sum of the VAT category tax amounts (BT-117) of all VAT BREAKDOWN groups (BG-23) (context.compared lists them, their sum and the difference).',
    suggestion: 'Set BT-110 to the sum of the VAT breakdown tax amounts, or correct the breakdown that is wrong.',
    terms: ['BT-110', 'BT-117', 'BG-23'],
  },
  'BR-CO-15': {
    title: 'Total with VAT (BT-112) does not add up',
    explanation:
      'The Invoice total amount with VAT (BT-112) must be the Invoice total amount without VAT (BT-109) plus the Invoice total VAT amount (BT-110), and the VAT total must be given exactly once in the invoice currency (BT-5) (context.compared gives the figures and the difference).',
    suggestion:
      'Set BT-112 = BT-109 + BT-110, and state the VAT total in the invoice currency once (a second VAT total belongs to the VAT accounting currency BT-6 only).',
    terms: ['BT-112', 'BT-109', 'BT-110', 'BT-5'],
  },
  'BR-CO-16': {
    title: 'Amount due (BT-115) does not add up',
    explanation:
      'The Amount due for payment (BT-115) must be the Invoice total amount with VAT (BT-112) minus the Paid amount (BT-113) plus the Rounding amount (BT-114) (context.compared gives the figures and the difference).',
    suggestion: 'Recompute BT-115 = BT-112 − BT-113 + BT-114; a prepayment belongs in BT-113, not in a reduced BT-112.',
  },
  'BR-CO-17': {
    title: 'VAT amount of a VAT breakdown (BT-117) is wrong',
    explanation:
      'In each VAT BREAKDOWN (BG-23), the VAT category tax amount (BT-117) must be the VAT category taxable amount (BT-116) × VAT category rate (BT-119) / 100, rounded to two decimals; a difference below one currency unit is tolerated (context.compared gives the figures and the expected amount).',
    suggestion: 'Recompute BT-117 of that breakdown from its taxable amount and rate.',
    terms: ['BT-117', 'BT-116', 'BT-119', 'BG-23'],
  },
  'BR-CO-18': {
    title: 'VAT breakdown (BG-23) missing',
    suggestion:
      'Add one VAT breakdown per VAT category and rate used on the lines, allowances and charges, with its taxable amount, tax amount, category code and rate.',
    terms: ['BG-23', 'BT-116', 'BT-117', 'BT-118', 'BT-119'],
  },
  'BR-CO-19': {
    title: 'Invoicing period (BG-14) without dates',
    suggestion: 'Give the invoicing period a start date (BT-73), an end date (BT-74) or both, or remove the empty period.',
  },
  'BR-CO-20': {
    title: 'Invoice line period (BG-26) without dates',
    suggestion: 'Give the line period a start date (BT-134), an end date (BT-135) or both, or remove the empty period.',
  },
  'BR-CO-21': {
    title: 'Document allowance without reason',
    suggestion: 'Give the allowance a reason text (BT-97) or a UNTDID 5189 reason code (BT-98), e.g. 95 (discount).',
  },
  'BR-CO-22': {
    title: 'Document charge without reason',
    suggestion: 'Give the charge a reason text (BT-104) or a UNTDID 7161 reason code (BT-105), e.g. FC (freight).',
  },
  'BR-CO-23': {
    title: 'Line allowance without reason',
    suggestion: 'Give the line allowance a reason text (BT-139) or a UNTDID 5189 reason code (BT-140).',
  },
  'BR-CO-24': {
    title: 'Line charge without reason',
    suggestion: 'Give the line charge a reason text (BT-144) or a UNTDID 7161 reason code (BT-145).',
  },
  'BR-CO-25': {
    title: 'Payment due date or terms missing',
    suggestion: 'When an amount is due, give the payment due date (BT-9) or describe the payment terms (BT-20).',
  },
  'BR-CO-26': {
    title: 'Seller cannot be identified',
    suggestion: "Add the seller's VAT identifier (BT-31), company registration number (BT-30) or another seller identifier (BT-29).",
  },
};

/** The code list each BR-CL rule checks, and an example of a valid code. */
export const CODE_LISTS: Record<string, { term: string; list: string; example: string }> = {
  'BR-CL-01': {
    term: 'BT-3',
    list: 'the invoice type codes of UNTDID 1001 that EN 16931 accepts',
    example: '380 (commercial invoice) or 381 (credit note)',
  },
  'BR-CL-03': { term: 'BT-5', list: 'ISO 4217 currency codes', example: 'EUR' },
  'BR-CL-04': { term: 'BT-5', list: 'ISO 4217 currency codes', example: 'EUR' },
  'BR-CL-05': { term: 'BT-6', list: 'ISO 4217 currency codes', example: 'EUR' },
  'BR-CL-06': {
    term: 'BT-8',
    list: 'the UNTDID 2005 codes EN 16931 accepts',
    example: 'the code for the invoice date, delivery date or payment date as your syntax binding gives it',
  },
  'BR-CL-07': { term: 'BT-18-1', list: 'UNTDID 1153 reference qualifiers', example: 'AAB' },
  'BR-CL-08': {
    term: 'BT-21',
    list: 'UNTDID 4451 text subject qualifiers',
    example: 'AAI (general information) or REG (regulatory information)',
  },
  'BR-CL-10': { term: 'BT-29-1', list: 'ISO 6523 ICD identifier schemes', example: '0088 (GLN) or 0060 (DUNS)' },
  'BR-CL-11': { term: 'BT-30-1', list: 'ISO 6523 ICD identifier schemes', example: '0002 (SIRENE) or 0088 (GLN)' },
  'BR-CL-13': { term: 'BT-158-1', list: 'UNTDID 7143 item classification schemes', example: 'STI or TST' },
  'BR-CL-14': { term: 'BT-40', list: 'ISO 3166-1 alpha-2 country codes', example: 'DE, FR' },
  'BR-CL-15': { term: 'BT-159', list: 'ISO 3166-1 alpha-2 country codes', example: 'DE, FR' },
  'BR-CL-16': { term: 'BT-81', list: 'UNTDID 4461 payment means codes', example: '58 (SEPA credit transfer) or 30 (credit transfer)' },
  'BR-CL-17': { term: 'BT-118', list: 'the UNTDID 5305 VAT category codes EN 16931 accepts (S, Z, E, AE, K, G, O, L, M)', example: 'S' },
  'BR-CL-18': { term: 'BT-151', list: 'the UNTDID 5305 VAT category codes EN 16931 accepts (S, Z, E, AE, K, G, O, L, M)', example: 'S' },
  'BR-CL-19': { term: 'BT-98', list: 'UNTDID 5189 allowance reason codes', example: '95 (discount)' },
  'BR-CL-20': { term: 'BT-105', list: 'UNTDID 7161 charge reason codes', example: 'FC (freight service)' },
  'BR-CL-21': { term: 'BT-157-1', list: 'ISO 6523 ICD identifier schemes', example: '0160 (GTIN)' },
  'BR-CL-22': { term: 'BT-121', list: 'the VATEX exemption reason codes', example: 'VATEX-EU-AE' },
  'BR-CL-23': { term: 'BT-130', list: 'UN/ECE Recommendation 20 and 21 units of measure', example: 'C62 (one), H87 (piece), HUR (hour)' },
  'BR-CL-24': { term: 'BT-125-1', list: 'the accepted MIME types', example: 'application/pdf' },
  'BR-CL-25': { term: 'BT-34-1', list: 'the CEF Electronic Address Scheme (EAS) codes', example: 'EM (e-mail) or 0204 (Leitweg-ID)' },
  'BR-CL-26': { term: 'BT-71-1', list: 'ISO 6523 ICD identifier schemes', example: '0088 (GLN)' },
};

/** The Peppol rules XRechnung applies, and XRechnung's own rules, where the builder needs a better title or suggestion. */
export const CIUS: Record<string, Entry> = {
  'PEPPOL-EN16931-R001': {
    title: 'Business process type (BT-23) missing',
    suggestion: 'Set BT-23, e.g. urn:fdc:peppol.eu:2017:poacc:billing:01:1.0.',
  },
  'PEPPOL-EN16931-R005': {
    title: 'VAT accounting currency equals the invoice currency',
    suggestion: 'Remove BT-6 (and BT-111) when VAT is accounted in the invoice currency.',
    terms: ['BT-6', 'BT-5'],
  },
  'PEPPOL-EN16931-R008': {
    title: 'Empty element in the document',
    explanation:
      'The document contains an element with no content (no text and no child elements). Empty elements carry no business term value and receivers may reject them.',
    suggestion: 'Remove the empty element named in the location (writers should leave an element out rather than write it empty).',
  },
  'PEPPOL-EN16931-R010': {
    title: 'Buyer electronic address (BT-49) missing',
    suggestion:
      "Add the buyer's electronic address with its scheme (BT-49-1), e.g. the Leitweg-ID with scheme 0204 or an e-mail with scheme EM.",
  },
  'PEPPOL-EN16931-R020': {
    title: 'Seller electronic address (BT-34) missing',
    suggestion: "Add the seller's electronic address with its scheme (BT-34-1), e.g. an e-mail with scheme EM.",
  },
  'PEPPOL-EN16931-R040': {
    title: 'Allowance/charge amount ≠ base × percentage',
    terms: ['BT-92', 'BT-93', 'BT-94', 'BT-99', 'BT-100', 'BT-101'],
    suggestion: 'Set the amount to base amount × percentage / 100 (rounded to two decimals), or correct the base or the percentage.',
  },
  'PEPPOL-EN16931-R041': {
    title: 'Allowance/charge base amount missing',
    terms: ['BT-93', 'BT-94', 'BT-100', 'BT-101'],
    suggestion: 'Give the base amount the percentage applies to, or drop the percentage.',
  },
  'PEPPOL-EN16931-R042': {
    title: 'Allowance/charge percentage missing',
    terms: ['BT-93', 'BT-94', 'BT-100', 'BT-101'],
    suggestion: 'Give the percentage applied to the base amount, or drop the base amount.',
  },
  'PEPPOL-EN16931-R043': {
    title: 'Charge indicator not true/false',
    terms: ['BG-20', 'BG-21'],
    suggestion: "Write the charge indicator as 'true' (charge) or 'false' (allowance), in lower case.",
  },
  'PEPPOL-EN16931-R043-1': {
    title: 'Charge indicator not true/false',
    terms: ['BG-20', 'BG-21'],
    suggestion: "Write the charge indicator as 'true' (charge) or 'false' (allowance), in lower case.",
  },
  'PEPPOL-EN16931-R043-2': {
    title: 'Price discount indicator not true/false',
    terms: ['BT-147'],
    suggestion: "Write the price allowance's charge indicator as 'false'.",
  },
  'PEPPOL-EN16931-R044': {
    title: 'Charge on the item price not allowed',
    terms: ['BT-147', 'BT-148'],
    suggestion: 'Include price-level charges in the net price (BT-146) or make them line charges (BG-28).',
  },
  'PEPPOL-EN16931-R046': {
    title: 'Item net price (BT-146) ≠ gross price − discount',
    suggestion: 'Set the net price to gross price (BT-148) minus price discount (BT-147), or correct the gross price or discount.',
  },
  'PEPPOL-EN16931-R053': {
    title: 'VAT total given more than once in the invoice currency',
    terms: ['BT-110', 'BT-5'],
    suggestion:
      'Give the VAT total in the invoice currency once; a second VAT total is only for the VAT accounting currency (BT-6 / BT-111).',
  },
  'PEPPOL-EN16931-R054': {
    title: 'VAT total in accounting currency (BT-111) missing or unexpected',
    terms: ['BT-111', 'BT-6'],
    suggestion: 'With BT-6 give exactly one VAT total in that currency (BT-111); without BT-6 give none.',
  },
  'PEPPOL-EN16931-R055': {
    title: 'VAT totals in the two currencies differ in sign',
    terms: ['BT-110', 'BT-111'],
    suggestion: 'Make BT-110 and BT-111 both positive (or both negative for a credit).',
  },
  'PEPPOL-EN16931-R061': {
    title: 'Mandate reference (BT-89) missing for direct debit',
    terms: ['BT-89', 'BT-81', 'BG-19'],
    suggestion: 'Add the SEPA mandate reference (BT-89) to the direct debit information.',
  },
  'PEPPOL-EN16931-R101': {
    title: 'Line document reference of a type other than 130',
    terms: ['BT-128'],
    suggestion:
      "Reference only the invoiced object on a line (type code 130); other documents belong to the header's supporting documents (BG-24).",
  },
  'PEPPOL-EN16931-R110': {
    title: 'Line period starts before the invoicing period',
    terms: ['BT-134', 'BT-73'],
    suggestion: 'Move the line period start (BT-134) into the invoicing period, or widen the invoicing period (BT-73).',
  },
  'PEPPOL-EN16931-R111': {
    title: 'Line period ends after the invoicing period',
    terms: ['BT-135', 'BT-74'],
    suggestion: 'Move the line period end (BT-135) into the invoicing period, or widen the invoicing period (BT-74).',
  },
  'PEPPOL-EN16931-R120': {
    title: 'Line net amount (BT-131) ≠ quantity × price ± line allowances/charges',
    terms: ['BT-131', 'BT-129', 'BT-146', 'BT-149', 'BT-136', 'BT-141'],
    suggestion:
      'Recompute the line net amount as quantity × (net price / base quantity) + line charges − line allowances, rounded to two decimals.',
  },
  'PEPPOL-EN16931-R121': {
    title: 'Price base quantity (BT-149) not positive',
    suggestion: 'Set the price base quantity to a positive number (usually 1), or leave it out.',
  },
  'PEPPOL-EN16931-R130': {
    title: 'Price base quantity unit differs from the invoiced unit',
    suggestion: 'Use the same unit of measure for the price base quantity (BT-150) as for the invoiced quantity (BT-130).',
  },
  'BR-DE-1': {
    title: 'Payment instructions (BG-16) missing',
    suggestion: 'Add payment instructions: the payment means code (BT-81) and, for a transfer, the IBAN (BT-84).',
    terms: ['BG-16', 'BT-81'],
  },
  'BR-DE-15': {
    title: 'Buyer reference (BT-10) missing',
    suggestion: 'Give the buyer reference: for German public buyers, their Leitweg-ID.',
  },
  'BR-DE-16': {
    title: 'Seller VAT registration missing',
    suggestion: "Add the seller's VAT identifier (BT-31) or tax number (BT-32), or a tax representative (BG-11).",
  },
  'BR-DE-17': {
    title: 'Invoice type code (BT-3) unusual for XRechnung',
    suggestion:
      'Use one of the type codes XRechnung accepts: 380 invoice, 381 credit note, 384 corrected invoice, 389 self-billed invoice, 326 partial invoice, 875–877 construction invoices.',
  },
  'BR-DE-18': {
    title: 'Skonto line in payment terms (BT-20) malformed',
    suggestion:
      'Write each cash discount as #SKONTO#TAGE=14#PROZENT=2.00# on its own line, ending with a line break; free text goes on other lines.',
  },
  'BR-DE-21': {
    title: 'Specification identifier (BT-24) is not XRechnung',
    suggestion: 'Set BT-24 to the XRechnung identifier, urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0.',
  },
  'BR-DE-22': { title: 'Attachment file names (BT-125-2) not unique', suggestion: 'Give every attached document a distinct file name.' },
  'BR-DE-23-a': {
    title: 'Credit transfer details (BG-17) missing',
    terms: ['BG-17', 'BT-81', 'BT-84'],
    suggestion: 'With payment means 30 or 58, add the credit transfer group with the IBAN (BT-84).',
  },
  'BR-DE-23-b': {
    title: 'Card or direct debit details with a credit transfer',
    terms: ['BG-18', 'BG-19', 'BT-81'],
    suggestion: 'Remove the payment card and direct debit information, or change the payment means code.',
  },
  'BR-DE-24-a': {
    title: 'Payment card details (BG-18) missing',
    terms: ['BG-18', 'BT-81', 'BT-87'],
    suggestion: 'With payment means 48, 54 or 55, add the card group with the last digits of the card number (BT-87).',
  },
  'BR-DE-24-b': {
    title: 'Transfer or direct debit details with a card payment',
    terms: ['BG-17', 'BG-19', 'BT-81'],
    suggestion: 'Remove the credit transfer and direct debit information, or change the payment means code.',
  },
  'BR-DE-25-a': {
    title: 'Direct debit details (BG-19) missing',
    terms: ['BG-19', 'BT-81', 'BT-89'],
    suggestion: 'With payment means 59, add the direct debit group with the mandate reference (BT-89) and debited account (BT-91).',
  },
  'BR-DE-25-b': {
    title: 'Transfer or card details with a direct debit',
    terms: ['BG-17', 'BG-18', 'BT-81'],
    suggestion: 'Remove the credit transfer and card information, or change the payment means code.',
  },
  'BR-DE-26': {
    title: 'Corrected invoice without preceding invoice reference',
    terms: ['BT-3', 'BG-3', 'BT-25'],
    suggestion: 'Reference the invoice being corrected (BT-25, with its date BT-26).',
  },
  'BR-DE-27': {
    title: 'Seller telephone number (BT-42) implausible',
    suggestion: 'Give a telephone number with at least three digits, e.g. +49 30 123456.',
  },
  'BR-DE-28': {
    title: 'Seller e-mail address (BT-43) implausible',
    suggestion: 'Give a complete e-mail address such as invoices@example.com.',
  },
  'BR-DE-TMP-32': {
    title: 'Delivery date or period missing',
    terms: ['BT-72', 'BG-14', 'BG-26'],
    suggestion: 'Give the actual delivery date (BT-72) or the invoicing period (BG-14), or a period on every line (BG-26).',
  },
  'BR-DEX-15': {
    title: 'Sub-invoice lines not supported by XRechnung',
    terms: ['BG-25', 'BG-DEX-01'],
    suggestion: 'Flatten the sub-invoice lines into ordinary lines, or use the XRechnung extension profile.',
  },
};
