/**
 * The EXTENDED-CTC-FR profile rules (FNFE-MPE, France_RFE 1.4.0.x) and the extended_ctc_fr writer profile:
 * - every official assert id is implemented, with its official severity (test/fixtures/rule-ids/extended-ctc-fr-*);
 * - the rule set is chosen by the guideline, instead of the EN 16931 set, and named in rule_set_versions;
 * - agreement with the official XSLT's verdicts on our own EXTENDED-CTC-FR invoices and their mutations (the verdicts
 *   were produced by scripts/extended-ctc-fr-verdicts.ts; corpus-based ones run in test/conformance/extended-ctc-fr.test.ts);
 * - behaviours the official artefact has and EN 16931 has not (sub-lines, shadowed breakdown rules, releases);
 * - the writer: every XP Z12-014 scenario goes through POST /v1/xml and validates with no finding of any severity.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { getRuleSet, runRules } from '../src/rules/engine.js';
import { parseXml } from '../src/xml/dom.js';
import { readCii } from '../src/syntax/cii/reader.js';
import { readUbl } from '../src/syntax/ubl/reader.js';
import { flavorOf, selectRuleSets } from '../src/validation/rulesets.js';
import { validateBytes } from '../src/validation/validate.js';
import { validateXsd } from '../src/xml/xsd.js';
import { sel, value } from '../src/rules/xrechnung/dom.js';
import type { Finding } from '../src/rules/types.js';
import { FIXTURES, applyMutation, baseBytes, normalizedBase, type Mutation } from './conformance/extended-ctc-fr-mutations.js';
import { FR_MULTI_VENDOR, FR_SCENARIOS } from './extended-ctc-fr-scenarios.js';
import { communityApp, multipart } from './helpers.js';
import { fixturePath, readFixture } from './fixtures.js';

const GUIDELINE = 'urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr';

function run(xml: string | Uint8Array, set?: string): Finding[] {
  const doc = parseXml(typeof xml === 'string' ? new TextEncoder().encode(xml) : xml);
  const syntax = doc.root.local === 'CrossIndustryInvoice' ? 'cii' : 'ubl';
  const invoice = syntax === 'cii' ? readCii(doc.root) : readUbl(doc.root);
  const id = set ?? `extended-ctc-fr-${syntax}`;
  return runRules(id, getRuleSet(id)!, { doc, invoice, syntax });
}
const ids = (f: Finding[]) => f.map((x) => x.ruleId).sort();

test('every assert of the official EXTENDED-CTC-FR artefacts is implemented once, with its severity', () => {
  for (const syntax of ['cii', 'ubl']) {
    const official = new Map(
      readFileSync(fixturePath(`rule-ids/extended-ctc-fr-${syntax}.flags.tsv`), 'utf8')
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((l) => l.split('\t') as [string, string]),
    );
    const listed = readFileSync(fixturePath(`rule-ids/extended-ctc-fr-${syntax}.txt`), 'utf8')
      .split('\n')
      .filter(Boolean);
    assert.deepEqual([...official.keys()].sort(), [...listed].sort());
    const rules = getRuleSet(`extended-ctc-fr-${syntax}`)!;
    assert.deepEqual(rules.map((r) => r.id).sort(), [...listed].sort(), `${syntax}: implemented ids`);
    for (const r of rules) assert.equal(r.severity, official.get(r.id) === 'fatal' ? 'error' : official.get(r.id), `${syntax} ${r.id}`);
  }
  assert.equal(getRuleSet('extended-ctc-fr-cii')!.length, 747);
  assert.equal(getRuleSet('extended-ctc-fr-ubl')!.length, 953);
});

test('the guideline selects EXTENDED-CTC-FR instead of EN 16931, in CII and UBL', () => {
  assert.deepEqual(selectRuleSets({ syntax: 'cii', guideline: GUIDELINE }), ['extended-ctc-fr-cii']);
  assert.deepEqual(selectRuleSets({ syntax: 'ubl', guideline: GUIDELINE }), ['extended-ctc-fr-ubl']);
  assert.equal(flavorOf({ syntax: 'ubl', guideline: GUIDELINE }), 'extended_ctc_fr');
  // Factur-X EXTENDED stays Factur-X EXTENDED.
  assert.deepEqual(selectRuleSets({ syntax: 'cii', guideline: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended' }), [
    'fx-extended',
  ]);
});

/** Verdict lines of the official XSLT (scripts/extended-ctc-fr-verdicts.ts) on our fixtures and their mutations. */
interface VerdictLine {
  name: string;
  syntax: 'cii' | 'ubl';
  findings?: { id: string; flag: string; location: string }[];
  error?: string;
}
function verdicts(): VerdictLine[] {
  return readFileSync(`${FIXTURES}/verdicts.jsonl`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as VerdictLine);
}
function mutations(): Map<string, Mutation> {
  return new Map(
    readFileSync(`${FIXTURES}/mutations.jsonl`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Mutation)
      .map((m) => [`mutation:${m.name}`, m]),
  );
}

test('our EXTENDED-CTC-FR invoices and their mutations: the same assert ids as the official XSLT', () => {
  const byName = mutations();
  let compared = 0;
  const diffs: string[] = [];
  for (const v of verdicts()) {
    if (!v.findings) continue;
    let xml: string;
    if (v.name.startsWith('fixture:')) xml = normalizedBase(baseBytes(v.name, ''));
    else {
      const m = byName.get(v.name);
      if (!m || !m.base.startsWith('fixture:')) continue;
      xml = applyMutation(baseBytes(m.base, ''), m);
    }
    const want = v.findings.map((f) => f.id).sort();
    const got = ids(run(xml));
    compared++;
    if (want.join() !== got.join()) diffs.push(`${v.name}: official ${want.join(',')} / ours ${got.join(',')}`);
  }
  assert.ok(compared >= 5, `${compared} verdicts compared`);
  assert.deepEqual(diffs, []);
});

test('CII: the per-category breakdown rules shadow BR-45…48 and BR-CO-03, as in the artefact', () => {
  const xml = readFileSync(`${FIXTURES}/invoices/uc1_goods.xml`, 'utf8').replace(/<ram:BasisAmount>[^<]*<\/ram:BasisAmount>/, '');
  const found = ids(run(xml));
  // The S breakdown without its taxable amount: the profile's BR-FXEXT-S-08 (and -ini/-rev, -S-09) say so, BR-45 does not run.
  assert.ok(found.includes('BR-FXEXT-S-08'), found.join());
  assert.ok(!found.includes('BR-45'), found.join());
  // The same breakdown with a tax type other than VAT is no category rule's: BR-45 runs there.
  const other = xml.replace(
    /(<ram:ApplicableTradeTax>\s*<ram:CalculatedAmount>[^<]*<\/ram:CalculatedAmount>\s*<ram:TypeCode>)VAT/,
    '$1ZZZ',
  );
  assert.notEqual(other, xml);
  assert.ok(ids(run(other)).includes('BR-45'));
});

test('sub-lines: a GROUP line must add up its sub-lines (BR-FREXT-08); only DETAIL lines count in the totals', () => {
  const xml = readFileSync(`${FIXTURES}/invoices/uc12_sublines.xml`, 'utf8');
  assert.deepEqual(ids(run(xml)), []);
  // EN 16931 alone refuses the sub-lines the profile allows: the GROUP line is counted in BT-106.
  assert.ok(ids(run(xml, 'en16931-cii')).includes('BR-CO-10'));
  const broken = xml.replace('<ram:LineTotalAmount>551.00</ram:LineTotalAmount>', '<ram:LineTotalAmount>550.00</ram:LineTotalAmount>');
  assert.notEqual(broken, xml);
  assert.ok(ids(run(broken)).includes('BR-FREXT-08'));
  const orphan = xml.replace('<ram:ParentLineID>1</ram:ParentLineID>', '<ram:ParentLineID>9</ram:ParentLineID>');
  assert.ok(ids(run(orphan)).includes('BR-FREXT-11'));
});

test('UBL releases: 1.4.0.02 takes BY/SE identifier schemes (BR-FREXT-CL-10), 1.4.0 and 1.4.0.01 the EN list (BR-CL-10)', () => {
  const ubl = readFixture('cen/examples/ubl/ubl-tc434-example1.xml')
    .toString('utf8')
    .replace(/<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, `<cbc:CustomizationID>${GUIDELINE}</cbc:CustomizationID>`)
    .replace(
      /(<cac:AccountingSupplierParty>\s*<cac:Party>)/,
      '$1<cac:PartyIdentification><cbc:ID schemeID="SE">12345</cbc:ID></cac:PartyIdentification>',
    );
  assert.match(ubl, /schemeID="SE"/);
  assert.ok(!ids(run(ubl)).includes('BR-FREXT-CL-10'));
  assert.ok(ids(run(ubl, 'extended-ctc-fr-ubl@1.4.0.01')).includes('BR-CL-10'));
  const wrong = ubl.replace('schemeID="SE"', 'schemeID="XX"');
  assert.ok(ids(run(wrong)).includes('BR-FREXT-CL-10'));
});

test('UBL release 1.4.0: BR-FREXT-CO-12 refuses an allowance total without charges (France_RFE issue #6), 1.4.0.01 accepts it', () => {
  const ubl = readFixture('cen/examples/ubl/ubl-tc434-example1.xml')
    .toString('utf8')
    .replace(/<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, `<cbc:CustomizationID>${GUIDELINE}</cbc:CustomizationID>`)
    .replace(/(<cbc:PayableAmount currencyID="(\w+)")/, '<cbc:AllowanceTotalAmount currencyID="$2">0.00</cbc:AllowanceTotalAmount>$1');
  assert.match(ubl, /<cbc:AllowanceTotalAmount/);
  assert.doesNotMatch(ubl, /<cbc:ChargeTotalAmount|<cbc:ChargeIndicator>true/);
  assert.ok(ids(run(ubl, 'extended-ctc-fr-ubl@1.4.0')).includes('BR-FREXT-CO-12'));
  assert.ok(!ids(run(ubl, 'extended-ctc-fr-ubl@1.4.0.01')).includes('BR-FREXT-CO-12'));
  assert.ok(!ids(run(ubl)).includes('BR-FREXT-CO-12'));
});

let app: FastifyInstance;
before(async () => {
  app = await communityApp();
});
after(async () => {
  await app.close();
});

async function xmlOf(meta: unknown): Promise<{ status: number; body: string; dropped?: string }> {
  const res = await app.inject({ method: 'POST', url: '/v1/xml', payload: { metadata: meta } });
  return { status: res.statusCode, body: res.body, dropped: res.headers['x-dropped-fields'] as string | undefined };
}

for (const [name, meta] of Object.entries(FR_SCENARIOS)) {
  test(`/v1/xml extended_ctc_fr, ${name}: Factur-X EXTENDED schema valid, no finding under EXTENDED-CTC-FR + BR-FR 1.4`, async () => {
    const res = await xmlOf(meta);
    assert.equal(res.status, 200, res.body);
    assert.match(res.body, /urn\.cpro\.gouv\.fr:1p0:extended-ctc-fr/);
    assert.equal(res.dropped, undefined);
    const bytes = new TextEncoder().encode(res.body);
    assert.deepEqual(validateXsd(bytes, 'EXTENDED').errors, []);
    const form = multipart([{ name: 'file', filename: 'invoice.xml', value: Buffer.from(bytes), contentType: 'application/xml' }]);
    const v = await app.inject({ method: 'POST', url: '/v1/validate', payload: form.payload, headers: form.headers });
    const result = v.json();
    assert.equal(result.flavor, 'extended_ctc_fr');
    assert.deepEqual(result.rule_sets, ['extended-ctc-fr-cii', 'br-fr-1.4-cii']);
    assert.equal(result.rule_set_versions.extended_ctc_fr, '1.4.0.02');
    assert.deepEqual(
      result.errors.map((e: { rule_id: string }) => e.rule_id),
      [],
    );
    assert.equal(result.valid, true);
  });
}

test('/v1/xml extended_ctc_fr multi-vendor (S8): sub-invoice data on every line; no finding under EXTENDED-CTC-FR + BR-FR 1.4', async () => {
  const res = await xmlOf(FR_MULTI_VENDOR);
  assert.equal(res.status, 200, res.body);
  assert.equal(res.dropped, undefined);
  const bytes = new TextEncoder().encode(res.body);
  // The line seller (ItemSellerTradeParty) is UN/CEFACT D22B, not in the Factur-X EXTENDED schema that approximates the
  // profile's: the only schema findings, warnings (as on the XP Z12-014 UC10 example itself).
  assert.ok(validateXsd(bytes, 'EXTENDED').errors.every((e) => /ItemSellerTradeParty/.test(e.message)));
  const form = multipart([{ name: 'file', filename: 'mv.xml', value: Buffer.from(bytes), contentType: 'application/xml' }]);
  const result = (await app.inject({ method: 'POST', url: '/v1/validate', payload: form.payload, headers: form.headers })).json();
  assert.deepEqual(result.rule_sets, ['extended-ctc-fr-cii', 'br-fr-1.4-cii']);
  assert.equal(result.valid, true);
  // No error: the sub-invoice rules BR-FR-MV-* all hold. The one warning left is the profile's own: BR-FXEXT-S-08ini
  // checks each S 20 % breakdown against all S 20 % lines, ignoring the sub-invoice markers, so two sub-invoices at the
  // same rate draw it (the official XSLT too: test/conformance/extended-ctc-fr.test.ts, uc10_multi_vendor.xml).
  const findings = result.errors.filter((e: { rule_id: string }) => e.rule_id !== 'XSD');
  assert.deepEqual(
    findings.filter((e: { severity: string }) => e.severity === 'error'),
    [],
  );
  assert.deepEqual(
    findings.map((e: { rule_id: string; severity: string }) => `${e.severity} ${e.rule_id}`),
    ['warning BR-FXEXT-S-08ini', 'warning BR-FXEXT-S-08ini'],
  );
  assert.ok(result.errors.every((e: { rule_id: string; severity: string }) => e.rule_id !== 'XSD' || e.severity === 'warning'));
  // What BR-FR-MV-03…11 ask for, as written: read the lines back.
  const doc = parseXml(bytes);
  const lines = sel(doc.root, 'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem');
  const refs = (l: (typeof lines)[number], type: string) =>
    sel(l, 'ram:SpecifiedLineTradeSettlement/ram:AdditionalReferencedDocument')
      .filter((d) => value(d, 'ram:ReferenceTypeCode') === type)
      .map((d) => `${value(d, 'ram:TypeCode')} ${value(d, 'ram:IssuerAssignedID')}`);
  const afl = lines.map((l) => refs(l, 'AFL').join());
  assert.deepEqual(afl, [
    '130 F202600104',
    '130 F202600104',
    '130 F202600104',
    '130 T2026-0042',
    '130 T2026-0042',
    '130 T2026-0042',
    '130 T2026-0042',
  ]);
  assert.deepEqual(
    lines.map((l) => refs(l, 'AVV').join()),
    ['130 S1', '', '', '130 S1', '', '', ''],
  );
  const siren = lines.map((l) =>
    value(l, 'ram:SpecifiedLineTradeAgreement/ram:ItemSellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID'),
  );
  assert.deepEqual(siren, ['100000009', '100000009', '100000009', '300000007', '300000007', '300000007', '300000007']);
  assert.deepEqual(
    lines.map((l) => value(l, 'ram:AssociatedDocumentLineDocument/ram:LineStatusReasonCode')),
    ['GROUP', 'DETAIL', 'DETAIL', 'GROUP', 'DETAIL', 'DETAIL', 'INFORMATION'],
  );
  assert.deepEqual(
    lines.map((l) => value(l, 'ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:ExemptionReason') ?? ''),
    ['', '#F202600104#', '#F202600104#', '', '#T2026-0042#', '#T2026-0042#', ''],
  );
  // Sub-invoice totals on the heads: own 1,000.00 at 20 %; the third party's 250.00 at 20 % and 100.00 at 5.5 %.
  const sums = (l: (typeof lines)[number]) =>
    ['LineTotalAmount', 'TaxTotalAmount', 'GrandTotalAmount'].map((n) =>
      value(l, `ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:${n}`),
    );
  assert.deepEqual(sums(lines[0]), ['1000.00', '200.00', '1200.00']);
  assert.deepEqual(sums(lines[3]), ['350.00', '55.50', '405.50']);
  // The VAT breakdown is split per sub-invoice (and rate), told apart by the marker.
  const breakdowns = sel(doc.root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax').map(
    (t) =>
      `${value(t, 'ram:ExemptionReason')} ${value(t, 'ram:RateApplicablePercent')} ${value(t, 'ram:BasisAmount')} ${value(t, 'ram:CalculatedAmount')}`,
  );
  assert.deepEqual(breakdowns.sort(), ['#F202600104# 20 1000.00 200.00', '#T2026-0042# 20 250.00 50.00', '#T2026-0042# 5.5 100.00 5.50']);
});

test('/v1/xml multi-vendor: what the writer cannot fill in is a 422 at its field', async () => {
  const lines = FR_MULTI_VENDOR.line_items!;
  const cases: [string, unknown, RegExp][] = [
    [
      "another seller's sub-invoice without its number",
      { ...FR_MULTI_VENDOR, line_items: lines.map((l) => (l.id === '4' ? { ...l, sub_invoice_number: undefined } : l)) },
      /line_items\D+3\D+sub_invoice_number[\s\S]*BR-FR-MV-03/,
    ],
    [
      'a line outside every sub-invoice',
      { ...FR_MULTI_VENDOR, line_items: [...lines, { name: 'Frais', quantity: '1', unit_code: 'C62', net_price: '1.00', vat_rate: '20' }] },
      /line_items\D+7\D+parent_line_id[\s\S]*BR-FR-MV-06/,
    ],
    [
      'the same number twice',
      { ...FR_MULTI_VENDOR, line_items: lines.map((l) => (l.id === '4' ? { ...l, sub_invoice_number: 'F202600104' } : l)) },
      /BR-FR-MV-12/,
    ],
    ['a self-billed type', { ...FR_MULTI_VENDOR, document_type_code: '389' }, /BR-FR-MV-13/],
    [
      'a sub-invoice field on a sub-line',
      { ...FR_MULTI_VENDOR, line_items: lines.map((l) => (l.id === '5' ? { ...l, sub_invoice_framework: 'S1' } : l)) },
      /line_items\D+4\D+sub_invoice_framework/,
    ],
    [
      'a multi-vendor framework as a sub-invoice framework',
      { ...FR_MULTI_VENDOR, line_items: lines.map((l) => (l.id === '4' ? { ...l, sub_invoice_framework: 'M8' } : l)) },
      /BR-FR-MV-03/,
    ],
  ];
  for (const [what, meta, expected] of cases) {
    const res = await xmlOf(meta);
    assert.equal(res.status, 422, `${what}: ${res.body}`);
    assert.match(res.body, expected, what);
  }
  // Without S8/B8/M8 the same lines are a plain invoice with sub-lines: no sub-invoice data is written.
  const plain = await xmlOf({
    ...FR_MULTI_VENDOR,
    business_process: 'S1',
    line_items: lines.map(({ sub_invoice_number: _n, ...l }) => l),
  });
  assert.equal(plain.status, 200, plain.body);
  assert.doesNotMatch(plain.body, /AFL|#F202600104#/);
});

test('/v1/xml extended_ctc_fr: the billing framework (BT-23) defaults to M1 and is checked; sub-lines are checked', async () => {
  const { business_process: _bp, ...without } = FR_SCENARIOS.uc1_goods;
  const defaulted = await xmlOf(without);
  assert.equal(defaulted.status, 200, defaulted.body);
  assert.match(defaulted.body, /<ram:BusinessProcessSpecifiedDocumentContextParameter>\s*<ram:ID>M1<\/ram:ID>/);
  const bad = await xmlOf({ ...FR_SCENARIOS.uc1_goods, business_process: 'A1' });
  assert.equal(bad.status, 422);
  assert.match(bad.body, /BR-FR-08/);
  const lines = FR_SCENARIOS.uc12_sublines.line_items!;
  const orphan = await xmlOf({
    ...FR_SCENARIOS.uc12_sublines,
    line_items: lines.map((l) => (l.id === '1.1' ? { ...l, parent_line_id: '9' } : l)),
  });
  assert.equal(orphan.status, 422);
  assert.match(orphan.body, /BR-FREXT-11/);
  const unbalanced = await xmlOf({
    ...FR_SCENARIOS.uc12_sublines,
    line_items: lines.map((l) => (l.id === '1' ? { ...l, net_price: '500.00' } : l)),
  });
  assert.equal(unbalanced.status, 400);
  assert.match(unbalanced.body, /BR-FREXT-08/);
});

test('sub-line fields are dropped (and reported) below EXTENDED', async () => {
  const res = await xmlOf({ ...FR_SCENARIOS.uc12_sublines, profile: 'en16931' });
  assert.equal(res.status, 200, res.body);
  assert.match(res.dropped ?? '', /line_items\[\]\.subtype/);
  assert.match(res.dropped ?? '', /line_items\[\]\.parent_line_id/);
  assert.doesNotMatch(res.body, /LineStatusReasonCode/);
});

test('validate: extended_ctc_fr_version picks the release, a bad one is 422', async () => {
  const xml = readFileSync(`${FIXTURES}/invoices/uc1_goods.xml`);
  const ok = multipart([
    { name: 'file', filename: 'i.xml', value: xml, contentType: 'application/xml' },
    { name: 'extended_ctc_fr_version', value: '1.4.0' },
  ]);
  const res = await app.inject({ method: 'POST', url: '/v1/validate', payload: ok.payload, headers: ok.headers });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().rule_set_versions.extended_ctc_fr, '1.4.0');
  const bad = multipart([
    { name: 'file', filename: 'i.xml', value: xml, contentType: 'application/xml' },
    { name: 'extended_ctc_fr_version', value: '1.3' },
  ]);
  const res2 = await app.inject({ method: 'POST', url: '/v1/validate', payload: bad.payload, headers: bad.headers });
  assert.equal(res2.statusCode, 422);
  assert.match(res2.body, /extended_ctc_fr_version/);
});

test('library: validate() of a UC12-like UBL sub-line invoice declaring EXTENDED-CTC-FR', async () => {
  const result = await validateBytes(readFileSync(`${FIXTURES}/invoices/uc12_sublines.xml`), 'uc12.xml', {
    extendedCtcFrVersion: '1.4.0.01',
  });
  assert.equal(result.valid, true);
  assert.equal(result.rule_set_versions.extended_ctc_fr, '1.4.0.01');
});
