/**
 * A light content-stream walk for the PDF/A checker: which operators appear, how deep q/Q nests, which
 * colour spaces, fonts, XObjects and shadings are used (and with which text rendering mode), and the
 * inline images. No rendering, no geometry.
 */
import type { PdfDictValue, PdfValue } from '../pdf/lazy.js';
import { isDict } from '../pdf/lazy.js';
import { isOp, Lexer, LexError, type LexFact } from './lexer.js';

export interface ContentUse {
  ops: Set<string>;
  undefinedOps: Set<string>;
  maxQDepth: number;
  /** Colour space names set by cs/CS (resource names or device family names). */
  csNames: Set<string>;
  /** Colour space names set for filling (cs) and for stroking (CS). */
  csFill: Set<string>;
  csStroke: Set<string>;
  /** Painting happened while the fill/stroke colour was still the initial DeviceGray. */
  defaultGrayFill: boolean;
  defaultGrayStroke: boolean;
  /** Distinct painting states: colour space name set by cs/CS (or '' ), ExtGStates applied in order, fill or stroke. */
  paints: Map<string, { fill: boolean; cs: string; gs: string[] }>;
  /** Device families used by the inherent-colour operators: RGB (rg/RG), CMYK (k/K), Gray (g/G). */
  inherent: Set<'RGB' | 'CMYK' | 'Gray'>;
  /** Font resource names used by Tf, with whether text was drawn while not invisible (Tr != 3). */
  fonts: Map<string, { visible: boolean }>;
  /** Bytes of the strings shown with each font resource (for glyph, width and .notdef checks); capped. */
  shown: Map<string, Uint8Array[]>;
  xobjects: Set<string>;
  shadings: Set<string>;
  extGStates: Set<string>;
  renderingIntents: Set<string>;
  inlineImages: PdfDictValue[];
  facts: LexFact[];
  error?: string;
}

const OPS =
  'b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i ID j J K k l m M MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf TJ Tj TL Tm Tr Ts Tw Tz v w W W* y \' "';
export const CONTENT_OPERATORS = new Set(OPS.split(' '));

const INLINE_ABBREV: Record<string, string> = {
  BPC: 'BitsPerComponent',
  CS: 'ColorSpace',
  D: 'Decode',
  DP: 'DecodeParms',
  F: 'Filter',
  H: 'Height',
  IM: 'ImageMask',
  I: 'Interpolate',
  W: 'Width',
  L: 'Length',
};

/** `colourSet`: the caller's colour state is unknown (forms, glyphs): do not report the initial gray. */
export function scanContent(data: Uint8Array, deadline: number, colourSet = false): ContentUse {
  const use: ContentUse = {
    ops: new Set(),
    undefinedOps: new Set(),
    maxQDepth: 0,
    csNames: new Set(),
    csFill: new Set(),
    csStroke: new Set(),
    defaultGrayFill: false,
    defaultGrayStroke: false,
    paints: new Map(),
    inherent: new Set(),
    fonts: new Map(),
    shown: new Map(),
    xobjects: new Set(),
    shadings: new Set(),
    extGStates: new Set(),
    renderingIntents: new Set(),
    inlineImages: [],
    facts: [],
  };
  const lx = new Lexer(data, 0, data.length, use.facts);
  lx.ops = true;
  const operands: PdfValue[] = [];
  let depth = 0;
  let bx = 0;
  let tr = 0;
  let font: string | undefined;
  let count = 0;
  let fillSet = colourSet;
  let strokeSet = colourSet;
  let fillCs = '';
  let strokeCs = '';
  let gsList: string[] = [];
  const stack: [boolean, boolean, string, string, string[]][] = [];
  const record = (fill: boolean, cs: string): void => {
    if (!cs || gsList.length === 0 || use.paints.size >= 256) return;
    const key = `${fill ? 'f' : 's'}|${cs}|${gsList.join(',')}`;
    if (!use.paints.has(key)) use.paints.set(key, { fill, cs, gs: [...gsList] });
  };
  const paint = (fill: boolean, stroke: boolean): void => {
    if (fill && !fillSet) use.defaultGrayFill = true;
    if (stroke && !strokeSet) use.defaultGrayStroke = true;
    if (fill) record(true, fillCs);
    if (stroke) record(false, strokeCs);
  };
  try {
    while (!lx.atEnd()) {
      if ((++count & 4095) === 0 && Date.now() > deadline) {
        use.error = 'time budget exceeded';
        return use;
      }
      const v = lx.value();
      if (!isOp(v)) {
        if (operands.length < 64) operands.push(v);
        continue;
      }
      const op = v.op;
      use.ops.add(op);
      if (!CONTENT_OPERATORS.has(op) && bx === 0) use.undefinedOps.add(op);
      else if (!CONTENT_OPERATORS.has(op)) use.undefinedOps.add(op); // PDF/A: undefined even inside BX/EX
      switch (op) {
        case 'q':
          if (stack.length < 1000) stack.push([fillSet, strokeSet, fillCs, strokeCs, gsList]);
          depth++;
          if (depth > use.maxQDepth) use.maxQDepth = depth;
          break;
        case 'Q':
          if (depth > 0) depth--;
          if (stack.length) [fillSet, strokeSet, fillCs, strokeCs, gsList] = stack.pop()!;
          break;
        case 'f':
        case 'F':
        case 'f*':
          paint(true, false);
          break;
        case 'S':
        case 's':
          paint(false, true);
          break;
        case 'B':
        case 'B*':
        case 'b':
        case 'b*':
          paint(true, true);
          break;
        case 'BX':
          bx++;
          break;
        case 'EX':
          if (bx > 0) bx--;
          break;
        case 'rg':
        case 'k':
        case 'g':
          use.inherent.add(op === 'rg' ? 'RGB' : op === 'k' ? 'CMYK' : 'Gray');
          fillSet = true;
          fillCs = '';
          break;
        case 'RG':
        case 'K':
        case 'G':
          use.inherent.add(op === 'RG' ? 'RGB' : op === 'K' ? 'CMYK' : 'Gray');
          strokeSet = true;
          strokeCs = '';
          break;
        case 'cs':
        case 'CS': {
          const n = operands[operands.length - 1];
          if (n && typeof n === 'object' && !Array.isArray(n) && n.kind === 'name') {
            use.csNames.add(n.name);
            (op === 'cs' ? use.csFill : use.csStroke).add(n.name);
            if (op === 'cs') fillCs = n.name;
            else strokeCs = n.name;
          }
          if (op === 'cs') fillSet = true;
          else strokeSet = true;
          break;
        }
        case 'Tf': {
          const n = operands[operands.length - 2];
          if (n && typeof n === 'object' && !Array.isArray(n) && n.kind === 'name') font = n.name;
          break;
        }
        case 'Tr': {
          const n = operands[operands.length - 1];
          if (typeof n === 'number') tr = n;
          break;
        }
        case 'Tj':
        case 'TJ':
        case "'":
        case '"':
          if (font !== undefined) {
            const e = use.fonts.get(font) ?? { visible: false };
            if (tr !== 3) e.visible = true;
            use.fonts.set(font, e);
            const list = use.shown.get(font) ?? [];
            if (list.length < 2000) {
              const last = operands[operands.length - 1];
              const strings = Array.isArray(last) ? last : [last];
              for (const x of strings) if (x && typeof x === 'object' && !Array.isArray(x) && x.kind === 'string') list.push(x.bytes);
              use.shown.set(font, list);
            }
          }
          paint(tr === 0 || tr === 2 || tr === 4 || tr === 6, tr === 1 || tr === 2 || tr === 5 || tr === 6);
          break;
        case 'Do': {
          const n = operands[operands.length - 1];
          if (n && typeof n === 'object' && !Array.isArray(n) && n.kind === 'name') use.xobjects.add(n.name);
          break;
        }
        case 'sh': {
          const n = operands[operands.length - 1];
          if (n && typeof n === 'object' && !Array.isArray(n) && n.kind === 'name') use.shadings.add(n.name);
          break;
        }
        case 'gs': {
          const n = operands[operands.length - 1];
          if (n && typeof n === 'object' && !Array.isArray(n) && n.kind === 'name') {
            use.extGStates.add(n.name);
            if (gsList.length < 16) gsList = [...gsList, n.name];
          }
          break;
        }
        case 'ri': {
          const n = operands[operands.length - 1];
          if (n && typeof n === 'object' && !Array.isArray(n) && n.kind === 'name') use.renderingIntents.add(n.name);
          break;
        }
        case 'BI':
          readInlineImage(lx, use);
          break;
      }
      operands.length = 0;
    }
  } catch (err) {
    if (err instanceof LexError) use.error = err.message;
    else throw err;
  }
  return use;
}

function readInlineImage(lx: Lexer, use: ContentUse): void {
  const map = new Map<string, PdfValue>();
  for (;;) {
    const k = lx.value();
    if (isOp(k)) {
      if (k.op !== 'ID') throw new LexError('bad inline image');
      break;
    }
    if (!(k && typeof k === 'object' && !Array.isArray(k) && k.kind === 'name')) throw new LexError('bad inline image key');
    const v = lx.value();
    if (isOp(v)) throw new LexError('bad inline image value');
    map.set(INLINE_ABBREV[k.name] ?? k.name, v);
  }
  const dict: PdfDictValue = { kind: 'dict', map };
  use.inlineImages.push(dict);
  const len = map.get('Length');
  lx.pos = inlineImageEnd(lx.b, lx.pos, lx.end, typeof len === 'number' ? len : undefined);
}

/**
 * Where an inline image's data ends: `pos` is just after the ID operator; the answer is just after the "EI" that
 * closes the data (preceded by white space and followed by white space or the end), or `end` when there is none.
 * With a /Length (/L) the search starts after that many bytes. The repairs that edit content streams skip inline
 * image data with this same function, so they and the checker agree on where an image ends.
 */
export function inlineImageEnd(b: Uint8Array, pos: number, end: number, length?: number): number {
  let p = pos + 1;
  if (length !== undefined && length >= 0) p = Math.min(end, p + length);
  for (; p + 1 < end; p++) {
    if (b[p] === 0x45 && b[p + 1] === 0x49 && (p === 0 || isWs(b[p - 1])) && (p + 2 >= end || isWs(b[p + 2]))) return p + 2;
  }
  return end;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
}

export function isDictValue(v: PdfValue | undefined): v is PdfDictValue {
  return isDict(v);
}
