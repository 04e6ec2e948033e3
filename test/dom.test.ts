/**
 * The safe XML parser (src/xml/dom.ts) against hostile and unusual input: XXE, entity expansion, deep
 * nesting, element bombs, byte-order marks, UTF-16, declared single-byte encodings, leading whitespace;
 * and namespace resolution by URI, never by prefix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  attr,
  decodeXmlBytes,
  child,
  childrenNamed,
  deepText,
  elementsNamedAnywhere,
  looksLikeXml,
  parseXml,
  pathOf,
  XmlParseError,
} from '../src/xml/dom.js';
import { SHARED_EMPTY_ARRAY } from '../src/xml/parser.js';

const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    assert.ok(e instanceof XmlParseError, `expected XmlParseError, got ${e}`);
    return e.code;
  }
};

test('XXE: an external entity is refused with the DTD, never resolved', () => {
  const xml = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>';
  assert.equal(
    code(() => parseXml(xml)),
    'XML_DTD_FORBIDDEN',
  );
  const viaParam = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:1/evil.dtd"> %p;]><r/>';
  assert.equal(
    code(() => parseXml(viaParam)),
    'XML_DTD_FORBIDDEN',
  );
  const externalDtd = '<?xml version="1.0"?><!DOCTYPE r SYSTEM "file:///etc/passwd"><r/>';
  assert.equal(
    code(() => parseXml(externalDtd)),
    'XML_DTD_FORBIDDEN',
  );
});

test('billion laughs: refused before any expansion', () => {
  let dtd = '<!ENTITY l0 "lol">';
  for (let i = 1; i < 10; i++) dtd += `<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`;
  const xml = `<?xml version="1.0"?><!DOCTYPE r [${dtd}]><r>&l9;</r>`;
  const started = process.memoryUsage().heapUsed;
  assert.equal(
    code(() => parseXml(xml)),
    'XML_DTD_FORBIDDEN',
  );
  assert.ok(process.memoryUsage().heapUsed - started < 50 * 1024 * 1024);
});

test('an entity reference without a DTD is a well-formedness error (only the five predefined ones exist)', () => {
  assert.equal(
    code(() => parseXml('<r>&nbsp;</r>')),
    'XML_MALFORMED',
  );
  assert.equal(parseXml('<r>&lt;&amp;&gt;&quot;&apos;&#233;&#x41;</r>').root.text, '<&>"\'éA');
});

test('deep nesting is bounded', () => {
  const deep = '<a>'.repeat(1000) + '</a>'.repeat(1000);
  assert.equal(
    code(() => parseXml(deep)),
    'XML_TOO_DEEP',
  );
  const ok = '<a>'.repeat(100) + '</a>'.repeat(100);
  assert.equal(parseXml(ok).elementCount, 100);
});

test('element count is bounded', () => {
  const many = `<r>${'<x/>'.repeat(50)}</r>`;
  assert.equal(
    code(() => parseXml(many, { maxDepth: 10, maxElements: 20 })),
    'XML_TOO_LARGE',
  );
});

test('malformed documents are rejected with a line number', () => {
  let err: unknown;
  try {
    parseXml('<?xml version="1.0"?>\n<a>\n<b>x</a>');
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof XmlParseError && err.code === 'XML_MALFORMED' && err.line === 3, String(err));
  for (const bad of ['<a/>trailing', '<a/><b/>', '<a', '', 'just text', '<a x="1" x="2"/>', '<p:a xmlns:q="u"/>']) {
    assert.equal(
      code(() => parseXml(bad)),
      'XML_MALFORMED',
      bad,
    );
  }
});

test('UTF-8 byte-order mark, leading whitespace and a BOM followed by whitespace', () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const a = parseXml(Buffer.concat([bom, Buffer.from('<?xml version="1.0" encoding="UTF-8"?><r>ä</r>')]));
  assert.deepEqual([a.encoding, a.root.text], ['utf-8', 'ä']);
  assert.equal(parseXml(Buffer.from('\n\r\n  \t<?xml version="1.0"?><r>x</r>')).root.text, 'x');
  assert.equal(parseXml(Buffer.concat([bom, Buffer.from(' \n<?xml version="1.0"?><r>y</r>')])).root.text, 'y');
  assert.ok(looksLikeXml(Buffer.concat([bom, Buffer.from('  <r/>')])));
  assert.ok(!looksLikeXml(Buffer.from('%PDF-1.7')));
});

test('UTF-16 little and big endian, with and without a byte-order mark', () => {
  const body = '<?xml version="1.0" encoding="UTF-16"?><r>Straße €</r>';
  const le = Buffer.from(body, 'utf16le');
  const be = Buffer.from(le).swap16();
  const cases: [string, Buffer][] = [
    ['le+bom', Buffer.concat([Buffer.from([0xff, 0xfe]), le])],
    ['be+bom', Buffer.concat([Buffer.from([0xfe, 0xff]), be])],
    ['le', le],
    ['be', be],
  ];
  for (const [label, bytes] of cases) {
    assert.ok(looksLikeXml(bytes), label);
    assert.equal(parseXml(bytes).root.text, 'Straße €', label);
  }
});

test('a declared single-byte encoding is honoured; invalid UTF-8 is XML_ENCODING', () => {
  const latin1 = Buffer.concat([
    Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><r>'),
    Buffer.from([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]),
    Buffer.from('</r>'),
  ]);
  assert.equal(parseXml(latin1).root.text, 'Müller');
  assert.equal(
    code(() => parseXml(Buffer.from([0x3c, 0x72, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x72, 0x3e]))),
    'XML_ENCODING',
  );
});

test('namespaces resolve by URI whatever the prefix; pathOf keeps the document prefixes and positions', () => {
  const NS = 'urn:example:ns';
  const docs = [
    `<p:r xmlns:p="${NS}"><p:x>1</p:x><p:y/><p:x a="b">2</p:x></p:r>`,
    `<r xmlns="${NS}"><x>1</x><y/><x a="b">2</x></r>`,
    `<zz:r xmlns:zz="${NS}"><zz:x>1</zz:x><zz:y/><x xmlns="${NS}" a="b">2</x></zz:r>`,
  ];
  for (const xml of docs) {
    const { root } = parseXml(xml);
    assert.equal(root.ns, NS);
    assert.deepEqual(
      childrenNamed(root, NS, 'x').map((e) => e.text),
      ['1', '2'],
    );
    assert.equal(attr(childrenNamed(root, NS, 'x')[1], 'a'), 'b');
    assert.equal(child(root, 'urn:other', 'x'), undefined);
  }
  const { root } = parseXml(docs[0]);
  assert.equal(pathOf(childrenNamed(root, NS, 'x')[1]), '/p:r[1]/p:x[2]');
  assert.equal(pathOf(child(root, NS, 'y')!), '/p:r[1]/p:y[1]');
  // A same-named element in another namespace does not count towards the position.
  const mixed = parseXml(`<r xmlns:a="urn:a" xmlns:b="urn:b"><a:x/><b:x/><a:x/></r>`).root;
  assert.equal(pathOf(childrenNamed(mixed, 'urn:a', 'x')[1]), '/r[1]/a:x[2]');
  assert.equal(pathOf(child(mixed, 'urn:b', 'x')!), '/r[1]/b:x[1]');
});

test('CDATA and character data are text; deepText joins descendants', () => {
  const { root } = parseXml('<r><a><![CDATA[<not markup> & ok]]></a><b>x<c>y</c></b></r>');
  assert.equal(root.children[0].text, '<not markup> & ok');
  assert.equal(deepText(root.children[1]), 'xy');
});

test('element namespaces stay exact when many namespaces alternate (known URIs are shared with NS)', () => {
  // Ten namespaces, known and unknown, nested and alternating, redeclared under other prefixes.
  const uris = [
    'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
    'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
    'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
    'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
    ...Array.from({ length: 6 }, (_, i) => `urn:example:unknown:${i}`),
  ];
  const decls = uris.map((u, i) => `xmlns:p${i}="${u}"`).join(' ');
  const inner = [...uris.keys(), ...uris.keys()]
    .map((i) => `<p${i}:e${i}><q:x xmlns:q="${uris[(i + 3) % uris.length]}"/></p${i}:e${i}>`)
    .join('');
  const doc = parseXml(`<root ${decls}>${inner}<plain/></root>`);
  assert.equal(doc.root.ns, '');
  const kids = doc.root.children;
  assert.equal(kids.length, 2 * uris.length + 1);
  for (let k = 0; k < 2 * uris.length; k++) {
    const i = k % uris.length;
    assert.equal(kids[k].ns, uris[i], `e${i}`);
    assert.equal(kids[k].children[0].ns, uris[(i + 3) % uris.length], `x under e${i}`);
  }
  assert.equal(kids[2 * uris.length].ns, '');
});

test('leaves and attribute-less elements share one empty array (not frozen: V8 iterates frozen arrays through allocated iterators)', () => {
  const doc = parseXml('<a x="1"><b/><c>t</c></a>');
  const [b, c] = doc.root.children;
  assert.equal(b.children, SHARED_EMPTY_ARRAY);
  assert.equal(c.children, SHARED_EMPTY_ARRAY);
  assert.equal(b.attrs, SHARED_EMPTY_ARRAY);
  assert.equal(Object.isFrozen(b.children), false);
  assert.equal(parseXml('<a/>').root.children, SHARED_EMPTY_ARRAY);
  assert.equal(doc.root.attrs.length, 1);
  // A parsed tree is changed by assigning a new array, which leaves the shared one empty.
  b.children = [c];
  assert.equal(SHARED_EMPTY_ARRAY.length, 0);
  assert.equal(c.children.length, 0);
});

test('elementsNamedAnywhere: every element of a local name in document order, whatever the namespace or depth', () => {
  const xml = '<r xmlns:p="urn:p"><Alpha n="1"><Beta n="2"><Alpha n="3"/></Beta></Alpha><p:Alpha n="4"/><Gamma n="5"/><Beta n="6"/></r>';
  const doc = parseXml(xml);
  const ids = (els: { attrs: { value: string }[] }[]) => els.map((e) => e.attrs[0].value);
  assert.deepEqual(ids(elementsNamedAnywhere(doc, 'Alpha')), ['1', '3', '4']);
  // Names asked after the document's first walk are found by a walk of their own, then kept.
  const betas = elementsNamedAnywhere(doc, 'Beta');
  assert.deepEqual(ids(betas), ['2', '6']);
  assert.equal(elementsNamedAnywhere(doc, 'Beta'), betas);
  assert.deepEqual(elementsNamedAnywhere(doc, 'Absent'), []);
  // A second document is indexed for all names asked so far, and documents never share lists.
  const other = parseXml('<r><Beta n="7"/><Gamma n="8"/></r>');
  assert.deepEqual(ids(elementsNamedAnywhere(other, 'Gamma')), ['8']);
  assert.deepEqual(ids(elementsNamedAnywhere(other, 'Beta')), ['7']);
  assert.deepEqual(ids(elementsNamedAnywhere(other, 'Alpha')), []);
  assert.deepEqual(ids(elementsNamedAnywhere(doc, 'Gamma')), ['5']);
  assert.deepEqual(ids(elementsNamedAnywhere(doc, 'Beta')), ['2', '6']);
});

test('whitespace between tags is kept exactly (shared indentation strings in large documents), alone or mixed with text', () => {
  // A comment makes the document large enough for the parser to share indentation strings.
  const large = `<!--${' '.repeat(1 << 20)}-->`;
  for (const prolog of ['', large]) {
    const doc = parseXml(`${prolog}<r>\n  <a>\n\t<b/>\t\n  </a>\n  <c>x<d/>\n  <e/>  y<f/>\n</c>\n</r>`);
    const [a, c] = doc.root.children;
    assert.equal(doc.root.text, '\n  \n  \n');
    assert.equal(a.text, '\n\t\t\n  ');
    assert.equal(c.text, 'x\n    y\n');
    assert.equal(c.children[0].text, '');
  }
  // Thousands of distinct paddings (more than the shared strings kept) stay exact.
  const widths = Array.from({ length: 3000 }, (_, i) => i % 300);
  const many = parseXml(
    `${large}<r>${widths.map((w) => `<p>${' '.repeat(w)}<q/>${'\n'.repeat(1 + (w % 3))}${' '.repeat(w + 1)}</p>`).join('')}</r>`,
  );
  many.root.children.forEach((p, i) =>
    assert.equal(p.text, ' '.repeat(widths[i]) + '\n'.repeat(1 + (widths[i] % 3)) + ' '.repeat(widths[i] + 1)),
  );
});

test('the parser lists the elements with children whose own text is more than blanks (what the XSD layer reads)', () => {
  const doc = parseXml(
    '<a>\n  <b>text</b>\n  <c>\n    <d/>\n  </c>\n  <e>x<f/></e>\n  <g><h/><![CDATA[ cdata ]]></g>\n  <i><j/>&#32;</i>\n</a>',
  );
  const names = (doc.mixed ?? []).map((el) => el.local);
  // e has text, g a CDATA section, i a character reference (which may be a blank: listed to be safe).
  assert.deepEqual(names, ['e', 'g', 'i']);
  assert.equal(parseXml('<a>\n  <b>only leaves have text</b>\n</a>').mixed?.length, 0);
});

test('decoding: all-ASCII UTF-8 takes the copy path with the same text; US-ASCII refuses a high byte by offset', () => {
  const ascii = `<?xml version="1.0"?><r a="x">${'QUJD'.repeat(2000)}</r>`;
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(ascii)]);
  assert.deepEqual(decodeXmlBytes(Buffer.from(ascii)), { text: ascii, encoding: 'utf-8' });
  assert.deepEqual(decodeXmlBytes(bom), { text: ascii, encoding: 'utf-8' });
  const utf8 = `<r>${'a'.repeat(100)}é€😀</r>`;
  assert.equal(decodeXmlBytes(Buffer.from(utf8)).text, utf8);
  const declared = '<?xml version="1.0" encoding="US-ASCII"?><r>caf';
  assert.equal(decodeXmlBytes(Buffer.from(`${declared}e</r>`)).text, `${declared}e</r>`);
  assert.throws(
    () => decodeXmlBytes(new Uint8Array([...Buffer.from(declared), 0xe9, ...Buffer.from('</r>')])),
    (err: XmlParseError) => err.code === 'XML_ENCODING' && err.message.includes(`byte 0xe9 at offset ${declared.length}`),
  );
  // Invalid UTF-8 after a long ASCII stretch is still refused.
  assert.throws(
    () => decodeXmlBytes(new Uint8Array([...Buffer.from(ascii.slice(0, -4)), 0xc3, 0x28, ...Buffer.from('</r>')])),
    /not valid UTF-8/,
  );
});
