/**
 * POST /v1/xml with `"syntax": "ubl"` and the peppol profile over HTTP (app.inject): UBL 2.1 answers for EN 16931,
 * XRechnung and Peppol BIS, X-Dropped-Fields for what UBL cannot carry, 422 HTTPValidationError at the metadata
 * field for the combinations that do not exist and for what Peppol requires; /v1/convert refuses UBL (a hybrid PDF
 * carries CII). The library's toXml and the OpenAPI document say the same.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ShapeError, toXml } from '../src/lib/index.js';
import { DOMESTIC_EXAMPLE, XRECHNUNG_EXAMPLE } from '../src/metadata/examples.js';
import { validateBytes } from '../src/validation/validate.js';
import { parseXml } from '../src/xml/dom.js';
import { communityApp, multipart } from './helpers.js';
import { makeBasePdf } from './hybrid-fixtures.js';
import { SCENARIOS } from './invoice-scenarios.js';

let app: FastifyInstance;
before(async () => {
  app = await communityApp();
});
after(() => app.close());

function postForm(metadata: unknown) {
  return app.inject({
    method: 'POST',
    url: '/v1/xml',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ metadata: JSON.stringify(metadata) }).toString(),
  });
}

const PEPPOL = {
  ...DOMESTIC_EXAMPLE,
  profile: 'peppol' as const,
  seller: { ...DOMESTIC_EXAMPLE.seller, electronic_address: { id: '4000001123452', scheme: '0088' } },
  buyer: { ...DOMESTIC_EXAMPLE.buyer, electronic_address: { id: 'DE987654321', scheme: '9930' } },
};

const customization = (xml: string) => parseXml(xml).root.children.find((c) => c.local === 'CustomizationID')?.text;

describe('POST /v1/xml with syntax ubl', () => {
  test('200 application/xml: EN 16931, XRechnung and Peppol BIS UBL, each valid under its rule sets', async () => {
    for (const [meta, expected, sets] of [
      [{ ...DOMESTIC_EXAMPLE, syntax: 'ubl' }, 'urn:cen.eu:en16931:2017', ['en16931-ubl']],
      [
        { ...XRECHNUNG_EXAMPLE, syntax: 'ubl' },
        'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
        ['en16931-ubl', 'xrechnung-ubl'],
      ],
      [PEPPOL, 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0', ['en16931-ubl']],
    ] as const) {
      const res = await postForm(meta);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^application\/xml/);
      assert.equal(res.headers['x-dropped-fields'], undefined);
      assert.equal(parseXml(res.body).root.local, 'Invoice');
      assert.equal(customization(res.body), expected);
      const result = await validateBytes(new Uint8Array(Buffer.from(res.body)), 'x.xml');
      for (const set of sets) assert.ok(result.rule_sets.includes(set), `${set} in ${result.rule_sets}`);
      assert.equal(result.valid, true, JSON.stringify(result.errors));
    }
  });

  test('a JSON body works the same; a credit note is a CreditNote', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/xml',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...SCENARIOS.credit_note, syntax: 'ubl' }),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(parseXml(res.body).root.local, 'CreditNote');
  });

  test('X-Dropped-Fields lists what UBL cannot carry (a credit note due date without payment means)', async () => {
    const res = await postForm({ ...SCENARIOS.credit_note, payment: undefined, syntax: 'ubl' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-dropped-fields'], 'due_date');
  });

  test('422 HTTPValidationError at the field: ubl with a Factur-X profile, cii with peppol, what Peppol requires', async () => {
    const detail = async (meta: unknown) => {
      const res = await postForm(meta);
      assert.equal(res.statusCode, 422, res.body);
      return res.json().detail as { loc: (string | number)[]; msg: string; type: string }[];
    };
    const basic = await detail({ ...DOMESTIC_EXAMPLE, profile: 'basic', syntax: 'ubl' });
    assert.deepEqual(basic[0].loc, ['body', 'metadata', 'syntax']);
    assert.match(basic[0].msg, /profile basic is a Factur-X profile, written as CII only/);
    const peppolCii = await detail({ ...PEPPOL, syntax: 'cii' });
    assert.deepEqual(peppolCii[0].loc, ['body', 'metadata', 'syntax']);
    const bare = await detail({ ...DOMESTIC_EXAMPLE, profile: 'peppol' });
    assert.deepEqual(
      bare.map((d) => d.loc.slice(2).join('.')),
      ['seller.electronic_address', 'buyer.electronic_address'],
    );
    assert.ok(bare.every((d) => d.type === 'missing'));
    const badSyntax = await detail({ ...DOMESTIC_EXAMPLE, syntax: 'edifact' });
    assert.deepEqual([badSyntax[0].loc.slice(2), badSyntax[0].type], [['syntax'], 'enum']);
  });

  test('/v1/convert refuses UBL metadata with a 422 at syntax', async () => {
    const form = multipart([
      { name: 'pdf', value: Buffer.from(await makeBasePdf()), filename: 'a.pdf' },
      { name: 'metadata', value: JSON.stringify(PEPPOL) },
    ]);
    const res = await app.inject({ method: 'POST', url: '/v1/convert', payload: form.payload, headers: form.headers });
    assert.equal(res.statusCode, 422, res.body);
    const [item] = res.json().detail;
    assert.deepEqual(item.loc, ['body', 'metadata', 'syntax']);
    assert.match(item.msg, /convert embeds CII/);
  });

  test('the OpenAPI document: syntax and peppol in InvoiceMetadata, /v1/transform with its JSON answer', async () => {
    const doc = (await app.inject({ url: '/openapi.json' })).json();
    const meta = doc.components.schemas.InvoiceMetadata;
    assert.deepEqual(meta.properties.syntax.enum, ['cii', 'ubl']);
    assert.ok(meta.properties.profile.enum.includes('peppol'));
    const op = doc.paths['/v1/transform'].post;
    assert.equal(op.operationId, 'transformInvoice');
    assert.ok(op.responses['200'].content['application/xml']);
    assert.ok(doc.components.schemas.TransformResult.properties.dropped);
    assert.deepEqual(doc.components.schemas.DroppedContent.properties.reason.enum, ['not_in_model', 'not_in_target', 'replaced']);
  });
});

describe('the library: toXml with syntax', () => {
  test('syntax and profile options override the metadata; a bad syntax is OPTION_INVALID', async () => {
    const ubl = await toXml(DOMESTIC_EXAMPLE, { syntax: 'ubl' });
    assert.equal(ubl.syntax, 'ubl');
    assert.equal(ubl.profile, 'en16931');
    assert.match(ubl.xml, /<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/);
    const peppol = await toXml({ ...PEPPOL, profile: 'en16931' }, { profile: 'peppol' });
    assert.equal(peppol.syntax, 'ubl');
    assert.equal(peppol.profile, 'peppol');
    const cii = await toXml(DOMESTIC_EXAMPLE);
    assert.equal(cii.syntax, 'cii');
    await assert.rejects(toXml(DOMESTIC_EXAMPLE, { syntax: 'pdf' }), (e) => e instanceof ShapeError && e.code === 'OPTION_INVALID');
    await assert.rejects(
      toXml(DOMESTIC_EXAMPLE, { syntax: 'ubl', profile: 'minimum' }),
      (e) => e instanceof ShapeError && e.code === 'METADATA_INVALID' && e.issues[0].loc.join('.') === 'body.metadata.syntax',
    );
  });
});
