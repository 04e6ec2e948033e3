/** The engine's version and the versions of the rule sets it carries (`einvoice --version`). */
import { SERVICE_VERSION } from '../version.js';

export interface Versions {
  /** einvoice-service (package.json). */
  engine: string;
  node: string;
  /** Rule set → the official artefacts it implements. */
  rule_sets: Record<string, string>;
}

export async function versions(): Promise<Versions> {
  await import('../validation/validate.js'); // registers every rule set in its order
  const [{ CODELIST_VERSION }, { XRECHNUNG_VERSION }, { FX_RULES_VERSION }, { BR_FR_EDITIONS, DEFAULT_BR_FR_EDITION }] = await Promise.all([
    import('../rules/data/codelists.js'),
    import('../rules/xrechnung/index.js'),
    import('../rules/facturx/index.js'),
    import('../validation/br-fr.js'),
  ]);
  return {
    engine: SERVICE_VERSION,
    node: process.version,
    rule_sets: {
      en16931: CODELIST_VERSION,
      xrechnung: XRECHNUNG_VERSION,
      facturx: FX_RULES_VERSION,
      br_fr_ctc: `FNFE-MPE BR-FR-Flux2 editions ${BR_FR_EDITIONS.join(', ')} (default ${DEFAULT_BR_FR_EDITION})`,
    },
  };
}
