/**
 * EXTENDED-CTC-FR validation speed: the whole validation (parse, XSD layer, rule sets, BR-FR) of our EXTENDED-CTC-FR
 * CII invoices (XP Z12-014 scenarios) against the same invoices declared as plain EN 16931 (en16931-cii + fx-en16931),
 * the target being "as EN 16931". Prints median and p90 per case and the ratio of the medians.
 *
 * Run: node --import tsx bench/extended-ctc-fr.ts [iterations, default 200]
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { validateBytes } from '../src/validation/validate.js';

const ITERATIONS = Number(process.argv[2] ?? 200);
const DIR = new URL('../test/fixtures/extended-ctc-fr/invoices/', import.meta.url);
const CTC_FR = 'urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr';

async function measure(bytes: Uint8Array, options = {}): Promise<{ median: number; p90: number }> {
  const times: number[] = [];
  for (let n = 0; n < ITERATIONS + 20; n++) {
    const t0 = performance.now();
    await validateBytes(bytes, 'invoice.xml', options);
    if (n >= 20) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)] };
}

console.log(`EXTENDED-CTC-FR validation, ${ITERATIONS} runs each (${cpus().length} cores, load ${loadavg()[0].toFixed(2)})`);
for (const name of ['uc1_goods', 'uc12_sublines']) {
  const xml = readFileSync(new URL(`${name}.xml`, DIR), 'utf8');
  const ext = await measure(new TextEncoder().encode(xml));
  // The same invoice as a plain EN 16931 one (BR-FR asked for, so both run the French layer).
  const en = await measure(new TextEncoder().encode(xml.replace(CTC_FR, 'urn:cen.eu:en16931:2017')), { brFr: true });
  console.log(
    `${name.padEnd(14)} EXTENDED-CTC-FR + BR-FR median ${ext.median.toFixed(3)} ms p90 ${ext.p90.toFixed(3)} ms; ` +
      `EN 16931 + Factur-X EN16931 + BR-FR median ${en.median.toFixed(3)} ms p90 ${en.p90.toFixed(3)} ms; ratio ${(ext.median / en.median).toFixed(2)}`,
  );
}
