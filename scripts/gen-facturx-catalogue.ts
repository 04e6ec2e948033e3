/**
 * Turns the Factur-X profile rule catalogue (../shared/docs/rules/fx-*.tsv and fx-*.unnamed.tsv)
 * into src/rules/facturx/catalogue.data.ts, which is committed (the service runs without ../shared):
 * per profile, every assert id with its flag, and the "not used in this profile" reports (asserts
 * without an official id) with their contexts under our own stable id FX-NU-<hash>, where <hash> is
 * the synthetic suffix the corpus verdicts use (NOID-fx-<profile>-<hash>), so a finding can be traced.
 *
 * Usage: node --import tsx scripts/gen-facturx-catalogue.ts [path/to/shared/docs/rules]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { structureTests } from '../src/rules/facturx/structure.table.js';

const dir = process.argv[2] ?? path.resolve(process.cwd(), '../shared/docs/rules');
const output = path.resolve(process.cwd(), 'src/rules/facturx/catalogue.data.ts');
const PROFILES = ['fx-minimum', 'fx-basicwl', 'fx-basic', 'fx-en16931', 'fx-extended'];

/**
 * The oracle names a report without id NOID-<set>-<hash>, <hash> being Java's String.hashCode() of
 * `test + "|" + message` (whitespace collapsed; ../shared/docs/rules/README.md). The catalogue keeps
 * the hash but not the test, so the test is recovered by hashing the official report forms:
 * - attribute reports: test `@x`, message "Attribute @x' marked as not used in the given context.";
 * - element reports: test `true()`, message "Element 'ram:X' is marked as not used in the given
 *   context." (for a context step with a predicate: "Element variant 'ram:X[...]' ...").
 * Every hash must be recognised as one of these, or generation fails.
 */
function javaHash(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16).padStart(8, '0');
}
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
const reportHash = (test: string, message: string) => javaHash(`${collapse(test)}|${collapse(message)}`);

const ATTRIBUTE_CANDIDATES = [
  'currencyID',
  'schemeID',
  'listID',
  'listVersionID',
  'listAgencyID',
  'schemeAgencyID',
  'unitCode',
  'format',
  'mimeCode',
  'filename',
  'languageID',
];
const ATTRIBUTE_REPORTS: Record<string, string> = Object.fromEntries(
  ATTRIBUTE_CANDIDATES.map((a) => [reportHash(`@${a}`, `Attribute @${a}' marked as not used in the given context.`), a]),
);

/** The last step of a context path (the step may hold predicates with slashes). */
function lastStep(context: string): string {
  let depth = 0;
  for (let i = context.length - 1; i >= 0; i--) {
    const ch = context[i];
    if (ch === ']') depth++;
    else if (ch === '[') depth--;
    else if (ch === '/' && depth === 0) return context.slice(i + 1);
  }
  return context;
}
function isElementReport(hash: string, context: string): boolean {
  const step = lastStep(context);
  const message = step.includes('[')
    ? `Element variant '${step}' is marked as not used in the given context.`
    : `Element '${step}' is marked as not used in the given context.`;
  return reportHash('true()', message) === hash;
}

const rows = (file: string) =>
  readFileSync(path.join(dir, file), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split('\t'));

const body: string[] = [];
// The rule context of each structural assert (src/rules/facturx/structure.table.ts): the catalogue
// gives every id one context, the same in every profile that carries it (checked here).
const structural = structureTests();
const structureContexts = new Map<string, string>();
for (const p of PROFILES) {
  for (const [id, , context] of rows(`${p}.tsv`)) {
    if (!structural.has(id)) continue;
    const seen = structureContexts.get(id);
    if (seen !== undefined && seen !== context) throw new Error(`${id}: context differs between profiles`);
    structureContexts.set(id, context);
  }
}
for (const id of structural.keys())
  if (!structureContexts.has(id)) throw new Error(`${id}: in the structure table but in no profile catalogue`);
for (const p of PROFILES) {
  const asserts = rows(`${p}.tsv`).map(([id, flag]) => [
    id,
    flag.startsWith('warning') ? 'warning' : flag.startsWith('information') ? 'information' : 'error',
  ]);
  const reports = rows(`${p}.unnamed.tsv`).map(([noid, , contexts]) => {
    const hash = noid.slice(noid.lastIndexOf('-') + 1);
    const entry: Record<string, unknown> = { id: `FX-NU-${hash}`, contexts: contexts.split(' ; ') };
    if (ATTRIBUTE_REPORTS[hash]) entry.attribute = ATTRIBUTE_REPORTS[hash];
    else {
      const unknown = contexts.split(' ; ').filter((c) => !isElementReport(hash, c));
      if (unknown.length) throw new Error(`${noid}: not recognised as an attribute or element report in ${unknown[0]}`);
    }
    return entry;
  });
  body.push(`  ${JSON.stringify(p)}: {`);
  body.push(`    asserts: ${JSON.stringify(Object.fromEntries(asserts))},`);
  body.push(`    notUsed: ${JSON.stringify(reports)},`);
  body.push('  },');
}

writeFileSync(
  output,
  `/* Generated by scripts/gen-facturx-catalogue.ts from ../shared/docs/rules/fx-*.tsv: do not edit by hand. */
/**
 * The Factur-X / ZUGFeRD profile rule sets (ZUGFeRD 2.5 release line, mustangproject ZF_250): every
 * assert id per profile with our severity, and the "not used in this profile" reports under our ids.
 */
export interface NotUsedReport {
  /** Our stable id: FX-NU-<hash of the official report>. */
  id: string;
  /** Rule contexts (Schematron match patterns) of the report. */
  contexts: string[];
  /** When set, the report fires on this attribute of the context element; otherwise on the element itself. */
  attribute?: string;
}

export interface ProfileCatalogue {
  asserts: Record<string, 'error' | 'warning' | 'information'>;
  notUsed: NotUsedReport[];
}

export const FX_CATALOGUE: Record<string, ProfileCatalogue> = {
${body.join('\n')}
};

/** Rule context of each structural assert (FX-SCH-A-*) of src/rules/facturx/structure.table.ts. */
export const FX_STRUCTURE_CONTEXTS: Record<string, string> = ${JSON.stringify(Object.fromEntries([...structureContexts].sort(([a], [b]) => (a < b ? -1 : 1))), null, 1)};
`,
);
console.log(`wrote ${output}`);
