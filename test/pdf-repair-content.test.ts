/**
 * The repairs that reach inside content and colour: an inline image's /I true rewritten in its content stream (and
 * nothing else in the stream), DeviceN colourants given their Separations (checked against poppler: the Separation
 * paints what the DeviceN painted with the other colourants at 0), and fonts used only inside an LZW content stream
 * found and embedded. Each input is built here with exactly its defect.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PDFArray, type PDFDict, PDFDocument, PDFName, type PDFRawStream, PDFRef } from '@cantoo/pdf-lib';
import { embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';
import { editInlineImages } from '../src/pdf/repair/content-edit.js';
import { checkPdfa } from '../src/pdfa/index.js';
import { xmlFor } from './hybrid-fixtures.js';
import { buildPdf, lzwEncode, pageContents, plainPdf, streamData } from './pdf-build.js';

const clausesOf = (pdf: Uint8Array) => [...new Set(checkPdfa(pdf, { part: 3 }).findings.map((f) => f.clause))].sort();
const hasPdftoppm = spawnSync('pdftoppm', ['-v']).status === 0;

async function convert(input: Uint8Array, flagged: string[]) {
  const before = clausesOf(input);
  for (const c of flagged) assert.ok(before.includes(c), `the input is flagged ${c}: ${before.join(', ')}`);
  const out = await embedInvoiceXml(input, { xml: xmlFor('en16931'), flavour: hybridFlavour('en16931') });
  assert.deepEqual(checkPdfa(out.pdf).findings, [], 'the output passes PDF/A-3b');
  return { out, doc: await PDFDocument.load(out.pdf, { updateMetadata: false }) };
}

/** RGB pixels of page 1 at 36 dpi (poppler). */
function render(pdf: Uint8Array): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'render-'));
  try {
    writeFileSync(join(dir, 'a.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '36', '-singlefile', join(dir, 'a.pdf'), join(dir, 'a')]);
    const b = readFileSync(join(dir, 'a.ppm'));
    const m = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(b.toString('latin1', 0, 40))!;
    return b.subarray(m[0].length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function maxDifference(a: Buffer, b: Buffer): number {
  assert.equal(a.length, b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

describe('inline images (6.2.8-3)', () => {
  // 7 bytes of grey image data that read "/I true": the data must be skipped, not edited.
  const image = 'BI /W 7 /H 1 /BPC 8 /CS /G /I true ID /I true EI';
  const content = `q 140 0 0 20 20 20 cm ${image} Q\n/Tag <</I true>> BDC EMC\nq 100 0 0 10 20 80 cm BI /W 1 /H 1 /BPC 8 /CS /G /Interpolate true ID \x80 EI Q`;

  test('editInlineImages changes the value and nothing else; a dictionary operand and image data stay', () => {
    const data = Buffer.from(content, 'latin1');
    const r = editInlineImages(data, (k, v) => (k === 'Interpolate' && v === true ? 'false' : undefined), Date.now() + 1000);
    assert.ok(r.ok);
    assert.equal(r.edits, 2);
    assert.equal(
      Buffer.from(r.data).toString('latin1'),
      content.replace('/CS /G /I true ID', '/CS /G /I false ID').replace('/Interpolate true', '/Interpolate false'),
    );
  });

  test('an inline image without ID is left alone and said so', () => {
    const r = editInlineImages(Buffer.from('q BI /W 1 /H 1 /I true Q', 'latin1'), () => 'false', Date.now() + 1000);
    assert.equal(r.ok, false);
  });

  test('image-interpolate rewrites /I true in the page and in a form; every other byte of the content is kept', async () => {
    const input = plainPdf({
      content: `${content}\n/Fm1 Do`,
      resources: '/XObject<</Fm1 5 0 R>>',
      extra: [
        {
          dict: '<</Type/XObject/Subtype/Form/BBox[0 0 200 200]/Resources<<>>/Filter/ASCIIHexDecode>>',
          data: Buffer.from(image, 'latin1').toString('hex'),
        },
      ],
    });
    const { out, doc } = await convert(input, ['6.2.8-3']);
    assert.ok(out.repairs?.repaired.includes('image-interpolate'));
    assert.deepEqual(out.repairs?.unrepaired, []);
    const [page] = await pageContents(out.pdf);
    assert.equal(
      page,
      `${content.replace('/CS /G /I true ID', '/CS /G /I false ID').replace('/Interpolate true', '/Interpolate false')}\n/Fm1 Do`,
    );
    assert.equal(streamData(doc, 5).toString('latin1'), image.replace('/CS /G /I true ID', '/CS /G /I false ID'));
  });
});

describe('DeviceN colourants (6.2.4.4-1)', () => {
  const tints = [0.25, 0.5, 1];
  /** A page painting three patches of the colour space CS1 with the given operands. */
  const patches = (operands: (t: number) => string) =>
    tints.map((t, i) => `/CS1 cs ${operands(t)} scn ${20 + i * 60} 20 50 160 re f`).join('\n');

  /** The Separation the repair wrote for `name` (its array and its tint transform as text for a new PDF). */
  function separationOf(doc: PDFDocument, deviceN: PDFArray, name: string): { alt: string; fn: { dict: string; data: Buffer } } {
    const attrs = doc.context.lookup(deviceN.get(4)) as PDFDict;
    const colorants = attrs.lookup(PDFName.of('Colorants')) as PDFDict;
    const sep = colorants.lookup(PDFName.of(name)) as PDFArray;
    assert.ok(sep instanceof PDFArray, `${name} has a Separation`);
    assert.equal(String(sep.get(0)), '/Separation');
    assert.equal(String(sep.get(1)), `/${name}`);
    const fnRef = sep.get(3) as PDFRef;
    const fn = doc.context.lookup(fnRef) as PDFRawStream;
    const dict = fn.dict.clone(doc.context);
    dict.delete(PDFName.of('Filter'));
    dict.delete(PDFName.of('Length'));
    return { alt: String(sep.get(2)), fn: { dict: dict.toString(), data: streamData(doc, fnRef.objectNumber) } };
  }

  const deviceNOf = (doc: PDFDocument) =>
    (doc.getPages()[0].node.Resources()!.lookup(PDFName.of('ColorSpace')) as PDFDict).lookup(PDFName.of('CS1')) as PDFArray;

  /** The Separation paints each tint as the DeviceN painted (0, …, t, …, 0): poppler renders both alike. */
  function assertSamePaint(
    deviceN: { input: Buffer; operands: (t: number) => string },
    sep: { alt: string; fn: { dict: string; data: Buffer } },
  ) {
    if (!hasPdftoppm) return;
    const separation = plainPdf({
      content: patches((t) => `${t}`),
      resources: `/ColorSpace<</CS1[/Separation/Spot ${sep.alt} 5 0 R]>>`,
      extra: [sep.fn],
    });
    const original = plainPdf({
      content: patches(deviceN.operands),
      resources: `/ColorSpace<</CS1 ${deviceNText(deviceN.input)}>>`,
      extra: [deviceNFn(deviceN.input)],
    });
    assert.ok(maxDifference(render(separation), render(original)) <= 1, 'the Separation paints as the DeviceN did');
  }

  // Kept beside each input: the DeviceN array's text and its function object, to paint it again in a second PDF.
  const source = new Map<Buffer, { cs: string; fn: { dict: string; data: Buffer } }>();
  const deviceNText = (input: Buffer) => source.get(input)!.cs.replace(/6 0 R/, '5 0 R');
  const deviceNFn = (input: Buffer) => source.get(input)!.fn;
  function deviceNPdf(cs: string, fn: { dict: string; data: Buffer }, content: string, extraResources = ''): Buffer {
    const input = plainPdf({
      content,
      resources: `/ColorSpace<</CS1 ${cs}${extraResources}>>`,
      extra: ['<<>>', fn],
    });
    source.set(input, { cs, fn });
    return input;
  }

  test('a PostScript tint transform: the spot colourant gets the transform with the other colourant at 0', async () => {
    // Ghostscript's shape: Black and a spot colour, tint transform into DeviceCMYK.
    const fn = { dict: '<</FunctionType 4/Domain[0 1 0 1]/Range[0 1 0 1 0 1 0 1]>>', data: '{exch 1 index 0.6 mul 0 4 -1 roll }' };
    const operands = (t: number) => `0 ${t}`;
    const input = deviceNPdf('[/DeviceN[/Black/HKS#2043#20K]/DeviceCMYK 6 0 R]', { ...fn, data: Buffer.from(fn.data) }, patches(operands));
    const { out, doc } = await convert(input, ['6.2.4.4-1']);
    assert.ok(out.repairs?.repaired.includes('devicen-colorants'));
    const cs = deviceNOf(doc);
    const colorants = (doc.context.lookup(cs.get(4)) as PDFDict).lookup(PDFName.of('Colorants')) as PDFDict;
    assert.deepEqual(
      colorants.keys().map((k) => k.decodeText()),
      ['HKS 43 K'],
      'process colourants need no entry',
    );
    const sep = separationOf(doc, cs, 'HKS#2043#20K');
    assert.equal(sep.alt, '/DeviceCMYK');
    assert.equal(sep.fn.data.toString('latin1'), '{ 0 2 -1 roll exch 1 index 0.6 mul 0 4 -1 roll }');
    assert.deepEqual(await pageContents(out.pdf), await pageContents(input), 'page content untouched');
    assertSamePaint({ input, operands }, sep);
  });

  test('a sampled tint transform: the line of samples along the colourant, the first colourant too', async () => {
    // Two spot colours into RGB, 3 × 2 samples; first input varies fastest.
    const samples = Buffer.from([
      255,
      255,
      255,
      200,
      100,
      50,
      120,
      20,
      0, // spot B = 0: spot A = 0, 0.5, 1
      10,
      60,
      250,
      5,
      40,
      150,
      0,
      0,
      90, // spot B = 1
    ]);
    const fn = { dict: '<</FunctionType 0/Domain[0 1 0 1]/Range[0 1 0 1 0 1]/Size[3 2]/BitsPerSample 8>>', data: samples };
    const operands = (t: number) => `${t} 0`;
    const input = deviceNPdf('[/DeviceN[/SpotA/SpotB]/DeviceRGB 6 0 R]', fn, patches(operands));
    const { doc } = await convert(input, ['6.2.4.4-1']);
    const cs = deviceNOf(doc);
    const a = separationOf(doc, cs, 'SpotA');
    assert.deepEqual([...a.fn.data], [255, 255, 255, 200, 100, 50, 120, 20, 0]);
    assert.match(a.fn.dict, /\/Size \[ 3 \]/);
    const b = separationOf(doc, cs, 'SpotB');
    assert.deepEqual([...b.fn.data], [255, 255, 255, 10, 60, 250]);
    assertSamePaint({ input, operands }, a);
    assertSamePaint({ input, operands: (t) => `0 ${t}` }, b);
  });

  test('a Separation of the same name already in the file is used; a one-colourant DeviceN shares its own transform', async () => {
    const input = plainPdf({
      content: '/CS1 cs 1 scn 20 20 50 50 re f /CS2 cs 1 scn 80 20 50 50 re f /CS3 cs 0.5 0.5 scn 140 20 50 50 re f',
      resources: '/ColorSpace<</CS1[/DeviceN[/Gold]/DeviceRGB 5 0 R]/CS2 7 0 R/CS3[/DeviceN[/Silver/Gold]/DeviceRGB 6 0 R]>>',
      extra: [
        '<</FunctionType 2/Domain[0 1]/C0[1 1 1]/C1[0.8 0.6 0]/N 1>>',
        { dict: '<</FunctionType 4/Domain[0 1 0 1]/Range[0 1 0 1 0 1]>>', data: '{ pop dup dup }' },
        '[/Separation/Gold/DeviceRGB 8 0 R]',
        '<</FunctionType 2/Domain[0 1]/C0[1 1 1]/C1[0.8 0.6 0]/N 1>>',
      ],
    });
    const { doc } = await convert(input, ['6.2.4.4-1']);
    const spaces = doc.getPages()[0].node.Resources()!.lookup(PDFName.of('ColorSpace')) as PDFDict;
    const colorantsOf = (k: string) =>
      (doc.context.lookup((spaces.lookup(PDFName.of(k)) as PDFArray).get(4)) as PDFDict).lookup(PDFName.of('Colorants')) as PDFDict;
    assert.equal(String(colorantsOf('CS1').get(PDFName.of('Gold'))), '7 0 R', 'the existing Separation');
    assert.equal(String(colorantsOf('CS3').get(PDFName.of('Gold'))), '7 0 R');
    const silver = colorantsOf('CS3').lookup(PDFName.of('Silver')) as PDFArray;
    assert.equal(String(silver.get(0)), '/Separation');
  });

  test('a DeviceN whose transform cannot be split is reported, not guessed', async () => {
    // A sampled transform whose /Encode puts 0 between two sample points.
    const fn = {
      dict: '<</FunctionType 0/Domain[0 1 0 1]/Range[0 1]/Size[2 2]/BitsPerSample 8/Encode[0 1 0.5 1]>>',
      data: Buffer.from([0, 255, 0, 255]),
    };
    const input = plainPdf({
      content: '/CS1 cs 0.5 0.5 scn 20 20 50 50 re f',
      resources: '/ColorSpace<</CS1[/DeviceN[/A/B]/DeviceGray 5 0 R]>>',
      extra: [fn],
    });
    const out = await embedInvoiceXml(input, { xml: xmlFor('en16931'), flavour: hybridFlavour('en16931') });
    assert.ok(out.repairs?.unrepaired.some((u) => u.clause === '6.2.4.4-1' && /colourant A has no Separation/.test(u.message)));
    assert.ok(out.repairs?.repaired.includes('devicen-colorants'), 'B could be split');
  });
});

describe('fonts used only in an LZW content stream (6.2.11.4.1 after 6.1.7.2)', () => {
  test('the checker reads the LZW content, so the font is embedded', async () => {
    const content = 'BT /F1 12 Tf 20 100 Td (Rechnung 2026) Tj ET';
    const input = buildPdf([
      '<</Type/Catalog/Pages 2 0 R>>',
      '<</Type/Pages/Kids[3 0 R]/Count 1>>',
      '<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Resources<</Font<</F1 5 0 R>>>>/Contents 4 0 R>>',
      { dict: '<</Filter/LZWDecode>>', data: lzwEncode(Buffer.from(content, 'latin1')) },
      '<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>',
    ]);
    const { out } = await convert(input, ['6.1.7.2-1', '6.2.11.4.1-1']);
    assert.deepEqual(out.repairs?.repaired, ['lzw-to-flate', 'embed-fonts']);
    assert.deepEqual(await pageContents(out.pdf), [content]);
  });
});

describe('the held-out set taught these (each built here, no file copied)', () => {
  test('icc-profiles (6.2.4.2-1): ImageMagick’s grey image with an sRGB profile under /N 1, an unreadable RGB and CMYK profile', async () => {
    const { getDefaultSRGBProfile } = await import('@cantoo/pdf-lib');
    const srgb = Buffer.from(getDefaultSRGBProfile());
    const image = (n: number, data: string) => ({
      dict: `<</Type/XObject/Subtype/Image/Width 4/Height 1/BitsPerComponent 8/ColorSpace[/ICCBased ${n}]>>`,
      data,
    });
    const input = plainPdf({
      content: 'q 180 0 0 50 10 10 cm /G Do Q q 180 0 0 50 10 70 cm /R Do Q q 180 0 0 50 10 130 cm /C Do Q',
      resources: '/XObject<</G 5 0 R/R 6 0 R/C 7 0 R>>',
      extra: [
        image(8, '\x00\x55\xaa\xff'),
        image(9, '\xff\x00\x00\x00\xff\x00\x00\x00\xff\x80\x80\x80'),
        image(10, '\xff\x00\x00\x00\x00\xff\x00\x00\x00\x00\xff\x00\x00\x00\x00\x80'),
        { dict: '<</N 1/Alternate/DeviceGray>>', data: srgb },
        { dict: '<</N 3>>', data: srgb.subarray(0, 100) },
        { dict: '<</N 4/Alternate/DeviceCMYK>>', data: 'not a profile' },
      ].map((o, i) => (i < 3 ? { ...o, dict: o.dict.replace(/\/ICCBased (\d+)/, '/ICCBased $1 0 R') } : o)),
    });
    const { out, doc } = await convert(input, ['6.2.4.2-1']);
    assert.ok(out.repairs?.repaired.includes('icc-profiles'));
    const header = (num: number) => streamData(doc, num).toString('latin1', 12, 20);
    assert.deepEqual([header(8), header(9), header(10)], ['mntrGRAY', 'mntrRGB ', 'scnrCMYK']);
    // A reader that could not use the profiles painted the alternates; the new profiles paint the same.
    if (hasPdftoppm) assert.ok(maxDifference(render(input), render(out.pdf)) <= 2, 'the images look as they did');
  });

  test('the grey profile: ICC v2 monitor class, GRAY to XYZ, the sRGB tone curve', async () => {
    const { greyProfile } = await import('../src/pdf/repair/icc-profiles.js');
    const p = Buffer.from(greyProfile());
    assert.equal(p.readUInt32BE(0), p.length);
    assert.equal(p.toString('latin1', 12, 24), 'mntrGRAYXYZ ');
    assert.equal(p[8], 2);
    const at = p.lastIndexOf('curv');
    assert.equal(p.readUInt32BE(at + 8), 1024);
    assert.equal(p.readUInt16BE(at + 12 + 2 * 1023), 65535);
    // sRGB 50 % grey is 21.4 % linear light.
    assert.equal(Math.round((p.readUInt16BE(at + 12 + 2 * 511) / 65535) * 1000), 214);
  });

  test('embedded-file-names and associated-files (6.8): a direct file specification in the name tree without /UF', async () => {
    const input = plainPdf({
      catalog: '/Names<</EmbeddedFiles 5 0 R>>',
      extra: ['<</Names[(image.png)<</Type/Filespec/F(image.png)/EF<</F 6 0 R>>>>]>>', { dict: '<</Type/EmbeddedFile>>', data: 'PNG' }],
    });
    const { out } = await convert(input, ['6.8-1', '6.8-2', '6.8-3', '6.8-4']);
    const { readPdf } = await import('../src/pdf/extract.js');
    assert.deepEqual((await readPdf(out.pdf)).attachments.map((a) => a.name).sort(), ['factur-x.xml', 'image.png']);
  });

  test('truetype-encodings (6.2.11.6-3): a form font marked symbolic with WinAnsi, never shown nor embedded, becomes non-symbolic', async () => {
    const input = plainPdf({
      resources: '/Font<</F3 5 0 R>>',
      extra: [
        '<</Type/Font/Subtype/TrueType/BaseFont/Ubuntu/Encoding/WinAnsiEncoding/FirstChar 32/LastChar 32/Widths[231]/FontDescriptor 6 0 R>>',
        '<</Type/FontDescriptor/FontName/Ubuntu/Flags 4/FontBBox[0 0 1000 1000]/ItalicAngle 0/Ascent 900/Descent -200/CapHeight 700/StemV 80>>',
      ],
    });
    const { doc } = await convert(input, ['6.2.11.6-3']);
    assert.equal(Number(String((doc.context.lookup(PDFRef.of(6)) as PDFDict).get(PDFName.of('Flags')))), 32);
  });

  test('private-data (6.1.13-3): an application’s /Private page-piece data with a 40 KB string goes, its /LastModified stays', async () => {
    const input = plainPdf({
      page: '/PieceInfo<</Annotator<</LastModified(D:20220920081702)/Private 5 0 R>>>>',
      extra: [`<</Ink<${'ab'.repeat(40_000)}>/Version(5)>>`],
    });
    const { out, doc } = await convert(input, ['6.1.13-3']);
    assert.ok(out.repairs?.repaired.includes('private-data'));
    const piece = (doc.getPages()[0].node.lookup(PDFName.of('PieceInfo')) as PDFDict).lookup(PDFName.of('Annotator')) as PDFDict;
    assert.deepEqual(
      piece.keys().map((k) => k.decodeText()),
      ['LastModified'],
    );
    assert.ok(out.pdf.length < 40_000, 'the private object is not written');
  });

  test('an over-long string elsewhere (a comment’s text) is reported, not cut', async () => {
    const input = plainPdf({
      page: '/Annots[5 0 R]',
      extra: [
        `<</Type/Annot/Subtype/Text/F 4/Rect[10 10 30 30]/Contents(${'x'.repeat(40_000)})/AP<</N 6 0 R>>>>`,
        { dict: '<</Type/XObject/Subtype/Form/BBox[0 0 20 20]/Resources<<>>>>', data: '' },
      ],
    });
    const out = await embedInvoiceXml(input, { xml: xmlFor('en16931'), flavour: hybridFlavour('en16931') });
    assert.ok(out.repairs?.unrepaired.some((u) => u.clause === '6.1.13-3' && u.object === 'object 5'));
  });

  test('lzw-to-flate (6.1.7.2-1): LZW behind ASCIIHex, as old Distiller wrote it', async () => {
    const content = 'BT /F1 12 Tf 20 100 Td (Alt) Tj ET 0 0 1 rg 20 20 100 50 re f';
    const input = buildPdf([
      '<</Type/Catalog/Pages 2 0 R>>',
      '<</Type/Pages/Kids[3 0 R]/Count 1>>',
      '<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Resources<</Font<</F1 5 0 R>>>>/Contents 4 0 R>>',
      { dict: '<</Filter[/ASCIIHexDecode/LZWDecode]>>', data: `${lzwEncode(Buffer.from(content, 'latin1')).toString('hex')}>` },
      '<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>',
    ]);
    const { out, doc } = await convert(input, ['6.1.7.2-1']);
    assert.ok(out.repairs?.repaired.includes('lzw-to-flate'));
    assert.deepEqual(await pageContents(out.pdf), [content]);
    assert.equal(String((doc.getPages()[0].node.Contents() as PDFRawStream).dict.get(PDFName.of('Filter'))), '/FlateDecode');
  });
});
