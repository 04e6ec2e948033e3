/**
 * Document-level keys PDF/A forbids or requires, none of which changes what a page shows: presentation steps and
 * alternate presentations (6.10), /Requirements (6.11), permissions other than DocMDP and UR3 (6.1.12), and the
 * MIME type and file names of embedded files (6.8-1, 6.8-2).
 */
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFString,
  type PDFDocument,
  type PDFObject,
} from '@cantoo/pdf-lib';
import type { Repair, RepairOutcome } from './types.js';
import { dictOf, MAX_WALK_NODES, objectByNumber, objectNumbers, pageDicts, streamOf } from './walk.js';
import type { Finding } from '../../pdfa/model.js';

const key = (k: string) => PDFName.of(k);

function drop(d: PDFDict | undefined, k: string): number {
  if (!d?.has(key(k))) return 0;
  d.delete(key(k));
  return 1;
}

/** 6.10-1 / 6.10-2: no alternate presentations (slide shows), no page presentation steps. */
export function presentations_6_10(doc: PDFDocument): RepairOutcome {
  let changed = drop(dictOf(doc, doc.catalog.get(key('Names'))), 'AlternatePresentations');
  for (const page of pageDicts(doc)) changed += drop(page, 'PresSteps');
  return { changed };
}

/** 6.11-1: no /Requirements in the catalog. */
export function requirements_6_11(doc: PDFDocument): RepairOutcome {
  return { changed: drop(doc.catalog, 'Requirements') };
}

/** 6.1.12-1: the permissions dictionary keeps DocMDP and UR3 only. */
export function permissions_6_1_12(doc: PDFDocument): RepairOutcome {
  const perms = dictOf(doc, doc.catalog.get(key('Perms')));
  if (!perms) return { changed: 0 };
  let changed = 0;
  for (const k of perms.keys())
    if (k.decodeText() !== 'DocMDP' && k.decodeText() !== 'UR3') {
      perms.delete(k);
      changed++;
    }
  return { changed };
}

/** 6.1.12-2: a DocMDP signature reference has no digest entries (DigestLocation, DigestMethod, DigestValue). */
export function docMdpDigests_6_1_12_2(doc: PDFDocument, findings: readonly Finding[]): RepairOutcome {
  let changed = 0;
  for (const num of objectNumbers(findings)) {
    const sig = dictOf(doc, objectByNumber(doc, num)?.value);
    const refs = sig ? sig.lookup(key('Reference')) : undefined;
    if (!(refs instanceof PDFArray)) continue;
    for (let i = 0; i < refs.size(); i++) {
      const r = dictOf(doc, refs.get(i));
      if (!r) continue;
      for (const k of ['DigestLocation', 'DigestMethod', 'DigestValue']) changed += drop(r, k);
    }
  }
  return { changed };
}

/** A file specification with an embedded file, and where it sits when it is a direct object (to make it indirect). */
interface FoundSpec {
  spec: PDFDict;
  ref?: PDFRef;
  holder?: { array: PDFArray; index: number } | { dict: PDFDict; key: PDFName };
}

/**
 * The file specifications with /EF that a finding's object holds: the object itself, or a direct dictionary inside
 * it at most two levels down (the checker names the enclosing object of a direct one: the name-tree node whose
 * /Names array holds it, the annotation whose /FS it is).
 */
function fileSpecsAt(doc: PDFDocument, ref: PDFRef, value: PDFObject): FoundSpec[] {
  const own = dictOf(doc, value);
  if (own?.has(key('EF'))) return [{ spec: own, ref }];
  const out: FoundSpec[] = [];
  // A reference is looked through once (an earlier repair may have made a direct specification indirect), not walked.
  const spec = (x: PDFObject): FoundSpec | undefined => {
    const d = x instanceof PDFRef ? doc.context.lookup(x) : x;
    if (!(d instanceof PDFDict) || !d.has(key('EF'))) return undefined;
    return x instanceof PDFRef ? { spec: d, ref: x } : { spec: d };
  };
  const visit = (v: PDFObject | undefined, depth: number): void => {
    if (out.length >= 1000 || depth > 2) return;
    if (v instanceof PDFArray)
      v.asArray().forEach((x, index) => {
        const found = spec(x);
        if (found) out.push(found.ref ? found : { ...found, holder: { array: v, index } });
        else if (!(x instanceof PDFRef)) visit(x, depth + 1);
      });
    else if (v instanceof PDFDict)
      for (const [k, x] of v.entries()) {
        const found = spec(x);
        if (found) out.push(found.ref ? found : { ...found, holder: { dict: v, key: k } });
        else if (!(x instanceof PDFRef)) visit(x, depth + 1);
      }
  };
  visit(value instanceof PDFRawStream ? value.dict : value, 0);
  return out;
}

/** The reference of a file specification, registering a direct one as an indirect object in its place. */
function indirect(doc: PDFDocument, found: FoundSpec): PDFRef {
  if (found.ref) return found.ref;
  const ref = doc.context.register(found.spec);
  const h = found.holder!;
  if ('array' in h) h.array.set(h.index, ref);
  else h.dict.set(h.key, ref);
  found.ref = ref;
  return ref;
}

/**
 * 6.8-1: an embedded file stream without a MIME type is declared application/octet-stream (what it is when nothing
 * else is known); 6.8-2: a file specification with /EF has both /F and /UF (one copied from the other).
 */
export function embeddedFiles_6_8(doc: PDFDocument, findings: readonly Finding[]): RepairOutcome {
  let changed = 0;
  const unrepaired: Finding[] = [];
  for (const num of [...objectNumbers(findings)].slice(0, MAX_WALK_NODES)) {
    const found = objectByNumber(doc, num);
    if (!found) continue;
    const stream = streamOf(doc, found.value);
    if (stream && findings.some((f) => f.clause === '6.8-1' && f.object === `object ${num}`)) {
      stream.dict.set(key('Subtype'), key('application/octet-stream'));
      changed++;
      continue;
    }
    if (!findings.some((f) => f.clause === '6.8-2' && f.object === `object ${num}`)) continue;
    for (const { spec } of fileSpecsAt(doc, found.ref, found.value)) {
      const f = spec.lookup(key('F'));
      const uf = spec.lookup(key('UF'));
      const text = (v: unknown) => (v instanceof PDFString || v instanceof PDFHexString ? v : undefined);
      if (!text(uf) && text(f)) spec.set(key('UF'), PDFHexString.fromText(text(f)!.decodeText()));
      else if (!text(f) && text(uf)) spec.set(key('F'), PDFHexString.fromText(text(uf)!.decodeText()));
      else if (!text(f) && !text(uf)) {
        spec.set(key('F'), PDFString.of('attachment'));
        spec.set(key('UF'), PDFString.of('attachment'));
      } else continue;
      changed++;
    }
  }
  for (const f of findings) if (!/^object \d+$/.test(f.object ?? '')) unrepaired.push(f);
  return { changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

/**
 * 6.8-3 / 6.8-4: every file specification with an embedded file has /AFRelationship and is listed in an /AF array.
 * The writer does this for the attachments of the name tree; these are the others the checker named (e.g. the file
 * of a FileAttachment annotation): /Unspecified (nothing else is known of them) and the catalog's /AF. A direct
 * file specification becomes an indirect object in its place, so that /AF can refer to it.
 */
export function associatedFiles_6_8(doc: PDFDocument, findings: readonly Finding[]): RepairOutcome {
  let changed = 0;
  let af = doc.catalog.lookup(key('AF'));
  for (const num of objectNumbers(findings)) {
    const found = objectByNumber(doc, num);
    if (!found) continue;
    const named = (clause: string) => findings.some((f) => f.clause === clause && f.object === `object ${num}`);
    for (const spec of fileSpecsAt(doc, found.ref, found.value)) {
      if (named('6.8-3') && !spec.spec.has(key('AFRelationship'))) {
        spec.spec.set(key('AFRelationship'), key('Unspecified'));
        changed++;
      }
      if (named('6.8-4')) {
        if (!(af instanceof PDFArray)) {
          af = doc.context.obj([]);
          doc.catalog.set(key('AF'), af);
        }
        const ref = indirect(doc, spec);
        if (!(af as PDFArray).asArray().some((x) => x === ref)) {
          (af as PDFArray).push(ref);
          changed++;
        }
      }
    }
  }
  return { changed };
}

export const STRUCTURE_REPAIRS: Repair[] = [
  { name: 'associated-files', clauses: ['6.8-3', '6.8-4'], apply: ({ doc, findings }) => associatedFiles_6_8(doc, findings) },
  { name: 'presentations', clauses: ['6.10-1', '6.10-2'], apply: ({ doc }) => presentations_6_10(doc) },
  { name: 'requirements', clauses: ['6.11-1'], apply: ({ doc }) => requirements_6_11(doc) },
  {
    name: 'permissions',
    clauses: ['6.1.12-1', '6.1.12-2'],
    apply: ({ doc, findings }) => {
      const a = permissions_6_1_12(doc);
      const b = docMdpDigests_6_1_12_2(doc, findings);
      return { changed: a.changed + b.changed };
    },
  },
  { name: 'embedded-file-names', clauses: ['6.8-1', '6.8-2'], apply: ({ doc, findings }) => embeddedFiles_6_8(doc, findings) },
];
