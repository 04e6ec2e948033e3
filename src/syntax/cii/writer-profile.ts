/**
 * Capability levels of the CII profiles: each profile carries everything of the lower ones
 * (MINIMUM ⊂ BASIC WL ⊂ BASIC ⊂ EN 16931 ⊂ EXTENDED; XRechnung CII carries what EN 16931 carries).
 */
import type { ProfileId } from '../../model/profiles.js';

export const LEVEL = { MINIMUM: 0, BASIC_WL: 1, BASIC: 2, EN16931: 3, EXTENDED: 4 } as const;

export const PROFILE_LEVEL: Record<ProfileId, number> = {
  minimum: LEVEL.MINIMUM,
  basic_wl: LEVEL.BASIC_WL,
  basic: LEVEL.BASIC,
  en16931: LEVEL.EN16931,
  xrechnung: LEVEL.EN16931,
  extended: LEVEL.EXTENDED,
  extended_ctc_fr: LEVEL.EXTENDED,
};
