/**
 * The shape of an older Factur-X release's delta (release-delta.ts): the generated data files
 * (release-*.data.ts) and the code that applies them both build on it.
 */
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
