/**
 * The PDF/A font repairs (src/pdf/repair/fonts.ts) on PDFs built here, one per kind of font a real producer
 * writes: standard 14 Type 1 with WinAnsi, Type 1 with /Differences over StandardEncoding, Symbol, ZapfDingbats,
 * a non-symbolic TrueType "Arial,Bold", Word's Type 0 Identity-H "ArialMT" with /ToUnicode, a TrueType Calibri.
 * Each is repaired as the registry would (a repair runs when the checker reports one of its clauses), then:
 * the native checker finds no 6.2.11 clause left, qpdf --check accepts the file, the embedded program's advance
 * widths equal the PDF's widths for every shown code, and the page rendered by poppler differs from the input
 * rendered with poppler's own font substitution by less than a stated share of pixels. Then the other font
 * clauses (CIDToGIDMap, CIDSet, widths of embedded programs, symbolic TrueType encodings), a font with no
 * substitute (reported, untouched), and hostile font programs and CMaps (bounded, no crash).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  type PDFRef,
  PDFStream,
  PDFString,
  StandardFonts,
  type PDFFont,
} from '@cantoo/pdf-lib';
import { findFontAsset, readFontAsset, type FontFamily, type FontStyle } from '../src/pdf/fonts/assets.js';
import { WIN_ANSI_ENCODING, glyphNameUnicode } from '../src/pdf/fonts/encodings.js';
import { substituteFor } from '../src/pdf/fonts/substitutes.js';
import { MAX_ENTRIES, parseToUnicode, writeToUnicode } from '../src/pdf/fonts/tounicode.js';
import { FontProgramError, parseTrueType, subsetTrueType, type TrueTypeFont } from '../src/pdf/fonts/truetype.js';
import { scanFontUsage, streamBytes } from '../src/pdf/repair/font-usage.js';
import { FONT_REPAIRS } from '../src/pdf/repair/fonts.js';
import type { RepairOutcome } from '../src/pdf/repair/types.js';
import { checkPdfa, type Finding } from '../src/pdfa/index.js';
import { SYNC_CHILD } from './spawned.js';

const work = mkdtempSync(join(tmpdir(), 'pdf-fonts-'));
after(() => rmSync(work, { recursive: true, force: true }));

const N = (n: string) => PDFName.of(n);
const fontFindings = (pdf: Uint8Array): Finding[] => checkPdfa(pdf, { part: 3 }).findings.filter((f) => f.clause.startsWith('6.2.11'));

/**
 * The time budget given to a repair or a scan where the budget is not what is tested: far beyond what they take, so
 * a loaded machine cannot make one stop short (a few seconds was a wall-clock bet).
 */
const NO_DEADLINE_MS = 600_000;

/** Run the font repairs whose clauses the checker reports, as the registry does; the outcomes by name. */
async function repair(input: Uint8Array): Promise<{ pdf: Uint8Array; outcomes: Map<string, RepairOutcome>; before: Finding[] }> {
  const before = fontFindings(input);
  const doc = await PDFDocument.load(input, { updateMetadata: false });
  const outcomes = new Map<string, RepairOutcome>();
  for (const r of FONT_REPAIRS) {
    const findings = before.filter((f) => r.clauses.includes(f.clause));
    if (findings.length === 0) continue;
    outcomes.set(r.name, await r.apply({ doc, findings, deadline: Date.now() + NO_DEADLINE_MS }));
  }
  const pdf = await doc.save({ useObjectStreams: true, addDefaultPage: false, updateFieldAppearances: false });
  return { pdf, outcomes, before };
}

/** Temporary file names in `work`: numbered, the same every run. */
let files = 0;

function qpdfCheck(pdf: Uint8Array): void {
  const path = join(work, `check-${++files}.pdf`);
  writeFileSync(path, pdf);
  const r = spawnSync('qpdf', ['--check', path], { encoding: 'utf8', ...SYNC_CHILD });
  assert.equal(r.status, 0, `qpdf --check: ${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /No syntax or stream encoding errors found/);
}

/** Page 1 as 8-bit gray pixels, rendered by poppler's pdftoppm at a low resolution. */
function render(pdf: Uint8Array): { w: number; h: number; px: Uint8Array } {
  const base = join(work, `r-${++files}`);
  writeFileSync(`${base}.pdf`, pdf);
  const r = spawnSync('pdftoppm', ['-r', '72', '-gray', '-f', '1', '-l', '1', '-singlefile', `${base}.pdf`, base], {
    encoding: 'utf8',
    ...SYNC_CHILD,
  });
  assert.equal(r.status, 0, `pdftoppm: ${r.stderr}`);
  const pgm = readFileSync(`${base}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 64).toString('latin1'));
  assert.ok(header, 'pdftoppm wrote a PGM');
  const w = Number(header[1]);
  const h = Number(header[2]);
  return { w, h, px: new Uint8Array(pgm.subarray(pgm.length - w * h)) };
}

/**
 * Share of pixels, among those inked in either rendering, that differ by more than half the gray range. The
 * input is drawn with poppler's substitute (fontconfig's metric-compatible alias), the output with ours: same
 * positions, slightly different outlines, so a small share differs; moved or missing text makes it large.
 */
function inkDifference(a: Uint8Array, b: Uint8Array): number {
  const x = render(a);
  const y = render(b);
  assert.equal(x.w, y.w);
  assert.equal(x.h, y.h);
  let ink = 0;
  let diff = 0;
  for (let i = 0; i < x.px.length; i++) {
    if (x.px[i] < 128 || y.px[i] < 128) ink++;
    if (Math.abs(x.px[i] - y.px[i]) > 128) diff++;
  }
  assert.ok(ink > 200, 'the page shows text');
  return diff / ink;
}

function assertInk(input: Uint8Array, output: Uint8Array, limit: number): void {
  const diff = inkDifference(input, output);
  assert.ok(diff <= limit, `ink difference ${diff.toFixed(3)} above ${limit}`);
}

/** The fonts of page 1's resources by resource name. */
function pageFonts(doc: PDFDocument): Map<string, PDFDict> {
  const res = doc.getPages()[0].node.Resources()!;
  const fonts = res.lookup(N('Font'), PDFDict);
  return new Map(fonts.entries().map(([k, v]) => [k.decodeText(), doc.context.lookup(v) as PDFDict]));
}

function programOf(doc: PDFDocument, font: PDFDict): { key: string; bytes: Uint8Array; subtype?: string } | undefined {
  const target =
    font.lookup(N('Subtype')) === N('Type0') ? (font.lookup(N('DescendantFonts'), PDFArray).lookup(0, PDFDict) as PDFDict) : font;
  const fd = target.lookup(N('FontDescriptor'));
  if (!(fd instanceof PDFDict)) return undefined;
  for (const key of ['FontFile', 'FontFile2', 'FontFile3']) {
    const s = fd.lookup(N(key));
    if (s instanceof PDFStream) {
      const st = s.dict.lookup(N('Subtype'));
      return { key, bytes: streamBytes(doc, s)!, ...(st instanceof PDFName ? { subtype: st.decodeText() } : {}) };
    }
  }
  return undefined;
}

/**
 * For a repaired simple TrueType font: every shown code's glyph (through the (3,1) cmap by the code's Unicode, as
 * a WinAnsi/Differences reader finds it) has the advance the PDF's /Widths give.
 */
function assertSimpleWidths(doc: PDFDocument, font: PDFDict, shown: number[]): void {
  const prog = programOf(doc, font);
  assert.equal(prog?.key, 'FontFile2');
  const tt = parseTrueType(prog!.bytes);
  const first = (font.lookup(N('FirstChar'), PDFNumber) as PDFNumber).asNumber();
  const widths = font.lookup(N('Widths'), PDFArray);
  const enc = font.lookup(N('Encoding'));
  const names = [...WIN_ANSI_ENCODING];
  if (enc instanceof PDFDict) {
    assert.equal(enc.lookup(N('BaseEncoding')), N('WinAnsiEncoding'));
    let code = 0;
    for (const v of enc.lookup(N('Differences'), PDFArray).asArray()) {
      if (v instanceof PDFNumber) code = v.asNumber();
      else names[code++] = (v as PDFName).decodeText();
    }
  } else assert.equal(enc, N('WinAnsiEncoding'));
  for (const code of shown) {
    const cp = glyphNameUnicode(names[code]);
    assert.ok(cp !== undefined, `code ${code} has a glyph name`);
    const gid = tt.glyphForUnicode(cp);
    assert.ok(gid > 0, `code ${code} (${names[code]}) has a glyph`);
    const w = (widths.lookup(code - first, PDFNumber) as PDFNumber).asNumber();
    assert.ok(Math.abs((tt.advance(gid) * 1000) / tt.unitsPerEm - w) <= 1, `code ${code}: program ${tt.advance(gid)} vs /Widths ${w}`);
  }
}

function substitute(family: FontFamily, style: FontStyle = 'regular'): TrueTypeFont {
  return parseTrueType(readFontAsset(findFontAsset(family, style)!));
}

/** Width in glyph space of a character in a shipped font (what Arial/Calibri metrics are, by design). */
const widthOf = (f: TrueTypeFont, ch: string) => Math.round((f.advance(f.glyphForUnicode(ch.codePointAt(0)!)) * 1000) / f.unitsPerEm);

/** A one-page PDF whose page 1 uses `fonts` (resource name → font dictionary) in `content`. */
async function pdfWith(fonts: Record<string, (doc: PDFDocument) => PDFRef>, content: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([420, 200]);
  const dict = doc.context.obj({});
  for (const [name, make] of Object.entries(fonts)) dict.set(N(name), make(doc));
  page.node.set(N('Resources'), doc.context.obj({ Font: dict }));
  page.node.set(N('Contents'), doc.context.register(doc.context.flateStream(new TextEncoder().encode(content))));
  return doc.save({ useObjectStreams: false });
}

const latin = (s: string) => [...Buffer.from(s, 'latin1')].map((b) => b.toString(16).padStart(2, '0')).join('');

// ---------------------------------------------------------------------------------------------
// Not embedded → substituted

test('standard 14 Type 1 fonts with WinAnsi (pdf-lib), text in a form XObject and an annotation appearance too', async () => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([420, 260]);
  const fonts: PDFFont[] = [];
  for (const [i, name] of [StandardFonts.Helvetica, StandardFonts.TimesRomanBold, StandardFonts.CourierOblique].entries()) {
    const font = await doc.embedFont(name);
    fonts.push(font);
    page.drawText('Rechnung 2024-0815 – Größe 1.234,56 € “ok”', { x: 20, y: 220 - i * 40, size: 14, font });
  }
  // A form XObject that shows text with Helvetica-Bold (only there), and an annotation appearance with Times-Italic.
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const italic = await doc.embedFont(StandardFonts.TimesRomanItalic);
  const form = doc.context.register(
    doc.context.flateStream(new TextEncoder().encode('BT /FB 14 Tf 20 80 Td (Summe XYZ) Tj ET'), {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, 420, 260],
      Resources: { Font: { FB: bold.ref } },
    }),
  );
  page.node.Resources()!.set(N('XObject'), doc.context.obj({ Fm1: form }));
  const existing = page.node.Contents();
  page.node.set(
    N('Contents'),
    doc.context.obj([
      ...(existing instanceof PDFArray ? existing.asArray() : [page.node.get(N('Contents'))!]),
      doc.context.register(doc.context.flateStream(new TextEncoder().encode('q /Fm1 Do Q'))),
    ]),
  );
  const ap = doc.context.register(
    doc.context.flateStream(new TextEncoder().encode('BT /FI 12 Tf 2 4 Td (Kommentar) Tj ET'), {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, 100, 20],
      Resources: { Font: { FI: italic.ref } },
    }),
  );
  page.node.set(
    N('Annots'),
    doc.context.obj([
      doc.context.obj({ Type: 'Annot', Subtype: 'FreeText', Rect: [20, 40, 120, 60], F: 4, Contents: 'x', DA: '/FI 12 Tf', AP: { N: ap } }),
    ]),
  );
  const input = await doc.save({ useObjectStreams: false });

  const before = fontFindings(input);
  assert.equal(before.filter((f) => f.clause === '6.2.11.4.1-1').length, 5, JSON.stringify(before));
  const { pdf, outcomes } = await repair(input);
  assert.deepEqual(fontFindings(pdf), []);
  assert.equal(outcomes.get('embed-fonts')?.changed, 5);
  assert.equal(outcomes.get('embed-fonts')?.unrepaired, undefined);
  qpdfCheck(pdf);

  const out = await PDFDocument.load(pdf);
  const usage = scanFontUsage(out, Date.now() + NO_DEADLINE_MS);
  assert.ok(usage.complete, 'every content stream was read');
  let seen = 0;
  for (const [font, use] of usage.fonts) {
    assert.equal(font.lookup(N('Subtype')), N('TrueType'));
    assert.match(
      (font.lookup(N('BaseFont')) as PDFName).decodeText(),
      /^[A-Z]{6}\+(Helvetica|Helvetica-Bold|Times-Bold|Times-Italic|Courier-Oblique)$/,
    );
    assertSimpleWidths(out, font, [...use.codes]);
    // Subset: only the glyphs shown (plus .notdef), never the whole font.
    const tt = parseTrueType(programOf(out, font)!.bytes);
    assert.ok(tt.numGlyphs <= use.codes.size * 2 + 1, `${tt.numGlyphs} glyphs for ${use.codes.size} codes (accents are components)`);
    seen++;
  }
  assert.equal(seen, 5, 'the form XObject and the annotation appearance fonts were found');
  // Without /Widths in the input, the standard metrics were written: Helvetica 'R' is 722, Courier always 600.
  const fonts2 = pageFonts(out);
  const helv = [...fonts2.values()].find((f) => /\+Helvetica$/.test((f.lookup(N('BaseFont')) as PDFName).decodeText()))!;
  const fc = (helv.lookup(N('FirstChar'), PDFNumber) as PDFNumber).asNumber();
  assert.equal((helv.lookup(N('Widths'), PDFArray).lookup(0x52 - fc, PDFNumber) as PDFNumber).asNumber(), 722);
  assertInk(input, pdf, 0.25);
  // Used fonts only: subsetting kept the file small (5 fonts, a few KB each).
  assert.ok(pdf.length - input.length < 30_000, `${pdf.length - input.length} bytes added`);
});

test('Type 1 Helvetica with /Differences over its StandardEncoding keeps every glyph (quoteright at 0x27, custom codes)', async () => {
  // Codes 1–3 renamed, and 0x27/0x60 are quoteright/quoteleft in StandardEncoding (WinAnsi has quotesingle/grave).
  const input = await pdfWith(
    {
      F1: (doc) =>
        doc.context.register(
          doc.context.obj({
            Type: 'Font',
            Subtype: 'Type1',
            BaseFont: 'Helvetica',
            Encoding: { Type: 'Encoding', Differences: [1, 'Euro', 'germandbls', 'endash'] },
          }),
        ),
    },
    `BT /F1 18 Tf 20 120 Td <${latin("It's `ok' ")}010203${latin(' Stra')}02${latin('e')}> Tj ET`,
  );
  const { pdf, before } = await repair(input);
  assert.deepEqual(
    before.map((f) => f.clause),
    ['6.2.11.4.1-1'],
  );
  assert.deepEqual(fontFindings(pdf), []);
  qpdfCheck(pdf);
  const out = await PDFDocument.load(pdf);
  const font = pageFonts(out).get('F1')!;
  const enc = font.lookup(N('Encoding'), PDFDict);
  const diffs = enc
    .lookup(N('Differences'), PDFArray)
    .asArray()
    .map((v) => (v instanceof PDFNumber ? v.asNumber() : (v as PDFName).decodeText()));
  // The StandardEncoding quotes and the renamed codes, over WinAnsi.
  for (const [code, name] of [
    [1, 'Euro'],
    [39, 'quoteright'],
    [96, 'quoteleft'],
  ] as const)
    assert.equal(diffs[diffs.indexOf(code) + 1], name);
  assertSimpleWidths(out, font, [...scanFontUsage(out, Date.now() + NO_DEADLINE_MS).fonts.get(font)!.codes]);
  assertInk(input, pdf, 0.25);
});

test('Symbol and ZapfDingbats become Type 1 fonts with the Foxit CFF programs and their built-in encoding spelled out', async () => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([420, 200]);
  const symbol = await doc.embedFont(StandardFonts.Symbol);
  const dingbats = await doc.embedFont(StandardFonts.ZapfDingbats);
  page.drawText('αβγδ ∑∫≠ ±×÷', { x: 20, y: 140, size: 20, font: symbol });
  page.drawText('✔✖❤✈☎', { x: 20, y: 80, size: 20, font: dingbats });
  const input = await doc.save({ useObjectStreams: false });
  const { pdf } = await repair(input);
  assert.deepEqual(fontFindings(pdf), []);
  qpdfCheck(pdf);
  const out = await PDFDocument.load(pdf);
  for (const font of pageFonts(out).values()) {
    assert.equal(font.lookup(N('Subtype')), N('Type1'));
    const prog = programOf(out, font)!;
    assert.equal(prog.key, 'FontFile3');
    assert.equal(prog.subtype, 'Type1C');
    assert.equal(prog.bytes[0], 1); // a CFF header
    const fd = font.lookup(N('FontDescriptor'), PDFDict);
    assert.equal((fd.lookup(N('Flags'), PDFNumber) as PDFNumber).asNumber() & 4, 4, 'symbolic');
    // The Symbol encoding puts alpha at 0x61: the /Differences say so (the CFF's own encoding is the standard one).
    const diffs = font.lookup(N('Encoding'), PDFDict).lookup(N('Differences'), PDFArray).asArray();
    const names = new Map<number, string>();
    let code = 0;
    for (const v of diffs) {
      if (v instanceof PDFNumber) code = v.asNumber();
      else names.set(code++, (v as PDFName).decodeText());
    }
    if (/Symbol/.test((font.lookup(N('BaseFont')) as PDFName).decodeText())) assert.equal(names.get(0x61), 'alpha');
    else assert.equal(names.get(0x34), 'a20'); // ✔
  }
  assertInk(input, pdf, 0.35);
});

test('TrueType "Arial,Bold" (non-symbolic, WinAnsi, /Widths, a descriptor without program) as Word and LibreOffice write it', async () => {
  const sans = substitute('sans', 'bold');
  const widths = Array.from({ length: 224 }, (_, i) => {
    const name = WIN_ANSI_ENCODING[32 + i];
    const cp = name ? glyphNameUnicode(name) : undefined;
    return cp === undefined ? 0 : Math.round((sans.advance(sans.glyphForUnicode(cp)) * 1000) / sans.unitsPerEm);
  });
  const input = await pdfWith(
    {
      F1: (doc) =>
        doc.context.register(
          doc.context.obj({
            Type: 'Font',
            Subtype: 'TrueType',
            BaseFont: 'Arial,Bold',
            FirstChar: 32,
            LastChar: 255,
            Widths: widths,
            Encoding: 'WinAnsiEncoding',
            FontDescriptor: doc.context.register(
              doc.context.obj({
                Type: 'FontDescriptor',
                FontName: 'Arial,Bold',
                Flags: 32,
                FontBBox: [-628, -376, 2000, 1056],
                ItalicAngle: 0,
                Ascent: 905,
                Descent: -212,
                CapHeight: 716,
                StemV: 120,
                FontWeight: 700,
              }),
            ),
          }),
        ),
    },
    `BT /F1 16 Tf 20 120 Td <${latin('Gesamtbetrag: 1.190,00 € (inkl. 19 % MwSt.)')}> Tj ET`,
  );
  const { pdf } = await repair(input);
  assert.deepEqual(fontFindings(pdf), []);
  qpdfCheck(pdf);
  const out = await PDFDocument.load(pdf);
  const font = pageFonts(out).get('F1')!;
  assert.match((font.lookup(N('BaseFont')) as PDFName).decodeText(), /^[A-Z]{6}\+Arial,Bold$/);
  // The input's descriptor stays (with its metrics) and gains the program; its widths are untouched.
  const fd = font.lookup(N('FontDescriptor'), PDFDict);
  assert.equal((fd.lookup(N('CapHeight'), PDFNumber) as PDFNumber).asNumber(), 716);
  assert.deepEqual(
    font
      .lookup(N('Widths'), PDFArray)
      .asArray()
      .map((n) => (n as PDFNumber).asNumber()),
    widths,
  );
  assertSimpleWidths(
    out,
    font,
    [...latin('Gesamtbetrag: 1.190,00 € (inkl. 19 % MwSt.)').matchAll(/../g)].map((m) => Number.parseInt(m[0], 16)),
  );
  assertInk(input, pdf, 0.25);
});

/** Word's way: a Type 0 font, Identity-H, CIDs that are glyph ids of the real Arial, /W, /ToUnicode. */
function wordType0(doc: PDFDocument, baseFont: string, text: string, metrics: TrueTypeFont): { ref: PDFRef; hex: string } {
  const chars = [...new Set(text)];
  const cidOf = new Map(chars.map((c, i) => [c, 3 + i * 7])); // arbitrary glyph ids of a font we do not have
  const w: (number | number[])[] = [];
  for (const c of chars) w.push(cidOf.get(c)!, [widthOf(metrics, c)]);
  const toUnicode = new Map(chars.map((c) => [cidOf.get(c)!, c]));
  const cidFont = doc.context.register(
    doc.context.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: baseFont,
      CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
      FontDescriptor: doc.context.register(
        doc.context.obj({
          Type: 'FontDescriptor',
          FontName: baseFont,
          Flags: 32,
          FontBBox: [-665, -325, 2000, 1040],
          ItalicAngle: 0,
          Ascent: 905,
          Descent: -210,
          CapHeight: 716,
          StemV: 80,
        }),
      ),
      DW: 1000,
      W: w,
    }),
  );
  const ref = doc.context.register(
    doc.context.obj({
      Type: 'Font',
      Subtype: 'Type0',
      BaseFont: baseFont,
      Encoding: 'Identity-H',
      DescendantFonts: [cidFont],
      ToUnicode: doc.context.register(doc.context.flateStream(writeToUnicode(toUnicode, 2))),
    }),
  );
  const hex = [...text].map((c) => cidOf.get(c)!.toString(16).padStart(4, '0')).join('');
  return { ref, hex };
}

test('Type 0 Identity-H "ArialMT" with /ToUnicode (Word): CIDs mapped to the substitute by a CIDToGIDMap, /W kept', async () => {
  const text = 'Rechnungsbetrag 2.380,00 € – fällig';
  let hex = '';
  const input = await pdfWith(
    {
      F1: (doc) => {
        const made = wordType0(doc, 'ArialMT', text, substitute('sans'));
        hex = made.hex;
        return made.ref;
      },
    },
    '',
  );
  // The content needs the CIDs: rebuild with them.
  const doc0 = await PDFDocument.load(input);
  doc0
    .getPages()[0]
    .node.set(
      N('Contents'),
      doc0.context.register(doc0.context.flateStream(new TextEncoder().encode(`BT /F1 16 Tf 20 120 Td <${hex}> Tj ET`))),
    );
  const withText = await doc0.save({ useObjectStreams: false });
  const { pdf, before } = await repair(withText);
  assert.deepEqual(
    before.map((f) => f.clause),
    ['6.2.11.4.1-1'],
  );
  assert.deepEqual(fontFindings(pdf), []);
  qpdfCheck(pdf);
  const out = await PDFDocument.load(pdf);
  const type0 = pageFonts(out).get('F1')!;
  const cid = type0.lookup(N('DescendantFonts'), PDFArray).lookup(0, PDFDict) as PDFDict;
  assert.equal(cid.lookup(N('Subtype')), N('CIDFontType2'));
  const map = streamBytes(out, cid.lookup(N('CIDToGIDMap')) as PDFStream)!;
  const tt = parseTrueType(programOf(out, type0)!.bytes);
  // Each shown CID's glyph is the substitute's glyph for its Unicode, with the /W width.
  const sans = substitute('sans');
  const w = cid.lookup(N('W'), PDFArray).asArray();
  const toUnicode = parseToUnicode(streamBytes(out, type0.lookup(N('ToUnicode')) as PDFStream)!);
  for (let i = 0; i < w.length; i += 2) {
    const c = (w[i] as PDFNumber).asNumber();
    const width = ((w[i + 1] as PDFArray).lookup(0, PDFNumber) as PDFNumber).asNumber();
    const gid = (map[c * 2] << 8) | map[c * 2 + 1];
    assert.ok(gid > 0 && gid < tt.numGlyphs, `CID ${c} maps to a glyph`);
    assert.ok(Math.abs((tt.advance(gid) * 1000) / tt.unitsPerEm - width) <= 1, `CID ${c}: program ${tt.advance(gid)} vs /W ${width}`);
    // The outline is the substitute's glyph for the CID's Unicode (same contour count and bounding box).
    const ch = toUnicode.get(c)!;
    const src = sans.glyph(sans.glyphForUnicode(ch.codePointAt(0)!));
    assert.deepEqual([...tt.glyph(gid).subarray(0, 10)], [...src.subarray(0, 10)], `CID ${c} (${ch})`);
  }
  // poppler draws nothing for a non-embedded Identity-H font, so the reference is the same text in the same place
  // with a simple "Arial" font poppler substitutes (same widths): the glyphs must land where that text is.
  const sansW = substitute('sans');
  const reference = await pdfWith(
    {
      F1: (doc) =>
        doc.context.register(
          doc.context.obj({
            Type: 'Font',
            Subtype: 'TrueType',
            BaseFont: 'Arial',
            FirstChar: 32,
            LastChar: 255,
            Widths: Array.from({ length: 224 }, (_, i) => {
              const cp = glyphNameUnicode(WIN_ANSI_ENCODING[32 + i] || '.notdef');
              return cp === undefined ? 0 : Math.round((sansW.advance(sansW.glyphForUnicode(cp)) * 1000) / sansW.unitsPerEm);
            }),
            Encoding: 'WinAnsiEncoding',
          }),
        ),
    },
    `BT /F1 16 Tf 20 120 Td <${Buffer.from(text.replace('–', '\x96').replace('€', '\x80'), 'latin1').toString('hex')}> Tj ET`,
  );
  assertInk(reference, pdf, 0.25);
});

test('TrueType Calibri (WinAnsi, /Widths) gets Carlito; Cambria gets Caladea', async () => {
  const carlito = substitute('carlito');
  const caladea = substitute('caladea', 'bold');
  const simple = (base: string, f: TrueTypeFont, flags: number) => (doc: PDFDocument) =>
    doc.context.register(
      doc.context.obj({
        Type: 'Font',
        Subtype: 'TrueType',
        BaseFont: base,
        FirstChar: 32,
        LastChar: 126,
        Widths: Array.from({ length: 95 }, (_, i) => widthOf(f, String.fromCharCode(32 + i))),
        Encoding: 'WinAnsiEncoding',
        FontDescriptor: doc.context.obj({
          Type: 'FontDescriptor',
          FontName: base,
          Flags: flags,
          FontBBox: [-500, -300, 1500, 1000],
          ItalicAngle: 0,
          Ascent: 750,
          Descent: -250,
          CapHeight: 632,
          StemV: 80,
        }),
      }),
    );
  const input = await pdfWith(
    { F1: simple('Calibri', carlito, 32), F2: simple('Cambria-Bold', caladea, 34) },
    `BT /F1 16 Tf 20 140 Td (Calibri: Invoice total 1,234.56) Tj ET BT /F2 16 Tf 20 90 Td (Cambria Bold: Due 2025-01-31) Tj ET`,
  );
  const { pdf } = await repair(input);
  assert.deepEqual(fontFindings(pdf), []);
  qpdfCheck(pdf);
  const out = await PDFDocument.load(pdf);
  const usage = scanFontUsage(out, Date.now() + NO_DEADLINE_MS);
  for (const [font, use] of usage.fonts) assertSimpleWidths(out, font, [...use.codes]);
  // The substitutes' outlines: Carlito's 'C' is in the Calibri program (same glyph data).
  const f1 = pageFonts(out).get('F1')!;
  const tt = parseTrueType(programOf(out, f1)!.bytes);
  assert.ok(tt.glyph(tt.glyphForUnicode(0x43)).length > 0, 'C has an outline');
  assertInk(input, pdf, 0.35);
});

test('the pixel measure sees text that moved or went missing (so the limits above can fail)', async () => {
  const page = (dx: number, text: string) =>
    pdfWith(
      {
        F1: (doc) =>
          doc.context.register(doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' })),
      },
      `BT /F1 16 Tf ${20 + dx} 120 Td (${text}) Tj ET`,
    );
  const base = await page(0, 'Rechnung Nr. 2024-0815');
  assert.equal(inkDifference(base, base), 0);
  assert.ok(inkDifference(base, await page(3, 'Rechnung Nr. 2024-0815')) > 0.35, 'moved by 3 pt');
  assert.ok(inkDifference(base, await page(0, 'Rechnung Nr. 2024-08')) > 0.05, 'two of 22 characters missing');
});

test('a font with no metric-compatible free substitute is reported and left as it was', async () => {
  const input = await pdfWith(
    {
      F1: (doc) =>
        doc.context.register(
          doc.context.obj({
            Type: 'Font',
            Subtype: 'TrueType',
            BaseFont: 'Verdana',
            FirstChar: 32,
            LastChar: 32,
            Widths: [352],
            Encoding: 'WinAnsiEncoding',
          }),
        ),
    },
    'BT /F1 12 Tf 20 100 Td (Hallo) Tj ET',
  );
  const { pdf, outcomes } = await repair(input);
  const out = outcomes.get('embed-fonts')!;
  assert.equal(out.changed, 0);
  assert.equal(out.unrepaired?.length, 1);
  assert.equal(out.unrepaired?.[0].clause, '6.2.11.4.1-1');
  assert.match(out.unrepaired![0].message, /Verdana .*no metric-compatible free font/);
  assert.match(out.unrepaired![0].object ?? '', /^object \d+$/);
  assert.deepEqual(
    fontFindings(pdf).map((f) => f.clause),
    ['6.2.11.4.1-1'],
  );
});

test('substituteFor: standard names, aliases, style suffixes and subset tags; other metrics get none', () => {
  const cases: [string, string | undefined][] = [
    ['Helvetica', 'sans/regular/Helvetica'],
    ['Helvetica-BoldOblique', 'sans/bolditalic/Helvetica-BoldOblique'],
    ['ArialMT', 'sans/regular/Helvetica'],
    ['Arial-BoldMT', 'sans/bold/Helvetica-Bold'],
    ['Arial,BoldItalic', 'sans/bolditalic/Helvetica-BoldOblique'],
    ['ABCDEF+Arial-ItalicMT', 'sans/italic/Helvetica-Oblique'],
    ['Times-Roman', 'serif/regular/Times-Roman'],
    ['TimesNewRomanPSMT', 'serif/regular/Times-Roman'],
    ['TimesNewRomanPS-BoldItalicMT', 'serif/bolditalic/Times-BoldItalic'],
    ['Times New Roman,Bold', 'serif/bold/Times-Bold'],
    ['CourierNewPSMT', 'mono/regular/Courier'],
    ['Courier-Oblique', 'mono/italic/Courier-Oblique'],
    ['Calibri', 'carlito/regular/'],
    ['Calibri-BoldItalic', 'carlito/bolditalic/'],
    ['Cambria,Italic', 'caladea/italic/'],
    ['Symbol', 'symbol/regular/Symbol'],
    ['ZapfDingbats', 'dingbats/regular/ZapfDingbats'],
    ['Arial-Black', undefined],
    ['ArialNarrow', undefined],
    ['Calibri Light', undefined],
    ['Helvetica Neue', undefined],
    ['Verdana', undefined],
    ['', undefined],
  ];
  for (const [name, want] of cases) {
    const s = substituteFor(name);
    assert.equal(s ? `${s.family}/${s.style}/${s.standard ?? ''}` : undefined, want, name);
  }
  assert.equal(substituteFor('Arial', { bold: true })?.style, 'bold');
});

// ---------------------------------------------------------------------------------------------
// Embedded fonts: CIDToGIDMap, CIDSet, widths, symbolic TrueType encodings

/** An embedded CIDFontType2 of Liberation Sans glyphs with CIDs = glyph ids, as some producers write it. */
function embeddedCidFont(
  doc: PDFDocument,
  text: string,
  opts: { map?: boolean; cidSet?: Uint8Array; advanceDelta?: number },
): { ref: PDFRef; hex: string } {
  const sans = substitute('sans');
  const chars = [...new Set(text)];
  const sub = subsetTrueType(sans, {
    glyphs: chars.map((c) => ({
      source: sans.glyphForUnicode(c.codePointAt(0)!),
      advance: sans.advance(sans.glyphForUnicode(c.codePointAt(0)!)) + (opts.advanceDelta ?? 0),
    })),
    postScriptName: 'LiberationSansSubset',
  });
  const w: (number | number[])[] = [];
  chars.forEach((c, i) => w.push(i + 1, [widthOf(sans, c)]));
  const fd = doc.context.obj({
    Type: 'FontDescriptor',
    FontName: 'AAAAAA+LiberationSans',
    Flags: 4,
    FontBBox: [-544, -303, 1302, 980],
    ItalicAngle: 0,
    Ascent: 905,
    Descent: -212,
    CapHeight: 716,
    StemV: 80,
    FontFile2: doc.context.register(doc.context.flateStream(sub.bytes, { Length1: sub.bytes.length })),
  });
  if (opts.cidSet) fd.set(N('CIDSet'), doc.context.register(doc.context.flateStream(opts.cidSet)));
  const cid = doc.context.obj({
    Type: 'Font',
    Subtype: 'CIDFontType2',
    BaseFont: 'AAAAAA+LiberationSans',
    CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
    FontDescriptor: doc.context.register(fd),
    W: w,
  });
  if (opts.map !== false) cid.set(N('CIDToGIDMap'), N('Identity'));
  const ref = doc.context.register(
    doc.context.obj({
      Type: 'Font',
      Subtype: 'Type0',
      BaseFont: 'AAAAAA+LiberationSans',
      Encoding: 'Identity-H',
      DescendantFonts: [doc.context.register(cid)],
    }),
  );
  const hex = [...text].map((c) => (chars.indexOf(c) + 1).toString(16).padStart(4, '0')).join('');
  return { ref, hex };
}

async function cidPdf(text: string, opts: Parameters<typeof embeddedCidFont>[2]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([420, 200]);
  const { ref, hex } = embeddedCidFont(doc, text, opts);
  page.node.set(N('Resources'), doc.context.obj({ Font: { F1: ref } }));
  page.node.set(
    N('Contents'),
    doc.context.register(doc.context.flateStream(new TextEncoder().encode(`BT /F1 18 Tf 20 100 Td <${hex}> Tj ET`))),
  );
  return doc.save({ useObjectStreams: false });
}

test('an embedded CIDFontType2 without /CIDToGIDMap gets /Identity (what its absence meant): pixels unchanged', async () => {
  const input = await cidPdf('Identity map', { map: false });
  const { pdf, before, outcomes } = await repair(input);
  assert.deepEqual(
    before.map((f) => f.clause),
    ['6.2.11.3.2-1'],
  );
  assert.equal(outcomes.get('cid-to-gid-map')?.changed, 1);
  assert.deepEqual(fontFindings(pdf), []);
  qpdfCheck(pdf);
  assert.equal(inkDifference(input, pdf), 0);
});

test('an incomplete /CIDSet is dropped: pixels unchanged', async () => {
  const input = await cidPdf('CIDSet incomplete', { cidSet: new Uint8Array([0x80]) });
  const { pdf, before, outcomes } = await repair(input);
  assert.deepEqual(
    before.map((f) => f.clause),
    ['6.2.11.4.2-2'],
  );
  assert.equal(outcomes.get('cid-set')?.changed, 1);
  assert.deepEqual(fontFindings(pdf), []);
  const out = await PDFDocument.load(pdf);
  const cid = pageFonts(out).get('F1')!.lookup(N('DescendantFonts'), PDFArray).lookup(0, PDFDict) as PDFDict;
  assert.equal(cid.lookup(N('FontDescriptor'), PDFDict).has(N('CIDSet')), false);
  assert.equal(inkDifference(input, pdf), 0);
});

test('embedded program widths that differ from /W: the program is corrected, the page stays identical', async () => {
  const input = await cidPdf('Widths differ', { advanceDelta: 120 });
  const { pdf, before, outcomes } = await repair(input);
  assert.deepEqual(
    before.map((f) => f.clause),
    ['6.2.11.5-1'],
  );
  assert.equal(outcomes.get('font-widths')?.changed, 1);
  assert.deepEqual(fontFindings(pdf), []);
  qpdfCheck(pdf);
  assert.equal(inkDifference(input, pdf), 0);
});

test('a symbolic TrueType font with an /Encoding: the encoding goes when the (3,0) cmap selects the same glyphs', async () => {
  const sans = substitute('sans');
  const text = 'Symbolic 123';
  const codes = [...new Set(text)].map((c) => c.charCodeAt(0));
  const glyphs = codes.map((c) => ({ source: sans.glyphForUnicode(c), advance: sans.advance(sans.glyphForUnicode(c)) }));
  const symbol = new Map(codes.map((c, i) => [c, i + 1]));
  const sub = subsetTrueType(sans, { glyphs, symbol, unicode: new Map(codes.map((c, i) => [c, i + 1])), postScriptName: 'Sym' });
  const input = await pdfWith(
    {
      F1: (doc) =>
        doc.context.register(
          doc.context.obj({
            Type: 'Font',
            Subtype: 'TrueType',
            BaseFont: 'AAAAAA+Sym',
            FirstChar: 32,
            LastChar: 126,
            Widths: Array.from({ length: 95 }, (_, i) => widthOf(sans, String.fromCharCode(32 + i))),
            Encoding: 'WinAnsiEncoding',
            FontDescriptor: doc.context.obj({
              Type: 'FontDescriptor',
              FontName: 'AAAAAA+Sym',
              Flags: 4,
              FontBBox: [-544, -303, 1302, 980],
              ItalicAngle: 0,
              Ascent: 905,
              Descent: -212,
              CapHeight: 716,
              StemV: 80,
              FontFile2: doc.context.register(doc.context.flateStream(sub.bytes, { Length1: sub.bytes.length })),
            }),
          }),
        ),
    },
    `BT /F1 18 Tf 20 100 Td (${text}) Tj ET`,
  );
  const { pdf, before, outcomes } = await repair(input);
  assert.deepEqual(
    before.map((f) => f.clause),
    ['6.2.11.6-3'],
  );
  assert.equal(outcomes.get('truetype-encodings')?.changed, 1);
  assert.deepEqual(fontFindings(pdf), []);
  assert.equal(
    pageFonts(await PDFDocument.load(pdf))
      .get('F1')!
      .has(N('Encoding')),
    false,
  );
  assert.equal(inkDifference(input, pdf), 0);
});

// ---------------------------------------------------------------------------------------------
// Hostile input

test('hostile font programs: malformed TrueType is a FontProgramError, never a crash or a huge allocation', () => {
  const good = readFontAsset(findFontAsset('sans')!);
  const cases: Uint8Array[] = [new Uint8Array(0), new Uint8Array(11), Buffer.from('OTTO\0\0\0\0\0\0\0\0')];
  // A directory that claims 65,535 tables; tables pointing past the end; a truncated copy.
  const many = good.slice(0, 64);
  new DataView(many.buffer).setUint16(4, 0xffff);
  cases.push(many, good.slice(0, 5000));
  const bent = good.slice();
  const dv = new DataView(bent.buffer);
  for (let i = 0; i < dv.getUint16(4); i++) dv.setUint32(12 + i * 16 + 12, 0x7fffffff);
  cases.push(bent);
  for (const c of cases) assert.throws(() => parseTrueType(c), FontProgramError);
  // Random bytes after a valid header: either an error or a font whose every read stays in bounds.
  let seed = 7;
  for (let n = 0; n < 200; n++) {
    const junk = good.slice(0, 4096);
    for (let k = 0; k < 64; k++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      junk[12 + (seed % 4000)] = seed & 0xff;
    }
    try {
      const f = parseTrueType(junk);
      for (let g = 0; g < Math.min(f.numGlyphs, 50); g++) {
        f.advance(g);
        f.components(g);
      }
      for (let cp = 0x20; cp < 0x180; cp++) f.glyphForUnicode(cp);
    } catch (err) {
      assert.ok(err instanceof FontProgramError, String(err));
    }
  }
});

test('hostile ToUnicode CMaps are bounded: a range over all codes, garbage and overlong strings', () => {
  const huge = new TextEncoder().encode(
    `1 beginbfrange <0000> <FFFFFFFF> <0041> endbfrange 1 beginbfchar <01> <${'00'.repeat(2000)}> endbfchar`,
  );
  const m = parseToUnicode(huge);
  assert.ok(m.size <= MAX_ENTRIES, `${m.size} entries`);
  assert.equal(m.get(1), 'B');
  assert.equal(parseToUnicode(new TextEncoder().encode('beginbfchar <zz> <0041> <01 endbfchar')).size, 0);
  const round = parseToUnicode(
    writeToUnicode(
      new Map([
        [0x20ac, '€'],
        [3, 'fi'],
        [4, '😀'],
      ]),
      2,
    ),
  );
  assert.deepEqual(
    [...round],
    [
      [3, 'fi'],
      [4, '😀'],
      [0x20ac, '€'],
    ],
  );
});

test('a font with a broken program in the PDF does not stop the widths repair, and nothing is changed', async () => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 100]);
  const fd = doc.context.obj({
    Type: 'FontDescriptor',
    FontName: 'Broken',
    Flags: 32,
    FontBBox: [0, 0, 1, 1],
    ItalicAngle: 0,
    Ascent: 1,
    Descent: 0,
    CapHeight: 1,
    StemV: 1,
    FontFile2: doc.context.register(doc.context.flateStream(new Uint8Array([0, 1, 0, 0, 0, 9, 9, 9]), { Length1: 8 })),
  });
  const font = doc.context.register(
    doc.context.obj({
      Type: 'Font',
      Subtype: 'TrueType',
      BaseFont: 'Broken',
      FirstChar: 65,
      LastChar: 65,
      Widths: [500],
      Encoding: 'WinAnsiEncoding',
      FontDescriptor: doc.context.register(fd),
    }),
  );
  page.node.set(N('Resources'), doc.context.obj({ Font: { F1: font } }));
  page.node.set(N('Contents'), doc.context.register(doc.context.flateStream(new TextEncoder().encode('BT /F1 12 Tf 10 10 Td (A) Tj ET'))));
  const [widths] = FONT_REPAIRS.filter((r) => r.name === 'font-widths');
  const out = await widths.apply({ doc, findings: [], deadline: Date.now() + NO_DEADLINE_MS });
  assert.equal(out.changed, 0);
});
