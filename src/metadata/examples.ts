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

export const METADATA_EXAMPLES = { domestic: DOMESTIC_EXAMPLE, xrechnung: XRECHNUNG_EXAMPLE, intra_community: INTRA_COMMUNITY_EXAMPLE };
