/**
 * Conformance: the EXTENDED-CTC-FR rule sets against the verdicts of FNFE-MPE's own compiled XSLT (France_RFE 1.4.0.x,
 * run by SaxonJS: scripts/extended-ctc-fr-verdicts.ts, stored in test/fixtures/extended-ctc-fr/verdicts.jsonl) on
 * every French invoice of the corpus (fr-ctc/: CII, UBL and the CII of the Factur-X PDFs, each judged as an
 * EXTENDED-CTC-FR invoice whatever its guideline), our own EXTENDED-CTC-FR invoices, and the mutations of both.
 * Compared: the assert ids fired, with their counts (one per context node, as the XSLT reports them).
 * Passes at ≥ 99.5% of the files agreeing and rule recall and precision ≥ 0.995; prints the figures.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { getRuleSet, runRules } from '../../src/rules/engine.js';
import '../../src/validation/validate.js';
import { parseXml } from '../../src/xml/dom.js';
import { readCii } from '../../src/syntax/cii/reader.js';
import { readUbl } from '../../src/syntax/ubl/reader.js';
import { findInvoiceAttachment, isPdf, readPdf } from '../../src/pdf/extract.js';
import { CORPUS } from './corpus.js';
import { FIXTURES, applyMutation, baseBytes, normalizedBase, type Mutation } from './extended-ctc-fr-mutations.js';

interface VerdictLine {
  name: string;
  syntax: 'cii' | 'ubl';
  findings?: { id: string; flag: string; location: string }[];
  error?: string;
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

async function inputXml(name: string, mutations: Map<string, Mutation>): Promise<string | undefined> {
  if (name.startsWith('mutation:')) {
    const m = mutations.get(name);
    return m ? applyMutation(baseBytes(m.base, CORPUS), m) : undefined;
  }
  let bytes: Uint8Array | undefined = baseBytes(name, CORPUS);
  if (isPdf(bytes)) bytes = await findInvoiceAttachment((await readPdf(bytes)).attachments)?.content();
  return bytes ? normalizedBase(bytes) : undefined;
}

function count(ids: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
  return m;
}

test('EXTENDED-CTC-FR (CII and UBL) agrees with the official XSLT on the French corpus and the mutations', async () => {
  const mutations = new Map(
    lines(`${FIXTURES}/mutations.jsonl`)
      .map((l) => JSON.parse(l) as Mutation)
      .map((m) => [`mutation:${m.name}`, m]),
  );
  const tally = { files: 0, agree: 0, tp: 0, fp: 0, fn: 0, noVerdict: 0 };
  const perKind = new Map<string, { files: number; agree: number }>();
  const fired = new Set<string>();
  const diffs: string[] = [];
  for (const line of lines(`${FIXTURES}/verdicts.jsonl`)) {
    const v = JSON.parse(line) as VerdictLine;
    if (!v.findings) {
      tally.noVerdict++;
      continue;
    }
    const xml = await inputXml(v.name, mutations);
    if (xml === undefined) continue;
    const doc = parseXml(new TextEncoder().encode(xml));
    const invoice = v.syntax === 'cii' ? readCii(doc.root) : readUbl(doc.root);
    const set = `extended-ctc-fr-${v.syntax}`;
    const ours = count(runRules(set, getRuleSet(set)!, { doc, invoice, syntax: v.syntax }).map((f) => f.ruleId ?? ''));
    const official = count(v.findings.map((f) => f.id));
    for (const id of official.keys()) fired.add(`${v.syntax} ${id}`);
    let same = true;
    for (const id of new Set([...ours.keys(), ...official.keys()])) {
      const a = official.get(id) ?? 0;
      const b = ours.get(id) ?? 0;
      tally.tp += Math.min(a, b);
      tally.fn += Math.max(0, a - b);
      tally.fp += Math.max(0, b - a);
      if (a !== b) {
        same = false;
        diffs.push(`${v.name}: ${id} official ${a}, ours ${b}`);
      }
    }
    tally.files++;
    if (same) tally.agree++;
    const kind = `${v.syntax} ${v.name.split(':')[0]}`;
    const k = perKind.get(kind) ?? { files: 0, agree: 0 };
    k.files++;
    if (same) k.agree++;
    perKind.set(kind, k);
  }
  const recall = tally.tp / Math.max(1, tally.tp + tally.fn);
  const precision = tally.tp / Math.max(1, tally.tp + tally.fp);
  console.log(
    `extended-ctc-fr: files ${tally.agree}/${tally.files} agree (${((100 * tally.agree) / tally.files).toFixed(2)}%), ` +
      `firings ${tally.tp} matched, ${tally.fn} missed, ${tally.fp} extra: recall ${recall.toFixed(4)}, precision ${precision.toFixed(4)}; ` +
      `${fired.size} distinct assert ids fired by the official XSLT; ${tally.noVerdict} inputs without verdict (the XSLT stopped on a dynamic error)`,
  );
  for (const [kind, k] of perKind) console.log(`  ${kind}: ${k.agree}/${k.files}`);
  if (process.env.CORPUS_DIFF) for (const d of diffs) console.log(`  ${d}`);
  assert.ok(tally.files > 100, `${tally.files} files compared`);
  // The target: 99.5% of the files, rule recall and precision 0.995.
  assert.ok(tally.agree / tally.files >= 0.995, `file agreement ${tally.agree}/${tally.files}: ${diffs.slice(0, 20).join('; ')}`);
  assert.ok(recall >= 0.995 && precision >= 0.995, `recall ${recall}, precision ${precision}: ${diffs.slice(0, 20).join('; ')}`);
});
