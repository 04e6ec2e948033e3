/**
 * The browser UI: GET / (assets/ui/index.html) and its scripts and styles under /ui/<hash>/. Static files of the
 * package, read once at start-up; the page calls the service's own API and loads nothing from elsewhere.
 *
 * Caching: the asset URLs carry a hash of the assets' contents, so they are cached for a year (`immutable`) and a
 * new version is new URLs; the page itself is `no-cache` with an ETag (revalidated, 304 when unchanged). Every UI
 * answer sends a strict Content-Security-Policy: scripts, styles, fetches, frames and form posts from this origin
 * only, no inline script or style, no plugins, not framed by others.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AVAILABLE_RENDER_FORMATS } from '../../lib/operations.js';
import { PROJECT_ROOT, SERVICE_VERSION } from '../../version.js';

/** Where the UI's files are, in a checkout and in the installed package ("files": assets/). */
export const UI_ASSETS_DIR = join(PROJECT_ROOT, 'assets', 'ui');

/**
 * The page's policy. The rendered invoice is framed from /v1/render (frame-src 'self') by a form post (form-action
 * 'self'), so it keeps its own, stricter policy; img-src data: is the page's empty favicon.
 */
export const UI_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; " +
  "form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'";

const ASSET_TYPES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'report-view.js': 'text/javascript; charset=utf-8',
  'ui.css': 'text/css; charset=utf-8',
  'report.css': 'text/css; charset=utf-8',
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

interface UiFiles {
  page: string;
  etag: string;
  hash: string;
  assets: Map<string, Buffer>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Read the UI's files and fill in the page: the asset path, the version, the edition, what /v1/render can draw. */
export function loadUi(edition: string): UiFiles {
  const assets = new Map<string, Buffer>();
  const hasher = createHash('sha256');
  for (const name of Object.keys(ASSET_TYPES)) {
    const bytes = readFileSync(join(UI_ASSETS_DIR, name));
    assets.set(name, bytes);
    hasher.update(name).update(bytes);
  }
  const template = readFileSync(join(UI_ASSETS_DIR, 'index.html'), 'utf8');
  const hash = hasher.update(template).digest('hex').slice(0, 16);
  const values: Record<string, string> = {
    assets: `/ui/${hash}`,
    version: SERVICE_VERSION,
    edition,
    renderFormats: AVAILABLE_RENDER_FORMATS.join(' '),
  };
  const page = template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => (key in values ? escapeHtml(values[key]) : whole));
  const etag = `"${createHash('sha256').update(page).digest('hex').slice(0, 24)}"`;
  return { page, etag, hash, assets };
}

function secure(reply: FastifyReply): FastifyReply {
  return reply.headers(SECURITY_HEADERS);
}

export default async function ui(app: FastifyInstance): Promise<void> {
  const files = loadUi(app.edition);

  app.get('/', { schema: { hide: true } }, async (req, reply) => {
    secure(reply).header('content-security-policy', UI_CSP).header('cache-control', 'no-cache').header('etag', files.etag);
    if (req.headers['if-none-match'] === files.etag) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(files.page);
  });

  app.get<{ Params: { hash: string; name: string } }>('/ui/:hash/:name', { schema: { hide: true } }, async (req, reply) => {
    const { hash, name } = req.params;
    const bytes = files.assets.get(name);
    if (!bytes || !/^[0-9a-f]{16}$/.test(hash)) return reply.callNotFound();
    // Another hash: a page from another version of the service (during a rolling update) asks; it gets today's
    // file, but not for a year.
    const cache = hash === files.hash ? 'public, max-age=31536000, immutable' : 'no-cache';
    return secure(reply).header('cache-control', cache).type(ASSET_TYPES[name]).send(bytes);
  });
}
