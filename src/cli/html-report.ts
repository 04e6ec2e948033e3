/**
 * `einvoice validate --format html`: the batch as one self-contained HTML page (inline CSS, no script, nothing loaded
 * from elsewhere) that reads like the browser UI's report: per file its verdict and its findings grouped by rule set,
 * drawn by the UI's own view (assets/ui/report-view.js) with the UI's report styles (assets/ui/report.css).
 *
 * Streamed like the json format: the head goes out first, each file's section as soon as the files before it are out
 * (made in the file's batch thread, which sends the text, not the result), the summary last. The main thread keeps
 * only each file's verdict, so memory does not grow with the reports of a long batch. The page links no rendered view
 * of the invoices: a page per invoice is 50 KB to 10 MB, a few thousand of them would make the report too heavy to
 * open; each file's entry links to the file itself, and `einvoice render FILE` or the UI at `/` draws one.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../version.js';
import type { FileOutcome } from './outcome.js';
import type { Summary } from './report.js';

/** The part of assets/ui/report-view.js the report uses (a plain JavaScript module shared with the browser). */
interface ReportView {
  escapeHtml(value: unknown): string;
  findingsOf(result: unknown): unknown[];
  verdictHtml(result: unknown, options?: { heading?: 'h2' | 'h3'; title?: string; findings?: unknown[] }): string;
  problemHtml(problem: { code: string; message: string }, options?: { heading?: 'h2' | 'h3'; title?: string }): string;
  findingsHtml(findings: unknown[], options?: { interactive?: boolean; heading?: 'h3' | 'h4' }): string;
}

const UI_DIR = join(PROJECT_ROOT, 'assets', 'ui');

let loaded: Promise<ReportView> | undefined;
/** The UI's report view, loaded once per thread. */
export function loadReportView(): Promise<ReportView> {
  loaded ??= import(pathToFileURL(join(UI_DIR, 'report-view.js')).href) as Promise<ReportView>;
  return loaded;
}

/** The styles the batch page adds to the UI's report styles: the page, the file sections, the filter. */
const PAGE_CSS = `
*{box-sizing:border-box}
html{font:15px/1.5 system-ui,"Segoe UI",Roboto,"DejaVu Sans","Helvetica Neue",Arial,sans-serif;color:#1b2230;background:#fff}
body{margin:0}
main{max-width:70rem;margin:0 auto;padding:1rem 1.5rem 2rem}
h1{font-size:1.5rem;margin:.3rem 0}
a{color:#1f4e79}
.meta{color:#4f5868;margin:.2rem 0 1rem}
.filter{display:flex;gap:.4rem;align-items:center;margin:.5rem 0 1rem}
.file{border-top:1px solid #d3d8df;padding:.6rem 0}
.file .verdict{margin-bottom:.3rem}
.file .verdict-title{font-size:1.05rem}
.file .open{font-size:.85em;margin-left:.6em;font-weight:400}
main:has(#only-findings:checked) .file.clean{display:none}
#summary{border-top:3px solid #1f4e79;margin-top:1rem;padding-top:.5rem}
#summary table{border-collapse:collapse}
#summary th{text-align:left;padding:.1rem 1.2rem .1rem 0;font-weight:600}
#summary td{text-align:right}
@media print{.filter{display:none}.file{break-inside:avoid}}
`
  .replace(/\n/g, '')
  .trim();

export interface HtmlHeadOptions {
  version: string;
  /** The command's arguments, shown as given (paths and options). */
  args: readonly string[];
  files: number;
  started: Date;
}

/** The page up to the first file: title, what was run, the filter, a link to the summary at the end. */
export function htmlHead(view: ReportView, o: HtmlHeadOptions): string {
  const css = readFileSync(join(UI_DIR, 'report.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const e = view.escapeHtml;
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="generator" content="einvoice ${e(o.version)}">` +
    `<title>einvoice validate: ${o.files} file${o.files === 1 ? '' : 's'}</title><style>${PAGE_CSS}${css.replace(/\s*\n\s*/g, '')}</style></head>` +
    `<body><main class="report batch"><h1>Validation report</h1>` +
    `<p class="meta">einvoice ${e(o.version)} · ${e(o.started.toISOString().replace(/\.\d+Z$/, 'Z'))} · <code>einvoice validate ${e(o.args.join(' '))}</code> · ${o.files} file${o.files === 1 ? '' : 's'} · <a href="#summary">summary at the end</a></p>` +
    `<p class="filter"><input type="checkbox" id="only-findings"><label for="only-findings">Only files with findings</label></p>\n`
  );
}

/** A link to the file from where the report is (a relative URL, so the report and the files can move together). */
function fileHref(file: string, reportDir: string): string {
  const rel = relative(reportDir, file) || file;
  return rel.split(sep).map(encodeURIComponent).join('/');
}

/** One file's section: its verdict (or why it could not be read) and its findings by rule set. */
export function htmlFile(view: ReportView, o: FileOutcome, index: number, reportDir: string): string {
  const e = view.escapeHtml;
  const open = ` <a class="open" href="${e(fileHref(o.file, reportDir))}">open the file</a>`;
  if (o.status === 'unreadable' || !o.result) {
    const head = view.problemHtml(o.problem ?? { code: 'UNREADABLE', message: '' }, { heading: 'h2', title: o.file });
    return `<section class="file unreadable" id="f${index + 1}">${head.replace('</h2>', `${open}</h2>`)}</section>\n`;
  }
  const findings = view.findingsOf(o.result);
  const verdict = view.verdictHtml(o.result, { heading: 'h2', title: o.file, findings }).replace('</h2>', `${open}</h2>`);
  const body = findings.length ? view.findingsHtml(findings, { heading: 'h3' }) : '';
  return `<section class="file ${o.status}${findings.length ? '' : ' clean'}" id="f${index + 1}">${verdict}${body}</section>\n`;
}

/** The summary and the end of the page. */
export function htmlTail(s: Summary): string {
  const rate = s.seconds > 0 ? s.files / s.seconds : 0;
  const row = (label: string, n: number) => `<tr><th scope="row">${label}</th><td>${n.toLocaleString('en-US')}</td></tr>`;
  return (
    `<section id="summary"><h2>Summary</h2><table>${row('Files', s.files)}${row('Valid', s.valid)}${row('Invalid', s.invalid)}${row('Not readable', s.unreadable)}</table>` +
    `<p class="meta">${s.seconds.toFixed(2)} s, ${rate >= 100 ? Math.round(rate).toLocaleString('en-US') : rate.toFixed(1)} files/s</p></section></main></body></html>\n`
  );
}
