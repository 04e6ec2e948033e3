/**
 * The anchor of issue #30: Ghostscript's pdfwrite turns each PDF of a folder into PDF/A-3b (-dPDFA=3,
 * -sColorConversionStrategy=RGB, an sRGB output intent from PDFA_def.ps) and our own checker judges the result
 * (`checkPdfa(bytes, { part: 3 })`). Ghostscript rewrites every page (fonts re-encoded and embedded, images
 * recompressed, colours converted); the figure is what our convert should match while leaving pages as they were.
 *
 *   node --import tsx scripts/pdf-corpus/ghostscript-anchor.ts [folder] [--keep outdir]
 *
 * Needs Debian's ghostscript and icc-profiles-free (the sRGB profile), both installed by install-producers.sh.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { checkPdfa } from '../../src/pdfa/index.js';
import { listPdfs, percentile } from './lib.js';

const args = process.argv.slice(2);
const keepAt = args.indexOf('--keep');
const keep = keepAt >= 0 ? args.splice(keepAt, 2)[1] : undefined;
const folder = args[0] ?? 'test/fixtures/real-world-pdf';
const out = keep ?? mkdtempSync(join(tmpdir(), 'gs-anchor-'));
const ICC = ['/usr/share/color/icc/sRGB.icc', '/usr/share/color/icc/colord/sRGB.icc'].find(existsSync);
if (!ICC) throw new Error('no sRGB ICC profile: apt-get install icc-profiles-free');
const DEF = join(import.meta.dirname, 'PDFA_def.ps');

function gs(input: string, output: string): Promise<{ code: number; ms: number; err: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const p = spawn('gs', [
      '-q',
      '-dNOPAUSE',
      '-dBATCH',
      '-dSAFER',
      `--permit-file-read=${ICC}`,
      `-sSRGB_ICC=${ICC}`,
      '-sDEVICE=pdfwrite',
      '-dPDFA=3',
      '-dPDFACompatibilityPolicy=1',
      '-sColorConversionStrategy=RGB',
      '-sProcessColorModel=DeviceRGB',
      `-sOutputFile=${output}`,
      DEF,
      input,
    ]);
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.stdout.on('data', (d) => (err += d));
    const timer = setTimeout(() => p.kill('SIGKILL'), 120_000);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, ms: performance.now() - t0, err });
    });
  });
}

const files = listPdfs(folder);
const results: { file: string; ok: boolean; clauses: string[]; gsCode: number; ms: number }[] = [];
let next = 0;
async function worker(): Promise<void> {
  while (next < files.length) {
    const i = next++;
    const input = files[i];
    const output = join(out, `${i}.pdf`);
    const r = await gs(input, output);
    let clauses: string[] = [];
    let ok = false;
    if (r.code === 0 && existsSync(output)) {
      const rep = checkPdfa(readFileSync(output), { part: 3 });
      clauses = [...new Set(rep.findings.map((f) => f.clause))].sort();
      ok = rep.valid;
    } else clauses = [`gs exit ${r.code}: ${r.err.split('\n').find((l) => l.trim()) ?? ''}`.slice(0, 120)];
    results.push({ file: relative(folder, input), ok, clauses, gsCode: r.code, ms: r.ms });
    console.log(
      `${ok ? 'pass' : 'FAIL'} ${r.ms.toFixed(0).padStart(6)} ms  ${relative(folder, input)}${ok ? '' : `  ${clauses.join(' ')}`}`,
    );
  }
}
await Promise.all([worker(), worker()]);
const passed = results.filter((r) => r.ok).length;
const times = results.map((r) => r.ms).sort((a, b) => a - b);
console.log(
  `\nGhostscript ${'pdfwrite -dPDFA=3 -sColorConversionStrategy=RGB'}: ${passed} of ${results.length} outputs pass our PDF/A-3b checker`,
);
console.log(
  `gs time per file: median ${percentile(times, 0.5).toFixed(0)} ms, p90 ${percentile(times, 0.9).toFixed(0)} ms, max ${times[times.length - 1]?.toFixed(0)} ms (2 at a time)`,
);
const tally = new Map<string, number>();
for (const r of results) for (const c of r.clauses) tally.set(c, (tally.get(c) ?? 0) + 1);
for (const [c, n] of [...tally].sort((a, b) => b[1] - a[1])) console.log(`  ${c}: ${n}`);
if (!keep) rmSync(out, { recursive: true, force: true });
