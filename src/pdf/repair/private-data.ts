/**
 * ISO 19005-2/3 6.1.13-3: no string is longer than 32,767 bytes. Real files break it with an application's private
 * data: "PDF Annotator" keeps its whole annotation layer as a 1.3 MB hex string under the page's /PieceInfo.
 *
 * A page-piece dictionary (ISO 32000-1 14.5, /PieceInfo of the catalog, a page or a form XObject) holds, per
 * application, /LastModified and /Private: data only that application reads, never drawn. When the over-long
 * string sits under an application's /Private, that /Private goes (its /LastModified stays), and so do the
 * indirect objects only it referred to (the writer writes every object it holds, referenced or not, and the checker
 * reads them all). The application that wrote it can no longer re-edit its layer from the file; what the page shows
 * is unchanged. An over-long string anywhere else (a comment's text, a field value) is reported.
 */
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFStream, PDFString, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import type { Finding } from '../../pdfa/model.js';
import type { Repair, RepairOutcome } from './types.js';
import { dictOf, MAX_WALK_DEPTH, MAX_WALK_NODES, objectByNumber, pageDicts, resourceDicts } from './walk.js';

const key = (k: string) => PDFName.of(k);
/** ISO 19005-2 6.1.13 (Table 1 of ISO 32000-1 Annex C): the longest string. */
const MAX_STRING_BYTES = 32767;

/** Whether a string is over the limit; its text form bounds its bytes from above, so short ones are not decoded. */
function tooLong(v: PDFString | PDFHexString): boolean {
  const text = v.asString();
  if (v instanceof PDFHexString) {
    if (text.length <= 2 * MAX_STRING_BYTES) return false;
    let digits = 0;
    for (let i = 0; i < text.length && digits <= 2 * MAX_STRING_BYTES; i++) {
      const c = text.charCodeAt(i) | 0x20;
      if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66)) digits++;
    }
    return digits > 2 * MAX_STRING_BYTES;
  }
  return text.length > MAX_STRING_BYTES && v.asBytes().length > MAX_STRING_BYTES;
}

/** The indirect objects a value reaches (references followed), bounded; and whether it holds an over-long string. */
function reach(doc: PDFDocument, root: PDFObject): { refs: Set<string>; long: boolean; complete: boolean } {
  const refs = new Set<string>();
  let long = false;
  let nodes = 0;
  const stack: { v: PDFObject | undefined; depth: number }[] = [{ v: root, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (++nodes > MAX_WALK_NODES || depth > MAX_WALK_DEPTH) return { refs, long, complete: false };
    if (v instanceof PDFRef) {
      if (refs.has(v.toString())) continue;
      refs.add(v.toString());
      stack.push({ v: doc.context.lookup(v), depth: depth + 1 });
    } else if (v instanceof PDFString || v instanceof PDFHexString) {
      if (!long && tooLong(v)) long = true;
    } else if (v instanceof PDFArray) for (const x of v.asArray()) stack.push({ v: x, depth: depth + 1 });
    else if (v instanceof PDFDict) for (const [, x] of v.entries()) stack.push({ v: x, depth: depth + 1 });
    else if (v instanceof PDFStream) for (const [, x] of v.dict.entries()) stack.push({ v: x, depth: depth + 1 });
  }
  return { refs, long, complete: true };
}

/** Whether a value holds an over-long string itself (references not followed). */
function holdsLong(v: PDFObject, depth = 0): boolean {
  if (depth > MAX_WALK_DEPTH) return false;
  if (v instanceof PDFString || v instanceof PDFHexString) return tooLong(v);
  if (v instanceof PDFArray) return v.asArray().some((x) => holdsLong(x, depth + 1));
  if (v instanceof PDFDict) return [...v.entries()].some(([, x]) => holdsLong(x, depth + 1));
  if (v instanceof PDFStream) return holdsLong(v.dict, depth + 1);
  return false;
}

/** References held by one object's value, not following them. */
function directRefs(v: PDFObject, out: Set<string>, depth = 0): void {
  if (depth > MAX_WALK_DEPTH) return;
  if (v instanceof PDFRef) out.add(v.toString());
  else if (v instanceof PDFArray) for (const x of v.asArray()) directRefs(x, out, depth + 1);
  else if (v instanceof PDFDict) for (const [, x] of v.entries()) directRefs(x, out, depth + 1);
  else if (v instanceof PDFStream) directRefs(v.dict, out, depth + 1);
}

/** 6.1.13-3: applications' /Private data holding an over-long string goes, with the objects only it used. */
export function privateData_6_1_13_3(doc: PDFDocument, findings: readonly Finding[]): RepairOutcome {
  const pieces = new Set<PDFDict>();
  const add = (d: PDFDict | undefined) => {
    const p = d ? dictOf(doc, d.get(key('PieceInfo'))) : undefined;
    if (p) pieces.add(p);
  };
  add(doc.catalog);
  for (const page of pageDicts(doc)) add(page);
  for (const { stream } of resourceDicts(doc)) if (stream) add(stream.dict);
  for (const { res } of resourceDicts(doc)) {
    const xo = dictOf(doc, res.get(key('XObject')));
    for (const [, v] of xo?.entries() ?? []) {
      const s = v instanceof PDFRef ? doc.context.lookup(v) : v;
      if (s instanceof PDFStream) add(s.dict);
    }
  }
  let changed = 0;
  const dropped = new Set<string>();
  for (const piece of pieces)
    for (const [, data] of piece.entries()) {
      const d = dictOf(doc, data);
      const priv = d?.get(key('Private'));
      if (!d || priv === undefined) continue;
      const r = reach(doc, priv);
      if (!r.long || !r.complete) continue;
      d.delete(key('Private'));
      for (const ref of r.refs) dropped.add(ref);
      changed++;
    }
  if (dropped.size > 0) {
    // The dropped objects still referred to from anywhere else stay.
    const kept = new Set<string>();
    for (const [ref, obj] of doc.context.enumerateIndirectObjects()) if (!dropped.has(ref.toString())) directRefs(obj, kept);
    const trailer = new Set<string>();
    for (const v of Object.values(doc.context.trailerInfo)) if (v) directRefs(v as PDFObject, trailer);
    for (const [ref] of doc.context.enumerateIndirectObjects())
      if (dropped.has(ref.toString()) && !kept.has(ref.toString()) && !trailer.has(ref.toString())) doc.context.delete(ref);
  }
  // What is left: the objects named that still hold an over-long string of their own (not private data).
  const unrepaired = findings.filter((f) => {
    const m = /^object (\d+)$/.exec(f.object ?? '');
    const found = m ? objectByNumber(doc, Number(m[1])) : undefined;
    return !m || (found !== undefined && holdsLong(found.value));
  });
  return { changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

export const PRIVATE_DATA_REPAIRS: Repair[] = [
  { name: 'private-data', clauses: ['6.1.13-3'], apply: ({ doc, findings }) => privateData_6_1_13_3(doc, findings) },
];
