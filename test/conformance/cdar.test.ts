/**
 * BR-FR-CDV and the CDAR schema layer against the official verdicts (test/fixtures/cdar/verdicts.jsonl, made by
 * scripts/cdar-verdicts.ts with FNFE-MPE's XSLT and the official XSD): the official CDAR examples of the XP Z12-012 /
 * XP Z12-014 annexes wherever they are found (the corpus, or CDAR_EXAMPLES; matched by SHA-256), the mutations, and
 * every status code × role combination built by POST /v1/status. Prints the agreement per group (docs/rules.md).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { buildStatusMessage } from '../../src/cdar/build.js';
import { compare, emptyAgreement, readVerdicts, summary, type Agreement } from '../cdar-agreement.js';
import { statusCombinations } from '../cdar-combinations.js';
import { CDAR_MUTATIONS, mutatedXml } from '../cdar-mutations.js';
import { CORPUS } from './corpus.js';

function cdarFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = path.join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.xml')) out.push(p);
    }
  };
  walk(dir);
  return out.filter((f) => readFileSync(f).includes('CrossDomainAcknowledgementAndResponse'));
}

const report = (label: string, a: Agreement) => {
  const s = summary(a);
  console.log(
    `${label}: ${a.agreeing}/${a.files - a.noVerdict} files agree (${(100 * s.fileAgreement).toFixed(2)}%), rule recall ${s.recall.toFixed(4)}, precision ${s.precision.toFixed(4)}, XSD verdicts agree on ${a.xsdAgreeing}/${a.files}${a.noVerdict ? `, ${a.noVerdict} without official verdict` : ''}`,
  );
  if (process.env.CORPUS_DIFF) for (const d of a.differences) console.log(`  ${d}`);
  return s;
};

test('BR-FR-CDV and the CDAR XSD agree with the official artefacts: examples, mutations, combinations', () => {
  const verdicts = readVerdicts();
  const examples = new Map(verdicts.filter((v) => v.kind === 'example').map((v) => [v.sha256!, v]));
  const found = new Map<string, string>();
  for (const dir of [CORPUS, process.env.CDAR_EXAMPLES].filter((d): d is string => Boolean(d))) {
    for (const file of cdarFiles(dir)) {
      const bytes = readFileSync(file);
      const sha = createHash('sha256').update(bytes).digest('hex');
      if (examples.has(sha) && !found.has(sha)) found.set(sha, bytes.toString('utf8'));
    }
  }
  const total = emptyAgreement();
  if (found.size === 0) {
    console.log(
      `official CDAR examples: none found under ${CORPUS}${process.env.CDAR_EXAMPLES ? ` or ${process.env.CDAR_EXAMPLES}` : ''} (set CDAR_EXAMPLES to the XP Z12-012 / XP Z12-014 annex examples; ${examples.size} verdicts stored)`,
    );
  } else {
    const a = emptyAgreement();
    for (const [sha, xml] of found) {
      compare(a, examples.get(sha)!, xml);
      compare(total, examples.get(sha)!, xml);
    }
    const s = report(`official CDAR examples (${found.size} of ${examples.size})`, a);
    assert.ok(s.fileAgreement >= 0.995 && s.recall >= 0.995 && s.precision >= 0.995, a.differences.join('\n'));
  }

  const mutations = emptyAgreement();
  const byName = new Map(verdicts.filter((v) => v.kind === 'mutation').map((v) => [v.name, v]));
  for (const m of CDAR_MUTATIONS) {
    compare(mutations, byName.get(m.name)!, mutatedXml(m));
    compare(total, byName.get(m.name)!, mutatedXml(m));
  }
  const sm = report(`mutations (${CDAR_MUTATIONS.length})`, mutations);
  assert.ok(sm.fileAgreement >= 0.995 && sm.recall >= 0.995 && sm.precision >= 0.995, mutations.differences.join('\n'));

  const combos = emptyAgreement();
  const comboVerdicts = new Map(verdicts.filter((v) => v.kind === 'combination').map((v) => [v.name, v]));
  for (const c of statusCombinations()) {
    const v = comboVerdicts.get(c.name)!;
    assert.ok(v.xsd.valid && v.findings && !v.findings.some((f) => f.flag === 'fatal'), `${c.name}: official verdict`);
    const xml = buildStatusMessage(c.message).xml;
    compare(combos, v, xml);
    compare(total, v, xml);
  }
  const sc = report(`status code × role combinations (${comboVerdicts.size})`, combos);
  assert.equal(sc.fileAgreement, 1, combos.differences.join('\n'));
  report('all', total);
});
