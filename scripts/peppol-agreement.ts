/**
 * Agreement of the native Peppol rule sets with official verdicts of any folder of invoices, e.g. OpenPeppol's
 * published examples and rule-test documents (which stay outside the repository):
 *
 *   PEPPOL_ARTEFACTS=… python3 scripts/peppol-oracle/run_oracle.py --invoices DIR --out /tmp/verdicts.jsonl
 *   node --import tsx scripts/peppol-agreement.ts /tmp/verdicts.jsonl [--diff]
 *
 * Prints, per rule set, the files agreeing on rule ids with severities (and on locations too), rule recall and
 * precision. Paths in the verdict file are relative to its folder.
 */
import path from 'node:path';
import { compareOne, contextOf, newTally, precision, readVerdicts, recall, type Tally } from '../test/peppol-agreement.js';

const [file, ...flags] = process.argv.slice(2);
if (!file) {
  console.error('usage: peppol-agreement.ts VERDICTS.jsonl [--diff]');
  process.exit(2);
}
const tallies = new Map<string, Tally>();
let unjudged = 0;
for (const v of readVerdicts(file)) {
  if (v.error !== undefined) {
    unjudged++;
    continue;
  }
  let t = tallies.get(v.ruleset);
  if (!t) tallies.set(v.ruleset, (t = newTally()));
  compareOne(v, await contextOf(path.resolve(path.dirname(file), v.file)), t);
}
for (const [set, t] of tallies) {
  console.log(
    `${set}: files ${t.filesAgreeing}/${t.files} (with locations ${t.filesAgreeingWithLocations}), recall ${recall(t).toFixed(4)}, ` +
      `precision ${precision(t).toFixed(4)} (${t.tp} agreeing findings, ${t.fn} missed, ${t.fp} extra)`,
  );
  if (flags.includes('--diff')) for (const d of t.diffs) console.log(`  ${d}`);
}
console.log(`not evaluated by the official artefacts (dynamic error): ${unjudged}`);
