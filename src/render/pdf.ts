/**
 * The PDF view of the render model (./model.ts): the same invoice as the HTML view (./html.ts), laid out like an
 * invoice on A4 pages and written as a PDF/A-3b with @cantoo/pdf-lib — no browser. Heading, parties, references,
 * delivery, the lines (sub-lines nested, allowances and charges, item attributes, periods) in a table that breaks
 * across pages with its header repeated, document allowances and charges, the VAT breakdown, totals, payment, notes,
 * supporting documents (listed: name, type, size), page numbers. Labels, code meanings and display forms are the HTML
 * view's (./labels.ts, ./codes.ts, ./view.ts); every term of the model is drawn (each layout takes the terms it places
 * and lists what is left of the group, as the HTML view does).
 *
 * Text is drawn with the shipped Liberation Sans (regular and bold) as embedded subsets with a ToUnicode CMap, so the
 * text can be copied and searched (src/pdf/fonts/text-font.ts). A character the fonts do not have (CJK, Arabic, ...)
 * is drawn as □ and still extracts as itself; the document ends with a notice naming such characters.
 *
 * Bounded: the render model draws at most MAX_RENDERED_LINES lines; the lines take at most MAX_LINE_PAGES pages and
 * the document MAX_PAGES (past them the document says what it leaves out); every value is cut at MAX_VALUE_CHARS.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFHexString, PDFName, type PDFRef } from '@cantoo/pdf-lib';
import { DEFAULT_PRODUCER } from '../pdf/container.js';
import { TextFont, textFontProgram } from '../pdf/fonts/text-font.js';
import { formatDecimal } from './format.js';
import { label, pageText, type Lang, type PageText } from './labels.js';
import type { RenderGroup, RenderItem, RenderModel, RenderSection, RenderTerm } from './model.js';
import { A4, col, PageFlow, prepareText, wrap, type Line, type Rgb, type Row, type Span, type TextStyle } from './pdf-layout.js';
import {
  ADDRESS_GROUPS,
  addressTermId,
  DOC_ALLOWANCE_IDS,
  DOC_CHARGE_IDS,
  documentTitle,
  isQualifierOf,
  LINE_ALLOWANCE_IDS,
  LINE_CHARGE_IDS,
  LINE_IDS,
  PARTY_NAMES,
  Picker,
  sourceText,
  valueText,
} from './view.js';

/** At most this many pages in all; past them the document stops and says so. */
export const MAX_PAGES = 2_500;
/** The lines take at most this many pages (the sections after them are always drawn). */
export const MAX_LINE_PAGES = 2_000;

export interface PdfViewOptions {
  /** Draw each label's BT/BG id beside it, as the HTML view does (default true; false for a customer-facing invoice). */
  termIds?: boolean;
  /** The document's creation date (default now). */
  now?: Date;
  /** The Producer written into Info and XMP. */
  producer?: string;
  /** Page bounds (default MAX_PAGES and MAX_LINE_PAGES; lower ones let tests reach them). */
  maxPages?: number;
  maxLinePages?: number;
}

export interface DrawnPdf {
  pdf: Uint8Array;
  pages: number;
  /** Lines (sub-lines included) drawn; below model.lineCount.shown when the page bounds cut the table. */
  linesDrawn: number;
  /** Characters drawn with the stand-in glyph (no shipped font has them), by code point, with their count. */
  missingGlyphs: { codePoint: number; count: number }[];
}

// ------------------------------------------------------------------------------------------------
// look

const INK: Rgb = [0.11, 0.137, 0.188];
const MUTED: Rgb = [0.357, 0.392, 0.447];
const FAINT: Rgb = [0.541, 0.576, 0.627];
const ACCENT: Rgb = [0.122, 0.306, 0.475];
const RULE: Rgb = [0.835, 0.855, 0.882];
const SOFT: Rgb = [0.957, 0.965, 0.973];
const NOTICE_BG: Rgb = [1, 0.973, 0.902];
const BAD: Rgb = [0.667, 0, 0];
const ALLOWANCE: Rgb = [0.18, 0.42, 0.18];
const CHARGE: Rgb = [0.54, 0.23, 0.07];

const MARGIN = { top: 40, bottom: 48, left: 42, right: 42 };
const LABEL_W = 118;
const GAP = 6;

/** Where the page number and running title sit (points from the bottom). */
const FOOTER_Y = 24;

class Styles {
  readonly regular: TextFont;
  readonly bold: TextFont;
  readonly body: TextStyle;
  readonly strong: TextStyle;
  readonly label: TextStyle;
  readonly small: TextStyle;
  readonly smallStrong: TextStyle;
  readonly id: TextStyle;
  readonly h1: TextStyle;
  readonly h2: TextStyle;
  readonly h3: TextStyle;
  readonly th: TextStyle;
  readonly cell: TextStyle;
  readonly cellStrong: TextStyle;
  readonly cellSmall: TextStyle;
  readonly bad: TextStyle;
  readonly badSmall: TextStyle;
  readonly allowance: TextStyle;
  readonly charge: TextStyle;
  readonly nameBig: TextStyle;

  constructor() {
    this.regular = new TextFont(textFontProgram('sans', 'regular'), 'EinvoiceSans');
    this.bold = new TextFont(textFontProgram('sans', 'bold'), 'EinvoiceSans-Bold');
    const r = (size: number, color: Rgb = INK): TextStyle => ({ font: this.regular, size, color });
    const b = (size: number, color: Rgb = INK): TextStyle => ({ font: this.bold, size, color });
    this.body = r(8.5);
    this.strong = b(8.5);
    this.label = r(8, MUTED);
    this.small = r(7, MUTED);
    this.smallStrong = b(7, MUTED);
    this.id = r(5.5, FAINT);
    this.h1 = b(17, ACCENT);
    this.h2 = b(10.5, ACCENT);
    this.h3 = b(8.5, INK);
    this.th = b(7.5, MUTED);
    this.cell = r(8);
    this.cellStrong = b(8);
    this.cellSmall = r(7, MUTED);
    this.bad = r(8.5, BAD);
    this.badSmall = r(7, BAD);
    this.allowance = r(7, ALLOWANCE);
    this.charge = r(7, CHARGE);
    this.nameBig = b(9.5);
  }
}

/** A term with the qualifiers drawn beside it (BT-29 with BT-29-1), or a subgroup. */
type Entry = { term: RenderTerm; quals: RenderTerm[] } | { group: RenderGroup };

function entries(items: RenderItem[]): Entry[] {
  const out: Entry[] = [];
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.type === 'group') {
      out.push({ group: it });
      continue;
    }
    const quals: RenderTerm[] = [];
    while (isQualifierOf(items[i + 1], it)) quals.push(items[++i] as RenderTerm);
    out.push({ term: it, quals });
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// the view

class PdfView {
  readonly s = new Styles();
  readonly flow: PageFlow;
  readonly width: number;
  linesDrawn = 0;
  readonly termIds: boolean;
  private readonly fontNames: Map<TextFont, string>;

  private readonly maxLinePages: number;

  constructor(
    readonly model: RenderModel,
    readonly lang: Lang,
    options: PdfViewOptions,
  ) {
    this.termIds = options.termIds !== false;
    this.maxLinePages = options.maxLinePages ?? MAX_LINE_PAGES;
    this.fontNames = new Map([
      [this.s.regular, 'F1'],
      [this.s.bold, 'F2'],
    ]);
    this.flow = new PageFlow({
      margin: MARGIN,
      fontName: (f) => this.fontNames.get(f)!,
      maxPages: options.maxPages ?? MAX_PAGES,
      compress: (content) => deflateSync(content),
    });
    this.width = this.flow.contentWidth;
  }

  // -- text

  /** A value's spans: its display text (marked when it is not of its kind), a code beside its meaning. */
  value(t: RenderTerm, style: TextStyle = this.s.body, small: TextStyle = this.s.small): Span[] {
    const v = valueText(t, this.lang);
    const { text, cut } = prepareText(v.text, t.kind === 'note');
    const spans: Span[] = [{ text, style: v.bad ? (style.size < 8 ? this.s.badSmall : this.s.bad) : style }];
    if (v.code !== undefined) spans.push({ text: ` (${prepareText(v.code, false).text})`, style: small });
    if (t.kind === 'binary' && !v.bad) spans.push({ text: ` — ${pageText('inXml', this.lang)}`, style: small });
    if (cut > 0) spans.push({ text: ` ${pageText('valueCut', this.lang, { count: this.count(cut) })}`, style: small });
    return spans;
  }

  /** A term and its qualifiers (scheme, scheme version), separated by a middle dot. */
  entryValue(e: { term: RenderTerm; quals: RenderTerm[] }, style: TextStyle = this.s.body, small: TextStyle = this.s.small): Span[] {
    const out = this.value(e.term, style, small);
    for (const q of e.quals) out.push({ text: ' · ', style: small }, ...this.value(q, small, small));
    return out;
  }

  /** A label, with its BT/BG id in small print when ids are shown. */
  label(id: string, style: TextStyle = this.s.label): Span[] {
    const spans: Span[] = [{ text: label(id, this.lang), style }];
    if (this.termIds) spans.push({ text: ` ${id}`, style: this.s.id });
    return spans;
  }

  count(n: number): string {
    return formatDecimal(String(n), this.lang) ?? String(n);
  }

  // -- blocks

  /** Section heading with a rule under it, kept with the first rows after it. */
  heading(key: PageText, extra?: string): void {
    const spans: Span[] = [{ text: pageText(key, this.lang), style: this.s.h2 }];
    if (extra) spans.push({ text: `   ${extra}`, style: this.s.small });
    this.flow.space(10);
    this.flow.keep(70);
    this.flow.place({ cols: [col(0, this.width, wrap(spans, this.width))], padBottom: 3, ruleBelow: { color: RULE, width: 0.75 } });
    this.flow.space(4);
  }

  /**
   * Items as label / value rows (identifiers with their scheme on one row), subgroups as indented blocks. Values line
   * up at `x` + LABEL_W whatever the nesting; nested labels are indented by `indent`.
   */
  list(items: RenderItem[], x = 0, indent = 0): void {
    const valueX = x + LABEL_W + GAP;
    const labelW = LABEL_W - indent;
    for (const e of entries(items)) {
      if ('group' in e) this.block(e.group, x, indent + 10);
      else {
        this.flow.place({
          cols: [
            col(x + indent, labelW, wrap(this.label(e.term.bt), labelW)),
            col(valueX, this.width - valueX, wrap(this.entryValue(e), this.width - valueX)),
          ],
          padBottom: 1.5,
        });
      }
    }
  }

  /** A group as a titled block, every item listed. */
  block(g: RenderGroup, x = 0, indent = 0): void {
    const w = this.width - x - indent;
    this.flow.space(3);
    this.flow.keep(28);
    this.flow.place({ cols: [col(x + indent, w, wrap(this.label(g.bg, this.s.h3), w))], padBottom: 2 });
    this.list(g.items, x, indent);
  }

  /** Terms two to a row (label, value, label, value); subgroups' terms join the grid. */
  grid(items: RenderItem[]): void {
    const flat: Entry[] = [];
    const later: RenderGroup[] = [];
    for (const e of entries(items)) {
      if (!('group' in e)) flat.push(e);
      else if (e.group.items.every((it) => it.type === 'term')) flat.push(...entries(e.group.items));
      else later.push(e.group);
    }
    const half = (this.width - GAP * 2) / 2;
    const lw = 96;
    for (let i = 0; i < flat.length; i += 2) {
      const cols = [];
      for (const [k, e] of [flat[i], flat[i + 1]].entries()) {
        if (!e || 'group' in e) continue;
        const x = k * (half + GAP * 2);
        cols.push(
          col(x, lw, wrap(this.label(e.term.bt), lw)),
          col(x + lw + GAP, half - lw - GAP, wrap(this.entryValue(e), half - lw - GAP)),
        );
      }
      this.flow.place({ cols, padBottom: 2 });
    }
    for (const g of later) this.block(g);
  }

  /** Inline "Label: value" lines for narrow places (party cards, table cells); subgroups as small headed parts. */
  inline(items: RenderItem[], width: number, style: TextStyle, small: TextStyle, indent = 0): Line[] {
    const lines: Line[] = [];
    for (const e of entries(items)) {
      if ('group' in e) {
        lines.push(...wrap(this.label(e.group.bg, this.s.smallStrong), width, 'left', indent));
        lines.push(...this.inline(e.group.items, width, style, small, indent + 6));
        continue;
      }
      const head = this.label(e.term.bt, small);
      head.push({ text: ': ', style: small });
      lines.push(...wrap([...head, ...this.entryValue(e, style, small)], width, 'left', indent));
    }
    return lines;
  }

  /** A party (or delivery) card as lines: heading, name, trading name, address, then everything else. */
  card(g: RenderGroup, width: number): Line[] {
    const p = new Picker(g);
    const lines: Line[] = [...wrap(this.label(g.bg, this.s.smallStrong), width)];
    const [nameId, tradingId] = PARTY_NAMES[g.bg] ?? ['', ''];
    const name = p.term(nameId);
    if (name) lines.push(...wrap(this.value(name, this.s.nameBig), width));
    const trading = tradingId ? p.term(tradingId) : undefined;
    if (trading) lines.push(...wrap(this.value(trading, this.s.label), width));
    for (const bg of ADDRESS_GROUPS) for (const a of p.groups(bg)) lines.push(...this.address(a, width));
    lines.push(...this.inline(p.rest(), width, this.s.body, this.s.label));
    return lines;
  }

  /** A postal address as written on an envelope; what is not part of that listed after it. */
  address(g: RenderGroup, width: number): Line[] {
    const p = new Picker(g);
    const lines: Line[] = [];
    for (const i of [0, 1, 2] as const) {
      const t = p.term(addressTermId(g, i));
      if (t) lines.push(...wrap(this.value(t), width));
    }
    const postcode = p.term(addressTermId(g, 'postcode'));
    const city = p.term(addressTermId(g, 'city'));
    if (postcode || city) {
      const spans = [...(postcode ? this.value(postcode) : []), ...(postcode && city ? [{ text: ' ', style: this.s.body }] : [])];
      lines.push(...wrap([...spans, ...(city ? this.value(city) : [])], width));
    }
    for (const what of ['sub', 'country'] as const) {
      const t = p.term(addressTermId(g, what));
      if (t) lines.push(...wrap(this.value(t), width));
    }
    lines.push(...this.inline(p.rest(), width, this.s.body, this.s.label));
    return lines;
  }

  /** Cards two to a row (a rule above each row but the first after a section heading). */
  cards(groups: RenderGroup[], ruleFirst = true): void {
    const w = (this.width - GAP * 3) / 2;
    for (let i = 0; i < groups.length; i += 2) {
      const cols = [col(0, w, this.card(groups[i], w))];
      if (groups[i + 1]) cols.push(col(w + GAP * 3, w, this.card(groups[i + 1], w)));
      const rule = i > 0 || ruleFirst ? { color: RULE, width: 0.5 } : undefined;
      this.flow.place({ cols, padTop: 4, padBottom: 6, ruleAbove: rule });
    }
  }

  notice(text: string): void {
    this.flow.place({
      cols: [col(6, this.width - 12, wrap([{ text, style: this.s.body }], this.width - 12))],
      fill: NOTICE_BG,
      padTop: 3,
      padBottom: 3,
    });
    this.flow.space(3);
  }

  // -- sections

  headingSection(section: RenderSection): void {
    const doc = section.groups[0];
    const title = documentTitle(this.model, this.lang);
    const p = doc ? new Picker(doc) : undefined;
    const number = p?.term('BT-1');
    const spans: Span[] = [{ text: title, style: this.s.h1 }];
    if (number) spans.push({ text: ' ', style: this.s.h1 }, ...this.value(number, this.s.h1, this.s.small));
    if (this.termIds && number) spans.push({ text: ' BT-1', style: this.s.id });
    this.flow.place({ cols: [col(0, this.width, wrap(spans, this.width))], padBottom: 6 });
    if (p) this.grid(p.rest());
    const source = sourceText(this.model, this.lang);
    if (source) {
      this.flow.space(3);
      this.flow.place({
        cols: [col(0, this.width, wrap([{ text: `${pageText('source', this.lang)}: ${source}`, style: this.s.small }], this.width))],
      });
    }
    for (const n of this.model.source?.notices ?? []) this.notice(`${n.code}: ${prepareText(n.message, false).text}`);
  }

  referencesSection(section: RenderSection): void {
    this.heading('references');
    for (const g of section.groups) {
      if (g.bg !== 'REFS') {
        this.block(g);
        continue;
      }
      const p = new Picker(g);
      const subgroups = [...p.groups('BG-14'), ...p.groups('BG-3')];
      this.grid(p.rest());
      for (const sub of subgroups) this.block(sub);
    }
  }

  // -- lines

  /** Column x and width (inner, padded 3 points each side) of the lines table. */
  private lineCols(): { x: number; w: number }[] {
    const widths = [30, 0, 66, 76, 52, 72];
    widths[1] = this.width - widths.reduce((a, b) => a + b, 0);
    let x = 0;
    return widths.map((w) => {
      const c = { x: x + 3, w: w - 6 };
      x += w;
      return c;
    });
  }

  linesSection(section: RenderSection): void {
    const { lineCount } = this.model;
    if (section.groups.length === 0 && lineCount.total === 0) return;
    const currency = this.model.currency
      ? `${pageText('amountsIn', this.lang)} ${prepareText(this.model.currency, false).text}`
      : undefined;
    this.heading('lines', currency);
    if (lineCount.shown < lineCount.total) this.linesCutNotice(lineCount.shown, lineCount.total);
    const c = this.lineCols();
    const th = (key: PageText, i: number, align: 'left' | 'right' = 'right') =>
      col(c[i].x, c[i].w, wrap([{ text: pageText(key, this.lang), style: this.s.th }], c[i].w, align));
    const header: Row = {
      cols: [th('colLine', 0, 'left'), th('colItem', 1, 'left'), th('colQuantity', 2), th('colPrice', 3), th('colVat', 4), th('colNet', 5)],
      padTop: 2,
      padBottom: 3,
      ruleBelow: { color: INK, width: 1 },
    };
    this.flow.keep(80);
    this.flow.place(header);
    this.flow.header = header;
    this.linesStart = this.flow.pageCount;
    for (const g of section.groups) if (!this.lineRows(g, 0)) break;
    this.flow.header = undefined;
    if (this.linesDrawn < lineCount.shown) this.linesCutNotice(this.linesDrawn, lineCount.total);
  }

  /** The page the lines table started on (its page bound counts from there). */
  private linesStart = 0;

  private linesCutNotice(shown: number, total: number): void {
    this.notice(pageText('pdfLinesCut', this.lang, { shown: this.count(shown), total: this.count(total) }));
  }

  /** Draw a line and its sub-lines; false once the lines' page bound (or the document's) is reached. */
  private lineRows(g: RenderGroup, depth: number): boolean {
    if (this.flow.full || this.flow.pageCount - this.linesStart >= this.maxLinePages) return false;
    const ids = depth === 0 ? LINE_IDS.main : LINE_IDS.sub;
    const s = this.s;
    const c = this.lineCols();
    const p = new Picker(g);
    const pos = p.term('BT-126');
    const quantity = p.term('BT-129');
    const unit = p.term('BT-130');
    const net = p.term('BT-131');
    const [item] = p.groups(ids.item);
    const [price] = p.groups(ids.price);
    const [vat] = p.groups(ids.vat);
    const periods = p.groups(ids.period);
    const allowances = p.groups(ids.allowance);
    const charges = p.groups(ids.charge);
    const subLines = p.groups(LINE_IDS.sub.line);

    // The item cell: name, description, the item's other terms, the line's other terms, periods, allowances, charges.
    const indent = Math.min(depth, 8) * 8;
    const iw = c[1].w;
    const itemLines: Line[] = [];
    if (item) {
      const ip = new Picker(item);
      const name = ip.term('BT-153');
      const description = ip.term('BT-154');
      if (name) itemLines.push(...wrap(this.value(name, s.cellStrong), iw, 'left', indent));
      if (description) itemLines.push(...wrap(this.value(description, s.cell), iw, 'left', indent));
      itemLines.push(...this.inline(ip.rest(), iw, s.cellSmall, s.cellSmall, indent));
    }
    itemLines.push(...this.inline([...periods, ...p.rest()], iw, s.cellSmall, s.cellSmall, indent));
    for (const a of allowances) itemLines.push(...this.lineAllowanceCharge(a, false, iw, indent));
    for (const ch of charges) itemLines.push(...this.lineAllowanceCharge(ch, true, iw, indent));

    const right = (i: number, spans: Span[]) => wrap(spans, c[i].w, 'right');
    const qtyLines = [
      ...(quantity ? right(2, this.value(quantity, s.cell)) : []),
      ...(unit ? right(2, this.value(unit, s.cellSmall, s.cellSmall)) : []),
    ];

    const priceLines: Line[] = [];
    if (price) {
      const pp = new Picker(price);
      const netPrice = pp.term('BT-146');
      const per = (qty: RenderTerm | undefined, u: RenderTerm | undefined): Span[] =>
        qty || u
          ? [
              { text: `${pageText('per', this.lang)} `, style: s.cellSmall },
              ...(qty ? this.value(qty, s.cellSmall, s.cellSmall) : []),
              ...(qty && u ? [{ text: ' ', style: s.cellSmall }] : []),
              ...(u ? this.value(u, s.cellSmall, s.cellSmall) : []),
            ]
          : [];
      if (netPrice) priceLines.push(...right(3, this.value(netPrice, s.cell)));
      const basis = per(pp.term('BT-149'), pp.term('BT-150'));
      if (basis.length) priceLines.push(...right(3, basis));
      const gross = pp.term('BT-148');
      if (gross) {
        priceLines.push(
          ...right(3, [{ text: `${label('BT-148', this.lang)} `, style: s.cellSmall }, ...this.value(gross, s.cellSmall, s.cellSmall)]),
        );
        const grossBasis = per(pp.term('BT-149'), pp.term('BT-150'));
        if (grossBasis.length) priceLines.push(...right(3, grossBasis));
      }
      const discount = pp.term('BT-147');
      if (discount)
        priceLines.push(
          ...right(3, [{ text: `${label('BT-147', this.lang)} `, style: s.cellSmall }, ...this.value(discount, s.cellSmall, s.cellSmall)]),
        );
      for (const l of this.inline(pp.rest(), c[3].w, s.cellSmall, s.cellSmall)) priceLines.push(l);
    }
    const vatLines: Line[] = [];
    if (vat) {
      const vp = new Picker(vat);
      const rate = vp.term('BT-152');
      const cat = vp.term('BT-151');
      if (rate) vatLines.push(...right(4, this.value(rate, s.cell)));
      if (cat) vatLines.push(...right(4, this.value(cat, s.cellSmall, s.cellSmall)));
      vatLines.push(...this.inline(vp.rest(), c[4].w, s.cellSmall, s.cellSmall));
    }
    this.flow.place({
      cols: [
        col(c[0].x, c[0].w, pos ? wrap(this.value(pos, depth ? s.cellSmall : s.cell), c[0].w) : []),
        col(c[1].x, c[1].w, itemLines),
        col(c[2].x, c[2].w, qtyLines),
        col(c[3].x, c[3].w, priceLines),
        col(c[4].x, c[4].w, vatLines),
        col(c[5].x, c[5].w, net ? right(5, this.value(net, s.cell)) : []),
      ],
      padTop: 3,
      padBottom: 3,
      fill: depth ? SOFT : undefined,
      ruleBelow: { color: RULE, width: 0.5 },
    });
    if (this.flow.full) return false;
    this.linesDrawn++;
    for (const sub of subLines) if (!this.lineRows(sub, depth + 1)) return false;
    return true;
  }

  /** "Allowance: reason · code (base × percent) amount" on a line. */
  private lineAllowanceCharge(g: RenderGroup, charge: boolean, width: number, indent: number): Line[] {
    const s = this.s;
    const p = new Picker(g);
    const ids = charge ? LINE_CHARGE_IDS : LINE_ALLOWANCE_IDS;
    const [amount, base, percent, reason, code] = ids.map((id) => p.term(id));
    const style = charge ? s.charge : s.allowance;
    const spans: Span[] = [{ text: pageText(charge ? 'charge' : 'allowance', this.lang), style }];
    const reasons = [reason, code].filter((t): t is RenderTerm => Boolean(t));
    if (reasons.length) {
      spans.push({ text: ': ', style });
      reasons.forEach((r, i) => spans.push(...(i ? [{ text: ' · ', style }] : []), ...this.value(r, style, s.cellSmall)));
    }
    if (base || percent) {
      spans.push({ text: ' (', style: s.cellSmall });
      if (base) spans.push(...this.value(base, s.cellSmall, s.cellSmall));
      if (base && percent) spans.push({ text: ' × ', style: s.cellSmall });
      if (percent) spans.push(...this.value(percent, s.cellSmall, s.cellSmall));
      spans.push({ text: ')', style: s.cellSmall });
    }
    if (amount) spans.push({ text: ' ', style }, ...this.value(amount, style, s.cellSmall));
    return [...wrap(spans, width, 'left', indent), ...this.inline(p.rest(), width, s.cellSmall, s.cellSmall, indent + 6)];
  }

  // -- allowances and charges, VAT, totals

  /** A table: header labels and rows of cells; column 0 left-aligned, the others right-aligned. */
  private table(widths: number[], head: Span[][], rows: Line[][][]): void {
    const xs: { x: number; w: number }[] = [];
    let x = 0;
    for (const w of widths) {
      xs.push({ x: x + 3, w: w - 6 });
      x += w;
    }
    const header: Row = {
      cols: head.map((h, i) => col(xs[i].x, xs[i].w, wrap(h, xs[i].w, i === 0 ? 'left' : 'right'))),
      padTop: 2,
      padBottom: 3,
      ruleBelow: { color: INK, width: 1 },
    };
    this.flow.keep(60);
    this.flow.place(header);
    this.flow.header = header;
    for (const cells of rows) {
      this.flow.place({
        cols: cells.map((lines, i) => col(xs[i].x, xs[i].w, lines)),
        padTop: 3,
        padBottom: 3,
        ruleBelow: { color: RULE, width: 0.5 },
      });
    }
    this.flow.header = undefined;
  }

  private widthsFor(n: number, first: number): number[] {
    const rest = (this.width - first) / (n - 1);
    return [first, ...Array.from({ length: n - 1 }, () => rest)];
  }

  allowancesChargesSection(section: RenderSection): void {
    if (section.groups.length === 0) return;
    this.heading('allowancesCharges');
    const s = this.s;
    const widths = this.widthsFor(5, this.width - 4 * 82);
    const inner = (i: number) => widths[i] - 6;
    const rows = section.groups.map((g) => {
      const charge = g.bg === 'BG-21';
      const ids = charge ? DOC_CHARGE_IDS : DOC_ALLOWANCE_IDS;
      const p = new Picker(g);
      const [amount, base, percent, cat, rate, reason, code] = ids.map((id) => p.term(id));
      const what: Span[] = [{ text: pageText(charge ? 'charge' : 'allowance', this.lang), style: charge ? s.charge : s.allowance }];
      const reasons = [reason, code].filter((t): t is RenderTerm => Boolean(t));
      if (reasons.length) what.push({ text: ': ', style: s.cell });
      reasons.forEach((r, i) => what.push(...(i ? [{ text: ' · ', style: s.cell }] : []), ...this.value(r, s.cell, s.cellSmall)));
      const r = (i: number, t: RenderTerm | undefined, style = s.cell) =>
        t ? wrap(this.value(t, style, s.cellSmall), inner(i), 'right') : [];
      return [
        [...wrap(what, inner(0)), ...this.inline(p.rest(), inner(0), s.cellSmall, s.cellSmall)],
        r(1, base),
        r(2, percent),
        [...r(3, rate), ...r(3, cat, s.cellSmall)],
        r(4, amount),
      ];
    });
    const th = (t: string): Span[] => [{ text: t, style: s.th }];
    this.table(
      widths,
      [
        th(''),
        th(label('BT-93', this.lang)),
        th(label('BT-94', this.lang)),
        th(pageText('colVat', this.lang)),
        th(label('BT-92', this.lang)),
      ],
      rows,
    );
  }

  vatSection(section: RenderSection): void {
    if (section.groups.length === 0) return;
    this.heading('vat');
    const s = this.s;
    const widths = this.widthsFor(4, this.width - 3 * 96);
    const inner = (i: number) => widths[i] - 6;
    const rows = section.groups.map((g) => {
      const p = new Picker(g);
      const taxable = p.term('BT-116');
      const tax = p.term('BT-117');
      const cat = p.term('BT-118');
      const rate = p.term('BT-119');
      const reasons = [p.term('BT-120'), p.term('BT-121')].filter((t): t is RenderTerm => Boolean(t));
      const first: Line[] = cat ? wrap(this.value(cat, s.cell, s.cellSmall), inner(0)) : [];
      if (reasons.length) {
        const spans: Span[] = [];
        reasons.forEach((r, i) =>
          spans.push(...(i ? [{ text: ' · ', style: s.cellSmall }] : []), ...this.value(r, s.cellSmall, s.cellSmall)),
        );
        first.push(...wrap(spans, inner(0)));
      }
      first.push(...this.inline(p.rest(), inner(0), s.cellSmall, s.cellSmall));
      const r = (i: number, t: RenderTerm | undefined) => (t ? wrap(this.value(t, s.cell, s.cellSmall), inner(i), 'right') : []);
      return [first, r(1, rate), r(2, taxable), r(3, tax)];
    });
    const th = (id: string): Span[] => [{ text: label(id, this.lang), style: s.th }];
    this.table(widths, [th('BT-118'), th('BT-119'), th('BT-116'), th('BT-117')], rows);
  }

  totalsSection(section: RenderSection): void {
    const g = section.groups[0];
    if (!g) return;
    this.heading('totals');
    const s = this.s;
    const valueW = 130;
    const labelW = 210;
    const x0 = this.width - valueW - labelW - GAP;
    for (const e of entries(g.items)) {
      if ('group' in e) {
        this.block(e.group);
        continue;
      }
      const strong = e.term.bt === 'BT-112' || e.term.bt === 'BT-115';
      const valueSpans = this.entryValue(e, strong ? s.strong : s.body);
      if (e.term.currency) valueSpans.push({ text: ` ${prepareText(e.term.currency, false).text}`, style: s.small });
      this.flow.place({
        cols: [
          col(x0, labelW, wrap(this.label(e.term.bt, strong ? s.strong : s.body), labelW)),
          col(x0 + labelW + GAP, valueW, wrap(valueSpans, valueW, 'right')),
        ],
        padTop: strong ? 3 : 1,
        padBottom: strong ? 3 : 1,
        ruleAbove: strong ? { color: INK, width: 0.75, x: x0, length: this.width - x0 } : undefined,
      });
    }
  }

  // -- payment, notes, attachments

  blocksSection(section: RenderSection, key: PageText): void {
    if (section.groups.length === 0) return;
    this.heading(key);
    for (const g of section.groups) this.block(g);
  }

  notesSection(section: RenderSection): void {
    if (section.groups.length === 0) return;
    this.heading('notes');
    for (const g of section.groups) {
      const p = new Picker(g);
      const subject = p.term('BT-21');
      const text = p.term('BT-22');
      const lines: Line[] = [];
      if (subject) lines.push(...wrap(this.value(subject, this.s.small, this.s.small), this.width - 8));
      if (text) lines.push(...wrap(this.value(text), this.width - 8));
      lines.push(...this.inline(p.rest(), this.width - 8, this.s.body, this.s.label));
      this.flow.place({ cols: [col(8, this.width - 8, lines)], padBottom: 5 });
    }
  }

  // -- the document

  draw(): void {
    for (const section of this.model.sections) {
      switch (section.id) {
        case 'heading':
          this.headingSection(section);
          break;
        case 'parties':
          this.flow.space(8);
          this.cards(section.groups);
          break;
        case 'references':
          if (section.groups.length) this.referencesSection(section);
          break;
        case 'delivery':
          if (section.groups.length) {
            this.heading('delivery');
            this.cards(section.groups, false);
          }
          break;
        case 'lines':
          this.linesSection(section);
          break;
        case 'allowancesCharges':
          this.allowancesChargesSection(section);
          break;
        case 'vat':
          this.vatSection(section);
          break;
        case 'totals':
          this.totalsSection(section);
          break;
        case 'payment':
          this.blocksSection(section, 'payment');
          break;
        case 'notes':
          this.notesSection(section);
          break;
        case 'attachments':
          this.blocksSection(section, 'attachments');
          break;
        default:
          for (const g of section.groups) this.block(g);
      }
    }
    this.flow.space(14);
    this.flow.place({
      cols: [col(0, this.width, wrap([{ text: pageText('footer', this.lang), style: this.s.small }], this.width))],
      ruleAbove: { color: RULE, width: 0.5 },
      padTop: 3,
    });
  }

  /** The notices only known once everything is drawn: characters without glyph, the page bound. */
  finish(): void {
    const missing = this.missingGlyphs();
    if (missing.length > 0) {
      const shown = missing.slice(0, 24).map((m) => `U+${m.codePoint.toString(16).toUpperCase().padStart(4, '0')}`);
      const chars = shown.join(', ') + (missing.length > shown.length ? ', …' : '');
      const count = missing.reduce((n, m) => n + m.count, 0);
      this.flow.space(6);
      this.notice(pageText('missingGlyphs', this.lang, { count: this.count(count), chars }));
    }
    if (this.flow.full) {
      // The bound was reached: the last page says so at its foot (above the page number).
      const last = this.flow.pageCount - 1;
      const text = pageText('pdfFull', this.lang, { pages: this.count(this.flow.pageCount) });
      const [line] = wrap([{ text, style: this.s.strong }], this.width);
      for (const seg of line?.segs ?? []) this.flow.stamp(last, MARGIN.left + seg.x, FOOTER_Y + 12, seg);
    }
    // Page numbers and the running title on every page.
    const total = this.flow.pageCount;
    const running = `${documentTitle(this.model, this.lang)}${this.model.number ? ` ${prepareText(this.model.number, false).text.slice(0, 80)}` : ''}`;
    for (let i = 0; i < total; i++) {
      const pageNo = pageText('pageOf', this.lang, { n: this.count(i + 1), total: this.count(total) });
      const [num] = wrap([{ text: pageNo, style: this.s.small }], this.width, 'right');
      const [left] = wrap([{ text: running, style: this.s.small }], this.width - 120);
      for (const seg of [...(left?.segs ?? []), ...(num?.segs ?? [])]) this.flow.stamp(i, MARGIN.left + seg.x, FOOTER_Y, seg);
    }
  }

  missingGlyphs(): { codePoint: number; count: number }[] {
    const all = new Map<number, number>();
    for (const f of [this.s.regular, this.s.bold]) for (const [cp, n] of f.missing) all.set(cp, (all.get(cp) ?? 0) + n);
    return [...all].map(([codePoint, count]) => ({ codePoint, count })).sort((a, b) => a.codePoint - b.codePoint);
  }

  fonts(): [TextFont, string][] {
    return [...this.fontNames];
  }
}

// ------------------------------------------------------------------------------------------------
// the file

/**
 * Draw the render model as a PDF/A-3b (XMP with pdfaid part 3 / conformance B, an sRGB output intent, embedded
 * subset fonts with ToUnicode, a trailer /ID), labels in `lang`.
 */
export async function renderPdf(model: RenderModel, lang: Lang, options: PdfViewOptions = {}): Promise<DrawnPdf> {
  const view = new PdfView(model, lang, options);
  view.draw();
  // Notices about missing characters are drawn with the fonts too: measure first, then finish.
  view.finish();
  const contents = view.flow.contents();

  const doc = await PDFDocument.create({ updateMetadata: false });
  const ctx = doc.context;
  const fontRefs: Record<string, PDFRef> = {};
  for (const [font, name] of view.fonts()) if (font.used) fontRefs[name] = font.embed(doc);
  const resources = ctx.register(ctx.obj({ Font: ctx.obj(fontRefs), ProcSet: ['PDF', 'Text'] }));
  const streams = (data: Uint8Array) => ctx.register(ctx.stream(data, { Filter: 'FlateDecode' }));
  for (const [flowed, overlay] of contents) {
    const page = doc.addPage([A4.width, A4.height]);
    page.node.set(PDFName.of('Resources'), resources);
    page.node.set(PDFName.of('Contents'), ctx.obj([streams(flowed), streams(overlay)]));
  }

  const now = new Date(Math.floor((options.now ?? new Date()).getTime() / 1000) * 1000);
  const producer = options.producer ?? DEFAULT_PRODUCER;
  const title = `${documentTitle(model, lang)}${model.number ? ` ${prepareText(model.number, false).text.slice(0, 200)}` : ''}`;
  doc.setTitle(title, { showInWindowTitleBar: true });
  doc.setLanguage(lang);
  doc.setProducer(producer);
  doc.setCreator(producer);
  doc.setCreationDate(now);
  doc.setModificationDate(now);
  doc.convertToPDFA({ conformance: '3B' });
  // A trailer /ID from what the file holds (the library's is random): the same invoice drawn twice gets the same.
  const hash = createHash('md5');
  for (const [flowed, overlay] of contents) hash.update(flowed).update(overlay);
  const id = hash.update(title).update(now.toISOString()).digest('hex');
  ctx.trailerInfo.ID = ctx.obj([PDFHexString.of(id), PDFHexString.of(id)]);

  const pdf = await doc.save({ addDefaultPage: false, useObjectStreams: true, updateFieldAppearances: false });
  return { pdf, pages: contents.length, linesDrawn: view.linesDrawn, missingGlyphs: view.missingGlyphs() };
}
