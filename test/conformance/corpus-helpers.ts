/**
 * Shared by the corpus agreement tests (corpus-en16931, corpus-profiles): both read the official
 * verdict list and read each corpus invoice the same way, with the same rule for skipping a file,
 * so their "files not readable" counts and file totals stay comparable.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ingest } from '../../src/input/ingest.js';
import type { RuleContext } from '../../src/rules/types.js';

import { CORPUS as corpus } from './corpus.js';

/** The lines of the corpus's verdicts.jsonl; each test declares the fields it uses as V. */
export function readCorpusVerdicts<V>(): V[] {
  return readFileSync(path.join(corpus, 'verdicts.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as V);
}

/**
 * Reads a corpus file with ingest() into what the rule sets run on, or null when it is not a
 * readable CII/UBL invoice (ingest throws, or yields no document, no invoice or another syntax):
 * the tests skip and count those.
 */
export async function ingestCorpusInvoice(file: string): Promise<RuleContext | null> {
  let ing;
  try {
    ing = await ingest(readFileSync(path.join(corpus, file)), file);
  } catch {
    return null;
  }
  if (!ing.doc || !ing.invoice || (ing.syntax !== 'cii' && ing.syntax !== 'ubl')) return null;
  return { doc: ing.doc, invoice: ing.invoice, syntax: ing.syntax };
}
