/**
 * The output formats of `einvoice validate`: text (for people), json (one line per file, streamed in input
 * order), junit and sarif (collected, for CI systems to show findings inline).
 */
import type { ValidationErrorDetail } from '../lib/operations.js';
import type { FileOutcome } from './outcome.js';
import { withContractSeverities } from '../validation/severities.js';

export type Format = 'text' | 'json' | 'junit' | 'sarif' | 'html';
export const FORMATS: readonly Format[] = ['text', 'json', 'junit', 'sarif', 'html'];
export type FailOn = 'error' | 'warning';

/** Does this file fail the run (exit 1)? */
export function fails(o: FileOutcome, failOn: FailOn): boolean {
  return o.status !== 'valid' || (failOn === 'warning' && o.warningCount > 0);
}

export interface Summary {
  files: number;
  valid: number;
  invalid: number;
  unreadable: number;
  seconds: number;
}

export function summarize(outcomes: readonly FileOutcome[], seconds: number): Summary {
  const s: Summary = { files: outcomes.length, valid: 0, invalid: 0, unreadable: 0, seconds };
  for (const o of outcomes) s[o.status]++;
  return s;
}

// ---------------------------------------------------------------------------------------------------------
// text

export interface Style {
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const sgr = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
export const COLOURS: Style = { green: sgr(32, 39), red: sgr(31, 39), yellow: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
const id = (s: string) => s;
export const PLAIN: Style = { green: id, red: id, yellow: id, dim: id, bold: id };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The one line of a file: ✓/✗, file, profile, counts (or why it could not be read). */
export function textLine(o: FileOutcome, st: Style): string {
  if (o.status === 'unreadable')
    return `${st.red('✗')} ${o.file}  ${st.red(`unreadable: ${o.problem?.code}`)}  ${o.problem?.message ?? ''}`;
  const r = o.result!;
  const profile = [r.flavor ?? 'unknown profile', r.format ? `(${r.format})` : ''].filter(Boolean).join(' ');
  const counts = `${o.errorCount > 0 ? st.red(plural(o.errorCount, 'error')) : plural(0, 'error')}, ${o.warningCount > 0 ? st.yellow(plural(o.warningCount, 'warning')) : plural(0, 'warning')}`;
  const partial =
    r.validation_completeness === 'partial' ? st.dim(`  partial: ${r.layers_skipped.map((l) => `${l.layer} ${l.reason}`).join(', ')}`) : '';
  return `${o.status === 'valid' ? st.green('✓') : st.red('✗')} ${o.file}  ${profile}  ${counts}${partial}`;
}

/** The findings of one file, grouped by rule set: severity, rule id, message, location. */
export function textFindings(o: FileOutcome, st: Style): string {
  const errors = o.result?.errors ?? [];
  if (errors.length === 0) return '';
  const groups = new Map<string, ValidationErrorDetail[]>();
  for (const e of errors) {
    const key = e.rule_set ?? 'document';
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(e);
  }
  const lines = [st.bold(o.file)];
  for (const [ruleSet, list] of groups) {
    lines.push(`  ${ruleSet}`);
    for (const e of list) {
      const sev = e.severity === 'error' ? st.red('error  ') : e.severity === 'warning' ? st.yellow('warning') : st.dim('info   ');
      lines.push(`    ${sev} ${e.rule_id ?? '-'}  ${e.message}${e.location ? st.dim(`  at ${e.location}`) : ''}`);
    }
  }
  return lines.join('\n') + '\n';
}

export function textSummary(s: Summary, st: Style): string {
  const rate = s.seconds > 0 ? s.files / s.seconds : 0;
  const parts = [
    plural(s.files, 'file'),
    st.green(`${s.valid} valid`),
    s.invalid > 0 ? st.red(`${s.invalid} invalid`) : `${s.invalid} invalid`,
    s.unreadable > 0 ? st.red(`${s.unreadable} unreadable`) : `${s.unreadable} unreadable`,
  ];
  return `${parts.join(', ')} in ${s.seconds.toFixed(2)} s (${rate >= 100 ? Math.round(rate).toLocaleString('en-US') : rate.toFixed(1)} files/s)\n`;
}

// ---------------------------------------------------------------------------------------------------------
// json

/** One JSON line per file: the file, its status and counts, and the API's ValidationResult (or the problem). */
export function jsonLine(o: FileOutcome): string {
  const base = { file: o.file, status: o.status, error_count: o.errorCount, warning_count: o.warningCount };
  if (o.status === 'unreadable') return JSON.stringify({ ...base, valid: false, problem: o.problem }) + '\n';
  // The API's community ValidationResult, severities included (information → warning, as the contract lists them).
  return JSON.stringify({ ...base, ...(o.result && withContractSeverities(o.result)) }) + '\n';
}

// ---------------------------------------------------------------------------------------------------------
// junit

const xmlEscape = (s: string) =>
  // Characters XML 1.0 forbids are dropped, so a hostile message cannot break the report.
  s
    .replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * JUnit XML: one <testsuite> per file, one <testcase> per finding (named by rule id, with message and location)
 * or one passing "EN 16931" case for a file without findings; errors are <failure>, warnings too with
 * --fail-on warning (else passing cases with the text in <system-out>), an unreadable file is an <error>.
 */
export function junitReport(outcomes: readonly FileOutcome[], failOn: FailOn, seconds: number): string {
  let tests = 0;
  let failures = 0;
  let errorsTotal = 0;
  const suites: string[] = [];
  for (const o of outcomes) {
    const cases: string[] = [];
    let sFail = 0;
    let sErr = 0;
    const time = (o.ms / 1000).toFixed(4);
    if (o.status === 'unreadable') {
      sErr++;
      cases.push(
        `    <testcase classname="${xmlEscape(o.file)}" name="${xmlEscape(o.problem!.code)}" time="${time}">\n      <error type="${xmlEscape(o.problem!.code)}" message="${xmlEscape(o.problem!.message)}"/>\n    </testcase>`,
      );
    } else if (o.result!.errors.length === 0) {
      cases.push(`    <testcase classname="${xmlEscape(o.file)}" name="EN 16931" time="${time}"/>`);
    } else {
      for (const e of o.result!.errors) {
        const name = `${e.rule_id ?? 'finding'}${e.location ? ` at ${e.location}` : ''}`;
        const text = `${e.severity} ${e.rule_id ?? ''} [${e.rule_set ?? 'document'}]: ${e.message}${e.location ? `\nlocation: ${e.location}` : ''}\nfile: ${o.file}`;
        const failing = e.severity === 'error' || (failOn === 'warning' && e.severity === 'warning');
        if (failing) {
          sFail++;
          cases.push(
            `    <testcase classname="${xmlEscape(o.file)}" name="${xmlEscape(name)}" time="0">\n      <failure type="${xmlEscape(e.rule_id ?? e.severity)}" message="${xmlEscape(e.message)}">${xmlEscape(text)}</failure>\n    </testcase>`,
          );
        } else {
          cases.push(
            `    <testcase classname="${xmlEscape(o.file)}" name="${xmlEscape(name)}" time="0">\n      <system-out>${xmlEscape(text)}</system-out>\n    </testcase>`,
          );
        }
      }
    }
    tests += cases.length;
    failures += sFail;
    errorsTotal += sErr;
    suites.push(
      `  <testsuite name="${xmlEscape(o.file)}" tests="${cases.length}" failures="${sFail}" errors="${sErr}" skipped="0" time="${time}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="einvoice validate" tests="${tests}" failures="${failures}" errors="${errorsTotal}" time="${seconds.toFixed(3)}">\n` +
    (suites.length ? suites.join('\n') + '\n' : '') +
    '</testsuites>\n'
  );
}

// ---------------------------------------------------------------------------------------------------------
// sarif

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** A file path as a SARIF artifact URI (relative, '/'-separated, percent-encoded). */
function artifactUri(file: string): string {
  return file.split(/[\\/]/).map(encodeURIComponent).join('/');
}

/** SARIF 2.1.0: one run, one result per finding (ruleId, level, message, the file and the location in it). */
export function sarifReport(outcomes: readonly FileOutcome[], engineVersion: string): string {
  const rules = new Map<string, { id: string; shortDescription: { text: string }; properties: { rule_set: string } }>();
  const results: unknown[] = [];
  for (const o of outcomes) {
    const uri = artifactUri(o.file);
    if (o.status === 'unreadable') {
      const ruleId = o.problem!.code;
      if (!rules.has(ruleId))
        rules.set(ruleId, {
          id: ruleId,
          shortDescription: { text: 'The file could not be read as an invoice' },
          properties: { rule_set: 'input' },
        });
      results.push({
        ruleId,
        level: 'error',
        message: { text: o.problem!.message },
        locations: [{ physicalLocation: { artifactLocation: { uri } } }],
      });
      continue;
    }
    for (const e of o.result!.errors) {
      const ruleId = e.rule_id ?? 'FINDING';
      if (!rules.has(ruleId))
        rules.set(ruleId, {
          id: ruleId,
          shortDescription: { text: e.message.slice(0, 200) },
          properties: { rule_set: e.rule_set ?? 'document' },
        });
      const line = /^line (\d+)$/.exec(e.location ?? '');
      const physicalLocation: Record<string, unknown> = { artifactLocation: { uri } };
      if (line) physicalLocation.region = { startLine: Number(line[1]) };
      const location: Record<string, unknown> = { physicalLocation };
      if (e.location && !line) location.logicalLocations = [{ fullyQualifiedName: e.location, kind: 'element' }];
      results.push({
        ruleId,
        level: e.severity === 'error' ? 'error' : e.severity === 'warning' ? 'warning' : 'note',
        message: { text: e.message },
        locations: [location],
        properties: { rule_set: e.rule_set ?? 'document' },
      });
    }
  }
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'einvoice',
            version: engineVersion,
            rules: [...rules.values()],
          },
        },
        artifacts: outcomes.map((o) => ({ location: { uri: artifactUri(o.file) } })),
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
