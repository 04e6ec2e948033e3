/**
 * `einvoice`: the command line over the library (src/lib), the same engine as the HTTP service, in-process.
 * Exit codes: 0 success / all valid, 1 invalid or refused input, 2 usage or I/O error (see help.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EInvoiceError, ShapeError } from '../lib/errors.js';
import type { DroppedContent } from '../transform/transform.js';
import { entryModule, runNodeChild } from './child.js';
import { HELP } from './help.js';
import { pdfaNote } from './pdfa-note.js';
import { EXIT, UsageError } from './usage.js';
import { validateCommand } from './validate-cmd.js';

function readInput(file: string): Uint8Array {
  try {
    return file === '-' ? readFileSync(0) : readFileSync(file);
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`, undefined, EXIT.IO);
  }
}

function writeOutput(file: string | undefined, data: string | Uint8Array): void {
  if (file === undefined || file === '-') {
    process.stdout.write(data);
    return;
  }
  try {
    writeFileSync(file, data);
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as Error).message}`, undefined, EXIT.IO);
  }
}

function args(argv: string[], command: string, count: number | [number, number], options: ParseArgsConfig['options'] = {}) {
  const parsed = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { output: { type: 'string', short: 'o' }, ...options },
  });
  const [min, max] = typeof count === 'number' ? [count, count] : count;
  const n = parsed.positionals.length;
  if (n < min || n > max) {
    const wanted = min === max ? String(min) : `${min} or ${max}`;
    throw new UsageError(`${command} takes ${wanted} argument${max === 1 ? '' : 's'}, got ${n}`, command);
  }
  return parsed as { values: Record<string, string | boolean | undefined>; positionals: string[] };
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

const SIGNATURE_INVALIDATED_NOTE = 'the input PDF was digitally signed: its signatures no longer verify in the output\n';

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') {
    process.stdout.write(HELP.main);
    return command === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (command === '--version' || command === '-V' || command === 'version') {
    const { versions } = await import('../lib/versions.js');
    const v = await versions();
    process.stdout.write(
      `einvoice ${v.engine} (node ${v.node})\n` +
        Object.entries(v.rule_sets)
          .map(([k, val]) => `  ${k}: ${val}\n`)
          .join(''),
    );
    return EXIT.OK;
  }
  if (command === 'help') {
    const topic = rest[0] ?? 'main';
    if (!HELP[topic]) throw new UsageError(`no such command: ${topic}`);
    process.stdout.write(HELP[topic]);
    return EXIT.OK;
  }
  if (!HELP[command] || command === 'main') throw new UsageError(`unknown command: ${command}`);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(HELP[command]);
    return EXIT.OK;
  }

  if (command === 'validate') return validateCommand(rest);
  // The engine is loaded once the command is known: `help` and a batch handed to a child process never need it.
  const { convert, extract, extractXml, merge, render, serialize, toXml, transform } = await import('../lib/operations.js');
  switch (command) {
    case 'extract': {
      const { values, positionals } = args(rest, 'extract', 1, { xml: { type: 'boolean' } });
      const [file] = positionals;
      if (values.xml) {
        writeOutput(values.output as string | undefined, (await extractXml(readInput(file), { filename: file })).xml);
        return EXIT.OK;
      }
      writeOutput(values.output as string | undefined, json(await extract(readInput(file), { filename: file })));
      return EXIT.OK;
    }
    case 'xml': {
      const { values, positionals } = args(rest, 'xml', 1, { profile: { type: 'string' }, syntax: { type: 'string' } });
      const built = await toXml(Buffer.from(readInput(positionals[0])).toString('utf8'), {
        profile: values.profile as string | undefined,
        syntax: values.syntax as string | undefined,
      });
      if (built.droppedFields.length)
        process.stderr.write(`dropped fields (the ${built.profile} profile cannot carry them): ${built.droppedFields.join(', ')}\n`);
      writeOutput(values.output as string | undefined, built.xml);
      return EXIT.OK;
    }
    case 'convert': {
      const { values, positionals } = args(rest, 'convert', [1, 2], {
        profile: { type: 'string' },
        lang: { type: 'string' },
        'allow-signature-invalidation': { type: 'boolean' },
        'pdfa-strict': { type: 'boolean' },
      });
      if (!values.output) throw new UsageError('convert needs -o OUT.pdf', 'convert');
      // One argument: the metadata alone, and the invoice is drawn.
      const [pdf, meta] = positionals.length === 2 ? positionals : [undefined, positionals[0]];
      const metaBytes = readInput(meta);
      if (pdf === undefined && Buffer.from(metaBytes.subarray(0, 5)).toString('latin1') === '%PDF-')
        throw new UsageError(`convert needs METADATA.json (${meta} is a PDF)`, 'convert');
      let result;
      try {
        result = await convert(pdf === undefined ? undefined : readInput(pdf), Buffer.from(metaBytes).toString('utf8'), {
          filename: pdf,
          profile: values.profile as string | undefined,
          lang: values.lang as string | undefined,
          allowSignatureInvalidation: values['allow-signature-invalidation'] === true,
          pdfaStrict: values['pdfa-strict'] === true,
        });
      } catch (err) {
        if (err instanceof ShapeError && err.issues.some((i) => i.loc[0] === 'lang'))
          throw new UsageError(err.issues.map((i) => `--${i.loc.join('.')}: ${i.msg}`).join('; '), 'convert');
        throw err;
      }
      if (result.drawn && result.drawn.missingGlyphs > 0)
        process.stderr.write(
          `${result.drawn.missingGlyphs} characters are in no shipped font: drawn as □ (listed at the end of the PDF)\n`,
        );
      if (result.droppedFields.length) process.stderr.write(`dropped fields: ${result.droppedFields.join(', ')}\n`);
      if (result.signatureInvalidated) process.stderr.write(SIGNATURE_INVALIDATED_NOTE);
      process.stderr.write(pdfaNote(result));
      writeOutput(values.output as string, result.pdf);
      return EXIT.OK;
    }
    case 'merge': {
      const { values, positionals } = args(rest, 'merge', 2, {
        format: { type: 'string' },
        'allow-signature-invalidation': { type: 'boolean' },
        'pdfa-strict': { type: 'boolean' },
      });
      if (!values.output) throw new UsageError('merge needs -o OUT.pdf', 'merge');
      const [pdf, xml] = positionals;
      const result = await merge(readInput(pdf), readInput(xml), {
        format: values.format as string | undefined,
        pdfFilename: pdf,
        xmlFilename: xml,
        allowSignatureInvalidation: values['allow-signature-invalidation'] === true,
        pdfaStrict: values['pdfa-strict'] === true,
      });
      if (result.signatureInvalidated) process.stderr.write(SIGNATURE_INVALIDATED_NOTE);
      process.stderr.write(pdfaNote(result));
      writeOutput(values.output as string, result.pdf);
      return EXIT.OK;
    }
    case 'serialize': {
      const { values, positionals } = args(rest, 'serialize', 1);
      const [file] = positionals;
      writeOutput(values.output as string | undefined, json(await serialize(readInput(file), { filename: file })));
      return EXIT.OK;
    }
    case 'render': {
      const { values, positionals } = args(rest, 'render', 1, { lang: { type: 'string' }, format: { type: 'string' } });
      const [file] = positionals;
      const output = values.output as string | undefined;
      // The output's extension asks for a format when --format does not.
      const format = (values.format as string | undefined) ?? (output && /\.pdf$/i.test(output) ? 'pdf' : undefined);
      let page;
      try {
        page = await render(readInput(file), { filename: file, lang: values.lang as string | undefined, format });
      } catch (err) {
        if (err instanceof ShapeError) throw new UsageError(err.issues.map((i) => `--${i.loc.join('.')}: ${i.msg}`).join('; '), 'render');
        throw err;
      }
      if (page.lines.shown < page.lines.total)
        process.stderr.write(`the page shows ${page.lines.shown} of ${page.lines.total} lines (the page's bound)\n`);
      if (page.format === 'pdf' && page.missingGlyphs > 0)
        process.stderr.write(`${page.missingGlyphs} characters are in no shipped font: drawn as □ (listed at the end of the PDF)\n`);
      writeOutput(output, page.format === 'pdf' ? page.pdf : page.html);
      return EXIT.OK;
    }
    case 'transform': {
      const { values, positionals } = args(rest, 'transform', 1, {
        to: { type: 'string' },
        profile: { type: 'string' },
        json: { type: 'boolean' },
      });
      if (values.to === undefined) throw new UsageError('transform needs --to cii|ubl', 'transform');
      const [file] = positionals;
      const result = await transform(readInput(file), {
        to: values.to as string,
        profile: values.profile as string | undefined,
        filename: file,
      });
      if (result.dropped.length && !values.json) process.stderr.write(describeDropped(result.dropped));
      writeOutput(values.output as string | undefined, values.json ? json(result) : result.xml);
      return EXIT.OK;
    }
    case 'status': {
      const { buildStatus } = await import('../lib/operations.js');
      const { values, positionals } = args(rest, 'status', 1, { json: { type: 'boolean' } });
      const built = await buildStatus(Buffer.from(readInput(positionals[0])).toString('utf8'));
      if (!values.json) for (const w of built.warnings) process.stderr.write(`warning ${w.rule_id}: ${w.message}\n`);
      writeOutput(
        values.output as string | undefined,
        values.json ? json({ xml: built.xml, status_json: built.status, warnings: built.warnings }) : built.xml,
      );
      return EXIT.OK;
    }
    case 'serve':
      args(rest, 'serve', 0);
      return serve();
  }
  throw new UsageError(`unknown command: ${command}`);
}

/** The dropped list of a transform on stderr: one line per group (term or source path, reason, count, first location). */
function describeDropped(dropped: DroppedContent[]): string {
  const lines = [`not carried into the target (${dropped.length} group${dropped.length === 1 ? '' : 's'}; --json lists them in full):`];
  for (const d of dropped) {
    const what = d.term ? `${d.term} ${d.name}` : d.path;
    const where = d.locations[0] ? ` at ${d.locations[0]}` : '';
    const extra = d.replacement ? ` (now ${d.replacement})` : '';
    lines.push(`  ${what}: ${d.reason.replaceAll('_', ' ')}${d.count > 1 ? `, ${d.count} times` : ''}${where}${extra}`);
  }
  return lines.join('\n') + '\n';
}

/** The service as `npm start` runs it (its Node flags), in a child process. */
async function serve(): Promise<number> {
  const { code, signal } = await runNodeChild(entryModule('../main'), ['--max-semi-space-size=16', '--no-allocation-site-pretenuring'], []);
  return code ?? (signal ? 1 : 0);
}

function describe(err: EInvoiceError): string {
  const lines = [`einvoice: ${err.code}: ${err.message}`];
  const errors = err.extras.errors;
  if (Array.isArray(errors)) {
    for (const e of errors as { rule_id?: string; field?: string; message: string; location?: string }[]) {
      lines.push(`  ${e.rule_id ?? e.field ?? '-'}: ${e.message}${e.location ? ` at ${e.location}` : ''}`);
    }
  }
  if (err instanceof ShapeError) for (const i of err.issues) lines.push(`  ${i.loc.join('.')}: ${i.msg}`);
  return lines.join('\n') + '\n';
}

export async function main(argv: string[]): Promise<number> {
  // A reader that goes away (`einvoice validate … | head`) ends the run quietly, as other commands do.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.OK);
    throw err;
  });
  try {
    return await run(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(
        `einvoice: ${err.message}\n${err.exitCode === EXIT.USAGE ? `Run "einvoice help${err.command ? ` ${err.command}` : ''}" for usage.\n` : ''}`,
      );
      return err.exitCode;
    }
    if (err instanceof EInvoiceError) {
      process.stderr.write(describe(err));
      return err.code === 'LICENSE_REQUIRED' ? EXIT.USAGE : EXIT.FAILED;
    }
    const code = (err as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`einvoice: ${(err as Error).message}\nRun "einvoice help" for usage.\n`);
      return EXIT.USAGE;
    }
    process.stderr.write(`einvoice: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    return EXIT.USAGE;
  }
}

// Run when executed (the bin shim imports this module and calls main itself).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2));
}
