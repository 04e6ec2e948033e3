/**
 * A tiny PDF writer for tests that need a precise defect: objects 1..n written as given (dictionary text, or a
 * dictionary plus stream data), a classic cross-reference table with exact offsets, a trailer. Object 1 is the
 * catalog by convention (`plainPdf` fills in catalog, page tree and one page).
 */
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, PDFRef, type PDFStream } from '@cantoo/pdf-lib';

export type PdfObject = string | { dict: string; data: Buffer | string };

export function buildPdf(objects: PdfObject[], trailerExtra = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let len = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(len);
    let chunk: Buffer;
    if (typeof o === 'string') chunk = Buffer.from(`${i + 1} 0 obj\n${o}\nendobj\n`, 'latin1');
    else {
      const data = typeof o.data === 'string' ? Buffer.from(o.data, 'latin1') : o.data;
      const dict = o.dict.replace(/>>\s*$/, `/Length ${data.length}>>`);
      chunk = Buffer.concat([
        Buffer.from(`${i + 1} 0 obj\n${dict}\nstream\n`, 'latin1'),
        data,
        Buffer.from('\nendstream\nendobj\n', 'latin1'),
      ]);
    }
    parts.push(chunk);
    len += chunk.length;
  });
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f '].concat(
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
  );
  parts.push(
    Buffer.from(
      `${xref.join('\n')}\ntrailer\n<</Size ${objects.length + 1}/Root 1 0 R${trailerExtra}>>\nstartxref\n${len}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

/**
 * A plain one-page PDF (no XMP, no output intent): 1 catalog, 2 pages, 3 page, 4 its content; `extra` objects are
 * 5, 6, ... `catalog` and `page` are appended inside those dictionaries; `resources` is the page's resource text.
 */
export function plainPdf(
  opts: { content?: string; resources?: string; catalog?: string; page?: string; extra?: PdfObject[]; trailer?: string } = {},
): Buffer {
  return buildPdf(
    [
      `<</Type/Catalog/Pages 2 0 R${opts.catalog ?? ''}>>`,
      '<</Type/Pages/Kids[3 0 R]/Count 1>>',
      `<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Resources<<${opts.resources ?? ''}>>/Contents 4 0 R${opts.page ?? ''}>>`,
      { dict: '<<>>', data: opts.content ?? '0 0 1 rg 20 20 100 50 re f' },
      ...(opts.extra ?? []),
    ],
    opts.trailer ?? '',
  );
}

/** The decoded content streams of every page, in order (what a repair must leave as it was). */
export async function pageContents(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  return doc.getPages().map((p) => {
    const c = p.node.Contents();
    const streams: PDFStream[] =
      c instanceof PDFArray ? c.asArray().map((r) => doc.context.lookup(r as PDFRef) as PDFStream) : c ? [c] : [];
    return streams
      .map((s) => Buffer.from(s instanceof PDFRawStream ? decodePDFRawStream(s).decode() : s.getContents()).toString('latin1'))
      .join('\n');
  });
}

/** The decoded data of stream object `num` of a PDF loaded with pdf-lib. */
export function streamData(doc: PDFDocument, num: number): Buffer {
  const s = doc.context.lookup(PDFRef.of(num));
  if (!(s instanceof PDFRawStream)) throw new Error(`object ${num} is not a stream`);
  return Buffer.from(decodePDFRawStream(s).decode());
}

/** LZW-encode (ISO 32000-1 7.4.4, early change 1): what old producers wrote, for the LZW → Flate repair. */
export function lzwEncode(data: Uint8Array): Buffer {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  const write = (code: number, width: number) => {
    acc = (acc << width) | code;
    bits += width;
    while (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    acc &= (1 << bits) - 1;
  };
  let dict = new Map<string, number>();
  let next = 258;
  let width = 9;
  const reset = () => {
    dict = new Map();
    for (let i = 0; i < 256; i++) dict.set(String.fromCharCode(i), i);
    next = 258;
    width = 9;
  };
  reset();
  write(256, width);
  let w = '';
  for (const byte of data) {
    const c = String.fromCharCode(byte);
    if (dict.has(w + c)) {
      w += c;
      continue;
    }
    write(dict.get(w)!, width);
    dict.set(w + c, next++);
    if (next + 1 > 1 << width) width++;
    if (width > 12) {
      write(256, 12);
      reset();
    }
    w = c;
  }
  if (w) write(dict.get(w)!, width);
  write(257, width);
  if (bits > 0) out.push((acc << (8 - bits)) & 0xff);
  return Buffer.from(out);
}
