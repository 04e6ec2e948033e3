/**
 * The document model the clause checks read: the catalog, pages (with inherited resources), every resource
 * dictionary reachable from pages, forms, patterns, Type 3 fonts and annotation appearances, the content
 * streams with what they use, annotations, actions, and the PDF/A output intent. Built once per check run;
 * the checks themselves are small pure functions over it (see checks.ts).
 */
import { isDict, isRef, isStream, nameOf, type PdfDictValue, type PdfStreamValue, type PdfValue } from '../pdf/lazy.js';
import { scanContent, type ContentUse } from './content.js';
import type { PdfaDocument } from './objects.js';

export interface Finding {
  /** Clause and test, veraPDF-style: "6.1.3-1". */
  clause: string;
  message: string;
  /** What it concerns: "object 12", "page 1", "XMP pdfaid:part", "file header"... */
  object?: string;
}

export interface ContentStreamInfo {
  /** Who owns it: "page 1", "form object 12", "annotation appearance object 8". */
  owner: string;
  resources: PdfDictValue | undefined;
  /** The page's resources (for Default colour spaces). */
  pageResources: PdfDictValue | undefined;
  use: ContentUse;
  /** The owner had no /Resources of its own (6.2.2: explicit resources). */
  inherited: boolean;
  pageIndex: number;
}

export interface PageInfo {
  dict: PdfDictValue;
  num?: number;
  index: number;
  resources: PdfDictValue | undefined;
  /** MediaBox/CropBox including values inherited from the page tree. */
  boxes: Map<string, PdfValue>;
}

export interface Model {
  doc: PdfaDocument;
  part: 2 | 3;
  catalog: PdfDictValue | undefined;
  pages: PageInfo[];
  resources: Set<PdfDictValue>;
  fonts: Set<PdfDictValue>;
  xobjects: Set<PdfStreamValue>;
  extGStates: Set<PdfDictValue>;
  /** Colour space values (names or arrays) declared in resources, images, shadings, groups. */
  colorSpaces: { cs: PdfValue; where: string }[];
  shadings: Set<PdfDictValue>;
  annotations: { dict: PdfDictValue; page: number }[];
  actions: { dict: PdfDictValue; where: string }[];
  contents: ContentStreamInfo[];
  /** Colour space of the PDF/A OutputIntent's profile ('RGB ', 'CMYK', 'GRAY'), undefined if none. */
  outputIntentSpace: string | undefined;
  hasPdfaOutputIntent: boolean;
  fields: PdfDictValue[];
  deadline: number;
  timedOut: boolean;
  /** PDF/A-2 6.8: whether embedded file bytes are themselves PDF/A (set by the runner). */
  embeddedIsPdfa: (bytes: Uint8Array) => boolean;
}

const MAX_WALK = 200_000;

export function buildModel(doc: PdfaDocument, part: 2 | 3, deadline: number): Model {
  const catalog = doc.dict(doc.trailer?.map.get('Root'));
  const m: Model = {
    doc,
    part,
    catalog,
    pages: [],
    resources: new Set(),
    fonts: new Set(),
    xobjects: new Set(),
    extGStates: new Set(),
    colorSpaces: [],
    shadings: new Set(),
    annotations: [],
    actions: [],
    contents: [],
    outputIntentSpace: undefined,
    hasPdfaOutputIntent: false,
    fields: [],
    deadline,
    timedOut: false,
    embeddedIsPdfa: () => true,
  };
  if (!catalog) return m;
  // Output intent.
  const ois = doc.get(catalog, 'OutputIntents');
  if (Array.isArray(ois)) {
    for (const oiRef of ois) {
      const oi = doc.dict(oiRef);
      if (!oi || nameOf(oi.map.get('S')) !== 'GTS_PDFA1') continue;
      m.hasPdfaOutputIntent = true;
      const prof = doc.resolve(oi.map.get('DestOutputProfile'));
      if (isStream(prof)) {
        const r = doc.decode(prof);
        if (r.ok && r.data.length >= 20) m.outputIntentSpace = String.fromCharCode(...r.data.subarray(16, 20));
      }
    }
  }
  // Pages.
  const seen = new Set<PdfDictValue>();
  const walkPages = (ref: PdfValue | undefined, inherited: PdfDictValue | undefined, boxes: Map<string, PdfValue>, depth: number): void => {
    const node = doc.dict(ref);
    if (!node || seen.has(node) || depth > 64 || m.pages.length > MAX_WALK) return;
    seen.add(node);
    const res = doc.dict(node.map.get('Resources')) ?? inherited;
    const here = new Map(boxes);
    for (const k of ['MediaBox', 'CropBox']) if (node.map.has(k)) here.set(k, node.map.get(k)!);
    const kids = doc.resolve(node.map.get('Kids'));
    if (nameOf(node.map.get('Type')) === 'Pages' || (Array.isArray(kids) && nameOf(node.map.get('Type')) !== 'Page')) {
      if (Array.isArray(kids)) for (const k of kids) walkPages(k, res, here, depth + 1);
      return;
    }
    m.pages.push({ dict: node, num: isRef(ref) ? ref.num : undefined, index: m.pages.length + 1, resources: res, boxes: here });
  };
  walkPages(catalog.map.get('Pages'), undefined, new Map(), 0);

  // Resources and content streams.
  const visitedStreams = new Set<PdfStreamValue>();
  const visitResources = (res: PdfDictValue | undefined, where: string, pageRes: PdfDictValue | undefined, pageIndex: number): void => {
    if (!res || m.resources.has(res)) return;
    m.resources.add(res);
    const fonts = doc.dict(res.map.get('Font'));
    if (fonts)
      for (const v of fonts.map.values()) {
        const f = doc.dict(v);
        if (f && !m.fonts.has(f)) {
          m.fonts.add(f);
          if (nameOf(f.map.get('Subtype')) === 'Type3') {
            const procs = doc.dict(f.map.get('CharProcs'));
            const fres = doc.dict(f.map.get('Resources'));
            visitResources(fres, where, pageRes, pageIndex);
            if (procs)
              for (const p of procs.map.values()) {
                const s = doc.resolve(p);
                if (isStream(s)) addContent(s, `Type 3 glyph of ${where}`, fres ?? res, pageRes, !fres, pageIndex, true);
              }
          }
        }
      }
    const xo = doc.dict(res.map.get('XObject'));
    if (xo)
      for (const v of xo.map.values()) {
        const s = doc.resolve(v);
        if (!isStream(s) || m.xobjects.has(s)) continue;
        m.xobjects.add(s);
        const st = nameOf(s.dict.map.get('Subtype'));
        const num = isRef(v) ? v.num : undefined;
        if (st === 'Image') {
          const cs = s.dict.map.get('ColorSpace');
          if (cs !== undefined) m.colorSpaces.push({ cs, where: `image object ${num}` });
          const smask = doc.resolve(s.dict.map.get('SMask'));
          if (isStream(smask)) m.xobjects.add(smask);
        } else if (st === 'Form') {
          // The form's content is read when a content stream paints it (Do), see addContent.
          const fres = doc.dict(s.dict.map.get('Resources'));
          visitResources(fres, `form object ${num}`, pageRes, pageIndex);
          const g = doc.dict(s.dict.map.get('Group'));
          if (g && g.map.has('CS')) m.colorSpaces.push({ cs: g.map.get('CS')!, where: `group of form object ${num}` });
        }
      }
    const gs = doc.dict(res.map.get('ExtGState'));
    if (gs)
      for (const v of gs.map.values()) {
        const g = doc.dict(v);
        if (!g) continue;
        m.extGStates.add(g);
        const sm = doc.dict(g.map.get('SMask'));
        if (sm) {
          const gsForm = doc.resolve(sm.map.get('G'));
          if (isStream(gsForm) && !visitedStreams.has(gsForm)) {
            const fres = doc.dict(gsForm.dict.map.get('Resources'));
            visitResources(fres, 'soft mask', pageRes, pageIndex);
            addContent(gsForm, 'soft mask group', fres ?? res, pageRes, !fres, pageIndex, true);
          }
        }
      }
    const cs = doc.dict(res.map.get('ColorSpace'));
    if (cs) for (const [k, v] of cs.map) m.colorSpaces.push({ cs: v, where: `colour space ${k} of ${where}` });
    const sh = doc.dict(res.map.get('Shading'));
    if (sh)
      for (const v of sh.map.values()) {
        const s = doc.dict(v);
        if (s) m.shadings.add(s);
      }
    const pat = doc.dict(res.map.get('Pattern'));
    if (pat)
      for (const v of pat.map.values()) {
        const p = doc.resolve(v);
        if (isStream(p)) {
          const pres = doc.dict(p.dict.map.get('Resources'));
          visitResources(pres, 'pattern', pageRes, pageIndex);
          addContent(p, 'tiling pattern', pres ?? res, pageRes, !pres, pageIndex, true);
        } else if (isDict(p)) {
          const s = doc.dict(p.map.get('Shading'));
          if (s) m.shadings.add(s);
          const g = doc.dict(p.map.get('ExtGState'));
          if (g) m.extGStates.add(g);
        }
      }
  };
  const addContent = (
    s: PdfStreamValue,
    owner: string,
    res: PdfDictValue | undefined,
    pageRes: PdfDictValue | undefined,
    inherited: boolean,
    pageIndex: number,
    colourSet = false,
  ): void => {
    if (visitedStreams.has(s) || m.timedOut) return;
    visitedStreams.add(s);
    if (Date.now() > deadline) {
      m.timedOut = true;
      return;
    }
    const r = doc.decode(s);
    if (!r.ok) return;
    addScanned(scanContent(r.data, deadline, colourSet), owner, res, pageRes, inherited, pageIndex);
  };
  /** Record a scanned content stream and read the forms it paints. */
  const addScanned = (
    use: ContentUse,
    owner: string,
    res: PdfDictValue | undefined,
    pageRes: PdfDictValue | undefined,
    inherited: boolean,
    pageIndex: number,
  ): void => {
    if (use.error === 'time budget exceeded') m.timedOut = true;
    m.contents.push({ owner, resources: res, pageResources: pageRes, use, inherited, pageIndex });
    const xo = res ? doc.dict(res.map.get('XObject')) : undefined;
    for (const name of use.xobjects) {
      const ref = xo?.map.get(name);
      const f = doc.resolve(ref);
      if (!isStream(f) || nameOf(f.dict.map.get('Subtype')) !== 'Form') continue;
      const fres = doc.dict(f.dict.map.get('Resources'));
      addContent(f, `form object ${isRef(ref) ? ref.num : name}`, fres ?? res, pageRes, !fres, pageIndex, true);
    }
  };

  for (const p of m.pages) {
    const where = `page ${p.index}`;
    visitResources(p.resources, where, p.resources, p.index);
    const g = doc.dict(p.dict.map.get('Group'));
    if (g && g.map.has('CS')) m.colorSpaces.push({ cs: g.map.get('CS')!, where: `group of ${where}` });
    const c = doc.resolve(p.dict.map.get('Contents'));
    const streams: PdfStreamValue[] = [];
    if (isStream(c)) streams.push(c);
    else if (Array.isArray(c))
      for (const x of c) {
        const s = doc.resolve(x);
        if (isStream(s)) streams.push(s);
      }
    if (streams.length === 1) addContent(streams[0], where, p.resources, p.resources, !p.dict.map.has('Resources'), p.index);
    else if (streams.length > 1) {
      // Concatenate: content may be split anywhere between tokens.
      const parts: Uint8Array[] = [];
      let ok = true;
      for (const s of streams) {
        const r = doc.decode(s);
        if (!r.ok) ok = false;
        else parts.push(r.data, new Uint8Array([0x0a]));
      }
      if (ok)
        addScanned(scanContent(Buffer.concat(parts), deadline), where, p.resources, p.resources, !p.dict.map.has('Resources'), p.index);
    }
    // Annotations.
    const annots = doc.resolve(p.dict.map.get('Annots'));
    if (Array.isArray(annots))
      for (const a of annots) {
        const ad = doc.dict(a);
        if (!ad) continue;
        m.annotations.push({ dict: ad, page: p.index });
        const ap = doc.dict(ad.map.get('AP'));
        if (ap)
          for (const v of ap.map.values()) {
            const x = doc.resolve(v);
            const list: PdfStreamValue[] = [];
            if (isStream(x)) list.push(x);
            else if (isDict(x))
              for (const y of x.map.values()) {
                const s = doc.resolve(y);
                if (isStream(s)) list.push(s);
              }
            for (const s of list) {
              const ares = doc.dict(s.dict.map.get('Resources'));
              visitResources(ares, `annotation appearance on page ${p.index}`, p.resources, p.index);
              addContent(s, `annotation appearance on page ${p.index}`, ares, p.resources, false, p.index);
            }
          }
        for (const k of ['A', 'PA']) {
          const act = doc.dict(ad.map.get(k));
          if (act) collectActions(doc, act, `annotation on page ${p.index}`, m.actions);
        }
        const aa = doc.dict(ad.map.get('AA'));
        if (aa)
          for (const v of aa.map.values()) {
            const act = doc.dict(v);
            if (act) collectActions(doc, act, `annotation AA on page ${p.index}`, m.actions);
          }
      }
    const paa = doc.dict(p.dict.map.get('AA'));
    if (paa)
      for (const v of paa.map.values()) {
        const act = doc.dict(v);
        if (act) collectActions(doc, act, `page ${p.index} AA`, m.actions);
      }
  }
  // Catalog-level actions: OpenAction, AA, outlines, AcroForm fields.
  const open = doc.dict(catalog.map.get('OpenAction'));
  if (open && nameOf(open.map.get('S'))) collectActions(doc, open, 'catalog OpenAction', m.actions);
  const caa = doc.dict(catalog.map.get('AA'));
  if (caa)
    for (const v of caa.map.values()) {
      const act = doc.dict(v);
      if (act) collectActions(doc, act, 'catalog AA', m.actions);
    }
  const outlines = doc.dict(catalog.map.get('Outlines'));
  if (outlines) {
    const seenO = new Set<PdfDictValue>();
    const walkO = (ref: PdfValue | undefined, depth: number): void => {
      let cur = doc.dict(ref);
      while (cur && !seenO.has(cur) && seenO.size < MAX_WALK && depth < 64) {
        seenO.add(cur);
        const act = doc.dict(cur.map.get('A'));
        if (act) collectActions(doc, act, 'outline item', m.actions);
        walkO(cur.map.get('First'), depth + 1);
        cur = doc.dict(cur.map.get('Next'));
      }
    };
    walkO(outlines.map.get('First'), 0);
  }
  const acro = doc.dict(catalog.map.get('AcroForm'));
  if (acro) {
    const seenF = new Set<PdfDictValue>();
    const walkF = (arr: PdfValue, depth: number): void => {
      const a = doc.resolve(arr);
      if (!Array.isArray(a) || depth > 32) return;
      for (const f of a) {
        const fd = doc.dict(f);
        if (!fd || seenF.has(fd)) continue;
        seenF.add(fd);
        m.fields.push(fd);
        walkF(fd.map.get('Kids') ?? null, depth + 1);
      }
    };
    walkF(acro.map.get('Fields') ?? null, 0);
  }
  return m;
}

function collectActions(doc: PdfaDocument, act: PdfDictValue, where: string, out: { dict: PdfDictValue; where: string }[]): void {
  const seen = new Set<PdfDictValue>();
  const stack = [act];
  while (stack.length && seen.size < 1000) {
    const a = stack.pop()!;
    if (seen.has(a)) continue;
    seen.add(a);
    out.push({ dict: a, where });
    const next = doc.resolve(a.map.get('Next'));
    if (isDict(next)) stack.push(next);
    else if (Array.isArray(next))
      for (const n of next) {
        const d = doc.dict(n);
        if (d) stack.push(d);
      }
  }
}
