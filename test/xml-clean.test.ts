/**
 * Our own output is clean (#19): every metadata scenario (the published examples, the test scenarios in every
 * profile, and the ones exercising the defaults) goes through POST /v1/xml and then pro POST /v1/validate with
 * every layer; the validation runs completely and reports zero findings of any severity — errors, warnings and
 * information alike (PEPPOL-EN16931-R008 warned about the empty ApplicableHeaderTradeDelivery, XRechnung's
 * BR-DE-TMP-32 informed about the missing time of supply).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { METADATA_EXAMPLES } from '../src/metadata/examples.js';
import type { InvoiceMetadata } from '../src/metadata/schema.js';
import { multipart, proApp } from './helpers.js';
import { PROFILE_SCENARIOS, SCENARIOS } from './invoice-scenarios.js';

let app: FastifyInstance;
before(async () => {
  app = await proApp();
});
after(async () => {
  await app.close();
});

const PROFILES = ['minimum', 'basic_wl', 'basic', 'en16931', 'extended'] as const;

function cases(): [string, InvoiceMetadata][] {
  const out: [string, InvoiceMetadata][] = [];
  for (const [name, meta] of Object.entries(METADATA_EXAMPLES)) out.push([`example ${name}`, meta]);
  for (const [name, meta] of PROFILE_SCENARIOS) for (const profile of PROFILES) out.push([`${name} / ${profile}`, { ...meta, profile }]);
  out.push(['xrechnung', SCENARIOS.xrechnung]);
  // The defaults for BT-72: an invoicing period and nothing else about the delivery; a period on every line.
  const { delivery: _d, despatch_advice_reference: _a, receiving_advice_reference: _r, ...withoutDelivery } = SCENARIOS.full_en16931;
  for (const profile of PROFILES) out.push([`invoicing period only / ${profile}`, { ...withoutDelivery, profile }]);
  out.push(['invoicing period only / xrechnung', { ...SCENARIOS.xrechnung, invoice_period: { start: '2026-11-01', end: '2026-11-30' } }]);
  const linePeriods = (SCENARIOS.domestic.line_items ?? []).map((l) => ({ ...l, period: { start: '2026-10-01', end: '2026-10-31' } }));
  for (const profile of [...PROFILES, 'xrechnung'] as const) {
    const base = profile === 'xrechnung' ? SCENARIOS.xrechnung : SCENARIOS.domestic;
    out.push([`line periods / ${profile}`, { ...base, profile, line_items: linePeriods }]);
  }
  return out;
}

test('/v1/xml output validates with zero findings of any severity, in every profile', async () => {
  const findings: string[] = [];
  for (const [name, meta] of cases()) {
    const built = await app.inject({
      method: 'POST',
      url: '/v1/xml',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ metadata: JSON.stringify(meta) }).toString(),
    });
    assert.equal(built.statusCode, 200, `${name}: ${built.body}`);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/validate',
      ...multipart([{ name: 'file', value: built.body, filename: 'invoice.xml', contentType: 'application/xml' }]),
    });
    assert.equal(res.statusCode, 200, `${name}: ${res.body}`);
    const result = res.json();
    assert.equal(result.validation_mode, 'pro_diagnostics');
    assert.equal(result.validation_completeness, 'full', `${name}: ${JSON.stringify(result.layers_skipped)}`);
    assert.ok(result.layers_executed.includes('xsd') && result.layers_executed.includes('schematron'), name);
    assert.equal(result.valid, true, name);
    for (const d of result.diagnostics ?? []) findings.push(`${name}: ${d.rule_id} (${d.severity}) ${d.title}`);
  }
  assert.deepEqual(findings, []);
});

test('the delivery date defaults are the documented ones and a given date wins', async () => {
  const xmlOf = async (meta: InvoiceMetadata) => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/xml',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(meta),
    });
    assert.equal(res.statusCode, 200, res.body);
    return /<ram:ActualDeliverySupplyChainEvent>\s*<ram:OccurrenceDateTime>\s*<udt:DateTimeString format="102">(\d+)</.exec(res.body)?.[1];
  };
  assert.equal(await xmlOf(SCENARIOS.domestic), '20261120', 'no time of supply stated: the invoice date');
  const { delivery: _d, despatch_advice_reference: _a, receiving_advice_reference: _r, ...periodOnly } = SCENARIOS.full_en16931;
  assert.equal(await xmlOf(periodOnly), '20261130', 'only an invoicing period: its end');
  assert.equal(await xmlOf({ ...periodOnly, despatch_advice_reference: 'DA-5' }), undefined, 'the despatch advice fills the element');
  assert.equal(await xmlOf({ ...periodOnly, profile: 'xrechnung' } as InvoiceMetadata), undefined, 'XRechnung: the period says it');
  assert.equal(await xmlOf({ ...SCENARIOS.domestic, delivery: { date: '2026-11-02' } }), '20261102');
  assert.equal(await xmlOf({ ...SCENARIOS.domestic, profile: 'minimum' }), undefined, 'MINIMUM carries no delivery');
});
