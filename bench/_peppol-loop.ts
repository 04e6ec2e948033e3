/**
 * One side of the Peppol cost measurement, in a process of its own (bench/peppol.ts runs it under callgrind):
 * `warm` validations of the invoice, then `runs` more, timed in CPU. Instruction counts of a run with `runs` = 0 and
 * one with `runs` = N differ by N warm validations, whatever the start-up and warm-up cost.
 *
 * Run: node --import tsx bench/_peppol-loop.ts <peppol|plain> <typical|1000> <warm> <runs>
 */
import { validateBytes } from '../src/validation/validate.js';
import { asPlainEn16931, peppolInvoice, type InvoiceSize } from './_peppol-invoices.js';

const [kind, size, warmArg, runsArg] = process.argv.slice(2);
if ((kind !== 'peppol' && kind !== 'plain') || (size !== 'typical' && size !== '1000'))
  throw new Error('usage: _peppol-loop.ts <peppol|plain> <typical|1000> <warm> <runs>');
const xml = peppolInvoice(size as InvoiceSize);
const bytes = Buffer.from(kind === 'peppol' ? xml : asPlainEn16931(xml));
const first = await validateBytes(bytes, 'x.xml');
if (!first.valid || first.rule_sets.join(',') !== (kind === 'peppol' ? 'en16931-ubl,peppol-bis-3' : 'en16931-ubl'))
  throw new Error(`not the expected validation: ${JSON.stringify({ sets: first.rule_sets, errors: first.errors.slice(0, 3) })}`);
for (let i = 0; i < Number(warmArg); i++) await validateBytes(bytes, 'x.xml');
const runs = Number(runsArg);
const c0 = process.cpuUsage();
for (let i = 0; i < runs; i++) await validateBytes(bytes, 'x.xml');
const c = process.cpuUsage(c0);
if (runs > 0) console.log(`${kind} ${size}: CPU ${((c.user + c.system) / 1000 / runs).toFixed(4)} ms per validation over ${runs}`);
