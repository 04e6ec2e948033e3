/**
 * The official verdicts of the EXTENDED-CTC-FR rules on our test material, produced with FNFE-MPE's own compiled XSLT
 * (fnfempe/France_RFE) run by SaxonJS (Saxonica's xslt3 npm package: Saxon-HE 9.9 from Debian cannot compile some of
 * FNFE's 1.4 stylesheets). Writes test/fixtures/extended-ctc-fr/verdicts.jsonl, which
 * test/conformance/extended-ctc-fr.test.ts and test/rules-extended-ctc-fr.test.ts compare our rule sets with.
 *
 *   npm install --no-save xslt3@2.7.0                      # SaxonJS, only for this script
 *   FRANCE_RFE=<checkout of fnfempe/France_RFE> EINVOICE_CORPUS=../shared/corpus \
 *     node --import tsx scripts/extended-ctc-fr-verdicts.ts [--mutate]
 *
 * Inputs: every French invoice of the corpus (fr-ctc/: CII and UBL XML, and the CII of the Factur-X PDFs), our own
 * EXTENDED-CTC-FR invoices (test/fixtures/extended-ctc-fr/invoices/), and the mutations of them listed in
 * test/fixtures/extended-ctc-fr/mutations.jsonl. With --mutate the mutations are made anew first: for every assert of
 * the two schematrons, edits derived from its context and test are tried on the bases until the official XSLT fires
 * that assert (at most a few tries per assert); the first that does is kept, else the last one tried.
 *
 * The verdicts (ids, flags, locations) are facts about our files; the artefacts themselves stay out of the repository.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseXml, pathOf, type XmlDoc, type XmlElement } from '../src/xml/dom.js';
import { findInvoiceAttachment, isPdf, readPdf } from '../src/pdf/extract.js';
import {
  FIXTURES,
  applyMutation,
  baseBytes,
  normalizedBase,
  type Edit,
  type Mutation,
} from '../test/conformance/extended-ctc-fr-mutations.js';

const RFE = process.env.FRANCE_RFE;
if (!RFE) {
  console.error('Set FRANCE_RFE to a checkout of fnfempe/France_RFE (release 1.4.0.x).');
  process.exit(2);
}
const CORPUS = path.resolve(process.env.EINVOICE_CORPUS ?? '../shared/corpus');
const require = createRequire(path.join(process.cwd(), 'package.json'));
let SaxonJS: {
  transform(o: Record<string, unknown>, mode: 'sync'): { principalResult: string };
  getResource(o: Record<string, unknown>): Promise<unknown>;
  XPath: { evaluate(xpath: string, context: unknown, options?: Record<string, unknown>): unknown };
};
try {
  SaxonJS = require('saxon-js');
} catch {
  console.error('SaxonJS is missing: run `npm install --no-save xslt3@2.7.0` first.');
  process.exit(2);
}

const ARTEFACTS = {
  cii: {
    xslt: 'FNFE_RFE_INVOICE/CII/EXTENDED-CTC-FR/2xslt/EXTENDED-CTC-FR-CII.xslt',
    sch: 'FNFE_RFE_INVOICE/CII/EXTENDED-CTC-FR/schematron/EXTENDED-CTC-FR-CII.sch',
  },
  ubl: {
    xslt: 'FNFE_RFE_INVOICE/UBL/EXTENDED-CTC-FR/2xslt/EXTENDED-CTC-FR-UBL.xslt',
    sch: 'FNFE_RFE_INVOICE/UBL/EXTENDED-CTC-FR/schematron/EXTENDED-CTC-FR-UBL.sch',
  },
} as const;
type Syntax = keyof typeof ARTEFACTS;

/** Compile an XSLT to SaxonJS's SEF once (cached in the temp folder by the XSLT's hash). */
function sefOf(syntax: Syntax): string {
  const xslt = path.join(RFE!, ARTEFACTS[syntax].xslt);
  const hash = createHash('sha256').update(readFileSync(xslt)).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), 'einvoice-extended-ctc-fr');
  mkdirSync(dir, { recursive: true });
  const sef = path.join(dir, `${syntax}-${hash}.sef.json`);
  if (!existsSync(sef)) {
    const cli = require.resolve('xslt3/xslt3.js');
    execFileSync(process.execPath, [cli, `-xsl:${xslt}`, `-export:${sef}`, '-nogo'], { stdio: 'inherit' });
  }
  return sef;
}

export interface OfficialFinding {
  id: string;
  flag: string;
  location: string;
}

/**
 * Run the official XSLT on one document: its failed asserts (an assert without id is named by its message's label), or
 * undefined when the stylesheet stops on a dynamic error (e.g. normalize-space() of two elements): no verdict exists.
 */
const parsedSefs = new Map<string, unknown>();
function runOfficial(sef: string, xml: string): OfficialFinding[] | undefined {
  // The parsed SEF, kept: SaxonJS then keeps the compiled stylesheet too (a run takes ~0.3 s instead of ~3).
  let internal = parsedSefs.get(sef);
  if (!internal) parsedSefs.set(sef, (internal = JSON.parse(readFileSync(sef, 'utf8'))));
  let r: { principalResult: string };
  try {
    r = SaxonJS.transform({ stylesheetInternal: internal, sourceText: xml, destination: 'serialized' }, 'sync');
  } catch {
    return undefined;
  }
  const out: OfficialFinding[] = [];
  for (const m of r.principalResult.match(/<svrl:failed-assert[\s\S]*?<\/svrl:failed-assert>/g) ?? []) {
    const head = m.slice(0, m.indexOf('>'));
    const id = /\bid="([^"]*)"/.exec(head)?.[1] ?? /\[([A-Z][A-Z0-9-]*[0-9a-z])\]/.exec(m)?.[1] ?? 'NOID';
    const flag = /\bflag="([^"]*)"/.exec(head)?.[1] ?? 'fatal';
    const location = (/\blocation="([^"]*)"/.exec(head)?.[1] ?? '').replace(/\[namespace-uri\(\)='[^']*'\]/g, '').replace(/\*:/g, '');
    out.push({ id, flag, location });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Inputs.

interface Input {
  name: string;
  syntax: Syntax;
  xml: string;
}

async function corpusInputs(): Promise<Input[]> {
  const out: Input[] = [];
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of walk(path.join(CORPUS, 'fr-ctc')).sort()) {
    const rel = path.relative(CORPUS, file);
    let bytes: Uint8Array | undefined = new Uint8Array(readFileSync(file));
    if (isPdf(bytes)) {
      try {
        bytes = await findInvoiceAttachment((await readPdf(bytes)).attachments)?.content();
      } catch {
        bytes = undefined;
      }
    } else if (!file.endsWith('.xml')) continue;
    if (!bytes) continue;
    const syntax = syntaxOf(bytes);
    if (syntax) out.push({ name: `corpus:${rel}`, syntax, xml: normalizedBase(bytes) });
  }
  return out;
}

function syntaxOf(bytes: Uint8Array): Syntax | undefined {
  try {
    const root = parseXml(bytes).root;
    if (root.local === 'CrossIndustryInvoice') return 'cii';
    if (root.local === 'Invoice' || root.local === 'CreditNote') return 'ubl';
  } catch {}
  return undefined;
}

function fixtureInputs(): Input[] {
  const dir = path.join(FIXTURES, 'invoices');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .map((f) => {
      const bytes = new Uint8Array(readFileSync(path.join(dir, f)));
      return { name: `fixture:invoices/${f}`, syntax: syntaxOf(bytes)!, xml: normalizedBase(bytes) };
    });
}

const MUTATIONS = path.join(FIXTURES, 'mutations.jsonl');
const readMutations = (): Mutation[] =>
  existsSync(MUTATIONS)
    ? readFileSync(MUTATIONS, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Mutation)
    : [];

// ---------------------------------------------------------------------------------------------
// Mutation search.

interface Assert {
  id: string;
  context: string;
  test: string;
  /** The rule's `let` variables (name, XPath), evaluated on the context node before the test. */
  lets: [string, string][];
}

const SCH_NS = 'http://purl.oclc.org/dsdl/schematron';

function assertsOf(syntax: Syntax): { asserts: Assert[]; namespaces: Record<string, string> } {
  const root = parseXml(new Uint8Array(readFileSync(path.join(RFE!, ARTEFACTS[syntax].sch)))).root;
  const namespaces: Record<string, string> = { xs: 'http://www.w3.org/2001/XMLSchema' };
  const asserts: Assert[] = [];
  const text = (el: XmlElement): string => el.text + el.children.map(text).join('');
  const attr = (el: XmlElement, n: string) => el.attrs.find((a) => a.local === n)?.value ?? '';
  for (const c of root.children) if (c.ns === SCH_NS && c.local === 'ns') namespaces[attr(c, 'prefix')] = attr(c, 'uri');
  for (const pattern of root.children.filter((c) => c.ns === SCH_NS && c.local === 'pattern'))
    for (const rule of pattern.children.filter((c) => c.local === 'rule')) {
      const lets: [string, string][] = [];
      for (const c of rule.children) {
        if (c.local === 'let') lets.push([attr(c, 'name'), attr(c, 'value')]);
        if (c.local !== 'assert') continue;
        const id = attr(c, 'id') || /\[([A-Z][A-Z0-9-]*[0-9a-z])\]/.exec(text(c))?.[1] || 'NOID';
        asserts.push({ id, context: attr(rule, 'context'), test: attr(c, 'test'), lets: [...lets] });
      }
    }
  return { asserts, namespaces };
}

/** The document's own prefix of each namespace URI (pathOf writes the element's own prefix). */
function documentPrefixes(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (el: XmlElement) => {
    if (!out.has(el.ns)) out.set(el.ns, el.prefix);
    for (const c of el.children) visit(c);
  };
  visit(parseXml(new TextEncoder().encode(xml)).root);
  return out;
}

/** Our path of a SaxonJS node (`/p:a[1]/p:b[2]`), from XPath's path() with the document's prefixes. */
function ourPath(node: unknown, byUri: Map<string, string>): string | undefined {
  const p = SaxonJS.XPath.evaluate('path(.)', node) as string;
  if (!p || p.includes('@') || p.includes('text()')) return undefined;
  return p.replace(/Q\{([^}]*)\}/g, (_m, uri: string) => {
    const prefix = byUri.get(uri);
    return prefix ? `${prefix}:` : '';
  });
}

/** Relative element paths a test mentions (`ram:A/ram:B`, `../cac:X`), with an optional trailing attribute. */
function pathsIn(test: string): string[] {
  const found = test.match(/(?:\.\.\/)*(?:(?:cac|cbc|ram|udt|qdt|rsm):[A-Za-z]+\/?)+(?:@[A-Za-z]+)?/g) ?? [];
  return [...new Set(found.map((s) => s.replace(/\/$/, '')))];
}

/** A context as an XPath selecting its nodes anywhere (Schematron contexts are match patterns). */
function contextXPath(context: string): string {
  return splitTop(context, '|')
    .map((c) => c.trim())
    .map((c) => (c.startsWith('/') ? c : c.startsWith('(') ? c : `//${c}`))
    .join(' | ');
}

/** Split at a separator outside brackets, parentheses and quotes. */
function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (depth === 0 && s.startsWith(sep, i)) {
      out.push(s.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

/** One step of a context path: its name test (`cac:X`, or undefined when it is not a plain name) and its predicates. */
interface PathStep {
  name: string | undefined;
  preds: string[];
  descendant: boolean;
}

function parseSteps(branch: string): PathStep[] | undefined {
  let s = branch.trim();
  if (s.startsWith('(') && s.endsWith(')')) s = s.slice(1, -1);
  const steps: PathStep[] = [];
  let descendant = !s.startsWith('/');
  const parts = splitTop(s, '/');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i].trim();
    if (part === '') {
      if (i > 0) descendant = true;
      continue;
    }
    const m = /^([a-z]+:[A-Za-z]+|\*)((?:\[.*\])*)$/s.exec(part);
    if (!m) return undefined;
    const preds = m[2] ? splitPreds(m[2]) : [];
    steps.push({ name: m[1] === '*' ? undefined : m[1], preds, descendant });
    descendant = false;
  }
  return steps;
}

function splitPreds(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let quote = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '[') {
      if (depth === 0) start = i + 1;
      depth++;
    } else if (c === ']') {
      depth--;
      if (depth === 0) out.push(s.slice(start, i));
    }
  }
  return out;
}

const stepXPath = (steps: PathStep[]) =>
  steps
    .map((st, i) => `${st.descendant ? (i === 0 ? '//' : '//') : '/'}${st.name ?? '*'}${st.preds.map((p) => `[${p}]`).join('')}`)
    .join('');

/**
 * What a predicate asks of a node, as (relative child path, value) to write: `cbc:X = 'v'`, `normalize-space(cbc:X) = 'v'`,
 * `cac:A/normalize-space(upper-case(cbc:ID))='VAT'`, `ram:ChargeIndicator/udt:Indicator='false'`, `cbc:X = false()`,
 * `.= 'K'` (the node's own text), `upper-case(../ram:TypeCode) = 'VAT'` (a sibling). Undefined when it is not that simple.
 */
function predicateWrites(pred: string): { path: string; value: string } | undefined {
  const attrOnly = /^\s*@([A-Za-z]+)\s*$/.exec(pred);
  if (attrOnly) return { path: `@${attrOnly[1]}`, value: 'ZZ' };
  const p = pred
    .replace(/\b(?:normalize-space|upper-case|lower-case)\(/g, '')
    .replace(/[()]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const m = /^((?:\.\.\/)*(?:[a-z]+:[A-Za-z]+\/?)*[a-z]+:[A-Za-z]+|\.)\s*=\s*(?:'([^']*)'|"([^"]*)"|(false|true))$/.exec(p);
  if (!m) return undefined;
  return { path: m[1], value: m[2] ?? m[3] ?? m[4] };
}

let counter = 0;
/** Edits at one context node, derived from the test: add what it forbids, remove or blank what it asks for, break codes. */
function editsAt(a0: Assert, at: string, base: XmlDoc): Edit[] {
  // The rule's variables are part of the test (a sub-line code, a parent id): their paths count too.
  const a = { ...a0, test: [a0.test, ...a0.lets.map(([, v]) => v)].join(' ') };
  const out: Edit[] = [];
  const node = findElement(base, at);
  const notPaths = [...a.test.matchAll(/not\(\s*((?:(?:cac|cbc|ram|udt|qdt|rsm):[A-Za-z]+\/?)+)\s*\)/g)].map((m) =>
    m[1].replace(/\/$/, ''),
  );
  for (const p of notPaths) out.push({ op: 'add', at, value: `${p}=X` });
  for (const p of pathsIn(a.test)) {
    if (p.startsWith('..') || p.includes('@')) continue;
    const existing = node ? walk(node, p) : undefined;
    if (existing) {
      out.push({ op: 'remove', at: pathOf(existing) });
      out.push({ op: 'text', at: pathOf(existing), value: '1.123' });
      out.push({ op: 'text', at: pathOf(existing), value: 'ZZZ' });
    } else {
      out.push({ op: 'add', at, value: `${p}=ZZ 9` });
      out.push({ op: 'add', at, value: `${p}=1.123` });
    }
  }
  for (const m of a.test.matchAll(/((?:(?:cac|cbc|ram|udt|qdt):[A-Za-z]+\/?)+)\s*(?:=|!=)\s*'([^']*)'/g)) {
    const existing = node ? walk(node, m[1]) : undefined;
    if (existing) out.push({ op: 'text', at: pathOf(existing), value: m[2] });
  }
  // `..` paths that exist: their text.
  for (const p of pathsIn(a.test).filter((p) => p.startsWith('..') && !p.includes('@'))) {
    const existing = node ? walk(node, p) : undefined;
    if (existing) out.push({ op: 'text', at: pathOf(existing), value: '1.123' }, { op: 'remove', at: pathOf(existing) });
  }
  // `not(@x)`, `not(p/@x)`, `not(//@x)`: give the attribute (to the node, the element at p, or the node's first leaf).
  for (const m of a.test.matchAll(/not\s*\(\s*(\/\/)?((?:(?:cac|cbc|ram|udt|qdt):[A-Za-z]+\/)*)@([A-Za-z]+)\s*\)/g)) {
    const chain = m[2].replace(/\/$/, '');
    let target = node;
    if (m[1] && chain) target = anywhere(base, chain);
    else if (m[1]) {
      let leaf = node;
      while (leaf && leaf.children.length) leaf = leaf.children[0];
      target = leaf;
    } else if (chain) target = node ? walk(node, chain) : undefined;
    if (target) out.push({ op: 'attr', at: pathOf(target), value: `${m[3]}=ZZ` });
    else if (chain) out.push({ op: 'add', at, value: `${chain}=1` });
  }
  // `not((A|B)/rest)`: add rest below A.
  for (const m of a.test.matchAll(/not\s*\(\s*\(\s*([a-z]+:[A-Za-z]+)\s*\|[^)]*\)\/((?:(?:cac|cbc|ram|udt|qdt):[A-Za-z]+\/?)+)\s*\)/g)) {
    const first = node ? walk(node, m[1]) : undefined;
    if (first) out.push({ op: 'add', at: pathOf(first), value: `${m[2].replace(/\/$/, '')}=X` });
  }
  if (/'#'/.test(a.test)) out.push({ op: 'text', at, value: '#ZZZ#A note' });
  out.push({ op: 'text', at, value: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789' });
  if (/contains\(\s*'/.test(a.test)) out.push({ op: 'text', at, value: 'ZZZINVALID' });
  if (/@schemeID/.test(a.test)) out.push({ op: 'attr', at, value: 'schemeID=ZZZ' }, { op: 'unattr', at, value: 'schemeID' });
  if (/@listID/.test(a.test)) out.push({ op: 'attr', at, value: 'listID=ZZZ' }, { op: 'unattr', at, value: 'listID' });
  if (/@unitCode/.test(a.test)) out.push({ op: 'unattr', at, value: 'unitCode' }, { op: 'attr', at, value: 'unitCode=ZZZ' });
  if (/@mimeCode/.test(a.test)) out.push({ op: 'attr', at, value: 'mimeCode=application/zip' });
  if (/@currencyID/.test(a.test)) out.push({ op: 'attr', at, value: 'currencyID=ZZZ' });
  if (/@format/.test(a.test)) out.push({ op: 'attr', at, value: 'format=999' });
  // `xs:date(A) >= xs:date(B)`: see pairEdits.
  out.push({ op: 'text', at, value: '12345.678' });
  out.push({ op: 'text', at, value: '-1' });
  out.push({ op: 'text', at, value: '' });
  out.push({ op: 'dup', at });
  out.push({ op: 'remove', at });
  return out;
}

/** Edits that only work together: dates in the wrong order (`xs:date(A) >= xs:date(B)` with A before B). */
function pairEdits(a: Assert, at: string, base: XmlDoc): Edit[][] {
  const out: Edit[][] = [];
  const node = findElement(base, at);
  // `count(p) <= n` / `count(p) = n`: one more than allowed (copies of the last step).
  for (const m of a.test.matchAll(/count\(\s*((?:(?:cac|cbc|ram|udt|qdt):[A-Za-z]+(?:\[[^\]]*\])?\/?)+)\s*\)\s*(<=|=)\s*(\d)/g)) {
    const chain = m[1].replace(/\[[^\]]*\]/g, '').replace(/\/$/, '');
    const n = Number(m[3]) + 1;
    const existing = node ? walk(node, chain) : undefined;
    const one: Edit = existing ? { op: 'dup', at: pathOf(existing) } : { op: 'add', at, value: `${chain}=1` };
    out.push(Array.from({ length: Math.max(n, 2) }, () => one));
  }
  // CII periods: `EndDateTime/udt:DateTimeString >= StartDateTime/udt:DateTimeString`.
  if (/EndDateTime/.test(a.test) && /StartDateTime/.test(a.test) && node) {
    const edits: Edit[] = [];
    for (const [name, value] of [
      ['ram:StartDateTime', '20201231'],
      ['ram:EndDateTime', '20200101'],
    ] as const) {
      const existing = walk(node, `${name}/udt:DateTimeString`);
      if (existing) edits.push({ op: 'text', at: pathOf(existing), value });
      else {
        edits.push({ op: 'add', at, value: `${name}/udt:DateTimeString=${value}` });
        const n = node.children.filter((c) => c.local === name.slice(4)).length + 1;
        edits.push({ op: 'attr', at: `${at}/${name}[${n}]/udt:DateTimeString[1]`, value: 'format=102' });
      }
    }
    out.push(edits);
  }
  for (const m of a.test.matchAll(/xs:date\(((?:[a-z]+:[A-Za-z]+\/?)+)\)\s*>=?\s*xs:date\(((?:[a-z]+:[A-Za-z]+\/?)+)\)/g)) {
    const write = (p: string, value: string): Edit => {
      const existing = node ? walk(node, p) : undefined;
      return existing ? { op: 'text', at: pathOf(existing), value } : { op: 'add', at, value: `${p}=${value}` };
    };
    out.push([write(m[1], '2020-01-01'), write(m[2], '2020-12-31')]);
  }
  return out;
}

/** The first element anywhere whose own name and ancestors' end with the chain (`//a:B/c:D`). */
function anywhere(doc: XmlDoc, chain: string): XmlElement | undefined {
  const names = chain.split('/').map((q) => q.slice(q.indexOf(':') + 1));
  const visit = (el: XmlElement): XmlElement | undefined => {
    let ok = true;
    let cur: XmlElement | null = el;
    for (let i = names.length - 1; i >= 0; i--) {
      if (!cur || cur.local !== names[i]) {
        ok = false;
        break;
      }
      cur = cur.parent;
    }
    if (ok) return el;
    for (const c of el.children) {
      const hit = visit(c);
      if (hit) return hit;
    }
    return undefined;
  };
  return visit(doc.root);
}

/** The element at a chain of child names below `el` (`a:B/c:D`; `..` steps up), if each step exists. */
function walk(el: XmlElement, chain: string): XmlElement | undefined {
  let cur: XmlElement | undefined = el;
  for (const q of chain.split('/')) {
    if (!cur) return undefined;
    if (q === '..') {
      cur = cur.parent ?? undefined;
      continue;
    }
    if (q === '.') continue;
    const local = q.slice(q.indexOf(':') + 1);
    cur = cur.children.find((c) => c.local === local);
  }
  return cur;
}

function findElement(doc: XmlDoc, at: string): XmlElement | undefined {
  const visit = (el: XmlElement): XmlElement | undefined => {
    const p = pathOf(el);
    if (p === at) return el;
    if (!at.startsWith(`${p}/`)) return undefined;
    for (const c of el.children) {
      const hit = visit(c);
      if (hit) return hit;
    }
    return undefined;
  };
  return visit(doc.root);
}

/** Edits that make `el` satisfy a predicate: write the value where it points (an existing element's text, or a new chain). */
function satisfy(el: XmlElement, pred: string): Edit[] | undefined {
  const w = predicateWrites(pred);
  if (!w) return /^not\(/.test(pred.trim()) || /\bor\b/.test(pred) ? [] : undefined;
  if (w.path === '.') return [{ op: 'text', at: pathOf(el), value: w.value }];
  if (w.path.startsWith('@')) return [{ op: 'attr', at: pathOf(el), value: `${w.path.slice(1)}=${w.value}` }];
  const ups = (w.path.match(/\.\.\//g) ?? []).length;
  let holder: XmlElement | undefined = el;
  for (let i = 0; i < ups; i++) holder = holder?.parent ?? undefined;
  if (!holder) return undefined;
  const chain = w.path.replace(/^(\.\.\/)+/, '');
  const names = chain.split('/');
  let cur = holder;
  for (let i = 0; i < names.length; i++) {
    const local = names[i].slice(names[i].indexOf(':') + 1);
    const next = cur.children.find((c) => c.local === local);
    if (!next) return [{ op: 'add', at: pathOf(cur), value: `${names.slice(i).join('/')}=${w.value}` }];
    cur = next;
  }
  return [{ op: 'text', at: pathOf(cur), value: w.value }];
}

/** The path of the element an `add` edit creates first (appended to `holder`). */
function addedPath(holder: XmlElement, qname: string): string {
  const n = holder.children.filter((c) => (c.prefix ? `${c.prefix}:${c.local}` : c.local) === qname).length;
  return `${pathOf(holder)}/${qname}[${n + 1}]`;
}

/**
 * Ways to make a node of a context path exist in a base that has none: give an existing node of the path without the
 * last step's predicates what they ask (a line's category code becomes 'AE'), or create the missing steps below the
 * deepest step that exists, with what their predicates ask. Each: the edits and the path of the context node.
 */
function makeContext(branch: string, base: Base): { edits: Edit[]; at: string }[] {
  const steps = parseSteps(branch);
  if (!steps) return [];
  const out: { edits: Edit[]; at: string }[] = [];
  const nodesOf = (xpath: string): XmlElement[] => {
    try {
      const r = SaxonJS.XPath.evaluate(xpath, base.saxon, { namespaceContext: base.namespaces, resultForm: 'array' });
      const arr = Array.isArray(r) ? r : r ? [r] : [];
      return arr
        .slice(0, 2)
        .map((n) => ourPath(n, base.byUri))
        .map((p) => (p ? findElement(base.doc, p) : undefined))
        .filter((e): e is XmlElement => e !== undefined);
    } catch {
      return [];
    }
  };
  // Drop the predicates we know how to satisfy, find a node of the plain path, then make each step's node satisfy them.
  const satisfiable = (p: string) => predicateWrites(p) !== undefined;
  const relaxed = steps.map((st) => ({ ...st, preds: st.preds.filter((p) => !satisfiable(p)) }));
  if (steps.some((st) => st.preds.some(satisfiable)))
    for (const hit of nodesOf(stepXPath(relaxed))) {
      const edits: Edit[] = [];
      let stepNode: XmlElement | undefined = hit;
      for (let k = steps.length - 1; k >= 0 && stepNode; k--) {
        for (const p of steps[k].preds.filter(satisfiable)) edits.push(...(satisfy(stepNode, p) ?? []));
        stepNode = stepNode.parent ?? undefined;
      }
      if (edits.length) out.push({ edits, at: pathOf(hit) });
    }
  if (out.length) return out;
  // Create the missing steps below the deepest existing one (a pattern that may match anywhere: below the root element).
  for (let k = steps.length - 1; k >= 0; k--) {
    const anchors = k > 0 ? nodesOf(stepXPath(steps.slice(0, k))) : steps[0].descendant ? [usualParent(steps[0].name, base.doc)] : [];
    if (anchors.length === 0) continue;
    const anchor = anchors[0];
    const rest = steps.slice(k);
    // (a `//` step is satisfied by a child too)
    if (rest.some((s) => !s.name)) continue;
    const chain = rest.map((s) => s.name!).join('/');
    const edits: Edit[] = [{ op: 'add', at: pathOf(anchor), value: `${chain}=` }];
    let at = addedPath(anchor, rest[0].name!);
    for (let i = 1; i < rest.length; i++) at += `/${rest[i].name}[1]`;
    // The predicates of the new steps: as new children (the new elements have none).
    let stepAt = addedPath(anchor, rest[0].name!);
    for (let i = 0; i < rest.length; i++) {
      if (i > 0) stepAt += `/${rest[i].name}[1]`;
      for (const p of rest[i].preds) {
        const w = predicateWrites(p);
        if (!w) continue;
        if (w.path === '.') edits.push({ op: 'text', at: stepAt, value: w.value });
        else if (w.path.startsWith('@')) edits.push({ op: 'attr', at: stepAt, value: `${w.path.slice(1)}=${w.value}` });
        else if (!w.path.startsWith('..')) edits.push({ op: 'add', at: stepAt, value: `${w.path}=${w.value}` });
      }
    }
    out.push({ edits, at });
    break;
  }
  return out;
}

/** Local name → the local names of the elements it sits in, over every input (filled before the search). */
const PARENTS = new Map<string, Set<string>>();
function learnParents(el: XmlElement): void {
  for (const c of el.children) {
    let set = PARENTS.get(c.local);
    if (!set) PARENTS.set(c.local, (set = new Set()));
    set.add(el.local);
    learnParents(c);
  }
}

/**
 * Where a new element of this name goes when a context may match it anywhere: in an element where the inputs have
 * one (an allowance in the header settlement, a classification in a product), else below the root.
 */
function usualParent(name: string | undefined, doc: XmlDoc): XmlElement {
  const parents = PARENTS.get((name ?? '').slice((name ?? '').indexOf(':') + 1));
  if (parents) {
    const visit = (el: XmlElement): XmlElement | undefined => {
      if (parents.has(el.local)) return el;
      for (const c of el.children) {
        const hit = visit(c);
        if (hit) return hit;
      }
      return undefined;
    };
    const hit = visit(doc.root);
    if (hit) return hit;
  }
  return doc.root;
}

interface Base {
  name: string;
  xml: string;
  doc: XmlDoc;
  saxon: unknown;
  byUri: Map<string, string>;
  namespaces: Record<string, string>;
}

/** Edits that make a test's trigger true (a `//X[pred]` it asks about exists) and remove what the test asks for besides. */
function triggerEdits(a: Assert, base: Base): Edit[][] {
  const out: Edit[][] = [];
  const triggers = [
    ...a.test.matchAll(/(?:^|[^A-Za-z:/])\/?\/?((?:(?:cac|cbc|ram|udt|qdt):[A-Za-z]+(?:\[[^\]]*(?:\[[^\]]*\][^\]]*)*\])*\/?)+)/g),
  ].map((m) => m[1].replace(/\/$/, ''));
  // `PATH = 'literal'`: give the first such element that value (a category code 'B', a country 'IT', ...).
  for (const m of a.test.matchAll(/((?:\/\/)?(?:(?:cac|cbc|ram|udt|qdt):[A-Za-z]+\/?)+)\s*=\s*'([^']*)'/g)) {
    const xpath = m[1].startsWith('//') ? m[1] : `//${m[1]}`;
    try {
      const r = SaxonJS.XPath.evaluate(xpath, base.saxon, { namespaceContext: base.namespaces, resultForm: 'array' });
      for (const n of (Array.isArray(r) ? r : r ? [r] : []).slice(0, 1)) {
        const p = ourPath(n, base.byUri);
        if (p) out.push([{ op: 'text', at: p, value: m[2] }]);
      }
    } catch {}
  }
  const removable: Edit[] = [];
  for (const t of new Set(triggers)) {
    const steps = parseSteps(`//${t}`);
    if (!steps) continue;
    const plain = `//${steps.map((s) => s.name ?? '*').join('/')}`;
    try {
      const r = SaxonJS.XPath.evaluate(plain, base.saxon, { namespaceContext: base.namespaces, resultForm: 'array' });
      for (const n of (Array.isArray(r) ? r : r ? [r] : []).slice(0, 1)) {
        const p = ourPath(n, base.byUri);
        if (p) removable.push({ op: 'remove', at: p });
      }
    } catch {}
  }
  for (const t of new Set(triggers)) {
    if (!t.includes('[')) continue;
    for (const made of makeContext(`//${t}`, base).slice(0, 1)) {
      out.push(made.edits);
      for (const r of removable) if (!made.edits.some((e) => e.at === r.at)) out.push([...made.edits, r]);
    }
  }
  for (const r of removable) out.push([r]);
  return out;
}

/** XPath that is true when the assert fails somewhere in the document (without the XSLT's one-rule-per-node choice). */
function failureXPath(a: Assert): string {
  const test = a.lets.length ? `let ${a.lets.map(([n, v]) => `$${n} := (${v})`).join(', ')} return (${a.test})` : `(${a.test})`;
  return `exists((${contextXPath(a.context)})[not(${test})])`;
}

/** Does the assert fail on this document? undefined when the XPath cannot be evaluated here (then only the XSLT can tell). */
async function failsOn(a: Assert, xml: string, namespaces: Record<string, string>): Promise<boolean | undefined> {
  try {
    const doc = await SaxonJS.getResource({ text: xml, type: 'xml' });
    return SaxonJS.XPath.evaluate(failureXPath(a), doc, { namespaceContext: namespaces }) === true;
  } catch {
    return undefined;
  }
}

const SEARCH_LOG = path.join(os.tmpdir(), 'einvoice-extended-ctc-fr', 'search-fired.txt');

/** Asserts the stored verdicts (or an interrupted search) already saw fire: `<syntax> <id>`. */
function firedAlready(): Set<string> {
  const out = new Set<string>();
  const verdicts = path.join(FIXTURES, 'verdicts.jsonl');
  if (existsSync(verdicts))
    for (const line of readFileSync(verdicts, 'utf8').split('\n').filter(Boolean)) {
      const v = JSON.parse(line) as { syntax: Syntax; findings?: OfficialFinding[] };
      for (const f of v.findings ?? []) out.add(`${v.syntax} ${f.id}`);
    }
  if (existsSync(SEARCH_LOG)) for (const l of readFileSync(SEARCH_LOG, 'utf8').split('\n').filter(Boolean)) out.add(l);
  return out;
}

/**
 * Search mutations for the asserts of the given syntaxes that no stored verdict fires yet, appending each mutation
 * whose official verdict fires its assert to mutations.jsonl as it is found (an interrupted search resumes). For each
 * assert and base: edits at its context nodes, or, when the base has none, edits that make one and then break it, and
 * edits that make the test's trigger true; each is checked first with the assert's own XPath (fast), then by the XSLT.
 */
async function searchMutations(inputs: Input[], syntaxes: Syntax[], only?: Set<string>): Promise<void> {
  const fired = firedAlready();
  mkdirSync(path.dirname(SEARCH_LOG), { recursive: true });
  for (const syntax of syntaxes) {
    const sef = sefOf(syntax);
    const { asserts, namespaces } = assertsOf(syntax);
    // XML bases only (a PDF's invoice is not a file a mutation can name), small ones first: the oracle runs faster on them.
    const bases: Base[] = [];
    // The 8 smallest, and our own invoices (sub-lines, a multi-vendor invoice: what the small ones lack).
    const xmlInputs = inputs.filter((i) => i.syntax === syntax && i.name.endsWith('.xml')).sort((a, b) => a.xml.length - b.xml.length);
    for (const i of [...xmlInputs.slice(0, 8), ...xmlInputs.slice(8).filter((i) => i.name.startsWith('fixture:'))])
      bases.push({
        name: i.name,
        xml: i.xml,
        doc: parseXml(new TextEncoder().encode(i.xml)),
        saxon: await SaxonJS.getResource({ text: i.xml, type: 'xml' }),
        byUri: documentPrefixes(i.xml),
        namespaces,
      });
    for (const i of inputs) if (i.syntax === syntax) learnParents(parseXml(new TextEncoder().encode(i.xml)).root);
    const done = new Set<string>();
    for (const a of asserts) {
      if (done.has(a.id) || fired.has(`${syntax} ${a.id}`) || (only && !only.has(a.id))) continue;
      if (/^\s*true\(\)\s*$/.test(a.test)) {
        process.stderr.write(`${syntax} ${a.id}: test is true()\n`);
        continue;
      }
      let xsltRuns = 0;
      let checks = 0;
      let kept: Mutation | undefined;
      for (const base of bases) {
        if (done.has(a.id) || checks > 80) break;
        const tries: Edit[][] = [];
        let nodes: unknown[];
        try {
          const r = SaxonJS.XPath.evaluate(contextXPath(a.context), base.saxon, { namespaceContext: namespaces, resultForm: 'array' });
          nodes = Array.isArray(r) ? r : r ? [r] : [];
        } catch {
          nodes = [];
        }
        for (const node of nodes.slice(0, 2)) {
          const at = ourPath(node, base.byUri);
          if (at) {
            for (const e of editsAt(a, at, base.doc)) tries.push([e]);
            tries.push(...pairEdits(a, at, base.doc));
          }
        }
        // `//*[ends-with(name(), 'BinaryObject')]`: an attachment, where the syntax has one.
        if (nodes.length === 0 && /BinaryObject/.test(a.context)) {
          const holder =
            syntax === 'ubl' ? base.doc.root : walk(base.doc.root, 'rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement');
          const chain =
            syntax === 'ubl'
              ? 'cac:AdditionalDocumentReference/cac:Attachment/cbc:EmbeddedDocumentBinaryObject'
              : 'ram:AdditionalReferencedDocument/ram:AttachmentBinaryObject';
          if (holder) {
            const made: Edit = { op: 'add', at: pathOf(holder), value: `${chain}=AA==` };
            const [head, ...tail] = chain.split('/');
            const leaf = `${addedPath(holder, head)}/${tail.map((q) => `${q}[1]`).join('/')}`;
            tries.push(
              [made],
              [made, { op: 'attr', at: leaf, value: 'mimeCode=application/pdf' }],
              [made, { op: 'attr', at: leaf, value: 'filename=a.pdf' }],
            );
          }
        }
        if (nodes.length === 0)
          for (const branch of splitTop(a.context, '|'))
            for (const made of makeContext(branch, base)) {
              tries.push(made.edits);
              // Break the new node the way the test asks (the edits refer to the document as the first ones left it).
              const after = parseXml(new TextEncoder().encode(applyEdits(base.xml, made.edits)));
              for (const e of editsAt(a, made.at, after)) tries.push([...made.edits, e]);
              for (const p of pairEdits(a, made.at, after)) tries.push([...made.edits, ...p]);
            }
        tries.push(...triggerEdits(a, base));
        for (const edits of tries) {
          if (done.has(a.id) || checks++ > 80) break;
          const candidate: Mutation = {
            name: `${a.id}#${++counter}`,
            base: base.name,
            target: a.id,
            ...edits[0],
            ...(edits.length > 1 ? { and: edits.slice(1) } : {}),
          };
          let xml: string;
          try {
            xml = applyMutation(baseBytes(candidate.base, CORPUS), candidate);
          } catch {
            continue;
          }
          const pre = await failsOn(a, xml, namespaces);
          if (process.env.DEBUG_SEARCH) process.stderr.write(`  ${base.name} ${JSON.stringify(edits)} → ${pre}\n`);
          if (pre === false) continue;
          if (pre === undefined && xsltRuns >= 4) continue;
          xsltRuns++;
          const verdict = runOfficial(sef, xml);
          if (!verdict) continue;
          kept = candidate;
          if (verdict.some((f) => f.id === a.id)) {
            done.add(a.id);
            appendFileSync(SEARCH_LOG, `${syntax} ${a.id}\n`);
          }
          if (xsltRuns >= 6) break;
        }
      }
      if (kept && done.has(a.id)) appendFileSync(MUTATIONS, `${JSON.stringify(kept)}\n`);
      process.stderr.write(`${syntax} ${a.id}: ${done.has(a.id) ? 'fires' : kept ? 'tried' : 'no candidate the XPath says fails'}\n`);
    }
  }
}

/** The base's XML after some edits (to find the paths of what they created). */
function applyEdits(xml: string, edits: Edit[]): string {
  const [first, ...rest] = edits;
  return applyMutation(new TextEncoder().encode(xml), { name: '', base: '', target: '', ...first, ...(rest.length ? { and: rest } : {}) });
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const corpus = await corpusInputs();
  const fixtures = fixtureInputs();
  const mutate = process.argv.indexOf('--mutate');
  if (mutate >= 0) {
    // `--mutate cii` or `--mutate ubl` searches one syntax (two processes can share the work), else both.
    const which = process.argv[mutate + 1];
    const syntaxes: Syntax[] = which === 'cii' || which === 'ubl' ? [which] : ['cii', 'ubl'];
    // `--only ID,ID` limits the search to those assert ids.
    const onlyAt = process.argv.indexOf('--only');
    const only = onlyAt >= 0 ? new Set(process.argv[onlyAt + 1].split(',')) : undefined;
    await searchMutations([...fixtures, ...corpus], syntaxes, only);
    if (process.argv.includes('--no-verdicts')) return;
  }
  const sefs = { cii: sefOf('cii'), ubl: sefOf('ubl') };
  const lines: string[] = [];
  const record = (name: string, syntax: Syntax, xml: string) => {
    const findings = runOfficial(sefs[syntax], xml);
    lines.push(
      JSON.stringify(findings ? { name, syntax, findings } : { name, syntax, error: 'the official XSLT stopped on a dynamic error' }),
    );
  };
  // `--append`: keep the stored verdicts of the corpus and of the mutations, judge our own invoices again (the writer may
  // have changed them) and the mutations that have no verdict yet (after a search).
  const verdictsFile = path.join(FIXTURES, 'verdicts.jsonl');
  const stored = (
    process.argv.includes('--append') && existsSync(verdictsFile) ? readFileSync(verdictsFile, 'utf8').split('\n') : []
  ).filter((l) => l && !l.startsWith('{"name":"fixture:'));
  const known = new Map(stored.map((l) => [(JSON.parse(l) as { name: string }).name, l]));
  for (const i of [...corpus, ...fixtures]) {
    const line = known.get(i.name);
    if (line) lines.push(line);
    else record(i.name, i.syntax, i.xml);
  }
  for (const m of readMutations()) {
    const line = known.get(`mutation:${m.name}`);
    if (line) {
      lines.push(line);
      continue;
    }
    const bytes = baseBytes(m.base, CORPUS);
    record(`mutation:${m.name}`, syntaxOf(bytes)!, applyMutation(bytes, m));
  }
  writeFileSync(path.join(FIXTURES, 'verdicts.jsonl'), lines.join('\n') + '\n');
  console.error(`wrote ${lines.length} verdicts`);
}

await main();
