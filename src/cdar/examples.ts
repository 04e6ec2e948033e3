/**
 * Request examples of POST /v1/status: one per status code of the published list, each a complete, valid message
 * (the tests post every one and validate the answer), plus a message to the PPF. The parties are fictitious: a
 * seller (SIREN 852741963) invoices a buyer (SIREN 963258741) through accredited platforms.
 */
import { GUIDELINE_PPF, PPF_ID, STATUS_CODES, type StatusPhase } from '../syntax/cdar/codes.js';
import type { StatusDetail, StatusMessage, StatusParty } from '../syntax/cdar/model.js';

const SELLER_ID = { value: '852741963', scheme: '0002' };
const BUYER_ID = { value: '963258741', scheme: '0002' };
const seller: StatusParty = {
  role: 'SE',
  ids: [SELLER_ID],
  name: 'Atelier Dupont SARL',
  electronic_address: { value: '852741963_STATUTS', scheme: '0225' },
};
const buyer: StatusParty = {
  role: 'BY',
  ids: [BUYER_ID],
  name: 'Boulangerie Martin SAS',
  electronic_address: { value: '963258741', scheme: '0225' },
};
const ppf: StatusParty = { role: 'DFH', ids: [{ ...PPF_ID }], name: 'PPF' };
const platform: StatusParty = { role: 'WK' };

/** Who issues each processing status, and to whom it goes (transmission statuses: the platform, to the seller). */
const BY_SELLER = new Set(['212', '220', '225', '226', '227', '228']);
const WITH_PPF = new Set(['200', '210', '212', '213']);

/** The details a status needs (a reason where the rules require one, the amounts of a payment, …). */
const DETAILS: Record<string, StatusDetail[]> = {
  '200': [{ reason_code: 'NON_TRANSMISE', reason: 'Not transmitted to the buyer yet' }],
  '206': [
    {
      reason_code: 'QTE_ERR',
      reason: 'Only 8 of the 10 hours invoiced were worked',
      action_code: 'CNP',
      action: 'Send a credit note for 2 hours',
    },
  ],
  '207': [
    {
      reason_code: 'TX_TVA_ERR',
      reason: 'Wrong VAT rate',
      action_code: 'NIN',
      action: 'Send a corrected invoice',
      characteristics: [
        { type_code: 'DIV', id: 'BT-152', value_changed: true, name: 'VAT rate', percent: '10.00' },
        { type_code: 'DVA', id: 'BT-152', value_changed: true, name: 'VAT rate', percent: '20.00' },
      ],
    },
  ],
  '208': [{ reason_code: 'JUSTIF_ABS', reason: 'The delivery note is missing' }],
  '210': [{ reason_code: 'TX_TVA_ERR', reason: 'Wrong VAT rate' }],
  '211': [{ characteristics: [{ type_code: 'MPA', amount: '1200.00', currency: 'EUR', date: '2026-10-30' }] }],
  '212': [{ characteristics: [{ type_code: 'MEN', amount: '1200.00', currency: 'EUR', percent: '20.00' }] }],
  '213': [
    {
      reason_code: 'DOUBLON',
      reason: 'Invoice already received',
      notes: [{ content: 'Same invoice received on another address', subject_code: 'AHN' }],
    },
  ],
  '221': [{ reason_code: 'ROUTAGE_ERR', reason: 'The electronic address is unknown to the platform' }],
  '227': [
    {
      characteristics: [
        { type_code: 'CBB', id: 'BT-84', name: 'Payment account identifier', value: 'FR7630006000011234567890189' },
        { type_code: 'CBB', id: 'BT-86', name: 'Payment service provider identifier', value: 'AGRIFRPPXXX' },
      ],
    },
  ],
  '501': [{ reason_code: 'IRR_SYNTAX', reason: 'The file is not well-formed XML' }],
};

/** The example message of a status code (a fresh copy). */
export function exampleFor(code: string): StatusMessage {
  const info = STATUS_CODES[code];
  const phase: StatusPhase = info.phase;
  const bySeller = BY_SELLER.has(code);
  const issuer: StatusParty =
    phase === 'transmission'
      ? { ...platform }
      : bySeller
        ? { role: 'SE', ids: [SELLER_ID], name: seller.name }
        : { role: 'BY', ids: [BUYER_ID], name: buyer.name };
  const counterpart = phase === 'processing' && bySeller ? buyer : seller;
  const recipients = [
    counterpart,
    ...(code === '202' || code === '203' || code === '213' ? [buyer] : []),
    ...(WITH_PPF.has(code) ? [ppf] : []),
  ];
  const msg: StatusMessage = {
    message_id: `FA-2026-0042_${code}_20261002100500`,
    message_name: `FA-2026-0042 ${info.label}`,
    issue_date_time: '2026-10-02T10:05:00',
    sender: { ...platform },
    issuer,
    recipients,
    status: { code, date_time: '2026-10-02T10:00:00' },
    invoice: {
      number: 'FA-2026-0042',
      issue_date: '2026-10-01',
      type_code: '380',
      received_date_time: '2026-10-01T15:10:00',
      seller: { ids: [SELLER_ID] },
    },
  };
  const details = DETAILS[code];
  if (details) msg.details = details;
  // A copy the caller owns: the parties above are shared by every example.
  return structuredClone(msg);
}

/** A status to the PPF (flow 6 towards the public portal): one recipient, the PPF, no business process. */
/** The 212 example sent to the PPF (a fresh copy). */
export function toPpf(): StatusMessage {
  const msg = exampleFor('212');
  msg.message_id = 'FA-2026-0042_212_PPF_20261102100500';
  msg.guideline = GUIDELINE_PPF;
  msg.sender = { role: 'WK', ids: [{ value: '0042', scheme: '0238' }], name: 'Platform of the seller' };
  msg.recipients = [ppf];
  return msg;
}

export interface StatusExample {
  summary: string;
  value: StatusMessage;
}

/** The examples by name (status_200 … status_601, status_212_to_ppf), as OpenAPI lists them. */
export const STATUS_EXAMPLES: Record<string, StatusExample> = Object.fromEntries([
  ...Object.keys(STATUS_CODES).map((code) => [
    `status_${code}`,
    {
      summary: `${code} ${STATUS_CODES[code].label}${STATUS_CODES[code].meaningUnpublished ? '' : ` (${STATUS_CODES[code].english})`}`,
      value: exampleFor(code),
    },
  ]),
  ['status_212_to_ppf', { summary: '212 Encaissée, sent to the PPF (einvoicingF2)', value: toPpf() }],
]);
