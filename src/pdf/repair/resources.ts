/**
 * ISO 19005-2/3 6.2.2-2: every content stream names its resources in a /Resources dictionary of its own: a page's
 * is not inherited from the page tree, a form XObject's, tiling pattern's, Type 3 font's or soft mask's not from the
 * page that paints it. The resources that are in effect today are written where they are used (the same
 * dictionary, by reference when it is indirect), so every name resolves to what it resolved to before.
 */
import { PDFName, type PDFDict, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import type { Repair, RepairOutcome } from './types.js';
import { dictOf, MAX_WALK_DEPTH, MAX_WALK_NODES, nameIn, pageDicts, pageResources, streamOf } from './walk.js';

const key = (k: string) => PDFName.of(k);

export function explicitResources_6_2_2(doc: PDFDocument): RepairOutcome {
  let changed = 0;
  const seen = new Set<PDFDict>();
  /** The resources in effect for a page, as stored: a reference when indirect, else the dictionary itself. */
  const resourcesValue = (owner: PDFDict): PDFObject | undefined => {
    for (let node: PDFDict | undefined = owner, d = 0; node && d < 64; d++) {
      const v = node.get(key('Resources'));
      if (v !== undefined && dictOf(doc, v)) return v;
      node = dictOf(doc, node.get(key('Parent')));
    }
    return undefined;
  };
  const visit = (res: PDFDict, resValue: PDFObject, depth: number): void => {
    if (seen.has(res) || depth > MAX_WALK_DEPTH || seen.size > MAX_WALK_NODES) return;
    seen.add(res);
    /** `dict` (a form's, pattern's or mask's stream dictionary, or a Type 3 font) gets the resources in effect. */
    const inner = (dict: PDFDict | undefined): void => {
      if (!dict) return;
      const own = dict.get(key('Resources'));
      const ownDict = dictOf(doc, own);
      if (ownDict && own) visit(ownDict, own, depth + 1);
      else {
        dict.set(key('Resources'), resValue);
        changed++;
      }
    };
    const xobjects = dictOf(doc, res.get(key('XObject')));
    if (xobjects)
      for (const [, v] of xobjects.entries()) {
        const s = streamOf(doc, v);
        if (s && nameIn(doc, s.dict, 'Subtype') === 'Form') inner(s.dict);
      }
    const patterns = dictOf(doc, res.get(key('Pattern')));
    if (patterns) for (const [, v] of patterns.entries()) inner(streamOf(doc, v)?.dict);
    const fonts = dictOf(doc, res.get(key('Font')));
    if (fonts)
      for (const [, v] of fonts.entries()) {
        const f = dictOf(doc, v);
        if (f && nameIn(doc, f, 'Subtype') === 'Type3') inner(f);
      }
    const states = dictOf(doc, res.get(key('ExtGState')));
    if (states)
      for (const [, v] of states.entries()) {
        const mask = dictOf(doc, dictOf(doc, v)?.get(key('SMask')));
        inner(mask ? streamOf(doc, mask.get(key('G')))?.dict : undefined);
      }
  };
  for (const page of pageDicts(doc)) {
    const res = pageResources(doc, page);
    const value = resourcesValue(page);
    if (!res || !value) continue;
    if (!dictOf(doc, page.get(key('Resources')))) {
      page.set(key('Resources'), value);
      changed++;
    }
    visit(res, value, 0);
  }
  return { changed };
}

export const RESOURCE_REPAIRS: Repair[] = [
  { name: 'explicit-resources', clauses: ['6.2.2-2'], apply: ({ doc }) => explicitResources_6_2_2(doc) },
];
