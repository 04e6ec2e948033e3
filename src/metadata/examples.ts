/**
 * Example invoice metadata, published in the OpenAPI document and reused by tests and benchmarks.
 */
import type { InvoiceMetadata } from './schema.js';

/** A domestic German invoice, standard rate, the fields most invoices need. */
export const DOMESTIC_EXAMPLE: InvoiceMetadata = {
  profile: 'en16931',
  invoice_number: 'RE-2026-0042',
  invoice_date: '2026-11-20',
  due_date: '2026-12-20',
  currency: 'EUR',
  buyer_reference: 'PO-7781',
  seller: {
    name: 'Muster Software GmbH',
    vat_number: 'DE123456789',
    registration_id: 'HRB 12345',
    address: { line1: 'Hauptstraße 1', city: 'Berlin', postcode: '10115', country_code: 'DE' },
    contact: { name: 'Erika Mustermann', phone: '+49 30 1234567', email: 'billing@muster-software.de' },
  },
  buyer: {
    name: 'Beispiel AG',
    vat_number: 'DE987654321',
    address: { line1: 'Marktplatz 5', city: 'München', postcode: '80331', country_code: 'DE' },
  },
  payment: {
    means_code: '58',
    remittance_information: 'RE-2026-0042',
    credit_transfers: [{ iban: 'DE02120300000000202051', bic: 'BYLADEM1001' }],
  },
  payment_terms: 'Zahlbar innerhalb von 30 Tagen ohne Abzug.',
  line_items: [
    { name: 'Software licence', quantity: '2', unit_code: 'C62', net_price: '450.00', vat_rate: '19' },
    { name: 'Consulting', description: 'On-site consulting', quantity: '6.5', unit_code: 'HUR', net_price: '120.00', vat_rate: '19' },
  ],
};

/** The same invoice for XRechnung: Leitweg-ID, electronic addresses and seller contact are mandatory there. */
export const XRECHNUNG_EXAMPLE: InvoiceMetadata = {
  ...DOMESTIC_EXAMPLE,
  profile: 'xrechnung',
  buyer_reference: '04011000-12345-34',
  seller: { ...DOMESTIC_EXAMPLE.seller, electronic_address: { id: 'billing@muster-software.de', scheme: 'EM' } },
  buyer: { ...DOMESTIC_EXAMPLE.buyer, electronic_address: { id: '04011000-12345-34', scheme: '0204' } },
};

/** Intra-community supply (K): buyer VAT id, delivery date and deliver-to country are required. */
export const INTRA_COMMUNITY_EXAMPLE: InvoiceMetadata = {
  ...DOMESTIC_EXAMPLE,
  invoice_number: 'RE-2026-0043',
  buyer: {
    name: 'Exemple SARL',
    vat_number: 'FR12345678901',
    address: { line1: '12 rue de la Paix', city: 'Paris', postcode: '75002', country_code: 'FR' },
  },
  delivery: { date: '2026-11-18', address: { line1: '12 rue de la Paix', city: 'Paris', postcode: '75002', country_code: 'FR' } },
  line_items: [{ name: 'Server rack', quantity: '1', unit_code: 'C62', net_price: '2400.00', vat_category: 'K' }],
};

/**
 * The terms added for completeness (#19), one each: VAT point date code (BT-8), supporting documents (BG-24) with an
 * embedded file (BT-125 with mime code and file name) and an external one (BT-124), a line object identifier
 * (BT-128 with its scheme), a price base quantity in its own unit (BT-149 / BT-150), and JSON-number-free amounts
 * (numbers would do as well: `"quantity": 12`).
 */
export const SUPPORTING_DOCUMENTS_EXAMPLE: InvoiceMetadata = {
  ...DOMESTIC_EXAMPLE,
  profile: 'extended',
  invoice_number: 'RE-2026-0044',
  tax_point_date_code: '3',
  invoice_period: { start: '2026-11-01', end: '2026-11-30' },
  supporting_documents: [
    {
      reference: 'TS-2026-11',
      description: 'Timesheet November 2026',
      // A real (tiny) PDF would go here; any base64 content is carried as given.
      attachment: { content: 'JVBERi0xLjcKJSBUaW1lc2hlZXQK', mime_code: 'application/pdf', filename: 'timesheet-2026-11.pdf' },
    },
    // CII-SR-475/476 (warnings): at most one description and one attachment over all supporting documents.
    { reference: 'CONTRACT-7', external_location: 'https://example.com/contracts/7' },
  ],
  line_items: [
    {
      name: 'Electricity',
      quantity: '1250',
      unit_code: 'KWH',
      net_price: '28.50',
      price_base_quantity: '100',
      price_base_quantity_unit_code: 'KWH',
      vat_rate: '19',
      object_identifier: { id: 'METER-DE-4711', scheme: 'AFL' },
    },
  ],
};

export const METADATA_EXAMPLES = {
  domestic: DOMESTIC_EXAMPLE,
  xrechnung: XRECHNUNG_EXAMPLE,
  intra_community: INTRA_COMMUNITY_EXAMPLE,
  supporting_documents: SUPPORTING_DOCUMENTS_EXAMPLE,
};
