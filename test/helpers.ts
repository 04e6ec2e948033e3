/** Shared test helpers: app builders, test licenses, multipart bodies (fixtures: fixtures.ts). */
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/http/app.js';
import { generateLicenseKeyPair, issueLicense, type LicensePayload } from '../src/license/license.js';

/** A throwaway vendor key pair for the whole test run. */
export const testKeys = generateLicenseKeyPair();

export function testLicense(overrides: Partial<LicensePayload> = {}, privateKeyPem = testKeys.privateKeyPem): string {
  return issueLicense(privateKeyPem, {
    licensee: 'Test GmbH',
    issued_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 86_400_000 * 365).toISOString().slice(0, 10),
    ...overrides,
  });
}

/** Build the real app with LOG_LEVEL=silent and the given environment. */
export async function communityApp(env: Record<string, string> = {}): Promise<FastifyInstance> {
  return buildApp(loadConfig({ LOG_LEVEL: 'silent', ...env }));
}

/** The real app in pro mode, licensed with the throwaway test key. */
export async function proApp(env: Record<string, string> = {}): Promise<FastifyInstance> {
  return buildApp(loadConfig({ LOG_LEVEL: 'silent', LICENSE_KEY: testLicense(), LICENSE_PUBLIC_KEY: testKeys.publicKeyPem, ...env }));
}

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

let boundaries = 0;

/**
 * Encode multipart/form-data by hand, so tests exercise the real parser. The boundary is numbered, not random:
 * a run sends the same bytes every time (a part that contains the boundary is refused below, not left to chance).
 */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----einvoice-test-boundary-${++boundaries}`;
  for (const p of parts) {
    if ((Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value)).includes(boundary))
      throw new Error(`part ${p.name} contains the boundary`);
  }
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`), Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
