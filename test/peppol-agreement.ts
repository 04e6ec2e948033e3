/**
 * Agreement of the native Peppol rule sets with official verdicts (scripts/peppol-oracle/run_oracle.py): per invoice
 * and rule set, the multiset of (rule id, severity) and of (rule id, location) must equal the official one. Shared
 * by the conformance test (the committed verdicts of our generated invoices) and by scripts/peppol-agreement.ts (any
 * folder judged by the oracle, e.g. OpenPeppol's published examples and rule tests).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ingest } from '../src/input/ingest.js';
import { getRuleSet, INTERNAL_RULE_ERROR, runRules } from '../src/rules/engine.js';
import type { RuleContext } from '../src/rules/types.js';
import { parseXml } from '../src/xml/dom.js';
import '../src/rules/peppol/index.js';

export interface OracleVerdict {
  file: string;
  ruleset: string;
  errors?: { id: string; location: string }[];
  warnings?: { id: string; location: string }[];
  /** The official artefact stopped with a dynamic error: no verdict. */
  error?: string;
}

export interface Tally {
  files: number;
  filesAgreeing: number;
  filesAgreeingWithLocations: number;
  tp: number;
  fp: number;
  fn: number;
  diffs: string[];
}

export const newTally = (): Tally => ({ files: 0, filesAgreeing: 0, filesAgreeingWithLocations: 0, tp: 0, fp: 0, fn: 0, diffs: [] });

export function readVerdicts(file: string): OracleVerdict[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as OracleVerdict);
}

/** The document a rule set runs on: ingest() as the service reads uploads; a fragment (a rule test) parsed as XML. */
export async function contextOf(file: string): Promise<RuleContext> {
  const bytes = readFileSync(file);
  try {
    const ing = await ingest(bytes, path.basename(file));
    if (ing.doc && ing.invoice) return { doc: ing.doc, invoice: ing.invoice, syntax: 'ubl' };
  } catch {
    // not an invoice the model can read: the rules still run on the document
  }
  return { doc: parseXml(bytes), invoice: {} as RuleContext['invoice'], syntax: 'ubl' };
}

const multiset = (xs: string[]) => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
};

/** Our location in the oracle's form: local names only (`/Invoice[1]/AccountingSupplierParty[1]/…`). */
const localPath = (location: string | undefined) => (location ?? '').replace(/\/[A-Za-z0-9_.-]+:/g, '/');

/** Compare one verdict with our findings; adds to the tally. */
export function compareOne(v: OracleVerdict, ctx: RuleContext, t: Tally): void {
  const rules = getRuleSet(v.ruleset);
  if (!rules) throw new Error(`rule set ${v.ruleset} is not registered`);
  const findings = runRules(v.ruleset.replace(/@.*$/, ''), rules, ctx);
  const expected = [...(v.errors ?? []).map((e) => ({ ...e, sev: 'error' })), ...(v.warnings ?? []).map((e) => ({ ...e, sev: 'warning' }))];
  const got = findings.map((f) => ({ id: f.ruleId ?? '', sev: f.severity, location: localPath(f.location) }));
  const e = multiset(expected.map((x) => `${x.id} ${x.sev}`));
  const g = multiset(got.map((x) => `${x.id} ${x.sev}`));
  const d: string[] = [];
  for (const k of new Set([...e.keys(), ...g.keys()])) {
    const x = e.get(k) ?? 0;
    const y = g.get(k) ?? 0;
    t.tp += Math.min(x, y);
    if (x > y) {
      t.fn += x - y;
      d.push(`-${k}${x - y > 1 ? `×${x - y}` : ''}`);
    }
    if (y > x) {
      t.fp += y - x;
      d.push(`+${k}${y - x > 1 ? `×${y - x}` : ''}`);
    }
  }
  for (const f of findings) if (f.ruleId === INTERNAL_RULE_ERROR) d.push(`!${f.message}`);
  t.files++;
  if (d.length === 0) {
    t.filesAgreeing++;
    const el = multiset(expected.map((x) => `${x.id} ${x.location}`));
    const gl = multiset(got.map((x) => `${x.id} ${x.location}`));
    const same = el.size === gl.size && [...el].every(([k, n]) => gl.get(k) === n);
    if (same) t.filesAgreeingWithLocations++;
    else t.diffs.push(`${v.ruleset} ${v.file}: same ids, other locations`);
  } else t.diffs.push(`${v.ruleset} ${v.file}: ${d.join(' ')}`);
}

export const recall = (t: Tally) => (t.tp + t.fn === 0 ? 1 : t.tp / (t.tp + t.fn));
export const precision = (t: Tally) => (t.tp + t.fp === 0 ? 1 : t.tp / (t.tp + t.fp));
