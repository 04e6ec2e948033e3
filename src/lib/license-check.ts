/**
 * The library's and the CLI's pro features are licensed as the server's are (api-spec §5): serialize, and the
 * native PDF/A-3b validation. The key is options.licenseKey or LICENSE_KEY, verified against options.licensePublicKey,
 * LICENSE_PUBLIC_KEY or the vendor's key, exactly as the server verifies its own.
 */
import { DEFAULT_LICENSE_PUBLIC_KEY, LICENSE_URL, verifyLicense, type LicenseStatus } from '../license/license.js';
import { LicenseRequiredError } from './errors.js';

export interface LicenseOptions {
  /** The pro license key (default: the LICENSE_KEY environment variable), verified as the server verifies it. */
  licenseKey?: string;
  /** The verifying key (default: LICENSE_PUBLIC_KEY, else the vendor's key). */
  licensePublicKey?: string;
}

/** How long a verification is reused: a batch asks once per file, and an expiry must still be noticed. */
const REUSE_MS = 60_000;
let last: { key: string | undefined; publicKey: string; at: number; status: LicenseStatus } | undefined;

/** The license these options (or the environment) give. */
export function licenseOf(options: LicenseOptions = {}): LicenseStatus {
  const env = typeof process !== 'undefined' ? process.env : {};
  const key = options.licenseKey ?? (env.LICENSE_KEY?.trim() || undefined);
  const publicKey = options.licensePublicKey ?? (env.LICENSE_PUBLIC_KEY?.trim() || DEFAULT_LICENSE_PUBLIC_KEY);
  const now = Date.now();
  if (last && last.key === key && last.publicKey === publicKey && now - last.at < REUSE_MS) return last.status;
  const status = verifyLicense(key, publicKey);
  last = { key, publicKey, at: now, status };
  return status;
}

/** Throw LicenseRequiredError unless the license grants `feature` (the API's 403 LICENSE_REQUIRED). */
export function requireFeature(license: LicenseStatus, feature: string): void {
  if (license.edition !== 'pro' || !license.features.includes(feature)) {
    const why = license.problem ? ` (${license.problem})` : '';
    throw new LicenseRequiredError(`The ${feature} feature needs a pro license; set LICENSE_KEY to a valid license key.${why}`, {
      feature,
      license_url: LICENSE_URL,
    });
  }
}
