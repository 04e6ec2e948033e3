/**
 * How the Peppol tables are evaluated (src/rules/peppol/model.ts) must not change what they find:
 * - a rule's document-level condition (`when`) and its need of an attribute (`needsAttribute`) only keep it from being
 *   offered where its match cannot hold: on every generated invoice (test/fixtures/peppol/invoices: every national
 *   base and a one-edit case per rule), for every element and every rule of every bundled variant, a match implies
 *   both, and the narrowed walk finds exactly what offering every rule to every element finds;
 * - visiting the elements name by name (from the document's name index) finds what one walk over every element in
 *   document order finds, each assert's violations in document order (an assert whose rules name several elements,
 *   PEPPOL-EN16931-R051 on every amount, included);
 * - R120's arithmetic leaves out only steps that cannot change the value: checked against the formula with every step
 *   taken (the division by a given base quantity at Big.DP decimals, the rounding of the charge and allowance sums), on
 *   lines made to sit on the edges (base quantity 1 with a price of more decimals than a division keeps, sums of more
 *   than two decimals, the 0.02 slack exactly).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Big, type BigValue } from '../src/model/decimal.js';
import { patternsOf } from '../src/rules/peppol/index.js';
import { DocEnv } from '../src/rules/peppol/env.js';
import { compileTable, evaluatePatterns, type Pattern } from '../src/rules/peppol/model.js';
import { PEPPOL_RELEASES } from '../src/rules/peppol/releases.js';
import { billingVariant, selfBillingVariant, type RuleVariant } from '../src/rules/peppol/variant.js';
import { getRuleSet, runRules } from '../src/rules/engine.js';
import { allElements, where } from '../src/rules/xrechnung/dom.js';
import { MAX_FINDINGS_PER_RULE } from '../src/rules/report-bounds.js';
import type { Violation } from '../src/rules/types.js';
import { parseXml, type XmlDoc } from '../src/xml/dom.js';
import { fixturePath } from './fixtures.js';

const VARIANTS: RuleVariant[] = [
  ...PEPPOL_RELEASES.map(billingVariant),
  ...new Map(PEPPOL_RELEASES.map((r) => selfBillingVariant(r)).map((v) => [v.release, v])).values(),
];
const dir = fixturePath('peppol/invoices');
const docs: [string, XmlDoc][] = readdirSync(dir)
  .filter((f) => f.endsWith('.xml'))
  .sort()
  .map((f) => [f, parseXml(readFileSync(path.join(dir, f)))]);

/** The same patterns with nothing narrowed: every rule offered to every element of its names. */
const unnarrowed = (patterns: Pattern[]): Pattern[] => patterns.map((p) => p.map(({ when: _w, needsAttribute: _n, ...rule }) => rule));

const holds = (f: () => boolean) => {
  try {
    return f();
  } catch {
    return false;
  }
};

describe('Peppol tables: narrowing the offers changes nothing', () => {
  test('the generated invoices cover the national rules (the check below is not vacuous)', () => {
    assert.ok(docs.length >= 200, `${docs.length} invoices`);
    for (const country of ['be', 'de', 'dk', 'gr', 'is', 'it', 'nl', 'no', 'se'])
      assert.ok(
        docs.some(([f]) => f.startsWith(`base-${country}`)),
        `a ${country} base`,
      );
  });

  for (const v of VARIANTS) {
    test(`${v.kind} ${v.release}: a match implies the rule's condition and attribute, and the findings are the same`, () => {
      const patterns = patternsOf(v);
      const narrowed = compileTable(patterns);
      const full = compileTable(unnarrowed(patterns));
      assert.ok(narrowed.conditions.length > 0 || v.kind === 'selfbilling', 'billing has conditional national rules');
      assert.equal(full.conditions.length, 0);
      let conditionalMatches = 0;
      for (const [file, doc] of docs) {
        const env = new DocEnv(doc, v);
        for (const el of allElements(doc))
          for (const p of patterns)
            for (const rule of p) {
              if (rule.names !== '*' && !rule.names.includes(el.local)) continue;
              if (!holds(() => rule.match(el, env))) continue;
              if (rule.when) {
                conditionalMatches++;
                assert.ok(
                  holds(() => rule.when!(env)),
                  `${file}: ${rule.asserts[0].id} matches ${el.local} where its condition is false`,
                );
              }
              if (rule.needsAttribute)
                assert.ok(el.attrs.length > 0, `${file}: ${rule.asserts[0].id} matches ${el.local} without attributes`);
            }
        assert.deepEqual(
          evaluatePatterns(doc, narrowed, new DocEnv(doc, v)),
          evaluatePatterns(doc, full, new DocEnv(doc, v)),
          `${file}: the narrowed walk finds what the full one finds`,
        );
      }
      if (v.kind === 'billing') assert.ok(conditionalMatches > 100, `national rules matched ${conditionalMatches} times`);
    });
  }
});

/** The official evaluation order, written plainly: every element in document order, every pattern's first matching rule. */
function documentOrderWalk(doc: XmlDoc, patterns: Pattern[], env: DocEnv): Map<string, Violation[]> {
  const fired = new Map<string, Violation[]>();
  for (const el of allElements(doc))
    for (const p of patterns) {
      const rule = p.find((r) => (r.names === '*' || r.names.includes(el.local)) && holds(() => r.match(el, env)));
      if (!rule) continue;
      for (const a of rule.asserts) {
        let ok: boolean;
        try {
          ok = a.test(el, env);
        } catch {
          ok = true;
        }
        if (ok) continue;
        const list = fired.get(a.id) ?? [];
        list.push(list.length < MAX_FINDINGS_PER_RULE ? { location: where(el) } : {});
        fired.set(a.id, list);
      }
    }
  return fired;
}

/** Maps compared as sorted entries: which ids fired, and each id's violations in their order. */
const entries = (m: Map<string, Violation[]>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));

describe('Peppol tables: visiting the elements name by name finds what a walk in document order finds', () => {
  const [, base] = docs.find(([f]) => f === 'base-be.xml')!;
  const allUsd = parseXml(
    Buffer.from(readFileSync(path.join(dir, 'base-be.xml'), 'utf8').replaceAll('currencyID="EUR"', 'currencyID="USD"')),
  );
  for (const v of [billingVariant(PEPPOL_RELEASES[0]), selfBillingVariant(PEPPOL_RELEASES[0])]) {
    test(`${v.kind}: every generated invoice, and an invoice whose amounts all have another currency`, () => {
      const patterns = patternsOf(v);
      const table = compileTable(patterns);
      let mixed = 0;
      for (const [file, doc] of [...docs, ['all amounts in USD', allUsd] as [string, XmlDoc]]) {
        const found = evaluatePatterns(doc, table, new DocEnv(doc, v));
        assert.deepEqual(entries(found), entries(documentOrderWalk(doc, patterns, new DocEnv(doc, v))), file);
        for (const list of found.values()) {
          const names = new Set(
            list.map((x) =>
              x.location
                ?.replace(/\[\d+\]$/, '')
                .split('/')
                .pop(),
            ),
          );
          if (names.size > 1) mixed++;
        }
      }
      // Not vacuous: R051 fires on amounts of several names, interleaved in the document.
      const r051 = evaluatePatterns(allUsd, table, new DocEnv(allUsd, v)).get('PEPPOL-EN16931-R051') ?? [];
      assert.ok(r051.length >= 10, `R051 fired ${r051.length} times`);
      assert.ok(mixed > 0, 'some assert fired on elements of different names');
      assert.ok(base, 'the Belgian base is among the generated invoices');
    });
  }
});

// ---------------------------------------------------------------------------------------------
// R120 against its formula with every step taken (big.js, as the rule computed it before the shortcuts).

const HUNDRED = new Big('100');
/** XPath round(): halves towards +infinity. */
function xpathRound(v: BigValue): BigValue {
  const down = v.round(0, Big.roundDown);
  const frac = v.minus(down);
  if (v.gte(new Big('0'))) return frac.gte(new Big('0.5')) ? down.plus(new Big('1')) : down;
  return frac.lt(new Big('-0.5')) ? down.minus(new Big('1')) : down;
}
const slack = (exp: BigValue, val: BigValue) => exp.plus(new Big('0.02')).gte(val) && exp.minus(new Big('0.02')).lte(val);

/** PEPPOL-EN16931-R120 with every step taken, on plain values (no absent elements but the base quantity). */
function referenceR120(l: { amount: string; qty: string; price: string; base?: string; charges: string[]; allowances: string[] }): boolean {
  const given = l.base !== undefined && !new Big(l.base).eq(new Big('0'));
  const sum = (xs: string[]) => xs.reduce((a, x) => a.plus(new Big(x)), new Big('0'));
  const charges = l.charges.length ? xpathRound(sum(l.charges).times(HUNDRED)).div(HUNDRED) : new Big('0');
  const allowances = l.allowances.length ? xpathRound(sum(l.allowances).times(HUNDRED)).div(HUNDRED) : new Big('0');
  const unit = given ? new Big(l.price).div(new Big(l.base!)) : new Big(l.price);
  const expected = new Big(l.qty).times(unit).plus(charges).minus(allowances);
  return slack(new Big(l.amount), expected);
}

const ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
function invoiceWith(lines: Parameters<typeof referenceR120>[0][]): XmlDoc {
  const ac = (flag: string, amounts: string[]) =>
    amounts
      .map(
        (a) =>
          `<cac:AllowanceCharge><cbc:ChargeIndicator>${flag}</cbc:ChargeIndicator><cbc:Amount currencyID="EUR">${a}</cbc:Amount></cac:AllowanceCharge>`,
      )
      .join('');
  const body = lines
    .map(
      (l, i) =>
        `<cac:InvoiceLine><cbc:ID>${i + 1}</cbc:ID><cbc:InvoicedQuantity unitCode="EA">${l.qty}</cbc:InvoicedQuantity>` +
        `<cbc:LineExtensionAmount currencyID="EUR">${l.amount}</cbc:LineExtensionAmount>${ac('true', l.charges)}${ac('false', l.allowances)}` +
        `<cac:Price><cbc:PriceAmount currencyID="EUR">${l.price}</cbc:PriceAmount>` +
        `${l.base === undefined ? '' : `<cbc:BaseQuantity unitCode="EA">${l.base}</cbc:BaseQuantity>`}</cac:Price></cac:InvoiceLine>`,
    )
    .join('');
  return parseXml(
    `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:CustomizationID>${ID}</cbc:CustomizationID><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>${body}</Invoice>`,
  );
}

describe('Peppol line arithmetic: what is left out cannot change the verdict', () => {
  const p24 = '0.333333333333333333333333'; // 24 decimals: a division by 1 rounds it to Big.DP (20)
  const near = '1.019999999999999999999'; // within 0.02 of 3 × p24, not of 3 × p24 rounded to 20 decimals
  const cases: Parameters<typeof referenceR120>[0][] = [
    { amount: '200.00', qty: '2', price: '100.00', base: '1', charges: [], allowances: [] },
    { amount: '200.02', qty: '2', price: '100.00', charges: [], allowances: [] }, // the slack exactly
    { amount: '200.03', qty: '2', price: '100.00', base: '1.000', charges: [], allowances: [] },
    { amount: '199.98', qty: '2', price: '100.00', base: '0', charges: [], allowances: [] },
    { amount: near, qty: '3', price: p24, base: '1', charges: [], allowances: [] },
    { amount: near, qty: '3', price: p24, charges: [], allowances: [] },
    { amount: '0.98', qty: '3', price: p24, base: '1', charges: [], allowances: [] },
    { amount: '66.67', qty: '2', price: '100', base: '3', charges: [], allowances: [] },
    { amount: '210.01', qty: '2', price: '100', charges: ['10.005'], allowances: [] }, // rounded up to 10.01
    { amount: '189.99', qty: '2', price: '100', charges: [], allowances: ['10.005', '0.004'] },
    { amount: '190.03', qty: '2', price: '100', charges: ['0.5'], allowances: ['10.5'] },
    { amount: '-200.00', qty: '-2', price: '100.00', base: '1', charges: [], allowances: ['-0.015'] },
  ];

  test('the edge cases are edges: the formula passes some and fails others', () => {
    const verdicts = cases.map(referenceR120);
    assert.ok(verdicts.includes(true) && verdicts.includes(false));
    assert.equal(referenceR120(cases[4]), false, 'a given base quantity of 1 rounds the 24-decimal price: outside the slack');
    assert.equal(referenceR120(cases[5]), true, 'without a base quantity the price is not divided: within the slack');
  });

  test('PEPPOL-EN16931-R120 gives the formula’s verdict on every edge case', () => {
    const rules = getRuleSet('peppol-bis-3')!;
    const doc = invoiceWith(cases);
    const fired = runRules('peppol-bis-3', rules, { doc, invoice: {} as never, syntax: 'ubl' })
      .filter((f) => f.ruleId === 'PEPPOL-EN16931-R120')
      .map((f) => f.location);
    const expected = cases.flatMap((c, i) => (referenceR120(c) ? [] : [`/Invoice[1]/cac:InvoiceLine[${i + 1}]`]));
    assert.deepEqual(fired, expected);
  });
});
