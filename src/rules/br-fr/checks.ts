/**
 * Value checks shared by the CII and UBL BR-FR rules, per FNFE-MPE edition: identifier and date
 * formats, the French code lists, and the decimal formats of BR-FR-DEC. Facts taken from the
 * FNFE-MPE "BR-FR-Flux2" rules (AFNOR XP Z12-012), written here in our own code.
 */
import { safeNumber, type BigValue } from '../../model/decimal.js';

/** FNFE-MPE release line of the BR-FR rules. */
export type FrRelease = '1.2' | '1.4';

/** The reference schematrons as a Schematron rule context: the element the assert runs on. */
export interface FrAssert {
  id: string;
  /** Our own words. */
  message: string;
  /** The context nodes, in document order. */
  contexts: (root: import('../../xml/dom.js').XmlElement) => import('../../xml/dom.js').XmlElement[];
  /** True when the rule holds on this context node. */
  holds: (el: import('../../xml/dom.js').XmlElement, root: import('../../xml/dom.js').XmlElement) => boolean;
}

/** BR-FR-02: letters, digits and + - _ / only, no spaces (tested on the trimmed value). */
export function isValidIdFormat(value: string): boolean {
  const n = value.replace(/[ \t\r\n]+/g, ' ').trim();
  return /^[A-Za-z0-9+\-_/]+$/.test(n) && !value.includes(' ');
}

/** BR-FR-03: the first 8 characters are a real calendar date YYYYMMDD in 2000–2099. */
export function isValidDate(value: string): boolean {
  const d = value.slice(0, 8);
  const m = /^20(\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.exec(d);
  if (!m) return false;
  const year = 2000 + Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const max = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= max;
}

/** BR-FR-04: the document type codes allowed in France (UNTDID 1001 subset). */
export const DOCUMENT_TYPE_CODES = [
  '380',
  '389',
  '393',
  '501',
  '386',
  '500',
  '384',
  '471',
  '472',
  '473',
  '261',
  '262',
  '381',
  '396',
  '502',
  '503',
];

/** BR-FR-08: billing frameworks (cadres de facturation); 1.4 adds the bidirectional B9/S9/M9. */
export function billingModes(release: FrRelease): string[] {
  const base = ['B1', 'S1', 'M1', 'B2', 'S2', 'M2', 'S3', 'B4', 'S4', 'M4', 'S5', 'S6', 'B7', 'S7', 'B8', 'S8', 'M8'];
  return release === '1.4' ? [...base, 'B9', 'S9', 'M9'] : base;
}

/** BR-FR-20: values of a BAR note; 1.4 adds B2CINT. */
export function barTreatments(release: FrRelease): string[] {
  const base = ['B2B', 'B2BINT', 'B2C', 'OUTOFSCOPE', 'ARCHIVEONLY'];
  return release === '1.4' ? [...base.slice(0, 3), 'B2CINT', ...base.slice(3)] : base;
}

/** BR-FR-12 (UBL) / electronic address schemes accepted in France. */
export const EAS_CODES = (
  'AN AQ AS AU EM 0002 0007 0009 0037 0060 0088 0096 0097 0106 0130 0135 0142 0147 0151 0154 0158 0170 0177 0183 0184 0188 0190 ' +
  '0191 0192 0193 0194 0195 0196 0198 0199 0200 0201 0202 0203 0204 0205 0208 0209 0210 0211 0212 0213 0215 0216 0217 0218 0221 0225 ' +
  '0230 0235 0240 9910 9913 9914 9915 9918 9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 ' +
  '9938 9939 9940 9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959'
).split(' ');

/** BR-FR-15: VAT category codes relevant in France. */
export const VAT_CATEGORY_CODES = ['S', 'E', 'AE', 'K', 'G', 'O', 'Z'];

/** BR-FR-16: VAT rates in use in France (mainland, Corsica, overseas), as lexical values. */
export const VAT_RATES = [
  '0',
  '0.0',
  '0.00',
  '10',
  '10.0',
  '10.00',
  '13',
  '13.0',
  '13.00',
  '20',
  '20.0',
  '20.00',
  '8.5',
  '8.50',
  '19.6',
  '19.60',
  '2.1',
  '2.10',
  '5.5',
  '5.50',
  '7',
  '7.0',
  '7.00',
  '20.6',
  '20.60',
  '1.05',
  '0.9',
  '0.90',
  '1.75',
  '9.2',
  '9.20',
  '9.6',
  '9.60',
];

/** BR-FR-17: attachment qualifiers; 1.4 adds RECAPITULATIF_COTRAITANCE. */
export function attachmentCodes(release: FrRelease): string[] {
  const base = [
    'RIB',
    'LISIBLE',
    'FEUILLE_DE_STYLE',
    'PJA',
    'BORDEREAU_SUIVI',
    'DOCUMENT_ANNEXE',
    'BON_LIVRAISON',
    'BON_COMMANDE',
    'BORDEREAU_SUIVI_VALIDATION',
    'ETAT_ACOMPTE',
    'FACTURE_PAIEMENT_DIRECT',
  ];
  return release === '1.4' ? [...base, 'RECAPITULATIF_COTRAITANCE'] : base;
}

/** BR-FR-23/24: characters allowed in 0225 addresses and 0224 identifiers (1.4 allows '.' instead of '/'). */
export function isValidSchemeIdFormat(value: string, release: FrRelease): boolean {
  return release === '1.4' ? /^[A-Za-z0-9+\-_.]+$/.test(value) : /^[A-Za-z0-9+\-_/]+$/.test(value);
}

/** Self-billing document types (autofacturation) named by BR-FR-21/22. */
export const SELF_BILLED_TYPES = ['389', '501', '500', '471', '473', '261', '502'];

/** Digits of a decimal lexical value, without the separator, at most 19. */
function digitsWithin19(v: string): boolean {
  return length19(v.replace(/\./g, ''));
}
function length19(s: string): boolean {
  return s.length <= 19;
}

/** BR-FR-DEC-01: amount, optional '-', at most 2 decimals, 19 digits. */
export function isDecimal19x2(v: string): boolean {
  return /^-?\d{1,19}(\.\d{1,2})?$/.test(v) && digitsWithin19(v);
}
/** BR-FR-DEC-02: quantity, optional '-', at most 4 decimals, 19 digits. */
export function isDecimal19x4(v: string): boolean {
  return /^-?\d{1,19}(\.\d{1,4})?$/.test(v) && digitsWithin19(v);
}
/** BR-FR-DEC-03: unit price without sign, at most 6 decimals, 19 digits. */
export function isDecimal19x6Positive(v: string): boolean {
  return /^\d{1,19}(\.\d{1,6})?$/.test(v) && digitsWithin19(v);
}
/** BR-FR-DEC-03 (1.4, bidirectional frameworks): unit price, sign allowed. */
export function isDecimal19x6(v: string): boolean {
  return /^-?\d{1,19}(\.\d{1,6})?$/.test(v) && digitsWithin19(v);
}
/** BR-FR-DEC-04: VAT rate without sign, at most 2 decimals, 4 digits. */
export function isPercent4x2(v: string): boolean {
  return /^\d{1,4}(\.\d{1,2})?$/.test(v) && v.replace(/\./g, '').length <= 4;
}

/** XPath number() of a lexical value as a decimal; undefined where XPath gives NaN (absent, not a number). */
export function num(v: string | undefined): BigValue | undefined {
  if (v === undefined) return undefined;
  // Bounded in length and exponent (safeNumber): "1e999999999" would have big.js allocate a billion digits.
  return safeNumber(v.trim());
}

/** XPath `number(a) = number(b)`: false when either is NaN. */
export function numEq(a: string | undefined, b: string | undefined): boolean {
  const x = num(a);
  const y = num(b);
  return x !== undefined && y !== undefined && x.eq(y);
}

/** Frameworks of the multi-vendor (S8/B8/M8) and bidirectional (S9/B9/M9) invoices of release 1.4. */
export const MULTI_VENDOR = ['S8', 'B8', 'M8'];
export const BIDIRECTIONAL = ['S9', 'B9', 'M9'];
