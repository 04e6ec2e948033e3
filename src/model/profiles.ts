/**
 * Factur-X / ZUGFeRD profiles and XRechnung: identifiers and their guideline URNs (BT-24).
 */
export type ProfileId = 'minimum' | 'basic_wl' | 'basic' | 'en16931' | 'extended' | 'xrechnung' | 'extended_ctc_fr';

export const PROFILE_IDS: readonly ProfileId[] = ['minimum', 'basic_wl', 'basic', 'en16931', 'extended', 'xrechnung', 'extended_ctc_fr'];

/** BT-24 guideline identifiers written for each profile (Factur-X 1.08 / ZUGFeRD 2.4, XRechnung 3.0). */
export const GUIDELINE_ID: Record<ProfileId, string> = {
  minimum: 'urn:factur-x.eu:1p0:minimum',
  basic_wl: 'urn:factur-x.eu:1p0:basicwl',
  basic: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
  en16931: 'urn:cen.eu:en16931:2017',
  extended: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended',
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
  // The French extended profile of AFNOR XP Z12-012 (CII; written with the Factur-X EXTENDED element set, of which it is a subset).
  extended_ctc_fr: 'urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr',
};

/** Whether a profile is an EN 16931 invoice (MINIMUM and BASIC WL are not). */
export function isEn16931Compliant(profile: ProfileId): boolean {
  return profile !== 'minimum' && profile !== 'basic_wl';
}

/** The syntaxes an invoice is written in: UN/CEFACT CII (Factur-X, ZUGFeRD, XRechnung CII) or OASIS UBL 2.1. */
export type OutputSyntax = 'cii' | 'ubl';

/** What an invoice can be written as: a CII profile above, or Peppol BIS Billing 3.0 (UBL only). */
export type OutputProfile = ProfileId | 'peppol';

/** The targets UBL is written for: plain EN 16931, XRechnung 3.0 UBL, Peppol BIS Billing 3.0. */
export type UblProfileId = 'en16931' | 'xrechnung' | 'peppol';

export const UBL_PROFILE_IDS: readonly UblProfileId[] = ['en16931', 'xrechnung', 'peppol'];

/** Peppol BIS Billing 3.0: CustomizationID (BT-24) and the billing process (ProfileID, BT-23) of profile 01. */
export const PEPPOL_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PEPPOL_BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** UBL CustomizationID (BT-24) per target: the EN 16931 and XRechnung ones are the CII guideline ids. */
export const UBL_CUSTOMIZATION_ID: Record<UblProfileId, string> = {
  en16931: GUIDELINE_ID.en16931,
  xrechnung: GUIDELINE_ID.xrechnung,
  peppol: PEPPOL_CUSTOMIZATION_ID,
};

/** Which UBL target a specification identifier (BT-24) names; undefined for a Factur-X-only or unknown one. */
export function ublProfileOf(specificationId: string | undefined): UblProfileId | undefined {
  const s = (specificationId ?? '').trim().toLowerCase();
  if (s.includes('urn:fdc:peppol.eu:2017:poacc:billing:3.0')) return 'peppol';
  if (s.includes('xrechnung')) return 'xrechnung';
  if (s === GUIDELINE_ID.en16931) return 'en16931';
  return undefined;
}

/**
 * BT-3 type codes of credit notes (UNTDID 1001): UBL writes them as a CreditNote document, CII keeps one root.
 */
export const CREDIT_NOTE_TYPE_CODES: ReadonlySet<string> = new Set([
  '81',
  '83',
  '261',
  '262',
  '296',
  '308',
  '381',
  '396',
  '420',
  '458',
  '532',
]);
