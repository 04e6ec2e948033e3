/**
 * The HTTP transport's guards: time limits on receiving a request, the memory gate, the refusals that
 * happen before a route runs (all answered as ProblemDetails), and graceful shutdown.
 *
 * Time limits (docs/reliability.md, "Transport, memory and shutdown"):
 * - BODY_TIMEOUT_S (30): a connection on which nothing arrives for this long is cut. While a request's
 *   body is still arriving it is answered 408 (code BODY_TIMEOUT) and the connection closed; an idle
 *   connection (before its first request, or between two) is closed; headers must be complete within it too.
 *   A request whose body has fully arrived is not cut while the service works on it: the work has its own
 *   bounds (the validation runner's timeout).
 * - REQUEST_TIMEOUT_S (120): the whole request (headers and body) must have arrived within this long, so a
 *   body trickling in at 1 byte/s is cut as well (408, code REQUEST_TIMEOUT). Node's own requestTimeout is
 *   set a few seconds later, as a backstop.
 *
 * Shutdown (SIGTERM/SIGINT, see beginShutdown): readiness (/healthz) turns 503 at once; the server keeps
 * serving for SHUTDOWN_DELAY_S (0) so that a load balancer can stop sending; then it stops listening, new
 * requests on open connections are answered 503 (code SHUTTING_DOWN), requests in flight finish. After
 * SHUTDOWN_GRACE_S (25) the requests still open (a stalled upload, say) are answered 503 or cut and the
 * process exits, so a rolling update never waits for a client.
 */
import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { ProblemError, problemBody, sendProblem } from './errors.js';
import { MemoryGate, defaultMemoryCeilingMb } from './memory-gate.js';
import { BODY_SLACK_BYTES } from './multipart.js';

/** A request between its headers and the end of its answer. */
interface InFlight {
  req: FastifyRequest;
  reply: FastifyReply;
  /** performance-free clock: Date.now() when its headers had arrived. */
  start: number;
  /** Bytes reserved in the memory gate (0: none). */
  cost: number;
}

export interface Lifecycle {
  /** SIGTERM/SIGINT received: readiness reports not ready. */
  draining: boolean;
  /** No new work: requests are answered 503 (the server has stopped listening). */
  closing: boolean;
  readonly inFlight: Set<InFlight>;
  readonly memory: MemoryGate;
  readonly memoryCeilingMb: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

/** The in-flight request of a connection (HTTP/1.1 handles one request at a time per connection). */
const CURRENT = Symbol('einvoice.inFlight');
type TrackedSocket = Socket & { [CURRENT]?: InFlight };

/** Fastify options for the transport limits (passed to the HTTP server). */
export function transportServerOptions(config: Config) {
  const bodyMs = config.bodyTimeoutS * 1000;
  const requestMs = config.requestTimeoutS * 1000;
  return {
    // The socket idle limit: a connection with no traffic for this long emits 'timeout' (handled below).
    connectionTimeout: bodyMs,
    // Node's own limit on receiving a whole request: a backstop behind the sweep below (answered by clientErrorHandler).
    requestTimeout: requestMs + 5_000,
    http: { headersTimeout: Math.min(bodyMs, requestMs), connectionsCheckingInterval: Math.min(1_000, bodyMs) },
    // Requests during shutdown are answered by the onRequest hook below, as ProblemDetails.
    return503OnClosing: false,
    clientErrorHandler,
  };
}

/**
 * Errors of a connection before a request reaches fastify (headers too large, malformed HTTP, node's
 * request timeout): answered as ProblemDetails, then the connection is closed.
 */
function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let detail = 'The request is not valid HTTP/1.1.';
  let code = 'BAD_HTTP_REQUEST';
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    detail = `The request did not arrive within the time limit (REQUEST_TIMEOUT_S=${this.config.requestTimeoutS}).`;
    code = 'REQUEST_TIMEOUT';
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    detail = `The request headers exceed ${Math.round(maxHeaderSize / 1024)} KB, the most this server reads.`;
    code = 'HEADERS_TOO_LARGE';
  }
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !pending?.headersSent) {
    // No request was read, so there is no path to name as the instance.
    const body = JSON.stringify({ ...problemBody(status, STATUS_CODES[status] ?? 'Error', detail, '', { code }), instance: null });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), 1_000).unref();
  } else {
    socket.destroy();
  }
}

/** A refused body is read and dropped (see the onSend hook) up to 2 × the upload limit, at least this much… */
const DRAIN_MIN_BYTES = 32 * 1024 * 1024;
/** …and for at most this long; then the connection is closed. */
export const DRAIN_MAX_MS = 10_000;

/** Read and drop what is left of a refused request's body; close the connection past the bounds. */
function drainBody(raw: FastifyRequest['raw'], maxBytes: number): void {
  if (raw.complete) return;
  const socket = raw.socket;
  let dropped = 0;
  const timer = setTimeout(() => socket.destroy(), DRAIN_MAX_MS);
  timer.unref();
  raw.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > maxBytes) {
      clearTimeout(timer);
      socket.destroy();
    }
  });
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
  raw.resume();
}

const DRAINING = 'shutting down: finishing the requests in flight, taking no new work';

function shuttingDown(): ProblemError {
  return new ProblemError(
    503,
    'Service Unavailable',
    'The service is shutting down; send the request again (another instance will take it).',
    { code: 'SHUTTING_DOWN' },
    {
      'retry-after': '1',
      connection: 'close',
    },
  );
}

/**
 * Answer `entry` with `problem` when nothing of its answer has gone out yet, and close its connection
 * (the rest of its body will never be read); otherwise just close the connection.
 */
function cut(entry: InFlight, problem: ProblemError): void {
  const { req, reply } = entry;
  const socket = req.raw.socket;
  if (reply.sent || reply.raw.headersSent) {
    socket.destroy();
    return;
  }
  reply.header('connection', 'close');
  sendProblem(reply, req, problem);
  // Connection: close makes node end the socket after the answer; a client that does not read it is cut below.
  setTimeout(() => socket.destroy(), 2_000).unref();
}

export function installTransportGuards(app: FastifyInstance): void {
  const config = app.config;
  const ceilingMb = config.maxMemoryMb ?? defaultMemoryCeilingMb(config.processes);
  const lifecycle: Lifecycle = {
    draining: false,
    closing: false,
    inFlight: new Set(),
    memory: new MemoryGate(ceilingMb),
    memoryCeilingMb: ceilingMb,
  };
  app.decorate('lifecycle', lifecycle);
  const maxBody = config.maxUploadSizeMb * 1024 * 1024 + BODY_SLACK_BYTES;

  app.health.add({
    name: 'lifecycle',
    critical: true,
    check: () => (lifecycle.draining ? { ok: false, detail: DRAINING } : { ok: true, detail: 'serving' }),
  });

  app.addHook('onRequest', async (req, reply) => {
    if (lifecycle.draining) {
      // Readiness answers at once while shutting down, without running the subsystem checks (a worker round trip).
      if (req.url === '/healthz') {
        return reply.code(503).send({
          status: 'not_ready',
          edition: app.edition,
          checks: { lifecycle: { status: 'unavailable', critical: true, detail: DRAINING } },
        });
      }
      if (lifecycle.closing && req.url !== '/health') return sendProblem(reply, req, shuttingDown());
    }
    const raw = req.raw;
    const entry: InFlight = { req, reply, start: Date.now(), cost: 0 };

    // Memory admission, before a byte of the body is read. A declared length over the upload limit is
    // refused by the body parser without reading, so it reserves nothing.
    const declared = raw.headers['content-length'];
    const length = declared === undefined ? (raw.headers['transfer-encoding'] !== undefined ? maxBody : 0) : Number(declared);
    if (length > 0 && length <= maxBody) {
      const cost = MemoryGate.cost(length, req.routeOptions.url);
      if (!lifecycle.memory.tryReserve(cost)) {
        return sendProblem(
          reply,
          req,
          new ProblemError(
            503,
            'Service Unavailable',
            `The service is at its memory ceiling (MAX_MEMORY_MB=${ceilingMb}) with the uploads in flight; send the request again shortly.`,
            { code: 'MEMORY_BUSY' },
            { 'retry-after': '2' },
          ),
        );
      }
      entry.cost = cost;
    }

    lifecycle.inFlight.add(entry);
    (raw.socket as TrackedSocket)[CURRENT] = entry;
    reply.raw.once('close', () => {
      lifecycle.inFlight.delete(entry);
      if (entry.cost > 0) lifecycle.memory.release(entry.cost);
      const socket = raw.socket as TrackedSocket | null;
      if (socket && socket[CURRENT] === entry) socket[CURRENT] = undefined;
    });
  });

  // Refused before its body was read (413 on a declared length over the limit, 415): fastify answers with
  // Connection: close, but closing a socket with unread bytes in it makes the kernel reset the connection, and
  // the reset can destroy the answer before the client reads it (clients saw EPIPE and no answer at all). So
  // the rest of the body is read and thrown away after the answer (a lingering close, as nginx does), bounded
  // by DRAIN_MAX_BYTES and DRAIN_MAX_MS; the connection then stays usable.
  const drainMaxBytes = Math.max(DRAIN_MIN_BYTES, 2 * maxBody);
  app.addHook('onSend', async (req, reply, payload) => {
    if (
      (reply.statusCode === 413 || reply.statusCode === 415) &&
      !req.raw.complete &&
      !lifecycle.closing &&
      String(reply.getHeader('connection') ?? '').toLowerCase() === 'close'
    ) {
      reply.removeHeader('connection');
      reply.raw.once('finish', () => drainBody(req.raw, drainMaxBytes));
    }
    return payload;
  });

  // A connection without traffic for BODY_TIMEOUT_S: with a body still arriving, the request is answered 408;
  // with a request being worked on, nothing happens (the work has its own bounds); an idle connection, or one
  // whose client does not read its answer, is closed.
  app.server.on('timeout', (socket: TrackedSocket) => {
    const entry = socket[CURRENT];
    if (!entry) {
      socket.destroy();
      return;
    }
    if (entry.reply.raw.headersSent) {
      // The answer is going out but the client has taken none of it for BODY_TIMEOUT_S: it does not read.
      socket.destroy();
    } else if (!entry.req.raw.complete) {
      cut(
        entry,
        new ProblemError(
          408,
          'Request Timeout',
          `No part of the request body arrived for ${config.bodyTimeoutS} s (BODY_TIMEOUT_S); the upload was cut off.`,
          {
            code: 'BODY_TIMEOUT',
            body_timeout_s: config.bodyTimeoutS,
          },
        ),
      );
    }
  });

  // The total deadline on receiving a request: a sweep, rather than a timer per request.
  const requestMs = config.requestTimeoutS * 1000;
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const entry of lifecycle.inFlight) {
        if (!entry.req.raw.complete && now - entry.start > requestMs && !entry.reply.sent) {
          cut(
            entry,
            new ProblemError(
              408,
              'Request Timeout',
              `The request body did not arrive in full within ${config.requestTimeoutS} s (REQUEST_TIMEOUT_S); the upload was cut off.`,
              { code: 'REQUEST_TIMEOUT', request_timeout_s: config.requestTimeoutS },
            ),
          );
        }
      }
    },
    Math.min(1_000, requestMs / 4),
  );
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
}

/**
 * Graceful shutdown (SIGTERM/SIGINT): readiness 503, SHUTDOWN_DELAY_S of serving on, then stop listening
 * and let the requests in flight finish; after SHUTDOWN_GRACE_S from the signal, cut what is left and exit.
 * Resolves with the exit code once the process may exit.
 */
export async function shutdownGracefully(app: FastifyInstance, signal: string): Promise<number> {
  const { lifecycle, config } = app;
  lifecycle.draining = true;
  const deadline = Date.now() + config.shutdownGraceS * 1000;
  app.log.info(
    { signal, in_flight: lifecycle.inFlight.size, delay_s: config.shutdownDelayS, grace_s: config.shutdownGraceS },
    'shutting down: readiness reports 503, finishing requests in flight',
  );
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace'>((resolve) => {
    timer = setTimeout(() => resolve('grace'), Math.max(0, deadline - Date.now()));
  });
  const closed = (async () => {
    if (config.shutdownDelayS > 0) await Promise.race([new Promise((r) => setTimeout(r, config.shutdownDelayS * 1000)), graceOver]);
    lifecycle.closing = true;
    // Keep-alive connections whose last answer has gone would hold close() open until they time out.
    const reaper = setInterval(() => app.server.closeIdleConnections(), 250);
    reaper.unref();
    await app.close(); // stops listening, closes idle connections, waits for requests in flight, runs onClose hooks
    clearInterval(reaper);
    return 'closed' as const;
  })();
  const outcome = await Promise.race([closed, graceOver]);
  clearTimeout(timer);
  if (outcome === 'closed') return 0;

  // The grace is over: answer what can still be answered, cut the rest, and go.
  const left = [...lifecycle.inFlight];
  app.log.warn({ in_flight: left.length, grace_s: config.shutdownGraceS }, 'grace period over: cutting the requests still open');
  for (const entry of left) cut(entry, shuttingDown());
  await new Promise((r) => setTimeout(r, 200)); // let those answers go out
  app.server.closeAllConnections();
  return 0;
}
