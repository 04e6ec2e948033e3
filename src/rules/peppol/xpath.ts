/**
 * The XPath 2.0 value semantics the Peppol rules rely on, for values read from the parsed document:
 * number() (NaN when not a number), xs:decimal() casts (undefined where the cast would be a dynamic
 * error: the official artefact then gives no verdict, and we do not report), `castable as xs:date` /
 * `xs:integer`, normalize-space() and tokenize(). Small and pure: the rules read like their tests.
 */
import { Big, MAX_DECIMAL_EXPONENT, MAX_DECIMAL_LENGTH, parseDec, type BigValue } from '../../model/decimal.js';

/** XML whitespace (what XPath's normalize-space() and casts trim): space, tab, CR, LF. */
const XML_WS = /^[ \t\r\n]+|[ \t\r\n]+$/g;
const isWs = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** Strip XML whitespace at both ends (most values have none: then no new string). */
const trimXml = (s: string) => (s.length > 0 && (isWs(s.charCodeAt(0)) || isWs(s.charCodeAt(s.length - 1))) ? s.replace(XML_WS, '') : s);

/** normalize-space(): undefined (an empty sequence) is ''. */
export function ns(s: string | undefined): string {
  if (s === undefined) return '';
  return isNormalized(s) ? s : s.replace(/[ \t\r\n]+/g, ' ').trim();
}

/**
 * No tab, CR or LF, no space next to another, and at either end nothing String.trim() would remove (it trims more
 * than XML whitespace): the replace and trim above would give the same string, so most values skip them.
 */
function isNormalized(s: string): boolean {
  if (s.length > 0 && (isTrimmable(s.charCodeAt(0)) || isTrimmable(s.charCodeAt(s.length - 1)))) return false;
  let previousSpace = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20) {
      if (previousSpace) return false;
      previousSpace = true;
    } else if (c === 0x09 || c === 0x0a || c === 0x0d) return false;
    else previousSpace = false;
  }
  return !previousSpace || s.length === 0;
}

/** A character String.trim() might remove: controls, space, and anything beyond ASCII (no-break and other spaces). */
const isTrimmable = (c: number) => c <= 0x20 || c >= 0x7f;

/** XPath number(): NaN for an empty sequence or a string that is no xs:double ("INF" and "-INF" are numbers). */
export function num(s: string | undefined): number {
  if (s === undefined) return Number.NaN;
  const t = trimXml(s);
  if (t === 'INF' || t === '+INF') return Number.POSITIVE_INFINITY;
  if (t === '-INF') return Number.NEGATIVE_INFINITY;
  // A lexical double, bounded as safeNumber bounds decimals; Number() rounds its exact value to the nearest double, as
  // number() does (and as big.js's exact reading turned into a double did, without the big.js object per call).
  if (t.length > MAX_DECIMAL_LENGTH) return Number.NaN;
  const m = LEXICAL_DOUBLE.exec(t);
  if (m === null || (m[4] !== undefined && Math.abs(Number(m[4])) > MAX_DECIMAL_EXPONENT)) return Number.NaN;
  return Number(t);
}

/** xs:double's lexical form without INF / NaN: sign, digits with an optional point, an optional exponent. */
const LEXICAL_DOUBLE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE]([+-]?\d+))?$/;

/**
 * Decimals read so far, by their text: a parsed value is immutable, so equal texts share one (invoices repeat their
 * quantities, base quantities and prices from line to line, and from invoice to invoice). Parsing was the larger part
 * of the line rules' cost (R120, R046). Bounded: cleared when full; texts too long to be decimals are not kept.
 */
const parsedDecimals = new Map<string, BigValue | null>();
const MAX_PARSED_DECIMALS = 50_000;
const MAX_DECIMAL_TEXT = MAX_DECIMAL_LENGTH + 16;

/** xs:decimal(s): undefined when the cast fails (or the value is absent). Whitespace around it is allowed. */
export function dec(s: string | undefined): BigValue | undefined {
  if (s === undefined) return undefined;
  if (s.length > MAX_DECIMAL_TEXT) return parseDec(trimXml(s));
  let d = parsedDecimals.get(s);
  if (d === undefined) {
    d = parseDec(trimXml(s)) ?? null;
    if (parsedDecimals.size >= MAX_PARSED_DECIMALS) parsedDecimals.clear();
    parsedDecimals.set(s, d);
  }
  return d ?? undefined;
}

/** Digits after the decimal point of a value (0 for an integer): where an operation would have nothing to round. */
export const decimalPlaces = (v: BigValue) => Math.max(0, v.c.length - v.e - 1);

export const ZERO = new Big('0');
export const ONE = new Big('1');
export const HUNDRED = new Big('100');

/** `castable as xs:integer`. */
export function castableInteger(s: string): boolean {
  return /^[+-]?[0-9]+$/.test(trimXml(s));
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DATE = /^(-?)([0-9]{4,})-([0-9]{2})-([0-9]{2})(Z|[+-]([0-9]{2}):([0-9]{2}))?$/;

/** The parts of a lexical xs:date (sign, year, month, day, zone, zone hours, zone minutes), or undefined when it is none. */
function dateParts(s: string): RegExpExecArray | undefined {
  const m = DATE.exec(trimXml(s));
  if (!m) return undefined;
  if (m[2].length > 4 && m[2].startsWith('0')) return undefined;
  const year = Number(m[2]);
  const month = Number(m[3]);
  const day = Number(m[4]);
  if (year === 0 && m[1] === '') {
    // Year 0000 is not allowed in XSD 1.0 (Saxon 9.9 follows XSD 1.0 here).
    return undefined;
  }
  if (month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]) return undefined;
  if (month === 2 && day === 29) {
    const y = m[1] === '-' ? 1 - year : year;
    if (!(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return undefined;
  }
  if (m[6] !== undefined && (Number(m[6]) > 14 || Number(m[7]) > 59 || (Number(m[6]) === 14 && Number(m[7]) !== 0))) return undefined;
  return m;
}

/** `castable as xs:date`: year-month-day (optional time zone), a day that exists (29 February only in leap years). */
export const castableDate = (s: string): boolean => dateKey(s) !== undefined;

/** xs:date(a) compared with xs:date(b) on the timeline (time zones applied, local dates taken as UTC); undefined if either is no date. */
export function compareDates(a: string, b: string): number | undefined {
  const x = dateKey(a);
  const y = dateKey(b);
  if (x === undefined || y === undefined) return undefined;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Date keys read so far, by their text (null: no date): an invoice repeats its dates (issue date, line periods), and
 * each was a regular expression and a Date object. Bounded: cleared when full; long texts are not kept.
 */
const dateKeys = new Map<string, number | null>();
const MAX_DATE_KEYS = 10_000;
const MAX_DATE_TEXT = 40;

function dateKey(s: string): number | undefined {
  if (s.length > MAX_DATE_TEXT) return readDateKey(s);
  let key = dateKeys.get(s);
  if (key === undefined) {
    key = readDateKey(s) ?? null;
    if (dateKeys.size >= MAX_DATE_KEYS) dateKeys.clear();
    dateKeys.set(s, key);
  }
  return key ?? undefined;
}

function readDateKey(s: string): number | undefined {
  const m = dateParts(s);
  if (!m) return undefined;
  const year = (m[1] === '-' ? -1 : 1) * Number(m[2]);
  const d = new Date(0);
  d.setUTCFullYear(year, Number(m[3]) - 1, Number(m[4]));
  let minutes = d.getTime() / 60000;
  if (m[5] !== undefined && m[5] !== 'Z') minutes -= (m[5].startsWith('-') ? -1 : 1) * (Number(m[6]) * 60 + Number(m[7]));
  return minutes;
}

/** tokenize(s, re): an empty input is an empty sequence; separators at either end give empty strings, as XPath does. */
export function tokenize(s: string, re: RegExp): string[] {
  return s === '' ? [] : s.split(re);
}

/** XPath round(x): halves towards positive infinity. */
export function roundHalfUp(v: BigValue): BigValue {
  const down = v.round(0, Big.roundDown);
  const frac = v.minus(down);
  if (v.gte(ZERO)) return frac.gte(new Big('0.5')) ? down.plus(ONE) : down;
  return frac.lt(new Big('-0.5')) ? down.minus(ONE) : down;
}

/** u:slack(exp, val, slack): exp - slack <= val <= exp + slack, i.e. |val - exp| <= slack (decimal subtraction is exact). */
export function withinSlack(exp: BigValue, val: BigValue, slack: BigValue): boolean {
  // Equal values (a correct line, nearly always) hold for any tolerance ≥ 0: a comparison, no difference to build.
  if (val.eq(exp) && slack.s === 1) return true;
  const d = val.minus(exp);
  return (d.s === 1 ? d : d.abs()).lte(slack);
}

/** Some UTF-16 surrogate: without any, a string's code units are its code points (nearly every value). */
const SURROGATE = /[\uD800-\uDFFF]/;

/** string-length(): code points, as XPath counts them (not UTF-16 units). */
export const len = (s: string) => (SURROGATE.test(s) ? [...s].length : s.length);

/** substring(s, start, length) with XPath's 1-based, code-point positions (start ≥ 1 here). */
export function substr(s: string | undefined, start: number, length?: number): string {
  if (s === undefined) return '';
  if (!SURROGATE.test(s)) return s.slice(start - 1, length === undefined ? undefined : start - 1 + length);
  const cps = [...s];
  return cps.slice(start - 1, length === undefined ? undefined : start - 1 + length).join('');
}
