/** The engine's version and the releases of the rule sets it carries (`einvoice --version`, same table as /diagnostics). */
import { SERVICE_VERSION } from '../version.js';
import { BUNDLED_RULE_SETS } from '../rules/releases.js';

export interface Versions {
  /** einvoice-service (package.json). */
  engine: string;
  node: string;
  /** Rule-set family → its bundled releases, the default first and marked "(default)". */
  rule_sets: Record<string, string>;
}

export async function versions(): Promise<Versions> {
  const ruleSets: Record<string, string> = {};
  for (const set of BUNDLED_RULE_SETS) {
    const releases = [...set.releases].sort((a, b) => Number(b.default) - Number(a.default));
    ruleSets[set.family] = `${releases.map((r) => (r.default ? `${r.version} (default)` : r.version)).join(', ')} — ${set.name}`;
  }
  return { engine: SERVICE_VERSION, node: process.version, rule_sets: ruleSets };
}
