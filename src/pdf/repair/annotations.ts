/**
 * ISO 19005-2/3 6.3: annotations. Every annotation but a Popup must print and be visible (6.3.2), and every one
 * but Popup, Link and zero-area ones must carry its own appearance, /AP with /N only (6.3.3). The repairs keep what
 * a viewer shows today: an annotation that was not displayed (Hidden, NoView) gets an empty appearance before it is
 * made visible; a missing appearance is drawn from what the annotation says where that can be done faithfully (a
 * text field's value, with the document's own embedded font), and is empty otherwise (a link draws nothing anyway).
 */
import { PDFArray, type PDFDict, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import type { Finding } from '../../pdfa/model.js';
import type { Repair, RepairOutcome } from './types.js';
import { annotations, arrayOf, dictOf, inherited, nameIn, numberIn, streamOf, type PageAnnotation } from './walk.js';

const key = (k: string) => PDFName.of(k);

// Annotation flags (ISO 32000-1 12.5.3).
const INVISIBLE = 1;
const HIDDEN = 2;
const PRINT = 4;
const NO_VIEW = 32;
const TOGGLE_NO_VIEW = 256;

function rectOf(doc: PDFDocument, annot: PDFDict): [number, number, number, number] | undefined {
  const r = arrayOf(doc, annot.get(key('Rect')));
  if (!r || r.size() !== 4) return undefined;
  const n = r.asArray().map((v) => {
    const x = v instanceof PDFRef ? doc.context.lookup(v) : v;
    return x instanceof PDFNumber ? x.asNumber() : NaN;
  });
  if (!n.every(Number.isFinite)) return undefined;
  return [Math.min(n[0], n[2]), Math.min(n[1], n[3]), Math.max(n[0], n[2]), Math.max(n[1], n[3])];
}

const describe = (a: PageAnnotation) => (a.ref ? `object ${a.ref.objectNumber}` : `page ${a.pageIndex}`);

/** A form XObject that draws `content` (nothing when empty) over the annotation's rectangle. */
function appearance(doc: PDFDocument, annot: PDFDict, content = '', resources?: PDFDict): PDFRef {
  const r = rectOf(doc, annot) ?? [0, 0, 0, 0];
  const w = Math.max(0, r[2] - r[0]);
  const h = Math.max(0, r[3] - r[1]);
  const stream = doc.context.flateStream(content, {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, 0, round(w), round(h)],
    Resources: resources ?? {},
  });
  return doc.context.register(stream);
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** 6.3.2: Print set; Hidden, Invisible, NoView and ToggleNoView cleared. An annotation not displayed gets an empty appearance first. */
export function annotationFlags_6_3_2(doc: PDFDocument): RepairOutcome {
  let changed = 0;
  for (const a of annotations(doc)) {
    const { annot } = a;
    if (nameIn(doc, annot, 'Subtype') === 'Popup') continue;
    const f = numberIn(doc, annot, 'F') ?? 0;
    const ok = (f & PRINT) !== 0 && (f & (INVISIBLE | HIDDEN | NO_VIEW | TOGGLE_NO_VIEW)) === 0;
    if (ok) continue;
    if (f & (HIDDEN | NO_VIEW)) {
      // Not shown today: it stays invisible once made printable and visible.
      if (nameIn(doc, annot, 'Subtype') === 'Widget' && fieldType(doc, annot) === 'Btn') {
        const state = nameIn(doc, annot, 'AS') ?? 'Off';
        annot.set(key('AP'), doc.context.obj({ N: doc.context.obj({ [state]: appearance(doc, annot) }) }));
        annot.set(key('AS'), key(state));
      } else annot.set(key('AP'), doc.context.obj({ N: appearance(doc, annot) }));
    }
    annot.set(key('F'), PDFNumber.of((f | PRINT) & ~(INVISIBLE | HIDDEN | NO_VIEW | TOGGLE_NO_VIEW)));
    changed++;
  }
  return { changed };
}

function fieldType(doc: PDFDocument, widget: PDFDict): string | undefined {
  const ft = inherited(doc, widget, 'FT');
  return ft instanceof PDFName ? ft.decodeText() : undefined;
}

/** 6.3.3: every annotation that needs one gets an appearance dictionary holding only /N, of the right kind. */
export function annotationAppearances_6_3_3(doc: PDFDocument): RepairOutcome {
  let changed = 0;
  const unrepaired: Finding[] = [];
  for (const a of annotations(doc)) {
    const { annot } = a;
    const subtype = nameIn(doc, annot, 'Subtype');
    const button = subtype === 'Widget' && fieldType(doc, annot) === 'Btn';
    const ap = dictOf(doc, annot.get(key('AP')));
    if (!ap) {
      if (subtype === 'Popup' || subtype === 'Link') continue;
      const r = rectOf(doc, annot);
      if (r && (r[2] - r[0]) * (r[3] - r[1]) === 0) continue;
      changed++;
      if (button) {
        // Check boxes and radio buttons: one state per value, drawn empty (the check mark needs the viewer's ZapfDingbats).
        const on = nameIn(doc, annot, 'AS');
        const states: Record<string, PDFRef> = { Off: appearance(doc, annot) };
        if (on && on !== 'Off') {
          states[on] = appearance(doc, annot);
          unrepaired.push({
            clause: '6.3.3-1',
            message: `button widget in state ${on} had no appearance; an empty one was written (its check mark is not drawn)`,
            object: describe(a),
          });
        }
        annot.set(key('AP'), doc.context.obj({ N: doc.context.obj(states) }));
        if (!on) annot.set(key('AS'), key('Off'));
        continue;
      }
      const drawn = subtype === 'Widget' ? widgetText(doc, annot) : undefined;
      if (drawn) annot.set(key('AP'), doc.context.obj({ N: appearance(doc, annot, drawn.content, drawn.resources) }));
      else {
        annot.set(key('AP'), doc.context.obj({ N: appearance(doc, annot) }));
        const value = subtype === 'Widget' ? fieldValue(doc, annot) : undefined;
        if (value || (subtype !== 'Widget' && subtype !== 'Link'))
          unrepaired.push({
            clause: '6.3.3-1',
            message: value
              ? 'text field without appearance: its value could not be drawn with an embedded font of the document, so the appearance written is empty'
              : `${subtype ?? 'untyped'} annotation without appearance: an empty appearance was written`,
            object: describe(a),
          });
      }
      continue;
    }
    // 6.3.3-2: only /N.
    for (const [k] of ap.entries())
      if (k.decodeText() !== 'N') {
        ap.delete(k);
        changed++;
      }
    const n = ap.get(key('N'));
    const nStream = streamOf(doc, n);
    const nDict = nStream ? undefined : dictOf(doc, n);
    if (button && !nDict) {
      // 6.3.3-3: a button's /N is a dictionary of states.
      const state = nameIn(doc, annot, 'AS') ?? 'Off';
      ap.set(key('N'), doc.context.obj({ [state]: nStream ? (n as PDFRef) : appearance(doc, annot) }));
      annot.set(key('AS'), key(state));
      changed++;
    } else if (!button && !nStream && n !== undefined) {
      // 6.3.3-4: anything else has one appearance stream: the state shown (/AS), else the first, else empty.
      const state = nameIn(doc, annot, 'AS');
      const chosen = nDict ? (state ? nDict.get(key(state)) : undefined) : undefined;
      const pick = streamOf(doc, chosen) ? chosen : nDict?.values().find((v) => streamOf(doc, v));
      ap.set(key('N'), pick ?? appearance(doc, annot));
      changed++;
    } else if (n === undefined) {
      ap.set(key('N'), appearance(doc, annot));
      changed++;
    }
  }
  return { changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

function fieldValue(doc: PDFDocument, widget: PDFDict): string | undefined {
  const v = inherited(doc, widget, 'V');
  if (v instanceof PDFString || v instanceof PDFHexString) return v.decodeText() || undefined;
  if (v instanceof PDFArray) {
    const first = v.lookup(0);
    if (first instanceof PDFString || first instanceof PDFHexString) return first.decodeText() || undefined;
  }
  return undefined;
}

/**
 * A text or choice field's value drawn as a viewer draws it from /DA (font, size, colour), when the font is an
 * embedded simple font of the document (AcroForm /DR) and the value fits its single-byte encoding. Undefined when
 * it cannot be drawn faithfully.
 */
function widgetText(doc: PDFDocument, widget: PDFDict): { content: string; resources: PDFDict } | undefined {
  const ft = fieldType(doc, widget);
  if (ft !== 'Tx' && ft !== 'Ch') return undefined;
  const value = fieldValue(doc, widget);
  if (!value) return undefined;
  const da = inherited(doc, widget, 'DA') ?? dictOf(doc, doc.catalog.get(key('AcroForm')))?.get(key('DA'));
  const daText = da instanceof PDFString || da instanceof PDFHexString ? da.decodeText() : '';
  const tf = /\/([^\s/()<>[\]{}%]+)\s+([\d.]+)\s+Tf/.exec(daText);
  if (!tf) return undefined;
  const dr = dictOf(doc, widget.get(key('DR'))) ?? dictOf(doc, dictOf(doc, doc.catalog.get(key('AcroForm')))?.get(key('DR')));
  const fonts = dr ? dictOf(doc, dr.get(key('Font'))) : undefined;
  const fontRef = fonts?.get(key(tf[1]));
  const font = dictOf(doc, fontRef);
  if (!font || !fontRef) return undefined;
  const subtype = nameIn(doc, font, 'Subtype');
  const fd = dictOf(doc, font.get(key('FontDescriptor')));
  const embedded = fd && ['FontFile', 'FontFile2', 'FontFile3'].some((k) => fd.has(key(k)));
  if ((subtype !== 'TrueType' && subtype !== 'Type1') || !embedded) return undefined;
  const enc = nameIn(doc, font, 'Encoding');
  if (font.has(key('Encoding')) && enc !== 'WinAnsiEncoding') return undefined;
  // WinAnsi covers Latin-1 (0xA0-0xFF) and printable ASCII; anything else is not drawn rather than drawn wrong.
  const lines = value.split(/\r\n|\r|\n/);
  if (!lines.every((l) => /^[\x20-\x7e\xa0-\xff]*$/.test(l))) return undefined;
  const r = rectOf(doc, widget);
  if (!r) return undefined;
  const h = r[3] - r[1];
  const multiline = ((inherited(doc, widget, 'Ff') as PDFNumber | undefined)?.asNumber?.() ?? 0) & 4096;
  const size = Number(tf[2]) > 0 ? Number(tf[2]) : Math.max(4, Math.min(12, (multiline ? 12 : h * 0.66) || 12));
  const colour = daText.replace(tf[0], '').trim();
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const shown = multiline ? lines : [lines.join(' ')];
  const top = multiline ? h - 2 - size : (h - size * 0.78) / 2;
  const body = shown.map((l, i) => `${i === 0 ? `2 ${round(top)} Td` : `0 ${-round(size * 1.15)} Td`} (${esc(l)}) Tj`).join(' ');
  const content = `/Tx BMC q BT ${colour ? `${colour} ` : ''}/${tf[1]} ${round(size)} Tf ${body} ET Q EMC`;
  return { content, resources: doc.context.obj({ Font: doc.context.obj({ [tf[1]]: fontRef }) }) };
}

/** Annotation types ISO 32000-1 defines that PDF/A allows (6.3.1). */
const ALLOWED_TYPES = new Set([
  'Text',
  'Link',
  'FreeText',
  'Line',
  'Square',
  'Circle',
  'Polygon',
  'PolyLine',
  'Highlight',
  'Underline',
  'Squiggly',
  'StrikeOut',
  'Stamp',
  'Caret',
  'Ink',
  'Popup',
  'FileAttachment',
  'Widget',
  'PrinterMark',
  'TrapNet',
  'Watermark',
  'Redact',
]);

/**
 * 6.3.1-1: annotations of a type PDF/A forbids (3D, Sound, Screen, Movie, RichMedia) or ISO 32000-1 does not
 * define are taken off their page: they play media or need a handler a PDF/A reader does not have. What such an
 * annotation drew (a poster frame in its appearance) goes with it, and is reported.
 */
export function annotationTypes_6_3_1(doc: PDFDocument): RepairOutcome {
  let changed = 0;
  const unrepaired: Finding[] = [];
  const removed = new Set<PDFDict>();
  for (const a of annotations(doc)) {
    const subtype = nameIn(doc, a.annot, 'Subtype');
    if (subtype && ALLOWED_TYPES.has(subtype)) continue;
    removed.add(a.annot);
    if (a.annot.has(key('AP')))
      unrepaired.push({
        clause: '6.3.1-1',
        message: `${subtype ?? 'untyped'} annotation removed with its appearance`,
        object: describe(a),
      });
  }
  if (removed.size === 0) return { changed: 0 };
  for (const page of new Set(annotations(doc).map((a) => a.page))) {
    const list = arrayOf(doc, page.get(key('Annots')));
    if (!list) continue;
    for (let i = list.size() - 1; i >= 0; i--) {
      const d = dictOf(doc, list.get(i));
      if (d && removed.has(d)) {
        list.remove(i);
        changed++;
      }
    }
  }
  return { changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

export const ANNOTATION_REPAIRS: Repair[] = [
  { name: 'annotation-types', clauses: ['6.3.1-1'], apply: ({ doc }) => annotationTypes_6_3_1(doc) },
  { name: 'annotation-flags', clauses: ['6.3.2-1', '6.3.2-2'], apply: ({ doc }) => annotationFlags_6_3_2(doc) },
  {
    name: 'annotation-appearances',
    clauses: ['6.3.3-1', '6.3.3-2', '6.3.3-3', '6.3.3-4'],
    apply: ({ doc }) => annotationAppearances_6_3_3(doc),
  },
];
