/**
 * Errors as values, answered by one central handler:
 * - ProblemError → RFC 9457 application/problem+json (400/401/403/404/405/409/413/422/500 ...);
 * - RequestShapeError (and fastify's schema failures) → 422 in FastAPI's HTTPValidationError shape.
 * A 500 never carries the internal message or a stack trace.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PoolBusyError } from '../workers/gate.js';

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly title: string = TITLES[status] ?? 'Error',
    readonly detail?: string,
    /** Extension members, e.g. `{ code: 'NO_XML' }` or `{ errors: [...] }`. */
    readonly extras: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
    this.name = 'ProblemError';
  }
}

export class RequestShapeError extends Error {
  constructor(readonly items: ValidationItem[]) {
    super(items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'RequestShapeError';
  }
}

/**
 * The ProblemDetails body. Extension members appear both at the top level (RFC 9457 style) and
 * under `extensions` (the spec's schema), so clients of either reading find them.
 */
export function problemBody(
  status: number,
  title: string,
  detail: string | undefined,
  instance: string,
  extras: Record<string, unknown> = {},
) {
  const code = typeof extras.code === 'string' ? extras.code : undefined;
  return {
    type: code ? `urn:einvoice-service:problem:${code.toLowerCase().replace(/_/g, '-')}` : 'about:blank',
    title,
    status,
    detail: detail ?? null,
    instance,
    ...extras,
    extensions: Object.keys(extras).length > 0 ? extras : null,
  };
}

export function sendProblem(reply: FastifyReply, req: FastifyRequest, err: ProblemError) {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return (
    reply
      .code(err.status)
      .type('application/problem+json')
      // Pre-serialized, so that no response schema can strip extension members.
      .send(JSON.stringify(problemBody(err.status, err.title, err.detail, req.url.split('?')[0], err.extras)))
  );
}

/** The answer for a pro feature asked for in community mode (or not granted by the license). */
export function licenseRequired(feature: string, licenseUrl: string): ProblemError {
  return new ProblemError(403, 'License required', `The ${feature} feature needs a pro license; set LICENSE_KEY to a valid license key.`, {
    code: 'LICENSE_REQUIRED',
    feature,
    license_url: licenseUrl,
  });
}

/** Throw the LICENSE_REQUIRED problem unless the running edition grants `feature`. */
export function requirePro(app: FastifyInstance, feature: string): void {
  if (app.edition !== 'pro' || !app.license.features.includes(feature)) throw licenseRequired(feature, app.config.licenseUrl);
}

function sendShapeError(reply: FastifyReply, items: ValidationItem[]) {
  return reply
    .code(422)
    .type('application/json')
    .send(JSON.stringify({ detail: items }));
}

/** Map one ajv error to FastAPI's loc/msg/type. */
function ajvToItem(e: NonNullable<FastifyError['validation']>[number], context: string): ValidationItem {
  const root = context === 'querystring' ? 'query' : context;
  const path = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return { loc: [root, ...path, String(params.missingProperty)], msg: 'Field required', type: 'missing' };
  if (e.keyword === 'additionalProperties') {
    return { loc: [root, ...path, String(params.additionalProperty)], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' };
  }
  return { loc: [root, ...path], msg: e.message ?? 'Invalid value', type: e.keyword };
}

/** Install the central error handler and the 404/405 handler. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ProblemError | RequestShapeError | PoolBusyError, req, reply) => {
    if (error instanceof ProblemError) return sendProblem(reply, req, error);
    if (error instanceof RequestShapeError) return sendShapeError(reply, error.items);
    if (error instanceof PoolBusyError) {
      return sendProblem(
        reply,
        req,
        new ProblemError(503, 'Service Unavailable', error.message, { code: 'SERVICE_BUSY' }, { 'retry-after': '1' }),
      );
    }
    const err = error as FastifyError;
    if (err.validation) {
      return sendShapeError(
        reply,
        err.validation.map((e) => ajvToItem(e, err.validationContext ?? 'body')),
      );
    }
    switch (err.code) {
      case 'FST_REQ_FILE_TOO_LARGE':
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
      case 'FST_PARTS_LIMIT':
      case 'FST_FILES_LIMIT':
      case 'FST_FIELDS_LIMIT':
        return sendProblem(reply, req, uploadTooLarge(app.config.maxUploadSizeMb));
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendProblem(reply, req, new ProblemError(400, 'Bad Request', 'The request body is not valid JSON.'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendProblem(
          reply,
          req,
          new ProblemError(415, 'Unsupported Media Type', `Content-Type ${req.headers['content-type'] ?? '(none)'} is not accepted here.`),
        );
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      case 'FST_ERR_BAD_URL':
      case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
        return sendProblem(reply, req, new ProblemError(400, 'Bad Request', err.message));
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      return sendProblem(reply, req, new ProblemError(status, TITLES[status] ?? 'Client Error', err.message));
    }
    req.log.error({ err }, 'unhandled error');
    return sendProblem(reply, req, new ProblemError(500, 'Internal Server Error', 'The server failed to process the request.'));
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allowed = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter(
      (method) => method !== req.method && app.hasRoute({ method: method as 'GET', url: path }),
    );
    if (allowed.length > 0) {
      return sendProblem(
        reply,
        req,
        new ProblemError(
          405,
          'Method Not Allowed',
          `${req.method} is not allowed on ${path}; use ${allowed.join(', ')}.`,
          {},
          { allow: allowed.join(', ') },
        ),
      );
    }
    return sendProblem(reply, req, new ProblemError(404, 'Not Found', `No route ${req.method} ${path}.`));
  });
}

export function uploadTooLarge(limitMb: number): ProblemError {
  return new ProblemError(413, 'Content Too Large', `The upload exceeds the limit of ${limitMb} MB (MAX_UPLOAD_SIZE_MB).`, {
    code: 'UPLOAD_TOO_LARGE',
    max_upload_size_mb: limitMb,
  });
}
