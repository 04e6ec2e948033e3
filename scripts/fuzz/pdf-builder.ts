/**
 * A small PDF writer for synthetic (mostly hostile) structures: numbered objects, streams, classic xref
 * tables, xref streams and object streams, Flate via node:zlib. It writes exactly what it is told — lies
 * included (a /Length, /Size or startxref can be overridden) — so the fuzzer can build files no real
 * producer would.
 */
import { constants as zlibConstants, deflateRawSync, deflateSync } from 'node:zlib';

export type Bytes = Buffer;

export interface PdfObject {
  num: number;
  gen?: number;
  /** Dictionary or other object body, as PDF source text (without `obj`/`endobj`). */
  body: string;
  /** Stream data: written after `body` (which must then be a dictionary ending in `>>`). */
  stream?: Buffer;
  /** Leave `endstream`/`endobj` out (unterminated objects). */
  unterminated?: boolean;
}

export interface BuildOptions {
  header?: string;
  /** 'table' (classic), 'stream' (an xref stream object), or 'none' (no cross-reference at all). */
  xref?: 'table' | 'stream' | 'none';
  trailer?: string; // extra trailer entries, e.g. '/Root 1 0 R /Info 2 0 R'
  /** Override what startxref says (a lie); default: the real offset. */
  startxref?: number | string;
  /** Override /Size (a lie); default: highest object number + 1. */
  size?: number;
  /** For xref streams: the /W and /Index written (defaults computed); entries are always [1 4 2] encoded. */
  xrefStreamDict?: string;
  xrefStreamNum?: number;
  /** Skip the final %%EOF. */
  noEof?: boolean;
}

const te = (s: string) => Buffer.from(s, 'latin1');

/** Serialise objects; returns the file bytes. */
export function buildPdf(objects: PdfObject[], opts: BuildOptions = {}): Buffer {
  const parts: Buffer[] = [];
  let pos = 0;
  const push = (b: Buffer) => {
    parts.push(b);
    pos += b.length;
  };
  push(te(`${opts.header ?? '%PDF-1.7'}\n%\xe2\xe3\xcf\xd3\n`));
  const offsets = new Map<number, number>();
  for (const o of objects) {
    offsets.set(o.num, pos);
    push(te(`${o.num} ${o.gen ?? 0} obj\n${o.body}`));
    if (o.stream) {
      push(te('\nstream\n'));
      push(o.stream);
      if (!o.unterminated) push(te('\nendstream'));
    }
    if (!o.unterminated) push(te('\nendobj\n'));
    else push(te('\n'));
  }
  const maxNum = objects.reduce((m, o) => Math.max(m, o.num), 0);
  const size = opts.size ?? maxNum + 1;
  const xrefAt = pos;
  const mode = opts.xref ?? 'table';
  if (mode === 'table') {
    let t = `xref\n0 ${maxNum + 1}\n0000000000 65535 f \n`;
    for (let n = 1; n <= maxNum; n++) {
      const off = offsets.get(n);
      t += off === undefined ? '0000000000 00000 f \n' : `${String(off).padStart(10, '0')} 00000 n \n`;
    }
    t += `trailer\n<< /Size ${size} ${opts.trailer ?? ''} >>\n`;
    push(te(t));
  } else if (mode === 'stream') {
    const num = opts.xrefStreamNum ?? maxNum + 1;
    const rows: Buffer[] = [];
    for (let n = 0; n <= num; n++) {
      const row = Buffer.alloc(7);
      const off = n === num ? xrefAt : offsets.get(n);
      if (off === undefined) row.writeUInt8(0, 0);
      else {
        row.writeUInt8(1, 0);
        row.writeUInt32BE(off, 1);
      }
      rows.push(row);
    }
    const data = deflateSync(Buffer.concat(rows));
    const dict = opts.xrefStreamDict ?? `/W [1 4 2] /Index [0 ${num + 1}]`;
    push(
      te(
        `${num} 0 obj\n<< /Type /XRef /Size ${opts.size ?? num + 1} ${dict} /Filter /FlateDecode /Length ${data.length} ${opts.trailer ?? ''} >>\nstream\n`,
      ),
    );
    push(data);
    push(te('\nendstream\nendobj\n'));
  }
  push(te(`startxref\n${opts.startxref ?? xrefAt}\n${opts.noEof ? '' : '%%EOF\n'}`));
  return Buffer.concat(parts);
}

/** A stream object's body with /Length filled in (or lied about). */
export function streamObj(num: number, dict: string, data: Buffer, length: number | string = data.length): PdfObject {
  return { num, body: `<< ${dict} /Length ${length} >>`, stream: data };
}

/** An object stream holding `inner` objects (bodies only), Flate-compressed unless raw. */
export function objectStream(
  num: number,
  inner: { num: number; body: string }[],
  opts: { n?: number | string; first?: number | string; extra?: string; raw?: boolean } = {},
): PdfObject {
  let header = '';
  let content = '';
  for (const o of inner) {
    header += `${o.num} ${content.length} `;
    content += `${o.body}\n`;
  }
  const data = Buffer.from(header + content, 'latin1');
  const first = opts.first ?? header.length;
  const stored = opts.raw ? data : deflateSync(data);
  return streamObj(
    num,
    `/Type /ObjStm /N ${opts.n ?? inner.length} /First ${first}${opts.raw ? '' : ' /Filter /FlateDecode'} ${opts.extra ?? ''}`,
    stored,
  );
}

/** Minimal page objects: catalog 1, pages 2, page 3, content 4; `catalogExtra` adds to the catalog. */
export function basicObjects(catalogExtra = ''): PdfObject[] {
  return [
    { num: 1, body: `<< /Type /Catalog /Pages 2 0 R ${catalogExtra} >>` },
    { num: 2, body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { num: 3, body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>' },
    // A rectangle, not text: text needs an embedded font, and merge refuses to write a PDF/A-3b that fails PDF/A.
    streamObj(4, '', Buffer.from('50 780 120 14 re S')),
  ];
}

/** XMP packet declaring PDF/A-3 (part 3, conformance B): what /v1/merge asks of its pdf part. */
export function pdfa3Xmp(): Buffer {
  return Buffer.from(
    `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`,
    'utf8',
  );
}

/** A PDF/A-3-declared PDF without any attachment (valid structure): the merge seed. */
export function pdfa3Base(): Buffer {
  const objs = basicObjects('/Metadata 5 0 R');
  objs.push(streamObj(5, '/Type /Metadata /Subtype /XML', pdfa3Xmp()));
  return buildPdf(objs, { trailer: '/Root 1 0 R' });
}

/** An embedded-file stream + file specification for `name`, as objects numbered from `num`. */
export function attachment(
  num: number,
  name: string,
  data: Buffer,
  opts: { filter?: string; rawLength?: number | string; params?: string } = {},
): PdfObject[] {
  return [
    {
      num,
      body: `<< /Type /EmbeddedFile /Subtype /text#2Fxml ${opts.filter ? `/Filter ${opts.filter}` : ''} ${opts.params ?? ''} /Length ${opts.rawLength ?? data.length} >>`,
      stream: data,
    },
    {
      num: num + 1,
      body: `<< /Type /Filespec /F (${name}) /UF (${name}) /AFRelationship /Alternative /EF << /F ${num} 0 R /UF ${num} 0 R >> >>`,
    },
  ];
}

/** LZW (PDF LZWDecode, EarlyChange 1) encoding, integer-keyed so it stays linear: used for LZW bombs. */
export function lzwEncode(data: Buffer): Buffer {
  const out: number[] = [];
  let acc = 0;
  let nbits = 0;
  let width = 9;
  const emit = (code: number) => {
    acc = (acc * (1 << width) + code) % 2 ** 24;
    nbits += width;
    while (nbits >= 8) {
      out.push(Math.floor(acc / 2 ** (nbits - 8)) & 0xff);
      nbits -= 8;
    }
    acc %= 2 ** nbits;
  };
  let dict = new Map<number, number>();
  let next = 258;
  emit(256);
  let w = -1;
  for (let i = 0; i < data.length; i++) {
    const c = data[i];
    if (w < 0) {
      w = c;
      continue;
    }
    const key = w * 256 + c;
    const hit = dict.get(key);
    if (hit !== undefined) {
      w = hit;
      continue;
    }
    emit(w);
    dict.set(key, next++);
    // EarlyChange 1: the decoder widens one code early, i.e. when our next free code reaches 2^width.
    if (next === 1 << width && width < 12) width++;
    if (next >= 4094) {
      emit(256);
      dict = new Map();
      next = 258;
      width = 9;
    }
    w = c;
  }
  if (w >= 0) emit(w);
  emit(257);
  if (nbits > 0) out.push((acc << (8 - nbits)) & 0xff);
  return Buffer.from(out);
}

/** LZW encoding of `n` bytes of value `fill` without materialising them (what lzwEncode would emit): an LZW bomb. */
export function lzwRunBomb(fill: number, n: number): Buffer {
  const out: number[] = [];
  let acc = 0;
  let nbits = 0;
  let width = 9;
  const emit = (code: number) => {
    acc = (acc * (1 << width) + code) % 2 ** 24;
    nbits += width;
    while (nbits >= 8) {
      out.push(Math.floor(acc / 2 ** (nbits - 8)) & 0xff);
      nbits -= 8;
    }
    acc %= 2 ** nbits;
  };
  let next = 258;
  emit(256);
  let remaining = n;
  while (remaining > 0) {
    const len = Math.min(next - 258 + 1, remaining); // the longest run the dictionary holds
    emit(len === 1 ? fill : 258 + len - 2);
    remaining -= len;
    if (remaining === 0) break;
    next++;
    if (next === 1 << width && width < 12) width++;
    if (next >= 4094) {
      emit(256);
      next = 258;
      width = 9;
    }
  }
  emit(257);
  if (nbits > 0) out.push((acc << (8 - nbits)) & 0xff);
  return Buffer.from(out);
}

/** ASCII85 encoding ('z' for zero groups): 4 zero bytes per character, a weak bomb alone, strong in a chain. */
export function ascii85Encode(data: Buffer): Buffer {
  let s = '';
  for (let i = 0; i < data.length; i += 4) {
    const chunk = Buffer.alloc(4);
    data.copy(chunk, 0, i, Math.min(i + 4, data.length));
    const n = chunk.readUInt32BE(0);
    const len = Math.min(4, data.length - i);
    if (n === 0 && len === 4) {
      s += 'z';
      continue;
    }
    let v = n;
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode((v % 85) + 33));
      v = Math.floor(v / 85);
    }
    s += digits.slice(0, len + 1).join('');
  }
  return Buffer.from(`${s}~>`, 'latin1');
}

/** Adler-32 after a run of `n` bytes of value `v`, continuing from `adler` (BigInt arithmetic, any n). */
function adlerRun(adler: number, v: number, n: bigint): number {
  const MOD = 65521n;
  let a = BigInt(adler & 0xffff);
  let b = BigInt(adler >>> 16);
  const V = BigInt(v);
  b = (b + n * a + V * ((n * (n + 1n)) / 2n)) % MOD;
  a = (a + n * V) % MOD;
  return Number((b << 16n) | a);
}

function adlerBytes(adler: number, data: Buffer): number {
  let a = adler & 0xffff;
  let b = adler >>> 16;
  for (const x of data) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * A zlib (FlateDecode) stream that inflates to `prefix` followed by `mib` MiB of byte `fill`, built from one
 * compressed MiB repeated: a 1 GiB bomb costs ~1 MB and no 1 GiB buffer here.
 */
export function flateBomb(mib: number, fill = 0x20, prefix: Buffer = Buffer.alloc(0)): Buffer {
  const sync = { finishFlush: zlibConstants.Z_SYNC_FLUSH };
  const head = prefix.length ? deflateRawSync(prefix, sync) : Buffer.alloc(0);
  const chunk = deflateRawSync(Buffer.alloc(1024 * 1024, fill), sync);
  const tail = deflateRawSync(Buffer.alloc(0)); // final empty block
  let adler = adlerBytes(1, prefix);
  adler = adlerRun(adler, fill, BigInt(mib) * 1048576n);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler >>> 0, 0);
  return Buffer.concat([Buffer.from([0x78, 0x9c]), head, ...Array.from({ length: mib }, () => chunk), tail, trailer]);
}
