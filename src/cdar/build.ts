/**
 * JSON → a French lifecycle status message (CDAR D22B XML): the one implementation behind POST /v1/status,
 * buildStatus() and `einvoice status`.
 *
 * 1. Shape: the JSON schema (./schema.ts), every problem at once as FastAPI-style items (`loc` from `root`).
 * 2. Defaults: the status's label, phase and detail status from the published tables, REGULATED as business
 *    process (none towards the PPF), the platforms' guideline, detail numbers 1, 2, …: the result's `status` is the
 *    complete message, which is what reading the XML back gives (src/syntax/cdar/reader.ts).
 * 3. The XML (src/syntax/cdar/writer.ts), then the same checks as /v1/validate: the CDAR XSD and the BR-FR-CDV
 *    rules (standard edition). A combination the rules forbid (a role the phase does not allow, a reason the status
 *    does not allow, a missing reason, …) is refused with the rules' findings; warnings (a status code outside the
 *    published list) are returned with the message.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { STATUS_CODES } from '../syntax/cdar/codes.js';
import type { StatusMessage } from '../syntax/cdar/model.js';
import { writeCdar } from '../syntax/cdar/writer.js';
import { parseXml } from '../xml/dom.js';
import type { Finding } from '../rules/types.js';
import { jsonTooDeep, jsonTooDeepMessage, valueTooDeep } from '../util/json-limits.js';
import { StatusMessageSchema } from './schema.js';
import { validateCdarDocument } from './validate.js';
import { GUIDELINE_PLATFORMS, GUIDELINE_PPF, PPF_ID } from '../syntax/cdar/codes.js';

/** One FastAPI-style validation item. */
export interface StatusShapeItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** The body is not JSON (STATUS_NOT_JSON), or nested too deeply (JSON_TOO_DEEP). */
export class StatusNotJsonError extends Error {
  constructor(
    message: string,
    readonly code: 'STATUS_NOT_JSON' | 'JSON_TOO_DEEP' = 'STATUS_NOT_JSON',
  ) {
    super(message);
    this.name = 'StatusNotJsonError';
  }
}

/** The JSON does not have the shape of a status message. */
export class StatusShapeError extends Error {
  constructor(readonly items: StatusShapeItem[]) {
    super(items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'StatusShapeError';
  }
}

/** The message is well-formed but the BR-FR-CDV rules (or the CDAR schema) forbid it. */
export class StatusNotAllowedError extends Error {
  constructor(readonly findings: Finding[]) {
    const ids = [...new Set(findings.map((f) => f.ruleId))].join(', ');
    super(`The BR-FR-CDV rules do not allow this status message (${ids}): ${findings.map((f) => f.message).join(' ')}`);
    this.name = 'StatusNotAllowedError';
  }
}

export interface BuiltStatus {
  /** The CDAR D22B XML. */
  xml: string;
  /** The complete message written (defaults filled in): what /v1/extract reads back from `xml`. */
  status: StatusMessage;
  /** BR-FR-CDV warnings of the message (e.g. a status code outside the published list); never errors. */
  warnings: Finding[];
}

let compiled: ValidateFunction | undefined;
function checker(): ValidateFunction {
  compiled ??= new Ajv({ allErrors: true, strict: false }).compile(StatusMessageSchema);
  return compiled;
}

const MAX_ECHOED = 256;
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

function locOf(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

function valueAt(value: unknown, loc: (string | number)[]): unknown {
  let v = value;
  for (const k of loc) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined;
  return typeof v === 'string' && v.length > MAX_ECHOED ? `${v.slice(0, 32)}... (${v.length} characters)` : v;
}

function shapeItems(value: unknown, errors: ErrorObject[], root: (string | number)[]): StatusShapeItem[] {
  const items: StatusShapeItem[] = [];
  const seen = new Set<string>();
  const push = (item: StatusShapeItem) => {
    const key = `${item.loc.join('\u0000')}|${item.type}`;
    if (!seen.has(key)) {
      seen.add(key);
      items.push(item);
    }
  };
  for (const e of errors) {
    const base = locOf(e.instancePath);
    const input = valueAt(value, base);
    const loc = [...root, ...base];
    switch (e.keyword) {
      case 'required':
        push({ loc: [...loc, String(e.params.missingProperty)], msg: 'Field required', type: 'missing' });
        break;
      case 'additionalProperties':
        push({ loc: [...loc, String(e.params.additionalProperty)], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });
        break;
      case 'type': {
        const t = String(e.params.type);
        const [type, msg] =
          t === 'string'
            ? ['string_type', 'Input should be a valid string']
            : t === 'object'
              ? ['model_type', 'Input should be an object']
              : t === 'array'
                ? ['list_type', 'Input should be a valid list']
                : [`${t}_type`, `Input should be a valid ${t}`];
        push({ loc, msg, type, input });
        break;
      }
      case 'enum':
        push({
          loc,
          msg: `Input should be ${(e.params.allowedValues as unknown[]).map((v) => `'${v}'`).join(', ')}`,
          type: 'enum',
          input,
          ctx: { expected: e.params.allowedValues },
        });
        break;
      case 'pattern':
        push({
          loc,
          msg: `String should match pattern '${e.params.pattern}'`,
          type: 'string_pattern_mismatch',
          input,
          ctx: { pattern: e.params.pattern },
        });
        break;
      case 'minLength':
        push({
          loc,
          msg: `String should have at least ${e.params.limit} character`,
          type: 'string_too_short',
          input,
          ctx: { min_length: e.params.limit },
        });
        break;
      case 'maxLength':
        push({
          loc,
          msg: `String should have at most ${e.params.limit} characters`,
          type: 'string_too_long',
          ctx: { max_length: e.params.limit },
        });
        break;
      case 'minItems':
        push({ loc, msg: `List should have at least ${e.params.limit} item`, type: 'too_short', ctx: { min_length: e.params.limit } });
        break;
      case 'maxItems':
        push({ loc, msg: `List should have at most ${e.params.limit} items`, type: 'too_long', ctx: { max_length: e.params.limit } });
        break;
      case 'minimum':
      case 'maximum':
        push({
          loc,
          msg: `Input should be ${e.keyword === 'minimum' ? 'greater than or equal to' : 'less than or equal to'} ${e.params.limit}`,
          type: e.keyword === 'minimum' ? 'greater_than_equal' : 'less_than_equal',
          input,
        });
        break;
      default:
        push({ loc, msg: e.message ?? 'Invalid value', type: 'value_error', input });
    }
  }
  return items;
}

/** Strings with a control character XML 1.0 cannot carry (tab, LF and CR excepted). */
function controlCharacterItems(value: unknown, root: (string | number)[]): StatusShapeItem[] {
  const items: StatusShapeItem[] = [];
  const visit = (v: unknown, loc: (string | number)[]): void => {
    if (typeof v === 'string') {
      const m = CONTROL_CHARS.exec(v);
      if (m) {
        const code = `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
        items.push({
          loc: [...root, ...loc],
          msg: `String must not contain control characters (found ${code})`,
          type: 'string_control_character',
        });
      }
    } else if (Array.isArray(v)) v.forEach((x, i) => visit(x, [...loc, i]));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, [...loc, k]);
  };
  visit(value, []);
  return items;
}

/**
 * JSON text or a parsed value → a status message of the right shape (not yet completed). Throws StatusNotJsonError
 * or StatusShapeError (items located under `root`, e.g. ['body']).
 */
export function parseStatusRequest(input: string | unknown, root: (string | number)[] = ['body']): StatusMessage {
  let value: unknown = input;
  if (typeof input === 'string') {
    if (jsonTooDeep(input)) throw new StatusNotJsonError(jsonTooDeepMessage('The status JSON'), 'JSON_TOO_DEEP');
    try {
      value = JSON.parse(input);
    } catch (err) {
      throw new StatusNotJsonError(`The status message is not valid JSON: ${(err as Error).message}`);
    }
  } else if (valueTooDeep(input)) throw new StatusNotJsonError(jsonTooDeepMessage('The status JSON'), 'JSON_TOO_DEEP');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new StatusShapeError([
      { loc: root, msg: 'Input should be a JSON object with the status message', type: 'model_type', input: value },
    ]);
  }
  const check = checker();
  const items = check(value) ? [] : shapeItems(value, check.errors ?? [], root);
  items.push(...controlCharacterItems(value, root));
  const msg = value as StatusMessage;
  const code = msg.status?.code;
  if (items.length === 0 && STATUS_CODES[code] === undefined && msg.status.phase === undefined) {
    items.push({
      loc: [...root, 'status', 'phase'],
      msg: `Field required for a status code outside the published list (${code}): say whether it is a transmission or a processing status`,
      type: 'missing',
    });
  }
  if (items.length > 0) throw new StatusShapeError(items);
  return msg;
}

/**
 * Is the PPF the message's one recipient, as BR-FR-CDV-CL-01 reads it (one recipient GlobalID, 0000 under scheme
 * 0238, role DFH)? Such a message carries no business process (at most 3 characters there), whatever its guideline.
 */
function toPpfOnly(msg: StatusMessage): boolean {
  const ids = msg.recipients.flatMap((r) => r.ids ?? []);
  return (
    ids.length === 1 && ids[0].value === PPF_ID.value && ids[0].scheme === PPF_ID.scheme && msg.recipients.some((r) => r.role === 'DFH')
  );
}

/** The message with every default filled in (a new object; the input is not changed). */
export function completeStatus(msg: StatusMessage): StatusMessage {
  const info = STATUS_CODES[msg.status.code];
  const guideline = msg.guideline ?? GUIDELINE_PLATFORMS;
  const out: StatusMessage = structuredClone(msg);
  out.guideline = guideline;
  if (out.business_process === undefined && guideline !== GUIDELINE_PPF && !toPpfOnly(out)) out.business_process = 'REGULATED';
  const phase = out.status.phase ?? info?.phase;
  out.status = {
    code: out.status.code,
    label: out.status.label ?? info?.label,
    phase,
    detail_code: out.status.detail_code ?? (phase === info?.phase ? info?.detailCode : undefined),
    date_time: out.status.date_time,
  };
  for (const k of ['label', 'phase', 'detail_code'] as const) if (out.status[k] === undefined) delete out.status[k];
  if (out.details) out.details = out.details.map((d, i) => ({ ...d, sequence: d.sequence ?? i + 1 }));
  return out;
}

/**
 * Build a status message: JSON (text or value) → CDAR XML, checked by the CDAR XSD and BR-FR-CDV. Throws
 * StatusNotJsonError, StatusShapeError, or StatusNotAllowedError with the findings of the rules it breaks.
 */
export function buildStatusMessage(input: string | unknown, root: (string | number)[] = ['body']): BuiltStatus {
  const status = completeStatus(parseStatusRequest(input, root));
  const xml = writeCdar(status);
  const checked = validateCdarDocument(parseXml(xml));
  const errors = checked.findings.filter((f) => f.severity === 'error');
  if (errors.length > 0) throw new StatusNotAllowedError(errors);
  return { xml, status, warnings: checked.findings };
}
