/**
 * UBL syntax binding rules (UBL-SR-*, UBL-CR-*, UBL-DT-*): every rule fires on a mutated fixture
 * invoice and stays silent on the clean one; the CEN unit tests and examples agree with the verdicts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { XmlElement } from '../src/xml/dom.js';
import { NS_CAC, NS_CBC, UBL_CUSTOM_RULES, UBL_TABLE, evaluateUblSyntax, ublSyntaxRules } from '../src/syntax/ubl/rules.js';
import { MAX_FINDINGS_PER_RULE } from '../src/rules/report-bounds.js';
import {
  ensure,
  fixtureVerdicts,
  loadFixture as loadCorpus,
  newElement,
  setAttr,
  steps,
  violateTableRule,
} from './syntax-mutation-helpers.js';

const NS = { cac: NS_CAC, cbc: NS_CBC };
const s = (p: string) => steps(p, NS);
const BASE = 'cen/examples/ubl/ubl-tc434-example1.xml';

const CONTEXT_PATH: Record<string, string> = {
  ROOT: '',
  LINE: 'cac:InvoiceLine',
  PTS: 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme',
  BREF: 'cac:BillingReference',
  PAYEE: 'cac:PayeeParty',
  TAXREP: 'cac:TaxRepresentativeParty',
  DELIV: 'cac:Delivery',
  PM: 'cac:PaymentMeans',
  TSUB: 'cac:TaxTotal/cac:TaxSubtotal',
  ADR: 'cac:AdditionalDocumentReference',
  ASPP: 'cac:AccountingSupplierParty/cac:Party',
  ADDR: 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress',
  AMT: 'cac:LegalMonetaryTotal/cbc:PayableAmount',
  BIN: 'cac:AdditionalDocumentReference/cac:Attachment/cbc:EmbeddedDocumentBinaryObject',
};

function fired(root: XmlElement): Set<string> {
  return new Set(evaluateUblSyntax({ root, encoding: 'utf-8', elementCount: 0 }).keys());
}

function mutated(mutate: (root: XmlElement) => void, base = BASE): Set<string> {
  const doc = loadCorpus(base);
  mutate(doc.root);
  return fired(doc.root);
}

const add = (parent: XmlElement, name: string, text = 'x') => newElement(parent, s(name)[0], text);
/** A fresh document-level allowance (false) or charge (true). */
const allowanceCharge = (root: XmlElement, charge: boolean) => {
  const ac = add(root, 'cac:AllowanceCharge', '');
  add(ac, 'cbc:ChargeIndicator', String(charge));
  return ac;
};
function at(root: XmlElement, ctx: string): XmlElement {
  if (ctx === 'ACF') return allowanceCharge(root, false);
  if (ctx === 'ACT') return allowanceCharge(root, true);
  return ensure(root, s(CONTEXT_PATH[ctx]));
}

test('the clean CEN example fires no UBL syntax rule', () => {
  assert.deepEqual([...fired(loadCorpus(BASE).root)], []);
});

test('every table rule fires when its element is added', () => {
  const failures: string[] = [];
  for (const rule of UBL_TABLE) {
    const ids = mutated((root) => violateTableRule(at(root, rule.context), rule));
    if (!ids.has(rule.id)) failures.push(`${rule.id} (${rule.context})`);
  }
  assert.deepEqual(failures, []);
});

const pts = (party: XmlElement, scheme: string | null, companyId: string | null) => {
  const p = add(party, 'cac:PartyTaxScheme', '');
  if (companyId !== null) add(p, 'cbc:CompanyID', companyId);
  if (scheme !== null) add(add(p, 'cac:TaxScheme', ''), 'cbc:ID', scheme);
  return p;
};
const adr = (root: XmlElement, typeCode: string | null, id = 'D1') => {
  const d = add(root, 'cac:AdditionalDocumentReference', '');
  add(d, 'cbc:ID', id);
  if (typeCode !== null) add(d, 'cbc:DocumentTypeCode', typeCode);
  return d;
};
const means = (root: XmlElement, code: string, paymentId?: string) => {
  const m = add(root, 'cac:PaymentMeans', '');
  add(m, 'cbc:PaymentMeansCode', code);
  if (paymentId) add(m, 'cbc:PaymentID', paymentId);
  return m;
};

const CUSTOM_MUTATIONS: Record<string, (root: XmlElement) => void> = {
  'UBL-SR-04': (r) => {
    adr(r, '130', 'A');
    adr(r, '130', 'B');
  },
  'UBL-SR-07': (r) => add(add(r, 'cac:BillingReference', ''), 'cac:InvoiceDocumentReference', ''),
  'UBL-SR-12': (r) => {
    const p = at(r, 'ASPP');
    pts(p, 'VAT', 'DE1');
    pts(p, 'vat', 'DE2');
  },
  'UBL-SR-13': (r) => {
    const p = at(r, 'ASPP');
    pts(p, 'FC', '1');
    pts(p, 'LOC', '2');
  },
  'UBL-SR-18': (r) => {
    const p = ensure(r, s('cac:AccountingCustomerParty/cac:Party'));
    pts(p, 'VAT', 'FR1');
    pts(p, 'VAT', 'FR2');
  },
  'UBL-SR-19': (r) => {
    const p = add(r, 'cac:PayeeParty', '');
    add(add(p, 'cac:PartyName', ''), 'cbc:Name', 'A');
    add(add(p, 'cac:PartyName', ''), 'cbc:Name', 'B');
  },
  'UBL-SR-20': (r) => {
    const p = add(r, 'cac:PayeeParty', '');
    add(add(p, 'cac:PartyIdentification', ''), 'cbc:ID', '1');
    add(add(p, 'cac:PartyIdentification', ''), 'cbc:ID', '2');
  },
  'UBL-SR-21': (r) => {
    const p = add(r, 'cac:PayeeParty', '');
    const le = add(p, 'cac:PartyLegalEntity', '');
    add(le, 'cbc:CompanyID', '1');
    add(le, 'cbc:CompanyID', '2');
  },
  'UBL-SR-29': (r) => {
    for (const v of ['A', 'B']) setAttr(add(add(at(r, 'ASPP'), 'cac:PartyIdentification', ''), 'cbc:ID', v), 'schemeID', 'SEPA');
  },
  'UBL-SR-43': (r) => setAttr(adr(r, null).children[0], 'schemeID', 'ABT'),
  'UBL-SR-44': (r) => {
    means(r, '30', 'REF-1');
    means(r, '30', 'REF-2');
  },
  'UBL-SR-47': (r) => {
    means(r, '30');
    means(r, '58');
  },
  'UBL-SR-53': (r) => pts(at(r, 'ASPP'), null, 'DE123'),
  'UBL-DT-01': (r) => {
    at(r, 'AMT').text = '10.123';
  },
  'UBL-DT-06': (r) => {
    const b = at(r, 'BIN');
    b.attrs = b.attrs.filter((a) => a.local !== 'mimeCode');
  },
  'UBL-DT-07': (r) => {
    const b = at(r, 'BIN');
    b.attrs = b.attrs.filter((a) => a.local !== 'filename');
  },
  'UBL-DT-18': (r) => setAttr(ensure(r, s('cbc:InvoiceTypeCode')), 'name', 'Invoice'),
  'UBL-CR-002': (r) => {
    ensure(r, s('cbc:UBLVersionID')).text = '2.2';
  },
  'UBL-CR-412': (r) => add(means(r, '30'), 'cbc:PaymentDueDate', '2024-01-31'),
  'UBL-CR-665': (r) => setAttr(adr(r, null).children[0], 'schemeID', 'ABT'),
  'UBL-CR-666': (r) => add(adr(r, '130'), 'cac:Attachment', ''),
  'UBL-CR-673': (r) => add(adr(r, '130'), 'cbc:DocumentDescription', 'object'),
};

test('every hand-written UBL rule fires on its mutation', () => {
  const failures: string[] = [];
  for (const rule of UBL_CUSTOM_RULES) {
    const mutate = CUSTOM_MUTATIONS[rule.id];
    if (!mutate) failures.push(`${rule.id}: no mutation`);
    else if (!mutated(mutate).has(rule.id)) failures.push(`${rule.id} did not fire`);
  }
  assert.deepEqual(failures, []);
});

test('table rules fire on the element as UBL writes it, not only as the table names it (official XSLT verdicts)', () => {
  // Both were once read at a path no UBL invoice has (`TaxRepresentativeParty/Party/PartyTaxScheme`,
  // `PrimaryAccountNumber`); FNFE-MPE's XSLT fires them on these shapes (extended-ctc-fr mutations UBL-SR-23#6575,
  // UBL-CR-674#hand-ubl).
  const rep = mutated((r) => {
    const t = add(r, 'cac:TaxRepresentativeParty', '');
    pts(t, 'VAT', 'FR1');
    pts(t, 'VAT', 'FR2');
  });
  assert.ok(rep.has('UBL-SR-23'), [...rep].join(' '));
  const card = mutated((r) => {
    const c = add(means(r, '48'), 'cac:CardAccount', '');
    setAttr(add(c, 'cbc:PrimaryAccountNumberID', '1234'), 'schemeID', 'X');
    add(c, 'cbc:NetworkID', 'VISA');
  });
  assert.ok(card.has('UBL-CR-674'), [...card].join(' '));
});

test('conditional UBL rules hold where the artefact allows', () => {
  const ids = mutated((r) => {
    ensure(r, s('cbc:UBLVersionID')).text = '2.1';
    const d = adr(r, '130');
    setAttr(d.children[0], 'schemeID', 'ABT'); // invoiced object identifier may carry a scheme
    means(r, '30', 'SAME');
    means(r, '30', 'SAME');
    for (const m of r.children.filter((c) => c.local === 'PaymentMeans')) {
      for (const c of m.children)
        if (c.local === 'PaymentID') c.text = 'SAME';
        else if (c.local === 'PaymentMeansCode') c.text = '30';
    }
    setAttr(ensure(r, s('cac:PaymentMeans/cbc:PaymentMeansCode')), 'name', 'Credit transfer');
    at(r, 'AMT').text = '10.5';
  });
  for (const id of ['UBL-CR-002', 'UBL-SR-43', 'UBL-CR-665', 'UBL-SR-44', 'UBL-SR-47', 'UBL-DT-18', 'UBL-DT-01'])
    assert.ok(!ids.has(id), id);
  // A payment due date in the payment means is the credit note's own way of stating it.
  const cn = mutated((r) => add(means(r, '30'), 'cbc:PaymentDueDate', '2024-01-31'), 'cen/examples/ubl/ubl-tc434-creditnote1.xml');
  assert.ok(!cn.has('UBL-CR-412'));
});

test('a rule firing on thousands of elements: every occurrence counted, only those a report lists located', () => {
  const doc = loadCorpus(BASE);
  const total = MAX_FINDINGS_PER_RULE + 25;
  for (let i = 0; i < total; i++) newElement(doc.root, s('cac:Delivery')[0], '');
  const r24 = evaluateUblSyntax(doc).get('UBL-SR-24'); // one firing: the root context
  assert.equal(r24?.length, 1);
  // UBL-SR-25 is on every cac:Delivery: give each two deliver-to names.
  for (const d of doc.root.children.filter((c) => c.local === 'Delivery')) {
    const party = add(d, 'cac:DeliveryParty', '');
    add(add(party, 'cac:PartyName', ''), 'cbc:Name', 'a');
    add(add(party, 'cac:PartyName', ''), 'cbc:Name', 'b');
  }
  const r25 = evaluateUblSyntax(doc).get('UBL-SR-25')!;
  assert.equal(r25.length, doc.root.children.filter((c) => c.local === 'Delivery').length);
  assert.ok(r25.slice(0, MAX_FINDINGS_PER_RULE).every((v) => v.location !== undefined));
  // The rest have no path (the report counts them in a summary entry: report-bounds.ts).
  assert.ok(r25.slice(MAX_FINDINGS_PER_RULE).every((v) => v.location === undefined));
  assert.ok(r25.length > MAX_FINDINGS_PER_RULE);
});

test('rules carry the official severity and a message of their own', () => {
  const byId = new Map(ublSyntaxRules.map((r) => [r.id, r]));
  assert.equal(byId.size, 756);
  assert.equal(byId.get('UBL-CR-001')?.severity, 'warning');
  assert.equal(byId.get('UBL-CR-666')?.severity, 'error');
  assert.equal(byId.get('UBL-SR-01')?.severity, 'error');
  assert.equal(byId.get('UBL-DT-08')?.severity, 'warning');
  for (const r of ublSyntaxRules) assert.ok(r.message.length > 10 && !r.message.startsWith('[UBL'), r.id);
});

test('CEN UBL examples and unit tests among the fixtures: syntax-rule ids equal the official verdicts', () => {
  let checked = 0;
  let withFindings = 0;
  for (const v of fixtureVerdicts()) {
    if (!v.file.startsWith('cen/') || !v.rulesets.includes('en16931-ubl')) continue;
    const expected = new Set(
      [...v.errors, ...v.warnings].filter((x) => x.ruleset === 'en16931-ubl' && /^UBL-(SR|CR|DT)-/.test(x.id)).map((x) => x.id),
    );
    const found = fired(loadCorpus(v.file).root);
    assert.deepEqual([...found].sort(), [...expected].sort(), v.file);
    checked++;
    if (expected.size) withFindings++;
  }
  // The whole CEN set (over 1,000 files) is compared in test/conformance/syntax-rules-corpus.test.ts.
  assert.ok(checked >= 10 && withFindings >= 3, `${checked} files, ${withFindings} with syntax findings`);
});
