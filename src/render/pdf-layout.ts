/**
 * Page layout for the PDF view (./pdf.ts): text wrapped into lines, lines into columns, columns into rows, and rows
 * flowed onto A4 pages as PDF content-stream operators. Everything the view draws is a Row, so one rule breaks every
 * part of the invoice across pages: a row that fits is drawn whole; a short row that does not fit moves to the next
 * page; a tall one (a long description, a card with many identifiers) is split between its text lines. While a table
 * is being drawn its header row is repeated at the top of each new page.
 *
 * Bounds: at most `maxPages` pages (past them nothing more is drawn and `full` says so); every value's text is cut at
 * MAX_VALUE_CHARS characters (the cut is said in the text). Measuring goes through the fonts' advance widths, the same
 * that are written into the PDF (/W), so what is measured is what viewers draw.
 */
import type { TextFont } from '../pdf/fonts/text-font.js';

export type Rgb = readonly [number, number, number];

export interface TextStyle {
  font: TextFont;
  /** Font size in points. */
  size: number;
  color: Rgb;
}

/** A run of text in one style, at x within its column. */
export interface Seg {
  x: number;
  style: TextStyle;
  text: string;
  width: number;
}

export interface Line {
  height: number;
  /** Distance of the baseline below the line's top. */
  baseline: number;
  segs: Seg[];
}

export interface Col {
  /** Offset from the page's left margin. */
  x: number;
  width: number;
  lines: Line[];
}

export interface Row {
  cols: Col[];
  padTop?: number;
  padBottom?: number;
  /** Background of the whole row (each piece of a split row gets its own). */
  fill?: Rgb;
  /** A rule under the row (under each piece of a split row). */
  ruleBelow?: Rule;
  /** A rule above the row (the first piece only). */
  ruleAbove?: Rule;
}

/** A horizontal rule: colour, line width, and where it runs (default: the whole content width). */
export interface Rule {
  color: Rgb;
  width: number;
  x?: number;
  length?: number;
}

/** A4 portrait, in points. */
export const A4 = { width: 595.28, height: 841.89 } as const;

/** The longest text drawn for one value; the rest is said to be in the invoice XML. */
export const MAX_VALUE_CHARS = 10_000;

/** Rows this tall or shorter move to the next page whole rather than being split. */
const KEEP_TOGETHER_MAX = 140;

const num = (v: number): string => {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
};
const rgbOps = (c: Rgb): string => `${num(c[0])} ${num(c[1])} ${num(c[2])}`;

/**
 * One page's content stream, with the colours and the font in effect, so that each is set only when it changes (the
 * text state, Tf included, persists from one text object to the next: ISO 32000-1, 9.3.1).
 */
class PageOps {
  ops: string[] = [];
  private fill = '0 0 0';
  private stroke = '0 0 0';
  private font = '';

  fillColor(c: Rgb): void {
    const s = rgbOps(c);
    if (s !== this.fill) {
      this.ops.push(`${s} rg`);
      this.fill = s;
    }
  }

  strokeColor(c: Rgb): void {
    const s = rgbOps(c);
    if (s !== this.stroke) {
      this.ops.push(`${s} RG`);
      this.stroke = s;
    }
  }

  text(x: number, y: number, seg: Seg, fontName: string): void {
    this.fillColor(seg.style.color);
    const font = `/${fontName} ${num(seg.style.size)} Tf `;
    const tf = font === this.font ? '' : font;
    this.font = font;
    this.ops.push(`BT ${tf}${num(x)} ${num(y)} Td <${seg.style.font.encode(seg.text)}> Tj ET`);
  }

  rect(x: number, y: number, w: number, h: number, c: Rgb): void {
    this.fillColor(c);
    this.ops.push(`${num(x)} ${num(y)} ${num(w)} ${num(h)} re f`);
  }

  hline(x1: number, x2: number, y: number, c: Rgb, width: number): void {
    this.strokeColor(c);
    this.ops.push(`${num(width)} w ${num(x1)} ${num(y)} m ${num(x2)} ${num(y)} l S`);
  }

  /**
   * The operators as content-stream bytes (ASCII: text is hex), inside q … Q so that the next stream of the page
   * starts from the default graphics state this one assumed; the list emptied.
   */
  take(): Buffer {
    const bytes = Buffer.from(`q\n${this.ops.join('\n')}\nQ`, 'latin1');
    this.ops = [];
    return bytes;
  }
}

/** A finished page: its content compressed as soon as the page is full, and what is stamped on it afterwards. */
interface Page {
  ops: PageOps;
  /** The flowed content, Flate-compressed (set when the next page starts, or at the end). */
  content?: Uint8Array;
  /** Page number, running title, notices: drawn after the flow, into a content stream of their own. */
  overlay: PageOps;
}

export interface FlowOptions {
  margin: { top: number; bottom: number; left: number; right: number };
  /** Resource name of each font on the page (F1, F2, ...). */
  fontName: (font: TextFont) => string;
  /** At most this many pages; past them nothing more is drawn (`full`). */
  maxPages: number;
  /**
   * Compresses a finished page's content (Flate). Each page is compressed when the next one starts, so a long
   * invoice holds compressed pages, not megabytes of operator text.
   */
  compress: (content: Uint8Array) => Uint8Array;
}

/** Rows flowed onto pages, top to bottom. */
export class PageFlow {
  private readonly pages: Page[] = [];
  /** The page bound was reached: rows placed after it were not drawn. */
  full = false;
  /** Repeated at the top of every new page while set (a table's header row). */
  header: Row | undefined;
  private y = 0;

  constructor(readonly options: FlowOptions) {}

  get contentWidth(): number {
    return A4.width - this.options.margin.left - this.options.margin.right;
  }

  private get top(): number {
    return A4.height - this.options.margin.top;
  }

  private get bottom(): number {
    return this.options.margin.bottom;
  }

  /** Space left on the current page (0 before the first page). */
  get remaining(): number {
    return this.pages.length === 0 ? 0 : this.y - this.bottom;
  }

  private get atTop(): boolean {
    return this.pages.length > 0 && this.y >= this.top - (this.header ? rowHeight(this.header) : 0) - 0.01;
  }

  /** Pages started so far. */
  get pageCount(): number {
    return this.pages.length;
  }

  /** Start a new page (with the current table header); false when the page bound is reached. */
  newPage(): boolean {
    if (this.pages.length >= this.options.maxPages) {
      this.full = true;
      return false;
    }
    const last = this.pages[this.pages.length - 1];
    if (last) this.seal(last);
    this.pages.push({ ops: new PageOps(), overlay: new PageOps() });
    this.y = this.top;
    if (this.header) this.draw(this.header);
    return true;
  }

  /** Vertical space (none at the top of a page). */
  space(h: number): void {
    if (this.full || this.pages.length === 0 || this.atTop) return;
    if (this.y - h < this.bottom) this.newPage();
    else this.y -= h;
  }

  /** Start a new page unless `h` points fit on this one (for a heading and the first rows after it). */
  keep(h: number): void {
    if (this.full) return;
    if (this.pages.length === 0 || (this.y - h < this.bottom && !this.atTop)) this.newPage();
  }

  /** Place a row: whole when it fits, on the next page when it is short, else split between its lines. */
  place(row: Row): void {
    if (this.full) return;
    if (this.pages.length === 0 && !this.newPage()) return;
    const h = rowHeight(row);
    if (h <= this.y - this.bottom) {
      this.draw(row);
      return;
    }
    if (!this.atTop && h <= Math.min(KEEP_TOGETHER_MAX, this.top - this.bottom)) {
      if (this.newPage()) this.draw(row);
      return;
    }
    // Split between lines, page after page.
    let rest: Row = row;
    for (let guard = 0; guard < 100_000; guard++) {
      const avail = this.y - this.bottom - (rest.padTop ?? 0) - (rest.padBottom ?? 0);
      const [head, tail] = splitRow(rest, avail);
      if (head) this.draw(head);
      if (!tail) return;
      if (!this.newPage()) return;
      rest = tail;
      if (rowHeight(rest) <= this.y - this.bottom) {
        this.draw(rest);
        return;
      }
    }
  }

  /** Draw a row at the current position (it fits). */
  private seal(page: Page): void {
    if (!page.content) page.content = this.options.compress(page.ops.take());
  }

  private draw(row: Row): void {
    const page = this.pages[this.pages.length - 1].ops;
    const h = rowHeight(row);
    const left = this.options.margin.left;
    const top = this.y;
    if (row.fill) page.rect(left, top - h, this.contentWidth, h, row.fill);
    const rule = (r: Rule, y: number) => {
      const x = left + (r.x ?? 0);
      page.hline(x, x + (r.length ?? this.contentWidth - (r.x ?? 0)), y, r.color, r.width);
    };
    if (row.ruleAbove) rule(row.ruleAbove, top);
    for (const col of row.cols) {
      let y = top - (row.padTop ?? 0);
      for (const line of col.lines) {
        const base = y - line.baseline;
        for (const seg of line.segs) page.text(left + col.x + seg.x, base, seg, this.options.fontName(seg.style.font));
        y -= line.height;
      }
    }
    if (row.ruleBelow) rule(row.ruleBelow, top - h);
    this.y -= h;
  }

  /** Text at a fixed place of a page (page numbers), after the flow is done. */
  stamp(pageIndex: number, x: number, y: number, seg: Seg): void {
    this.pages[pageIndex].overlay.text(x, y, seg, this.options.fontName(seg.style.font));
  }

  /** The content streams of each page, compressed: the flowed content, then what was stamped on it. */
  contents(): [Uint8Array, Uint8Array][] {
    return this.pages.map((p) => {
      this.seal(p);
      return [p.content!, this.options.compress(p.overlay.take())];
    });
  }
}

export function rowHeight(row: Row): number {
  let max = 0;
  for (const col of row.cols) {
    let h = 0;
    for (const l of col.lines) h += l.height;
    if (h > max) max = h;
  }
  return (row.padTop ?? 0) + max + (row.padBottom ?? 0);
}

/**
 * The lines of each column that fit in `avail` points, and the row of what is left (undefined when all fit). At
 * least one line of the tallest column is taken, so a page always makes progress.
 */
function splitRow(row: Row, avail: number): [Row | undefined, Row | undefined] {
  const heads: Col[] = [];
  const tails: Col[] = [];
  let any = false;
  let left = false;
  for (const col of row.cols) {
    let h = 0;
    let n = 0;
    while (n < col.lines.length && h + col.lines[n].height <= avail) h += col.lines[n++].height;
    if (n > 0) any = true;
    if (n < col.lines.length) left = true;
    heads.push({ ...col, lines: col.lines.slice(0, n) });
    tails.push({ ...col, lines: col.lines.slice(n) });
  }
  if (!any) return [undefined, row];
  const { ruleAbove: _above, ...rest } = row;
  const head: Row = { ...row, cols: heads, padBottom: left ? 0 : row.padBottom };
  return [head, left ? { ...rest, cols: tails, padTop: 0 } : undefined];
}

// ------------------------------------------------------------------------------------------------
// Text

/** Line height and baseline as a multiple of the font size (Liberation Sans: ascent 0.73, descent 0.21 em). */
const LINE_HEIGHT = 1.28;
const BASELINE = 0.9;

/** Characters that select nothing: C0/C1 controls, and format characters a font has no glyph for (ZWSP, BOM, ...). */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\ufff9-\ufffb]/g;

/** Printable ASCII without doubled, leading or trailing spaces: drawn as it is. */
const PLAIN = /^(?:[\x21-\x7e]+(?: [\x21-\x7e]+)*)?$/;

/**
 * Text as drawn: composed (NFC, so an accent written as a combining mark sits on its letter), characters that show
 * nothing dropped, cut at MAX_VALUE_CHARS (`cut` then counts the characters left out). Line breaks become spaces
 * unless `keepBreaks`; runs of spaces become one.
 */
export function prepareText(raw: string, keepBreaks: boolean): { text: string; cut: number } {
  // Most values are plain: printable ASCII, single spaces, nothing at either end.
  if (raw.length <= MAX_VALUE_CHARS && PLAIN.test(raw)) return { text: raw, cut: 0 };
  let cut = 0;
  let s = raw;
  if (s.length > MAX_VALUE_CHARS) {
    let end = MAX_VALUE_CHARS;
    if (/[\uD800-\uDBFF]/.test(s[end - 1])) end--;
    cut = s.length - end;
    s = s.slice(0, end);
  }
  s = s.normalize('NFC').replace(INVISIBLE, '');
  s = keepBreaks ? s.replace(/\r\n?/g, '\n').replace(/[\t ]+/g, ' ') : s.replace(/\s+/g, ' ');
  return { text: keepBreaks ? s.replace(/ *\n */g, '\n').trim() : s.trim(), cut };
}

/** A part of a rich line: text in one style. */
export interface Span {
  text: string;
  style: TextStyle;
}

/**
 * Spans wrapped into lines of at most `width` points: breaks at spaces (and at line breaks in the text), a word
 * wider than the line broken between characters. `align` right-aligns each line in the width; `indent` shifts every
 * line right (and narrows it).
 */
export function wrap(spans: Span[], width: number, align: 'left' | 'right' = 'left', indent = 0): Line[] {
  // Most cells are one short run that fits: measured once, one line.
  let fits = true;
  let total = 0;
  for (const sp of spans) {
    if (sp.text.includes('\n')) {
      fits = false;
      break;
    }
    total += sp.style.font.measure(sp.text, sp.style.size);
  }
  if (fits && total <= width - indent) {
    const b = new LineBreaker(width, align, indent, spans[0]?.style.size ?? 8);
    for (const sp of spans) if (sp.text) b.put(sp.text, sp.style, sp.style.font.measure(sp.text, sp.style.size));
    b.flush(false);
    return b.lines;
  }
  const b = new LineBreaker(width, align, indent, spans[0]?.style.size ?? 8);
  for (const span of spans) b.span(span);
  b.flush(false);
  return b.lines;
}

/** Lines filled word by word (see wrap). */
class LineBreaker {
  readonly lines: Line[] = [];
  private segs: Seg[] = [];
  private x = 0;
  private maxSize = 0;
  private pendingSpace: TextStyle | undefined;
  private readonly avail: number;

  constructor(
    readonly width: number,
    readonly align: 'left' | 'right',
    readonly indent: number,
    readonly defaultSize: number,
  ) {
    this.avail = width - indent;
  }

  flush(force: boolean): void {
    if (this.segs.length === 0 && !force) return;
    const size = this.maxSize || this.defaultSize;
    const shift = this.align === 'right' ? this.width - this.x : this.indent;
    if (shift) for (const s of this.segs) s.x += shift;
    this.lines.push({ height: size * LINE_HEIGHT, baseline: size * BASELINE, segs: this.segs });
    this.segs = [];
    this.x = 0;
    this.maxSize = 0;
    this.pendingSpace = undefined;
  }

  put(text: string, style: TextStyle, w: number): void {
    const last = this.segs[this.segs.length - 1];
    if (last && last.style === style && last.x + last.width === this.x) {
      last.text += text;
      last.width += w;
    } else this.segs.push({ x: this.x, style, text, width: w });
    this.x += w;
    if (style.size > this.maxSize) this.maxSize = style.size;
  }

  span(span: Span): void {
    const { style } = span;
    const font = style.font;
    const paragraphs = span.text.split('\n');
    for (let pi = 0; pi < paragraphs.length; pi++) {
      if (pi > 0) this.flush(true);
      for (const word of paragraphs[pi].split(' ')) {
        if (word === '') {
          if (this.segs.length > 0) this.pendingSpace = style;
          continue;
        }
        const ww = font.measure(word, style.size);
        const pending = this.pendingSpace;
        const space = pending ? pending.font.measure(' ', pending.size) : 0;
        if (this.segs.length > 0 && this.x + space + ww > this.avail) this.flush(false);
        else if (pending && this.segs.length > 0) this.put(' ', pending, space);
        this.pendingSpace = undefined;
        if (ww <= this.avail - this.x) this.put(word, style, ww);
        else this.longWord(word, style);
        this.pendingSpace = style;
      }
      // A space between spans is the caller's to write (at the end of a span's text).
      this.pendingSpace = undefined;
    }
    if (span.text.endsWith(' ') && this.segs.length > 0) this.pendingSpace = style;
  }

  /** A word longer than the line: broken between characters. */
  private longWord(word: string, style: TextStyle): void {
    let chunk = '';
    let cw = 0;
    for (const ch of word) {
      const w = style.font.measure(ch, style.size);
      if (this.x + cw + w > this.avail && (chunk || this.segs.length > 0)) {
        if (chunk) this.put(chunk, style, cw);
        this.flush(false);
        chunk = '';
        cw = 0;
      }
      chunk += ch;
      cw += w;
    }
    if (chunk) this.put(chunk, style, cw);
  }
}

/** One column of lines. */
export const col = (x: number, width: number, lines: Line[]): Col => ({ x, width, lines });
