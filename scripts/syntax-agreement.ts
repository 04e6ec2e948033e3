/**
 * Agreement of our syntax rules (CII-SR/CII-DT, UBL-SR/UBL-CR/UBL-DT) with the official verdicts
 * of ../shared/corpus/verdicts.jsonl, for the en16931-cii / en16931-ubl rule sets.
 *
 *   node --import tsx scripts/syntax-agreement.ts [--diff]
 *
 * Prints file-level and rule-level figures per rule set, errors and warnings separately; with
 * --diff also every file whose syntax-rule ids differ.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseXml, type XmlDoc } from '../src/xml/dom.js';
import { findInvoiceAttachment, isPdf, readPdf } from '../src/pdf/extract.js';
import { evaluateCiiSyntax, ciiSyntaxSeverity } from '../src/syntax/cii/rules.js';
import { evaluateUblSyntax, ublSyntaxSeverity } from '../src/syntax/ubl/rules.js';

const corpus = path.resolve(process.cwd(), '../shared/corpus');
const showDiff = process.argv.includes('--diff');
const SYNTAX_ID = /^(CII-SR|CII-DT|UBL-SR|UBL-CR|UBL-DT)-/;

interface Verdict {
  file: string;
  syntax: string;
  rulesets: string[];
  errors: { id: string; ruleset: string; location?: string }[];
  warnings: { id: string; ruleset: string; location?: string }[];
}

/** Locations compared without namespace prefixes (the verdicts drop them). */
const bare = (loc: string | undefined) => (loc ?? '').replace(/\/[^/:[\]]+:/g, '/');
let locExpected = 0;
let locMatched = 0;

async function xmlOf(file: string): Promise<Uint8Array | undefined> {
  const bytes = new Uint8Array(readFileSync(path.join(corpus, file)));
  if (!isPdf(bytes)) return bytes;
  try {
    const pdf = await readPdf(bytes);
    return findInvoiceAttachment(pdf.attachments)?.content();
  } catch {
    return undefined;
  }
}

type Tally = {
  files: number;
  filesAgree: number;
  expected: number;
  found: number;
  matched: number;
  /** Firings counted one per context element, as the artefact reports them. */
  firingsExpected: number;
  firingsMatched: number;
  firingsFound: number;
};
const newTally = (): Tally => ({
  files: 0,
  filesAgree: 0,
  expected: 0,
  found: 0,
  matched: 0,
  firingsExpected: 0,
  firingsMatched: 0,
  firingsFound: 0,
});

function countFirings(t: Tally, expected: Map<string, number>, found: Map<string, number>): void {
  for (const [id, n] of expected) {
    t.firingsExpected += n;
    t.firingsMatched += Math.min(n, found.get(id) ?? 0);
  }
  for (const n of found.values()) t.firingsFound += n;
}

function tallyIds(ids: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
  return m;
}

function compare(t: Tally, expected: Set<string>, found: Set<string>): boolean {
  t.files++;
  t.expected += expected.size;
  t.found += found.size;
  let same = expected.size === found.size;
  for (const id of expected)
    if (found.has(id)) t.matched++;
    else same = false;
  if (same) t.filesAgree++;
  return same;
}

const tallies = new Map<string, { errors: Tally; warnings: Tally }>();
const lines = readFileSync(path.join(corpus, 'verdicts.jsonl'), 'utf8').split('\n').filter(Boolean);
let skipped = 0;
const diffs: string[] = [];
for (const line of lines) {
  const v = JSON.parse(line) as Verdict;
  const ruleSet = v.rulesets.find((r) => r === 'en16931-cii' || r === 'en16931-ubl');
  if (!ruleSet) continue;
  const xml = await xmlOf(v.file);
  let doc: XmlDoc;
  try {
    if (!xml) throw new Error('no xml');
    doc = parseXml(xml);
  } catch {
    skipped++;
    continue;
  }
  const isCii = ruleSet === 'en16931-cii';
  const result = isCii ? evaluateCiiSyntax(doc) : evaluateUblSyntax(doc);
  const severity = isCii ? ciiSyntaxSeverity : ublSyntaxSeverity;
  const foundErr = new Set<string>();
  const foundWarn = new Set<string>();
  for (const [id] of result) (severity(id) === 'error' ? foundErr : foundWarn).add(id);
  const pick = (list: { id: string; ruleset: string }[]) =>
    new Set(list.filter((f) => f.ruleset === ruleSet && SYNTAX_ID.test(f.id)).map((f) => f.id));
  const expErr = pick(v.errors);
  const expWarn = pick(v.warnings);
  let t = tallies.get(ruleSet);
  if (!t) tallies.set(ruleSet, (t = { errors: newTally(), warnings: newTally() }));
  const a = compare(t.errors, expErr, foundErr);
  const b = compare(t.warnings, expWarn, foundWarn);
  const pickAll = (list: { id: string; ruleset: string }[]) =>
    list.filter((f) => f.ruleset === ruleSet && SYNTAX_ID.test(f.id)).map((f) => f.id);
  const firings = (want: 'error' | 'warning') =>
    tallyIds([...result].flatMap(([id, vs]) => (severity(id) === want ? vs.map(() => id) : [])));
  countFirings(t.errors, tallyIds(pickAll(v.errors)), firings('error'));
  countFirings(t.warnings, tallyIds(pickAll(v.warnings)), firings('warning'));
  const ours = tallyIds([...result].flatMap(([id, vs]) => vs.map((x) => `${id} ${bare(x.location)}`)));
  for (const f of [...v.errors, ...v.warnings]) {
    if (f.ruleset !== ruleSet || !SYNTAX_ID.test(f.id) || !f.location) continue; // unit-test verdicts carry no location
    locExpected++;
    const key = `${f.id} ${bare(f.location)}`;
    const n = ours.get(key) ?? 0;
    if (n > 0) {
      locMatched++;
      ours.set(key, n - 1);
    }
  }
  if (!a || !b) {
    const fmt = (e: Set<string>, f: Set<string>) =>
      `missing [${[...e].filter((x) => !f.has(x)).join(' ')}] extra [${[...f].filter((x) => !e.has(x)).join(' ')}]`;
    diffs.push(`${v.file}\n   errors ${fmt(expErr, foundErr)}\n   warnings ${fmt(expWarn, foundWarn)}`);
  }
}

for (const [rs, t] of tallies) {
  for (const [kind, x] of Object.entries(t)) {
    console.log(
      `${rs} ${kind.padEnd(8)} files ${x.filesAgree}/${x.files} agree; rule ids: ${x.matched}/${x.expected} expected found, ${x.found - x.matched} extra; ` +
        `firings: ${x.firingsMatched}/${x.firingsExpected} matched, ${x.firingsFound - x.firingsMatched} extra`,
    );
  }
}
console.log(`firings at the same location as the verdict (where it gives one): ${locMatched}/${locExpected}`);
console.log(`skipped (no readable XML): ${skipped}`);
if (showDiff) for (const d of diffs) console.log(d);
else console.log(`${diffs.length} files differ (run with --diff to list them)`);
