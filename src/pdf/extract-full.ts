/**
 * The full PDF parse (@cantoo/pdf-lib): the fallback of readPdf() for files the lazy reader is unsure
 * of (damaged cross-references, unusual structures). It runs in the PDF worker (./pool.ts, heap cap and
 * deadline), only on files whose xref and object streams the gate vetted (./full-read.ts). What it
 * sends back is data: the attachments' descriptions and their raw (still encoded) stream bytes, which the
 * main thread decodes with the capped filters of ./filters.ts, so pdf-lib's own (uncapped) decoders never
 * run on an attachment.
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  decodePDFRawStream,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { decodeParms, type FilterStep } from './filters.js';
import type { PdfAttachment } from './contents.js';
import { textOfString } from './lazy.js';
import { MAX_NAME_TREE_DEPTH, MAX_NAME_TREE_NODES, PdfLimitError } from './limits.js';

/** A stream as data: raw bytes and the filter chain. */
export interface RawStreamData {
  raw: Uint8Array;
  steps: FilterStep[];
}

/** One attachment as the worker describes it; `stream` indexes FullParseAnswer.streams. */
export interface AttachmentData {
  name: string;
  filename: string;
  mimeType?: string;
  afRelationship?: string;
  description?: string;
  inNameTree: boolean;
  inAssociatedFiles: boolean;
  stream: number;
}

export type FullParseAnswer =
  | { encrypted: true }
  | { failed: true }
  | { limit: string }
  | { attachments: AttachmentData[]; streams: RawStreamData[]; xmp?: RawStreamData };

/** Parse with pdf-lib and describe the attachments (worker side). */
export async function parseFully(bytes: Uint8Array): Promise<FullParseAnswer> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, {
      ignoreEncryption: true, // so that we, not the library, decide what an encrypted file means
      updateMetadata: false,
      parseSpeed: Infinity, // in the worker: nothing else waits for this thread
      throwOnInvalidObject: false,
    });
  } catch {
    return { failed: true };
  }
  if (doc.isEncrypted) return { encrypted: true };
  try {
    const streams: RawStreamData[] = [];
    const index = new Map<PDFStream, number>();
    const atts: AttachmentData[] = [];
    for (const a of collectAttachments(doc)) {
      let i = index.get(a.stream);
      if (i === undefined) {
        const data = rawStreamData(a.stream);
        if (!data) continue;
        i = streams.push(data) - 1;
        index.set(a.stream, i);
      }
      const { stream: _s, ...rest } = a;
      atts.push({ ...rest, stream: i });
    }
    const meta = doc.context.lookup(doc.catalog.get(PDFName.of('Metadata')));
    const xmp = meta instanceof PDFStream ? rawStreamData(meta) : undefined;
    return { attachments: atts, streams, ...(xmp ? { xmp } : {}) };
  } catch (err) {
    if (err instanceof PdfLimitError) return { limit: err.message };
    return { failed: true };
  }
}

/** A pdf-lib stream's raw bytes and filter chain; undefined for a stream we cannot express (not raw). */
function rawStreamData(stream: PDFStream): RawStreamData | undefined {
  if (!(stream instanceof PDFRawStream)) return undefined;
  const ctx = stream.dict.context;
  const filter = ctx.lookup(stream.dict.get(PDFName.of('Filter')));
  const names = filter instanceof PDFName ? [filter] : filter instanceof PDFArray ? filter.asArray().map((f) => ctx.lookup(f)) : [];
  const parmsRaw = ctx.lookup(stream.dict.get(PDFName.of('DecodeParms')));
  const steps: FilterStep[] = names.map((n, i) => {
    const name = n instanceof PDFName ? n.decodeText() : '?';
    const p = parmsRaw instanceof PDFArray ? ctx.lookup(parmsRaw.get(i)) : i === 0 ? parmsRaw : undefined;
    if (!(p instanceof PDFDict)) return { name };
    const num = (k: string): number | undefined => {
      const v = ctx.lookup(p.get(PDFName.of(k)));
      return v instanceof PDFNumber ? v.asNumber() : undefined;
    };
    return { name, parms: decodeParms(num) };
  });
  return { raw: stream.contents, steps };
}

type Described = Omit<PdfAttachment, 'content'> & { stream: PDFStream };

/** Embedded files of a loaded document (name tree first, in tree order, then /AF entries not already listed), with their streams. */
function collectAttachments(doc: PDFDocument): Described[] {
  const ctx = doc.context;
  const seen = new Map<PDFDict, Described>();
  const out: Described[] = [];
  const add = (spec: PDFDict, key: string | undefined, from: 'tree' | 'af'): void => {
    const existing = seen.get(spec);
    if (existing) {
      if (from === 'tree') existing.inNameTree = true;
      else existing.inAssociatedFiles = true;
      return;
    }
    const att = describeFileSpec(doc, spec, key, from);
    if (!att) return;
    if (out.length >= MAX_NAME_TREE_NODES)
      throw new PdfLimitError(`The PDF has more than ${MAX_NAME_TREE_NODES.toLocaleString('en')} attachments`);
    seen.set(spec, att);
    out.push(att);
  };
  const names = lookupDict(doc, doc.catalog.get(PDFName.of('Names')));
  const tree = names && lookupDict(doc, names.get(PDFName.of('EmbeddedFiles')));
  if (tree) walkNameTree(doc, tree, add);
  const af = ctx.lookup(doc.catalog.get(PDFName.of('AF')));
  if (af instanceof PDFArray) {
    for (let i = 0; i < af.size(); i++) {
      const spec = lookupDict(doc, af.get(i));
      if (spec) add(spec, undefined, 'af');
    }
  }
  return out;
}

/** Embedded files of a loaded document, for tests and tools that hold a pdf-lib document (content decoded by pdf-lib). */
export function listAttachments(doc: PDFDocument): PdfAttachment[] {
  return collectAttachments(doc).map(({ stream, ...a }) => ({
    ...a,
    content: () => (stream instanceof PDFRawStream ? decodePDFRawStream(stream).decode() : stream.getContents()),
  }));
}

/** The name tree without recursion; depth, node count and cycles bounded (see walkNameTree in extract.ts). */
function walkNameTree(doc: PDFDocument, root: PDFDict, add: (spec: PDFDict, key: string | undefined, from: 'tree') => void): void {
  const visited = new Set<PDFDict>();
  const stack: { node: PDFDict; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (visited.has(node)) throw new PdfLimitError("The PDF's attachment name tree contains a cycle");
    if (depth > MAX_NAME_TREE_DEPTH)
      throw new PdfLimitError(`The PDF's attachment name tree is more than ${MAX_NAME_TREE_DEPTH} levels deep`);
    visited.add(node);
    if (visited.size > MAX_NAME_TREE_NODES)
      throw new PdfLimitError(`The PDF's attachment name tree has more than ${MAX_NAME_TREE_NODES.toLocaleString('en')} nodes`);
    const names = doc.context.lookup(node.get(PDFName.of('Names')));
    if (names instanceof PDFArray) {
      for (let i = 0; i + 1 < names.size(); i += 2) {
        const key = textOf(doc.context.lookup(names.get(i)));
        const spec = lookupDict(doc, names.get(i + 1));
        if (spec) add(spec, key, 'tree');
      }
    }
    const kids = doc.context.lookup(node.get(PDFName.of('Kids')));
    if (kids instanceof PDFArray) {
      for (let i = kids.size() - 1; i >= 0; i--) {
        const kid = lookupDict(doc, kids.get(i));
        if (kid) stack.push({ node: kid, depth: depth + 1 });
      }
    }
  }
}

function describeFileSpec(doc: PDFDocument, spec: PDFDict, key: string | undefined, from: 'tree' | 'af'): Described | undefined {
  const ctx = doc.context;
  const ef = lookupDict(doc, spec.get(PDFName.of('EF')));
  if (!ef) return undefined;
  const stream = ctx.lookup(ef.get(PDFName.of('UF')) ?? ef.get(PDFName.of('F')));
  if (!(stream instanceof PDFStream)) return undefined;
  const filename = textOf(ctx.lookup(spec.get(PDFName.of('UF')))) ?? textOf(ctx.lookup(spec.get(PDFName.of('F')))) ?? key ?? '';
  const subtype = ctx.lookup(stream.dict.get(PDFName.of('Subtype')));
  const rel = ctx.lookup(spec.get(PDFName.of('AFRelationship')));
  return {
    name: key ?? filename,
    filename,
    mimeType: subtype instanceof PDFName ? subtype.decodeText() : undefined,
    afRelationship: rel instanceof PDFName ? rel.decodeText() : undefined,
    description: textOf(ctx.lookup(spec.get(PDFName.of('Desc')))),
    inNameTree: from === 'tree',
    inAssociatedFiles: from === 'af',
    stream,
  };
}

function lookupDict(doc: PDFDocument, obj: PDFObject | undefined): PDFDict | undefined {
  const v = obj instanceof PDFRef ? doc.context.lookup(obj) : obj;
  return v instanceof PDFDict ? v : undefined;
}

/** Text of a string or name. Not pdf-lib's decodeText: it spreads one argument per character and overflows the stack on long strings. */
function textOf(obj: PDFObject | undefined): string | undefined {
  if (obj instanceof PDFString || obj instanceof PDFHexString) return textOfString({ kind: 'string', bytes: obj.asBytes() });
  if (obj instanceof PDFName) return obj.decodeText();
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Choosing the invoice among the attachments.

/** File names used by Factur-X / ZUGFeRD / XRechnung, best first (ZUGFeRD 1.0's name last: a 2.x sibling wins). */
