/** Bearer-token checks for the operations endpoints, compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ProblemError } from './errors.js';

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/** Compare two secrets in constant time (hashing first hides their lengths too). */
export function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Throw 401 unless the request carries `Authorization: Bearer <expected>`. */
export function requireBearer(req: FastifyRequest, expected: string, realm: string): void {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  if (!match || !secretsEqual(match[1], expected)) {
    throw new ProblemError(
      401,
      'Unauthorized',
      match ? `The ${realm} token is not valid.` : `The ${realm} endpoint needs an "Authorization: Bearer <token>" header.`,
      { code: 'INVALID_TOKEN' },
      { 'www-authenticate': `Bearer realm="${realm}"` },
    );
  }
}
