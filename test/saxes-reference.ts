/**
 * The reference the parser of src/xml/parser.ts is compared with: saxes (a conformant SAX parser, the one
 * dom.ts used before) building the same element tree, with the same text handling as the old dom.ts.
 * Used only by test/xml-parser.test.ts and bench/xml-parse.ts (saxes is a devDependency).
 *
 * Two settings differ from the old production use, each where saxes departs from the specifications and
 * our parser follows them (see the notes in test/xml-parser.test.ts):
 * - forceXMLVersion: documents are parsed by the XML 1.0 rules whatever version 1.x they declare;
 * - `strictQNames`: names that saxes accepts but that are not QNames (a local part or prefix not starting
 *   with an NCName start character, e.g. `a:1b`) are rejected afterwards.
 */
import { SaxesParser } from 'saxes';
import type { XmlAttribute, XmlElement } from '../src/xml/dom.js';

export type ReferenceResult =
  | { ok: true; root: XmlElement; elementCount: number }
  | { ok: false; code: 'XML_MALFORMED' | 'XML_DTD_FORBIDDEN'; message: string };

// NCName of Namespaces in XML 1.0 3rd edition (XML 1.0 5th edition name characters without ':').
const NC_START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NC_NAME = new RegExp(`^[${NC_START}][${NC_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*$`, 'u');

/** Parse `text` (already decoded and stripped of leading whitespace, as dom.ts does) with saxes. */
export function saxesTree(text: string, options: { strictQNames?: boolean } = {}): ReferenceResult {
  const parser = new SaxesParser({ xmlns: true, position: true, defaultXMLVersion: '1.0', forceXMLVersion: true });
  let root: XmlElement | null = null;
  let current: XmlElement | null = null;
  let elementCount = 0;
  let failure: ReferenceResult | null = null;
  let badName: string | null = null;
  const checkName = (prefix: string, local: string): void => {
    if (badName === null && ((prefix !== '' && !NC_NAME.test(prefix)) || !NC_NAME.test(local)))
      badName = prefix ? `${prefix}:${local}` : local;
  };
  parser.on('error', (err) => {
    failure ??= { ok: false, code: 'XML_MALFORMED', message: err.message };
    throw err;
  });
  parser.on('doctype', () => {
    failure ??= { ok: false, code: 'XML_DTD_FORBIDDEN', message: 'doctype' };
    throw new Error('doctype');
  });
  parser.on('opentag', (tag) => {
    elementCount++;
    checkName(tag.prefix, tag.local);
    const attrs: XmlAttribute[] = [];
    for (const key in tag.attributes) {
      const a = tag.attributes[key];
      checkName(a.prefix, a.local);
      if (a.prefix === 'xmlns' || (a.prefix === '' && a.local === 'xmlns')) continue;
      attrs.push({ ns: a.uri, local: a.local, prefix: a.prefix, value: a.value });
    }
    const el: XmlElement = {
      ns: tag.uri,
      local: tag.local,
      prefix: tag.prefix,
      attrs,
      children: [],
      text: '',
      parent: current,
      line: parser.line,
      _pos: undefined,
      _path: undefined,
    };
    if (current) current.children.push(el);
    else root = el;
    current = el;
  });
  parser.on('text', (t) => {
    if (current) current.text += t;
  });
  parser.on('cdata', (t) => {
    if (current) current.text += t;
  });
  parser.on('closetag', () => {
    current = current?.parent ?? null;
  });
  try {
    parser.write(text).close();
  } catch (err) {
    return failure ?? { ok: false, code: 'XML_MALFORMED', message: (err as Error).message };
  }
  if (!root) return { ok: false, code: 'XML_MALFORMED', message: 'no root' };
  if (options.strictQNames && badName !== null) return { ok: false, code: 'XML_MALFORMED', message: `not a QName: ${badName}` };
  return { ok: true, root, elementCount };
}

/** A plain, comparable copy of a tree (no parent links, no caches). */
export interface PlainElement {
  ns: string;
  local: string;
  prefix: string;
  line: number;
  attrs: XmlAttribute[];
  text: string;
  children: PlainElement[];
}

export function plain(el: XmlElement): PlainElement {
  return {
    ns: el.ns,
    local: el.local,
    prefix: el.prefix,
    line: el.line,
    attrs: el.attrs.map((a) => ({ ns: a.ns, local: a.local, prefix: a.prefix, value: a.value })),
    text: el.text,
    children: el.children.map(plain),
  };
}

/** First difference between two trees as a path and a description, or null when they are equal. */
export function treeDifference(a: XmlElement, b: XmlElement, at = ''): string | null {
  const here = `${at}/${a.prefix ? a.prefix + ':' : ''}${a.local}`;
  for (const key of ['ns', 'local', 'prefix', 'line', 'text'] as const) {
    if (a[key] !== b[key]) return `${here}: ${key} ${JSON.stringify(a[key]).slice(0, 80)} vs ${JSON.stringify(b[key]).slice(0, 80)}`;
  }
  if (JSON.stringify(a.attrs) !== JSON.stringify(b.attrs)) return `${here}: attrs ${JSON.stringify(a.attrs)} vs ${JSON.stringify(b.attrs)}`;
  if (a.children.length !== b.children.length) return `${here}: ${a.children.length} vs ${b.children.length} children`;
  for (let i = 0; i < a.children.length; i++) {
    if (a.children[i].parent !== a || b.children[i].parent !== b) return `${here}: parent link of child ${i}`;
    const d = treeDifference(a.children[i], b.children[i], here);
    if (d) return d;
  }
  return null;
}
