/**
 * Prometheus metrics (prom-client), one registry per app so that tests can build many apps.
 * Request counts and latency per route and status, validation outcomes, process metrics.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  /** Whether /metrics can serve them (pro with METRICS_ENABLED): otherwise nothing is recorded per request. */
  recording: boolean;
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status_code'>;
  duration: Histogram<'method' | 'route' | 'status_code'>;
  validations: Counter<'outcome'>;
  /** Count one validation by outcome, when recording (the one place that asks). */
  countValidation(outcome: 'valid' | 'invalid' | 'unreadable' | 'timeout'): void;
}

export function createMetrics(recording: boolean): Metrics {
  const registry = new Registry();
  if (recording) collectDefaultMetrics({ register: registry });
  const validations = new Counter({
    name: 'invoice_validations_total',
    help: 'Invoice validations by outcome (valid, invalid, unreadable)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return {
    recording,
    registry,
    requests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code',
      labelNames: ['method', 'route', 'status_code'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route template and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    validations,
    countValidation(outcome) {
      if (recording) validations.inc({ outcome });
    },
  };
}

/** Observe every response; unknown routes are grouped under one label to keep cardinality bounded. */
export function installMetricsHook(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (req, reply) => {
    const labels = {
      method: req.method,
      route: req.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, reply.elapsedTime / 1000);
  });
}
