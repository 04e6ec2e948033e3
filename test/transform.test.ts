/**
 * POST /v1/transform and the library's transform(): CII ⇄ UBL through the model on real invoices (the CEN examples,
 * a Factur-X PDF), the answer as XML with X-Dropped-Fields or as JSON with the dropped list, what is dropped and why
 * (content outside EN 16931, terms the target cannot carry, replaced identifiers) with its source locations, the
 * worker-pool path, and every error answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ingest } from '../src/input/ingest.js';
import { InvalidInputError, ShapeError, transform, type TransformResult } from '../src/lib/index.js';
import { buildInvoiceXml } from '../src/metadata/build.js';
import { diffInvoices } from '../src/transform/model-diff.js';
import { validateBytes } from '../src/validation/validate.js';
import { parseXml } from '../src/xml/dom.js';
import { facturxPdf, readFixture } from './fixtures.js';
import { communityApp, multipart, type Part } from './helpers.js';
import { makeBasePdf } from './hybrid-fixtures.js';
import { SCENARIOS } from './invoice-scenarios.js';

const CII = readFixture('cen/examples/cii/CII_example4.xml');
const UBL = readFixture('cen/examples/ubl/ubl-tc434-example1.xml');
const UBL_CREDIT_NOTE = readFixture('cen/examples/ubl/ubl-tc434-creditnote1.xml');

let app: FastifyInstance;
before(async () => {
  app = await communityApp();
});
after(() => app.close());

async function post(parts: Part[], headers: Record<string, string> = {}, on = app) {
  const form = multipart(parts);
  return on.inject({ method: 'POST', url: '/v1/transform', payload: form.payload, headers: { ...form.headers, ...headers } });
}
const file = (value: Buffer | string | Uint8Array, filename = 'invoice.xml'): Part => ({
  name: 'file',
  value: Buffer.from(value as Uint8Array),
  filename,
});
const field = (name: string, value: string): Part => ({ name, value });

async function errorsOf(xml: string): Promise<string[]> {
  const result = await validateBytes(new Uint8Array(Buffer.from(xml)), 'out.xml');
  return result.errors.filter((e) => e.severity === 'error').map((e) => `${e.rule_id} ${e.location ?? ''}`);
}

/** The model of an invoice file (as the validator reads it). */
async function modelOf(bytes: Uint8Array) {
  return (await ingest(bytes, 'x.xml')).invoice!;
}

describe('POST /v1/transform: CII → UBL → CII and UBL → CII → UBL on the CEN examples', () => {
  test('CII → UBL: an XML answer, valid UBL, the same business terms; and back to CII', async () => {
    const res = await post([file(CII), field('to', 'ubl')]);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/xml/);
    assert.equal(res.headers['x-invoice-syntax'], 'ubl');
    assert.equal(res.headers['x-invoice-profile'], 'en16931');
    assert.equal(res.headers['x-dropped-fields'], undefined, 'nothing dropped from this invoice');
    assert.equal(parseXml(res.body).root.local, 'Invoice');
    assert.deepEqual(await errorsOf(res.body), []);
    assert.deepEqual(diffInvoices(await modelOf(CII), await modelOf(Buffer.from(res.body))), []);
    const back = await post([file(res.body), field('to', 'cii')]);
    assert.equal(back.statusCode, 200);
    assert.equal(back.headers['x-invoice-profile'], 'en16931');
    assert.deepEqual(await errorsOf(back.body), []);
    assert.deepEqual(diffInvoices(await modelOf(CII), await modelOf(Buffer.from(back.body))), []);
  });

  test('UBL → CII (an invoice and a credit note): valid CII with the same terms', async () => {
    for (const source of [UBL, UBL_CREDIT_NOTE]) {
      const res = await post([file(source), field('to', 'cii')]);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(parseXml(res.body).root.local, 'CrossIndustryInvoice');
      assert.deepEqual(await errorsOf(res.body), []);
      assert.deepEqual(diffInvoices(await modelOf(source), await modelOf(Buffer.from(res.body))), []);
      // And back: the UBL root follows the type code.
      const back = await post([file(res.body), field('to', 'ubl')]);
      const root = parseXml(back.body).root;
      assert.equal(root.local, source === UBL_CREDIT_NOTE ? 'CreditNote' : 'Invoice');
      assert.deepEqual(diffInvoices(await modelOf(source), await modelOf(Buffer.from(back.body))), []);
    }
  });

  test('a Factur-X PDF: its CII becomes UBL', async () => {
    const res = await post([file(await facturxPdf(), 'invoice.pdf'), field('to', 'ubl')]);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(parseXml(res.body).root.local, 'Invoice');
    assert.deepEqual(await errorsOf(res.body), []);
  });

  test('profile peppol: Peppol identifiers, the replaced BT-24 listed; an XRechnung invoice stays XRechnung', async () => {
    const peppolMeta = { ...structuredClone(SCENARIOS.domestic), profile: 'en16931' as const };
    peppolMeta.seller.electronic_address = { id: '4000001123452', scheme: '0088' };
    peppolMeta.buyer.electronic_address = { id: 'DE987654321', scheme: '9930' };
    const cii = buildInvoiceXml(peppolMeta).xml;
    const res = await post([file(cii), field('to', 'ubl'), field('profile', 'peppol')], { accept: 'application/json' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as TransformResult;
    assert.equal(body.profile, 'peppol');
    assert.equal(res.headers['x-invoice-profile'], 'peppol');
    const root = parseXml(body.xml).root;
    assert.equal(
      root.children.find((c) => c.local === 'CustomizationID')?.text,
      'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    );
    assert.equal(root.children.find((c) => c.local === 'ProfileID')?.text, 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0');
    assert.deepEqual(await errorsOf(body.xml), []);
    // The source's guideline did not go across: replaced, with where it was and what replaced it.
    const bt24 = body.dropped.find((d) => d.term === 'BT-24')!;
    assert.equal(bt24.reason, 'replaced');
    assert.equal(bt24.value, 'urn:cen.eu:en16931:2017');
    assert.equal(bt24.replacement, 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0');
    assert.match(bt24.locations[0], /GuidelineSpecifiedDocumentContextParameter\[1\]\/ram:ID\[1\]$/);
    assert.equal(res.headers['x-dropped-fields'], 'BT-24');

    const xr = buildInvoiceXml(SCENARIOS.xrechnung).xml;
    const xrUbl = await post([file(xr), field('to', 'ubl')]);
    assert.equal(xrUbl.headers['x-invoice-profile'], 'xrechnung');
    assert.equal(xrUbl.headers['x-dropped-fields'], undefined);
    const result = await validateBytes(new Uint8Array(Buffer.from(xrUbl.body)), 'xr.xml');
    assert.ok(result.rule_sets.includes('xrechnung-ubl'));
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });

  test('the same syntax again: a UBL invoice re-written for another profile', async () => {
    const res = await post([file(UBL), field('to', 'ubl'), field('profile', 'xrechnung')], { accept: 'application/json' });
    assert.equal(res.statusCode, 200);
    const body = res.json() as TransformResult;
    assert.equal(body.source.syntax, 'ubl');
    assert.equal(body.syntax, 'ubl');
    assert.equal(body.profile, 'xrechnung');
    assert.ok(body.xml.includes('urn:xeinkauf.de:kosit:xrechnung_3.0'));
  });
});

describe('what does not make it across is listed, with its source locations', () => {
  test('content outside EN 16931, a term UBL cannot carry, a department beside a contact name', async () => {
    // A CII credit note: a contact with person and department, a due date without payment means, and an
    // element the model has no place for (the document's test indicator).
    const meta = { ...structuredClone(SCENARIOS.credit_note), payment: undefined };
    meta.seller.contact = { ...meta.seller.contact, department: 'Billing' };
    let cii = buildInvoiceXml(meta).xml;
    cii = cii.replace(
      '<ram:PersonName>Erika Mustermann</ram:PersonName>',
      '<ram:PersonName>Erika Mustermann</ram:PersonName><ram:DepartmentName>Billing</ram:DepartmentName>',
    );
    cii = cii.replace(
      '<rsm:ExchangedDocumentContext>',
      '<rsm:ExchangedDocumentContext><ram:TestIndicator><udt:Indicator>true</udt:Indicator></ram:TestIndicator>',
    );
    const res = await post([file(cii), field('to', 'ubl')], { accept: 'application/json' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as TransformResult;
    const by = (term: string | null, path?: string) => body.dropped.find((d) => d.term === term && (!path || d.path === path));
    const dueDate = by('BT-9')!;
    assert.equal(dueDate.reason, 'not_in_target');
    assert.equal(dueDate.path, 'dueDate');
    assert.equal(dueDate.value, '2026-12-20');
    assert.match(dueDate.locations[0], /ram:SpecifiedTradePaymentTerms\[1\]\/ram:DueDateDateTime\[1\]\/udt:DateTimeString\[1\]$/);
    const department = by('BT-41', 'seller.contacts[].department')!;
    assert.equal(department.reason, 'not_in_target');
    assert.equal(department.value, 'Billing');
    const test = body.dropped.find((d) => d.reason === 'not_in_model')!;
    assert.equal(test.term, null);
    assert.equal(test.name, 'ram:TestIndicator');
    assert.equal(test.path, '/rsm:CrossIndustryInvoice/rsm:ExchangedDocumentContext/ram:TestIndicator');
    assert.deepEqual(test.locations, ['/rsm:CrossIndustryInvoice[1]/rsm:ExchangedDocumentContext[1]/ram:TestIndicator[1]']);
    // The XML answer's header names the same groups.
    const xml = await post([file(cii), field('to', 'ubl')]);
    assert.equal(xml.headers['x-dropped-fields'], 'BT-9, BT-41, /rsm:CrossIndustryInvoice/rsm:ExchangedDocumentContext/ram:TestIndicator');
    // Everything else arrived: the UBL credit note is valid.
    assert.equal(parseXml(body.xml).root.local, 'CreditNote');
    assert.deepEqual(await errorsOf(body.xml), []);
  });

  test('a MINIMUM target drops the lines: one group per term, counted, the first locations listed', async () => {
    const res = await post([file(UBL), field('to', 'cii'), field('profile', 'minimum')], { accept: 'application/json' });
    assert.equal(res.statusCode, 200);
    const body = res.json() as TransformResult;
    const names = body.dropped.find((d) => d.term === 'BT-153')!;
    assert.equal(names.reason, 'not_in_target');
    assert.equal(names.path, 'lines[].itemName');
    const lines = (await modelOf(UBL)).lines.length;
    assert.equal(names.count, lines);
    assert.equal(names.locations.length, Math.min(lines, 10));
    assert.match(names.locations[0], /^\/Invoice\[1\]\/cac:InvoiceLine\[1\]\/cac:Item\[1\]\/cbc:Name\[1\]$/);
    assert.ok(parseXml(body.xml).root.local === 'CrossIndustryInvoice');
    assert.ok(body.xml.includes('urn:factur-x.eu:1p0:minimum'));
  });
});

describe('errors', () => {
  test('422 for a missing file or to, a to other than cii/ubl, a profile the target syntax does not have', async () => {
    const shape = async (parts: Part[]) => {
      const res = await post(parts);
      assert.equal(res.statusCode, 422, res.body);
      return res.json().detail as { loc: string[]; type: string; msg: string }[];
    };
    assert.deepEqual(
      (await shape([field('to', 'ubl')])).map((d) => [d.loc.join('.'), d.type]),
      [['body.file', 'missing']],
    );
    assert.deepEqual(
      (await shape([file(CII)])).map((d) => [d.loc.join('.'), d.type]),
      [['body.to', 'missing']],
    );
    assert.deepEqual(
      (await shape([file(CII), field('to', 'json')])).map((d) => [d.loc.join('.'), d.type]),
      [['body.to', 'enum']],
    );
    const peppolCii = (await shape([file(UBL), field('to', 'cii'), field('profile', 'peppol')]))[0];
    assert.deepEqual([peppolCii.loc.join('.'), peppolCii.type], ['body.profile', 'value_error']);
    assert.match(peppolCii.msg, /Peppol BIS Billing 3.0 is written as UBL/);
    const basicUbl = (await shape([file(CII), field('to', 'ubl'), field('profile', 'basic')]))[0];
    assert.match(basicUbl.msg, /Factur-X profile, written as CII only/);
    assert.equal((await shape([file(CII), field('to', 'ubl'), field('profile', 'fancy')]))[0].type, 'enum');
    assert.equal((await shape([file(CII), field('to', 'ubl'), field('to', 'cii')]))[0].type, 'duplicate_part');
  });

  test('400 with the ingest codes: not PDF or XML, malformed, not an invoice, a PDF without invoice XML', async () => {
    const problem = async (value: Buffer | string | Uint8Array, name: string) => {
      const res = await post([file(value, name), field('to', 'ubl')]);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(String(res.headers['content-type']), /application\/problem\+json/);
      return res.json().code as string;
    };
    assert.equal(await problem('hello', 'x.txt'), 'NOT_PDF_OR_XML');
    assert.equal(await problem('<a><b></a>', 'x.xml'), 'XML_MALFORMED');
    assert.equal(await problem('<?xml version="1.0"?><Order xmlns="urn:example"/>', 'x.xml'), 'UNKNOWN_XML');
    assert.equal(await problem(await makeBasePdf(), 'plain.pdf'), 'NO_XML');
    assert.equal(await problem('', 'empty.xml'), 'EMPTY_FILE');
    const zf1 =
      '<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"><rsm:HeaderExchangedDocument/></rsm:CrossIndustryDocument>';
    assert.equal(await problem(zf1, 'zf1.xml'), 'UNSUPPORTED_XML');
  });

  test('413 past MAX_UPLOAD_SIZE_MB', async () => {
    const small = await communityApp({ MAX_UPLOAD_SIZE_MB: '1' });
    try {
      const res = await post([file(Buffer.alloc(1024 * 1024 + 10, 0x20)), field('to', 'ubl')], {}, small);
      assert.equal(res.statusCode, 413);
      assert.equal(res.json().code, 'UPLOAD_TOO_LARGE');
    } finally {
      await small.close();
    }
  });

  test('the worker pool gives the same answer and the same errors (VALIDATION_INLINE_MAX_KB=0)', async () => {
    const pooled = await communityApp({ VALIDATION_INLINE_MAX_KB: '0', WORKERS: '1' });
    try {
      const inline = await post([file(UBL), field('to', 'cii')], { accept: 'application/json' });
      const worker = await post([file(UBL), field('to', 'cii')], { accept: 'application/json' }, pooled);
      assert.equal(worker.statusCode, 200, worker.body);
      assert.deepEqual(worker.json(), inline.json());
      assert.ok(pooled.validation.counts.pool > 0);
      const noXml = await post([file(await makeBasePdf(), 'plain.pdf'), field('to', 'ubl')], {}, pooled);
      assert.equal(noXml.statusCode, 400);
      assert.equal(noXml.json().code, 'NO_XML');
    } finally {
      await pooled.close();
    }
  });
});

describe('the library: transform()', () => {
  test('the same result as the API, typed errors with the API codes', async () => {
    const result = await transform(CII, { to: 'ubl' });
    assert.equal(result.syntax, 'ubl');
    assert.equal(result.profile, 'en16931');
    assert.deepEqual(result.source, { syntax: 'cii', profile: 'en16931', specification_id: 'urn:cen.eu:en16931:2017' });
    const api = await post([file(CII), field('to', 'ubl')], { accept: 'application/json' });
    assert.deepEqual(api.json(), result);
    await assert.rejects(
      transform(Buffer.from('hello'), { to: 'ubl' }),
      (e) => e instanceof InvalidInputError && e.code === 'NOT_PDF_OR_XML',
    );
    await assert.rejects(transform(await makeBasePdf(), { to: 'ubl' }), (e) => e instanceof InvalidInputError && e.code === 'NO_XML');
    await assert.rejects(
      transform(CII, { to: 'pdf' }),
      (e) => e instanceof ShapeError && e.code === 'OPTION_INVALID' && e.issues[0].loc.join('.') === 'to',
    );
    await assert.rejects(
      transform(CII, { to: 'cii', profile: 'peppol' }),
      (e) => e instanceof ShapeError && e.issues[0].loc.join('.') === 'profile' && e.status === 422,
    );
  });
});
