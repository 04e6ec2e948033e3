/**
 * One side of the Peppol cost measurement, in a process of its own (bench/peppol.ts runs it under callgrind):
 * `warm` rounds, then `runs` more, timed in CPU. Instruction counts of a run with `runs` = 0 and one with `runs` = N
 * differ by N warm rounds, whatever the start-up and warm-up cost. A round is, by `kind`:
 * - `peppol`: the whole validation of the Peppol invoice (en16931-ubl and peppol-bis-3);
 * - `plain`: the whole validation of the same invoice declared plain EN 16931 UBL (en16931-ubl only);
 * - `rules`: parsing the Peppol invoice and running peppol-bis-3 alone on it; `parse`: the parsing alone (so
 *   `rules` − `parse` is the Peppol set's own cost). Both fill the document's name index first, as a validation's
 *   syntax walk does before the rule sets run.
 *
 * Run: node --import tsx bench/_peppol-loop.ts <peppol|plain|rules|parse> <typical|1000> <warm> <runs>
 */
import { getRuleSet, runRules } from '../src/rules/engine.js';
import { validateBytes } from '../src/validation/validate.js';
import { elementsNamedAnywhere, parseXml } from '../src/xml/dom.js';
import { asPlainEn16931, peppolInvoice, type InvoiceSize } from './_peppol-invoices.js';

const KINDS = ['peppol', 'plain', 'rules', 'parse'];
const [kind, size, warmArg, runsArg] = process.argv.slice(2);
if (!KINDS.includes(kind) || (size !== 'typical' && size !== '1000'))
  throw new Error('usage: _peppol-loop.ts <peppol|plain|rules|parse> <typical|1000> <warm> <runs>');
const xml = peppolInvoice(size as InvoiceSize);
const bytes = Buffer.from(kind === 'plain' ? asPlainEn16931(xml) : xml);
const rules = getRuleSet('peppol-bis-3')!;

async function round(): Promise<void> {
  if (kind === 'peppol' || kind === 'plain') {
    await validateBytes(bytes, 'x.xml');
    return;
  }
  const doc = parseXml(bytes); // fresh per round: the rules keep their evaluation on the document
  elementsNamedAnywhere(doc, 'Invoice'); // the name index, which a validation's syntax walk fills before the rules run
  if (kind === 'rules') runRules('peppol-bis-3', rules, { doc, invoice: {} as never, syntax: 'ubl' });
}

if (kind === 'peppol' || kind === 'plain') {
  const first = await validateBytes(bytes, 'x.xml');
  if (!first.valid || first.rule_sets.join(',') !== (kind === 'peppol' ? 'en16931-ubl,peppol-bis-3' : 'en16931-ubl'))
    throw new Error(`not the expected validation: ${JSON.stringify({ sets: first.rule_sets, errors: first.errors.slice(0, 3) })}`);
} else if (runRules('peppol-bis-3', rules, { doc: parseXml(bytes), invoice: {} as never, syntax: 'ubl' }).length > 0)
  throw new Error('the Peppol set reports findings on the benchmark invoice');
for (let i = 0; i < Number(warmArg); i++) await round();
const runs = Number(runsArg);
const c0 = process.cpuUsage();
for (let i = 0; i < runs; i++) await round();
const c = process.cpuUsage(c0);
if (runs > 0) console.log(`${kind} ${size}: CPU ${((c.user + c.system) / 1000 / runs).toFixed(4)} ms per round over ${runs}`);
