/**
 * A strict, namespace-aware XML 1.0 (fifth edition) + Namespaces in XML 1.0 (third edition) parser that
 * builds the element tree of tree.ts directly, in one pass over the decoded string.
 *
 * Why hand-written: the general-purpose SAX parser it replaces spent most of its time on per-character
 * state dispatch and event objects; invoices are well-formed in the overwhelming majority of cases, so
 * this parser scans with charCodeAt loops and lookup tables and only slows down where the input does.
 *
 * Safe by construction: there is no DTD support at all (any <!DOCTYPE is refused before it is read), so
 * no entity other than the five predefined ones and character references can exist, nothing is fetched
 * and nothing expands. Every character of the document is checked against the Char production.
 *
 * Deliberate choices where the specifications leave room (documented in test/xml-parser.test.ts):
 * - A document declaring version 1.x other than 1.0 is parsed by the XML 1.0 rules (XML 1.0 §2.8 note).
 * - Namespace names are trimmed of surrounding whitespace, as the parser this replaced did, so that trees
 *   and namespace checks stay the same for existing documents.
 */
import type { XmlAttribute, XmlElement, XmlLimits } from './tree.js';
import { internalize } from '../util/internalize.js';

export type XmlSyntaxCode = 'XML_MALFORMED' | 'XML_DTD_FORBIDDEN' | 'XML_TOO_DEEP' | 'XML_TOO_LARGE';

/** Raised by the parser; dom.ts turns it into its public XmlParseError. */
export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly code: XmlSyntaxCode,
    readonly line: number,
  ) {
    super(message);
    this.name = 'XmlSyntaxError';
  }
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const DQUOTE = 0x22;
const HASH = 0x23;
const AMP = 0x26;
const SQUOTE = 0x27;
const SLASH = 0x2f;
const COLON = 0x3a;
const SEMICOLON = 0x3b;
const LT = 0x3c;
const EQUALS = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;
const LOWER_X = 0x78;

// ASCII part of NCName (NameStartChar / NameChar without ':'; QNames are split at the colon).
const NAME_START = 1;
const NAME_CHAR = 2;
const ASCII_NAME = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
  const other = (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e;
  ASCII_NAME[c] = letter ? NAME_START | NAME_CHAR : other ? NAME_CHAR : 0;
}

// Classes of ASCII code units in character data and attribute values.
const PLAIN = 0;
const C_LT = 1;
const C_AMP = 2;
const C_BRACKET = 3;
const C_FORBIDDEN = 4; // C0 controls other than TAB, LF, CR
const C_BLANK = 5; // TAB, LF, CR: replaced by a space in attribute values
const C_QUOTE = 6;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 0x20; c++) ASCII_CLASS[c] = C_FORBIDDEN;
ASCII_CLASS[TAB] = ASCII_CLASS[LF] = ASCII_CLASS[CR] = C_BLANK;
ASCII_CLASS[LT] = C_LT;
ASCII_CLASS[AMP] = C_AMP;
ASCII_CLASS[0x5d] = C_BRACKET;
ASCII_CLASS[DQUOTE] = ASCII_CLASS[SQUOTE] = C_QUOTE;

/** ASCII_CLASS for character data: everything that needs no attention is PLAIN, for a one-test fast path. */
const TEXT_CLASS = ASCII_CLASS.map((k) => (k === C_BLANK || k === C_QUOTE ? PLAIN : k));

/** NameStartChar of XML 1.0 5th edition, for code points from U+0080 on. */
function isNameStartCodePoint(c: number): boolean {
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    c === 0x200c ||
    c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0xeffff)
  );
}

/** NameChar of XML 1.0 5th edition, for code points from U+0080 on. */
function isNameCodePoint(c: number): boolean {
  return isNameStartCodePoint(c) || c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040;
}

/** The Char production. */
function isXmlChar(c: number): boolean {
  return c === TAB || c === LF || c === CR || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

/** Length (1 or 2 code units) of the non-ASCII name character at i, or 0 if there is none. */
function nonAsciiNameLength(src: string, i: number, start: boolean): number {
  const c = src.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = src.charCodeAt(i + 1);
    if (!(d >= 0xdc00 && d <= 0xdfff)) return 0;
    const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
    return (start ? isNameStartCodePoint(cp) : isNameCodePoint(cp)) ? 2 : 0;
  }
  return (start ? isNameStartCodePoint(c) : isNameCodePoint(c)) ? 1 : 0;
}

/**
 * Length (1 or 2) of the valid character starting with the code unit c >= 0xD800 at i, or 0 when it is
 * not a Char: a lone surrogate, U+FFFE or U+FFFF.
 */
function highCharLength(src: string, c: number, i: number): number {
  if (c <= 0xdbff) {
    const d = src.charCodeAt(i + 1);
    return d >= 0xdc00 && d <= 0xdfff ? 2 : 0;
  }
  if (c <= 0xdfff) return 0;
  return c <= 0xfffd ? 1 : 0;
}

/** End of the NCName starting at i (i itself when no name starts there). */
function scanNCName(src: string, i: number): number {
  let c = src.charCodeAt(i);
  if (c < 0x80) {
    if ((ASCII_NAME[c] & NAME_START) === 0) return i;
    i++;
  } else {
    const n = nonAsciiNameLength(src, i, true);
    if (n === 0) return i;
    i += n;
  }
  for (;;) {
    c = src.charCodeAt(i);
    if (c < 0x80) {
      if ((ASCII_NAME[c] & NAME_CHAR) === 0) return i;
      i++;
    } else if (c >= 0x80) {
      const n = nonAsciiNameLength(src, i, false);
      if (n === 0) return i;
      i += n;
    } else {
      return i; // end of input
    }
  }
}

const isBlank = (c: number): boolean => c === SPACE || c === LF || c === TAB || c === CR;

function lineAt(src: string, pos: number): number {
  let line = 1;
  for (let i = src.indexOf('\n'); i !== -1 && i < pos; i = src.indexOf('\n', i + 1)) line++;
  return line;
}

export interface ParsedTree {
  root: XmlElement;
  elementCount: number;
  /**
   * The elements with child elements whose own text may be more than blanks (spaces, tabs, line ends);
   * every other element with children has only indentation as text. Usually none: the XSD layer then
   * knows without reading (and so flattening) each container's concatenated indentation.
   */
  mixed: readonly XmlElement[];
  /**
   * The elements without child elements whose text is empty or blank (isBlankText), in document order:
   * what PEPPOL-EN16931-R008 reports. Usually none; listed here so that no rule walks the tree for them.
   */
  blankLeaves: readonly XmlElement[];
}

/**
 * No text at all, or only characters String.prototype.trim() removes: exactly when the rules' norm() of it
 * is empty (norm only collapses characters trim() removes). Most leaves start with a printable ASCII
 * character, which settles it without trimming.
 */
export function isBlankText(text: string): boolean {
  if (text.length === 0) return true;
  const first = text.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return false;
  return text.trim() === '';
}

/**
 * Parse a decoded document into the element tree. The caller has stripped a byte-order mark and
 * leading whitespace. Throws XmlSyntaxError.
 */
export function parseXmlTree(text: string, limits: XmlLimits): ParsedTree {
  // End-of-line handling (XML 1.0 §2.11): CRLF and lone CR become LF before anything else sees them.
  const src = text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
  return new TreeParser(src, limits).parse();
}

/**
 * Local names as V8-internalized strings, shared by all documents: the same string object as the name
 * literals in the readers and rules, so their `el.local === 'TypeCode'` tests are pointer compares instead
 * of character compares of a slice (measured 2.3x slower; tens of millions of compares on a 10,000-line
 * invoice). A direct-mapped cache: bounded memory whatever names a document uses; a miss internalizes.
 */
const NAME_SLOTS = 4096;

/**
 * The `children` of every leaf and the `attrs` of every element without attributes: one shared empty
 * array instead of one each (~20% of a tree's memory, which every scavenge copies while the tree is
 * live). Code that changes a parsed tree replaces arrays, never pushes into them (see XmlElement); a
 * test runs the validators over the corpus and checks this array is still empty. Not frozen: V8
 * iterates a frozen array through a heap-allocated iterator and result objects, which every
 * `for (const c of el.children)` over a leaf paid (~30 KB of garbage per typical validation).
 */
const NONE = [] as never[];

/** The shared empty array of leaves' children and attribute-less elements' attributes (for that test). */
export const SHARED_EMPTY_ARRAY: readonly never[] = NONE;

const internedNames: string[] = new Array<string>(NAME_SLOTS).fill('');

/**
 * Indentation between tags, as strings shared by all documents. Half the elements of an invoice are
 * containers whose text is only the whitespace around their children; built from slices and
 * concatenations, that text was a third of a tree's memory (13 MB of 39 on a 10,000-line CII).
 * Shared strings are internalized flat copies, never slices that would keep a document's text alive,
 * and are kept in direct-mapped caches compared by identity (a Map lookup per run made typical
 * invoices parse slower); anything long or unusual is built as before.
 */
const SHARE_BLANKS_FROM = 1 << 20;
const BLANK_SLOTS = 1024;
const MAX_SHARED_BLANK = 256;
/** Shared blank runs by length (a run is almost always a newline and one kind of indentation). */
const blankRuns: string[] = new Array<string>(MAX_SHARED_BLANK).fill('');
/** Shared joins: joinedText[slot] is joinText[slot] followed by joinRun[slot]. */
const joinText: string[] = new Array<string>(BLANK_SLOTS).fill('');
const joinRun: string[] = new Array<string>(BLANK_SLOTS).fill('');
const joinedText: string[] = new Array<string>(BLANK_SLOTS).fill('');

/** `text` followed by the blank run src[start, end): a shared string when both are short blanks. */
function appendBlank(text: string, src: string, start: number, end: number): string {
  const length = end - start;
  if (length >= MAX_SHARED_BLANK || text.length >= MAX_SHARED_BLANK) return text + src.slice(start, end);
  let run = blankRuns[length];
  if (!sameChars(run, src, start, length)) run = blankRuns[length] = internalize(src.slice(start, end));
  if (text === '') return run;
  const slot = (text.length * 61 + length) & (BLANK_SLOTS - 1);
  if (joinText[slot] === text && joinRun[slot] === run) return joinedText[slot];
  if (!isAllBlank(text)) return text + run; // mixed content: the document's own text
  const joined = internalize(text + run);
  joinText[slot] = text;
  joinRun[slot] = run;
  joinedText[slot] = joined;
  return joined;
}

function sameChars(known: string, src: string, start: number, length: number): boolean {
  if (known.length !== length) return false;
  for (let k = 0; k < length; k++) if (known.charCodeAt(k) !== src.charCodeAt(start + k)) return false;
  return true;
}

function isAllBlank(text: string): boolean {
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (!(c === LF || c === SPACE || c === TAB)) return false;
  }
  return true;
}

class TreeParser {
  private readonly len: number;
  /**
   * Large documents only: their trees live through several scavenges, and copying them is what sharing
   * saves; a typical invoice's tree dies young, and there the cache compares cost more (+13 us per parse).
   */
  private readonly shareBlanks: boolean;
  private root: XmlElement | null = null;
  private current: XmlElement | null = null;
  private depth = 0;
  private elementCount = 0;
  private closedRoot = false;

  /** Line of `nextNewline`'s predecessor: element lines are counted lazily, in document order. */
  private line = 1;
  private nextNewline: number;

  /** In-scope prefix bindings; the default namespace separately, being looked up for most elements. */
  private readonly bindings = new Map<string, string>([
    ['xml', XML_NS],
    ['xmlns', XMLNS_NS],
  ]);
  private defaultNs = '';
  /** Undo log of namespace declarations: prefix ('' = default), previous URI, depth of the declaring element. */
  private readonly undoPrefix: string[] = [];
  private readonly undoUri: (string | undefined)[] = [];
  private readonly undoDepth: number[] = [];
  /**
   * The last two element prefixes and their URIs (undefined after a binding change), so `ram:` is not
   * looked up 100,000 times, nor UBL's alternating `cac:` and `cbc:` read and looked up at every tag.
   */
  private lastPrefix = '';
  private lastPrefixUri: string | undefined = undefined;
  private otherPrefix = '';
  private otherPrefixUri: string | undefined = undefined;

  /**
   * Children of the open elements, contiguous per element: an element's children become one exactly-sized
   * array when it closes, instead of a growing array per parent (whose spare capacity was a fifth of the
   * tree's memory, and memory is what the garbage collector spends its time on).
   */
  private readonly childStack: XmlElement[] = [];
  private childTop = 0;
  /** childTop when each open element started, by depth. */
  private readonly childMarks: number[] = [];
  /** Whether each open element (by depth) has had character data other than blanks between tags (or maybe: a reference). */
  private readonly textAtDepth: boolean[] = [];
  /** Elements with children and such text (see ParsedTree.mixed). */
  private mixed: XmlElement[] | undefined;
  /** See ParsedTree.blankLeaves. */
  private blankLeaves: XmlElement[] | undefined;

  // Attributes of the start tag being read (reused scratch arrays).
  private attrCount = 0;
  private readonly attrPrefix: string[] = [];
  private readonly attrLocal: string[] = [];
  private readonly attrValue: string[] = [];
  /** Out-parameters of attributeValue() and reference(). */
  private value = '';
  private refText = '';

  constructor(
    private readonly src: string,
    private readonly limits: XmlLimits,
  ) {
    this.len = src.length;
    this.shareBlanks = src.length >= SHARE_BLANKS_FROM;
    this.nextNewline = src.indexOf('\n');
  }

  private fail(message: string, pos: number): never {
    throw new XmlSyntaxError(message, 'XML_MALFORMED', lineAt(this.src, pos));
  }

  parse(): ParsedTree {
    const src = this.src;
    const len = this.len;
    let pos = 0;
    if (src.startsWith('<?xml', 0)) {
      const c = src.charCodeAt(5);
      if (isBlank(c) || c === QUESTION) pos = this.xmlDeclaration(5);
    }
    while (pos < len) {
      if (this.current === null) {
        pos = this.outsideRoot(pos);
        if (pos >= len) break;
      } else {
        pos = this.characterData(pos, this.current);
        if (pos >= len) break;
      }
      const next = src.charCodeAt(pos + 1);
      if (next === SLASH) pos = this.endTag(pos);
      else if (next === BANG) pos = this.markupDeclaration(pos);
      else if (next === QUESTION) pos = this.processingInstruction(pos);
      else pos = this.startTag(pos);
    }
    return this.finish();
  }

  /** End of input (a method of its own so that parse()'s optimised loop never meets unseen code). */
  private finish(): ParsedTree {
    if (this.root === null) this.fail('the document has no root element', this.len);
    if (this.current !== null) this.fail(`unclosed tag <${qualifiedName(this.current)}>`, this.len);
    return { root: this.root, elementCount: this.elementCount, mixed: this.mixed ?? NONE, blankLeaves: this.blankLeaves ?? NONE };
  }

  /** Whitespace before or after the root element; stops at '<'. */
  private outsideRoot(pos: number): number {
    const src = this.src;
    let c = src.charCodeAt(pos);
    while (c === SPACE || c === LF || c === TAB) c = src.charCodeAt(++pos);
    if (pos < this.len && c !== LT) this.fail('text outside the root element', pos);
    return pos;
  }

  /** Character data inside an element up to the next '<', appended to the element's text. */
  private characterData(pos: number, el: XmlElement): number {
    const src = this.src;
    let i = pos;
    let first = src.charCodeAt(i);
    while (first === LF || first === SPACE || first === TAB) first = src.charCodeAt(++i);
    if (first !== LT) this.textAtDepth[this.depth] = true;
    if (first === LT && i > pos && this.shareBlanks) {
      el.text = appendBlank(el.text, src, pos, i);
      return i;
    }
    let start = pos;
    for (;;) {
      const c = src.charCodeAt(i);
      if (c < 0x80) {
        const k = TEXT_CLASS[c];
        if (k === PLAIN) {
          i++;
        } else if (k === C_LT) {
          break;
        } else if (k === C_AMP) {
          if (i > start) el.text += src.slice(start, i);
          i = this.reference(i);
          el.text += this.refText;
          start = i;
        } else if (k === C_BRACKET) {
          if (src.charCodeAt(i + 1) === 0x5d && src.charCodeAt(i + 2) === GT) this.fail("']]>' is not allowed in character data", i);
          i++;
        } else {
          this.fail(`character U+${c.toString(16).padStart(4, '0').toUpperCase()} is not allowed in XML`, i);
        }
      } else if (c < 0xd800) {
        i++;
      } else if (c >= 0xd800) {
        const n = highCharLength(src, c, i);
        if (n === 0) this.fail(`character U+${c.toString(16).toUpperCase()} is not allowed in XML`, i);
        i += n;
      } else {
        break; // end of input: the caller reports the unclosed element
      }
    }
    if (i > start) el.text += src.slice(start, i);
    return i;
  }

  /** An entity or character reference at '&'; sets refText, returns the position after ';'. */
  private reference(amp: number): number {
    const src = this.src;
    let j = amp + 1;
    let c = src.charCodeAt(j);
    if (c === HASH) {
      let cp = 0;
      let digits = 0;
      c = src.charCodeAt(++j);
      if (c === LOWER_X) {
        for (c = src.charCodeAt(++j); ; c = src.charCodeAt(++j)) {
          const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
          if (d < 0) break;
          cp = Math.min(cp * 16 + d, 0x110000);
          digits++;
        }
      } else {
        for (; c >= 0x30 && c <= 0x39; c = src.charCodeAt(++j)) {
          cp = Math.min(cp * 10 + (c - 0x30), 0x110000);
          digits++;
        }
      }
      if (digits === 0 || c !== SEMICOLON) this.fail('malformed character reference', amp);
      if (!isXmlChar(cp)) this.fail(`character reference &#${src.slice(amp + 2, j)}; is not a character allowed in XML`, amp);
      this.refText = String.fromCodePoint(cp);
      return j + 1;
    }
    const end = scanNCName(src, j);
    if (end === j || src.charCodeAt(end) !== SEMICOLON) this.fail("'&' must start an entity or character reference", amp);
    switch (src.slice(j, end)) {
      case 'amp':
        this.refText = '&';
        break;
      case 'lt':
        this.refText = '<';
        break;
      case 'gt':
        this.refText = '>';
        break;
      case 'quot':
        this.refText = '"';
        break;
      case 'apos':
        this.refText = "'";
        break;
      default:
        this.fail(`undefined entity &${src.slice(j, end)}; (there is no DTD, only the five predefined entities exist)`, amp);
    }
    return end + 1;
  }

  /** Interned local name for src[start, end). */
  private name(start: number, end: number): string {
    const src = this.src;
    const length = end - start;
    // A bucket of two slots (even index): see below.
    const quarter = length >> 2;
    const slot =
      (length * 131 +
        src.charCodeAt(start) * 7 +
        src.charCodeAt(end - 1) * 37 +
        src.charCodeAt(start + (length >> 1)) * 11 +
        src.charCodeAt(start + quarter * 3) * 5 +
        src.charCodeAt(start + quarter)) &
      (NAME_SLOTS - 2);
    // A short-lived slice and === compare faster than startsWith(known, start) in V8.
    const fresh = src.slice(start, end);
    const known = internedNames[slot];
    if (fresh === known) return known;
    // Two names per bucket, the last one used first. With one slot and a weaker hash, names that collided
    // evicted each other on every use (18 internalizations per parse of a 26 KB CII, ~5% of the parse);
    // over the CEN examples no name is internalized again once a document has been seen.
    const other = internedNames[slot + 1];
    if (fresh === other) return other;
    internedNames[slot + 1] = known;
    return (internedNames[slot] = internalize(fresh));
  }

  private startTag(lt: number): number {
    const src = this.src;
    const nameStart = lt + 1;
    let i = scanNCName(src, nameStart);
    if (i === nameStart) this.fail("'<' must start a tag, a comment, a CDATA section or a processing instruction", lt);
    if (this.closedRoot) this.fail('a document has exactly one root element', lt);
    let prefix = '';
    let local: string;
    if (src.charCodeAt(i) === COLON) {
      // One of the last two prefixes, compared in place (a few characters), or an interned name.
      const length = i - nameStart;
      if (sameChars(this.lastPrefix, src, nameStart, length)) prefix = this.lastPrefix;
      else if (sameChars(this.otherPrefix, src, nameStart, length)) prefix = this.otherPrefix;
      else prefix = this.name(nameStart, i);
      const localStart = i + 1;
      i = scanNCName(src, localStart);
      if (i === localStart || src.charCodeAt(i) === COLON) this.fail('malformed qualified name', lt);
      local = this.name(localStart, i);
    } else {
      local = this.name(nameStart, i);
    }

    // Attributes.
    this.attrCount = 0;
    let declared = false;
    let selfClosing = false;
    let c = src.charCodeAt(i);
    for (;;) {
      if (c === GT) {
        i++;
        break;
      }
      if (c === SLASH) {
        if (src.charCodeAt(i + 1) !== GT) this.fail("'/' in a start tag must be followed by '>'", i);
        i += 2;
        selfClosing = true;
        break;
      }
      if (!(c === SPACE || c === LF || c === TAB)) {
        if (i >= this.len) this.fail('unterminated start tag', i);
        this.fail(scanNCName(src, i) > i ? 'attributes must be separated by whitespace' : 'unexpected character in a start tag', i);
      }
      do c = src.charCodeAt(++i);
      while (c === SPACE || c === LF || c === TAB);
      if (c === GT || c === SLASH) continue;
      i = this.attribute(i);
      const n = this.attrCount - 1;
      const aPrefix = this.attrPrefix[n];
      if (aPrefix === 'xmlns' || (aPrefix === '' && this.attrLocal[n] === 'xmlns')) {
        if (!declared) {
          declared = true;
          this.lastPrefixUri = this.otherPrefixUri = undefined;
        }
        this.declare(aPrefix === '' ? '' : this.attrLocal[n], this.attrValue[n].trim(), i);
      }
      c = src.charCodeAt(i);
    }
    const gt = i - 1;

    // Namespaces: the element's own declarations apply to its name and attributes.
    let ns: string;
    if (prefix === '') {
      ns = this.defaultNs;
    } else if (prefix === this.lastPrefix && this.lastPrefixUri !== undefined) {
      ns = this.lastPrefixUri;
    } else if (prefix === this.otherPrefix && this.otherPrefixUri !== undefined) {
      ns = this.otherPrefixUri;
      this.otherPrefix = this.lastPrefix;
      this.otherPrefixUri = this.lastPrefixUri;
      this.lastPrefix = prefix;
      this.lastPrefixUri = ns;
    } else {
      if (prefix === 'xmlns') this.fail('an element name cannot have the prefix xmlns', lt);
      const uri = this.bindings.get(prefix);
      if (uri === undefined) this.fail(`unbound namespace prefix "${prefix}"`, lt);
      ns = uri;
      this.otherPrefix = this.lastPrefix;
      this.otherPrefixUri = this.lastPrefixUri;
      this.lastPrefix = prefix;
      this.lastPrefixUri = uri;
    }
    const attrs = this.attrCount > 0 ? this.resolveAttributes(lt) : NONE;

    if (++this.depth > this.limits.maxDepth) {
      throw new XmlSyntaxError(`XML nesting deeper than ${this.limits.maxDepth} levels`, 'XML_TOO_DEEP', lineAt(src, gt));
    }
    if (++this.elementCount > this.limits.maxElements) {
      throw new XmlSyntaxError(`XML has more than ${this.limits.maxElements} elements`, 'XML_TOO_LARGE', lineAt(src, gt));
    }
    let nl = this.nextNewline;
    if (nl !== -1 && nl < gt) {
      let line = this.line;
      do {
        line++;
        nl = src.indexOf('\n', nl + 1);
      } while (nl !== -1 && nl < gt);
      this.line = line;
      this.nextNewline = nl;
    }
    const parent = this.current;
    const el: XmlElement = {
      ns,
      local,
      prefix,
      attrs,
      children: NONE,
      text: '',
      parent,
      line: this.line,
      _pos: undefined,
      _path: undefined,
    };
    if (parent === null) this.root = el;
    this.childStack[this.childTop++] = el;
    if (selfClosing) {
      this.closeElement(el);
    } else {
      this.childMarks[this.depth] = this.childTop;
      this.textAtDepth[this.depth] = false;
      this.current = el;
    }
    return i;
  }

  /** One attribute at its name; records it in the scratch arrays and returns the position after the value. */
  private attribute(start: number): number {
    const src = this.src;
    let i = scanNCName(src, start);
    if (i === start) this.fail('unexpected character in a start tag', start);
    let prefix = '';
    let local: string;
    if (src.charCodeAt(i) === COLON) {
      prefix = src.slice(start, i);
      const localStart = i + 1;
      i = scanNCName(src, localStart);
      if (i === localStart || src.charCodeAt(i) === COLON) this.fail('malformed qualified attribute name', start);
      local = this.name(localStart, i);
    } else {
      local = this.name(start, i);
    }
    let c = src.charCodeAt(i);
    while (c === SPACE || c === LF || c === TAB) c = src.charCodeAt(++i);
    if (c !== EQUALS) this.fail(`attribute ${src.slice(start, i).trim()} has no value`, i);
    c = src.charCodeAt(++i);
    while (c === SPACE || c === LF || c === TAB) c = src.charCodeAt(++i);
    if (c !== DQUOTE && c !== SQUOTE) this.fail('attribute values must be quoted', i);
    i = this.attributeValue(i + 1, c);
    const n = this.attrCount++;
    this.attrPrefix[n] = prefix;
    this.attrLocal[n] = local;
    this.attrValue[n] = this.value;
    return i;
  }

  /** Attribute value after its opening quote, normalised for CDATA (XML 1.0 §3.3.3); sets `value`. */
  private attributeValue(pos: number, quote: number): number {
    const src = this.src;
    let out = '';
    let start = pos;
    let i = pos;
    for (;;) {
      const c = src.charCodeAt(i);
      if (c === quote) break;
      if (c < 0x80) {
        const k = ASCII_CLASS[c];
        if (k === PLAIN || k === C_BRACKET || k === C_QUOTE) {
          i++;
        } else if (k === C_BLANK) {
          out += src.slice(start, i) + ' ';
          start = ++i;
        } else if (k === C_AMP) {
          out += src.slice(start, i);
          i = this.reference(i);
          out += this.refText;
          start = i;
        } else if (k === C_LT) {
          this.fail("'<' is not allowed in attribute values", i);
        } else {
          this.fail(`character U+${c.toString(16).padStart(4, '0').toUpperCase()} is not allowed in XML`, i);
        }
      } else if (c < 0xd800) {
        i++;
      } else if (c >= 0xd800) {
        const n = highCharLength(src, c, i);
        if (n === 0) this.fail(`character U+${c.toString(16).toUpperCase()} is not allowed in XML`, i);
        i += n;
      } else {
        this.fail('unterminated attribute value', pos);
      }
    }
    this.value = start === pos ? src.slice(pos, i) : out + src.slice(start, i);
    return i + 1;
  }

  /** A namespace declaration of the start tag being read (Namespaces in XML 1.0 §3 constraints). */
  private declare(prefix: string, uri: string, pos: number): void {
    if (prefix !== '' && uri === '') this.fail(`xmlns:${prefix}="" cannot undeclare a prefix in XML 1.0`, pos);
    if (prefix === 'xml' && uri !== XML_NS) this.fail(`the prefix xml is bound to ${XML_NS} only`, pos);
    if (prefix === 'xmlns') this.fail('the prefix xmlns cannot be declared', pos);
    if (uri === XMLNS_NS) this.fail(`${XMLNS_NS} cannot be bound to a prefix or be the default namespace`, pos);
    if (uri === XML_NS && prefix !== 'xml') this.fail(`${XML_NS} is bound to the prefix xml only`, pos);
    this.undoPrefix.push(prefix);
    this.undoDepth.push(this.depth + 1);
    if (prefix === '') {
      this.undoUri.push(this.defaultNs);
      this.defaultNs = uri;
    } else {
      this.undoUri.push(this.bindings.get(prefix));
      this.bindings.set(prefix, uri);
    }
  }

  /** The scratch attributes with their prefixes resolved, refusing unbound prefixes and duplicates. */
  private resolveAttributes(lt: number): XmlAttribute[] {
    const count = this.attrCount;
    let attrs: XmlAttribute[] | null = null;
    const nsOf: string[] = count > 1 ? new Array<string>(count) : [];
    // Pairwise comparison for the usual handful of attributes; a set when there are many, so that a
    // start tag with 100,000 attributes costs linear time, not quadratic.
    const seen = count > 16 ? new Set<string>() : null;
    for (let n = 0; n < count; n++) {
      const prefix = this.attrPrefix[n];
      const local = this.attrLocal[n];
      let ns = '';
      if (prefix !== '') {
        const uri = this.bindings.get(prefix);
        if (uri === undefined) this.fail(`unbound namespace prefix "${prefix}" on attribute ${prefix}:${local}`, lt);
        ns = uri;
      }
      // Attribute names are unique as expanded names (Namespaces in XML 1.0 §6.3), declarations included.
      if (seen !== null) {
        const key = prefix === '' ? local : `{${ns}}${local}`;
        if (seen.has(key)) this.fail(`duplicate attribute ${key}`, lt);
        seen.add(key);
      } else if (count > 1) {
        for (let m = 0; m < n; m++) {
          if (this.attrLocal[m] === local && nsOf[m] === ns && (this.attrPrefix[m] === '') === (prefix === '')) {
            this.fail(`duplicate attribute ${prefix === '' ? local : `{${ns}}${local}`}`, lt);
          }
        }
        nsOf[n] = ns;
      }
      if (prefix === 'xmlns' || (prefix === '' && local === 'xmlns')) continue; // declarations are not data
      const attribute: XmlAttribute = { ns, local, prefix, value: this.attrValue[n] };
      if (attrs === null)
        attrs = [attribute]; // exactly sized: most elements have one attribute
      else attrs.push(attribute);
    }
    return attrs ?? NONE;
  }

  private endTag(lt: number): number {
    const src = this.src;
    const el = this.current;
    if (el === null) this.fail('end tag without a matching start tag', lt);
    let i = lt + 2;
    const prefix = el.prefix;
    if (prefix !== '') {
      if (!(src.slice(i, i + prefix.length) === prefix && src.charCodeAt(i + prefix.length) === COLON)) this.mismatch(el, lt);
      i += prefix.length + 1;
    }
    const local = el.local;
    if (src.slice(i, i + local.length) !== local) this.mismatch(el, lt);
    i += local.length;
    let c = src.charCodeAt(i);
    if (c !== GT) {
      if (!(c === SPACE || c === LF || c === TAB)) this.mismatch(el, lt);
      do c = src.charCodeAt(++i);
      while (c === SPACE || c === LF || c === TAB);
      if (c !== GT) this.fail('malformed end tag', i);
    }
    this.closeElement(el, this.childMarks[this.depth]);
    return i + 1;
  }

  private mismatch(el: XmlElement, lt: number): never {
    const end = this.src.indexOf('>', lt);
    const found = this.src.slice(lt, end === -1 ? Math.min(this.len, lt + 40) : Math.min(end + 1, lt + 80));
    this.fail(`end tag ${found} does not match the start tag <${qualifiedName(el)}>`, lt);
  }

  private closeElement(el: XmlElement, mark = this.childTop): void {
    const depth = this.depth;
    if (this.childTop > mark) {
      el.children = this.childStack.slice(mark, this.childTop);
      this.childTop = mark;
      if (this.textAtDepth[depth]) (this.mixed ??= []).push(el);
    } else if (isBlankText(el.text)) {
      // A leaf closes before anything after it opens, so these come in document order.
      (this.blankLeaves ??= []).push(el);
    }
    const undoDepth = this.undoDepth;
    if (undoDepth.length > 0 && undoDepth[undoDepth.length - 1] === depth) {
      do {
        undoDepth.pop();
        const prefix = this.undoPrefix.pop()!;
        const uri = this.undoUri.pop();
        if (prefix === '') this.defaultNs = uri!;
        else if (uri === undefined) this.bindings.delete(prefix);
        else this.bindings.set(prefix, uri);
      } while (undoDepth.length > 0 && undoDepth[undoDepth.length - 1] === depth);
      this.lastPrefixUri = this.otherPrefixUri = undefined;
    }
    this.depth = depth - 1;
    this.current = el.parent;
    if (el.parent === null) this.closedRoot = true;
  }

  /** `<!`: a comment, a CDATA section, or a refused DOCTYPE. */
  private markupDeclaration(lt: number): number {
    const src = this.src;
    if (src.startsWith('<!--', lt)) {
      const end = src.indexOf('--', lt + 4);
      if (end === -1) this.fail('unterminated comment', lt);
      if (src.charCodeAt(end + 2) !== GT) this.fail("'--' is not allowed inside a comment", end);
      this.checkChars(lt + 4, end);
      return end + 3;
    }
    if (src.startsWith('<![CDATA[', lt)) {
      if (this.current === null) this.fail('a CDATA section outside the root element', lt);
      const end = src.indexOf(']]>', lt + 9);
      if (end === -1) this.fail('unterminated CDATA section', lt);
      this.checkChars(lt + 9, end);
      if (end > lt + 9) {
        this.current.text += src.slice(lt + 9, end);
        this.textAtDepth[this.depth] = true;
      }
      return end + 3;
    }
    if (src.startsWith('<!DOCTYPE', lt)) {
      if (this.root !== null) this.fail('a document type declaration after the root element', lt);
      throw new XmlSyntaxError('Document type declarations (DTDs) are not accepted in invoices', 'XML_DTD_FORBIDDEN', lineAt(src, lt));
    }
    return this.fail("'<!' must start a comment or a CDATA section", lt);
  }

  /** `<?target ...?>`; the XML declaration itself is read by xmlDeclaration(). */
  private processingInstruction(lt: number): number {
    const src = this.src;
    const targetStart = lt + 2;
    const targetEnd = scanNCName(src, targetStart);
    if (targetEnd === targetStart) this.fail('processing instruction without a valid target', lt);
    const target = src.slice(targetStart, targetEnd);
    if (target.toLowerCase() === 'xml') {
      this.fail(
        target === 'xml'
          ? 'the XML declaration is allowed only at the very start of the document'
          : `the processing instruction target ${target} is reserved`,
        lt,
      );
    }
    const c = src.charCodeAt(targetEnd);
    if (c === QUESTION && src.charCodeAt(targetEnd + 1) === GT) return targetEnd + 2;
    if (!(c === SPACE || c === LF || c === TAB)) this.fail('malformed processing instruction', targetEnd);
    const end = src.indexOf('?>', targetEnd);
    if (end === -1) this.fail('unterminated processing instruction', lt);
    this.checkChars(targetEnd, end);
    return end + 2;
  }

  /** The XML declaration at the start (XML 1.0 §2.8), from after `<?xml`; returns the position after `?>`. */
  private xmlDeclaration(pos: number): number {
    const src = this.src;
    const expected = ['version', 'encoding', 'standalone'];
    let next = 0; // index into `expected` of the first name still allowed
    let i = pos;
    for (;;) {
      const before = i;
      let c = src.charCodeAt(i);
      while (c === SPACE || c === LF || c === TAB) c = src.charCodeAt(++i);
      if (c === QUESTION) {
        if (src.charCodeAt(i + 1) !== GT) this.fail("'?' is not allowed inside the XML declaration", i);
        if (next === 0) this.fail('the XML declaration must contain a version', i);
        return i + 2;
      }
      if (i === before) this.fail('whitespace required in the XML declaration', i);
      const nameStart = i;
      while (i < this.len && !(c === EQUALS || c === QUESTION || c === SPACE || c === LF || c === TAB)) c = src.charCodeAt(++i);
      const name = src.slice(nameStart, i);
      const index = expected.indexOf(name, next);
      if (index === -1 || (next === 0 && index !== 0)) this.fail(`unexpected "${name}" in the XML declaration`, nameStart);
      next = index + 1;
      while (c === SPACE || c === LF || c === TAB) c = src.charCodeAt(++i);
      if (c !== EQUALS) this.fail('malformed XML declaration', i);
      c = src.charCodeAt(++i);
      while (c === SPACE || c === LF || c === TAB) c = src.charCodeAt(++i);
      if (c !== DQUOTE && c !== SQUOTE) this.fail('values in the XML declaration must be quoted', i);
      const valueStart = i + 1;
      const valueEnd = src.indexOf(c === DQUOTE ? '"' : "'", valueStart);
      if (valueEnd === -1) this.fail('unterminated XML declaration', i);
      const value = src.slice(valueStart, valueEnd);
      const valid =
        name === 'version'
          ? /^1\.[0-9]+$/.test(value)
          : name === 'encoding'
            ? /^[A-Za-z][A-Za-z0-9._-]*$/.test(value)
            : value === 'yes' || value === 'no';
      if (!valid) this.fail(`invalid ${name} "${value}" in the XML declaration`, valueStart);
      i = valueEnd + 1;
    }
  }

  /** Every character of src[start, end) must match the Char production. */
  private checkChars(start: number, end: number): void {
    const src = this.src;
    for (let i = start; i < end; ) {
      const c = src.charCodeAt(i);
      if (c < 0xd800) {
        if (c < 0x20 && ASCII_CLASS[c] === C_FORBIDDEN)
          this.fail(`character U+${c.toString(16).padStart(4, '0').toUpperCase()} is not allowed in XML`, i);
        i++;
      } else {
        const n = highCharLength(src, c, i);
        if (n === 0) this.fail(`character U+${c.toString(16).toUpperCase()} is not allowed in XML`, i);
        i += n;
      }
    }
  }
}

function qualifiedName(el: XmlElement): string {
  return el.prefix ? `${el.prefix}:${el.local}` : el.local;
}
