/**
 * Names of the EN 16931 business terms (BT-n) and groups (BG-n), as the semantic model calls them, and
 * of the extension terms our rules mention (XRechnung BT-DEX/BG-DEX, Factur-X EXTENDED BT-X/BG-X, French
 * CTC EXT-FR-FE). Used by the smart diagnostics to name every term a rule involves.
 */

const BT: Record<number, string> = {
  1: 'Invoice number',
  2: 'Invoice issue date',
  3: 'Invoice type code',
  5: 'Invoice currency code',
  6: 'VAT accounting currency code',
  7: 'Value added tax point date',
  8: 'Value added tax point date code',
  9: 'Payment due date',
  10: 'Buyer reference',
  11: 'Project reference',
  12: 'Contract reference',
  13: 'Purchase order reference',
  14: 'Sales order reference',
  15: 'Receiving advice reference',
  16: 'Despatch advice reference',
  17: 'Tender or lot reference',
  18: 'Invoiced object identifier',
  19: 'Buyer accounting reference',
  20: 'Payment terms',
  21: 'Invoice note subject code',
  22: 'Invoice note',
  23: 'Business process type',
  24: 'Specification identifier',
  25: 'Preceding Invoice reference',
  26: 'Preceding Invoice issue date',
  27: 'Seller name',
  28: 'Seller trading name',
  29: 'Seller identifier',
  30: 'Seller legal registration identifier',
  31: 'Seller VAT identifier',
  32: 'Seller tax registration identifier',
  33: 'Seller additional legal information',
  34: 'Seller electronic address',
  35: 'Seller address line 1',
  36: 'Seller address line 2',
  37: 'Seller city',
  38: 'Seller post code',
  39: 'Seller country subdivision',
  40: 'Seller country code',
  41: 'Seller contact point',
  42: 'Seller contact telephone number',
  43: 'Seller contact email address',
  44: 'Buyer name',
  45: 'Buyer trading name',
  46: 'Buyer identifier',
  47: 'Buyer legal registration identifier',
  48: 'Buyer VAT identifier',
  49: 'Buyer electronic address',
  50: 'Buyer address line 1',
  51: 'Buyer address line 2',
  52: 'Buyer city',
  53: 'Buyer post code',
  54: 'Buyer country subdivision',
  55: 'Buyer country code',
  56: 'Buyer contact point',
  57: 'Buyer contact telephone number',
  58: 'Buyer contact email address',
  59: 'Payee name',
  60: 'Payee identifier',
  61: 'Payee legal registration identifier',
  62: 'Seller tax representative name',
  63: 'Seller tax representative VAT identifier',
  64: 'Tax representative address line 1',
  65: 'Tax representative address line 2',
  66: 'Tax representative city',
  67: 'Tax representative post code',
  68: 'Tax representative country subdivision',
  69: 'Tax representative country code',
  70: 'Deliver to party name',
  71: 'Deliver to location identifier',
  72: 'Actual delivery date',
  73: 'Invoicing period start date',
  74: 'Invoicing period end date',
  75: 'Deliver to address line 1',
  76: 'Deliver to address line 2',
  77: 'Deliver to city',
  78: 'Deliver to post code',
  79: 'Deliver to country subdivision',
  80: 'Deliver to country code',
  81: 'Payment means type code',
  82: 'Payment means text',
  83: 'Remittance information',
  84: 'Payment account identifier',
  85: 'Payment account name',
  86: 'Payment service provider identifier',
  87: 'Payment card primary account number',
  88: 'Payment card holder name',
  89: 'Mandate reference identifier',
  90: 'Bank assigned creditor identifier',
  91: 'Debited account identifier',
  92: 'Document level allowance amount',
  93: 'Document level allowance base amount',
  94: 'Document level allowance percentage',
  95: 'Document level allowance VAT category code',
  96: 'Document level allowance VAT rate',
  97: 'Document level allowance reason',
  98: 'Document level allowance reason code',
  99: 'Document level charge amount',
  100: 'Document level charge base amount',
  101: 'Document level charge percentage',
  102: 'Document level charge VAT category code',
  103: 'Document level charge VAT rate',
  104: 'Document level charge reason',
  105: 'Document level charge reason code',
  106: 'Sum of Invoice line net amount',
  107: 'Sum of allowances on document level',
  108: 'Sum of charges on document level',
  109: 'Invoice total amount without VAT',
  110: 'Invoice total VAT amount',
  111: 'Invoice total VAT amount in accounting currency',
  112: 'Invoice total amount with VAT',
  113: 'Paid amount',
  114: 'Rounding amount',
  115: 'Amount due for payment',
  116: 'VAT category taxable amount',
  117: 'VAT category tax amount',
  118: 'VAT category code',
  119: 'VAT category rate',
  120: 'VAT exemption reason text',
  121: 'VAT exemption reason code',
  122: 'Supporting document reference',
  123: 'Supporting document description',
  124: 'External document location',
  125: 'Attached document',
  126: 'Invoice line identifier',
  127: 'Invoice line note',
  128: 'Invoice line object identifier',
  129: 'Invoiced quantity',
  130: 'Invoiced quantity unit of measure code',
  131: 'Invoice line net amount',
  132: 'Referenced purchase order line reference',
  133: 'Invoice line Buyer accounting reference',
  134: 'Invoice line period start date',
  135: 'Invoice line period end date',
  136: 'Invoice line allowance amount',
  137: 'Invoice line allowance base amount',
  138: 'Invoice line allowance percentage',
  139: 'Invoice line allowance reason',
  140: 'Invoice line allowance reason code',
  141: 'Invoice line charge amount',
  142: 'Invoice line charge base amount',
  143: 'Invoice line charge percentage',
  144: 'Invoice line charge reason',
  145: 'Invoice line charge reason code',
  146: 'Item net price',
  147: 'Item price discount',
  148: 'Item gross price',
  149: 'Item price base quantity',
  150: 'Item price base quantity unit of measure code',
  151: 'Invoiced item VAT category code',
  152: 'Invoiced item VAT rate',
  153: 'Item name',
  154: 'Item description',
  155: "Item Seller's identifier",
  156: "Item Buyer's identifier",
  157: 'Item standard identifier',
  158: 'Item classification identifier',
  159: 'Item country of origin',
  160: 'Item attribute name',
  161: 'Item attribute value',
  162: 'Seller address line 3',
  163: 'Buyer address line 3',
  164: 'Tax representative address line 3',
  165: 'Deliver to address line 3',
};

/** Sub-terms the semantic model and the rule artefacts name: the scheme or attribute of a term. */
const SUB: Record<string, string> = {
  'BT-110-0': 'currency of the Invoice total VAT amount',
  'BT-111-1': 'currency of the Invoice total VAT amount in accounting currency',
  'BT-125-1': 'Attached document Mime code',
  'BT-125-2': 'Attached document Filename',
  'BT-128-1': 'Invoice line object identifier scheme identifier',
  'BT-157-1': 'Item standard identifier scheme identifier',
  'BT-158-1': 'Item classification identifier scheme identifier',
  'BT-158-2': 'Item classification identifier scheme version identifier',
  'BT-17-0': 'Tender or lot reference type code',
  'BT-18-1': 'Invoiced object identifier scheme identifier',
  'BT-29-1': 'Seller identifier scheme identifier',
  'BT-30-1': 'Seller legal registration identifier scheme identifier',
  'BT-34-1': 'Seller electronic address scheme identifier',
  'BT-46-1': 'Buyer identifier scheme identifier',
  'BT-47-1': 'Buyer legal registration identifier scheme identifier',
  'BT-49-1': 'Buyer electronic address scheme identifier',
  'BT-60-1': 'Payee identifier scheme identifier',
  'BT-61-1': 'Payee legal registration identifier scheme identifier',
  'BT-71-1': 'Deliver to location identifier scheme identifier',
};

const BG: Record<number, string> = {
  1: 'INVOICE NOTE',
  2: 'PROCESS CONTROL',
  3: 'PRECEDING INVOICE REFERENCE',
  4: 'SELLER',
  5: 'SELLER POSTAL ADDRESS',
  6: 'SELLER CONTACT',
  7: 'BUYER',
  8: 'BUYER POSTAL ADDRESS',
  9: 'BUYER CONTACT',
  10: 'PAYEE',
  11: 'SELLER TAX REPRESENTATIVE PARTY',
  12: 'SELLER TAX REPRESENTATIVE POSTAL ADDRESS',
  13: 'DELIVERY INFORMATION',
  14: 'INVOICING PERIOD',
  15: 'DELIVER TO ADDRESS',
  16: 'PAYMENT INSTRUCTIONS',
  17: 'CREDIT TRANSFER',
  18: 'PAYMENT CARD INFORMATION',
  19: 'DIRECT DEBIT',
  20: 'DOCUMENT LEVEL ALLOWANCES',
  21: 'DOCUMENT LEVEL CHARGES',
  22: 'DOCUMENT TOTALS',
  23: 'VAT BREAKDOWN',
  24: 'ADDITIONAL SUPPORTING DOCUMENTS',
  25: 'INVOICE LINE',
  26: 'INVOICE LINE PERIOD',
  27: 'INVOICE LINE ALLOWANCES',
  28: 'INVOICE LINE CHARGES',
  29: 'PRICE DETAILS',
  30: 'LINE VAT INFORMATION',
  31: 'ITEM INFORMATION',
  32: 'ITEM ATTRIBUTES',
};

/** Extension terms the rules mention (XRechnung, Factur-X EXTENDED): the ones we can name precisely. */
const EXTENSION: Record<string, string> = {
  'BG-DEX-01': 'Sub invoice line (XRechnung extension)',
  'BG-DEX-06': 'Sub invoice line VAT information (XRechnung extension)',
  'BG-DEX-09': 'Third party payment (XRechnung extension)',
  'BT-DEX-001': 'Third party payment type (XRechnung extension)',
  'BT-DEX-002': 'Third party payment amount (XRechnung extension)',
  'BT-DEX-003': 'Third party payment description (XRechnung extension)',
  // French CTC terms, as the BR-FR rules' own messages describe them.
  'EXT-FR-FE-136': 'Preceding invoice number on a line (French CTC)',
  'EXT-FR-FE-163': 'Line sub-type (French CTC)',
  'EXT-FR-FE-164': 'Seller name of a sub-invoice GROUP line (French CTC)',
  'EXT-FR-FE-167': 'Seller legal identifier of a sub-invoice GROUP line (French CTC)',
  'EXT-FR-FE-177': 'Seller country of a sub-invoice GROUP line (French CTC)',
  'EXT-FR-FE-181': 'VAT total of a sub-invoice GROUP line (French CTC)',
  'EXT-FR-FE-182': 'VAT total in accounting currency of a sub-invoice GROUP line (French CTC)',
};

/** What an extension term without a name in the tables above is called (the finding's message describes it). */
const UNNAMED: [prefix: string, label: string][] = [
  ['BT-X-', 'Factur-X EXTENDED term'],
  ['BG-X-', 'Factur-X EXTENDED group'],
  ['BT-DEX-', 'XRechnung extension term'],
  ['BG-DEX-', 'XRechnung extension group'],
  ['EXT-FR-FE-', 'French CTC extension term'],
];

/** The name of a term id (BT-n, BG-n, BT-n-n, BT-DEX-n, BT-X-n, EXT-FR-FE-n); a plain description for unknown ones. */
export function termName(id: string): string {
  const t = id.toUpperCase();
  const sub = SUB[t];
  if (sub) return sub;
  const ext = EXTENSION[t];
  if (ext) return ext;
  let m = /^BT-(\d+)$/.exec(t);
  if (m && BT[+m[1]]) return BT[+m[1]];
  m = /^BG-(\d+)$/.exec(t);
  // The model writes group names in capitals; in a sentence they read better in sentence case.
  if (m && BG[+m[1]]) return sentenceCase(BG[+m[1]]);
  m = /^BT-(\d+)-\d+$/.exec(t);
  if (m && BT[+m[1]]) return `Component of ${BT[+m[1]]}`;
  for (const [prefix, label] of UNNAMED) if (t.startsWith(prefix)) return label;
  return 'Business term';
}

function sentenceCase(s: string): string {
  return (s.charAt(0) + s.slice(1).toLowerCase()).replace(/\bvat\b/gi, 'VAT');
}

/** "Invoice number (BT-1)"; an extension term without a name: "French CTC extension term EXT-FR-FE-46". */
export function named(id: string): string {
  return isKnownTerm(id) ? `${termName(id)} (${id})` : `${termName(id)} ${id}`;
}

/** Every term reference in a text, in order of first mention. */
export function termsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(?:EXT-FR-FE-(?:BG-)?\d+(?:-\d+)?|B[TG]-(?:X-|DEX-)?\d+(?:-\d+)?)\b/g))
    if (!out.includes(m[0])) out.push(m[0]);
  return out;
}

/** Is this a term of the EN 16931 model (named precisely in the table above)? */
export function isKnownTerm(id: string): boolean {
  const name = termName(id);
  return name !== 'Business term' && !UNNAMED.some(([, label]) => label === name);
}
