/**
 * Every status code × role combination the BR-FR-CDV rules allow, as status messages for POST /v1/status: for each
 * status of the published list, every issuer role × sender role its phase allows (MDT-40 / MDT-21, BR-FR-CDV-CL-02/03),
 * every recipient role (MDT-59, CL-04), every reason its status allows (CL-09, and the B2G refusal reasons), and the
 * message to the PPF. Deterministic: scripts/cdar-verdicts.ts stores the official artefacts' verdict on each, and
 * the tests compare the service's with them (test/rules-br-fr-cdv.test.ts, test/conformance/cdar.test.ts).
 */
import { exampleFor, toPpf } from '../src/cdar/examples.js';
import {
  B2G_REFUSAL_REASONS,
  CHORUS_PRO_ID,
  ISSUER_ROLES,
  REASON_REQUIRED,
  REASONS_BY_STATUS,
  RECIPIENT_ROLES,
  SENDER_ROLES,
  STATUS_CODES,
} from '../src/syntax/cdar/codes.js';
import type { StatusMessage, StatusParty } from '../src/syntax/cdar/model.js';

export interface StatusCombination {
  name: string;
  message: StatusMessage;
}

const ID_OF_ROLE: Record<string, string> = {
  BY: '963258741',
  SE: '852741963',
  AB: '111111118',
  DL: '222222226',
  SR: '333333334',
  PE: '444444442',
  PR: '555555550',
  II: '666666668',
  IV: '777777776',
};

function partyOf(role: string): StatusParty {
  if (role === 'WK') return { role };
  if (role === 'DFH') return { role, ids: [{ value: '0000', scheme: '0238' }], name: 'PPF' };
  const id = ID_OF_ROLE[role];
  return {
    role,
    ids: [{ value: id, scheme: '0002' }],
    name: `Party ${role}`,
    electronic_address: { value: `${id}_STATUTS`, scheme: '0225' },
  };
}

export function statusCombinations(): StatusCombination[] {
  const out: StatusCombination[] = [];
  const add = (name: string, message: StatusMessage) => out.push({ name, message });
  for (const [code, info] of Object.entries(STATUS_CODES)) {
    const base = () => exampleFor(code);
    // Issuer × sender, the recipient the other party of the invoice.
    for (const issuer of ISSUER_ROLES[info.phase]) {
      for (const sender of SENDER_ROLES[info.phase]) {
        const m = base();
        m.issuer = info.phase === 'transmission' ? { role: issuer } : { ...partyOf(issuer), electronic_address: undefined };
        delete m.issuer.electronic_address;
        // The sender by its role alone: a sender GlobalID other than a platform's (scheme 0238) makes any refusal (210)
        // fail BR-FR-CDV-CL-09_MDT-113_210B2G in the official artefact.
        m.sender = { role: sender };
        m.recipients = [partyOf(issuer === 'SE' ? 'BY' : 'SE')];
        add(`${code} issuer=${issuer} sender=${sender}`, m);
      }
    }
    // Each recipient role.
    for (const recipient of RECIPIENT_ROLES) {
      const m = base();
      m.recipients = [partyOf(recipient)];
      add(`${code} recipient=${recipient}`, m);
    }
    // Each reason the status allows (a status without a list of its own: one reason of any kind, where it needs none).
    const reasons = REASONS_BY_STATUS[code] ?? (REASON_REQUIRED.has(code) ? [] : ['AUTRE']);
    for (const reason of reasons) {
      const m = base();
      const detail = m.details?.[0] ?? {};
      m.details = [{ ...detail, reason_code: reason, reason: `Reason ${reason}` }, ...(m.details?.slice(1) ?? [])];
      add(`${code} reason=${reason}`, m);
    }
    // The same status sent to the PPF alone.
    const ppf = base();
    ppf.guideline = 'urn.cpro.gouv.fr:1p0:CDV:einvoicingF2';
    ppf.recipients = [partyOf('DFH')];
    add(`${code} to=PPF`, ppf);
  }
  // A public buyer's refusal (sender: Chorus Pro), each reason of its own list.
  for (const reason of B2G_REFUSAL_REASONS) {
    const m = exampleFor('210');
    m.sender = { role: 'WK', ids: [{ ...CHORUS_PRO_ID }], name: 'Chorus Pro' };
    m.details = [{ reason_code: reason, reason: `Reason ${reason}` }];
    add(`210 B2G reason=${reason}`, m);
  }
  add('212 to=PPF platform-identified', toPpf());
  return out;
}
