/**
 * Inputs for the CLI and library tests, built in code (no corpus): invoices from the project's own writer
 * (test/invoice-scenarios.ts), PDFs made with pdf-lib, a broken file and hostile ones.
 * Helper module (no tests of its own).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { buildInvoiceXml } from '../src/metadata/index.js';
import { convert } from '../src/lib/index.js';
import { SCENARIOS } from './invoice-scenarios.js';
import { descendants } from './process-tree.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = join(ROOT, 'src/cli/main.ts');
/** tsx's loader as a file URL: `--import tsx` would resolve from the child's working folder. */
export const TSX = import.meta.resolve('tsx');

/**
 * A plain one-page PDF; with `pdfa3` its XMP declares PDF/A-3b (what merge checks), without any invoice. It draws
 * shapes, not text: pdf-lib's standard fonts are not embedded, and convert/merge refuse to write a PDF/A-3b that
 * fails PDF/A (PDFA_NONCONFORMANT).
 */
export async function makePdf(pdfa3 = false): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([595, 842]).drawRectangle({ x: 50, y: 780, width: 120, height: 14, borderWidth: 1 });
  if (pdfa3) {
    const xmp = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
    const stream = doc.context.stream(new TextEncoder().encode(xmp), { Type: 'Metadata', Subtype: 'XML' });
    doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
  }
  return doc.save();
}

export const xmlOf = (name: keyof typeof SCENARIOS | string) => buildInvoiceXml(SCENARIOS[name]).xml;

/** An invoice whose grand total is wrong: BR-CO-15 and BR-CO-16 fail. */
export function invalidXml(): string {
  return xmlOf('domestic').replace(/<ram:GrandTotalAmount>[^<]*</, '<ram:GrandTotalAmount>1.00<');
}

/** A valid invoice with one warning: an empty delivery element (PEPPOL-EN16931-R008); the writer never leaves it empty. */
export function warnedXml(): string {
  return xmlOf('domestic').replace(
    /<ram:ApplicableHeaderTradeDelivery>[\s\S]*?<\/ram:ApplicableHeaderTradeDelivery>/,
    '<ram:ApplicableHeaderTradeDelivery></ram:ApplicableHeaderTradeDelivery>',
  );
}

/** XML nested far deeper than any invoice (the parser refuses it: XML_TOO_DEEP). */
export function deepXml(depth = 5_000): string {
  return '<a>'.repeat(depth) + '</a>'.repeat(depth);
}

/** The "billion laughs" entity expansion (refused before any expansion: XML_DTD_FORBIDDEN). */
export const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">&lol4;</rsm:CrossIndustryInvoice>`;

export interface Folder {
  dir: string;
  valid: string[];
  invalid: string[];
  unreadable: string[];
}

/**
 * A folder of invoices: every writer scenario as XML (some in a subfolder), one as a Factur-X PDF, one invalid
 * invoice, a broken XML, a text file named .pdf; and with `hostile`, a deeply nested XML and a billion-laughs XML.
 */
export async function makeInvoiceFolder(dir: string, options: { hostile?: boolean } = {}): Promise<Folder> {
  mkdirSync(join(dir, 'sub'), { recursive: true });
  const f: Folder = { dir, valid: [], invalid: [], unreadable: [] };
  let i = 0;
  for (const name of Object.keys(SCENARIOS)) {
    const path = join(dir, i++ % 2 ? 'sub' : '', `${name}.xml`);
    writeFileSync(path, xmlOf(name));
    f.valid.push(path);
  }
  const pdf = await convert(await makePdf(), SCENARIOS.domestic);
  writeFileSync(join(dir, 'facturx.pdf'), pdf.pdf);
  f.valid.push(join(dir, 'facturx.pdf'));
  writeFileSync(join(dir, 'warned.xml'), warnedXml());
  f.valid.push(join(dir, 'warned.xml'));
  writeFileSync(join(dir, 'bad-total.xml'), invalidXml());
  f.invalid.push(join(dir, 'bad-total.xml'));
  writeFileSync(join(dir, 'broken.xml'), '<rsm:CrossIndustryInvoice><unclosed>');
  writeFileSync(join(dir, 'notes.pdf'), 'these are notes, not a PDF');
  writeFileSync(join(dir, 'ignored.txt'), 'a folder walk skips this');
  f.unreadable.push(join(dir, 'broken.xml'), join(dir, 'notes.pdf'));
  if (options.hostile) {
    writeFileSync(join(dir, 'deep.xml'), deepXml());
    writeFileSync(join(dir, 'lolz.xml'), BILLION_LAUGHS);
    f.unreadable.push(join(dir, 'deep.xml'), join(dir, 'lolz.xml'));
  }
  return f;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A CLI run that has not ended after this long is killed (with what it started) and fails: a hang is a failure. */
export const CLI_BOUND_MS = 300_000;

/** SIGKILL `child` and every process under it (a batch process, say). */
export function killTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  for (const { pid } of descendants(child.pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  child.kill('SIGKILL');
}

/** Run the real CLI (from the sources, through tsx) as a child process; stdout/stderr are pipes, not terminals. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; cwd?: string; input?: string; withinMs?: number } = {},
): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const env = { ...process.env, ...options.env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
      cwd: options.cwd ?? ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const bound = options.withinMs ?? CLI_BOUND_MS;
    const timer = setTimeout(() => {
      killTree(child);
      reject(new Error(`einvoice ${args.join(' ')} did not end within ${bound} ms: ${stderr.slice(-1000)}`));
    }, bound);
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
