/**
 * A French lifecycle status message (CDV, carried as UN/CEFACT CDAR D22B) as plain JSON: the body of POST
 * /v1/status, what /v1/extract reads back (`status_json`), and what the writer and reader map to and from XML.
 * Each field names the XP Z12-012 term (MDT-n / MDG-n) it carries. Dates are ISO 8601 without a time zone
 * (CDAR's formats 204 and 102 carry none); amounts and percentages are decimal strings as written.
 */

/** An identifier with its scheme (ISO 6523 ICD such as 0002 SIREN, 0009 SIRET, 0225 electronic address, 0238 platform). */
export interface StatusIdentifier {
  value: string;
  scheme?: string;
}

/** A party of the message or of the referenced invoice. */
export interface StatusParty {
  /** Role (UNCL 3035): BY, SE, WK (accredited platform), DFH (PPF), AB, SR, DL, PE, PR, II, IV. */
  role?: string;
  /** Global identifiers (GlobalID), e.g. the SIREN with scheme 0002. */
  ids?: StatusIdentifier[];
  name?: string;
  /** Electronic address (URIUniversalCommunication/URIID, MDT-73 for a recipient). */
  electronic_address?: StatusIdentifier;
}

/** MDG-43: a data item reported or expected (amount received, a wrong value and the one expected, new bank details). */
export interface StatusCharacteristic {
  /** MDT-207: MEN, MPA, RAP, ESC, RAB, REM, MAP, MAPTTC, MNA, MNATTC, CBB, DIV, DVA, MAJ. */
  type_code: string;
  /** MDT-206: the data's id in the invoice (a business term such as BT-152). */
  id?: string;
  /** MDT-209: whether the value changed. */
  value_changed?: boolean;
  /** MDT-211: the data's name. */
  name?: string;
  /** MDT-213: the data's XPath in the invoice. */
  location?: string;
  /** MDT-214: a value as text (an IBAN, a name). */
  value?: string;
  /** MDT-215: an amount, with its currency (MDT-216). */
  amount?: string;
  currency?: string;
  /** MDT-219: a date (YYYY-MM-DD). */
  date?: string;
  /** MDT-224: a percentage (the VAT rate of an amount received). */
  percent?: string;
}

/** A free-text note of a status detail. */
export interface StatusNote {
  content: string;
  /** Subject code (UNCL 4451), e.g. AHN. */
  subject_code?: string;
}

/** MDG-37: one status detail (a reason, the action expected, the data concerned). */
export interface StatusDetail {
  /** MDT-124-2: its number, from 1 (filled in order when absent). */
  sequence?: number;
  /** MDT-113 / MDT-114: reason code and text. */
  reason_code?: string;
  reason?: string;
  /** MDT-115 / MDT-116: a status of this detail (e.g. per line). */
  process_condition_code?: string;
  process_condition?: string;
  /** MDT-121 / MDT-122: the action expected (NOA, PIN, NIN, CNF, CNP, CNA, OTH) and its text. */
  action_code?: string;
  action?: string;
  notes?: StatusNote[];
  characteristics?: StatusCharacteristic[];
}

/** The invoice the status is about (MDG-33 ReferenceReferencedDocument). */
export interface StatusInvoice {
  /** MDT-87: the invoice number (BT-1). */
  number: string;
  /** MDT-100: the invoice date (BT-2), YYYY-MM-DD. */
  issue_date?: string;
  /** MDT-91: the invoice type code (BT-3). */
  type_code?: string;
  /** MDT-95: when the party setting the status received the invoice (YYYY-MM-DDThh:mm:ss). */
  received_date_time?: string;
  /** MDT-129…: the seller who issued the invoice (its legal identifier, BT-30); role SE when given. */
  seller?: StatusParty;
  /** MDT-158…: the invoice's recipient, when stated. */
  buyer?: StatusParty;
}

export interface StatusBody {
  /** MDT-105: the status code (200 Déposée … 212 Encaissée, 213 Rejetée, …). */
  code: string;
  /** MDT-106: its label (default: the published French label). */
  label?: string;
  /** MDT-77: transmission (305) or processing (23); default: the status's own phase. */
  phase?: 'transmission' | 'processing';
  /** MDT-88: the detail status (UNCL 4405); default: the one the published examples use with this status. */
  detail_code?: string;
  /** MDT-78: when the status was set (YYYY-MM-DDThh:mm:ss). */
  date_time: string;
}

export interface StatusMessage {
  /** MDT-4: the message identifier. */
  message_id: string;
  /** MDT-5: the message name. */
  message_name?: string;
  /** MDT-8: when the message was created (YYYY-MM-DDThh:mm:ss). */
  issue_date_time: string;
  /** MDT-2: the business process (REGULATED by default, none for a message to the PPF). */
  business_process?: string;
  /** MDT-3: urn.cpro.gouv.fr:1p0:CDV:invoice (between platforms, the default) or …:CDV:einvoicingF2 (to the PPF). */
  guideline?: string;
  /** MDG-9: who sends the message (MDT-21 role). */
  sender: StatusParty;
  /** The status's issuer (MDT-38 id, MDT-39 name, MDT-40 role). */
  issuer: StatusParty;
  /** The recipients (MDT-57 id, MDT-58 name, MDT-59 role, MDT-73 electronic address). */
  recipients: StatusParty[];
  status: StatusBody;
  invoice: StatusInvoice;
  details?: StatusDetail[];
}
