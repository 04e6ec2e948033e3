/**
 * Mutations of status messages for the BR-FR-CDV agreement checks: for every official assert at least one edit of a
 * valid message meant to make it fire (for the asserts that cannot fire in the official artefact, the edit their
 * wording describes), plus edits near a rule's edge that must not fire it and edits that break the CDAR schema.
 * scripts/cdar-verdicts.ts stores the official verdict of each; the tests compare ours with it.
 *
 * An edit addresses an element by a path of the writer's prefixed names from the root's children
 * (`rsm:ExchangedDocument/ram:SenderTradeParty/ram:RoleCode`, `[n]` picks the n-th of a name, 1-based).
 */
import { exampleFor, toPpf } from '../src/cdar/examples.js';
import { buildStatusMessage } from '../src/cdar/build.js';
import type { StatusMessage } from '../src/syntax/cdar/model.js';
import { parseXml, type XmlElement } from '../src/xml/dom.js';
import { escapeAttr, escapeText } from '../src/syntax/cii/writer-xml.js';
import { CDAR_NS } from '../src/syntax/cdar/namespaces.js';

export interface NewElement {
  name: string;
  text?: string;
  attrs?: Record<string, string>;
  children?: NewElement[];
}

export type Edit =
  | { op: 'remove'; path: string }
  | { op: 'text'; path: string; value: string }
  | { op: 'attr'; path: string; name: string; value: string | null }
  | { op: 'insert'; path: string; element: NewElement; before?: string };

export interface CdarMutation {
  name: string;
  /** The base message (a key of MUTATION_BASES). */
  base: string;
  /** The rule id the edit is aimed at (XSD for schema edits, or the id whose edge it probes). */
  target: string;
  edits: Edit[];
}

/** The valid messages the mutations start from. */
export const MUTATION_BASES: Record<string, () => StatusMessage> = {
  b200: () => exampleFor('200'),
  b205: () => exampleFor('205'),
  b206: () => exampleFor('206'),
  b207: () => exampleFor('207'),
  b208: () => exampleFor('208'),
  b210: () => exampleFor('210'),
  b212: () => exampleFor('212'),
  b212ppf: () => toPpf(),
  b213: () => exampleFor('213'),
  b221: () => exampleFor('221'),
  b501: () => exampleFor('501'),
};

const ED = 'rsm:ExchangedDocument';
const CTX = 'rsm:ExchangedDocumentContext';
const AD = 'rsm:AcknowledgementDocument';
const RRD = `${AD}/ram:ReferenceReferencedDocument`;
const SDS = `${RRD}/ram:SpecifiedDocumentStatus`;

const m = (name: string, base: string, target: string, ...edits: Edit[]): CdarMutation => ({ name, base, target, edits });
const text = (path: string, value: string): Edit => ({ op: 'text', path, value });
const remove = (path: string): Edit => ({ op: 'remove', path });
const insert = (path: string, element: NewElement, before?: string): Edit => ({
  op: 'insert',
  path,
  element,
  ...(before ? { before } : {}),
});

export const CDAR_MUTATIONS: CdarMutation[] = [
  m('invoice type code not French', 'b207', 'BR-FR-04_MDT-91', text(`${RRD}/ram:TypeCode`, '999')),
  m('invoice type code 326', 'b205', 'BR-FR-04_MDT-91', text(`${RRD}/ram:TypeCode`, '326')),
  m('no guideline parameter', 'b207', 'BR-FR-CDV-01_MDG-3', remove(`${CTX}/ram:GuidelineSpecifiedDocumentContextParameter`)),
  m(
    'other guideline',
    'b207',
    'BR-FR-CDV-02_MDT-3',
    text(`${CTX}/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID`, 'urn:cen.eu:en16931:2017'),
  ),
  m(
    'PPF guideline, two recipients',
    'b200',
    'BR-FR-CDV-02_MDT-3',
    text(`${CTX}/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID`, 'urn.cpro.gouv.fr:1p0:CDV:einvoicingF2'),
  ),
  m('PPF guideline, PPF id 9998', 'b212ppf', 'BR-FR-CDV-02_MDT-3', text(`${ED}/ram:RecipientTradeParty/ram:GlobalID`, '9998')),
  m('PPF guideline, recipient role WK', 'b212ppf', 'BR-FR-CDV-02_MDT-3', text(`${ED}/ram:RecipientTradeParty/ram:RoleCode`, 'WK')),
  m('no message id', 'b207', 'BR-FR-CDV-03_MDT-4', remove(`${ED}/ram:ID`)),
  m('no message date', 'b207', 'BR-FR-CDV-04_MDG-4', remove(`${ED}/ram:IssueDateTime`)),
  m('no sender', 'b207', 'BR-FR-CDV-05_MDG-9', remove(`${ED}/ram:SenderTradeParty`)),
  m('no sender role', 'b200', 'BR-FR-CDV-06_MDT-21', remove(`${ED}/ram:SenderTradeParty/ram:RoleCode`)),
  m('processing status, issuer without id', 'b207', 'BR-FR-CDV-07_MDT-38_yes', remove(`${ED}/ram:IssuerTradeParty/ram:GlobalID`)),
  m(
    'transmission status, issuer with id',
    'b200',
    'BR-FR-CDV-07_MDT-38_no',
    insert(`${ED}/ram:IssuerTradeParty`, { name: 'ram:GlobalID', text: '852741963', attrs: { schemeID: '0002' } }, 'ram:RoleCode'),
  ),
  m(
    'recipient without electronic address',
    'b207',
    'BR-FR-CDV-08_MDT-73',
    remove(`${ED}/ram:RecipientTradeParty/ram:URIUniversalCommunication`),
  ),
  m(
    'platform recipient without electronic address',
    'b207',
    'BR-FR-CDV-08_MDT-73',
    text(`${ED}/ram:RecipientTradeParty/ram:RoleCode`, 'WK'),
    remove(`${ED}/ram:RecipientTradeParty/ram:URIUniversalCommunication`),
  ),
  m('phase 99', 'b207', 'BR-FR-CDV-09_MDT-77', text(`${AD}/ram:TypeCode`, '99')),
  m('no phase', 'b207', 'BR-FR-CDV-09_MDT-77', remove(`${AD}/ram:TypeCode`)),
  m('no invoice number', 'b207', 'BR-FR-CDV-10_MDT-87', remove(`${RRD}/ram:IssuerAssignedID`)),
  m('no invoice date', 'b207', 'BR-FR-CDV-11_MDG-35', remove(`${RRD}/ram:FormattedIssueDateTime`)),
  m('no invoice date, status 501', 'b501', 'BR-FR-CDV-11_MDG-35', remove(`${RRD}/ram:FormattedIssueDateTime`)),
  m('no status code', 'b205', 'BR-FR-CDV-12_MDT-105', remove(`${RRD}/ram:ProcessConditionCode`)),
  m('seller without id', 'b207', 'BR-FR-CDV-13_MDT-129', remove(`${RRD}/ram:IssuerTradeParty/ram:GlobalID`)),
  m('seller without id, status 501', 'b501', 'BR-FR-CDV-13_MDT-129', remove(`${RRD}/ram:IssuerTradeParty/ram:GlobalID`)),
  m(
    'payment received without VAT rate',
    'b212',
    'BR-FR-CDV-14_MDT-207',
    remove(`${SDS}/ram:SpecifiedDocumentCharacteristic/ram:ValuePercent`),
  ),
  m(
    'payment received without amount',
    'b212',
    'BR-FR-CDV-14_MDT-207',
    remove(`${SDS}/ram:SpecifiedDocumentCharacteristic/ram:ValueAmount`),
  ),
  m('payment received as MPA', 'b212', 'BR-FR-CDV-14_MDT-207', text(`${SDS}/ram:SpecifiedDocumentCharacteristic/ram:TypeCode`, 'MPA')),
  m('payment received without details', 'b212', 'BR-FR-CDV-14_MDT-207', remove(SDS)),
  m('dispute without reason', 'b207', 'BR-FR-CDV-15_MDT-113', remove(`${SDS}/ram:ReasonCode`)),
  m('rejection without reason', 'b213', 'BR-FR-CDV-15_MDT-113', remove(`${SDS}/ram:ReasonCode`)),
  m('unacceptable without details', 'b501', 'BR-FR-CDV-15_MDT-113', remove(SDS)),
  m('detail without number', 'b207', 'BR-FR-CDV-16_MDT-124-2', remove(`${SDS}/ram:SequenceNumeric`)),
  m(
    'business process B2B',
    'b207',
    'BR-FR-CDV-CL-01_MDT-2',
    text(`${CTX}/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID`, 'B2B'),
  ),
  m(
    'business process NON_REGULATED',
    'b207',
    'BR-FR-CDV-CL-01_MDT-2',
    text(`${CTX}/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID`, 'NON_REGULATED'),
  ),
  m('no business process', 'b205', 'BR-FR-CDV-CL-01_MDT-2', remove(`${CTX}/ram:BusinessProcessSpecifiedDocumentContextParameter`)),
  m(
    'to the PPF with REGULATED',
    'b212ppf',
    'BR-FR-CDV-CL-01_MDT-2',
    insert(
      CTX,
      { name: 'ram:BusinessProcessSpecifiedDocumentContextParameter', children: [{ name: 'ram:ID', text: 'REGULATED' }] },
      'ram:GuidelineSpecifiedDocumentContextParameter',
    ),
  ),
  m(
    'to the PPF with B2C',
    'b212ppf',
    'BR-FR-CDV-CL-01_MDT-2',
    insert(
      CTX,
      { name: 'ram:BusinessProcessSpecifiedDocumentContextParameter', children: [{ name: 'ram:ID', text: 'B2C' }] },
      'ram:GuidelineSpecifiedDocumentContextParameter',
    ),
  ),
  m('transmission status sent by the buyer', 'b200', 'BR-FR-CDV-CL-02_MDT-21_305', text(`${ED}/ram:SenderTradeParty/ram:RoleCode`, 'BY')),
  m('processing status sent by the PPF', 'b207', 'BR-FR-CDV-CL-02_MDT-21_23', text(`${ED}/ram:SenderTradeParty/ram:RoleCode`, 'DFH')),
  m('processing status, no sender role', 'b207', 'BR-FR-CDV-CL-02_MDT-21_23', remove(`${ED}/ram:SenderTradeParty/ram:RoleCode`)),
  m(
    'transmission status issued by the seller',
    'b200',
    'BR-FR-CDV-CL-03_MDT-40_305',
    text(`${ED}/ram:IssuerTradeParty/ram:RoleCode`, 'SE'),
  ),
  m('processing status issued by a platform', 'b207', 'BR-FR-CDV-CL-03_MDT-40_23', text(`${ED}/ram:IssuerTradeParty/ram:RoleCode`, 'WK')),
  m('recipient role ZZ', 'b207', 'BR-FR-CDV-CL-04_MDT-59', text(`${ED}/ram:RecipientTradeParty/ram:RoleCode`, 'ZZ')),
  m('recipient role " SE"', 'b207', 'BR-FR-CDV-CL-04_MDT-59', text(`${ED}/ram:RecipientTradeParty/ram:RoleCode`, ' SE')),
  m('transmission status, detail 1', 'b200', 'BR-FR-CDV-CL-05_MDT-88_305', text(`${RRD}/ram:StatusCode`, '1')),
  m('processing status, detail 10', 'b207', 'BR-FR-CDV-CL-05_MDT-88_23', text(`${RRD}/ram:StatusCode`, '10')),
  m('processing status, detail 5', 'b207', 'BR-FR-CDV-CL-05_MDT-88_23', text(`${RRD}/ram:StatusCode`, '5')),
  m('status code 299', 'b205', 'BR-FR-CDV-CL-06_MDT-105', text(`${RRD}/ram:ProcessConditionCode`, '299')),
  m('status code " 205"', 'b205', 'BR-FR-CDV-CL-06_MDT-105', text(`${RRD}/ram:ProcessConditionCode`, ' 205')),
  m(
    'detail status 999',
    'b207',
    'BR-FR-CDV-CL-06_MDT-115',
    insert(SDS, { name: 'ram:ProcessConditionCode', text: '999' }, 'ram:RequestedActionCode'),
  ),
  m('seller role BY', 'b207', 'BR-FR-CDV-CL-07_MDT-132', insert(`${RRD}/ram:IssuerTradeParty`, { name: 'ram:RoleCode', text: 'BY' })),
  m('seller role SE', 'b207', 'BR-FR-CDV-CL-07_MDT-132', insert(`${RRD}/ram:IssuerTradeParty`, { name: 'ram:RoleCode', text: 'SE' })),
  m(
    'invoice recipient role ZZ',
    'b207',
    'BR-FR-CDV-CL-08_MDT-158',
    insert(RRD, { name: 'ram:RecipientTradeParty', children: [{ name: 'ram:RoleCode', text: 'ZZ' }] }, 'ram:SpecifiedDocumentStatus'),
  ),
  m(
    'invoice recipient role BY',
    'b207',
    'BR-FR-CDV-CL-08_MDT-158',
    insert(RRD, { name: 'ram:RecipientTradeParty', children: [{ name: 'ram:RoleCode', text: 'BY' }] }, 'ram:SpecifiedDocumentStatus'),
  ),
  m(
    'reason NOPE',
    'b205',
    'BR-FR-CDV-CL-09_MDT-113',
    insert(RRD, {
      name: 'ram:SpecifiedDocumentStatus',
      children: [
        { name: 'ram:ReasonCode', text: 'NOPE' },
        { name: 'ram:SequenceNumeric', text: '1' },
      ],
    }),
  ),
  m('submitted with reason DOUBLON', 'b200', 'BR-FR-CDV-CL-09_MDT-113_200', text(`${SDS}/ram:ReasonCode`, 'DOUBLON')),
  m('rejected with reason TX_TVA_ERR', 'b213', 'BR-FR-CDV-CL-09_MDT-113_213', text(`${SDS}/ram:ReasonCode`, 'TX_TVA_ERR')),
  m('refused with reason AUTRE', 'b210', 'BR-FR-CDV-CL-09_MDT-113_210', text(`${SDS}/ram:ReasonCode`, 'AUTRE')),
  m(
    'public refusal with reason DEST_INC',
    'b210',
    'BR-FR-CDV-CL-09_MDT-113_210B2G',
    insert(`${ED}/ram:SenderTradeParty`, { name: 'ram:GlobalID', text: '9999', attrs: { schemeID: '0238' } }, 'ram:RoleCode'),
    text(`${SDS}/ram:ReasonCode`, 'DEST_INC'),
  ),
  m(
    'public refusal with reason LIVR_INCOMP',
    'b210',
    'BR-FR-CDV-CL-09_MDT-113_210B2G',
    insert(`${ED}/ram:SenderTradeParty`, { name: 'ram:GlobalID', text: '9999', attrs: { schemeID: '0238' } }, 'ram:RoleCode'),
    text(`${SDS}/ram:ReasonCode`, 'LIVR_INCOMP'),
  ),
  m(
    'refusal by sender 0238 = 0042 with reason AUTRE',
    'b210',
    'BR-FR-CDV-CL-09_MDT-113_210B2G',
    insert(`${ED}/ram:SenderTradeParty`, { name: 'ram:GlobalID', text: '0042', attrs: { schemeID: '0238' } }, 'ram:RoleCode'),
    text(`${SDS}/ram:ReasonCode`, 'AUTRE'),
  ),
  m('disputed with reason REJ_SEMAN', 'b207', 'BR-FR-CDV-CL-09_MDT-113_207', text(`${SDS}/ram:ReasonCode`, 'REJ_SEMAN')),
  m(
    'disputed, detail status 205, reason REJ_SEMAN',
    'b207',
    'BR-FR-CDV-CL-09_MDT-113_207',
    text(`${SDS}/ram:ReasonCode`, 'REJ_SEMAN'),
    insert(SDS, { name: 'ram:ProcessConditionCode', text: '205' }, 'ram:RequestedActionCode'),
  ),
  m(
    'approved, detail status 207, reason REJ_SEMAN',
    'b205',
    'BR-FR-CDV-CL-09_MDT-113_207',
    insert(RRD, {
      name: 'ram:SpecifiedDocumentStatus',
      children: [
        { name: 'ram:ReasonCode', text: 'REJ_SEMAN' },
        { name: 'ram:ProcessConditionCode', text: '207' },
        { name: 'ram:SequenceNumeric', text: '1' },
      ],
    }),
  ),
  m('partially approved with reason DOUBLON', 'b206', 'BR-FR-CDV-CL-09_MDT-113_206', text(`${SDS}/ram:ReasonCode`, 'DOUBLON')),
  m('suspended with reason TX_TVA_ERR', 'b208', 'BR-FR-CDV-CL-09_MDT-113_208', text(`${SDS}/ram:ReasonCode`, 'TX_TVA_ERR')),
  m('routing error with reason AUTRE', 'b221', 'BR-FR-CDV-CL-09_MDT-113_221', text(`${SDS}/ram:ReasonCode`, 'AUTRE')),
  m('unacceptable with reason DOUBLON', 'b501', 'BR-FR-CDV-CL-09_MDT-113_501', text(`${SDS}/ram:ReasonCode`, 'DOUBLON')),
  m('action ZZZ', 'b207', 'BR-FR-CDV-CL-10_MDT-121', text(`${SDS}/ram:RequestedActionCode`, 'ZZZ')),
  m('characteristic type ZZZ', 'b207', 'BR-FR-CDV-CL-11_MDT-207', text(`${SDS}/ram:SpecifiedDocumentCharacteristic/ram:TypeCode`, 'ZZZ')),
  // The CDAR schema.
  m('unknown element', 'b207', 'XSD', insert(ED, { name: 'ram:Colour', text: 'red' }, 'ram:SenderTradeParty')),
  m('elements out of order', 'b207', 'XSD', remove(`${ED}/ram:Name`), insert(ED, { name: 'ram:Name', text: 'late' })),
  m('amount not a decimal', 'b212', 'XSD', text(`${SDS}/ram:SpecifiedDocumentCharacteristic/ram:ValueAmount`, '12,00')),
  m('indicator not a boolean', 'b207', 'XSD', text(`${AD}/ram:MultipleReferencesIndicator/udt:Indicator`, 'no')),
  m('no recipient', 'b207', 'XSD', remove(`${ED}/ram:RecipientTradeParty`)),
  m('undeclared attribute', 'b207', 'XSD', { op: 'attr', path: `${RRD}/ram:TypeCode`, name: 'colour', value: 'red' }),
  m('sequence number not a number', 'b207', 'XSD', text(`${SDS}/ram:SequenceNumeric`, 'one')),
  m('no acknowledgement document', 'b207', 'XSD', remove(AD)),
];

// ---------------------------------------------------------------------------------------------
// Applying an edit: on the parsed tree, written back with the CDAR prefixes.

const PREFIX_NS: Record<string, string> = { rsm: CDAR_NS.rsm, ram: CDAR_NS.ram, qdt: CDAR_NS.qdt, udt: CDAR_NS.udt };

function find(root: XmlElement, path: string): XmlElement {
  let at = root;
  for (const step of path.split('/')) {
    const m = /^(\w+):(\w+)(?:\[(\d+)\])?$/.exec(step);
    if (!m) throw new Error(`bad step ${step}`);
    const matches = at.children.filter((c) => c.ns === PREFIX_NS[m[1]] && c.local === m[2]);
    const next = matches[(m[3] ? Number(m[3]) : 1) - 1];
    if (!next) throw new Error(`no ${step} in ${path}`);
    at = next;
  }
  return at;
}

function build(spec: NewElement, parent: XmlElement): XmlElement {
  const [prefix, local] = spec.name.split(':');
  const el: XmlElement = {
    ns: PREFIX_NS[prefix],
    local,
    prefix,
    attrs: Object.entries(spec.attrs ?? {}).map(([k, v]) => ({ ns: '', local: k, prefix: '', value: v })),
    children: [],
    text: spec.text ?? '',
    parent,
    line: 0,
  };
  el.children = (spec.children ?? []).map((c) => build(c, el));
  return el;
}

function write(el: XmlElement, depth: number, root: boolean): string {
  const pad = '  '.repeat(depth);
  const name = `${el.prefix}:${el.local}`;
  const ns = root
    ? Object.entries(PREFIX_NS)
        .map(([p, u]) => ` xmlns:${p}="${u}"`)
        .join('')
    : '';
  const attrs = el.attrs
    .filter((a) => a.prefix !== 'xmlns' && !(a.prefix === '' && a.local === 'xmlns'))
    .map((a) => ` ${a.prefix ? `${a.prefix}:` : ''}${a.local}="${escapeAttr(a.value)}"`)
    .join('');
  if (el.children.length === 0) return `${pad}<${name}${ns}${attrs}>${escapeText(el.text)}</${name}>`;
  return `${pad}<${name}${ns}${attrs}>\n${el.children.map((c) => write(c, depth + 1, false)).join('\n')}\n${pad}</${name}>`;
}

/** The XML of a message edited as the mutation says. */
export function applyMutation(xml: string, mutation: CdarMutation): string {
  const root = parseXml(xml).root;
  for (const edit of mutation.edits) {
    const target = find(root, edit.path);
    if (edit.op === 'remove') target.parent!.children = target.parent!.children.filter((c) => c !== target);
    else if (edit.op === 'text') target.text = edit.value;
    else if (edit.op === 'attr') {
      const rest = target.attrs.filter((a) => a.local !== edit.name);
      target.attrs = edit.value === null ? rest : [...rest, { ns: '', local: edit.name, prefix: '', value: edit.value }];
    } else {
      const el = build(edit.element, target);
      const at = edit.before ? target.children.findIndex((c) => `${c.prefix}:${c.local}` === edit.before) : -1;
      const children = [...target.children];
      children.splice(at < 0 ? children.length : at, 0, el);
      target.children = children;
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${write(root, 0, true)}\n`;
}

/** The base message's XML (built as POST /v1/status builds it). */
export function baseXml(base: string): string {
  return buildStatusMessage(MUTATION_BASES[base]()).xml;
}

/** The mutated XML of a mutation. */
export function mutatedXml(mutation: CdarMutation): string {
  return applyMutation(baseXml(mutation.base), mutation);
}
