/** What the benchmarks send and validate: corpus invoices and multipart bodies (shared by the bench/ scripts). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const CORPUS = process.env.EINVOICE_CORPUS ?? path.resolve(process.cwd(), '../shared/corpus');

export interface FormPart {
  name: string;
  value: Uint8Array | string;
  /** A file part: its filename, and its Content-Type (application/octet-stream unless given). */
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body and its Content-Type header, encoded by hand as a client would send it. */
export function multipartForm(parts: FormPart[], boundary = '----bench'): { payload: Buffer; headers: { 'content-type': string } } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename) head += `; filename="${p.filename}"\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`), Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

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
    cii: manyLines(
      path.join(CORPUS, 'en16931/examples/cii/CII_example1.xml'),
      '<ram:IncludedSupplyChainTradeLineItem>',
      '</ram:IncludedSupplyChainTradeLineItem>',
      10_000,
    ),
    ubl: manyLines(path.join(CORPUS, 'en16931/examples/ubl/ubl-tc434-example1.xml'), '<cac:InvoiceLine>', '</cac:InvoiceLine>', 10_000),
  };
}
