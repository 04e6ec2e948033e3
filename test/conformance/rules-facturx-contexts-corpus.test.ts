/** The Factur-X context lookup against its reference (see ../facturx-contexts-oracle.ts) on the CII invoices of the corpus. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { assertContextLookupAgrees, ciiDocs } from '../facturx-contexts-oracle.js';
import { CORPUS as corpus } from './corpus.js';

test('top-down context lookup selects what matching the whole context selects, in document order (corpus)', () => {
  const docs = [
    ...ciiDocs(corpus, path.join(corpus, 'en16931')),
    ...ciiDocs(corpus, path.join(corpus, 'zugferd')),
    ...ciiDocs(corpus, path.join(corpus, 'xrechnung/instances/cii')),
  ];
  assert.ok(docs.length > 100, `CII corpus files found: ${docs.length}`);
  const { found, foundWithPredicates } = assertContextLookupAgrees(docs);
  assert.ok(found > 10_000, `elements found: ${found}`);
  assert.ok(foundWithPredicates > 100, `elements found by contexts with predicates: ${foundWithPredicates}`);
});
