/**
 * The EXTENDED-CTC-FR rules both artefacts state alike: id, message and test written once here, each syntax binding
 * only where the rule looks (its context nodes and the paths of their parts; cii.ts and ubl.ts give a Binding). The
 * profile's code lists are here too, as sets.
 */
import type { XmlDoc, XmlElement } from '../../xml/dom.js';
import type { Rule } from '../types.js';
import { attr, has, sel, text } from '../xrechnung/dom.js';
import { inList, onEach } from './xpath.js';
import {
  CHARGE_REASONS_5153,
  CHARGE_REASONS_7161,
  GROSS_PRICE_ALLOWANCE_REASONS,
  ICD_PLUS,
  INCOTERMS,
  ITEM_ATTRIBUTE_CODES,
  MIME_CODES,
} from './codes.data.js';

export const ITEM_CODES: ReadonlySet<string> = new Set(ITEM_ATTRIBUTE_CODES);
export const ICD: ReadonlySet<string> = new Set(ICD_PLUS);
export const GP_REASONS: ReadonlySet<string> = new Set(GROSS_PRICE_ALLOWANCE_REASONS);
const REASONS_7161: ReadonlySet<string> = new Set(CHARGE_REASONS_7161);
const REASONS_5153: ReadonlySet<string> = new Set(CHARGE_REASONS_5153);
const LIST_IDS: ReadonlySet<string> = new Set(['7161', '5153']);
const INCOTERM_CODES: ReadonlySet<string> = new Set(INCOTERMS);
const MIMES: ReadonlySet<string> = new Set(MIME_CODES);

/** Where a syntax keeps what the shared rules check. */
export interface Binding {
  /** The reason codes of document and line charges (charge indicator true), in document order. */
  chargeReasonCodes(doc: XmlDoc): readonly XmlElement[];
  /** The attachments' binary objects that carry a mimeCode attribute. */
  attachmentsWithMime(doc: XmlDoc): readonly XmlElement[];
  /** The delivery terms codes (Incoterms). */
  deliveryTermsCodes(doc: XmlDoc): readonly XmlElement[];
  /** The item attributes (BG-32). */
  itemAttributes(doc: XmlDoc): readonly XmlElement[];
  /** Paths from an item attribute to its name (BT-160), code, value (BT-161) and value with a unit. */
  attribute: { name: string; code: string; value: string; quantity: string };
}

/** Which rule of the codes pattern takes a charge reason code: listID 7161 or none, 5153, or another. */
function listOf(code: XmlElement): '7161' | '5153' | 'other' {
  const listId = attr(code, 'listID');
  if (listId === undefined || listId === '7161') return '7161';
  return listId === '5153' ? '5153' : 'other';
}

const reasonsOf = (b: Binding, list: '7161' | '5153' | 'other') => (doc: XmlDoc) =>
  b.chargeReasonCodes(doc).filter((code) => listOf(code) === list);

/** BR-FREXT-54-1 and -54-2: what an item attribute must give. */
export function itemAttributeRules(b: Binding): Rule[] {
  const { name, code, value, quantity } = b.attribute;
  return [
    onEach(
      'BR-FREXT-54-1',
      'error',
      'Each item attribute (BG-32) must have a name (BT-160) or a code.',
      b.itemAttributes,
      (a) => has(a, name) || has(a, code),
    ),
    onEach(
      'BR-FREXT-54-2',
      'error',
      'Each item attribute (BG-32) must have either a value (BT-161) or a value with a unit of measure, not both.',
      b.itemAttributes,
      (a) => (has(a, value) ? !has(a, quantity) : sel(a, quantity).some((q) => (attr(q, 'unitCode') ?? '') !== '')),
    ),
  ];
}

/** The code list rules on charge reasons, attachments and delivery terms (BR-FREXT-CL-20…27). */
export function codeListRules(b: Binding): Rule[] {
  return [
    onEach(
      'BR-FREXT-CL-20',
      'error',
      'A coded charge reason (list 7161 or no list) must come from UNTDID 7161.',
      reasonsOf(b, '7161'),
      (rc) => inList(REASONS_7161, text(rc)),
    ),
    onEach(
      'BR-FREXT-CL-20-TAX',
      'error',
      'A coded non-VAT tax reason (list 5153) must come from UNTDID 5153 (VAT excepted).',
      reasonsOf(b, '5153'),
      (rc) => inList(REASONS_5153, text(rc)),
    ),
    onEach(
      'BR-FREXT-CL-20-LISTID',
      'error',
      'A charge reason code with another list identifier is refused (the list must be 7161 or 5153).',
      reasonsOf(b, 'other'),
      (rc) => inList(LIST_IDS, text(rc)),
    ),
    onEach(
      'BR-FREXT-CL-24',
      'error',
      'An attachment MIME code must be one of application/pdf, image/png, image/jpeg, text/csv, the spreadsheet types, application/xml or text/xml.',
      b.attachmentsWithMime,
      (obj) => MIMES.has(attr(obj, 'mimeCode') ?? ''),
    ),
    onEach(
      'BR-FREXT-CL-27',
      'error',
      'The delivery terms code must be an Incoterms code of the restricted list (or 1, 2).',
      b.deliveryTermsCodes,
      (c) => inList(INCOTERM_CODES, text(c)),
    ),
  ];
}
