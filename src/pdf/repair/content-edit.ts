/**
 * Editing a content stream without redrawing it: the stream is tokenised with the checker's lexer
 * (src/pdfa/lexer.ts) in content mode, the byte ranges of the few values to change are collected, and the stream
 * is written again with just those bytes replaced. Every other byte (operators, operands, spacing, comments, inline
 * image data) stays as it was. Inline image data is skipped exactly as the checker skips it (inlineImageEnd), so the
 * repair and the checker agree on where an image ends.
 *
 * Bounded: one pass over the bytes, the caller's deadline looked at every 4,096 tokens, and a stream the lexer
 * cannot read to its end (a broken string, an inline image without ID) is left unchanged and said so.
 */
import { deflateSync } from 'node:zlib';
import { PDFName, PDFRawStream, type PDFStream } from '@cantoo/pdf-lib';
import type { PdfValue } from '../lazy.js';
import { inlineImageEnd } from '../../pdfa/content.js';
import { isOp, Lexer, LexError } from '../../pdfa/lexer.js';

/** The full key of an abbreviated inline-image key (ISO 32000-1 Table 93). */
const INLINE_KEYS: Record<string, string> = {
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

/**
 * What to write instead of an inline image's value: called with the key's full name (`Interpolate` for `/I`) and
 * the value read; answers the replacement text, or undefined to keep the value.
 */
export type InlineImageEditor = (key: string, value: PdfValue) => string | undefined;

export type EditResult = { ok: true; data: Uint8Array; edits: number } | { ok: false; reason: string };

/** Apply `editor` to every inline image dictionary of a decoded content stream. */
export function editInlineImages(data: Uint8Array, editor: InlineImageEditor, deadline: number): EditResult {
  const edits: { from: number; to: number; text: string }[] = [];
  const lx = new Lexer(data, 0, data.length);
  lx.ops = true;
  let count = 0;
  try {
    while (!lx.atEnd()) {
      if ((++count & 4095) === 0 && Date.now() > deadline) return { ok: false, reason: 'the time budget ran out' };
      const v = lx.value();
      if (!isOp(v) || v.op !== 'BI') continue;
      let length: number | undefined;
      for (;;) {
        const k = lx.value();
        if (isOp(k)) {
          if (k.op !== 'ID') return { ok: false, reason: `an inline image's dictionary ends with ${k.op}, not ID` };
          break;
        }
        if (!(k && typeof k === 'object' && !Array.isArray(k) && k.kind === 'name'))
          return { ok: false, reason: 'an inline image has a key that is not a name' };
        lx.skipWs();
        const from = lx.pos;
        const value = lx.value();
        if (isOp(value)) return { ok: false, reason: 'an inline image key has no value' };
        const key = INLINE_KEYS[k.name] ?? k.name;
        if (key === 'Length' && typeof value === 'number') length = value;
        const text = editor(key, value);
        if (text !== undefined) edits.push({ from, to: lx.pos, text });
      }
      lx.pos = inlineImageEnd(data, lx.pos, data.length, length);
    }
  } catch (err) {
    if (err instanceof LexError) return { ok: false, reason: `the content stream cannot be read (${err.message})` };
    throw err;
  }
  if (edits.length === 0) return { ok: true, data, edits: 0 };
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const e of edits) {
    parts.push(data.subarray(at, e.from), Buffer.from(e.text, 'latin1'));
    at = e.to;
  }
  parts.push(data.subarray(at));
  return { ok: true, data: Buffer.concat(parts), edits: edits.length };
}

/**
 * Write decoded content into a stream object, Flate-compressed: its other dictionary entries stay, its filters and
 * their parameters become /FlateDecode alone.
 */
export function replaceStreamData(stream: PDFStream, data: Uint8Array): void {
  if (!(stream instanceof PDFRawStream)) throw new Error('not a raw stream');
  stream.updateContents(deflateSync(data));
  stream.dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
  stream.dict.delete(PDFName.of('DecodeParms'));
}
