/**
 * CDAR D22B XML → StatusMessage, best effort: what the message carries, in the JSON of POST /v1/status (the writer's
 * inverse for every field it writes). Codes and identifiers (XSD tokens) are read trimmed, texts as written. A date
 * in format 204 / 102 becomes ISO 8601; one in another format is kept as written. A message about several invoices
 * (MultipleReferencesIndicator true) is read for its first; `extraReferences` counts the others.
 */
import { child, childrenNamed, attr, type XmlElement } from '../../xml/dom.js';
import { textOf } from '../reader-helpers.js';
import { PHASE_CODES, type StatusPhase } from './codes.js';
import type {
  StatusCharacteristic,
  StatusDetail,
  StatusIdentifier,
  StatusInvoice,
  StatusMessage,
  StatusNote,
  StatusParty,
} from './model.js';
import { CDAR_NS } from './namespaces.js';

const { rsm, ram, udt, qdt } = CDAR_NS;

export interface ReadCdar {
  message: StatusMessage;
  /** How many further referenced documents (or acknowledgement documents) the message carries beyond the one read. */
  extraReferences: number;
}

const token = (el: XmlElement | undefined): string | undefined => (el ? textOf(el).trim() : undefined);
const text = (el: XmlElement | undefined): string | undefined => (el ? textOf(el) : undefined);

/** CCYYMMDDHHMMSS (204) → YYYY-MM-DDThh:mm:ss; other formats as written. */
function dateTimeOf(el: XmlElement | undefined): string | undefined {
  if (!el) return undefined;
  const s = child(el, udt, 'DateTimeString');
  if (s) {
    const v = textOf(s).trim();
    const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(v);
    if (m && (attr(s, 'format') ?? '204') === '204') return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
    return v;
  }
  const d = child(el, udt, 'DateTime');
  return d ? textOf(d).trim() : undefined;
}

/** CCYYMMDD (102) → YYYY-MM-DD; other formats as written. */
function dateOf(el: XmlElement | undefined, ns: string): string | undefined {
  const s = child(el, ns, 'DateTimeString');
  if (!s) return undefined;
  const v = textOf(s).trim();
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  return m && (attr(s, 'format') ?? '102') === '102' ? `${m[1]}-${m[2]}-${m[3]}` : v;
}

function identifier(el: XmlElement | undefined): StatusIdentifier | undefined {
  if (!el) return undefined;
  const out: StatusIdentifier = { value: textOf(el).trim() };
  const scheme = attr(el, 'schemeID');
  if (scheme !== undefined) out.scheme = scheme.trim();
  return out;
}

function party(el: XmlElement | undefined): StatusParty | undefined {
  if (!el) return undefined;
  const out: StatusParty = {};
  const role = token(child(el, ram, 'RoleCode'));
  if (role !== undefined) out.role = role;
  const ids = childrenNamed(el, ram, 'GlobalID').map((g) => identifier(g)!);
  if (ids.length > 0) out.ids = ids;
  const name = text(child(el, ram, 'Name'));
  if (name !== undefined) out.name = name;
  const address = identifier(child(child(el, ram, 'URIUniversalCommunication'), ram, 'URIID'));
  if (address) out.electronic_address = address;
  return out;
}

function characteristic(el: XmlElement): StatusCharacteristic {
  const out: StatusCharacteristic = { type_code: token(child(el, ram, 'TypeCode')) ?? '' };
  const put = <K extends keyof StatusCharacteristic>(k: K, v: StatusCharacteristic[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  put('id', token(child(el, ram, 'ID')));
  const changed = child(el, ram, 'ValueChangedIndicator');
  const flag = token(child(changed, udt, 'Indicator') ?? child(changed, udt, 'IndicatorString'));
  if (flag !== undefined) out.value_changed = flag === 'true' || flag === '1';
  put('name', text(child(el, ram, 'Name')));
  put('location', text(child(el, ram, 'Location')));
  put('value', text(child(el, ram, 'Value')));
  const amount = child(el, ram, 'ValueAmount');
  put('amount', token(amount));
  put('currency', amount ? attr(amount, 'currencyID')?.trim() : undefined);
  put('date', dateOf(child(el, ram, 'ValueDateTime'), udt));
  put('percent', token(child(el, ram, 'ValuePercent')));
  return out;
}

function detail(el: XmlElement): StatusDetail {
  const out: StatusDetail = {};
  const put = <K extends keyof StatusDetail>(k: K, v: StatusDetail[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  const seq = token(child(el, ram, 'SequenceNumeric'));
  if (seq !== undefined && /^\d+$/.test(seq) && seq.length <= 9) out.sequence = Number(seq);
  put('reason_code', token(child(el, ram, 'ReasonCode')));
  put('reason', text(child(el, ram, 'Reason')));
  put('process_condition_code', token(child(el, ram, 'ProcessConditionCode')));
  put('process_condition', text(child(el, ram, 'ProcessCondition')));
  put('action_code', token(child(el, ram, 'RequestedActionCode')));
  put('action', text(child(el, ram, 'RequestedAction')));
  const notes: StatusNote[] = childrenNamed(el, ram, 'IncludedNote').map((n) => {
    const note: StatusNote = { content: text(child(n, ram, 'Content')) ?? '' };
    const subject = token(child(n, ram, 'SubjectCode'));
    if (subject !== undefined) note.subject_code = subject;
    return note;
  });
  if (notes.length > 0) out.notes = notes;
  const characteristics = childrenNamed(el, ram, 'SpecifiedDocumentCharacteristic').map(characteristic);
  if (characteristics.length > 0) out.characteristics = characteristics;
  return out;
}

const PHASE_OF_CODE = new Map<string, StatusPhase>(Object.entries(PHASE_CODES).map(([phase, code]) => [code, phase as StatusPhase]));

/** Read a CDAR message (the root must satisfy isCdarRoot). */
export function readCdar(root: XmlElement): ReadCdar {
  const context = child(root, rsm, 'ExchangedDocumentContext');
  const exchanged = child(root, rsm, 'ExchangedDocument');
  const acks = childrenNamed(root, rsm, 'AcknowledgementDocument');
  const ack = acks[0];
  const refs = childrenNamed(ack, ram, 'ReferenceReferencedDocument');
  const ref = refs[0];

  const invoice: StatusInvoice = { number: token(child(ref, ram, 'IssuerAssignedID')) ?? '' };
  const issueDate = dateOf(child(ref, ram, 'FormattedIssueDateTime'), qdt);
  if (issueDate !== undefined) invoice.issue_date = issueDate;
  const typeCode = token(child(ref, ram, 'TypeCode'));
  if (typeCode !== undefined) invoice.type_code = typeCode;
  const received = dateTimeOf(child(ref, ram, 'ReceiptDateTime'));
  if (received !== undefined) invoice.received_date_time = received;
  const seller = party(child(ref, ram, 'IssuerTradeParty'));
  if (seller) invoice.seller = seller;
  const buyer = party(child(ref, ram, 'RecipientTradeParty'));
  if (buyer) invoice.buyer = buyer;

  const phaseCode = token(child(ack, ram, 'TypeCode'));
  const message: StatusMessage = {
    message_id: token(child(exchanged, ram, 'ID')) ?? '',
    issue_date_time: dateTimeOf(child(exchanged, ram, 'IssueDateTime')) ?? '',
    sender: party(child(exchanged, ram, 'SenderTradeParty')) ?? {},
    issuer: party(child(exchanged, ram, 'IssuerTradeParty')) ?? {},
    recipients: childrenNamed(exchanged, ram, 'RecipientTradeParty').map((r) => party(r)!),
    status: { code: token(child(ref, ram, 'ProcessConditionCode')) ?? '', date_time: dateTimeOf(child(ack, ram, 'IssueDateTime')) ?? '' },
    invoice,
  };
  const name = text(child(exchanged, ram, 'Name'));
  if (name !== undefined) message.message_name = name;
  const process = token(child(child(context, ram, 'BusinessProcessSpecifiedDocumentContextParameter'), ram, 'ID'));
  if (process !== undefined) message.business_process = process;
  const guideline = token(child(child(context, ram, 'GuidelineSpecifiedDocumentContextParameter'), ram, 'ID'));
  if (guideline !== undefined) message.guideline = guideline;
  const label = text(child(ref, ram, 'ProcessCondition'));
  if (label !== undefined) message.status.label = label;
  const phase = phaseCode === undefined ? undefined : PHASE_OF_CODE.get(phaseCode);
  if (phase) message.status.phase = phase;
  const detailCode = token(child(ref, ram, 'StatusCode'));
  if (detailCode !== undefined) message.status.detail_code = detailCode;
  const details = childrenNamed(ref, ram, 'SpecifiedDocumentStatus').map(detail);
  if (details.length > 0) message.details = details;

  let extra = Math.max(0, refs.length - 1);
  for (const other of acks.slice(1)) extra += childrenNamed(other, ram, 'ReferenceReferencedDocument').length;
  return { message, extraReferences: extra };
}
