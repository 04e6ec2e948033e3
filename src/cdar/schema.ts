/**
 * The JSON schema of a lifecycle status message (POST /v1/status, buildStatus(), `einvoice status`), published in
 * OpenAPI as `StatusMessage`. Code fields take the values the BR-FR-CDV rules accept (src/syntax/cdar/codes.ts);
 * which combinations the rules allow (roles per phase, reasons per status, …) is checked on the built message by
 * the rules themselves (src/cdar/build.ts). Written with the metadata schema's small TypeBox-shaped builder.
 */

import { Type } from '../metadata/json-schema.js';
import {
  ACTION_CODES,
  BUSINESS_PROCESSES,
  CHARACTERISTIC_TYPES,
  GUIDELINES,
  INVOICE_TYPE_CODES,
  REASON_CODES,
  RECIPIENT_ROLES,
  ROLE_CODES,
} from '../syntax/cdar/codes.js';

const DATE_TIME = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$';
const DATE = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
/** Identifiers and codes: no surrounding whitespace (XSD tokens), at most 512 characters. */
const TOKEN = '^[^\\s](.*[^\\s])?$';

const text = (description: string, maxLength = 1024) => Type.String({ minLength: 1, maxLength, description });
const token = (description: string) => Type.String({ minLength: 1, maxLength: 512, pattern: TOKEN, description });
const dateTime = (description: string) =>
  Type.String({
    pattern: DATE_TIME,
    description: `${description} YYYY-MM-DDThh:mm:ss, no time zone (CDAR format 204).`,
    examples: ['2025-07-01T15:10:00'],
  });
const decimal = (description: string) =>
  Type.String({ maxLength: 64, pattern: '^[+-]?[0-9]+(\\.[0-9]+)?$', description: `${description} Decimal string.` });

const Identifier = Type.Object(
  {
    value: token('The identifier, e.g. a SIREN.'),
    scheme: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9]{1,10}$', description: 'Its scheme (ISO 6523 ICD), e.g. 0002 SIREN, 0009 SIRET, 0225, 0238.' }),
    ),
  },
  { additionalProperties: false },
);

const party = (description: string, roles: readonly string[], roleRequired: boolean) => {
  const role = Type.Enum(roles, { description: `Role (UNCL 3035): ${roles.map((r) => `${r} ${ROLE_CODES[r]}`).join(', ')}.` });
  return Type.Object(
    {
      role: roleRequired ? role : Type.Optional(role),
      ids: Type.Optional(Type.Array(Identifier, { minItems: 1, maxItems: 20, description: 'Global identifiers (GlobalID).' })),
      name: Type.Optional(text('Name.')),
      electronic_address: Type.Optional({ ...Identifier, description: 'Electronic address (URIID), e.g. scheme 0225.' }),
    },
    { additionalProperties: false, description },
  );
};

const Characteristic = Type.Object(
  {
    type_code: Type.Enum(CHARACTERISTIC_TYPES, {
      description:
        'MDT-207: MEN amount received with VAT, MPA amount paid, ESC early-payment discount, CBB new bank details, DIV wrong value, DVA expected value, …',
    }),
    id: Type.Optional(token('MDT-206: the data concerned, e.g. BT-152.')),
    value_changed: Type.Optional({ type: 'boolean', description: 'MDT-209: the value changed.' }),
    name: Type.Optional(text('MDT-211: the data name.')),
    location: Type.Optional(text('MDT-213: its XPath in the invoice.', 4096)),
    value: Type.Optional(text('MDT-214: a value as text (an IBAN, a name).')),
    amount: Type.Optional(decimal('MDT-215: an amount.')),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'MDT-216: its currency (ISO 4217).' })),
    date: Type.Optional(Type.String({ pattern: DATE, description: 'MDT-219: a date, YYYY-MM-DD.' })),
    percent: Type.Optional(decimal('MDT-224: a percentage (the VAT rate of an amount received).')),
  },
  { additionalProperties: false, description: 'MDG-43: data reported or expected.' },
);

const Detail = Type.Object(
  {
    sequence: Type.Optional({
      type: 'integer',
      minimum: 1,
      maximum: 999999,
      description: 'MDT-124-2: number of the detail (default: its position, from 1).',
    }),
    reason_code: Type.Optional(
      Type.Enum(REASON_CODES, { description: 'MDT-113: the reason (which reasons a status allows: docs/api.md).' }),
    ),
    reason: Type.Optional(text('MDT-114: the reason in words.')),
    process_condition_code: Type.Optional(Type.String({ pattern: '^[0-9]{3}$', description: 'MDT-115: a status of this detail.' })),
    process_condition: Type.Optional(text('MDT-116: its label.')),
    action_code: Type.Optional(Type.Enum(ACTION_CODES, { description: 'MDT-121: the action expected.' })),
    action: Type.Optional(text('MDT-122: the action in words.')),
    notes: Type.Optional(
      Type.Array(
        Type.Object(
          {
            content: text('The note.', 4096),
            subject_code: Type.Optional(Type.String({ pattern: '^[A-Z0-9]{1,3}$', description: 'Subject (UNCL 4451), e.g. AHN.' })),
          },
          { additionalProperties: false },
        ),
        { maxItems: 50 },
      ),
    ),
    characteristics: Type.Optional(Type.Array(Characteristic, { maxItems: 200 })),
  },
  { additionalProperties: false, description: 'MDG-37: a status detail.' },
);

export const StatusMessageSchema = Type.Object(
  {
    message_id: token('MDT-4: the message identifier.'),
    message_name: Type.Optional(text('MDT-5: the message name.')),
    issue_date_time: dateTime('MDT-8: when the message was created.'),
    business_process: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: TOKEN,
        description: `MDT-2: the business process (${BUSINESS_PROCESSES.join(', ')}); default REGULATED, none for a message to the PPF.`,
      }),
    ),
    guideline: Type.Optional(Type.Enum(GUIDELINES, { description: 'MDT-3: between platforms (default) or to the PPF (einvoicingF2).' })),
    sender: party('MDG-9: who sends the message (MDT-21 role; WK = the platform).', Object.keys(ROLE_CODES), true),
    issuer: party('Who issues the status (MDT-38 id, MDT-39 name, MDT-40 role).', Object.keys(ROLE_CODES), true),
    recipients: Type.Array(party('A recipient (MDT-57 id, MDT-58 name, MDT-59 role, MDT-73 electronic address).', RECIPIENT_ROLES, true), {
      minItems: 1,
      maxItems: 20,
    }),
    status: Type.Object(
      {
        code: Type.String({
          pattern: '^[0-9]{3}$',
          description: 'MDT-105: the status code (200 Déposée … 213 Rejetée, …).',
          examples: ['205'],
        }),
        label: Type.Optional(text('MDT-106: its label (default: the published French label).')),
        phase: Type.Optional(
          Type.Enum(['transmission', 'processing'], { description: "MDT-77: 305 or 23 (default: the status's own phase)." }),
        ),
        detail_code: Type.Optional(
          Type.String({
            pattern: '^[0-9]{1,3}$',
            description: 'MDT-88: the detail status, UNCL 4405 (default: the usual one for the status).',
          }),
        ),
        date_time: dateTime('MDT-78: when the status was set.'),
      },
      { additionalProperties: false },
    ),
    invoice: Type.Object(
      {
        number: token('MDT-87: the invoice number (BT-1).'),
        issue_date: Type.Optional(Type.String({ pattern: DATE, description: 'MDT-100: the invoice date (BT-2), YYYY-MM-DD.' })),
        type_code: Type.Optional(Type.Enum(INVOICE_TYPE_CODES, { description: 'MDT-91: the invoice type code (BT-3).' })),
        received_date_time: Type.Optional(dateTime('MDT-95: when the party setting the status received the invoice.')),
        seller: Type.Optional(party('The seller who issued the invoice (MDT-129 its legal identifier, BT-30; role SE).', ['SE'], false)),
        buyer: Type.Optional(party("The invoice's recipient (MDT-158 role).", RECIPIENT_ROLES, false)),
      },
      { additionalProperties: false, description: 'MDG-33: the invoice the status is about.' },
    ),
    details: Type.Optional(Type.Array(Detail, { maxItems: 100, description: 'MDG-37: reasons, actions and data (one per reason).' })),
  },
  { additionalProperties: false, description: 'A French lifecycle status message (CDV, XP Z12-012), written as UN/CEFACT CDAR D22B.' },
);
