/**
 * The full PDF parse (@cantoo/pdf-lib): the fallback of readPdf() for files the lazy reader is unsure
 * of (damaged cross-references, unusual structures). Kept in its own module so that the library is
 * loaded on first need only, not at start-up.
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  decodePDFRawStream,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { readXmp, type XmpInfo } from './xmp.js';
import {
  encryptedError,
  hasEmbeddedFileStreams,
  looksEncrypted,
  PdfReadError,
  recoverByScanning,
  type PdfAttachment,
  type PdfContents,
} from './extract.js';

export async function readPdfFully(bytes: Uint8Array): Promise<PdfContents> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, {
      ignoreEncryption: true, // so that we, not the library, decide what an encrypted file means
      updateMetadata: false,
      parseSpeed: Infinity, // never yield to the event loop mid-parse: a request is small and short
      throwOnInvalidObject: false,
    });
  } catch (err) {
    if (looksEncrypted(bytes)) throw encryptedError();
    return recoverByScanning(bytes, err as Error);
  }
  if (doc.isEncrypted) throw encryptedError();
  let contents: PdfContents;
  try {
    contents = { attachments: listAttachments(doc), xmp: readCatalogXmp(doc), recovered: false };
  } catch (err) {
    if (err instanceof PdfReadError) throw err;
    return recoverByScanning(bytes, err as Error);
  }
  // A truncated file may parse, yet have lost its catalog or name tree while the file streams survive.
  if (contents.attachments.length === 0 && hasEmbeddedFileStreams(bytes)) {
    try {
      const scanned = recoverByScanning(bytes, new Error('no attachments reachable from the catalog'));
      if (scanned.attachments.length > 0) return { ...scanned, xmp: contents.xmp };
    } catch {
      // keep the structured result
    }
  }
  return contents;
}

/** Embedded files of a loaded document: the name tree first (in tree order), then /AF entries not already listed. */
export function listAttachments(doc: PDFDocument): PdfAttachment[] {
  const ctx = doc.context;
  const seen = new Map<PDFDict, PdfAttachment>();
  const out: PdfAttachment[] = [];

  const add = (spec: PDFDict, key: string | undefined, from: 'tree' | 'af'): void => {
    const existing = seen.get(spec);
    if (existing) {
      if (from === 'tree') existing.inNameTree = true;
      else existing.inAssociatedFiles = true;
      return;
    }
    const att = describeFileSpec(doc, spec, key, from);
    if (!att) return;
    seen.set(spec, att);
    out.push(att);
  };

  const names = lookupDict(doc, doc.catalog.get(PDFName.of('Names')));
  const tree = names && lookupDict(doc, names.get(PDFName.of('EmbeddedFiles')));
  if (tree) walkNameTree(doc, tree, add, new Set(), 0);

  const af = ctx.lookup(doc.catalog.get(PDFName.of('AF')));
  if (af instanceof PDFArray) {
    for (let i = 0; i < af.size(); i++) {
      const spec = lookupDict(doc, af.get(i));
      if (spec) add(spec, undefined, 'af');
    }
  }
  return out;
}

function walkNameTree(
  doc: PDFDocument,
  node: PDFDict,
  add: (spec: PDFDict, key: string | undefined, from: 'tree') => void,
  visited: Set<PDFDict>,
  depth: number,
): void {
  if (visited.has(node) || depth > 32) return; // cyclic or absurdly deep trees in hostile files
  visited.add(node);
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
    for (let i = 0; i < kids.size(); i++) {
      const kid = lookupDict(doc, kids.get(i));
      if (kid) walkNameTree(doc, kid, add, visited, depth + 1);
    }
  }
}

function describeFileSpec(doc: PDFDocument, spec: PDFDict, key: string | undefined, from: 'tree' | 'af'): PdfAttachment | undefined {
  const ctx = doc.context;
  const ef = lookupDict(doc, spec.get(PDFName.of('EF')));
  if (!ef) return undefined;
  const streamObj = ctx.lookup(ef.get(PDFName.of('UF')) ?? ef.get(PDFName.of('F')));
  if (!(streamObj instanceof PDFStream)) return undefined;
  const filename = textOf(ctx.lookup(spec.get(PDFName.of('UF')))) ?? textOf(ctx.lookup(spec.get(PDFName.of('F')))) ?? key ?? '';
  const subtype = ctx.lookup(streamObj.dict.get(PDFName.of('Subtype')));
  const rel = ctx.lookup(spec.get(PDFName.of('AFRelationship')));
  let cached: Uint8Array | undefined;
  return {
    name: key ?? filename,
    filename,
    mimeType: subtype instanceof PDFName ? subtype.decodeText() : undefined,
    afRelationship: rel instanceof PDFName ? rel.decodeText() : undefined,
    description: textOf(ctx.lookup(spec.get(PDFName.of('Desc')))),
    inNameTree: from === 'tree',
    inAssociatedFiles: from === 'af',
    content() {
      cached ??= decodeStream(streamObj);
      return cached;
    },
  };
}

function decodeStream(stream: PDFStream): Uint8Array {
  try {
    if (stream instanceof PDFRawStream) return decodePDFRawStream(stream).decode();
    return stream.getContents();
  } catch (err) {
    throw new PdfReadError('PDF_UNREADABLE', `An embedded file could not be decoded: ${(err as Error).message}`);
  }
}

function readCatalogXmp(doc: PDFDocument): XmpInfo | undefined {
  const meta = doc.context.lookup(doc.catalog.get(PDFName.of('Metadata')));
  if (!(meta instanceof PDFStream)) return undefined;
  try {
    return readXmp(decodeStream(meta));
  } catch {
    return undefined; // XMP is advisory: a broken packet must not hide the invoice
  }
}

function lookupDict(doc: PDFDocument, obj: PDFObject | undefined): PDFDict | undefined {
  const v = obj instanceof PDFRef ? doc.context.lookup(obj) : obj;
  return v instanceof PDFDict ? v : undefined;
}

function textOf(obj: PDFObject | undefined): string | undefined {
  if (obj instanceof PDFString || obj instanceof PDFHexString) return obj.decodeText();
  if (obj instanceof PDFName) return obj.decodeText();
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Choosing the invoice among the attachments.

/** File names used by Factur-X / ZUGFeRD / XRechnung, best first (ZUGFeRD 1.0's name last: a 2.x sibling wins). */
