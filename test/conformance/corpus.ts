/**
 * Where the conformance suite reads the corpus with official verdicts: EINVOICE_CORPUS, or ../shared/corpus
 * beside the repository root. scripts/conformance.sh refuses to run when it is missing, so a test here never
 * "passes" on nothing.
 */
import path from 'node:path';

export const CORPUS = path.resolve(process.cwd(), process.env.EINVOICE_CORPUS ?? '../shared/corpus');

export function corpusPath(relative: string): string {
  return path.resolve(CORPUS, relative);
}

/** The official rule catalogues (<set>.tsv): EINVOICE_RULE_CATALOGUE, or docs/rules beside the corpus. */
export const CATALOGUE = path.resolve(process.cwd(), process.env.EINVOICE_RULE_CATALOGUE ?? path.join(CORPUS, '../docs/rules'));
