/**
 * Older Factur-X / ZUGFeRD profile Schematron releases as differences from the bundled one (1.09.2):
 * the rule functions stay one implementation, a release's delta (generated as data by
 * scripts/diff-facturx-schematron.py from the published files) says which asserts it names
 * differently, which it lacks or adds, and which codes its code lists differ by. See docs/rules.md
 * ("Factur-X 1.08 against 1.09.2") for what the 1.08 delta holds.
 */
import { FX_1_08_DELTA } from './release-1.08.data.js';
import type { FxReleaseDelta } from './release-delta-types.js';

/** The profile rule releases: the default (newest) first. */
export const FX_RULE_RELEASES = ['1.09.2', '1.08'] as const;
export type FxRuleRelease = (typeof FX_RULE_RELEASES)[number];
export const DEFAULT_FX_RULE_RELEASE: FxRuleRelease = '1.09.2';

const DELTAS: Record<Exclude<FxRuleRelease, '1.09.2'>, Record<string, FxReleaseDelta>> = { '1.08': FX_1_08_DELTA };

/** The delta of a profile rule set in a release; undefined for the bundled release. */
export function fxReleaseDelta(set: string, release: FxRuleRelease): FxReleaseDelta | undefined {
  if (release === DEFAULT_FX_RULE_RELEASE) return undefined;
  const delta = DELTAS[release as Exclude<FxRuleRelease, '1.09.2'>][set];
  if (!delta) throw new Error(`no Factur-X ${release} delta for ${set}`);
  return delta;
}
