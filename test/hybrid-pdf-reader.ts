/**
 * Independent readers for the hybrid PDFs we write: Debian's qpdf (JSON view of every object, installed by
 * scripts/install-system-deps.sh) and pdfjs-dist (attachments, /ID fingerprints, page text). Neither shares
 * code with @cantoo/pdf-lib, the library that wrote the files. XMP is parsed back as XML (src/xml/dom.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseXml, type XmlElement } from '../src/xml/dom.js';
import { SYNC_CHILD } from './spawned.js';

let qpdfPresent: boolean | undefined;
export function hasQpdf(): boolean {
  qpdfPresent ??= spawnSync('qpdf', ['--version'], SYNC_CHILD).status === 0;
  return qpdfPresent;
}

function requireQpdf(): void {
  if (!hasQpdf())
    throw new Error('qpdf is not installed: run scripts/install-system-deps.sh (Debian qpdf, the independent PDF reader of these tests)');
}

function withTempPdf<T>(pdf: Uint8Array, run: (path: string) => T): T {
  requireQpdf();
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-test-'));
  const path = join(dir, 'in.pdf');
  try {
    writeFileSync(path, pdf);
    return run(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `qpdf --check`: exit status 0 means no syntax or stream encoding errors. */
export function qpdfCheck(pdf: Uint8Array): { status: number | null; output: string } {
  return withTempPdf(pdf, (path) => {
    const r = spawnSync('qpdf', ['--check', path], { encoding: 'utf8', ...SYNC_CHILD });
    return { status: r.status, output: `${r.stdout}${r.stderr}${r.error ? ` (${r.error.message})` : ''}` };
  });
}

type Json = any; // qpdf's JSON: names "/X", references "n g R", strings "u:text" or "b:hex"

export interface QpdfView {
  trailer: Json;
  catalog: Json;
  /** Resolve a reference ("12 0 R") or return a direct value; streams resolve to their dictionary. */
  get(value: Json): Json;
  /** A stream's data (decoded by qpdf unless raw was asked for). */
  data(ref: string): Buffer;
  pages: { object: string; contents: string[] }[];
}

/** The whole object graph as qpdf sees it, stream data inline. */
export function qpdfView(pdf: Uint8Array, opts: { raw?: boolean } = {}): QpdfView {
  const out = withTempPdf(pdf, (path) => {
    const args = [
      '--json=2',
      '--json-key=qpdf',
      '--json-key=pages',
      '--json-stream-data=inline',
      `--decode-level=${opts.raw ? 'none' : 'generalized'}`,
      path,
    ];
    const r = spawnSync('qpdf', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...SYNC_CHILD });
    if (r.status !== 0 && r.status !== 3) throw new Error(`qpdf --json failed (${r.status ?? r.error?.message}): ${r.stderr}`);
    return r.stdout;
  });
  const json = JSON.parse(out);
  const objects = json.qpdf[1] as Record<string, Json>;
  const entry = (ref: string) => objects[`obj:${ref}`];
  const get = (value: Json): Json => {
    if (typeof value === 'string' && /^\d+ \d+ R$/.test(value)) {
      const e = entry(value);
      if (!e) return undefined;
      return 'value' in e ? e.value : e.stream.dict;
    }
    return value;
  };
  const trailer = objects.trailer.value;
  return {
    trailer,
    catalog: get(trailer['/Root']),
    get,
    data: (ref) => Buffer.from(entry(ref).stream.data ?? '', 'base64'),
    pages: json.pages.map((p: Json) => ({ object: p.object, contents: p.contents })),
  };
}

/** qpdf's text string "u:…" (or byte string "b:hex") as text. */
export function qpdfText(value: Json): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.startsWith('u:')) return value.slice(2);
  if (value.startsWith('b:')) return Buffer.from(value.slice(2), 'hex').toString('latin1');
  return undefined;
}

/**
 * PDFDocEncoding code points that differ from Latin-1 (PDF 32000-1 Annex D), code point → byte: qpdf shows
 * a string whose bytes read as PDFDoc text in `u:` form, so its bytes are recovered through this table.
 */
const PDFDOC_SPECIALS = new Map<number, number>([
  [0x02d8, 0x18],
  [0x02c7, 0x19],
  [0x02c6, 0x1a],
  [0x02d9, 0x1b],
  [0x02dd, 0x1c],
  [0x02db, 0x1d],
  [0x02da, 0x1e],
  [0x02dc, 0x1f],
  [0x2022, 0x80],
  [0x2020, 0x81],
  [0x2021, 0x82],
  [0x2026, 0x83],
  [0x2014, 0x84],
  [0x2013, 0x85],
  [0x0192, 0x86],
  [0x2044, 0x87],
  [0x2039, 0x88],
  [0x203a, 0x89],
  [0x2212, 0x8a],
  [0x2030, 0x8b],
  [0x201e, 0x8c],
  [0x201c, 0x8d],
  [0x201d, 0x8e],
  [0x2018, 0x8f],
  [0x2019, 0x90],
  [0x201a, 0x91],
  [0x2122, 0x92],
  [0xfb01, 0x93],
  [0xfb02, 0x94],
  [0x0141, 0x95],
  [0x0152, 0x96],
  [0x0160, 0x97],
  [0x0178, 0x98],
  [0x017d, 0x99],
  [0x0131, 0x9a],
  [0x0142, 0x9b],
  [0x0153, 0x9c],
  [0x0161, 0x9d],
  [0x017e, 0x9e],
  [0x20ac, 0xa0],
] as [number, number][]);

/**
 * The bytes of a qpdf JSON string as hex, whichever form qpdf chose: `b:<hex>` for binary, `u:<text>` when
 * the bytes happen to read as PDFDoc text, or as UTF-16BE after an FE FF mark (random identifiers sometimes do).
 */
export function qpdfStringHex(value: Json): string {
  if (typeof value !== 'string') throw new Error(`not a qpdf string: ${JSON.stringify(value)}`);
  if (value.startsWith('b:')) return value.slice(2).toLowerCase();
  if (!value.startsWith('u:')) throw new Error(`not a qpdf string: ${value}`);
  const bytes: number[] = [];
  for (const ch of value.slice(2)) {
    const code = ch.codePointAt(0)!;
    const special = PDFDOC_SPECIALS.get(code);
    if (special !== undefined) bytes.push(special);
    else if (code <= 0xff) bytes.push(code);
    // Not PDFDoc: bytes that began with the UTF-16BE mark (FE FF), which qpdf decodes as such.
    else return `feff${Buffer.from(value.slice(2), 'utf16le').swap16().toString('hex')}`;
  }
  return Buffer.from(bytes).toString('hex');
}

/** Entries of the catalog's /Names /EmbeddedFiles tree (references resolved on the way). */
export function embeddedFileEntries(view: QpdfView): [string, string][] {
  const names = view.get(view.catalog['/Names']);
  return names ? nameTreeEntries(view, names['/EmbeddedFiles']) : [];
}

/** The flat /EmbeddedFiles name tree (what we write), as [key, filespec ref] pairs, Kids followed. */
export function nameTreeEntries(view: QpdfView, node: Json): [string, string][] {
  const n = view.get(node);
  if (!n) return [];
  const out: [string, string][] = [];
  for (const kid of n['/Kids'] ?? []) out.push(...nameTreeEntries(view, kid));
  const names = view.get(n['/Names']) ?? [];
  for (let i = 0; i + 1 < names.length; i += 2) out.push([qpdfText(names[i]) ?? '', names[i + 1]]);
  return out;
}

// ---------------------------------------------------------------------------------------------

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const PDFA_SCHEMA = 'http://www.aiim.org/pdfa/ns/schema#';
const PDFA_PROPERTY = 'http://www.aiim.org/pdfa/ns/property#';

export interface XmpView {
  /** Simple properties of the top-level rdf:Description elements, keyed "namespace|localName". */
  props: Map<string, string>;
  /** pdfaExtension schemas declared: namespace URI, prefix and property names. */
  schemas: { namespaceURI: string; prefix: string; properties: string[] }[];
  /** The prefix each property element was written with, keyed like props. */
  prefixes: Map<string, string>;
}

function deepFind(el: XmlElement, ns: string, local: string, out: XmlElement[] = []): XmlElement[] {
  if (el.ns === ns && el.local === local) out.push(el);
  for (const c of el.children) deepFind(c, ns, local, out);
  return out;
}

/** Parse an XMP packet as XML (not string matching). */
export function parseXmpPacket(bytes: Uint8Array): XmpView {
  const root = parseXml(bytes).root;
  const props = new Map<string, string>();
  const prefixes = new Map<string, string>();
  const rdf = deepFind(root, RDF, 'RDF')[0];
  if (!rdf) throw new Error('no rdf:RDF in the XMP packet');
  for (const d of rdf.children.filter((c) => c.ns === RDF && c.local === 'Description')) {
    for (const a of d.attrs) if (a.ns && a.ns !== RDF && a.ns !== 'http://www.w3.org/2000/xmlns/') props.set(`${a.ns}|${a.local}`, a.value);
    for (const p of d.children) {
      if (p.children.length === 0) props.set(`${p.ns}|${p.local}`, p.text.trim());
      else {
        // Alt/Seq/Bag with rdf:li: take the first item (enough for dc:title, dc:creator).
        const li = deepFind(p, RDF, 'li')[0];
        if (li && li.children.length === 0) props.set(`${p.ns}|${p.local}`, li.text.trim());
        else props.set(`${p.ns}|${p.local}`, '');
      }
      prefixes.set(`${p.ns}|${p.local}`, p.prefix);
    }
  }
  const schemas = deepFind(rdf, PDFA_SCHEMA, 'namespaceURI').map((nsEl) => {
    const schema = nsEl.parent!;
    const prefix = schema.children.find((c) => c.ns === PDFA_SCHEMA && c.local === 'prefix')?.text.trim() ?? '';
    const properties = deepFind(schema, PDFA_PROPERTY, 'name').map((e) => e.text.trim());
    return { namespaceURI: nsEl.text.trim(), prefix, properties };
  });
  return { props, schemas, prefixes };
}

// ---------------------------------------------------------------------------------------------

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsModule: PdfJs | undefined;

export interface PdfJsView {
  numPages: number;
  attachments: Record<string, Uint8Array>;
  /** From the trailer /ID (pdf.js exposes both elements as hex). */
  fingerprints: (string | null)[];
  /** Text of every page, in order. */
  pageTexts: string[];
}

export async function pdfjsRead(pdf: Uint8Array): Promise<PdfJsView> {
  pdfjsModule ??= await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js detaches the buffer it is given: pass a copy.
  const task = pdfjsModule.getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, useSystemFonts: false, verbosity: 0 });
  const doc = await task.promise;
  try {
    const atts = ((await doc.getAttachments()) ?? {}) as Record<string, { filename: string; content: Uint8Array }>;
    const pageTexts: string[] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const text = await page.getTextContent();
      pageTexts.push(text.items.map((it) => ('str' in it ? it.str : '')).join(''));
    }
    return {
      numPages: doc.numPages,
      attachments: Object.fromEntries(Object.values(atts).map((a) => [a.filename, a.content])),
      fingerprints: doc.fingerprints,
      pageTexts,
    };
  } finally {
    await task.destroy();
  }
}

/**
 * qpdf's own name-tree lookup (`--show-attachment=KEY`: a binary search by key, as pikepdf does), and its
 * attachment list (`--list-attachments`, the keys as qpdf decodes them).
 */
export function qpdfAttachments(pdf: Uint8Array, show: string[] = []): { keys: string[]; shown: Map<string, Buffer | undefined> } {
  return withTempPdf(pdf, (path) => {
    const list = spawnSync('qpdf', ['--list-attachments', path], { encoding: 'utf8', ...SYNC_CHILD });
    const keys = list.stdout
      .split('\n')
      .map((l) => /^(.*) -> \d+,\d+$/.exec(l)?.[1])
      .filter((k): k is string => k !== undefined);
    const shown = new Map<string, Buffer | undefined>();
    for (const key of show) {
      const r = spawnSync('qpdf', [`--show-attachment=${key}`, path], SYNC_CHILD);
      shown.set(key, r.status === 0 ? r.stdout : undefined);
    }
    return { keys, shown };
  });
}
