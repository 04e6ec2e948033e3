/**
 * BR-FR-CDV: FNFE-MPE's rules for French lifecycle status messages (CDAR D22B, XP Z12-012), release 1.4.0.x, as a
 * table of small pure checks under the official assert ids, written against the message's tree (a status message
 * has no EN 16931 model). Each check is evaluated where the official rule is (its context: an element with these
 * parents, anywhere in the document) with XPath 2.0's semantics for what the official test compares: `a = 'x'` holds
 * when some node of `a` has that string value, `a != 'x'` when some node has another (neither holds for no node).
 *
 * Two editions, as FNFE publishes them: the standard one (fatal asserts → errors; BR-FR-CDV-CL-06 stays a warning
 * there, so that codes agreed between partners pass) and the transition one, where every assert is a warning.
 *
 * Asserts that cannot fail in the official artefact are kept under their ids and fail here never either:
 * BR-FR-CDV-01, -04, -05, -06 and -10 test their own context node (always true), and BR-FR-CDV-07_MDT-38_no sits
 * behind a rule of the same context in the same pattern, so the official stylesheet never evaluates it (its test
 * could not fail anyway). The presence those rules mean to require is what the CDAR XSD layer checks where the
 * schema makes the element mandatory.
 */
import { pathOf, type XmlDoc, type XmlElement } from '../../xml/dom.js';
import {
  ACTION_CODES,
  B2G_REFUSAL_REASONS,
  CHARACTERISTIC_TYPES,
  CHORUS_PRO_ID,
  DETAIL_CODES,
  GUIDELINE_PLATFORMS,
  GUIDELINE_PPF,
  INVOICE_TYPE_CODES,
  ISSUER_ROLES,
  PPF_ID,
  REASON_CODES,
  REASONS_BY_STATUS,
  RECIPIENT_ROLES,
  SENDER_ROLES,
  STATUS_CODE_LIST,
} from '../../syntax/cdar/codes.js';
import { CDAR_NS } from '../../syntax/cdar/namespaces.js';
import type { Finding, Severity } from '../types.js';

export const BR_FR_CDV_RULE_SET = 'br-fr-cdv';
/** The FNFE-MPE release these rules follow. */
export const BR_FR_CDV_RELEASE = '1.4.0';
/** The editions: the standard one (fatal, FNFE: mandatory from 1 September 2026) and the transition one (warnings). */
export type BrFrCdvEdition = 'standard' | 'warning';

const { rsm, ram } = CDAR_NS;

// ---------------------------------------------------------------------------------------------
// XPath helpers on the tree.

/** The string value of an element (its text for a leaf). */
function sv(el: XmlElement): string {
  if (el.children.length === 0) return el.text;
  let out = el.text;
  for (const c of el.children) out += sv(c);
  return out;
}

/** XPath normalize-space(): XML whitespace runs collapsed, ends trimmed. */
const normalizeSpace = (s: string) => s.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '');

/** Children by path of (namespace, local) steps from each of `from`. */
function path(from: readonly XmlElement[], ...steps: [string, string][]): XmlElement[] {
  let current = from as XmlElement[];
  for (const [ns, local] of steps) {
    const next: XmlElement[] = [];
    for (const el of current) for (const c of el.children) if (c.local === local && c.ns === ns) next.push(c);
    current = next;
  }
  return current;
}
const R = (local: string): [string, string] => [ram, local];
const M = (local: string): [string, string] => [rsm, local];

/** XPath `nodes = 'lit'` (general comparison). */
const eq = (nodes: readonly XmlElement[], ...lits: string[]) => nodes.some((n) => lits.includes(sv(n)));
/** XPath `nodes != 'lit'`. */
const ne = (nodes: readonly XmlElement[], lit: string) => nodes.some((n) => sv(n) !== lit);
const parentOf = (el: XmlElement): XmlElement[] => (el.parent ? [el.parent] : []);
const withScheme = (nodes: XmlElement[], scheme: string) =>
  nodes.filter((n) => n.attrs.some((a) => a.local === 'schemeID' && a.ns === '' && a.value === scheme));

/** Every element named (ns, local) anywhere in the document (`//x`). */
function anywhere(doc: XmlDoc, ns: string, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (el: XmlElement) => {
    if (el.local === local && el.ns === ns) out.push(el);
    for (const c of el.children) walk(c);
  };
  walk(doc.root);
  return out;
}

/** `/rsm:CrossDomainAcknowledgementAndResponse/…` from the document node. */
function fromRoot(doc: XmlDoc, ...steps: [string, string][]): XmlElement[] {
  const root = doc.root;
  if (root.local !== 'CrossDomainAcknowledgementAndResponse' || root.ns !== rsm) return [];
  return path([root], ...steps);
}

// ---------------------------------------------------------------------------------------------
// Contexts: an element with these names, innermost last (a match pattern a/b/c).

type Context = readonly [string, string][];
const AD_RRD: Context = [M('AcknowledgementDocument'), R('ReferenceReferencedDocument')];
const C = {
  contextRoot: [M('CrossDomainAcknowledgementAndResponse'), M('ExchangedDocumentContext')],
  guidelineParam: [M('ExchangedDocumentContext'), R('GuidelineSpecifiedDocumentContextParameter')],
  exchanged: [M('ExchangedDocument')],
  exchangedIssueDate: [M('ExchangedDocument'), R('IssueDateTime')],
  sender: [M('ExchangedDocument'), R('SenderTradeParty')],
  senderRole: [M('ExchangedDocument'), R('SenderTradeParty'), R('RoleCode')],
  issuer: [M('ExchangedDocument'), R('IssuerTradeParty')],
  recipient: [M('ExchangedDocument'), R('RecipientTradeParty')],
  recipientRole: [M('ExchangedDocument'), R('RecipientTradeParty'), R('RoleCode')],
  ackType: [M('AcknowledgementDocument'), R('TypeCode')],
  rrd: AD_RRD,
  rrdType: [...AD_RRD, R('TypeCode')],
  rrdNumber: [...AD_RRD, R('IssuerAssignedID')],
  rrdIssuer: [...AD_RRD, R('IssuerTradeParty')],
  rrdIssuerRole: [...AD_RRD, R('IssuerTradeParty'), R('RoleCode')],
  rrdRecipientRole: [...AD_RRD, R('RecipientTradeParty'), R('RoleCode')],
  rrdStatus: [...AD_RRD, R('ProcessConditionCode')],
  detail: [...AD_RRD, R('SpecifiedDocumentStatus')],
  detailStatus: [...AD_RRD, R('SpecifiedDocumentStatus'), R('ProcessConditionCode')],
  reason: [...AD_RRD, R('SpecifiedDocumentStatus'), R('ReasonCode')],
  action: [...AD_RRD, R('SpecifiedDocumentStatus'), R('RequestedActionCode')],
  characteristicType: [...AD_RRD, R('SpecifiedDocumentStatus'), R('SpecifiedDocumentCharacteristic'), R('TypeCode')],
} satisfies Record<string, Context>;

function matches(el: XmlElement, context: Context): boolean {
  let at: XmlElement | null = el;
  for (let i = context.length - 1; i >= 0; i--) {
    if (!at || at.local !== context[i][1] || at.ns !== context[i][0]) return false;
    at = at.parent;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The rules.

export interface CdvRule {
  /** The official assert id. */
  id: string;
  /** The assert's flag in the standard edition. */
  flag: 'fatal' | 'warning';
  context: Context;
  message: string;
  /** True when the assert holds for `el` (a node of its context). */
  holds(el: XmlElement, doc: XmlDoc): boolean;
  /** Never evaluated: the official stylesheet shadows it (see the header). */
  shadowed?: true;
}

const always = () => true;
/** Is any referenced document of the message in status 501 (unacceptable)? */
const any501 = (doc: XmlDoc) =>
  eq(fromRoot(doc, M('AcknowledgementDocument'), R('ReferenceReferencedDocument'), R('ProcessConditionCode')), '501');

/** The PPF as the one recipient (BR-FR-CDV-02, CL-01): one GlobalID, 0238 = 0000, role DFH. */
function toPpfOnly(context: XmlElement): boolean {
  const recipients = path(parentOf(context), M('ExchangedDocument'), R('RecipientTradeParty'));
  const ids = path(recipients, R('GlobalID'));
  return ids.length === 1 && eq(withScheme(ids, PPF_ID.scheme), PPF_ID.value) && eq(path(recipients, R('RoleCode')), 'DFH');
}

/**
 * BR-FR-CDV-CL-09 for one status: a reason under a referenced document (or a detail) in status `status` must be
 * one of `allowed`, unless the detail carries a status of its own other than `status`.
 */
function reasonFits(el: XmlElement, status: string, allowed: readonly string[]): boolean {
  const docStatus = path(parentOf(el.parent!), R('ProcessConditionCode'));
  const detailStatus = path(parentOf(el), R('ProcessConditionCode'));
  if (ne(docStatus, status) && (detailStatus.length === 0 || ne(detailStatus, status))) return true;
  if (eq(docStatus, status) && ne(detailStatus, status)) return true;
  return allowed.includes(sv(el));
}

const reasonRule = (status: string, label: string): CdvRule => ({
  id: `BR-FR-CDV-CL-09_MDT-113_${status}`,
  flag: 'fatal',
  context: C.reason,
  message: `A reason (MDT-113) of a status ${status} (${label}) must be one of ${REASONS_BY_STATUS[status].join(', ')}.`,
  holds: (el) => reasonFits(el, status, REASONS_BY_STATUS[status]),
});

const senderGlobalIds = (doc: XmlDoc) =>
  withScheme(fromRoot(doc, M('ExchangedDocument'), R('SenderTradeParty'), R('GlobalID')), CHORUS_PRO_ID.scheme);

export const BR_FR_CDV_RULES: readonly CdvRule[] = [
  {
    id: 'BR-FR-04_MDT-91',
    flag: 'fatal',
    context: C.rrdType,
    message: `The type code of the referenced invoice (MDT-91) must be one of ${INVOICE_TYPE_CODES.join(', ')}.`,
    holds: (el) => INVOICE_TYPE_CODES.includes(sv(el)),
  },
  {
    id: 'BR-FR-CDV-01_MDG-3',
    flag: 'fatal',
    context: C.guidelineParam,
    message: 'The guideline parameter (MDG-3) is mandatory.',
    holds: always,
  },
  {
    id: 'BR-FR-CDV-02_MDT-3',
    flag: 'fatal',
    context: C.contextRoot,
    message: `The guideline (MDT-3) must be ${GUIDELINE_PLATFORMS}, or ${GUIDELINE_PPF} when the one recipient is the PPF (GlobalID 0000 under scheme 0238, role DFH).`,
    holds: (el) => {
      const ids = path([el], R('GuidelineSpecifiedDocumentContextParameter'), R('ID'));
      return eq(ids, GUIDELINE_PLATFORMS) || (eq(ids, GUIDELINE_PPF) && toPpfOnly(el));
    },
  },
  {
    id: 'BR-FR-CDV-03_MDT-4',
    flag: 'fatal',
    context: C.exchanged,
    message: 'The message identifier (MDT-4, ExchangedDocument/ID) is mandatory.',
    holds: (el) => path([el], R('ID')).length > 0,
  },
  {
    id: 'BR-FR-CDV-04_MDG-4',
    flag: 'fatal',
    context: C.exchangedIssueDate,
    message: 'The message date (MDG-4) is mandatory.',
    holds: always,
  },
  { id: 'BR-FR-CDV-05_MDG-9', flag: 'fatal', context: C.sender, message: 'The sender (MDG-9) is mandatory.', holds: always },
  { id: 'BR-FR-CDV-06_MDT-21', flag: 'fatal', context: C.senderRole, message: "The sender's role (MDT-21) is mandatory.", holds: always },
  {
    id: 'BR-FR-CDV-07_MDT-38_yes',
    flag: 'fatal',
    context: C.issuer,
    message: 'A processing status (MDT-77 = 23) needs the identifier of its issuer (MDT-38, IssuerTradeParty/GlobalID).',
    holds: (el) =>
      ne(path(parentOf(el.parent!), M('AcknowledgementDocument'), R('TypeCode')), '23') || path([el], R('GlobalID')).length > 0,
  },
  {
    id: 'BR-FR-CDV-07_MDT-38_no',
    flag: 'fatal',
    context: C.issuer,
    message: 'A transmission status (MDT-77 = 305) should not identify its issuer (MDT-38).',
    holds: always,
    shadowed: true,
  },
  {
    id: 'BR-FR-CDV-08_MDT-73',
    flag: 'fatal',
    context: C.recipient,
    message:
      'A recipient other than a platform (WK) or the PPF (DFH) needs an electronic address (MDT-73, URIUniversalCommunication/URIID).',
    holds: (el) => eq(path([el], R('RoleCode')), 'WK', 'DFH') || path([el], R('URIUniversalCommunication'), R('URIID')).length > 0,
  },
  {
    id: 'BR-FR-CDV-09_MDT-77',
    flag: 'fatal',
    context: C.ackType,
    message: 'The phase (MDT-77) must be 23 (processing) or 305 (transmission).',
    holds: (el) => sv(el) === '23' || sv(el) === '305',
  },
  { id: 'BR-FR-CDV-10_MDT-87', flag: 'fatal', context: C.rrdNumber, message: 'The invoice number (MDT-87) is mandatory.', holds: always },
  {
    id: 'BR-FR-CDV-11_MDG-35',
    flag: 'fatal',
    context: C.rrd,
    message: 'The invoice date (MDG-35, FormattedIssueDateTime) is mandatory unless the status is 501 (unacceptable).',
    holds: (el, doc) => path([el], R('FormattedIssueDateTime')).length > 0 || any501(doc),
  },
  {
    id: 'BR-FR-CDV-12_MDT-105',
    flag: 'fatal',
    context: C.rrd,
    message: 'The status code (MDT-105, ProcessConditionCode) is mandatory.',
    holds: (el) => path([el], R('ProcessConditionCode')).length > 0,
  },
  {
    id: 'BR-FR-CDV-13_MDT-129',
    flag: 'fatal',
    context: C.rrdIssuer,
    message: "The invoice's seller needs an identifier (MDT-129, its legal identifier BT-30) unless the status is 501 (unacceptable).",
    holds: (el, doc) => path([el], R('GlobalID')).length > 0 || any501(doc),
  },
  {
    id: 'BR-FR-CDV-14_MDT-207',
    flag: 'fatal',
    context: C.rrd,
    message:
      'A status 212 (payment received) needs at least one MEN characteristic (MDT-207), each with an amount (MDT-215) and a VAT rate (MDT-224).',
    holds: (el) => {
      if (!eq(path([el], R('ProcessConditionCode')), '212')) return true;
      const men = path([el], R('SpecifiedDocumentStatus'), R('SpecifiedDocumentCharacteristic')).filter((c) =>
        eq(path([c], R('TypeCode')), 'MEN'),
      );
      return men.length >= 1 && men.every((c) => path([c], R('ValueAmount')).length > 0 && path([c], R('ValuePercent')).length > 0);
    },
  },
  {
    id: 'BR-FR-CDV-15_MDT-113',
    flag: 'fatal',
    context: C.rrdStatus,
    message: 'A status 206, 207, 208, 210, 213 or 501 needs a reason (MDT-113, SpecifiedDocumentStatus/ReasonCode).',
    holds: (el) =>
      !['210', '213', '501', '207', '206', '208'].includes(sv(el)) ||
      path(parentOf(el), R('SpecifiedDocumentStatus'), R('ReasonCode')).length > 0,
  },
  {
    id: 'BR-FR-CDV-16_MDT-124-2',
    flag: 'fatal',
    context: C.detail,
    message: 'Every status detail (MDG-37) needs its sequence number (MDT-124-2, SequenceNumeric).',
    holds: (el) => path([el], R('SequenceNumeric')).length > 0,
  },
  {
    id: 'BR-FR-CDV-CL-01_MDT-2',
    flag: 'fatal',
    context: C.contextRoot,
    message:
      'The business process (MDT-2) must be REGULATED (or the whole context NON_REGULATED, B2C, B2CINT, B2BINT or OUTOFSCOPE); a message to the PPF alone may carry at most 3 characters there.',
    holds: (el) => {
      const process = path([el], R('BusinessProcessSpecifiedDocumentContextParameter'), R('ID'));
      if (toPpfOnly(el)) return [...normalizeSpace(process[0] ? sv(process[0]) : '')].length <= 3;
      const whole = sv(el);
      return eq(process, 'REGULATED') || ['NON_REGULATED', 'B2C', 'B2CINT', 'B2BINT', 'OUTOFSCOPE'].includes(whole);
    },
  },
  {
    id: 'BR-FR-CDV-CL-02_MDT-21_305',
    flag: 'fatal',
    context: C.exchanged,
    message: "In a transmission status (MDT-77 = 305) the sender's role (MDT-21) must be WK (platform).",
    holds: (el) =>
      !eq(path(parentOf(el), M('AcknowledgementDocument'), R('TypeCode')), '305') ||
      eq(path([el], R('SenderTradeParty'), R('RoleCode')), 'WK'),
  },
  {
    id: 'BR-FR-CDV-CL-02_MDT-21_23',
    flag: 'fatal',
    context: C.exchanged,
    message: `In a processing status (MDT-77 = 23) the sender's role (MDT-21) must be one of ${SENDER_ROLES.processing.join(', ')}.`,
    holds: (el) =>
      !eq(path(parentOf(el), M('AcknowledgementDocument'), R('TypeCode')), '23') ||
      eq(path([el], R('SenderTradeParty'), R('RoleCode')), ...SENDER_ROLES.processing),
  },
  {
    id: 'BR-FR-CDV-CL-03_MDT-40_305',
    flag: 'fatal',
    context: C.exchanged,
    message: "In a transmission status (MDT-77 = 305) the issuer's role (MDT-40) must be WK (platform).",
    holds: (el) =>
      !eq(path(parentOf(el), M('AcknowledgementDocument'), R('TypeCode')), '305') ||
      eq(path([el], R('IssuerTradeParty'), R('RoleCode')), 'WK'),
  },
  {
    id: 'BR-FR-CDV-CL-03_MDT-40_23',
    flag: 'fatal',
    context: C.exchanged,
    message: `In a processing status (MDT-77 = 23) the issuer's role (MDT-40) must be one of ${ISSUER_ROLES.processing.join(', ')}.`,
    holds: (el) =>
      !eq(path(parentOf(el), M('AcknowledgementDocument'), R('TypeCode')), '23') ||
      eq(path([el], R('IssuerTradeParty'), R('RoleCode')), ...ISSUER_ROLES.processing),
  },
  {
    id: 'BR-FR-CDV-CL-04_MDT-59',
    flag: 'fatal',
    context: C.recipientRole,
    message: `A recipient's role (MDT-59) must be one of ${RECIPIENT_ROLES.join(', ')}.`,
    holds: (el) => RECIPIENT_ROLES.includes(sv(el)),
  },
  {
    id: 'BR-FR-CDV-CL-05_MDT-88_305',
    flag: 'fatal',
    context: C.rrd,
    message: `In a transmission status (MDT-77 = 305) the detail status (MDT-88), when given, must be one of ${DETAIL_CODES.transmission.join(', ')}.`,
    holds: (el) => {
      const code = path([el], R('StatusCode'));
      return ne(path(parentOf(el), R('TypeCode')), '305') || eq(code, ...DETAIL_CODES.transmission) || code.length === 0;
    },
  },
  {
    id: 'BR-FR-CDV-CL-05_MDT-88_23',
    flag: 'fatal',
    context: C.rrd,
    message: `In a processing status (MDT-77 = 23) the detail status (MDT-88), when given, must be one of ${DETAIL_CODES.processing.join(', ')}.`,
    holds: (el) => {
      const code = path([el], R('StatusCode'));
      return ne(path(parentOf(el), R('TypeCode')), '23') || eq(code, ...DETAIL_CODES.processing) || code.length === 0;
    },
  },
  {
    id: 'BR-FR-CDV-CL-06_MDT-105',
    flag: 'warning',
    context: C.rrdStatus,
    message:
      'The status code (MDT-105) is not one of the published lifecycle statuses (200–228, 250, 251, 300, 301, 400, 401, 500, 501, 601).',
    holds: (el) => STATUS_CODE_LIST.includes(sv(el)),
  },
  {
    id: 'BR-FR-CDV-CL-06_MDT-115',
    flag: 'warning',
    context: C.detailStatus,
    message: 'The status code of a detail (MDT-115) is not one of the published lifecycle statuses.',
    holds: (el) => STATUS_CODE_LIST.includes(sv(el)),
  },
  {
    id: 'BR-FR-CDV-CL-07_MDT-132',
    flag: 'fatal',
    context: C.rrdIssuerRole,
    message: "The role of the invoice's issuer (MDT-132) must be SE (seller).",
    holds: (el) => sv(el) === 'SE',
  },
  {
    id: 'BR-FR-CDV-CL-08_MDT-158',
    flag: 'fatal',
    context: C.rrdRecipientRole,
    message: `The role of the invoice's recipient (MDT-158) must be one of ${RECIPIENT_ROLES.join(', ')}.`,
    holds: (el) => RECIPIENT_ROLES.includes(sv(el)),
  },
  {
    id: 'BR-FR-CDV-CL-09_MDT-113',
    flag: 'fatal',
    context: C.reason,
    message: 'The reason code (MDT-113) is not one of the published reasons.',
    holds: (el) => REASON_CODES.includes(sv(el)),
  },
  reasonRule('200', 'submitted'),
  reasonRule('213', 'rejected'),
  {
    id: 'BR-FR-CDV-CL-09_MDT-113_210',
    flag: 'fatal',
    context: C.reason,
    message: `A reason (MDT-113) of a status 210 (refused) must be one of ${REASONS_BY_STATUS['210'].join(', ')} (a public buyer's refusal has its own list).`,
    holds: (el, doc) => eq(senderGlobalIds(doc), CHORUS_PRO_ID.value) || reasonFits(el, '210', REASONS_BY_STATUS['210']),
  },
  {
    id: 'BR-FR-CDV-CL-09_MDT-113_210B2G',
    flag: 'fatal',
    context: C.reason,
    message: `A reason (MDT-113) of a public buyer's refusal (210, sender 9999 under scheme 0238) must be one of ${B2G_REFUSAL_REASONS.join(', ')}.`,
    holds: (el, doc) => {
      const senders = anywhere(doc, rsm, 'ExchangedDocument').flatMap((e) => path([e], R('SenderTradeParty'), R('GlobalID')));
      const chorus = withScheme(senders, CHORUS_PRO_ID.scheme);
      return (
        senders.length === 0 ||
        ne(chorus, CHORUS_PRO_ID.value) ||
        reasonFits(el, '210', eq(chorus, CHORUS_PRO_ID.value) ? B2G_REFUSAL_REASONS : [])
      );
    },
  },
  reasonRule('207', 'disputed'),
  reasonRule('206', 'partially approved'),
  reasonRule('208', 'suspended'),
  reasonRule('221', 'routing error'),
  reasonRule('501', 'unacceptable'),
  {
    id: 'BR-FR-CDV-CL-10_MDT-121',
    flag: 'fatal',
    context: C.action,
    message: `The requested action (MDT-121) must be one of ${ACTION_CODES.join(', ')}.`,
    holds: (el) => ACTION_CODES.includes(sv(el)),
  },
  {
    id: 'BR-FR-CDV-CL-11_MDT-207',
    flag: 'fatal',
    context: C.characteristicType,
    message: `The characteristic type (MDT-207) must be one of ${CHARACTERISTIC_TYPES.join(', ')}.`,
    holds: (el) => CHARACTERISTIC_TYPES.includes(sv(el)),
  },
];

/** The contexts the rules use, each with its rules, in table order (one pass over the document evaluates them). */
const BY_CONTEXT: { context: Context; rules: CdvRule[] }[] = [];
for (const rule of BR_FR_CDV_RULES) {
  if (rule.shadowed) continue;
  let group = BY_CONTEXT.find((g) => g.context === rule.context);
  if (!group) BY_CONTEXT.push((group = { context: rule.context, rules: [] }));
  group.rules.push(rule);
}
/** The innermost names the contexts end with: most elements of a message are no context at all. */
const LAST_NAMES = new Set(BY_CONTEXT.map((g) => g.context[g.context.length - 1][1]));

/** Run BR-FR-CDV on a parsed CDAR message: one finding per failed assert and context node, in document order. */
export function runBrFrCdv(doc: XmlDoc, edition: BrFrCdvEdition = 'standard'): Finding[] {
  const findings: Finding[] = [];
  const visit = (el: XmlElement): void => {
    if (LAST_NAMES.has(el.local)) {
      for (const group of BY_CONTEXT) {
        if (!matches(el, group.context)) continue;
        for (const rule of group.rules) {
          if (rule.holds(el, doc)) continue;
          const severity: Severity = edition === 'warning' || rule.flag === 'warning' ? 'warning' : 'error';
          findings.push({ ruleId: rule.id, severity, message: rule.message, location: pathOf(el), ruleSet: BR_FR_CDV_RULE_SET });
        }
      }
    }
    for (const c of el.children) visit(c);
  };
  visit(doc.root);
  return findings;
}
