/**
 * `einvoice transform` and `einvoice xml --syntax` as real processes: the XML written (stdout or -o), the dropped
 * groups on stderr, --json the API's answer, and the exit codes of refused input (1) and usage errors (2).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { transform, validate } from '../src/lib/index.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { fixturePath } from './fixtures.js';
import { runCli } from './cli-fixtures.js';
import { SCENARIOS } from './invoice-scenarios.js';
import { buildInvoiceXml } from '../src/metadata/build.js';

const tmp = mkdtempSync(join(tmpdir(), 'einvoice-cli-transform-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const CII = fixturePath('cen/examples/cii/CII_example4.xml');
const UBL = fixturePath('cen/examples/ubl/ubl-tc434-example1.xml');

test('transform: CII to UBL on stdout and UBL to CII into a file, both valid; --json is the API answer', async () => {
  const toUbl = await runCli(['transform', CII, '--to', 'ubl']);
  assert.equal(toUbl.code, 0, toUbl.stderr);
  assert.match(toUbl.stdout, /^<\?xml[\s\S]*<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/);
  assert.equal(toUbl.stderr, '', 'nothing dropped, nothing said');
  assert.equal((await validate(Buffer.from(toUbl.stdout))).valid, true);

  const out = join(tmp, 'out.xml');
  const toCii = await runCli(['transform', UBL, '--to', 'cii', '-o', out]);
  assert.equal(toCii.code, 0, toCii.stderr);
  assert.equal(toCii.stdout, '');
  assert.match(readFileSync(out, 'utf8'), /<rsm:CrossIndustryInvoice/);
  assert.equal((await validate(readFileSync(out))).valid, true);

  const json = await runCli(['transform', CII, '--to', 'ubl', '--profile', 'xrechnung', '--json']);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(
    JSON.parse(json.stdout),
    JSON.parse(JSON.stringify(await transform(readFileSync(CII), { to: 'ubl', profile: 'xrechnung', filename: CII }))),
  );
});

test('transform: what is dropped is listed on stderr, one line per group', async () => {
  const meta = { ...structuredClone(SCENARIOS.credit_note), payment: undefined };
  const file = join(tmp, 'cn.xml');
  writeFileSync(file, buildInvoiceXml(meta).xml);
  const run = await runCli(['transform', file, '--to', 'ubl']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /<CreditNote /);
  assert.match(
    run.stderr,
    /^not carried into the target \(1 group; --json lists them in full\):\n {2}BT-9 Payment due date: not in target at \/rsm:CrossIndustryInvoice\[1\]\//,
  );
});

test('transform: refused input exits 1 with the API code, usage errors exit 2', async () => {
  const notXml = join(tmp, 'notes.txt');
  writeFileSync(notXml, 'hello');
  const bad = await runCli(['transform', notXml, '--to', 'ubl']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^einvoice: NOT_PDF_OR_XML: /);
  const wrongProfile = await runCli(['transform', UBL, '--to', 'cii', '--profile', 'peppol']);
  assert.equal(wrongProfile.code, 1);
  assert.match(wrongProfile.stderr, /^einvoice: OPTION_INVALID: profile: Peppol BIS Billing 3\.0 is written as UBL/);
  const noTo = await runCli(['transform', UBL]);
  assert.equal(noTo.code, 2);
  assert.match(noTo.stderr, /transform needs --to cii\|ubl/);
  const missing = await runCli(['transform', join(tmp, 'nope.xml'), '--to', 'ubl']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read/);
  const help = await runCli(['transform', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: einvoice transform FILE --to ubl\|cii/);
});

test('xml --syntax ubl and --profile peppol write UBL; a Factur-X profile with ubl exits 1 with the field', async () => {
  const meta = join(tmp, 'meta.json');
  writeFileSync(meta, JSON.stringify(DOMESTIC_EXAMPLE));
  const ubl = await runCli(['xml', meta, '--syntax', 'ubl']);
  assert.equal(ubl.code, 0, ubl.stderr);
  assert.match(ubl.stdout, /<cbc:CustomizationID>urn:cen\.eu:en16931:2017<\/cbc:CustomizationID>/);
  assert.equal((await validate(Buffer.from(ubl.stdout))).valid, true);
  const peppolMeta = join(tmp, 'peppol.json');
  writeFileSync(
    peppolMeta,
    JSON.stringify({
      ...DOMESTIC_EXAMPLE,
      seller: { ...DOMESTIC_EXAMPLE.seller, electronic_address: { id: '4000001123452', scheme: '0088' } },
      buyer: { ...DOMESTIC_EXAMPLE.buyer, electronic_address: { id: 'DE987654321', scheme: '9930' } },
    }),
  );
  const peppol = await runCli(['xml', peppolMeta, '--profile', 'peppol']);
  assert.equal(peppol.code, 0, peppol.stderr);
  assert.match(peppol.stdout, /poacc:billing:3\.0<\/cbc:CustomizationID>/);
  const refused = await runCli(['xml', meta, '--syntax', 'ubl', '--profile', 'basic']);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /body\.metadata\.syntax: profile basic is a Factur-X profile/);
});
