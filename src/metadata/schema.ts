/**
 * Invoice metadata JSON: the request body of POST /v1/xml and /v1/convert (form field `metadata`).
 *
 * Field names follow the API's BusinessReadyInvoice (invoice_number, seller.vat_number, line_items[].net_price, ...)
 * and extend it with what real invoices need; each field names the EN 16931 business term it fills.
 * Amounts, quantities, prices and rates are decimal strings, or JSON numbers read losslessly from the JSON text
 * (./json-numbers.ts: `0.1` is "0.1", `1e2` is "100"); either way kept exactly as given.
 * A member whose value is null counts as absent (BusinessReadyInvoice sends nulls for absent values).
 * Published in OpenAPI as `InvoiceMetadata`.
 */
import type { Static } from 'typebox';
import { Type } from './json-schema.js';
import { MAX_DECIMAL_LENGTH } from '../model/decimal.js';
import { DECIMAL_MARK } from './json-numbers.js';
import { CODELISTS } from '../rules/data/codelists.js';

// ---- scalar building blocks -------------------------------------------------------------------------------

/** Decimal fields take a string or a JSON number (resolved to its decimal string before validation). */
const DECIMAL = { type: ['string', 'number'], [DECIMAL_MARK]: true };

const text = (description: string, extra: Record<string, unknown> = {}) => Type.String({ minLength: 1, description, ...extra });

// Every decimal is at most MAX_DECIMAL_LENGTH (64) characters: refused before any arithmetic, which is
// quadratic in the digits (a 100,000-digit quantity times a 100,000-digit price took 30 s).

/** Signed decimal with at most two fraction digits (EN 16931 BR-DEC-*: amounts). */
const amount = (description: string) =>
  Type.String({
    ...DECIMAL,
    maxLength: MAX_DECIMAL_LENGTH,
    pattern: '^[+-]?[0-9]+(\\.[0-9]{1,2})?$',
    description: `${description} Decimal string, at most 2 decimals.`,
    examples: ['119.00'],
  });
/** Non-negative decimal of any precision (unit prices: BR-27/BR-28). */
const price = (description: string) =>
  Type.String({
    ...DECIMAL,
    maxLength: MAX_DECIMAL_LENGTH,
    pattern: '^[0-9]+(\\.[0-9]+)?$',
    description: `${description} Non-negative decimal string.`,
    examples: ['12.50'],
  });
/** Signed decimal of any precision. */
const quantity = (description: string) =>
  Type.String({
    ...DECIMAL,
    maxLength: MAX_DECIMAL_LENGTH,
    pattern: '^[+-]?[0-9]+(\\.[0-9]+)?$',
    description: `${description} Decimal string.`,
    examples: ['2'],
  });
/** Percentage, non-negative, e.g. "19", "7.7". */
const percent = (description: string) =>
  Type.String({
    ...DECIMAL,
    maxLength: MAX_DECIMAL_LENGTH,
    pattern: '^[0-9]+(\\.[0-9]+)?$',
    description: `${description} Percentage as decimal string.`,
    examples: ['19'],
  });
const date = (description: string) =>
  Type.String({
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    format: 'date',
    description: `${description} ISO date YYYY-MM-DD.`,
    examples: ['2026-11-22'],
  });
const countryCode = (description: string) =>
  Type.String({ pattern: '^[A-Z]{2}$', description: `${description} ISO 3166-1 alpha-2.`, examples: ['DE'] });
const currencyCode = (description: string) =>
  Type.String({ pattern: '^[A-Z]{3}$', description: `${description} ISO 4217.`, examples: ['EUR'] });
const unitCode = (description: string) =>
  Type.String({
    pattern: '^[A-Z0-9]{1,3}$',
    description: `${description} UN/ECE Rec 20/21 code, e.g. C62 (one), HUR (hour), KGM.`,
    examples: ['C62'],
  });

export const PROFILE_VALUES = ['minimum', 'basic_wl', 'basic', 'en16931', 'extended', 'xrechnung', 'extended_ctc_fr', 'peppol'] as const;

/** Output syntaxes: CII (the Factur-X profiles, XRechnung CII) or UBL 2.1 (EN 16931, XRechnung UBL, Peppol BIS). */
export const SYNTAX_VALUES = ['cii', 'ubl'] as const;

/** Profiles UBL is written for; the others are Factur-X profiles, CII only. */
export const UBL_PROFILE_VALUES = ['en16931', 'xrechnung', 'peppol'] as const;

/** VAT category codes of EN 16931 (UNTDID 5305 subset) that this service writes. */
export const VAT_CATEGORY_VALUES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;

/** BT-3 invoice type codes accepted by EN 16931 (UNTDID 1001 subset, BR-CL-01). */
export const DOCUMENT_TYPE_VALUES = [
  '71',
  '80',
  '81',
  '82',
  '83',
  '84',
  '102',
  '130',
  '202',
  '203',
  '204',
  '211',
  '218',
  '219',
  '261',
  '262',
  '295',
  '296',
  '308',
  '325',
  '326',
  '331',
  '380',
  '381',
  '382',
  '383',
  '384',
  '385',
  '386',
  '387',
  '388',
  '389',
  '390',
  '393',
  '394',
  '395',
  '396',
  '420',
  '456',
  '457',
  '458',
  '471',
  '472',
  '473',
  '500',
  '501',
  '502',
  '503',
  '527',
  '532',
  '553',
  '575',
  '623',
  '633',
  '751',
  '780',
  '817',
  '870',
  '875',
  '876',
  '877',
  '935',
] as const;

/** BT-81 payment means codes (UNTDID 4461, BR-CL-16). */
export const PAYMENT_MEANS_VALUES = [
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
  '10',
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '17',
  '18',
  '19',
  '20',
  '21',
  '22',
  '23',
  '24',
  '25',
  '26',
  '27',
  '28',
  '29',
  '30',
  '31',
  '32',
  '33',
  '34',
  '35',
  '36',
  '37',
  '38',
  '39',
  '40',
  '41',
  '42',
  '43',
  '44',
  '45',
  '46',
  '47',
  '48',
  '49',
  '50',
  '51',
  '52',
  '53',
  '54',
  '55',
  '56',
  '57',
  '58',
  '59',
  '60',
  '61',
  '62',
  '63',
  '64',
  '65',
  '66',
  '67',
  '68',
  '69',
  '70',
  '74',
  '75',
  '76',
  '77',
  '78',
  '91',
  '92',
  '93',
  '94',
  '95',
  '96',
  '97',
  '98',
  'ZZZ',
] as const;

// ---- groups -----------------------------------------------------------------------------------------------

const Identifier = Type.Object(
  {
    id: text('Identifier value.'),
    scheme: Type.Optional(text('Scheme: ISO 6523 ICD (e.g. 0088 GLN, 0060 DUNS) for party ids, CEF EAS for electronic addresses.')),
  },
  { additionalProperties: false },
);

const ElectronicAddress = Type.Object(
  {
    id: text('Electronic address, e.g. an e-mail address or a Leitweg-ID / Peppol participant id.'),
    scheme: text('CEF EAS scheme, e.g. EM (e-mail), 9930 (DE VAT), 0204 (Leitweg-ID), 0088 (GLN).'),
  },
  { additionalProperties: false, description: 'BT-34 / BT-49 electronic address (mandatory in XRechnung).' },
);

export const AddressSchema = Type.Object(
  {
    line1: Type.Optional(text('BT-35/50/64/75 address line 1.')),
    line2: Type.Optional(text('BT-36/51/65/76 address line 2.')),
    line3: Type.Optional(text('BT-162/163/164/165 address line 3.')),
    city: Type.Optional(text('BT-37/52/66/77 city.')),
    postcode: Type.Optional(text('BT-38/53/67/78 post code.')),
    country_subdivision: Type.Optional(text('BT-39/54/68/79 region.')),
    country_code: countryCode('BT-40/55/69/80 country.'),
  },
  { additionalProperties: false },
);

const Contact = Type.Object(
  {
    name: Type.Optional(text('BT-41/56 contact person or department.')),
    department: Type.Optional(text('Department (CII DepartmentName; part of BT-41/56).')),
    phone: Type.Optional(text('BT-42/57 telephone.')),
    email: Type.Optional(text('BT-43/58 e-mail.')),
  },
  { additionalProperties: false },
);

const partyFields = {
  name: text('BT-27/44 legal name.'),
  trading_name: Type.Optional(text('BT-28/45 trading name.')),
  identifiers: Type.Optional(Type.Array(Identifier, { description: 'BT-29/46 party identifiers (GLN, DUNS, ...).' })),
  vat_number: Type.Optional(text('BT-31/48 VAT identifier with country prefix, e.g. DE123456789.')),
  registration_id: Type.Optional(text('BT-30/47 legal registration id (trade register number).')),
  registration_scheme: Type.Optional(text('Scheme of registration_id (ISO 6523 ICD), e.g. 0002 (SIREN).')),
  electronic_address: Type.Optional(ElectronicAddress),
  address: Type.Optional(AddressSchema),
  email: Type.Optional(text('Contact e-mail (BT-43/58); used when `contact` gives none.')),
  contact: Type.Optional(Contact),
};

export const SellerSchema = Type.Object(
  {
    ...partyFields,
    tax_number: Type.Optional(text('BT-32 local tax registration number (German Steuernummer).')),
    additional_legal_info: Type.Optional(text('BT-33 additional legal information (share capital, ...).')),
  },
  { additionalProperties: false, description: 'BG-4 seller.' },
);

export const BuyerSchema = Type.Object(partyFields, { additionalProperties: false, description: 'BG-7 buyer.' });

const Period = Type.Object(
  { start: Type.Optional(date('Start date.')), end: Type.Optional(date('End date.')) },
  { additionalProperties: false },
);

const allowanceChargeFields = {
  amount: Type.Optional(amount('Amount (BT-92/99, line BT-136/141); computed from base_amount × percentage when absent.')),
  base_amount: Type.Optional(amount('Base amount (BT-93/100, line BT-137/142).')),
  percentage: Type.Optional(percent('Percentage (BT-94/101, line BT-138/143).')),
  reason: Type.Optional(text('Reason text (BT-97/104, line BT-139/144).')),
  reason_code: Type.Optional(text('Reason code: UNTDID 5189 for allowances, 7161 for charges.')),
};

const DocumentAllowanceCharge = Type.Object(
  {
    ...allowanceChargeFields,
    vat_category: Type.Optional(Type.Enum([...VAT_CATEGORY_VALUES], { description: 'BT-95/102 VAT category; default S.' })),
    vat_rate: Type.Optional(percent('BT-96/103 VAT rate (absent for category O).')),
  },
  { additionalProperties: false },
);

const LineAllowanceCharge = Type.Object(allowanceChargeFields, { additionalProperties: false });

const Classification = Type.Object(
  {
    code: text('BT-158 item classification code.'),
    list_id: text('Classification scheme (UNTDID 7143), e.g. STI, CV, TSP.'),
    list_version: Type.Optional(text('Scheme version.')),
  },
  { additionalProperties: false },
);

export const LineItemSchema = Type.Object(
  {
    id: Type.Optional(text('BT-126 line id; default the 1-based position.')),
    name: text('BT-153 item name.'),
    description: Type.Optional(text('BT-154 item description.')),
    note: Type.Optional(text('BT-127 line note.')),
    quantity: quantity('BT-129 invoiced quantity (negative for returns).'),
    unit_code: unitCode('BT-130 unit of measure.'),
    net_price: Type.Optional(price('BT-146 net unit price; computed as gross_price − price_discount when absent.')),
    gross_price: Type.Optional(price('BT-148 gross unit price (before price discount).')),
    price_discount: Type.Optional(price('BT-147 discount per unit; default gross_price − net_price.')),
    price_base_quantity: Type.Optional(quantity('BT-149 quantity the price applies to; default 1.')),
    price_base_quantity_unit_code: Type.Optional(
      unitCode('BT-150 unit of the price base quantity; default unit_code (XRechnung requires them equal, PEPPOL-EN16931-R130).'),
    ),
    line_total: Type.Optional(amount('BT-131 line net amount; checked against quantity × price ± line allowances/charges.')),
    unit_label: Type.Optional(
      text('Human-readable unit (as BusinessReadyInvoice has it); CII has no place for it, so it is reported in X-Dropped-Fields.'),
    ),
    vat_rate: Type.Optional(percent('BT-152 VAT rate; required except for category O.')),
    vat_category: Type.Optional(Type.Enum([...VAT_CATEGORY_VALUES], { description: 'BT-151 VAT category; default S.' })),
    period: Type.Optional(Period),
    allowances: Type.Optional(Type.Array(LineAllowanceCharge, { description: 'BG-27 line allowances.' })),
    charges: Type.Optional(Type.Array(LineAllowanceCharge, { description: 'BG-28 line charges.' })),
    seller_item_id: Type.Optional(text('BT-155 seller item id.')),
    buyer_item_id: Type.Optional(text('BT-156 buyer item id.')),
    standard_item_id: Type.Optional(Identifier),
    classifications: Type.Optional(Type.Array(Classification, { description: 'BT-158 item classifications.' })),
    origin_country: Type.Optional(countryCode('BT-159 item country of origin.')),
    attributes: Type.Optional(
      Type.Array(
        Type.Object({ name: text('BT-160 attribute name.'), value: text('BT-161 attribute value.') }, { additionalProperties: false }),
        { description: 'BG-32 item attributes.' },
      ),
    ),
    object_identifier: Type.Optional(
      Type.Object(
        {
          id: text('BT-128 invoice line object identifier, e.g. a meter or subscription number.'),
          scheme: Type.Optional(text('BT-128-1 scheme: UNTDID 1153 reference code, e.g. AAA (order reference), ABZ.')),
        },
        { additionalProperties: false, description: 'BT-128 object identifier of the line (written from en16931 up).' },
      ),
    ),
    order_line_reference: Type.Optional(text('BT-132 referenced purchase order line.')),
    accounting_reference: Type.Optional(text('BT-133 buyer accounting reference.')),
    subtype: Type.Optional(
      Type.Enum(['DETAIL', 'GROUP', 'INFORMATION'], {
        description:
          'BT-X-8 / EXT-FR-FE-163 line subtype (extended, extended_ctc_fr): DETAIL (default) counts in the totals; GROUP (a sub-total of its sub-lines, its line_total must equal theirs) and INFORMATION lines do not.',
      }),
    ),
    parent_line_id: Type.Optional(text('BT-X-304 / EXT-FR-FE-162 id of the parent (GROUP) line (extended, extended_ctc_fr).')),
    seller: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(text('EXT-FR-FE-164 name of the seller of this line.')),
          registration_id: Type.Optional(text('EXT-FR-FE-167 legal registration id (SIREN).')),
          registration_scheme: Type.Optional(text('Its scheme (ISO 6523 ICD), e.g. 0002 (SIREN).')),
          vat_number: Type.Optional(text('EXT-FR-FE-168 VAT identifier.')),
          country_code: Type.Optional(countryCode('EXT-FR-FE-177 country.')),
          global_id: Type.Optional(Identifier),
        },
        { additionalProperties: false, description: 'Seller of this line on a multi-vendor invoice (extended, extended_ctc_fr).' },
      ),
    ),
    vat_exemption_reason: Type.Optional(
      text(
        'EXT-FR-FE-178 line VAT exemption reason (extended, extended_ctc_fr); the VAT breakdown is split by it (multi-vendor invoices).',
      ),
    ),
    vat_exemption_reason_code: Type.Optional(text('EXT-FR-FE-179 line VAT exemption reason code (VATEX).')),
    sub_invoice_number: Type.Optional(
      text(
        "BT-128 (reference type AFL) number of the sub-invoice a GROUP line without parent heads on a multi-vendor invoice (business_process S8, B8 or M8; extended, extended_ctc_fr). Default for the invoice seller's own sub-invoice: the invoice number; required for another seller's. Its sub-lines carry it too.",
      ),
    ),
    sub_invoice_framework: Type.Optional(
      text('BT-128 (reference type AVV) billing framework of that sub-invoice (BR-FR-08 code, not S8/B8/M8); default S1, B1 or M1.'),
    ),
  },
  { additionalProperties: false, description: 'BG-25 invoice line.' },
);

const TaxBreakdownItem = Type.Object(
  {
    category: Type.Enum([...VAT_CATEGORY_VALUES], { description: 'BT-118 VAT category.' }),
    rate: Type.Optional(percent('BT-119 VAT rate.')),
    basis_amount: Type.Optional(amount('BT-116 taxable amount; checked against the lines when given.')),
    tax_amount: Type.Optional(amount('BT-117 VAT amount; checked against basis × rate when given.')),
    exemption_reason: Type.Optional(text('BT-120 VAT exemption reason text.')),
    exemption_reason_code: Type.Optional(text('BT-121 VATEX code, e.g. VATEX-EU-IC, VATEX-EU-AE, VATEX-EU-G.')),
  },
  {
    additionalProperties: false,
    description: 'BG-23 VAT breakdown entry. Computed from the lines; give it to add exemption reasons or to have totals checked.',
  },
);

const CreditTransfer = Type.Object(
  {
    iban: Type.Optional(text('BT-84 IBAN.')),
    account_id: Type.Optional(text('BT-84 proprietary account id, when not an IBAN.')),
    account_name: Type.Optional(text('BT-85 account name.')),
    bic: Type.Optional(text('BT-86 BIC of the payment service provider.')),
  },
  { additionalProperties: false, description: 'BG-17 credit transfer account.' },
);

const Payment = Type.Object(
  {
    means_code: Type.Enum([...PAYMENT_MEANS_VALUES], {
      description:
        'BT-81 UNTDID 4461: 30 credit transfer, 58 SEPA credit transfer, 59 SEPA direct debit, 48/54/55 card, 10 cash, 1 not defined.',
    }),
    means_text: Type.Optional(text('BT-82 payment means text.')),
    remittance_information: Type.Optional(text('BT-83 remittance information (payment reference).')),
    credit_transfers: Type.Optional(Type.Array(CreditTransfer, { description: 'BG-17 accounts to pay to.' })),
    card: Type.Optional(
      Type.Object(
        {
          account_number: text('BT-87 card primary account number: only the last 4–6 digits.'),
          holder_name: Type.Optional(text('BT-88 card holder name.')),
        },
        { additionalProperties: false, description: 'BG-18 payment card.' },
      ),
    ),
    direct_debit: Type.Optional(
      Type.Object(
        {
          mandate_reference: text('BT-89 mandate reference.'),
          creditor_id: text('BT-90 bank assigned creditor identifier (SEPA creditor id).'),
          debited_account: text('BT-91 debited account (IBAN).'),
        },
        { additionalProperties: false, description: 'BG-19 direct debit.' },
      ),
    ),
  },
  { additionalProperties: false, description: 'BG-16 payment instructions.' },
);

/** BT-8: UNTDID 2005 codes of EN 16931 and the UNTDID 2475 codes CII writes for them. */
export const TAX_POINT_DATE_CODES = ['3', '35', '432', '5', '29', '72'] as const;

/** Mime codes EN 16931 allows for an attached document (BT-125-1): the code list BR-CL-24 checks, not a copy of it. */
export const ATTACHMENT_MIME_CODES: readonly string[] = CODELISTS['en16931-cii']['BR-CL-24'].codes;

const SupportingDocument = Type.Object(
  {
    reference: text('BT-122 supporting document reference.'),
    description: Type.Optional(text('BT-123 supporting document description.')),
    external_location: Type.Optional(text('BT-124 external document location (URL).')),
    attachment: Type.Optional(
      Type.Object(
        {
          content: Type.String({
            minLength: 1,
            pattern: '^[A-Za-z0-9+/]+={0,2}$',
            description: 'BT-125 attached document, base64 (RFC 4648, no line breaks).',
          }),
          mime_code: Type.Enum([...ATTACHMENT_MIME_CODES], { description: 'BT-125-1 mime code.' }),
          filename: text('BT-125-2 file name.'),
        },
        { additionalProperties: false, description: 'BT-125 embedded binary object with its mime code and file name.' },
      ),
    ),
  },
  { additionalProperties: false, description: 'BG-24 additional supporting document.' },
);

// ---- the whole metadata -------------------------------------------------------------------------------------

export const InvoiceMetadataSchema = Type.Object(
  {
    profile: Type.Optional(
      Type.Enum([...PROFILE_VALUES], {
        description:
          'Output profile; default en16931 (xrechnung_3.0 is accepted for xrechnung). minimum and basic_wl carry no lines: the line items only compute the totals (basic_wl also the VAT breakdown). peppol is Peppol BIS Billing 3.0, written as UBL; minimum, basic_wl, basic and extended are Factur-X profiles, written as CII. extended_ctc_fr: the French EXTENDED-CTC-FR profile of AFNOR XP Z12-012 (CII; business_process is its billing framework, e.g. B1, S1, M1).',
      }),
    ),
    syntax: Type.Optional(
      Type.Enum([...SYNTAX_VALUES], {
        description:
          'Output syntax: cii (UN/CEFACT CII D22B, the default) or ubl (OASIS UBL 2.1 Invoice, or CreditNote for credit-note type codes such as 381). ubl goes with the profiles en16931 (plain EN 16931 UBL), xrechnung (XRechnung 3.0 UBL) and peppol (Peppol BIS Billing 3.0, which is ubl by default and only); cii with every profile but peppol. Other combinations answer 422 at this field.',
      }),
    ),
    invoice_number: text('BT-1 invoice number.'),
    invoice_date: date('BT-2 issue date.'),
    document_type_code: Type.Optional(
      Type.Enum([...DOCUMENT_TYPE_VALUES], {
        description:
          'BT-3 UNTDID 1001: 380 invoice (default), 381 credit note, 384 corrected invoice, 389 self-billed invoice, 326 partial invoice, 751 invoice information for accounting.',
      }),
    ),
    due_date: Type.Optional(date('BT-9 payment due date.')),
    currency: Type.Optional(currencyCode('BT-5 invoice currency; default EUR.')),
    tax_currency: Type.Optional(currencyCode('BT-6 VAT accounting currency, when it differs from `currency`.')),
    tax_total_in_tax_currency: Type.Optional(amount('BT-111 total VAT in the VAT accounting currency (required with tax_currency).')),
    tax_point_date: Type.Optional(date('BT-7 VAT point date.')),
    tax_point_date_code: Type.Optional(
      Type.Enum([...TAX_POINT_DATE_CODES], {
        description:
          'BT-8 VAT point date code, when the VAT point is not a date (BT-7): UNTDID 2005 3 (invoice date), 35 (delivery date), 432 (paid to date), or the CII codes 5, 29, 72 they are written as.',
      }),
    ),
    buyer_reference: Type.Optional(text('BT-10 buyer reference (Leitweg-ID in XRechnung).')),
    contract_reference: Type.Optional(text('BT-12 contract reference.')),
    purchase_order_reference: Type.Optional(text('BT-13 purchase order reference.')),
    sales_order_reference: Type.Optional(text('BT-14 sales order reference.')),
    project_reference: Type.Optional(text('BT-11 project reference.')),
    receiving_advice_reference: Type.Optional(text('BT-15 receiving advice reference.')),
    despatch_advice_reference: Type.Optional(text('BT-16 despatch advice reference.')),
    tender_or_lot_reference: Type.Optional(text('BT-17 tender or lot reference.')),
    invoiced_object_identifier: Type.Optional(Identifier),
    buyer_accounting_reference: Type.Optional(text('BT-19 buyer accounting reference.')),
    business_process: Type.Optional(text('BT-23 business process; XRechnung default urn:fdc:peppol.eu:2017:poacc:billing:01:1.0.')),
    notes: Type.Optional(
      Type.Array(
        Type.Object(
          { text: text('BT-22 note text.'), subject_code: Type.Optional(text('BT-21 UNTDID 4451 subject, e.g. AAI, REG, ABL.')) },
          { additionalProperties: false },
        ),
        { description: 'BG-1 invoice notes.' },
      ),
    ),
    preceding_invoices: Type.Optional(
      Type.Array(
        Type.Object(
          { number: text('BT-25 preceding invoice number.'), date: Type.Optional(date('BT-26 preceding invoice date.')) },
          { additionalProperties: false },
        ),
        { description: 'BG-3 preceding invoice references (e.g. the invoice a credit note corrects).' },
      ),
    ),
    seller: SellerSchema,
    buyer: BuyerSchema,
    payee: Type.Optional(
      Type.Object(
        {
          name: text('BT-59 payee name.'),
          identifiers: Type.Optional(Type.Array(Identifier, { description: 'BT-60 payee identifiers.' })),
          registration_id: Type.Optional(text('BT-61 payee legal registration id.')),
          registration_scheme: Type.Optional(text('Scheme of registration_id.')),
        },
        { additionalProperties: false, description: 'BG-10 payee, when different from the seller.' },
      ),
    ),
    tax_representative: Type.Optional(
      Type.Object(
        { name: text('BT-62 name.'), vat_number: text('BT-63 VAT identifier.'), address: AddressSchema },
        { additionalProperties: false, description: 'BG-11 seller tax representative.' },
      ),
    ),
    delivery: Type.Optional(
      Type.Object(
        {
          party_name: Type.Optional(text('BT-70 deliver-to party name.')),
          location_id: Type.Optional(Identifier),
          date: Type.Optional(
            date(
              'BT-72 actual delivery date. When absent and the invoice states no invoicing period, the invoice date is written (and with only an invoicing period and no other delivery information, its end): see docs/api.md.',
            ),
          ),
          address: Type.Optional(AddressSchema),
        },
        { additionalProperties: false, description: 'BG-13 delivery information.' },
      ),
    ),
    invoice_period: Type.Optional(Period),
    supporting_documents: Type.Optional(
      Type.Array(SupportingDocument, { description: 'BG-24 additional supporting documents (written from en16931 up).' }),
    ),
    payment: Type.Optional(Payment),
    payment_terms: Type.Optional(text('BT-20 payment terms text.')),
    allowances: Type.Optional(Type.Array(DocumentAllowanceCharge, { description: 'BG-20 document level allowances.' })),
    charges: Type.Optional(Type.Array(DocumentAllowanceCharge, { description: 'BG-21 document level charges.' })),
    line_items: Type.Optional(
      Type.Array(LineItemSchema, {
        description: 'BG-25 invoice lines: at least one for basic and above. Optional for minimum and basic_wl when the totals are given.',
      }),
    ),
    tax_breakdown: Type.Optional(Type.Array(TaxBreakdownItem)),
    line_total_amount: Type.Optional(amount('BT-106 sum of line net amounts; computed when absent, checked when given.')),
    allowance_total_amount: Type.Optional(amount('BT-107 sum of document allowances; computed/checked.')),
    charge_total_amount: Type.Optional(amount('BT-108 sum of document charges; computed/checked.')),
    total_net_amount: Type.Optional(amount('BT-109 total without VAT; computed/checked.')),
    total_tax_amount: Type.Optional(amount('BT-110 total VAT; computed/checked.')),
    total_gross_amount: Type.Optional(amount('BT-112 total with VAT; computed/checked.')),
    paid_amount: Type.Optional(amount('BT-113 amount already paid.')),
    rounding_amount: Type.Optional(amount('BT-114 rounding amount.')),
    amount_due: Type.Optional(amount('BT-115 amount due for payment; computed/checked.')),
  },
  {
    additionalProperties: false,
    $id: 'InvoiceMetadata',
    title: 'InvoiceMetadata',
    description:
      'Invoice metadata for /v1/xml and /v1/convert. Totals, line totals and the VAT breakdown are computed with EN 16931 rounding when absent and checked when given.',
  },
);

export type InvoiceMetadata = Static<typeof InvoiceMetadataSchema>;
export type MetadataProfile = (typeof PROFILE_VALUES)[number];
export type MetadataSyntax = (typeof SYNTAX_VALUES)[number];
export type LineItemMetadata = Static<typeof LineItemSchema>;
export type AddressMetadata = Static<typeof AddressSchema>;
