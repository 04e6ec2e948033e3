/**
 * Display forms of raw values for the views, from their lexical form only (never through a JS number, so no digit is
 * ever lost or invented): decimals with the language's separators, ISO dates in the language's order, Base64 sizes.
 * Each returns undefined when the raw value is not of its kind; the view then shows it as written.
 */
import type { Lang } from './labels.js';

const SEPARATORS: Record<Lang, { group: string; decimal: string }> = {
  en: { group: ',', decimal: '.' },
  de: { group: '.', decimal: ',' },
  fr: { group: '\u202f', decimal: ',' }, // narrow no-break space, as French typography groups digits
};

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
/** Decimals longer than this are shown as written (a hostile 5-million-digit amount must not be grouped). */
const MAX_DECIMAL_CHARS = 100;

/**
 * A decimal's lexical form ("1234.50", "-3", ".5") with grouped digits and the language's decimal separator, every
 * digit kept; `trimZeros` drops trailing zeros of the fraction ("19.00" → "19", for rates and quantities). Undefined
 * for anything that is not an XSD decimal.
 */
export function formatDecimal(raw: string, lang: Lang, trimZeros = false, minDecimals = 0): string | undefined {
  // Longer than any amount (validation reports NUMBER_TOO_LONG): shown as written, not grouped digit by digit.
  if (raw.length > MAX_DECIMAL_CHARS) return undefined;
  const m = DECIMAL.exec(raw.trim());
  if (!m) return undefined;
  const [, sign, intDigits, fracDigits = ''] = m;
  if (intDigits.length === 0 && fracDigits.length === 0) return undefined;
  let frac = trimZeros ? fracDigits.replace(/0+$/, '') : fracDigits;
  if (frac.length < minDecimals) frac = frac.padEnd(minDecimals, '0');
  const int = intDigits.replace(/^0+(?=\d)/, '') || '0';
  const { group, decimal } = SEPARATORS[lang];
  let grouped = '';
  let i = int.length;
  while (i > 3) {
    grouped = group + int.slice(i - 3, i) + grouped;
    i -= 3;
  }
  grouped = int.slice(0, i) + grouped;
  return sign + grouped + (frac ? decimal + frac : '');
}

/** "19" → "19 %" / "19%": the sign the language puts after a percentage. */
export function percentSuffix(lang: Lang): string {
  return lang === 'en' ? '%' : '\u00a0%';
}

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True for an ISO calendar date YYYY-MM-DD that exists (what `<time datetime>` may carry). */
export function isIsoDate(raw: string): boolean {
  if (raw.length !== 10 || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) return false;
  const y = Number(raw.slice(0, 4));
  const m = Number(raw.slice(5, 7));
  const d = Number(raw.slice(8, 10));
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
}

/** An ISO date in the language's usual order: "31 Jan 2026", "31.01.2026", "31/01/2026". */
export function formatDate(raw: string, lang: Lang): string | undefined {
  if (!isIsoDate(raw)) return undefined;
  const y = raw.slice(0, 4);
  const m = raw.slice(5, 7);
  const d = raw.slice(8, 10);
  if (lang === 'de') return `${d}.${m}.${y}`;
  if (lang === 'fr') return `${d}/${m}/${y}`;
  return `${Number(d)} ${MONTHS_EN[Number(m) - 1]} ${y}`;
}

/** Base64 content without its whitespace, and the size of what it encodes; undefined when it is not Base64. */
export function base64Payload(content: string): { base64: string; bytes: number } | undefined {
  const base64 = content.replace(/[\t\n\r ]+/g, '');
  if (base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return undefined;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return { base64, bytes: (base64.length / 4) * 3 - padding };
}

/** A byte count for people: "1,234 bytes" / "1.234 Bytes" / "1 234 octets". */
export function formatBytes(bytes: number, lang: Lang, unit: string): string {
  return `${formatDecimal(String(bytes), lang)} ${unit}`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\r': '&#13;' };
const NEEDS_ESCAPE = /[&<>"'\r]/;
const ESCAPE_ALL = /[&<>"'\r]/g;

/**
 * Text or an attribute value for HTML: markup characters as references, and a carriage return as &#13; (the HTML
 * parser would turn a literal one into a line feed; the reference keeps the value as the invoice has it).
 */
export function escapeHtml(s: string): string {
  return NEEDS_ESCAPE.test(s) ? s.replace(ESCAPE_ALL, (c) => ESCAPES[c]) : s;
}
