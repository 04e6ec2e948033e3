/**
 * The whole corpus against the official verdicts, for the EN 16931 rule sets (en16931-cii,
 * en16931-ubl): for every invoice whose official rule sets include one of them, the set of error
 * ids and the set of warning ids we report must equal the official ones. Prints agreement at file
 * and rule level per rule set, and implemented/total per family from the rule catalogue.
 *
 * Two scopes are measured: the business rules of this engine (BR-*), and all ids of the rule set
 * (which also counts the syntax rules CII-SR/CII-DT/UBL-SR/UBL-CR/UBL-DT of the syntax layer).
 * Set CORPUS_DIFF=1 to print every differing file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SHARED_EMPTY_ARRAY } from '../../src/xml/parser.js';
import { getRuleSet, INTERNAL_RULE_ERROR, runRules } from '../../src/rules/engine.js';
import type { Finding } from '../../src/rules/types.js';
import '../../src/validation/validate.js'; // registers the rule sets
import { ingestCorpusInvoice, readCorpusVerdicts } from './corpus-helpers.js';

import { CATALOGUE as catalogue } from './corpus.js';
const SETS = ['en16931-cii', 'en16931-ubl'] as const;
type SetId = (typeof SETS)[number];

interface Verdict {
  file: string;
  rulesets: string[];
  errors: { id: string; ruleset: string }[];
  warnings: { id: string; ruleset: string }[];
}

/** Agreement reached when this test was last tightened: it may only go up. */
const FLOOR: Record<SetId, { businessFiles: number; allFiles: number }> = {
  'en16931-cii': { businessFiles: 1.0, allFiles: 1.0 },
  'en16931-ubl': { businessFiles: 1.0, allFiles: 1.0 },
};

const isBusiness = (id: string) => id.startsWith('BR-');

function family(id: string): string {
  const m = /^([A-Z]+(?:-[A-Z]+)*-)/.exec(id);
  return m ? m[1] : id;
}

interface Tally {
  files: number;
  filesAgree: number;
  errorRules: { tp: number; fp: number; fn: number };
  warningRules: { tp: number; fp: number; fn: number };
}
const newTally = (): Tally => ({ files: 0, filesAgree: 0, errorRules: { tp: 0, fp: 0, fn: 0 }, warningRules: { tp: 0, fp: 0, fn: 0 } });

function compare(t: Tally, expected: Set<string>, actual: Set<string>, which: 'errorRules' | 'warningRules'): string[] {
  const diff: string[] = [];
  for (const id of expected) {
    if (actual.has(id)) t[which].tp++;
    else {
      t[which].fn++;
      diff.push(`-${id}`);
    }
  }
  for (const id of actual) {
    if (!expected.has(id)) {
      t[which].fp++;
      diff.push(`+${id}`);
    }
  }
  return diff;
}

test('EN 16931 corpus agreement with the official verdicts', async () => {
  const verdicts = readCorpusVerdicts<Verdict>();
  const tallies = {
    business: { 'en16931-cii': newTally(), 'en16931-ubl': newTally() },
    all: { 'en16931-cii': newTally(), 'en16931-ubl': newTally() },
  };
  const diffs: string[] = [];
  const firedByRule = new Map<string, number>();
  let unreadable = 0;
  const internal: string[] = [];
  const countFiles = { 'en16931-cii': { files: 0, agree: 0 }, 'en16931-ubl': { files: 0, agree: 0 } };
  const countDiffs: string[] = [];

  for (const v of verdicts) {
    const set = SETS.find((s) => v.rulesets.includes(s));
    if (!set) continue;
    const ctx = await ingestCorpusInvoice(v.file);
    if (!ctx) {
      unreadable++;
      continue;
    }
    const findings: Finding[] = runRules(set, getRuleSet(set)!, ctx);
    for (const f of findings) if (f.ruleId === INTERNAL_RULE_ERROR) internal.push(`${v.file}: ${f.message}`);
    // Counts too: a rule fires once per context node, so a rule on the document fires once, one on each line per line.
    const counted = (ids: string[]) => ids.sort().join(' ');
    const sameCounts =
      counted(
        findings
          .filter((f) => (f.severity === 'error' || f.severity === 'warning') && f.ruleId)
          .map((f) => `${f.severity === 'error' ? 'E' : 'W'}:${f.ruleId}`),
      ) ===
      counted([
        ...v.errors.filter((e) => e.ruleset === set).map((e) => `E:${e.id}`),
        ...v.warnings.filter((e) => e.ruleset === set).map((e) => `W:${e.id}`),
      ]);
    countFiles[set].files++;
    if (sameCounts) countFiles[set].agree++;
    else countDiffs.push(v.file);
    for (const scope of ['business', 'all'] as const) {
      const keep = scope === 'business' ? isBusiness : () => true;
      const expErr = new Set(v.errors.filter((e) => e.ruleset === set && keep(e.id)).map((e) => e.id));
      const expWarn = new Set(v.warnings.filter((e) => e.ruleset === set && keep(e.id)).map((e) => e.id));
      const gotErr = new Set(findings.filter((f) => f.severity === 'error' && f.ruleId && keep(f.ruleId)).map((f) => f.ruleId!));
      const gotWarn = new Set(findings.filter((f) => f.severity === 'warning' && f.ruleId && keep(f.ruleId)).map((f) => f.ruleId!));
      const t = tallies[scope][set];
      t.files++;
      const d = [...compare(t, expErr, gotErr, 'errorRules'), ...compare(t, expWarn, gotWarn, 'warningRules')];
      if (d.length === 0) t.filesAgree++;
      else if (scope === 'business') diffs.push(`${v.file}: ${d.join(' ')}`);
      if (scope === 'business') for (const id of expErr) firedByRule.set(id, (firedByRule.get(id) ?? 0) + 1);
    }
  }

  const pct = (a: number, b: number) => (b === 0 ? '100.0' : ((100 * a) / b).toFixed(1));
  const lines: string[] = [];
  for (const scope of ['business', 'all'] as const) {
    for (const set of SETS) {
      const t = tallies[scope][set];
      const rule = (r: Tally['errorRules']) =>
        `${r.tp}/${r.tp + r.fp + r.fn} (${pct(r.tp, r.tp + r.fp + r.fn)}%; ${r.fn} missed, ${r.fp} extra)`;
      lines.push(
        `${set} [${scope === 'business' ? 'business rules BR-*' : 'all ids'}]: files ${t.filesAgree}/${t.files} (${pct(t.filesAgree, t.files)}%), ` +
          `error ids ${rule(t.errorRules)}, warning ids ${rule(t.warningRules)}`,
      );
    }
  }
  for (const set of SETS) lines.push(`${set} [all ids, with their counts]: files ${countFiles[set].agree}/${countFiles[set].files}`);
  lines.push(`files not readable as CII/UBL invoices (skipped): ${unreadable}`);

  // implemented/total per family, from the official catalogue.
  for (const set of SETS) {
    const ids = readFileSync(path.join(catalogue, `${set}.tsv`), 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split('\t')[0]);
    const implemented = new Set(getRuleSet(set)!.map((r) => r.id));
    const fams = new Map<string, [number, number]>();
    for (const id of ids) {
      const f = family(id);
      const e = fams.get(f) ?? [0, 0];
      e[1]++;
      if (implemented.has(id)) e[0]++;
      fams.set(f, e);
    }
    lines.push(`${set} implemented/total: ` + [...fams].map(([f, [a, b]]) => `${f} ${a}/${b}`).join(', '));
  }
  console.log(lines.join('\n'));
  if (process.env.CORPUS_DIFF) console.log([...diffs, ...countDiffs.map((f) => `${f}: counts differ`)].join('\n'));
  assert.deepEqual(internal.slice(0, 5), [], 'rules must not throw on corpus documents');
  // Leaves share one empty children/attrs array (src/xml/parser.ts): a rule that pushed into it would corrupt every tree.
  assert.equal(SHARED_EMPTY_ARRAY.length, 0, "something pushed into the parser's shared empty array");

  for (const set of SETS) {
    const t = tallies.business[set];
    assert.ok(t.files > 0, `no corpus files for ${set}`);
    assert.ok(
      t.filesAgree / t.files >= FLOOR[set].businessFiles,
      `${set}: business-rule file agreement ${pct(t.filesAgree, t.files)}% dropped below ${FLOOR[set].businessFiles * 100}%`,
    );
    assert.equal(countFiles[set].agree, countFiles[set].files, `${set}: rule counts differ on ${countDiffs.slice(0, 5).join(', ')}`);
    const a = tallies.all[set];
    assert.ok(
      a.filesAgree / a.files >= FLOOR[set].allFiles,
      `${set}: file agreement over all ids ${pct(a.filesAgree, a.files)}% dropped below ${FLOOR[set].allFiles * 100}%`,
    );
  }
});
