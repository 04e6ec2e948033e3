/**
 * PDF mutators: lies in a real PDF's structure (startxref, xref entries, /Length, /Size, /Prev, encryption
 * markers, byte flips, truncation) and synthetic hostile files built with pdf-builder (huge xref-stream
 * /Index, object streams with a huge /N or in a cycle, deep or cyclic page and name trees, 10,000
 * attachments, Flate/LZW/ASCII85 bombs in embedded files and object streams, quadratic-recovery bait).
 */
import { deflateSync } from 'node:zlib';
import {
  ascii85Encode,
  attachment,
  basicObjects,
  buildPdf,
  flateBomb,
  lzwRunBomb,
  objectStream,
  pdfa3Xmp,
  streamObj,
  type PdfObject,
} from './pdf-builder.js';
import type { Rng } from './rng.js';

export interface PdfMutator {
  name: string;
  /** Synthetic mutators ignore the seed PDF; they only use `xml` (a valid invoice to embed). */
  synthetic?: boolean;
  apply: (input: Buffer, rng: Rng, xml: Buffer) => Buffer | null;
}

const MAX_BYTES = 9 * 1024 * 1024;
const latin = (b: Buffer) => b.toString('latin1');
const bytes = (s: string) => Buffer.from(s, 'latin1');

function replaceAt(b: Buffer, at: number, len: number, withBytes: Buffer): Buffer {
  return Buffer.concat([b.subarray(0, at), withBytes, b.subarray(at + len)]);
}

function lies(rng: Rng, real?: number): string {
  return String(
    rng.pick([
      0,
      -1,
      1,
      2147483647,
      4294967296,
      99999999999999,
      1e21,
      real !== undefined ? real + 1 : 7,
      real !== undefined ? real - 1 : 3,
      real !== undefined ? real * 1000 : 9,
    ]),
  );
}

let bombCache: Map<string, Buffer> | undefined;
function cached(key: string, make: () => Buffer): Buffer {
  bombCache ??= new Map();
  let v = bombCache.get(key);
  if (!v) bombCache.set(key, (v = make()));
  return v;
}

/** Catalog 1, pages 2, page 3, content 4, XMP 5 (PDF/A-3 declared); more objects from 6. */
function pdfa3Objects(catalogExtra = ''): PdfObject[] {
  const objs = basicObjects(`/Metadata 5 0 R ${catalogExtra}`);
  objs.push(streamObj(5, '/Type /Metadata /Subtype /XML', pdfa3Xmp()));
  return objs;
}

/** An embedded factur-x.xml at objects 6 (stream) and 7 (filespec), in a flat name tree and /AF. */
function withAttachment(
  stream: Buffer,
  filter: string | undefined,
  opts: { params?: string; rawLength?: number | string } = {},
): PdfObject[] {
  const objs = pdfa3Objects('/Names << /EmbeddedFiles << /Names [(factur-x.xml) 7 0 R] >> >> /AF [7 0 R]');
  objs.push(...attachment(6, 'factur-x.xml', stream, { filter, ...opts }));
  return objs;
}

function brokenXref(pdf: Buffer): Buffer {
  // Keep the file but make the cross-reference useless: the readers fall back to recovery.
  const s = latin(pdf);
  const at = s.lastIndexOf('startxref');
  return at < 0 ? pdf : Buffer.concat([pdf.subarray(0, at), bytes('startxref\n999999\n%%EOF\n')]);
}

const RAW_MUTATORS: PdfMutator[] = [
  // ---- lies and damage in a real PDF ----
  {
    name: 'pdf-byte-flip',
    apply(b, rng) {
      const out = Buffer.from(b);
      const n = rng.range(1, 32);
      for (let i = 0; i < n; i++) out[rng.int(out.length)] = rng.int(256);
      return out;
    },
  },
  {
    name: 'pdf-truncate',
    apply(b, rng) {
      return b.subarray(0, rng.chance(0.5) ? rng.int(b.length) : b.length - rng.range(1, Math.min(200, b.length)));
    },
  },
  {
    name: 'pdf-delete-range',
    apply(b, rng) {
      const a = rng.int(b.length);
      return replaceAt(b, a, rng.range(1, 2000), Buffer.alloc(0));
    },
  },
  {
    name: 'pdf-startxref-lie',
    apply(b, rng) {
      const s = latin(b);
      const at = s.lastIndexOf('startxref');
      if (at < 0) return null;
      const m = /startxref\s+(\S+)/.exec(s.slice(at));
      if (!m) return null;
      const real = Number(m[1]);
      const lie = rng.pick([lies(rng, real), String(b.length - 1), String(rng.int(b.length)), 'abc', '-5', '']);
      return replaceAt(b, at, m[0].length, bytes(`startxref\n${lie}`));
    },
  },
  {
    name: 'pdf-xref-entry-lie',
    apply(b, rng) {
      const s = latin(b);
      const entries = [...s.matchAll(/(\d{10}) (\d{5}) ([nf])/g)];
      const subsections = [...s.matchAll(/xref\s+(\d+) (\d+)/g)];
      if (rng.chance(0.3) && subsections.length) {
        const m = rng.pick(subsections);
        return replaceAt(b, m.index!, m[0].length, bytes(`xref\n${m[1]} ${rng.pick(['2000000000', '0', '99999', '-1'])}`));
      }
      if (!entries.length) return null;
      let out = b;
      for (let i = 0; i < rng.range(1, 5); i++) {
        const m = rng.pick(entries);
        const v = String(rng.pick([0, rng.int(b.length), b.length + 1000, 9999999999]))
          .padStart(10, '0')
          .slice(-10);
        out = replaceAt(out, m.index!, 10, bytes(v));
      }
      return out;
    },
  },
  {
    name: 'pdf-length-lie',
    apply(b, rng) {
      const s = latin(b);
      const hits = [...s.matchAll(/\/Length (\d+)(?! \d+ R)/g)];
      if (!hits.length) return null;
      const m = rng.pick(hits);
      const real = Number(m[1]);
      return replaceAt(b, m.index!, m[0].length, bytes(`/Length ${rng.pick([lies(rng, real), '1 0 R', '-5', '3.5', '/Foo'])}`));
    },
  },
  {
    name: 'pdf-size-lie',
    apply(b, rng) {
      const s = latin(b);
      const hits = [...s.matchAll(/\/Size (\d+)/g)];
      if (!hits.length) return null;
      const m = rng.pick(hits);
      return replaceAt(b, m.index!, m[0].length, bytes(`/Size ${lies(rng, Number(m[1]))}`));
    },
  },
  {
    name: 'pdf-prev-loop',
    apply(b, rng) {
      const s = latin(b);
      const m = /startxref\s+(\d+)/.exec(s.slice(s.lastIndexOf('startxref')));
      const t = s.lastIndexOf('trailer');
      const dictAt = t >= 0 ? s.indexOf('<<', t) : s.lastIndexOf('/Type /XRef');
      if (!m || dictAt < 0) return null;
      const prev = rng.pick([m[1], '0', String(b.length), '-1']);
      return replaceAt(b, dictAt + (t >= 0 ? 2 : 0), 0, bytes(` /Prev ${prev} `));
    },
  },
  {
    name: 'pdf-unterminate',
    apply(b, rng) {
      // Remove endobj/endstream markers (all or some): unterminated objects for the recovery scanner.
      const all = rng.chance(0.5);
      const s = latin(b).replace(/endobj|endstream/g, (t) => (all || rng.chance(0.5) ? ' '.repeat(t.length) : t));
      return bytes(s);
    },
  },
  {
    name: 'pdf-encrypt-marker',
    apply(b, rng) {
      const s = latin(b);
      const t = s.lastIndexOf('trailer');
      const x = s.lastIndexOf('/Type /XRef');
      const at = t >= 0 ? s.indexOf('<<', t) + 2 : x >= 0 ? x : -1;
      if (at < 2) return null;
      const enc = rng.pick([
        '/Encrypt << /Filter /Standard /V 5 /R 6 /Length 256 /O <00> /U <00> /P -4 >>',
        '/Encrypt << /Filter /Standard /V 1 /R 2 /O (xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx) /U (xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx) /P -44 >>',
        '/Encrypt 999 0 R',
        '/Encrypt << /Filter /Adobe.PubSec /SubFilter /adbe.pkcs7.s5 >>',
      ]);
      return replaceAt(b, at, 0, bytes(` ${enc} `));
    },
  },
  {
    name: 'pdf-remove-xref',
    apply(b) {
      return brokenXref(bytes(latin(b).replace(/\nxref\b/g, '\nxxxx')));
    },
  },

  // ---- synthetic hostile structures ----
  {
    name: 'syn-xref-stream-huge-index',
    synthetic: true,
    apply(_b, rng) {
      const w = rng.pick(['[0 0 0]', '[1 0 0]', '[0 0 1]', '[4 8 4]', '[1 99999999 1]', '[-1 2 1]', '[1 2]']);
      const index = rng.pick(['[0 2000000000]', '[0 2147483647 5 2000000000]', '[4294967295 10]', '[0 -5]', '[0 999999999999]']);
      return buildPdf(pdfa3Objects(), {
        xref: 'stream',
        xrefStreamDict: `/W ${w} /Index ${index}`,
        trailer: '/Root 1 0 R',
        size: rng.pick([2000000000, 7]),
      });
    },
  },
  {
    name: 'syn-objstm-huge-n',
    synthetic: true,
    apply(_b, rng) {
      const objs = pdfa3Objects();
      const n = rng.pick(['200000000', '2147483647', '-1', '99999999999']);
      objs.push(objectStream(8, [{ num: 9, body: '<< /A 1 >>' }], { n, first: rng.pick([undefined, 0, 999999999]), raw: rng.chance(0.3) }));
      // The catalog refers to an object said to be inside the object stream (xref stream type 2 entries).
      objs[0] = { num: 1, body: '<< /Type /Catalog /Pages 2 0 R /Metadata 5 0 R /X 9 0 R >>' };
      return buildPdf(objs, { xref: 'stream', trailer: '/Root 1 0 R' });
    },
  },
  {
    name: 'syn-objstm-flate-bomb',
    synthetic: true,
    apply(_b, rng) {
      const objs = pdfa3Objects('/X 9 0 R');
      const mib = rng.pick([80, 1024]);
      objs.push(
        streamObj(
          8,
          `/Type /ObjStm /N ${rng.pick([1, 200000000])} /First 4 /Filter /FlateDecode`,
          cached(`objbomb${mib}`, () => flateBomb(mib, 0x20, Buffer.from('9 0 '))),
        ),
      );
      const pdf = buildPdf(objs, { xref: 'stream', trailer: '/Root 1 0 R' });
      return rng.chance(0.3) ? brokenXref(pdf) : pdf;
    },
  },
  {
    name: 'syn-objstm-cycle',
    synthetic: true,
    apply(_b, rng) {
      const objs = pdfa3Objects('/X 9 0 R');
      // Two object streams extending each other, or one extending itself.
      const self = rng.chance(0.5);
      objs.push(objectStream(8, [{ num: 9, body: '10 0 R' }], { extra: `/Extends ${self ? 8 : 10} 0 R` }));
      if (!self) objs.push(objectStream(10, [{ num: 11, body: '9 0 R' }], { extra: '/Extends 8 0 R' }));
      else objs.push({ num: 10, body: '9 0 R' });
      return buildPdf(objs, { xref: 'stream', trailer: '/Root 1 0 R' });
    },
  },
  {
    name: 'syn-indirect-cycle',
    synthetic: true,
    apply(_b, rng) {
      const objs = pdfa3Objects(`/Names 6 0 R /AF 7 0 R`);
      objs.push({ num: 6, body: '7 0 R' }, { num: 7, body: '6 0 R' }, { num: 8, body: '<< /Length 8 0 R >>', stream: Buffer.from('abc') });
      objs[0].body = objs[0].body.replace('/Catalog', `/Catalog /L 8 0 R ${rng.chance(0.5) ? '/Pages 1 0 R' : ''}`);
      return buildPdf(objs, { trailer: '/Root 1 0 R' });
    },
  },
  {
    name: 'syn-deep-page-tree',
    synthetic: true,
    apply(_b, rng) {
      const depth = rng.pick([1000, 20_000, 50_000]);
      const objs: PdfObject[] = [
        { num: 1, body: '<< /Type /Catalog /Pages 10 0 R /Metadata 5 0 R >>' },
        streamObj(5, '/Type /Metadata /Subtype /XML', pdfa3Xmp()),
        streamObj(4, '', Buffer.from('BT ET')),
      ];
      for (let i = 0; i < depth; i++)
        objs.push({ num: 10 + i, body: `<< /Type /Pages /Kids [${11 + i} 0 R] /Count 1 ${i ? `/Parent ${9 + i} 0 R` : ''} >>` });
      objs.push({ num: 10 + depth, body: `<< /Type /Page /Parent ${9 + depth} 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>` });
      return buildPdf(objs, { trailer: '/Root 1 0 R' });
    },
  },
  {
    name: 'syn-bad-page-tree',
    synthetic: true,
    apply(_b, rng) {
      const objs = pdfa3Objects();
      const kind = rng.int(6);
      if (kind === 0) objs[0].body = '<< /Type /Catalog /Metadata 5 0 R >>'; // no /Pages
      if (kind === 1) objs[1].body = '<< /Type /Pages /Count 1 >>'; // /Pages without /Kids
      if (kind === 2) objs[1].body = '<< /Type /Pages /Kids [2 0 R] /Count 1 >>'; // self-referencing
      if (kind === 3) objs[2].body = '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 3 0 R] /Count 2 >>'; // cycle through a kid
      if (kind === 4) objs[1].body = '<< /Type /Pages /Kids 3 0 R /Count 2147483647 >>'; // not an array, huge count
      if (kind === 5) objs[1].body = `<< /Type /Pages /Kids [${'3 0 R '.repeat(100_000)}] /Count 100000 >>`; // one page 100,000 times
      return buildPdf(objs, { trailer: '/Root 1 0 R' });
    },
  },
  {
    name: 'syn-deep-name-tree',
    synthetic: true,
    apply(_b, rng, xml) {
      const depth = rng.pick([100, 10_000, 50_000]);
      const cyclic = rng.chance(0.3);
      const objs = pdfa3Objects('/Names << /EmbeddedFiles 10 0 R >> /AF [7 0 R]');
      objs.push(...attachment(6, 'factur-x.xml', xml));
      for (let i = 0; i < depth; i++) {
        const last = i === depth - 1;
        objs.push({
          num: 10 + i,
          body: last && !cyclic ? '<< /Names [(factur-x.xml) 7 0 R] >>' : `<< /Kids [${last ? 10 : 11 + i} 0 R] >>`,
        });
      }
      return buildPdf(objs, { trailer: '/Root 1 0 R' });
    },
  },
  {
    name: 'syn-many-attachments',
    synthetic: true,
    apply(_b, rng, xml) {
      const n = rng.pick([1000, 10_000]);
      const sameName = rng.chance(0.3);
      const objs = pdfa3Objects('/Names << /EmbeddedFiles 8 0 R >>');
      const names: string[] = [];
      const small = Buffer.from('<a/>');
      for (let i = 0; i < n; i++) {
        const num = 10 + 2 * i;
        const name = sameName || i === n - 1 ? 'factur-x.xml' : `file${String(i).padStart(5, '0')}.xml`;
        objs.push(...attachment(num, name, i === n - 1 ? xml : small));
        names.push(`(${name}) ${num + 1} 0 R`);
      }
      objs.push({ num: 8, body: `<< /Names [${names.join(' ')}] >>` });
      return buildPdf(objs, { trailer: '/Root 1 0 R' });
    },
  },
  {
    name: 'syn-flate-bomb-attachment',
    synthetic: true,
    apply(_b, rng, xml) {
      const mib = rng.pick([80, 1024]);
      const data = cached(`xmlbomb${mib}`, () => flateBomb(mib, 0x20, xml));
      const pdf = buildPdf(withAttachment(data, '/FlateDecode', { params: `/Params << /Size ${xml.length} >>` }), {
        trailer: '/Root 1 0 R',
      });
      return rng.chance(0.5) ? brokenXref(pdf) : pdf;
    },
  },
  {
    name: 'syn-lzw-bomb-attachment',
    synthetic: true,
    apply(_b, rng) {
      const data = cached('lzw1g', () => lzwRunBomb(0x20, 1 << 30));
      const pdf = buildPdf(withAttachment(data, '/LZWDecode'), { trailer: '/Root 1 0 R' });
      return rng.chance(0.5) ? brokenXref(pdf) : pdf;
    },
  },
  {
    name: 'syn-ascii85-chain-bomb',
    synthetic: true,
    apply(_b, rng, xml) {
      const data = cached('a85bomb', () => ascii85Encode(flateBomb(1024, 0x20, xml)));
      const filter = rng.pick(['[/ASCII85Decode /FlateDecode]', '[/ASCII85Decode /ASCII85Decode]', '/ASCII85Decode']);
      const pdf = buildPdf(withAttachment(data, filter), { trailer: '/Root 1 0 R' });
      return rng.chance(0.5) ? brokenXref(pdf) : pdf;
    },
  },
  {
    name: 'syn-recovery-bait',
    synthetic: true,
    apply(_b, rng, xml) {
      // A cross-reference that points nowhere and many unterminated objects/streams (quadratic recovery).
      const n = rng.pick([500, 4000, 20_000]);
      const objs = withAttachment(xml, undefined);
      for (let i = 0; i < n; i++)
        objs.push({ num: 20 + i, body: '<< /Length 10 >>', stream: Buffer.from('0123456789'), unterminated: true });
      return buildPdf(objs, { trailer: '/Root 1 0 R', startxref: 10 });
    },
  },
  {
    name: 'syn-deep-objects',
    synthetic: true,
    apply(_b, rng) {
      const depth = rng.pick([1000, 100_000, 1_000_000]);
      const kind = rng.int(3);
      const body =
        kind === 0
          ? `${'['.repeat(depth)}${']'.repeat(depth)}`
          : kind === 1
            ? `${'<< /A '.repeat(depth)}1${' >>'.repeat(depth)}`
            : `(${'('.repeat(depth)}${')'.repeat(depth)})`;
      const objs = pdfa3Objects('/Deep 6 0 R');
      objs.push({ num: 6, body });
      return buildPdf(objs, { trailer: '/Root 1 0 R' });
    },
  },
  {
    name: 'syn-huge-length',
    synthetic: true,
    apply(_b, rng, xml) {
      const objs = withAttachment(xml, undefined, { rawLength: rng.pick(['2147483647', '99999999999999999999', '-1', '0', '8 0 R']) });
      objs.push({ num: 8, body: '8 0 R' });
      return buildPdf(objs, { trailer: '/Root 1 0 R' });
    },
  },
  {
    name: 'syn-encrypted',
    synthetic: true,
    apply(_b, rng, xml) {
      const objs = withAttachment(deflateSync(xml), '/FlateDecode');
      objs.push({
        num: 8,
        body: '<< /Filter /Standard /V 2 /R 3 /Length 128 /O <0011223344556677889900112233445566778899001122334455667788990011> /U <0011223344556677889900112233445566778899001122334455667788990011> /P -1028 >>',
      });
      return buildPdf(objs, {
        trailer: `/Root 1 0 R /Encrypt 8 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]`,
        xref: rng.chance(0.5) ? 'stream' : 'table',
      });
    },
  },
  {
    name: 'syn-long-strings',
    synthetic: true,
    apply(_b, rng, xml) {
      const n = rng.pick([200_000, 5_000_000]);
      const objs = withAttachment(xml, undefined);
      objs[0].body = objs[0].body.replace('/Catalog', `/Catalog /Lang (${'A'.repeat(n)}) /N${'x'.repeat(Math.min(n, 100_000))} 1`);
      return buildPdf(objs, { trailer: '/Root 1 0 R' });
    },
  },
];

/** Every mutator, its output kept under the upload limit (bigger inputs only test the 413 path). */
export const PDF_MUTATORS: PdfMutator[] = RAW_MUTATORS.map((m) => ({
  ...m,
  apply: (b: Buffer, rng: Rng, xml: Buffer) => {
    const out = m.apply(b, rng, xml);
    return out && out.length <= MAX_BYTES ? out : null;
  },
}));
