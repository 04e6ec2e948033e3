/**
 * The rendering against KoSIT's XRechnung visualisation (issue #32): what share of the (business term, value) pairs of
 * KoSIT's intermediate model (the `xr:` document its model-step XSLT builds from CII and UBL) our page shows.
 *
 *   KOSIT_VISUALIZATION=<checkout of github.com/itplr-kosit/xrechnung-visualization> \
 *     node --import tsx scripts/kosit-check.ts [--missing N] [PATH...]
 *
 * Each PATH (a file or a folder, walked for *.xml and *.pdf; default: the corpus, EINVOICE_CORPUS or ../shared/corpus)
 * is one set with its own figure. For every invoice our engine reads (CII other than ZUGFeRD 1.0, UBL Invoice and
 * CreditNote; the XML inside a PDF), KoSIT's src/xsl/cii-xr.xsl, ubl-invoice-xr.xsl or ubl-creditnote-xr.xsl runs on it
 * with Saxon-HE (SAXON_JAR, default Debian's /usr/share/java/Saxon-HE.jar: scripts/install-bench-tools.sh installs
 * it; one JVM per stylesheet, all files of a set at once), and every element of the result with an `xr:id` of a
 * business term (BT-…) and text is a pair; its scheme_identifier / scheme_version_identifier / mime_code / filename
 * attributes are the pairs BT-n-1 / BT-n-2 (BT-125-1 / BT-125-2 for the attachment), as EN 16931 numbers them, where
 * EN 16931 has such a term (EN16931_SCHEMES).
 * Our page for the same file (src/render, lang de) is read back with parse5 (test/render-terms.ts: data-bt and the
 * raw value of each element), and each KoSIT pair counts as found when the page shows that term with that value as
 * often as KoSIT has it. Values compare with whitespace collapsed (Base64 without whitespace); KoSIT joins several
 * BT-7, BT-9 and BT-20 values with ";", such a pair counts when every part is on the page. KoSIT's "ILLEGAL DATE
 * FORMAT" texts (its answer to a date it cannot read) and empty values (its UBL stylesheets write BT-24 even when the
 * invoice has none) are not invoice values and are left out of the count (reported). `--missing N` lists up to N
 * pairs not found per term.
 * Exit code: 0 when every set reaches 99 %, 1 otherwise, 2 when the tools are missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ingest, IngestError } from '../src/input/ingest.js';
import { renderIngested } from '../src/render/render.js';
import { NothingToRenderError } from '../src/render/errors.js';
import { parseXml, type XmlElement } from '../src/xml/dom.js';
import { pageTerms } from '../test/render-terms.js';

const XR_NS = 'urn:ce.eu:en16931:2017:xoev-de:kosit:standard:xrechnung-1';
const TARGET = 0.99;

const argv = process.argv.slice(2);
const missingAt = argv.indexOf('--missing');
const showMissing = missingAt >= 0 ? Number(argv[missingAt + 1]) : 0;
const paths = argv.filter((a, i) => !a.startsWith('--') && (missingAt < 0 || i !== missingAt + 1));

const vis = process.env.KOSIT_VISUALIZATION;
const saxon = process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar';
if (!vis || !existsSync(join(vis, 'src/xsl/cii-xr.xsl'))) {
  console.log('KOSIT_VISUALIZATION must name a checkout of github.com/itplr-kosit/xrechnung-visualization (src/xsl/cii-xr.xsl)');
  process.exit(2);
}
if (!existsSync(saxon) || spawnSync('java', ['-version']).status !== 0) {
  console.log(`needs java and a Saxon-HE jar at ${saxon} (SAXON_JAR; scripts/install-bench-tools.sh installs Debian's)`);
  process.exit(2);
}

type Kind = 'cii' | 'ubl-invoice' | 'ubl-creditnote';
const XSL: Record<Kind, string> = {
  cii: 'src/xsl/cii-xr.xsl',
  'ubl-invoice': 'src/xsl/ubl-invoice-xr.xsl',
  'ubl-creditnote': 'src/xsl/ubl-creditnote-xr.xsl',
};

function walk(p: string, out: string[] = []): string[] {
  if (statSync(p).isFile()) {
    if (/\.(xml|pdf)$/i.test(p)) out.push(p);
    return out;
  }
  for (const e of readdirSync(p, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) walk(join(p, e.name), out);
  return out;
}

const norm = (bt: string, v: string) => (bt === 'BT-125' ? v.replace(/\s+/g, '') : v.replace(/\s+/g, ' ').trim());
const key = (bt: string, v: string) => `${bt}\u0000${norm(bt, v)}`;

/**
 * The scheme terms EN 16931 defines (BT-n-1 scheme identifier, BT-n-2 scheme version); KoSIT also writes a
 * scheme_identifier for terms that have none in EN 16931 (CII's "VA" / "FC" qualifiers of BT-31, BT-32, BT-48, BT-63,
 * UBL's "SEPA" on BT-90): syntax qualifiers, not values of the invoice, so not counted.
 */
const EN16931_SCHEMES = new Set([
  'BT-18-1',
  'BT-29-1',
  'BT-30-1',
  'BT-34-1',
  'BT-46-1',
  'BT-47-1',
  'BT-49-1',
  'BT-60-1',
  'BT-61-1',
  'BT-71-1',
  'BT-128-1',
  'BT-157-1',
  'BT-158-1',
  'BT-158-2',
]);

/** KoSIT's pairs: every xr element with a BT id and text, and its scheme / attachment attributes. */
function kositPairs(root: XmlElement): [string, string][] {
  const out: [string, string][] = [];
  const stack = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    const id = el.attrs.find((a) => a.ns === XR_NS && a.local === 'id')?.value;
    if (id?.startsWith('BT-') && el.children.length === 0) {
      out.push([id, el.text]);
      for (const a of el.attrs) {
        if (a.ns !== '') continue;
        if (a.local === 'scheme_identifier' && EN16931_SCHEMES.has(`${id}-1`)) out.push([`${id}-1`, a.value]);
        else if (a.local === 'scheme_version_identifier' && EN16931_SCHEMES.has(`${id}-2`)) out.push([`${id}-2`, a.value]);
        else if (a.local === 'mime_code') out.push(['BT-125-1', a.value]);
        else if (a.local === 'filename') out.push(['BT-125-2', a.value]);
      }
    }
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
  }
  return out;
}

interface SetResult {
  files: number;
  compared: number;
  notInvoices: number;
  kositFailed: string[];
  pairs: number;
  found: number;
  illegalDates: number;
  /** Empty KoSIT values: its UBL stylesheets write BT-24 even when the invoice has no CustomizationID. */
  empty: number;
  missingByTerm: Map<string, number>;
  missing: { file: string; bt: string; value: string }[];
}

async function checkSet(setPath: string, work: string): Promise<SetResult> {
  const result: SetResult = {
    files: 0,
    compared: 0,
    notInvoices: 0,
    kositFailed: [],
    pairs: 0,
    found: 0,
    illegalDates: 0,
    empty: 0,
    missingByTerm: new Map(),
    missing: [],
  };
  const files = walk(setPath);
  result.files = files.length;
  const inputs = new Map<string, { file: string; kind: Kind; html: string }>();
  let n = 0;
  for (const file of files) {
    let ing;
    try {
      ing = await ingest(readFileSync(file), file);
    } catch (err) {
      if (err instanceof IngestError) {
        result.notInvoices++;
        continue;
      }
      throw err;
    }
    if (!ing.invoice || !ing.doc || (ing.syntax !== 'cii' && ing.syntax !== 'ubl')) {
      result.notInvoices++;
      continue;
    }
    let html: string;
    try {
      html = renderIngested(ing, { lang: 'de' }).html;
    } catch (err) {
      if (err instanceof NothingToRenderError) {
        result.notInvoices++;
        continue;
      }
      throw err;
    }
    const kind: Kind = ing.syntax === 'cii' ? 'cii' : ing.doc.root.local === 'CreditNote' ? 'ubl-creditnote' : 'ubl-invoice';
    const name = `${String(++n).padStart(5, '0')}.xml`;
    mkdirSync(join(work, 'in', kind), { recursive: true });
    writeFileSync(join(work, 'in', kind, name), ing.xmlBytes!);
    inputs.set(`${kind}/${name}`, { file, kind, html });
  }
  for (const kind of Object.keys(XSL) as Kind[]) {
    const dir = join(work, 'in', kind);
    if (!existsSync(dir)) continue;
    mkdirSync(join(work, 'out', kind), { recursive: true });
    // One JVM per stylesheet: Saxon transforms every file of the folder; a file it fails on has no output.
    spawnSync(
      'java',
      ['-cp', saxon, 'net.sf.saxon.Transform', `-xsl:${join(vis!, XSL[kind])}`, `-s:${dir}`, `-o:${join(work, 'out', kind)}`],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      },
    );
  }
  for (const [rel, { file, html }] of inputs) {
    const out = join(work, 'out', rel);
    if (!existsSync(out)) {
      result.kositFailed.push(file);
      continue;
    }
    result.compared++;
    const page = new Map<string, number>();
    for (const t of pageTerms(html)) page.set(key(t.bt, t.value), (page.get(key(t.bt, t.value)) ?? 0) + 1);
    const take = (bt: string, v: string) => {
      const k = key(bt, v);
      const c = page.get(k) ?? 0;
      if (c === 0) return false;
      page.set(k, c - 1);
      return true;
    };
    for (const [bt, value] of kositPairs(parseXml(readFileSync(out)).root)) {
      if (value.startsWith('ILLEGAL DATE FORMAT')) {
        result.illegalDates++;
        continue;
      }
      if (value.trim() === '') {
        result.empty++;
        continue;
      }
      result.pairs++;
      const found =
        take(bt, value) ||
        ((bt === 'BT-7' || bt === 'BT-9' || bt === 'BT-20') && value.includes(';') && value.split(';').every((part) => take(bt, part)));
      if (found) result.found++;
      else {
        result.missingByTerm.set(bt, (result.missingByTerm.get(bt) ?? 0) + 1);
        result.missing.push({ file, bt, value });
      }
    }
  }
  return result;
}

const sets = paths.length > 0 ? paths : [resolve(process.env.EINVOICE_CORPUS ?? '../shared/corpus')];
const work = mkdtempSync(join(tmpdir(), 'kosit-check-'));
let allMet = true;
try {
  let pairs = 0;
  let found = 0;
  for (const [i, set] of sets.entries()) {
    const r = await checkSet(set, join(work, String(i)));
    pairs += r.pairs;
    found += r.found;
    const share = r.pairs ? r.found / r.pairs : 1;
    if (share < TARGET) allMet = false;
    const terms = [...r.missingByTerm].sort((a, b) => b[1] - a[1]);
    console.log(
      `${set}: ${r.files} files, ${r.compared} compared with KoSIT (${r.notInvoices} not invoices we read, ${r.kositFailed.length} KoSIT's XSLT failed on); ` +
        `${r.found} of ${r.pairs} KoSIT (term, value) pairs on our page = ${(share * 100).toFixed(2)} %` +
        (r.illegalDates ? `; ${r.illegalDates} "ILLEGAL DATE FORMAT" values left out` : '') +
        (r.empty ? `; ${r.empty} empty values left out` : ''),
    );
    if (terms.length) console.log(`  not found, by term: ${terms.map(([bt, c]) => `${bt} ${c}`).join(', ')}`);
    const shown = new Map<string, number>();
    for (const m of r.missing) {
      const n = shown.get(m.bt) ?? 0;
      if (n >= showMissing) continue;
      shown.set(m.bt, n + 1);
      console.log(`  ${m.bt} ${JSON.stringify(m.value.slice(0, 80))}  ${m.file}`);
    }
    if (r.kositFailed.length)
      console.log(`  KoSIT failed on: ${r.kositFailed.slice(0, 10).join(', ')}${r.kositFailed.length > 10 ? ', …' : ''}`);
  }
  if (sets.length > 1) console.log(`all sets: ${found} of ${pairs} = ${((found / Math.max(1, pairs)) * 100).toFixed(2)} %`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(allMet ? 0 : 1);
