/**
 * CII ⇄ UBL over the corpus (#33): every invoice the official verdicts call valid — the CEN examples, the XRechnung
 * instances (under the current XRechnung release, 2.5.0, the service's default), the Factur-X / ZUGFeRD files of the
 * BASIC, EN 16931, EXTENDED and XRechnung profiles (XML and the XML in PDFs) and the UBL files — is transformed to
 * the other syntax with the default target profile and
 * 1. the target is valid under the rule sets its identifiers select (XSD layer included), apart from the findings of
 *    rules whose official CII and UBL artefacts disagree on the same content (ASYMMETRIC below, each with why);
 * 2. transformed back, the model says the same as the source's: every difference between the two is listed in the
 *    dropped list of one of the two steps (only the syntax's own additions, SYNTAX_ADDITIONS, are allowed besides).
 * The figures (files, valid targets, equal round trips, what was dropped and how often) are printed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ingest } from '../../src/input/ingest.js';
import { diffInvoices } from '../../src/transform/model-diff.js';
import { transformIngested, type TransformResult } from '../../src/transform/transform.js';
import { validateBytes } from '../../src/validation/validate.js';
import { corpusPath } from './corpus.js';

interface Verdict {
  file: string;
  syntax: string;
  profile: string | null;
  valid: boolean | null;
}

const lines = (name: string) =>
  readFileSync(corpusPath(name), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Verdict);
const current = new Map(lines('verdicts-xrechnung-2.5.jsonl').map((v) => [v.file, v]));
const verdicts = lines('verdicts.jsonl').map((v) => current.get(v.file) ?? v);

const PROFILES = new Set(['basic', 'en16931', 'extended', 'xrechnung']);
const SOURCES = ['en16931/examples/', 'xrechnung/instances/', 'zugferd/'];

/**
 * Rules whose official CII and UBL artefacts judge the same business content differently: a source valid in its own
 * syntax can break them in the other. The transform carries the content as it is; it does not repair the source.
 */
const ASYMMETRIC: Record<'cii' | 'ubl', Record<string, string>> = {
  ubl: {
    'BR-CO-15':
      'the CII rule also accepts a total with VAT (BT-112) equal to the total without VAT (BT-109); the UBL rule wants BT-109 + BT-110',
  },
  cii: {
    'BR-E-01':
      "the UBL rule counts the breakdown's own cac:TaxCategory as a use of category E, so an E breakdown without an E line passes in UBL; the CII rule refuses it (the transform leaves out such entries when their amounts are zero)",
    'BR-S-08': 'the CII rule computes the category base from the CII elements differently (document charges and allowances per rate)',
    'BR-53':
      'a VAT accounting currency (BT-6) equal to the invoice currency: the UBL rule finds BT-111 in the one TaxAmount, CII needs its own',
    'BR-CO-15': 'follows from BR-53: CII then counts the invoice currency twice',
    'FX-SCH-A-000042': 'follows from BR-53 (Factur-X: one TaxTotalAmount per currency)',
    'FX-SCH-A-000192': 'follows from BR-53',
    'FX-SCH-A-000587': 'the Factur-X EN16931 code list of VAT categories is narrower than EN 16931 (e.g. B, split payment)',
    'FX-SCH-A-000619': 'the same, on a line',
  },
};

/**
 * Terms the target syntax adds that the source may lack: UBL writes BT-110 as the sum of the breakdown (TaxTotal needs
 * its TaxAmount); with the VAT accounting currency equal to the invoice currency (BT-6 = BT-5) the CII reader reads the
 * one TaxTotalAmount in it as BT-110 and BT-111.
 */
const SYNTAX_ADDITIONS = new Set(['BT-110', 'BT-111']);

const pattern = (path: string) => path.replace(/\[\d+\]/g, '[]');

for (const from of ['cii', 'ubl'] as const) {
  const to = from === 'cii' ? 'ubl' : 'cii';
  test(`${from.toUpperCase()} → ${to.toUpperCase()} → ${from.toUpperCase()} over the corpus's valid invoices`, async () => {
    const files = verdicts.filter(
      (v) =>
        v.valid === true &&
        v.syntax === from &&
        SOURCES.some((s) => v.file.startsWith(s)) &&
        (from === 'ubl' || v.file.startsWith('en16931/') || PROFILES.has(v.profile ?? '')),
    );
    assert.ok(files.length > 100, `${files.length} files`);
    let valid = 0;
    let equal = 0;
    const asymmetric = new Map<string, number>();
    const invalid: string[] = [];
    const unequal: string[] = [];
    const droppedFiles = new Map<string, number>();
    for (const v of files) {
      const bytes = new Uint8Array(readFileSync(corpusPath(v.file)));
      const there: TransformResult = transformIngested(await ingest(bytes, v.file), { to });
      const result = await validateBytes(new Uint8Array(Buffer.from(there.xml)), 'target.xml');
      const errors = result.errors.filter((e) => e.severity === 'error');
      const unexplained = errors.filter((e) => !ASYMMETRIC[to][e.rule_id ?? '']);
      if (unexplained.length) invalid.push(`${v.file}: ${unexplained.map((e) => `${e.rule_id} ${e.location ?? ''}`).join('; ')}`);
      else if (errors.length === 0) valid++;
      for (const e of errors) if (e.rule_id && ASYMMETRIC[to][e.rule_id]) asymmetric.set(e.rule_id, (asymmetric.get(e.rule_id) ?? 0) + 1);

      const back = transformIngested(await ingest(Buffer.from(there.xml), 'target.xml'), { to: from });
      const again = (await ingest(Buffer.from(back.xml), 'back.xml')).invoice!;
      const source = (await ingest(bytes, v.file)).invoice!;
      const listed = new Set([...there.dropped, ...back.dropped].map((d) => `${d.term}|${d.path}`));
      const differences = diffInvoices(source, again).filter((d) =>
        d.a === undefined ? !SYNTAX_ADDITIONS.has(d.term) : !listed.has(`${d.term}|${pattern(d.path)}`),
      );
      if (differences.length) unequal.push(`${v.file}: ${JSON.stringify(differences.slice(0, 5))}`);
      else equal++;
      for (const d of there.dropped) {
        const key = `${d.reason} ${d.term ?? d.path}`;
        droppedFiles.set(key, (droppedFiles.get(key) ?? 0) + 1);
      }
    }
    console.log(
      `${from} → ${to}: ${files.length} valid ${from.toUpperCase()} files; targets valid ${valid}, with only asymmetric rules ${
        files.length - valid - invalid.length
      } (${[...asymmetric].map(([id, n]) => `${id} ×${n}`).join(', ') || 'none'}), invalid ${invalid.length}; ` +
        `round trips equal apart from what was listed ${equal}`,
    );
    for (const [what, n] of [...droppedFiles].sort((a, b) => b[1] - a[1])) console.log(`  dropped in ${n} file(s): ${what}`);
    assert.deepEqual(invalid, [], 'targets with findings the source does not explain');
    assert.deepEqual(unequal, [], 'round trips that changed a term without listing it');
  });
}
