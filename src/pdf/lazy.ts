/**
 * A small, lazy PDF object reader for the fast path of attachment extraction.
 *
 * Why: @cantoo/pdf-lib parses every object of a file (fonts, images, page content) before anything can
 * be looked up; for a 100 KB invoice that was ~70 % of an /v1/extract request. This reader follows the
 * cross-reference chain (tables and xref streams, /Prev, object streams) and parses only the objects on
 * the way from the trailer to the attachments. It is deliberately strict: anything unexpected (broken
 * offsets, unsupported filters) throws LazyPdfError, and the caller falls back to the full parser,
 * which copes with damaged files.
 *
 * It is also the gate every uploaded PDF passes first: every count and size read from the file is
 * checked against the file's real length and the caps of ./limits.ts before anything is allocated or
 * looped over. A file over a limit throws PdfLimitError, which is final (no fallback gets to try it).
 */
import { type EncryptionInfo, StandardSecurityHandler } from './crypt.js';
import {
  isDict,
  isRef,
  isStream,
  nameOf,
  type PdfDictValue,
  type PdfNameValue,
  type PdfStreamValue,
  type PdfString,
  type PdfValue,
} from './values.js';
import { readLiteralString } from './literal.js';
import { applyFilters, applyFiltersAsync, decodeParms, FilterError, type FilterStep } from './filters.js';
import {
  DecodeBudget,
  streamTooLarge,
  type StreamKind,
  MAX_NESTING,
  MAX_OBJSTM_OBJECTS,
  MAX_RESOLVED_OBJECTS,
  MAX_XREF_ENTRIES,
  MAX_XREF_SECTIONS,
  PdfLimitError,
} from './limits.js';

export { MAX_DECODED_BYTES } from './limits.js';
export { isDict, isRef, isStream, nameOf } from './values.js';
export type { PdfDictValue, PdfNameValue, PdfRefValue, PdfStreamValue, PdfString, PdfValue } from './values.js';

export class LazyPdfError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LazyPdfError';
  }
}

type XrefEntry = { type: 'offset'; offset: number } | { type: 'compressed'; stream: number; index: number };

const WS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WS[c] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;

/** Tokenizer/parser over a byte range. */
class Parser {
  pos: number;
  private depth = 0;
  constructor(
    private readonly b: Uint8Array,
    start = 0,
    private readonly end = b.length,
  ) {
    this.pos = start;
  }

  skipWs(): void {
    const b = this.b;
    while (this.pos < this.end) {
      const c = b[this.pos];
      if (WS[c]) this.pos++;
      else if (c === 0x25 /* % */) {
        while (this.pos < this.end && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      } else break;
    }
  }

  /** A bare keyword/number token. */
  word(): string {
    this.skipWs();
    const start = this.pos;
    while (this.pos < this.end && !WS[this.b[this.pos]] && !DELIM[this.b[this.pos]]) this.pos++;
    return latin1(this.b, start, this.pos);
  }

  expectWord(w: string): void {
    const got = this.word();
    if (got !== w) throw new LazyPdfError(`expected "${w}", found "${got.slice(0, 20)}"`);
  }

  value(): PdfValue {
    this.skipWs();
    if (this.pos >= this.end) throw new LazyPdfError('unexpected end of data');
    const b = this.b;
    const c = b[this.pos];
    if (c === 0x2f /* / */) return this.name();
    if (c === 0x3c /* < */) {
      if (b[this.pos + 1] === 0x3c) return this.nested(() => this.dict());
      return this.hexString();
    }
    if (c === 0x5b /* [ */) return this.nested(() => this.array());
    if (c === 0x28 /* ( */) return this.literalString();
    const w = this.word();
    if (w === '') throw new LazyPdfError(`unexpected byte 0x${c.toString(16)}`);
    if (w === 'true') return true;
    if (w === 'false') return false;
    if (w === 'null') return null;
    const n = Number(w);
    if (!Number.isFinite(n)) throw new LazyPdfError(`unexpected token "${w.slice(0, 20)}"`);
    // "n g R" is a reference: look ahead without consuming on mismatch.
    if (Number.isInteger(n) && n >= 0) {
      const save = this.pos;
      const g = this.word();
      if (/^\d+$/.test(g)) {
        const r = this.word();
        if (r === 'R') return { kind: 'ref', num: n, gen: Number(g) };
      }
      this.pos = save;
    }
    return n;
  }

  /** Arrays and dictionaries recurse: their nesting is capped (a hostile file nests them 100,000 deep). */
  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_NESTING) throw new PdfLimitError(`The PDF nests arrays or dictionaries more than ${MAX_NESTING} levels deep`);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private array(): PdfValue[] {
    const b = this.b;
    this.pos++;
    const arr: PdfValue[] = [];
    for (;;) {
      this.skipWs();
      if (this.pos >= this.end) throw new LazyPdfError('unterminated array');
      if (b[this.pos] === 0x5d) {
        this.pos++;
        return arr;
      }
      arr.push(this.value());
    }
  }

  private name(): PdfNameValue {
    this.pos++; // '/'
    const start = this.pos;
    while (this.pos < this.end && !WS[this.b[this.pos]] && !DELIM[this.b[this.pos]]) this.pos++;
    const raw = latin1(this.b, start, this.pos);
    return {
      kind: 'name',
      name: raw.includes('#') ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16))) : raw,
    };
  }

  private dict(): PdfDictValue {
    this.pos += 2;
    const map = new Map<string, PdfValue>();
    for (;;) {
      this.skipWs();
      if (this.pos >= this.end) throw new LazyPdfError('unterminated dictionary');
      if (this.b[this.pos] === 0x3e && this.b[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return { kind: 'dict', map };
      }
      if (this.b[this.pos] !== 0x2f) throw new LazyPdfError('dictionary key is not a name');
      const key = this.name().name;
      map.set(key, this.value());
    }
  }

  private hexString(): PdfString {
    this.pos++;
    const out: number[] = [];
    let hi = -1;
    while (this.pos < this.end && this.b[this.pos] !== 0x3e) {
      const c = this.b[this.pos++];
      const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
      if (v < 0) continue; // whitespace
      if (hi < 0) hi = v;
      else {
        out.push(hi * 16 + v);
        hi = -1;
      }
    }
    if (hi >= 0) out.push(hi * 16);
    this.pos++;
    return { kind: 'string', bytes: Uint8Array.from(out) };
  }

  private literalString(): PdfString {
    const r = readLiteralString(this.b, this.pos, this.end);
    if (!r) throw new LazyPdfError('unterminated string');
    this.pos = r.next;
    return { kind: 'string', bytes: r.bytes };
  }
}

/** A classic xref row at `at` ("0000012345 00000 n"), or undefined when the row is not in the fixed format. */
function fixedXrefRow(b: Uint8Array, at: number): { offset: number; type: 'n' | 'f' } | undefined {
  if (at + 18 > b.length || b[at + 10] !== 0x20 || b[at + 16] !== 0x20) return undefined;
  let offset = 0;
  for (let k = 0; k < 10; k++) {
    const c = b[at + k] - 0x30;
    if (c < 0 || c > 9) return undefined;
    offset = offset * 10 + c;
  }
  for (let k = 11; k < 16; k++) if (b[at + k] < 0x30 || b[at + k] > 0x39) return undefined;
  const t = b[at + 17];
  if (t !== 0x6e && t !== 0x66) return undefined;
  const after = b[at + 18];
  if (after !== undefined && !WS[after]) return undefined;
  return { offset, type: t === 0x6e ? 'n' : 'f' };
}

function latin1(b: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(b[i]);
  return s;
}

export class LazyPdf {
  private readonly xref = new Map<number, XrefEntry>();
  private readonly cache = new Map<number, PdfValue>();
  private readonly objStreams = new Map<number, { data: Uint8Array; offsets: Map<number, number> }>();
  /** Cross-reference entries read so far (all sections); capped by MAX_XREF_ENTRIES and the file length. */
  private entries = 0;
  /** Nested object loads (an object stream inside an object stream ...). */
  private loadDepth = 0;
  readonly trailer: PdfDictValue;

  constructor(
    private readonly b: Uint8Array,
    /** Decoded bytes allowed for this request, shared with whoever decodes attachments afterwards. */
    readonly budget = new DecodeBudget(),
  ) {
    const tail = Math.max(0, b.length - 2048);
    let sx = -1;
    for (let i = b.length - 9; i >= tail; i--) {
      if (b[i] === 0x73 && latin1(b, i, i + 9) === 'startxref') {
        sx = i;
        break;
      }
    }
    if (sx < 0) throw new LazyPdfError('no startxref');
    const p = new Parser(b, sx + 9);
    let offset = Number(p.word());
    let trailer: PdfDictValue | undefined;
    const seen = new Set<number>();
    while (Number.isInteger(offset) && offset > 0 && offset < b.length && !seen.has(offset)) {
      if (seen.size >= MAX_XREF_SECTIONS)
        throw new PdfLimitError(`The PDF's cross-reference chain has more than ${MAX_XREF_SECTIONS} sections`);
      seen.add(offset);
      const section = this.readXrefSection(offset, seen);
      trailer ??= section;
      const prev = section.map.get('Prev');
      offset = typeof prev === 'number' ? prev : -1;
    }
    if (!trailer) throw new LazyPdfError('no trailer');
    this.trailer = trailer;
  }

  /** The trailer names an /Encrypt dictionary. */
  get encrypted(): boolean {
    return this.trailer.map.has('Encrypt');
  }

  /** Decrypts strings and streams of objects loaded after unlock(); undefined for a file in clear. */
  private security: StandardSecurityHandler | undefined;
  /** The /Encrypt dictionary's object: its own strings are never encrypted. */
  private encryptNum = -1;

  /**
   * Open an encrypted file with the empty user password (see ./crypt.ts): every object loaded from now on is
   * decrypted. Throws PdfCryptError when that is not possible (a password is needed, another handler).
   */
  unlock(): EncryptionInfo {
    const ref = this.trailer.map.get('Encrypt');
    if (isRef(ref)) this.encryptNum = ref.num;
    const encrypt = this.resolve(ref);
    const id = this.trailer.map.get('ID');
    const id0 =
      Array.isArray(id) && typeof id[0] === 'object' && id[0] !== null && !Array.isArray(id[0]) && id[0].kind === 'string'
        ? id[0].bytes
        : undefined;
    this.security = StandardSecurityHandler.open(encrypt, id0);
    // Anything resolved so far (the /Encrypt dictionary, /Length objects) was read in clear; only the former may stay.
    for (const num of [...this.cache.keys()]) if (num !== this.encryptNum) this.cache.delete(num);
    return this.security.info;
  }

  /** Count `n` more cross-reference entries against the caps, before any of them is read. */
  private addEntries(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0) throw new LazyPdfError('bad xref count');
    this.entries += n;
    if (this.entries > MAX_XREF_ENTRIES)
      throw new PdfLimitError(`The PDF's cross-reference lists more than ${MAX_XREF_ENTRIES.toLocaleString('en')} objects`);
    // Every object takes bytes of the file (an xref row, a stream index pair, the object itself).
    if (this.entries > Math.max(1024, this.b.length))
      throw new PdfLimitError("The PDF's cross-reference lists more objects than the file can hold");
  }

  /** Read one xref section (classic table or xref stream) at `offset`; newer entries (read first) win. */
  private readXrefSection(offset: number, seen: Set<number>): PdfDictValue {
    const p = new Parser(this.b, offset);
    const head = p.word();
    if (head === 'xref') {
      for (;;) {
        const save = p.pos;
        const w = p.word();
        if (w === 'trailer') break;
        if (!/^\d{1,10}$/.test(w)) {
          p.pos = save;
          throw new LazyPdfError('bad xref subsection');
        }
        const first = Number(w);
        const count = Number(p.word());
        this.addEntries(count);
        // A classic row is 20 bytes: a count the rest of the file cannot hold is damage, not a table.
        if (count * 18 > this.b.length - p.pos) throw new LazyPdfError('xref table longer than the file');
        for (let i = 0; i < count; i++) {
          p.skipWs();
          // Rows are "oooooooooo ggggg n" + EOL: read in place (a 50,000-row table took 3 words a row).
          const row = fixedXrefRow(this.b, p.pos);
          let off: number;
          let type: string;
          if (row) {
            off = row.offset;
            type = row.type;
            p.pos += 18;
          } else {
            off = Number(p.word());
            p.word(); // generation
            type = p.word();
          }
          if (type === 'n' && !this.xref.has(first + i)) this.xref.set(first + i, { type: 'offset', offset: off });
          else if (type === 'f' && !this.xref.has(first + i)) this.xref.set(first + i, { type: 'offset', offset: -1 });
        }
      }
      const trailer = p.value();
      if (!isDict(trailer)) throw new LazyPdfError('trailer is not a dictionary');
      const stm = trailer.map.get('XRefStm');
      // Hybrid file: compressed objects live there.
      if (typeof stm === 'number' && stm > 0 && stm < this.b.length && !seen.has(stm)) {
        if (seen.size >= MAX_XREF_SECTIONS)
          throw new PdfLimitError(`The PDF's cross-reference chain has more than ${MAX_XREF_SECTIONS} sections`);
        seen.add(stm);
        this.readXrefSection(stm, seen);
      }
      return trailer;
    }
    // An xref stream: "n g obj << /Type /XRef ... >> stream".
    if (!/^\d+$/.test(head)) throw new LazyPdfError('startxref does not point at an xref section');
    p.word();
    p.expectWord('obj');
    const stream = this.streamAt(p);
    const dict = stream.dict;
    if (nameOf(dict.map.get('Type')) !== 'XRef') throw new LazyPdfError('not an xref stream');
    const w = dict.map.get('W');
    if (!Array.isArray(w) || w.length !== 3 || !w.every((x) => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 8)) {
      throw new PdfLimitError("The PDF's cross-reference stream has an invalid /W (each field 0 to 8 bytes)");
    }
    const [w0, w1, w2] = w as number[];
    const rowLen = w0 + w1 + w2;
    if (rowLen === 0) throw new PdfLimitError("The PDF's cross-reference stream has an invalid /W (/W [0 0 0])");
    const size = dict.map.get('Size');
    const indexValue = dict.map.get('Index') ?? [0, typeof size === 'number' ? size : 0];
    if (
      !Array.isArray(indexValue) ||
      indexValue.length % 2 !== 0 ||
      !indexValue.every((x) => Number.isSafeInteger(x) && (x as number) >= 0)
    ) {
      throw new LazyPdfError('bad /Index');
    }
    const index = indexValue as number[];
    let total = 0;
    for (let s = 1; s < index.length; s += 2) total += index[s];
    // Checked before decoding or looping: the file must be able to hold what /Index claims.
    this.addEntries(total);
    const data = decodeStreamData(stream, this.budget, { kind: 'structure' });
    if (total * rowLen > data.length) throw new LazyPdfError('xref stream too short');
    let row = 0;
    const field = (start: number, len: number, dflt: number): number => {
      if (len === 0) return dflt;
      let v = 0;
      for (let k = 0; k < len; k++) v = v * 256 + data[start + k];
      return v;
    };
    for (let s = 0; s + 1 < index.length; s += 2) {
      const first = index[s];
      const count = index[s + 1];
      for (let i = 0; i < count; i++, row++) {
        const at = row * rowLen;
        const type = field(at, w0, 1);
        const a = field(at + w0, w1, 0);
        const c = field(at + w0 + w1, w2, 0);
        const num = first + i;
        if (this.xref.has(num)) continue;
        if (type === 1) this.xref.set(num, { type: 'offset', offset: a });
        else if (type === 2) this.xref.set(num, { type: 'compressed', stream: a, index: c });
        else this.xref.set(num, { type: 'offset', offset: -1 });
      }
    }
    return dict;
  }

  /** Parse "<<dict>> stream…endstream" at the parser position (after "obj"). */
  private streamAt(p: Parser): PdfStreamValue {
    const dict = p.value();
    if (!isDict(dict)) throw new LazyPdfError('stream without dictionary');
    p.expectWord('stream');
    let start = p.pos;
    if (this.b[start] === 0x0d) start++;
    if (this.b[start] === 0x0a) start++;
    const lenValue = dict.map.get('Length');
    const length = typeof lenValue === 'number' ? lenValue : isRef(lenValue) ? this.resolve(lenValue) : undefined;
    if (typeof length !== 'number' || !Number.isInteger(length) || length < 0 || start + length > this.b.length)
      throw new LazyPdfError('bad stream length');
    // The stream must be followed by "endstream"; otherwise the /Length is wrong and the full parser decides.
    const after = new Parser(this.b, start + length);
    if (after.word() !== 'endstream') throw new LazyPdfError('stream length does not reach endstream');
    return { kind: 'stream', dict, raw: this.b.subarray(start, start + length) };
  }

  /** The object a reference (or a direct value) stands for. */
  resolve(v: PdfValue | undefined): PdfValue {
    if (v === undefined) return null;
    if (!isRef(v)) return v;
    const cached = this.cache.get(v.num);
    if (cached !== undefined) return cached;
    if (this.cache.size >= MAX_RESOLVED_OBJECTS)
      throw new PdfLimitError(`Reading the PDF's attachments needs more than ${MAX_RESOLVED_OBJECTS.toLocaleString('en')} objects`);
    this.cache.set(v.num, null); // guards against reference cycles
    if (++this.loadDepth > 32) throw new PdfLimitError('The PDF nests objects inside object streams too deeply');
    try {
      const value = this.load(v.num);
      this.cache.set(v.num, value);
      return value;
    } finally {
      this.loadDepth--;
    }
  }

  private load(num: number): PdfValue {
    const entry = this.xref.get(num);
    if (!entry) return null;
    if (entry.type === 'offset') {
      if (entry.offset < 0) return null;
      if (entry.offset >= this.b.length) throw new LazyPdfError(`object ${num} is outside the file`);
      const p = new Parser(this.b, entry.offset);
      if (Number(p.word()) !== num) throw new LazyPdfError(`object ${num} is not at its xref offset`);
      const gen = Number(p.word());
      p.expectWord('obj');
      const save = p.pos;
      const v = p.value();
      if (isDict(v)) {
        const kw = new Parser(this.b, p.pos).word();
        if (kw === 'stream') {
          p.pos = save;
          const s = this.streamAt(p);
          if (this.security && num !== this.encryptNum) {
            this.security.decryptStrings(s.dict, num, gen);
            s.raw = this.security.decryptStream(s.dict, s.raw, num, gen);
          }
          return s;
        }
      }
      // Objects inside object streams are not encrypted on their own (their stream was).
      if (this.security && num !== this.encryptNum) this.security.decryptStrings(v, num, gen);
      return v;
    }
    const os = this.objectStream(entry.stream);
    const at = os.offsets.get(num);
    if (at === undefined) throw new LazyPdfError(`object ${num} missing from its object stream`);
    return new Parser(os.data, at).value();
  }

  private objectStream(num: number): { data: Uint8Array; offsets: Map<number, number> } {
    const cached = this.objStreams.get(num);
    if (cached) return cached;
    const s = this.resolve({ kind: 'ref', num, gen: 0 });
    if (!isStream(s)) throw new LazyPdfError('object stream is not a stream');
    const n = s.dict.map.get('N');
    const first = s.dict.map.get('First');
    if (typeof n !== 'number' || typeof first !== 'number' || !Number.isInteger(n) || !Number.isInteger(first) || n < 0 || first < 0) {
      throw new LazyPdfError('bad object stream header');
    }
    // Checked before decoding: /N against the cap and the file, then against the decoded index.
    if (n > MAX_OBJSTM_OBJECTS)
      throw new PdfLimitError(`An object stream of the PDF claims ${n} objects (the limit is ${MAX_OBJSTM_OBJECTS.toLocaleString('en')})`);
    const data = decodeStreamData(s, this.budget, { kind: 'structure' });
    // Each index pair ("num offset ") takes at least 4 bytes of the /First bytes before the objects.
    if (first > data.length || n * 4 > first + 1)
      throw new PdfLimitError(`An object stream of the PDF claims ${n} objects but holds fewer`);
    const p = new Parser(data, 0, first);
    const offsets = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const objNum = Number(p.word());
      const off = Number(p.word());
      if (!Number.isInteger(objNum) || !Number.isInteger(off) || off < 0 || first + off > data.length)
        throw new LazyPdfError('bad object stream index');
      offsets.set(objNum, first + off);
    }
    const os = { data, offsets };
    this.objStreams.set(num, os);
    return os;
  }
}

/** A PDF text string: UTF-16BE with BOM, UTF-8 with BOM, else PDFDocEncoding (Latin-1 for our purposes). */
export function textOfString(v: PdfValue | undefined): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v.kind !== 'string') return undefined;
  const b = v.bytes;
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b.subarray(2));
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return new TextDecoder('utf-8').decode(b.subarray(3));
  return latin1(b, 0, b.length);
}

/** The filter chain of a stream dictionary, in our FilterStep form. */
export function filterSteps(dict: PdfDictValue): FilterStep[] {
  const filter = dict.map.get('Filter');
  const names = filter === undefined || filter === null ? [] : Array.isArray(filter) ? filter.map(nameOf) : [nameOf(filter)];
  const parmsRaw = dict.map.get('DecodeParms') ?? dict.map.get('DP');
  return names.map((name, i) => {
    if (name === undefined) throw new LazyPdfError('bad /Filter');
    const parms = Array.isArray(parmsRaw) ? parmsRaw[i] : i === 0 ? parmsRaw : undefined;
    if (!isDict(parms)) return { name };
    const num = (k: string): number | undefined => {
      const v = parms.map.get(k);
      return typeof v === 'number' ? v : undefined;
    };
    return { name, parms: decodeParms(num) };
  });
}

/**
 * Decode a stream's data (Flate, LZW, ASCII85, ASCIIHex, RunLength; PNG predictors), capped per stream and
 * charged to `budget`. A bomb throws PdfLimitError; data we cannot decode throws LazyPdfError.
 */
export function decodeStreamData(
  s: PdfStreamValue,
  budget: DecodeBudget,
  opts: { lenientFlate?: boolean; kind?: StreamKind } = {},
): Uint8Array {
  const steps = filterSteps(s.dict);
  const kind = opts.kind ?? 'file';
  if (steps.length === 0) {
    if (s.raw.length > budget.capFor(kind)) throw streamTooLarge(budget.capFor(kind));
    return s.raw;
  }
  let out: Uint8Array;
  try {
    out = applyFilters(s.raw, steps, budget.capFor(kind), opts);
  } catch (err) {
    if (err instanceof FilterError) throw new LazyPdfError(err.message);
    throw err;
  }
  budget.charge(out.length, kind);
  return out;
}

/**
 * decodeStreamData off the event loop: Flate (what attachments use) inflates in libuv's thread pool, and the
 * other filters (LZW, ASCII85, ASCIIHex, RunLength) decode in slices with turns of the event loop between
 * them (applyFiltersAsync), so that decoding an attachment up to its 64 MiB cap (over a second on a loaded
 * machine) never stalls other requests. The same caps and budget as decodeStreamData.
 */
export async function decodeStreamDataAsync(
  s: PdfStreamValue,
  budget: DecodeBudget,
  opts: { lenientFlate?: boolean } = {},
): Promise<Uint8Array> {
  const steps = filterSteps(s.dict);
  if (steps.length === 0) return decodeStreamData(s, budget, opts);
  let out: Uint8Array;
  try {
    out = await applyFiltersAsync(s.raw, steps, budget.capFor('file'), opts);
  } catch (err) {
    if (err instanceof FilterError) throw new LazyPdfError(err.message);
    throw err;
  }
  budget.charge(out.length, 'file');
  return out;
}

/** The dictionary (or other value) that starts at `start` in `b`, parsed no further than `end`; undefined when it is not parseable. */
export function parseValueAt(b: Uint8Array, start: number, end: number): PdfValue | undefined {
  try {
    return new Parser(b, start, end).value();
  } catch (err) {
    if (err instanceof PdfLimitError) throw err;
    return undefined;
  }
}
