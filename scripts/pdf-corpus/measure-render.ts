/**
 * Where test/real-world-pdf.test.ts's render thresholds come from. For every corpus file whose fonts are not all
 * embedded, Ghostscript's pdfwrite writes a copy with the fonts embedded (its own metric-compatible substitutes:
 * URW Nimbus for the standard 14 and for Arial / Times New Roman / Courier New), the way a font repair changes a
 * page; poppler renders input and copy (pdftoppm, the test's dpi and grey) and the share of differing pixels is
 * printed per file, with its distribution. Files whose fonts are all embedded go through the same copy as a control
 * (only re-serialisation, no substitution).
 *
 *   node --import tsx scripts/pdf-corpus/measure-render.ts [folder]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from './lib.js';

const DPI = 36;
const DELTA = 48;
const folder = process.argv[2] ?? 'test/fixtures/real-world-pdf';
const manifest: { file: string; detected: string[]; features: string[] }[] = JSON.parse(
  readFileSync(join(folder, 'manifest.json'), 'utf8'),
).files;
const work = mkdtempSync(join(tmpdir(), 'measure-render-'));

function pages(pdf: string, prefix: string): { w: number; h: number; px: Buffer }[] {
  execFileSync('pdftoppm', ['-r', String(DPI), '-gray', pdf, join(work, prefix)], { stdio: 'ignore' });
  return readdirSync(work)
    .filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.pgm'))
    .sort((a, b) => Number(a.slice(prefix.length + 1, -4)) - Number(b.slice(prefix.length + 1, -4)))
    .map((f) => {
      const b = readFileSync(join(work, f));
      const head = b.subarray(0, 40).toString('latin1').split(/\s+/);
      const [w, h] = [Number(head[1]), Number(head[2])];
      return { w, h, px: b.subarray(b.length - w * h) };
    });
}

function diff(a: { w: number; h: number; px: Buffer }, b: { w: number; h: number; px: Buffer }): number {
  if (a.w !== b.w || a.h !== b.h) return 1;
  let n = 0;
  for (let i = 0; i < a.px.length; i++) if (Math.abs(a.px[i] - b.px[i]) > DELTA) n++;
  return n / a.px.length;
}

const groups: Record<string, number[]> = { substituted: [], control: [] };
for (const [i, e] of manifest.entries()) {
  if (e.features.includes('encrypted:empty-user-password') || e.features.includes('broken-xref') || e.file.startsWith('hostile/')) continue;
  const simpleNotEmbedded = e.detected.some((d) => d.startsWith('fonts-not-embedded')) && !e.features.includes('fonts-not-embedded:type0');
  const allEmbedded = !e.detected.some((d) => d.startsWith('fonts-not-embedded'));
  if (!simpleNotEmbedded && !allEmbedded) continue;
  const copy = join(work, `copy-${i}.pdf`);
  try {
    execFileSync(
      'gs',
      [
        '-q',
        '-dNOPAUSE',
        '-dBATCH',
        '-dSAFER',
        '-sDEVICE=pdfwrite',
        '-dEmbedAllFonts=true',
        '-dSubsetFonts=true',
        `-sOutputFile=${copy}`,
        join(folder, e.file),
      ],
      {
        stdio: 'ignore',
        timeout: 60_000,
      },
    );
  } catch {
    continue;
  }
  const a = pages(join(folder, e.file), `a${i}`);
  const b = pages(copy, `b${i}`);
  if (a.length !== b.length) continue;
  const worst = Math.max(...a.map((p, k) => diff(p, b[k])));
  const group = simpleNotEmbedded ? 'substituted' : 'control';
  groups[group].push(worst);
  console.log(`${group.padEnd(12)} ${(worst * 100).toFixed(3).padStart(7)} %  ${e.file}`);
}
for (const [g, v] of Object.entries(groups)) {
  const s = [...v].sort((x, y) => x - y);
  console.log(
    `${g}: ${s.length} files, worst page per file: median ${(percentile(s, 0.5) * 100).toFixed(3)} %, p90 ${(percentile(s, 0.9) * 100).toFixed(3)} %, max ${((s[s.length - 1] ?? 0) * 100).toFixed(3)} %`,
  );
}
rmSync(work, { recursive: true, force: true });
