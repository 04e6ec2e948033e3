/**
 * Invoice metadata for the French EXTENDED-CTC-FR profile (AFNOR XP Z12-012 / XP Z12-014), written from the published
 * descriptions of the XP Z12-014 use cases (FNFE-MPE, annex B 1.4): a plain B2B goods invoice (UC1), services with two
 * VAT rates and a credit transfer (UC2/UC3), a credit note referring to its invoice (UC5b), and an invoice with
 * sub-lines (UC12: GROUP lines with DETAIL and INFORMATION sub-lines). Helper module (no tests of its own).
 *
 * What the French use cases need: SIREN (scheme 0002) as legal registration id and SIRET (0009) as party identifier,
 * the billing framework in BT-23 (B1 goods, S1 services, M1 mixed), electronic addresses with scheme 0225 (SIREN-based
 * addressing of the French directory), the mandatory legal notes PMT (recovery indemnity), PMD (late-payment penalties)
 * and AAB (early-payment discount), and a French VAT number.
 */
import type { InvoiceMetadata } from '../src/metadata/schema.js';

const seller: InvoiceMetadata['seller'] = {
  name: 'VENDEUR SARL',
  registration_id: '100000009',
  registration_scheme: '0002',
  identifiers: [{ id: '10000000900017', scheme: '0009' }],
  vat_number: 'FR88100000009',
  electronic_address: { id: '100000009', scheme: '0225' },
  address: { line1: '35 rue de la République', city: 'Paris', postcode: '75018', country_code: 'FR' },
  contact: { name: 'Service comptabilité', email: 'compta@vendeur.example', phone: '0102030405' },
};

const buyer: InvoiceMetadata['buyer'] = {
  name: 'ACHETEUR SAS',
  registration_id: '200000008',
  registration_scheme: '0002',
  identifiers: [{ id: '20000000800014', scheme: '0009' }],
  vat_number: 'FR77200000008',
  electronic_address: { id: '200000008', scheme: '0225' },
  address: { line1: '2 avenue des Champs', city: 'Lyon', postcode: '69002', country_code: 'FR' },
};

/** The three legal notes French invoices carry (CGI art. 242 nonies A, Code de commerce L441-10). */
const LEGAL_NOTES: InvoiceMetadata['notes'] = [
  { text: 'Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40 EUR.', subject_code: 'PMT' },
  {
    text: "Tout retard de paiement engendre une pénalité exigible à compter de la date d'échéance, calculée sur la base de trois fois le taux d'intérêt légal.",
    subject_code: 'PMD',
  },
  { text: "Les règlements reçus avant la date d'échéance ne donneront pas lieu à escompte.", subject_code: 'AAB' },
];

const payment: InvoiceMetadata['payment'] = {
  means_code: '30',
  credit_transfers: [{ iban: 'FR7630006000011234567890189', bic: 'AGRIFRPPXXX' }],
};

const base = {
  profile: 'extended_ctc_fr' as const,
  currency: 'EUR',
  seller,
  buyer,
  notes: LEGAL_NOTES,
  payment,
  payment_terms: 'Paiement à 30 jours',
};

export const FR_SCENARIOS: Record<string, InvoiceMetadata> = {
  uc1_goods: {
    ...base,
    invoice_number: 'F202600101',
    invoice_date: '2026-09-03',
    due_date: '2026-10-03',
    business_process: 'B1',
    purchase_order_reference: 'PO-2026-17',
    line_items: [
      { name: 'Chaise de bureau', quantity: '4', unit_code: 'C62', net_price: '120.00', vat_rate: '20' },
      { name: 'Lampe', quantity: '2', unit_code: 'C62', net_price: '35.50', vat_rate: '20' },
    ],
  },
  uc2_services_two_rates: {
    ...base,
    invoice_number: 'F202600102',
    invoice_date: '2026-09-04',
    due_date: '2026-10-04',
    business_process: 'S1',
    invoice_period: { start: '2026-08-01', end: '2026-08-31' },
    line_items: [
      { name: 'Prestation de conseil', quantity: '3', unit_code: 'DAY', net_price: '650.00', vat_rate: '20' },
      { name: 'Travaux de rénovation', quantity: '10', unit_code: 'HUR', net_price: '45.00', vat_rate: '10' },
    ],
  },
  uc5b_credit_note: {
    ...base,
    invoice_number: 'A202600103',
    invoice_date: '2026-09-05',
    document_type_code: '381',
    business_process: 'B1',
    preceding_invoices: [{ number: 'F202600101', date: '2026-09-03' }],
    line_items: [{ name: 'Chaise de bureau (retour)', quantity: '1', unit_code: 'C62', net_price: '120.00', vat_rate: '20' }],
  },
  uc12_sublines: {
    ...base,
    invoice_number: 'F202600125',
    invoice_date: '2026-09-06',
    due_date: '2026-10-06',
    business_process: 'M1',
    line_items: [
      { id: '1', name: 'Lot mobilier', subtype: 'GROUP', quantity: '1', unit_code: 'C62', net_price: '551.00', vat_rate: '20' },
      {
        id: '1.1',
        parent_line_id: '1',
        subtype: 'DETAIL',
        name: 'Bureau',
        quantity: '1',
        unit_code: 'C62',
        net_price: '431.00',
        vat_rate: '20',
      },
      {
        id: '1.2',
        parent_line_id: '1',
        subtype: 'DETAIL',
        name: 'Caisson',
        quantity: '2',
        unit_code: 'C62',
        net_price: '60.00',
        vat_rate: '20',
      },
      {
        id: '1.3',
        parent_line_id: '1',
        subtype: 'INFORMATION',
        name: 'Notice de montage',
        quantity: '1',
        unit_code: 'C62',
        net_price: '0.00',
        vat_rate: '20',
      },
      { id: '2', name: 'Installation', quantity: '2', unit_code: 'HUR', net_price: '55.00', vat_rate: '20' },
    ],
  },
};

/**
 * UC10-like multi-vendor invoice (billing framework S8): the seller invoices its own service and, as an intermediary,
 * a third party's; each sub-invoice is a GROUP line without parent over its DETAIL lines. Stated once per sub-invoice:
 * the third party (line seller) and its own invoice number (`sub_invoice_number`); the seller's own sub-invoice takes
 * the seller and the invoice number by default. The writer carries the seller's SIREN and the sub-invoice number (AFL)
 * to every line, the framework (AVV, S1) to the heads, marks each DETAIL line's VAT exemption reason with
 * `#<sub-invoice number>#` (which splits the VAT breakdown per sub-invoice) and gives each head its VAT total and total
 * with VAT (BR-FR-MV-01…13).
 */
export const FR_MULTI_VENDOR: InvoiceMetadata = {
  ...base,
  invoice_number: 'F202600104',
  invoice_date: '2026-09-07',
  due_date: '2026-10-07',
  business_process: 'S8',
  line_items: [
    { id: '1', subtype: 'GROUP', name: 'Pour compte propre', quantity: '1', unit_code: 'C62', net_price: '1000.00', vat_rate: '20' },
    {
      id: '2',
      parent_line_id: '1',
      subtype: 'DETAIL',
      name: 'Abonnement',
      quantity: '2',
      unit_code: 'DAY',
      net_price: '300.00',
      vat_rate: '20',
    },
    {
      id: '3',
      parent_line_id: '1',
      subtype: 'DETAIL',
      name: 'Consommation hors horaires',
      quantity: '10',
      unit_code: 'HUR',
      net_price: '40.00',
      vat_rate: '20',
    },
    {
      id: '4',
      subtype: 'GROUP',
      name: 'Pour compte de tiers',
      quantity: '1',
      unit_code: 'C62',
      net_price: '350.00',
      vat_rate: '20',
      sub_invoice_number: 'T2026-0042',
      seller: {
        name: 'TIERS SAS',
        registration_id: '300000007',
        registration_scheme: '0002',
        vat_number: 'FR55300000007',
        country_code: 'FR',
      },
    },
    {
      id: '5',
      parent_line_id: '4',
      subtype: 'DETAIL',
      name: 'Maintenance',
      quantity: '1',
      unit_code: 'C62',
      net_price: '250.00',
      vat_rate: '20',
    },
    {
      id: '6',
      parent_line_id: '4',
      subtype: 'DETAIL',
      name: 'Livre technique',
      quantity: '2',
      unit_code: 'C62',
      net_price: '50.00',
      vat_rate: '5.5',
    },
    {
      id: '7',
      parent_line_id: '4',
      subtype: 'INFORMATION',
      name: 'Référence du contrat du tiers',
      quantity: '1',
      unit_code: 'C62',
      net_price: '0.00',
      vat_rate: '20',
    },
  ],
};
