/**
 * Receive → serialize → re-issue over the whole corpus (#19): every invoice file with a verdict is serialized
 * (BusinessReadyInvoice), the result sent to toXml as metadata unchanged, and the XML read back. A file either
 * round-trips (totals BT-106..BT-115, line count, line net amounts and quantities the same) or is refused with
 * the 4xx error that names why (METADATA_INVALID / METADATA_INCONSISTENT): the service never re-issues an
 * invoice with other amounts than the one it received. The counts are printed; a floor guards the valid files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CORPUS, corpusPath } from './corpus.js';
import { roundTrip, type RoundTrip } from './serialize-roundtrip.js';

interface Verdict {
  file: string;
  valid: boolean | null;
}

const verdicts = readFileSync(corpusPath('verdicts.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Verdict);

/** Valid corpus files that round-trip at least (measured: 250 of the 336 valid files; 0 before BusinessReadyInvoice was accepted). */
const MIN_VALID_SAME = 250;

test(`serialize → toXml → read back over the corpus (${CORPUS})`, async () => {
  const results: (RoundTrip & { valid: boolean | null })[] = [];
  for (const v of verdicts) results.push({ ...(await roundTrip(corpusPath(v.file), v.file)), valid: v.valid });
  const different = results.filter((r) => r.outcome === 'different');
  assert.deepEqual(
    different.map((r) => `${r.file}: ${r.why}`),
    [],
    're-issued with other totals or lines than received',
  );
  for (const r of results.filter((x) => x.outcome === 'refused')) {
    assert.match(r.why ?? '', /^METADATA_(INVALID|INCONSISTENT) /, `${r.file}: refused, but not by the metadata checks`);
  }
  const count = (valid: boolean, outcome: RoundTrip['outcome']) =>
    results.filter((r) => (r.valid === true) === valid && r.outcome === outcome).length;
  const reasons = new Map<string, number>();
  for (const r of results.filter((x) => x.valid === true && x.outcome === 'refused')) {
    const key = (r.why ?? '').replace(/\[\d+\]|\.\d+\./g, '[n].').slice(0, 120);
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  console.log(
    `round trip: valid files ${count(true, 'same')} same, ${count(true, 'refused')} refused, ${count(true, 'not_serialized')} not serialized; ` +
      `other files ${count(false, 'same')} same, ${count(false, 'refused')} refused, ${count(false, 'not_serialized')} not serialized`,
  );
  for (const [why, n] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`  ${n} × ${why}`);
  assert.ok(count(true, 'same') >= MIN_VALID_SAME, `valid files round-tripping: ${count(true, 'same')} < ${MIN_VALID_SAME}`);
});
