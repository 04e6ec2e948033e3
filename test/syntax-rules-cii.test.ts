/**
 * CII syntax binding rules (CII-SR-*, CII-DT-*): every rule fires on a mutated fixture invoice and
 * stays silent on the clean one; the official verdicts agree for the CEN examples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { XmlElement } from '../src/xml/dom.js';
import {
  CII_CUSTOM_RULES,
  CII_TABLE,
  NS_RAM,
  NS_RSM,
  NS_UDT,
  ciiSyntaxRules,
  ciiSyntaxSeverity,
  evaluateCiiSyntax,
} from '../src/syntax/cii/rules.js';
import {
  ensure,
  fixtureVerdicts,
  loadFixture as loadCorpus,
  newElement,
  setAttr,
  steps,
  violateTableRule,
} from './syntax-mutation-helpers.js';

const NS = { rsm: NS_RSM, ram: NS_RAM, udt: NS_UDT };
const s = (p: string) => steps(p, NS);
const BASE = 'cen/examples/cii/CII_business_example_01.xml';

const LI = 'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem';
const HDR = 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTrade';
/** Where to find (or create) one node of each rule context, from the root. */
const CONTEXT_PATH: Record<string, string> = {
  ROOT: '',
  DC: 'rsm:ExchangedDocumentContext',
  DCP: 'rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter',
  ED: 'rsm:ExchangedDocument',
  EDN: 'rsm:ExchangedDocument/ram:IncludedNote',
  LI,
  LDOC: `${LI}/ram:AssociatedDocumentLineDocument`,
  PROD: `${LI}/ram:SpecifiedTradeProduct`,
  PCHAR: `${LI}/ram:SpecifiedTradeProduct/ram:ApplicableProductCharacteristic`,
  LAGR: `${LI}/ram:SpecifiedLineTradeAgreement`,
  GPAC: `${LI}/ram:SpecifiedLineTradeAgreement/ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge`,
  LDEL: `${LI}/ram:SpecifiedLineTradeDelivery`,
  LSET: `${LI}/ram:SpecifiedLineTradeSettlement`,
  CATC: `${LI}/ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:CategoryCode`,
  HAGR: `${HDR}Agreement`,
  HDEL: `${HDR}Delivery`,
  HSET: `${HDR}Settlement`,
  SUM: `${HDR}Settlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation`,
  STAC: `${HDR}Settlement/ram:SpecifiedTradeAllowanceCharge`,
  PM: `${HDR}Settlement/ram:SpecifiedTradeSettlementPaymentMeans`,
  IDX: 'rsm:ExchangedDocument/ram:ID',
  IDANY: `${HDR}Agreement/ram:SellerTradeParty/ram:GlobalID`,
  TCANY: 'rsm:ExchangedDocument/ram:TypeCode',
  TCED: 'rsm:ExchangedDocument/ram:TypeCode',
  REFDOC: `${HDR}Agreement/ram:BuyerOrderReferencedDocument`,
  AMT: `${HDR}Settlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:LineTotalAmount`,
  QTY: `${LI}/ram:SpecifiedLineTradeDelivery/ram:BilledQuantity`,
  TT: `${HDR}Settlement/ram:ApplicableTradeTax`,
  BSP: `${HDR}Settlement/ram:BillingSpecifiedPeriod`,
  PTA: `${HDR}Agreement/ram:SellerTradeParty/ram:PostalTradeAddress`,
  DTS: 'rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString',
};

const fired = (root: XmlElement): Set<string> => {
  let doc = root;
  while (doc.parent) doc = doc.parent;
  return new Set(evaluateCiiSyntax({ root: doc, encoding: 'utf-8', elementCount: 0 }).keys());
};

function mutated(mutate: (root: XmlElement) => void): Set<string> {
  const doc = loadCorpus(BASE);
  mutate(doc.root);
  return fired(doc.root);
}

const at = (root: XmlElement, ctx: string) => ensure(root, s(CONTEXT_PATH[ctx]));
const add = (parent: XmlElement, name: string, text = 'x') => newElement(parent, s(name)[0], text);

test('the clean CEN example fires no CII syntax rule', () => {
  assert.deepEqual([...fired(loadCorpus(BASE).root)], []);
});

test('every table rule fires when its element is added (the shadowed invoice type code rules excepted)', () => {
  const failures: string[] = [];
  for (const rule of CII_TABLE) {
    const ids = mutated((root) => violateTableRule(at(root, rule.context), rule));
    const expectFire = rule.context !== 'TCED';
    if (ids.has(rule.id) !== expectFire) failures.push(`${rule.id} (${rule.context}) fired=${ids.has(rule.id)}`);
  }
  assert.deepEqual(failures, []);
});

test('the invoice type code rules CII-DT-010..012 are shadowed by the rule for all type codes, as in the artefact', () => {
  const ids = mutated((root) => setAttr(at(root, 'TCED'), 'listID', 'UNCL1001'));
  assert.ok(!ids.has('CII-DT-010'));
});

/** Hand-written rules: a mutation that breaks each one. */
const CUSTOM_MUTATIONS: Record<string, (root: XmlElement) => void> = {
  'CII-SR-046': (r) => {
    const prod = at(r, 'PROD');
    add(prod, 'ram:GlobalID', '4000001123452');
    for (const g of prod.children) if (g.local === 'GlobalID') g.attrs = [];
  },
  'CII-SR-090': (r) => {
    const c = ensure(at(r, 'PROD'), s('ram:OriginTradeCountry'));
    add(c, 'ram:ID', 'DE');
    add(c, 'ram:ID', 'FR');
  },
  'CII-SR-119': (r) => {
    const ac = at(r, 'GPAC');
    add(ac, 'ram:ActualAmount', '1.00');
    for (const c of ac.children) if (c.local === 'ChargeIndicator') c.children.forEach((i) => (i.text = 'true'));
  },
  'CII-SR-449': (r) => {
    const p = ensure(at(r, 'HDEL'), s('ram:ShipToTradeParty'));
    add(p, 'ram:ID');
    add(p, 'ram:GlobalID');
  },
  'CII-SR-450': (r) => {
    const p = ensure(at(r, 'HAGR'), s('ram:BuyerTradeParty'));
    add(p, 'ram:ID');
    add(p, 'ram:GlobalID');
  },
  'CII-SR-451': (r) => {
    const p = ensure(at(r, 'HSET'), s('ram:PayeeTradeParty'));
    add(p, 'ram:ID');
    add(p, 'ram:GlobalID');
  },
  'CII-SR-457': (r) => {
    for (let i = 0; i < 2; i++) add(add(at(r, 'HAGR'), 'ram:AdditionalReferencedDocument', ''), 'ram:TypeCode', '50');
  },
  'CII-SR-458': (r) => {
    for (let i = 0; i < 2; i++) add(add(at(r, 'HAGR'), 'ram:AdditionalReferencedDocument', ''), 'ram:TypeCode', '130');
  },
  'CII-SR-462': (r) => {
    add(at(r, 'TT'), 'ram:DueDateTypeCode', '5');
    add(add(at(r, 'HSET'), 'ram:ApplicableTradeTax', ''), 'ram:DueDateTypeCode', '29');
  },
  'CII-SR-463': (r) => add(at(r, 'HSET'), 'ram:SpecifiedTradeAllowanceCharge', ''),
  'CII-SR-465': (r) => {
    const c = ensure(at(r, 'HAGR'), s('ram:SellerTradeParty/ram:DefinedTradeContact'));
    add(c, 'ram:PersonName');
    add(c, 'ram:DepartmentName');
  },
  'CII-SR-466': (r) => {
    const c = ensure(at(r, 'HAGR'), s('ram:BuyerTradeParty/ram:DefinedTradeContact'));
    add(c, 'ram:PersonName');
    add(c, 'ram:DepartmentName');
  },
  'CII-SR-467': (r) => {
    add(add(at(r, 'HSET'), 'ram:SpecifiedTradeSettlementPaymentMeans', ''), 'ram:TypeCode', '30');
    add(add(at(r, 'HSET'), 'ram:SpecifiedTradeSettlementPaymentMeans', ''), 'ram:TypeCode', '58');
  },
  'CII-SR-468': (r) => {
    add(add(at(r, 'HSET'), 'ram:SpecifiedTradeSettlementPaymentMeans', ''), 'ram:Information', 'a');
    add(add(at(r, 'HSET'), 'ram:SpecifiedTradeSettlementPaymentMeans', ''), 'ram:Information', 'b');
  },
  'CII-SR-469': (r) => {
    add(at(r, 'HSET'), 'ram:PaymentReference');
    add(at(r, 'HSET'), 'ram:PaymentReference');
  },
  'CII-SR-470': (r) => add(add(at(r, 'HSET'), 'ram:SpecifiedTradeSettlementPaymentMeans', ''), 'ram:TypeCode', '58'),
  'CII-SR-474': (r) => {
    for (let i = 0; i < 2; i++) add(add(at(r, 'LSET'), 'ram:AdditionalReferencedDocument', ''), 'ram:TypeCode', '130');
  },
  'CII-SR-475': (r) => {
    for (let i = 0; i < 2; i++) {
      const d = add(at(r, 'HAGR'), 'ram:AdditionalReferencedDocument', '');
      add(d, 'ram:TypeCode', '916');
      add(d, 'ram:Name');
    }
  },
  'CII-SR-476': (r) => {
    for (let i = 0; i < 2; i++) {
      const d = add(at(r, 'HAGR'), 'ram:AdditionalReferencedDocument', '');
      add(d, 'ram:TypeCode', '916');
      add(d, 'ram:AttachmentBinaryObject');
    }
  },
  'CII-DT-015': (r) => add(at(r, 'REFDOC'), 'ram:URIID'),
  'CII-DT-018': (r) => add(at(r, 'REFDOC'), 'ram:TypeCode', '50'),
  'CII-DT-021': (r) => add(at(r, 'REFDOC'), 'ram:Name'),
  'CII-DT-022': (r) => add(at(r, 'REFDOC'), 'ram:AttachmentBinaryObject'),
  'CII-DT-024': (r) => add(at(r, 'REFDOC'), 'ram:ReferenceTypeCode'),
  'CII-DT-027': (r) => add(at(r, 'REFDOC'), 'ram:FormattedIssueDateTime'),
  'CII-DT-033': (r) => {
    at(r, 'QTY');
    for (const line of r.children.flatMap((t) => t.children).filter((c) => c.local === 'IncludedSupplyChainTradeLineItem')) {
      const q = ensure(line, s('ram:SpecifiedLineTradeDelivery/ram:BilledQuantity'));
      q.attrs = q.attrs.filter((a) => a.local !== 'unitCode');
    }
    setAttr(ensure(at(r, 'LDEL'), s('ram:ChargeFreeQuantity')), 'unitCode', 'C62');
  },
  'CII-DT-037': (r) => {
    const t = add(at(r, 'TT'), 'ram:TypeCode', 'GST');
    void t;
    for (const c of at(r, 'TT').children) if (c.local === 'TypeCode') c.text = 'GST';
  },
  'CII-DT-041': (r) => add(ensure(at(r, 'LSET'), s('ram:ApplicableTradeTax')), 'ram:BasisAmount', '1'),
  'CII-DT-052': (r) => add(ensure(at(r, 'STAC'), s('ram:CategoryTradeTax')), 'ram:ExemptionReasonCode'),
  'CII-DT-098': (r) => add(ensure(at(r, 'STAC'), s('ram:CategoryTradeTax')), 'ram:ExemptionReason'),
  'CII-DT-054': (r) => add(ensure(at(r, 'LSET'), s('ram:ApplicableTradeTax')), 'ram:TaxPointDate'),
  'CII-DT-058': (r) => add(ensure(at(r, 'LSET'), s('ram:ApplicableTradeTax')), 'ram:DueDateTypeCode', '5'),
  'CII-DT-097': (r) => {
    const d = at(r, 'DTS');
    d.text = '2024-13-01';
    setAttr(d, 'format', '102');
  },
};

test('every hand-written CII rule fires on its mutation', () => {
  const failures: string[] = [];
  for (const rule of CII_CUSTOM_RULES) {
    const mutate = CUSTOM_MUTATIONS[rule.id];
    if (!mutate) {
      failures.push(`${rule.id}: no mutation`);
      continue;
    }
    if (!mutated(mutate).has(rule.id)) failures.push(`${rule.id} did not fire`);
  }
  assert.deepEqual(failures, []);
});

test('conditional rules hold where the artefact allows the element', () => {
  // A supporting document (916) may carry a URI, a name and an attachment; an invoice reference a date.
  const ids = mutated((r) => {
    const d = add(at(r, 'HAGR'), 'ram:AdditionalReferencedDocument', '');
    add(d, 'ram:IssuerAssignedID', 'A1');
    add(d, 'ram:URIID', 'https://example.org/a');
    add(d, 'ram:TypeCode', '916');
    add(d, 'ram:Name', 'Timesheet');
    const inv = add(at(r, 'HSET'), 'ram:InvoiceReferencedDocument', '');
    add(inv, 'ram:IssuerAssignedID', 'INV-1');
    add(inv, 'ram:FormattedIssueDateTime', '');
  });
  for (const id of ['CII-DT-015', 'CII-DT-018', 'CII-DT-021', 'CII-DT-027']) assert.ok(!ids.has(id), id);
  // A valid 102 date passes; the header VAT breakdown may carry its tax point date.
  const ok = mutated((r) => {
    at(r, 'DTS').text = '20240229';
    add(at(r, 'TT'), 'ram:TaxPointDate', '');
  });
  assert.ok(!ok.has('CII-DT-097'));
  assert.ok(!ok.has('CII-DT-054'));
});

test('rules carry the official severity and a message of their own', () => {
  const byId = new Map(ciiSyntaxRules.map((r) => [r.id, r]));
  assert.equal(byId.size, 583);
  assert.equal(byId.get('CII-SR-001')?.severity, 'warning');
  assert.equal(byId.get('CII-SR-009')?.severity, 'error');
  assert.equal(byId.get('CII-DT-097')?.severity, 'error');
  assert.equal(byId.get('CII-DT-038')?.severity, 'warning');
  assert.equal(ciiSyntaxSeverity('CII-SR-470'), 'error');
  for (const r of ciiSyntaxRules) assert.ok(r.message.length > 10 && !r.message.startsWith('[CII'), r.id);
});

test('Rule.check reports the context element as location, through the shared engine context', () => {
  const doc = loadCorpus(BASE);
  newElement(ensure(doc.root, s(CONTEXT_PATH.ED)), s('ram:CopyIndicator')[0], 'x');
  const rule = ciiSyntaxRules.find((r) => r.id === 'CII-SR-016')!;
  const v = rule.check({ doc, syntax: 'cii', invoice: {} as never });
  assert.equal(v.length, 1);
  assert.match(v[0].location ?? '', /ExchangedDocument\[1\]$/);
  assert.deepEqual(rule.check({ doc, syntax: 'ubl', invoice: {} as never }), []);
});

test('CEN CII examples: syntax-rule ids equal the official verdicts', () => {
  let checked = 0;
  for (const v of fixtureVerdicts()) {
    if (!v.file.startsWith('cen/examples/cii/')) continue;
    const expected = [...v.errors, ...v.warnings].filter((x) => x.ruleset === 'en16931-cii' && /^CII-(SR|DT)-/.test(x.id)).map((x) => x.id);
    assert.deepEqual([...fired(loadCorpus(v.file).root)].sort(), [...new Set(expected)].sort(), v.file);
    checked++;
  }
  assert.ok(checked >= 10);
});
