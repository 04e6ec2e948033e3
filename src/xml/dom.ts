/**
 * Safe, namespace-aware XML parsing into a small immutable-by-convention element tree.
 *
 * Why our own parser (src/xml/parser.ts) and a plain JS tree: it is a strict, conformant, pure-JS
 * XML 1.0 + Namespaces parser with no DTD support at all (no file system, no network, no entity beyond
 * the predefined ones), so hostile XML (XXE, billion laughs) cannot do harm by construction; it builds
 * the tree in one pass, several times faster than a general SAX parser; and a plain tree needs no
 * dispose() and can be walked fast by readers and rules. libxml2-wasm is used only where an XSD has to
 * be checked (src/xml/xsd.ts).
 */
import { isAscii } from 'node:buffer';
import { parseXmlTree, XmlSyntaxError } from './parser.js';
import { PropertyMap } from '../util/property-map.js';
import { NS } from './namespaces.js';
import type { XmlElement, XmlLimits } from './tree.js';

export type { XmlAttribute, XmlElement, XmlLimits } from './tree.js';

export interface XmlDoc {
  root: XmlElement;
  /** Encoding the bytes were decoded with. */
  encoding: string;
  /** Count of elements, for size accounting. */
  elementCount: number;
  /** From the parser: the elements with children whose text may be more than blanks (see ParsedTree); absent = unknown. */
  mixed?: readonly XmlElement[];
  /** From the parser: the leaves with empty or blank text, in document order (see ParsedTree); absent = unknown. */
  blankLeaves?: readonly XmlElement[];
}

export const DEFAULT_XML_LIMITS: XmlLimits = { maxDepth: 200, maxElements: 5_000_000 };

/** The input is not well-formed XML, or is refused (DTD, depth, size). `code` is stable for clients. */
export class XmlParseError extends Error {
  constructor(
    message: string,
    readonly code: 'XML_MALFORMED' | 'XML_DTD_FORBIDDEN' | 'XML_TOO_DEEP' | 'XML_TOO_LARGE' | 'XML_ENCODING' | 'XML_ENCODING_UNSUPPORTED',
    readonly line?: number,
  ) {
    super(message);
    this.name = 'XmlParseError';
  }
}

/**
 * The encodings the service reads, by lower-case label (the XML declaration's name, IANA names and
 * common aliases). XML requires UTF-8 and UTF-16; the single-byte ones are those real invoices use.
 * Anything else is refused (XML_ENCODING_UNSUPPORTED) rather than read as UTF-8: a document in an
 * encoding nobody implements was silently judged, and /v1/merge embedded it.
 */
type Encoding = 'utf-8' | 'us-ascii' | 'utf-16' | 'iso-8859-1' | 'iso-8859-15' | 'windows-1252';
const ENCODING_LABELS = new Map<string, Encoding>([
  ...(['utf-8', 'utf8'] as const).map((l) => [l, 'utf-8'] as const),
  ...(['us-ascii', 'ascii', 'iso646-us', 'ansi_x3.4-1968'] as const).map((l) => [l, 'us-ascii'] as const),
  ...(['utf-16', 'utf16', 'utf-16le', 'utf-16be'] as const).map((l) => [l, 'utf-16'] as const),
  ...(['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'latin1', 'latin-1', 'l1', 'iso-ir-100', 'cp819', 'ibm819'] as const).map(
    (l) => [l, 'iso-8859-1'] as const,
  ),
  ...(['iso-8859-15', 'iso8859-15', 'iso_8859-15', 'latin-9', 'latin9', 'l9'] as const).map((l) => [l, 'iso-8859-15'] as const),
  ...(['windows-1252', 'cp1252', 'x-cp1252'] as const).map((l) => [l, 'windows-1252'] as const),
]);

/** The encodings named in messages and in docs/reliability.md. */
export const SUPPORTED_ENCODINGS = 'UTF-8, UTF-16 (with a byte-order mark), US-ASCII, ISO-8859-1, ISO-8859-15, windows-1252';

/** The encoding name of an XML declaration at the start of `head` (already decoded, or ASCII-compatible bytes as latin1). */
function declaredEncoding(head: string): string | undefined {
  return /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([^"']*)["']/.exec(head)?.[1];
}

function unsupported(name: string): XmlParseError {
  return new XmlParseError(
    `The XML declares the encoding "${name.slice(0, 40)}", which this service does not read (supported: ${SUPPORTED_ENCODINGS})`,
    'XML_ENCODING_UNSUPPORTED',
  );
}

/** Decode UTF-16 (a BOM or a leading "<" with a zero byte told which order); the declaration may only say UTF-16. */
function decodeUtf16(bytes: Uint8Array, label: 'utf-16le' | 'utf-16be'): { text: string; encoding: string } {
  const text = decodeStrict(bytes, label);
  const declared = declaredEncoding(text.slice(0, 256));
  if (declared !== undefined && ENCODING_LABELS.get(declared.trim().toLowerCase()) !== 'utf-16') {
    if (!ENCODING_LABELS.has(declared.trim().toLowerCase())) throw unsupported(declared);
    throw new XmlParseError(`The document is UTF-16 text but its XML declaration says "${declared.slice(0, 40)}"`, 'XML_ENCODING');
  }
  return { text, encoding: label };
}

/**
 * Decode bytes honouring a BOM or the XML declaration's encoding; strips the BOM. Throws XmlParseError:
 * XML_ENCODING for bytes that are not valid in the encoding (or a BOM that contradicts the declaration),
 * XML_ENCODING_UNSUPPORTED for an encoding outside ENCODING_LABELS.
 */
export function decodeXmlBytes(bytes: Uint8Array): { text: string; encoding: string } {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return decodeUtf16(bytes.subarray(2), 'utf-16le');
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return decodeUtf16(bytes.subarray(2), 'utf-16be');
  // UTF-16 without BOM starts with "<\0" or "\0<".
  if (bytes.length >= 2 && bytes[0] === 0x3c && bytes[1] === 0x00) return decodeUtf16(bytes, 'utf-16le');
  if (bytes.length >= 2 && bytes[0] === 0x00 && bytes[1] === 0x3c) return decodeUtf16(bytes, 'utf-16be');
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  const declared = declaredEncoding(Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, 256)).toString('latin1'));
  const encoding = declared === undefined ? 'utf-8' : ENCODING_LABELS.get(declared.trim().toLowerCase());
  if (encoding === undefined) throw unsupported(declared!);
  if (bom && encoding !== 'utf-8' && encoding !== 'us-ascii') {
    throw new XmlParseError(
      `The document starts with a UTF-8 byte-order mark but its XML declaration says "${declared!.slice(0, 40)}"`,
      'XML_ENCODING',
    );
  }
  switch (encoding) {
    case 'utf-8':
      return { text: decodeUtf8(body), encoding };
    case 'us-ascii':
      if (!isAscii(body)) {
        const i = body.findIndex((b) => b > 0x7f);
        throw new XmlParseError(`The document is not valid US-ASCII text (byte 0x${body[i].toString(16)} at offset ${i})`, 'XML_ENCODING');
      }
      return { text: asciiText(body), encoding };
    case 'utf-16':
      // Declared UTF-16, but neither a byte-order mark nor zero bytes: the declaration lies (XML 1.0 §4.3.3).
      throw new XmlParseError('The XML declaration says UTF-16, but the document has no UTF-16 byte-order mark', 'XML_ENCODING');
    case 'iso-8859-1':
      // Not TextDecoder: its "iso-8859-1" is windows-1252 (WHATWG), which reads 0x80-0x9F differently.
      return { text: Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1'), encoding };
    case 'windows-1252':
      return { text: decodeWindows1252(body), encoding };
    default:
      return { text: new TextDecoder(encoding).decode(body), encoding };
  }
}

/**
 * windows-1252 by table: Node 20's TextDecoder('windows-1252') reads 0x80-0x9F as ISO-8859-1 (C1
 * controls), so "€" (0x80) became U+0080. The five bytes windows-1252 leaves undefined map to the C1
 * control of the same value, as the WHATWG encoding standard does.
 */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];
function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  return /[\x80-\x9f]/.test(latin1)
    ? latin1.replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(CP1252_HIGH[c.charCodeAt(0) - 0x80]))
    : latin1;
}

/**
 * UTF-8, strictly. Text that is all ASCII (most invoices without umlauts, and base64 attachments) is read as ASCII:
 * the same string, made by a copy instead of a decoder (a 3.3 MB invoice with an attachment: 14 ms by TextDecoder,
 * under 1 ms this way; the ASCII test itself is SIMD, 0.04 ms).
 */
function decodeUtf8(bytes: Uint8Array): string {
  return isAscii(bytes) ? asciiText(bytes) : decodeStrict(bytes, 'utf-8');
}

/** Bytes known to be ASCII as text, by a copy. */
const asciiText = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('ascii');

function decodeStrict(bytes: Uint8Array, label: string): string {
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    throw new XmlParseError(`The document is not valid ${label.toUpperCase()} text`, 'XML_ENCODING');
  }
}

/** Cheap sniff: does this look like XML (after BOM and whitespace)? */
export function looksLikeXml(bytes: Uint8Array): boolean {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  if ((bytes[0] === 0x3c && bytes[1] === 0x00) || (bytes[0] === 0x00 && bytes[1] === 0x3c)) return true;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i] === 0x3c; // '<'
}

/** The namespace URIs the code compares elements against, each mapped to itself (the NS constants). */
const KNOWN_NAMESPACES = new Map<string, string>(Object.values(NS).map((uri) => [uri, uri]));

/**
 * Give the elements of a known namespace the very string objects of NS. The parser takes a namespace
 * URI from its declaration's attribute value, an equal but distinct string, and comparing two distinct
 * 60-80 character strings costs ~25 ns against ~3 ns for one string with itself; readers, the XSD
 * layer and the rules compare element namespaces with NS thousands of times per invoice.
 * Elements of one declaration share one string, so a few remembered pairs settle nearly every element.
 */
function shareNamespaceStrings(root: XmlElement): void {
  const raw: string[] = [];
  const shared: string[] = [];
  const stack: XmlElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    const ns = el.ns;
    let i = 0;
    while (i < raw.length && raw[i] !== ns) i++;
    if (i === raw.length) {
      if (raw.length === 8) {
        raw.length = 0;
        shared.length = 0;
        i = 0;
      }
      raw.push(ns);
      shared.push(KNOWN_NAMESPACES.get(ns) ?? ns);
    }
    el.ns = shared[i];
    const children = el.children;
    for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]);
  }
}

/** Parse XML bytes or text into an element tree. Throws XmlParseError. */
export function parseXml(input: Uint8Array | string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlDoc {
  let text: string;
  let encoding = 'utf-16';
  if (typeof input === 'string') {
    text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  } else {
    ({ text, encoding } = decodeXmlBytes(input));
  }
  // Real files sometimes have whitespace before the XML declaration; a strict parser refuses it.
  text = text.replace(/^[\s\uFEFF]+/, '');
  try {
    const { root, elementCount, mixed, blankLeaves } = parseXmlTree(text, limits);
    shareNamespaceStrings(root);
    return { root, encoding, elementCount, mixed, blankLeaves };
  } catch (err) {
    if (!(err instanceof XmlSyntaxError)) throw err;
    const message = err.code === 'XML_MALFORMED' ? `XML is not well-formed: line ${err.line}: ${err.message}` : err.message;
    throw new XmlParseError(message, err.code, err.line);
  }
}

// ---------------------------------------------------------------------------------------------
// Navigation helpers: always by namespace URI + local name, never by prefix.

export function child(el: XmlElement | undefined | null, ns: string, local: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (c.local === local && c.ns === ns) return c;
  return undefined;
}

export function childrenNamed(el: XmlElement | undefined | null, ns: string, local: string): XmlElement[] {
  if (!el) return [];
  return el.children.filter((c) => c.local === local && c.ns === ns);
}

export function attr(el: XmlElement | undefined | null, local: string, ns = ''): string | undefined {
  if (!el) return undefined;
  for (const a of el.attrs) if (a.local === local && a.ns === ns) return a.value;
  return undefined;
}

/** The shared empty result (frozen: callers must not modify what the index returns). */
const NO_ELEMENTS = Object.freeze([]) as readonly never[] as never[];

/**
 * Local names that callers of elementsNamedAnywhere have asked for, process-wide, each with a slot.
 * Callers ask for names written in the code and the rule tables (a few dozen), never for names taken
 * from documents; the bound only guards against a caller that would.
 */
const wantedSlots = new Map<string, number>();
const MAX_WANTED_NAMES = 1024;

interface NameIndex {
  /** Elements by slot, for the slots below `collected` (undefined: none in this document). */
  lists: (XmlElement[] | undefined)[];
  collected: number;
  /** Names asked for after the walk that are not given a slot (beyond MAX_WANTED_NAMES). */
  extra: Map<string, XmlElement[]> | undefined;
}

const nameIndexes = new PropertyMap<XmlDoc, NameIndex>();

/**
 * The elements with this local name anywhere in the document, in document order. Callers must not
 * modify the array.
 *
 * The first call for a document collects, in one walk, the names any caller has asked for so far in
 * this process (not every element: on a 10,000-line CII the rules ask for 38 names, a third of the
 * elements, and grouping all 180,000 elements cost more than the rules' lookups). A name asked for
 * the first time costs one more walk of its own for that document, and is collected from then on.
 */
export function elementsNamedAnywhere(doc: XmlDoc, local: string): XmlElement[] {
  let index = nameIndexes.get(doc);
  let slot = wantedSlots.get(local);
  if (slot === undefined && wantedSlots.size < MAX_WANTED_NAMES) wantedSlots.set(local, (slot = wantedSlots.size));
  if (index === undefined) {
    collectWantedNames(doc);
    index = nameIndexes.get(doc)!;
  }
  if (slot !== undefined && slot < index.collected) return index.lists[slot] ?? NO_ELEMENTS;
  const known = slot !== undefined ? index.lists[slot] : index.extra?.get(local);
  if (known !== undefined) return known;
  const found: XmlElement[] = [];
  collectNamed(doc.root, local, found);
  if (slot !== undefined) index.lists[slot] = found;
  else (index.extra ??= new Map()).set(local, found);
  return found;
}

/**
 * For a walk that visits every element of `doc` in document order anyway (the syntax rules' index):
 * `collect` each element on the way and `done` at the end, and elementsNamedAnywhere will not walk the
 * document again (a walk of every element is ~5% of a typical validation). Undefined when the document
 * already has its index. Nothing may ask elementsNamedAnywhere about `doc` between the two calls.
 */
export function nameIndexCollector(doc: XmlDoc): { collect: (el: XmlElement) => void; done: () => void } | undefined {
  if (nameIndexes.get(doc) !== undefined) return undefined;
  const lists: (XmlElement[] | undefined)[] = new Array<XmlElement[] | undefined>(wantedSlots.size).fill(undefined);
  return {
    collect(el) {
      const slot = wantedSlots.get(el.local);
      if (slot === undefined || slot >= lists.length) return;
      const list = lists[slot];
      if (list === undefined) lists[slot] = [el];
      else list.push(el);
    },
    done() {
      if (nameIndexes.get(doc) === undefined) nameIndexes.set(doc, { lists, collected: lists.length, extra: undefined });
    },
  };
}

/** The document's name index by a walk of its own (when no other walk has filled it, see nameIndexCollector). */
function collectWantedNames(doc: XmlDoc): void {
  const { collect, done } = nameIndexCollector(doc)!;
  const walk = (el: XmlElement): void => {
    collect(el);
    const children = el.children;
    for (let i = 0; i < children.length; i++) walk(children[i]);
  };
  walk(doc.root);
  done();
}

function collectNamed(el: XmlElement, local: string, out: XmlElement[]): void {
  if (el.local === local) out.push(el);
  const children = el.children;
  for (let i = 0; i < children.length; i++) collectNamed(children[i], local, out);
}

/** XPath string value: all descendant character data. */
export function deepText(el: XmlElement): string {
  if (el.children.length === 0) return el.text;
  let out = el.text;
  for (const c of el.children) out += deepText(c);
  return out;
}

/**
 * XPath-like location of an element, with the document's own prefixes and 1-based positions among
 * same-named siblings, e.g. `/rsm:CrossIndustryInvoice[1]/rsm:ExchangedDocument[1]/ram:ID[1]`.
 *
 * Paths are cached on the elements, and sibling positions are computed for all siblings in one pass:
 * readers ask for the location of every value, and counting siblings afresh each time made a
 * 10,000-line invoice quadratic. The caches assume the tree is not reordered (appending is fine).
 */
export function pathOf(el: XmlElement): string {
  if (el._path !== undefined) return el._path;
  const parent = el.parent;
  if (!parent) return (el._path = `/${el.prefix ? el.prefix + ':' : ''}${el.local}[1]`);
  if (el._pos === undefined) numberSiblings(parent);
  return (el._path = `${pathOf(parent)}/${el.prefix ? el.prefix + ':' : ''}${el.local}[${el._pos}]`);
}

function numberSiblings(parent: XmlElement): void {
  const sibs = parent.children;
  if (sibs.length <= 24) {
    // Few siblings (the usual case): counting backwards is cheaper than a Map.
    for (let i = 0; i < sibs.length; i++) {
      const e = sibs[i];
      let pos = 1;
      for (let j = 0; j < i; j++) if (sibs[j].local === e.local && sibs[j].ns === e.ns) pos++;
      e._pos = pos;
    }
    return;
  }
  const counts = new Map<string, number>();
  for (const sib of sibs) {
    const key = sib.ns === '' ? sib.local : `${sib.local} ${sib.ns}`;
    const pos = (counts.get(key) ?? 0) + 1;
    counts.set(key, pos);
    sib._pos = pos;
  }
}
