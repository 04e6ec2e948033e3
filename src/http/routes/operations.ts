/**
 * Operations endpoints: /health (liveness), /healthz (readiness), /diagnostics, /metrics. (GET /, the browser UI, is ui.ts.)
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PROJECT_ROOT, SERVICE_VERSION } from '../../version.js';
import { requireBearer } from '../auth.js';
import { ProblemError, licenseRequired } from '../errors.js';
import { errorResponses, jsonResponse } from '../schemas.js';
import { BUNDLED_RULE_SETS } from '../../rules/releases.js';
import { COMMUNITY_FEATURES, PRO_FEATURES } from '../../license/license.js';

interface BuildInfo {
  git_hash: string;
  build_date: string;
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

let cachedDependencies: { name: string; version: string }[] | undefined;

/** Versions of the runtime dependencies as installed (not as declared). */
function installedDependencies(): { name: string; version: string }[] {
  if (cachedDependencies) return cachedDependencies;
  const pkg = readJson<{ dependencies?: Record<string, string> }>(join(PROJECT_ROOT, 'package.json'));
  cachedDependencies = Object.keys(pkg?.dependencies ?? {})
    .sort()
    .map((name) => ({
      name,
      version: readJson<{ version?: string }>(join(PROJECT_ROOT, 'node_modules', name, 'package.json'))?.version ?? 'not installed',
    }));
  return cachedDependencies;
}

function buildInfo(): BuildInfo {
  const info = readJson<Partial<BuildInfo>>(join(PROJECT_ROOT, 'dist', 'build-info.json'));
  return { git_hash: info?.git_hash ?? 'unknown', build_date: info?.build_date ?? 'unknown' };
}

/**
 * What actually runs in this instance: the licence's known features, and /metrics only when it is also switched on
 * (METRICS_ENABLED and METRICS_TOKEN). A feature name the service does not know is not listed.
 */
function enabledFeatures(app: FastifyInstance): string[] {
  const known = new Set<string>([...COMMUNITY_FEATURES, ...PRO_FEATURES]);
  return app.license.features.filter(
    (f) => known.has(f) && (f !== 'metrics' || (app.config.metricsEnabled && app.config.metricsToken !== undefined)),
  );
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export default async function operations(app: FastifyInstance): Promise<void> {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness probe',
        description: 'Answers 200 at once while the HTTP server responds; does no I/O.',
        tags: ['operations'],
        response: { 200: jsonResponse('Alive', 'HealthResponse') },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness probe',
        description:
          'Checks every subsystem with a real probe: http, lifecycle, xml_parser, xsd_engine, pdf_engine, validation_engine (the rule engine, ' +
          'through a worker of the pool when it runs one) and pdfa_validator (the native PDF/A checker). ' +
          'There is no Java runtime nor external Schematron or PDF/A process: rules and checks run natively in-process. ' +
          '200 when every critical subsystem works, 503 otherwise; non-critical ones (xsd_engine, pdfa_validator) only degrade.',
        tags: ['operations'],
        response: {
          200: jsonResponse('Ready: every critical subsystem works', 'ReadinessResponse'),
          503: jsonResponse('Not ready: a critical subsystem failed', 'ReadinessResponse'),
        },
      },
    },
    async (_req, reply) => {
      const { ready, checks } = await app.health.run();
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', edition: app.edition, checks });
    },
  );

  app.get(
    '/diagnostics',
    {
      schema: {
        operationId: 'getDiagnostics',
        summary: 'Support diagnostics',
        description:
          'Disabled (403) unless DIAGNOSTICS_TOKEN is set; then needs `Authorization: Bearer <DIAGNOSTICS_TOKEN>` (401 otherwise). ' +
          '`python_version` fields carry the Node.js version (names kept for client compatibility).',
        tags: ['operations'],
        security: [{ bearer: [] }],
        response: { 200: jsonResponse('Diagnostics', 'DiagnosticsResponse'), ...errorResponses(401, 403) },
      },
    },
    async (req) => {
      const token = app.config.diagnosticsToken;
      if (!token) {
        throw new ProblemError(403, 'Forbidden', 'Diagnostics are disabled; set DIAGNOSTICS_TOKEN to enable them.', {
          code: 'DIAGNOSTICS_DISABLED',
        });
      }
      requireBearer(req, token, 'diagnostics');
      const total = os.totalmem();
      const available = os.freemem();
      const { git_hash, build_date } = buildInfo();
      const license = app.license;
      return {
        version: SERVICE_VERSION,
        git_hash,
        build_date,
        python_version: process.version,
        dependencies: installedDependencies(),
        runtime_config: {
          mode: app.edition,
          workers: app.config.workers,
          processes: app.config.processes,
          process_id: process.pid,
          max_upload_size_mb: app.config.maxUploadSizeMb,
          log_level: app.config.logLevel,
          metrics_enabled: app.config.metricsEnabled,
        },
        environment: {
          os: `${os.type()} ${os.release()}`,
          architecture: os.arch(),
          python_version: process.version,
          hostname: os.hostname(),
        },
        memory_status: {
          total_mb: mb(total),
          available_mb: mb(available),
          process_mb: mb(process.memoryUsage.rss()),
          percent_used: Math.round(((total - available) / total) * 1000) / 10,
        },
        features_enabled: enabledFeatures(app),
        uptime_seconds: Math.round((Date.now() - app.startedAt) / 100) / 10,
        license: license.license
          ? { status: 'valid', licensee: license.license.licensee, expires_at: license.license.expires_at }
          : { status: app.config.licenseKey ? 'refused' : 'none', ...(license.problem ? { problem: license.problem } : {}) },
        rule_sets: BUNDLED_RULE_SETS,
      };
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        description:
          'Prometheus text format. 403 in community mode (LICENSE_REQUIRED); in pro mode 403 unless METRICS_ENABLED=true and ' +
          'METRICS_TOKEN are set, then `Authorization: Bearer <METRICS_TOKEN>` is required (401 otherwise).',
        tags: ['operations'],
        security: [{ bearer: [] }],
        response: {
          200: { description: 'Prometheus exposition format', content: { 'text/plain': { schema: { type: 'string' } } } },
          ...errorResponses(401, 403),
        },
      },
    },
    async (req, reply) => {
      if (app.edition !== 'pro' || !app.license.features.includes('metrics')) throw licenseRequired('metrics', app.config.licenseUrl);
      if (!app.config.metricsEnabled || !app.config.metricsToken) {
        throw new ProblemError(403, 'Forbidden', 'Metrics are disabled; set METRICS_ENABLED=true and METRICS_TOKEN to enable them.', {
          code: 'METRICS_DISABLED',
        });
      }
      requireBearer(req, app.config.metricsToken, 'metrics');
      return reply.type(app.metrics.registry.contentType).send(await app.metrics.registry.metrics());
    },
  );
}
