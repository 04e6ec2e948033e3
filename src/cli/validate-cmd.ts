/** `einvoice validate FILE|DIR|GLOB...`: the batch over worker threads, its reports and its exit code. */
import { createWriteStream, statSync, type WriteStream } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { availableCpus } from '../util/cgroup.js';
import { parseArgs } from 'node:util';
import { ShapeError } from '../lib/errors.js';
import { licenseOf, requireFeature } from '../lib/license-check.js';
import { parseValidateOptions, type ValidateCallOptions } from '../lib/validate-options.js';
import { SERVICE_VERSION } from '../version.js';
import { collectInputs, parseShard, shardOf, InputError } from './files.js';
import { withoutReport, type FileOutcome, type Rendering } from './outcome.js';
import { BATCH_NODE_FLAGS, batchProcessWanted, runPool, threadsFor } from './pool.js';
import { entryModule, runNodeChild } from './child.js';
import { Progress } from './progress.js';
import {
  COLOURS,
  FORMATS,
  PLAIN,
  fails,
  jsonLine,
  junitReport,
  sarifReport,
  summarize,
  textFindings,
  textLine,
  textSummary,
  type FailOn,
  type Format,
} from './report.js';
import { EXIT, UsageError } from './usage.js';
import { htmlFile, htmlHead, htmlTail, loadReportView } from './html-report.js';

/**
 * From this many files on (with --shard i/n, n times as many in all), the batch runs in a child node process
 * started with BATCH_NODE_FLAGS (pool.ts), whose single-threaded GC only takes on node's command line: ~20% more
 * files per second on batches of thousands, for the cost of a second process start (~0.15 s here). Smaller
 * batches run here, with the flags that can be set at run time. This process lists the inputs only as far as the
 * threshold; the child lists them all and does everything else (options, reports, exit code).
 */
export const BATCH_PROCESS_FROM = 1000;

async function batchInChildProcess(argv: string[]): Promise<number> {
  const { code, signal } = await runNodeChild(entryModule('./main'), BATCH_NODE_FLAGS, ['validate', ...argv]);
  if (code !== null) return code;
  // Stopped by a signal (Ctrl-C, SIGTERM): end the same way, so the caller sees what an in-process batch gives.
  if (signal) process.kill(process.pid, signal);
  return EXIT.IO;
}

/** A file's size, 0 when it cannot be stat'ed (its thread then reports why it cannot be read). */
function sizeOrZero(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

export async function validateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      rules: { type: 'string', multiple: true },
      'br-fr-edition': { type: 'string' },
      'xrechnung-version': { type: 'string' },
      'facturx-version': { type: 'string' },
      'peppol-version': { type: 'string' },
      'extended-ctc-fr-version': { type: 'string' },
      pdfa: { type: 'boolean' },
      format: { type: 'string', short: 'f' },
      output: { type: 'string', short: 'o' },
      'fail-on': { type: 'string' },
      jobs: { type: 'string', short: 'j' },
      shard: { type: 'string' },
      'shard-index': { type: 'string' },
      'max-size': { type: 'string' },
      timeout: { type: 'string' },
      progress: { type: 'boolean' },
      'no-progress': { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    },
  });
  if (positionals.length === 0) throw new UsageError('validate needs at least one FILE, DIR or GLOB', 'validate');
  const format = (values.format ?? 'text') as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${values.format}"`, 'validate');
  const failOnValue = values['fail-on'] ?? 'error';
  if (failOnValue !== 'error' && failOnValue !== 'warning' && failOnValue !== 'never')
    throw new UsageError(`--fail-on must be error, warning or never, got "${values['fail-on']}"`, 'validate');
  // never: the verdicts are the report's business only (a batch Job whose pods must succeed when they ran); a
  // JUnit report still marks errors as failures.
  const failOn: FailOn = failOnValue === 'warning' ? 'warning' : 'error';
  const jobs = values.jobs === undefined ? availableCpus() : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 256)
    throw new UsageError(`--jobs must be a whole number from 1 to 256, got "${values.jobs}"`, 'validate');
  const maxMb = values['max-size'] === undefined ? 100 : Number(values['max-size']);
  if (!(maxMb > 0)) throw new UsageError(`--max-size must be a positive number of MB, got "${values['max-size']}"`, 'validate');
  const timeoutS = values.timeout === undefined ? 60 : Number(values.timeout);
  if (!(timeoutS > 0)) throw new UsageError(`--timeout must be a positive number of seconds, got "${values.timeout}"`, 'validate');

  // PDF/A-3b validation is a pro feature here as on the server: refused before any file is listed or read.
  if (values.pdfa) requireFeature(licenseOf(), 'pdfa_validation');

  let files: string[];
  let large = false;
  // Whether the batch moves to a process of its own needs only its first files (a large batch was listed in full
  // twice, ~160 ms for 20,000 files): listed up to the threshold here, in full by whichever process validates.
  try {
    if (values.shard !== undefined && values['shard-index'] !== undefined)
      throw new InputError('--shard and --shard-index name the same slice: give one of them');
    const shard =
      values.shard !== undefined
        ? parseShard(values.shard)
        : values['shard-index'] !== undefined
          ? parseShard(values['shard-index'], true)
          : undefined;
    const threshold = batchProcessWanted() ? BATCH_PROCESS_FROM * (shard?.count ?? 1) : Number.POSITIVE_INFINITY;
    files = collectInputs(positionals, threshold);
    large = files.length >= threshold;
    if (shard) files = shardOf(files, shard);
  } catch (err) {
    if (err instanceof InputError) throw new UsageError(err.message, 'validate');
    throw err;
  }
  if (large) return batchInChildProcess(argv);

  const options: ValidateCallOptions = {
    rules: values.rules?.join(','),
    brFrEdition: values['br-fr-edition'],
    xrechnungVersion: values['xrechnung-version'],
    facturxVersion: values['facturx-version'],
    peppolVersion: values['peppol-version'],
    extendedCtcFrVersion: values['extended-ctc-fr-version'],
    pdfa: values.pdfa ?? false,
  };
  // Checked without loading the engine: this thread only reads outcomes, the batch's threads load it.
  try {
    parseValidateOptions(options); // a bad value is a usage error before any file is read
  } catch (err) {
    if (err instanceof ShapeError)
      throw new UsageError(err.issues.map((i) => `--${String(i.loc.at(-1)).replace(/_/g, '-')}: ${i.msg}`).join('; '), 'validate');
    throw err;
  }

  let out: NodeJS.WritableStream = process.stdout;
  let fileOut: WriteStream | undefined;
  if (values.output !== undefined) {
    fileOut = createWriteStream(values.output);
    await new Promise<void>((resolve, reject) => {
      fileOut!.once('open', () => resolve());
      fileOut!.once('error', reject);
    }).catch((err: Error) => {
      throw new UsageError(`cannot write ${values.output}: ${err.message}`, undefined, EXIT.IO);
    });
    out = fileOut;
  }
  const colour = !fileOut && process.stdout.isTTY === true && !process.env.NO_COLOR;
  const st = colour ? COLOURS : PLAIN;
  const showProgress = (values.progress ?? process.stderr.isTTY === true) && !values['no-progress'] && !values.quiet;
  const progress = showProgress && files.length > 0 ? new Progress(files.length, process.stderr) : undefined;

  // Results arrive in completion order; text and json lines go out in input order as soon as they can.
  const outcomes: FileOutcome[] = new Array(files.length);
  let flushed = 0;
  const start = performance.now();
  // Both on one terminal: the bar's line is cleared before a report line, and drawn again on the next tick.
  const sharesTerminal = !fileOut && process.stdout.isTTY === true;
  const write = (s: string) => {
    if (!s) return;
    if (sharesTerminal) progress?.clear();
    out.write(s);
  };
  // The lines of one batch of results go out in one write (a write per line was a system call per file).
  let pendingText = '';
  let writeScheduled = false;
  const writeBatch = () => {
    writeScheduled = false;
    const s = pendingText;
    pendingText = '';
    write(s);
  };
  // Text findings, by input index, made as each file's line goes out (printed after the lines).
  const findingsText: string[] = [];
  // html: each file's section links the file from where the report goes (the -o file's folder, else here).
  const reportDir = values.output === undefined ? process.cwd() : dirname(resolve(values.output));
  const render: Rendering | undefined =
    format === 'json'
      ? { format }
      : format === 'html'
        ? { format, reportDir }
        : format === 'text' && !values.quiet
          ? { format, colour }
          : undefined;
  const view = format === 'html' ? await loadReportView() : undefined;
  if (view) write(htmlHead(view, { version: SERVICE_VERSION, args: argv, files: files.length, started: new Date() }));
  const threads = threadsFor(jobs, files, sizeOrZero);
  const poolOptions = { jobs: threads, options, maxBytes: Math.floor(maxMb * 1024 * 1024), timeoutMs: timeoutS * 1000, render };
  await runPool(files, poolOptions, (index, outcome) => {
    outcomes[index] = outcome;
    progress?.tick();
    while (flushed < files.length && outcomes[flushed] !== undefined) {
      const o = outcomes[flushed];
      // Rendered in its thread (see render), or here for an outcome the pool made (a thread that crashed or timed out).
      if (format === 'json') pendingText += o.rendered?.line ?? jsonLine(o);
      else if (view) pendingText += o.rendered?.line ?? htmlFile(view, o, flushed, reportDir);
      else if (format === 'text' && !values.quiet) {
        pendingText += o.rendered?.line ?? textLine(o, st) + '\n';
        findingsText[flushed] = o.rendered?.findings ?? textFindings(o, st);
      }
      // Once written, text and json need only the verdict of a file: its result goes, so a batch's memory does not
      // grow with every report it has printed (junit and sarif are written from the results at the end).
      if (format === 'json' || format === 'text' || format === 'html') outcomes[flushed] = withoutReport(o);
      flushed++;
    }
    if (pendingText !== '' && !writeScheduled) {
      writeScheduled = true;
      queueMicrotask(writeBatch);
    }
  });
  if (pendingText !== '') writeBatch();
  progress?.end();
  const seconds = (performance.now() - start) / 1000;
  const summary = summarize(outcomes, seconds);

  if (format === 'text') {
    const findings = findingsText.filter(Boolean);
    if (findings.length > 0 && !values.quiet) write('\n' + findings.join('\n'));
    write((findings.length > 0 && !values.quiet ? '\n' : '') + textSummary(summary, st));
  } else if (format === 'junit') write(junitReport(outcomes, failOn, seconds));
  else if (format === 'sarif') write(sarifReport(outcomes, SERVICE_VERSION));
  else if (format === 'html') write(htmlTail(summary));
  if (format !== 'text' && !values.quiet) process.stderr.write(textSummary(summary, PLAIN));

  if (fileOut) await new Promise<void>((resolve, reject) => fileOut!.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return failOnValue !== 'never' && outcomes.some((o) => fails(o, failOn)) ? EXIT.FAILED : EXIT.OK;
}
