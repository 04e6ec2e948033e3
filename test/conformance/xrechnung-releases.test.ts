/**
 * XRechnung schematron releases against their official verdicts: every XRechnung instance of the corpus
 * under the default release (2.5.0, ../shared/corpus/verdicts-xrechnung-2.5.jsonl) and under 2.4.0
 * (verdicts.jsonl). Per file and rule set (the EN 16931 set of the syntax and the XRechnung set), the
 * multiset of rule ids per severity must equal the official one, on every file. Also runs the
 * pipeline (validateBytes with xrechnungVersion) on the files whose verdict the release changes.
 * Set CORPUS_DIFF=1 to list the differing files.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runRuleSet } from '../../src/rules/engine.js';
import type { Finding } from '../../src/rules/types.js';
import { validateBytes } from '../../src/validation/validate.js';
import { DEFAULT_XR_RELEASE, xrechnungRegistryId, type XrRelease } from '../../src/rules/xrechnung/index.js';
import { ingestCorpusInvoice } from './corpus-helpers.js';
import { CORPUS } from './corpus.js';

const corpus = CORPUS;

interface Item {
  id: string;
  ruleset: string;
}
interface Verdict {
  file: string;
  valid: boolean | null;
  rulesets: string[];
  errors: Item[];
  warnings: Item[];
  information?: Item[];
}

const read = (name: string): Verdict[] =>
  readFileSync(path.join(corpus, name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Verdict)
    .filter((v) => v.file.startsWith('xrechnung/instances/'));

const key = (ids: string[]) => [...ids].sort().join(' ');
/** The EN 16931 sets are compared as sets of ids (as test/corpus-en16931 does), the XRechnung sets as multisets. */
const keyFor = (set: string, ids: string[]) => key(set.startsWith('xrechnung-') ? ids : [...new Set(ids)]);

async function agreement(release: XrRelease, verdicts: Verdict[]): Promise<{ files: number; agree: number; diffs: string[] }> {
  let files = 0;
  let agree = 0;
  const diffs: string[] = [];
  for (const v of verdicts) {
    const ctx = await ingestCorpusInvoice(v.file);
    assert.ok(ctx, `${v.file} is readable`);
    files++;
    const d: string[] = [];
    for (const set of v.rulesets) {
      const findings: Finding[] = runRuleSet(set.startsWith('xrechnung-') ? xrechnungRegistryId(set, release) : set, ctx);
      for (const sev of ['error', 'warning', 'information'] as const) {
        const official = (sev === 'error' ? v.errors : sev === 'warning' ? v.warnings : (v.information ?? []))
          .filter((i) => i.ruleset === set)
          .map((i) => i.id);
        const ours = findings.filter((f) => f.severity === sev && f.ruleId).map((f) => f.ruleId!);
        if (keyFor(set, official) !== keyFor(set, ours)) d.push(`${set} ${sev}: official [${key(official)}] ours [${key(ours)}]`);
      }
    }
    if (d.length === 0) agree++;
    else diffs.push(`${v.file}: ${d.join('; ')}`);
  }
  return { files, agree, diffs };
}

test('XRechnung schematron 2.5.0 (the default) agrees with verdicts-xrechnung-2.5.jsonl on every file', async () => {
  assert.equal(DEFAULT_XR_RELEASE, '2.5.0');
  const r = await agreement('2.5.0', read('verdicts-xrechnung-2.5.jsonl'));
  console.log(`xrechnung 2.5.0: ${r.agree}/${r.files} files agree`);
  if (process.env.CORPUS_DIFF) console.log(r.diffs.join('\n'));
  assert.equal(r.files, 349);
  assert.deepEqual(r.diffs.slice(0, 5), []);
});

test('XRechnung schematron 2.4.0 agrees with verdicts.jsonl on every XRechnung instance', async () => {
  const r = await agreement('2.4.0', read('verdicts.jsonl'));
  console.log(`xrechnung 2.4.0: ${r.agree}/${r.files} files agree`);
  if (process.env.CORPUS_DIFF) console.log(r.diffs.join('\n'));
  assert.equal(r.files, 349);
  assert.deepEqual(r.diffs.slice(0, 5), []);
});

test('the pipeline runs the requested release and says which one ran', async () => {
  const file = 'xrechnung/instances/cii/cii-br-de-25-test-bg-19-with-bt-86-1.xml';
  const bytes = readFileSync(path.join(corpus, file));
  const current = await validateBytes(bytes, file);
  assert.equal(current.xrechnung_version, '2.5.0');
  assert.ok(current.errors.some((e) => e.rule_id === 'BR-DE-25-b' && e.rule_set === 'xrechnung-cii'));
  const older = await validateBytes(bytes, file, { xrechnungVersion: '2.4.0' });
  assert.equal(older.xrechnung_version, '2.4.0');
  assert.ok(!older.errors.some((e) => e.rule_id === 'BR-DE-25-b'));
});
