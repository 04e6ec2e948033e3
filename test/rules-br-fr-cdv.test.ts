/**
 * BR-FR-CDV (src/rules/br-fr-cdv/) and the CDAR schema layer against the official artefacts' verdicts stored in
 * test/fixtures/cdar/verdicts.jsonl (scripts/cdar-verdicts.ts): every official assert id implemented with its flag,
 * every status code × role combination POST /v1/status builds passes the official XSD and XSLT and ours alike, and
 * on the mutations (at least one per assert) our findings are the official ones, id by id and count by count.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { buildStatusMessage } from '../src/cdar/build.js';
import { BR_FR_CDV_RULES, runBrFrCdv } from '../src/rules/br-fr-cdv/index.js';
import { parseXml } from '../src/xml/dom.js';
import { compare, emptyAgreement, readVerdicts, summary } from './cdar-agreement.js';
import { statusCombinations } from './cdar-combinations.js';
import { CDAR_MUTATIONS, mutatedXml } from './cdar-mutations.js';

const verdicts = readVerdicts();
const byName = (kind: string) => new Map(verdicts.filter((v) => v.kind === kind).map((v) => [v.name, v]));

/** The asserts the official artefact can never fire (see src/rules/br-fr-cdv/index.ts). */
const CANNOT_FIRE = new Set([
  'BR-FR-CDV-01_MDG-3',
  'BR-FR-CDV-04_MDG-4',
  'BR-FR-CDV-05_MDG-9',
  'BR-FR-CDV-06_MDT-21',
  'BR-FR-CDV-07_MDT-38_no',
  'BR-FR-CDV-10_MDT-87',
]);

test('every official BR-FR-CDV assert is implemented under its id, with its flag', () => {
  const official = readFileSync(path.join(import.meta.dirname, 'fixtures/rule-ids/br-fr-cdv.txt'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  assert.equal(official.length, 42);
  assert.deepEqual(BR_FR_CDV_RULES.map((r) => [r.id, r.flag]).sort(), official.map(([id, flag]) => [id, flag]).sort());
  assert.equal(new Set(BR_FR_CDV_RULES.map((r) => r.id)).size, BR_FR_CDV_RULES.length);
});

test('every status code × role combination passes the official XSD and BR-FR-CDV without a fatal assert, and ours', () => {
  const stored = byName('combination');
  const combinations = statusCombinations();
  assert.equal(stored.size, combinations.length, 'a stored verdict for every combination (re-run scripts/cdar-verdicts.ts)');
  assert.ok(combinations.length > 1800);
  const agreement = emptyAgreement();
  for (const c of combinations) {
    const verdict = stored.get(c.name);
    assert.ok(verdict, c.name);
    assert.equal(verdict.xsd.valid, true, `${c.name}: official XSD`);
    assert.ok(
      verdict.findings && !verdict.findings.some((f) => f.flag === 'fatal'),
      `${c.name}: official ${JSON.stringify(verdict.findings)}`,
    );
    compare(agreement, verdict, buildStatusMessage(c.message).xml);
  }
  assert.deepEqual(agreement.differences, []);
});

test('on the mutations our findings are the official ones, and every assert has a mutation aimed at it', () => {
  const stored = byName('mutation');
  const agreement = emptyAgreement();
  for (const m of CDAR_MUTATIONS) {
    const verdict = stored.get(m.name);
    assert.ok(verdict, `a stored verdict for mutation "${m.name}"`);
    compare(agreement, verdict, mutatedXml(m));
  }
  const { fileAgreement, recall, precision } = summary(agreement);
  assert.deepEqual(agreement.differences, []);
  assert.ok(fileAgreement >= 0.995 && recall >= 0.995 && precision >= 0.995, JSON.stringify(summary(agreement)));

  for (const rule of BR_FR_CDV_RULES) {
    const aimed = CDAR_MUTATIONS.filter((m) => m.target === rule.id);
    assert.ok(aimed.length > 0, `a mutation aimed at ${rule.id}`);
    const fired = aimed.some((m) => stored.get(m.name)!.findings?.some((f) => f.id === rule.id));
    assert.equal(
      fired,
      !CANNOT_FIRE.has(rule.id),
      `${rule.id}: the official artefact ${fired ? 'fires' : 'does not fire'} on its mutations`,
    );
  }
  // The schema edits break the official XSD, and ours says so on the same line.
  for (const m of CDAR_MUTATIONS.filter((x) => x.target === 'XSD')) assert.equal(stored.get(m.name)!.xsd.valid, false, m.name);
});

test('the transition edition reports the same asserts as warnings', () => {
  const xml = mutatedXml(CDAR_MUTATIONS.find((m) => m.target === 'BR-FR-CDV-15_MDT-113')!);
  const standard = runBrFrCdv(parseXml(xml));
  const warning = runBrFrCdv(parseXml(xml), 'warning');
  assert.deepEqual(
    warning.map((f) => f.ruleId),
    standard.map((f) => f.ruleId),
  );
  assert.ok(standard.some((f) => f.severity === 'error'));
  assert.ok(warning.every((f) => f.severity === 'warning'));
  // BR-FR-CDV-CL-06 stays a warning in the standard edition.
  const unknown = runBrFrCdv(parseXml(mutatedXml(CDAR_MUTATIONS.find((m) => m.target === 'BR-FR-CDV-CL-06_MDT-105')!)));
  assert.deepEqual(
    unknown.map((f) => [f.ruleId, f.severity]),
    [['BR-FR-CDV-CL-06_MDT-105', 'warning']],
  );
});
