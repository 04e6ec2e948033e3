/**
 * ISO 19005-2/3 6.2.4.4-1: a DeviceN colour space names each spot colourant in the /Colorants dictionary of its
 * attributes, with a Separation colour space for it (ISO 32000-1 8.6.6.5: key = colourant name, value = a Separation
 * array). Ghostscript and hand-made files leave it out.
 *
 * The Separation given to a colourant is, in this order:
 * - a Separation of that name the document already uses (6.2.4.4-2 wants every Separation of one name to agree, so
 *   the same one serves every DeviceN);
 * - for a one-colourant DeviceN, its own alternate space and tint transform;
 * - else the DeviceN's alternate space with the DeviceN's tint transform restricted to that colourant, the others at
 *   their no-ink value 0: a PostScript calculator (type 4) transform gets a new program that puts the one tint among
 *   zeros and then runs the original program; a sampled (type 0) transform gets the line of its samples along that
 *   colourant's axis, when the zeros fall on sample points (they do when /Encode maps 0 to a grid point, as written
 *   by default). Any other transform is reported.
 * One Separation per colourant name is built and shared, so the file stays consistent with 6.2.4.4-2.
 *
 * Nothing is drawn differently: viewers paint DeviceN through its own alternate space and tint transform; the
 * Separations describe the colourants for those that separate (a press, overprint preview).
 */
import { PDFArray, PDFName, PDFNumber, PDFRawStream, type PDFDocument, type PDFObject, PDFRef } from '@cantoo/pdf-lib';
import type { Finding } from '../../pdfa/model.js';
import type { Repair, RepairOutcome } from './types.js';
import { arrayOf, decodedBytes, dictOf, MAX_WALK_NODES, resourceDicts, streamOf } from './walk.js';

const key = (k: string) => PDFName.of(k);
const PROCESS = new Set(['Cyan', 'Magenta', 'Yellow', 'Black', 'None']);
/** Tint transforms are small programs or sample tables; a larger one is not split. */
const MAX_FUNCTION_BYTES = 4 * 1024 * 1024;

/** Every colour space array reachable from the pages' resources (named spaces, images, shadings, groups), nested ones too. */
export function colourSpaceArrays(doc: PDFDocument): PDFArray[] {
  const out = new Set<PDFArray>();
  const add = (v: PDFObject | undefined, depth = 0): void => {
    const a = arrayOf(doc, v);
    if (!a || out.has(a) || depth > 8 || out.size >= MAX_WALK_NODES) return;
    out.add(a);
    const fam = a.get(0) instanceof PDFName ? (a.get(0) as PDFName).decodeText() : '';
    if (fam === 'Indexed' || fam === 'Pattern') add(a.get(1), depth + 1);
    if (fam === 'Separation' || fam === 'DeviceN') add(a.get(2), depth + 1);
    if (fam === 'DeviceN') {
      const colorants = dictOf(doc, dictOf(doc, a.get(4))?.get(key('Colorants')));
      if (colorants) for (const [, c] of colorants.entries()) add(c, depth + 1);
    }
  };
  for (const { res, stream } of resourceDicts(doc)) {
    const cs = dictOf(doc, res.get(key('ColorSpace')));
    if (cs) for (const [, v] of cs.entries()) add(v);
    const xo = dictOf(doc, res.get(key('XObject')));
    if (xo)
      for (const [, v] of xo.entries()) {
        const x = streamOf(doc, v);
        add(x?.dict.get(key('ColorSpace')));
        add(dictOf(doc, x?.dict.get(key('Group')))?.get(key('CS')));
      }
    const sh = dictOf(doc, res.get(key('Shading')));
    if (sh) for (const [, v] of sh.entries()) add(dictOf(doc, v, true)?.get(key('ColorSpace')));
    const pat = dictOf(doc, res.get(key('Pattern')));
    if (pat) for (const [, v] of pat.entries()) add(dictOf(doc, dictOf(doc, v, true)?.get(key('Shading')), true)?.get(key('ColorSpace')));
    if (stream) add(dictOf(doc, stream.dict.get(key('Group')))?.get(key('CS')));
  }
  for (const page of doc.getPages()) add(dictOf(doc, page.node.get(key('Group')))?.get(key('CS')));
  return [...out];
}

const num = (doc: PDFDocument, v: PDFObject | undefined): number | undefined => {
  const x = v instanceof PDFRef ? doc.context.lookup(v) : v;
  return x instanceof PDFNumber ? x.asNumber() : undefined;
};

function numbers(doc: PDFDocument, v: PDFObject | undefined): number[] | undefined {
  const a = arrayOf(doc, v);
  if (!a) return undefined;
  const out: number[] = [];
  for (const x of a.asArray()) {
    const n = num(doc, x);
    if (n === undefined || !Number.isFinite(n)) return undefined;
    out.push(n);
  }
  return out;
}

/** A number as PostScript calculator text: no exponent. */
function psNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return n.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}

const clip = (x: number, lo: number, hi: number) => Math.min(Math.max(x, lo), hi);

/**
 * The tint transform of colourant `i` alone: a function of one input that gives what `tint` gives for (0, …, t, …, 0).
 * Undefined when the transform is of a kind this cannot restrict exactly.
 */
export function restrictTint(doc: PDFDocument, tint: PDFObject | undefined, i: number, n: number): PDFRef | undefined {
  const s = streamOf(doc, tint);
  if (!(s instanceof PDFRawStream)) return undefined; // types 2 and 3 take one input: never an n-colourant transform
  const type = num(doc, s.dict.get(key('FunctionType')));
  const domain = numbers(doc, s.dict.get(key('Domain')));
  const range = numbers(doc, s.dict.get(key('Range')));
  if (!domain || domain.length !== 2 * n || !range || range.length < 2 || range.length % 2 !== 0) return undefined;
  const zero = (j: number) => clip(0, domain[2 * j], domain[2 * j + 1]);
  const ctx = doc.context;
  if (type === 4) {
    const bytes = decodedBytes(doc, s, MAX_FUNCTION_BYTES);
    if (!bytes) return undefined;
    const text = Buffer.from(bytes).toString('latin1');
    const open = text.indexOf('{');
    const close = text.lastIndexOf('}');
    if (open < 0 || close < open || text.slice(0, open).trim() || text.slice(close + 1).trim()) return undefined;
    // Stack [t] → [z0 … z(i-1) t z(i+1) … z(n-1)], then the original program on those n operands.
    const before = Array.from({ length: i }, (_, j) => psNumber(zero(j)));
    const after = Array.from({ length: n - i - 1 }, (_, j) => psNumber(zero(i + 1 + j)));
    const place = [...before, ...(i > 0 ? [`${i + 1} -1 roll`] : []), ...after].join(' ');
    const program = `{ ${place} ${text.slice(open + 1, close).trim()} }`;
    return ctx.register(
      ctx.flateStream(Buffer.from(program, 'latin1'), {
        FunctionType: 4,
        Domain: [domain[2 * i], domain[2 * i + 1]],
        Range: range,
      }),
    );
  }
  if (type === 0) return sampledLine(doc, s, i, n, domain, range);
  return undefined;
}

/** A type 0 function's samples along axis `i` with every other input at 0, as a one-input type 0 function. */
function sampledLine(doc: PDFDocument, s: PDFRawStream, i: number, n: number, domain: number[], range: number[]): PDFRef | undefined {
  const size = numbers(doc, s.dict.get(key('Size')));
  const bps = num(doc, s.dict.get(key('BitsPerSample')));
  if (!size || size.length !== n || size.some((x) => !Number.isInteger(x) || x < 1) || !bps || ![1, 2, 4, 8, 12, 16, 24, 32].includes(bps))
    return undefined;
  const encode = numbers(doc, s.dict.get(key('Encode'))) ?? size.flatMap((x) => [0, x - 1]);
  if (encode.length !== 2 * n) return undefined;
  const m = range.length / 2;
  // The grid index of every other input at 0; it must be a sample point for the line to be exact.
  let offset = 0;
  let stride = 1;
  const strides: number[] = [];
  for (let j = 0; j < n; j++) {
    strides.push(stride);
    if (j !== i) {
      const [d0, d1] = [domain[2 * j], domain[2 * j + 1]];
      const x = clip(0, d0, d1);
      const e = clip(
        d1 === d0 ? encode[2 * j] : encode[2 * j] + ((x - d0) * (encode[2 * j + 1] - encode[2 * j])) / (d1 - d0),
        0,
        size[j] - 1,
      );
      if (Math.abs(e - Math.round(e)) > 1e-9) return undefined;
      offset += Math.round(e) * stride;
    }
    stride *= size[j];
    if (stride > 1e8) return undefined;
  }
  const data = decodedBytes(doc, s, MAX_FUNCTION_BYTES);
  if (!data || data.length * 8 < stride * m * bps) return undefined;
  const read = (bit: number): number => {
    let v = 0;
    for (let b = 0; b < bps; b++) {
      const at = bit + b;
      v = v * 2 + ((data[at >> 3] >> (7 - (at & 7))) & 1);
    }
    return v;
  };
  const out = new Uint8Array(Math.ceil((size[i] * m * bps) / 8));
  let w = 0;
  for (let k = 0; k < size[i]; k++) {
    const sample = offset + k * strides[i];
    for (let o = 0; o < m; o++) {
      const v = read((sample * m + o) * bps);
      for (let b = bps - 1; b >= 0; b--, w++) if (Math.floor(v / 2 ** b) % 2 === 1) out[w >> 3] |= 0x80 >> (w & 7);
    }
  }
  const extra: Record<string, unknown> = {};
  const order = num(doc, s.dict.get(key('Order')));
  if (order !== undefined) extra.Order = order;
  const decode = numbers(doc, s.dict.get(key('Decode')));
  if (decode) extra.Decode = decode;
  const ctx = doc.context;
  return ctx.register(
    ctx.flateStream(out, {
      FunctionType: 0,
      Domain: [domain[2 * i], domain[2 * i + 1]],
      Range: range,
      Size: [size[i]],
      BitsPerSample: bps,
      Encode: [encode[2 * i], encode[2 * i + 1]],
      ...extra,
    }),
  );
}

/** 6.2.4.4-1: every spot colourant of every DeviceN gets its Separation in /Colorants. */
export function deviceNColorants_6_2_4_4(doc: PDFDocument, deadline: number): RepairOutcome {
  const spaces = colourSpaceArrays(doc);
  const ctx = doc.context;
  // Separations already in the document, by colourant name (the first one seen; 6.2.4.4-2 wants them all equal).
  const separations = new Map<PDFName, PDFObject>();
  const refOf = new Map<PDFArray, PDFRef>();
  for (const [ref, obj] of ctx.enumerateIndirectObjects()) if (obj instanceof PDFArray) refOf.set(obj, ref);
  for (const a of spaces) {
    const nm = a.get(1);
    if (a.size() >= 4 && a.get(0) === key('Separation') && nm instanceof PDFName && !separations.has(nm))
      separations.set(nm, refOf.get(a) ?? a);
  }
  for (const a of spaces) {
    const colorants = dictOf(doc, dictOf(doc, a.get(4))?.get(key('Colorants')));
    if (a.get(0) === key('DeviceN') && colorants)
      for (const [nm, v] of colorants.entries()) if (!separations.has(nm) && arrayOf(doc, v)) separations.set(nm, v);
  }
  let changed = 0;
  const unrepaired: Finding[] = [];
  for (const a of spaces) {
    if (a.get(0) !== key('DeviceN') || a.size() < 4) continue;
    if (Date.now() > deadline) {
      unrepaired.push({ clause: '6.2.4.4-1', message: 'DeviceN colourants not all described: the time budget ran out' });
      break;
    }
    const names = arrayOf(doc, a.get(1));
    if (!names) continue;
    const list = names.asArray();
    let attrs = dictOf(doc, a.get(4));
    let colorants = attrs ? dictOf(doc, attrs.get(key('Colorants'))) : undefined;
    list.forEach((nm, i) => {
      if (!(nm instanceof PDFName) || PROCESS.has(nm.decodeText()) || colorants?.has(nm)) return;
      let sep = separations.get(nm);
      if (!sep && nm.decodeText() !== 'All') {
        const tint = list.length === 1 ? a.get(3) : restrictTint(doc, a.get(3), i, list.length);
        if (tint) separations.set(nm, (sep = ctx.register(ctx.obj([key('Separation'), nm, a.get(2), tint]))));
      }
      if (!sep) {
        unrepaired.push({
          clause: '6.2.4.4-1',
          message: `DeviceN colourant ${nm.decodeText()} has no Separation in /Colorants, and its tint transform cannot be split per colourant`,
          ...(refOf.has(a) ? { object: `object ${refOf.get(a)!.objectNumber}` } : {}),
        });
        return;
      }
      if (!attrs) {
        attrs = ctx.obj({});
        if (a.size() >= 5) a.set(4, attrs);
        else a.push(attrs);
      }
      if (!colorants) {
        colorants = ctx.obj({});
        attrs.set(key('Colorants'), colorants);
      }
      colorants.set(nm, sep);
      changed++;
    });
  }
  return { changed, ...(unrepaired.length ? { unrepaired } : {}) };
}

export const COLOURANT_REPAIRS: Repair[] = [
  { name: 'devicen-colorants', clauses: ['6.2.4.4-1'], apply: ({ doc, deadline }) => deviceNColorants_6_2_4_4(doc, deadline) },
];
