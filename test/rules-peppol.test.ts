/**
 * Peppol BIS Billing 3.0 (peppol-bis-3) and Self-Billing 3.0 (peppol-bis-3-selfbilling), every bundled release:
 * - coverage: every official assert id (test/fixtures/rule-ids/<set>.txt, from the official schematrons) is a rule;
 * - per rule, a failing case: a generated invoice (test/fixtures/peppol/invoices, one edit of a base) on which the
 *   official artefact reports the rule, and ours reports it too, with the official severity; and a passing case: the
 *   invoice's own base, on which the official artefact does not report the rule, nor do we;
 * - the identifier checks on known good and bad numbers, selection by CustomizationID, and `peppol_version` through
 *   the library, the HTTP form field and the result's rule_set_versions.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { getRuleSet, runRules } from '../src/rules/engine.js';
import {
  abnCheck,
  belgianEnterpriseCheck,
  codiceFiscaleCheck,
  codiceIpaCheck,
  glnCheck,
  greekTinCheck,
  ibanCheck,
  mod11Check,
  partitaIvaCheck,
  swedishOrgNumberCheck,
} from '../src/rules/peppol/identifiers.js';
import { parsePeppolRelease } from '../src/rules/peppol/releases.js';
import { flavorOf, selectRuleSets } from '../src/validation/rulesets.js';
import { validate } from '../src/lib/index.js';
import { fixturePath, ruleIds } from './fixtures.js';
import { communityApp, multipart } from './helpers.js';
import { contextOf, readVerdicts, type OracleVerdict } from './peppol-agreement.js';

const SETS = [
  'peppol-bis-3',
  'peppol-bis-3@2025.11',
  'peppol-bis-3@2025.5',
  'peppol-bis-3-selfbilling',
  'peppol-bis-3-selfbilling@2025.11',
];
const verdicts = readVerdicts(fixturePath('peppol/verdicts.jsonl'));
const invoicePath = (v: OracleVerdict) => path.join(fixturePath('peppol'), v.file);
const officialFindings = (v: OracleVerdict) => [
  ...(v.errors ?? []).map((e) => ({ id: e.id, severity: 'error' })),
  ...(v.warnings ?? []).map((e) => ({ id: e.id, severity: 'warning' })),
];
/** The base an invoice was made from: `invoices/<base>--<case>.xml` → `invoices/base-<base>.xml`. */
const baseOf = (file: string) => file.replace(/invoices\/([a-z]+(?:-cn)?)--.*$/, 'invoices/base-$1.xml');

describe('Peppol rule sets: every official id is implemented, with a failing and a passing case', () => {
  for (const set of SETS) {
    test(`${set}: every official assert id is a rule of the set`, () => {
      const implemented = (getRuleSet(set) ?? []).map((r) => r.id);
      const official = ruleIds(set);
      assert.deepEqual(
        official.filter((id) => !implemented.includes(id)),
        [],
      );
      assert.deepEqual(implemented, official, 'same ids, in the official order');
    });

    test(`${set}: each rule fires where the official artefact reports it, with its severity, and holds on the base`, async () => {
      const rules = getRuleSet(set)!;
      const lines = verdicts.filter((v) => v.ruleset === set && v.error === undefined);
      const byFile = new Map(lines.map((v) => [v.file, v]));
      const missing: string[] = [];
      for (const id of ruleIds(set)) {
        // The failing case: the first generated invoice on which the official artefact reports this rule.
        const failing = lines.find((v) => !path.basename(v.file).startsWith('base-') && officialFindings(v).some((f) => f.id === id));
        if (!failing) {
          missing.push(id);
          continue;
        }
        const severity = officialFindings(failing).find((f) => f.id === id)!.severity;
        const ours = runRules(set, rules, await contextOf(invoicePath(failing))).filter((f) => f.ruleId === id);
        assert.ok(ours.length > 0, `${set} ${id}: not reported on ${failing.file}`);
        assert.equal(ours[0].severity, severity, `${set} ${id}: severity`);
        // The passing case: the base of that invoice (or, when the base already breaks the rule, any invoice the artefact passes).
        let passing = byFile.get(baseOf(failing.file));
        if (!passing || officialFindings(passing).some((f) => f.id === id))
          passing = lines.find((v) => !officialFindings(v).some((f) => f.id === id));
        assert.ok(passing, `${set} ${id}: no passing case`);
        const oursOnPassing = runRules(set, rules, await contextOf(invoicePath(passing))).filter((f) => f.ruleId === id);
        assert.equal(oursOnPassing.length, 0, `${set} ${id}: reported on ${passing.file}, which the official artefact passes`);
      }
      assert.deepEqual(missing, [], `${set}: rules without a failing case`);
    });
  }
});

describe('Peppol identifier checks', () => {
  test('GLN, Norwegian, Belgian, Swedish, Australian, Greek numbers: check digits', () => {
    assert.ok(glnCheck('4006381333931'));
    assert.ok(!glnCheck('4006381333932'));
    assert.ok(mod11Check('974760673'));
    assert.ok(!mod11Check('974760674'));
    assert.ok(!mod11Check('000000000'), 'a number above zero');
    assert.ok(belgianEnterpriseCheck('0403127050')); // 97 − (04031270 mod 97) = 50
    assert.ok(!belgianEnterpriseCheck('0403127099'));
    assert.ok(swedishOrgNumberCheck('5560360793'));
    assert.ok(!swedishOrgNumberCheck('5560360794'));
    assert.ok(!swedishOrgNumberCheck('556036079A'));
    assert.ok(abnCheck('51824753556'));
    assert.ok(!abnCheck('51824753557'));
    assert.ok(greekTinCheck('094048486'));
    assert.ok(!greekTinCheck('094048485'));
    assert.ok(!greekTinCheck('123456789'));
  });

  test('Italian codes: IPA, codice fiscale, partita IVA', () => {
    assert.ok(codiceIpaCheck('UFABC1'));
    assert.ok(!codiceIpaCheck('UFAB-1'));
    assert.ok(codiceFiscaleCheck('RSSMRA80A01H501U'));
    assert.ok(codiceFiscaleCheck('12345678901'));
    assert.ok(!codiceFiscaleCheck('RSSMRA8XA01H501U'));
    assert.ok(partitaIvaCheck('IT01234567897'));
    assert.ok(!partitaIvaCheck('IT01234567891'));
    assert.ok(partitaIvaCheck('SM123'), 'only the IT prefix is checked');
  });

  test('IBAN as the German rules test it', () => {
    assert.ok(ibanCheck('DE89 3704 0044 0532 0130 00'));
    assert.ok(!ibanCheck('DE00370400440532013000'));
    assert.ok(!ibanCheck(undefined));
  });
});

describe('Peppol selection and releases', () => {
  const billing = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
  const selfBilling = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0';

  test('by CustomizationID, for UBL, on top of EN 16931 UBL', () => {
    assert.deepEqual(selectRuleSets({ syntax: 'ubl', guideline: billing }), ['en16931-ubl', 'peppol-bis-3']);
    assert.deepEqual(selectRuleSets({ syntax: 'ubl', guideline: ` ${billing}#conformant#urn:example` }), ['en16931-ubl', 'peppol-bis-3']);
    assert.deepEqual(selectRuleSets({ syntax: 'ubl', guideline: selfBilling }), ['en16931-ubl', 'peppol-bis-3-selfbilling']);
    assert.deepEqual(selectRuleSets({ syntax: 'ubl', guideline: 'urn:cen.eu:en16931:2017' }), ['en16931-ubl']);
    assert.deepEqual(
      selectRuleSets({ syntax: 'cii', guideline: billing }),
      ['en16931-cii', 'fx-en16931'],
      'the Peppol CII binding is not bundled',
    );
    assert.equal(flavorOf({ syntax: 'ubl', guideline: billing }), 'peppol');
    assert.equal(flavorOf({ syntax: 'ubl', guideline: selfBilling }), 'peppol_selfbilling');
  });

  test('peppol_version values', () => {
    assert.equal(parsePeppolRelease(undefined), '2026.5');
    assert.equal(parsePeppolRelease('2025-11'), '2025.11');
    assert.equal(parsePeppolRelease('v2025.5'), '2025.5');
    assert.equal(parsePeppolRelease('2024.11'), undefined);
  });

  test('the library validates a Peppol invoice with the release asked for, and names it', async () => {
    const bytes = readFileSync(fixturePath('peppol/invoices/be--CL007-currency-xcg.xml'));
    const current = await validate(bytes);
    assert.ok(current.rule_sets.includes('peppol-bis-3'));
    assert.equal(current.flavor, 'peppol');
    assert.equal(current.rule_set_versions.peppol, '2026.5');
    assert.equal(current.peppol_version, '2026.5');
    assert.ok(!current.errors.some((e) => e.rule_id === 'PEPPOL-EN16931-CL007'), 'XCG is a 2026.5 currency');
    const older = await validate(bytes, { peppolVersion: '2025.11' });
    assert.equal(older.rule_set_versions.peppol, '2025.11');
    assert.ok(
      older.errors.some((e) => e.rule_id === 'PEPPOL-EN16931-CL007' && e.rule_set === 'peppol-bis-3'),
      '2025.11 does not know XCG',
    );
    await assert.rejects(validate(bytes, { peppolVersion: '2030.1' }), /peppol_version|2026\.5/);
  });

  test('POST /v1/validate: peppol_version form field (422 when unknown), the findings of the Peppol layer', async () => {
    const app = await communityApp();
    try {
      const send = async (file: string, fields: Record<string, string> = {}) => {
        const parts = [
          { name: 'file', value: readFileSync(fixturePath(file)), filename: path.basename(file) },
          ...Object.entries(fields).map(([name, value]) => ({ name, value })),
        ];
        const { payload, headers } = multipart(parts);
        return app.inject({ method: 'POST', url: '/v1/validate', payload, headers });
      };
      const ok = await send('peppol/invoices/base-be.xml');
      assert.equal(ok.statusCode, 200);
      const body = ok.json();
      assert.equal(body.valid, true, JSON.stringify(body.errors));
      assert.deepEqual(body.rule_set_versions.peppol, '2026.5');
      const bad = await send('peppol/invoices/be--COMMON-R043-enterprise.xml', { peppol_version: '2025.5' });
      assert.equal(bad.statusCode, 200);
      assert.equal(bad.json().valid, false);
      assert.equal(bad.json().peppol_version, '2025.5');
      assert.ok(bad.json().errors.some((e: { rule_id: string }) => e.rule_id === 'PEPPOL-COMMON-R043'));
      const refused = await send('peppol/invoices/base-be.xml', { peppol_version: '3.0' });
      assert.equal(refused.statusCode, 422);
      assert.match(refused.body, /peppol_version/);
    } finally {
      await app.close();
    }
  });
});
