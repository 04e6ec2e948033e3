/**
 * Releases of the FNFE-MPE EXTENDED-CTC-FR schematrons (fnfempe/France_RFE, XP Z12-012 1.4.0): the form value that
 * selects each (`extended_ctc_fr_version`), newest first. The CII artefact is the same in all three; the UBL one changed
 * in 1.4.0.01 (BR-FREXT-CO-12, France_RFE issue #6) and 1.4.0.02 (the code list of BR-FREXT-CL-10).
 */
export const EXTENDED_CTC_FR_RELEASES = ['1.4.0.02', '1.4.0.01', '1.4.0'] as const;
export type ExtendedCtcFrRelease = (typeof EXTENDED_CTC_FR_RELEASES)[number];
export type UblRelease = ExtendedCtcFrRelease;
export const DEFAULT_EXTENDED_CTC_FR_RELEASE: ExtendedCtcFrRelease = '1.4.0.02';

/** Rule set ids (registered by ./index.ts; an older release under `<id>@<release>`). */
export const EXTENDED_CTC_FR_CII = 'extended-ctc-fr-cii';
export const EXTENDED_CTC_FR_UBL = 'extended-ctc-fr-ubl';

/**
 * Read an `extended_ctc_fr_version` value: the release names, `1.4` for the newest 1.4 release, empty for the default.
 * Null for anything else (the route answers 422).
 */
export function parseExtendedCtcFrRelease(value: string | undefined | null): ExtendedCtcFrRelease | null {
  const v = (value ?? '').trim();
  if (v === '' || v === '1.4' || v === '1.4.0.x') return DEFAULT_EXTENDED_CTC_FR_RELEASE;
  return (EXTENDED_CTC_FR_RELEASES as readonly string[]).includes(v) ? (v as ExtendedCtcFrRelease) : null;
}
