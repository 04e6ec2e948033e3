/** Shared by the corpus scripts (report.ts, ghostscript-anchor.ts) and bench/convert-corpus.ts. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DOMESTIC_EXAMPLE } from '../../src/metadata/examples.js';

/** Short names for the clause groups the issue (#30) counted on 200 real-world PDFs. */
export const CLAUSE_NAMES: Record<string, string> = {
  '6.1.2-1': 'header not %PDF-1.0…1.7',
  '6.1.2-2': 'no binary comment after the header',
  '6.1.3-1': 'trailer without /ID',
  '6.1.3-2': 'encrypted',
  '6.1.3-3': 'data after the last %%EOF',
  '6.1.4-1': 'xref keyword spacing',
  '6.1.4-2': 'xref subsection spacing',
  '6.1.7.1-1': 'stream /Length wrong',
  '6.1.7.1-2': 'stream keyword EOL',
  '6.1.7.1-3': 'endstream EOL',
  '6.1.7.2-1': 'LZW or non-standard filter',
  '6.1.8-1': 'names not UTF-8',
  '6.1.9-1': 'obj spacing',
  '6.1.12-1': 'permissions dictionary',
  '6.2.2-1': 'undefined content operator',
  '6.2.2-2': 'resources not explicit',
  '6.2.3-1': 'output intent profile',
  '6.2.4.3-2': 'DeviceRGB without RGB intent',
  '6.2.4.3-3': 'DeviceCMYK without CMYK intent',
  '6.2.4.3-4': 'DeviceGray without intent',
  '6.2.4.4-1': 'DeviceN colorants',
  '6.2.5-1': 'transfer function (/TR)',
  '6.2.5-2': 'transfer function (/TR2)',
  '6.2.8-3': 'image /Interpolate',
  '6.2.9-1': 'PostScript XObject',
  '6.2.10-1': 'blend mode',
  '6.2.10-2': 'transparency without group colour space',
  '6.2.11.2-1': 'font dictionary keys',
  '6.2.11.2-4': 'font /Widths length',
  '6.2.11.2-7': 'font dictionary',
  '6.2.11.3.2-1': 'CIDToGIDMap missing',
  '6.2.11.4.1-1': 'font not embedded',
  '6.2.11.4.2-2': 'CIDSet incomplete',
  '6.2.11.5-1': 'glyph widths differ from the program',
  '6.2.11.6-2': 'TrueType encoding',
  '6.3.1-1': 'annotation type not allowed',
  '6.3.2-1': 'annotation flags',
  '6.3.3-1': 'annotation appearance',
  '6.4.1-1': 'widget action',
  '6.4.1-2': 'form field /AA',
  '6.4.1-3': 'NeedAppearances',
  '6.4.2-1': 'XFA',
  '6.4.2-2': 'NeedsRendering',
  '6.5.1-1': 'action not allowed (JavaScript, Launch, …)',
  '6.5.2-1': 'catalog /AA',
  '6.5.2-2': 'page /AA',
  '6.6.2.1-1': 'no XMP metadata',
  '6.6.2.3.1-1': 'XMP property not declared',
  '6.6.4-1': 'no PDF/A identification',
  '6.8-1': 'embedded file without MIME subtype',
  '6.8-3': 'embedded file without AFRelationship',
  '6.8-4': 'embedded file not in /AF',
  '6.9-1': 'optional content configuration',
  '6.10-1': 'alternate presentations',
  '6.11-1': 'document requirements',
  '6.9-4': 'optional content configuration with /AS',
  '6.9-3': 'optional content group missing from /Order',
  '6.8-2': 'file specification without /F or /UF',
  '6.6.4-2': 'pdfaid:part not 3 (PDF/A-1 or 2 declared)',
  '6.6.2.3.1-2': 'XMP property of the wrong value type',
  '6.6.2.1-4': 'XMP not well-formed',
  '6.5.1-2': 'named action not allowed',
  '6.3.3-3': 'button appearance /N not a state dictionary',
  '6.3.3-2': 'appearance dictionary with more than /N',
  '6.3.2-2': 'annotation flags: Print clear or Hidden/NoView set',
  '6.2.4.2-1': 'ICCBased colour space without a readable profile',
  '6.1.6-2': 'hex string with a non-hex character',
  '6.1.6-1': 'hex string with an odd number of digits',
};

export function listPdfs(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.toLowerCase().endsWith('.pdf')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** One multipart body, built by hand like test/helpers.ts does, so the real parser reads it. */
export function convertForm(pdf: Buffer, extra: Record<string, string> = {}): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----pdf-corpus-report';
  const parts: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="pdf"; filename="input.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    pdf,
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="metadata"\r\n\r\n${JSON.stringify(DOMESTIC_EXAMPLE)}\r\n`),
  ];
  for (const [k, v] of Object.entries(extra))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const percentile = (sorted: number[], q: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
