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
const XML_SPACE_GLOBAL = /[ \t\n\r]+/g;

// decimal: optional sign, digits with an optional fraction, or a fraction alone ("+.5" and "1." are valid,
// "." and "1e3" are not). Internal whitespace can never be part of it, so tolerating the edges equals collapsing.
const DECIMAL = /^[ \t\n\r]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[ \t\n\r]*$/;
const BOOLEAN = /^[ \t\n\r]*(?:true|false|1|0)[ \t\n\r]*$/;
// base64Binary (XML Schema 1.0 §3.2.16 grammar): groups of four alphabet characters; the last group may
// end in "x=" with x from the 16 characters whose low two bits are zero, or "x==" with x from the four whose
// low four bits are zero. After the collapse facet, the grammar allows one space between any two characters,
// so the check may drop all whitespace first.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=|[A-Za-z0-9+/][AQgw]==)?$/;

function isBase64(value: string): boolean {
  return BASE64.test(value.replace(XML_SPACE_GLOBAL, ''));
}

/** The builtins by local name (namespace http://www.w3.org/2001/XMLSchema). */
export const BUILTIN_SIMPLE_TYPES: ReadonlyMap<string, SimpleTypeDef> = new Map<string, SimpleTypeDef>([
  // Every character string is a string, a normalizedString or a token once its whitespace facet is applied.
  ['string', { kind: 'simple', name: 'xs:string', expects: 'a string', check: null }],
  ['normalizedString', { kind: 'simple', name: 'xs:normalizedString', expects: 'a string', check: null }],
  ['token', { kind: 'simple', name: 'xs:token', expects: 'a string', check: null }],
  ['decimal', { kind: 'simple', name: 'xs:decimal', expects: 'a decimal number (digits with an optional sign and decimal point)', check: (v) => DECIMAL.test(v) }],
  ['boolean', { kind: 'simple', name: 'xs:boolean', expects: 'a boolean (true, false, 1 or 0)', check: (v) => BOOLEAN.test(v) }],
  ['base64Binary', { kind: 'simple', name: 'xs:base64Binary', expects: 'base64 data', check: isBase64 }],
]);

/** A value shortened for a message. */
export function quoteValue(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
  return JSON.stringify(shown);
}
