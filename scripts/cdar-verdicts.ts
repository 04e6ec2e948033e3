/**
 * The official verdicts on lifecycle status messages: FNFE-MPE's BR-FR-CDV XSLT (standard and transition edition,
 * run by SaxonJS) and the CDAR D22B XSD (libxml2), both from a checkout of fnfempe/France_RFE (scripts/cdar-oracle.ts).
 * Writes test/fixtures/cdar/verdicts.jsonl, which the tests compare the service with, and the official rule-id list
 * test/fixtures/rule-ids/br-fr-cdv.txt. The verdicts (ids, flags, schema validity) are facts about our files; the
 * artefacts stay out of the repository.
 *
 *   npm install --no-save xslt3@2.7.0
 *   FRANCE_RFE=<checkout of fnfempe/France_RFE> [CDAR_EXAMPLES=<folder of official CDAR examples>] \
 *     node --import tsx scripts/cdar-verdicts.ts
 *
 * Inputs: every status code × role combination (test/cdar-combinations.ts) built by POST /v1/status's builder, the
 * mutations of test/cdar-mutations.ts, and, with CDAR_EXAMPLES, every CDAR file below that folder (the XP Z12-012 /
 * XP Z12-014 annex examples; identified by their SHA-256, so the conformance suite finds them wherever they are).
 * The script fails when a combination does not pass the official XSD and XSLT without a fatal assert.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildStatusMessage } from '../src/cdar/build.js';
import { statusCombinations } from '../test/cdar-combinations.js';
import { CDAR_MUTATIONS, mutatedXml } from '../test/cdar-mutations.js';
import { CdarOracle, type OfficialFinding } from './cdar-oracle.js';

const RFE = process.env.FRANCE_RFE;
if (!RFE) {
  console.error('Set FRANCE_RFE to a checkout of fnfempe/France_RFE (release 1.4.0.x).');
  process.exit(2);
}
const oracle = new CdarOracle(RFE);
const FIXTURES = path.join(import.meta.dirname, '../test/fixtures');

export interface CdarVerdict {
  kind: 'combination' | 'mutation' | 'example';
  name: string;
  /** Examples: the SHA-256 of the file's bytes. */
  sha256?: string;
  xsd: { valid: boolean; errors: number; first_line?: number };
  /** Failed asserts of the standard edition: id and flag; null when the stylesheet stopped on a dynamic error. */
  findings: { id: string; flag: string }[] | null;
  /** The transition edition's flags differ (every assert a warning); its ids are checked to be the same. */
}

const slim = (f: OfficialFinding[]) => f.map(({ id, flag }) => ({ id, flag }));

function verdict(kind: CdarVerdict['kind'], name: string, xml: string, sha256?: string): CdarVerdict {
  const xsd = oracle.xsd(xml);
  const fatal = oracle.schematron(xml, 'fatal');
  // The transition edition on the files that fail something (the combinations pass both: half the run time).
  if (kind !== 'combination') {
    const warning = oracle.schematron(xml, 'warning');
    const ids = (f: OfficialFinding[] | undefined) =>
      f
        ? f
            .map((x) => x.id)
            .sort()
            .join(' ')
        : null;
    if (ids(fatal) !== ids(warning)) throw new Error(`${name}: the two editions disagree on ids (${ids(fatal)} | ${ids(warning)})`);
    if (warning?.some((f) => f.flag !== 'warning')) throw new Error(`${name}: a transition-edition assert is not a warning`);
  }
  return {
    kind,
    name,
    ...(sha256 ? { sha256 } : {}),
    xsd: { valid: xsd.valid, errors: xsd.errors.length, ...(xsd.errors[0] ? { first_line: xsd.errors[0].line } : {}) },
    findings: fatal ? slim(fatal) : null,
  };
}

const out: CdarVerdict[] = [];
let refused = 0;
const combinations = statusCombinations();
for (const [i, c] of combinations.entries()) {
  const built = buildStatusMessage(c.message);
  const v = verdict('combination', c.name, built.xml);
  if (!v.xsd.valid || v.findings === null || v.findings.some((f) => f.flag === 'fatal')) {
    refused++;
    console.error(`combination ${c.name}: official verdict ${JSON.stringify(v)}`);
  }
  out.push(v);
  if (i % 200 === 0) console.error(`combinations: ${i}/${combinations.length}`);
}
for (const m of CDAR_MUTATIONS) out.push(verdict('mutation', m.name, mutatedXml(m)));

const examples = process.env.CDAR_EXAMPLES;
if (examples) {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((e) => {
      const p = path.join(dir, e);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
  const seen = new Set<string>();
  for (const file of walk(examples).sort()) {
    if (!file.endsWith('.xml')) continue;
    const bytes = readFileSync(file);
    if (!bytes.includes('CrossDomainAcknowledgementAndResponse')) continue;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (seen.has(sha256)) continue;
    seen.add(sha256);
    out.push(verdict('example', path.relative(examples, file), bytes.toString('utf8'), sha256));
  }
}

mkdirSync(path.join(FIXTURES, 'cdar'), { recursive: true });
writeFileSync(path.join(FIXTURES, 'cdar/verdicts.jsonl'), out.map((v) => JSON.stringify(v)).join('\n') + '\n');
const ids = oracle.assertIds('fatal');
writeFileSync(path.join(FIXTURES, 'rule-ids/br-fr-cdv.txt'), ids.map((a) => `${a.id}\t${a.flag}`).join('\n') + '\n');
const counts = { combination: 0, mutation: 0, example: 0 };
for (const v of out) counts[v.kind]++;
console.log(
  `${out.length} verdicts (${JSON.stringify(counts)}), ${ids.length} asserts; ${refused} combinations refused by the official artefacts`,
);
if (refused > 0) process.exit(1);
