/**
 * Structure-aware XML mutators. Elements are located with a tolerant tag scanner (no DOM, so a mutation
 * of a mutation still works); each mutator returns new bytes, or null when it does not apply.
 */
import type { Rng } from './rng.js';

export interface Span {
  name: string; // qualified name as written
  start: number; // index of '<'
  end: number; // index after the end tag (or after '/>')
  openEnd: number; // index after the start tag's '>'
  closeStart: number; // index of the end tag's '<' (= end for empty elements)
  depth: number;
  parent: number; // index into the span list, -1 for the root
}

/** Element spans of a well-formed-enough document (text as latin1/utf8 string indices). */
export function spans(xml: string): Span[] {
  const out: Span[] = [];
  const stack: number[] = [];
  const re = /<(!--[\s\S]*?--|!\[CDATA\[[\s\S]*?\]\]|![^>]*|\?[\s\S]*?\?|(\/?)([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?))>/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(xml))) {
    if (m[3] === undefined) continue; // comment, CDATA, DOCTYPE, PI
    if (m[2]) {
      // End tag: close the nearest open element of that name.
      for (let i = stack.length - 1; i >= 0; i--) {
        const s = out[stack[i]];
        if (s.name === m[3]) {
          s.closeStart = m.index;
          s.end = m.index + m[0].length;
          stack.length = i;
          break;
        }
      }
      continue;
    }
    const span: Span = {
      name: m[3],
      start: m.index,
      end: -1,
      openEnd: m.index + m[0].length,
      closeStart: -1,
      depth: stack.length,
      parent: stack.length ? stack[stack.length - 1] : -1,
    };
    out.push(span);
    if (m[5]) {
      span.end = span.openEnd;
      span.closeStart = span.openEnd;
    } else stack.push(out.length - 1);
  }
  return out.filter((s) => s.end >= 0);
}

export function leaves(all: Span[]): Span[] {
  const hasChild = new Set(all.map((s) => s.parent));
  return all.filter((s, i) => !hasChild.has(i) && s.closeStart > s.openEnd - 1);
}

const enc = (s: string) => Buffer.from(s, 'utf8');
const str = (b: Buffer) => b.toString('utf8');

/** A value set for boundary and garbage tests (numbers, dates, codes, text). */
export function boundaryValue(rng: Rng): string {
  const digits = (n: number) => '9'.repeat(n);
  const choices: (() => string)[] = [
    () => '',
    () => ' ',
    () => ' \t\r\n ',
    () => '0',
    () => '-0',
    () => '-1',
    () => '-99999999999999999999.99',
    () => '1e400',
    () => '1E-400',
    () => '1e5',
    () => '+5',
    () => '.5',
    () => '5.',
    () => '1,50',
    () => '0x1F',
    () => 'NaN',
    () => 'Infinity',
    () => '１２３',
    () => digits(rng.pick([20, 400, 5000, 100_000])),
    () => `${digits(100_000)}.${digits(100_000)}`,
    () => `0.${'0'.repeat(50_000)}1`,
    () => `1e${digits(rng.pick([3, 12, 5000]))}`,
    () => '20261399',
    () => '20260230',
    () => '2026-02-30',
    () => '99999999',
    () => '00000000',
    () => '2026-11-20T25:61:61Z',
    () => 'A'.repeat(rng.pick([1000, 200_000, 2_000_000])),
    () => '&amp;&lt;&gt;&quot;&apos;',
    () => '&#0;',
    () => '&#x1F;',
    () => '&#xD800;',
    () => '&unknown;',
    () => ']]>',
    () => '\u0001\u0008\u000b\u001f',
    () => '\uFFFE\uFFFF',
    () => 'ЁЖ中文🧾',
    () => '<x>nested</x>',
  ];
  return rng.pick(choices)();
}

export type XmlMutator = { name: string; apply: (input: Buffer, rng: Rng) => Buffer | null };

function pickSpan(xml: string, rng: Rng, filter: (s: Span, all: Span[]) => boolean = () => true): { s: Span; all: Span[] } | null {
  const all = spans(xml);
  const ok = all.filter((s) => filter(s, all));
  return ok.length ? { s: rng.pick(ok), all } : null;
}

function replaceRange(xml: string, a: number, b: number, withText: string): string {
  return xml.slice(0, a) + withText + xml.slice(b);
}

/** Keep an upload under the default 10 MB limit (a bigger one only tests the 413 path, covered separately). */
const MAX_BYTES = 9 * 1024 * 1024;

export const XML_MUTATORS: XmlMutator[] = [
  {
    name: 'xml-delete-element',
    apply(b, rng) {
      const x = str(b);
      const p = pickSpan(x, rng, (s) => s.depth > 0);
      return p ? enc(replaceRange(x, p.s.start, p.s.end, '')) : null;
    },
  },
  {
    name: 'xml-duplicate-element',
    apply(b, rng) {
      const x = str(b);
      const p = pickSpan(x, rng, (s) => s.depth > 0);
      if (!p) return null;
      const el = x.slice(p.s.start, p.s.end);
      const times = Math.max(1, Math.min(rng.pick([1, 2, 10, 1000, 50_000]), Math.floor(MAX_BYTES / Math.max(1, el.length))));
      return enc(replaceRange(x, p.s.end, p.s.end, el.repeat(times)));
    },
  },
  {
    name: 'xml-unknown-elements',
    apply(b, rng) {
      // Many unknown empty elements inside a valid invoice (one class in issue 17).
      const x = str(b);
      const p = pickSpan(x, rng, (s) => s.depth === 1);
      if (!p) return null;
      const n = rng.pick([100, 10_000, 500_000]);
      const one = rng.chance(0.5) ? '<ram:Unknown/>' : '<Zz/>';
      return enc(replaceRange(x, p.s.openEnd, p.s.openEnd, one.repeat(Math.min(n, Math.floor(MAX_BYTES / one.length)))));
    },
  },
  {
    name: 'xml-many-bad-lines',
    apply(b, rng) {
      // Repeat line items with broken values: a report that must stay proportionate.
      const x = str(b);
      const p = pickSpan(x, rng, (s) => /(IncludedSupplyChainTradeLineItem|InvoiceLine|CreditNoteLine)$/.test(s.name));
      if (!p) return null;
      const line = x.slice(p.s.start, p.s.end).replace(/>(-?\d+(?:\.\d+)?)</g, (_m, v) => `>${v}9<`);
      const times = Math.min(rng.pick([100, 5000, 100_000]), Math.floor((MAX_BYTES - x.length) / Math.max(1, line.length)));
      return times > 0 ? enc(replaceRange(x, p.s.end, p.s.end, line.repeat(times))) : null;
    },
  },
  {
    name: 'xml-reorder',
    apply(b, rng) {
      const x = str(b);
      const all = spans(x);
      const byParent = new Map<number, Span[]>();
      // Appended in place: copying the list per child was quadratic (300,000 siblings spun the harness for 20 minutes).
      for (const s of all) {
        if (s.parent < 0) continue;
        const siblings = byParent.get(s.parent);
        if (siblings) siblings.push(s);
        else byParent.set(s.parent, [s]);
      }
      const groups = [...byParent.values()].filter((g) => g.length >= 2);
      if (!groups.length) return null;
      const g = rng.pick(groups);
      const [a, c] = rng.sample(g, 2).sort((p, q) => p.start - q.start);
      return enc(x.slice(0, a.start) + x.slice(c.start, c.end) + x.slice(a.end, c.start) + x.slice(a.start, a.end) + x.slice(c.end));
    },
  },
  {
    name: 'xml-boundary-value',
    apply(b, rng) {
      const x = str(b);
      const all = spans(x);
      const ls = leaves(all);
      if (!ls.length) return null;
      // Prefer numeric and date leaves: that is where arithmetic and date parsing happen.
      const numeric = ls.filter((s) => /^\s*-?[\d.]+\s*$/.test(x.slice(s.openEnd, s.closeStart)));
      const s = numeric.length && rng.chance(0.7) ? rng.pick(numeric) : rng.pick(ls);
      return enc(replaceRange(x, s.openEnd, s.closeStart, boundaryValue(rng)));
    },
  },
  {
    name: 'xml-attribute-value',
    apply(b, rng) {
      const x = str(b);
      const re = /(\s[\w:]+=")([^"]*)(")/g;
      const hits = [...x.matchAll(re)].filter((m) => !m[1].includes('xmlns'));
      if (!hits.length) return null;
      const m = rng.pick(hits);
      const v = boundaryValue(rng).replace(/"/g, '&quot;').replace(/</g, '&lt;');
      return enc(replaceRange(x, m.index! + m[1].length, m.index! + m[1].length + m[2].length, v));
    },
  },
  {
    name: 'xml-attributes-games',
    apply(b, rng) {
      const x = str(b);
      const p = pickSpan(x, rng);
      if (!p) return null;
      const at = p.s.openEnd - (x[p.s.openEnd - 2] === '/' ? 2 : 1);
      const kind = rng.int(3);
      const add =
        kind === 0
          ? ' a="1" a="2"'
          : kind === 1
            ? Array.from({ length: rng.pick([100, 50_000]) }, (_, i) => ` a${i}="${i}"`).join('')
            : ` big="${'x'.repeat(1_000_000)}"`;
      return enc(replaceRange(x, at, at, add));
    },
  },
  {
    name: 'xml-huge-string',
    apply(b, rng) {
      const x = str(b);
      const ls = leaves(spans(x));
      if (!ls.length) return null;
      const s = rng.pick(ls);
      const n = rng.pick([100_000, 1_000_000, 4_000_000]);
      return enc(replaceRange(x, s.openEnd, s.closeStart, rng.pick(['Z', 'ä', ' ', '9']).repeat(n)));
    },
  },
  {
    name: 'xml-control-chars',
    apply(b, rng) {
      const at = rng.int(b.length);
      const bad = Buffer.from([rng.pick([0x00, 0x01, 0x08, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f])]);
      return Buffer.concat([b.subarray(0, at), bad, b.subarray(at)]);
    },
  },
  {
    name: 'xml-invalid-utf8',
    apply(b, rng) {
      const seqs = [
        [0xff],
        [0xc3, 0x28],
        [0xc0, 0xaf],
        [0xed, 0xa0, 0x80],
        [0xf8, 0x88, 0x80, 0x80, 0x80],
        [0xe2, 0x82],
        [0xf4, 0x90, 0x80, 0x80],
        [0xef, 0xbf, 0xbe],
      ];
      const x = str(b);
      const ls = leaves(spans(x));
      const seq = Buffer.from(rng.pick(seqs));
      if (rng.chance(0.2)) return Buffer.concat([b, seq]); // truncated sequence at the end
      const at = ls.length ? Buffer.byteLength(x.slice(0, rng.pick(ls).openEnd)) : rng.int(b.length);
      return Buffer.concat([b.subarray(0, at), seq, b.subarray(at)]);
    },
  },
  {
    name: 'xml-lying-encoding',
    apply(b, rng) {
      let x = str(b);
      const encName = rng.pick([
        'UTF-16',
        'UTF-16LE',
        'ISO-8859-1',
        'ISO-8859-15',
        'windows-1252',
        'US-ASCII',
        'UTF-7',
        'UTF-32',
        'EBCDIC-CP-US',
        'Shift_JIS',
        'x-nonsense',
        '',
        'UTF-8 ',
      ]);
      if (/^\s*<\?xml[^>]*encoding=/.test(x)) x = x.replace(/encoding=(["'])[^"']*\1/, `encoding="${encName}"`);
      else if (/^\s*<\?xml/.test(x)) x = x.replace(/^\s*<\?xml/, `<?xml encoding="${encName}"`);
      else x = `<?xml version="1.0" encoding="${encName}"?>\n${x}`;
      const how = rng.int(5);
      if (how === 0) return Buffer.from(x, 'latin1'); // really single-byte (umlauts as one byte)
      if (how === 1) return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(x, 'utf16le')]); // UTF-16LE with BOM
      if (how === 2) return Buffer.from(x, 'utf16le'); // UTF-16 without BOM
      if (how === 3) return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), enc(x)]); // UTF-8 BOM, other declaration
      return enc(x);
    },
  },
  {
    name: 'xml-namespace-games',
    apply(b, rng) {
      const x = str(b);
      const decls = [...x.matchAll(/\sxmlns(?::([\w.-]+))?="([^"]*)"/g)];
      if (!decls.length) return null;
      const d = rng.pick(decls);
      const prefix = d[1];
      switch (rng.int(6)) {
        case 0: // drop a declaration: its prefix becomes unbound
          return enc(replaceRange(x, d.index!, d.index! + d[0].length, ''));
        case 1: // bind it to another namespace
          return enc(
            replaceRange(x, d.index!, d.index! + d[0].length, prefix ? ` xmlns:${prefix}="urn:wrong:${prefix}"` : ' xmlns="urn:wrong"'),
          );
        case 2: // declare it twice
          return enc(replaceRange(x, d.index! + d[0].length, d.index! + d[0].length, d[0]));
        case 3: // unbind a prefix (illegal in XML 1.0)
          return enc(replaceRange(x, d.index!, d.index! + d[0].length, prefix ? ` xmlns:${prefix}=""` : ' xmlns=""'));
        case 4: {
          // use an undeclared prefix on one element
          const p = pickSpan(x, rng, (s) => s.depth > 0 && s.closeStart > s.openEnd - 1 && s.end > s.openEnd);
          if (!p) return null;
          const local = p.s.name.replace(/^.*:/, '');
          const close = x.slice(p.s.closeStart, p.s.end);
          const open = x.slice(p.s.start, p.s.openEnd);
          return enc(
            x.slice(0, p.s.start) +
              open.replace(p.s.name, `zz:${local}`) +
              x.slice(p.s.openEnd, p.s.closeStart) +
              (close.startsWith('</') ? `</zz:${local}>` : '') +
              x.slice(p.s.end),
          );
        }
        default: {
          // redeclare the prefix on a child element to another namespace
          const p = pickSpan(x, rng, (s) => s.depth > 1);
          if (!p || !prefix) return null;
          const at = p.s.start + 1 + p.s.name.length;
          return enc(
            replaceRange(x, at, at, ` xmlns:${prefix}="${rng.pick(['urn:other', d[2] + 'x', 'http://www.w3.org/XML/1998/namespace'])}"`),
          );
        }
      }
    },
  },
  {
    name: 'xml-cdata-comments-pis',
    apply(b, rng) {
      const x = str(b);
      const ls = leaves(spans(x));
      if (!ls.length) return null;
      const s = rng.pick(ls);
      const text = x.slice(s.openEnd, s.closeStart);
      const half = Math.floor(text.length / 2);
      const forms = [
        `<![CDATA[${text}]]>`,
        `${text.slice(0, half)}<!-- c -->${text.slice(half)}`,
        `${text.slice(0, half)}<?pi data?>${text.slice(half)}`,
        `<![CDATA[${text.slice(0, half)}]]>${text.slice(half)}`,
        `<!-- a -- b -->${text}`,
        `${text}<?xml version="1.0"?>`,
        `<![CDATA[${']]>'.repeat(3)}`,
        `${'<!---->'.repeat(100_000)}${text}`,
      ];
      return enc(replaceRange(x, s.openEnd, s.closeStart, rng.pick(forms)));
    },
  },
  {
    name: 'xml-doctype-entities',
    apply(b, rng) {
      const x = str(b);
      const root = spans(x)[0];
      if (!root) return null;
      const forms = [
        `<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">]>`,
        '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
        '<!DOCTYPE r SYSTEM "http://127.0.0.1:1/x.dtd">',
        '<!DOCTYPE r [<!ENTITY % p SYSTEM "file:///etc/hostname"> %p;]>',
        '<!DOCTYPE r>',
      ];
      let out = replaceRange(x, root.start, root.start, `${rng.pick(forms)}\n`);
      const ls = leaves(spans(out));
      if (ls.length) {
        const s = rng.pick(ls);
        out = replaceRange(out, s.openEnd, s.closeStart, rng.pick(['&g;', '&xxe;', '&a;', '&lt;']));
      }
      return enc(out);
    },
  },
  {
    name: 'xml-deep-nesting',
    apply(b, rng) {
      const x = str(b);
      const ls = leaves(spans(x));
      if (!ls.length) return null;
      const s = rng.pick(ls);
      const tag = rng.pick(['a', 'ram:Note']);
      const n = Math.min(rng.pick([1000, 10_000, 100_000, 1_000_000]), Math.floor((MAX_BYTES - b.length) / (2 * tag.length + 5)));
      return enc(replaceRange(x, s.openEnd, s.closeStart, `<${tag}>`.repeat(n) + `</${tag}>`.repeat(rng.chance(0.8) ? n : n - 1)));
    },
  },
  {
    name: 'xml-truncate',
    apply(b, rng) {
      return b.subarray(0, rng.int(b.length));
    },
  },
  {
    name: 'xml-byte-flip',
    apply(b, rng) {
      const out = Buffer.from(b);
      const n = rng.range(1, 8);
      for (let i = 0; i < n; i++) out[rng.int(out.length)] ^= 1 << rng.int(8);
      return out;
    },
  },
  {
    name: 'xml-wrong-root',
    apply(b, rng) {
      const x = str(b);
      const forms = [
        '',
        '<?xml version="1.0"?>',
        '<Invoice/>',
        '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>',
        '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"></Invoice>',
        `${x}${x}`,
        `${x}<trailing/>`,
        `\u0000${x}`,
        ` \n\n${x}`,
        x.replace(/<\?xml[^>]*\?>/, '<?xml version="1.1" encoding="UTF-8"?>'),
        x.replace(/<\?xml[^>]*\?>/, '<?xml version="2.0"?>'),
      ];
      return enc(rng.pick(forms));
    },
  },
];
