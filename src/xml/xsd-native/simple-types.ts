/**
 * The XML Schema 1.0 builtin simple types the Factur-X XSDs use, as lexical checkers.
 *
 * Each checker applies the type's whiteSpace facet itself (string: preserve; token, decimal, boolean,
 * base64Binary: collapse) and then tests the lexical space, without building the collapsed string
 * where a regular expression that tolerates the surrounding whitespace gives the same verdict.
 * A builtin not listed here is refused when a schema is compiled (see compile.ts), never half-checked.
 */

/** A simple type as the validator needs it: `check` is null when every string is in the lexical space. */
export interface SimpleTypeDef {
  kind: 'simple';
  /** For messages, e.g. `xs:decimal` or `qdt:CountryIDContentType`. */
  name: string;
  /** What a valid value is, in words, e.g. `a decimal number`. */
  expects: string;
  check: ((value: string) => boolean) | null;
}

/** XML whitespace (S): only these four characters are collapsed; a no-break space is data. */

// decimal: optional sign, digits with an optional fraction, or a fraction alone ("+.5" and "1." are valid,
// "." and "1e3" are not). Internal whitespace can never be part of it, so tolerating the edges equals collapsing.
const DECIMAL = /^[ \t\n\r]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[ \t\n\r]*$/;
const BOOLEAN = /^[ \t\n\r]*(?:true|false|1|0)[ \t\n\r]*$/;
// base64Binary (XML Schema 1.0 §3.2.16 grammar): groups of four alphabet characters; the last group may
// end in "x=" with x from the 16 characters whose low two bits are zero, or "x==" with x from the four whose
// low four bits are zero. After the collapse facet, the grammar allows one space between any two characters,
// so the check may drop all whitespace first. As a regex over the whitespace-free text:
//   ^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=|[A-Za-z0-9+/][AQgw]==)?$

const B64 = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') B64[c.charCodeAt(0)] = 1;
const B64_BEFORE_ONE_PAD = new Set('AEIMQUYcgkosw048');
const B64_BEFORE_TWO_PADS = new Set('AQgw');

/**
 * That language in one pass over the characters, XML whitespace skipped: embedded attachments run to megabytes,
 * and the whitespace-stripping copy plus the regex took ~0.8 s for a 3 MB one (the regex stays as the definition).
 */
function isBase64(value: string): boolean {
  let count = 0;
  let pads = 0;
  let last = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    count++;
    if (c === 0x3d) {
      if (++pads > 2) return false;
      continue;
    }
    if (pads > 0 || c >= 128 || B64[c] === 0) return false;
    last = value[i];
  }
  if (count % 4 !== 0) return false;
  if (pads === 1) return B64_BEFORE_ONE_PAD.has(last);
  if (pads === 2) return B64_BEFORE_TWO_PADS.has(last) && count >= 4;
  return true;
}

// date / time (XML Schema 1.0 §3.2.9, §3.2.8): the lexical forms with an optional time zone; month, day,
// hour, minute and second in range (the day is checked against the month, 29 February against the year).
const DATE = /^[ \t\n\r]*(-?(?:[1-9][0-9]{4,}|[0-9]{4}))-([0-9]{2})-([0-9]{2})(?:Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))?[ \t\n\r]*$/;
const TIME =
  /^[ \t\n\r]*(?:(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?|24:00:00(?:\.0+)?)(?:Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))?[ \t\n\r]*$/;
const LANGUAGE = /^[ \t\n\r]*[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*[ \t\n\r]*$/;

function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year === 0 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}

/** dateTime (XML Schema 1.0 §3.2.7): a date and a time joined by T, one optional time zone for both. */
function isDateTime(value: string): boolean {
  const m = /^[ \t\n\r]*(-?[0-9]{4,}-[0-9]{2}-[0-9]{2})T([^ \t\n\r]+?)(Z|[+-][0-9]{2}:[0-9]{2})?[ \t\n\r]*$/.exec(value);
  return m !== null && isDate(m[1]) && TIME.test(m[2]) && (m[3] === undefined || DATE.test(`2000-01-01${m[3]}`));
}

/** The builtins by local name (namespace http://www.w3.org/2001/XMLSchema). */
export const BUILTIN_SIMPLE_TYPES: ReadonlyMap<string, SimpleTypeDef> = new Map<string, SimpleTypeDef>([
  // Every character string is a string, a normalizedString or a token once its whitespace facet is applied.
  ['string', { kind: 'simple', name: 'xs:string', expects: 'a string', check: null }],
  ['normalizedString', { kind: 'simple', name: 'xs:normalizedString', expects: 'a string', check: null }],
  ['token', { kind: 'simple', name: 'xs:token', expects: 'a string', check: null }],
  [
    'decimal',
    {
      kind: 'simple',
      name: 'xs:decimal',
      expects: 'a decimal number (digits with an optional sign and decimal point)',
      check: (v) => DECIMAL.test(v),
    },
  ],
  ['boolean', { kind: 'simple', name: 'xs:boolean', expects: 'a boolean (true, false, 1 or 0)', check: (v) => BOOLEAN.test(v) }],
  ['base64Binary', { kind: 'simple', name: 'xs:base64Binary', expects: 'base64 data', check: isBase64 }],
  // The UBL 2.1 types (src/xml/ubl/schema.ts) also use these.
  ['date', { kind: 'simple', name: 'xs:date', expects: 'a date (YYYY-MM-DD, optionally with a time zone)', check: isDate }],
  [
    'time',
    {
      kind: 'simple',
      name: 'xs:time',
      expects: 'a time (hh:mm:ss, optionally with fractions and a time zone)',
      check: (v) => TIME.test(v),
    },
  ],
  // The CDAR D22B schemas (src/xml/cdar/schema.ts) use dateTime (udt:DateTime).
  [
    'dateTime',
    {
      kind: 'simple',
      name: 'xs:dateTime',
      expects: 'a date and time (YYYY-MM-DDThh:mm:ss, optionally with fractions and a time zone)',
      check: isDateTime,
    },
  ],
  // anyURI: XML Schema 1.0 processors accept nearly any string (libxml2 does); no check, as for string.
  ['anyURI', { kind: 'simple', name: 'xs:anyURI', expects: 'a URI', check: null }],
  ['language', { kind: 'simple', name: 'xs:language', expects: 'a language tag (e.g. en or de-DE)', check: (v) => LANGUAGE.test(v) }],
]);

/** A value shortened for a message. */
export function quoteValue(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
  return JSON.stringify(shown);
}
