/**
 * Metadata as people send it (#19, #17): JSON numbers read losslessly, an application/json body that is the
 * metadata itself, a serialized invoice (BusinessReadyInvoice) sent back for re-issue, control characters
 * refused with a 422 naming the field, and the EN 16931 terms the writer supports (BT-8, BT-128, BG-24).
 * Real requests against the real app (fastify inject); the XML read back with the service's own reader.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { DOMESTIC_EXAMPLE, XRECHNUNG_EXAMPLE } from '../src/metadata/examples.js';
import { decimalFromLexeme, parseJsonKeepingNumbers, JsonNumber } from '../src/metadata/json-numbers.js';
import { ingest } from '../src/input/ingest.js';
import { toXml } from '../src/lib/operations.js';
import { ShapeError } from '../src/lib/errors.js';
import type { Invoice } from '../src/model/invoice.js';
import { communityApp, multipart, proApp } from './helpers.js';
import { validateXsdBoth as validateXsd, disposeLibxml2Validators } from './libxml2-xsd.js';
import { SCENARIOS } from './invoice-scenarios.js';
import { makeBasePdf } from './hybrid-fixtures.js';

let app: FastifyInstance;
let pro: FastifyInstance;
before(async () => {
  app = await communityApp();
  pro = await proApp();
});
after(async () => {
  await app.close();
  await pro.close();
  disposeLibxml2Validators();
});

function postForm(metadata: string) {
  return app.inject({
    method: 'POST',
    url: '/v1/xml',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ metadata }).toString(),
  });
}
function postJson(body: string) {
  return app.inject({ method: 'POST', url: '/v1/xml', headers: { 'content-type': 'application/json' }, payload: body });
}
async function readBack(xml: string): Promise<Invoice> {
  const ing = await ingest(new TextEncoder().encode(xml), 'back.xml');
  assert.ok(ing.invoice, 'the XML reads back as an invoice');
  return ing.invoice;
}

/** The domestic example with JSON numbers written into the text (no JS float ever holds them). */
const NUMERIC_TEXT = JSON.stringify({
  ...DOMESTIC_EXAMPLE,
  line_items: [
    { name: 'A', quantity: '@3', unit_code: 'C62', net_price: '@0.1', vat_rate: '@19' },
    { name: 'B', quantity: '@1e2', unit_code: 'C62', net_price: '@1.10', vat_rate: '@1.9e1' },
    { name: 'C', quantity: '@0.3333333333333333333333', unit_code: 'C62', net_price: '@3', vat_rate: '@19.0' },
  ],
}).replace(/"@([^"]+)"/g, '$1');

describe('JSON numbers in metadata', () => {
  test('lexemes become the decimal as written: 0.1, 1.10, 1e2 → 100, 2.5E-3 → 0.0025', () => {
    assert.equal(decimalFromLexeme('0.1'), '0.1');
    assert.equal(decimalFromLexeme('1.10'), '1.10');
    assert.equal(decimalFromLexeme('1e2'), '100');
    assert.equal(decimalFromLexeme('1.10e1'), '11.0');
    assert.equal(decimalFromLexeme('2.5E-3'), '0.0025');
    assert.equal(decimalFromLexeme('-12E+0'), '-12');
    assert.equal(decimalFromLexeme('1e99999999'), undefined, 'longer than 64 characters: refused, never expanded');
    const parsed = parseJsonKeepingNumbers('{"a":[0.1,1e400,"x\\u00e9"],"__proto__":1}') as Record<string, unknown>;
    assert.deepEqual(
      (parsed.a as unknown[]).map((v) => (v instanceof JsonNumber ? v.text : v)),
      ['0.1', '1e400', 'xé'],
    );
    assert.equal(Object.getPrototypeOf(parsed), Object.prototype, 'a __proto__ member is a member, not the prototype');
    assert.throws(() => parseJsonKeepingNumbers('{"a":1,}'), /position/);
    assert.throws(() => parseJsonKeepingNumbers('[1] x'), /after JSON/);
  });

  test('/v1/xml accepts numbers for quantities, prices and rates, exactly as written (was 422 string_type)', async () => {
    const res = await postForm(NUMERIC_TEXT);
    assert.equal(res.statusCode, 200, res.body);
    const inv = await readBack(res.body);
    assert.deepEqual(
      inv.lines.map((l) => [l.quantity, l.netPrice, l.vatRate, l.netAmount]),
      [
        ['3', '0.1', '19', '0.30'],
        ['100', '1.10', '19', '110.00'],
        // 0.3333333333333333333333 as a float would be 0.3333333333333333 (16 digits): the text's 22 digits survive.
        ['0.3333333333333333333333', '3', '19.0', '1.00'],
      ],
    );
  });

  test('numbers elsewhere are still refused, and over-long numbers are refused by the number limit', async () => {
    const wrongPlace = await postForm(JSON.stringify({ ...DOMESTIC_EXAMPLE, invoice_number: 42 }));
    assert.equal(wrongPlace.statusCode, 422);
    assert.deepEqual(
      wrongPlace.json().detail.map((d: { loc: unknown; type: string }) => [d.loc, d.type]),
      [[['body', 'metadata', 'invoice_number'], 'string_type']],
    );
    const long = NUMERIC_TEXT.replace('"quantity":3,', `"quantity":${'1'.repeat(70)},`);
    const tooLong = await postForm(long);
    assert.equal(tooLong.statusCode, 422);
    assert.deepEqual(tooLong.json().detail[0].loc, ['body', 'metadata', 'line_items', 0, 'quantity']);
    assert.equal(tooLong.json().detail[0].type, 'string_too_long');
    const huge = await postForm(NUMERIC_TEXT.replace('"quantity":3,', '"quantity":1e999999999,'));
    assert.equal(huge.statusCode, 422);
    assert.deepEqual(huge.json().detail[0].loc, ['body', 'metadata', 'line_items', 0, 'quantity']);
    const notANumberField = await postForm(NUMERIC_TEXT.replace('"quantity":3,', '"quantity":true,'));
    assert.equal(notANumberField.statusCode, 422);
    assert.equal(notANumberField.json().detail[0].msg, 'Input should be a decimal string or a JSON number');
  });

  test('the library and the depth bound: toXml takes numeric JSON text; deep JSON is 400 before parsing', async () => {
    const built = await toXml(NUMERIC_TEXT, { profile: 'extended' });
    assert.equal((await readBack(built.xml)).lines[2].quantity, '0.3333333333333333333333');
    const deep = `${'['.repeat(100)}1${']'.repeat(100)}`;
    const res = await postForm(deep);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'JSON_TOO_DEEP');
  });
});

describe('application/json body', () => {
  test('the body may be the metadata object itself (was 422 "Field required" at metadata)', async () => {
    const res = await postJson(NUMERIC_TEXT);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await readBack(res.body)).lines[1].quantity, '100');
    const wrapped = await postJson(JSON.stringify({ metadata: DOMESTIC_EXAMPLE }));
    assert.equal(wrapped.statusCode, 200, wrapped.body);
    const wrappedText = await postJson(JSON.stringify({ metadata: JSON.stringify(DOMESTIC_EXAMPLE) }));
    assert.equal(wrappedText.statusCode, 200, wrappedText.body);
  });

  test('an unwrapped body is validated as metadata: 422 locs point into it; hostile bodies stay 400', async () => {
    const res = await postJson(JSON.stringify({ ...DOMESTIC_EXAMPLE, invoice_number: undefined }));
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().detail[0].loc, ['body', 'metadata', 'invoice_number']);
    const proto = await postJson('{"__proto__": {"x": 1}, "quantity": 1}');
    assert.equal(proto.statusCode, 400);
    const deep = await postJson(`${'{"a":'.repeat(80)}1${'}'.repeat(80)}`);
    assert.equal(deep.statusCode, 400);
    assert.equal(deep.json().code, 'JSON_TOO_DEEP');
    const broken = await postJson('{"invoice_number": 1');
    assert.equal(broken.statusCode, 400);
  });
});

describe('control characters (#17)', () => {
  test('a C0 control character in any metadata string is a 422 naming the field (was written into the XML)', async () => {
    const meta = structuredClone(DOMESTIC_EXAMPLE) as Record<string, any>;
    meta.invoice_number = 'RE\u0000-1';
    meta.line_items[1].description = 'On-site\u001Bconsulting';
    meta.seller.address.city = 'Ber\u0007lin';
    const res = await postForm(JSON.stringify(meta));
    assert.equal(res.statusCode, 422, res.body);
    const detail = res.json().detail as { loc: unknown[]; type: string; ctx: { character: string } }[];
    assert.deepEqual(
      detail.map((d) => [d.loc, d.type, d.ctx.character]),
      [
        [['body', 'metadata', 'invoice_number'], 'string_control_character', 'U+0000'],
        [['body', 'metadata', 'seller', 'address', 'city'], 'string_control_character', 'U+0007'],
        [['body', 'metadata', 'line_items', 1, 'description'], 'string_control_character', 'U+001B'],
      ],
    );
  });

  test('tab, line feed and carriage return stay allowed', async () => {
    const res = await postForm(JSON.stringify({ ...DOMESTIC_EXAMPLE, payment_terms: 'Line 1\r\nLine 2\tend' }));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await readBack(res.body)).paymentTerms, 'Line 1\r\nLine 2\tend');
  });
});

describe('metadata completeness: BT-8, BT-128, BT-150, BG-24', () => {
  const PDF_BASE64 = Buffer.from('%PDF-1.7\n% timesheet\n').toString('base64');
  const complete = {
    ...SCENARIOS.full_en16931,
    tax_point_date: undefined,
    tax_point_date_code: '35',
    supporting_documents: [
      {
        reference: 'TS-2026-11',
        description: 'Timesheet November',
        attachment: { content: PDF_BASE64, mime_code: 'application/pdf', filename: 'timesheet.pdf' },
      },
      { reference: 'DN-778', description: 'Delivery note', external_location: 'https://example.com/dn/778' },
    ],
    line_items: [
      {
        ...(SCENARIOS.full_en16931.line_items ?? [])[0],
        object_identifier: { id: 'METER-4711', scheme: 'AFL' },
        price_base_quantity: '1',
        price_base_quantity_unit_code: 'H87',
      },
    ],
  };

  for (const profile of ['en16931', 'extended'] as const) {
    test(`${profile}: written, XSD-valid, and read back as given (was 422 extra_forbidden)`, async () => {
      const res = await postForm(JSON.stringify({ ...complete, profile }));
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(validateXsd(res.body, profile).errors, []);
      const inv = await readBack(res.body);
      assert.equal(inv.taxPointDateCode, '29', 'UNTDID 2005 35 is written as the CII code 29');
      assert.deepEqual(inv.lines[0].objectIdentifier, { value: 'METER-4711', schemeId: 'AFL' });
      assert.deepEqual([inv.lines[0].priceBaseQuantity, inv.lines[0].priceBaseQuantityUnitCode], ['1', 'H87'], 'BT-149 / BT-150');
      assert.deepEqual(
        inv.supportingDocuments.map((d) => [d.reference, d.description, d.externalLocation, d.attachment]),
        [
          [
            'TS-2026-11',
            'Timesheet November',
            undefined,
            { mimeCode: 'application/pdf', filename: 'timesheet.pdf', contentBase64: PDF_BASE64 },
          ],
          ['DN-778', 'Delivery note', 'https://example.com/dn/778', undefined],
        ],
      );
    });
  }

  test('basic cannot carry them: left out and listed in X-Dropped-Fields', async () => {
    const res = await postForm(JSON.stringify({ ...complete, profile: 'basic' }));
    assert.equal(res.statusCode, 200, res.body);
    const dropped = String(res.headers['x-dropped-fields']).split(', ');
    for (const f of ['supporting_documents', 'line_items[].object_identifier']) assert.ok(dropped.includes(f), f);
    assert.ok(!res.body.includes('TS-2026-11'));
  });

  test('BT-7 and BT-8 exclude each other (BR-CO-03); an attachment is base64 with an allowed mime code', async () => {
    const both = await postForm(JSON.stringify({ ...complete, tax_point_date: '2026-11-19' }));
    assert.equal(both.statusCode, 422);
    assert.deepEqual(both.json().detail[0].loc, ['body', 'metadata', 'tax_point_date_code']);
    const bad = structuredClone(complete) as Record<string, any>;
    bad.supporting_documents[0].attachment.content = 'not base64!';
    bad.supporting_documents[0].attachment.mime_code = 'application/zip';
    const res = await postForm(JSON.stringify(bad));
    assert.equal(res.statusCode, 422);
    assert.deepEqual(
      res.json().detail.map((d: { loc: unknown[] }) => d.loc.slice(2).join('.')),
      ['supporting_documents.0.attachment.content', 'supporting_documents.0.attachment.mime_code'],
    );
  });
});

describe('a serialized invoice sent back as metadata', () => {
  async function serialized(meta: object) {
    const xml = (await toXml(meta)).xml;
    const res = await pro.inject({
      method: 'POST',
      url: '/v1/serialize',
      ...multipart([{ name: 'file', value: xml, filename: 'in.xml', contentType: 'application/xml' }]),
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }

  test('receive → serialize → correct → re-issue: same totals and lines (was 422 extra_forbidden format)', async () => {
    const response = await serialized(SCENARIOS.allowances_and_charges);
    const bri = response.invoice;
    assert.equal(bri.format, 'factur-x');
    // Correct one thing, send the rest back as it came.
    const corrected = { ...bri, invoice_number: 'AC-1-R' };
    const res = await postForm(JSON.stringify(corrected));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-dropped-fields'], undefined, 'unit_label is derived, not a dropped field');
    const again = await readBack(res.body);
    const original = await readBack((await toXml(SCENARIOS.allowances_and_charges)).xml);
    assert.equal(again.number, 'AC-1-R');
    assert.deepEqual(again.totals, { ...original.totals, $loc: again.totals.$loc });
    assert.deepEqual(
      again.lines.map((l) => [l.quantity, l.netAmount]),
      original.lines.map((l) => [l.quantity, l.netAmount]),
    );
    // The whole SerializationResponse works too, as JSON body and through the library.
    const whole = await postJson(JSON.stringify(response));
    assert.equal(whole.statusCode, 200, whole.body);
    assert.equal((await readBack((await toXml(response)).xml)).number, 'AC-1');
  });

  test('category O and XRechnung: mapped, or refused naming what the invoice lacks', async () => {
    const o = (await serialized(SCENARIOS.not_subject_to_vat)).invoice;
    assert.equal(o.line_items[0].vat_rate, '0');
    const res = await postForm(JSON.stringify(o));
    assert.equal(res.statusCode, 200, res.body);
    const xr = (await serialized(XRECHNUNG_EXAMPLE)).invoice;
    assert.equal(xr.profile, 'xrechnung_3.0');
    // 1.1.0 carries the electronic addresses, the contact and the payment XRechnung requires.
    const reissued = await postForm(JSON.stringify(xr));
    assert.equal(reissued.statusCode, 200, reissued.body);
    assert.ok(reissued.body.includes('urn:xeinkauf.de:kosit:xrechnung_3.0'));
    // A BusinessReadyInvoice without them (1.0.0, or from an invoice that lacks them): the 422 names what is missing.
    const { electronic_address: _e, ...seller } = xr.seller;
    const refused = await postForm(JSON.stringify({ ...xr, seller }));
    assert.equal(refused.statusCode, 422);
    assert.deepEqual(
      refused.json().detail.map((d: { loc: unknown[] }) => d.loc.join('.')),
      ['body.metadata.seller.electronic_address'],
    );
  });

  test('/v1/convert takes it too (multipart metadata field, JSON numbers included)', async () => {
    const bri = (await serialized(SCENARIOS.domestic)).invoice;
    const text = JSON.stringify({
      ...bri,
      invoice_number: 'RE-CONVERT',
      line_items: [{ ...bri.line_items[0], quantity: '@2' }, bri.line_items[1]],
    });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/convert',
      ...multipart([
        { name: 'pdf', value: Buffer.from(await makeBasePdf(1)), filename: 'in.pdf', contentType: 'application/pdf' },
        { name: 'metadata', value: text.replace('"@2"', '2') },
      ]),
    });
    assert.equal(res.statusCode, 200, res.body);
    const ing = await ingest(res.rawPayload, 'out.pdf');
    assert.equal(ing.invoice?.number, 'RE-CONVERT');
    assert.equal(ing.invoice?.totals.amountDue, '1999.20');
  });

  test('detection is unambiguous: a bad format or a response without invoice is a 422 naming it', async () => {
    const bri = (await serialized(SCENARIOS.domestic)).invoice;
    const res = await postForm(JSON.stringify({ ...bri, format: 'pdf' }));
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().detail[0].loc, ['body', 'metadata', 'format']);
    const empty = await postForm(JSON.stringify({ success: false, schema_version: '1.1.0', invoice: null }));
    assert.equal(empty.statusCode, 422);
    assert.deepEqual(empty.json().detail[0].loc, ['body', 'metadata', 'invoice']);
    await assert.rejects(toXml({ ...bri, format: 'pdf' }), (err: unknown) => err instanceof ShapeError);
  });
});
