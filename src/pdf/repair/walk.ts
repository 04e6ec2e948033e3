/**
 * Bounded walks over the @cantoo/pdf-lib document the repairs work on: pages, their annotations, every resource
 * dictionary a content stream can use (pages, forms, patterns, Type 3 fonts, annotation appearances), form fields,
 * and the object numbers the checker's findings name. Every walk keeps a visited set and a node cap: the input is
 * hostile (cycles, absurd depth), and a repair must never loop or recurse without bound.
 */
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  type PDFRawStream,
  PDFRef,
  PDFStream,
  type PDFDocument,
  type PDFObject,
} from '@cantoo/pdf-lib';
import type { Finding } from '../../pdfa/model.js';
import { applyFilters, decodeParms, type FilterStep } from '../filters.js';

/** Nodes any one walk visits at most. */
export const MAX_WALK_NODES = 200_000;
/** Depth of nested forms, patterns and field trees a walk follows. */
export const MAX_WALK_DEPTH = 32;

const name = (n: string) => PDFName.of(n);

/** The value as a dictionary (a stream's dictionary included when `streams`), following one reference. */
export function dictOf(doc: PDFDocument, v: PDFObject | undefined, streams = false): PDFDict | undefined {
  const x = v instanceof PDFRef ? doc.context.lookup(v) : v;
  if (x instanceof PDFDict) return x;
  if (streams && x instanceof PDFStream) return x.dict;
  return undefined;
}

export function streamOf(doc: PDFDocument, v: PDFObject | undefined): PDFStream | undefined {
  const x = v instanceof PDFRef ? doc.context.lookup(v) : v;
  return x instanceof PDFStream ? x : undefined;
}

export function arrayOf(doc: PDFDocument, v: PDFObject | undefined): PDFArray | undefined {
  const x = v instanceof PDFRef ? doc.context.lookup(v) : v;
  return x instanceof PDFArray ? x : undefined;
}

export function nameIn(doc: PDFDocument, d: PDFDict, key: string): string | undefined {
  const v = d.get(name(key));
  const x = v instanceof PDFRef ? doc.context.lookup(v) : v;
  return x instanceof PDFName ? x.decodeText() : undefined;
}

export function numberIn(doc: PDFDocument, d: PDFDict, key: string): number | undefined {
  const v = d.get(name(key));
  const x = v instanceof PDFRef ? doc.context.lookup(v) : v;
  return x instanceof PDFNumber ? x.asNumber() : undefined;
}

/** Object numbers named by findings ("object 12"). */
export function objectNumbers(findings: readonly Finding[]): Set<number> {
  const out = new Set<number>();
  for (const f of findings) {
    const m = /^object (\d+)$/.exec(f.object ?? '');
    if (m) out.add(Number(m[1]));
  }
  return out;
}

/** The indirect object with this number (any generation), or undefined. */
export function objectByNumber(doc: PDFDocument, num: number): { ref: PDFRef; value: PDFObject } | undefined {
  for (const gen of [0, 1, 2]) {
    const ref = PDFRef.of(num, gen);
    const value = doc.context.lookup(ref);
    if (value !== undefined) return { ref, value };
  }
  return undefined;
}

export interface PageAnnotation {
  annot: PDFDict;
  /** Reference of the annotation when indirect. */
  ref?: PDFRef;
  page: PDFDict;
  pageIndex: number;
}

/** The page dictionaries in order (the page tree was checked for cycles and size when the document was loaded). */
export function pageDicts(doc: PDFDocument): PDFDict[] {
  return doc.getPages().map((p) => p.node);
}

/** Every annotation of every page, once. */
export function annotations(doc: PDFDocument): PageAnnotation[] {
  const out: PageAnnotation[] = [];
  const seen = new Set<PDFDict>();
  pageDicts(doc).forEach((page, i) => {
    const annots = arrayOf(doc, page.get(name('Annots')));
    if (!annots) return;
    for (let k = 0; k < annots.size() && seen.size < MAX_WALK_NODES; k++) {
      const raw = annots.get(k);
      const annot = dictOf(doc, raw);
      if (!annot || seen.has(annot)) continue;
      seen.add(annot);
      out.push({ annot, ...(raw instanceof PDFRef ? { ref: raw } : {}), page, pageIndex: i + 1 });
    }
  });
  return out;
}

/** A page's resources, inherited from the page tree when it has none of its own. */
export function pageResources(doc: PDFDocument, page: PDFDict): PDFDict | undefined {
  let node: PDFDict | undefined = page;
  for (let depth = 0; node && depth < 64; depth++) {
    const res = dictOf(doc, node.get(name('Resources')));
    if (res) return res;
    node = dictOf(doc, node.get(name('Parent')));
  }
  return undefined;
}

export interface ResourceOwner {
  res: PDFDict;
  /** What uses these resources, for messages: "page 2", "form object 12". */
  owner: string;
  /** The stream these resources belong to (forms, patterns, appearances); undefined for a page. */
  stream?: PDFStream;
}

/**
 * Every resource dictionary reachable from the pages: the pages' own (or inherited), and those of the form
 * XObjects, tiling patterns, Type 3 fonts, soft-mask groups and annotation appearances inside them, each once.
 */
export function resourceDicts(doc: PDFDocument): ResourceOwner[] {
  const out: ResourceOwner[] = [];
  const seen = new Set<PDFDict>();
  const seenStreams = new Set<PDFStream>();
  const stack: { res: PDFDict; owner: string; stream?: PDFStream; depth: number }[] = [];
  const push = (res: PDFDict | undefined, owner: string, depth: number, stream?: PDFStream): void => {
    if (!res || seen.has(res) || depth > MAX_WALK_DEPTH || seen.size >= MAX_WALK_NODES) return;
    seen.add(res);
    stack.push({ res, owner, depth, ...(stream ? { stream } : {}) });
  };
  const pushStream = (v: PDFObject | undefined, owner: string, depth: number): void => {
    const s = streamOf(doc, v);
    if (!s || seenStreams.has(s)) return;
    seenStreams.add(s);
    push(dictOf(doc, s.dict.get(name('Resources'))), owner, depth, s);
  };
  const pages = pageDicts(doc);
  pages.forEach((page, i) => {
    push(pageResources(doc, page), `page ${i + 1}`, 0);
    const annots = arrayOf(doc, page.get(name('Annots')));
    for (let k = 0; annots && k < annots.size(); k++) {
      const ap = dictOf(doc, dictOf(doc, annots.get(k))?.get(name('AP')));
      if (!ap) continue;
      for (const [, v] of ap.entries()) {
        const states = dictOf(doc, v);
        if (states) for (const [, s] of states.entries()) pushStream(s, `annotation appearance on page ${i + 1}`, 1);
        else pushStream(v, `annotation appearance on page ${i + 1}`, 1);
      }
    }
  });
  while (stack.length > 0) {
    const cur = stack.pop()!;
    out.push({ res: cur.res, owner: cur.owner, ...(cur.stream ? { stream: cur.stream } : {}) });
    const xobjects = dictOf(doc, cur.res.get(name('XObject')));
    if (xobjects)
      for (const [key, v] of xobjects.entries()) {
        const s = streamOf(doc, v);
        if (s && nameIn(doc, s.dict, 'Subtype') === 'Form')
          pushStream(v, v instanceof PDFRef ? `form object ${v.objectNumber}` : `form ${key.decodeText()}`, cur.depth + 1);
      }
    const patterns = dictOf(doc, cur.res.get(name('Pattern')));
    if (patterns) for (const [, v] of patterns.entries()) pushStream(v, 'tiling pattern', cur.depth + 1);
    const fonts = dictOf(doc, cur.res.get(name('Font')));
    if (fonts)
      for (const [, v] of fonts.entries()) {
        const f = dictOf(doc, v);
        if (f && nameIn(doc, f, 'Subtype') === 'Type3') push(dictOf(doc, f.get(name('Resources'))), 'Type 3 font', cur.depth + 1);
      }
    const states = dictOf(doc, cur.res.get(name('ExtGState')));
    if (states)
      for (const [, v] of states.entries()) {
        const mask = dictOf(doc, dictOf(doc, v)?.get(name('SMask')));
        if (mask) pushStream(mask.get(name('G')), 'soft mask', cur.depth + 1);
      }
  }
  return out;
}

/** Every ExtGState dictionary in the resources (and of shading patterns), once. */
export function extGStates(doc: PDFDocument, owners = resourceDicts(doc)): PDFDict[] {
  const out = new Set<PDFDict>();
  for (const { res } of owners) {
    const states = dictOf(doc, res.get(name('ExtGState')));
    if (states)
      for (const [, v] of states.entries()) {
        const g = dictOf(doc, v);
        if (g) out.add(g);
      }
    const patterns = dictOf(doc, res.get(name('Pattern')));
    if (patterns)
      for (const [, v] of patterns.entries()) {
        const g = dictOf(doc, dictOf(doc, v)?.get(name('ExtGState')));
        if (g) out.add(g);
      }
  }
  return [...out];
}

/** The AcroForm's fields and their kids (widgets included), once each, bounded. */
export function formFields(doc: PDFDocument): PDFDict[] {
  const form = dictOf(doc, doc.catalog.get(name('AcroForm')));
  const fields = form ? arrayOf(doc, form.get(name('Fields'))) : undefined;
  if (!fields) return [];
  const out: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const stack: { v: PDFObject; depth: number }[] = fields.asArray().map((v) => ({ v, depth: 0 }));
  while (stack.length > 0 && seen.size < MAX_WALK_NODES) {
    const { v, depth } = stack.pop()!;
    const f = dictOf(doc, v);
    if (!f || seen.has(f) || depth > MAX_WALK_DEPTH) continue;
    seen.add(f);
    out.push(f);
    const kids = arrayOf(doc, f.get(name('Kids')));
    if (kids) for (const k of kids.asArray()) stack.push({ v: k, depth: depth + 1 });
  }
  return out;
}

/** A field's value of an inheritable key (FT, V, DA, Ff), looked up through /Parent. */
export function inherited(doc: PDFDocument, field: PDFDict, key: string): PDFObject | undefined {
  let cur: PDFDict | undefined = field;
  for (let depth = 0; cur && depth < MAX_WALK_DEPTH; depth++) {
    const v = cur.get(name(key));
    if (v !== undefined) return v instanceof PDFRef ? doc.context.lookup(v) : v;
    cur = dictOf(doc, cur.get(name('Parent')));
  }
  return undefined;
}

/**
 * A stream's data decoded through our capped filters (src/pdf/filters.ts), never the library's uncapped ones: at
 * most `cap` bytes, else undefined, as for data that cannot be decoded (an image filter, a broken stream).
 */
export function decodedBytes(doc: PDFDocument, stream: PDFRawStream, cap: number): Uint8Array | undefined {
  const resolve = (v: PDFObject | undefined) => (v instanceof PDFRef ? doc.context.lookup(v) : v);
  const filter = resolve(stream.dict.get(name('Filter')));
  const parms = resolve(stream.dict.get(name('DecodeParms')));
  const names = filter instanceof PDFName ? [filter] : filter instanceof PDFArray ? filter.asArray().map(resolve) : [];
  const steps: FilterStep[] = [];
  for (let i = 0; i < names.length; i++) {
    const n = names[i];
    if (!(n instanceof PDFName)) return undefined;
    const p = parms instanceof PDFArray ? resolve(parms.get(i)) : i === 0 ? parms : undefined;
    const num = (k: string) => {
      const v = p instanceof PDFDict ? resolve(p.get(name(k))) : undefined;
      return v instanceof PDFNumber ? v.asNumber() : undefined;
    };
    steps.push({ name: n.decodeText(), parms: decodeParms(num) });
  }
  try {
    const data = applyFilters(stream.contents, steps, cap, { lenientFlate: true });
    return data.length <= cap ? data : undefined;
  } catch {
    return undefined;
  }
}

export interface OwnedStream {
  stream: PDFStream;
  /** What the stream draws, for messages: "page 2", "form object 12". */
  owner: string;
}

/**
 * Every content stream reachable from the pages, each once: the pages' contents, annotation appearances, and
 * through their resources the form XObjects, tiling patterns, Type 3 glyph procedures and soft-mask groups (a form
 * without /Resources uses those of what paints it). At most MAX_WALK_NODES streams and MAX_WALK_DEPTH levels;
 * `complete` is false when a bound cut the walk short.
 */
export function contentStreams(doc: PDFDocument): { streams: OwnedStream[]; complete: boolean } {
  const streams: OwnedStream[] = [];
  const seen = new Set<PDFStream>();
  const seenRes = new Set<PDFDict>();
  let complete = true;
  const stack: { stream: PDFStream; owner: string; res: PDFDict | undefined; depth: number }[] = [];
  const push = (v: PDFObject | undefined, owner: string, inherited: PDFDict | undefined, depth: number): void => {
    const s = streamOf(doc, v);
    if (!s || seen.has(s)) return;
    if (depth > MAX_WALK_DEPTH || seen.size >= MAX_WALK_NODES) {
      complete = false;
      return;
    }
    seen.add(s);
    const own = v instanceof PDFRef ? `${owner} object ${v.objectNumber}` : owner;
    stack.push({ stream: s, owner: own, res: dictOf(doc, s.dict.get(name('Resources'))) ?? inherited, depth });
  };
  const fromResources = (res: PDFDict | undefined, depth: number): void => {
    if (!res || seenRes.has(res)) return;
    seenRes.add(res);
    const xobjects = dictOf(doc, res.get(name('XObject')));
    if (xobjects)
      for (const [, v] of xobjects.entries()) {
        const s = streamOf(doc, v);
        if (s && nameIn(doc, s.dict, 'Subtype') === 'Form') push(v, 'form', res, depth + 1);
      }
    const patterns = dictOf(doc, res.get(name('Pattern')));
    if (patterns) for (const [, v] of patterns.entries()) push(v, 'tiling pattern', undefined, depth + 1);
    const fonts = dictOf(doc, res.get(name('Font')));
    if (fonts)
      for (const [, v] of fonts.entries()) {
        const f = dictOf(doc, v);
        if (!f || nameIn(doc, f, 'Subtype') !== 'Type3') continue;
        const procs = dictOf(doc, f.get(name('CharProcs')));
        const fres = dictOf(doc, f.get(name('Resources'))) ?? res;
        if (procs) for (const [, p] of procs.entries()) push(p, 'Type 3 glyph', fres, depth + 1);
      }
    const states = dictOf(doc, res.get(name('ExtGState')));
    if (states)
      for (const [, v] of states.entries()) {
        const mask = dictOf(doc, dictOf(doc, v)?.get(name('SMask')));
        if (mask) push(mask.get(name('G')), 'soft mask', res, depth + 1);
      }
  };
  pageDicts(doc).forEach((page, i) => {
    const res = pageResources(doc, page);
    const contents = page.get(name('Contents'));
    const list = arrayOf(doc, contents);
    if (list) for (const c of list.asArray()) push(c, `page ${i + 1}`, res, 0);
    else push(contents, `page ${i + 1}`, res, 0);
    const annots = arrayOf(doc, page.get(name('Annots')));
    for (let k = 0; annots && k < annots.size(); k++) {
      const ap = dictOf(doc, dictOf(doc, annots.get(k))?.get(name('AP')));
      if (!ap) continue;
      for (const [, v] of ap.entries()) {
        const states = dictOf(doc, v);
        if (states) for (const [, s] of states.entries()) push(s, `annotation appearance on page ${i + 1}`, undefined, 1);
        else push(v, `annotation appearance on page ${i + 1}`, undefined, 1);
      }
    }
  });
  while (stack.length > 0) {
    const cur = stack.pop()!;
    streams.push({ stream: cur.stream, owner: cur.owner });
    fromResources(cur.res, cur.depth);
  }
  return { streams, complete };
}
