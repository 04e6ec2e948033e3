/**
 * Decimal arithmetic for money: big.js, built from strings only, rounded half-up (away from zero
 * on ties), the way EN 16931 rounds amounts to two decimals.
 */
import BigModule from 'big.js';

// Strict mode: constructing from a JS number throws, so a float can never sneak in.
export const Big = BigModule(); // a private copy: Big() without arguments returns a new constructor (works for both the ESM and CJS builds)
Big.strict = true;
Big.RM = Big.roundHalfUp;
Big.DP = 20;

export type BigValue = InstanceType<typeof Big>;

const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * Longest lexical decimal read as a number (sign, digits and point): 64 characters. EN 16931 amounts
 * have at most 19 digits and real prices or quantities a few decimals more; big.js multiplies and
 * divides in time quadratic in the digits, so a 100,000-digit "amount" cost seconds per operation.
 * Anything longer is not a usable number: parseDec answers undefined (unreadable), like "1,5".
 */
export const MAX_DECIMAL_LENGTH = 64;
/** Largest exponent magnitude accepted where a number may carry one (safeNumber): 1e100000 would make big.js spell out 100,000 digits. */
export const MAX_DECIMAL_EXPONENT = 64;

/** Whether a lexical number is too long to be read as one (see MAX_DECIMAL_LENGTH). */
export function decimalTooLong(text: string): boolean {
  return text.trim().length > MAX_DECIMAL_LENGTH;
}

/** A checked lexical number to big.js, which refuses the leading "+" xs:decimal allows ("+5" was a 500 on /v1/convert). */
function big(text: string): BigValue {
  return new Big(text.charCodeAt(0) === 0x2b ? text.slice(1) : text);
}

/**
 * Parse a lexical decimal; undefined when absent, not a plain decimal ("1,5", "NaN", " 2 ", "1e3") or
 * longer than MAX_DECIMAL_LENGTH. Never throws: the one safe way from input text to arithmetic.
 */
export function parseDec(text: string | undefined | null): BigValue | undefined {
  if (text == null || text.length > MAX_DECIMAL_LENGTH) return undefined;
  if (!DECIMAL_RE.test(text)) return undefined;
  return big(text);
}

const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE]([+-]?\d+))?$/;

/**
 * Like parseDec, but also reads an exponent ("1.5E3", as XPath number() does), bounded by
 * MAX_DECIMAL_EXPONENT; undefined for anything else. Never throws.
 */
export function safeNumber(text: string | undefined | null): BigValue | undefined {
  if (text == null || text.length > MAX_DECIMAL_LENGTH) return undefined;
  const m = NUMBER_RE.exec(text);
  if (m === null) return undefined;
  if (m[4] !== undefined && Math.abs(Number(m[4])) > MAX_DECIMAL_EXPONENT) return undefined;
  return big(text);
}

/** Like parseDec, but absent/unparsable counts as zero (for sums over optional amounts). */
export function decOrZero(text: string | undefined | null): BigValue {
  return parseDec(text) ?? new Big('0');
}

/** Round half-up to `dp` decimals (default 2) and render with exactly `dp` decimals. */
export function toFixedHalfUp(value: BigValue, dp = 2): string {
  return value.round(dp, Big.roundHalfUp).toFixed(dp);
}

/** Sum lexical decimals; absent values count as zero. */
export function sumDec(values: Iterable<string | undefined>): BigValue {
  let total = new Big('0');
  for (const v of values) total = total.plus(decOrZero(v));
  return total;
}

/** Number of fractional digits in a lexical decimal ("1.50" → 2, "3" → 0). */
export function fractionDigits(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}
