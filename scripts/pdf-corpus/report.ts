/**
 * Every PDF of a folder through the real app's POST /v1/convert (app.inject, the same app `npm start` serves) with
 * one fixed invoice metadata JSON, and what our PDF/A-3b checker says about each input.
 *
 * Prints per file: HTTP status (and error code), X-PDFA-Check, X-PDFA-Repairs, the clauses still unmet (any other
 * X-PDFA-* header), the convert time; then the totals and a tally by clause of the checker's findings on the inputs
 * (`checkPdfa(bytes, { part: 3 })`: what a repair has to do), and of the repairs the answers report.
 *
 *   node --import tsx scripts/pdf-corpus/report.ts [folder] [--json out.json] [--markdown out.md] [--tally-only]
 *
 * folder defaults to test/fixtures/real-world-pdf (files in subfolders are included). A PDF that is refused as
 * signed (422 PDF_SIGNED) is sent again with allow_signature_invalidation=true, as a user would after reading the
 * answer; both answers are reported.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { checkPdfa } from '../../src/pdfa/index.js';
import { CLAUSE_NAMES, convertForm, listPdfs, percentile } from './lib.js';

interface FileReport {
  file: string;
  bytes: number;
  status: number;
  code?: string;
  pdfaCheck?: string;
  repairs?: string;
  /** Every other X-PDFA-* header of the answer (the unmet clauses, under whatever name the service gives them). */
  otherPdfaHeaders: Record<string, string>;
  ms: number;
  signed: boolean;
  inputClauses: string[];
  inputComplete: boolean;
  inputCheckMs: number;
  bodyBytes: number;
  /** A refusal's clauses (422 PDFA_NONCONFORMANT lists the written PDF's failures under errors[].rule_id). */
  refusedClauses: string[];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : undefined;
  };
  const jsonOut = flag('--json');
  const mdOut = flag('--markdown');
  const tallyOnly = args.includes('--tally-only');
  const folder = args.find((a) => !a.startsWith('--')) ?? 'test/fixtures/real-world-pdf';
  const files = listPdfs(folder);
  const app = tallyOnly ? null : await buildApp(loadConfig({ LOG_LEVEL: 'silent' }));
  const reports: FileReport[] = [];
  for (const path of files) {
    const bytes = readFileSync(path);
    const file = relative(folder, path);
    let inputClauses: string[] = [];
    let inputComplete = true;
    let inputCheckMs = 0;
    try {
      const r = checkPdfa(bytes, { part: 3 });
      inputClauses = [...new Set(r.findings.map((f) => f.clause))].sort();
      inputComplete = r.complete;
      inputCheckMs = r.elapsedMs;
    } catch (err) {
      inputClauses = [`checker threw: ${(err as Error).message}`];
    }
    const rep: FileReport = {
      file,
      bytes: bytes.length,
      status: 0,
      otherPdfaHeaders: {},
      ms: 0,
      signed: false,
      inputClauses,
      inputComplete,
      inputCheckMs,
      bodyBytes: 0,
      refusedClauses: [],
    };
    if (app) {
      const send = async (extra: Record<string, string>) => {
        const { payload, headers } = convertForm(bytes, extra);
        const t0 = performance.now();
        const res = await app.inject({ method: 'POST', url: '/v1/convert', payload, headers });
        return { res, ms: performance.now() - t0 };
      };
      let { res, ms } = await send({});
      const codeOf = (r: typeof res): string | undefined => {
        if (r.statusCode === 200) return undefined;
        try {
          return (r.json() as { code?: string }).code;
        } catch {
          return undefined;
        }
      };
      if (res.statusCode === 422 && codeOf(res) === 'PDF_SIGNED') {
        rep.signed = true;
        ({ res, ms } = await send({ allow_signature_invalidation: 'true' }));
      }
      rep.status = res.statusCode;
      rep.code = codeOf(res);
      rep.ms = ms;
      rep.bodyBytes = res.rawPayload.length;
      if (rep.code === 'PDFA_NONCONFORMANT') {
        const errors = (res.json() as { errors?: { rule_id?: string }[] }).errors ?? [];
        rep.refusedClauses = [...new Set(errors.map((e) => e.rule_id ?? '?'))].sort();
      }
      for (const [k, v] of Object.entries(res.headers)) {
        const key = k.toLowerCase();
        if (!key.startsWith('x-pdfa-')) continue;
        if (key === 'x-pdfa-check') rep.pdfaCheck = String(v);
        else if (key === 'x-pdfa-repairs') rep.repairs = String(v);
        else rep.otherPdfaHeaders[k] = String(v);
      }
    }
    reports.push(rep);
    const line = app
      ? `${String(rep.status).padEnd(4)}${(rep.code ?? '').padEnd(20)} ${(rep.pdfaCheck ?? '-').padEnd(7)} ${rep.ms.toFixed(1).padStart(7)} ms  ${file}` +
        `${rep.signed ? '  [signed: sent again with allow_signature_invalidation]' : ''}` +
        `${rep.repairs ? `\n      repairs: ${rep.repairs}` : ''}` +
        Object.entries(rep.otherPdfaHeaders)
          .map(([k, v]) => `\n      ${k}: ${v}`)
          .join('') +
        `${rep.status !== 200 ? `\n      input clauses: ${inputClauses.join(' ') || '(none)'}` : ''}` +
        `${rep.refusedClauses.length ? `\n      refused for: ${rep.refusedClauses.join(' ')}` : ''}`
      : `${file}: ${inputClauses.join(' ') || 'PDF/A-3b as is'}${inputComplete ? '' : ' (check incomplete)'}`;
    console.log(line);
  }
  await app?.close();

  const summary = summarise(reports, !tallyOnly);
  console.log(`\n${summary}`);
  if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(reports, null, 1)}\n`);
  if (mdOut) writeFileSync(mdOut, summary);
}

/** The totals and the clause tally, as Markdown (printed, and written with --markdown). */
function summarise(reports: FileReport[], converted: boolean): string {
  const n = reports.length;
  const out: string[] = [];
  out.push(`${n} PDFs, ${(reports.reduce((a, r) => a + r.bytes, 0) / 1e6).toFixed(1)} MB`);
  if (converted) {
    const byStatus = new Map<string, number>();
    for (const r of reports) {
      const k = `${r.status}${r.code ? ` ${r.code}` : ''}`;
      byStatus.set(k, (byStatus.get(k) ?? 0) + 1);
    }
    out.push(`\nAnswers: ${[...byStatus].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
    const passed = reports.filter((r) => r.status === 200 && r.pdfaCheck === 'passed').length;
    out.push(`200 with X-PDFA-Check: passed: ${passed} of ${n} (${((100 * passed) / n).toFixed(1)} %)`);
    const fivexx = reports.filter((r) => r.status >= 500);
    out.push(`5xx: ${fivexx.length}${fivexx.length ? ` (${fivexx.map((r) => r.file).join(', ')})` : ''}`);
    const times = reports.map((r) => r.ms).sort((a, b) => a - b);
    out.push(
      `convert time per file (wall, in process, one at a time): median ${percentile(times, 0.5).toFixed(1)} ms, p90 ${percentile(times, 0.9).toFixed(1)} ms, max ${times[times.length - 1]?.toFixed(1)} ms (${reports.find((r) => r.ms === times[times.length - 1])?.file})`,
    );
    const bodies = reports.filter((r) => r.status !== 200).map((r) => r.bodyBytes);
    if (bodies.length) out.push(`largest error body: ${Math.max(...bodies)} bytes`);
    const repairs = new Map<string, number>();
    for (const r of reports)
      for (const x of (r.repairs ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean))
        repairs.set(x, (repairs.get(x) ?? 0) + 1);
    if (repairs.size) {
      out.push('\nRepairs reported (X-PDFA-Repairs), files:');
      for (const [k, v] of [...repairs].sort((a, b) => b[1] - a[1])) out.push(`- ${k}: ${v}`);
    }
  }
  const tally = new Map<string, string[]>();
  const refused = new Map<string, number>();
  for (const r of reports) for (const c of r.inputClauses) tally.set(c, [...(tally.get(c) ?? []), r.file]);
  for (const r of reports) for (const c of r.refusedClauses) refused.set(c, (refused.get(c) ?? 0) + 1);
  const clean = reports.filter((r) => r.inputClauses.length === 0).length;
  out.push(`\nInputs the checker passes as PDF/A-3b as they are: ${clean} of ${n}`);
  out.push(
    '\n"inputs": files whose input has a finding of the clause (checkPdfa(bytes, { part: 3 })); "refused for": files whose 422 ' +
      'PDFA_NONCONFORMANT lists the clause for the PDF convert wrote (what rewriting with an sRGB intent and XMP does not fix).',
  );
  out.push('\n| clause | what | inputs | refused for |\n|---|---|---:|---:|');
  const order = (c: string): number[] => c.split(/[.-]/).map((x) => Number(x) || 0);
  const byClause = [...tally].sort((a, b) => {
    const x = order(a[0]);
    const y = order(b[0]);
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1);
    return 0;
  });
  for (const c of refused.keys()) if (!tally.has(c)) byClause.push([c, []]);
  for (const [c, fs] of byClause) out.push(`| ${c} | ${CLAUSE_NAMES[c] ?? ''} | ${fs.length} | ${refused.get(c) ?? 0} |`);
  return `${out.join('\n')}\n`;
}

await main();
