/**
 * Small helpers shared by the CII and UBL readers: take a value from an element into a model object and
 * remember where it came from (`$loc`), without changing its lexical form.
 *
 * `$loc` keys: the field name for a scalar or a located object; `field/@attr` values are written as
 * `<element path>/@attr`; for arrays of plain values (identifiers, attributes) the key is `field[i]`.
 *
 * Locations are lazy: a reader records the element, and `$loc` turns the recorded elements into their
 * pathOf() strings the first time it is read (a finding, an API answer, a test). Computing every path up
 * front cost more than the parse on a 10,000-line invoice (one path string per value), and nearly all of
 * them were never read. Until then `$loc` is an own, enumerable accessor, so the model object still
 * spreads, serialises and structured-clones with the same plain `$loc` object of strings as before.
 */
import type { Identifier, Located, Locations, SupportingDocument } from '../model/invoice.js';
import { attr, deepText, pathOf, type XmlElement } from '../xml/dom.js';
import { PropertyMap } from '../util/property-map.js';

/** Where a value was read: an element, or one of its attributes. */
class AttributeAt {
  constructor(
    readonly el: XmlElement,
    readonly name: string,
  ) {}
}

type PendingLocation = string | XmlElement | AttributeAt;

/**
 * The recorded locations of a model object whose `$loc` has not been read yet, as pairs in recording
 * order: field, where, field, where... A later pair for the same field overrides an earlier one. Pairs
 * in an array, not an object keyed by field: every model type records other fields, and storing each
 * under its name sent the readers' stores through V8's slowest (megamorphic, keyed) path.
 */
type Pending = (string | PendingLocation)[];

const pendingLocations = new PropertyMap<Located, Pending>('pendingLocations');

/** Where `field` was recorded, the latest record winning; undefined when it was not. */
function pendingAt(pending: Pending, field: string): PendingLocation | undefined {
  for (let i = pending.length - 2; i >= 0; i -= 2) if (pending[i] === field) return pending[i + 1];
  return undefined;
}

function resolveLocation(where: PendingLocation): string {
  if (typeof where === 'string') return where;
  return where instanceof AttributeAt ? `${pathOf(where.el)}/@${where.name}` : pathOf(where);
}

/** Replace the accessor by a plain data property (what `$loc` always was). */
function settle(obj: Located, value: Locations | undefined): void {
  pendingLocations.delete(obj);
  Object.defineProperty(obj, '$loc', { value, writable: true, enumerable: true, configurable: true });
}

const LAZY_LOC: PropertyDescriptor = {
  get(this: Located): Locations | undefined {
    const pending = pendingLocations.get(this);
    if (!pending) return undefined;
    const locations: Locations = {};
    // In recording order: a field's latest record wins, and keys keep the order they were first recorded in.
    for (let i = 0; i < pending.length; i += 2) locations[pending[i] as string] = resolveLocation(pending[i + 1]);
    settle(this, locations);
    return locations;
  },
  set(this: Located, value: Locations | undefined) {
    settle(this, value);
  },
  enumerable: true,
  configurable: true,
};

function record(target: Located, field: string, where: PendingLocation): void {
  const pending = pendingLocations.get(target);
  if (pending) pending.push(field, where);
  else if (target.$loc)
    target.$loc[field] = resolveLocation(where); // already read (or set by other code): stay eager
  else {
    pendingLocations.set(target, [field, where]);
    Object.defineProperty(target, '$loc', LAZY_LOC);
  }
}

/**
 * `obj.$loc[field] || obj.$loc.self` (no field: `obj.$loc.self`) without reading `$loc`: while the
 * locations are pending only the asked one is resolved. Reading `$loc` replaces the accessor by a data
 * property, which is slow (defineProperty) and leaves the model object on a slower shape for every
 * later property read; the business rules ask for a location on nearly every model object.
 */
export function locationOf(obj: Located | undefined, field?: string): string | undefined {
  if (!obj) return undefined;
  const pending = pendingLocations.get(obj);
  if (!pending) {
    const settled = obj.$loc;
    return settled ? (field && settled[field]) || settled.self : undefined;
  }
  const at = field ? pendingAt(pending, field) : undefined;
  const found = at === undefined ? undefined : resolveLocation(at);
  if (found) return found;
  const self = pendingAt(pending, 'self');
  return self === undefined ? undefined : resolveLocation(self);
}

/** `obj.$loc[field]` (no fallback to `self`), without reading `$loc` (see locationOf). */
export function fieldLocationOf(obj: Located | undefined, field: string): string | undefined {
  if (!obj) return undefined;
  const pending = pendingLocations.get(obj);
  if (!pending) return obj.$loc?.[field];
  const at = pendingAt(pending, field);
  return at === undefined ? undefined : resolveLocation(at);
}

/** `obj.$loc.self !== undefined`, without reading `$loc` (see locationOf). */
export function hasOwnLocation(obj: Located | undefined): boolean {
  if (!obj) return false;
  const pending = pendingLocations.get(obj);
  return pending ? pendingAt(pending, 'self') !== undefined : obj.$loc?.self !== undefined;
}

/** The element's string value: its text for a leaf (as is, whitespace kept), all descendant text otherwise. */
export function textOf(el: XmlElement): string {
  return el.children.length === 0 ? el.text : deepText(el);
}

/** A decimal's lexical form: XSD decimals collapse surrounding whitespace, so trimming keeps the value. */
export function decOf(el: XmlElement): string {
  return textOf(el).trim();
}

/** Record where `field` was read: an element (its path is computed when `$loc` is read) or a location string. */
export function locate(target: Located, field: string, location: string | XmlElement): void {
  record(target, field, location);
}

/** Set `target[field]` from `el`'s text (or `value`), and its location. No-op when `el` is absent. */
export function put<T extends Located>(target: T, field: keyof T & string, el: XmlElement | undefined, value?: string): void {
  if (!el) return;
  (target as Record<string, unknown>)[field] = value ?? textOf(el);
  locate(target, field, el);
}

/** Like `put` for decimals (trimmed lexical form). */
export function putDec<T extends Located>(target: T, field: keyof T & string, el: XmlElement | undefined): void {
  if (el) put(target, field, el, decOf(el));
}

/** Set `target[field]` from an attribute of `el`, located as `<path>/@name`. */
export function putAttr<T extends Located>(target: T, field: keyof T & string, el: XmlElement | undefined, name: string): void {
  const v = attr(el, name);
  if (!el || v === undefined) return;
  (target as Record<string, unknown>)[field] = v;
  record(target, field, new AttributeAt(el, name));
}

/** An identifier with its scheme attributes (`schemeID`, `schemeVersionID` by default). */
export function identifierOf(el: XmlElement, schemeAttr = 'schemeID', versionAttr = 'schemeVersionID'): Identifier {
  const id: Identifier = { value: textOf(el) };
  const scheme = attr(el, schemeAttr);
  if (scheme !== undefined) id.schemeId = scheme;
  const version = attr(el, versionAttr);
  if (version !== undefined) id.schemeVersionId = version;
  return id;
}

export function putIdentifier<T extends Located>(
  target: T,
  field: keyof T & string,
  el: XmlElement | undefined,
  schemeAttr = 'schemeID',
): void {
  if (!el) return;
  (target as Record<string, unknown>)[field] = identifierOf(el, schemeAttr);
  locate(target, field, el);
}

/** Start a located object for element `el`. */
export function located<T extends Located>(obj: T, el: XmlElement): T {
  // A fresh `$loc` (any earlier one is replaced, as assigning `{ self }` did).
  pendingLocations.set(obj, ['self', el]);
  Object.defineProperty(obj, '$loc', LAZY_LOC);
  return obj;
}

/** First child with the given local name in any of the namespaces (for types that producers put in udt or qdt). */
export function childAnyNs(el: XmlElement | undefined, namespaces: readonly string[], local: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (c.local === local && namespaces.includes(c.ns)) return c;
  return undefined;
}

/** "20240131" with format 102 → "2024-01-31"; anything else stays as found (rules report it). */
export function isoFromFormat102(text: string, format: string | undefined): string {
  const t = text.trim();
  if ((format === undefined || format === '102') && /^\d{8}$/.test(t)) return `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}`;
  return text;
}

/**
 * BT-125 attached document (with BT-125-1 mime code and BT-125-2 file name): CII's
 * AttachmentBinaryObject and UBL's EmbeddedDocumentBinaryObject carry the same attributes.
 */
export function putAttachment(sd: SupportingDocument, bin: XmlElement | undefined): void {
  if (!bin) return;
  sd.attachment = { contentBase64: textOf(bin).trim() };
  const mime = attr(bin, 'mimeCode');
  if (mime !== undefined) sd.attachment.mimeCode = mime;
  const filename = attr(bin, 'filename');
  if (filename !== undefined) sd.attachment.filename = filename;
  locate(sd, 'attachment', bin);
}
