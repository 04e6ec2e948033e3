/**
 * Small helpers shared by the CII and UBL readers: take a value from an element into a model object and
 * remember where it came from (`$loc`), without changing its lexical form.
 *
 * `$loc` keys: the field name for a scalar or a located object; `field/@attr` values are written as
 * `<element path>/@attr`; for arrays of plain values (identifiers, attributes) the key is `field[i]`.
 */
import type { Identifier, Located, SupportingDocument } from '../model/invoice.js';
import { attr, deepText, pathOf, type XmlElement } from '../xml/dom.js';

/** The element's string value: its text for a leaf (as is, whitespace kept), all descendant text otherwise. */
export function textOf(el: XmlElement): string {
  return el.children.length === 0 ? el.text : deepText(el);
}

/** A decimal's lexical form: XSD decimals collapse surrounding whitespace, so trimming keeps the value. */
export function decOf(el: XmlElement): string {
  return textOf(el).trim();
}

export function locate(target: Located, field: string, location: string): void {
  (target.$loc ??= {})[field] = location;
}

/** Set `target[field]` from `el`'s text (or `value`), and its location. No-op when `el` is absent. */
export function put<T extends Located>(target: T, field: keyof T & string, el: XmlElement | undefined, value?: string): void {
  if (!el) return;
  (target as Record<string, unknown>)[field] = value ?? textOf(el);
  locate(target, field, pathOf(el));
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
  locate(target, field, `${pathOf(el)}/@${name}`);
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

export function putIdentifier<T extends Located>(target: T, field: keyof T & string, el: XmlElement | undefined, schemeAttr = 'schemeID'): void {
  if (!el) return;
  (target as Record<string, unknown>)[field] = identifierOf(el, schemeAttr);
  locate(target, field, pathOf(el));
}

/** Start a located object for element `el`. */
export function located<T extends Located>(obj: T, el: XmlElement): T {
  obj.$loc = { self: pathOf(el) };
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
  locate(sd, 'attachment', pathOf(bin));
}
