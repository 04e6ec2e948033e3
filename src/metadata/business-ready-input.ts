/**
 * A serialized invoice sent back as metadata: receive → /v1/serialize → correct → /v1/xml (or /v1/convert)
 * without remapping fields.
 *
 * Detection is unambiguous: InvoiceMetadata has no `format` member (it refuses unknown members), while every
 * BusinessReadyInvoice has one; a whole SerializationResponse is recognised by its `invoice` member next to
 * `success` / `schema_version` (metadata has none of the three). The metadata field names were chosen to be
 * BusinessReadyInvoice's, so the mapping only undoes what serialize adds for readers:
 * - `format` (how the invoice arrived) is dropped: the output is CII in the metadata's `profile`;
 * - `unit_label` is derived from `unit_code`, so it is dropped rather than reported as a field CII cannot carry;
 * - serialize writes rate "0" for category O (not subject to VAT), which takes no rate in EN 16931 (BR-O-05);
 * - empty strings in an address are serialize's placeholders for missing values: missing again here;
 * - BASIC WL is serialized as `basic` (a recorded coercion): without lines it is re-issued as basic_wl.
 * Everything else passes as it is, so a corrected invoice may add any metadata field (payment, contacts, ...).
 */
import { MetadataShapeError } from './errors.js';

/** `format` values of BusinessReadyInvoice. */
export const SERIALIZED_FORMATS = ['factur-x', 'zugferd', 'xrechnung', 'ubl'] as const;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o: Obj, k: string) => Object.hasOwn(o, k);

export type MetadataSource = 'metadata' | 'business_ready_invoice' | 'serialization_response';

/** What kind of object the metadata is. */
export function metadataSource(value: unknown): MetadataSource {
  if (!isObject(value)) return 'metadata';
  if (has(value, 'invoice') && (has(value, 'success') || has(value, 'schema_version')) && !has(value, 'invoice_number'))
    return 'serialization_response';
  if (has(value, 'format')) return 'business_ready_invoice';
  return 'metadata';
}

function withoutZeroRate(o: unknown, rateKey: string, categoryKey: string): unknown {
  if (!isObject(o) || o[categoryKey] !== 'O' || !has(o, rateKey)) return o;
  const rate = o[rateKey];
  if (rate !== null && !(typeof rate === 'string' && /^[+-]?0*(\.0*)?$/.test(rate)) && rate !== 0) return o;
  const { [rateKey]: _drop, ...rest } = o;
  return rest;
}

function address(a: unknown): unknown {
  if (!isObject(a)) return a;
  const out: Obj = {};
  for (const [k, v] of Object.entries(a)) if (v !== '') out[k] = v;
  return out;
}

function party(p: unknown): unknown {
  return isObject(p) && isObject(p.address) ? { ...p, address: address(p.address) } : p;
}

function mapList(list: unknown, f: (item: unknown) => unknown): unknown {
  return Array.isArray(list) ? list.map(f) : list;
}

/** A BusinessReadyInvoice (or SerializationResponse) → metadata; any other value as it is. */
export function fromBusinessReady(value: unknown): { value: unknown; source: MetadataSource } {
  const source = metadataSource(value);
  if (source === 'metadata') return { value, source };
  let bri = value as Obj;
  if (source === 'serialization_response') {
    if (!isObject(bri.invoice)) {
      throw new MetadataShapeError([
        {
          loc: ['body', 'metadata', 'invoice'],
          msg: 'The serialization response carries no invoice (success is false): there is nothing to re-issue',
          type: 'missing',
        },
      ]);
    }
    bri = bri.invoice;
    if (!has(bri, 'format')) return { value: bri, source };
  }
  const format = bri.format;
  if (format !== null && !(SERIALIZED_FORMATS as readonly unknown[]).includes(format)) {
    throw new MetadataShapeError([
      {
        loc: ['body', 'metadata', 'format'],
        msg: `Input should be one of ${SERIALIZED_FORMATS.map((f) => `'${f}'`).join(', ')} (a BusinessReadyInvoice's format)`,
        type: 'enum',
        input: format,
        ctx: { expected: [...SERIALIZED_FORMATS] },
      },
    ]);
  }
  const { format: _format, ...rest } = bri;
  const out: Obj = { ...rest };
  if (has(out, 'seller')) out.seller = party(out.seller);
  if (has(out, 'buyer')) out.buyer = party(out.buyer);
  if (has(out, 'line_items')) {
    out.line_items = mapList(out.line_items, (l) => {
      if (!isObject(l)) return l;
      const { unit_label: _label, ...line } = l;
      return withoutZeroRate(line, 'vat_rate', 'vat_category');
    });
  }
  // Serialize reports BASIC WL as basic (coerced, recorded); an invoice without lines can only be BASIC WL again.
  if (out.profile === 'basic' && Array.isArray(out.line_items) && out.line_items.length === 0) out.profile = 'basic_wl';
  if (has(out, 'tax_breakdown')) out.tax_breakdown = mapList(out.tax_breakdown, (t) => withoutZeroRate(t, 'rate', 'category'));
  for (const k of ['allowances', 'charges'])
    if (has(out, k)) out[k] = mapList(out[k], (a) => withoutZeroRate(a, 'vat_rate', 'vat_category'));
  return { value: out, source };
}
