/**
 * JSON numbers in invoice metadata, read losslessly: `"quantity": 3` and `"net_price": 0.1` are accepted for the
 * decimal fields (amounts, quantities, prices, rates) and become the decimal string the JSON text wrote —
 * never a JS float on the way (`0.1` stays "0.1", `1.10` keeps "1.10", `1e2` is "100").
 *
 * The parser keeps each number's lexeme (JsonNumber); resolveNumbers() then turns the ones in decimal fields
 * into strings and any other into a JS number (which the schema then refuses with "should be a valid string").
 * Texts without a number token take JSON.parse itself (the common case: metadata written with strings).
 * Nesting is bounded before any of this runs (src/util/json-limits.ts), so the recursion here is shallow.
 */
import { MAX_DECIMAL_LENGTH } from '../model/decimal.js';

/** A JSON number as written in the text. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

export class JsonSyntaxError extends Error {}

/** Whether the text has a number token outside strings (one linear pass, like jsonTooDeep). */
export function hasNumberToken(text: string): boolean {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return true;
  }
  return false;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WS = /[ \t\n\r]*/y;

/**
 * JSON text → value, numbers as JsonNumber. Objects are plain objects whose members are own data properties
 * (a `__proto__` member is a member, never the prototype), as JSON.parse makes them.
 */
export function parseJsonKeepingNumbers(text: string, options: { forbidPrototypeKeys?: boolean } = {}): unknown {
  if (!hasNumberToken(text) && !options.forbidPrototypeKeys) return JSON.parse(text);
  let i = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at position ${i}`);
  };
  const ws = () => {
    WS.lastIndex = i;
    WS.test(text);
    i = WS.lastIndex;
  };
  const string = (): string => {
    const start = i; // at the opening quote
    let j = i + 1;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(j);
      if (Number.isNaN(c)) fail('Unterminated string');
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        j += 2;
        continue;
      }
      if (c < 0x20) fail('Bad control character in string literal');
      j++;
    }
    i = j + 1;
    // JSON.parse decodes escapes (and judges them) exactly as for the rest of the text.
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, j);
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('Expected a property name');
        const key = string();
        // As fastify's body parser: a member that could reach an object's prototype is refused outright.
        if (options.forbidPrototypeKeys && (key === '__proto__' || key === 'constructor'))
          fail('Object contains forbidden prototype property');
        ws();
        if (text[i] !== ':') fail("Expected ':'");
        i++;
        Object.defineProperty(obj, key, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail("Expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail("Expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', i)) return ((i += 4), true);
    if (text.startsWith('false', i)) return ((i += 5), false);
    if (text.startsWith('null', i)) return ((i += 4), null);
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail(c === undefined ? 'Unexpected end of JSON input' : `Unexpected token '${c}'`);
    i = NUMBER.lastIndex;
    return new JsonNumber(m[0]);
  };
  const out = value();
  ws();
  if (i < text.length) fail('Unexpected non-whitespace character after JSON');
  return out;
}

/**
 * A JSON number lexeme → plain decimal string with the digits as written ("1.10" → "1.10", "1e2" → "100",
 * "2.5E-3" → "0.0025"). undefined when the expansion would be longer than MAX_DECIMAL_LENGTH (a number limit
 * the schema applies to decimal strings too): the caller then keeps the lexeme, which the schema refuses.
 */
export function decimalFromLexeme(lexeme: string): string | undefined {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(lexeme);
  if (!m) return undefined;
  const [, sign, int, frac = '', expText] = m;
  if (expText === undefined) return lexeme.length <= MAX_DECIMAL_LENGTH ? lexeme : undefined;
  const exp = Number(expText);
  const digits = int + frac;
  // Position of the decimal point within `digits` after shifting.
  const point = int.length + exp;
  if (!Number.isSafeInteger(exp) || Math.abs(point) > MAX_DECIMAL_LENGTH || digits.length > MAX_DECIMAL_LENGTH) return undefined;
  let intPart: string;
  let fracPart: string;
  if (point <= 0) {
    intPart = '0';
    fracPart = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    intPart = digits + '0'.repeat(point - digits.length);
    fracPart = '';
  } else {
    intPart = digits.slice(0, point);
    fracPart = digits.slice(point);
  }
  intPart = intPart.replace(/^0+(?=[0-9])/, '');
  const out = `${sign}${intPart}${fracPart ? `.${fracPart}` : ''}`;
  return out.length <= MAX_DECIMAL_LENGTH ? out : undefined;
}

type Schema = Record<string, unknown>;

/** A decimal slot of the metadata schema (marked by the schema builders in ./schema.ts). */
export const DECIMAL_MARK = 'x-decimal';

/**
 * Numbers in `value` resolved against `schema`: a JsonNumber (or, for objects handed over in-process, a finite
 * JS number) in a decimal field becomes its decimal string; a JsonNumber elsewhere becomes a JS number, for the
 * schema to refuse in its usual words. Returns a value free of JsonNumber (safe to hand to a worker thread).
 */
export function resolveNumbers(value: unknown, schema: Schema | undefined): unknown {
  if (value instanceof JsonNumber) {
    if (schema?.[DECIMAL_MARK]) return decimalFromLexeme(value.text) ?? value.text;
    return Number(value.text);
  }
  if (typeof value === 'number') {
    // In-process callers: the number is a float already; its shortest round-trip form is what they meant.
    if (schema?.[DECIMAL_MARK] && Number.isFinite(value)) return decimalFromLexeme(String(value)) ?? String(value);
    return value;
  }
  if (Array.isArray(value)) {
    const items = schema?.items as Schema | undefined;
    let out: unknown[] | undefined;
    for (let k = 0; k < value.length; k++) {
      const v = resolveNumbers(value[k], items);
      if (v !== value[k]) (out ??= value.slice())[k] = v;
    }
    return out ?? value;
  }
  if (value !== null && typeof value === 'object') {
    const props = schema?.properties as Record<string, Schema> | undefined;
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const old = (value as Record<string, unknown>)[key];
      const v = resolveNumbers(old, props && Object.hasOwn(props, key) ? props[key] : undefined);
      if (v !== old) {
        out ??= { ...(value as Record<string, unknown>) };
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      }
    }
    return out ?? value;
  }
  return value;
}
