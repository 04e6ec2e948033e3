/**
 * The PDF/A-2b/3b clauses as tables of small check functions over the model, each registered under its
 * clause-test id as the public veraPDF profiles number them ("6.1.3-1" = clause 6.1.3, test 1). Messages
 * are our own words. A check reports through `emit`; it never throws on odd input.
 */
import { isDict, isRef, isStream, nameOf, type PdfDictValue, type PdfStreamValue, type PdfValue } from '../pdf/lazy.js';
import { filtersOf } from './decode.js';
import { cffCids, readTrueType, winAnsiUnicode, type TrueTypeInfo } from './fonts.js';
import type { Finding, Model } from './model.js';

export type Emit = (message: string, object?: string, clause?: string) => void;
export interface Check {
  id: string;
  /** Only for this part (2 or 3); both when absent. */
  part?: 2 | 3;
  run(m: Model, emit: Emit): void;
}

const objName = (m: Model, v: PdfValue | undefined): string | undefined => {
  const n = m.doc.numberOf(v);
  return n === undefined ? undefined : `object ${n}`;
};

// ---------------------------------------------------------------------------------------------
// 6.1 File structure

const STANDARD_FILTERS = new Set([
  'ASCIIHexDecode',
  'ASCII85Decode',
  'FlateDecode',
  'RunLengthDecode',
  'CCITTFaxDecode',
  'JBIG2Decode',
  'DCTDecode',
  'JPXDecode',
  'Crypt',
]);

function* allStreams(m: Model): Generator<{ s: PdfStreamValue; num: number; o: (typeof m.doc.all)[number] }> {
  for (const o of m.doc.all) if (isStream(o.value)) yield { s: o.value, num: o.num, o };
}

export const FILE_STRUCTURE: Check[] = [
  {
    id: '6.1.2-1',
    run(m, emit) {
      const b = m.doc.bytes;
      const head = Buffer.from(b.subarray(0, 9)).toString('latin1');
      if (!/^%PDF-1\.[0-7]$/.test(head.slice(0, 8)))
        emit('the file does not start with a %PDF-1.n header (n from 0 to 7) at byte 0', 'file header');
      else if (b[8] !== 0x0a && b[8] !== 0x0d) emit('the header line continues after the version number', 'file header');
    },
  },
  {
    id: '6.1.2-2',
    run(m, emit) {
      const b = m.doc.bytes;
      let p = 8;
      while (p < b.length && b[p] !== 0x0a && b[p] !== 0x0d) p++;
      if (b[p] === 0x0d && b[p + 1] === 0x0a) p += 2;
      else p++;
      let ok = b[p] === 0x25;
      if (ok) for (let k = 1; k <= 4; k++) if (!(b[p + k] > 127)) ok = false;
      if (!ok) emit('the header is not followed by a comment line of at least four bytes above 127 (binary marker)', 'file header');
    },
  },
  {
    id: '6.1.3-1',
    run(m, emit) {
      const trailers = m.doc.trailers;
      if (trailers.length === 0) return emit('the file has no trailer', 'trailer');
      const chain = m.doc.trailerChain();
      const last = chain.length ? chain[0].dict : trailers[trailers.length - 1].dict;
      const first = trailers[0].dict;
      const has = (d: PdfDictValue) => {
        const id = m.doc.resolve(d.map.get('ID'));
        return (
          Array.isArray(id) &&
          id.length === 2 &&
          id.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x) && x.kind === 'string' && x.bytes.length > 0)
        );
      };
      const linearized = m.doc.all.length > 0 && isDict(m.doc.all[0].value) && m.doc.all[0].value.map.has('Linearized');
      if (!has(last) && !(linearized && has(first))) emit('the trailer has no /ID file identifier', 'trailer');
    },
  },
  {
    id: '6.1.3-2',
    run(m, emit) {
      if (m.doc.trailers.some((t) => t.dict.map.has('Encrypt'))) emit('the file is encrypted (/Encrypt in the trailer)', 'trailer');
    },
  },
  {
    id: '6.1.3-3',
    run(m, emit) {
      const b = m.doc.bytes;
      if (m.doc.lastEofOffset < 0) return emit('the file has no %%EOF marker', 'file end');
      let p = m.doc.lastEofOffset + 5;
      if (b[p] === 0x0d && b[p + 1] === 0x0a) p += 2;
      else if (b[p] === 0x0a || b[p] === 0x0d) p++;
      if (p < b.length) emit(`${b.length - p} bytes follow the last %%EOF marker`, 'file end');
    },
  },
  {
    id: '6.1.4-1',
    run(m, emit) {
      for (const x of m.doc.xrefs)
        if (!x.subsectionOk) emit('a cross-reference subsection header is not two numbers separated by one space', `xref at ${x.offset}`);
    },
  },
  {
    id: '6.1.4-2',
    run(m, emit) {
      for (const x of m.doc.xrefs)
        if (!x.eolOk) emit('the xref keyword is not followed by exactly one EOL and the subsection header', `xref at ${x.offset}`);
    },
  },
  {
    id: '6.1.6-1',
    run(m, emit) {
      forFacts(m, 'hex-odd', (o, d) => emit(`hexadecimal string with an odd number of digits (${d})`, o));
    },
  },
  {
    id: '6.1.6-2',
    run(m, emit) {
      forFacts(m, 'hex-bad-char', (o) => emit('hexadecimal string contains a character that is not a hex digit or white space', o));
    },
  },
  {
    id: '6.1.7.1-1',
    run(m, emit) {
      for (const { s, num, o } of allStreams(m)) {
        if (!o.stream) continue;
        const len = m.doc.resolve(s.dict.map.get('Length'));
        // A length reaching the endstream keyword exactly is accepted when the data's last byte is itself an EOL.
        // The data may itself end with CR or LF: any length that leaves exactly one EOL (or none) before endstream fits.
        const b = m.doc.bytes;
        const gap = typeof len === 'number' ? o.stream.toKeyword - len : -1;
        const at = o.stream.dataStart + (typeof len === 'number' ? len : 0);
        const fits = gap === 0 || (gap === 1 && (b[at] === 0x0a || b[at] === 0x0d)) || (gap === 2 && b[at] === 0x0d && b[at + 1] === 0x0a);
        if (typeof len !== 'number' || (len !== o.stream.realLength && !fits))
          emit(
            `stream /Length ${typeof len === 'number' ? len : 'missing'} differs from the ${o.stream.realLength} bytes between stream and endstream`,
            `object ${num}`,
          );
      }
    },
  },
  {
    id: '6.1.7.1-2',
    run(m, emit) {
      for (const { num, o } of allStreams(m)) {
        if (!o.stream) continue;
        if (!o.stream.keywordEolOk) emit('the stream keyword is not followed by CRLF or LF', `object ${num}`);
        else if (!o.stream.endstreamEolOk) emit('the endstream keyword is not preceded by an EOL', `object ${num}`);
      }
    },
  },
  {
    id: '6.1.7.1-3',
    run(m, emit) {
      for (const { s, num } of allStreams(m)) {
        for (const k of ['F', 'FFilter', 'FDecodeParms'])
          if (s.dict.map.has(k)) emit(`stream dictionary has /${k} (external stream data)`, `object ${num}`);
      }
    },
  },
  {
    id: '6.1.7.2-1',
    run(m, emit) {
      for (const { s, num } of allStreams(m)) {
        for (const f of filtersOf(s.dict.map)) {
          if (!STANDARD_FILTERS.has(f)) emit(`stream uses filter ${f}, which is LZW or not a standard filter`, `object ${num}`);
          else if (f === 'Crypt') {
            const parms = m.doc.dict(s.dict.map.get('DecodeParms'));
            const name = parms ? nameOf(parms.map.get('Name')) : undefined;
            if (name !== undefined && name !== 'Identity')
              emit('stream uses the Crypt filter with a crypt filter other than Identity', `object ${num}`);
          }
        }
      }
    },
  },
  {
    id: '6.1.8-1',
    run(m, emit) {
      const check = (v: PdfValue | undefined, what: string, obj?: string) => {
        const n = nameOf(v);
        if (n !== undefined && !isUtf8(n)) emit(`${what} /${n.slice(0, 40)} is not valid UTF-8`, obj);
      };
      for (const f of m.fonts) {
        check(f.map.get('BaseFont'), 'font name', objName(m, f));
        const fd = m.doc.dict(f.map.get('FontDescriptor'));
        if (fd) check(fd.map.get('FontName'), 'font name', objName(m, fd));
      }
      for (const { cs, where } of m.colorSpaces) {
        const a = m.doc.resolve(cs);
        if (!Array.isArray(a)) continue;
        const fam = nameOf(a[0]);
        if (fam === 'Separation') check(a[1], 'colorant name', where);
        if (fam === 'DeviceN') {
          const names = m.doc.resolve(a[1]);
          if (Array.isArray(names)) for (const n of names) check(n, 'colorant name', where);
        }
      }
    },
  },
  {
    id: '6.1.9-1',
    run(m, emit) {
      for (const o of m.doc.all) if (!o.spacingOk) emit(o.spacingDetail ?? 'object header spacing', `object ${o.num}`);
    },
  },
  {
    id: '6.1.10-1',
    run(m, emit) {
      for (const c of m.contents)
        for (const img of c.use.inlineImages) {
          for (const f of filtersOf(img.map)) {
            if (f === 'LZW' || f === 'LZWDecode' || f === 'Crypt' || !INLINE_FILTERS.has(f)) emit(`inline image uses filter ${f}`, c.owner);
          }
        }
    },
  },
  {
    id: '6.1.12-1',
    run(m, emit) {
      const perms = m.doc.dict(m.catalog?.map.get('Perms'));
      if (perms)
        for (const k of perms.map.keys())
          if (k !== 'UR3' && k !== 'DocMDP')
            emit(`the permissions dictionary has /${k}; only UR3 and DocMDP are allowed`, 'catalog /Perms');
    },
  },
  {
    id: '6.1.12-2',
    run(m, emit) {
      for (const o of m.doc.all) {
        const v = o.value;
        const d = isDict(v) ? v : undefined;
        if (!d) continue;
        const refs = m.doc.resolve(d.map.get('Reference'));
        if (!Array.isArray(refs)) continue;
        for (const r of refs) {
          const rd = m.doc.dict(r);
          if (!rd || nameOf(rd.map.get('TransformMethod')) !== 'DocMDP') continue;
          for (const k of ['DigestLocation', 'DigestMethod', 'DigestValue'])
            if (rd.map.has(k)) emit(`a DocMDP signature reference has /${k}`, `object ${o.num}`);
        }
      }
    },
  },
  {
    id: '6.1.13-1',
    run(m, emit) {
      forFacts(m, 'int-range', (o, d) => emit(`integer ${d} is outside the 32-bit range`, o));
    },
  },
  {
    id: '6.1.13-2',
    run(m, emit) {
      forFacts(m, 'real-range', (o, d) => emit(`real number ${d} exceeds ±3.403e38`, o));
    },
  },
  {
    id: '6.1.13-3',
    run(m, emit) {
      forFacts(m, 'string-too-long', (o, d) => emit(`string of ${d} exceeds 32767 bytes`, o));
    },
  },
  {
    id: '6.1.13-4',
    run(m, emit) {
      forFacts(m, 'name-too-long', (o, d) => emit(`name of ${d} exceeds 127 bytes`, o));
    },
  },
  {
    id: '6.1.13-5',
    run(m, emit) {
      forFacts(m, 'real-tiny', (o, d) => emit(`non-zero real ${d} is closer to zero than 1.175e-38`, o));
    },
  },
  {
    id: '6.1.13-7',
    run(m, emit) {
      if (m.doc.objects.size > 8388607) emit(`the file has ${m.doc.objects.size} indirect objects (at most 8388607)`);
    },
  },
  {
    id: '6.1.13-8',
    run(m, emit) {
      for (const c of m.contents) if (c.use.maxQDepth > 28) emit(`q/Q nesting reaches depth ${c.use.maxQDepth} (at most 28)`, c.owner);
    },
  },
  {
    id: '6.1.13-9',
    run(m, emit) {
      for (const { cs, where } of m.colorSpaces) {
        const a = m.doc.resolve(cs);
        if (Array.isArray(a) && nameOf(a[0]) === 'DeviceN') {
          const names = m.doc.resolve(a[1]);
          if (Array.isArray(names) && names.length > 32) emit(`DeviceN colour space with ${names.length} colourants (at most 32)`, where);
        }
      }
    },
  },
  {
    id: '6.1.13-10',
    run(m, emit) {
      for (const f of m.fonts) {
        if (nameOf(f.map.get('Subtype')) !== 'Type0') continue;
        const enc = m.doc.resolve(f.map.get('Encoding'));
        if (!isStream(enc)) continue;
        const r = m.doc.decode(enc);
        if (!r.ok) continue;
        const txt = Buffer.from(r.data).toString('latin1');
        // CIDs are the last number of each cidrange / cidchar line.
        for (const sec of txt.matchAll(/begincid(?:range|char)([\s\S]*?)endcid(?:range|char)/g)) {
          const bad = [...sec[1].matchAll(/>\s*(\d+)/g)].map((x) => Number(x[1])).find((n) => n > 65535);
          if (bad !== undefined) {
            emit(`embedded CMap maps to CID ${bad} (at most 65535)`, objName(m, enc));
            break;
          }
        }
      }
    },
  },
  {
    id: '6.1.13-11',
    run(m, emit) {
      for (const p of m.pages) {
        for (const box of ['MediaBox', 'CropBox', 'BleedBox', 'TrimBox', 'ArtBox']) {
          const b = m.doc.resolve(p.dict.map.get(box) ?? p.boxes.get(box));
          if (!Array.isArray(b) || b.length !== 4 || !b.every((x) => typeof m.doc.resolve(x) === 'number')) continue;
          const [x1, y1, x2, y2] = b.map((x) => m.doc.resolve(x) as number);
          const w = Math.abs(x2 - x1);
          const h = Math.abs(y2 - y1);
          if (w < 3 || h < 3 || w > 14400 || h > 14400)
            emit(`/${box} is ${w}×${h}; each side must be between 3 and 14400 units`, `page ${p.index}`);
        }
      }
    },
  },
];

const INLINE_FILTERS = new Set([
  'ASCIIHexDecode',
  'ASCII85Decode',
  'FlateDecode',
  'RunLengthDecode',
  'CCITTFaxDecode',
  'DCTDecode',
  'AHx',
  'A85',
  'Fl',
  'RL',
  'CCF',
  'DCT',
]);

function forFacts(m: Model, kind: string, fn: (obj: string, detail: string) => void): void {
  for (const o of m.doc.all) for (const f of o.facts) if (f.kind === kind) fn(`object ${o.num}`, f.detail);
  for (const c of m.contents) for (const f of c.use.facts) if (f.kind === kind) fn(c.owner, f.detail);
}

function isUtf8(latin: string): boolean {
  const bytes = Buffer.from(latin, 'latin1');
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// 6.2 Graphics

const ICC_CLASSES_OI = new Set(['mntr', 'prtr']);
const ICC_CLASSES_INPUT = new Set(['prtr', 'mntr', 'scnr', 'spac']);
const ICC_SPACES_OI = new Set(['RGB ', 'CMYK', 'GRAY']);
const ICC_SPACES_INPUT = new Set(['RGB ', 'CMYK', 'GRAY', 'Lab ']);
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
const INTENTS = new Set(['RelativeColorimetric', 'AbsoluteColorimetric', 'Perceptual', 'Saturation']);

function iccHeader(m: Model, s: PdfValue): { cls: string; space: string; major: number } | undefined {
  if (!isStream(s)) return undefined;
  const r = m.doc.decode(s);
  if (!r.ok || r.data.length < 20) return undefined;
  const d = r.data;
  return { cls: String.fromCharCode(d[12], d[13], d[14], d[15]), space: String.fromCharCode(d[16], d[17], d[18], d[19]), major: d[8] };
}

/** Every colour space value reachable from a declared one (alternates, bases), with the ICC streams. */
function* expandColorSpaces(m: Model): Generator<{ cs: PdfValue; where: string; depth: number }> {
  const seen = new Set<unknown>();
  const stack = m.colorSpaces.map((c) => ({ cs: m.doc.resolve(c.cs), where: c.where, depth: 0 }));
  for (const sh of m.shadings) {
    const cs = sh.map.get('ColorSpace');
    if (cs !== undefined) stack.push({ cs: m.doc.resolve(cs), where: objName(m, sh) ?? 'shading', depth: 0 });
  }
  while (stack.length) {
    const c = stack.pop()!;
    if (typeof c.cs === 'object' && c.cs !== null) {
      if (seen.has(c.cs)) continue;
      seen.add(c.cs);
    }
    yield c;
    if (Array.isArray(c.cs) && c.depth < 8) {
      const fam = nameOf(c.cs[0]);
      if (fam === 'Indexed' && c.cs[1] !== undefined) stack.push({ cs: m.doc.resolve(c.cs[1]), where: c.where, depth: c.depth + 1 });
      if ((fam === 'Separation' || fam === 'DeviceN') && c.cs[2] !== undefined)
        stack.push({ cs: m.doc.resolve(c.cs[2]), where: c.where, depth: c.depth + 1 });
      if (fam === 'Pattern' && c.cs[1] !== undefined) stack.push({ cs: m.doc.resolve(c.cs[1]), where: c.where, depth: c.depth + 1 });
    }
  }
}

/** The device family a colour space value names directly, if any. */
function deviceFamily(m: Model, cs: PdfValue, res?: PdfDictValue): 'RGB' | 'CMYK' | 'Gray' | undefined {
  const n = nameOf(cs) ?? (Array.isArray(cs) && cs.length === 1 ? nameOf(cs[0]) : undefined);
  if (n === 'DeviceRGB' || n === 'RGB') return 'RGB';
  if (n === 'DeviceCMYK' || n === 'CMYK') return 'CMYK';
  if (n === 'DeviceGray' || n === 'G') return 'Gray';
  if (n !== undefined && res) {
    const named = m.doc.dict(res.map.get('ColorSpace'));
    const v = named ? m.doc.resolve(named.map.get(n)) : undefined;
    if (v !== undefined && v !== null && nameOf(v) !== n) return deviceFamily(m, v);
  }
  return undefined;
}

/** Device families a colour space uses, through Indexed bases and Separation/DeviceN alternates. */
function deviceFamilies(m: Model, cs: PdfValue, res: PdfDictValue | undefined, out: Set<string>, depth = 0): void {
  if (depth > 8) return;
  const v = m.doc.resolve(cs);
  const fam = deviceFamily(m, v, res);
  if (fam) {
    out.add(fam);
    return;
  }
  const n = nameOf(v);
  if (n !== undefined && res) {
    const named = m.doc.dict(res.map.get('ColorSpace'));
    const nv = named ? m.doc.resolve(named.map.get(n)) : undefined;
    if (nv !== undefined && nv !== null && nameOf(nv) !== n) deviceFamilies(m, nv, undefined, out, depth + 1);
    return;
  }
  if (Array.isArray(v)) {
    const f = nameOf(v[0]);
    if (f === 'Indexed' || f === 'Pattern') {
      if (v[1] !== undefined) deviceFamilies(m, v[1], res, out, depth + 1);
    } else if (f === 'Separation' || f === 'DeviceN') {
      if (v[2] !== undefined) deviceFamilies(m, v[2], res, out, depth + 1);
    }
  }
}

function hasDefault(m: Model, res: PdfDictValue | undefined, fam: string): boolean {
  const cs = res ? m.doc.dict(res.map.get('ColorSpace')) : undefined;
  return !!cs && cs.map.has(`Default${fam}`);
}

/** Device colour use per content stream (operators, images, shadings, inline images), for 6.2.4.3. */
function deviceUses(m: Model): { fam: string; where: string; res: PdfDictValue | undefined; pageRes: PdfDictValue | undefined }[] {
  const out: { fam: string; where: string; res: PdfDictValue | undefined; pageRes: PdfDictValue | undefined }[] = [];
  for (const c of m.contents) {
    const fams = new Set<string>(c.use.inherent);
    if (c.use.defaultGrayFill || c.use.defaultGrayStroke) fams.add('Gray');
    for (const n of c.use.csNames) deviceFamilies(m, { kind: 'name', name: n }, c.resources, fams);
    const xo = c.resources ? m.doc.dict(c.resources.map.get('XObject')) : undefined;
    for (const n of c.use.xobjects) {
      const s = xo ? m.doc.resolve(xo.map.get(n)) : undefined;
      if (isStream(s) && nameOf(s.dict.map.get('Subtype')) === 'Image') {
        const cs = s.dict.map.get('ColorSpace');
        if (cs !== undefined) deviceFamilies(m, cs, undefined, fams);
        const sm = m.doc.resolve(s.dict.map.get('SMask'));
        void sm;
      }
    }
    const sh = c.resources ? m.doc.dict(c.resources.map.get('Shading')) : undefined;
    for (const n of c.use.shadings) {
      const s = sh ? m.doc.dict(sh.map.get(n)) : undefined;
      if (s && s.map.has('ColorSpace')) deviceFamilies(m, s.map.get('ColorSpace')!, undefined, fams);
    }
    for (const img of c.use.inlineImages) {
      const cs = img.map.get('ColorSpace');
      if (cs !== undefined) deviceFamilies(m, cs, c.resources, fams);
    }
    // Patterns' shadings used through scn are covered by the resource walk below.
    for (const f of fams) out.push({ fam: f, where: c.owner, res: c.resources, pageRes: c.pageResources });
  }
  // Shading patterns and page groups carry colour spaces outside operators.
  for (const p of m.pages) {
    const g = m.doc.dict(p.dict.map.get('Group'));
    if (g && g.map.has('CS')) {
      const fams = new Set<string>();
      deviceFamilies(m, g.map.get('CS')!, undefined, fams);
      for (const f of fams) out.push({ fam: f, where: `transparency group of page ${p.index}`, res: p.resources, pageRes: p.resources });
    }
  }
  for (const x of m.xobjects) {
    const g = m.doc.dict(x.dict.map.get('Group'));
    if (g && g.map.has('CS')) {
      const fams = new Set<string>();
      deviceFamilies(m, g.map.get('CS')!, undefined, fams);
      const res = m.doc.dict(x.dict.map.get('Resources'));
      for (const f of fams) out.push({ fam: f, where: `transparency group of ${objName(m, x) ?? 'a form'}`, res, pageRes: undefined });
    }
  }
  return out;
}

function deviceAllowed(m: Model, fam: string, res: PdfDictValue | undefined, pageRes: PdfDictValue | undefined): boolean {
  if (hasDefault(m, res, fam) || hasDefault(m, pageRes, fam)) return true;
  if (!m.hasPdfaOutputIntent) return false;
  if (fam === 'Gray') return true;
  return fam === 'RGB' ? m.outputIntentSpace === 'RGB ' : m.outputIntentSpace === 'CMYK';
}

function pageHasTransparency(m: Model, p: { dict: PdfDictValue; resources: PdfDictValue | undefined }): boolean {
  const seen = new Set<PdfDictValue>();
  const visit = (res: PdfDictValue | undefined, depth: number): boolean => {
    if (!res || seen.has(res) || depth > 16) return false;
    seen.add(res);
    const gs = m.doc.dict(res.map.get('ExtGState'));
    if (gs)
      for (const v of gs.map.values()) {
        const g = m.doc.dict(v);
        if (!g) continue;
        const sm = m.doc.resolve(g.map.get('SMask'));
        if (sm !== null && sm !== undefined && nameOf(sm) !== 'None') return true;
        for (const k of ['CA', 'ca']) {
          const a = m.doc.resolve(g.map.get(k));
          if (typeof a === 'number' && a < 1) return true;
        }
        const bm = m.doc.resolve(g.map.get('BM'));
        const bms = Array.isArray(bm) ? bm.map(nameOf) : [nameOf(bm)];
        if (bms.some((b) => b !== undefined && b !== 'Normal' && b !== 'Compatible')) return true;
      }
    const fonts = m.doc.dict(res.map.get('Font'));
    if (fonts)
      for (const v of fonts.map.values()) {
        const f = m.doc.dict(v);
        if (f && nameOf(f.map.get('Subtype')) === 'Type3' && visit(m.doc.dict(f.map.get('Resources')), depth + 1)) return true;
      }
    const xo = m.doc.dict(res.map.get('XObject'));
    if (xo)
      for (const v of xo.map.values()) {
        const s = m.doc.resolve(v);
        if (!isStream(s)) continue;
        if (nameOf(s.dict.map.get('Subtype')) === 'Image' && s.dict.map.has('SMask') && nameOf(s.dict.map.get('SMask')) !== 'None')
          return true;
        if (nameOf(s.dict.map.get('Subtype')) === 'Form') {
          const g = m.doc.dict(s.dict.map.get('Group'));
          if (g && nameOf(g.map.get('S')) === 'Transparency') return true;
          if (visit(m.doc.dict(s.dict.map.get('Resources')), depth + 1)) return true;
        }
      }
    return false;
  };
  const g = m.doc.dict(p.dict.map.get('Group'));
  if (g && nameOf(g.map.get('S')) === 'Transparency') return true;
  if (visit(p.resources, 0)) return true;
  const annots = m.doc.resolve(p.dict.map.get('Annots'));
  if (Array.isArray(annots))
    for (const a of annots) {
      const ad = m.doc.dict(a);
      if (!ad) continue;
      const ca = m.doc.resolve(ad.map.get('CA'));
      if (typeof ca === 'number' && ca < 1) return true;
    }
  return false;
}

export const GRAPHICS: Check[] = [
  {
    id: '6.2.2-1',
    run(m, emit) {
      for (const c of m.contents)
        if (c.use.undefinedOps.size)
          emit(`content stream uses operators not defined in ISO 32000-1: ${[...c.use.undefinedOps].slice(0, 5).join(', ')}`, c.owner);
    },
  },
  {
    id: '6.2.2-2',
    run(m, emit) {
      for (const c of m.contents) {
        if (!c.inherited) continue;
        const u = c.use;
        if (
          u.fonts.size ||
          u.xobjects.size ||
          u.shadings.size ||
          u.extGStates.size ||
          [...u.csNames].some((n) => !/^(Device(RGB|CMYK|Gray)|Pattern)$/.test(n))
        ) {
          emit('content stream uses named resources but has no /Resources of its own', c.owner);
        }
      }
    },
  },
  {
    id: '6.2.3-1',
    run(m, emit) {
      const ois = m.doc.resolve(m.catalog?.map.get('OutputIntents'));
      if (!Array.isArray(ois)) return;
      for (const r of ois) {
        const oi = m.doc.dict(r);
        const prof = oi ? m.doc.resolve(oi.map.get('DestOutputProfile')) : null;
        if (!oi || !isStream(prof)) continue;
        const h = iccHeader(m, prof);
        if (!h) emit('the output intent profile is not a readable ICC profile', objName(m, prof));
        else if (!ICC_CLASSES_OI.has(h.cls) || !ICC_SPACES_OI.has(h.space) || h.major >= 5)
          emit(
            `the output intent profile has class "${h.cls}", colour space "${h.space.trim()}", version ${h.major} (needs mntr/prtr, RGB/CMYK/GRAY, below 5)`,
            objName(m, prof),
          );
      }
    },
  },
  {
    id: '6.2.3-2',
    run(m, emit) {
      const ois = m.doc.resolve(m.catalog?.map.get('OutputIntents'));
      if (!Array.isArray(ois)) return;
      const profiles = new Set<string>();
      for (const r of ois) {
        const oi = m.doc.dict(r);
        const p = oi?.map.get('DestOutputProfile');
        if (p === undefined) continue;
        profiles.add(isRef(p) ? `${p.num}` : 'direct');
      }
      if (profiles.size > 1)
        emit(
          'output intents carry different DestOutputProfile streams; they must all be the same indirect object',
          'catalog /OutputIntents',
        );
    },
  },
  {
    id: '6.2.3-3',
    run(m, emit) {
      const ois = m.doc.resolve(m.catalog?.map.get('OutputIntents'));
      if (!Array.isArray(ois)) return;
      for (const r of ois) {
        const oi = m.doc.dict(r);
        if (oi && oi.map.has('DestOutputProfileRef')) emit('an output intent has /DestOutputProfileRef', 'catalog /OutputIntents');
      }
    },
  },
  {
    id: '6.2.4.2-1',
    run(m, emit) {
      for (const { cs, where } of expandColorSpaces(m)) {
        if (!Array.isArray(cs) || nameOf(cs[0]) !== 'ICCBased') continue;
        const s = m.doc.resolve(cs[1]);
        const h = iccHeader(m, s);
        if (!h) emit('an ICCBased colour space has no readable ICC profile', where);
        else if (!ICC_CLASSES_INPUT.has(h.cls) || !ICC_SPACES_INPUT.has(h.space) || h.major >= 5)
          emit(
            `ICC profile with class "${h.cls}", colour space "${h.space.trim()}", version ${h.major} is not allowed`,
            objName(m, s) ?? where,
          );
        else if (isStream(s)) {
          const n = m.doc.resolve(s.dict.map.get('N'));
          const need = h.space === 'RGB ' ? 3 : h.space === 'CMYK' ? 4 : h.space === 'GRAY' ? 1 : 3;
          if (typeof n === 'number' && n !== need)
            emit(`ICC profile /N ${n} does not match its colour space ${h.space.trim()}`, objName(m, s) ?? where);
        }
      }
    },
  },
  {
    id: '6.2.4.2-2',
    run(m, emit) {
      for (const c of m.contents) {
        const gsd = c.resources ? m.doc.dict(c.resources.map.get('ExtGState')) : undefined;
        for (const p of c.use.paints.values()) {
          if (!isIccCmyk(m, c.resources, p.cs)) continue;
          // The graphics state at that painting operation: the ExtGStates applied in order, later keys winning.
          let OPM = 0;
          let OP = false;
          let op: boolean | undefined;
          for (const n of p.gs) {
            const g = gsd ? m.doc.dict(gsd.map.get(n)) : undefined;
            if (!g) continue;
            const a = m.doc.resolve(g.map.get('OPM'));
            const b = m.doc.resolve(g.map.get('OP'));
            const f = m.doc.resolve(g.map.get('op'));
            if (typeof a === 'number') OPM = a;
            if (typeof b === 'boolean') {
              OP = b;
              if (typeof f !== 'boolean') op = undefined;
            }
            if (typeof f === 'boolean') op = f;
          }
          const over = p.fill ? (op ?? OP) : OP;
          if (OPM === 1 && over)
            emit(`ICCBased CMYK colour is ${p.fill ? 'filled' : 'stroked'} with overprint on and overprint mode 1`, c.owner);
        }
      }
    },
  },
  {
    id: '6.2.4.3-2',
    run(m, emit) {
      reportDevice(m, 'RGB', emit);
    },
  },
  {
    id: '6.2.4.3-3',
    run(m, emit) {
      reportDevice(m, 'CMYK', emit);
    },
  },
  {
    id: '6.2.4.3-4',
    run(m, emit) {
      reportDevice(m, 'Gray', emit);
    },
  },
  {
    id: '6.2.4.4-1',
    run(m, emit) {
      for (const { cs, where } of expandColorSpaces(m)) {
        if (!Array.isArray(cs) || nameOf(cs[0]) !== 'DeviceN') continue;
        const names = m.doc.resolve(cs[1]);
        if (!Array.isArray(names)) continue;
        const attrs = m.doc.dict(cs[4]);
        const colorants = attrs ? m.doc.dict(attrs.map.get('Colorants')) : undefined;
        for (const n of names) {
          const nm = nameOf(n);
          if (!nm || nm === 'None' || ['Cyan', 'Magenta', 'Yellow', 'Black'].includes(nm)) continue;
          if (!colorants || !colorants.map.has(nm)) emit(`DeviceN spot colourant ${nm} has no entry in /Colorants`, where);
        }
      }
    },
  },
  {
    id: '6.2.4.4-2',
    run(m, emit) {
      const byName = new Map<string, { alt: PdfValue; tint: PdfValue }>();
      const check = (arr: PdfValue[], where: string) => {
        const nm = nameOf(arr[1]);
        if (!nm || nm === 'All' || nm === 'None') return;
        const prev = byName.get(nm);
        const cur = { alt: arr[2], tint: arr[3] };
        if (!prev) byName.set(nm, cur);
        else if (!sameObj(m, prev.alt, cur.alt) || !sameObj(m, prev.tint, cur.tint))
          emit(`Separation colour spaces named ${nm} differ in alternate space or tint transform`, where);
      };
      for (const { cs, where } of expandColorSpaces(m)) {
        if (!Array.isArray(cs)) continue;
        if (nameOf(cs[0]) === 'Separation') check(cs, where);
        if (nameOf(cs[0]) === 'DeviceN') {
          const attrs = m.doc.dict(cs[4]);
          const col = attrs ? m.doc.dict(attrs.map.get('Colorants')) : undefined;
          if (col)
            for (const v of col.map.values()) {
              const a = m.doc.resolve(v);
              if (Array.isArray(a) && nameOf(a[0]) === 'Separation') check(a, where);
            }
        }
      }
    },
  },
  {
    id: '6.2.5-1',
    run(m, emit) {
      for (const g of m.extGStates) if (g.map.has('TR')) emit('ExtGState has a transfer function (/TR)', objName(m, g) ?? 'ExtGState');
    },
  },
  {
    id: '6.2.5-2',
    run(m, emit) {
      for (const g of m.extGStates)
        if (g.map.has('TR2') && nameOf(m.doc.resolve(g.map.get('TR2'))) !== 'Default')
          emit('ExtGState has /TR2 other than /Default', objName(m, g) ?? 'ExtGState');
    },
  },
  {
    id: '6.2.5-3',
    run(m, emit) {
      for (const g of m.extGStates) if (g.map.has('HTP')) emit('ExtGState has /HTP', objName(m, g) ?? 'ExtGState');
    },
  },
  {
    id: '6.2.5-4',
    run(m, emit) {
      for (const h of halftones(m)) {
        const t = m.doc.resolve(h.map.get('HalftoneType'));
        if (t !== 1 && t !== 5) emit(`halftone of type ${String(t)} (only 1 and 5 are allowed)`, objName(m, h) ?? 'halftone');
      }
    },
  },
  {
    id: '6.2.5-5',
    run(m, emit) {
      for (const h of halftones(m)) if (h.map.has('HalftoneName')) emit('halftone has /HalftoneName', objName(m, h) ?? 'halftone');
    },
  },
  {
    id: '6.2.5-6',
    run(m, emit) {
      for (const g of m.extGStates) {
        const h = m.doc.dict(g.map.get('HT'));
        if (!h || m.doc.resolve(h.map.get('HalftoneType')) !== 5) continue;
        for (const [k, v] of h.map) {
          if (k === 'Type' || k === 'HalftoneType' || k === 'HalftoneName') continue;
          const c = m.doc.dict(v);
          if (!c) continue;
          // Primary: the process colorants (and Default); every other colorant needs its own transfer function.
          const primary = ['Cyan', 'Magenta', 'Yellow', 'Black', 'Default'].includes(k);
          const has = c.map.has('TransferFunction');
          if (primary && has) emit(`halftone for primary colourant ${k} has a /TransferFunction`, objName(m, h) ?? 'halftone');
          if (!primary && !has) emit(`halftone for non-primary colourant ${k} lacks a /TransferFunction`, objName(m, h) ?? 'halftone');
        }
      }
    },
  },
  {
    id: '6.2.6-1',
    run(m, emit) {
      for (const g of m.extGStates) {
        const ri = nameOf(m.doc.resolve(g.map.get('RI')));
        if (ri !== undefined && !INTENTS.has(ri)) emit(`rendering intent /${ri} is not a standard one`, objName(m, g) ?? 'ExtGState');
      }
      for (const x of m.xobjects) {
        const ri = nameOf(m.doc.resolve(x.dict.map.get('Intent')));
        if (ri !== undefined && !INTENTS.has(ri)) emit(`image rendering intent /${ri} is not a standard one`, objName(m, x));
      }
      for (const c of m.contents) for (const ri of c.use.renderingIntents) if (!INTENTS.has(ri)) emit(`ri operator with /${ri}`, c.owner);
      for (const c of m.contents)
        for (const img of c.use.inlineImages) {
          const ri = nameOf(img.map.get('Intent'));
          if (ri !== undefined && !INTENTS.has(ri)) emit(`inline image rendering intent /${ri}`, c.owner);
        }
    },
  },
  {
    id: '6.2.8-1',
    run(m, emit) {
      for (const x of images(m)) if (x.dict.map.has('Alternates')) emit('image has /Alternates', objName(m, x));
    },
  },
  {
    id: '6.2.8-2',
    run(m, emit) {
      for (const x of images(m)) if (x.dict.map.has('OPI')) emit('image has /OPI', objName(m, x));
    },
  },
  {
    id: '6.2.8-3',
    run(m, emit) {
      for (const x of images(m))
        if (m.doc.resolve(x.dict.map.get('Interpolate')) === true) emit('image has /Interpolate true', objName(m, x));
      for (const c of m.contents)
        for (const img of c.use.inlineImages) if (img.map.get('Interpolate') === true) emit('inline image has /I true', c.owner);
    },
  },
  {
    id: '6.2.8-4',
    run(m, emit) {
      for (const x of images(m)) {
        const bpc = m.doc.resolve(x.dict.map.get('BitsPerComponent'));
        if (typeof bpc === 'number' && ![1, 2, 4, 8, 16].includes(bpc)) emit(`image BitsPerComponent ${bpc}`, objName(m, x));
      }
    },
  },
  {
    id: '6.2.8-5',
    run(m, emit) {
      for (const x of images(m)) {
        if (m.doc.resolve(x.dict.map.get('ImageMask')) !== true) continue;
        const bpc = m.doc.resolve(x.dict.map.get('BitsPerComponent'));
        if (typeof bpc === 'number' && bpc !== 1) emit(`image mask with BitsPerComponent ${bpc}`, objName(m, x));
      }
    },
  },
  {
    id: '6.2.8.3-1',
    run(m, emit) {
      for (const x of images(m)) {
        if (!filtersOf(x.dict.map).includes('JPXDecode')) continue;
        const info = jpxInfo(x.raw);
        if (!info) continue;
        if (info.nc !== undefined && ![1, 3, 4].includes(info.nc)) emit(`JPEG2000 image with ${info.nc} colour channels`, objName(m, x));
        const approx1 = info.colr.filter((c) => c.approx === 1).length;
        if (info.colr.length > 1 && approx1 !== 1)
          emit('JPEG2000 image with several colr boxes, not exactly one of them APPROX 1', objName(m, x), '6.2.8.3-2');
        for (const c of info.colr) {
          if (c.meth < 1 || c.meth > 3) emit(`JPEG2000 colr box METH ${c.meth}`, objName(m, x), '6.2.8.3-3');
          if (c.meth === 1 && c.enumCs === 19) emit('JPEG2000 image uses the CIEJab colour space', objName(m, x), '6.2.8.3-4');
        }
        if (info.bpc !== undefined && (info.bpc === 255 || (info.bpc & 0x7f) + 1 > 38))
          emit('JPEG2000 channels have different bit depths', objName(m, x), '6.2.8.3-5');
      }
    },
  },
  {
    id: '6.2.9-1',
    run(m, emit) {
      for (const x of m.xobjects) {
        if (nameOf(x.dict.map.get('Subtype')) !== 'Form') continue;
        if (x.dict.map.has('OPI')) emit('form XObject has /OPI', objName(m, x));
        if (nameOf(x.dict.map.get('Subtype2')) === 'PS' || x.dict.map.has('PS')) emit('form XObject is a PostScript form', objName(m, x));
      }
    },
  },
  {
    id: '6.2.9-2',
    run(m, emit) {
      for (const x of m.xobjects)
        if (nameOf(x.dict.map.get('Subtype')) === 'Form' && x.dict.map.has('Ref')) emit('reference XObject (/Ref)', objName(m, x));
    },
  },
  {
    id: '6.2.9-3',
    run(m, emit) {
      for (const x of m.xobjects) if (nameOf(x.dict.map.get('Subtype')) === 'PS') emit('PostScript XObject', objName(m, x));
    },
  },
  {
    id: '6.2.10-1',
    run(m, emit) {
      for (const g of m.extGStates) {
        const bm = m.doc.resolve(g.map.get('BM'));
        const list = Array.isArray(bm) ? bm.map((x) => nameOf(m.doc.resolve(x))) : bm === null ? [] : [nameOf(bm)];
        for (const b of list)
          if (b === undefined || !BLEND_MODES.has(b))
            emit(`blend mode ${b ? '/' + b : String(bm)} is not defined in ISO 32000-1`, objName(m, g) ?? 'ExtGState');
      }
    },
  },
  {
    id: '6.2.10-2',
    run(m, emit) {
      if (m.hasPdfaOutputIntent) return;
      for (const p of m.pages) {
        const g = m.doc.dict(p.dict.map.get('Group'));
        if (g && g.map.has('CS')) continue;
        if (pageHasTransparency(m, p))
          emit('the page uses transparency but has no group colour space and the file has no PDF/A output intent', `page ${p.index}`);
      }
    },
  },
];

function isIccCmyk(m: Model, res: PdfDictValue | undefined, name: string): boolean {
  const named = res ? m.doc.dict(res.map.get('ColorSpace')) : undefined;
  const cs = named ? m.doc.resolve(named.map.get(name)) : null;
  if (!Array.isArray(cs) || nameOf(cs[0]) !== 'ICCBased') return false;
  const s = m.doc.resolve(cs[1]);
  return isStream(s) && m.doc.resolve(s.dict.map.get('N')) === 4;
}

function reportDevice(m: Model, fam: string, emit: Emit): void {
  const seen = new Set<string>();
  for (const u of deviceUses(m)) {
    if (u.fam !== fam || seen.has(u.where)) continue;
    if (!deviceAllowed(m, fam, u.res, u.pageRes)) {
      seen.add(u.where);
      emit(`Device${fam} is used without a matching PDF/A output intent or Default${fam} colour space`, u.where);
    }
  }
}

function sameObj(m: Model, a: PdfValue, b: PdfValue): boolean {
  if (isRef(a) && isRef(b) && a.num === b.num) return true;
  const ra = m.doc.resolve(a);
  const rb = m.doc.resolve(b);
  if (ra === rb) return true;
  return JSON.stringify(simplify(ra)) === JSON.stringify(simplify(rb));
}
function simplify(v: PdfValue): unknown {
  if (Array.isArray(v)) return v.map(simplify);
  if (isDict(v)) return [...v.map].map(([k, x]) => [k, simplify(x)]);
  if (isStream(v)) return ['stream', Buffer.from(v.raw).toString('base64')];
  if (typeof v === 'object' && v !== null && v.kind === 'string') return Buffer.from(v.bytes).toString('latin1');
  return v;
}

function* images(m: Model): Generator<PdfStreamValue> {
  for (const x of m.xobjects) if (nameOf(x.dict.map.get('Subtype')) === 'Image') yield x;
}

function halftones(m: Model): PdfDictValue[] {
  const out: PdfDictValue[] = [];
  for (const g of m.extGStates) {
    const h = m.doc.dict(g.map.get('HT'));
    if (!h) continue;
    out.push(h);
    if (m.doc.resolve(h.map.get('HalftoneType')) === 5)
      for (const [k, v] of h.map) {
        if (k === 'Type' || k === 'HalftoneType' || k === 'HalftoneName') continue;
        const c = m.doc.dict(v);
        if (c) out.push(c);
      }
  }
  return out;
}

/** JPEG2000 header boxes: number of components, colr boxes, bits per component. */
function jpxInfo(raw: Uint8Array): { nc?: number; bpc?: number; colr: { meth: number; approx: number; enumCs?: number }[] } | undefined {
  const out: { nc?: number; bpc?: number; colr: { meth: number; approx: number; enumCs?: number }[] } = { colr: [] };
  const walk = (start: number, end: number, depth: number): void => {
    let p = start;
    while (p + 8 <= end && depth < 4) {
      let len = new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getUint32(p);
      const type = String.fromCharCode(raw[p + 4], raw[p + 5], raw[p + 6], raw[p + 7]);
      let hdr = 8;
      if (len === 1) {
        len = Number(new DataView(raw.buffer, raw.byteOffset).getBigUint64(p + 8));
        hdr = 16;
      } else if (len === 0) len = end - p;
      if (len < hdr || p + len > end) return;
      if (type === 'jp2h') walk(p + hdr, p + len, depth + 1);
      else if (type === 'ihdr') {
        const dv = new DataView(raw.buffer, raw.byteOffset);
        out.nc = dv.getUint16(p + hdr + 8);
        out.bpc = raw[p + hdr + 10];
      } else if (type === 'colr') {
        const meth = raw[p + hdr];
        const approx = raw[p + hdr + 2];
        const enumCs = meth === 1 ? new DataView(raw.buffer, raw.byteOffset).getUint32(p + hdr + 3) : undefined;
        out.colr.push({ meth, approx, enumCs });
      } else if (type === 'jp2c') return;
      p += len;
    }
  };
  try {
    walk(0, raw.length, 0);
  } catch {
    return undefined;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// 6.2.11 Fonts

const STD14 = new Set([
  'Times-Roman',
  'Times-Bold',
  'Times-Italic',
  'Times-BoldItalic',
  'Helvetica',
  'Helvetica-Bold',
  'Helvetica-Oblique',
  'Helvetica-BoldOblique',
  'Courier',
  'Courier-Bold',
  'Courier-Oblique',
  'Courier-BoldOblique',
  'Symbol',
  'ZapfDingbats',
]);
const FONT_SUBTYPES = new Set(['Type0', 'Type1', 'MMType1', 'Type3', 'TrueType', 'CIDFontType0', 'CIDFontType2']);

/** Fonts plus the descendant CIDFonts of Type0 fonts. */
function allFonts(m: Model): { font: PdfDictValue; parent?: PdfDictValue }[] {
  const out: { font: PdfDictValue; parent?: PdfDictValue }[] = [];
  for (const f of m.fonts) {
    out.push({ font: f });
    if (nameOf(f.map.get('Subtype')) === 'Type0') {
      const d = m.doc.resolve(f.map.get('DescendantFonts'));
      if (Array.isArray(d))
        for (const x of d) {
          const cf = m.doc.dict(x);
          if (cf) out.push({ font: cf, parent: f });
        }
    }
  }
  return out;
}

function isSimple(st: string | undefined): boolean {
  return st === 'Type1' || st === 'MMType1' || st === 'TrueType' || st === 'Type3';
}

function fontProgram(m: Model, font: PdfDictValue): { key: string; s: PdfStreamValue } | undefined {
  const fd = m.doc.dict(font.map.get('FontDescriptor'));
  if (!fd) return undefined;
  for (const key of ['FontFile', 'FontFile2', 'FontFile3']) {
    const s = m.doc.resolve(fd.map.get(key));
    if (isStream(s)) return { key, s };
  }
  return undefined;
}

function baseName(m: Model, f: PdfDictValue): string {
  return (nameOf(m.doc.resolve(f.map.get('BaseFont'))) ?? '').replace(/^[A-Z]{6}\+/, '');
}

/** Fonts used to draw visible text, per font dictionary. */
function usedFonts(m: Model): Map<PdfDictValue, string> {
  const out = new Map<PdfDictValue, string>();
  for (const c of m.contents) {
    const fonts = c.resources ? m.doc.dict(c.resources.map.get('Font')) : undefined;
    for (const [name, u] of c.use.fonts) {
      if (!u.visible) continue;
      const f = fonts ? m.doc.dict(fonts.map.get(name)) : undefined;
      if (f && !out.has(f)) out.set(f, c.owner);
    }
  }
  return out;
}

export const FONTS: Check[] = [
  {
    id: '6.2.11.2-1',
    run(m, emit) {
      for (const { font } of allFonts(m))
        if (nameOf(font.map.get('Type')) !== 'Font') emit('font dictionary /Type is not /Font', objName(m, font));
    },
  },
  {
    id: '6.2.11.2-2',
    run(m, emit) {
      for (const { font } of allFonts(m)) {
        const st = nameOf(font.map.get('Subtype'));
        if (!st || !FONT_SUBTYPES.has(st)) emit(`font /Subtype ${st ?? 'missing'} is not a font type of ISO 32000-1`, objName(m, font));
      }
    },
  },
  {
    id: '6.2.11.2-3',
    run(m, emit) {
      for (const { font } of allFonts(m))
        if (nameOf(font.map.get('Subtype')) !== 'Type3' && nameOf(m.doc.resolve(font.map.get('BaseFont'))) === undefined)
          emit('font has no /BaseFont', objName(m, font));
    },
  },
  {
    id: '6.2.11.2-4',
    run(m, emit) {
      for (const { font } of allFonts(m)) {
        const st = nameOf(font.map.get('Subtype'));
        if (!isSimple(st) || (STD14.has(baseName(m, font)) && !fontProgram(m, font) && st !== 'Type3')) continue;
        if (typeof m.doc.resolve(font.map.get('FirstChar')) !== 'number') emit('simple font has no /FirstChar', objName(m, font));
        if (typeof m.doc.resolve(font.map.get('LastChar')) !== 'number')
          emit('simple font has no /LastChar', objName(m, font), '6.2.11.2-5');
        const w = m.doc.resolve(font.map.get('Widths'));
        const fc = m.doc.resolve(font.map.get('FirstChar'));
        const lc = m.doc.resolve(font.map.get('LastChar'));
        if (!Array.isArray(w)) emit('simple font has no /Widths', objName(m, font), '6.2.11.2-6');
        else if (typeof fc === 'number' && typeof lc === 'number' && w.length !== lc - fc + 1)
          emit(`/Widths has ${w.length} entries, LastChar−FirstChar+1 is ${lc - fc + 1}`, objName(m, font), '6.2.11.2-6');
      }
    },
  },
  {
    id: '6.2.11.2-7',
    run(m, emit) {
      for (const { font } of allFonts(m)) {
        const p = fontProgram(m, font);
        if (!p || p.key !== 'FontFile3') continue;
        const st = nameOf(p.s.dict.map.get('Subtype'));
        if (st !== 'Type1C' && st !== 'CIDFontType0C' && st !== 'OpenType') emit(`FontFile3 /Subtype ${st ?? 'missing'}`, objName(m, p.s));
      }
    },
  },
  {
    id: '6.2.11.3.1-1',
    run(m, emit) {
      for (const { font, parent } of allFonts(m)) {
        if (!parent) continue;
        const enc = m.doc.resolve(parent.map.get('Encoding'));
        const encName = nameOf(enc);
        if (encName === 'Identity-H' || encName === 'Identity-V') continue;
        const csi = m.doc.dict(font.map.get('CIDSystemInfo'));
        let cmapCsi: PdfDictValue | undefined;
        if (isStream(enc)) cmapCsi = m.doc.dict(enc.dict.map.get('CIDSystemInfo'));
        else if (encName) {
          const mm = /^(.*?)-(.*?)-/.exec(encName);
          void mm;
          continue; // predefined CMaps: their registry/ordering are not tabulated here
        }
        if (!csi || !cmapCsi) continue;
        const s = (d: PdfDictValue, k: string) => {
          const v = m.doc.resolve(d.map.get(k));
          return typeof v === 'object' && v !== null && !Array.isArray(v) && v.kind === 'string'
            ? Buffer.from(v.bytes).toString('latin1')
            : undefined;
        };
        const sup = (d: PdfDictValue) => m.doc.resolve(d.map.get('Supplement'));
        if (s(csi, 'Registry') !== s(cmapCsi, 'Registry') || s(csi, 'Ordering') !== s(cmapCsi, 'Ordering'))
          emit('CIDFont and CMap CIDSystemInfo disagree in Registry or Ordering', objName(m, font));
        else {
          const a = sup(csi);
          const b = sup(cmapCsi);
          if (typeof a === 'number' && typeof b === 'number' && a > b)
            emit('CIDFont CIDSystemInfo Supplement is greater than the CMap one', objName(m, font));
        }
      }
    },
  },
  {
    id: '6.2.11.3.2-1',
    run(m, emit) {
      for (const { font } of allFonts(m)) {
        if (nameOf(font.map.get('Subtype')) !== 'CIDFontType2' || !fontProgram(m, font)) continue;
        const g = m.doc.resolve(font.map.get('CIDToGIDMap'));
        if (g === null || (nameOf(g) !== 'Identity' && !isStream(g)))
          emit('embedded CIDFontType2 font has no /CIDToGIDMap (Identity or a stream)', objName(m, font));
      }
    },
  },
  {
    id: '6.2.11.3.3-1',
    run(m, emit) {
      for (const f of m.fonts) {
        if (nameOf(f.map.get('Subtype')) !== 'Type0') continue;
        const enc = m.doc.resolve(f.map.get('Encoding'));
        const n = nameOf(enc);
        if (n !== undefined && !PREDEFINED_CMAPS.test(n)) emit(`CMap /${n} is neither predefined nor embedded`, objName(m, f));
        if (isStream(enc)) {
          const use = m.doc.resolve(enc.dict.map.get('UseCMap'));
          const un = nameOf(use);
          if ((un !== undefined && !PREDEFINED_CMAPS.test(un)) || isStream(use))
            emit(
              `embedded CMap uses ${un ? `non-predefined CMap /${un}` : 'another embedded CMap'} (only the predefined CMaps of ISO 32000-1 may be used)`,
              objName(m, enc),
              '6.2.11.3.3-3',
            );
          const r = m.doc.decode(enc);
          if (r.ok) {
            const txt = Buffer.from(r.data).toString('latin1');
            const wm = /\/WMode\s+(\d+)\s+def/.exec(txt);
            const dictWm = m.doc.resolve(enc.dict.map.get('WMode'));
            const progWm = wm ? Number(wm[1]) : 0;
            if ((typeof dictWm === 'number' ? dictWm : 0) !== progWm)
              emit('embedded CMap WMode differs between its dictionary and its program', objName(m, enc), '6.2.11.3.3-2');
            const uc = /\/([^\s/]+)\s+usecmap/.exec(txt);
            if (uc && !PREDEFINED_CMAPS.test(uc[1]))
              emit(`embedded CMap program uses non-predefined CMap ${uc[1]}`, objName(m, enc), '6.2.11.3.3-3');
          }
        }
      }
    },
  },
  {
    id: '6.2.11.4.1-1',
    run(m, emit) {
      for (const [f, where] of usedFonts(m)) {
        const st = nameOf(f.map.get('Subtype'));
        if (st === 'Type3') continue;
        if (st === 'Type0') {
          const d = m.doc.resolve(f.map.get('DescendantFonts'));
          const cf = Array.isArray(d) ? m.doc.dict(d[0]) : undefined;
          if (cf && !fontProgram(m, cf))
            emit(`font ${baseName(m, f)} is used for rendering but its program is not embedded`, objName(m, f) ?? where);
          continue;
        }
        if (!fontProgram(m, f))
          emit(`font ${baseName(m, f)} is used for rendering but its program is not embedded`, objName(m, f) ?? where);
      }
    },
  },
  {
    id: '6.2.11.4.2-2',
    run(m, emit) {
      for (const { font } of allFonts(m)) {
        if (nameOf(font.map.get('Subtype')) !== 'CIDFontType2') continue;
        const fd = m.doc.dict(font.map.get('FontDescriptor'));
        const cidset = fd ? m.doc.resolve(fd.map.get('CIDSet')) : null;
        const prog = fontProgram(m, font);
        if (!isStream(cidset) || !prog || prog.key !== 'FontFile2') continue;
        if (nameOf(m.doc.resolve(font.map.get('CIDToGIDMap'))) !== 'Identity') continue;
        const set = m.doc.decode(cidset);
        const pr = m.doc.decode(prog.s);
        if (!set.ok || !pr.ok) continue;
        const present = ttPresentGlyphs(pr.data);
        if (present === undefined) continue;
        for (const gid of present) {
          const byte = set.data[gid >> 3];
          if (byte === undefined || !(byte & (0x80 >> (gid & 7)))) {
            emit(`CIDSet does not list CID ${gid}, which the embedded font program contains`, objName(m, cidset));
            break;
          }
        }
      }
    },
  },
  {
    id: '6.2.11.6-2',
    run(m, emit) {
      for (const { font } of allFonts(m)) {
        if (nameOf(font.map.get('Subtype')) !== 'TrueType') continue;
        const fd = m.doc.dict(font.map.get('FontDescriptor'));
        const flags = fd ? m.doc.resolve(fd.map.get('Flags')) : undefined;
        if (typeof flags !== 'number') continue;
        const symbolic = (flags & 4) !== 0;
        const enc = m.doc.resolve(font.map.get('Encoding'));
        if (symbolic) {
          if (enc !== null) emit('symbolic TrueType font has an /Encoding', objName(m, font), '6.2.11.6-3');
          continue;
        }
        const n = nameOf(enc);
        if (n !== undefined) {
          if (n !== 'MacRomanEncoding' && n !== 'WinAnsiEncoding') emit(`non-symbolic TrueType font with encoding /${n}`, objName(m, font));
        } else if (isDict(enc)) {
          const be = nameOf(enc.map.get('BaseEncoding'));
          if (be !== 'MacRomanEncoding' && be !== 'WinAnsiEncoding')
            emit(`non-symbolic TrueType font with base encoding ${be ? '/' + be : 'missing'}`, objName(m, font));
        } else emit('non-symbolic TrueType font without MacRoman or WinAnsi encoding', objName(m, font));
      }
    },
  },
];

/** Shown codes per font dictionary, over all content streams. */
function shownByFont(m: Model): Map<PdfDictValue, { codes: Uint8Array[]; where: string }> {
  const out = new Map<PdfDictValue, { codes: Uint8Array[]; where: string }>();
  for (const c of m.contents) {
    const fonts = c.resources ? m.doc.dict(c.resources.map.get('Font')) : undefined;
    for (const [name, list] of c.use.shown) {
      const f = fonts ? m.doc.dict(fonts.map.get(name)) : undefined;
      if (!f) continue;
      const e = out.get(f) ?? { codes: [], where: c.owner };
      if (e.codes.length < 5000) e.codes.push(...list);
      out.set(f, e);
    }
  }
  return out;
}

const ttCache = new WeakMap<PdfStreamValue, TrueTypeInfo | null>();
function trueTypeOf(m: Model, font: PdfDictValue): TrueTypeInfo | undefined {
  const p = fontProgram(m, font);
  if (!p || p.key !== 'FontFile2') return undefined;
  const hit = ttCache.get(p.s);
  if (hit !== undefined) return hit ?? undefined;
  const r = m.doc.decode(p.s);
  const tt = r.ok ? readTrueType(r.data) : undefined;
  ttCache.set(p.s, tt ?? null);
  return tt;
}

/** CID font /W widths: CID → width, DW for the rest. */
function cidWidths(m: Model, cf: PdfDictValue): (cid: number) => number {
  const dw = m.doc.resolve(cf.map.get('DW'));
  const def = typeof dw === 'number' ? dw : 1000;
  const w = m.doc.resolve(cf.map.get('W'));
  const map = new Map<number, number>();
  if (Array.isArray(w)) {
    for (let i = 0; i < w.length && map.size < 100_000; ) {
      const a = m.doc.resolve(w[i]);
      const b = m.doc.resolve(w[i + 1]);
      if (typeof a !== 'number') break;
      if (Array.isArray(b)) {
        b.forEach((x, k) => {
          const v = m.doc.resolve(x);
          if (typeof v === 'number') map.set(a + k, v);
        });
        i += 2;
      } else {
        const c = m.doc.resolve(w[i + 2]);
        if (typeof b === 'number' && typeof c === 'number') for (let k = a; k <= b && k - a < 65536; k++) map.set(k, c);
        i += 3;
      }
    }
  }
  return (cid) => map.get(cid) ?? def;
}

/** The glyph rules that need the font program: glyph present (6.2.11.4.1-2), widths (6.2.11.5-1), .notdef (6.2.11.8-1). */
function checkGlyphs(m: Model, emit: Emit): void {
  for (const [font, { codes, where }] of shownByFont(m)) {
    const st = nameOf(font.map.get('Subtype'));
    const obj = objName(m, font) ?? where;
    const reported = new Set<string>();
    const once = (clause: string, msg: string) => {
      if (reported.has(clause)) return;
      reported.add(clause);
      emit(msg, obj, clause);
    };
    if (st === 'TrueType') {
      const tt = trueTypeOf(m, font);
      if (!tt) continue;
      const fd = m.doc.dict(font.map.get('FontDescriptor'));
      const flags = fd ? m.doc.resolve(fd.map.get('Flags')) : 0;
      const symbolic = typeof flags === 'number' && (flags & 4) !== 0;
      const enc = m.doc.resolve(font.map.get('Encoding'));
      const encName =
        nameOf(enc) ??
        (isDict(enc) && !enc.map.has('Differences') ? nameOf(enc.map.get('BaseEncoding')) : isDict(enc) ? 'Differences' : undefined);
      let lookup: ((c: number) => number | undefined) | undefined;
      if (symbolic) {
        const c30 = tt.cmaps.get('3,0');
        const c10 = tt.cmaps.get('1,0');
        if (c30) lookup = (c) => c30(c) || c30(0xf000 + c) || c30(0xf100 + c) || c30(0xf200 + c) || (c10 ? c10(c) : undefined);
        else if (c10) lookup = c10;
      } else if (encName === 'WinAnsiEncoding' || encName === undefined) {
        const c31 = tt.cmaps.get('3,1');
        if (c31) lookup = (c) => c31(winAnsiUnicode(c));
      } else if (encName === 'MacRomanEncoding') lookup = tt.cmaps.get('1,0');
      const fc = m.doc.resolve(font.map.get('FirstChar'));
      const widths = m.doc.resolve(font.map.get('Widths'));
      const seen = new Set<number>();
      for (const bytes of codes)
        for (const c of bytes) {
          if (seen.has(c)) continue;
          seen.add(c);
          if (lookup) {
            const gid = lookup(c);
            if (gid === undefined || gid >= tt.numGlyphs)
              once('6.2.11.4.1-2', `character code ${c} shown with font ${baseName(m, font)} has no glyph in the embedded program`);
            else if (gid === 0) once('6.2.11.8-1', `character code ${c} shown with font ${baseName(m, font)} maps to the .notdef glyph`);
            else if (typeof fc === 'number' && Array.isArray(widths)) {
              const w = m.doc.resolve(widths[c - fc]);
              const adv = tt.advance(gid);
              if (typeof w === 'number' && adv !== undefined && Math.abs(w - (adv * 1000) / tt.unitsPerEm) > 1)
                once(
                  '6.2.11.5-1',
                  `width ${w} of code ${c} in /Widths differs from the program's advance ${Math.round((adv * 1000) / tt.unitsPerEm)}`,
                );
            }
          }
        }
    } else if (st === 'Type0') {
      const encName = nameOf(m.doc.resolve(font.map.get('Encoding')));
      if (encName !== 'Identity-H' && encName !== 'Identity-V') continue;
      const d = m.doc.resolve(font.map.get('DescendantFonts'));
      const cf = Array.isArray(d) ? m.doc.dict(d[0]) : undefined;
      if (cf && nameOf(cf.map.get('Subtype')) === 'CIDFontType0') {
        // CID-keyed CFF: the program's charset lists the CIDs it defines.
        const prog = fontProgram(m, cf);
        const r = prog && prog.key === 'FontFile3' ? m.doc.decode(prog.s) : undefined;
        const cids = r && r.ok ? cffCids(r.data) : undefined;
        if (!cids) continue;
        for (const bytes of codes)
          for (let i = 0; i + 1 < bytes.length; i += 2) {
            const cid = (bytes[i] << 8) | bytes[i + 1];
            if (cid === 0) once('6.2.11.8-1', `CID 0 (.notdef) is shown with font ${baseName(m, font)}`);
            else if (!cids.has(cid))
              once('6.2.11.4.1-2', `CID ${cid} shown with font ${baseName(m, font)} is not defined in the embedded CFF program`);
          }
        continue;
      }
      if (!cf || nameOf(cf.map.get('Subtype')) !== 'CIDFontType2') continue;
      const tt = trueTypeOf(m, cf);
      if (!tt) continue;
      const map = m.doc.resolve(cf.map.get('CIDToGIDMap'));
      let toGid: (cid: number) => number | undefined = (cid) => cid;
      if (isStream(map)) {
        const r = m.doc.decode(map);
        if (!r.ok) continue;
        const data = r.data;
        toGid = (cid) => (cid * 2 + 1 < data.length ? (data[cid * 2] << 8) | data[cid * 2 + 1] : undefined);
      }
      const width = cidWidths(m, cf);
      const seen = new Set<number>();
      for (const bytes of codes) {
        if (bytes.length % 2 === 1)
          once('6.2.11.4.1-2', `a string shown with font ${baseName(m, font)} ends in an incomplete 2-byte code, which selects no glyph`);
        for (let i = 0; i + 1 < bytes.length; i += 2) {
          const cid = (bytes[i] << 8) | bytes[i + 1];
          if (seen.has(cid)) continue;
          seen.add(cid);
          const gid = toGid(cid);
          if (gid === undefined || gid >= tt.numGlyphs)
            once('6.2.11.4.1-2', `CID ${cid} shown with font ${baseName(m, font)} has no glyph in the embedded program`);
          else if (gid === 0) once('6.2.11.8-1', `CID ${cid} shown with font ${baseName(m, font)} is the .notdef glyph`);
          else {
            const adv = tt.advance(gid);
            const w = width(cid);
            if (adv !== undefined && Math.abs(w - (adv * 1000) / tt.unitsPerEm) > 1)
              once('6.2.11.5-1', `width ${w} of CID ${cid} differs from the program's advance ${Math.round((adv * 1000) / tt.unitsPerEm)}`);
          }
        }
      }
    } else if (st === 'Type3') {
      const enc = m.doc.dict(font.map.get('Encoding'));
      const diffs = enc ? m.doc.resolve(enc.map.get('Differences')) : null;
      const procs = m.doc.dict(font.map.get('CharProcs'));
      const fc = m.doc.resolve(font.map.get('FirstChar'));
      const widths = m.doc.resolve(font.map.get('Widths'));
      if (!Array.isArray(diffs) || !procs || typeof fc !== 'number' || !Array.isArray(widths)) continue;
      const names = new Map<number, string>();
      let code = 0;
      for (const x of diffs) {
        const v = m.doc.resolve(x);
        if (typeof v === 'number') code = v;
        else if (nameOf(v)) names.set(code++, nameOf(v)!);
      }
      const seen = new Set<number>();
      for (const bytes of codes)
        for (const c of bytes) {
          if (seen.has(c)) continue;
          seen.add(c);
          const name = names.get(c);
          const proc = name ? m.doc.resolve(procs.map.get(name)) : null;
          if (!isStream(proc)) continue;
          const r = m.doc.decode(proc);
          if (!r.ok) continue;
          const txt = Buffer.from(r.data.subarray(0, 400)).toString('latin1');
          const d0 = /([-+]?[\d.]+)\s+[-+]?[\d.]+\s+(?:d0|(?:[-+]?[\d.]+\s+){4}d1)/.exec(txt);
          const w = m.doc.resolve(widths[c - fc]);
          if (d0 && typeof w === 'number' && Math.abs(Number(d0[1]) - w) > 1)
            once('6.2.11.5-1', `width ${w} of code ${c} in /Widths differs from the glyph's d0/d1 width ${d0[1]}`);
        }
    }
  }
}

FONTS.push({ id: '6.2.11.5-1', run: checkGlyphs });

const PREDEFINED_CMAPS =
  /^(Identity-[HV]|(GB-EUC|GBpc-EUC|GBK-EUC|GBKp-EUC|GBK2K|UniGB-UCS2|UniGB-UTF16|B5pc|HKscs-B5|ETen-B5|ETenms-B5|CNS-EUC|UniCNS-UCS2|UniCNS-UTF16|83pv-RKSJ|90ms-RKSJ|90msp-RKSJ|90pv-RKSJ|Add-RKSJ|EUC|Ext-RKSJ|Ext|UniJIS-UCS2|UniJIS-UCS2-HW|UniJIS-UTF16|KSC-EUC|KSCms-UHC|KSCms-UHC-HW|KSCpc-EUC|UniKS-UCS2|UniKS-UTF16|H|V|GBT-EUC|GBTpc-EUC|CNS1|CNS2|ETHK-B5|HKdla-B5|HKdlb-B5|HKgccs-B5|HKm314-B5|HKm471-B5|UniCNS-UTF8|UniCNS-UTF32|UniGB-UTF8|UniGB-UTF32|UniJIS-UTF8|UniJIS-UTF32|UniKS-UTF8|UniKS-UTF32|78-EUC|78-RKSJ|78|78ms-RKSJ|90ms-RKSJ|Hankaku|Hiragana|Katakana|Roman|WP-Symbol|Add|UniJIS2004-UTF16|UniJIS2004-UTF8|UniJIS2004-UTF32|UniJISX0213-UTF32|UniJISX02132004-UTF32|UniJISPro-UCS2|UniJISPro-UTF8|UniJISPro-UCS2-HW|NWP|KSC|KSCpc)(-[HV])?|H|V)$/;

/** Glyph ids of a TrueType program that have outline data (loca ranges that are not empty). */
function ttPresentGlyphs(d: Uint8Array): number[] | undefined {
  if (d.length < 12) return undefined;
  const dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const n = dv.getUint16(4);
  const tables = new Map<string, { off: number; len: number }>();
  for (let i = 0; i < n && 12 + i * 16 + 16 <= d.length; i++) {
    const o = 12 + i * 16;
    tables.set(String.fromCharCode(d[o], d[o + 1], d[o + 2], d[o + 3]), { off: dv.getUint32(o + 8), len: dv.getUint32(o + 12) });
  }
  const maxp = tables.get('maxp');
  const head = tables.get('head');
  const loca = tables.get('loca');
  if (!maxp || !head || !loca || maxp.off + 6 > d.length || head.off + 52 > d.length) return undefined;
  const numGlyphs = dv.getUint16(maxp.off + 4);
  const long = dv.getInt16(head.off + 50) === 1;
  const entry = (g: number) => (long ? dv.getUint32(loca.off + g * 4) : dv.getUint16(loca.off + g * 2) * 2);
  if (loca.off + (numGlyphs + 1) * (long ? 4 : 2) > d.length) return undefined;
  const out: number[] = [];
  // CID 0 (.notdef) is left out: CIDSet writers commonly omit it and it is never shown.
  for (let g = 1; g < numGlyphs; g++) if (entry(g + 1) > entry(g)) out.push(g);
  return out;
}

// ---------------------------------------------------------------------------------------------
// 6.3 Annotations, 6.4 Forms, 6.5 Actions

const ANNOT_TYPES = new Set([
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
const FORBIDDEN_ANNOTS = new Set(['3D', 'Sound', 'Screen', 'Movie']);
const ALLOWED_ACTIONS = new Set(['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm']);
const NAMED_ACTIONS = new Set(['NextPage', 'PrevPage', 'FirstPage', 'LastPage']);

function annotArea(m: Model, a: PdfDictValue): number {
  const r = m.doc.resolve(a.map.get('Rect'));
  if (!Array.isArray(r) || r.length !== 4) return 1;
  const n = r.map((x) => m.doc.resolve(x));
  if (!n.every((x) => typeof x === 'number')) return 1;
  const [x1, y1, x2, y2] = n as number[];
  return Math.abs(x2 - x1) * Math.abs(y2 - y1);
}

function widgetFieldType(m: Model, a: PdfDictValue): string | undefined {
  let cur: PdfDictValue | undefined = a;
  for (let i = 0; cur && i < 32; i++) {
    const ft = nameOf(m.doc.resolve(cur.map.get('FT')));
    if (ft) return ft;
    cur = m.doc.dict(cur.map.get('Parent'));
  }
  return undefined;
}

export const ANNOTATIONS: Check[] = [
  {
    id: '6.3.1-1',
    run(m, emit) {
      for (const { dict, page } of m.annotations) {
        const st = nameOf(dict.map.get('Subtype'));
        if (!st || !ANNOT_TYPES.has(st) || FORBIDDEN_ANNOTS.has(st))
          emit(`annotation type ${st ?? 'missing'} is not allowed`, objName(m, dict) ?? `page ${page}`);
      }
    },
  },
  {
    id: '6.3.2-1',
    run(m, emit) {
      for (const { dict, page } of m.annotations) {
        if (nameOf(dict.map.get('Subtype')) === 'Popup') continue;
        const f = m.doc.resolve(dict.map.get('F'));
        if (typeof f !== 'number') {
          emit('annotation has no /F flags', objName(m, dict) ?? `page ${page}`);
          continue;
        }
        if (!(f & 4) || f & 1 || f & 2 || f & 32 || f & 256)
          emit(
            `annotation flags ${f}: Print must be set, Invisible, Hidden, NoView and ToggleNoView clear`,
            objName(m, dict) ?? `page ${page}`,
            '6.3.2-2',
          );
      }
    },
  },
  {
    id: '6.3.3-1',
    run(m, emit) {
      for (const { dict, page } of m.annotations) {
        const st = nameOf(dict.map.get('Subtype'));
        const where = objName(m, dict) ?? `page ${page}`;
        const ap = m.doc.dict(dict.map.get('AP'));
        if (!ap) {
          if (st !== 'Popup' && st !== 'Link' && annotArea(m, dict) > 0) emit(`${st ?? ''} annotation has no appearance dictionary`, where);
          continue;
        }
        for (const k of ap.map.keys()) if (k !== 'N') emit(`appearance dictionary has /${k}; only /N is allowed`, where, '6.3.3-2');
        const n = m.doc.resolve(ap.map.get('N'));
        if (st === 'Widget' && widgetFieldType(m, dict) === 'Btn') {
          if (!isDict(n)) emit('button widget /AP /N is not a dictionary of appearance states', where, '6.3.3-3');
        } else if (n !== null && !isStream(n)) emit('/AP /N is not an appearance stream', where, '6.3.3-4');
      }
    },
  },
  {
    id: '6.4.1-1',
    run(m, emit) {
      for (const { dict, page } of m.annotations) {
        if (nameOf(dict.map.get('Subtype')) !== 'Widget') continue;
        if (dict.map.has('A') || dict.map.has('AA')) emit('widget annotation has an /A or /AA action', objName(m, dict) ?? `page ${page}`);
      }
    },
  },
  {
    id: '6.4.1-2',
    run(m, emit) {
      for (const f of m.fields) if (f.map.has('AA')) emit('form field has /AA', objName(m, f) ?? 'form field');
    },
  },
  {
    id: '6.4.1-3',
    run(m, emit) {
      const af = m.doc.dict(m.catalog?.map.get('AcroForm'));
      if (af && m.doc.resolve(af.map.get('NeedAppearances')) === true) emit('AcroForm /NeedAppearances is true', 'catalog /AcroForm');
    },
  },
  {
    id: '6.4.2-1',
    run(m, emit) {
      const af = m.doc.dict(m.catalog?.map.get('AcroForm'));
      if (af && af.map.has('XFA')) emit('AcroForm has /XFA', 'catalog /AcroForm');
    },
  },
  {
    id: '6.4.2-2',
    run(m, emit) {
      if (m.catalog && m.doc.resolve(m.catalog.map.get('NeedsRendering')) === true) emit('the catalog has /NeedsRendering true', 'catalog');
    },
  },
  {
    id: '6.5.1-1',
    run(m, emit) {
      for (const { dict, where } of m.actions) {
        const s = nameOf(dict.map.get('S'));
        if (!s || !ALLOWED_ACTIONS.has(s)) emit(`action type ${s ?? 'missing'} is not allowed`, objName(m, dict) ?? where);
        else if (s === 'Named') {
          const n = nameOf(dict.map.get('N'));
          if (!n || !NAMED_ACTIONS.has(n)) emit(`named action ${n ?? 'missing'} is not allowed`, objName(m, dict) ?? where, '6.5.1-2');
        }
      }
      const names = m.doc.dict(m.catalog?.map.get('Names'));
      if (names && names.map.has('JavaScript')) emit('the document has a JavaScript name tree', 'catalog /Names');
    },
  },
  {
    id: '6.5.2-1',
    run(m, emit) {
      if (m.catalog?.map.has('AA')) emit('the catalog has additional actions (/AA)', 'catalog');
    },
  },
  {
    id: '6.5.2-2',
    run(m, emit) {
      for (const p of m.pages) if (p.dict.map.has('AA')) emit('the page has additional actions (/AA)', `page ${p.index}`);
    },
  },
];

// ---------------------------------------------------------------------------------------------
// 6.8 Embedded files, 6.9 Optional content, 6.10, 6.11

const fileSpecCache = new WeakMap<Model, { fs: PdfDictValue; num?: number }[]>();
function fileSpecs(m: Model): { fs: PdfDictValue; num?: number }[] {
  const cached = fileSpecCache.get(m);
  if (cached) return cached;
  const out: { fs: PdfDictValue; num?: number }[] = [];
  fileSpecCache.set(m, out);
  const seen = new Set<PdfDictValue>();
  const visit = (v: PdfValue, num: number | undefined, depth: number) => {
    if (depth > 6) return;
    if (isDict(v)) {
      if (v.map.has('EF') && !seen.has(v)) {
        seen.add(v);
        out.push({ fs: v, num });
      }
      for (const x of v.map.values()) if (!isRef(x)) visit(x, num, depth + 1);
    } else if (Array.isArray(v)) for (const x of v) if (!isRef(x)) visit(x, num, depth + 1);
  };
  const reachable = m.doc.reachable();
  for (const o of m.doc.objects.values()) if (reachable.has(o.num)) visit(o.value, o.num, 0);
  return out;
}

function afTargets(m: Model): Set<PdfDictValue> {
  const out = new Set<PdfDictValue>();
  const add = (d: PdfDictValue | undefined) => {
    if (!d) return;
    const af = m.doc.resolve(d.map.get('AF'));
    if (Array.isArray(af))
      for (const x of af) {
        const fs = m.doc.dict(x);
        if (fs) out.add(fs);
      }
    else if (isDict(af)) out.add(af);
  };
  for (const o of m.doc.objects.values()) {
    const v = o.value;
    if (isDict(v)) add(v);
    else if (isStream(v)) add(v.dict);
  }
  // Direct dictionaries (annotations, pages) with /AF inside other objects.
  for (const a of m.annotations) add(a.dict);
  for (const p of m.pages) add(p.dict);
  return out;
}

export const EMBEDDED: Check[] = [
  {
    id: '6.8-1',
    part: 3,
    run(m, emit) {
      for (const { fs, num } of fileSpecs(m)) {
        const ef = m.doc.dict(fs.map.get('EF'));
        if (!ef) continue;
        for (const k of ['F', 'UF']) {
          const s = m.doc.resolve(ef.map.get(k));
          if (!isStream(s)) continue;
          const st = nameOf(s.dict.map.get('Subtype'));
          if (!st || !/^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/.test(st))
            emit(
              `embedded file stream has ${st ? `/Subtype ${st}, not a MIME type` : 'no /Subtype MIME type'}`,
              objName(m, s) ?? `object ${num}`,
            );
          break;
        }
      }
    },
  },
  {
    id: '6.8-2',
    run(m, emit) {
      for (const { fs, num } of fileSpecs(m))
        if (!fs.map.has('F') || !fs.map.has('UF')) emit('file specification with /EF lacks /F or /UF', objName(m, fs) ?? `object ${num}`);
    },
  },
  {
    id: '6.8-3',
    part: 3,
    run(m, emit) {
      for (const { fs, num } of fileSpecs(m))
        if (nameOf(m.doc.resolve(fs.map.get('AFRelationship'))) === undefined)
          emit('file specification has no /AFRelationship', objName(m, fs) ?? `object ${num}`);
    },
  },
  {
    id: '6.8-4',
    part: 3,
    run(m, emit) {
      const targets = afTargets(m);
      for (const { fs, num } of fileSpecs(m))
        if (!targets.has(fs)) emit('file specification is not referenced from any /AF array', objName(m, fs) ?? `object ${num}`);
    },
  },
  {
    id: '6.8-5',
    part: 2,
    run(m, emit) {
      for (const { fs, num } of fileSpecs(m)) {
        const ef = m.doc.dict(fs.map.get('EF'));
        const s = ef ? m.doc.resolve(ef.map.get('F') ?? ef.map.get('UF')) : null;
        if (!isStream(s)) continue;
        const r = m.doc.decode(s);
        if (!r.ok) {
          emit(`embedded file could not be checked: ${r.detail}`, objName(m, s) ?? `object ${num}`);
          continue;
        }
        if (!m.embeddedIsPdfa(r.data)) emit('embedded file is not a PDF/A-1 or PDF/A-2 file', objName(m, s) ?? `object ${num}`);
      }
    },
  },
  {
    id: '6.9-1',
    run(m, emit) {
      const occ = ocConfigs(m);
      const names = new Set<string>();
      for (const c of occ) {
        const n = m.doc.resolve(c.map.get('Name'));
        const s =
          typeof n === 'object' && n !== null && !Array.isArray(n) && n.kind === 'string'
            ? Buffer.from(n.bytes).toString('latin1')
            : undefined;
        if (!s) emit('optional content configuration has no non-empty /Name', 'catalog /OCProperties');
        else if (names.has(s)) emit(`optional content configuration name "${s}" is not unique`, 'catalog /OCProperties', '6.9-2');
        else names.add(s);
        if (c.map.has('AS')) emit('optional content configuration has /AS', 'catalog /OCProperties', '6.9-4');
      }
      const ocp = m.doc.dict(m.catalog?.map.get('OCProperties'));
      const ocgs = ocp ? m.doc.resolve(ocp.map.get('OCGs')) : null;
      if (Array.isArray(ocgs)) {
        for (const c of occ) {
          const order = m.doc.resolve(c.map.get('Order'));
          if (!Array.isArray(order)) continue;
          const listed = new Set<number>();
          const walk = (a: PdfValue[], d: number) => {
            for (const x of a) {
              if (isRef(x)) {
                const r = m.doc.resolve(x);
                if (Array.isArray(r) && d < 16) walk(r, d + 1);
                else listed.add(x.num);
              } else if (Array.isArray(x) && d < 16) walk(x, d + 1);
            }
          };
          walk(order, 0);
          for (const g of ocgs)
            if (isRef(g) && !listed.has(g.num)) {
              emit(`optional content group object ${g.num} is missing from /Order`, 'catalog /OCProperties', '6.9-3');
              break;
            }
        }
      }
    },
  },
  {
    id: '6.10-1',
    run(m, emit) {
      const names = m.doc.dict(m.catalog?.map.get('Names'));
      if (names && names.map.has('AlternatePresentations')) emit('the names dictionary has /AlternatePresentations', 'catalog /Names');
      for (const p of m.pages) if (p.dict.map.has('PresSteps')) emit('the page has /PresSteps', `page ${p.index}`, '6.10-2');
    },
  },
  {
    id: '6.11-1',
    run(m, emit) {
      if (m.catalog?.map.has('Requirements')) emit('the catalog has /Requirements', 'catalog');
    },
  },
];

function ocConfigs(m: Model): PdfDictValue[] {
  const ocp = m.doc.dict(m.catalog?.map.get('OCProperties'));
  if (!ocp) return [];
  const out: PdfDictValue[] = [];
  const d = m.doc.dict(ocp.map.get('D'));
  if (d) out.push(d);
  const cfgs = m.doc.resolve(ocp.map.get('Configs'));
  if (Array.isArray(cfgs))
    for (const c of cfgs) {
      const x = m.doc.dict(c);
      if (x) out.push(x);
    }
  return out;
}

export const ALL_CHECKS: Check[] = [...FILE_STRUCTURE, ...GRAPHICS, ...FONTS, ...ANNOTATIONS, ...EMBEDDED];

export type { Finding };
