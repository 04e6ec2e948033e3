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
import { parseXml, type XmlElement } from '../src/xml/dom.js';
import { findInvoiceAttachment, isPdf, readPdf } from '../src/pdf/extract.js';
import { FIXTURES, applyMutation, baseBytes, normalizedBase, type Mutation } from '../test/conformance/extended-ctc-fr-mutations.js';

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
function runOfficial(sef: string, xml: string): OfficialFinding[] | undefined {
  let r: { principalResult: string };
  try {
    r = SaxonJS.transform({ stylesheetFileName: sef, sourceText: xml, destination: 'serialized' }, 'sync');
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
}

const SCH_NS = 'http://purl.oclc.org/dsdl/schematron';

function assertsOf(syntax: Syntax): { asserts: Assert[]; namespaces: Record<string, string> } {
  const root = parseXml(new Uint8Array(readFileSync(path.join(RFE!, ARTEFACTS[syntax].sch)))).root;
  const namespaces: Record<string, string> = {};
  const asserts: Assert[] = [];
  const text = (el: XmlElement): string => el.text + el.children.map(text).join('');
  const attr = (el: XmlElement, n: string) => el.attrs.find((a) => a.local === n)?.value ?? '';
  for (const c of root.children) if (c.ns === SCH_NS && c.local === 'ns') namespaces[attr(c, 'prefix')] = attr(c, 'uri');
  for (const pattern of root.children.filter((c) => c.ns === SCH_NS && c.local === 'pattern'))
    for (const rule of pattern.children.filter((c) => c.local === 'rule'))
      for (const a of rule.children.filter((c) => c.local === 'assert')) {
        const id = attr(a, 'id') || /\[([A-Z][A-Z0-9-]*[0-9a-z])\]/.exec(text(a))?.[1] || 'NOID';
        asserts.push({ id, context: attr(rule, 'context'), test: attr(a, 'test') });
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
  if (!p || p.includes('@')) return undefined;
  return p
    .replace(/Q\{([^}]*)\}/g, (_m, uri: string) => {
      const prefix = byUri.get(uri);
      return prefix ? `${prefix}:` : '';
    })
    .replace(/\[1\]$/, '[1]');
}

/** Relative element paths a test mentions (`ram:A/ram:B`, `../cac:X`), with an optional trailing attribute. */
function pathsIn(test: string): string[] {
  const found = test.match(/(?:\.\.\/)*(?:(?:cac|cbc|ram|udt|qdt|rsm):[A-Za-z]+\/?)+(?:@[A-Za-z]+)?/g) ?? [];
  return [...new Set(found.map((s) => s.replace(/\/$/, '')))];
}

/**
 * Search mutations for the asserts of the given syntaxes, appending each kept one to mutations.jsonl as it is found
 * (a search takes long: an interrupted one resumes, asserts already in the file are skipped).
 */
async function searchMutations(inputs: Input[], syntaxes: Syntax[], perAssert = 3): Promise<void> {
  const have = new Set(readMutations().map((m) => `${syntaxOfBase(m.base)} ${m.target}`));
  for (const syntax of syntaxes) {
    const sef = sefOf(syntax);
    const { asserts, namespaces } = assertsOf(syntax);
    // XML bases only (a PDF's invoice is not a file a mutation can name), small ones first: the oracle runs faster on them.
    const bases = inputs
      .filter((i) => i.syntax === syntax && i.name.endsWith('.xml'))
      .sort((a, b) => a.xml.length - b.xml.length)
      .slice(0, 6);
    const byUris = bases.map((b) => documentPrefixes(b.xml));
    const docs = await Promise.all(bases.map((b) => SaxonJS.getResource({ text: b.xml, type: 'xml' })));
    const done = new Set<string>();
    for (const a of asserts) {
      if (done.has(a.id) || have.has(`${syntax} ${a.id}`)) continue;
      let kept: Mutation | undefined;
      let tries = 0;
      for (let b = 0; b < bases.length && tries < perAssert && !done.has(a.id); b++) {
        let nodes: unknown[];
        try {
          const r = SaxonJS.XPath.evaluate(contextXPath(a.context), docs[b], { namespaceContext: namespaces, resultForm: 'array' });
          nodes = Array.isArray(r) ? r : r ? [r] : [];
        } catch {
          nodes = [];
        }
        for (const node of nodes.slice(0, 1)) {
          const at = ourPath(node, byUris[b]);
          if (!at) continue;
          for (const candidate of candidates(a, at, bases[b].name)) {
            if (tries++ >= perAssert) break;
            let xml: string;
            try {
              xml = applyMutation(baseBytes(candidate.base, CORPUS), candidate);
            } catch {
              continue;
            }
            const verdict = runOfficial(sef, xml);
            if (!verdict) continue;
            kept = candidate;
            if (verdict.some((f) => f.id === a.id)) {
              done.add(a.id);
              break;
            }
          }
          if (done.has(a.id)) break;
        }
      }
      if (kept) appendFileSync(MUTATIONS, `${JSON.stringify(kept)}\n`);
      process.stderr.write(`${syntax} ${a.id}: ${done.has(a.id) ? 'fires' : kept ? 'tried' : 'no context in the bases'}\n`);
    }
  }
}

/** The syntax of a mutation's base, from its file (cached). */
const baseSyntax = new Map<string, Syntax | undefined>();
function syntaxOfBase(base: string): Syntax | undefined {
  if (!baseSyntax.has(base)) baseSyntax.set(base, syntaxOf(baseBytes(base, CORPUS)));
  return baseSyntax.get(base);
}

/** A context as an XPath selecting its nodes anywhere (Schematron contexts are match patterns). */
function contextXPath(context: string): string {
  return context
    .split('|')
    .map((c) => c.trim())
    .map((c) => (c.startsWith('/') || c.startsWith('(') ? c : `//${c}`))
    .join(' | ');
}

let counter = 0;
/** Edits derived from the test: remove or blank what it asks for, add what it forbids, break codes and amounts. */
function candidates(a: Assert, at: string, base: string): Mutation[] {
  const out: Mutation[] = [];
  const mk = (op: Mutation['op'], target: string, value?: string): Mutation => ({
    name: `${a.id}#${++counter}`,
    base,
    target: a.id,
    op,
    at: target,
    ...(value !== undefined ? { value } : {}),
  });
  const notPaths = [...a.test.matchAll(/not\(\s*((?:(?:cac|cbc|ram|udt|qdt|rsm):[A-Za-z]+\/?)+)\s*\)/g)].map((m) =>
    m[1].replace(/\/$/, ''),
  );
  for (const p of notPaths) out.push(mk('add', at, `${p}=X`));
  for (const p of pathsIn(a.test)) {
    if (p.startsWith('..') || p.includes('@')) continue;
    out.push(mk('add', at, `${p}=ZZ 9`));
  }
  if (/contains\(\s*'/.test(a.test)) out.push(mk('text', at, 'ZZZINVALID'));
  if (/@schemeID/.test(a.test)) out.push(mk('attr', at, 'schemeID=ZZZ'));
  if (/@unitCode/.test(a.test)) out.push(mk('unattr', at, 'unitCode'));
  if (/@mimeCode/.test(a.test)) out.push(mk('attr', at, 'mimeCode=application/zip'));
  out.push(mk('text', at, '12345.678'));
  out.push(mk('dup', at));
  out.push(mk('remove', at));
  return out;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const corpus = await corpusInputs();
  const fixtures = fixtureInputs();
  const mutate = process.argv.indexOf('--mutate');
  if (mutate >= 0) {
    // `--mutate cii` or `--mutate ubl` searches one syntax (two processes can share the work), else both.
    const only = process.argv[mutate + 1];
    const syntaxes: Syntax[] = only === 'cii' || only === 'ubl' ? [only] : ['cii', 'ubl'];
    await searchMutations([...fixtures, ...corpus], syntaxes);
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
  for (const i of [...corpus, ...fixtures]) record(i.name, i.syntax, i.xml);
  for (const m of readMutations()) {
    const bytes = baseBytes(m.base, CORPUS);
    record(`mutation:${m.name}`, syntaxOf(bytes)!, applyMutation(bytes, m));
  }
  writeFileSync(path.join(FIXTURES, 'verdicts.jsonl'), lines.join('\n') + '\n');
  console.error(`wrote ${lines.length} verdicts`);
}

await main();
