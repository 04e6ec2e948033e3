/**
 * The French CTC layer's name and editions (see br-fr.ts), apart from its rules: what reading an option needs,
 * without loading the rule sets.
 */
export const BR_FR_LAYER = 'br_fr_ctc';

export const BR_FR_EDITIONS = ['1.2.0', '1.4', '1.4-warning'] as const;
export type BrFrEdition = (typeof BR_FR_EDITIONS)[number];

/** The current edition: release 1.4.x, standard (blocking) edition. */
export const DEFAULT_BR_FR_EDITION: BrFrEdition = '1.4';

/**
 * Read a `br_fr_edition` form value. Accepts the edition names and their usual spellings
 * ("1.2", "1.2.0", "1.4", "1.4.0", "1.4.x", "1.4-warning", "1.4.0-warning"); empty → the default.
 * Returns null for anything else (the route answers 422).
 */
export function parseBrFrEdition(value: string | undefined | null): BrFrEdition | null {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return DEFAULT_BR_FR_EDITION;
  if (v === '1.2' || v === '1.2.0') return '1.2.0';
  const warning = /^1\.4(\.0|\.x)?(\.0\d)?[-_ ]?warning$/.test(v);
  if (warning) return '1.4-warning';
  if (/^1\.4(\.0|\.x)?(\.0\d)?([-_ ]?standard)?$/.test(v)) return '1.4';
  return null;
}
