/**
 * What every view of the render model shares (the HTML view ./html.ts, the PDF view ./pdf.ts): handing a group's items
 * out once each (Picker), the layout tables of addresses, parties and lines, the document's title, the line that says
 * where the invoice came from, and a value's display text.
 */
import { codeMeaning } from './codes.js';
import { base64Payload, formatBytes, formatDate, formatDecimal, percentSuffix } from './format.js';
import { pageText, type Lang } from './labels.js';
import type { RenderGroup, RenderItem, RenderModel, RenderTerm } from './model.js';

/** The items of a group, handed out once each: what a layout does not take is drawn by rest(). */
export class Picker {
  private readonly used = new Set<RenderItem>();
  constructor(readonly group: RenderGroup) {}

  term(bt: string): RenderTerm | undefined {
    for (const it of this.group.items) {
      if (it.type === 'term' && it.bt === bt && !this.used.has(it)) {
        this.used.add(it);
        return it;
      }
    }
    return undefined;
  }

  terms(bt: string): RenderTerm[] {
    const out: RenderTerm[] = [];
    for (let t = this.term(bt); t; t = this.term(bt)) out.push(t);
    return out;
  }

  groups(bg: string): RenderGroup[] {
    const out: RenderGroup[] = [];
    for (const it of this.group.items) {
      if (it.type === 'group' && it.bg === bg && !this.used.has(it)) {
        this.used.add(it);
        out.push(it);
      }
    }
    return out;
  }

  rest(): RenderItem[] {
    const out = this.group.items.filter((it) => !this.used.has(it));
    for (const it of out) this.used.add(it);
    return out;
  }
}

/** BT-29-1 after BT-29: the scheme (and scheme version) of an identifier, drawn beside it. */
export const isQualifierOf = (q: RenderItem | undefined, t: RenderTerm): q is RenderTerm =>
  q !== undefined && q.type === 'term' && (q.bt === `${t.bt}-1` || q.bt === `${t.bt}-2`);

/** The address term ids of each address group, in model order: line 1, 2, 3, city, postcode, subdivision, country. */
export const ADDRESS_IDS: Record<string, string[]> = {
  'BG-5': ['BT-35', 'BT-36', 'BT-162', 'BT-37', 'BT-38', 'BT-39', 'BT-40'],
  'BG-8': ['BT-50', 'BT-51', 'BT-163', 'BT-52', 'BT-53', 'BT-54', 'BT-55'],
  'BG-12': ['BT-64', 'BT-65', 'BT-164', 'BT-66', 'BT-67', 'BT-68', 'BT-69'],
  'BG-15': ['BT-75', 'BT-76', 'BT-165', 'BT-77', 'BT-78', 'BT-79', 'BT-80'],
};

/** The address groups, in the order a party card draws them. */
export const ADDRESS_GROUPS = Object.keys(ADDRESS_IDS);

/** An address group's term id at a position (line 1–3 are 0–2), '' when the group is not an address. */
export function addressTermId(g: RenderGroup, what: 0 | 1 | 2 | 'city' | 'postcode' | 'sub' | 'country'): string {
  const i = typeof what === 'number' ? what : { city: 3, postcode: 4, sub: 5, country: 6 }[what];
  return ADDRESS_IDS[g.bg]?.[i] ?? '';
}

/** Name and trading name ids of each party group. */
export const PARTY_NAMES: Record<string, [string, string]> = {
  'BG-4': ['BT-27', 'BT-28'],
  'BG-7': ['BT-44', 'BT-45'],
  'BG-10': ['BT-59', ''],
  'BG-11': ['BT-62', ''],
  'BG-13': ['BT-70', ''],
};

/** The group ids inside a line (BG-25) and inside a sub-line (BG-DEX-01, XRechnung's numbering). */
export const LINE_IDS = {
  main: { line: 'BG-25', period: 'BG-26', allowance: 'BG-27', charge: 'BG-28', price: 'BG-29', vat: 'BG-30', item: 'BG-31', attr: 'BG-32' },
  sub: {
    line: 'BG-DEX-01',
    period: 'BG-DEX-05',
    allowance: 'BG-DEX-03',
    charge: 'BG-DEX-04',
    price: 'BG-DEX-07',
    vat: 'BG-DEX-06',
    item: 'BG-DEX-02',
    attr: 'BG-DEX-08',
  },
};

/** A line's and a document's allowance / charge term ids: amount, base, percentage, reason, reason code (+ VAT). */
export const LINE_ALLOWANCE_IDS = ['BT-136', 'BT-137', 'BT-138', 'BT-139', 'BT-140'];
export const LINE_CHARGE_IDS = ['BT-141', 'BT-142', 'BT-143', 'BT-144', 'BT-145'];
/** amount, base, percentage, VAT category, VAT rate, reason, reason code */
export const DOC_ALLOWANCE_IDS = ['BT-92', 'BT-93', 'BT-94', 'BT-95', 'BT-96', 'BT-97', 'BT-98'];
export const DOC_CHARGE_IDS = ['BT-99', 'BT-100', 'BT-101', 'BT-102', 'BT-103', 'BT-104', 'BT-105'];

const CREDIT_TYPES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '458', '532']);
const TITLED_TYPES = new Set(['326', '384', '386', '389', '875', '876', '877']);

/** "Invoice", "Credit note", or the document type's name where it says more (corrected, self-billed, ...). */
export function documentTitle(model: RenderModel, lang: Lang): string {
  const type = model.typeCode?.trim();
  if (model.kind === 'credit-note' || (type && CREDIT_TYPES.has(type))) return pageText('creditNote', lang);
  if (type && TITLED_TYPES.has(type)) return codeMeaning('invoiceType', type, lang) ?? pageText('invoice', lang);
  return pageText('invoice', lang);
}

const FORMAT_NAMES: Record<string, string> = { 'factur-x': 'Factur-X', zugferd: 'ZUGFeRD', xrechnung: 'XRechnung', ubl: 'UBL' };
const PROFILE_NAMES: Record<string, string> = {
  minimum: 'MINIMUM',
  basic_wl: 'BASIC WL',
  basic: 'BASIC',
  en16931: 'EN 16931',
  extended: 'EXTENDED',
  xrechnung: 'XRechnung',
};

/** Where the invoice came from, e.g. "Factur-X · MINIMUM · CII · from the PDF attachment factur-x.xml"; '' without a source. */
export function sourceText(model: RenderModel, lang: Lang): string {
  const s = model.source;
  if (!s) return '';
  return [
    s.format ? (FORMAT_NAMES[s.format] ?? s.format) : undefined,
    s.profile ? (PROFILE_NAMES[s.profile] ?? s.profile) : undefined,
    s.syntax ? { cii: 'CII', ubl: 'UBL', zugferd1: 'ZUGFeRD 1.0' }[s.syntax] : undefined,
    s.container === 'pdf' ? `${pageText('fromPdf', lang)}${s.attachmentName ? ` ${s.attachmentName}` : ''}` : undefined,
  ]
    .filter((x): x is string => Boolean(x))
    .join(' · ');
}

/** A value's display text and whether it was read as its kind (a date or decimal that is not one is shown as written). */
export interface ValueText {
  text: string;
  /** The raw value is not of its kind (not a date, not a decimal, not Base64): shown as written, marked. */
  bad?: boolean;
  /** kind 'code': the code itself, when a meaning is shown beside it. */
  code?: string;
}

/**
 * The text a view shows for a value: dates in the language's order, decimals grouped with the language's separators
 * (money padded to two decimals, quantities and percentages without trailing zeros), codes with their meaning, an
 * attachment as its name and size. Text views (the PDF) draw this; the HTML view marks the same up.
 */
export function valueText(t: RenderTerm, lang: Lang): ValueText {
  const raw = t.raw;
  switch (t.kind) {
    case 'date': {
      const shown = formatDate(raw, lang);
      return shown === undefined ? { text: raw, bad: true } : { text: shown };
    }
    case 'amount':
    case 'price':
    case 'quantity':
    case 'percent': {
      const trim = t.kind === 'quantity' || t.kind === 'percent';
      const shown = formatDecimal(raw, lang, trim, trim ? 0 : 2);
      if (shown === undefined) return { text: raw, bad: true };
      return { text: t.kind === 'percent' ? shown + percentSuffix(lang) : shown };
    }
    case 'code': {
      const meaning = t.list ? codeMeaning(t.list, raw, lang) : undefined;
      return meaning === undefined ? { text: raw } : { text: meaning, code: raw };
    }
    case 'binary': {
      const payload = base64Payload(raw);
      if (!payload) return { text: pageText('notBase64', lang), bad: true };
      const size = formatBytes(payload.bytes, lang, pageText('bytes', lang));
      return { text: t.filename ? `${t.filename} (${size})` : size };
    }
    default:
      return { text: raw };
  }
}
