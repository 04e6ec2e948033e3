/**
 * Factur-X profile rule sets (fx-minimum, fx-basicwl, fx-basic, fx-en16931, fx-extended).
 *
 * - Data-driven rules (profile code lists FX-SCH-A-*, "not used in this profile" reports FX-NU-*):
 *   for every rule and every context it covers, a minimal CII document is synthesised from the
 *   context path; the rule must hold on it (valid code / element absent) and fire once it is made
 *   invalid (unknown code / element or attribute present).
 * - Hand-written rules (structural FX-SCH-A asserts, profile versions, BR-FXEXT-*-08): a passing and
 *   a failing case each, on official examples or small documents.
 * - Registration: severities follow the catalogue; the EN 16931 rules a profile carries run under it.
 */
import assert from 'node:assert/strict';
import { buildInvoiceXml } from '../src/metadata/index.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { readFixture } from './fixtures.js';
import { describe, test } from 'node:test';
import { ingest } from '../src/input/ingest.js';
import { emptyInvoice } from '../src/model/invoice.js';
import { CODELISTS } from '../src/rules/data/codelists.js';
import { getRuleSet, ruleSetIds, runRuleSet } from '../src/rules/engine.js';
import { FX_CATALOGUE, FX_STRUCTURE_CONTEXTS } from '../src/rules/facturx/catalogue.data.js';
import { buildProfileRules, FX_PROFILES } from '../src/rules/facturx/index.js';
import { structureTests } from '../src/rules/facturx/structure.table.js';
import type { Rule } from '../src/rules/types.js';
import { parseXml } from '../src/xml/dom.js';

const NS =
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100" xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100"';

function rule(set: string, id: string): Rule {
  const r = getRuleSet(set)!.find((x) => x.id === id);
  assert.ok(r !== undefined, `${set} has no rule ${id}`);
  return r;
}

const contextOf = (id: string): string => FX_STRUCTURE_CONTEXTS[id];

function firingsOnXml(set: string, id: string, xml: string): number {
  const doc = parseXml(xml);
  return rule(set, id).check({ doc, invoice: emptyInvoice(), syntax: 'cii' }).length;
}

// ---------------------------------------------------------------------------------------------
// Synthesising a document from a rule context

interface Node {
  name: string;
  attrs: Record<string, string>;
  text?: string;
  children: Node[];
  parent?: Node;
  /** An attribute whose value the context ties to another element's value (`@a=../../ram:X`). */
  tied?: { attr: string; to: Node };
}

function splitSteps(path: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of path) {
    if (ch === '[') depth++;
    if (ch === ']') depth--;
    if (ch === '/' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

function childPath(parent: Node, names: string[]): Node {
  let n = parent;
  for (const name of names) {
    if (name === '..') {
      n = n.parent!;
      continue;
    }
    let c = n.children.find((x) => x.name === name);
    if (!c) n.children.push((c = { name, attrs: {}, children: [], parent: n }));
    n = c;
  }
  return n;
}

/** Apply a predicate to the node; false when the predicate form is not supported. */
function applyPredicate(node: Node, pred: string): boolean {
  const p = pred.trim();
  // "@x present and not equal to v" (the profile's reports on reason codes of another list).
  const present = /not\s*\(\s*not\s*\(\s*@([\w-]+)\s*\)\s*\)/.exec(p);
  if (present) return ((node.attrs[present[1]] = 'ZZZ'), true);
  if (/^not\s*\(/.test(p) && !/\)\s*(and|or)\s/.test(p)) return true; // satisfied by absence
  if (/^\s*not\(.*\)\s+and\s+not\(.*\)\s*$/.test(p)) return true;
  const tied = /^@([\w-]+)\s*=\s*((?:\.\.\/)+[\w:]+|\/rsm:CrossIndustryInvoice(?:\/[\w:]+)+)$/.exec(p);
  if (tied) {
    let top = node;
    while (top.parent) top = top.parent;
    const to = tied[2].startsWith('/') ? childPath(top, tied[2].split('/').slice(2)) : childPath(node, tied[2].split('/'));
    node.attrs[tied[1]] = to.text = 'EUR';
    node.tied = { attr: tied[1], to };
    return true;
  }
  let m = /^@([\w-]+)\s*=\s*["']([^"']*)["']$/.exec(p);
  if (m) return ((node.attrs[m[1]] = m[2]), true);
  m = /^\.\s*=\s*["']([^"']*)["']$/.exec(p);
  if (m) return ((node.text = m[1]), true);
  m = /^upper-case\(([\w:]+)\)\s*=\s*["']([^"']*)["']$/.exec(p);
  if (m) return ((childPath(node, [m[1]]).text = m[2]), true);
  m = /^([\w:]+(?:\/[\w:]+)*)(?:\/@([\w-]+))?\s*=\s*["']([^"']*)["']$/.exec(p);
  if (m) {
    const target = childPath(node, m[1].split('/'));
    if (m[2]) target.attrs[m[2]] = m[3];
    else target.text = m[3];
    return true;
  }
  return false;
}

/** Build the element chain a context describes; returns the root and the context element, or undefined. */
function synthesise(context: string): { root: Node; leaf: Node; fixedText: boolean } | undefined {
  let p = context.split(' | ')[0].trim();
  if (p.includes('$') || p.includes('*')) return undefined;
  if (p.startsWith('//'))
    p = p.startsWith('//rsm:CrossIndustryInvoice')
      ? p.slice(1)
      : '/rsm:CrossIndustryInvoice/' + p.slice(2).replace(/^rsm:CrossIndustryInvoice\//, '');
  if (!p.startsWith('/rsm:CrossIndustryInvoice')) return undefined;
  const steps = splitSteps(p.slice(1));
  const root: Node = { name: 'rsm:CrossIndustryInvoice', attrs: {}, children: [] };
  let node = root;
  let fixedText = false;
  for (let i = 0; i < steps.length; i++) {
    const m = /^([\w:]+)((?:\[.*\])*)$/.exec(steps[i]);
    if (!m) return undefined;
    if (i > 0) node = childPath(node, [m[1]]);
    else if (m[1] !== 'rsm:CrossIndustryInvoice') return undefined;
    for (const pm of m[2].matchAll(/\[((?:[^[\]]|\[[^\]]*\])*)\]/g)) {
      if (!applyPredicate(node, pm[1])) return undefined;
      if (/^\.\s*=/.test(pm[1].trim())) fixedText = true;
    }
  }
  // A predicate may also have given the context element its text (e.g. …[ram:TypeCode="130"]/ram:TypeCode).
  return { root, leaf: node, fixedText: fixedText || node.text !== undefined };
}

function render(n: Node, top = true): string {
  const attrs = Object.entries(n.attrs)
    .map(([k, v]) => ` ${k}="${v.replace(/"/g, '&quot;')}"`)
    .join('');
  const ns = top ? ` ${NS}` : '';
  const inner = (n.text ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;') + n.children.map((c) => render(c, false)).join('');
  return `<${n.name}${ns}${attrs}>${inner}</${n.name}>`;
}

function withLeaf(s: { root: Node; leaf: Node }, edit: (leaf: Node) => void): string {
  // Edit a copy: find the leaf again by path identity in the clone.
  const mapping = new Map<Node, Node>();
  const copy = (n: Node): Node => {
    const c: Node = { name: n.name, attrs: { ...n.attrs }, text: n.text, children: n.children.map(copy) };
    for (const child of c.children) child.parent = c;
    mapping.set(n, c);
    return c;
  };
  const root = copy(s.root);
  for (const [orig, c] of mapping) if (orig.tied) c.tied = { attr: orig.tied.attr, to: mapping.get(orig.tied.to)! };
  edit(mapping.get(s.leaf)!);
  return render(root);
}

// ---------------------------------------------------------------------------------------------

describe('profile code lists (FX-SCH-A, data)', () => {
  for (const set of FX_PROFILES) {
    test(`${set}: every code-list assert accepts a listed code and rejects an unknown one`, () => {
      let checked = 0;
      const skipped: string[] = [];
      for (const [id, entry] of Object.entries(CODELISTS[set])) {
        if (!id.startsWith('FX-SCH-A-') || !entry.context || !entry.target || !entry.guarded) continue;
        const s = synthesise(entry.context);
        if (!s || (s.fixedText && entry.target === '.')) {
          skipped.push(id);
          continue;
        }
        const setValue = (leaf: Node, v: string) => {
          if (entry.target === '.') leaf.text = v;
          else if (entry.target!.startsWith('@')) {
            leaf.attrs[entry.target!.slice(1)] = v;
            // A context that ties the attribute to another element keeps matching only if both change.
            if (leaf.tied?.attr === entry.target!.slice(1)) leaf.tied.to.text = v;
          } else childPath(leaf, entry.target!.split('/')).text = v;
        };
        const valid = entry.codes[0];
        assert.equal(
          firingsOnXml(
            set,
            id,
            withLeaf(s, (l) => setValue(l, valid)),
          ),
          0,
          `${id}: ${valid} must be accepted`,
        );
        assert.equal(
          firingsOnXml(
            set,
            id,
            withLeaf(s, (l) => setValue(l, 'NOT-A-CODE')),
          ),
          1,
          `${id}: an unknown code must be rejected`,
        );
        assert.equal(
          firingsOnXml(
            set,
            id,
            withLeaf(s, (l) => setValue(l, '')),
          ),
          0,
          `${id}: an empty value is accepted (the list applies to given values)`,
        );
        checked++;
      }
      assert.ok(checked > 0, 'no code-list assert was checked');
      // A context whose predicate fixes the tested value to the only listed code (…[ram:TypeCode="130"]/
      // ram:TypeCode with the list {130}) can never see another value: such asserts cannot fail.
      const unfailable = skipped.filter((id) => {
        const e = CODELISTS[set][id];
        return e.codes.length === 1 && e.context!.includes(`="${e.codes[0]}"]/`);
      });
      assert.deepEqual(
        skipped.filter((id) => !unfailable.includes(id)),
        [],
        `${set}: code-list asserts without a synthesised case`,
      );
    });
  }
});

describe('"not used in this profile" reports (FX-NU, data)', () => {
  for (const set of FX_PROFILES) {
    test(`${set}: each report fires where its element (or attribute) occurs, and not otherwise`, () => {
      let checked = 0;
      const skipped: string[] = [];
      for (const report of FX_CATALOGUE[set].notUsed) {
        for (const context of report.contexts) {
          const s = synthesise(context);
          if (!s) {
            skipped.push(`${report.id} ${context}`);
            continue;
          }
          if (report.attribute) {
            assert.equal(
              firingsOnXml(
                set,
                report.id,
                withLeaf(s, () => {}),
              ),
              0,
              `${report.id} ${context}: no @${report.attribute}, no finding`,
            );
            // A context that requires the attribute's absence (…/ram:ReasonCode[not (@listID)] with the
            // report on @listID) can never see it: the official report cannot fire there.
            const excluded = new RegExp(`\\[not \\(@${report.attribute}\\)\\]$`).test(context);
            const withAttribute = firingsOnXml(
              set,
              report.id,
              withLeaf(s, (l) => (l.attrs[report.attribute!] = 'X')),
            );
            if (excluded) assert.equal(withAttribute, 0, `${report.id} ${context}: the context excludes @${report.attribute}`);
            else assert.ok(withAttribute >= 1, `${report.id} ${context}: @${report.attribute} must be reported`);
          } else {
            const without = render(removeLeaf(s.root, s.leaf));
            assert.equal(firingsOnXml(set, report.id, without), 0, `${report.id} ${context}: element absent, no finding`);
            assert.ok(firingsOnXml(set, report.id, render(s.root)) >= 1, `${report.id} ${context}: element present must be reported`);
          }
          checked++;
        }
      }
      assert.ok(checked > 0, 'no report was checked');
      assert.deepEqual(
        skipped.filter((s) => !s.includes('(')),
        [],
        'contexts without a synthesised case',
      );
    });
  }
});

describe('structural asserts (FX-SCH-A, data)', () => {
  const tests = structureTests();
  /** A child as the test names it (`ram:X` or `ram:X[predicate]`), built under `parent`. */
  const addChild = (parent: Node, spec: string): void => {
    const m = /^([\w:]+)(?:\[(.*)\])?$/.exec(spec)!;
    const c: Node = { name: m[1], attrs: {}, children: [], parent, text: 'x' };
    parent.children.push(c);
    if (m[2]) assert.ok(applyPredicate(c, m[2]), `unsupported predicate ${m[2]}`);
  };
  const nameOf = (spec: string) => spec.replace(/\[.*$/, '');
  for (const set of FX_PROFILES) {
    test(`${set}: each structural assert holds on a synthesised document and fires once it is broken`, () => {
      let checked = 0;
      const skipped: string[] = [];
      for (const [id, t] of tests) {
        if (!(id in FX_CATALOGUE[set].asserts)) continue;
        const s = synthesise(contextOf(id));
        if (!s) {
          skipped.push(id);
          continue;
        }
        const sameName = (leaf: Node) =>
          t.kind === 'count' && !t.child.includes('[') ? leaf.children.filter((c) => c.name === nameOf(t.child)).length : 0;
        const withCount = (n: number) =>
          withLeaf(s, (leaf) => {
            if (t.kind !== 'count') return;
            for (let i = sameName(leaf); i < n; i++) addChild(leaf, t.child);
          });
        let pass: string;
        let fail: string;
        if (t.kind === 'attr' && s.leaf.attrs[t.name] !== undefined) {
          // The context's predicate sits on the parent (…[ram:ID/@schemeID="FC"]/ram:ID): a second ID
          // without the attribute under the same registration matches the context and breaks the assert.
          pass = withLeaf(s, () => {});
          fail = withLeaf(s, (leaf) =>
            leaf.parent!.children.push({ name: leaf.name, attrs: {}, children: [], text: 'x', parent: leaf.parent }),
          );
        } else if (t.kind === 'attr') {
          pass = withLeaf(s, (leaf) => (leaf.attrs[t.name] = 'x'));
          fail = withLeaf(s, (leaf) => delete leaf.attrs[t.name]);
        } else if (t.op === '<=') {
          pass = withCount(t.n);
          fail = withCount(t.n + 1);
        } else if (t.op === '=') {
          pass = withCount(t.n);
          fail = withCount(t.n + 1);
        } else {
          pass = withCount(t.n);
          fail = withLeaf(s, (leaf) => (leaf.children = leaf.children.filter((c) => c.name !== nameOf(t.child))));
        }
        assert.equal(firingsOnXml(set, id, pass), 0, `${id} (${contextOf(id)}): must hold`);
        assert.equal(firingsOnXml(set, id, fail), 1, `${id} (${contextOf(id)}): must fire once`);
        checked++;
      }
      assert.ok(checked > 0, 'no structural assert was checked');
      assert.deepEqual(skipped, [], `${set}: structural asserts without a synthesised case`);
    });
  }
});

function removeLeaf(root: Node, leaf: Node): Node {
  const copy = (n: Node): Node => ({ ...n, attrs: { ...n.attrs }, children: n.children.filter((c) => c !== leaf).map(copy) });
  return copy(root);
}

// ---------------------------------------------------------------------------------------------
// Hand-written rules, on official examples

/** The base of the hand-written cases: the writer's EN16931 invoice (a German domestic sale at 19 %). */
const EN16931_BASE_XML = (() => {
  const meta = {
    ...structuredClone(DOMESTIC_EXAMPLE),
    invoice_number: '471102',
    invoice_date: '2018-03-05',
    due_date: '2018-04-04',
    profile: 'en16931' as const,
  };
  meta.seller.name = 'Lieferant GmbH';
  return buildInvoiceXml(meta).xml;
})();

function sub(xml: string, pattern: string | RegExp, replacement: string): string {
  const hit = typeof pattern === 'string' ? xml.includes(pattern) : new RegExp(pattern.source).test(xml);
  // (assert.ok always gets a message here: without one node re-reads the source to describe the expression)
  if (!hit) throw new Error(`edit does not apply: ${pattern}`);
  return xml.replace(pattern, replacement);
}

async function firings(set: string, id: string, xml: string): Promise<number> {
  const ing = await ingest(Buffer.from(xml, 'utf8'), 'case.xml');
  assert.ok(ing.doc && ing.invoice, 'the case must be a readable invoice');
  return runRuleSet(set, { doc: ing.doc, invoice: ing.invoice, syntax: 'cii' }).filter((f) => f.ruleId === id).length;
}

interface Case {
  id: string;
  set: string;
  fail: (xml: string) => string;
}

const STRUCTURE_CASES: Case[] = [
  { id: 'FX-SCH-A-000019', set: 'fx-en16931', fail: (x) => sub(x, '<ram:ID>471102</ram:ID>', '') },
  { id: 'FX-SCH-A-000020', set: 'fx-en16931', fail: (x) => sub(x, '<ram:TypeCode>380</ram:TypeCode>', '') },
  {
    id: 'FX-SCH-A-000021',
    set: 'fx-en16931',
    fail: (x) =>
      sub(x, /<udt:DateTimeString format="102">20180305<\/udt:DateTimeString>/, '<udt:DateTimeString>20180305</udt:DateTimeString>'),
  },
  { id: 'FX-SCH-A-000028', set: 'fx-en16931', fail: (x) => sub(x, /<ram:BuyerTradeParty>[\s\S]*?<\/ram:BuyerTradeParty>/, '') },
  { id: 'FX-SCH-A-000038', set: 'fx-en16931', fail: (x) => sub(x, '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>', '') },
  {
    id: 'FX-SCH-A-000278',
    set: 'fx-en16931',
    fail: (x) =>
      sub(
        x,
        /<ram:ApplicableTradeTax>\s*<ram:TypeCode>VAT<\/ram:TypeCode>\s*<ram:CategoryCode>S<\/ram:CategoryCode>\s*<ram:RateApplicablePercent>19(?:\.00)?<\/ram:RateApplicablePercent>\s*<\/ram:ApplicableTradeTax>/,
        '',
      ),
  },
  { id: 'FX-SCH-A-000409', set: 'fx-en16931', fail: (x) => sub(x, '<ram:Name>Lieferant GmbH</ram:Name>', '') },
  {
    id: 'FX-SCH-A-000616',
    set: 'fx-en16931',
    fail: (x) =>
      sub(
        x,
        /<ram:SpecifiedTradeSettlementLineMonetarySummation>/,
        '<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>OBJ-1</ram:IssuerAssignedID></ram:AdditionalReferencedDocument>$&',
      ),
  },
  {
    id: 'CII-SR-470',
    set: 'fx-en16931',
    fail: (x) =>
      sub(x, '</ram:SpecifiedTradeSettlementHeaderMonetarySummation>', '$&') &&
      addPayment(x, '<ram:IBANID>DE02120300000000202051</ram:IBANID><ram:ProprietaryID>4711</ram:ProprietaryID>'),
  },
  {
    id: 'BR-CO-25',
    set: 'fx-extended',
    fail: (x) => sub(x, /<ram:SpecifiedTradePaymentTerms>[\s\S]*?<\/ram:SpecifiedTradePaymentTerms>/, ''),
  },
];

function addPayment(x: string, account: string): string {
  return sub(
    x,
    '<ram:ApplicableTradeTax>',
    `<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount>${account}</ram:PayeePartyCreditorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans><ram:ApplicableTradeTax>`,
  );
}

describe('structural asserts and profile versions of EN 16931 rules', () => {
  for (const c of STRUCTURE_CASES) {
    test(`${c.set} ${c.id}: holds on the writer's invoice, fires on the edited one`, async () => {
      let base = EN16931_BASE_XML;
      if (c.id === 'CII-SR-470') base = addPayment(base, '<ram:IBANID>DE02120300000000202051</ram:IBANID>');
      assert.equal(await firings(c.set, c.id, base), 0, 'must hold on the example');
      assert.ok((await firings(c.set, c.id, c.fail(base))) > 0, 'must fire on the edited example');
    });
  }
});

// ---------------------------------------------------------------------------------------------
// EXTENDED: BR-FXEXT-<cat>-08b / -08ini / -08rev on small documents

const CATS: [string, string][] = [
  ['S', 'S'],
  ['Z', 'Z'],
  ['E', 'E'],
  ['AE', 'AE'],
  ['IC', 'K'],
  ['G', 'G'],
  ['O', 'O'],
  ['AF', 'L'],
  ['AG', 'M'],
];

function extendedDoc(code: string, basis: string, lineReason: string, breakdownReason: string): string {
  const rate = code === 'O' ? '' : '<ram:RateApplicablePercent>10</ram:RateApplicablePercent>';
  const reason = (r: string) => (r ? `<ram:ExemptionReason>${r}</ram:ExemptionReason>` : '');
  return `<rsm:CrossIndustryInvoice ${NS}><rsm:SupplyChainTradeTransaction>
    <ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID><ram:LineStatusReasonCode>DETAIL</ram:LineStatusReasonCode></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode>${reason(lineReason)}<ram:CategoryCode>${code}</ram:CategoryCode>${rate}</ram:ApplicableTradeTax>
      <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>100.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>
    <ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>G</ram:LineID><ram:LineStatusReasonCode>GROUP</ram:LineStatusReasonCode></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${code}</ram:CategoryCode>${rate}</ram:ApplicableTradeTax>
      <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>100.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>
    <ram:ApplicableHeaderTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode>${reason(breakdownReason)}<ram:BasisAmount>${basis}</ram:BasisAmount><ram:CategoryCode>${code}</ram:CategoryCode>${rate}</ram:ApplicableTradeTax></ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`;
}

describe('EXTENDED VAT breakdown rules (BR-FXEXT-*-08)', () => {
  for (const [name, code] of CATS) {
    const b = name === 'S' ? 'BR-FXEXT-S08b' : `BR-FXEXT-${name}-08b`;
    test(`${b}: the taxable amount must match the DETAIL lines (group lines do not count)`, () => {
      assert.equal(firingsOnXml('fx-extended', b, extendedDoc(code, '100.00', '', '')), 0);
      assert.equal(firingsOnXml('fx-extended', b, extendedDoc(code, '100.01', '', '')), 0, 'within 0.01 per item');
      assert.equal(firingsOnXml('fx-extended', b, extendedDoc(code, '200.00', '', '')), 1, 'the group line must not be added');
    });
    test(`BR-FXEXT-${name}-08ini: same check, ignoring exemption reasons (warning)`, () => {
      assert.equal(rule('fx-extended', `BR-FXEXT-${name}-08ini`).severity, 'warning');
      assert.equal(firingsOnXml('fx-extended', `BR-FXEXT-${name}-08ini`, extendedDoc(code, '100.00', '', 'reason')), 0);
      assert.equal(firingsOnXml('fx-extended', `BR-FXEXT-${name}-08ini`, extendedDoc(code, '90.00', '', '')), 1);
    });
    test(`BR-FXEXT-${name}-08rev: the items must also carry the breakdown's exemption reason (warning)`, () => {
      assert.equal(firingsOnXml('fx-extended', `BR-FXEXT-${name}-08rev`, extendedDoc(code, '100.00', 'reason', 'reason')), 0);
      assert.equal(firingsOnXml('fx-extended', `BR-FXEXT-${name}-08rev`, extendedDoc(code, '100.00', '', 'reason')), 1);
      assert.equal(firingsOnXml('fx-extended', b, extendedDoc(code, '100.00', '', 'reason')), 0, '08b accepts either variant');
    });
  }
});

describe('EXTENDED standard-rated tax amount (BR-FXEXT-S-09b)', () => {
  const withTax = (amount: string | undefined) => {
    const x = extendedDoc('S', '100.00', '', '');
    return amount === undefined
      ? x
      : x.replace('<ram:BasisAmount>', `<ram:CalculatedAmount>${amount}</ram:CalculatedAmount><ram:BasisAmount>`);
  };
  test('the tax amount must be the taxable amount times the rate, within 0.01 per item of that rate', () => {
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-S-09b', withTax('10.00')), 0, '100.00 x 10% = 10.00');
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-S-09b', withTax('10.01')), 0, 'one DETAIL line: 0.01 tolerance');
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-S-09b', withTax('10.02')), 1, 'beyond the tolerance');
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-S-09b', withTax(undefined)), 1, 'no tax amount: the official expression fails');
    assert.equal(
      firingsOnXml(
        'fx-extended',
        'BR-FXEXT-S-09b',
        withTax('10.02').replaceAll('<ram:TypeCode>VAT</ram:TypeCode>', '<ram:TypeCode>XYZ</ram:TypeCode>'),
      ),
      1,
      'any tax type',
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('registration', () => {
  test('the profile sets and their older releases are built on first use, once, as buildProfileRules builds them', () => {
    const shape = (rules: readonly Rule[]) => rules.map((r) => [r.id, r.reportId, r.severity]);
    for (const set of FX_PROFILES) {
      for (const id of [set, `${set}@1.08`]) {
        assert.ok(ruleSetIds().includes(id), id);
        const first = getRuleSet(id)!;
        assert.equal(getRuleSet(id), first, `${id} is built once`);
        assert.deepEqual(shape(first), shape(buildProfileRules(set, id.endsWith('@1.08') ? '1.08' : undefined)));
      }
    }
  });
  test('severities follow the catalogue; reused EN 16931 rules run under the profile set', async () => {
    for (const set of FX_PROFILES) {
      for (const r of getRuleSet(set)!) {
        if (r.id.startsWith('FX-NU-')) assert.equal(r.severity, 'error');
        else assert.equal(r.severity, FX_CATALOGUE[set].asserts[r.id], `${set} ${r.id}`);
      }
    }
    const base = EN16931_BASE_XML;
    assert.equal(await firings('fx-en16931', 'BR-02', base), 0);
    assert.equal(await firings('fx-en16931', 'BR-02', sub(base, '<ram:ID>471102</ram:ID>', '')), 1);
  });
  test('PEPPOL-EN16931-R008 is a warning in the profile sets', async () => {
    const base = EN16931_BASE_XML;
    const found = await ingest(
      Buffer.from(
        sub(
          base,
          '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>',
          '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:PaymentReference></ram:PaymentReference>',
        ),
        'utf8',
      ),
      'x.xml',
    );
    const f = runRuleSet('fx-en16931', { doc: found.doc!, invoice: found.invoice!, syntax: 'cii' }).filter(
      (x) => x.ruleId === 'PEPPOL-EN16931-R008',
    );
    // One more than on the base (the writer leaves an empty ApplicableHeaderTradeDelivery, which R008 also reports).
    assert.equal(f.length, (await firings('fx-en16931', 'PEPPOL-EN16931-R008', base)) + 1);
    assert.ok(f.every((x) => x.severity === 'warning'));
  });
});

// ---------------------------------------------------------------------------------------------
// EXTENDED: sub-lines, item attributes, charges (small documents)

interface LineSpec {
  id: string;
  status?: string;
  parent?: string;
  amount?: string;
  extra?: string;
  qty?: string;
  price?: boolean;
  tax?: boolean;
}

function lineXml(l: LineSpec): string {
  const status = l.status ? `<ram:LineStatusReasonCode>${l.status}</ram:LineStatusReasonCode>` : '';
  const parent = l.parent ? `<ram:ParentLineID>${l.parent}</ram:ParentLineID>` : '';
  const price =
    l.price === false ? '' : '<ram:NetPriceProductTradePrice><ram:ChargeAmount>10</ram:ChargeAmount></ram:NetPriceProductTradePrice>';
  const qty = l.qty ?? '<ram:BilledQuantity unitCode="C62">1</ram:BilledQuantity>';
  const tax =
    l.tax === false
      ? ''
      : '<ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>20</ram:RateApplicablePercent></ram:ApplicableTradeTax>';
  const amount =
    l.amount === undefined
      ? ''
      : `<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${l.amount}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>`;
  return `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>${l.id}</ram:LineID>${parent}${status}</ram:AssociatedDocumentLineDocument>${l.extra ?? ''}<ram:SpecifiedLineTradeAgreement>${price}</ram:SpecifiedLineTradeAgreement><ram:SpecifiedLineTradeDelivery>${qty}</ram:SpecifiedLineTradeDelivery><ram:SpecifiedLineTradeSettlement>${tax}${amount}</ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>`;
}

const linesDoc = (lines: LineSpec[], settlement = '') =>
  `<rsm:CrossIndustryInvoice ${NS}><rsm:SupplyChainTradeTransaction>${lines.map(lineXml).join('')}<ram:ApplicableHeaderTradeSettlement>${settlement}</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`;

const GROUP_OK: LineSpec[] = [
  { id: '1', status: 'GROUP', amount: '30.00' },
  { id: '1.1', parent: '1', status: 'DETAIL', amount: '10.00' },
  { id: '1.2', parent: '1', status: 'GROUP', amount: '20.00' },
  { id: '1.2.1', parent: '1.2', status: 'DETAIL', amount: '20.00' },
  { id: '1.3', parent: '1', status: 'INFORMATION', amount: '99.00' },
];

const characteristic = (inner: string) =>
  `<ram:SpecifiedTradeProduct><ram:Name>n</ram:Name><ram:ApplicableProductCharacteristic>${inner}</ram:ApplicableProductCharacteristic></ram:SpecifiedTradeProduct>`;
const charge = (inner: string) =>
  `<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>true</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>5</ram:ActualAmount>${inner}</ram:SpecifiedTradeAllowanceCharge>`;

const EXTENDED_CASES: { id: string; pass: string; fail: string }[] = [
  { id: 'BR-FXEXT-08', pass: linesDoc(GROUP_OK), fail: linesDoc(GROUP_OK.map((l) => (l.id === '1' ? { ...l, amount: '40.00' } : l))) },
  { id: 'BR-FXEXT-12', pass: linesDoc(GROUP_OK), fail: linesDoc(GROUP_OK.map((l) => (l.id === '1.2' ? { ...l, amount: undefined } : l))) },
  {
    id: 'BR-FXEXT-06',
    pass: linesDoc(GROUP_OK),
    fail: linesDoc([
      { id: '1', status: 'GROUP', amount: '10.00' },
      { id: '1.1', parent: '1', amount: '10.00' },
    ]),
  },
  { id: 'BR-FXEXT-11', pass: linesDoc(GROUP_OK), fail: linesDoc([{ id: '1', status: 'DETAIL', parent: '9', amount: '10.00' }]) },
  { id: 'BR-FXEXT-BR-22', pass: linesDoc([{ id: '1', amount: '10' }]), fail: linesDoc([{ id: '1', amount: '10', qty: '' }]) },
  {
    id: 'BR-FXEXT-BR-23',
    pass: linesDoc([{ id: '1', amount: '10' }]),
    fail: linesDoc([{ id: '1', amount: '10', qty: '<ram:BilledQuantity>1</ram:BilledQuantity>' }]),
  },
  {
    id: 'BR-FXEXT-BR-24',
    pass: linesDoc([
      { id: '1', status: 'DETAIL', amount: '10' },
      { id: '2', status: 'INFORMATION' },
    ]),
    fail: linesDoc([{ id: '1', status: 'DETAIL' }]),
  },
  {
    id: 'BR-FXEXT-BR-26',
    pass: linesDoc([
      { id: '1', amount: '10' },
      { id: '2', status: 'GROUP', price: false, amount: '0' },
    ]),
    fail: linesDoc([{ id: '1', amount: '10', price: false }]),
  },
  { id: 'BR-FXEXT-CO-04', pass: linesDoc([{ id: '1', amount: '10' }]), fail: linesDoc([{ id: '1', amount: '10', tax: false }]) },
  {
    id: 'BR-FXEXT-BR-54-1',
    pass: linesDoc([{ id: '1', amount: '1', extra: characteristic('<ram:Description>Farbe</ram:Description><ram:Value>rot</ram:Value>') }]),
    fail: linesDoc([{ id: '1', amount: '1', extra: characteristic('<ram:Value>rot</ram:Value>') }]),
  },
  {
    id: 'BR-FXEXT-BR-54-2',
    pass: linesDoc([
      {
        id: '1',
        amount: '1',
        extra: characteristic('<ram:Description>Gewicht</ram:Description><ram:ValueMeasure unitCode="KGM">2</ram:ValueMeasure>'),
      },
    ]),
    fail: linesDoc([
      {
        id: '1',
        amount: '1',
        extra: characteristic(
          '<ram:Description>Gewicht</ram:Description><ram:Value>2</ram:Value><ram:ValueMeasure unitCode="KGM">2</ram:ValueMeasure>',
        ),
      },
    ]),
  },
  {
    id: 'BR-FXEXT-04',
    pass: linesDoc([{ id: '1', amount: '1', extra: characteristic('<ram:TypeCode>COLOR_TEXT</ram:TypeCode><ram:Value>rot</ram:Value>') }]),
    fail: linesDoc([{ id: '1', amount: '1', extra: characteristic('<ram:TypeCode>HUE</ram:TypeCode><ram:Value>rot</ram:Value>') }]),
  },
  {
    id: 'BR-FXEXT-02',
    pass: linesDoc([{ id: '1', amount: '1' }]).replace(
      '<ram:LineID>1</ram:LineID>',
      '<ram:LineID>1</ram:LineID><ram:IncludedNote><ram:Content>Hinweis</ram:Content><ram:SubjectCode>AAI</ram:SubjectCode></ram:IncludedNote>',
    ),
    fail: linesDoc([{ id: '1', amount: '1' }]).replace(
      '<ram:LineID>1</ram:LineID>',
      '<ram:LineID>1</ram:LineID><ram:IncludedNote><ram:SubjectCode>AAI</ram:SubjectCode></ram:IncludedNote>',
    ),
  },
  { id: 'BR-FXEXT-BR-38', pass: linesDoc([], charge('<ram:Reason>Fracht</ram:Reason>')), fail: linesDoc([], charge('')) },
];

describe('EXTENDED sub-line, item attribute and charge rules', () => {
  for (const c of EXTENDED_CASES) {
    test(`${c.id}: passing and failing case`, () => {
      assert.equal(firingsOnXml('fx-extended', c.id, c.pass), 0, 'must hold');
      assert.ok(firingsOnXml('fx-extended', c.id, c.fail) > 0, 'must fire');
    });
  }
});

// ---------------------------------------------------------------------------------------------
// EXTENDED totals (BR-FXEXT-CO-10…16) and party rules

interface Totals {
  lineTotal?: string;
  allowanceTotal?: string;
  chargeTotal?: string;
  basis?: string;
  tax?: string;
  grand?: string;
  due?: string;
  adjustment?: string;
}

function totalsDoc(t: Totals = {}): string {
  const v = {
    lineTotal: '30.00',
    allowanceTotal: '5.00',
    chargeTotal: '3.00',
    basis: '28.00',
    tax: '5.60',
    grand: '33.60',
    due: '33.60',
    ...t,
  };
  const el = (name: string, value: string | undefined, attrs = '') =>
    value === undefined || value === 'none' ? '' : `<ram:${name}${attrs}>${value}</ram:${name}>`;
  const ac = (indicator: string, amount: string) =>
    `<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>${indicator}</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>${amount}</ram:ActualAmount><ram:Reason>r</ram:Reason></ram:SpecifiedTradeAllowanceCharge>`;
  const settlement =
    '<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>' +
    ac('false', '5.00') +
    ac('true', '2.00') +
    '<ram:SpecifiedLogisticsServiceCharge><ram:Description>Fracht</ram:Description><ram:AppliedAmount>1.00</ram:AppliedAmount></ram:SpecifiedLogisticsServiceCharge>' +
    (v.adjustment
      ? `<ram:SpecifiedFinancialAdjustment><ram:ActualAmount>${v.adjustment}</ram:ActualAmount></ram:SpecifiedFinancialAdjustment>`
      : '') +
    '<ram:SpecifiedTradeSettlementHeaderMonetarySummation>' +
    el('LineTotalAmount', v.lineTotal) +
    el('ChargeTotalAmount', v.chargeTotal) +
    el('AllowanceTotalAmount', v.allowanceTotal) +
    el('TaxBasisTotalAmount', v.basis) +
    el('TaxTotalAmount', v.tax, ' currencyID="EUR"') +
    el('GrandTotalAmount', v.grand) +
    el('DuePayableAmount', v.due) +
    '</ram:SpecifiedTradeSettlementHeaderMonetarySummation>';
  return linesDoc(
    [
      { id: '1', status: 'DETAIL', amount: '10.00' },
      { id: '2', amount: '20.00' },
      { id: 'G', status: 'GROUP', amount: '99.00' },
    ],
    settlement,
  );
}

const TOTALS_CASES: { id: string; fail: string }[] = [
  { id: 'BR-FXEXT-CO-10', fail: totalsDoc({ lineTotal: '31.00' }) },
  { id: 'BR-FXEXT-CO-11', fail: totalsDoc({ allowanceTotal: '6.00' }) },
  { id: 'BR-FXEXT-CO-12', fail: totalsDoc({ chargeTotal: '2.00' }) },
  { id: 'BR-FXEXT-CO-13', fail: totalsDoc({ basis: '30.00' }) },
  { id: 'BR-FXEXT-CO-15', fail: totalsDoc({ grand: '34.00' }) },
  { id: 'BR-FXEXT-CO-16', fail: totalsDoc({ due: '30.00' }) },
];

describe('EXTENDED totals and party rules', () => {
  for (const c of TOTALS_CASES) {
    test(`${c.id}: consistent totals pass, an inconsistent total fails`, () => {
      assert.equal(firingsOnXml('fx-extended', c.id, totalsDoc()), 0, 'must hold on consistent totals');
      assert.equal(firingsOnXml('fx-extended', c.id, c.fail), 1, 'must fire');
    });
  }
  test('BR-FXEXT-CO-16 counts amounts collected for third parties (BT-179)', () => {
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-CO-16', totalsDoc({ adjustment: '1.40', due: '35.00' })), 0, 'adjustment included');
  });
  test('BR-FXEXT-BR-44: a line charge needs a reason or reason code', () => {
    const lineCharge = (reason: string) =>
      `<ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>true</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>1</ram:ActualAmount>${reason}</ram:SpecifiedTradeAllowanceCharge>`;
    const doc = (reason: string) => linesDoc([{ id: '1', amount: '10' }]).replace('<ram:SpecifiedLineTradeSettlement>', lineCharge(reason));
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-BR-44', doc('<ram:Reason>Pfand</ram:Reason>')), 0, 'must hold');
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-BR-44', doc('')), 1, 'must fire');
  });
  test('BR-FXEXT-03: other parties may only carry a VAT identifier', () => {
    const doc = (scheme: string) =>
      `<rsm:CrossIndustryInvoice ${NS}><rsm:SupplyChainTradeTransaction><ram:ApplicableHeaderTradeAgreement><ram:SellerTradeParty><ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">123/456</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty><ram:BuyerTradeParty><ram:SpecifiedTaxRegistration><ram:ID schemeID="${scheme}">DE123</ram:ID></ram:SpecifiedTaxRegistration></ram:BuyerTradeParty></ram:ApplicableHeaderTradeAgreement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`;
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-03', doc('VA')), 0, 'VA for the buyer, FC for the seller: fine');
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-03', doc('FC')), 1, 'FC for the buyer must fire');
  });
});

describe('EXTENDED category presence, format-205 dates and document notes', () => {
  for (const [name, code] of CATS) {
    test(`BR-FXEXT-${name}-01: a used category needs a breakdown, a breakdown needs a use`, () => {
      const id = `BR-FXEXT-${name}-01`;
      const used = extendedDoc(code, '100.00', '', '');
      assert.equal(firingsOnXml('fx-extended', id, used), 0, 'line and breakdown of the category: fine');
      const noBreakdown = used.replace(/<ram:ApplicableHeaderTradeSettlement>[\s\S]*<\/ram:ApplicableHeaderTradeSettlement>/, '');
      assert.equal(firingsOnXml('fx-extended', id, noBreakdown), 1, 'used without a breakdown must fire');
      const other = code === 'S' ? 'Z' : 'S';
      const unused = used.replace(
        new RegExp(
          `(<ram:IncludedSupplyChainTradeLineItem>[\\s\\S]*?)<ram:CategoryCode>${code}</ram:CategoryCode>([\\s\\S]*?)<ram:CategoryCode>${code}</ram:CategoryCode>`,
        ),
        `$1<ram:CategoryCode>${other}</ram:CategoryCode>$2<ram:CategoryCode>${other}</ram:CategoryCode>`,
      );
      assert.equal(firingsOnXml('fx-extended', id, unused), 1, 'a breakdown without any use must fire');
    });
  }
  test('BR-FXEXT-CII-DT-097a: format 205 is YYYYMMDDHHMM', () => {
    const doc = (v: string) =>
      `<rsm:CrossIndustryInvoice ${NS}><rsm:ExchangedDocument><ram:IssueDateTime><udt:DateTimeString format="205">${v}</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`;
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-CII-DT-097a', doc('202603011230')), 0, 'valid');
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-CII-DT-097a', doc('20260301')), 1, 'date only must fire');
  });
  test('BR-FXEXT-01: a document note with a subject code needs a text', () => {
    const doc = (inner: string) =>
      `<rsm:CrossIndustryInvoice ${NS}><rsm:ExchangedDocument><ram:IncludedNote>${inner}<ram:SubjectCode>AAI</ram:SubjectCode></ram:IncludedNote></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`;
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-01', doc('<ram:Content>Hinweis</ram:Content>')), 0, 'with text');
    assert.equal(firingsOnXml('fx-extended', 'BR-FXEXT-01', doc('')), 1, 'without text must fire');
  });
});

test("each profile's own asserts are one family of that profile's table, never shared with another profile", () => {
  const familyOf = new Map<string, NonNullable<Rule['family']>>();
  for (const set of FX_PROFILES) {
    const rules = getRuleSet(set)!;
    const own = rules.filter((r) => r.id.startsWith('FX-SCH-A-') || r.id.startsWith('FX-NU-'));
    // Not every FX-SCH-A id is a structure, code-list or not-used assert; those that are form the family.
    const families = new Set(own.map((r) => r.family).filter((f) => f !== undefined));
    assert.equal(families.size, 1, `${set}: one family`);
    const family = [...families][0]!;
    for (const [other, f] of familyOf) assert.notEqual(f, family, `${set} and ${other} share a family`);
    familyOf.set(set, family);
    assert.ok(own.filter((r) => r.family === family).length > 30, `${set}: the family holds the profile's asserts`);
    // What the family reports is what the rules report one by one.
    // An EN 16931 invoice: the smaller profiles' asserts fire on it.
    const doc = parseXml(readFixture('cen/examples/cii/CII_example2.xml'));
    const ctx = { doc, invoice: emptyInvoice(), syntax: 'cii' as const };
    const fired = family.fired(ctx);
    if (set === 'fx-minimum') assert.ok(fired.size > 0, 'the MINIMUM profile finds elements it does not use');
    for (const r of rules.filter((x) => x.family === family)) {
      assert.deepEqual(fired.get(r.id) ?? [], [...r.check(ctx)], `${set} ${r.id}`);
    }
  }
});
