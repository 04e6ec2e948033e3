/**
 * Check digits and formats of the party identifiers Peppol BIS Billing 3.0 tests (PEPPOL-COMMON-R040…R057 and
 * the national rules), as the official functions compute them: each takes the identifier as the rule gives it
 * (usually normalize-space()d) and answers whether it is well formed. Pure functions, no allocation beyond the
 * digits; a value that is not what the function expects (letters where digits belong) simply fails.
 */
import { castableInteger, len, num, substr } from './xpath.js';

/** Digits of s as numbers (code point − 48, as the artefact computes them: a non-digit gives a wrong digit, not an error). */
const digitsOf = (s: string) => [...s].map((c) => c.codePointAt(0)! - 48);

/** GS1 GLN (ICD 0088): weights 3,1,3,… from the right over all but the last digit; the last is the check digit. */
export function glnCheck(val: string): boolean {
  const body = digitsOf(substr(val, 1, len(val) - 1)).reverse();
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += body[i] * (1 + ((i + 1) % 2) * 2);
  return (10 - (sum % 10)) % 10 === num(substr(val, len(val), 1));
}

/** Norwegian organisation number (ICD 0192; NO-R-001): mod 11 with weights 2…7 from the right; a number above zero. */
export function mod11Check(val: string): boolean {
  const body = digitsOf(substr(val, 1, len(val) - 1)).reverse();
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += body[i] * ((i % 6) + 2);
  return num(val) > 0 && (11 - (sum % 11)) % 11 === num(substr(val, len(val), 1));
}

/** Belgian enterprise number (ICD 0208): the last two digits are 97 − (the first eight mod 97). */
export function belgianEnterpriseCheck(val: string): boolean {
  const first8 = substr(val, 1, 8);
  if (!castableInteger(first8)) return false; // xs:integer() of a non-number: the official test cannot decide
  const calculated = 97 - (Number(first8.trim()) % 97); // at most 8 digits: exact as a double
  return num(substr(val, 9, 2)) === num(String(calculated));
}

const ALNUM = /^[A-Za-z0-9]*$/;
const LETTERS = /^[A-Za-z]*$/;

/** Italian IPA code (ICD 0201): six ASCII letters or digits. */
export const codiceIpaCheck = (val: string) => ALNUM.test(val) && len(val) === 6;

/** Italian codice fiscale (ICD 0210, EAS 9907): 16 characters in the person pattern, or an 11-digit number. */
export function codiceFiscaleCheck(val: string): boolean {
  const n = len(val);
  if (n === 16) return codiceFiscale16(val);
  if (n === 11) return castableInteger(val);
  return false;
}

function codiceFiscale16(val: string): boolean {
  return (
    LETTERS.test(substr(val, 1, 6)) &&
    castableInteger(substr(val, 7, 2)) &&
    LETTERS.test(substr(val, 9, 1)) &&
    castableInteger(substr(val, 10, 2)) &&
    castableInteger(substr(val, 15, 1)) &&
    LETTERS.test(substr(val, 16, 1))
  );
}

/**
 * Italian partita IVA (ICD 0211): with an IT/it prefix, 11 digits whose alternating sum (every second digit
 * doubled through 0246813579) is a multiple of 10; any other prefix is not checked.
 */
export function partitaIvaCheck(val: string): boolean {
  const country = substr(val, 1, 2);
  if (country !== 'IT' && country !== 'it') return true;
  const code = substr(val, 3);
  return len(code) === 11 && pivaRemainder(code) === 0;
}

function pivaRemainder(code: string): number {
  if (!castableInteger(code)) return 1;
  let sum = 0;
  let odd = false;
  // The official recursion stops at the first suffix that is no integer (the end of the string).
  for (let rest = code; castableInteger(rest); rest = substr(rest, 2), odd = !odd) {
    const d = num(substr(rest, 1, 1));
    if (Number.isNaN(d)) return 1; // a sign or blank first: the official cast fails
    sum += odd ? Number('0246813579'[d]) : d;
  }
  return sum % 10;
}

/** Australian Business Number (ICD 0151): weights 10,1,3,5,…,19 with 1 subtracted from the first digit; mod 89. */
export function abnCheck(val: string): boolean {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  let sum = 0;
  for (let i = 0; i < 11; i++) {
    const c = substr(val, i + 1, 1);
    if (c === '') return false; // string-to-codepoints('') is empty: the official arithmetic yields no number
    sum += (c.codePointAt(0)! - (i === 0 ? 49 : 48)) * weights[i];
  }
  return sum % 89 === 0;
}

/** Swedish organisation number (ICD 0007, SE-R-013): digits only, the tenth the Luhn check digit of the first nine. */
export function swedishOrgNumberCheck(val: string): boolean {
  if (!/^\p{Nd}+$/u.test(val)) return false;
  const main = substr(val, 1, 9);
  const n = len(main);
  let sum = 0;
  for (let pos = 1; pos <= n; pos++) {
    const d = num(substr(main, n - pos + 1, 1));
    sum += pos % 2 === 1 ? ((d * 2) % 10) + Math.floor((d * 2) / 10) : d;
  }
  return (10 - (sum % 10)) % 10 === num(substr(val, 10, 1));
}

/** Greek tax identification number (AFM, 9 digits): weights 256…2 over the first eight, mod 11 mod 10. */
export function greekTinCheck(val: string): boolean {
  const d = (i: number) => num(substr(val, i, 1));
  const sum = d(8) * 2 + d(7) * 4 + d(6) * 8 + d(5) * 16 + d(4) * 32 + d(3) * 64 + d(2) * 128 + d(1) * 256;
  return (sum % 11) % 10 === d(9);
}

/** IBAN as the German rules test it: shape, then mod 97 over the rearranged characters (A = 10 …). */
export function ibanCheck(raw: string | undefined): boolean {
  const s = (raw ?? '').replace(/[ \n\r\t]/g, '');
  if (!/^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{0,30}$/.test(s)) return false;
  const rearranged = substr(s, 5) + substr(s, 1, 2).toUpperCase() + substr(s, 3, 2);
  let rest = 0;
  for (const ch of rearranged) {
    const cp = ch.codePointAt(0)!;
    for (const digit of String(cp > 64 ? cp - 55 : cp - 48)) rest = (rest * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return rest === 1;
}
