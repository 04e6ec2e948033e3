/** Conformance: the UBL syntax rules against the official verdicts on every CEN UBL file of the corpus. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { evaluateUblSyntax } from '../../src/syntax/ubl/rules.js';
import { parseXml } from '../../src/xml/dom.js';
import { corpusPath } from './corpus.js';

test('CEN UBL unit tests and examples: syntax-rule ids equal the official verdicts', () => {
  let checked = 0;
  let withFindings = 0;
  for (const line of readFileSync(corpusPath('verdicts.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    const v = JSON.parse(line) as {
      file: string;
      rulesets: string[];
      errors: { id: string; ruleset: string }[];
      warnings: { id: string; ruleset: string }[];
    };
    if (!v.file.startsWith('en16931/') || !v.rulesets.includes('en16931-ubl')) continue;
    const expected = new Set(
      [...v.errors, ...v.warnings].filter((x) => x.ruleset === 'en16931-ubl' && /^UBL-(SR|CR|DT)-/.test(x.id)).map((x) => x.id),
    );
    const root = parseXml(new Uint8Array(readFileSync(corpusPath(v.file)))).root;
    const found = new Set(evaluateUblSyntax({ root, encoding: 'utf-8', elementCount: 0 }).keys());
    assert.deepEqual([...found].sort(), [...expected].sort(), v.file);
    checked++;
    if (expected.size) withFindings++;
  }
  assert.ok(checked > 1000 && withFindings > 100, `${checked} files, ${withFindings} with syntax findings`);
});
