/**
 * Shape validation of the invoice metadata: JSON Schema first (TypeBox, every error at once), then the
 * conditional requirements of EN 16931 and of the chosen profile (XRechnung's BR-DE-*, VAT category rules).
 * Every problem becomes a FastAPI-style item whose `loc` starts with ['body', 'metadata'].
 */
import { billingModes } from '../rules/br-fr/checks.js';
import { isMultiVendor } from './multi-vendor.js';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Big, parseDec } from '../model/decimal.js';
import { codeSet } from '../rules/data/codelists.js';
import { jsonTooDeep, jsonTooDeepMessage, valueTooDeep } from '../util/json-limits.js';

const ZERO = new Big('0');
import { MetadataNotJsonError, MetadataShapeError, type ShapeErrorItem } from './errors.js';
import { InvoiceMetadataSchema, UBL_PROFILE_VALUES, type InvoiceMetadata, type MetadataProfile } from './schema.js';
import { CREDIT_NOTE_TYPE_CODES } from '../model/profiles.js';
import { parseJsonKeepingNumbers, resolveNumbers } from './json-numbers.js';
import { fromBusinessReady } from './business-ready-input.js';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

let compiled: ValidateFunction | undefined;
/** The schema validator, compiled on first use (start-up stays fast; the first request pays ~ms once). */
function checker(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    compiled = ajv.compile(InvoiceMetadataSchema);
  }
  return compiled;
}
const ROOT = ['body', 'metadata'] as const;
/** Longest string input echoed in a 422 item; longer ones are cut to their start and length. */
const MAX_ECHOED_INPUT = 256;

/** Parse the `metadata` form field: JSON text → validated metadata object. */
export function parseMetadata(textOrValue: string | unknown): InvoiceMetadata {
  // Depth before anything walks it: the clean-up and schema checks below recurse (limit: json-limits.ts).
  if (typeof textOrValue !== 'string') {
    if (valueTooDeep(textOrValue)) throw new MetadataNotJsonError(jsonTooDeepMessage('The metadata'), 'JSON_TOO_DEEP');
    return validateMetadata(textOrValue);
  }
  // Numbers keep their digits as written (./json-numbers.ts); resolved against the schema in validateMetadata.
  const value = parseMetadataText(textOrValue);
  // Freshly parsed, so ours to clean in place.
  return validateMetadata(value, true);
}

/**
 * A parsed metadata value made plain: a serialized invoice mapped onto metadata (./business-ready-input.ts) and
 * JSON numbers resolved to decimal strings. Idempotent; the result is safe to hand to a worker thread.
 */
export function plainMetadataValue(value: unknown): unknown {
  return resolveNumbers(fromBusinessReady(value).value, InvoiceMetadataSchema as unknown as Record<string, unknown>);
}

/** JSON text → plain metadata value (numbers kept as written), depth bounded first. Not validated. */
export function parseMetadataText(text: string): unknown {
  if (jsonTooDeep(text)) throw new MetadataNotJsonError(jsonTooDeepMessage('The metadata JSON'), 'JSON_TOO_DEEP');
  try {
    return parseJsonKeepingNumbers(text);
  } catch (err) {
    throw new MetadataNotJsonError(`metadata is not valid JSON: ${(err as Error).message}`);
  }
}

/** Validate an already parsed value; throws MetadataShapeError listing every problem. The value is not changed unless `owned`. */
export function validateMetadata(value: unknown, owned = false): InvoiceMetadata {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MetadataShapeError([
      { loc: [...ROOT], msg: 'Input should be a JSON object with the invoice metadata', type: 'model_type', input: value },
    ]);
  }
  // A serialized invoice sent back (BusinessReadyInvoice, or the whole SerializationResponse) becomes metadata.
  const resolved = plainMetadataValue(value);
  // Parsed here (owned): every object reachable is ours, copies made on the way included.
  const cleaned = (owned ? dropNullsInPlace(resolved) : dropNulls(resolved)) as Record<string, unknown>;
  // BusinessReadyInvoice names the XRechnung profile `xrechnung_3.0`: accept it as an alias.
  if (cleaned.profile === 'xrechnung_3.0') cleaned.profile = 'xrechnung';
  const controls = controlCharacterErrors(cleaned);
  if (!checker()(cleaned)) {
    throw new MetadataShapeError([...controls, ...tagBlankInvoiceNumber(schemaErrors(cleaned))]);
  }
  if (controls.length) throw new MetadataShapeError(controls);
  const meta = cleaned as InvoiceMetadata;
  const items = semanticErrors(meta);
  if (items.length) throw new MetadataShapeError(items);
  return meta;
}

/** C0 control characters other than tab, LF and CR: XML 1.0 cannot carry them (#17). */
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

/** Every string value holding a control character, as a 422 item naming its field. */
function controlCharacterErrors(value: unknown): ShapeErrorItem[] {
  const items: ShapeErrorItem[] = [];
  const visit = (v: unknown, loc: (string | number)[]): void => {
    if (typeof v === 'string') {
      const m = CONTROL_CHARS.exec(v);
      if (m) {
        const code = `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
        items.push({
          loc: [...ROOT, ...loc],
          msg: `String must not contain control characters (found ${code} at position ${m.index}); only tab, line feed and carriage return are allowed`,
          type: 'string_control_character',
          input: v.length > MAX_ECHOED_INPUT ? `${v.slice(0, 32)}... (${v.length} characters)` : v,
          ctx: { character: code, position: m.index },
        });
      }
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) visit(v[i], [...loc, i]);
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) visit((v as Record<string, unknown>)[k], [...loc, k]);
    }
  };
  visit(value, []);
  return items;
}

/** The API contract's rule id for an empty invoice number (BT-1), named in the 422 item's ctx. */
const BT1_FORMAT = { rule_id: 'BT-1-FORMAT' } as const;

/** An empty invoice_number fails the schema (minLength 1): say which contract rule it breaks. */
function tagBlankInvoiceNumber(items: ShapeErrorItem[]): ShapeErrorItem[] {
  for (const item of items) {
    if (item.loc.length === ROOT.length + 1 && item.loc[ROOT.length] === 'invoice_number' && item.type === 'string_too_short') {
      item.ctx = { ...item.ctx, ...BT1_FORMAT };
    }
  }
  return items;
}

/** Null members count as absent (the API's BusinessReadyInvoice writes null for absent values). */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
    return out;
  }
  return value;
}

function dropNullsInPlace(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = dropNullsInPlace(value[i]);
  } else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const k in obj) {
      const v = obj[k];
      if (v === null) delete obj[k];
      else if (typeof v === 'object') dropNullsInPlace(v);
    }
  }
  return value;
}

// ---- JSON Schema errors → FastAPI items ----------------------------------------------------------------------

interface TypeBoxError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message: string;
}

const PATTERN_MESSAGES: Record<string, string> = {
  '^[+-]?[0-9]+(\\.[0-9]{1,2})?$': 'Input should be a decimal string with at most 2 decimals, e.g. "119.00"',
  '^[0-9]+(\\.[0-9]+)?$': 'Input should be a non-negative decimal string, e.g. "12.50"',
  '^[+-]?[0-9]+(\\.[0-9]+)?$': 'Input should be a decimal string, e.g. "2" or "-1.5"',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': 'Input should be a date YYYY-MM-DD',
  '^[A-Z]{2}$': 'Input should be an ISO 3166-1 alpha-2 country code, e.g. "DE"',
  '^[A-Z]{3}$': 'Input should be an ISO 4217 currency code, e.g. "EUR"',
  '^[A-Z0-9]{1,3}$': 'Input should be a UN/ECE Rec 20 unit code, e.g. "C62" or "HUR"',
  '^[A-Za-z0-9+/]+={0,2}$': 'Input should be base64 (RFC 4648 alphabet, no line breaks)',
};

/** ajv names one missing/extra property per error; the mapping below reads lists (as TypeBox reports them). */
function normalizeError(e: ErrorObject): TypeBoxError {
  const params = { ...(e.params as Record<string, unknown>) };
  if (e.keyword === 'required') params.requiredProperties = [params.missingProperty];
  if (e.keyword === 'additionalProperties') params.additionalProperties = [params.additionalProperty];
  return { keyword: e.keyword, instancePath: e.instancePath, schemaPath: e.schemaPath, params, message: e.message ?? 'Invalid value' };
}

function pointerToLoc(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((seg) => (/^(0|[1-9][0-9]*)$/.test(seg) ? Number(seg) : seg));
}

function valueAt(root: unknown, loc: (string | number)[]): unknown {
  let cur: unknown = root;
  for (const key of loc) {
    if (cur == null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

function schemaErrors(value: unknown): ShapeErrorItem[] {
  const items: ShapeErrorItem[] = [];
  const seen = new Set<string>();
  const push = (item: ShapeErrorItem) => {
    const key = `${item.loc.join('\u0000')}|${item.type}`;
    if (seen.has(key)) return;
    seen.add(key);
    // A 422 never echoes a huge value back (a report stays proportionate): long inputs are cut.
    if (typeof item.input === 'string' && item.input.length > MAX_ECHOED_INPUT) {
      item.input = `${item.input.slice(0, 32)}... (${item.input.length} characters)`;
    }
    items.push(item);
  };
  for (const raw of (checker().errors ?? []).map(normalizeError)) {
    const base = pointerToLoc(raw.instancePath);
    const input = valueAt(value, base);
    switch (raw.keyword) {
      case 'required':
        for (const prop of (raw.params.requiredProperties as string[]) ?? []) {
          push({ loc: [...ROOT, ...base, prop], msg: 'Field required', type: 'missing' });
        }
        break;
      case 'additionalProperties':
        for (const prop of (raw.params.additionalProperties as string[]) ?? []) {
          push({
            loc: [...ROOT, ...base, prop],
            msg: 'Extra inputs are not permitted',
            type: 'extra_forbidden',
            input: valueAt(value, [...base, prop]),
          });
        }
        break;
      case 'boolean': // the `false` schema behind additionalProperties: reported above
        break;
      case 'type': {
        const t = String(raw.params.type);
        const [type, msg] =
          t === 'string,number'
            ? ['string_type', 'Input should be a decimal string or a JSON number']
            : t === 'string'
              ? ['string_type', 'Input should be a valid string']
              : t === 'object'
                ? ['model_type', 'Input should be an object']
                : t === 'array'
                  ? ['list_type', 'Input should be a valid list']
                  : [`${t}_type`, `Input should be of type ${t}`];
        push({ loc: [...ROOT, ...base], msg, type, input });
        break;
      }
      case 'pattern': {
        const pattern = String(raw.params.pattern);
        push({
          loc: [...ROOT, ...base],
          msg: PATTERN_MESSAGES[pattern] ?? `String should match pattern '${pattern}'`,
          type: 'string_pattern_mismatch',
          input,
          ctx: { pattern },
        });
        break;
      }
      case 'maxLength': {
        // Names the limit; the over-long input is not echoed back (it can be 100,000 characters).
        const limit = Number(raw.params.limit);
        push({
          loc: [...ROOT, ...base],
          msg: `String should have at most ${limit} characters (a number is at most ${limit} characters long: limit MAX_DECIMAL_LENGTH)`,
          type: 'string_too_long',
          input,
          ctx: { max_length: limit },
        });
        break;
      }
      case 'minLength':
        push({
          loc: [...ROOT, ...base],
          msg: 'String should have at least 1 character',
          type: 'string_too_short',
          input,
          ctx: { min_length: 1 },
        });
        break;
      case 'enum': {
        const allowed = (raw.params.allowedValues as unknown[]) ?? [];
        const shown =
          allowed.length > 12
            ? `${allowed
                .slice(0, 12)
                .map((a) => `'${a}'`)
                .join(', ')}, ...`
            : allowed.map((a) => `'${a}'`).join(', ');
        push({ loc: [...ROOT, ...base], msg: `Input should be one of ${shown}`, type: 'enum', input, ctx: { expected: allowed } });
        break;
      }
      case 'format':
        // `date`: a valid lexical form (else the pattern reports it) but no such calendar day.
        push({ loc: [...ROOT, ...base], msg: 'Input should be a valid calendar date', type: 'date_parsing', input });
        break;
      default:
        push({ loc: [...ROOT, ...base], msg: raw.message, type: raw.keyword, input });
    }
  }
  const patternAt = new Set(items.filter((i) => i.type === 'string_pattern_mismatch').map((i) => i.loc.join('\u0000')));
  const out = items.filter((i) => i.type !== 'date_parsing' || !patternAt.has(i.loc.join('\u0000')));
  if (out.length === 0) out.push({ loc: [...ROOT], msg: 'Invalid invoice metadata', type: 'value_error' });
  return out;
}

// ---- conditional requirements ----------------------------------------------------------------------------

type Loc = (string | number)[];

const ZERO_RATE_CATEGORIES = new Set(['Z', 'E', 'AE', 'K', 'G']);
/** Categories whose VAT breakdown needs an exemption reason (text or VATEX code). */
export const EXEMPT_CATEGORIES = new Set(['E', 'AE', 'K', 'G', 'O']);

function isRealDate(iso: string): boolean {
  const [y, m, d] = iso.split('-').map(Number);
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

/** Paths of all date strings in the metadata (for the calendar check). */
function* dateFields(meta: InvoiceMetadata): Generator<[Loc, string]> {
  yield [['invoice_date'], meta.invoice_date];
  if (meta.due_date) yield [['due_date'], meta.due_date];
  if (meta.tax_point_date) yield [['tax_point_date'], meta.tax_point_date];
  if (meta.delivery?.date) yield [['delivery', 'date'], meta.delivery.date];
  if (meta.invoice_period?.start) yield [['invoice_period', 'start'], meta.invoice_period.start];
  if (meta.invoice_period?.end) yield [['invoice_period', 'end'], meta.invoice_period.end];
  for (const [i, p] of (meta.preceding_invoices ?? []).entries()) if (p.date) yield [['preceding_invoices', i, 'date'], p.date];
  for (const [i, l] of (meta.line_items ?? []).entries()) {
    if (l.period?.start) yield [['line_items', i, 'period', 'start'], l.period.start];
    if (l.period?.end) yield [['line_items', i, 'period', 'end'], l.period.end];
  }
}

export function profileOf(meta: InvoiceMetadata): MetadataProfile {
  return meta.profile ?? 'en16931';
}

/** Categories used anywhere in the invoice (lines, document allowances/charges, given breakdown). */
export function usedCategories(meta: InvoiceMetadata): Set<string> {
  const cats = new Set<string>();
  for (const l of meta.line_items ?? []) cats.add(l.vat_category ?? 'S');
  for (const ac of [...(meta.allowances ?? []), ...(meta.charges ?? [])]) if (ac.vat_category) cats.add(ac.vat_category);
  for (const t of meta.tax_breakdown ?? []) cats.add(t.category);
  return cats;
}

function semanticErrors(meta: InvoiceMetadata): ShapeErrorItem[] {
  const items: ShapeErrorItem[] = [];
  const add = (loc: Loc, msg: string, type = 'value_error', input?: unknown) =>
    items.push({ loc: [...ROOT, ...loc], msg, type, ...(input !== undefined ? { input } : {}) });
  const missing = (loc: Loc, why: string) => add(loc, `Field required: ${why}`, 'missing');

  for (const [loc, value] of dateFields(meta))
    if (!isRealDate(value)) add(loc, 'Input should be a valid calendar date', 'date_parsing', value);
  if (meta.invoice_number.trim() === '') {
    items.push({
      loc: [...ROOT, 'invoice_number'],
      msg: 'The invoice number must not be empty or whitespace only (BT-1-FORMAT)',
      type: 'value_error',
      input: meta.invoice_number,
      ctx: { ...BT1_FORMAT },
    });
  }

  const profile = profileOf(meta);
  const lines = meta.line_items ?? [];
  const en16931Family = profile !== 'minimum' && profile !== 'basic_wl';

  // Lines: basic and above must carry them (BR-16); minimum / basic_wl may give totals instead.
  if (lines.length === 0) {
    if (en16931Family) {
      missing(['line_items'], `profile ${profile} needs at least one invoice line (BR-16)`);
    } else {
      const breakdownHasAmounts =
        (meta.tax_breakdown ?? []).length > 0 && (meta.tax_breakdown ?? []).every((t) => t.basis_amount && t.tax_amount);
      if (profile === 'basic_wl' && !breakdownHasAmounts) {
        missing(['tax_breakdown'], 'without line_items, basic_wl needs the VAT breakdown with basis_amount and tax_amount');
      }
      if (profile === 'minimum' && !breakdownHasAmounts) {
        if (!meta.total_net_amount) missing(['total_net_amount'], 'without line_items, give the totals');
        if (!meta.total_tax_amount) missing(['total_tax_amount'], 'without line_items, give the totals');
      }
    }
  }

  // Addresses: BG-5 seller address with country (BR-08/BR-09); BG-8 buyer address (BR-10) except in MINIMUM.
  if (!meta.seller.address) missing(['seller', 'address'], 'the seller postal address with country_code (BR-08)');
  if (!meta.buyer.address && profile !== 'minimum') missing(['buyer', 'address'], 'the buyer postal address with country_code (BR-10)');

  // Lines: price, rate by category.
  for (const [i, l] of lines.entries()) {
    const cat = l.vat_category ?? 'S';
    if (l.net_price === undefined && l.gross_price === undefined) missing(['line_items', i, 'net_price'], 'net_price or gross_price');
    checkRate(['line_items', i], cat, l.vat_rate, add, missing);
    if (l.price_base_quantity !== undefined && !(parseDec(l.price_base_quantity)?.gt(ZERO) ?? false)) {
      add(['line_items', i, 'price_base_quantity'], 'price_base_quantity must be greater than zero', 'greater_than', l.price_base_quantity);
    }
    for (const kind of ['allowances', 'charges'] as const) {
      for (const [j, ac] of (l[kind] ?? []).entries()) checkAllowanceCharge(['line_items', i, kind, j], ac, add, missing);
    }
  }

  // Document allowances/charges: amount or base × percentage; category defaults only when the lines use exactly one.
  const lineCatRates = new Set(lines.map((l) => `${l.vat_category ?? 'S'}|${l.vat_rate ?? ''}`));
  for (const kind of ['allowances', 'charges'] as const) {
    for (const [j, ac] of (meta[kind] ?? []).entries()) {
      checkAllowanceCharge([kind, j], ac, add, missing);
      // Without lines there is no line total for a percentage to apply to.
      if (lines.length === 0 && !ac.amount && !ac.base_amount)
        missing([kind, j, 'base_amount'], 'without line_items, a percentage needs its base_amount');
      if (!ac.vat_category && lineCatRates.size !== 1) {
        missing([kind, j, 'vat_category'], 'the invoice lines use several VAT categories/rates, so say which one this applies to');
      } else if (ac.vat_category) {
        checkRate([kind, j], ac.vat_category, ac.vat_rate, add, missing, 'vat_rate');
      }
    }
  }

  // Breakdown entries given by the caller.
  for (const [k, t] of (meta.tax_breakdown ?? []).entries()) {
    checkRate(['tax_breakdown', k], t.category, t.rate, add, missing, 'rate');
    if (!EXEMPT_CATEGORIES.has(t.category) && (t.exemption_reason || t.exemption_reason_code)) {
      add(
        ['tax_breakdown', k, t.exemption_reason ? 'exemption_reason' : 'exemption_reason_code'],
        `VAT category ${t.category} takes no exemption reason (BR-${t.category}-10)`,
      );
    }
  }

  // VAT categories: party VAT ids and exemption reasons (EN 16931 BR-<cat>-*).
  const cats = usedCategories(meta);
  const sellerVat = !!meta.seller.vat_number || !!meta.tax_representative?.vat_number;
  if (profile !== 'minimum') {
    for (const cat of cats) {
      if (['S', 'Z', 'E', 'L', 'M'].includes(cat) && !sellerVat && !meta.seller.tax_number) {
        missing(
          ['seller', 'vat_number'],
          `VAT category ${cat} needs the seller VAT id, tax number or a tax representative (BR-${cat === 'L' ? 'AF' : cat === 'M' ? 'AG' : cat}-02)`,
        );
      }
      if (['AE', 'K', 'G'].includes(cat) && !sellerVat) {
        missing(
          ['seller', 'vat_number'],
          `VAT category ${cat} needs the seller VAT id or a tax representative (BR-${cat === 'K' ? 'IC' : cat}-02)`,
        );
      }
      if (cat === 'K' && !meta.buyer.vat_number)
        missing(['buyer', 'vat_number'], 'intra-community supply (K) needs the buyer VAT id (BR-IC-02)');
      if (cat === 'AE' && !meta.buyer.vat_number && !meta.buyer.registration_id) {
        missing(['buyer', 'vat_number'], 'reverse charge (AE) needs the buyer VAT id or legal registration id (BR-AE-02)');
      }
      if (cat === 'K' && !meta.delivery?.date && !meta.invoice_period?.start && !meta.invoice_period?.end) {
        missing(['delivery', 'date'], 'intra-community supply (K) needs the delivery date or the invoicing period (BR-IC-11)');
      }
      if (cat === 'K' && !meta.delivery?.address?.country_code) {
        missing(['delivery', 'address'], 'intra-community supply (K) needs the deliver-to address with country_code (BR-IC-12)');
      }
      if (cat === 'E' && !(meta.tax_breakdown ?? []).some((t) => t.category === 'E' && (t.exemption_reason || t.exemption_reason_code))) {
        missing(
          ['tax_breakdown'],
          'VAT category E needs an exemption reason: add {"category":"E","rate":"0","exemption_reason":"..."} (BR-E-10)',
        );
      }
    }
    if (cats.has('O')) {
      if (cats.size > 1) add(['line_items'], 'VAT category O (not subject to VAT) cannot be mixed with other categories (BR-O-11..14)');
      if (meta.seller.vat_number)
        add(
          ['seller', 'vat_number'],
          'an invoice with VAT category O must not carry the seller VAT id (BR-O-02)',
          'value_error',
          meta.seller.vat_number,
        );
      if (meta.buyer.vat_number)
        add(
          ['buyer', 'vat_number'],
          'an invoice with VAT category O must not carry the buyer VAT id (BR-O-02)',
          'value_error',
          meta.buyer.vat_number,
        );
      if (meta.tax_representative)
        add(['tax_representative'], 'an invoice with VAT category O must not carry a tax representative (BR-O-02)');
    }
  }

  // Payment instructions: the account, card or mandate that the means code implies (BR-50, BR-61, BR-DE-23..25, BR-DE-30/31).
  const pay = meta.payment;
  if (pay) {
    for (const [i, ct] of (pay.credit_transfers ?? []).entries()) {
      if (!ct.iban && !ct.account_id)
        missing(['payment', 'credit_transfers', i, 'iban'], 'an account (iban or account_id) for each credit transfer (BR-50)');
      if (ct.iban && ct.account_id) add(['payment', 'credit_transfers', i, 'account_id'], 'give either iban or account_id, not both');
    }
    if ((pay.means_code === '30' || pay.means_code === '58') && !(pay.credit_transfers ?? []).length && profile !== 'minimum') {
      missing(['payment', 'credit_transfers'], `payment means ${pay.means_code} (credit transfer) needs the account to pay to (BR-61)`);
    }
    if (pay.means_code === '59' && !pay.direct_debit && profile !== 'minimum') {
      missing(['payment', 'direct_debit'], 'payment means 59 (SEPA direct debit) needs mandate_reference, creditor_id and debited_account');
    }
  }
  if (meta.tax_currency && !meta.tax_total_in_tax_currency)
    missing(['tax_total_in_tax_currency'], 'tax_currency is given, so give the VAT total in that currency (BR-53)');
  if (meta.tax_currency && meta.tax_currency === (meta.currency ?? 'EUR'))
    add(['tax_currency'], 'tax_currency must differ from the invoice currency', 'value_error', meta.tax_currency);

  codeListErrors(meta, add);
  otherRuleErrors(meta, add, missing);
  if (profile === 'xrechnung') xrechnungErrors(meta, add, missing);
  syntaxErrors(meta, add);
  if (profile === 'peppol') peppolErrors(meta, add, missing);
  if (profile === 'extended_ctc_fr') frenchExtendedErrors(meta, add, missing);
  subLineErrors(meta, add);
  if ((profile === 'extended' || profile === 'extended_ctc_fr') && isMultiVendor(meta.business_process))
    multiVendorErrors(meta, add, missing);
  return items;
}

/** The output syntax a profile is written in: UBL for the UBL targets, CII for the Factur-X profiles (and by default). */
function syntaxErrors(meta: InvoiceMetadata, add: (loc: Loc, msg: string, type?: string, input?: unknown) => void): void {
  const profile = profileOf(meta);
  if (meta.syntax === 'ubl' && !(UBL_PROFILE_VALUES as readonly string[]).includes(profile)) {
    add(
      ['syntax'],
      `profile ${profile} is ${profile === 'extended_ctc_fr' ? 'a French CII profile' : 'a Factur-X profile'}, written as CII only; with syntax ubl use profile en16931, xrechnung or peppol`,
      'value_error',
      meta.syntax,
    );
  }
  if (meta.syntax === 'cii' && profile === 'peppol') {
    add(['syntax'], 'Peppol BIS Billing 3.0 is written as UBL: leave syntax out or set it to ubl', 'value_error', meta.syntax);
  }
}

/** BT-23 of a Peppol BIS Billing 3.0 document: urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0 (PEPPOL-EN16931-R007). */
const PEPPOL_PROCESS = /^urn:fdc:peppol\.eu:2017:poacc:billing:([0-9]{2}):1\.0$/;
/** Type codes Peppol BIS Billing 3.0 allows in the billing process 01 (PEPPOL-EN16931-P0100 invoices, P0101 credit notes). */
const PEPPOL_INVOICE_TYPES = new Set(
  '71 80 82 84 102 218 219 326 331 380 382 383 384 386 388 393 395 553 575 623 780 817 870 875 876 877'.split(' '),
);
const PEPPOL_CREDIT_NOTE_TYPES = new Set(['381', '396', '81', '83', '532']);

/**
 * What Peppol BIS Billing 3.0 requires beyond EN 16931 that the metadata alone decides (the Peppol rules' ids in the
 * messages); code lists and identifier check digits are left to the validator's peppol-bis-3 rule set.
 */
function peppolErrors(
  meta: InvoiceMetadata,
  add: (loc: Loc, msg: string, type?: string, input?: unknown) => void,
  missing: (loc: Loc, why: string) => void,
): void {
  if (!meta.seller.electronic_address)
    missing(
      ['seller', 'electronic_address'],
      'Peppol needs the seller electronic address, e.g. {"id":"4000001123452","scheme":"0088"} (PEPPOL-EN16931-R020)',
    );
  if (!meta.buyer.electronic_address)
    missing(['buyer', 'electronic_address'], 'Peppol needs the buyer electronic address (PEPPOL-EN16931-R010)');
  const germans = meta.seller.address?.country_code === 'DE' && meta.buyer.address?.country_code === 'DE';
  // Between German parties Peppol applies the German rules (DE-R-*, XRechnung's BR-DE-* by number); the buyer
  // reference is then required outright (DE-R-015), not only as an alternative to the order reference (R003).
  if (germans) germanErrors(meta, add, missing, 'Peppol between German parties', (n) => `DE-R-${String(n).padStart(3, '0')}`);
  else if (!meta.buyer_reference && !meta.purchase_order_reference)
    missing(['buyer_reference'], 'Peppol needs the buyer reference or the purchase order reference (PEPPOL-EN16931-R003)');
  if ((meta.notes ?? []).length > 1 && !germans)
    add(['notes'], 'Peppol allows one note unless seller and buyer are both German (PEPPOL-EN16931-R002)', 'too_long');
  const process = meta.business_process?.trim();
  const processNumber = process === undefined ? '01' : PEPPOL_PROCESS.exec(process)?.[1];
  if (process !== undefined && processNumber === undefined)
    add(
      ['business_process'],
      "Peppol's business process is urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0 (PEPPOL-EN16931-R007)",
      'value_error',
      meta.business_process,
    );
  const type = meta.document_type_code ?? '380';
  const creditNote = CREDIT_NOTE_TYPE_CODES.has(type);
  if (processNumber === '01' && !(creditNote ? PEPPOL_CREDIT_NOTE_TYPES : PEPPOL_INVOICE_TYPES).has(type))
    add(
      ['document_type_code'],
      `Peppol's billing process does not allow ${creditNote ? 'credit note' : 'invoice'} type code ${type} (PEPPOL-EN16931-${creditNote ? 'P0101' : 'P0100'})`,
      'value_error',
      type,
    );
  if ((type === '326' || type === '384') && !germans)
    add(
      ['document_type_code'],
      `Peppol allows type code ${type} only between German seller and buyer (PEPPOL-EN16931-P0112)`,
      'value_error',
      type,
    );
  // R110 / R111: line periods within the invoicing period.
  const period = meta.invoice_period;
  for (const [i, l] of (meta.line_items ?? []).entries()) {
    if (period?.start && l.period?.start && l.period.start < period.start)
      add(
        ['line_items', i, 'period', 'start'],
        'Peppol wants a line period within the invoicing period (PEPPOL-EN16931-R110)',
        'value_error',
        l.period.start,
      );
    if (period?.end && l.period?.end && l.period.end > period.end)
      add(
        ['line_items', i, 'period', 'end'],
        'Peppol wants a line period within the invoicing period (PEPPOL-EN16931-R111)',
        'value_error',
        l.period.end,
      );
  }
}

type AddIssue = (loc: Loc, msg: string, type?: string, input?: unknown) => void;
type MissingIssue = (loc: Loc, why: string) => void;

/**
 * EXTENDED-CTC-FR: the billing framework (cadre de facturation, BT-23) is one of the codes of AFNOR XP Z12-012
 * (BR-FR-08, release 1.4); when absent the writer writes M1 (src/metadata/to-model.ts).
 */
function frenchExtendedErrors(meta: InvoiceMetadata, add: AddIssue, _missing: MissingIssue): void {
  const modes = billingModes('1.4');
  if (meta.business_process !== undefined && !modes.includes(meta.business_process))
    add(['business_process'], `The billing framework (BT-23) must be one of ${modes.join(', ')} (BR-FR-08)`, 'enum', meta.business_process);
}

/** Sub-lines: a parent names another line (BR-FREXT-11), and a line with a parent states its subtype (BR-FREXT-06). */
function subLineErrors(meta: InvoiceMetadata, add: AddIssue): void {
  const lines = meta.line_items ?? [];
  const ids = lines.map((l, i) => l.id ?? String(i + 1));
  for (const [i, l] of lines.entries()) {
    if (l.parent_line_id === undefined) continue;
    if (!ids.some((id, j) => id === l.parent_line_id && j !== i))
      add(
        ['line_items', i, 'parent_line_id'],
        'parent_line_id must name another line of the invoice (BR-FREXT-11)',
        'value_error',
        l.parent_line_id,
      );
    if (l.subtype === undefined)
      add(['line_items', i, 'subtype'], 'A line with a parent_line_id must state its subtype (BR-FREXT-06)', 'missing', undefined);
  }
}

/** Self-billed document types, which a multi-vendor invoice cannot be (BR-FR-MV-13). */
const SELF_BILLED_TYPES = ['389', '261', '501', '500', '502', '471', '473'];

/**
 * Multi-vendor invoices (business_process S8, B8, M8): every line belongs to a sub-invoice, a GROUP line without parent
 * (BR-FR-MV-02, MV-06/07); a sub-invoice of another seller names that seller (name, SIREN, country: MV-03) and its own
 * number (unique: MV-12); the sub-invoice fields sit on the heads only. What the writer can fill in it does
 * (src/metadata/multi-vendor.ts).
 */
function multiVendorErrors(meta: InvoiceMetadata, add: AddIssue, missing: MissingIssue): void {
  const lines = meta.line_items ?? [];
  const ids = lines.map((l, i) => l.id ?? String(i + 1));
  const isHead = (l: (typeof lines)[number]) => l.subtype === 'GROUP' && l.parent_line_id === undefined;
  const headIndex = (i: number): number | undefined => {
    const seen = new Set<number>();
    for (let j: number | undefined = i; j !== undefined && !seen.has(j); ) {
      seen.add(j);
      const l = lines[j];
      if (l.parent_line_id === undefined) return isHead(l) ? j : undefined;
      const p = ids.indexOf(l.parent_line_id);
      j = p >= 0 ? p : undefined;
    }
    return undefined;
  };
  const why = `business_process ${meta.business_process} is a multi-vendor invoice`;
  if (!lines.some(isHead)) missing(['line_items'], `${why}: give each sub-invoice a GROUP line without parent_line_id (BR-FR-MV-02)`);
  if (SELF_BILLED_TYPES.includes(meta.document_type_code ?? '380'))
    add(['document_type_code'], `${why}, which cannot be self-billed (BR-FR-MV-13)`, 'value_error', meta.document_type_code);
  if (meta.tax_currency)
    add(
      ['tax_currency'],
      `${why}: each sub-invoice would need its VAT total in the VAT accounting currency (EXT-FR-FE-182), which the metadata cannot give`,
      'value_error',
      meta.tax_currency,
    );
  const numbers = new Map<string, number>();
  for (const [i, l] of lines.entries()) {
    if (!isHead(l)) {
      for (const k of ['sub_invoice_number', 'sub_invoice_framework'] as const)
        if (l[k] !== undefined)
          add(
            ['line_items', i, k],
            `${k} belongs on the GROUP line without parent_line_id that heads the sub-invoice`,
            'value_error',
            l[k],
          );
      const h = headIndex(i);
      if (h === undefined) {
        add(
          ['line_items', i, 'parent_line_id'],
          `${why}: every line belongs to a sub-invoice, under a GROUP line without parent_line_id (BR-FR-MV-06/07)`,
          'missing',
          l.parent_line_id,
        );
        continue;
      }
      const headId = lines[h].seller?.registration_id ?? meta.seller.registration_id;
      if (l.seller?.registration_id !== undefined && l.seller.registration_id !== headId)
        add(
          ['line_items', i, 'seller', 'registration_id'],
          `A sub-line's seller is the seller of its sub-invoice (${headId}) (BR-FR-MV-06)`,
          'value_error',
          l.seller.registration_id,
        );
      continue;
    }
    const s = l.seller;
    if (s) {
      if (s.name === undefined) missing(['line_items', i, 'seller', 'name'], 'the seller of a sub-invoice (BR-FR-MV-03)');
      if (s.registration_id === undefined)
        missing(['line_items', i, 'seller', 'registration_id'], 'the SIREN of the seller of a sub-invoice (BR-FR-MV-03)');
      if (s.country_code === undefined)
        missing(['line_items', i, 'seller', 'country_code'], 'the country of the seller of a sub-invoice (BR-FR-MV-03)');
    } else if (meta.seller.registration_id === undefined) {
      missing(['seller', 'registration_id'], `${why}: the seller's SIREN identifies its own sub-invoice (BR-FR-MV-03)`);
    }
    const own = s?.registration_id === undefined || s.registration_id === meta.seller.registration_id;
    const number = l.sub_invoice_number ?? (own ? meta.invoice_number : undefined);
    if (number === undefined) missing(['line_items', i, 'sub_invoice_number'], "the number of another seller's sub-invoice (BR-FR-MV-03)");
    else if (numbers.has(number))
      add(
        ['line_items', i, 'sub_invoice_number'],
        `sub-invoice numbers must be unique; line_items[${numbers.get(number)}] has ${number} (BR-FR-MV-12)`,
        'value_error',
        number,
      );
    else numbers.set(number, i);
    const fw = l.sub_invoice_framework;
    if (fw !== undefined && (!billingModes('1.4').includes(fw) || isMultiVendor(fw)))
      add(
        ['line_items', i, 'sub_invoice_framework'],
        'The framework of a sub-invoice is a billing framework code other than S8, B8, M8 (BR-FR-MV-03)',
        'enum',
        fw,
      );
  }
}

/** Values that must come from an EN 16931 code list (BR-CL-*), checked against the official lists. */
const codeSets = new Map<string, ReadonlySet<string>>();
function codes(rule: string): ReadonlySet<string> {
  let set = codeSets.get(rule);
  if (!set) codeSets.set(rule, (set = codeSet('en16931-cii', rule)));
  return set;
}

function codeListErrors(meta: InvoiceMetadata, add: (loc: Loc, msg: string, type?: string, input?: unknown) => void): void {
  const check = (loc: Loc, value: string | undefined, rule: string, what: string) => {
    if (value === undefined) return;
    if (!codes(rule).has(value)) add(loc, `${what} '${value}' is not in the code list (${rule})`, 'enum', value);
  };
  check(['currency'], meta.currency, 'BR-CL-04', 'Currency');
  check(['tax_currency'], meta.tax_currency, 'BR-CL-05', 'Currency');
  const address = (loc: Loc, a: { country_code: string } | undefined) =>
    a && check([...loc, 'country_code'], a.country_code, 'BR-CL-14', 'Country code');
  const ids = (loc: Loc, list: { id: string; scheme?: string }[] | undefined) =>
    (list ?? []).forEach((id, i) => check([...loc, i, 'scheme'], id.scheme, 'BR-CL-10', 'Identifier scheme (ISO 6523 ICD)'));
  for (const who of ['seller', 'buyer'] as const) {
    const p = meta[who];
    address([who, 'address'], p.address);
    ids([who, 'identifiers'], p.identifiers);
    check([who, 'registration_scheme'], p.registration_scheme, 'BR-CL-11', 'Registration scheme (ISO 6523 ICD)');
    check([who, 'electronic_address', 'scheme'], p.electronic_address?.scheme, 'BR-CL-25', 'Electronic address scheme (CEF EAS)');
  }
  if (meta.payee) {
    ids(['payee', 'identifiers'], meta.payee.identifiers);
    check(['payee', 'registration_scheme'], meta.payee.registration_scheme, 'BR-CL-11', 'Registration scheme (ISO 6523 ICD)');
  }
  address(['tax_representative', 'address'], meta.tax_representative?.address);
  address(['delivery', 'address'], meta.delivery?.address);
  check(['delivery', 'location_id', 'scheme'], meta.delivery?.location_id?.scheme, 'BR-CL-10', 'Location scheme (ISO 6523 ICD)');
  check(
    ['invoiced_object_identifier', 'scheme'],
    meta.invoiced_object_identifier?.scheme,
    'BR-CL-07',
    'Object identifier scheme (UNTDID 1153)',
  );
  for (const [i, n] of (meta.notes ?? []).entries())
    check(['notes', i, 'subject_code'], n.subject_code, 'BR-CL-08', 'Note subject code (UNTDID 4451)');
  for (const [i, t] of (meta.tax_breakdown ?? []).entries())
    check(['tax_breakdown', i, 'exemption_reason_code'], t.exemption_reason_code, 'BR-CL-22', 'VAT exemption reason code (VATEX)');
  const reasons = (loc: Loc, list: { reason_code?: string }[] | undefined, charge: boolean) =>
    (list ?? []).forEach((ac, i) =>
      check(
        [...loc, i, 'reason_code'],
        ac.reason_code,
        charge ? 'BR-CL-20' : 'BR-CL-19',
        charge ? 'Charge reason code (UNTDID 7161)' : 'Allowance reason code (UNTDID 5189)',
      ),
    );
  reasons(['allowances'], meta.allowances, false);
  reasons(['charges'], meta.charges, true);
  for (const [i, l] of (meta.line_items ?? []).entries()) {
    check(['line_items', i, 'unit_code'], l.unit_code, 'BR-CL-23', 'Unit code (UN/ECE Rec 20/21)');
    check(['line_items', i, 'price_base_quantity_unit_code'], l.price_base_quantity_unit_code, 'BR-CL-23', 'Unit code (UN/ECE Rec 20/21)');
    check(['line_items', i, 'origin_country'], l.origin_country, 'BR-CL-14', 'Country code');
    check(['line_items', i, 'standard_item_id', 'scheme'], l.standard_item_id?.scheme, 'BR-CL-21', 'Item identifier scheme (ISO 6523 ICD)');
    for (const [j, c] of (l.classifications ?? []).entries())
      check(['line_items', i, 'classifications', j, 'list_id'], c.list_id, 'BR-CL-13', 'Classification scheme (UNTDID 7143)');
    reasons(['line_items', i, 'allowances'], l.allowances, false);
    reasons(['line_items', i, 'charges'], l.charges, true);
  }
}

/** Further EN 16931 rules the metadata alone decides. */
function otherRuleErrors(
  meta: InvoiceMetadata,
  add: (loc: Loc, msg: string, type?: string, input?: unknown) => void,
  missing: (loc: Loc, why: string) => void,
): void {
  // BR-CO-09: VAT identifiers start with the ISO 3166-1 country (Greece: EL).
  const countries = codes('BR-CL-14');
  const vat = (loc: Loc, value: string | undefined) => {
    if (value !== undefined && !countries.has(value.slice(0, 2)) && !value.startsWith('EL')) {
      add(loc, 'VAT identifier must start with its country code, e.g. DE123456789 (BR-CO-09)', 'value_error', value);
    }
  };
  vat(['seller', 'vat_number'], meta.seller.vat_number);
  vat(['buyer', 'vat_number'], meta.buyer.vat_number);
  vat(['tax_representative', 'vat_number'], meta.tax_representative?.vat_number);
  // BR-CO-26: the seller must be identifiable.
  if (!meta.seller.vat_number && !meta.seller.registration_id && !(meta.seller.identifiers ?? []).length) {
    missing(['seller', 'registration_id'], 'the seller needs a VAT id, a legal registration id or an identifier (BR-CO-26)');
  }
  // BR-CO-03: the VAT point date (BT-7) and its code (BT-8) exclude each other.
  if (meta.tax_point_date && meta.tax_point_date_code)
    add(
      ['tax_point_date_code'],
      'give the VAT point date (tax_point_date) or its code, not both (BR-CO-03)',
      'value_error',
      meta.tax_point_date_code,
    );
  // BT-125: base64 in groups of four characters (the pattern checked the alphabet).
  for (const [i, d] of (meta.supporting_documents ?? []).entries()) {
    const content = d.attachment?.content;
    if (content !== undefined && content.length % 4 !== 0)
      add(['supporting_documents', i, 'attachment', 'content'], 'Input should be base64 (its length a multiple of 4)', 'value_error');
  }
  // BR-29 / BR-30: periods end on or after their start.
  const period = (loc: Loc, p: { start?: string; end?: string } | undefined) => {
    if (p?.start && p.end && p.end < p.start) add([...loc, 'end'], 'end must not be before start (BR-29/BR-30)', 'value_error', p.end);
  };
  period(['invoice_period'], meta.invoice_period);
  for (const [i, l] of (meta.line_items ?? []).entries()) {
    period(['line_items', i, 'period'], l.period);
    // BT-150 belongs to BT-149; XRechnung (PEPPOL-EN16931-R130) wants it equal to the invoiced quantity's unit.
    if (l.price_base_quantity_unit_code && !l.price_base_quantity)
      missing(['line_items', i, 'price_base_quantity'], 'price_base_quantity_unit_code is the unit of price_base_quantity: give both');
    else if (
      l.price_base_quantity_unit_code &&
      (profileOf(meta) === 'xrechnung' || profileOf(meta) === 'peppol') &&
      l.price_base_quantity_unit_code !== l.unit_code
    )
      add(
        ['line_items', i, 'price_base_quantity_unit_code'],
        `${profileOf(meta) === 'peppol' ? 'Peppol' : 'XRechnung'} requires the unit of the price base quantity to be the unit_code (PEPPOL-EN16931-R130)`,
        'value_error',
        l.price_base_quantity_unit_code,
      );
    // BR-64: a standard item identifier carries its scheme.
    if (l.standard_item_id && !l.standard_item_id.scheme)
      missing(['line_items', i, 'standard_item_id', 'scheme'], 'the scheme of the standard item identifier, e.g. 0160 for GTIN (BR-64)');
    // PEPPOL-EN16931-R046 / R044: net = gross − discount; no charge on the price.
    const gross = parseDec(l.gross_price);
    const net = parseDec(l.net_price);
    const discount = parseDec(l.price_discount);
    if (gross && net && discount && !gross.minus(discount).eq(net)) {
      add(
        ['line_items', i, 'net_price'],
        `net_price must equal gross_price − price_discount (${gross.minus(discount).toFixed()})`,
        'value_error',
        l.net_price,
      );
    } else if (gross && net && net.gt(gross)) {
      add(
        ['line_items', i, 'net_price'],
        'net_price above gross_price would be a charge on the price, which EN 16931 does not allow',
        'value_error',
        l.net_price,
      );
    } else if (gross && discount && discount.gt(gross)) {
      add(['line_items', i, 'price_discount'], 'price_discount must not exceed gross_price (BR-27)', 'value_error', l.price_discount);
    }
  }
}

function checkRate(
  at: Loc,
  cat: string,
  rate: string | undefined,
  add: (loc: Loc, msg: string, type?: string, input?: unknown) => void,
  missing: (loc: Loc, why: string) => void,
  field = 'vat_rate',
): void {
  const value = parseDec(rate);
  if (cat === 'O') {
    if (rate !== undefined) add([...at, field], 'VAT category O (not subject to VAT) takes no rate (BR-O-05)', 'value_error', rate);
  } else if (cat === 'S') {
    if (rate === undefined) missing([...at, field], 'standard rated (S) needs a VAT rate (BR-S-05)');
    else if (value && value.eq(ZERO))
      add([...at, field], 'standard rated (S) needs a rate above zero; use category Z for zero rated (BR-S-05)', 'value_error', rate);
  } else if (ZERO_RATE_CATEGORIES.has(cat)) {
    if (value && !value.eq(ZERO))
      add([...at, field], `VAT category ${cat} has rate 0 (BR-${cat === 'K' ? 'IC' : cat}-05)`, 'value_error', rate);
  } else if (rate === undefined) {
    missing([...at, field], `VAT category ${cat} needs a VAT rate`);
  }
}

function checkAllowanceCharge(
  at: Loc,
  ac: { amount?: string; base_amount?: string; percentage?: string; reason?: string; reason_code?: string },
  add: (loc: Loc, msg: string, type?: string, input?: unknown) => void,
  missing: (loc: Loc, why: string) => void,
): void {
  if (!ac.amount && !(ac.percentage && ac.base_amount) && !ac.percentage)
    missing([...at, 'amount'], 'amount, or percentage (with base_amount)');
  if (!ac.reason && !ac.reason_code) missing([...at, 'reason'], 'a reason or reason_code (BR-33/BR-38, BR-42/BR-44)');
  if (ac.base_amount && !ac.percentage) missing([...at, 'percentage'], 'base_amount is given, so give the percentage too');
}

function xrechnungErrors(
  meta: InvoiceMetadata,
  add: (loc: Loc, msg: string, type?: string, input?: unknown) => void,
  missing: (loc: Loc, why: string) => void,
): void {
  germanErrors(
    meta,
    add,
    missing,
    'XRechnung',
    (n) => `BR-DE-${n}`,
    () => {
      if (!meta.seller.electronic_address)
        missing(['seller', 'electronic_address'], 'XRechnung needs the seller electronic address (PEPPOL-EN16931-R020)');
      if (!meta.buyer.electronic_address)
        missing(['buyer', 'electronic_address'], 'XRechnung needs the buyer electronic address (PEPPOL-EN16931-R010)');
    },
  );
}

/**
 * The German rules: XRechnung's BR-DE-*, which Peppol BIS applies between a German seller and a German buyer as
 * DE-R-* (the same numbers). `who` names the requirement in the messages, `id` the rule.
 */
function germanErrors(
  meta: InvoiceMetadata,
  add: (loc: Loc, msg: string, type?: string, input?: unknown) => void,
  missing: (loc: Loc, why: string) => void,
  who: string,
  id: (n: number) => string,
  afterBuyerReference?: () => void,
): void {
  if (!meta.buyer_reference) missing(['buyer_reference'], `${who} needs the buyer reference, e.g. the Leitweg-ID (${id(15)})`);
  afterBuyerReference?.();
  const c = meta.seller.contact;
  if (!c && !meta.seller.email) missing(['seller', 'contact'], `${who} needs the seller contact with name, phone and email (${id(2)})`);
  else {
    if (!c?.name && !c?.department) missing(['seller', 'contact', 'name'], `${who} needs the seller contact name (${id(5)})`);
    if (!c?.phone) missing(['seller', 'contact', 'phone'], `${who} needs the seller contact telephone (${id(6)})`);
    if (!c?.email && !meta.seller.email) missing(['seller', 'contact', 'email'], `${who} needs the seller contact e-mail (${id(7)})`);
  }
  for (const party of ['seller', 'buyer'] as const) {
    const a = meta[party].address;
    if (!a) continue;
    if (!a.city) missing([party, 'address', 'city'], `${who} needs the ${party} city (${id(party === 'seller' ? 3 : 8)})`);
    if (!a.postcode) missing([party, 'address', 'postcode'], `${who} needs the ${party} post code (${id(party === 'seller' ? 4 : 9)})`);
  }
  const da = meta.delivery?.address;
  if (da) {
    if (!da.city) missing(['delivery', 'address', 'city'], `${who} needs the deliver-to city (${id(10)})`);
    if (!da.postcode) missing(['delivery', 'address', 'postcode'], `${who} needs the deliver-to post code (${id(11)})`);
  }
  if (!meta.payment) missing(['payment'], `${who} needs payment instructions with means_code (${id(1)})`);
  else {
    const code = meta.payment.means_code;
    if (['48', '54', '55'].includes(code) && !meta.payment.card)
      missing(['payment', 'card'], `payment means ${code} needs the card (${id(24)}-a)`);
    const groups = [
      meta.payment.credit_transfers?.length ? 'credit_transfers' : '',
      meta.payment.card ? 'card' : '',
      meta.payment.direct_debit ? 'direct_debit' : '',
    ].filter(Boolean);
    const expected =
      code === '30' || code === '58'
        ? 'credit_transfers'
        : ['48', '54', '55'].includes(code)
          ? 'card'
          : code === '59'
            ? 'direct_debit'
            : '';
    for (const g of groups) {
      if (expected && g !== expected)
        add(['payment', g], `payment means ${code} allows only ${expected} in ${who} (${id(23)}..${id(25).replace(/^.*-/, '')})`);
    }
  }
}
