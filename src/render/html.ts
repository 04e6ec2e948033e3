/**
 * The HTML view of the render model (./model.ts): one self-contained page (inline CSS, no script, nothing loaded from
 * elsewhere, a Content-Security-Policy that forbids both; A4 print styles) laid out like an invoice.
 *
 * Addressing, for tests and for linking findings to the page:
 * - the element that shows a value carries `data-bt="BT-n"`; its raw value is the `value` attribute of a `<data>`
 *   element (amounts, prices, quantities, percentages, codes), the `datetime` attribute of a `<time>` element (dates),
 *   for BT-125 the Base64 after `base64,` in the `href` of its download link (whitespace removed), and otherwise the
 *   element's text;
 * - every group's element carries `data-bg="BG-n"` (and our DOC, REFS, TERMS);
 * - `data-src` on values and groups is the location of the source element, in the form validation findings use (on
 *   groups only past SOURCE_PATHS_MAX_LINES lines: `data-src-detail` on <main> says "all" or "groups").
 * Every term of the model is drawn: each layout takes the terms it places and draws what is left of the group as a
 * list (Picker), so a term the layout does not know still appears.
 */
import { codeMeaning } from './codes.js';
import { base64Payload, escapeHtml, formatBytes, formatDate, formatDecimal, percentSuffix } from './format.js';
import { label, pageText, type Lang, type PageText } from './labels.js';
import type { RenderGroup, RenderItem, RenderModel, RenderSection, RenderTerm } from './model.js';
import { ADDRESS_GROUPS, addressTermId, documentTitle, isQualifierOf, LINE_IDS, PARTY_NAMES, Picker, sourceText } from './view.js';

/**
 * Chromium refuses data: URLs longer than 2 MB (its URL length bound), so a larger attachment cannot be offered as a
 * link without script; it is listed with its name, type and size instead.
 */
export const MAX_DATA_URL_CHARS = 2 * 1024 * 1024;

/** Mime types a download link may declare (BR-CL-24's list); any other content is offered as octet-stream. */
const LINK_MIME = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
]);

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

// ------------------------------------------------------------------------------------------------
// values

const attr = (name: string, value: string | undefined) => (value === undefined ? '' : ` ${name}="${escapeHtml(value)}"`);

function open(tag: string, t: RenderTerm, extra = ''): string {
  return `<${tag} data-bt="${t.bt}"${attr('data-src', t.src)}${extra}>`;
}

/** A value as HTML: the element that carries data-bt, with its raw value where the text is formatted. */
export function valueHtml(t: RenderTerm, lang: Lang): string {
  const raw = t.raw;
  switch (t.kind) {
    case 'date': {
      const shown = formatDate(raw, lang);
      if (shown === undefined)
        return `${open('span', t, ` class="bad" title="${escapeHtml(pageText('invalidDate', lang))}"`)}${escapeHtml(raw)}</span>`;
      return `${open('time', t, ` datetime="${raw}"`)}${shown}</time>`;
    }
    case 'amount':
    case 'price':
    case 'quantity':
    case 'percent': {
      const trim = t.kind === 'quantity' || t.kind === 'percent';
      const shown = formatDecimal(raw, lang, trim, trim ? 0 : 2);
      if (shown === undefined) return `${open('span', t, ' class="bad"')}${escapeHtml(raw)}</span>`;
      const suffix = t.kind === 'percent' ? percentSuffix(lang) : '';
      return `${open('data', t, ` value="${escapeHtml(raw)}"`)}${shown}${suffix}</data>`;
    }
    case 'code': {
      const meaning = t.list ? codeMeaning(t.list, raw, lang) : undefined;
      const shown = meaning === undefined ? escapeHtml(raw) : `${escapeHtml(meaning)} <span class="code">(${escapeHtml(raw)})</span>`;
      return `${open('data', t, ` value="${escapeHtml(raw)}"`)}${shown}</data>`;
    }
    case 'email':
      if (/^[^\s<>"'@]+@[^\s<>"'@]+$/.test(raw)) return `${open('a', t, ` href="mailto:${escapeHtml(raw)}"`)}${escapeHtml(raw)}</a>`;
      return `${open('span', t)}${escapeHtml(raw)}</span>`;
    case 'uri':
      // Only web links are links: a javascript: or data: location in a hostile invoice stays text.
      if (/^https?:\/\/[^\s<>"']+$/i.test(raw)) {
        return `${open('a', t, ` href="${escapeHtml(raw)}" rel="noopener noreferrer nofollow" referrerpolicy="no-referrer"`)}${escapeHtml(raw)}</a>`;
      }
      return `${open('span', t)}${escapeHtml(raw)}</span>`;
    case 'binary':
      return attachmentHtml(t, lang);
    case 'note':
      return `${open('span', t, ' class="note"')}${escapeHtml(raw)}</span>`;
    default:
      return `${open('span', t)}${escapeHtml(raw)}</span>`;
  }
}

/** A safe download name: no path, no control characters, at most 120 characters. */
function downloadName(name: string | undefined): string {
  const cleaned = (name ?? '')
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
    .trim()
    .slice(0, 120);
  return cleaned || 'attachment';
}

/**
 * BT-125: a download link whose href is a data: URL (no script needed) when the content is Base64 and the URL fits
 * the browsers' bound; else the name, type and size with the reason it is not embedded.
 */
function attachmentHtml(t: RenderTerm, lang: Lang): string {
  const payload = base64Payload(t.raw);
  const name = t.filename ?? '';
  if (!payload) return `${open('span', t, ' class="bad" data-omitted="not-base64"')}${escapeHtml(pageText('notBase64', lang))}</span>`;
  const size = formatBytes(payload.bytes, lang, pageText('bytes', lang));
  const declared = t.mime?.trim().toLowerCase();
  const mime = declared && LINK_MIME.has(declared) ? declared : 'application/octet-stream';
  const prefix = `data:${mime};base64,`;
  if (prefix.length + payload.base64.length > MAX_DATA_URL_CHARS) {
    return `${open('span', t, ' data-omitted="size"')}${escapeHtml(name)} (${size}). ${escapeHtml(pageText('notEmbedded', lang))}</span>`;
  }
  return `${open('a', t, ` href="${prefix}${payload.base64}" download="${escapeHtml(downloadName(name))}"`)}${escapeHtml(pageText('download', lang))}${name ? ` ${escapeHtml(name)}` : ''} (${size})</a>`;
}

// ------------------------------------------------------------------------------------------------
// groups

const groupAttrs = (g: RenderGroup) => ` data-bg="${g.bg}"${attr('data-src', g.src)}`;
const idTag = (id: string) => `<small class="id">${id}</small>`;

/** A term as a label/value pair of a description list. */
function pair(t: RenderTerm, lang: Lang): string {
  return `<div class="kv"><dt>${escapeHtml(label(t.bt, lang))} ${idTag(t.bt)}</dt><dd>${valueHtml(t, lang)}</dd></div>`;
}

/** Items drawn as a description list (an identifier with its scheme on one row); subgroups as nested blocks. */
function list(items: RenderItem[], lang: Lang): string {
  let out = '';
  let inList = false;
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.type === 'term') {
      if (!inList) out += '<dl>';
      inList = true;
      if (!isQualifierOf(items[i + 1], it)) {
        out += pair(it, lang);
        continue;
      }
      let dd = valueHtml(it, lang);
      while (isQualifierOf(items[i + 1], it)) dd += ` <span class="scheme">${valueHtml(items[++i] as RenderTerm, lang)}</span>`;
      out += `<div class="kv"><dt>${escapeHtml(label(it.bt, lang))} ${idTag(it.bt)}</dt><dd>${dd}</dd></div>`;
    } else {
      if (inList) out += '</dl>';
      inList = false;
      out += block(it, lang, 'h4');
    }
  }
  return inList ? `${out}</dl>` : out;
}

/** A group as a titled block, every item listed. */
function block(g: RenderGroup, lang: Lang, heading: 'h2' | 'h3' | 'h4', cls = 'box'): string {
  return `<div class="${cls}"${groupAttrs(g)}><${heading}>${escapeHtml(label(g.bg, lang))} ${idTag(g.bg)}</${heading}>${list(g.items, lang)}</div>`;
}

const v = (t: RenderTerm | undefined, lang: Lang) => (t ? valueHtml(t, lang) : '');

/** A postal address (BG-5, BG-8, BG-12, BG-15) as it is written on an envelope. */
function addressHtml(g: RenderGroup, lang: Lang): string {
  const p = new Picker(g);
  const lines: string[] = [];
  for (const i of [0, 1, 2] as const) {
    const line = p.term(addressTermId(g, i));
    if (line) lines.push(v(line, lang));
  }
  const postcode = p.term(addressTermId(g, 'postcode'));
  const city = p.term(addressTermId(g, 'city'));
  if (postcode || city) lines.push([v(postcode, lang), v(city, lang)].filter(Boolean).join(' '));
  const sub = p.term(addressTermId(g, 'sub'));
  if (sub) lines.push(v(sub, lang));
  const country = p.term(addressTermId(g, 'country'));
  if (country) lines.push(v(country, lang));
  const rest = p.rest();
  return `<address${groupAttrs(g)}>${lines.join('<br>')}${rest.length ? list(rest, lang) : ''}</address>`;
}

/** A party card: name, trading name, address, then identifiers and contacts. */
function partyHtml(g: RenderGroup, lang: Lang, heading: 'h2' | 'h3' = 'h2'): string {
  const p = new Picker(g);
  const [nameId, tradingId] = PARTY_NAMES[g.bg] ?? ['', ''];
  let out = `<section class="party"${groupAttrs(g)}><${heading}>${escapeHtml(label(g.bg, lang))} ${idTag(g.bg)}</${heading}>`;
  const name = p.term(nameId);
  if (name) out += `<p class="name">${v(name, lang)}</p>`;
  const trading = tradingId ? p.term(tradingId) : undefined;
  if (trading) out += `<p class="trading">${v(trading, lang)}</p>`;
  for (const bg of ADDRESS_GROUPS) for (const a of p.groups(bg)) out += addressHtml(a, lang);
  return `${out}${list(p.rest(), lang)}</section>`;
}

// ------------------------------------------------------------------------------------------------
// sections

function headingHtml(section: RenderSection, model: RenderModel, lang: Lang): string {
  const doc = section.groups[0];
  const p = new Picker(doc);
  const number = p.term('BT-1');
  let out = `<header class="head"${groupAttrs(doc)}><h1>${escapeHtml(documentTitle(model, lang))}${number ? ` ${v(number, lang)}` : ''}</h1>`;
  out += list(p.rest(), lang);
  if (model.source) out += sourceHtml(model, lang);
  return `${out}</header>`;
}

function sourceHtml(model: RenderModel, lang: Lang): string {
  const s = model.source!;
  let out = `<p class="source">${escapeHtml(pageText('source', lang))}: ${escapeHtml(sourceText(model, lang))}</p>`;
  for (const n of s.notices)
    out += `<p class="notice" data-code="${escapeHtml(n.code)}">${escapeHtml(n.code)}: ${escapeHtml(n.message)}</p>`;
  return out;
}

function sectionOpen(id: RenderSection['id'], heading: PageText, lang: Lang, extra = ''): string {
  return `<section class="sec sec-${id}" data-section="${id}"><h2>${escapeHtml(pageText(heading, lang))}</h2>${extra}`;
}

function partiesHtml(section: RenderSection, lang: Lang): string {
  return `<section class="parties" data-section="parties">${section.groups.map((g) => partyHtml(g, lang)).join('')}</section>`;
}

/** The references: the document's reference terms as one list, preceding invoices and the period as blocks. */
function referencesHtml(section: RenderSection, lang: Lang): string {
  const body = section.groups.map((g) =>
    g.bg === 'REFS' ? `<div class="refs"${groupAttrs(g)}>${list(g.items, lang)}</div>` : block(g, lang, 'h3'),
  );
  return `${sectionOpen(section.id, 'references', lang)}${body.join('')}</section>`;
}

/** Delivery: a card like the parties' (its heading names the section). */
function deliveryHtml(section: RenderSection, lang: Lang): string {
  return `<section class="sec sec-delivery parties" data-section="delivery">${section.groups.map((g) => partyHtml(g, lang)).join('')}</section>`;
}

// -- lines

function allowanceChargeLine(g: RenderGroup, charge: boolean, lang: Lang): string {
  const p = new Picker(g);
  const ids = charge ? ['BT-141', 'BT-142', 'BT-143', 'BT-144', 'BT-145'] : ['BT-136', 'BT-137', 'BT-138', 'BT-139', 'BT-140'];
  const amount = p.term(ids[0]);
  const base = p.term(ids[1]);
  const percent = p.term(ids[2]);
  const reasons = [p.term(ids[3]), p.term(ids[4])].filter((x): x is RenderTerm => Boolean(x));
  const calc = base || percent ? ` <span class="calc">(${[v(base, lang), v(percent, lang)].filter(Boolean).join(' × ')})</span>` : '';
  const what = reasons.length ? `: ${reasons.map((r) => v(r, lang)).join(' · ')}` : '';
  return `<div class="ac ${charge ? 'charge' : 'allowance'}"${groupAttrs(g)}>${escapeHtml(pageText(charge ? 'charge' : 'allowance', lang))}${what}${calc} ${v(amount, lang)}${list(p.rest(), lang)}</div>`;
}

/** One line's row (and its sub-lines' rows after it). */
function lineRows(g: RenderGroup, depth: number, lang: Lang, out: string[]): void {
  const ids = depth === 0 ? LINE_IDS.main : LINE_IDS.sub;
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

  let itemCell = '';
  if (item) {
    const ip = new Picker(item);
    const name = ip.term('BT-153');
    const description = ip.term('BT-154');
    itemCell += `<div class="item"${groupAttrs(item)}>`;
    if (name) itemCell += `<p class="name">${v(name, lang)}</p>`;
    if (description) itemCell += `<p class="desc">${v(description, lang)}</p>`;
    itemCell += `${list(ip.rest(), lang)}</div>`;
  }
  const rest = p.rest();
  itemCell += list([...periods, ...rest], lang);
  for (const a of allowances) itemCell += allowanceChargeLine(a, false, lang);
  for (const c of charges) itemCell += allowanceChargeLine(c, true, lang);

  let priceCell = '';
  if (price) {
    const pp = new Picker(price);
    const netPrice = pp.term('BT-146');
    const baseQty = pp.term('BT-149');
    const baseUnit = pp.term('BT-150');
    const per = (qty: RenderTerm | undefined, unit: RenderTerm | undefined) =>
      qty || unit
        ? ` <span class="per">${escapeHtml(pageText('per', lang))} ${[v(qty, lang), v(unit, lang)].filter(Boolean).join(' ')}</span>`
        : '';
    priceCell = `<div${groupAttrs(price)}>${v(netPrice, lang)}${per(baseQty, baseUnit)}`;
    const gross = pp.term('BT-148');
    const discount = pp.term('BT-147');
    if (gross)
      priceCell += `<div class="gross">${escapeHtml(label('BT-148', lang))} ${v(gross, lang)}${per(pp.term('BT-149'), pp.term('BT-150'))}</div>`;
    if (discount) priceCell += `<div class="gross">${escapeHtml(label('BT-147', lang))} ${v(discount, lang)}</div>`;
    priceCell += `${list(pp.rest(), lang)}</div>`;
  }
  let vatCell = '';
  if (vat) {
    const vp = new Picker(vat);
    const cat = vp.term('BT-151');
    const rate = vp.term('BT-152');
    vatCell = `<div${groupAttrs(vat)}>${[v(rate, lang), v(cat, lang)].filter(Boolean).join('<br>')}${list(vp.rest(), lang)}</div>`;
  }
  const rowAttrs = depth === 0 ? '' : `${groupAttrs(g)} data-depth="${depth}"`;
  out.push(
    `<tr class="${depth === 0 ? 'line' : 'sub'}"${rowAttrs}><td class="pos">${v(pos, lang)}</td><td class="itemcell"${depth ? ` style="padding-left:${Math.min(depth, 8) * 1.2}em"` : ''}>${itemCell}</td><td class="num">${[v(quantity, lang), v(unit, lang)].filter(Boolean).join(' ')}</td><td class="num">${priceCell}</td><td class="num vat">${vatCell}</td><td class="num">${v(net, lang)}</td></tr>`,
  );
  for (const s of subLines) lineRows(s, depth + 1, lang, out);
}

function linesHtml(section: RenderSection, model: RenderModel, lang: Lang): string {
  if (section.groups.length === 0 && model.lineCount.total === 0) return '';
  const out: string[] = [];
  const currency = model.currency ? ` <p class="cur">${escapeHtml(pageText('amountsIn', lang))} ${escapeHtml(model.currency)}</p>` : '';
  out.push(sectionOpen('lines', 'lines', lang, currency));
  if (model.lineCount.shown < model.lineCount.total) {
    out.push(
      `<p class="notice cut">${escapeHtml(pageText('linesCut', lang, { shown: formatDecimal(String(model.lineCount.shown), lang)!, total: formatDecimal(String(model.lineCount.total), lang)! }))}</p>`,
    );
  }
  out.push(
    `<table class="lines"><thead><tr><th class="pos">${escapeHtml(pageText('colLine', lang))}</th><th>${escapeHtml(pageText('colItem', lang))}</th><th class="num">${escapeHtml(pageText('colQuantity', lang))}</th><th class="num">${escapeHtml(pageText('colPrice', lang))}</th><th class="num">${escapeHtml(pageText('colVat', lang))}</th><th class="num">${escapeHtml(pageText('colNet', lang))}</th></tr></thead>`,
  );
  for (const g of section.groups) {
    out.push(`<tbody${groupAttrs(g)}>`);
    lineRows(g, 0, lang, out);
    out.push('</tbody>');
  }
  out.push('</table></section>');
  return out.join('');
}

// -- document allowances and charges, VAT, totals

function allowancesChargesHtml(section: RenderSection, lang: Lang): string {
  if (section.groups.length === 0) return '';
  const rows = section.groups.map((g) => {
    const charge = g.bg === 'BG-21';
    const ids = charge
      ? ['BT-99', 'BT-100', 'BT-101', 'BT-102', 'BT-103', 'BT-104', 'BT-105']
      : ['BT-92', 'BT-93', 'BT-94', 'BT-95', 'BT-96', 'BT-97', 'BT-98'];
    const p = new Picker(g);
    const [amount, base, percent, cat, rate, reason, code] = ids.map((id) => p.term(id));
    const what = [reason, code].filter(Boolean).map((t) => v(t, lang));
    return `<tr${groupAttrs(g)}><td>${escapeHtml(pageText(charge ? 'charge' : 'allowance', lang))}${what.length ? `: ${what.join(' · ')}` : ''}${list(p.rest(), lang)}</td><td class="num">${v(base, lang)}</td><td class="num">${v(percent, lang)}</td><td class="num vat">${[v(rate, lang), v(cat, lang)].filter(Boolean).join('<br>')}</td><td class="num">${v(amount, lang)}</td></tr>`;
  });
  return `${sectionOpen('allowancesCharges', 'allowancesCharges', lang)}<table class="grid"><thead><tr><th></th><th class="num">${escapeHtml(label('BT-93', lang))}</th><th class="num">${escapeHtml(label('BT-94', lang))}</th><th class="num">${escapeHtml(pageText('colVat', lang))}</th><th class="num">${escapeHtml(label('BT-92', lang))}</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

function vatHtml(section: RenderSection, lang: Lang): string {
  if (section.groups.length === 0) return '';
  const rows = section.groups.map((g) => {
    const p = new Picker(g);
    const taxable = p.term('BT-116');
    const tax = p.term('BT-117');
    const cat = p.term('BT-118');
    const rate = p.term('BT-119');
    const reasons = [p.term('BT-120'), p.term('BT-121')].filter((x): x is RenderTerm => Boolean(x));
    return `<tr${groupAttrs(g)}><td>${v(cat, lang)}${reasons.length ? `<br><span class="reason">${reasons.map((r) => v(r, lang)).join(' · ')}</span>` : ''}${list(p.rest(), lang)}</td><td class="num">${v(rate, lang)}</td><td class="num">${v(taxable, lang)}</td><td class="num">${v(tax, lang)}</td></tr>`;
  });
  return `${sectionOpen('vat', 'vat', lang)}<table class="grid"><thead><tr><th>${escapeHtml(label('BT-118', lang))}</th><th class="num">${escapeHtml(label('BT-119', lang))}</th><th class="num">${escapeHtml(label('BT-116', lang))}</th><th class="num">${escapeHtml(label('BT-117', lang))}</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

const STRONG_TOTALS = new Set(['BT-112', 'BT-115']);

function totalsHtml(section: RenderSection, lang: Lang): string {
  const g = section.groups[0];
  if (!g) return '';
  const rows = g.items.map((it) => {
    if (it.type === 'group') return `<tr><td colspan="2">${block(it, lang, 'h4')}</td></tr>`;
    const cur = it.currency ? ` <span class="cur">${escapeHtml(it.currency)}</span>` : '';
    return `<tr class="${STRONG_TOTALS.has(it.bt) ? 'strong' : ''}"><th>${escapeHtml(label(it.bt, lang))} ${idTag(it.bt)}</th><td class="num">${valueHtml(it, lang)}${cur}</td></tr>`;
  });
  return `${sectionOpen('totals', 'totals', lang)}<table class="totals"${groupAttrs(g)}><tbody>${rows.join('')}</tbody></table></section>`;
}

function listSection(section: RenderSection, heading: PageText, lang: Lang): string {
  if (section.groups.length === 0) return '';
  return `${sectionOpen(section.id, heading, lang)}${section.groups.map((g) => block(g, lang, 'h3')).join('')}</section>`;
}

function notesHtml(section: RenderSection, lang: Lang): string {
  if (section.groups.length === 0) return '';
  const items = section.groups.map((g) => {
    const p = new Picker(g);
    const subject = p.term('BT-21');
    const text = p.term('BT-22');
    return `<li${groupAttrs(g)}>${subject ? `<p class="subject">${v(subject, lang)}</p>` : ''}${text ? `<p>${v(text, lang)}</p>` : ''}${list(p.rest(), lang)}</li>`;
  });
  return `${sectionOpen('notes', 'notes', lang)}<ul class="notes">${items.join('')}</ul></section>`;
}

// ------------------------------------------------------------------------------------------------
// page

const STYLE = `
:root{--ink:#1c2330;--muted:#5b6472;--line:#d5dae1;--soft:#f4f6f8;--accent:#1f4e79}
*{box-sizing:border-box}
html{font:10.5pt/1.45 "Source Sans 3","Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:#fff}
body{margin:0}
main{max-width:190mm;margin:0 auto;padding:12mm 10mm}
h1{font-size:20pt;margin:0 0 4pt;color:var(--accent);font-weight:600}
h2{font-size:12pt;margin:14pt 0 6pt;color:var(--accent);border-bottom:1px solid var(--line);padding-bottom:2pt;font-weight:600}
h3,h4{font-size:10.5pt;margin:6pt 0 3pt;font-weight:600}
h4{font-size:9.5pt;color:var(--muted)}
small.id{font-size:7pt;color:#8a93a0;font-weight:400;margin-left:2pt;white-space:nowrap}
dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:1pt 10pt}
.kv{display:contents}
dt{color:var(--muted)}
dd{margin:0;overflow-wrap:anywhere}
.head dl{margin-top:6pt;grid-template-columns:max-content 1fr max-content 1fr}
.source{color:var(--muted);font-size:9pt;margin:6pt 0 0}
.notice{border-left:3pt solid #c98a00;background:#fff8e6;padding:3pt 6pt;margin:6pt 0;font-size:9pt}
.parties{display:grid;grid-template-columns:1fr 1fr;gap:8pt 14pt;margin-top:10pt}
.party,.box{border:1px solid var(--line);border-radius:3pt;padding:6pt 8pt;break-inside:avoid}
.party h2{margin-top:0;border:0;font-size:10.5pt}
.party .name{font-weight:600;font-size:11.5pt;margin:0}
.party .trading{margin:0;color:var(--muted)}
address{font-style:normal;margin:3pt 0 5pt}
.box .box,.party .box{border:0;border-top:1px dashed var(--line);border-radius:0;padding:4pt 0 0;margin-top:4pt}

.head .box{border:0;padding:0;margin-top:4pt;font-size:9pt}
.head .box h4{display:none}
.refs dl{grid-template-columns:max-content 1fr max-content 1fr}
.refs .box{margin-top:6pt}
.scheme{color:var(--muted);font-size:9pt}
.sec>.box{margin-bottom:6pt}
table{width:100%;border-collapse:collapse}
th{text-align:left;font-weight:600;color:var(--muted);font-size:9pt;border-bottom:1.5pt solid var(--ink);padding:3pt 4pt}
td{vertical-align:top;padding:4pt;border-bottom:1px solid var(--line)}
.num{text-align:right;white-space:nowrap}
td.num dl{text-align:left;white-space:normal}
.lines tbody{break-inside:avoid}
.lines tr.sub td{background:var(--soft);font-size:9.5pt}
.lines .pos{width:3.5em}
.lines .item p{margin:0}
.lines .item .name{font-weight:600}
.lines dl,.grid dl{font-size:8.5pt;margin-top:2pt}
.lines .box{border:0;border-left:2pt solid var(--line);border-radius:0;padding:0 0 0 6pt;margin:3pt 0}
.lines .box h4{margin:0;font-size:8.5pt}
.ac{font-size:9pt;margin-top:2pt}
.ac.allowance{color:#2e6b2e}
.ac.charge{color:#8a3b12}
.per,.calc,.code,.reason,.cur{color:var(--muted);font-size:8.5pt}
.vat{font-size:9pt}
.gross{font-size:8.5pt;color:var(--muted)}
.totals{width:auto;min-width:55%;margin-left:auto}
.totals th{border:0;font-size:10pt;color:var(--ink);font-weight:400;padding:2pt 8pt 2pt 0}
.totals td{border:0;padding:2pt 0}
.totals tr.strong th,.totals tr.strong td{font-weight:700;border-top:1px solid var(--ink)}
.note{white-space:pre-wrap}
ul.notes{list-style:none;padding:0;margin:0}
ul.notes li{border-left:2pt solid var(--line);padding-left:6pt;margin-bottom:5pt}
ul.notes p{margin:0}
ul.notes .subject{font-size:9pt;color:var(--muted)}
.bad{color:#a00;text-decoration:underline dotted}
a{color:var(--accent)}
footer{margin-top:16pt;color:var(--muted);font-size:8pt;border-top:1px solid var(--line);padding-top:4pt}
@page{size:A4;margin:14mm 12mm}
@media print{html{font-size:9.5pt}main{max-width:none;padding:0}a{color:inherit;text-decoration:none}.sec{break-inside:auto}h2{break-after:avoid}thead{display:table-header-group}tr{break-inside:avoid}}
@media (max-width:640px){.parties,.boxes{grid-template-columns:1fr}.head dl{grid-template-columns:max-content 1fr}}
`
  .replace(/\n/g, '')
  .trim();

/** The page for a render model, in one language. */
export function renderHtml(model: RenderModel, lang: Lang): string {
  const out: string[] = [];
  const pageTitle = `${documentTitle(model, lang)}${model.number ? ` ${model.number}` : ''}`;
  out.push(
    `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="generator" content="einvoice-service"><title>${escapeHtml(pageTitle)}</title><style>${STYLE}</style></head><body><main class="invoice" data-kind="${model.kind}" data-src-detail="${model.sourcePaths}">`,
  );
  for (const section of model.sections) {
    switch (section.id) {
      case 'heading':
        out.push(headingHtml(section, model, lang));
        break;
      case 'parties':
        out.push(partiesHtml(section, lang));
        break;
      case 'references':
        if (section.groups.length) out.push(referencesHtml(section, lang));
        break;
      case 'delivery':
        if (section.groups.length) out.push(deliveryHtml(section, lang));
        break;
      case 'lines':
        out.push(linesHtml(section, model, lang));
        break;
      case 'allowancesCharges':
        out.push(allowancesChargesHtml(section, lang));
        break;
      case 'vat':
        out.push(vatHtml(section, lang));
        break;
      case 'totals':
        out.push(totalsHtml(section, lang));
        break;
      case 'payment':
        out.push(listSection(section, 'payment', lang));
        break;
      case 'notes':
        out.push(notesHtml(section, lang));
        break;
      case 'attachments':
        out.push(listSection(section, 'attachments', lang));
        break;
      default:
        // A section a later model step adds and this view does not know yet: drawn as titled lists.
        out.push(section.groups.map((g) => block(g, lang, 'h3')).join(''));
    }
  }
  out.push(`<footer>${escapeHtml(pageText('footer', lang))}</footer></main></body></html>\n`);
  return out.join('');
}

/** The Content-Security-Policy the page declares (the HTTP answer sends it as a header too). */
export const RENDER_CSP = CSP;
