/**
 * ISO 19005-2/3 6.4: interactive forms. The AcroForm stays (fields, values, widgets and their appearances); what
 * PDF/A forbids in it goes: the XFA form that would replace it in some viewers (6.4.2), the request to render the
 * XFA (/NeedsRendering), and /NeedAppearances (6.4.1), which asks a viewer to draw the fields itself. Widgets that
 * have no appearance of their own are given one by the annotation-appearances repair (6.3.3).
 */
import { PDFName, type PDFDict, type PDFDocument } from '@cantoo/pdf-lib';
import type { Repair, RepairOutcome } from './types.js';
import { dictOf } from './walk.js';

const key = (k: string) => PDFName.of(k);

function drop(d: PDFDict | undefined, k: string): number {
  if (!d?.has(key(k))) return 0;
  d.delete(key(k));
  return 1;
}

const acroForm = (doc: PDFDocument) => dictOf(doc, doc.catalog.get(key('AcroForm')));

/** 6.4.1-3: NeedAppearances removed (false is its default). */
export function needAppearances_6_4_1_3(doc: PDFDocument): RepairOutcome {
  return { changed: drop(acroForm(doc), 'NeedAppearances') };
}

/** 6.4.2-1: the XFA form removed, the AcroForm kept. */
export function xfa_6_4_2_1(doc: PDFDocument): RepairOutcome {
  return { changed: drop(acroForm(doc), 'XFA') };
}

/** 6.4.2-2: the catalog's /NeedsRendering removed. */
export function needsRendering_6_4_2_2(doc: PDFDocument): RepairOutcome {
  return { changed: drop(doc.catalog, 'NeedsRendering') };
}

export const FORM_REPAIRS: Repair[] = [
  {
    name: 'xfa',
    clauses: ['6.4.2-1', '6.4.2-2'],
    apply: ({ doc }) => ({ changed: xfa_6_4_2_1(doc).changed + needsRendering_6_4_2_2(doc).changed }),
  },
  { name: 'need-appearances', clauses: ['6.4.1-3'], apply: ({ doc }) => needAppearances_6_4_1_3(doc) },
];
