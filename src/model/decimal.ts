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

/** Parse a lexical decimal; undefined when absent or not a plain decimal ("1,5", "NaN", " 2 "). */
export function parseDec(text: string | undefined | null): BigValue | undefined {
  if (text == null) return undefined;
  if (!DECIMAL_RE.test(text)) return undefined;
  return new Big(text);
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
