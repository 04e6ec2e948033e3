/**
 * Realistic invoice metadata for the writer and endpoint tests: one scenario per VAT situation.
 * Helper module (no tests of its own).
 */
import type { InvoiceMetadata } from '../src/metadata/schema.js';
import { DOMESTIC_EXAMPLE, INTRA_COMMUNITY_EXAMPLE, XRECHNUNG_EXAMPLE } from '../src/metadata/examples.js';

const deSeller = DOMESTIC_EXAMPLE.seller;

const frBuyer: InvoiceMetadata['buyer'] = {
  name: 'Exemple SARL',
  vat_number: 'FR12345678901',
  address: { line1: '12 rue de la Paix', city: 'Paris', postcode: '75002', country_code: 'FR' },
};

const usBuyer: InvoiceMetadata['buyer'] = {
  name: 'Example Inc.',
  address: { line1: '1 Market Street', city: 'San Francisco', postcode: '94105', country_code: 'US' },
};

export const SCENARIOS: Record<string, InvoiceMetadata> = {
  domestic: DOMESTIC_EXAMPLE,

  reverse_charge: {
    ...DOMESTIC_EXAMPLE,
    invoice_number: 'RC-1',
    buyer: frBuyer,
    notes: [{ text: 'Reverse charge: VAT to be accounted for by the recipient.', subject_code: 'AAI' }],
    line_items: [{ name: 'Building work', quantity: '40', unit_code: 'HUR', net_price: '55.00', vat_category: 'AE' }],
  },

  intra_community: INTRA_COMMUNITY_EXAMPLE,

  export: {
    ...DOMESTIC_EXAMPLE,
    invoice_number: 'EX-1',
    buyer: usBuyer,
    line_items: [{ name: 'Machine part', quantity: '3', unit_code: 'C62', net_price: '310.40', vat_category: 'G' }],
  },

  exempt_with_reason: {
    ...DOMESTIC_EXAMPLE,
    invoice_number: 'EXE-1',
    line_items: [{ name: 'Medical treatment', quantity: '1', unit_code: 'C62', net_price: '250.00', vat_category: 'E' }],
    tax_breakdown: [
      { category: 'E', rate: '0', exemption_reason: 'Steuerfrei nach § 4 Nr. 14 UStG', exemption_reason_code: 'VATEX-EU-132-1C' },
    ],
  },

  mixed_rates: {
    ...DOMESTIC_EXAMPLE,
    invoice_number: 'MIX-1',
    line_items: [
      { name: 'Coffee beans', quantity: '12', unit_code: 'KGM', net_price: '18.3333', vat_rate: '7' },
      { name: 'Coffee machine', quantity: '1', unit_code: 'C62', net_price: '899.99', vat_rate: '19' },
      { name: 'Books', quantity: '3', unit_code: 'C62', net_price: '24.95', vat_rate: '7' },
      { name: 'Export sample', quantity: '1', unit_code: 'C62', net_price: '0.00', vat_category: 'Z', vat_rate: '0' },
    ],
  },

  allowances_and_charges: {
    ...DOMESTIC_EXAMPLE,
    invoice_number: 'AC-1',
    line_items: [
      {
        name: 'Office chair',
        quantity: '10',
        unit_code: 'C62',
        gross_price: '249.00',
        net_price: '224.10',
        vat_rate: '19',
        allowances: [{ percentage: '5', reason: 'Volume discount', reason_code: '95' }],
        charges: [{ amount: '15.00', reason: 'Assembly', reason_code: 'AAA' }],
      },
      { name: 'Desk', quantity: '2', unit_code: 'C62', net_price: '480.00', price_base_quantity: '1', vat_rate: '19' },
      { name: 'Catalogue', quantity: '1', unit_code: 'C62', net_price: '12.00', vat_rate: '7' },
    ],
    allowances: [{ amount: '50.00', reason: 'Loyalty discount', reason_code: '95', vat_category: 'S', vat_rate: '19' }],
    charges: [{ percentage: '2', base_amount: '1000.00', reason: 'Freight', reason_code: 'FC', vat_category: 'S', vat_rate: '19' }],
    paid_amount: '500.00',
  },

  credit_note: {
    ...DOMESTIC_EXAMPLE,
    invoice_number: 'CN-1',
    document_type_code: '381',
    preceding_invoices: [{ number: 'RE-2026-0042', date: '2026-11-20' }],
    line_items: [{ name: 'Software licence (returned)', quantity: '1', unit_code: 'C62', net_price: '450.00', vat_rate: '19' }],
  },

  negative_line: {
    ...DOMESTIC_EXAMPLE,
    invoice_number: 'NEG-1',
    line_items: [
      { name: 'Toner', quantity: '5', unit_code: 'C62', net_price: '39.90', vat_rate: '19' },
      { name: 'Returned toner', quantity: '-1', unit_code: 'C62', net_price: '39.90', vat_rate: '19' },
    ],
  },

  not_subject_to_vat: {
    ...DOMESTIC_EXAMPLE,
    invoice_number: 'O-1',
    seller: { ...deSeller, vat_number: undefined, tax_number: '201/123/45678' },
    buyer: { ...DOMESTIC_EXAMPLE.buyer, vat_number: undefined },
    line_items: [{ name: 'Membership fee', quantity: '1', unit_code: 'C62', net_price: '120.00', vat_category: 'O' }],
  },

  xrechnung: XRECHNUNG_EXAMPLE,

  full_en16931: {
    ...DOMESTIC_EXAMPLE,
    invoice_number: 'FULL-1',
    tax_point_date: '2026-11-19',
    contract_reference: 'CT-2026-7',
    purchase_order_reference: 'PO-991',
    sales_order_reference: 'SO-12',
    project_reference: 'PRJ-4',
    despatch_advice_reference: 'DA-5',
    receiving_advice_reference: 'RA-6',
    tender_or_lot_reference: 'LOT-2',
    invoiced_object_identifier: { id: 'METER-778', scheme: 'AAA' },
    buyer_accounting_reference: '4711-IT',
    notes: [{ text: 'Thank you for your order & trust <3' }],
    invoice_period: { start: '2026-11-01', end: '2026-11-30' },
    seller: {
      ...deSeller,
      trading_name: 'Muster Soft',
      identifiers: [{ id: '4000001123452', scheme: '0088' }],
      tax_number: '201/123/45678',
      additional_legal_info: 'Geschäftsführer: Max Mustermann, Amtsgericht Berlin HRB 12345',
      electronic_address: { id: 'billing@muster-software.de', scheme: 'EM' },
    },
    buyer: {
      ...DOMESTIC_EXAMPLE.buyer,
      trading_name: 'Beispiel',
      identifiers: [{ id: 'CUST-0815' }],
      registration_id: 'HRB 99999',
      electronic_address: { id: 'ap@beispiel.de', scheme: 'EM' },
      contact: { name: 'Hans Beispiel', phone: '+49 89 555', email: 'hans@beispiel.de' },
    },
    payee: { name: 'Factoring Bank AG', identifiers: [{ id: 'FB-1' }], registration_id: 'HRB 555' },
    tax_representative: {
      name: 'Tax Rep GmbH',
      vat_number: 'DE111111111',
      address: { line1: 'Steuerweg 1', city: 'Hamburg', postcode: '20095', country_code: 'DE' },
    },
    delivery: {
      party_name: 'Beispiel AG Lager',
      location_id: { id: '4000001987658', scheme: '0088' },
      date: '2026-11-18',
      address: { line1: 'Lagerstraße 9', city: 'Garching', postcode: '85748', country_code: 'DE' },
    },
    payment: {
      means_code: '58',
      means_text: 'SEPA credit transfer',
      remittance_information: 'FULL-1',
      credit_transfers: [{ iban: 'DE02120300000000202051', account_name: 'Muster Software GmbH', bic: 'BYLADEM1001' }],
    },
    line_items: [
      {
        id: '10',
        name: 'Laptop',
        description: '14" business laptop',
        note: 'Serial numbers on the delivery note',
        quantity: '2',
        unit_code: 'C62',
        net_price: '1099.00',
        vat_rate: '19',
        seller_item_id: 'LT-14',
        buyer_item_id: 'B-778',
        standard_item_id: { id: '4012345000016', scheme: '0160' },
        classifications: [{ code: '43211503', list_id: 'TST', list_version: '19.0' }],
        origin_country: 'CN',
        attributes: [{ name: 'Colour', value: 'Silver' }],
        order_line_reference: '3',
        accounting_reference: '0815-HW',
        period: { start: '2026-11-01', end: '2026-11-30' },
      },
    ],
  },

  direct_debit: {
    ...DOMESTIC_EXAMPLE,
    invoice_number: 'DD-1',
    payment: {
      means_code: '59',
      direct_debit: { mandate_reference: 'MANDATE-77', creditor_id: 'DE98ZZZ09999999999', debited_account: 'DE75512108001245126199' },
    },
  },

  card: {
    ...DOMESTIC_EXAMPLE,
    invoice_number: 'CARD-1',
    payment: { means_code: '54', card: { account_number: '1234', holder_name: 'E. Mustermann' } },
  },
};

/** Scenarios that are EN 16931 invoices in every profile (all but the XRechnung-only one). */
export const PROFILE_SCENARIOS = Object.entries(SCENARIOS).filter(([name]) => name !== 'xrechnung');
