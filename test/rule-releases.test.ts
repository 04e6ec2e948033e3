/**
 * Rule-set releases: the XRechnung schematron 2.5.0 changes (the default) against 2.4.0 (on request),
 * on XRechnung CII invoices written by our own writer and edited one change at a time, through the
 * pipeline and over HTTP (`xrechnung_version`). No corpus file is read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildInvoiceXml } from '../src/metadata/build.js';
import { validateBytes, type ValidationResult } from '../src/validation/validate.js';
import { communityApp, multipart, proApp } from './helpers.js';
import { SCENARIOS } from './invoice-scenarios.js';
import { XR_EXTENSION_ID } from '../src/rules/xrechnung/common.js';

const BASE = buildInvoiceXml(SCENARIOS.xrechnung).xml;

/** Replace one occurrence; throws when the pattern is not there, so an edit cannot silently do nothing. */
function sub(xml: string, pattern: string | RegExp, replacement: string): string {
  const found = typeof pattern === 'string' ? xml.includes(pattern) : pattern.test(xml);
  if (!found) throw new Error(`edit does not apply: ${pattern}`);
  return xml.replace(pattern, replacement);
}

const fired = (r: ValidationResult, id: string) => r.errors.filter((e) => e.rule_id === id);
const run = (xml: string, release?: '2.4.0' | '2.5.0') =>
  validateBytes(Buffer.from(xml), 'x.xml', release ? { xrechnungVersion: release } : {});

/** SEPA direct debit (59) with its mandate, creditor id and debited account, but BT-86 (the payee's bank) kept. */
const directDebitWithBt86 = (xml: string) =>
  sub(
    sub(
      sub(
        xml,
        /<ram:TypeCode>58<\/ram:TypeCode>\s*<ram:PayeePartyCreditorFinancialAccount>\s*<ram:IBANID>DE02120300000000202051<\/ram:IBANID>\s*<\/ram:PayeePartyCreditorFinancialAccount>/,
        '<ram:TypeCode>59</ram:TypeCode><ram:PayerPartyDebtorFinancialAccount><ram:IBANID>DE02120300000000202051</ram:IBANID></ram:PayerPartyDebtorFinancialAccount>',
      ),
      '<ram:PaymentReference>',
      '<ram:CreditorReferenceID>DE98ZZZ09999999999</ram:CreditorReferenceID><ram:PaymentReference>',
    ),
    '</ram:DueDateDateTime>',
    '</ram:DueDateDateTime><ram:DirectDebitMandateID>MANDATE-1</ram:DirectDebitMandateID>',
  );

describe('XRechnung schematron 2.5.0 (default) and 2.4.0', () => {
  test("the writer's XRechnung is clean under both releases, and the result names the release", async () => {
    for (const release of ['2.5.0', '2.4.0'] as const) {
      const r = await run(BASE, release);
      assert.equal(r.valid, true, JSON.stringify(r.errors));
      assert.equal(r.xrechnung_version, release);
    }
    assert.equal((await run(BASE)).xrechnung_version, '2.5.0');
  });

  test('BR-DE-25-b: BT-86 with direct debit (BG-19) is detected in CII from 2.5.0 on', async () => {
    const xml = directDebitWithBt86(BASE);
    assert.equal(fired(await run(xml, '2.5.0'), 'BR-DE-25-b').length, 1);
    assert.equal(fired(await run(xml), 'BR-DE-25-b')[0].severity, 'error');
    assert.deepEqual(fired(await run(xml, '2.4.0'), 'BR-DE-25-b'), []);
    // Without BT-86 neither release objects.
    const clean = sub(
      xml,
      /<ram:PayeeSpecifiedCreditorFinancialInstitution>[\s\S]*?<\/ram:PayeeSpecifiedCreditorFinancialInstitution>/,
      '',
    );
    assert.deepEqual(fired(await run(clean, '2.5.0'), 'BR-DE-25-b'), []);
  });

  test('PEPPOL-EN16931-R120 is checked for CII from 2.5.0 on, as a warning', async () => {
    // Line 1: 2 × 450.00 = 900.00; say 910.00 (the totals are left as they are: R120 is about the line).
    const xml = sub(BASE, '<ram:LineTotalAmount>900.00</ram:LineTotalAmount>', '<ram:LineTotalAmount>910.00</ram:LineTotalAmount>');
    const current = fired(await run(xml, '2.5.0'), 'PEPPOL-EN16931-R120');
    assert.equal(current.length, 1);
    assert.equal(current[0].severity, 'warning');
    assert.match(current[0].location ?? '', /IncludedSupplyChainTradeLineItem\[1\]/);
    assert.deepEqual(fired(await run(xml, '2.4.0'), 'PEPPOL-EN16931-R120'), []);
    // Within the slack (0.02) it holds; the gross price's base quantity is used when the net price has none.
    assert.deepEqual(
      fired(
        await run(sub(BASE, '<ram:LineTotalAmount>900.00</ram:LineTotalAmount>', '<ram:LineTotalAmount>900.02</ram:LineTotalAmount>')),
        'PEPPOL-EN16931-R120',
      ),
      [],
    );
    const perTwo = sub(
      BASE,
      /<ram:NetPriceProductTradePrice>\s*<ram:ChargeAmount>450.00<\/ram:ChargeAmount>\s*<\/ram:NetPriceProductTradePrice>/,
      '<ram:GrossPriceProductTradePrice><ram:ChargeAmount>900.00</ram:ChargeAmount><ram:BasisQuantity unitCode="C62">2</ram:BasisQuantity></ram:GrossPriceProductTradePrice><ram:NetPriceProductTradePrice><ram:ChargeAmount>900.00</ram:ChargeAmount></ram:NetPriceProductTradePrice>',
    );
    assert.deepEqual(fired(await run(perTwo), 'PEPPOL-EN16931-R120'), []);
  });

  test('BR-TMP-3: equal base quantities without units pass from 2.5.0 on (2.4.0 wrongly required equal units)', async () => {
    const withBases = (gross: string, net: string) =>
      sub(
        BASE,
        /<ram:NetPriceProductTradePrice>\s*<ram:ChargeAmount>450.00<\/ram:ChargeAmount>\s*<\/ram:NetPriceProductTradePrice>/,
        `<ram:GrossPriceProductTradePrice><ram:ChargeAmount>450.00</ram:ChargeAmount>${gross}</ram:GrossPriceProductTradePrice><ram:NetPriceProductTradePrice><ram:ChargeAmount>450.00</ram:ChargeAmount>${net}</ram:NetPriceProductTradePrice>`,
      );
    const noUnits = withBases('<ram:BasisQuantity>1</ram:BasisQuantity>', '<ram:BasisQuantity>1</ram:BasisQuantity>');
    assert.deepEqual(fired(await run(noUnits, '2.5.0'), 'BR-TMP-3'), []);
    assert.equal(fired(await run(noUnits, '2.4.0'), 'BR-TMP-3').length, 1);
    const differ = withBases(
      '<ram:BasisQuantity unitCode="C62">1</ram:BasisQuantity>',
      '<ram:BasisQuantity unitCode="C62">2</ram:BasisQuantity>',
    );
    assert.equal(fired(await run(differ, '2.5.0'), 'BR-TMP-3').length, 1);
    assert.equal(fired(await run(differ, '2.4.0'), 'BR-TMP-3').length, 1);
  });

  test('code lists: the ICD code 0244 (CEN 1.3.15) is accepted by the extension rules from 2.5.0 on', async () => {
    const ext = sub(
      sub(
        BASE,
        '<ram:ID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</ram:ID>',
        `<ram:ID>${XR_EXTENSION_ID}</ram:ID>`,
      ),
      '<ram:Name>Muster Software GmbH</ram:Name>',
      '<ram:GlobalID schemeID="0244">4000001000005</ram:GlobalID><ram:Name>Muster Software GmbH</ram:Name>',
    );
    assert.deepEqual(fired(await run(ext, '2.5.0'), 'BR-DEX-04'), []);
    assert.equal(fired(await run(ext, '2.4.0'), 'BR-DEX-04').length, 1);
    // A code in neither release's list is rejected by both.
    const unknown = ext.replace('schemeID="0244"', 'schemeID="0999"');
    assert.equal(fired(await run(unknown, '2.5.0'), 'BR-DEX-04').length, 1);
  });
});

describe('POST /v1/validate xrechnung_version', () => {
  let app: FastifyInstance;
  let pro: FastifyInstance;
  before(async () => {
    app = await communityApp();
    pro = await proApp();
  });
  after(async () => {
    await app.close();
    await pro.close();
  });
  const post = (target: FastifyInstance, xml: string, fields: Record<string, string> = {}) => {
    const { payload, headers } = multipart([
      { name: 'file', value: Buffer.from(xml), filename: 'x.xml' },
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    ]);
    return target.inject({ method: 'POST', url: '/v1/validate', payload, headers });
  };

  test('default 2.5.0, 2.4.0 on request, echoed in community and pro results', async () => {
    const xml = directDebitWithBt86(BASE);
    const current = (await post(app, xml)).json();
    assert.equal(current.xrechnung_version, '2.5.0');
    assert.equal(current.valid, false);
    assert.ok(current.errors.some((e: { rule_id: string }) => e.rule_id === 'BR-DE-25-b'));
    const older = (await post(app, xml, { xrechnung_version: '2.4.0' })).json();
    assert.equal(older.xrechnung_version, '2.4.0');
    assert.equal(older.valid, true, JSON.stringify(older.errors));
    const proBody = (await post(pro, xml, { xrechnung_version: '2.4.0' })).json();
    assert.equal(proBody.xrechnung_version, '2.4.0');
    assert.equal(proBody.error_count, 0);
  });

  test('no xrechnung_version on a non-XRechnung invoice; an unknown release is a 422 on the field', async () => {
    const plain = buildInvoiceXml(SCENARIOS.domestic).xml;
    const body = (await post(app, plain)).json();
    assert.equal(body.xrechnung_version, undefined);
    const bad = await post(app, BASE, { xrechnung_version: '2.3.0' });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['body', 'xrechnung_version']);
  });
});

describe('rule_set_versions: every result says which release of each rule set and schema judged it', () => {
  test('XRechnung CII: xsd, en16931 and the XRechnung release that ran', async () => {
    const r = await run(BASE);
    assert.deepEqual(r.rule_set_versions, {
      xsd: 'UN/CEFACT CII D16B (approximated by Factur-X 1.09.2 EXTENDED)',
      en16931: '1.3.16',
      xrechnung: '2.5.0',
    });
    assert.equal((await run(BASE, '2.4.0')).rule_set_versions.xrechnung, '2.4.0');
  });

  test('Factur-X EN16931 CII with the French layer: facturx and br_fr too', async () => {
    const xml = buildInvoiceXml(SCENARIOS.domestic).xml;
    const r = await validateBytes(Buffer.from(xml), 'x.xml', { brFr: true, brFrEdition: '1.2.0' });
    assert.equal(r.rule_set_versions.en16931, '1.3.16');
    assert.equal(r.rule_set_versions.facturx, '1.09.2');
    assert.equal(r.rule_set_versions.br_fr, '1.2.0');
    assert.match(r.rule_set_versions.xsd, /^Factur-X 1\.09\.2 /);
    assert.equal(r.rule_set_versions.xrechnung, undefined);
  });

  test('over HTTP (community and pro) and in /diagnostics', async () => {
    const app = await communityApp({ DIAGNOSTICS_TOKEN: 'diag-token-123456' });
    const pro = await proApp();
    try {
      const { payload, headers } = multipart([{ name: 'file', value: Buffer.from(BASE), filename: 'x.xml' }]);
      const body = (await app.inject({ method: 'POST', url: '/v1/validate', payload, headers })).json();
      assert.deepEqual(body.rule_set_versions, {
        xsd: 'UN/CEFACT CII D16B (approximated by Factur-X 1.09.2 EXTENDED)',
        en16931: '1.3.16',
        xrechnung: '2.5.0',
      });
      const again = multipart([{ name: 'file', value: Buffer.from(BASE), filename: 'x.xml' }]);
      const proBody = (await pro.inject({ method: 'POST', url: '/v1/validate', payload: again.payload, headers: again.headers })).json();
      assert.equal(proBody.rule_set_versions.xrechnung, '2.5.0');
      const diag = (await app.inject({ url: '/diagnostics', headers: { authorization: 'Bearer diag-token-123456' } })).json();
      const xr = diag.rule_sets.find((s: { family: string }) => s.family === 'xrechnung');
      assert.deepEqual(
        xr.releases.map((r: { version: string; default: boolean; date: string; select: { field: string } }) => [
          r.version,
          r.default,
          r.date,
          r.select.field,
        ]),
        [
          ['2.5.0', true, '2026-01-31', 'xrechnung_version'],
          ['2.4.0', false, '2025-07-10', 'xrechnung_version'],
        ],
      );
      for (const family of ['en16931', 'facturx', 'br_fr', 'xsd'])
        assert.ok(
          diag.rule_sets.some((s: { family: string }) => s.family === family),
          family,
        );
    } finally {
      await app.close();
      await pro.close();
    }
  });
});
