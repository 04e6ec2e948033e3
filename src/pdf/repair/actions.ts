/**
 * ISO 19005-2/3 6.4.1 and 6.5: actions PDF/A forbids are removed. A PDF/A file may only navigate (GoTo, GoToR,
 * GoToE, Thread, URI, the four page-turning Named actions) and submit forms; JavaScript, Launch, Sound, Movie,
 * ResetForm, ImportData, Hide, SetOCGState, Rendition, ... go, with the document's JavaScript name tree and the
 * catalog's and pages' additional actions (/AA). Widgets carry no action at all (6.4.1), fields no /AA. An allowed
 * action keeps its allowed successors (/Next); a forbidden one is dropped with the chain it starts. Nothing drawn
 * on a page changes.
 */
import { type PDFDict, PDFName, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import type { Repair, RepairOutcome } from './types.js';
import { annotations, arrayOf, dictOf, formFields, MAX_WALK_DEPTH, MAX_WALK_NODES, nameIn, pageDicts } from './walk.js';

const ALLOWED = new Set(['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'SubmitForm']);
const ALLOWED_NAMED = new Set(['NextPage', 'PrevPage', 'FirstPage', 'LastPage']);
const key = (k: string) => PDFName.of(k);

function allowedAction(doc: PDFDocument, action: PDFDict): boolean {
  const s = nameIn(doc, action, 'S');
  if (s === 'Named') return ALLOWED_NAMED.has(nameIn(doc, action, 'N') ?? '');
  return s !== undefined && ALLOWED.has(s);
}

/**
 * Keep an action only if it is allowed, and prune forbidden successors from its /Next (a dictionary or an
 * array). Returns false when the action itself must go; counts what it removed in `removed`.
 */
function pruneAction(doc: PDFDocument, value: PDFObject | undefined, removed: { n: number }, seen: Set<PDFDict>, depth = 0): boolean {
  const action = dictOf(doc, value);
  if (!action) return true; // not an action dictionary (e.g. a destination array): nothing to judge
  if (seen.has(action)) return true;
  seen.add(action);
  if (!allowedAction(doc, action)) {
    removed.n++;
    return false;
  }
  if (depth > MAX_WALK_DEPTH || seen.size > MAX_WALK_NODES) {
    // A chain too long to follow is cut here rather than kept unchecked.
    if (action.has(key('Next'))) {
      action.delete(key('Next'));
      removed.n++;
    }
    return true;
  }
  const next = action.get(key('Next'));
  const list = arrayOf(doc, next);
  if (list) {
    for (let i = list.size() - 1; i >= 0; i--) if (!pruneAction(doc, list.get(i), removed, seen, depth + 1)) list.remove(i);
    if (list.size() === 0) action.delete(key('Next'));
  } else if (next !== undefined && !pruneAction(doc, next, removed, seen, depth + 1)) action.delete(key('Next'));
  return true;
}

/** Remove `owner[k]` when it is a forbidden action (or prune its chain); returns how many actions went. */
function pruneEntry(doc: PDFDocument, owner: PDFDict, k: string, seen: Set<PDFDict>): number {
  if (!owner.has(key(k))) return 0;
  const removed = { n: 0 };
  if (!pruneAction(doc, owner.get(key(k)), removed, seen)) owner.delete(key(k));
  return removed.n;
}

/** Prune every action of an additional-actions dictionary; the dictionary goes when it is left empty. */
function pruneAdditional(doc: PDFDocument, owner: PDFDict, seen: Set<PDFDict>): number {
  const aa = dictOf(doc, owner.get(key('AA')));
  if (!aa) {
    if (owner.has(key('AA'))) {
      owner.delete(key('AA'));
      return 1;
    }
    return 0;
  }
  let n = 0;
  for (const [k] of aa.entries()) n += pruneEntry(doc, aa, k.decodeText(), seen);
  if (aa.keys().length === 0) owner.delete(key('AA'));
  return n;
}

function deleteKey(d: PDFDict, k: string): number {
  if (!d.has(key(k))) return 0;
  d.delete(key(k));
  return 1;
}

/** 6.5.1 / 6.5.2 / 6.4.1: forbidden actions, additional actions of the catalog and pages, widget and field actions. */
export function forbiddenActions_6_5(doc: PDFDocument): RepairOutcome {
  const seen = new Set<PDFDict>();
  let changed = 0;
  const catalog = doc.catalog;
  // 6.5.2: the catalog and the pages have no additional actions at all.
  changed += deleteKey(catalog, 'AA');
  for (const page of pageDicts(doc)) changed += deleteKey(page, 'AA');
  // 6.5.1: OpenAction (an action dictionary; a destination array is kept), the JavaScript name tree.
  changed += pruneEntry(doc, catalog, 'OpenAction', seen);
  const names = dictOf(doc, catalog.get(key('Names')));
  if (names) changed += deleteKey(names, 'JavaScript');
  // Annotations: widgets carry no action (6.4.1); links and others keep their allowed ones.
  for (const { annot } of annotations(doc)) {
    if (nameIn(doc, annot, 'Subtype') === 'Widget') {
      changed += deleteKey(annot, 'A') + deleteKey(annot, 'AA');
      continue;
    }
    changed += pruneEntry(doc, annot, 'A', seen) + pruneEntry(doc, annot, 'PA', seen) + pruneAdditional(doc, annot, seen);
  }
  // 6.4.1: form fields have no additional actions (a widget merged into its field is covered above).
  for (const field of formFields(doc)) {
    changed += deleteKey(field, 'AA');
    if (nameIn(doc, field, 'Subtype') === 'Widget') changed += deleteKey(field, 'A');
  }
  // Outline items.
  const outlines = dictOf(doc, catalog.get(key('Outlines')));
  if (outlines) {
    const visited = new Set<PDFDict>();
    const stack: { v: PDFObject | undefined; depth: number }[] = [{ v: outlines.get(key('First')), depth: 0 }];
    while (stack.length > 0 && visited.size < MAX_WALK_NODES) {
      const { v, depth } = stack.pop()!;
      let item = dictOf(doc, v);
      while (item && !visited.has(item) && visited.size < MAX_WALK_NODES) {
        visited.add(item);
        changed += pruneEntry(doc, item, 'A', seen);
        if (depth < 64) stack.push({ v: item.get(key('First')), depth: depth + 1 });
        item = dictOf(doc, item.get(key('Next')));
      }
    }
  }
  return { changed };
}

export const ACTION_REPAIRS: Repair[] = [
  {
    name: 'forbidden-actions',
    clauses: ['6.4.1-1', '6.4.1-2', '6.5.1-1', '6.5.1-2', '6.5.2-1', '6.5.2-2'],
    apply: ({ doc }) => forbiddenActions_6_5(doc),
  },
];
