/**
 * The bundled releases of the Peppol BIS Billing 3.0 rules, newest first (the first is the default), and what
 * each one is: the BIS version, its publication and mandatory dates, the EN 16931 artefacts OpenPeppol bundled
 * with it, and the Self-Billing 3.0 release that was in force beside it. docs/rules.md ("Peppol BIS Billing
 * 3.0") says what changed between them.
 */
import type { En16931UblRelease } from '../en16931/ubl-releases.js';

export const PEPPOL_RELEASES = ['2026.5', '2025.11', '2025.5'] as const;
export type PeppolRelease = (typeof PEPPOL_RELEASES)[number];
export const DEFAULT_PEPPOL_RELEASE: PeppolRelease = PEPPOL_RELEASES[0];

export interface PeppolReleaseInfo {
  /** BIS Billing version of the release. */
  bis: string;
  published: string;
  mandatory: string;
  /**
   * The CEN/TC 434 EN 16931 UBL artefacts OpenPeppol ships with it (2025.11: 1.3.15 with ICD and EAS 0245 added), which
   * run as the EN 16931 layer of a Peppol invoice checked with this release (src/rules/en16931/ubl-releases.ts).
   */
  cen: En16931UblRelease;
  /** The "Last update" of that artefact as OpenPeppol ships it. */
  cenPublished: string;
  /** What OpenPeppol changed in its copy of the CEN release, if anything. */
  cenChanges?: string;
  /** The Peppol BIS Self-Billing 3.0 schematron release used for self-billing invoices under this release. */
  selfBilling: SelfBillingRelease;
}

/** Self-billing schematron releases bundled: 3.0.2 (May 2026) and 3.0.0 (March 2025). */
export type SelfBillingRelease = '2026.5' | '2025.3';

export const PEPPOL_RELEASE_INFO: Record<PeppolRelease, PeppolReleaseInfo> = {
  '2026.5': {
    bis: '3.0.21',
    published: '2026-05-20',
    mandatory: '2026-08-24',
    cen: '1.3.16',
    cenPublished: '2026-04-10',
    selfBilling: '2026.5',
  },
  '2025.11': {
    bis: '3.0.20',
    published: '2025-11-24',
    mandatory: '2026-02-23',
    cen: '1.3.15',
    cenPublished: '2025-10-16',
    cenChanges: 'CEN 1.3.15 with ICD and EAS 0245 added',
    selfBilling: '2025.3',
  },
  '2025.5': {
    bis: '3.0.19',
    published: '2025-05-21',
    mandatory: '2025-08-25',
    cen: '1.3.14.1',
    cenPublished: '2025-04-22',
    selfBilling: '2025.3',
  },
};

export const SELF_BILLING_INFO: Record<SelfBillingRelease, { version: string; published: string }> = {
  '2026.5': { version: '3.0.2', published: '2026-05-20' },
  '2025.3': { version: '3.0.0', published: '2025-03' },
};

/** Read a `peppol_version` value ("2026.5", also "2026-05", "v2026.5"); undefined when unknown; the default when blank. */
export function parsePeppolRelease(raw: string | undefined): PeppolRelease | undefined {
  if (raw === undefined || raw.trim() === '') return DEFAULT_PEPPOL_RELEASE;
  const m = /^v?(\d{4})[.-]0?(\d{1,2})$/i.exec(raw.trim());
  if (!m) return undefined;
  const v = `${m[1]}.${Number(m[2])}`;
  return (PEPPOL_RELEASES as readonly string[]).includes(v) ? (v as PeppolRelease) : undefined;
}

/** CustomizationID prefixes (BT-24) that select the Peppol sets, and their ProfileIDs (BT-23). */
export const PEPPOL_BILLING_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PEPPOL_SELFBILLING_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0';
export const PEPPOL_BILLING_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
export const PEPPOL_SELFBILLING_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0';
