/**
 * The fastify application: plugins with one job each, routes from routes/index.ts, one error handler.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../config.js';
import { DEFAULT_LICENSE_PUBLIC_KEY, verifyLicense, type LicenseStatus } from '../license/license.js';
import { installMultipartParser } from './multipart.js';
import { installErrorHandling } from './errors.js';
import { HealthRegistry } from './health.js';
import { createMetrics, installMetricsHook, type Metrics } from './metrics.js';
import { componentSchemas } from './schemas.js';
import { registerCoreHealthChecks } from './readiness.js';
import { routeModules } from './routes/index.js';
import { installTransportGuards, transportServerOptions } from './transport.js';
import { SERVICE_VERSION } from '../version.js';
import { createValidationRunner, DEFAULT_VALIDATION_TIMEOUT_MS, type ValidationRunner } from '../validation/runner.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    edition: 'community' | 'pro';
    license: LicenseStatus;
    health: HealthRegistry;
    metrics: Metrics;
    startedAt: number;
    /** The one validation runner (worker pool, or inline with WORKERS=0), shared by /v1/validate and /v1/merge. */
    validation: ValidationRunner;
  }
  interface FastifyContextConfig {
    /** Multipart form fields, for the OpenAPI requestBody (see the swagger transform below). */
    form?: Record<string, Record<string, unknown>>;
    formRequired?: string[];
    /** Content type of a form-encoded body, when it is not multipart. */
    formContentType?: string;
  }
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    // Asynchronous stdout: lines written while a write is in flight go out together in one system call
    // (one synchronous write per access line cost ~8% of a request's CPU under load); flushed on exit.
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, stream: pino.destination({ dest: 1, sync: false }) },
    // Honour a caller's request id when it is sane, so one id follows a request across systems.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
    },
    bodyLimit: config.maxUploadSizeMb * 1024 * 1024,
    // One access-log line per request (below, on response) instead of fastify's two: logging both cost ~10% of throughput.
    logController: new LogController({ disableRequestLogging: true }),
    // Time limits on receiving requests, ProblemDetails for refusals before routing, no fastify 503 body on closing.
    ...transportServerOptions(config),
    ajv: { customOptions: { allErrors: true, coerceTypes: false } },
  });

  const license = verifyLicense(config.licenseKey, config.licensePublicKey ?? DEFAULT_LICENSE_PUBLIC_KEY);
  if (config.licenseKey && license.edition === 'community') {
    app.log.warn({ license_problem: license.problem }, `LICENSE_KEY refused, running in community mode: ${license.problem}`);
  } else if (license.edition === 'pro') {
    app.log.info({ licensee: license.license?.licensee, expires_at: license.license?.expires_at }, 'pro license accepted');
  }

  app.decorate('config', config);
  app.decorate('edition', license.edition);
  app.decorate('license', license);
  app.decorate('health', new HealthRegistry());
  // Per-request metrics cost CPU on every request; record them only when /metrics can serve them.
  app.decorate('metrics', createMetrics(license.edition === 'pro' && config.metricsEnabled));
  app.decorate('startedAt', Date.now());
  app.decorate(
    'validation',
    createValidationRunner({
      workers: config.workers,
      timeoutMs: DEFAULT_VALIDATION_TIMEOUT_MS,
      inlineMaxBytes: config.validationInlineMaxKb * 1024,
    }),
  );
  app.addHook('onClose', async () => app.validation.close());

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  app.addHook('onResponse', async (req, reply) => {
    req.log.info(
      {
        method: req.method,
        url: req.url.split('?')[0],
        statusCode: reply.statusCode,
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
  });
  if (app.metrics.recording) installMetricsHook(app, app.metrics);
  installErrorHandling(app);
  registerCoreHealthChecks(app);
  installTransportGuards(app);

  for (const [name, schema] of Object.entries(componentSchemas)) app.addSchema({ $id: name, ...schema });
  // Response schemas document the answers (OpenAPI) but do not shape them: fastify's schema serialiser drops
  // fields a schema does not list, fills in defaults and can fail a whole answer on a mismatch. What a route
  // returns is what the client gets; test/conformance/openapi-responses.test.ts checks it against the schemas.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  installMultipartParser(app, config.maxUploadSizeMb);
  await app.register(formbody, { bodyLimit: config.maxUploadSizeMb * 1024 * 1024 });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'einvoice-service',
        version: SERVICE_VERSION,
        description:
          'Builds, validates and reads electronic invoices against EN 16931: Factur-X / ZUGFeRD CII (Factur-X 1.09.2 and 1.08 ' +
          'schemas, i.e. ZUGFeRD 2.5.2 and 2.4) in PDF/A-3, XRechnung 3.0 CII and UBL (KoSIT schematron 2.5.0 and 2.4.0), with ' +
          'native XSD, rule and PDF/A checks. Offline and stateless. Pro mode (license) adds serialize, smart diagnostics and PDF/A validation.',
      },
      tags: [
        { name: 'invoices', description: 'Business endpoints (/v1)' },
        { name: 'operations', description: 'Liveness, readiness, diagnostics, metrics' },
      ],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'DIAGNOSTICS_TOKEN for /diagnostics, METRICS_TOKEN for /metrics' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // Multipart/urlencoded routes read their bodies by hand; document their forms from route config.
    transform: ({ schema, url, route }) => {
      const form = route.config?.form;
      if (!form || !schema) return { schema, url };
      return {
        schema: {
          ...schema,
          consumes: [route.config?.formContentType ?? 'multipart/form-data'],
          body: { type: 'object', properties: form, required: route.config?.formRequired ?? [] },
        },
        url,
      };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });

  for (const routes of routeModules) await app.register(routes);

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
