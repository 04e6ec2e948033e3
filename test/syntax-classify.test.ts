/**
 * The CII syntax rules index a document with a top-down classifier (each element's context from its
 * parent's state); classifyCii, which walks up the ancestors, is the reference. Both must give every
 * element the same context: on every CII invoice of the corpus, and on corpus invoices whose subtrees
 * were copied under random other elements (names in places the rule contexts do not expect).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseXml, type XmlElement } from '../src/xml/dom.js';
import { CII_TOP_DOWN, classifyCii, NS_RSM } from '../src/syntax/cii/rules.js';
import { indexDocument, type PlaceState } from '../src/syntax/syntax-table.js';
import { allElements, prng } from './test-utils.js';

const corpus = path.resolve(process.cwd(), '../shared/corpus');

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


const ciiDocs = xmlFiles(corpus)
  .map((file) => {
    try {
      return { file, doc: parseXml(readFileSync(file)) };
    } catch {
      return undefined; // not well-formed: nothing to classify
    }
  })
  .filter((d): d is NonNullable<typeof d> => d !== undefined && d.doc.root.ns === NS_RSM);

test('top-down CII classification equals classifyCii on every CII invoice of the corpus', () => {
  assert.ok(ciiDocs.length > 150, `only ${ciiDocs.length} CII files found`);
  for (const { file, doc } of ciiDocs) assert.deepEqual(disagreements(doc.root), [], path.relative(corpus, file));
});

test('top-down CII classification equals classifyCii when subtrees are copied to unexpected places', () => {
  const random = prng(20261122);
  const bases = ciiDocs.filter((d, i) => i % 5 === 0 && d.doc.elementCount < 2000);
  let checked = 0;
  for (let round = 0; round < 600; round++) {
    const { file } = bases[round % bases.length];
    const fresh = parseXml(readFileSync(file));
    const elements = allElements(fresh.root);
    for (let k = 0; k < 4; k++) {
      const moved = elements[Math.floor(random() * elements.length)];
      const target = elements[Math.floor(random() * elements.length)];
      if (moved.parent === null) continue;
      copyUnder(moved, target);
    }
    assert.deepEqual(disagreements(fresh.root), [], `${path.relative(corpus, file)}, round ${round}`);
    checked++;
  }
  assert.ok(checked >= 600);
});

test('indexDocument gives the same contexts with either classifier', () => {
  for (const { file, doc } of ciiDocs.slice(0, 60)) {
    const a = indexDocument(doc, classifyCii).contexts;
    const b = indexDocument(doc, CII_TOP_DOWN).contexts;
    assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort(), file);
    for (const [k, nodes] of a) assert.ok(nodes.length === b.get(k)!.length && nodes.every((n, i) => n === b.get(k)![i]), `${file}: ${k}`);
  }
});
