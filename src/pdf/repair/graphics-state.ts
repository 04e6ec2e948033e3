/**
 * ISO 19005-2/3 6.2.5, 6.2.6, 6.2.10: graphics-state parameters PDF/A forbids, in the ExtGState dictionaries of the
 * resources. Transfer functions (/TR, /TR2 other than /Default) and halftone details (/HTP, halftone types other than
 * 1 and 5, /HalftoneName, misplaced transfer functions) are device-dependent adjustments of printing; removing them
 * leaves the device defaults, which is what screen viewers use anyway. A non-standard rendering intent becomes
 * RelativeColorimetric (the default), a non-standard blend mode Normal.
 */
import { PDFArray, PDFName, PDFNumber, PDFRef, type PDFDocument } from '@cantoo/pdf-lib';
import type { Finding } from '../../pdfa/model.js';
import type { Repair, RepairOutcome } from './types.js';
import { dictOf, extGStates, nameIn, objectByNumber, objectNumbers, streamOf } from './walk.js';

const key = (k: string) => PDFName.of(k);
const INTENTS = new Set(['RelativeColorimetric', 'AbsoluteColorimetric', 'Perceptual', 'Saturation']);
const BLEND_MODES = new Set([
  'Normal',
  'Compatible',
  'Multiply',
  'Screen',
  'Overlay',
  'Darken',
  'Lighten',
  'ColorDodge',
  'ColorBurn',
  'HardLight',
  'SoftLight',
  'Difference',
  'Exclusion',
  'Hue',
  'Saturation',
  'Color',
  'Luminosity',
]);

/** 6.2.5-1 / 6.2.5-2: no /TR; /TR2 only as /Default (removed: Default is what its absence means). */
export function transferFunctions_6_2_5(doc: PDFDocument): RepairOutcome {
  let changed = 0;
  for (const g of extGStates(doc)) {
    if (g.has(key('TR'))) {
      g.delete(key('TR'));
      changed++;
    }
    if (g.has(key('TR2')) && nameIn(doc, g, 'TR2') !== 'Default') {
      g.delete(key('TR2'));
      changed++;
    }
  }
  return { changed };
}

/** 6.2.5-3 … 6.2.5-6: no /HTP; halftones of type 1 or 5 only, without /HalftoneName, transfer functions where ISO 32000 wants them. */
export function halftones_6_2_5(doc: PDFDocument): RepairOutcome {
  let changed = 0;
  const PRIMARY = new Set(['Cyan', 'Magenta', 'Yellow', 'Black', 'Default']);
  for (const g of extGStates(doc)) {
    if (g.has(key('HTP'))) {
      g.delete(key('HTP'));
      changed++;
    }
    const ht = dictOf(doc, g.get(key('HT')), true);
    if (!ht) continue;
    const type = ht.lookup(key('HalftoneType'));
    const t = type instanceof PDFNumber ? type.asNumber() : undefined;
    let unusable = t !== 1 && t !== 5;
    if (!unusable && t === 5)
      for (const [k, v] of ht.entries()) {
        const c = dictOf(doc, v, true);
        if (!c) continue;
        const primary = PRIMARY.has(k.decodeText());
        // A primary colourant's halftone has no transfer function: it goes. A spot colourant's needs one: the halftone goes.
        if (primary && c.has(key('TransferFunction'))) {
          c.delete(key('TransferFunction'));
          changed++;
        } else if (!primary && !c.has(key('TransferFunction'))) unusable = true;
        if (c.has(key('HalftoneName'))) {
          c.delete(key('HalftoneName'));
          changed++;
        }
      }
    if (unusable) {
      g.delete(key('HT')); // the device's own halftone
      changed++;
    } else if (ht.has(key('HalftoneName'))) {
      ht.delete(key('HalftoneName'));
      changed++;
    }
  }
  return { changed };
}

/**
 * 6.2.6-1: a non-standard rendering intent in an ExtGState (/RI) or on an image (/Intent) becomes
 * RelativeColorimetric; one set by the ri operator or on an inline image (inside a content stream) is reported.
 */
export function renderingIntents_6_2_6(doc: PDFDocument, findings: readonly Finding[]): RepairOutcome {
  let changed = 0;
  for (const g of extGStates(doc)) {
    const ri = nameIn(doc, g, 'RI');
    if (ri !== undefined && !INTENTS.has(ri)) {
      g.set(key('RI'), key('RelativeColorimetric'));
      changed++;
    }
  }
  for (const num of objectNumbers(findings)) {
    const s = streamOf(doc, objectByNumber(doc, num)?.ref);
    const intent = s ? nameIn(doc, s.dict, 'Intent') : undefined;
    if (s && intent !== undefined && !INTENTS.has(intent)) {
      s.dict.set(key('Intent'), key('RelativeColorimetric'));
      changed++;
    }
  }
  const unrepaired = findings.filter((f) => /^(ri operator|inline image)/.test(f.message));
  return { changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

/** 6.2.10-1: a blend mode ISO 32000-1 does not define becomes Normal (in an array, the first standard one is kept). */
export function blendModes_6_2_10(doc: PDFDocument): RepairOutcome {
  let changed = 0;
  for (const g of extGStates(doc)) {
    const bm = g.get(key('BM'));
    const v = bm instanceof PDFRef ? doc.context.lookup(bm) : bm;
    if (v === undefined) continue;
    const names = v instanceof PDFArray ? v.asArray() : [v];
    const standard = names.map((n) => (n instanceof PDFName ? n.decodeText() : undefined)).filter((n) => n && BLEND_MODES.has(n));
    const ok = names.length > 0 && names.every((n) => n instanceof PDFName && BLEND_MODES.has(n.decodeText()));
    if (ok) continue;
    g.set(key('BM'), key(standard[0] ?? 'Normal'));
    changed++;
  }
  return { changed };
}

/**
 * 6.2.4.2-2: overprint mode 1 (non-zero overprint, a prepress setting) goes back to 0 in ExtGStates that also turn
 * overprint on, the states under which ICCBased CMYK may not be painted with mode 1. Screen rendering ignores
 * overprint, so pages look as before; on press, zero components knock out instead of overprinting.
 */
export function overprintMode_6_2_4_2(doc: PDFDocument): RepairOutcome {
  let changed = 0;
  for (const g of extGStates(doc)) {
    const opm = g.lookup(key('OPM'));
    if (opm instanceof PDFNumber && opm.asNumber() === 1) {
      g.set(key('OPM'), PDFNumber.of(0));
      changed++;
    }
  }
  return { changed };
}

export const GRAPHICS_STATE_REPAIRS: Repair[] = [
  { name: 'overprint-mode', clauses: ['6.2.4.2-2'], apply: ({ doc }) => overprintMode_6_2_4_2(doc) },
  { name: 'transfer-functions', clauses: ['6.2.5-1', '6.2.5-2'], apply: ({ doc }) => transferFunctions_6_2_5(doc) },
  { name: 'halftones', clauses: ['6.2.5-3', '6.2.5-4', '6.2.5-5', '6.2.5-6'], apply: ({ doc }) => halftones_6_2_5(doc) },
  { name: 'rendering-intents', clauses: ['6.2.6-1'], apply: ({ doc, findings }) => renderingIntents_6_2_6(doc, findings) },
  { name: 'blend-modes', clauses: ['6.2.10-1'], apply: ({ doc }) => blendModes_6_2_10(doc) },
];
