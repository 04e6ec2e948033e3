/**
 * What differs between the bundled schematrons: Peppol BIS Billing 3.0 releases 2026.5, 2025.11 and 2025.5, and
 * the Self-Billing 3.0 releases 2026.5 (3.0.2) and 2025.3 (3.0.0). One rule implementation serves them all; a
 * variant names the differences as data, each where the rule tables read it.
 */
import { PEPPOL_CODE_LISTS } from './codes.data.js';
import { PEPPOL_RELEASE_INFO, type PeppolRelease, type SelfBillingRelease } from './releases.js';
import { ns } from './xpath.js';

export type Kind = 'billing' | 'selfbilling';

export interface RuleVariant {
  kind: Kind;
  /** The schematron release: a billing release, or a self-billing one. */
  release: PeppolRelease | SelfBillingRelease;
  /** `$profile` from the ProfileID values of the document element. */
  profileOf(profileIds: string[]): string;
  /** The CustomizationID prefix R004 requires, and whether it also refuses '::' (2026.5). */
  customizationPrefix: string;
  refusesDoubleColon: boolean;
  /** P0100 / P0101: the type codes the profile allows, and which `$profile` values the rule applies to. */
  invoiceTypeCodes: readonly string[];
  creditNoteTypeCodes: readonly string[];
  typeCodeProfiles: readonly string[];
  /** R051 also covers the VAT breakdown's tax amounts (cac:TaxSubtotal/cbc:TaxAmount): billing only. */
  r051CoversSubtotals: boolean;
  /** R042 (ICD 0184) accepts the 8-digit CVR (from billing 2025.5 and self-billing 2026.5); before, only DK + 8 digits. */
  cvrEightDigits: boolean;
  /** Danish P / SE numbers (R052, R053) are checked, and their severity. */
  danishPAndSe?: 'fatal' | 'warning';
  /** Dutch identifier formats (R054…R057, 2026.5). */
  dutchFormats: boolean;
  /** National rules (billing only) and their release-specific forms. */
  national: boolean;
  /** DK-R-003 / DK-R-017 severity; DK-R-017 absent before 2025.11. */
  dk003: 'fatal' | 'warning';
  dk017?: 'fatal' | 'warning';
  /** The German rules as in 2026.5 (string comparisons of payment means codes, anchored Skonto, simple e-mail, DE-R-T02). */
  germanRules2026: boolean;
  /** P0112 (type codes 326 / 384 only between German parties): billing only. */
  p0112: boolean;
  codes: {
    ISO4217: ReadonlySet<string>;
    MIMECODE: ReadonlySet<string>;
    UNCL2005: ReadonlySet<string>;
    UNCL5189: ReadonlySet<string>;
    UNCL7161: ReadonlySet<string>;
    eaid: ReadonlySet<string>;
  };
}

type ListKey = keyof typeof PEPPOL_CODE_LISTS;
const listsOf = (key: ListKey): RuleVariant['codes'] => {
  const l = PEPPOL_CODE_LISTS[key];
  return {
    ISO4217: new Set(l.ISO4217),
    MIMECODE: new Set(l.MIMECODE),
    UNCL2005: new Set(l.UNCL2005),
    UNCL5189: new Set(l.UNCL5189),
    UNCL7161: new Set(l.UNCL7161),
    eaid: new Set(l.eaid),
  };
};

const BILLING_PREFIX = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const SELFBILLING_PREFIX = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0';
const INVOICE_TYPES = '71 80 82 84 102 218 219 326 331 380 382 383 384 386 388 393 395 553 575 623 780 817 870 875 876 877'.split(' ');
const CREDIT_NOTE_TYPES = ['381', '396', '81', '83', '532'];

/**
 * `$profile` before 2026.5: the seventh ':'-token of a ProfileID that contains
 * `urn:fdc:peppol.eu:2017:poacc:<process>:NN:1.0` (regex search, so the '.' are any character), else 'Unknown'.
 */
function profileByPattern(process: string) {
  const re = new RegExp(`urn:fdc:peppol.eu:2017:poacc:${process}:([0-9]{2}):1.0`);
  return (ids: string[]) => {
    if (ids.length === 0) return 'Unknown';
    const v = ns(ids[0]);
    return re.test(v) ? (v.split(':')[6] ?? '') : 'Unknown';
  };
}

/** `$profile` from 2026.5: the listed ProfileIDs only (the French regulated and non-regulated processes are profile 01). */
function profileByList(own01: string) {
  return (ids: string[]) => {
    const v = ids.length === 0 ? '' : ns(ids[0]);
    if ([own01, 'urn:peppol:france:billing:regulated', 'urn:peppol:france:billing:non-regulated'].includes(v)) return '01';
    if (v === 'urn:peppol:bis:billing_with_response') return '02';
    return 'Unknown';
  };
}

function billing(release: PeppolRelease): RuleVariant {
  const is2026 = release === '2026.5';
  return {
    kind: 'billing',
    release,
    profileOf: is2026 ? profileByList('urn:fdc:peppol.eu:2017:poacc:billing:01:1.0') : profileByPattern('billing'),
    customizationPrefix: BILLING_PREFIX,
    refusesDoubleColon: is2026,
    invoiceTypeCodes: INVOICE_TYPES,
    creditNoteTypeCodes: CREDIT_NOTE_TYPES,
    typeCodeProfiles: is2026 ? ['01', '02'] : ['01'],
    r051CoversSubtotals: true,
    cvrEightDigits: true,
    danishPAndSe: is2026 ? 'fatal' : release === '2025.11' ? 'warning' : undefined,
    dutchFormats: is2026,
    national: true,
    dk003: is2026 ? 'fatal' : 'warning',
    dk017: is2026 ? 'fatal' : release === '2025.11' ? 'warning' : undefined,
    germanRules2026: is2026,
    p0112: true,
    codes: listsOf(`billing-${release}` as ListKey),
  };
}

function selfBilling(release: SelfBillingRelease): RuleVariant {
  const is2026 = release === '2026.5';
  return {
    kind: 'selfbilling',
    release,
    profileOf: is2026 ? profileByList('urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0') : profileByPattern('selfbilling'),
    customizationPrefix: SELFBILLING_PREFIX,
    refusesDoubleColon: is2026,
    invoiceTypeCodes: ['389', '527'],
    creditNoteTypeCodes: ['261'],
    typeCodeProfiles: ['01'],
    r051CoversSubtotals: false,
    cvrEightDigits: is2026,
    danishPAndSe: is2026 ? 'fatal' : undefined,
    dutchFormats: is2026,
    national: false,
    dk003: 'fatal',
    germanRules2026: is2026,
    p0112: false,
    codes: listsOf(`selfbilling-${release}` as ListKey),
  };
}

export const billingVariant = (release: PeppolRelease) => billing(release);
/** The self-billing schematron in force beside a billing release. */
export const selfBillingVariant = (release: PeppolRelease) => selfBilling(PEPPOL_RELEASE_INFO[release].selfBilling);
