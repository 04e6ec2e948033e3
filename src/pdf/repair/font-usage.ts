/**
 * Which character codes each font shows: every content stream that can draw text is read — pages, the form
 * XObjects they paint (nested), tiling patterns, Type 3 glyph procedures and annotation appearances — and the
 * strings of Tj, TJ, ' and " are charged to the font that Tf selected. Bounded: each stream once, at most
 * MAX_STREAMS streams and MAX_SCANNED_BYTES decoded bytes, and the caller's deadline; when a bound cuts the walk
 * short the result says so (`complete: false`), and a repair must then not subset to what was seen.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import type { PdfValue } from '../lazy.js';
import { isOp, Lexer, LexError } from '../../pdfa/lexer.js';
import { MAX_DECODED_BYTES } from '../limits.js';
import { applyFilters, decodeParms, FilterError, type FilterStep } from '../filters.js';

export const MAX_STREAMS = 20_000;
export const MAX_SCANNED_BYTES = 256 * 1024 * 1024;
const MAX_DEPTH = 32;

export interface FontUse {
  /** Codes shown: bytes for simple fonts, 2-byte codes for Type 0 fonts. */
  codes: Set<number>;
  /** A shown string of a Type 0 font had an odd length (its last byte selects nothing). */
  oddLength: boolean;
}

export interface FontUsage {
  fonts: Map<PDFDict, FontUse>;
  /** Every stream was read to its end within the bounds. */
  complete: boolean;
}

const N = (n: string) => PDFName.of(n);

function resolve(doc: PDFDocument, v: PDFObject | undefined): PDFObject | undefined {
  return v instanceof PDFRef ? doc.context.lookup(v) : v;
}

function dictOf(doc: PDFDocument, v: PDFObject | undefined): PDFDict | undefined {
  const x = resolve(doc, v);
  return x instanceof PDFDict ? x : undefined;
}

/** A stream's decoded bytes (bounded: at most `cap` bytes, else undefined); undefined when it cannot be decoded. */
export function streamBytes(doc: PDFDocument, stream: PDFStream, cap = MAX_DECODED_BYTES): Uint8Array | undefined {
  try {
    if (!(stream instanceof PDFRawStream)) return stream.getContents();
    const filter = resolve(doc, stream.dict.get(N('Filter')));
    const names = filter === undefined ? [] : filter instanceof PDFArray ? filter.asArray().map((f) => resolve(doc, f)) : [filter];
    const parmsRaw = resolve(doc, stream.dict.get(N('DecodeParms')));
    const steps: FilterStep[] = names.map((f, i) => {
      if (!(f instanceof PDFName)) throw new FilterError('bad /Filter');
      const p = parmsRaw instanceof PDFArray ? resolve(doc, parmsRaw.get(i)) : i === 0 ? parmsRaw : undefined;
      if (!(p instanceof PDFDict)) return { name: f.decodeText() };
      const num = (k: string): number | undefined => {
        const v = resolve(doc, p.get(N(k)));
        return v instanceof PDFNumber ? v.asNumber() : undefined;
      };
      return { name: f.decodeText(), parms: decodeParms(num) };
    });
    if (steps.length === 0) return stream.contents.length <= cap ? stream.contents : undefined;
    return applyFilters(stream.contents, steps, cap, { lenientFlate: true });
  } catch {
    return undefined; // an unknown filter, broken data or past the cap
  }
}

export function scanFontUsage(doc: PDFDocument, deadline: number): FontUsage {
  const fonts = new Map<PDFDict, FontUse>();
  const seen = new Set<PDFObject>();
  let streams = 0;
  let bytes = 0;
  let complete = true;

  const useOf = (font: PDFDict): FontUse => {
    let u = fonts.get(font);
    if (!u) fonts.set(font, (u = { codes: new Set(), oddLength: false }));
    return u;
  };

  const read = (s: PDFStream): Uint8Array | undefined => {
    if (++streams > MAX_STREAMS || Date.now() > deadline) {
      complete = false;
      return undefined;
    }
    const data = streamBytes(doc, s);
    if (!data) {
      complete = false;
      return undefined;
    }
    bytes += data.length;
    if (bytes > MAX_SCANNED_BYTES) {
      complete = false;
      return undefined;
    }
    return data;
  };

  const scanForm = (v: PDFObject | undefined, inherited: PDFDict | undefined, depth: number): void => {
    const s = resolve(doc, v);
    if (!(s instanceof PDFStream) || seen.has(s)) return;
    seen.add(s);
    const data = read(s);
    if (data) scan([data], dictOf(doc, s.dict.get(N('Resources'))) ?? inherited, depth);
  };

  const scan = (parts: Uint8Array[], res: PDFDict | undefined, depth: number): void => {
    if (depth > MAX_DEPTH) {
      complete = false;
      return;
    }
    const fontRes = res ? dictOf(doc, res.get(N('Font'))) : undefined;
    const xobjRes = res ? dictOf(doc, res.get(N('XObject'))) : undefined;
    // Tiling patterns can draw text; they are read once with their own resources.
    const patterns = res ? dictOf(doc, res.get(N('Pattern'))) : undefined;
    if (patterns) for (const [, p] of patterns.entries()) scanForm(p, undefined, depth + 1);
    for (const data of parts) {
      if (!complete && Date.now() > deadline) return;
      if (!scanContent(data, fontRes, xobjRes, res, depth)) complete = false;
    }
  };

  /** One content stream; false when it could not be read to its end. */
  const scanContent = (
    data: Uint8Array,
    fontRes: PDFDict | undefined,
    xobjRes: PDFDict | undefined,
    res: PDFDict | undefined,
    depth: number,
  ): boolean => {
    const lx = new Lexer(data, 0, data.length);
    lx.ops = true;
    const operands: PdfValue[] = [];
    let font: PDFDict | undefined;
    let twoByte = false;
    let count = 0;
    try {
      while (!lx.atEnd()) {
        if ((++count & 4095) === 0 && Date.now() > deadline) return false;
        const v = lx.value();
        if (!isOp(v)) {
          if (operands.length < 64) operands.push(v);
          continue;
        }
        switch (v.op) {
          case 'Tf': {
            const n = operands[operands.length - 2];
            const name = n && typeof n === 'object' && !Array.isArray(n) && n.kind === 'name' ? n.name : undefined;
            font = name && fontRes ? dictOf(doc, fontRes.get(N(name))) : undefined;
            twoByte = font !== undefined && resolve(doc, font.get(N('Subtype'))) === N('Type0');
            if (font && resolve(doc, font.get(N('Subtype'))) === N('Type3') && !seen.has(font)) {
              seen.add(font);
              const procs = dictOf(doc, font.get(N('CharProcs')));
              const own = dictOf(doc, font.get(N('Resources'))) ?? res;
              if (procs) for (const [, p] of procs.entries()) scanForm(p, own, depth + 1);
            }
            break;
          }
          case 'Tj':
          case 'TJ':
          case "'":
          case '"': {
            if (!font) break;
            const u = useOf(font);
            const last = operands[operands.length - 1];
            for (const x of Array.isArray(last) ? last : [last]) {
              if (!(x && typeof x === 'object' && !Array.isArray(x) && x.kind === 'string')) continue;
              const b = x.bytes;
              if (twoByte) {
                if (b.length % 2 === 1) u.oddLength = true;
                for (let i = 0; i + 1 < b.length; i += 2) u.codes.add((b[i] << 8) | b[i + 1]);
              } else for (const c of b) u.codes.add(c);
            }
            break;
          }
          case 'Do': {
            const n = operands[operands.length - 1];
            if (xobjRes && n && typeof n === 'object' && !Array.isArray(n) && n.kind === 'name') {
              const x = resolve(doc, xobjRes.get(N(n.name)));
              if (x instanceof PDFStream && resolve(doc, x.dict.get(N('Subtype'))) === N('Form')) scanForm(x, res, depth + 1);
            }
            break;
          }
          case 'BI':
            skipInlineImage(lx);
            break;
        }
        operands.length = 0;
      }
    } catch (err) {
      if (err instanceof LexError) return false;
      throw err;
    }
    return true;
  };

  // Pages, then their annotations' appearances.
  for (const page of doc.getPages()) {
    if (Date.now() > deadline) {
      complete = false;
      break;
    }
    const node = page.node;
    const res = pageResources(doc, node);
    const contents = resolve(doc, node.get(N('Contents')));
    const parts: Uint8Array[] = [];
    const list = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
    for (const c of list) {
      const s = resolve(doc, c);
      if (!(s instanceof PDFStream)) continue;
      const data = read(s);
      if (data) parts.push(data);
    }
    // A page's content streams form one stream (a string may not span them, but a Tf may).
    if (parts.length > 1) {
      const total = parts.reduce((n, p) => n + p.length + 1, 0);
      const joined = new Uint8Array(total);
      let at = 0;
      for (const p of parts) {
        joined.set(p, at);
        joined[at + p.length] = 0x0a;
        at += p.length + 1;
      }
      scan([joined], res, 0);
    } else scan(parts, res, 0);

    const annots = resolve(doc, node.get(N('Annots')));
    if (!(annots instanceof PDFArray)) continue;
    for (let i = 0; i < annots.size() && i < 10_000; i++) {
      const annot = dictOf(doc, annots.get(i));
      const ap = annot ? dictOf(doc, annot.get(N('AP'))) : undefined;
      if (!ap) continue;
      for (const key of ['N', 'R', 'D']) {
        const a = resolve(doc, ap.get(N(key)));
        if (a instanceof PDFStream) scanForm(a, undefined, 1);
        else if (a instanceof PDFDict) for (const [, state] of a.entries()) scanForm(state, undefined, 1);
      }
    }
  }
  return { fonts, complete };
}

function pageResources(doc: PDFDocument, page: PDFDict): PDFDict | undefined {
  let node: PDFDict | undefined = page;
  for (let depth = 0; node && depth < 64; depth++) {
    const res = dictOf(doc, node.get(N('Resources')));
    if (res) return res;
    node = dictOf(doc, node.get(N('Parent')));
  }
  return undefined;
}

/** After BI: the image dictionary up to ID, then the data up to an EI between white space. */
function skipInlineImage(lx: Lexer): void {
  for (let n = 0; n < 256; n++) {
    const k = lx.value();
    if (isOp(k)) {
      if (k.op !== 'ID') throw new LexError('bad inline image');
      break;
    }
  }
  const b = lx.b;
  const ws = (c: number | undefined) => c === undefined || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0;
  for (let p = lx.pos + 1; p + 1 < lx.end; p++) {
    if (b[p] === 0x45 && b[p + 1] === 0x49 && ws(b[p - 1]) && (p + 2 >= lx.end || ws(b[p + 2]))) {
      lx.pos = p + 2;
      return;
    }
  }
  lx.pos = lx.end;
}
