/**
 * The PDF/A checker's view of a file: every indirect object found by a forward scan of the bytes (and the
 * members of object streams), with the lexical facts PDF/A judges (header/EOL spacing, stream keyword
 * EOLs, the real stream length, the xref keyword EOL, data after %%EOF), the last trailer, and a resolver.
 *
 * Why a scan rather than the cross-reference table: PDF/A's syntax rules apply to every object in the file,
 * and several corpus tests break the very things an xref-driven reader trusts (offsets, /Length). The value
 * types and helpers are those of src/pdf/lazy.ts, so code written against LazyPdf reads these objects too.
 */
import { isDict, isRef, isStream, nameOf, type PdfDictValue, type PdfStreamValue, type PdfValue } from '../pdf/lazy.js';
import { decodeStream, type DecodeBudget, type DecodeResult } from './decode.js';
import { isEol, Lexer, LexError, WS, type LexFact } from './lexer.js';

export interface StreamInfo {
  /** Byte offset of the first data byte. */
  dataStart: number;
  /** Data length measured to the EOL before endstream. */
  realLength: number;
  /** 'stream' followed by CRLF or LF. */
  keywordEolOk: boolean;
  /** 'endstream' preceded by an EOL. */
  endstreamEolOk: boolean;
  /** Bytes from the first data byte to the endstream keyword (the data may end with an EOL byte of its own). */
  toKeyword: number;
}

export interface IndirectObject {
  num: number;
  gen: number;
  /** Offset of the object header in the file; -1 for members of object streams. */
  offset: number;
  value: PdfValue;
  stream?: StreamInfo;
  /** Object number of the containing object stream. */
  inObjStm?: number;
  /** 'N G obj' with single spaces, preceded and followed by an EOL; 'endobj' preceded by an EOL. */
  spacingOk: boolean;
  spacingDetail?: string;
  facts: LexFact[];
}

export type XrefEntry = { type: 'n'; offset: number } | { type: 'f'; offset: number } | { type: 'c'; stream: number; index: number };

export interface XrefSectionInfo {
  offset: number;
  entries: Map<number, XrefEntry>;
  /** The 'xref' keyword is followed by exactly one EOL, then the subsection header. */
  eolOk: boolean;
  /** Subsection headers are "first count" separated by one space. */
  subsectionOk: boolean;
}

export interface TrailerInfo {
  offset: number;
  dict: PdfDictValue;
  /** Came from an xref stream rather than a 'trailer' keyword. */
  fromXrefStream: boolean;
}

export class PdfaDocument {
  readonly objects = new Map<number, IndirectObject>();
  /** Every object occurrence in file order (later definitions of a number also kept, for syntax checks). */
  readonly all: IndirectObject[] = [];
  readonly trailers: TrailerInfo[] = [];
  readonly xrefs: XrefSectionInfo[] = [];
  readonly problems: string[] = [];
  readonly decodeLimits: { obj: number; detail: string }[] = [];
  readonly budget: DecodeBudget;
  private readonly decoded = new WeakMap<PdfStreamValue, DecodeResult>();
  private readonly objOf = new WeakMap<object, number>();
  /** Members of object streams by "stream:num". */
  private readonly compressed = new Map<string, IndirectObject>();
  lastEofOffset = -1;

  /** The scan stopped at the deadline: the document is only partly read. */
  timedOut = false;
  private readonly deadline: number;

  constructor(
    readonly bytes: Uint8Array,
    opts: { decodeBudget?: number; deadline?: number } = {},
  ) {
    this.budget = { remaining: opts.decodeBudget ?? 256 * 1024 * 1024 };
    this.deadline = opts.deadline ?? Infinity;
    this.scan();
    this.expandObjectStreams();
    this.applyXref();
  }

  /**
   * Which definition of an object number is current follows the cross-reference chain (newest section
   * wins), when the chain can be read; otherwise the last definition in file order stands.
   */
  private applyXref(): void {
    const chain = this.trailerChain();
    if (chain.length === 0) return;
    const current = new Map<number, XrefEntry>();
    for (const t of chain) {
      const sections: Map<number, XrefEntry>[] = [];
      if (t.fromXrefStream) sections.push(this.xrefStreamEntries(t));
      else {
        const x = [...this.xrefs].reverse().find((s) => s.offset < t.offset);
        if (x) sections.push(x.entries);
        const stm = t.dict.map.get('XRefStm');
        if (typeof stm === 'number') {
          const xs = this.trailers.find((u) => u.fromXrefStream && u.offset === stm);
          if (xs) sections.push(this.xrefStreamEntries(xs));
        }
      }
      for (const entries of sections) for (const [n, e] of entries) if (!current.has(n)) current.set(n, e);
    }
    if (current.size === 0) return;
    const byOffset = new Map<number, IndirectObject>();
    for (const o of this.all) if (o.offset >= 0) byOffset.set(o.offset, o);
    for (const [n, e] of current) {
      let o: IndirectObject | undefined;
      if (e.type === 'n') {
        o = byOffset.get(e.offset);
        if (!o) {
          // Offsets may point at white space before the header.
          const p = skipWsFrom(this.bytes, e.offset);
          o = byOffset.get(p);
        }
        if (o && o.num !== n) o = undefined;
      } else if (e.type === 'c') {
        o = this.compressed.get(`${e.stream}:${n}`);
      } else if (e.type === 'f') {
        continue;
      }
      if (o) {
        this.objects.set(n, o);
        if (typeof o.value === 'object' && o.value !== null) this.objOf.set(o.value, n);
      }
    }
  }

  private xrefStreamEntries(t: TrailerInfo): Map<number, XrefEntry> {
    const out = new Map<number, XrefEntry>();
    const obj = this.all.find((o) => o.offset === t.offset);
    if (!obj || !isStream(obj.value)) return out;
    const s = obj.value;
    const w = s.dict.map.get('W');
    if (!Array.isArray(w) || w.length !== 3 || !w.every((x) => typeof x === 'number' && x >= 0 && x <= 8)) return out;
    const [w0, w1, w2] = w as number[];
    const size = s.dict.map.get('Size');
    const idx = s.dict.map.get('Index');
    const index =
      Array.isArray(idx) && idx.every((x) => typeof x === 'number') ? (idx as number[]) : [0, typeof size === 'number' ? size : 0];
    const r = this.decode(s);
    if (!r.ok) return out;
    const data = r.data;
    const rowLen = w0 + w1 + w2;
    if (rowLen === 0) return out;
    const field = (at: number, len: number, dflt: number): number => {
      if (len === 0) return dflt;
      let v = 0;
      for (let k = 0; k < len; k++) v = v * 256 + data[at + k];
      return v;
    };
    let row = 0;
    for (let i = 0; i + 1 < index.length; i += 2) {
      for (let k = 0; k < index[i + 1]; k++, row++) {
        const at = row * rowLen;
        if (at + rowLen > data.length) return out;
        const type = field(at, w0, 1);
        const a = field(at + w0, w1, 0);
        const c = field(at + w0 + w1, w2, 0);
        const num = index[i] + k;
        if (type === 1) out.set(num, { type: 'n', offset: a });
        else if (type === 2) out.set(num, { type: 'c', stream: a, index: c });
        else if (type === 0) out.set(num, { type: 'f', offset: 0 });
      }
    }
    return out;
  }

  /** Offset the last startxref points at. */
  startxref = -1;
  private merged: PdfDictValue | undefined;

  /**
   * The document trailer: the section the last startxref points at, with keys of older sections (/Prev)
   * filled in; when that chain is broken, every trailer in the file, the last one winning.
   */
  get trailer(): PdfDictValue | undefined {
    if (this.merged) return this.merged;
    if (this.trailers.length === 0) return undefined;
    const chain = this.trailerChain();
    const list = chain.length ? chain : [...this.trailers].reverse();
    const map = new Map<string, PdfValue>();
    for (const t of list) for (const [k, v] of t.dict.map) if (!map.has(k)) map.set(k, v);
    this.merged = { kind: 'dict', map };
    return this.merged;
  }

  /** Trailers from the last startxref along /Prev (newest first); empty when the chain cannot be followed. */
  trailerChain(): TrailerInfo[] {
    const out: TrailerInfo[] = [];
    let off = this.startxref;
    const seen = new Set<number>();
    while (off >= 0 && !seen.has(off) && seen.size < 256) {
      seen.add(off);
      const t = this.sectionAt(off);
      if (!t) return out.length ? out : [];
      out.push(t);
      const prev = t.dict.map.get('Prev');
      off = typeof prev === 'number' ? prev : -1;
    }
    return out;
  }

  private sectionAt(off: number): TrailerInfo | undefined {
    const direct = this.trailers.find((t) => t.fromXrefStream && t.offset === off);
    if (direct) return direct;
    const x = this.xrefs.find((s) => s.offset === off);
    if (!x) return undefined;
    return this.trailers.find((t) => !t.fromXrefStream && t.offset > off);
  }

  private reachableCache: Set<number> | undefined;
  /** Object numbers reachable from the trailer (Root, Info, ...): what a reader of the document sees. */
  reachable(): Set<number> {
    if (this.reachableCache) return this.reachableCache;
    const seen = new Set<number>();
    const stack: PdfValue[] = [];
    const t = this.trailer;
    if (t) for (const [k, v] of t.map) if (k !== 'Prev' && k !== 'XRefStm') stack.push(v);
    while (stack.length && seen.size < 5_000_000) {
      const v = stack.pop()!;
      if (isRef(v)) {
        if (seen.has(v.num)) continue;
        seen.add(v.num);
        const o = this.objects.get(v.num);
        if (o) stack.push(o.value);
      } else if (Array.isArray(v)) for (const x of v) stack.push(x);
      else if (isDict(v)) for (const x of v.map.values()) stack.push(x);
      else if (isStream(v)) for (const x of v.dict.map.values()) stack.push(x);
    }
    this.reachableCache = seen;
    return seen;
  }

  /** The object a reference stands for (direct values pass through). */
  resolve(v: PdfValue | undefined): PdfValue {
    if (v === undefined) return null;
    if (!isRef(v)) return v;
    return this.objects.get(v.num)?.value ?? null;
  }

  dict(v: PdfValue | undefined): PdfDictValue | undefined {
    const r = this.resolve(v);
    if (isDict(r)) return r;
    if (isStream(r)) return r.dict;
    return undefined;
  }

  get(d: PdfDictValue | undefined, key: string): PdfValue {
    return d ? this.resolve(d.map.get(key)) : null;
  }

  /** The object number a resolved dictionary/stream/array came from, when it is an indirect object. */
  numberOf(v: PdfValue | undefined): number | undefined {
    return typeof v === 'object' && v !== null ? this.objOf.get(v) : undefined;
  }

  /** Decode a stream within the document's budget; limits are remembered as decode-limit problems. */
  decode(s: PdfStreamValue): DecodeResult {
    const cached = this.decoded.get(s);
    if (cached) return cached;
    const r = decodeStream(s, this.budget);
    if (!r.ok && r.reason === 'limit') this.decodeLimits.push({ obj: this.numberOf(s) ?? -1, detail: r.detail });
    this.decoded.set(s, r);
    return r;
  }

  /**
   * One forward pass over the file. Keyword positions are found with Buffer.indexOf (native; converting a
   * binary file to a JS string costs more than the whole check), then taken in file order, skipping those
   * inside objects already read (stream data).
   */
  private scan(): void {
    const b = this.bytes;
    const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    type Cand = { at: number; kind: 'obj' | 'trailer' | 'startxref' | 'xref' | 'eof'; hdr?: Header };
    // One list per keyword, each already in file order; merged below without sorting.
    const lists: Cand[][] = [];
    const find = (kw: string, fn: (p: number, out: Cand[]) => void) => {
      const out: Cand[] = [];
      let n = 0;
      for (let p = buf.indexOf(kw, 0, 'latin1'); p >= 0; p = buf.indexOf(kw, p + kw.length, 'latin1')) {
        fn(p, out);
        if ((++n & 4095) === 0 && Date.now() > this.deadline) {
          this.timedOut = true;
          break;
        }
      }
      lists.push(out);
    };
    find('obj', (p, out) => {
      const hdr = headerBefore(b, p);
      if (hdr) out.push({ at: hdr.at, kind: 'obj', hdr });
    });
    find('trailer', (p, out) => out.push({ at: p, kind: 'trailer' }));
    find('xref', (p, out) => {
      if (p >= 5 && b[p - 5] === 0x73 && b[p - 1] === 0x74 && b[p - 4] === 0x74) out.push({ at: p - 5, kind: 'startxref' });
      else out.push({ at: p, kind: 'xref' });
    });
    find('%%EOF', (p, out) => out.push({ at: p, kind: 'eof' }));
    if (this.timedOut) return;
    // The 'obj' list is by far the longest: merge the few others into it (all lists are in file order).
    const others = ([] as Cand[]).concat(lists[1], lists[2], lists[3]).sort((x, y) => x.at - y.at);
    const objs = lists[0];
    const cands: Cand[] = new Array(objs.length + others.length);
    for (let a = 0, o = 0, k = 0; k < cands.length; k++)
      cands[k] = o >= others.length || (a < objs.length && objs[a].at < others[o].at) ? objs[a++] : others[o++];
    let pos = 0;
    let n = 0;
    for (const c of cands) {
      if ((++n & 1023) === 0 && Date.now() > this.deadline) {
        this.timedOut = true;
        return;
      }
      const at = c.at;
      if (c.kind === 'eof') {
        this.lastEofOffset = at;
        continue;
      }
      if (c.kind === 'startxref') {
        const lx = new Lexer(b, at + 9);
        const v = Number(lx.word());
        if (Number.isInteger(v)) this.startxref = v;
        continue;
      }
      if (at < pos) continue;
      if (c.kind === 'xref') {
        if (at > 0 && !WS[b[at - 1]] && b[at - 1] !== 0x3e) continue;
        const next = b[at + 4];
        if (next !== undefined && !WS[next]) continue;
        pos = this.readXref(at);
        continue;
      }
      if (c.kind === 'trailer') {
        const lx = new Lexer(b, at + 7);
        try {
          const d = lx.object();
          if (isDict(d)) this.trailers.push({ offset: at, dict: d, fromXrefStream: false });
          pos = lx.pos;
        } catch {
          this.problems.push(`unreadable trailer at ${at}`);
        }
        continue;
      }
      const end = this.readObject(at, c.hdr!);
      if (end > 0) pos = end;
    }
  }

  private readXref(at: number): number {
    const b = this.bytes;
    let p = at + 4;
    let eolOk = false;
    if (b[p] === 0x0d && b[p + 1] === 0x0a) (p += 2), (eolOk = true);
    else if (b[p] === 0x0a || b[p] === 0x0d) (p += 1), (eolOk = true);
    if (eolOk && !(b[p] >= 0x30 && b[p] <= 0x39)) eolOk = false;
    let subsectionOk = true;
    const entries = new Map<number, XrefEntry>();
    // Subsection headers and entries: skip to 'trailer' (entries are fixed 20-byte lines).
    const lx = new Lexer(b, at + 4);
    for (let guard = 0; guard < 1e7; guard++) {
      lx.skipWs();
      const hs = lx.pos;
      const w = lx.peekWord();
      if (!/^\d+$/.test(w)) break;
      lx.word();
      const sep = lx.pos;
      const count = Number(lx.word());
      if (!(b[sep] === 0x20 && b[sep + 1] >= 0x30 && b[sep + 1] <= 0x39)) subsectionOk = false;
      void hs;
      if (!Number.isInteger(count) || count < 0) break;
      lx.skipWs();
      const first = Number(w);
      const start = lx.pos;
      for (let i = 0; i < count && start + i * 20 + 18 <= b.length && entries.size < 10_000_000; i++) {
        const e = start + i * 20;
        const off = Number(Buffer.from(b.subarray(e, e + 10)).toString('latin1'));
        const kind = b[e + 17];
        if (kind === 0x6e && Number.isFinite(off)) entries.set(first + i, { type: 'n', offset: off });
        else if (kind === 0x66) entries.set(first + i, { type: 'f', offset: 0 });
      }
      lx.pos = Math.min(b.length, start + count * 20);
    }
    this.xrefs.push({ offset: at, eolOk, subsectionOk, entries });
    return lx.pos;
  }

  /** Parse the indirect object whose header matched at `at`; returns the offset after it (0 = not an object). */
  private readObject(at: number, h: Header): number {
    const b = this.bytes;
    const { num, gen, headerEnd } = h;
    const facts: LexFact[] = [];
    const lx = new Lexer(b, headerEnd, b.length, facts);
    let value: PdfValue;
    try {
      value = lx.object();
    } catch (err) {
      if (err instanceof LexError) this.problems.push(`object ${num}: ${err.message}`);
      return 0;
    }
    const spacing: string[] = [];
    if (at > 0 && !isEol(b[at - 1])) spacing.push('object header not preceded by an EOL');
    if (!h.singleSpaces) spacing.push('object number, generation and "obj" not separated by single spaces');
    if (!isEol(b[headerEnd])) spacing.push('"obj" not followed by an EOL');
    let stream: StreamInfo | undefined;
    const kwPos = skipWsFrom(b, lx.pos);
    if (isDict(value) && matchWord(b, kwPos, 'stream')) {
      const r = this.readStream(value, kwPos);
      if (!r) {
        this.problems.push(`object ${num}: stream without endstream`);
        return 0;
      }
      stream = r.info;
      value = r.stream;
      lx.pos = r.after;
    }
    const endPos = skipWsFrom(b, lx.pos);
    let after = endPos;
    if (matchWord(b, endPos, 'endobj')) {
      if (!isEol(b[endPos - 1])) spacing.push('"endobj" not preceded by an EOL');
      after = endPos + 6;
    } else {
      spacing.push('"endobj" missing');
    }
    const obj: IndirectObject = {
      num,
      gen,
      offset: at,
      value,
      stream,
      spacingOk: spacing.length === 0,
      spacingDetail: spacing.join('; ') || undefined,
      facts,
    };
    this.register(obj);
    if (isStream(value) && nameOf(value.dict.map.get('Type')) === 'XRef') {
      this.trailers.push({ offset: at, dict: value.dict, fromXrefStream: true });
    }
    return after;
  }

  private intObjectsCache: Map<number, number[]> | undefined;
  /** Every "N G obj <integer> endobj" in the file (candidates for indirect stream lengths). */
  private intObjects(): Map<number, number[]> {
    if (this.intObjectsCache) return this.intObjectsCache;
    const m = new Map<number, number[]>();
    const b = this.bytes;
    const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    for (let p = buf.indexOf('obj', 0, 'latin1'); p >= 0; p = buf.indexOf('obj', p + 3, 'latin1')) {
      const hdr = headerBefore(b, p);
      if (!hdr) continue;
      let q = skipWsFrom(b, p + 3);
      const start = q;
      while (b[q] >= 0x30 && b[q] <= 0x39 && q - start < 16) q++;
      if (q === start) continue;
      if (!matchWord(b, skipWsFrom(b, q), 'endobj')) continue;
      const list = m.get(hdr.num) ?? [];
      list.push(Number(Buffer.from(b.subarray(start, q)).toString('latin1')));
      m.set(hdr.num, list);
    }
    this.intObjectsCache = m;
    return m;
  }

  private endstreamsCache: number[] | undefined;
  /**
   * The first "endstream" at or after `from`, from one list of every "endstream" in the file (binary search):
   * searching the rest of the file for each stream was quadratic on a file of many streams without one
   * (0.6 MB held the event loop for ~1 s).
   */
  private nextEndstream(from: number): number {
    if (!this.endstreamsCache) {
      const b = this.bytes;
      const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
      const list: number[] = [];
      for (let p = buf.indexOf('endstream', 0, 'latin1'); p >= 0; p = buf.indexOf('endstream', p + 9, 'latin1')) list.push(p);
      this.endstreamsCache = list;
    }
    const list = this.endstreamsCache;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length ? list[lo] : -1;
  }

  private register(obj: IndirectObject): void {
    this.all.push(obj);
    this.objects.set(obj.num, obj);
    if (typeof obj.value === 'object' && obj.value !== null) this.objOf.set(obj.value, obj.num);
  }

  private readStream(dict: PdfDictValue, kwPos: number): { stream: PdfStreamValue; info: StreamInfo; after: number } | undefined {
    const b = this.bytes;
    let p = kwPos + 6;
    let keywordEolOk = false;
    if (b[p] === 0x0d && b[p + 1] === 0x0a) (p += 2), (keywordEolOk = true);
    else if (b[p] === 0x0a) (p += 1), (keywordEolOk = true);
    else {
      // Tolerate what readers tolerate (CR alone, blanks before the EOL) but remember it.
      while (b[p] === 0x20 || b[p] === 0x09) p++;
      if (b[p] === 0x0d && b[p + 1] === 0x0a) p += 2;
      else if (b[p] === 0x0a || b[p] === 0x0d) p += 1;
    }
    const dataStart = p;
    let len = dict.map.get('Length');
    let endKw = -1;
    const fits = (l: number): number => {
      if (l < 0 || dataStart + l > b.length) return -1;
      const q = skipWsFrom(b, dataStart + l);
      return matchWord(b, q, 'endstream') ? q : -1;
    };
    if (typeof len === 'number') endKw = fits(len);
    else if (isRef(len)) {
      // An indirect length is usually defined after the stream: try the integer objects of that number.
      for (const c of this.intObjects().get(len.num) ?? []) {
        const q = fits(c);
        if (q >= 0) {
          endKw = q;
          len = c;
          break;
        }
      }
    }
    if (endKw < 0) endKw = this.nextEndstream(dataStart);
    if (endKw < 0) return undefined;
    let dataEnd = endKw;
    if (b[dataEnd - 1] === 0x0a && b[dataEnd - 2] === 0x0d && dataEnd - 2 >= dataStart) dataEnd -= 2;
    else if ((b[dataEnd - 1] === 0x0a || b[dataEnd - 1] === 0x0d) && dataEnd - 1 >= dataStart) dataEnd -= 1;
    const endstreamEolOk = isEol(b[endKw - 1]);
    const rawEnd = typeof len === 'number' && len >= 0 && dataStart + len <= endKw ? dataStart + len : dataEnd;
    const stream: PdfStreamValue = { kind: 'stream', dict, raw: b.subarray(dataStart, rawEnd) };
    return {
      stream,
      info: { dataStart, realLength: dataEnd - dataStart, keywordEolOk, endstreamEolOk, toKeyword: endKw - dataStart },
      after: endKw + 9,
    };
  }

  private expandObjectStreams(): void {
    const stms = [...this.objects.values()].filter(
      (o) => isStream(o.value) && nameOf((o.value as PdfStreamValue).dict.map.get('Type')) === 'ObjStm',
    );
    for (const o of stms) {
      const s = o.value as PdfStreamValue;
      const n = s.dict.map.get('N');
      const first = s.dict.map.get('First');
      if (typeof n !== 'number' || typeof first !== 'number' || n < 0 || n > 1e6) continue;
      const r = this.decode(s);
      if (!r.ok) {
        this.problems.push(`object stream ${o.num}: ${r.detail}`);
        continue;
      }
      const data = r.data;
      const idx = new Lexer(data, 0, Math.min(first, data.length));
      const entries: [number, number][] = [];
      try {
        for (let i = 0; i < n; i++) entries.push([Number(idx.word()), Number(idx.word())]);
      } catch {
        continue;
      }
      for (const [num, off] of entries) {
        if (!Number.isInteger(num) || !Number.isInteger(off)) continue;
        const facts: LexFact[] = [];
        const lx = new Lexer(data, first + off, data.length, facts);
        try {
          const value = lx.object();
          const member: IndirectObject = { num, gen: 0, offset: -1, value, inObjStm: o.num, spacingOk: true, facts };
          this.compressed.set(`${o.num}:${num}`, member);
          if (this.objects.has(num) && (this.objects.get(num)!.offset > o.offset || this.objects.get(num)!.inObjStm !== undefined)) {
            this.all.push(member);
            continue;
          }
          this.register(member);
        } catch {
          this.problems.push(`object ${num} in object stream ${o.num} unreadable`);
        }
      }
    }
  }
}

export function skipWsFrom(b: Uint8Array, p: number): number {
  while (p < b.length) {
    const c = b[p];
    if (WS[c]) p++;
    else if (c === 0x25) {
      while (p < b.length && b[p] !== 0x0a && b[p] !== 0x0d) p++;
    } else break;
  }
  return p;
}

export function matchWord(b: Uint8Array, p: number, w: string): boolean {
  for (let i = 0; i < w.length; i++) if (b[p + i] !== w.charCodeAt(i)) return false;
  const c = b[p + w.length];
  return c === undefined || WS[c] === 1 || c === 0x3c || c === 0x2f || c === 0x25 || c === 0x5b;
}

interface Header {
  /** Offset of the object number. */
  at: number;
  num: number;
  gen: number;
  headerEnd: number;
  singleSpaces: boolean;
}

/** "N G obj" ending at the "obj" found at p (read backwards), or undefined. */
function headerBefore(b: Uint8Array, p: number): Header | undefined {
  const after = b[p + 3];
  if (after !== undefined && !WS[after] && after !== 0x3c && after !== 0x5b && after !== 0x2f && after !== 0x25 && after !== 0x28)
    return undefined;
  let q = p - 1;
  const ws2End = q;
  while (q >= 0 && WS[b[q]]) q--;
  if (q === ws2End) return undefined;
  const ws2Single = ws2End - q === 1 && b[ws2End] === 0x20;
  const genEnd = q;
  while (q >= 0 && b[q] >= 0x30 && b[q] <= 0x39) q--;
  if (q === genEnd || genEnd - q > 10) return undefined;
  const genStart = q + 1;
  const ws1End = q;
  while (q >= 0 && WS[b[q]]) q--;
  if (q === ws1End) return undefined;
  const ws1Single = ws1End - q === 1 && b[ws1End] === 0x20;
  const numEnd = q;
  while (q >= 0 && b[q] >= 0x30 && b[q] <= 0x39) q--;
  if (q === numEnd || numEnd - q > 10) return undefined;
  const numStart = q + 1;
  let num = 0;
  for (let k = numStart; k <= numEnd; k++) num = num * 10 + (b[k] - 0x30);
  let gen = 0;
  for (let k = genStart; k <= genEnd; k++) gen = gen * 10 + (b[k] - 0x30);
  return { at: numStart, num, gen, headerEnd: p + 3, singleSpaces: ws1Single && ws2Single };
}
