/**
 * The Factur-X rule contexts are looked up top down (a trie of steps, predicates as filters of their
 * step) instead of matching each whole context against every element named like its last step. This
 * proves both give the same elements in the same order, for every context of every profile, on the
 * curated CII fixtures and the writer's output for every profile (the whole corpus: test/conformance/).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildInvoiceXml } from '../src/metadata/build.js';
import { compileStepTest } from '../src/rules/facturx/xpath-match.js';
import { parseXml } from '../src/xml/dom.js';
import { assertContextLookupAgrees, ciiDocs } from './facturx-contexts-oracle.js';
import { FIXTURES } from './fixtures.js';
import { PROFILE_SCENARIOS } from './invoice-scenarios.js';

test('top-down context lookup selects what matching the whole context selects, in document order', () => {
  const profiles = ['minimum', 'basic_wl', 'basic', 'en16931', 'extended'] as const;
  const docs = [
    ...ciiDocs(FIXTURES, FIXTURES),
    ...PROFILE_SCENARIOS.flatMap(([name, meta]) =>
      profiles.map((profile) => ({ name: `writer ${name} ${profile}`, xml: buildInvoiceXml({ ...structuredClone(meta), profile }).xml })),
    ),
  ];
  assert.ok(docs.length > 80, `CII documents: ${docs.length}`);
  const { found, foundWithPredicates } = assertContextLookupAgrees(docs);
  // The comparison is only worth something if the contexts, predicates included, find elements.
  assert.ok(found > 5_000, `elements found: ${found}`);
  assert.ok(foundWithPredicates > 500, `elements found by contexts with predicates: ${foundWithPredicates}`);
});

test('a predicate comparing a child path with a literal follows XPath general comparison', () => {
  const RAM = 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';
  const UDT = 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100';
  const doc = parseXml(
    Buffer.from(
      `<r xmlns:ram="${RAM}" xmlns:udt="${UDT}">` +
        '<ram:Doc><ram:TypeCode>916</ram:TypeCode></ram:Doc>' +
        '<ram:Doc><ram:TypeCode>50</ram:TypeCode><ram:TypeCode>916</ram:TypeCode></ram:Doc>' +
        '<ram:Doc><ram:ID schemeID="0088">1</ram:ID></ram:Doc>' +
        '<ram:Doc><ram:Charge><udt:Indicator>true</udt:Indicator></ram:Charge></ram:Doc>' +
        '<ram:Doc/>' +
        '</r>',
    ),
  );
  const docs = doc.root.children;
  const holds = (step: string) => docs.map((el) => compileStepTest(step)(el));
  // `=`: some selected node has the value; none selected is false.
  assert.deepEqual(holds('ram:Doc[ram:TypeCode="916"]'), [true, true, false, false, false]);
  assert.deepEqual(holds("ram:Doc[ram:TypeCode='50']"), [false, true, false, false, false]);
  // `!=`: some selected node has another value (so both may hold on one element); none selected is false.
  assert.deepEqual(holds('ram:Doc[ram:TypeCode!="916"]'), [false, true, false, false, false]);
  assert.deepEqual(holds('ram:Doc[not(ram:TypeCode="916")]'), [false, false, true, true, true]);
  // Two steps, and a path ending on an attribute; the literal may stand first.
  assert.deepEqual(holds('ram:Doc[ram:Charge/udt:Indicator="true"]'), [false, false, false, true, false]);
  assert.deepEqual(holds('ram:Doc["true"=ram:Charge/udt:Indicator]'), [false, false, false, true, false]);
  assert.deepEqual(holds('ram:Doc[ram:ID/@schemeID="0088"]'), [false, false, true, false, false]);
  assert.deepEqual(holds('ram:Doc[ram:ID/@schemeID="0088 "]'), [false, false, false, false, false]);
  // The name test still applies.
  assert.equal(compileStepTest('ram:Other[ram:TypeCode="916"]')(docs[0]), false);
});
