/**
 * The inputs the unit and endpoint tests own, so `npm test` runs from a plain clone (no ../shared beside it):
 * - curated real-world files under test/fixtures/<set>/ (each set has SOURCE.md and its licence), read by path;
 * - PDFs built here with the project's own code (a plain page PDF + embedInvoiceXml).
 * The full corpus is read only by the conformance suite (test/conformance/, `npm run test:conformance`).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';
import { makeBasePdf } from './hybrid-fixtures.js';

export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** A file of a curated set: `cen/…` (CEN/TC 434 examples), `kosit/…`, `verapdf/…`, `lunatech/…`. */
export function fixturePath(relative: string): string {
  return resolve(FIXTURES, relative);
}

export function readFixture(relative: string): Buffer {
  return readFileSync(fixturePath(relative));
}

/** The rule ids of an official rule set (test/fixtures/rule-ids/<set>.txt, one id a line, catalogue order). */
export function ruleIds(set: string): string[] {
  return readFileSync(fixturePath(`rule-ids/${set}.txt`), 'utf8')
    .split('\n')
    .filter(Boolean);
}

/** A valid EN 16931 CII invoice (CEN example 4: 11 KB, no finding in EN 16931 CII nor Factur-X EN16931). */
export const FX_EN16931_XML = 'cen/examples/cii/CII_example4.xml';

let facturx: Promise<Buffer> | undefined;

/**
 * A Factur-X EN16931 PDF made by the project itself: a two-page plain PDF with CEN example 4 embedded as
 * factur-x.xml. Built once per test process (the embedding is checked in detail by embed.test.ts).
 */
export function facturxPdf(): Promise<Buffer> {
  facturx ??= (async () => {
    const { pdf } = await embedInvoiceXml(await makeBasePdf(2), {
      xml: new Uint8Array(readFixture(FX_EN16931_XML)),
      flavour: hybridFlavour('en16931'),
      title: 'Invoice 4',
    });
    return Buffer.from(pdf);
  })();
  return facturx;
}
