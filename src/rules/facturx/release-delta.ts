/**
 * Older Factur-X / ZUGFeRD profile Schematron releases as differences from the bundled one (1.09.2):
 * the rule functions stay one implementation, a release's delta (generated as data by
 * scripts/diff-facturx-schematron.py from the published files) says which asserts it names
 * differently, which it lacks or adds, and which codes its code lists differ by. See docs/rules.md
 * ("Factur-X 1.08 against 1.09.2") for what the 1.08 delta holds.
 */
import { FX_1_08_DELTA } from './release-1.08.data.js';

/** The profile rule releases: the default (newest) first. */
export const FX_RULE_RELEASES = ['1.09.2', '1.08'] as const;
export type FxRuleRelease = (typeof FX_RULE_RELEASES)[number];
export const DEFAULT_FX_RULE_RELEASE: FxRuleRelease = '1.09.2';

export interface FxReleaseDelta {
  /** Bundled-release assert id → the id the older release gives the same assert (often shared by many). */
  rename: Record<string, string>;
  /** Bundled-release assert ids the older release does not have: not run. */
  notIn: string[];
  /** Contexts of the bundled release's "not used" reports that the older release does not have. */
  notUsedNew: string[];
  /** Older-release asserts without a bundled counterpart that one of our rules implements: [its id, our rule id, flag]. */
  extra: [string, string, string][];
  /** Older-release code-list asserts without a bundled counterpart, with their codes. */
  extraCodes: { id: string; context: string; target: string; flag: string; codes: string[] }[];
  /** Bundled-release code-list asserts whose codes differ in the older release: codes it adds and removes. */
  codes: Record<string, { add: string[]; remove: string[] }>;
  /** Paired asserts whose test changed in wording; our rule follows the bundled release (docs/rules.md lists them). */
  changed: string[];
  /** Older-release asserts and reports not implemented: [id or "report", label, context]. */
  missing: [string, string, string][];
}

const DELTAS: Record<Exclude<FxRuleRelease, '1.09.2'>, Record<string, FxReleaseDelta>> = { '1.08': FX_1_08_DELTA };

/** The delta of a profile rule set in a release; undefined for the bundled release. */
export function fxReleaseDelta(set: string, release: FxRuleRelease): FxReleaseDelta | undefined {
  if (release === DEFAULT_FX_RULE_RELEASE) return undefined;
  const delta = DELTAS[release as Exclude<FxRuleRelease, '1.09.2'>][set];
  if (!delta) throw new Error(`no Factur-X ${release} delta for ${set}`);
  return delta;
}
