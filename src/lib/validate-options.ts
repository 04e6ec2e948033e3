/**
 * The options of validate() (library, CLI, HTTP form fields), read and checked apart from the engine: a caller
 * can refuse a bad option before loading the rule sets (the CLI's batch does, before its threads start).
 */
import { ShapeError } from './errors.js';
import type { LicenseOptions } from './license-check.js';
import type { ValidateOptions } from '../validation/validate.js';
import { BR_FR_EDITIONS, BR_FR_LAYER, DEFAULT_BR_FR_EDITION, parseBrFrEdition } from '../validation/br-fr-edition.js';
import { XR_RELEASES, parseXrRelease, type XrRelease } from '../rules/xrechnung/common.js';
import { FACTURX_SCHEMA_RELEASES, parseFacturxRelease, type FacturxSchemaRelease } from '../xml/xsd-native/facturx-overlay.js';
import { PEPPOL_RELEASES, parsePeppolRelease, type PeppolRelease } from '../rules/peppol/releases.js';
import { EXTENDED_CTC_FR_RELEASES, parseExtendedCtcFrRelease } from '../rules/extended-ctc-fr/releases.js';

/** Extra rule layers that can be asked for. */
export const EXTRA_RULE_LAYERS = [BR_FR_LAYER] as const;
export { BR_FR_EDITIONS, DEFAULT_BR_FR_EDITION };
/**
 * XRechnung schematron releases accepted by `xrechnungVersion` (KoSIT 2.5.0, the current one, and 2.4.0; both for
 * XRechnung 3.0.x); "2.5" and "2.4" are accepted for them. Passed on to the engine as `xrechnungVersion`.
 */
export const XRECHNUNG_VERSIONS = XR_RELEASES;
export type XRechnungVersion = XrRelease;
/** Factur-X / ZUGFeRD schema releases accepted by `facturxVersion`: 1.09.2 (current, default) and 1.08 (the contract's). */
export const FACTURX_VERSIONS = FACTURX_SCHEMA_RELEASES;
export type FacturxVersion = FacturxSchemaRelease;
/** Peppol BIS Billing 3.0 releases accepted by `peppolVersion`: 2026.5 (current, default), 2025.11 and 2025.5. */
export const PEPPOL_VERSIONS = PEPPOL_RELEASES;
export type PeppolVersion = PeppolRelease;
/** EXTENDED-CTC-FR schematron releases accepted by `extendedCtcFrVersion` (FNFE-MPE, newest first; "1.4" = the newest). */
export { EXTENDED_CTC_FR_RELEASES };

export interface ValidateCallOptions extends LicenseOptions {
  /** Name of the file, for messages only (the bytes decide what the file is). */
  filename?: string;
  /** Extra rule layers: `br_fr_ctc` (French CTC rules); an array or a comma/space-separated string. */
  rules?: string | readonly string[];
  /** Edition of the French CTC rules: 1.2.0, 1.4 (default) or 1.4-warning (aliases such as 1.4.0 accepted). */
  brFrEdition?: string;
  /** XRechnung schematron release to validate against: 2.5.0 or 2.4.0 (default: the engine's, the current release). */
  xrechnungVersion?: string;
  /** Factur-X / ZUGFeRD schema release: 1.09.2 (default, the current one) or 1.08 (the one the contract names). */
  facturxVersion?: string;
  /** Peppol BIS Billing 3.0 release for Peppol invoices: 2026.5 (default, the current one), 2025.11 or 2025.5 ("2026-05" accepted). */
  peppolVersion?: string;
  /** EXTENDED-CTC-FR schematron release for invoices of that profile: 1.4.0.02 (default), 1.4.0.01 or 1.4.0. */
  extendedCtcFrVersion?: string;
  /**
   * Check a PDF against PDF/A (the part its XMP declares) with the native checker: `pdfa_valid`, `pdfa3b` in
   * `layers_executed`, each failed clause a finding (rule_set "pdfa"); a PDF that fails PDF/A is not valid.
   * A pro feature, as on the server: without a license granting it, validate() rejects with LicenseRequiredError.
   */
  pdfa?: boolean;
}

/** The 422 of an option outside its list of values (`Input should be 'a', 'b'`, as the HTTP form's enums say). */
function notOneOf(loc: (string | number)[], accepted: readonly string[], input: unknown): ShapeError {
  const msg = `Input should be ${accepted.map((e) => `'${e}'`).join(', ')}`;
  return new ShapeError('OPTION_INVALID', [{ loc, msg, type: 'enum', input }]);
}

/** The engine's options from the caller's, checked; a bad value is a ShapeError (HTTP 422) naming the field. */
export function parseValidateOptions(options: ValidateCallOptions = {}, locRoot: (string | number)[] = []): ValidateOptions {
  const rules = typeof options.rules === 'string' ? options.rules.split(/[\s,]+/) : [...(options.rules ?? [])];
  const names = rules.map((s) => s.trim()).filter((s) => s !== '');
  const unknown = names.filter((s) => !(EXTRA_RULE_LAYERS as readonly string[]).includes(s.toLowerCase()));
  if (unknown.length > 0) {
    throw new ShapeError('OPTION_INVALID', [
      {
        loc: [...locRoot, 'rules'],
        msg: `Unknown rule layer ${unknown.map((u) => `'${u}'`).join(', ')}; known: ${EXTRA_RULE_LAYERS.join(', ')}`,
        type: 'enum',
        input: options.rules,
      },
    ]);
  }
  const edition = parseBrFrEdition(options.brFrEdition);
  if (!edition) throw notOneOf([...locRoot, 'br_fr_edition'], BR_FR_EDITIONS, options.brFrEdition);
  const xrechnungVersion = parseXrRelease(
    options.xrechnungVersion === undefined ? undefined : String(options.xrechnungVersion).replace(/^(\d+\.\d+)$/, '$1.0'),
  );
  if (!xrechnungVersion) throw notOneOf([...locRoot, 'xrechnung_version'], XR_RELEASES, options.xrechnungVersion);
  const facturxVersion = parseFacturxRelease(options.facturxVersion);
  if (!facturxVersion) throw notOneOf([...locRoot, 'facturx_version'], FACTURX_SCHEMA_RELEASES, options.facturxVersion);
  const peppolVersion = parsePeppolRelease(options.peppolVersion === undefined ? undefined : String(options.peppolVersion));
  if (!peppolVersion) throw notOneOf([...locRoot, 'peppol_version'], PEPPOL_RELEASES, options.peppolVersion);
  const extendedCtcFrVersion = parseExtendedCtcFrRelease(options.extendedCtcFrVersion);
  if (!extendedCtcFrVersion)
    throw notOneOf([...locRoot, 'extended_ctc_fr_version'], EXTENDED_CTC_FR_RELEASES, options.extendedCtcFrVersion);
  const out: ValidateOptions = {
    brFr: names.some((s) => s.toLowerCase() === BR_FR_LAYER),
    brFrEdition: edition,
    xrechnungVersion,
    facturxVersion,
    peppolVersion,
    extendedCtcFrVersion,
  };
  return out;
}
