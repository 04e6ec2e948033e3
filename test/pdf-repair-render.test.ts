/**
 * The pages look the same after the PDF/A repairs: input and hybrid output are rendered with poppler (pdftoppm, an
 * independent renderer, at 36 dpi) and compared pixel by pixel. DeviceCMYK given a DefaultCMYK with our generated
 * profile (icc-cmyk.ts) must render as DeviceCMYK did: every channel within 3/255 on a chart of 64 tints; a hidden
 * annotation made visible draws nothing; an annotation given an empty appearance draws what it drew before.
 * poppler-utils (pdftoppm) is a test tool like qpdf (scripts/install-system-deps.sh); without it these tests are skipped.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { embedInvoiceXml, hybridFlavour } from '../src/pdf/embed.js';
import { checkPdfa } from '../src/pdfa/index.js';
import { xmlFor } from './hybrid-fixtures.js';
import { plainPdf } from './pdf-build.js';
import { SYNC_CHILD } from './spawned.js';

const hasPdftoppm = spawnSync('pdftoppm', ['-v'], SYNC_CHILD).status === 0;

/** RGB pixels of page 1 at 36 dpi. */
function render(pdf: Uint8Array): { w: number; h: number; data: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'render-'));
  try {
    writeFileSync(join(dir, 'a.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '36', '-singlefile', join(dir, 'a.pdf'), join(dir, 'a')], SYNC_CHILD);
    const b = readFileSync(join(dir, 'a.ppm'));
    const m = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(b.toString('latin1', 0, 40))!;
    return { w: Number(m[1]), h: Number(m[2]), data: b.subarray(m[0].length) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Largest channel difference and the share of pixels that differ by more than 2/255. */
function difference(a: Uint8Array, b: Uint8Array): { max: number; differing: number } {
  const x = render(a);
  const y = render(b);
  assert.deepEqual([x.w, x.h], [y.w, y.h]);
  let max = 0;
  let differing = 0;
  for (let i = 0; i < x.data.length; i += 3) {
    let d = 0;
    for (let k = 0; k < 3; k++) d = Math.max(d, Math.abs(x.data[i + k] - y.data[i + k]));
    max = Math.max(max, d);
    if (d > 2) differing++;
  }
  return { max, differing: differing / (x.data.length / 3) };
}

async function convert(input: Uint8Array) {
  const out = await embedInvoiceXml(input, { xml: xmlFor('en16931'), flavour: hybridFlavour('en16931') });
  assert.deepEqual(checkPdfa(out.pdf).findings, []);
  return out;
}

test('DefaultCMYK with the generated profile renders as DeviceCMYK did (64 tints, each channel within 3/255)', {
  skip: !hasPdftoppm,
}, async () => {
  const tints = [0, 0.3, 0.7, 1];
  const cells: string[] = [];
  let i = 0;
  for (const c of tints)
    for (const m of tints)
      for (const y of tints) {
        const k = [0, 0.2, 0.5, 1][i % 4];
        cells.push(`${c} ${m} ${y} ${k} k ${(i % 8) * 25} ${Math.floor(i / 8) * 25} 25 25 re f`);
        i++;
      }
  const input = plainPdf({ content: cells.join('\n') });
  const out = await convert(input);
  assert.deepEqual(out.repairs?.repaired, ['default-colour-spaces']);
  const d = difference(input, out.pdf);
  assert.ok(d.max <= 3, `max channel difference ${d.max}`);
});

test('hidden annotations made printable draw nothing; links and empty appearances change no pixel', { skip: !hasPdftoppm }, async () => {
  const input = plainPdf({
    page: '/Annots[5 0 R 6 0 R 7 0 R]',
    extra: [
      '<</Type/Annot/Subtype/Square/F 2/Rect[10 10 90 90]/C[1 0 0]/AP<</N 8 0 R>>>>', // hidden
      '<</Type/Annot/Subtype/Link/Rect[100 10 190 40]/Border[0 0 0]/A<</S/URI/URI(https://example.org)>>>>',
      '<</Type/Annot/Subtype/Widget/FT/Tx/T(a)/F 4/Rect[100 50 190 80]>>', // no appearance, no value
      { dict: '<</Type/XObject/Subtype/Form/BBox[0 0 80 80]/Resources<<>>>>', data: '1 0 0 rg 0 0 80 80 re f' },
    ],
    catalog: '/AcroForm<</Fields[7 0 R]>>',
  });
  const out = await convert(input);
  assert.deepEqual(out.repairs?.repaired, ['annotation-flags', 'annotation-appearances']);
  const d = difference(input, out.pdf);
  assert.equal(d.max, 0, `max channel difference ${d.max}`);
});
