/**
 * Pro smart diagnostics: every rule id the engine can report has a specific title, an explanation naming
 * the business terms involved and a suggestion (never the generic fallback), and calculation rules carry
 * the values they compared in `context.compared`, over real HTTP against the real app.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import '../src/validation/validate.js'; // registers the EN 16931, XRechnung and Factur-X rule sets
import '../src/validation/br-fr.js'; // registers the BR-FR rule sets
import { getRuleSet, INTERNAL_RULE_ERROR, ruleSetIds } from '../src/rules/engine.js';
import { GENERIC_TITLE, toDiagnostic } from '../src/validation/diagnostics.js';
import { explainFinding } from '../src/validation/explanations/index.js';
import { isKnownTerm, termName, termsIn } from '../src/validation/explanations/terms.js';
import { NUMBER_TOO_LONG } from '../src/validation/number-limits.js';
import { REPORT_TRUNCATED } from '../src/rules/report-bounds.js';
import { fixturePath, ruleIds } from './fixtures.js';
import { communityApp, multipart, proApp } from './helpers.js';

const SRC = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Ids the service reports itself, read from the source: literal rule ids, ingest codes, PDF/A clause ids. */
function ownIds(): Set<string> {
  const ids = new Set<string>(['XSD', NUMBER_TOO_LONG, REPORT_TRUNCATED, INTERNAL_RULE_ERROR]);
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(?:rule_id|ruleId):\s*'([A-Z][A-Z0-9_-]+)'/g)) ids.add(m[1]);
    if (file.includes(`${path.sep}input${path.sep}`) || file.endsWith(`xml${path.sep}dom.ts`))
      for (const m of text.matchAll(/(?:code: |\| )'([A-Z][A-Z0-9_]+)'/g)) ids.add(m[1]);
    if (file.includes(`${path.sep}pdfa${path.sep}`)) for (const m of text.matchAll(/'(6\.\d+(?:\.\d+)*-\d+)'/g)) ids.add(m[1]);
  }
  return ids;
}

function assertSpecific(ruleId: string, message: string, ruleSet?: string) {
  const e = explainFinding({ ruleId, message, ruleSet });
  assert.ok(e, `${ruleId}: no specific explanation`);
  assert.notEqual(e.title, GENERIC_TITLE, ruleId);
  assert.ok(e.title.length > 5 && e.explanation.length > 20 && e.suggestion.length > 10, `${ruleId}: ${JSON.stringify(e)}`);
  assert.ok(!/undefined|\[object/.test(`${e.title} ${e.explanation} ${e.suggestion}`), `${ruleId}: ${JSON.stringify(e)}`);
  // Every EN 16931 term the rule's message names is named with its name.
  for (const t of termsIn(message))
    if (isKnownTerm(t)) assert.ok(e.explanation.includes(`${termName(t)} (${t})`), `${ruleId}: ${t} not named`);
  const d = toDiagnostic({ rule_id: ruleId, message, severity: 'error', ...(ruleSet ? { rule_set: ruleSet } : {}) });
  assert.notEqual(d.title, GENERIC_TITLE, ruleId);
  return e;
}

describe('smart diagnostics: every id the engine can report is explained', () => {
  test('every rule of every registered rule set', () => {
    let n = 0;
    const sets = ruleSetIds();
    for (const family of ['en16931', 'xrechnung', 'fx-', 'br-fr'])
      assert.ok(
        sets.some((s) => s.startsWith(family)),
        family,
      );
    for (const set of sets)
      for (const rule of getRuleSet(set) ?? []) {
        assertSpecific(rule.id, rule.message, set);
        n++;
      }
    assert.ok(n > 5000, `${n} rules`);
  });

  test('every official id of the EN 16931 and XRechnung catalogues is a registered rule (so the test above covers it)', () => {
    for (const set of ['en16931-cii', 'en16931-ubl', 'xrechnung-cii', 'xrechnung-ubl']) {
      const registered = new Set((getRuleSet(set) ?? []).map((r) => r.id));
      for (const id of ruleIds(set)) assert.ok(registered.has(id), `${set}: ${id}`);
    }
  });

  test("the service's own ids (schema, ingest, report bounds, PDF/A clauses, BT-1-FORMAT)", () => {
    const ids = ownIds();
    for (const id of [
      'NO_XML',
      'UNKNOWN_XML',
      'ZUGFERD_1_LEGACY',
      'XML_ENCODING_UNSUPPORTED',
      'PDFA3_DECLARATION',
      '6.6.4-1',
      '6.2.11.4.1-1',
    ])
      assert.ok(ids.has(id), id);
    ids.add('BT-1-FORMAT');
    assert.ok(ids.size > 150, `${ids.size}`);
    for (const id of ids) assertSpecific(id, `Finding ${id}.`);
  });

  test('a code-list rule names its term and its list; a VAT category rule its category; a presence rule the missing term', () => {
    const cl = assertSpecific('BR-CL-23', 'A unit of measure must be a code of UN/ECE Recommendation 20 or 21.');
    assert.match(cl.title, /Invoiced quantity unit of measure code \(BT-130\)/);
    assert.match(cl.suggestion, /C62/);
    const vat = assertSpecific('BR-AE-08', 'x');
    assert.match(vat.title, /category AE/);
    assert.match(vat.explanation, /VAT category taxable amount \(BT-116\)/);
    const presence = assertSpecific(
      'BR-DE-30',
      'When direct debit (BG-19) is used, the bank assigned creditor identifier (BT-90) must be given.',
    );
    assert.match(presence.title, /Bank assigned creditor identifier \(BT-90\)/);
    const fx = explainFinding({
      ruleId: 'FX-SCH-A-000019',
      message: 'ID must occur exactly once in ExchangedDocument.',
      location: '/rsm:CrossIndustryInvoice[1]/rsm:ExchangedDocument[1]',
      ruleSet: 'fx-basic',
    });
    assert.match(fx?.explanation ?? '', /Invoice number \(BT-1\)/);
    assert.match(fx?.explanation ?? '', /BASIC profile/);
  });

  test('an id nobody knows falls back to the generic text (the safety net exists, and only there)', () => {
    assert.equal(explainFinding({ ruleId: 'SOMETHING-NEW-1', message: 'x' }), null);
    assert.equal(toDiagnostic({ rule_id: 'SOMETHING-NEW-1', message: 'x', severity: 'warning' }).title, GENERIC_TITLE);
  });
});

function postValidate(app: FastifyInstance, xml: string) {
  const { payload, headers } = multipart([
    { name: 'file', value: Buffer.from(xml), filename: 'invoice.xml', contentType: 'application/xml' },
  ]);
  return app.inject({ method: 'POST', url: '/v1/validate', payload, headers });
}

describe('POST /v1/validate: context.compared', () => {
  let pro: FastifyInstance;
  let community: FastifyInstance;
  before(async () => {
    pro = await proApp();
    community = await communityApp();
  });
  after(async () => {
    await pro.close();
    await community.close();
  });

  // CEN business example 2 with its sum of line net amounts (BT-106) raised by 1.00.
  const valid = readFileSync(fixturePath('cen/examples/cii/CII_business_example_02.xml'), 'utf8');
  const lineTotal = /<ram:SpecifiedTradeSettlementHeaderMonetarySummation>[\s\S]*?<ram:LineTotalAmount>([^<]+)<\/ram:LineTotalAmount>/.exec(
    valid,
  );

  test('BR-CO-10 lists the line net amounts, their sum, the stated BT-106 and the difference', async () => {
    assert.ok(lineTotal, 'fixture has a header LineTotalAmount');
    const stated = (Number.parseFloat(lineTotal[1]) + 1).toFixed(2);
    const xml = valid.replace(lineTotal[0], lineTotal[0].replace(`>${lineTotal[1]}<`, `>${stated}<`));
    const lines = [...valid.matchAll(/<ram:SpecifiedTradeSettlementLineMonetarySummation>\s*<ram:LineTotalAmount>([^<]+)</g)].map(
      (m) => m[1],
    );
    assert.ok(lines.length > 1);

    const res = await postValidate(pro, xml);
    assert.equal(res.statusCode, 200);
    const d = res.json().diagnostics.find((x: { rule_id: string }) => x.rule_id === 'BR-CO-10');
    assert.ok(d, JSON.stringify(res.json().diagnostics));
    assert.notEqual(d.title, GENERIC_TITLE);
    assert.match(d.explanation, /Sum of Invoice line net amount \(BT-106\)/);
    assert.match(d.explanation, /Invoice line net amount \(BT-131\)/);
    assert.deepEqual(d.context.compared['BT-131'], { values: lines, count: lines.length });
    assert.equal(d.context.compared['BT-106'], stated);
    assert.equal(d.context.compared.expected, lineTotal[1]);
    assert.equal(d.context.compared.difference, '1.00');
    assert.deepEqual(
      d.context.terms.map((t: { id: string }) => t.id),
      ['BT-106', 'BT-131'],
    );
    // BT-109 and the totals after it now disagree too: BR-CO-13 shows its figures.
    const co13 = res.json().diagnostics.find((x: { rule_id: string }) => x.rule_id === 'BR-CO-13');
    assert.ok(co13?.context.compared, JSON.stringify(co13));
    assert.equal(co13.context.compared['BT-106'], stated);

    // Community: the raw report, no compared values.
    const plain = await postValidate(community, xml);
    const finding = plain.json().errors.find((x: { rule_id: string }) => x.rule_id === 'BR-CO-10');
    assert.ok(finding);
    assert.equal(finding.compared, undefined);
  });

  test('BR-CO-17 / BR-S-09: the breakdown of the finding, its rate and the expected VAT amount', async () => {
    const m = /(<ram:ApplicableTradeTax>\s*<ram:CalculatedAmount>)([^<]+)(<\/ram:CalculatedAmount>)/.exec(valid);
    assert.ok(m);
    const wrong = (Number.parseFloat(m[2]) + 5).toFixed(2);
    const res = await postValidate(pro, valid.replace(m[0], `${m[1]}${wrong}${m[3]}`));
    const d = res.json().diagnostics.find((x: { rule_id: string }) => x.rule_id === 'BR-S-09' || x.rule_id === 'BR-CO-17');
    assert.ok(d, JSON.stringify(res.json().diagnostics.map((x: { rule_id: string }) => x.rule_id)));
    assert.equal(d.context.compared['BT-117'], wrong);
    assert.equal(d.context.compared.expected, m[2]);
    assert.equal(d.context.compared.difference, '5.00');
  });
});
