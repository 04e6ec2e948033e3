/**
 * EXTENDED-CTC-FR validation cost: the whole validation (parse, XSD layer, rule sets, BR-FR) of our EXTENDED-CTC-FR CII
 * invoices (XP Z12-014 scenarios: UC1 goods, UC12 sub-lines, UC10 multi-vendor) against the same invoices declared as
 * plain EN 16931 (en16931-cii + fx-en16931, BR-FR asked for), the target being "as EN 16931".
 *
 * Measured as CPU time per validation (process.cpuUsage, user + system), not wall time: on a shared machine wall time
 * counts the time other processes hold the core, CPU time only what this process spends (cache contention still
 * shows, far less). The two declarations alternate in rounds of `batch` warm validations each, so drift hits both
 * alike; printed: the median and p90 over the rounds of the CPU time per validation, and the ratio of the medians.
 *
 * Run: node --import tsx bench/extended-ctc-fr.ts [rounds, default 40] [batch, default 50]
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { validateBytes } from '../src/validation/validate.js';

const ROUNDS = Number(process.argv[2] ?? 40);
const BATCH = Number(process.argv[3] ?? 50);
const DIR = new URL('../test/fixtures/extended-ctc-fr/invoices/', import.meta.url);
const CTC_FR = 'urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr';

/** CPU microseconds per validation over one batch. */
async function batchCpu(bytes: Uint8Array, options: object): Promise<number> {
  const start = process.cpuUsage();
  for (let n = 0; n < BATCH; n++) await validateBytes(bytes, 'invoice.xml', options);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / BATCH;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p90: s[Math.floor(s.length * 0.9)] };
};

console.log(
  `EXTENDED-CTC-FR validation, CPU time per validation: ${ROUNDS} rounds of ${BATCH} per case ` +
    `(${cpus().length} cores, load ${loadavg()[0].toFixed(2)})`,
);
for (const name of ['uc1_goods', 'uc12_sublines', 'uc10_multi_vendor']) {
  const xml = readFileSync(new URL(`${name}.xml`, DIR), 'utf8');
  const ext = new TextEncoder().encode(xml);
  // The same invoice as a plain EN 16931 one (BR-FR asked for, so both run the French layer).
  const en = new TextEncoder().encode(xml.replace(CTC_FR, 'urn:cen.eu:en16931:2017'));
  for (let w = 0; w < 3; w++) await Promise.all([batchCpu(ext, {}), batchCpu(en, { brFr: true })]); // warm-up
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    a.push(await batchCpu(ext, {}));
    b.push(await batchCpu(en, { brFr: true }));
  }
  const x = stats(a);
  const y = stats(b);
  console.log(
    `${name.padEnd(18)} EXTENDED-CTC-FR + BR-FR median ${(x.median / 1000).toFixed(3)} ms p90 ${(x.p90 / 1000).toFixed(3)} ms; ` +
      `EN 16931 + Factur-X EN16931 + BR-FR median ${(y.median / 1000).toFixed(3)} ms p90 ${(y.p90 / 1000).toFixed(3)} ms; ` +
      `ratio ${(x.median / y.median).toFixed(2)}`,
  );
}
