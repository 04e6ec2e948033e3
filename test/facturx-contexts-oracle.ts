/**
 * The reference for the Factur-X context lookup (see rules-facturx-contexts.test.ts): every element named like
 * a context's last step that the whole context matches, compared with the top-down lookup (contextNodes).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CODELISTS } from '../src/rules/data/codelists.js';
import { FX_CATALOGUE, FX_STRUCTURE_CONTEXTS } from '../src/rules/facturx/catalogue.data.js';
import { contextNodes } from '../src/rules/facturx/codelists.js';
import { compileMatch, lastLocalName } from '../src/rules/facturx/xpath-match.js';
import { parseXml, type XmlElement } from '../src/xml/dom.js';

export function ciiFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) ciiFiles(full, out);
    else if (name.endsWith('.xml') && st.size < 300_000 && readFileSync(full, 'utf8').includes('CrossIndustryInvoice')) out.push(full);
  }
  return out;
}

function allContexts(): string[] {
  const contexts = new Set<string>(Object.values(FX_STRUCTURE_CONTEXTS));
  for (const set of Object.values(FX_CATALOGUE)) for (const r of set.notUsed) for (const c of r.contexts) contexts.add(c);
  for (const entries of Object.values(CODELISTS)) for (const e of Object.values(entries)) if (e.context) contexts.add(e.context);
  // Contexts the XPath subset cannot express (variables such as $isCVD) are not implemented: left out.
  return [...contexts].filter((c) => {
    try {
      compileMatch(c);
      return true;
    } catch {
      return false;
    }
  });
}

function inDocumentOrder(el: XmlElement, out: XmlElement[] = []): XmlElement[] {
  out.push(el);
  for (const c of el.children) inDocumentOrder(c, out);
  return out;
}

/** The reference: every element named like the context's last step that the whole context matches. */
function matchedByWholeContext(all: XmlElement[], context: string): XmlElement[] {
  const names = new Set(lastLocalName(context));
  const match = compileMatch(context);
  return all.filter((el) => names.has(el.local) && match(el));
}

/**
 * Asserts that both lookups select the same elements in the same order, for every context of every profile,
 * on each document; returns how many elements were found (in all, and by contexts with predicates).
 */
export function assertContextLookupAgrees(docs: { name: string; xml: string | Uint8Array }[]): {
  found: number;
  foundWithPredicates: number;
} {
  const contexts = allContexts();
  const withPredicates = contexts.filter((c) => /\]\//.test(c) || /\]$/.test(c));
  assert.ok(withPredicates.length > 50, 'contexts with predicates');
  let found = 0;
  let foundWithPredicates = 0;
  for (const { name, xml } of docs) {
    const doc = parseXml(xml);
    const all = inDocumentOrder(doc.root);
    for (const context of contexts) {
      const expected = matchedByWholeContext(all, context);
      assert.deepEqual(contextNodes(doc, context), expected, `${name}: ${context}`);
      found += expected.length;
      if (withPredicates.includes(context)) foundWithPredicates += expected.length;
    }
  }
  return { found, foundWithPredicates };
}

/** The CII files under `dir`, read, named relative to `root`. */
export function ciiDocs(root: string, dir: string): { name: string; xml: Uint8Array }[] {
  return ciiFiles(dir).map((file) => ({ name: path.relative(root, file), xml: new Uint8Array(readFileSync(file)) }));
}
