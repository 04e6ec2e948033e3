/**
 * Tier 3 of reading a PDF (see extract.ts): for files the structured parsers cannot open, scan
 * "n g obj … stream … endstream" in the raw bytes for embedded-file streams.
 */
import { attachmentContent, isPdf, limitError, PdfReadError, userReason, type PdfAttachment, type PdfContents } from './contents.js';
import { isDict, parseValueAt } from './lazy.js';
import { DecodeBudget, MAX_NAME_TREE_NODES, PdfLimitError } from './limits.js';
import { firstAtLeast, positions, scanObjects, type ScannedObject } from './scan.js';
import type { PdfStreamValue } from './values.js';

/** Dictionary text of a scanned object is read no further than this (a dictionary is far shorter). */
const MAX_DICT_TEXT = 64 * 1024;

/**
 * The last resort: embedded-file streams found in the raw bytes.
 * Linear: one scan indexes every object (./scan.ts); each object's dictionary text is bounded; decoding
 * goes through the same capped filters and the same per-request budget as every other reader.
 */
export function recoverByScanning(bytes: Uint8Array, cause: Error, budget = new DecodeBudget(), scanned?: ScannedObject[]): PdfContents {
  if (!isPdf(bytes)) throw new PdfReadError('PDF_UNREADABLE', 'The file is not a PDF');
  let list: ScannedObject[];
  try {
    list = scanned ?? scanObjects(bytes);
  } catch (err) {
    if (err instanceof PdfLimitError) throw limitError(err);
    throw err;
  }
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  // Last definition wins, as with incremental updates.
  const key = (num: number, gen: number) => num * 100_000 + gen; // gen has at most 5 digits
  const objects = new Map<number, ScannedObject>();
  for (const o of list) objects.set(key(o.num, o.gen), o);
  const dictText = (o: ScannedObject) => buf.toString('latin1', o.start, Math.min(o.dictEnd, o.start + MAX_DICT_TEXT));
  const attachments: PdfAttachment[] = [];
  // Cheap test first (one more linear pass): most objects have no /EF, and their text need not be made.
  const efAt = positions(buf, '/EF');
  for (const [, obj] of objects) {
    const at = firstAtLeast(efAt, obj.start);
    if (at === undefined || at >= Math.min(obj.dictEnd, obj.start + MAX_DICT_TEXT)) continue;
    const dict = dictText(obj);
    const ef = /\/EF\s*<<[^>]*?\/(?:UF|F)\s+(\d{1,10})\s+(\d{1,5})\s+R/.exec(dict);
    if (!ef) continue;
    const target = objects.get(key(Number(ef[1]), Number(ef[2])));
    if (!target || target.streamStart === undefined || target.streamEnd === undefined) continue;
    if (attachments.length >= MAX_NAME_TREE_NODES)
      throw limitError(new PdfLimitError(`The PDF has more than ${MAX_NAME_TREE_NODES.toLocaleString('en')} attachments`));
    const filename =
      literalString(/\/UF\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)/.exec(dict)?.[1]) ??
      literalString(/\/F\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)/.exec(dict)?.[1]) ??
      '';
    const targetDict = parseValueAt(bytes, target.start, target.dictEnd);
    const targetText = dictText(target);
    const stream: PdfStreamValue = {
      kind: 'stream',
      dict: isDict(targetDict) ? targetDict : { kind: 'dict', map: new Map() },
      raw: bytes.subarray(target.streamStart, target.streamEnd),
    };
    attachments.push({
      name: filename,
      filename,
      mimeType: /\/Subtype\s*\/([^\s/<>[\]]+)/.exec(targetText)?.[1]?.replace(/#2F/gi, '/'),
      afRelationship: /\/AFRelationship\s*\/(\w+)/.exec(dict)?.[1],
      inNameTree: false,
      inAssociatedFiles: false,
      // Lenient Flate: a recovered stream may run past its real end up to "endstream".
      ...attachmentContent(stream, budget, true),
    });
  }
  if (attachments.length === 0 && objects.size === 0) {
    throw new PdfReadError('PDF_UNREADABLE', `The PDF could not be read: ${userReason(cause)}`);
  }
  return { attachments, recovered: true };
}

/** Decode a PDF string token: (literal) with escapes, or <hex>; UTF-16BE when it starts with a BOM. */
function literalString(token: string | undefined): string | undefined {
  if (!token) return undefined;
  const bytes: number[] = [];
  if (token.startsWith('<')) {
    const hex = token.slice(1, -1).replace(/\s+/g, '');
    for (let i = 0; i + 1 < hex.length; i += 2) bytes.push(parseInt(hex.slice(i, i + 2), 16));
  } else {
    const body = token.slice(1, -1);
    for (let i = 0; i < body.length; i++) {
      const c = body[i];
      if (c !== '\\') {
        bytes.push(c.charCodeAt(0));
        continue;
      }
      const n = body[++i];
      const map: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
      if (n in map) bytes.push(map[n]);
      else if (/[0-7]/.test(n)) {
        const oct = /^[0-7]{1,3}/.exec(body.slice(i, i + 3))![0];
        bytes.push(parseInt(oct, 8));
        i += oct.length - 1;
      }
    }
  }
  const arr = Uint8Array.from(bytes);
  if (arr[0] === 0xfe && arr[1] === 0xff) return new TextDecoder('utf-16be').decode(arr.subarray(2));
  // Not String.fromCharCode(...bytes): a long name overflowed the stack with one argument per byte.
  return Buffer.from(arr).toString('latin1');
}
