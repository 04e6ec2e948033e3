/**
 * A byte-faithful PDF tokenizer for the PDF/A checker.
 *
 * Why not src/pdf/lazy.ts's parser: it is built to read well-formed files fast and normalises (or refuses)
 * exactly what PDF/A judges — odd hex strings, over-long names and strings, out-of-range numbers, EOLs
 * around keywords. This lexer produces the same value types (PdfValue from lazy.ts) and reports such
 * lexical facts to a sink as it goes, so the clause checks can stay small pure functions.
 */
import { readLiteralString } from '../pdf/literal.js';
import type { PdfDictValue, PdfNameValue, PdfString, PdfValue } from '../pdf/lazy.js';

export const WS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WS[c] = 1;
export const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;

/** A lexical fact worth a finding (the check decides which clause it is). */
export type LexFactKind = 'hex-odd' | 'hex-bad-char' | 'string-too-long' | 'name-too-long' | 'int-range' | 'real-range' | 'real-tiny';

export interface LexFact {
  kind: LexFactKind;
  /** Byte offset in the buffer the lexer read (the file, or a decoded object/content stream). */
  at: number;
  detail: string;
}

/** Content-stream operator token. */
export interface PdfOperator {
  kind: 'op';
  op: string;
}

export class LexError extends Error {}

/** Extended name value: the raw byte length after #xx expansion (for the 127-byte limit and UTF-8 checks). */
export interface RawName extends PdfNameValue {
  bytes?: Uint8Array;
}

const INT_MAX = 2147483647;
const INT_MIN = -2147483648;
const REAL_MAX = 3.403e38;
const REAL_MIN = 1.175e-38;

export class Lexer {
  pos: number;
  facts: LexFact[] | undefined;
  /** Content-stream mode: bare words that are not numbers/booleans/null become operators. */
  ops = false;
  depth = 0;

  constructor(
    readonly b: Uint8Array,
    start = 0,
    readonly end = b.length,
    facts?: LexFact[],
  ) {
    this.pos = start;
    this.facts = facts;
  }

  private fact(kind: LexFactKind, at: number, detail: string): void {
    if (this.facts && this.facts.length < 1000) this.facts.push({ kind, at, detail });
  }

  skipWs(): void {
    const b = this.b;
    while (this.pos < this.end) {
      const c = b[this.pos];
      if (WS[c]) this.pos++;
      else if (c === 0x25) {
        while (this.pos < this.end && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      } else break;
    }
  }

  word(): string {
    this.skipWs();
    const start = this.pos;
    const b = this.b;
    while (this.pos < this.end && !WS[b[this.pos]] && !DELIM[b[this.pos]]) this.pos++;
    let s = '';
    for (let i = start; i < this.pos && i < start + 64; i++) s += String.fromCharCode(b[i]);
    return s;
  }

  peekWord(): string {
    const save = this.pos;
    const w = this.word();
    this.pos = save;
    return w;
  }

  atEnd(): boolean {
    this.skipWs();
    return this.pos >= this.end;
  }

  /** The next value; in ops mode may also return an operator. */
  value(): PdfValue | PdfOperator {
    this.skipWs();
    if (this.pos >= this.end) throw new LexError('unexpected end of data');
    const b = this.b;
    const c = b[this.pos];
    if (c === 0x2f) return this.name();
    if (c === 0x3c) {
      if (b[this.pos + 1] === 0x3c) return this.dict();
      return this.hexString();
    }
    if (c === 0x5b) return this.array();
    if (c === 0x28) return this.literalString();
    if (c === 0x29 || c === 0x3e || c === 0x5d || c === 0x7b || c === 0x7d) {
      this.pos++;
      if (this.ops) return { kind: 'op', op: String.fromCharCode(c) };
      throw new LexError(`unexpected delimiter ${String.fromCharCode(c)}`);
    }
    const at = this.pos;
    const w = this.word();
    if (w === '') {
      this.pos++;
      throw new LexError(`unexpected byte 0x${c.toString(16)}`);
    }
    if (w === 'true') return true;
    if (w === 'false') return false;
    if (w === 'null') return null;
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(w)) {
      const n = Number(w);
      if (!w.includes('.')) {
        if (n > INT_MAX || n < INT_MIN) this.fact('int-range', at, w);
        if (!this.ops && n >= 0) {
          const save = this.pos;
          const g = this.word();
          if (/^\d+$/.test(g) && this.word() === 'R') return { kind: 'ref', num: n, gen: Number(g) };
          this.pos = save;
        }
      } else {
        const a = Math.abs(n);
        if (a > REAL_MAX) this.fact('real-range', at, w);
        else if (a !== 0 && a < REAL_MIN) this.fact('real-tiny', at, w);
      }
      return n;
    }
    if (this.ops) return { kind: 'op', op: w };
    throw new LexError(`unexpected token "${w.slice(0, 20)}"`);
  }

  /** A PDF object value (never an operator). */
  object(): PdfValue {
    const v = this.value();
    if (isOp(v)) throw new LexError(`unexpected operator ${v.op}`);
    return v;
  }

  private array(): PdfValue[] {
    this.pos++;
    if (++this.depth > 200) throw new LexError('nesting too deep');
    const arr: PdfValue[] = [];
    for (;;) {
      this.skipWs();
      if (this.pos >= this.end) throw new LexError('unterminated array');
      if (this.b[this.pos] === 0x5d) {
        this.pos++;
        this.depth--;
        return arr;
      }
      const v = this.value();
      if (isOp(v)) {
        if (this.ops) continue; // tolerate stray words inside arrays of content streams
        throw new LexError('operator in array');
      }
      arr.push(v);
    }
  }

  private name(): RawName {
    const at = this.pos;
    this.pos++;
    const b = this.b;
    const start = this.pos;
    while (this.pos < this.end && !WS[b[this.pos]] && !DELIM[b[this.pos]]) this.pos++;
    const bytes: number[] = [];
    for (let i = start; i < this.pos; i++) {
      const ch = b[i];
      if (ch === 0x23 && i + 2 < this.pos + 1 && isHex(b[i + 1]) && isHex(b[i + 2])) {
        bytes.push(hexVal(b[i + 1]) * 16 + hexVal(b[i + 2]));
        i += 2;
      } else bytes.push(ch);
    }
    if (bytes.length > 127) this.fact('name-too-long', at, `${bytes.length} bytes`);
    let name = '';
    for (const x of bytes) name += String.fromCharCode(x);
    return { kind: 'name', name };
  }

  private dict(): PdfDictValue {
    this.pos += 2;
    if (++this.depth > 200) throw new LexError('nesting too deep');
    const map = new Map<string, PdfValue>();
    for (;;) {
      this.skipWs();
      if (this.pos >= this.end) throw new LexError('unterminated dictionary');
      const b = this.b;
      if (b[this.pos] === 0x3e && b[this.pos + 1] === 0x3e) {
        this.pos += 2;
        this.depth--;
        return { kind: 'dict', map };
      }
      if (b[this.pos] !== 0x2f) {
        if (this.ops) {
          this.value();
          continue;
        }
        throw new LexError('dictionary key is not a name');
      }
      const key = this.name().name;
      this.skipWs();
      if (b[this.pos] === 0x3e && b[this.pos + 1] === 0x3e) {
        map.set(key, null);
        continue;
      }
      const v = this.value();
      map.set(key, isOp(v) ? null : v);
    }
  }

  private hexString(): PdfString {
    const at = this.pos;
    this.pos++;
    const out: number[] = [];
    let hi = -1;
    let digits = 0;
    let bad = false;
    const b = this.b;
    while (this.pos < this.end && b[this.pos] !== 0x3e) {
      const c = b[this.pos++];
      if (WS[c]) continue;
      if (!isHex(c)) {
        bad = true;
        continue;
      }
      digits++;
      const v = hexVal(c);
      if (hi < 0) hi = v;
      else {
        out.push(hi * 16 + v);
        hi = -1;
      }
    }
    if (hi >= 0) out.push(hi * 16);
    this.pos++;
    if (bad) this.fact('hex-bad-char', at, 'non-hex character in a hexadecimal string');
    if (digits % 2 === 1) this.fact('hex-odd', at, `${digits} hex digits`);
    if (out.length > 32767) this.fact('string-too-long', at, `${out.length} bytes`);
    return { kind: 'string', bytes: Uint8Array.from(out) };
  }

  private literalString(): PdfString {
    const at = this.pos;
    const r = readLiteralString(this.b, this.pos, this.end);
    if (!r) {
      this.pos = this.end;
      throw new LexError('unterminated string');
    }
    this.pos = r.next;
    if (r.bytes.length > 32767) this.fact('string-too-long', at, `${r.bytes.length} bytes`);
    return { kind: 'string', bytes: r.bytes };
  }
}

export function isOp(v: unknown): v is PdfOperator {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as { kind?: string }).kind === 'op';
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
function hexVal(c: number): number {
  return c <= 0x39 ? c - 0x30 : c <= 0x46 ? c - 55 : c - 87;
}

export function isEol(c: number | undefined): boolean {
  return c === 0x0a || c === 0x0d;
}
