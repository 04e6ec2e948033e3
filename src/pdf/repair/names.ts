/**
 * ISO 19005-2/3 6.1.8: font names (/BaseFont, /FontName) and colourant names (Separation, DeviceN and their
 * /Colorants keys) are valid UTF-8 once #xx escapes are expanded. Names written in a single-byte code page (e.g.
 * "Zapf Dingbats ITC" with a Windows-1252 ™) are re-encoded as UTF-8 of the same characters (bytes read as
 * Latin-1). The mapping is one function of the bytes, so every occurrence of a colourant gets the same new name.
 */
import { type PDFArray, type PDFDict, PDFName, PDFRef, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import type { Repair, RepairOutcome } from './types.js';
import { arrayOf, dictOf, resourceDicts, streamOf } from './walk.js';

const key = (k: string) => PDFName.of(k);
const utf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The name re-encoded as UTF-8 when it is not (its bytes taken as Latin-1), else undefined. */
export function utf8Name(n: PDFName): PDFName | undefined {
  const bytes = n.asBytes();
  if (isUtf8(bytes)) return undefined;
  const text = Buffer.from(bytes).toString('latin1');
  return PDFName.of(Buffer.from(text, 'utf8').toString('latin1'));
}

export function utf8Names_6_1_8(doc: PDFDocument): RepairOutcome {
  let changed = 0;
  const fix = (d: PDFDict, k: string): void => {
    const v = d.get(key(k));
    if (!(v instanceof PDFName)) return;
    const renamed = utf8Name(v);
    if (renamed) {
      d.set(key(k), renamed);
      changed++;
    }
  };
  const fixArrayItem = (a: PDFArray, i: number): void => {
    const v = a.get(i);
    if (!(v instanceof PDFName)) return;
    const renamed = utf8Name(v);
    if (renamed) {
      a.set(i, renamed);
      changed++;
    }
  };
  const fonts = new Set<PDFDict>();
  const spaces = new Set<PDFArray>();
  const collectSpace = (v: PDFObject | undefined, depth = 0): void => {
    const a = arrayOf(doc, v);
    if (!a || spaces.has(a) || depth > 8) return;
    spaces.add(a);
    const family = a.get(0);
    const fam = family instanceof PDFName ? family.decodeText() : '';
    if (fam === 'Separation' || fam === 'DeviceN') {
      const attrs = dictOf(doc, a.get(4));
      const colorants = attrs ? dictOf(doc, attrs.get(key('Colorants'))) : undefined;
      if (colorants) for (const [, c] of colorants.entries()) collectSpace(c, depth + 1);
    }
    if (fam === 'Indexed') collectSpace(a.get(1), depth + 1);
  };
  for (const { res } of resourceDicts(doc)) {
    const fd = dictOf(doc, res.get(key('Font')));
    if (fd)
      for (const [, f] of fd.entries()) {
        const font = dictOf(doc, f);
        if (!font) continue;
        fonts.add(font);
        const desc = arrayOf(doc, font.get(key('DescendantFonts')));
        if (desc) for (const x of desc.asArray()) if (dictOf(doc, x)) fonts.add(dictOf(doc, x)!);
      }
    const cs = dictOf(doc, res.get(key('ColorSpace')));
    if (cs) for (const [, v] of cs.entries()) collectSpace(v);
    const xo = dictOf(doc, res.get(key('XObject')));
    if (xo) for (const [, v] of xo.entries()) collectSpace(streamOf(doc, v)?.dict.get(key('ColorSpace')));
    const sh = dictOf(doc, res.get(key('Shading')));
    if (sh) for (const [, v] of sh.entries()) collectSpace(dictOf(doc, v, true)?.get(key('ColorSpace')));
  }
  for (const font of fonts) {
    fix(font, 'BaseFont');
    const fd = dictOf(doc, font.get(key('FontDescriptor')));
    if (fd) fix(fd, 'FontName');
  }
  for (const a of spaces) {
    const fam = a.get(0) instanceof PDFName ? (a.get(0) as PDFName).decodeText() : '';
    if (fam === 'Separation') fixArrayItem(a, 1);
    if (fam === 'DeviceN') {
      const names = arrayOf(doc, a.get(1));
      if (names) for (let i = 0; i < names.size(); i++) fixArrayItem(names, i);
      const attrs = dictOf(doc, a.get(4));
      const colorants = attrs ? dictOf(doc, attrs.get(key('Colorants'))) : undefined;
      if (colorants)
        for (const [k, v] of colorants.entries()) {
          const renamed = utf8Name(k);
          if (!renamed) continue;
          colorants.delete(k);
          colorants.set(renamed, v instanceof PDFRef ? v : v);
          changed++;
        }
    }
  }
  return { changed };
}

export const NAME_REPAIRS: Repair[] = [{ name: 'utf8-names', clauses: ['6.1.8-1'], apply: ({ doc }) => utf8Names_6_1_8(doc) }];
