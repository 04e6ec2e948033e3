/**
 * StatusMessage → CDAR D22B XML (CrossDomainAcknowledgementAndResponse), elements in the schema's order. The
 * message must be complete (src/cdar/build.ts fills the defaults): the writer writes what it is given and nothing
 * else, so that reading the XML back (./reader.ts) gives the same JSON.
 */
import { escapeAttr, escapeText } from '../cii/writer-xml.js';
import { PHASE_CODES } from './codes.js';
import type { StatusCharacteristic, StatusDetail, StatusIdentifier, StatusMessage, StatusParty } from './model.js';
import { CDAR_NS } from './namespaces.js';

/** YYYY-MM-DDThh:mm:ss → CCYYMMDDHHMMSS (format 204). */
export function toFormat204(isoDateTime: string): string {
  return isoDateTime.replace(/[-:T]/g, '');
}

/** YYYY-MM-DD → CCYYMMDD (format 102). */
export function toFormat102(isoDate: string): string {
  return isoDate.replace(/-/g, '');
}

class Out {
  private readonly lines: string[] = [];
  /** Children of the root are indented once. */
  private depth = 1;
  open(name: string): void {
    this.lines.push(`${'  '.repeat(this.depth)}<${name}>`);
    this.depth++;
  }
  close(name: string): void {
    this.depth--;
    this.lines.push(`${'  '.repeat(this.depth)}</${name}>`);
  }
  leaf(name: string, value: string | undefined, attrs: Record<string, string | undefined> = {}): void {
    if (value === undefined) return;
    const a = Object.entries(attrs)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => ` ${k}="${escapeAttr(v!)}"`)
      .join('');
    this.lines.push(`${'  '.repeat(this.depth)}<${name}${a}>${escapeText(value)}</${name}>`);
  }
  raw(line: string): void {
    this.lines.push(line);
  }
  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

function dateTime(out: Out, name: string, iso: string | undefined): void {
  if (iso === undefined) return;
  out.open(name);
  out.leaf('udt:DateTimeString', toFormat204(iso), { format: '204' });
  out.close(name);
}

function id(out: Out, name: string, v: StatusIdentifier | undefined): void {
  if (v) out.leaf(name, v.value, { schemeID: v.scheme });
}

function party(out: Out, name: string, p: StatusParty | undefined): void {
  if (!p) return;
  out.open(name);
  for (const g of p.ids ?? []) id(out, 'ram:GlobalID', g);
  out.leaf('ram:Name', p.name);
  out.leaf('ram:RoleCode', p.role);
  if (p.electronic_address) {
    out.open('ram:URIUniversalCommunication');
    id(out, 'ram:URIID', p.electronic_address);
    out.close('ram:URIUniversalCommunication');
  }
  out.close(name);
}

function characteristic(out: Out, c: StatusCharacteristic): void {
  out.open('ram:SpecifiedDocumentCharacteristic');
  out.leaf('ram:ID', c.id);
  out.leaf('ram:TypeCode', c.type_code);
  if (c.value_changed !== undefined) {
    out.open('ram:ValueChangedIndicator');
    out.leaf('udt:Indicator', String(c.value_changed));
    out.close('ram:ValueChangedIndicator');
  }
  out.leaf('ram:Name', c.name);
  out.leaf('ram:Location', c.location);
  out.leaf('ram:Value', c.value);
  out.leaf('ram:ValueAmount', c.amount, { currencyID: c.currency });
  if (c.date !== undefined) {
    out.open('ram:ValueDateTime');
    out.leaf('udt:DateTimeString', toFormat102(c.date), { format: '102' });
    out.close('ram:ValueDateTime');
  }
  out.leaf('ram:ValuePercent', c.percent);
  out.close('ram:SpecifiedDocumentCharacteristic');
}

function detail(out: Out, d: StatusDetail): void {
  out.open('ram:SpecifiedDocumentStatus');
  out.leaf('ram:ReasonCode', d.reason_code);
  out.leaf('ram:Reason', d.reason);
  out.leaf('ram:ProcessConditionCode', d.process_condition_code);
  out.leaf('ram:ProcessCondition', d.process_condition);
  out.leaf('ram:RequestedActionCode', d.action_code);
  out.leaf('ram:RequestedAction', d.action);
  out.leaf('ram:SequenceNumeric', d.sequence === undefined ? undefined : String(d.sequence));
  for (const n of d.notes ?? []) {
    out.open('ram:IncludedNote');
    out.leaf('ram:Content', n.content);
    out.leaf('ram:SubjectCode', n.subject_code);
    out.close('ram:IncludedNote');
  }
  for (const c of d.characteristics ?? []) characteristic(out, c);
  out.close('ram:SpecifiedDocumentStatus');
}

/** The CDAR XML of a complete status message. */
export function writeCdar(msg: StatusMessage): string {
  const out = new Out();
  out.raw('<?xml version="1.0" encoding="UTF-8"?>');
  out.raw(
    `<rsm:CrossDomainAcknowledgementAndResponse xmlns:rsm="${CDAR_NS.rsm}" xmlns:ram="${CDAR_NS.ram}" xmlns:qdt="${CDAR_NS.qdt}" xmlns:udt="${CDAR_NS.udt}">`,
  );
  out.open('rsm:ExchangedDocumentContext');
  if (msg.business_process !== undefined) {
    out.open('ram:BusinessProcessSpecifiedDocumentContextParameter');
    out.leaf('ram:ID', msg.business_process);
    out.close('ram:BusinessProcessSpecifiedDocumentContextParameter');
  }
  out.open('ram:GuidelineSpecifiedDocumentContextParameter');
  out.leaf('ram:ID', msg.guideline);
  out.close('ram:GuidelineSpecifiedDocumentContextParameter');
  out.close('rsm:ExchangedDocumentContext');

  out.open('rsm:ExchangedDocument');
  out.leaf('ram:ID', msg.message_id);
  out.leaf('ram:Name', msg.message_name);
  dateTime(out, 'ram:IssueDateTime', msg.issue_date_time);
  party(out, 'ram:SenderTradeParty', msg.sender);
  party(out, 'ram:IssuerTradeParty', msg.issuer);
  for (const r of msg.recipients) party(out, 'ram:RecipientTradeParty', r);
  out.close('rsm:ExchangedDocument');

  const inv = msg.invoice;
  const st = msg.status;
  out.open('rsm:AcknowledgementDocument');
  out.open('ram:MultipleReferencesIndicator');
  out.leaf('udt:Indicator', 'false');
  out.close('ram:MultipleReferencesIndicator');
  out.leaf('ram:TypeCode', st.phase === undefined ? undefined : PHASE_CODES[st.phase]);
  dateTime(out, 'ram:IssueDateTime', st.date_time);
  out.open('ram:ReferenceReferencedDocument');
  out.leaf('ram:IssuerAssignedID', inv.number);
  out.leaf('ram:StatusCode', st.detail_code);
  out.leaf('ram:TypeCode', inv.type_code);
  dateTime(out, 'ram:ReceiptDateTime', inv.received_date_time);
  if (inv.issue_date !== undefined) {
    out.open('ram:FormattedIssueDateTime');
    out.leaf('qdt:DateTimeString', toFormat102(inv.issue_date), { format: '102' });
    out.close('ram:FormattedIssueDateTime');
  }
  out.leaf('ram:ProcessConditionCode', st.code);
  out.leaf('ram:ProcessCondition', st.label);
  party(out, 'ram:IssuerTradeParty', inv.seller);
  party(out, 'ram:RecipientTradeParty', inv.buyer);
  for (const d of msg.details ?? []) detail(out, d);
  out.close('ram:ReferenceReferencedDocument');
  out.close('rsm:AcknowledgementDocument');
  out.raw('</rsm:CrossDomainAcknowledgementAndResponse>');
  return out.text();
}
