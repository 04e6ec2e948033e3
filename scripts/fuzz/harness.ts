/**
 * The fuzz harness shared by `npm run fuzz` and test/fuzz-regressions.test.ts: one real server process
 * (src/main.ts, pro mode with a throwaway license), a client that sends one case while probing /health and
 * sampling the server's RSS, the oracle, and reading/writing regression fixtures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { generateLicenseKeyPair, issueLicense } from '../../src/license/license.js';
import { buildInvoiceXml } from '../../src/metadata/index.js';
import { DOMESTIC_EXAMPLE } from '../../src/metadata/examples.js';
import { pdfa3Base } from './pdf-builder.js';
import { listeningPort } from '../listening-port.js';

export type Endpoint = '/v1/validate' | '/v1/extract' | '/v1/merge' | '/v1/convert' | '/v1/xml' | '/v1/serialize';
export const ENDPOINTS: Endpoint[] = ['/v1/validate', '/v1/extract', '/v1/merge', '/v1/convert', '/v1/xml', '/v1/serialize'];

export interface CasePart {
  name: string;
  data: Buffer;
  /** A file part has a filename; a plain form field has none. */
  filename?: string;
  contentType?: string;
}

export interface FuzzCase {
  endpoint: Endpoint;
  /** multipart/form-data, or application/x-www-form-urlencoded (the /v1/xml contract). */
  encoding: 'multipart' | 'urlencoded';
  parts: CasePart[];
  /** Which part the mutator changed (the minimiser shrinks only that one). */
  mutated: string;
}

/**
 * Where a case is sent. Only HTTP exists today; a CLI target (spawn the CLI per input, oracle on exit code,
 * stdout JSON and stderr) can implement the same interface when the CLI exists.
 */
export interface Target {
  name: string;
  send(c: FuzzCase, timeBoundMs: number): Promise<Outcome>;
  close(): Promise<void>;
}

export interface Outcome {
  status?: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
  /** No answer within the time bound. */
  timedOut: boolean;
  /** Socket error without an answer (reset, hang up). */
  connectionError?: string;
  /** Slowest /health probe while the case ran, and the probe after it (ms; Infinity = no answer). */
  healthMaxMs: number;
  /** RSS (MB) when the case started and its peak while it ran. */
  rssStartMb: number;
  rssPeakMb: number;
  /** The server process died during the case. */
  crashed: boolean;
  crashLog?: string;
}

export interface Failure {
  class: string;
  detail: string;
}

export const DOCUMENTED: Record<Endpoint, number[]> = {
  '/v1/validate': [200, 400, 413, 415, 422, 503],
  '/v1/extract': [200, 400, 413, 415, 422, 503],
  '/v1/serialize': [200, 400, 413, 415, 422, 503],
  '/v1/merge': [200, 400, 409, 413, 415, 422, 503],
  '/v1/convert': [200, 400, 413, 415, 422, 503],
  '/v1/xml': [200, 400, 413, 415, 422, 503],
};

/** Text that must never reach a client: stack traces, engine and library messages, file paths. */
export const INTERNAL_TEXT: [string, RegExp][] = [
  ['Cannot create', /Cannot create/],
  ['Maximum call stack', /Maximum call stack/],
  ['Map maximum', /Map maximum/],
  ['[big.js]', /\[big\.js\]/],
  // Bounded repetitions: unbounded ones backtracked over every "at " of a 20 MB answer (quadratic; the harness
  // spun for 20 minutes on one answer).
  ['stack frame', /\bat (?:async )?[\w$.<>[\] ]{0,200}\(?(?:file:|node:|\/)[^)\s]{0,500}:\d+:\d+/],
  ['/work/', /\/work\//],
  ['node_modules', /node_modules/],
  ['TypeError', /TypeError/],
  ['RangeError', /RangeError/],
  ['heap out of memory', /heap out of memory|Invalid array length|Invalid string length/],
];

export interface OracleOptions {
  timeBoundMs: number;
  healthBoundMs: number;
  /** RSS growth (MB) during one case above which it counts as a memory failure. */
  rssGrowthMb: number;
  /** A JSON answer larger than this (bytes) is a disproportionate report. */
  maxReportBytes: number;
}

export const DEFAULT_ORACLE: OracleOptions = { timeBoundMs: 5000, healthBoundMs: 1000, rssGrowthMb: 600, maxReportBytes: 5 * 1024 * 1024 };

/** Judge one answer. An empty list means the answer is acceptable. */
export function judge(c: FuzzCase, o: Outcome, opts: OracleOptions = DEFAULT_ORACLE): Failure[] {
  const f: Failure[] = [];
  if (o.crashed) return [{ class: 'crash', detail: `server process died${o.crashLog ? `: ${o.crashLog.slice(-300)}` : ''}` }];
  if (o.timedOut) f.push({ class: 'timeout', detail: `no answer within ${opts.timeBoundMs} ms` });
  else if (o.connectionError) f.push({ class: 'connection', detail: o.connectionError });
  if (o.healthMaxMs > opts.healthBoundMs) {
    f.push({
      class: 'health-stall',
      detail: `/health took ${Number.isFinite(o.healthMaxMs) ? Math.round(o.healthMaxMs) : 'more than ' + opts.healthBoundMs} ms while the case ran`,
    });
  }
  if (o.rssPeakMb - o.rssStartMb > opts.rssGrowthMb) {
    f.push({ class: 'memory', detail: `RSS grew by ${Math.round(o.rssPeakMb - o.rssStartMb)} MB (to ${Math.round(o.rssPeakMb)} MB)` });
  }
  if (o.status === undefined) return f;
  const s = o.status;
  const ct = String(o.headers['content-type'] ?? '');
  const text = o.body.toString('utf8');
  if (s >= 500 && !(s === 503 && o.headers['retry-after'])) f.push({ class: `${s}`, detail: `status ${s}: ${text.slice(0, 300)}` });
  else if (!DOCUMENTED[c.endpoint].includes(s))
    f.push({ class: 'undocumented-status', detail: `status ${s} is not documented for ${c.endpoint}: ${text.slice(0, 200)}` });

  const jsonExpected = s !== 200 || ['/v1/validate', '/v1/extract', '/v1/serialize'].includes(c.endpoint);
  if (jsonExpected) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      f.push({ class: 'not-json', detail: `status ${s} with a body that is not JSON (${ct}): ${text.slice(0, 120)}` });
    }
    if (body !== undefined && s !== 200) {
      const b = body as Record<string, unknown>;
      const validationError = s === 422 && Array.isArray(b.detail);
      const problem = typeof b.title === 'string' && b.status === s;
      if (!validationError && !problem)
        f.push({
          class: 'not-problem-details',
          detail: `status ${s} body is neither ProblemDetails nor HTTPValidationError: ${text.slice(0, 160)}`,
        });
    }
    // A report (validate, errors) stays under the bound whatever the upload; an answer that restates the invoice
    // (extract, serialize) may be as large as the upload itself, never larger.
    const inputBytes = c.parts.reduce((n, p) => n + p.data.length, 0);
    const restates = s === 200 && ['/v1/extract', '/v1/serialize'].includes(c.endpoint);
    const bound = restates ? Math.max(opts.maxReportBytes, inputBytes) : opts.maxReportBytes;
    if (o.body.length > bound) f.push({ class: 'huge-report', detail: `a ${(o.body.length / 1048576).toFixed(1)} MB answer` });
  } else if (c.endpoint === '/v1/xml' ? !/^\s*(\ufeff)?</.test(text.slice(0, 100)) : !o.body.subarray(0, 5).equals(Buffer.from('%PDF-'))) {
    f.push({ class: 'bad-200', detail: `200 from ${c.endpoint} that is not ${c.endpoint === '/v1/xml' ? 'XML' : 'a PDF'}` });
  }
  if (jsonExpected || s !== 200) {
    const input = Buffer.concat(c.parts.map((p) => p.data)).toString('latin1');
    for (const [name, re] of INTERNAL_TEXT) {
      const m = re.exec(text);
      if (m && !input.includes(m[0])) {
        f.push({
          class: 'internal-text',
          detail: `answer (${s}) shows "${name}": …${text.slice(Math.max(0, m.index - 80), m.index + 80)}…`,
        });
        break;
      }
    }
  }
  return f;
}

// ---------------------------------------------------------------- the server

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Pauses that end early when the case is over: the /health prober naps between probes, and a nap must not
 * hold the next input back (the fixed 150 + 200 ms sleeps cost more than the average input took).
 */
class Naps {
  private wakers = new Set<() => void>();
  over = false;
  nap(ms: number): Promise<void> {
    if (this.over) return Promise.resolve();
    return new Promise((res) => {
      const done = () => {
        clearTimeout(t);
        this.wakers.delete(done);
        res();
      };
      const t = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }
  end(): void {
    this.over = true;
    for (const w of [...this.wakers]) w();
  }
}

interface Instance {
  child: ChildProcess;
  port: number;
  exited: boolean;
  log: string;
}

/**
 * One server process (src/main.ts) for a whole run; replaced only after a crash or a hang. A spare process
 * is started in the background after the first replacement, so the next replacement costs no start-up.
 */
export class ServerProcess {
  starts = 0;
  peakRssMb = 0;
  idleRssMb = 0;
  /** Keep a started spare after a replacement (off in the regression test, which replaces rarely). */
  keepSpare = true;
  private cur?: Instance;
  private stopped = false;
  private spare?: Promise<Instance | undefined>;
  private readonly env: Record<string, string>;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  private readonly healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  /** Extra node flags for the server (e.g. --cpu-prof when profiling a replay). */
  execArgv: string[] = (process.env.FUZZ_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);

  constructor(env: Record<string, string> = {}) {
    const keys = generateLicenseKeyPair();
    const license = issueLicense(keys.privateKeyPem, {
      licensee: 'Fuzz run',
      issued_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    });
    this.env = { LOG_LEVEL: 'error', HOST: '127.0.0.1', LICENSE_KEY: license, LICENSE_PUBLIC_KEY: keys.publicKeyPem, ...env };
  }

  get pid(): number | undefined {
    return this.cur?.child.pid;
  }

  get port(): number {
    return this.cur?.port ?? 0;
  }

  get alive(): boolean {
    return !!this.cur && !this.cur.exited;
  }

  rss(): number {
    const r = rssMb(this.pid);
    if (r > this.peakRssMb) this.peakRssMb = r;
    return r;
  }

  crashLog(): string {
    return this.cur?.log.slice(-2000) ?? '';
  }

  async start(): Promise<void> {
    this.cur = await this.launch();
    this.idleRssMb = this.rss();
  }

  private async launch(): Promise<Instance> {
    if (this.stopped) throw new Error('the fuzz server was stopped');
    const root = resolve(import.meta.dirname, '../..');
    const child = spawn(
      process.execPath,
      [...this.execArgv, '--import', join(root, 'scripts/fuzz/orphan-guard.mjs'), '--import', 'tsx', join(root, 'src/main.ts')],
      {
        cwd: root,
        // PORT=0: the server takes a free port, read from /proc once it listens (a port picked here and freed
        // first could be taken by another program before the server binds it).
        env: { ...process.env, ...this.env, PORT: '0' },
        // stdin: a pipe the server watches (orphan-guard.mjs), so it ends with the harness even after a SIGKILL.
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    child.stdin!.on('error', () => {});
    const inst: Instance = { child, port: 0, exited: false, log: '' };
    this.starts++;
    // Never leave a server behind: a busy one may ignore SIGTERM (the very bug class this finds).
    const reap = () => {
      if (!inst.exited) child.kill('SIGKILL');
    };
    process.once('exit', reap);
    child.once('exit', () => process.removeListener('exit', reap));
    const keep = (d: Buffer) => {
      inst.log = (inst.log + d.toString('utf8')).slice(-8000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.on('exit', () => {
      inst.exited = true;
    });
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (this.stopped) {
        await ServerProcess.kill(inst);
        throw new Error('the fuzz server was stopped');
      }
      if (inst.exited) throw new Error(`server exited at start: ${inst.log}`);
      inst.port ||= listeningPort(child.pid!) ?? 0;
      if (inst.port && (await this.healthOf(inst.port, 1000)) < 1000) {
        await this.warmUp(inst.port);
        return inst;
      }
      await sleep(200);
    }
    child.kill('SIGKILL');
    throw new Error('server did not answer /health within 90 s');
  }

  /**
   * One honest request per endpoint, unjudged: the first request of each kind loads modules and compiles
   * code (seconds under tsx), which is not the input's fault.
   */
  private async warmUp(port: number): Promise<void> {
    const xml = Buffer.from(buildInvoiceXml(DOMESTIC_EXAMPLE).xml, 'utf8');
    const meta = Buffer.from(JSON.stringify(DOMESTIC_EXAMPLE));
    const pdf = pdfa3Base();
    // Big honest inputs start the worker threads and load each kind of job there (seconds under tsx), so the
    // first big fuzz input is not blamed for it: over VALIDATION_INLINE_MAX_KB (XML, metadata) and over the
    // PDF inline bound (a PDF with a long comment after its header).
    const bigMeta = { ...DOMESTIC_EXAMPLE, line_items: Array.from({ length: 1200 }, () => DOMESTIC_EXAMPLE.line_items![0]) };
    const bigXml = Buffer.from(buildInvoiceXml(bigMeta).xml, 'utf8');
    const bigMetaJson = Buffer.from(JSON.stringify(bigMeta));
    const bigPdf = Buffer.concat([pdf.subarray(0, 9), Buffer.from(`%${'x'.repeat(600 * 1024)}\n`), pdf.subarray(9)]);
    const file = (data: Buffer, filename: string): CasePart => ({ name: 'file', data, filename });
    const cases: FuzzCase[] = [
      { endpoint: '/v1/validate', encoding: 'multipart', mutated: 'file', parts: [file(xml, 'i.xml')] },
      { endpoint: '/v1/validate', encoding: 'multipart', mutated: 'file', parts: [file(pdf, 'i.pdf')] },
      { endpoint: '/v1/extract', encoding: 'multipart', mutated: 'file', parts: [file(xml, 'i.xml')] },
      { endpoint: '/v1/serialize', encoding: 'multipart', mutated: 'file', parts: [file(xml, 'i.xml')] },
      { endpoint: '/v1/xml', encoding: 'urlencoded', mutated: 'metadata', parts: [{ name: 'metadata', data: meta }] },
      {
        endpoint: '/v1/convert',
        encoding: 'multipart',
        mutated: 'pdf',
        parts: [
          { name: 'pdf', data: pdf, filename: 'i.pdf' },
          { name: 'metadata', data: meta },
        ],
      },
      {
        endpoint: '/v1/merge',
        encoding: 'multipart',
        mutated: 'pdf',
        parts: [
          { name: 'pdf', data: pdf, filename: 'i.pdf' },
          { name: 'xml', data: xml, filename: 'i.xml' },
        ],
      },
      { endpoint: '/v1/validate', encoding: 'multipart', mutated: 'file', parts: [file(bigXml, 'i.xml')] },
      { endpoint: '/v1/validate', encoding: 'multipart', mutated: 'file', parts: [file(bigPdf, 'i.pdf')] },
      { endpoint: '/v1/extract', encoding: 'multipart', mutated: 'file', parts: [file(bigXml, 'i.xml')] },
      { endpoint: '/v1/serialize', encoding: 'multipart', mutated: 'file', parts: [file(bigXml, 'i.xml')] },
      { endpoint: '/v1/xml', encoding: 'urlencoded', mutated: 'metadata', parts: [{ name: 'metadata', data: bigMetaJson }] },
    ];
    for (const c of cases) {
      const { headers, body } = encodeCase(c);
      await this.requestTo(port, c.endpoint, headers, body, 60_000);
    }
  }

  private static async kill(inst: Instance | undefined): Promise<void> {
    if (!inst || inst.exited) return;
    inst.child.kill('SIGKILL');
    await new Promise<void>((r) => (inst.exited ? r() : inst.child.once('exit', () => r())));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await ServerProcess.kill(this.cur);
    const spare = this.spare;
    this.spare = undefined;
    if (spare) await ServerProcess.kill(await spare);
    // Keep-alive sockets would keep the harness's event loop alive.
    this.agent.destroy();
    this.healthAgent.destroy();
  }

  /** Replace the server: by the spare when one is ready, else by a new process. */
  async restart(): Promise<void> {
    await ServerProcess.kill(this.cur);
    const spare = this.spare ? await this.spare : undefined;
    this.spare = undefined;
    this.cur = spare && !spare.exited ? spare : await this.launch();
    if (this.keepSpare) this.spare = this.launch().catch(() => undefined);
  }

  health(bound: number): Promise<number> {
    return this.healthOf(this.port, bound);
  }

  request(path: string, headers: Record<string, string>, body: Buffer, bound: number) {
    return this.requestTo(this.port, path, headers, body, bound);
  }

  /** Latency of GET /health in ms, or Infinity when it does not answer within `bound`. */
  private healthOf(port: number, bound: number): Promise<number> {
    return new Promise((res) => {
      const t0 = performance.now();
      let done = false;
      const finish = (v: number) => {
        if (!done) {
          done = true;
          clearTimeout(timer);
          res(v);
        }
      };
      const req = http.get({ host: '127.0.0.1', port, path: '/health', agent: this.healthAgent }, (r) => {
        r.resume();
        r.on('end', () => finish(r.statusCode === 200 ? performance.now() - t0 : Infinity));
      });
      req.on('error', () => finish(Infinity));
      const timer = setTimeout(() => {
        req.destroy();
        finish(Infinity);
      }, bound);
    });
  }

  /** Send a raw request; resolves with the answer, or a timeout / connection error. */
  private requestTo(
    port: number,
    path: string,
    headers: Record<string, string>,
    body: Buffer,
    bound: number,
  ): Promise<{ status?: number; headers: http.IncomingHttpHeaders; body: Buffer; timedOut: boolean; error?: string }> {
    return new Promise((res) => {
      let done = false;
      const finish = (v: { status?: number; headers: http.IncomingHttpHeaders; body: Buffer; timedOut: boolean; error?: string }) => {
        if (!done) {
          done = true;
          clearTimeout(timer);
          res(v);
        }
      };
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          headers: { ...headers, 'content-length': String(body.length) },
          agent: this.agent,
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (d: Buffer) => chunks.push(d));
          r.on('end', () => finish({ status: r.statusCode, headers: r.headers, body: Buffer.concat(chunks), timedOut: false }));
          r.on('error', (e) => finish({ headers: {}, body: Buffer.alloc(0), timedOut: false, error: e.message }));
        },
      );
      req.on('error', (e) => {
        // A server may refuse a large body early (413, 503 with Retry-After) and close while we still write: the
        // write fails (EPIPE/ECONNRESET) but its answer may still arrive, so give the answer a moment first.
        // Node's client drops that answer with the socket, so the request is sent once more on a raw socket that
        // reads whatever comes back (as curl does).
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EPIPE' || code === 'ECONNRESET') {
          rawRequest(port, path, headers, body, bound).then(finish, (e2: Error) =>
            finish({ headers: {}, body: Buffer.alloc(0), timedOut: false, error: `${e.message}; raw: ${e2.message}` }),
          );
        } else finish({ headers: {}, body: Buffer.alloc(0), timedOut: false, error: e.message });
      });
      const timer = setTimeout(() => {
        finish({ headers: {}, body: Buffer.alloc(0), timedOut: true });
        req.destroy();
      }, bound);
      req.end(body);
    });
  }
}

/**
 * POST on a raw socket (Connection: close): writes the request, ignores write errors, and reads the answer until the
 * server closes. For answers a server sends before the body is read (413 on a too-large upload).
 */
function rawRequest(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  bound: number,
): Promise<{ status?: number; headers: http.IncomingHttpHeaders; body: Buffer; timedOut: boolean; error?: string }> {
  return new Promise((res, rej) => {
    const sock = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      sock.destroy();
      res({ headers: {}, body: Buffer.alloc(0), timedOut: true });
    }, bound);
    sock.on('data', (d: Buffer) => chunks.push(d));
    sock.on('error', () => {}); // EPIPE while writing: the answer may already be in
    sock.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return rej(new Error('no answer'));
      const [statusLine, ...lines] = all.subarray(0, end).toString('latin1').split('\r\n');
      const hs: http.IncomingHttpHeaders = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) hs[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      let payload = all.subarray(end + 4);
      const len = Number(hs['content-length']);
      if (Number.isFinite(len)) payload = payload.subarray(0, len);
      res({ status: Number(statusLine.split(' ')[1]), headers: hs, body: payload, timedOut: false });
    });
    const head = [
      `POST ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Connection: close',
      `Content-Length: ${body.length}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    sock.write(`${head.join('\r\n')}\r\n\r\n`);
    sock.end(body);
  });
}

export function encodeCase(c: FuzzCase): { headers: Record<string, string>; body: Buffer } {
  if (c.encoding === 'urlencoded') {
    const body = c.parts.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.data.toString('utf8'))}`).join('&');
    return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from(body, 'utf8') };
  }
  const boundary = `----einvoice-fuzz-${createHash('sha1')
    .update(c.parts.map((p) => p.name).join())
    .digest('hex')
    .slice(0, 16)}`;
  const chunks: Buffer[] = [];
  for (const p of c.parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`), p.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: Buffer.concat(chunks) };
}

/** The HTTP target: one listening server, health probed every 200 ms and RSS sampled every 100 ms per case. */
export class HttpTarget implements Target {
  name = 'http';
  /** How long a server that stopped answering (after a timeout) may take to come back before it is replaced. */
  recoveryMs = 5000;
  constructor(
    readonly server: ServerProcess,
    readonly opts: OracleOptions = DEFAULT_ORACLE,
  ) {}

  async send(c: FuzzCase, timeBoundMs = this.opts.timeBoundMs): Promise<Outcome> {
    const s = this.server;
    if (!s.alive) await s.restart();
    const { headers, body } = encodeCase(c);
    const rssStart = s.rss();
    let rssPeak = rssStart;
    let healthMax = 0;
    const naps = new Naps();
    const rssTimer = setInterval(() => {
      rssPeak = Math.max(rssPeak, s.rss());
    }, 100);
    // A probe that is under way when the answer arrives is awaited (its latency counts); the naps between
    // probes end with the case.
    const prober = (async () => {
      await naps.nap(150);
      while (!naps.over) {
        const h = await s.health(this.opts.healthBoundMs + 50);
        healthMax = Math.max(healthMax, h);
        await naps.nap(200);
      }
    })();
    const t0 = performance.now();
    const r = await s.request(c.endpoint, headers, body, timeBoundMs);
    const ms = performance.now() - t0;
    naps.end();
    clearInterval(rssTimer);
    await prober;
    rssPeak = Math.max(rssPeak, s.rss());
    let crashed = !s.alive;
    if (!crashed && r.timedOut) {
      // The server may go on with the abandoned request for up to its own 30 s bound: every later input (and the
      // minimiser's confirmations) would queue behind it and time out too. A fresh server judges the next one alone.
      await s.restart();
    } else if (!crashed && r.error) {
      // Give the server a moment to finish what it started; a server that stays unresponsive is replaced.
      await sleep(50);
      crashed = !s.alive;
      if (!crashed) {
        let back = false;
        const until = Date.now() + this.recoveryMs;
        while (Date.now() < until && s.alive) {
          if ((await s.health(1000)) < 1000) {
            back = true;
            break;
          }
        }
        crashed = !s.alive;
        if (!back && !crashed) await s.restart();
      }
    }
    // After the answer, /health must still answer within the bound.
    if (!crashed && s.alive) healthMax = Math.max(healthMax, await s.health(this.opts.healthBoundMs + 50));
    const out: Outcome = {
      status: r.status,
      headers: r.headers,
      body: r.body,
      ms,
      timedOut: r.timedOut,
      connectionError: r.error,
      healthMaxMs: healthMax,
      rssStartMb: rssStart,
      rssPeakMb: rssPeak,
      crashed,
    };
    if (crashed) {
      out.crashLog = s.crashLog();
      await s.restart();
    } else if (s.rss() > 2500) {
      await s.restart(); // memory that is never given back would blame the next inputs
    }
    return out;
  }

  async close(): Promise<void> {
    await this.server.stop();
  }
}

// ---------------------------------------------------------------- fixtures

export const FIXTURE_DIR = resolve(import.meta.dirname, '../../test/fixtures/fuzz');
export const KNOWN_FAILING = join(FIXTURE_DIR, 'known-failing.txt');
const GZIP_FROM = 64 * 1024;

export interface CaseFile {
  endpoint: Endpoint;
  encoding: FuzzCase['encoding'];
  mutated: string;
  parts: { name: string; file: string; filename?: string; contentType?: string; gzip?: boolean }[];
  expected: string;
  failure: Failure;
  /** Class, endpoint and normalised detail: one fixture per signature. */
  signature: string;
  found: { seed: number; iteration: number; mutator: string; seedInput: string; date: string };
}

const EXT: Record<string, string> = { pdf: 'pdf', xml: 'xml', file: 'bin', metadata: 'metadata.json' };

function extFor(p: CasePart): string {
  if (p.name === 'file') return p.data.subarray(0, 5).toString('latin1') === '%PDF-' ? 'pdf' : 'xml';
  return EXT[p.name] ?? `${p.name}.bin`;
}

export function expectedFor(e: Endpoint): string {
  return `a documented status (${DOCUMENTED[e].join('/')}; 503 only with Retry-After), a JSON body (ProblemDetails for errors), within ${DEFAULT_ORACLE.timeBoundMs} ms, no internal text, /health answering within ${DEFAULT_ORACLE.healthBoundMs} ms`;
}

/** Write a minimised failing case as <class>-<endpoint>-<hash>.{pdf,xml,metadata.json} plus <base>.case.json. */
/**
 * Class, endpoint, first mutator and normalised detail: one fixture per signature. The mutator is part of it
 * because a 500 or a timeout says nothing about its cause (a deep page tree and a huge invoice number both
 * answer the same generic 500).
 */
export function signatureOf(c: FuzzCase, f: Failure, mutator: string): string {
  return `${f.class}|${c.endpoint}|${mutator.split('+')[0]}|${f.detail
    .replace(/\d+(\.\d+)?/g, '#')
    .replace(/…[\s\S]*/, '')
    .slice(0, 90)}`;
}

export function writeFixture(c: FuzzCase, failure: Failure, found: CaseFile['found']): string {
  const hash = createHash('sha256');
  hash.update(c.endpoint);
  for (const p of c.parts) hash.update(p.data);
  const ep = c.endpoint.replace('/v1/', '');
  const cls = failure.class.replace(/[^a-z0-9-]/gi, '');
  const base = `${cls}-${ep}-${hash.digest('hex').slice(0, 10)}`;
  const parts: CaseFile['parts'] = [];
  for (const p of c.parts) {
    const gzip = p.data.length > GZIP_FROM;
    const file = `${base}.${extFor(p)}${gzip ? '.gz' : ''}`;
    writeFileSync(join(FIXTURE_DIR, file), gzip ? gzipSync(p.data, { level: 9 }) : p.data);
    parts.push({
      name: p.name,
      file,
      ...(p.filename !== undefined ? { filename: p.filename } : {}),
      ...(p.contentType ? { contentType: p.contentType } : {}),
      ...(gzip ? { gzip } : {}),
    });
  }
  const cf: CaseFile = {
    endpoint: c.endpoint,
    encoding: c.encoding,
    mutated: c.mutated,
    parts,
    expected: expectedFor(c.endpoint),
    failure,
    signature: signatureOf(c, failure, found.mutator),
    found,
  };
  writeFileSync(join(FIXTURE_DIR, `${base}.case.json`), `${JSON.stringify(cf, null, 2)}\n`);
  return base;
}

export function readFixtures(dir = FIXTURE_DIR): { base: string; file: CaseFile; case: FuzzCase }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.case.json'))
    .sort()
    .map((f) => {
      const file = JSON.parse(readFileSync(join(dir, f), 'utf8')) as CaseFile;
      const parts = file.parts.map((p) => {
        const raw = readFileSync(join(dir, p.file));
        return { name: p.name, data: p.gzip ? gunzipSync(raw) : raw, filename: p.filename, contentType: p.contentType };
      });
      return {
        base: f.slice(0, -'.case.json'.length),
        file,
        case: { endpoint: file.endpoint, encoding: file.encoding, mutated: file.mutated, parts },
      };
    });
}

export function readKnownFailing(path = KNOWN_FAILING): Set<string> {
  if (!existsSync(path)) return new Set();
  return new Set(
    readFileSync(path, 'utf8')
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter(Boolean),
  );
}
