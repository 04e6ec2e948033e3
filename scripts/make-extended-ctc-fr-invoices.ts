/**
 * Write our EXTENDED-CTC-FR invoices (the writer's output for the XP Z12-014 scenarios of
 * test/extended-ctc-fr-scenarios.ts) to test/fixtures/extended-ctc-fr/invoices/, the bases of the agreement test and
 * of its mutations. Regenerate the official verdicts afterwards (scripts/extended-ctc-fr-verdicts.ts).
 *
 *   node --import tsx scripts/make-extended-ctc-fr-invoices.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildInvoiceXml } from '../src/metadata/build.js';
import { FR_MULTI_VENDOR, FR_SCENARIOS } from '../test/extended-ctc-fr-scenarios.js';

const dir = path.resolve(import.meta.dirname, '../test/fixtures/extended-ctc-fr/invoices');
for (const [name, meta] of Object.entries({ ...FR_SCENARIOS, uc10_multi_vendor: FR_MULTI_VENDOR })) {
  writeFileSync(path.join(dir, `${name}.xml`), buildInvoiceXml(meta).xml);
  console.log(`wrote ${name}.xml`);
}
