/**
 * Configuration from environment variables, parsed and validated once at start-up.
 * A bad value is a ConfigError naming the variable; main.ts prints it on one line and exits.
 */
import { availableCpus } from './util/cgroup.js';

/** The licence section of the service's own start page (GET /): how to obtain and install a key. */
export const SERVICE_LICENSE_PAGE = '/#license';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  maxUploadSizeMb: number;
  workers: number;
  /** Server processes sharing the port (node:cluster); 1 = this process serves alone. */
  processes: number;
  /** With processes > 1: server processes that may die within a minute (each replaced); one more and the supervisor gives up. */
  maxRestartsPerMinute: number;
  /** Uploads (and PDF-embedded invoice XML) up to this many KB are validated on the main thread; larger ones in the pool. */
  validationInlineMaxKb: number;
  logLevel: LogLevel;
  licenseKey?: string;
  licensePublicKey?: string;
  /** Where a LICENSE_REQUIRED answer sends the caller: the vendor's page (LICENSE_URL), else the service's own page. */
  licenseUrl: string;
  diagnosticsToken?: string;
  metricsEnabled: boolean;
  metricsToken?: string;
  /** A request body that makes no progress for this long is cut off (408); also the idle limit of a connection. */
  bodyTimeoutS: number;
  /** The whole request (headers and body) must have arrived within this long (408). */
  requestTimeoutS: number;
  /** After SIGTERM/SIGINT: readiness answers 503 for this long while the server still serves, then it stops listening. */
  shutdownDelayS: number;
  /** After SIGTERM/SIGINT (and the delay): requests in flight get this long to finish; then the rest are cut and the process exits. */
  shutdownGraceS: number;
  /** Memory ceiling of one server process, in MB (undefined: derived from the machine, see src/http/memory-gate.ts). */
  maxMemoryMb?: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function text(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = text(env, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `must be a whole number, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const v = text(env, name)?.toLowerCase();
  if (v === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(name, `must be true or false, got "${v}"`);
}

/** PROCESSES: a whole number, or `auto` for one process per core the machine (or its container's CPU quota) offers. */
function processCount(env: Env, cores: number): number {
  if (text(env, 'PROCESSES')?.toLowerCase() === 'auto') return Math.max(1, Math.min(64, cores));
  return integer(env, 'PROCESSES', 1, 1, 64);
}

/** Parse and validate the configuration. Throws ConfigError on the first bad variable. */
export function loadConfig(env: Env = process.env, cores = availableCpus()): Config {
  const logLevel = (text(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: text(env, 'HOST') ?? '0.0.0.0',
    maxUploadSizeMb: integer(env, 'MAX_UPLOAD_SIZE_MB', 10, 1, 1024),
    workers: integer(env, 'WORKERS', 1, 0, 64),
    processes: processCount(env, cores),
    maxRestartsPerMinute: integer(env, 'MAX_RESTARTS_PER_MINUTE', 5, 0, 10_000),
    validationInlineMaxKb: integer(env, 'VALIDATION_INLINE_MAX_KB', 128, 0, 1024 * 1024),
    logLevel: logLevel as LogLevel,
    licenseKey: text(env, 'LICENSE_KEY'),
    licensePublicKey: text(env, 'LICENSE_PUBLIC_KEY'),
    licenseUrl: text(env, 'LICENSE_URL') ?? SERVICE_LICENSE_PAGE,
    diagnosticsToken: text(env, 'DIAGNOSTICS_TOKEN'),
    metricsEnabled: boolean(env, 'METRICS_ENABLED', false),
    metricsToken: text(env, 'METRICS_TOKEN'),
    bodyTimeoutS: integer(env, 'BODY_TIMEOUT_S', 30, 1, 3600),
    requestTimeoutS: integer(env, 'REQUEST_TIMEOUT_S', 120, 1, 3600),
    shutdownDelayS: integer(env, 'SHUTDOWN_DELAY_S', 0, 0, 600),
    shutdownGraceS: integer(env, 'SHUTDOWN_GRACE_S', 25, 1, 3600),
    maxMemoryMb: text(env, 'MAX_MEMORY_MB') === undefined ? undefined : integer(env, 'MAX_MEMORY_MB', 0, 64, 1024 * 1024),
  };
}
