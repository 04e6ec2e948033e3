/**
 * Peppol BIS Billing 3.0 and Self-Billing 3.0 agreement with the official verdicts: every invoice of
 * test/fixtures/peppol/invoices (our own bases and one-edit cases, scripts/peppol-cases/generate.ts) judged by the
 * official schematron of every bundled release (test/fixtures/peppol/verdicts.jsonl, written by
 * scripts/peppol-oracle/run_oracle.py with the official artefacts). Per invoice and rule set the rule ids with their
 * severities must be the official ones, and so must their locations. Prints the figures; CORPUS_DIFF=1 lists every
 * difference. Needs nothing outside the repository.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fixturePath } from '../fixtures.js';
import { compareOne, contextOf, newTally, precision, readVerdicts, recall, type Tally } from '../peppol-agreement.js';

test('the Peppol rule sets agree with the official verdicts of the generated invoices', async () => {
  const verdicts = readVerdicts(fixturePath('peppol/verdicts.jsonl'));
  const tallies = new Map<string, Tally>();
  let unjudged = 0;
  for (const v of verdicts) {
    if (v.error !== undefined) {
      unjudged++;
      continue;
    }
    let t = tallies.get(v.ruleset);
    if (!t) tallies.set(v.ruleset, (t = newTally()));
    compareOne(v, await contextOf(path.join(fixturePath('peppol'), v.file)), t);
  }
  const lines: string[] = [];
  for (const [set, t] of tallies)
    lines.push(
      `${set}: files ${t.filesAgreeing}/${t.files} (with locations ${t.filesAgreeingWithLocations}), ` +
        `recall ${recall(t).toFixed(4)}, precision ${precision(t).toFixed(4)} (${t.tp} agreeing findings, ${t.fn} missed, ${t.fp} extra)`,
    );
  lines.push(`invoices the official artefacts could not evaluate: ${unjudged}`);
  console.log(lines.join('\n'));
  if (process.env.CORPUS_DIFF) for (const t of tallies.values()) console.log(t.diffs.join('\n'));
  assert.equal(tallies.size, 6, 'verdicts for every bundled release of both variants');
  for (const [set, t] of tallies) {
    assert.ok(t.files >= 200, `${set}: ${t.files} files`);
    assert.ok(t.filesAgreeing / t.files >= 0.99, `${set}: ${t.filesAgreeing}/${t.files} files agree\n${t.diffs.slice(0, 10).join('\n')}`);
    assert.ok(recall(t) >= 0.99 && precision(t) >= 0.99, `${set}: recall ${recall(t)}, precision ${precision(t)}`);
    assert.ok(t.filesAgreeingWithLocations / t.files >= 0.99, `${set}: locations agree on ${t.filesAgreeingWithLocations}/${t.files}`);
  }
});
