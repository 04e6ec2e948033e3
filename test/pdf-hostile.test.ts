/**
 * Hostile PDFs (issue 17), each built here byte by byte, sent over real HTTP to a listening server. Each
 * answer: a documented status within 5 s, a JSON ProblemDetails without internal text, GET /health
 * answering within 1 s while the hostile request runs, and the process's resident memory bounded.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync, deflateSync, constants as zlibConstants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildInvoiceXml } from '../src/metadata/index.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { readPdf, PdfReadError } from '../src/pdf/extract.js';
import { recoverByScanning } from '../src/pdf/recover.js';
import { applyFilters } from '../src/pdf/filters.js';
import { DecodeBudget, MAX_DECODED_BYTES, PdfLimitError } from '../src/pdf/limits.js';
import { closePdfPool, PdfWorkerOverrunError, runPdfTask } from '../src/pdf/pool.js';
import { communityApp, multipart, proApp } from './helpers.js';
import { loadFactor } from './spawned.js';

// ---------------------------------------------------------------------------------------------
// Building PDFs

type Body = string | Buffer;
const B = (s: Body) => (typeof s === 'string' ? Buffer.from(s, 'latin1') : s);

/**
 * A PDF of numbered objects (1..n) with a classic xref table at the right offsets, or (`brokenXref`)
 * a startxref that points nowhere, so that readers must fall back.
 */
function pdf(objects: Body[], opts: { root?: number; brokenXref?: boolean; header?: string; trailerExtra?: string } = {}): Buffer {
  const parts: Buffer[] = [B(opts.header ?? '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let at = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(at);
    const chunk = Buffer.concat([B(`${i + 1} 0 obj\n`), B(body), B('\nendobj\n')]);
    parts.push(chunk);
    at += chunk.length;
  });
  const xrefAt = at;
  if (!opts.brokenXref) {
    let x = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
    for (const o of offsets) x += `${String(o).padStart(10, '0')} 00000 n \n`;
    x += `trailer\n<< /Size ${objects.length + 1} /Root ${opts.root ?? 1} 0 R ${opts.trailerExtra ?? ''}>>\n`;
    parts.push(B(x));
  }
  parts.push(B(`startxref\n${opts.brokenXref ? 987654321 : xrefAt}\n%%EOF\n`));
  return Buffer.concat(parts);
}

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([B(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, B('\nendstream')]);
}

const XMP_PDFA3 = `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
const xmpObject = () => stream('/Type /Metadata /Subtype /XML', Buffer.from(XMP_PDFA3, 'utf8'));

/** A Factur-X-like PDF: catalog, pages, XMP (PDF/A-3), and factur-x.xml carried by `fileStream` (object 6). */
function facturX(fileStream: Buffer, opts: { brokenXref?: boolean } = {}): Buffer {
  return pdf(
    [
      '<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R /Names << /EmbeddedFiles << /Names [(factur-x.xml) 5 0 R] >> >> /AF [5 0 R] >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
      xmpObject(),
      '<< /Type /Filespec /F (factur-x.xml) /UF (factur-x.xml) /AFRelationship /Alternative /EF << /F 6 0 R /UF 6 0 R >> >>',
      fileStream,
    ],
    opts,
  );
}

/** A zlib stream of `gib` GiB of zeros, ~1 MB per GiB, made without ever holding the inflated data. */
function zerosBomb(mib: number): Buffer {
  const chunk = deflateRawSync(Buffer.alloc(1024 * 1024), { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
  const body = Buffer.alloc(chunk.length * mib);
  for (let i = 0; i < mib; i++) chunk.copy(body, i * chunk.length);
  const n = mib * 1024 * 1024;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((n % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), body, Buffer.from([0x03, 0x00]), adler]);
}

/** A tiny LZW encoder (PDF flavour, EarlyChange 1), to build LZW streams. */
function lzwEncode(data: Uint8Array): Buffer {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  let width = 9;
  const put = (code: number) => {
    acc = (acc << width) | code;
    bits += width;
    while (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    acc &= (1 << bits) - 1;
  };
  let dict = new Map<string, number>();
  let next = 258;
  const reset = () => {
    dict = new Map();
    next = 258;
    width = 9;
  };
  put(256);
  let w = '';
  for (const byte of data) {
    const c = String.fromCharCode(byte);
    const wc = w + c;
    if (wc.length === 1 || dict.has(wc)) {
      w = wc;
      continue;
    }
    put(w.length === 1 ? w.charCodeAt(0) : dict.get(w)!);
    dict.set(wc, next++);
    // The decoder (like pdf.js) widens one code after the entry that reaches the next power of two.
    if (next >= 4000) {
      put(256);
      reset();
    } else if (next >= 1 << width) width++;
    w = c;
  }
  if (w) put(w.length === 1 ? w.charCodeAt(0) : dict.get(w)!);
  put(257);
  if (bits > 0) out.push((acc << (8 - bits)) & 0xff);
  return Buffer.from(out);
}

// ---------------------------------------------------------------------------------------------
// The server and the checks every hostile request gets

let app: FastifyInstance;
let base: string;
let invoiceXml: string;

before(async () => {
  app = await proApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  invoiceXml = buildInvoiceXml(DOMESTIC_EXAMPLE).xml;
  // Warm-up (not measured): the first request of each kind loads its modules (under tsx: compiles them)
  // and starts the PDF worker; the hostile requests below are measured against a warm server.
  const honest = pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
  ]);
  for (const [path, parts] of [
    ['/v1/validate', [file('file', honest)]],
    ['/v1/extract', [file('file', honest)]],
    ['/v1/serialize', [file('file', honest)]],
    ['/v1/merge', [file('pdf', honest), { name: 'xml', filename: 'invoice.xml', contentType: 'application/xml', value: invoiceXml }]],
    ['/v1/convert', [file('pdf', honest), { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) }]],
  ] as const) {
    const { payload, headers } = multipart([...parts]);
    await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...headers, connection: 'close' },
      body: new Uint8Array(payload),
      signal: AbortSignal.timeout(REQUEST_MS),
    }).then((r) => r.arrayBuffer());
  }
  const { payload, headers } = multipart([file('file', Buffer.from(invoiceXml))]);
  await fetch(`${base}/v1/validate`, {
    method: 'POST',
    headers: { ...headers, connection: 'close' },
    body: new Uint8Array(payload),
    signal: AbortSignal.timeout(REQUEST_MS),
  }).then((r) => r.arrayBuffer());
});
after(async () => {
  await app.close();
  await closePdfPool();
});

const INTERNAL =
  /Cannot create a Buffer|Map maximum size|Maximum call stack|heap out of memory|RangeError|TypeError|\bat [\w.<>]+ \(|\/work\/|node_modules|\.ts:\d+/;

interface Outcome {
  status: number;
  body: string;
  ms: number;
  healthMaxMs: number;
  rssGrowthMb: number;
}

/** POST `parts` to `path` while GET /health is polled; the slowest /health answer and the RSS peak are measured. */
async function hostile(path: string, parts: Parameters<typeof multipart>[0]): Promise<Outcome> {
  const { payload, headers } = multipart(parts);
  const rssBefore = process.memoryUsage.rss();
  let rssPeak = rssBefore;
  let healthMaxMs = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      const t = performance.now();
      // A fresh connection each time: a kept-alive one can be closed by the server's keep-alive timer under us.
      const r = await fetch(`${base}/health`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(REQUEST_MS) });
      await r.arrayBuffer();
      assert.equal(r.status, 200);
      healthMaxMs = Math.max(healthMaxMs, performance.now() - t);
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const t0 = performance.now();
  // A fresh connection for every request: the server shares this process, and a test that holds the event loop
  // (the filter bombs, seconds of synchronous decoding) lets its keep-alive timer close a pooled connection just as
  // the next test sends on it (ECONNRESET, seen under load).
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...headers, connection: 'close' },
    body: new Uint8Array(payload),
    signal: AbortSignal.timeout(REQUEST_MS),
  });
  const body = await res.text();
  const ms = performance.now() - t0;
  done = true;
  await poll;
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  return { status: res.status, body, ms, healthMaxMs, rssGrowthMb: (rssPeak - rssBefore) / 1024 / 1024 };
}

/**
 * Wall-clock bounds scale with how overloaded the machine is: the bounds of the issue (5 s, 1 s) hold on a
 * machine whose load average is at most its core count; on a shared test machine with ten times as many
 * runnable threads as cores, a thread gets a tenth of a core and every wall-clock time stretches alike.
 * (Measured there: the main thread's CPU for the 3 MB name-tree file was ~55 ms, for the 400 KB file of
 * unterminated objects ~40 ms, while their wall time was 450 ms and 250 ms.) loadFactor() is test/spawned.ts's.
 */
/** A client gives up on a request after this long: far past every bound asserted here, so a hang fails by name. */
const REQUEST_MS = 120_000;

/** The common bar: in time, /health alive, memory bounded, a JSON body without internals; returns the parsed body. */
function assertBounded(o: Outcome, what: string): Record<string, unknown> {
  const f = loadFactor();
  assert.ok(o.ms < 5000 * f, `${what}: answered after ${Math.round(o.ms)} ms (load factor ${f.toFixed(1)})`);
  assert.ok(o.healthMaxMs < 1000 * f, `${what}: /health took ${Math.round(o.healthMaxMs)} ms meanwhile (load factor ${f.toFixed(1)})`);
  assert.ok(o.rssGrowthMb < 400, `${what}: RSS grew by ${Math.round(o.rssGrowthMb)} MB`);
  assert.ok(o.status < 500, `${what}: status ${o.status}: ${o.body.slice(0, 300)}`);
  assert.doesNotMatch(o.body, INTERNAL, `${what}: internal text in ${o.body.slice(0, 300)}`);
  return JSON.parse(o.body) as Record<string, unknown>;
}

/** A 400 ProblemDetails with one of `codes`. */
function assertProblem(o: Outcome, what: string, codes: string[]): Record<string, unknown> {
  const body = assertBounded(o, what);
  assert.equal(o.status, 400, `${what}: ${o.body.slice(0, 300)}`);
  assert.equal(body.status, 400);
  assert.ok(codes.includes(String(body.code)), `${what}: code ${body.code}, detail ${body.detail}`);
  assert.equal(typeof body.detail, 'string');
  return body;
}

const file = (name: string, bytes: Buffer, filename = 'hostile.pdf') => ({ name, filename, contentType: 'application/pdf', value: bytes });
const readers = (bytes: Buffer) =>
  [
    ['/v1/validate', [file('file', bytes)]],
    ['/v1/extract', [file('file', bytes)]],
    ['/v1/serialize', [file('file', bytes)]],
    ['/v1/merge', [file('pdf', bytes), { name: 'xml', filename: 'invoice.xml', contentType: 'application/xml', value: invoiceXml }]],
  ] as const;

// ---------------------------------------------------------------------------------------------
// The classes of issue 17

test('(a) many unterminated objects and an xref that points nowhere: linear recovery, answered at once', async () => {
  // ~400 KB of "k 0 obj << /Length 10 >> stream" with neither endstream nor endobj; the old scan was
  // quadratic (15 s for 190 KB), and the full parser's own recovery is quadratic on it too.
  const parts = ['%PDF-1.7\n', '1 0 obj << /Type /EmbeddedFile >> stream\n'];
  for (let k = 2, size = 0; size < 400_000; k++) size += parts[parts.push(`${k} 0 obj\n<< /Length 10 >>\nstream\nxx\n`) - 1].length;
  parts.push('startxref\n987654321\n%%EOF\n');
  const bytes = B(parts.join(''));
  const cpu = process.cpuUsage();
  const scanned = recoverByScanning(bytes, new Error('test'));
  const used = process.cpuUsage(cpu);
  assert.ok((used.user + used.system) / 1000 < 1000, `the recovery scan took ${Math.round((used.user + used.system) / 1000)} ms of CPU`);
  assert.deepEqual(scanned.attachments, []);
  for (const [path, form] of readers(bytes)) {
    const o = await hostile(path, [...form]);
    if (process.env.HOSTILE_DEBUG) console.log(path, o.status, Math.round(o.ms), Math.round(o.healthMaxMs));
    const body = assertBounded(o, path);
    // No invoice and no XMP in it: merge answers 422 NOT_PDFA3 (documented), the others a PDF without XML.
    if (path === '/v1/merge') assert.equal(body.code, 'NOT_PDFA3', o.body);
    else assert.ok(o.status === 200 || o.status === 400, `${path}: ${o.status} ${JSON.stringify(body).slice(0, 200)}`);
  }
  const o = await hostile('/v1/convert', [file('pdf', bytes), { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) }]);
  assertProblem(o, '/v1/convert', ['PDF_UNREADABLE', 'PDF_LIMIT']);
});

test('(a) the recovery scan is linear: 4x the objects cost about 4x the time, not 16x', () => {
  const make = (n: number) => {
    const p = ['%PDF-1.7\n'];
    for (let k = 1; k <= n; k++) p.push(`${k} 0 obj\n<< /Length 10 >>\nstream\nxx\n`);
    return B(p.join(''));
  };
  // CPU time, the least of three runs: wall-clock time on a shared machine measured the other processes too (a
  // 20k/80k pair once took 60 and 683 ms), and one run can meet a major GC the other did not.
  const cpuMs = (b: Buffer) => {
    let least = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      const before = process.cpuUsage();
      recoverByScanning(b, new Error('test'));
      const used = process.cpuUsage(before);
      least = Math.min(least, (used.user + used.system) / 1000);
    }
    return least;
  };
  cpuMs(make(2000)); // warm-up
  const small = Math.max(1, cpuMs(make(20_000)));
  const big = cpuMs(make(80_000));
  assert.ok(big < small * 10 + 50, `20k objects: ${small.toFixed(1)} ms, 80k: ${big.toFixed(1)} ms of CPU`);
});

test('(b) xref stream /W [0 0 0] with an /Index of two billion entries: PDF_LIMIT at once', async () => {
  const head = '%PDF-1.7\n';
  const obj =
    '1 0 obj\n<< /Type /XRef /Size 2000000000 /W [0 0 0] /Index [0 2000000000] /Root 1 0 R /Length 0 >>\nstream\n\nendstream\nendobj\n';
  const bytes = B(`${head}${obj}startxref\n${head.length}\n%%EOF\n`);
  assert.ok(bytes.length < 300);
  for (const [path, form] of readers(bytes)) assertProblem(await hostile(path, [...form]), path, ['PDF_LIMIT']);
  assertProblem(
    await hostile('/v1/convert', [file('pdf', bytes), { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) }]),
    '/v1/convert',
    ['PDF_LIMIT'],
  );
  // The same lie with a sane /W: the count is checked against the file's length before any loop.
  const obj2 = obj.replace('/W [0 0 0]', '/W [1 2 1]');
  const bytes2 = B(`${head}${obj2}startxref\n${head.length}\n%%EOF\n`);
  assertProblem(await hostile('/v1/extract', [file('file', bytes2)]), 'sane /W', ['PDF_LIMIT']);
});

test('(c) object stream claiming /N 200000000, plain and inside a Flate stream, referenced or not', async () => {
  // Referenced: the catalog lives in the object stream the xref stream points to.
  const objstmBody = '2 0 << /Type /Catalog >>';
  const make = (flate: boolean, referenced: boolean) => {
    const head = '%PDF-1.7\n';
    const data = flate ? deflateSync(Buffer.from(objstmBody)) : Buffer.from(objstmBody);
    const objstm = Buffer.concat([
      B('1 0 obj\n'),
      stream(`/Type /ObjStm /N 200000000 /First 4${flate ? ' /Filter /FlateDecode' : ''}`, data),
      B('\nendobj\n'),
    ]);
    const xrefAt = head.length + objstm.length;
    // xref stream rows (W [1 2 1]): 0 free, 1 at offset, 2 compressed in 1, 3 (this stream) at offset.
    const rows = Buffer.from([0, 0, 0, 0, 1, 0, head.length, 0, 2, 0, 1, 0, 1, (xrefAt >> 8) & 0xff, xrefAt & 0xff, 0]);
    const root = referenced ? 2 : 4;
    const extra = referenced
      ? ''
      : '4 0 obj << /Type /Catalog /Pages 5 0 R >> endobj\n5 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n/EmbeddedFile\n';
    const xref = Buffer.concat([B('3 0 obj\n'), stream(`/Type /XRef /Size 4 /W [1 2 1] /Root ${root} 0 R`, rows), B('\nendobj\n')]);
    return Buffer.concat([B(head), objstm, xref, B(extra), B(`startxref\n${referenced ? xrefAt : 999999}\n%%EOF\n`)]);
  };
  for (const flate of [false, true]) {
    for (const referenced of [true, false]) {
      const bytes = make(flate, referenced);
      assert.ok(bytes.length < 600, `${bytes.length} bytes`);
      const what = `${flate ? 'flate' : 'plain'} ${referenced ? 'referenced' : 'unreferenced'}`;
      assertProblem(await hostile('/v1/extract', [file('file', bytes)]), `extract ${what}`, ['PDF_LIMIT']);
      assertProblem(await hostile('/v1/validate', [file('file', bytes)]), `validate ${what}`, ['PDF_LIMIT']);
      assertProblem(
        await hostile('/v1/convert', [file('pdf', bytes), { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) }]),
        `convert ${what}`,
        ['PDF_LIMIT'],
      );
    }
  }
});

/** A name tree `depth` levels deep, one kid per node. */
function deepNameTree(depth: number, opts: { brokenXref?: boolean; cycle?: boolean } = {}): Buffer {
  const objects: Body[] = [
    '<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R /Names << /EmbeddedFiles 5 0 R >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
    xmpObject(),
  ];
  for (let k = 0; k < depth; k++) {
    const num = 5 + k;
    const kid = k + 1 < depth ? num + 1 : opts.cycle ? 5 : undefined;
    objects.push(kid ? `<< /Kids [${kid} 0 R] >>` : '<< /Names [(a.txt) << /Type /Filespec /F (a.txt) >>] >>');
  }
  return pdf(objects, { brokenXref: opts.brokenXref });
}

test('(d) an embedded-files name tree 50,000 levels deep (and a cyclic one): PDF_LIMIT, /health alive', async () => {
  const bytes = deepNameTree(50_000);
  assert.ok(bytes.length > 1_000_000, `${bytes.length} bytes`);
  for (const [path, form] of readers(bytes)) assertProblem(await hostile(path, [...form]), path, ['PDF_LIMIT']);
  // Through the full parser (xref broken) and a cycle through the lazy reader.
  for (const [what, b] of [
    ['broken xref', deepNameTree(2_000, { brokenXref: true })],
    ['cycle', deepNameTree(10, { cycle: true })],
  ] as const) {
    assertProblem(await hostile('/v1/extract', [file('file', b)]), what, ['PDF_LIMIT']);
  }
});

test('(e) broken-xref Factur-X whose XML inflates to 1 GiB: the cap holds on every path, memory stays bounded', async () => {
  const bomb = zerosBomb(1024);
  assert.ok(bomb.length < 2_000_000, `${bomb.length} bytes`);
  const fileStream = stream('/Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode', bomb);
  for (const brokenXref of [false, true]) {
    const bytes = facturX(fileStream, { brokenXref });
    for (const path of ['/v1/extract', '/v1/validate'] as const) {
      const o = await hostile(path, [file('file', bytes)]);
      const body = assertBounded(o, `${path} brokenXref=${brokenXref}`);
      // Documented: the attachment cannot be used, said in the 200 body (extract: errors; validate: invalid).
      assert.equal(o.status, 200, o.body.slice(0, 300));
      assert.match(o.body, /limit/i);
      if (path === '/v1/extract') assert.equal(body.xml_extracted, false);
      else assert.equal(body.valid, false);
    }
  }
  // The recovery reader itself: the same cap, and the per-request budget.
  const recovered = recoverByScanning(facturX(fileStream, { brokenXref: true }), new Error('test'));
  assert.equal(recovered.attachments.length, 1);
  assert.throws(
    () => recovered.attachments[0].content(),
    (e: unknown) => e instanceof PdfReadError && e.code === 'PDF_LIMIT',
  );
});

// CPU-bound (the test's own LZW encoder on 8 MB, the bombs decoded to their caps): ~20 s of CPU, 95-127 s of wall
// time at load average 20; the default limit (test/setup.mjs) is for tests an order of magnitude shorter.
test('Flate, LZW and ASCII85 bombs: every filter stops at the cap; honest data decodes exactly', { timeout: 600_000 }, () => {
  const text = Buffer.from('<Invoice>'.repeat(5000) + 'é€'.repeat(1000));
  const lzw = lzwEncode(text);
  assert.deepEqual(Buffer.from(applyFilters(lzw, [{ name: 'LZWDecode' }], 1 << 20)), text);
  const a85 = (data: Buffer) => {
    let s = '';
    for (let i = 0; i < data.length; i += 4) {
      const chunk = Buffer.alloc(4);
      data.copy(chunk, 0, i, i + 4);
      let v = chunk.readUInt32BE(0);
      const n = Math.min(4, data.length - i);
      if (v === 0 && n === 4) {
        s += 'z';
        continue;
      }
      const digits: string[] = [];
      for (let k = 0; k < 5; k++) {
        digits.unshift(String.fromCharCode(33 + (v % 85)));
        v = Math.floor(v / 85);
      }
      s += digits.slice(0, n + 1).join('');
    }
    return Buffer.from(`${s}~>`);
  };
  assert.deepEqual(Buffer.from(applyFilters(a85(text), [{ name: 'ASCII85Decode' }], 1 << 20)), text);
  const limited = (steps: Parameters<typeof applyFilters>[1], data: Buffer) => () => applyFilters(data, steps, MAX_DECODED_BYTES);
  // LZW: a run of zeros compresses ~ 1:100 and more; 2 MB of codes decode past 64 MiB.
  const zeros = Buffer.alloc(80 * 1024 * 1024);
  const lzwBomb = lzwEncode(zeros.subarray(0, 8 * 1024 * 1024));
  assert.throws(() => applyFilters(lzwBomb, [{ name: 'LZWDecode' }], 4 * 1024 * 1024), PdfLimitError);
  // Flate inside ASCII85: the chain is capped at each step.
  const flateBomb = zerosBomb(128);
  assert.throws(limited([{ name: 'ASCII85Decode' }, { name: 'FlateDecode' }], a85(flateBomb)), PdfLimitError);
  assert.throws(limited([{ name: 'FlateDecode' }], flateBomb), PdfLimitError);
  // Per request: two streams under the per-stream cap exhaust the request's budget.
  const budget = new DecodeBudget(100 * 1024 * 1024);
  const sixty = zerosBomb(60);
  budget.charge(applyFilters(sixty, [{ name: 'FlateDecode' }], budget.streamCap).length);
  assert.throws(() => budget.charge(applyFilters(sixty, [{ name: 'FlateDecode' }], budget.streamCap).length), PdfLimitError);
});

/** A PDF/A-3-declared PDF with the page tree given. */
function pageTreePdf(variant: 'no-pages' | 'no-kids' | 'self' | 'deep-cycle'): Buffer {
  const catalog = variant === 'no-pages' ? '<< /Type /Catalog /Metadata 2 0 R >>' : '<< /Type /Catalog /Pages 3 0 R /Metadata 2 0 R >>';
  const pages = {
    'no-pages': '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    'no-kids': '<< /Type /Pages /Count 1 >>',
    self: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    'deep-cycle': '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
  }[variant];
  return pdf([
    catalog,
    xmpObject(),
    pages,
    '<< /Type /Page /Parent 3 0 R /MediaBox [0 0 595 842] >>',
    '<< /Type /Pages /Parent 3 0 R /Kids [3 0 R] /Count 1 >>',
  ]);
}

test('(f) PDF/A-3 declared, but no /Pages, /Pages without /Kids, a self-referencing page tree: 400 on convert and merge', async () => {
  for (const variant of ['no-pages', 'no-kids', 'self', 'deep-cycle'] as const) {
    const bytes = pageTreePdf(variant);
    const c = await hostile('/v1/convert', [file('pdf', bytes), { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) }]);
    const body = assertProblem(c, `convert ${variant}`, ['PDF_UNREADABLE']);
    assert.match(String(body.detail), /page/i);
    const m = await hostile('/v1/merge', [
      file('pdf', bytes),
      { name: 'xml', filename: 'invoice.xml', contentType: 'application/xml', value: invoiceXml },
    ]);
    assertProblem(m, `merge ${variant}`, ['PDF_UNREADABLE']);
  }
});

test('(g) a 200,000-character invoice number in /v1/convert: a PDF, not a stack overflow', async () => {
  const base = pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
  ]);
  const metadata = { ...DOMESTIC_EXAMPLE, invoice_number: 'N'.repeat(200_000) };
  const o = await hostile('/v1/convert', [file('pdf', base), { name: 'metadata', value: JSON.stringify(metadata) }]);
  assert.ok(
    o.ms < 5000 * loadFactor() && o.healthMaxMs < 1000 * loadFactor(),
    `${Math.round(o.ms)} ms, /health ${Math.round(o.healthMaxMs)} ms`,
  );
  assert.ok(o.status === 200 || o.status === 400 || o.status === 422, `${o.status}: ${o.body.slice(0, 300)}`);
  if (o.status !== 200) assert.doesNotMatch(o.body, INTERNAL);
  // The same through an input PDF whose own /Title is 200,000 characters.
  const titled = pdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
      `<< /Title (${'T'.repeat(200_000)}) >>`,
    ],
    { trailerExtra: '/Info 4 0 R ' },
  );
  const t = await hostile('/v1/convert', [file('pdf', titled), { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) }]);
  assert.equal(t.status, 200, t.body.slice(0, 300));
});

test('an encrypted PDF stays a clear PDF_ENCRYPTED on every reader', async () => {
  const bytes = pdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      '<< /Filter /Standard /V 2 /R 3 /O <00> /U <00> /P -4 >>',
    ],
    { trailerExtra: '/Encrypt 3 0 R /ID [<01> <01>] ' },
  );
  for (const [path, form] of readers(bytes)) assertProblem(await hostile(path, [...form]), path, ['PDF_ENCRYPTED']);
  assertProblem(
    await hostile('/v1/convert', [file('pdf', bytes), { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) }]),
    '/v1/convert',
    ['PDF_ENCRYPTED'],
  );
});

test('arrays nested 100,000 deep in the trailer and in an object: refused or read, never a crash', async () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const bytes = pdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /X ${deep} >>`,
    ],
    { trailerExtra: `/Deep ${deep} ` },
  );
  for (const [path, form] of readers(bytes)) {
    const o = await hostile(path, [...form]);
    assertBounded(o, path);
  }
  assertProblem(
    await hostile('/v1/convert', [file('pdf', bytes), { name: 'metadata', value: JSON.stringify(DOMESTIC_EXAMPLE) }]),
    '/v1/convert',
    ['PDF_LIMIT', 'PDF_UNREADABLE'],
  );
});

test('an honest Factur-X with a broken xref still gives up its invoice (through the worker)', async () => {
  const xml = Buffer.from(invoiceXml);
  const fileStream = stream('/Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode', deflateSync(xml));
  const contents = await readPdf(facturX(fileStream, { brokenXref: true }));
  assert.equal(contents.recovered, false);
  assert.deepEqual(Buffer.from(contents.attachments[0].content()), xml);
  assert.equal(contents.xmp?.pdfaPart, '3');
  const o = await hostile('/v1/extract', [file('file', facturX(fileStream, { brokenXref: true }))]);
  const body = assertBounded(o, 'extract');
  assert.equal(o.status, 200);
  assert.equal(body.xml_extracted, true);
});

test('community mode answers the same (serialize aside)', async () => {
  const community = await communityApp();
  try {
    const head = '%PDF-1.7\n';
    const bytes = B(
      `${head}1 0 obj\n<< /Type /XRef /Size 9 /W [0 0 0] /Index [0 2000000000] /Length 0 >>\nstream\n\nendstream\nendobj\nstartxref\n${head.length}\n%%EOF\n`,
    );
    const { payload, headers } = multipart([file('file', bytes)]);
    const r = await community.inject({ method: 'POST', url: '/v1/extract', payload, headers });
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().code, 'PDF_LIMIT');
  } finally {
    await community.close();
  }
});

test('a pdf-lib job over its deadline is killed, answered as an overrun, and the worker replaced', async () => {
  // 40,000 small objects: a parse of a second or more, cut off after 20 ms.
  const objects: Body[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
  ];
  for (let k = 0; k < 40_000; k++) objects.push(`<< /A [${k} 1 2 3] /B (text ${k}) >>`);
  const big = pdf(objects, { brokenXref: true });
  await runPdfTask({ kind: 'read', bytes: pdf(objects.slice(0, 3)) }); // a warm worker, so the deadline is the job's
  await assert.rejects(
    runPdfTask({ kind: 'read', bytes: big }, 20),
    (e: unknown) => e instanceof PdfWorkerOverrunError && e.reason === 'time',
  );
  // The next job gets a new worker and an answer.
  const answer = await runPdfTask({ kind: 'read', bytes: pdf(objects.slice(0, 3)) });
  assert.ok(typeof answer === 'object' && 'attachments' in answer, JSON.stringify(answer).slice(0, 200));
});
