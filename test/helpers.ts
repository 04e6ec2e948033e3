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

/** An HTTP answer read whole, in the shape of app.inject's (statusCode, lower-case headers, rawPayload, body, json()). */
export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string | undefined>;
  rawPayload: Buffer;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the JSON body it expects
  json(): any;
}

/**
 * POST a hand-made multipart body over a real socket to a listening server (`base` like http://127.0.0.1:1234), with a
 * bound: a request that hangs fails by name instead of holding the test until its limit.
 */
export async function postOverHttp(base: string, path: string, parts: Part[], boundMs = 120_000): Promise<HttpAnswer> {
  const { payload, headers } = multipart(parts);
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    body: new Uint8Array(payload),
    headers,
    signal: AbortSignal.timeout(boundMs),
  });
  const rawPayload = Buffer.from(await res.arrayBuffer());
  const body = rawPayload.toString('utf8');
  return { statusCode: res.status, headers: Object.fromEntries(res.headers), rawPayload, body, json: () => JSON.parse(body) };
}

/** Listen on an ephemeral loopback port; the base URL to send requests to. */
export async function listenLocal(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}
