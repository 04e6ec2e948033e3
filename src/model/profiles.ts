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
