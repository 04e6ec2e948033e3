/**
 * The element tree the parser (parser.ts) builds and dom.ts hands out: plain objects, so that readers and rules
 * walk it fast and nothing needs disposing. Its own module so that the parser and dom.ts both build on it.
 */
export interface XmlAttribute {
  ns: string;
  local: string;
  prefix: string;
  value: string;
}

export interface XmlElement {
  ns: string; // namespace URI, '' when none
  local: string;
  prefix: string;
  /**
   * Empty attrs and children of parsed trees are one shared array: to change a parsed tree,
   * assign a new array (`el.children = [...el.children, x]`), never push into the old one.
   */
  attrs: XmlAttribute[];
  children: XmlElement[];
  /** Direct character data (text and CDATA children, concatenated). */
  text: string;
  parent: XmlElement | null;
  line: number;
  /** pathOf's caches (1-based position among same-named siblings, and the path); not data. */
  _pos?: number;
  _path?: string;
}

export interface XmlLimits {
  maxDepth: number;
  maxElements: number;
}
