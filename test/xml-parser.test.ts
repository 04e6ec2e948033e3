/**
 * The hand-written parser of src/xml/parser.ts against saxes (test/saxes-reference.ts), the conformant
 * parser it replaced: a table of malformed and hostile inputs and seeded random mutations of curated
 * invoices (test/fixtures; every corpus XML file is compared in test/conformance/xml-parser-corpus.test.ts). Both must accept with the same tree (names, namespaces, attributes, text,
 * start-tag lines, parent links) or both reject with the same code.
 *
 * Where the two disagree, the XML specifications decide, and the reference is adjusted or the case is
 * listed here (each was checked against the text of the specification):
 * 1. QNames. Namespaces in XML 1.0 §3 and §7 require every element and attribute name to match QName,
 *    whose local part and prefix are NCNames (NCName start character first). saxes checks only that the
 *    whole name is an XML Name with at most one colon, so it accepts `<a:1b>` or `<a:-b>`. We reject
 *    them; the reference does too with `strictQNames`.
 * 2. Version 1.x. XML 1.0 §2.8 (note): an XML 1.0 processor processes a document declaring 1.x other
 *    than 1.0 as a 1.0 document. saxes switches to XML 1.1 rules (NEL and U+2028 as line ends, C1
 *    controls refused, xmlns:p="" allowed). We apply the 1.0 rules; the reference is run with
 *    forceXMLVersion.
 * 3. Surrogates. The Char production excludes lone surrogates. saxes combines a high surrogate with
 *    whatever follows without checking it is a low surrogate, so it accepts e.g. "\uD800a"; we reject.
 *    Decoded bytes never contain lone surrogates (TextDecoder replaces them), so only string input sees it.
 * 4. DOCTYPE. We refuse any <!DOCTYPE at its keyword with XML_DTD_FORBIDDEN without reading the DTD;
 *    saxes reads the declaration first, so a DOCTYPE that is itself broken or unterminated is
 *    XML_MALFORMED there. Both refuse; only the code differs, and ours is the one the API documents.
 * 5. Processing instructions. XML 1.0 production [16]: the target is followed by whitespace or by '?>'.
 *    saxes ends the target at any '?' and reads `<?pi?x?>` as target "pi", data "?x" (found by the
 *    mutation test below); we reject it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodeXmlBytes, parseXml, XmlParseError, type XmlDoc } from '../src/xml/dom.js';
import { saxesTree } from './saxes-reference.js';
import { disagreement, ours, type Verdict } from './xml-differential.js';
import { fixturePath } from './fixtures.js';
import { prng } from './test-utils.js';

const LONG = 'Lorem ipsum dolor sit amet, 0123456789 +/=;:?!"\'()[{}|~ '.repeat(12);

// [label, input, expected verdict]. Both parsers must give this verdict (and, when accepted, the same tree).
const TABLE: [string, string | Uint8Array, Verdict][] = [
  // Structure
  ['empty document', '', 'XML_MALFORMED'],
  ['only whitespace', ' \n\t ', 'XML_MALFORMED'],
  ['only a comment', '<!-- c -->', 'XML_MALFORMED'],
  ['text without markup', 'just text', 'XML_MALFORMED'],
  ['text before the root', 'x<r/>', 'XML_MALFORMED'],
  ['text after the root', '<r/>x', 'XML_MALFORMED'],
  ['a reference after the root', '<r/>&amp;', 'XML_MALFORMED'],
  ['a second root element', '<a/><b/>', 'XML_MALFORMED'],
  ['unclosed root', '<r>', 'XML_MALFORMED'],
  ['unclosed child', '<r><a></r>', 'XML_MALFORMED'],
  ['mismatched end tag', '<r><a></b></r>', 'XML_MALFORMED'],
  ['end tag with a longer name', '<r><a></ab></r>', 'XML_MALFORMED'],
  ['end tag with a shorter name', '<r><ab></a></r>', 'XML_MALFORMED'],
  ['end tag with another prefix', '<p:r xmlns:p="u" xmlns:q="u"></q:r>', 'XML_MALFORMED'],
  ['end tag without a start tag', '<r/></r>', 'XML_MALFORMED'],
  ['empty end tag', '<r></></r>', 'XML_MALFORMED'],
  ['whitespace before > of an end tag', '<r></r \n>', 'ok'],
  ['truncated start tag', '<r', 'XML_MALFORMED'],
  ['truncated after <', '<r><', 'XML_MALFORMED'],
  ['space after <', '< r/>', 'XML_MALFORMED'],
  ['slash not followed by >', '<r/ >', 'XML_MALFORMED'],
  ['comments, PIs and whitespace around the root', '<?xml version="1.0"?>\n<!-- a --><?pi data?>\n<r/>\n<!-- b --><?pi?>\n', 'ok'],
  // Names
  ['name starting with a digit', '<1r/>', 'XML_MALFORMED'],
  ['name starting with a hyphen', '<-r/>', 'XML_MALFORMED'],
  ['name with a middle dot inside (NameChar)', '<a\u00B7b/>', 'ok'],
  ['name starting with a middle dot', '<\u00B7a/>', 'XML_MALFORMED'],
  ['non-ASCII and astral name characters', '<\u00E9l\u00E8ve \u4E2D="1"><\u{10000}x/></\u00E9l\u00E8ve>', 'ok'],
  ['U+00D7 is not a name character', '<a\u00D7/>', 'XML_MALFORMED'],
  ['a name starting with a colon', '<:r/>', 'XML_MALFORMED'],
  ['a name ending with a colon', '<r:/>', 'XML_MALFORMED'],
  ['two colons in a name', '<a:b:c xmlns:a="u"/>', 'XML_MALFORMED'],
  ['QName whose local part starts with a digit (note 1)', '<a:1b xmlns:a="u"/>', 'XML_MALFORMED'],
  // Attributes
  ['attributes, both quotes, entities, normalisation', '<r a="1" b=\'x"y\' c="&lt;&amp;&#x9;" d="a\tb\nc" e = "sp"/>', 'ok'],
  ['duplicate attribute', '<r a="1" a="2"/>', 'XML_MALFORMED'],
  ['duplicate expanded name via two prefixes', '<r xmlns:p="u" xmlns:q="u" p:a="1" q:a="2"/>', 'XML_MALFORMED'],
  ['same local name in two namespaces', '<r xmlns:p="u" xmlns:q="v" p:a="1" q:a="2" a="3"/>', 'ok'],
  ['duplicate namespace declaration', '<r xmlns:p="u" xmlns:p="u"/>', 'XML_MALFORMED'],
  ['unquoted attribute value', '<r a=1/>', 'XML_MALFORMED'],
  ['attribute without a value', '<r a/>', 'XML_MALFORMED'],
  ['attribute without =', '<r a "1"/>', 'XML_MALFORMED'],
  ['no whitespace between attributes', '<r a="1"b="2"/>', 'XML_MALFORMED'],
  ['< in an attribute value', '<r a="<"/>', 'XML_MALFORMED'],
  ['> and ]]> in an attribute value are fine', '<r a="]]>"/>', 'ok'],
  ['unterminated attribute value', '<r a="1/>', 'XML_MALFORMED'],
  ['undefined entity in an attribute value', '<r a="&nbsp;"/>', 'XML_MALFORMED'],
  ['bare & in an attribute value', '<r a="a & b"/>', 'XML_MALFORMED'],
  // Namespaces
  ['unbound element prefix', '<p:r/>', 'XML_MALFORMED'],
  ['unbound attribute prefix', '<r p:a="1"/>', 'XML_MALFORMED'],
  ['prefix bound on an ancestor, out of scope after it closes', '<r><a xmlns:p="u"/><p:b/></r>', 'XML_MALFORMED'],
  ['rebinding and default namespace undeclared', '<r xmlns="u" xmlns:p="v"><p:a xmlns:p="w"><b xmlns=""/></p:a><p:c/></r>', 'ok'],
  ['xmlns:p="" (no undeclaring in XML 1.0)', '<r xmlns:p=""/>', 'XML_MALFORMED'],
  ['xmlns:p with only whitespace', '<r xmlns:p="  "/>', 'XML_MALFORMED'],
  ['namespace names are trimmed', '<p:r xmlns:p=" urn:x "/>', 'ok'],
  ['xml prefix bound to another URI', '<r xmlns:xml="urn:x"/>', 'XML_MALFORMED'],
  ['xml prefix bound to its own URI', '<r xmlns:xml="http://www.w3.org/XML/1998/namespace" xml:lang="de"/>', 'ok'],
  ['another prefix bound to the xml namespace', '<r xmlns:x="http://www.w3.org/XML/1998/namespace"/>', 'XML_MALFORMED'],
  ['default namespace set to the xml namespace', '<r xmlns="http://www.w3.org/XML/1998/namespace"/>', 'XML_MALFORMED'],
  ['xmlns prefix declared', '<r xmlns:xmlns="urn:x"/>', 'XML_MALFORMED'],
  ['a prefix bound to the xmlns namespace', '<r xmlns:x="http://www.w3.org/2000/xmlns/"/>', 'XML_MALFORMED'],
  ['element with the xmlns prefix', '<xmlns:r/>', 'XML_MALFORMED'],
  ['attribute xml:lang without declaration', '<r xml:lang="en"/>', 'ok'],
  // Characters
  ['NUL in text', '<r>\u0000</r>', 'XML_MALFORMED'],
  ['C0 control in text', '<r>a\u0001b</r>', 'XML_MALFORMED'],
  ['C0 control in an attribute value', '<r a="\u001F"/>', 'XML_MALFORMED'],
  ['C0 control in a comment', '<r><!-- \u0008 --></r>', 'XML_MALFORMED'],
  ['U+FFFE in text', '<r>\uFFFE</r>', 'XML_MALFORMED'],
  ['U+FFFF in a CDATA section', '<r><![CDATA[\uFFFF]]></r>', 'XML_MALFORMED'],
  ['lone low surrogate', '<r>\uDC00</r>', 'XML_MALFORMED'],
  ['paired surrogates and C1 controls are characters', '<r>\u{1F600}\u0085\u2028\u007F</r>', 'ok'],
  ['CRLF and CR line ends, in text and attribute values', '<r\r\na="x\r\ny\rz">\r\n1\r2\r\n<c/>\r</r>', 'ok'],
  // References
  ['predefined entities and character references', '<r>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x1F600;&#0000067;</r>', 'ok'],
  ['undefined entity', '<r>&nbsp;</r>', 'XML_MALFORMED'],
  ['entity name case matters', '<r>&AMP;</r>', 'XML_MALFORMED'],
  ['bare &', '<r>a & b</r>', 'XML_MALFORMED'],
  ['reference without ;', '<r>&amp</r>', 'XML_MALFORMED'],
  ['character reference to NUL', '<r>&#0;</r>', 'XML_MALFORMED'],
  ['character reference to a surrogate', '<r>&#xD800;</r>', 'XML_MALFORMED'],
  ['character reference to U+FFFE', '<r>&#xFFFE;</r>', 'XML_MALFORMED'],
  ['character reference beyond U+10FFFF', '<r>&#x110000;</r>', 'XML_MALFORMED'],
  ['character reference with uppercase X', '<r>&#X41;</r>', 'XML_MALFORMED'],
  ['empty character reference', '<r>&#;</r>', 'XML_MALFORMED'],
  ['character references to TAB, LF, CR are kept literally', '<r a="&#9;&#10;&#13;">&#13;&#10;</r>', 'ok'],
  // Text, CDATA, comments, PIs
  [']]> in text', '<r>a]]>b</r>', 'XML_MALFORMED'],
  [']] and > apart in text', '<r>]]&gt; ]] > ]]]</r>', 'ok'],
  ['CDATA with markup inside, mixed with text', '<r>a<![CDATA[<b>&amp;]]]]>c<![CDATA[]]></r>', 'ok'],
  ['CDATA before the root', '<![CDATA[x]]><r/>', 'XML_MALFORMED'],
  ['CDATA after the root', '<r/><![CDATA[]]>', 'XML_MALFORMED'],
  ['unterminated CDATA', '<r><![CDATA[x</r>', 'XML_MALFORMED'],
  ['lowercase cdata keyword', '<r><![cdata[x]]></r>', 'XML_MALFORMED'],
  ['-- inside a comment', '<r><!-- a -- b --></r>', 'XML_MALFORMED'],
  ['comment ending in --->', '<r><!-- a ---></r>', 'XML_MALFORMED'],
  ['empty comment and comment with single dashes', '<r><!----><!-- - -> --></r>', 'ok'],
  ['unterminated comment', '<r><!-- x</r>', 'XML_MALFORMED'],
  ['<! followed by anything else', '<r><!ELEMENT r ANY></r>', 'XML_MALFORMED'],
  ['PI inside an element', '<r>a<?target some data?>b</r>', 'ok'],
  ['PI without a target', '<r><? x?></r>', 'XML_MALFORMED'],
  ['PI target with a colon', '<r><?a:b?></r>', 'XML_MALFORMED'],
  ['PI target xml inside the document', '<r><?xml version="1.0"?></r>', 'XML_MALFORMED'],
  ['PI target XML in another case', '<r><?XmL x?></r>', 'XML_MALFORMED'],
  ['PI target starting with xml is allowed', '<?xml-stylesheet href="a"?><r/>', 'ok'],
  ['PI target not followed by whitespace', '<r><?pi-x"?></r>', 'XML_MALFORMED'],
  ['unterminated PI', '<r><?pi x</r>', 'XML_MALFORMED'],
  // XML declaration
  ['full XML declaration', '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><r/>', 'ok'],
  ['XML declaration with single quotes and spaces around =', "<?xml version = '1.0'  encoding= 'utf-8'?><r/>", 'ok'],
  ['XML declaration without version', '<?xml encoding="UTF-8"?><r/>', 'XML_MALFORMED'],
  ['empty XML declaration', '<?xml?><r/>', 'XML_MALFORMED'],
  ['XML declaration in the wrong order', '<?xml version="1.0" standalone="no" encoding="UTF-8"?><r/>', 'XML_MALFORMED'],
  ['XML declaration with an unknown pseudo-attribute', '<?xml version="1.0" foo="bar"?><r/>', 'XML_MALFORMED'],
  ['XML declaration without whitespace between pairs', '<?xml version="1.0"encoding="UTF-8"?><r/>', 'XML_MALFORMED'],
  ['XML declaration with version 2.0', '<?xml version="2.0"?><r/>', 'XML_MALFORMED'],
  ['XML declaration with version 1.1 (note 2)', '<?xml version="1.1"?><r>\u0085</r>', 'ok'],
  ['XML declaration with a bad encoding name', '<?xml version="1.0" encoding="-utf8"?><r/>', 'XML_MALFORMED'],
  ['XML declaration with standalone maybe', '<?xml version="1.0" standalone="maybe"?><r/>', 'XML_MALFORMED'],
  ['XML declaration unquoted', '<?xml version=1.0?><r/>', 'XML_MALFORMED'],
  ['XML declaration not terminated by ?>', '<?xml version="1.0"><r/>', 'XML_MALFORMED'],
  ['XML declaration after a comment', '<!-- c --><?xml version="1.0"?><r/>', 'XML_MALFORMED'],
  ['second XML declaration', '<?xml version="1.0"?><?xml version="1.0"?><r/>', 'XML_MALFORMED'],
  ['leading whitespace before the XML declaration is tolerated', '\n \t<?xml version="1.0"?><r/>', 'ok'],
  ['uppercase XML declaration', '<?XML version="1.0"?><r/>', 'XML_MALFORMED'],
  // DTDs: refused, never read
  ['XXE: external entity', '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>', 'XML_DTD_FORBIDDEN'],
  ['XXE: parameter entity', '<!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:1/evil.dtd"> %p;]><r/>', 'XML_DTD_FORBIDDEN'],
  ['external DTD subset', '<!DOCTYPE r SYSTEM "http://example.com/r.dtd"><r/>', 'XML_DTD_FORBIDDEN'],
  [
    'billion laughs',
    `<!DOCTYPE r [<!ENTITY a "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${'b'.repeat(i + 1)} "${`&${i ? 'b'.repeat(i) : 'a'};`.repeat(10)}">`).join('')}]><r>&bbbbbbbbb;</r>`,
    'XML_DTD_FORBIDDEN',
  ],
  ['quadratic blowup', `<!DOCTYPE r [<!ENTITY a "${'x'.repeat(10_000)}">]><r>${'&a;'.repeat(1000)}</r>`, 'XML_DTD_FORBIDDEN'],
  ['internal subset only', '<!DOCTYPE r []><r/>', 'XML_DTD_FORBIDDEN'],
  ['DOCTYPE after the root', '<r/><!DOCTYPE r>', 'XML_MALFORMED'],
  ['lowercase doctype', '<!doctype r><r/>', 'XML_MALFORMED'],
  // Bytes: BOMs and encodings
  ['UTF-8 BOM', new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('<?xml version="1.0"?><r>\u00e4</r>')]), 'ok'],
  ['UTF-8 BOM then whitespace', new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(' \r\n<r/>')]), 'ok'],
  [
    'UTF-16LE with BOM',
    new Uint8Array([0xff, 0xfe, ...Buffer.from('<?xml version="1.0" encoding="UTF-16"?><r>\u20ac</r>', 'utf16le')]),
    'ok',
  ],
  ['UTF-16BE with BOM', new Uint8Array([0xfe, 0xff, ...Buffer.from('<r a="\u00df"/>', 'utf16le').swap16()]), 'ok'],
  ['UTF-16LE without BOM', new Uint8Array(Buffer.from('<r>x</r>', 'utf16le')), 'ok'],
  [
    'ISO-8859-1 declared',
    new Uint8Array([...Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><r>'), 0xfc, ...Buffer.from('</r>')]),
    'ok',
  ],
  [
    'windows-1252 declared',
    new Uint8Array([...Buffer.from('<?xml version="1.0" encoding="windows-1252"?><r>'), 0x80, ...Buffer.from('</r>')]),
    'ok',
  ],
  ['invalid UTF-8', new Uint8Array([...Buffer.from('<r>'), 0xc3, 0x28, ...Buffer.from('</r>')]), 'XML_ENCODING'],
  ['overlong UTF-8 for <', new Uint8Array([...Buffer.from('<r>'), 0xc0, 0xbc, ...Buffer.from('</r>')]), 'XML_ENCODING'],
  ['UTF-8 encoded surrogate', new Uint8Array([...Buffer.from('<r>'), 0xed, 0xa0, 0x80, ...Buffer.from('</r>')]), 'XML_ENCODING'],
  // Long runs of text (attachments run to megabytes) with what needs attention inside and after them.
  ['long text with references', `<r>${LONG}&amp;${LONG}&#x20AC;${LONG}</r>`, 'ok'],
  ['long text, non-ASCII and line ends', `<r>${LONG}\u00e9\u20ac\r\n\t${LONG}\ud83d\ude00${LONG}\ufffd</r>`, 'ok'],
  ['long text then child elements', `<r>${LONG}<c>${LONG}</c>${LONG}<c/></r>`, 'ok'],
  ['long text then ]]>', `<r>${LONG}]]>${LONG}</r>`, 'XML_MALFORMED'],
  ['long text then a lone ]', `<r>${LONG}]${LONG}</r>`, 'ok'],
  ['long text then a C0 control', `<r>${LONG}\u0001</r>`, 'XML_MALFORMED'],
  ['long text then U+FFFE', `<r>${LONG}\ufffe</r>`, 'XML_MALFORMED'],
  ['long text then a bare &', `<r>${LONG}& ${LONG}</r>`, 'XML_MALFORMED'],
  ['long text, unclosed', `<r>${LONG}${LONG}`, 'XML_MALFORMED'],
  ['long text as bytes', new Uint8Array(Buffer.from(`<r>${LONG}\u00e9${LONG}</r>`)), 'ok'],
];

test(`malformed and hostile inputs: ${TABLE.length} cases, the same verdict as saxes and the expected one`, () => {
  assert.ok(TABLE.length >= 60);
  const problems: string[] = [];
  for (const [label, input, expected] of TABLE) {
    const got = ours(input).verdict;
    if (got !== expected) problems.push(`${label}: expected ${expected}, got ${got} (${ours(input).error?.message})`);
    const d = disagreement(input);
    if (d) problems.push(`${label}: ${d}`);
  }
  assert.deepEqual(problems, []);
});

test('documented departures from saxes (notes 1-5 at the top): the specification wins', () => {
  // 1. Not a QName: saxes accepts, we reject.
  assert.equal(saxesTree('<a:1b xmlns:a="u"/>').ok, true);
  assert.equal(ours('<a:1b xmlns:a="u"/>').verdict, 'XML_MALFORMED');
  assert.equal(ours('<r xmlns:a="u" a:-x="1"/>').verdict, 'XML_MALFORMED');
  // 2. Version 1.1 is read by the 1.0 rules: U+0085 is text, not a line end; xmlns:p="" stays an error.
  assert.equal(ours('<?xml version="1.1"?><r>a\u0085b</r>').doc?.root.text, 'a\u0085b');
  assert.equal(ours('<?xml version="1.1"?><r xmlns:p=""/>').verdict, 'XML_MALFORMED');
  // 3. A lone high surrogate: saxes accepts it when something follows, we reject.
  assert.equal(saxesTree('<r>\uD800a</r>').ok, true);
  assert.equal(ours('<r>\uD800a</r>').verdict, 'XML_MALFORMED');
  assert.equal(ours('<r a="\uD800"/>').verdict, 'XML_MALFORMED');
  // 4. A broken DOCTYPE: saxes says malformed, we refuse the DOCTYPE itself.
  const broken = '<!DOCTYPE r [<!-- -- -->]><r/>';
  assert.deepEqual([saxesTree(broken).ok, ours(broken).verdict], [false, 'XML_DTD_FORBIDDEN']);
  assert.equal(ours('<!DOCTYPE r [').verdict, 'XML_DTD_FORBIDDEN');
  // 5. A PI target must be followed by whitespace or '?>'.
  assert.equal(saxesTree('<r><?pi?x?></r>').ok, true);
  assert.equal(ours('<r><?pi?x?></r>').verdict, 'XML_MALFORMED');
  assert.equal(ours('<r><?pi ?x?></r>').verdict, 'ok');
});

test('trees: text, attributes, namespaces and lines as the readers expect them', () => {
  const xml =
    '<?xml version="1.0"?>\r\n<p:r xmlns:p="urn:p" xmlns="urn:d"\r\n  a="x\ty" p:b="&lt;1&#10;">\r\n  t1<c>v</c>t2<![CDATA[c]]>&amp;\r\n  <d\r\n   e="1"/>\r\n</p:r>';
  const { root, elementCount } = parseXml(xml);
  assert.equal(elementCount, 3);
  assert.deepEqual([root.ns, root.prefix, root.local, root.line], ['urn:p', 'p', 'r', 3]);
  assert.deepEqual(root.attrs, [
    { ns: '', local: 'a', prefix: '', value: 'x y' },
    { ns: 'urn:p', local: 'b', prefix: 'p', value: '<1\n' },
  ]);
  assert.equal(root.text, '\n  t1t2c&\n  \n');
  assert.deepEqual(
    root.children.map((c) => [c.ns, c.prefix, c.local, c.text, c.line, c.parent === root]),
    [
      ['urn:d', '', 'c', 'v', 4, true],
      ['urn:d', '', 'd', '', 6, true],
    ],
  );
});

test('many attributes on one element: duplicates found among them, in either form', () => {
  const many = Array.from({ length: 3000 }, (_, i) => ` a${i}="${i}"`).join('');
  assert.equal(ours(`<r${many}/>`).doc?.root.attrs.length, 3000);
  assert.equal(ours(`<r${many} a1234="x"/>`).verdict, 'XML_MALFORMED');
  assert.equal(ours(`<r xmlns:p="u" xmlns:q="u"${many} p:z="1" q:z="2"/>`).verdict, 'XML_MALFORMED');
  assert.equal(ours(`<r xmlns:p="u" xmlns:q="v"${many} p:z="1" q:z="2" z="3"/>`).verdict, 'ok');
  assert.equal(ours(`<r${many} xmlns="u" xmlns="u"/>`).verdict, 'XML_MALFORMED');
  for (const xml of [`<r${many} a1234="x"/>`, `<r xmlns:p="u" xmlns:q="v"${many} p:z="1" q:z="2" z="3"/>`])
    assert.equal(disagreement(xml), null);
});

test('limits: depth and element count, with the line of the offending start tag', () => {
  const deep = '<a>\n'.repeat(5) + '</a>'.repeat(5);
  const tooDeep = (() => {
    try {
      parseXml(deep, { maxDepth: 4, maxElements: 100 });
    } catch (e) {
      return e;
    }
  })();
  assert.ok(tooDeep instanceof XmlParseError && tooDeep.code === 'XML_TOO_DEEP' && tooDeep.line === 5, String(tooDeep));
  assert.equal(parseXml(deep, { maxDepth: 5, maxElements: 5 }).elementCount, 5);
  assert.equal(ours(`<r>${'<x/>'.repeat(5)}</r>`).verdict, 'ok');
  assert.throws(
    () => parseXml(`<r>${'<x/>'.repeat(5)}</r>`, { maxDepth: 10, maxElements: 5 }),
    (e: unknown) => e instanceof XmlParseError && e.code === 'XML_TOO_LARGE',
  );
});

// Single characters and short snippets that matter to an XML parser. No lone surrogates (note 3).
const CHARS = [
  '<',
  '>',
  '&',
  ';',
  '"',
  "'",
  '=',
  '/',
  '!',
  '?',
  '-',
  '[',
  ']',
  ':',
  ' ',
  '\t',
  '\n',
  '\r',
  'a',
  'Z',
  '1',
  '.',
  '#',
  'x',
  '\u0000',
  '\u0001',
  '\u00e9',
  '\u00b7',
  '\u0085',
  '\u2028',
  '\uFFFE',
  '\u{1F600}',
];
const SNIPPETS = [
  '</',
  '/>',
  '<a>',
  '</a>',
  '&amp;',
  '&lt',
  '&#0;',
  '&#x41;',
  '&#xFFFF;',
  '&foo;',
  ']]>',
  '<!--',
  '-->',
  '--',
  '<![CDATA[',
  '<?pi x?>',
  '<?xml version="1.0"?>',
  '<!DOCTYPE r>',
  ' xmlns:p=""',
  ' xmlns="urn:x"',
  ' a="1"',
  ' p:a="1"',
  ' xml:lang="de"',
  ' xmlns:xml="urn:x"',
  'xmlns:',
  '\r\n',
];

function mutate(text: string, random: () => number): string {
  // Half of the mutations land right around markup, where parsers make their decisions.
  let at = Math.floor(random() * text.length);
  if (random() < 0.5) {
    const lt = text.indexOf('<', at);
    if (lt !== -1) at = Math.min(text.length, lt + Math.floor(random() * 12));
  }
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  switch (Math.floor(random() * 6)) {
    case 0:
      return text.slice(0, at) + pick(CHARS) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + pick(CHARS) + text.slice(at);
    case 2:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 8));
    case 3: {
      const span = text.slice(at, at + 1 + Math.floor(random() * 16));
      return text.slice(0, at) + span + text.slice(at);
    }
    case 4:
      return text.slice(0, at) + pick(SNIPPETS) + text.slice(at);
    default: {
      // Swap two short spans: moves tags and quotes around.
      const other = Math.floor(random() * text.length);
      const [x, y] = at < other ? [at, other] : [other, at];
      const n = 1 + Math.floor(random() * 6);
      if (y < x + n) return text;
      return text.slice(0, x) + text.slice(y, y + n) + text.slice(x + n, y) + text.slice(x, x + n) + text.slice(y + n);
    }
  }
}

test('seeded random mutations of fixture invoices: the same verdict and tree as saxes', () => {
  const files = [
    'cen/examples/cii/CII-BR-CO-10-RoundingIssue.xml',
    'cen/examples/ubl/ubl-tc434-creditnote1.xml',
    'kosit/instances/ubl-inv/ubl-inv-paymentmeans-test.xml',
    'cen/examples/cii/CII_example5.xml',
  ];
  const random = prng(0x5eed);
  const problems: string[] = [];
  let rejected = 0;
  let accepted = 0;
  for (const file of files) {
    const original = decodeXmlBytes(new Uint8Array(readFileSync(fixturePath(file)))).text;
    assert.equal(disagreement(original), null, file);
    for (let i = 0; i < 1000; i++) {
      // One to three mutations on top of each other.
      let text = original;
      const rounds = 1 + Math.floor(random() * 3);
      for (let r = 0; r < rounds; r++) text = mutate(text, random);
      const d = disagreement(text);
      if (d && problems.length < 10) problems.push(`${file} #${i}: ${d}`);
      if (ours(text).verdict === 'ok') accepted++;
      else rejected++;
    }
  }
  assert.deepEqual(problems, []);
  // The mutations must exercise both outcomes, or the test proves little.
  assert.ok(accepted > 200 && rejected > 2000, `accepted ${accepted}, rejected ${rejected}`);
});

test('blankLeaves: the leaves with empty or blank text, in document order, as a walk of the tree finds them', () => {
  const doc = parseXml(
    '<r><a/><b> \n\t</b><c>x</c><d><e></e><f><![CDATA[  ]]></f><g>\u00a0</g><h><!-- only a comment --></h></d><i attr="v"/><j> y </j></r>',
  );
  assert.deepEqual(
    doc.blankLeaves!.map((el) => el.local),
    ['a', 'b', 'e', 'f', 'g', 'h', 'i'],
  );
  // Over real invoices (with empty elements spliced in), the same list as a walk of the tree.
  const walk = (el: XmlDoc['root'], out: string[]): string[] => {
    if (el.children.length === 0) {
      if (el.text.trim() === '') out.push(`${el.local}@${el.line}`);
    } else for (const c of el.children) walk(c, out);
    return out;
  };
  for (const file of ['cen/examples/cii/CII_example2.xml', 'cen/examples/ubl/ubl-tc434-example2.xml']) {
    const xml = readFileSync(fixturePath(file), 'utf8').replace(/<\/(ram|cbc):ID>/, '$&<Dummy/><Blank>  </Blank>');
    const parsed = parseXml(xml);
    const listed = parsed.blankLeaves!.map((el) => `${el.local}@${el.line}`);
    assert.ok(listed.length >= 1, file);
    assert.deepEqual(listed, walk(parsed.root, []), file);
  }
});
