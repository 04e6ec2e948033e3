/**
 * The French CTC corpus (../shared/corpus/fr-ctc) against the official BR-FR verdicts, per edition:
 * - release 1.2.0 (every assert a warning): our br-fr-1.2-cii / br-fr-1.2-ubl findings against the
 *   `br-fr-cii` / `br-fr-ubl` findings of verdicts.jsonl (130 files, CII, UBL and Factur-X PDFs);
 * - release 1.4.x standard edition (every assert fatal): our br-fr-1.4-cii findings against the
 *   `br-fr-1.4-cii` findings of verdicts-br-fr-1.4.jsonl (103 CII / Factur-X files).
 *
 * The rule sets run directly (ingest → RuleContext → runRuleSet), independent of the /v1/validate
 * pipeline. A file agrees when the multiset of (rule id, location) of each severity is identical.
 * Prints agreement at file and rule level (errors and warnings) per rule set; set CORPUS_DIFF=1 to
 * print every differing file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ingest } from '../../src/input/ingest.js';
import { runRuleSet } from '../../src/rules/engine.js';
import type { Finding, RuleContext } from '../../src/rules/types.js';
import '../../src/rules/br-fr/index.js';

import { CORPUS as corpus } from './corpus.js';

interface Entry {
  id: string;
  ruleset: string;
  location?: string;
}
interface Verdict {
  file: string;
  syntax: string;
  rulesets: string[];
  errors: Entry[];
  warnings: Entry[];
  information: Entry[];
}

const readVerdicts = (name: string) =>
  readFileSync(path.join(corpus, name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Verdict);

/** Our locations carry the document's prefixes; the verdicts' do not. */
const stripPrefixes = (loc = '') => loc.replace(/\/[A-Za-z0-9_.-]+:/g, '/');

interface Tally {
  files: number;
  filesAgree: number;
  errors: { tp: number; fp: number; fn: number };
  warnings: { tp: number; fp: number; fn: number };
}
const newTally = (): Tally => ({ files: 0, filesAgree: 0, errors: { tp: 0, fp: 0, fn: 0 }, warnings: { tp: 0, fp: 0, fn: 0 } });

/** Multiset difference of "id@location" keys; counts rule-level tp/fp/fn by id. */
function compare(t: Tally['errors'], expected: string[], actual: string[]): string[] {
  const diff: string[] = [];
  const left = [...actual];
  for (const e of expected) {
    const i = left.indexOf(e);
    if (i >= 0) {
      left.splice(i, 1);
      t.tp++;
    } else {
      t.fn++;
      diff.push(`-${e}`);
    }
  }
  for (const a of left) {
    t.fp++;
    diff.push(`+${a}`);
  }
  return diff;
}

const docs = new Map<string, Promise<RuleContext | undefined>>();
function contextOf(file: string): Promise<RuleContext | undefined> {
  let p = docs.get(file);
  if (!p) {
    p = ingest(readFileSync(path.join(corpus, file))).then((r) =>
      r.doc && (r.syntax === 'cii' || r.syntax === 'ubl')
        ? ({ invoice: r.invoice!, doc: r.doc, syntax: r.syntax } as RuleContext)
        : undefined,
    );
    docs.set(file, p);
  }
  return p;
}

async function measure(verdicts: Verdict[], officialSet: (v: Verdict) => string | undefined, ours: (official: string) => string) {
  const tallies = new Map<string, Tally>();
  const diffs: string[] = [];
  for (const v of verdicts) {
    const official = officialSet(v);
    if (!official) continue;
    const mine = ours(official);
    const t = tallies.get(mine) ?? newTally();
    tallies.set(mine, t);
    t.files++;
    const ctx = await contextOf(v.file);
    const findings: Finding[] = ctx ? runRuleSet(mine, ctx) : [];
    const key = (id: string | null, loc?: string) => `${id}@${stripPrefixes(loc)}`;
    const pick = (list: Entry[]) => list.filter((e) => e.ruleset === official).map((e) => key(e.id, e.location));
    const mineOf = (sev: Finding['severity']) => findings.filter((f) => f.severity === sev).map((f) => key(f.ruleId, f.location));
    const d = [...compare(t.errors, pick(v.errors), mineOf('error')), ...compare(t.warnings, pick(v.warnings), mineOf('warning'))];
    if (mineOf('information').length) d.push(...mineOf('information').map((x) => `+info ${x}`));
    if (d.length === 0) t.filesAgree++;
    else diffs.push(`${mine} ${v.file}\n    ${d.join('\n    ')}`);
  }
  return { tallies, diffs };
}

function report(title: string, tallies: Map<string, Tally>, diffs: string[]): void {
  const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);
  const lines = [`\n${title}`];
  for (const [set, t] of tallies) {
    lines.push(
      `  ${set}: files ${t.filesAgree}/${t.files} agree (${pct(t.filesAgree, t.files)}); ` +
        `errors tp ${t.errors.tp} fp ${t.errors.fp} fn ${t.errors.fn}; warnings tp ${t.warnings.tp} fp ${t.warnings.fp} fn ${t.warnings.fn}`,
    );
  }
  if (process.env.CORPUS_DIFF) lines.push(...diffs);
  console.log(lines.join('\n'));
}

/** Agreement reached when this test was last tightened: it may only go up. */
const FLOOR: Record<string, number> = {
  'br-fr-1.2-cii': 92, // of 92
  'br-fr-1.2-ubl': 27, // of 27
  'br-fr-1.4-cii': 92, // of 92
};

test('BR-FR release 1.2.0 on the fr-ctc corpus agrees with verdicts.jsonl', async () => {
  const verdicts = readVerdicts('verdicts.jsonl').filter((v) => v.file.startsWith('fr-ctc/'));
  assert.equal(verdicts.length, 130);
  const { tallies, diffs } = await measure(
    verdicts,
    (v) => v.rulesets.find((r) => r === 'br-fr-cii' || r === 'br-fr-ubl'),
    (official) => (official === 'br-fr-cii' ? 'br-fr-1.2-cii' : 'br-fr-1.2-ubl'),
  );
  report('BR-FR 1.2.0 (warnings) vs verdicts.jsonl', tallies, diffs);
  for (const [set, t] of tallies) assert.ok(t.filesAgree >= FLOOR[set], `${set}: ${t.filesAgree} files agree, floor ${FLOOR[set]}`);
  assert.equal(tallies.get('br-fr-1.2-cii')?.files, 92);
  assert.equal(tallies.get('br-fr-1.2-ubl')?.files, 27);
});

test('BR-FR release 1.4 standard edition on the fr-ctc corpus agrees with verdicts-br-fr-1.4.jsonl', async () => {
  const verdicts = readVerdicts('verdicts-br-fr-1.4.jsonl');
  assert.equal(verdicts.length, 103);
  const { tallies, diffs } = await measure(
    verdicts,
    (v) => v.rulesets.find((r) => r === 'br-fr-1.4-cii'),
    () => 'br-fr-1.4-cii',
  );
  report('BR-FR 1.4 standard edition (errors) vs verdicts-br-fr-1.4.jsonl', tallies, diffs);
  for (const [set, t] of tallies) assert.ok(t.filesAgree >= FLOOR[set], `${set}: ${t.filesAgree} files agree, floor ${FLOOR[set]}`);
  assert.equal(tallies.get('br-fr-1.4-cii')?.files, 92);
  // The WARNING edition has the same asserts: same findings, only the severities differ.
  for (const v of verdicts.filter((x) => x.rulesets.includes('br-fr-1.4-cii'))) {
    const ctx = await contextOf(v.file);
    if (!ctx) continue;
    const key = (f: Finding) => `${f.ruleId}@${f.location}`;
    assert.deepEqual(runRuleSet('br-fr-1.4-warning-cii', ctx).map(key), runRuleSet('br-fr-1.4-cii', ctx).map(key), v.file);
  }
});

test('BR-FR 1.4 UBL (no official verdicts: the 1.4 UBL schematron does not compile in the oracle) runs on the fr-ctc UBL files', async () => {
  // Without a reference to compare with, check that every rule evaluates (no internal rule error) in both 1.4 editions.
  const ubl = readVerdicts('verdicts.jsonl').filter((v) => v.file.startsWith('fr-ctc/') && v.rulesets.includes('br-fr-ubl'));
  assert.equal(ubl.length, 27);
  const counts: Record<string, number> = {};
  for (const v of ubl) {
    const ctx = await contextOf(v.file);
    assert.ok(ctx, v.file);
    for (const set of ['br-fr-1.4-ubl', 'br-fr-1.4-warning-ubl']) {
      const findings = runRuleSet(set, ctx);
      assert.deepEqual(
        findings.filter((f) => f.ruleId === 'INTERNAL-RULE-ERROR'),
        [],
        v.file,
      );
      counts[set] = (counts[set] ?? 0) + findings.length;
    }
  }
  console.log(`\nBR-FR 1.4 UBL on the 27 fr-ctc UBL files (no verdicts to compare): ${JSON.stringify(counts)} findings`);
});
