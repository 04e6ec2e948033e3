/**
 * Licenses: one Base64 value holding a JSON envelope `{ payload, signature }`, where `payload` is the
 * license JSON as a string and `signature` the Base64 Ed25519 signature over its UTF-8 bytes.
 * Verification never throws: a bad key yields community mode with a reason.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/** Every pro feature; a license without `features` grants them all. */
export const PRO_FEATURES = ['serialize', 'smart_diagnostics', 'validate_pdfa', 'pdfa_validation', 'metrics'] as const;
export type ProFeature = (typeof PRO_FEATURES)[number];

export const COMMUNITY_FEATURES = ['convert', 'xml', 'validate', 'extract', 'merge'] as const;

/**
 * Where the library and CLI send a caller without a license (their LICENSE_REQUIRED errors): LICENSE_URL when set,
 * else the README's section on editions and licenses (shipped in the package). The server has its own page (GET /).
 */
export const LICENSE_URL = process.env.LICENSE_URL || 'README.md#editions';

/** The vendor's verifying key (Ed25519, SPKI PEM). Replace with LICENSE_PUBLIC_KEY. */
export const DEFAULT_LICENSE_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEA4yDR/nLlWstC/Oj4hM1Ou5mgEBmZROdo0Hjm1o/6H7k=
-----END PUBLIC KEY-----
`;

export interface LicensePayload {
  licensee: string;
  issued_at: string; // ISO 8601
  expires_at: string; // ISO 8601 date or date-time; the license is valid through that instant (a date: through its end, UTC)
  features?: string[];
  license_id?: string;
}

export interface LicenseStatus {
  edition: 'community' | 'pro';
  /** Why the edition is community although a key was given (absent when no key was given or all is well). */
  problem?: string;
  license?: LicensePayload;
  features: string[];
}

export function parsePublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
  return createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
}

function expiryInstant(expires: string): number {
  // A bare date means "valid through that whole day (UTC)".
  return /^\d{4}-\d{2}-\d{2}$/.test(expires) ? Date.parse(`${expires}T23:59:59.999Z`) : Date.parse(expires);
}

/** Verify a license key. Never throws. */
export function verifyLicense(
  key: string | undefined,
  publicKeyText: string = DEFAULT_LICENSE_PUBLIC_KEY,
  now = Date.now(),
): LicenseStatus {
  const community = (problem?: string): LicenseStatus => ({ edition: 'community', problem, features: [...COMMUNITY_FEATURES] });
  if (!key) return community();
  let publicKey: KeyObject;
  try {
    publicKey = parsePublicKey(publicKeyText);
  } catch {
    return community('LICENSE_PUBLIC_KEY is not a valid Ed25519 public key');
  }
  let envelope: { payload?: unknown; signature?: unknown };
  try {
    envelope = JSON.parse(Buffer.from(key.trim(), 'base64').toString('utf8'));
  } catch {
    return community('license key is not Base64-encoded license JSON');
  }
  if (typeof envelope?.payload !== 'string' || typeof envelope?.signature !== 'string') {
    return community('license key lacks a payload or a signature');
  }
  let signatureOk = false;
  try {
    signatureOk = verify(null, Buffer.from(envelope.payload, 'utf8'), publicKey, Buffer.from(envelope.signature, 'base64'));
  } catch {
    signatureOk = false;
  }
  if (!signatureOk) return community('license signature is invalid (tampered, or signed with another key)');
  let payload: LicensePayload;
  try {
    payload = JSON.parse(envelope.payload);
  } catch {
    return community('license payload is not JSON');
  }
  if (typeof payload?.licensee !== 'string' || typeof payload?.expires_at !== 'string') {
    return community('license payload lacks licensee or expires_at');
  }
  const expiry = expiryInstant(payload.expires_at);
  if (Number.isNaN(expiry)) return community(`license expiry "${payload.expires_at}" is not a date`);
  if (expiry < now) return community(`license expired on ${payload.expires_at}`);
  const granted = Array.isArray(payload.features) && payload.features.length > 0 ? payload.features : [...PRO_FEATURES];
  return { edition: 'pro', license: payload, features: [...COMMUNITY_FEATURES, ...granted] };
}

/** Generate a vendor key pair (PEM strings). */
export function generateLicenseKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** Issue (sign) a license with a private key PEM. */
export function issueLicense(privateKeyPem: string, payload: LicensePayload): string {
  const payloadText = JSON.stringify(payload);
  const signature = sign(null, Buffer.from(payloadText, 'utf8'), createPrivateKey(privateKeyPem)).toString('base64');
  return Buffer.from(JSON.stringify({ payload: payloadText, signature }), 'utf8').toString('base64');
}
