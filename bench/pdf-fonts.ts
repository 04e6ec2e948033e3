/**
 * The PDF/A font repairs (src/pdf/repair/fonts.ts) on real-world PDFs: for every file whose check reports a 6.2.11
 * clause, the repairs of those clauses run as the registry runs them (load with @cantoo/pdf-lib, apply, save), and
 * the bench prints the time per repaired file (median, p90, max; the repairs plus the save, not the check), the
 * bytes added (the subset programs), the clauses before and after, and what stayed unrepaired.
 *
 * Input: the folder given as argument, else test/fixtures/real-world-pdf/ (the real-world corpus), every *.pdf in it.
 * Run: node --import tsx bench/pdf-fonts.ts [folder]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { FONT_REPAIRS } from '../src/pdf/repair/fonts.js';
import { checkPdfa } from '../src/pdfa/index.js';

const dir = path.resolve(process.argv[2] ?? 'test/fixtures/real-world-pdf');
if (!existsSync(dir)) {
  console.log(`no corpus at ${dir}: pass a folder of PDFs`);
  process.exit(2);
}
const files: string[] = [];
const walk = (d: string) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    if (e.isDirectory()) walk(path.join(d, e.name));
    else if (e.name.toLowerCase().endsWith('.pdf')) files.push(path.join(d, e.name));
  }
};
walk(dir);
files.sort();

const before = new Map<string, number>();
const after = new Map<string, number>();
const unrepaired = new Map<string, number>();
const times: number[] = [];
const added: number[] = [];
const perRepair = new Map<string, number[]>();
let withFindings = 0;
let fixedAll = 0;
const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

for (const file of files) {
  const bytes = new Uint8Array(readFileSync(file));
  const report = checkPdfa(bytes, { part: 3 });
  const findings = report.findings.filter((f) => f.clause.startsWith('6.2.11'));
  if (findings.length === 0) continue;
  withFindings++;
  for (const c of new Set(findings.map((f) => f.clause))) count(before, c);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, parseSpeed: Infinity });
  } catch {
    count(unrepaired, 'unreadable by pdf-lib');
    continue;
  }
  const t0 = performance.now();
  for (const r of FONT_REPAIRS) {
    const mine = findings.filter((f) => r.clauses.includes(f.clause));
    if (mine.length === 0) continue;
    const t = performance.now();
    const out = await r.apply({ doc, findings: mine, deadline: Date.now() + 2000 });
    const list = perRepair.get(r.name) ?? [];
    list.push(performance.now() - t);
    perRepair.set(r.name, list);
    for (const u of out.unrepaired ?? [])
      count(unrepaired, `${u.clause} ${u.message.replace(/font \S+ /, 'font … ').replace(/\d+(, \d+)*/g, 'N')}`);
  }
  const saved = await doc.save({ useObjectStreams: true, addDefaultPage: false, updateFieldAppearances: false });
  times.push(performance.now() - t0);
  added.push(saved.length - bytes.length);
  const rest = checkPdfa(saved, { part: 3 }).findings.filter((f) => f.clause.startsWith('6.2.11'));
  for (const c of new Set(rest.map((f) => f.clause))) count(after, c);
  if (rest.length === 0) fixedAll++;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : Number.NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const kb = (x: number) => `${(x / 1024).toFixed(1)} KB`;
console.log(
  `${files.length} PDFs in ${path.relative(process.cwd(), dir) || dir}; ${withFindings} with a 6.2.11 finding; ${fixedAll} without one after the repairs`,
);
console.log(
  `time per repaired file (repairs + save): median ${ms(pct(times, 0.5))}, p90 ${ms(pct(times, 0.9))}, max ${ms(Math.max(...times))}`,
);
console.log(`bytes added per file: median ${kb(pct(added, 0.5))}, p90 ${kb(pct(added, 0.9))}, max ${kb(Math.max(...added))}`);
for (const [name, list] of perRepair)
  console.log(`  ${name}: ${list.length} files, median ${ms(pct(list, 0.5))}, max ${ms(Math.max(...list))}`);
console.log('files per clause, before → after:');
for (const c of [...new Set([...before.keys(), ...after.keys()])].sort())
  console.log(`  ${c}: ${before.get(c) ?? 0} → ${after.get(c) ?? 0}`);
if (unrepaired.size) {
  console.log('unrepaired (reported):');
  for (const [k, n] of [...unrepaired].sort((a, b) => b[1] - a[1])) console.log(`  ${n}× ${k}`);
}
