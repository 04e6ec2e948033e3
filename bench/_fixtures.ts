/** Invoices the benchmarks build from the corpus (shared by bench/validate.ts and bench/large.ts). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const CORPUS = path.resolve(process.cwd(), '../shared/corpus');

/** The CEN example invoices of the corpus (CII and UBL), the "typical invoices" of the validation targets. */
export function cenExamples(): string[] {
  return ['cii', 'ubl'].flatMap((s) =>
    readdirSync(path.join(CORPUS, 'en16931/examples', s))
      .filter((f) => /\.xml$/i.test(f))
      .map((f) => path.join(CORPUS, 'en16931/examples', s, f)),
  );
}

/** The first invoice line of a corpus invoice, repeated `lines` times with fresh line ids. */
export function manyLines(file: string, open: string, close: string, lines: number): Buffer {
  const xml = readFileSync(file, 'utf8');
  const start = xml.indexOf(open);
  const end = xml.indexOf(close, start) + close.length;
  const line = xml.slice(start, end);
  const copies: string[] = [];
  for (let i = 0; i < lines; i++) copies.push(line.replace(/(<(?:ram:LineID|cbc:ID)>)[^<]*/, `$1${i + 1}`));
  return Buffer.from(xml.slice(0, start) + copies.join('') + xml.slice(end));
}

/** 10,000-line CII and UBL invoices from the lines of CEN example 1 (about 1 KB per line, like real line-heavy invoices). */
export function tenThousandLineInvoices(): { cii: Buffer; ubl: Buffer } {
  return {
    cii: manyLines(path.join(CORPUS, 'en16931/examples/cii/CII_example1.xml'), '<ram:IncludedSupplyChainTradeLineItem>', '</ram:IncludedSupplyChainTradeLineItem>', 10_000),
    ubl: manyLines(path.join(CORPUS, 'en16931/examples/ubl/ubl-tc434-example1.xml'), '<cac:InvoiceLine>', '</cac:InvoiceLine>', 10_000),
  };
}
