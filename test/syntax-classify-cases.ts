/**
 * The CII syntax rules index a document with a top-down classifier (each element's context from its
 * parent's state); classifyCii, which walks up the ancestors, is the reference. Both must give every
 * element the same context: on every CII invoice of a folder, and on those invoices with subtrees
 * copied under random other elements (names in places the rule contexts do not expect).
 * Registered on the fixtures by test/syntax-classify.test.ts and on the whole corpus by the conformance suite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseXml, type XmlElement } from '../src/xml/dom.js';
import { CII_TOP_DOWN, classifyCii, NS_RSM } from '../src/syntax/cii/rules.js';
import { indexDocument, type PlaceState } from '../src/syntax/syntax-table.js';
import { allElements, prng } from './test-utils.js';

function xmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return xmlFiles(p);
    return /\.xml$/i.test(e.name) ? [p] : [];
  });
}

/** Every element's context under both classifiers; returns the elements where they differ. */
function disagreements(root: XmlElement): string[] {
  const step = CII_TOP_DOWN.forDocument();
  const out: string[] = [];
  const visit = (el: XmlElement, parent: PlaceState): void => {
    const state = step(el, parent);
    const expected = classifyCii(el);
    if (state.context !== expected) out.push(`${el.local} (line ${el.line}): ${state.context} instead of ${expected}`);
    for (const c of el.children) visit(c, state);
  };
  visit(root, CII_TOP_DOWN.documentState);
  return out;
}

/** A copy of `el`'s subtree hung under `parent`. */
function copyUnder(el: XmlElement, parent: XmlElement): XmlElement {
  const copy: XmlElement = { ...el, parent, children: [], _pos: undefined, _path: undefined };
  copy.children = el.children.map((c) => copyUnder(c, copy));
  parent.children = [...parent.children, copy]; // parsed trees share one empty array: assign, never push
  return copy;
}

/** The tests, over the CII files under `folder` (at least `minimum` of them) plus `extra` documents. */
export function classifierTests(folder: string, minimum: number, extra: { file: string; xml: string }[] = []): void {
  const ciiDocs = [...xmlFiles(folder).map((file) => ({ file, xml: readFileSync(file) })), ...extra]
    .map(({ file, xml }) => {
      try {
        return { file, xml, doc: parseXml(xml) };
      } catch {
        return undefined; // not well-formed: nothing to classify
      }
    })
    .filter((d): d is NonNullable<typeof d> => d !== undefined && d.doc.root.ns === NS_RSM);

  test('top-down CII classification equals classifyCii on every CII invoice', () => {
    assert.ok(ciiDocs.length >= minimum, `only ${ciiDocs.length} CII files found`);
    for (const { file, doc } of ciiDocs) assert.deepEqual(disagreements(doc.root), [], path.relative(folder, file));
  });

  test('top-down CII classification equals classifyCii when subtrees are copied to unexpected places', () => {
    const random = prng(20261122);
    const bases = ciiDocs.filter((d, i) => i % 5 === 0 && d.doc.elementCount < 2000);
    let checked = 0;
    for (let round = 0; round < 600; round++) {
      const { file, xml } = bases[round % bases.length];
      const fresh = parseXml(xml);
      const elements = allElements(fresh.root);
      for (let k = 0; k < 4; k++) {
        const moved = elements[Math.floor(random() * elements.length)];
        const target = elements[Math.floor(random() * elements.length)];
        if (moved.parent === null) continue;
        copyUnder(moved, target);
      }
      assert.deepEqual(disagreements(fresh.root), [], `${path.relative(folder, file)}, round ${round}`);
      checked++;
    }
    assert.ok(checked >= 600);
  });

  test('indexDocument gives the same contexts with either classifier', () => {
    for (const { file, doc } of ciiDocs.slice(0, 60)) {
      const a = indexDocument(doc, classifyCii).contexts;
      const b = indexDocument(doc, CII_TOP_DOWN).contexts;
      assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort(), file);
      for (const [k, nodes] of a)
        assert.ok(nodes.length === b.get(k)!.length && nodes.every((n, i) => n === b.get(k)![i]), `${file}: ${k}`);
    }
  });
}
