/**
 * Issue #32 over the whole corpus: every invoice our engine reads (every PDF and XML except the PDF/A test files)
 * renders without error, and its page shows every term of the model with its value, as often as it occurs
 * (test/render-terms.ts: the model walked with its own table, the page read back with parse5). The uploads with no
 * invoice (FatturaPA, a PDF whose XML is not an invoice or not decodable) are named and counted, never silently
 * skipped. The comparison with KoSIT's visualisation needs Java and KoSIT's stylesheets: scripts/kosit-check.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ingest, IngestError } from '../../src/input/ingest.js';
import { renderIngested } from '../../src/render/render.js';
import { NothingToRenderError } from '../../src/render/errors.js';
import { compareTerms, modelTerms, pageTerms } from '../render-terms.js';
import { CORPUS } from './corpus.js';

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (p !== join(CORPUS, 'pdfa')) walk(p, out);
    } else if (/\.(pdf|xml)$/i.test(e.name)) out.push(p);
  }
  return out;
}

test('every corpus invoice renders, and its page shows every term of the model with its value, as often as it occurs', async () => {
  const files = walk(CORPUS).sort();
  let rendered = 0;
  let pairs = 0;
  const noInvoice: string[] = [];
  const failures: string[] = [];
  const langs = ['en', 'de', 'fr'] as const;
  for (const [i, file] of files.entries()) {
    const rel = relative(CORPUS, file);
    let ing;
    try {
      ing = await ingest(readFileSync(file), rel);
    } catch (err) {
      if (err instanceof IngestError) {
        noInvoice.push(`${rel} (${err.code})`);
        continue;
      }
      throw err;
    }
    let page;
    try {
      page = renderIngested(ing, { lang: langs[i % 3] });
    } catch (err) {
      if (err instanceof NothingToRenderError) {
        noInvoice.push(`${rel} (${err.code})`);
        continue;
      }
      failures.push(`${rel}: ${(err as Error).stack}`);
      continue;
    }
    rendered++;
    const model = modelTerms(ing.invoice!);
    pairs += model.length;
    const diff = compareTerms(model, pageTerms(page.html));
    if (diff.missing.length || diff.extra.length) {
      failures.push(`${rel}: missing ${JSON.stringify(diff.missing.slice(0, 5))}, extra ${JSON.stringify(diff.extra.slice(0, 5))}`);
    }
  }
  console.log(
    `${rendered} corpus invoices rendered, ${pairs} (term, value) pairs on their pages; no invoice in ${noInvoice.length}: ${noInvoice.join(', ')}`,
  );
  assert.deepEqual(failures, []);
  assert.ok(rendered > 1_700, `${rendered} rendered`);
  // Only uploads that hold no invoice our readers know: FatturaPA, and two PDFs whose XML is not one we can read.
  assert.ok(noInvoice.length <= 10, noInvoice.join('\n'));
  for (const n of noInvoice) assert.match(n, /fatturaPA|\.pdf \((UNKNOWN_XML|XML_ENCODING_UNSUPPORTED)\)/, n);
});
