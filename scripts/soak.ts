/**
 * `npm run soak -- --minutes N [--concurrency C] [--no-write]`: the service at saturation for N minutes.
 *
 * Starts the service as shipped (dist/, built when stale; bench/_server.ts) on 127.0.0.1 with a throwaway
 * pro license and /metrics enabled, and drives a mix of every endpoint that reads uploads (validate CII,
 * UBL and Factur-X PDF, extract, xml, merge, convert) from C loops that each send their next request as soon
 * as the last is answered. Inputs are made by the project itself (scripts/_load-inputs.ts), not read from
 * ../shared. Every second it samples the server's resident memory (/proc, all threads and processes) and
 * its event-loop delay (prom-client's monitorEventLoopDelay, reset at each /metrics scrape).
 *
 * Prints per minute: requests, request latency p50/p99, event-loop delay p50/p99, RSS. Fails (exit 1) on a
 * 5xx or a transport error, on RSS that keeps growing (the least-squares slope over the run after the first
 * minute, extrapolated over that span, above max(64 MB, 20% of the mean)), or on p99 drift (the last window's
 * request p99 above 1.5 × the median window's + 20 ms). Unless --no-write, writes the curve
 * docs/reliability/soak.svg (drawn here, no plotting library) and the figures into docs/reliability.md under
 * "## Soak".
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { startServer } from '../bench/_server.js';
import { generateLicenseKeyPair, issueLicense } from '../src/license/license.js';
import { basePdf, ciiInvoice, facturxPdf, form, pdfa3Pdf, SCENARIOS, ublInvoice, type FormPart } from './_load-inputs.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const MINUTES = arg('minutes', 1);
const CONCURRENCY = arg('concurrency', 8);
const WRITE = !process.argv.includes('--no-write');
if (!(MINUTES > 0) || !(CONCURRENCY > 0)) throw new Error('usage: npm run soak -- --minutes N [--concurrency C] [--no-write]');

const keys = generateLicenseKeyPair();
const license = issueLicense(keys.privateKeyPem, {
  licensee: 'Soak test',
  issued_at: new Date().toISOString(),
  expires_at: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
});
const METRICS_TOKEN = 'soak-metrics-token';
const server = await startServer({ LICENSE_KEY: license, LICENSE_PUBLIC_KEY: keys.publicKeyPem, METRICS_ENABLED: 'true', METRICS_TOKEN });
const base = `http://127.0.0.1:${server.port}`;

// Inputs: made once, from the writer, the UBL fixture and a PDF built in code; the Factur-X PDF by the server itself.
const cii = [ciiInvoice(), ...['reverse_charge', 'mixed_rates', 'allowances_and_charges'].map((s) => ciiInvoice(1, SCENARIOS[s]))];
const ubl = ublInvoice();
const pdf = await basePdf(2);
const hybrid = await facturxPdf(base, pdf);
const pdfa3 = await pdfa3Pdf();
const metadata = JSON.stringify(SCENARIOS.domestic);

interface Job {
  name: string;
  path: string;
  parts: FormPart[];
}
const xmlFile = (x: string): FormPart => ({ name: 'file', value: x, filename: 'invoice.xml', contentType: 'application/xml' });
const jobs: Job[] = [
  ...cii.map((x, i): Job => ({ name: `validate-cii-${i}`, path: '/v1/validate', parts: [xmlFile(x)] })),
  { name: 'validate-ubl', path: '/v1/validate', parts: [xmlFile(ubl)] },
  {
    name: 'validate-pdf',
    path: '/v1/validate',
    parts: [{ name: 'file', value: hybrid, filename: 'invoice.pdf', contentType: 'application/pdf' }],
  },
  { name: 'extract-cii', path: '/v1/extract', parts: [xmlFile(cii[0])] },
  {
    name: 'extract-pdf',
    path: '/v1/extract',
    parts: [{ name: 'file', value: hybrid, filename: 'invoice.pdf', contentType: 'application/pdf' }],
  },
  { name: 'xml', path: '/v1/xml', parts: [{ name: 'metadata', value: metadata }] },
  {
    name: 'merge',
    path: '/v1/merge',
    parts: [
      // merge needs a PDF declared PDF/A-3 that carries no invoice yet.
      { name: 'pdf', value: pdfa3, filename: 'invoice.pdf', contentType: 'application/pdf' },
      { name: 'xml', value: cii[0], filename: 'invoice.xml', contentType: 'application/xml' },
    ],
  },
  {
    name: 'convert',
    path: '/v1/convert',
    parts: [
      { name: 'pdf', value: pdf, filename: 'invoice.pdf', contentType: 'application/pdf' },
      { name: 'metadata', value: metadata },
    ],
  },
];
const bodies = jobs.map((j) => ({ ...j, ...form(j.parts) }));

// Each answer must be what an honest request gets: 200, and for a validation the same verdict every time.
const verdicts = new Map<string, boolean>();
async function send(i: number): Promise<{ ok: boolean; status: number; ms: number; problem?: string }> {
  const job = bodies[i % bodies.length];
  const started = performance.now();
  try {
    const res = await fetch(`${base}${job.path}`, {
      method: 'POST',
      body: new Uint8Array(job.body),
      headers: { 'content-type': job.contentType },
    });
    const answer = await res.arrayBuffer();
    const ms = performance.now() - started;
    if (res.status !== 200)
      return { ok: false, status: res.status, ms, problem: `${job.name}: ${res.status} ${Buffer.from(answer).toString('utf8', 0, 300)}` };
    if (job.path === '/v1/validate') {
      // The same upload must get the same verdict every time (the first answer sets it).
      const valid = JSON.parse(Buffer.from(answer).toString('utf8')).valid;
      const expected = verdicts.get(job.name) ?? (verdicts.set(job.name, valid), valid);
      if (valid !== expected) return { ok: false, status: res.status, ms, problem: `${job.name}: valid=${valid}, earlier ${expected}` };
    }
    return { ok: true, status: res.status, ms };
  } catch (err) {
    return { ok: false, status: 0, ms: performance.now() - started, problem: `${job.name}: ${(err as Error).message}` };
  }
}

interface Sample {
  t: number; // seconds since start
  rss: number; // MB
  eldP50: number; // ms
  eldP99: number; // ms
}
const samples: Sample[] = [];
const latencies: { t: number; ms: number }[] = [];
const statuses = new Map<number, number>();
const problems: string[] = [];

const started = performance.now();
const endAt = started + MINUTES * 60_000;
const seconds = () => (performance.now() - started) / 1000;

async function scrape(): Promise<{ p50: number; p99: number }> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p50: value('nodejs_eventloop_lag_p50_seconds'), p99: value('nodejs_eventloop_lag_p99_seconds') };
}
await scrape(); // resets the delay histogram

let next = 0;
const loops = Array.from({ length: CONCURRENCY }, async () => {
  while (performance.now() < endAt) {
    const r = await send(next++);
    latencies.push({ t: seconds(), ms: r.ms });
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    if (!r.ok && problems.length < 20) problems.push(r.problem!);
  }
});
const sampler = (async () => {
  let tick = 1;
  while (performance.now() < endAt) {
    const wait = started + tick * 1000 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    tick++;
    const eld = await scrape();
    samples.push({ t: seconds(), rss: server.rssMb(), eldP50: eld.p50, eldP99: eld.p99 });
  }
})();
await Promise.all([...loops, sampler]);
await server.stop();

// Figures per window (a minute; 20 s for runs under 3 minutes).
const windowS = MINUTES >= 3 ? 60 : 20;
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const windows = Math.ceil((MINUTES * 60) / windowS);
const rows = Array.from({ length: windows }, (_, w) => {
  const inW = <T extends { t: number }>(xs: T[]) => xs.filter((x) => x.t >= w * windowS && x.t < (w + 1) * windowS);
  const lat = inW(latencies).map((l) => l.ms);
  const smp = inW(samples);
  return {
    from: w * windowS,
    requests: lat.length,
    rate: lat.length / windowS,
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    eldP50: pct(
      smp.map((s) => s.eldP50),
      50,
    ),
    eldP99: pct(
      smp.map((s) => s.eldP99),
      99,
    ),
    rssEnd: smp.at(-1)?.rss ?? NaN,
    rssMax: Math.max(...smp.map((s) => s.rss)),
  };
});
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '-');
const table = [
  `| ${windowS === 60 ? 'minute' : 'window (s)'} | requests | req/s | latency p50 (ms) | latency p99 (ms) | event-loop delay p50 (ms) | event-loop delay p99 (ms) | RSS at end (MB) | RSS max (MB) |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r, i) =>
      `| ${windowS === 60 ? i + 1 : `${r.from}–${r.from + windowS}`} | ${r.requests} | ${f0(r.rate)} | ${f1(r.p50)} | ${f1(r.p99)} | ${f1(r.eldP50)} | ${f1(r.eldP99)} | ${f0(r.rssEnd)} | ${f0(r.rssMax)} |`,
  ),
];
console.log(table.join('\n'));

// Verdicts.
const failures: string[] = [];
const serverErrors = [...statuses].filter(([s]) => s === 0 || s >= 500).reduce((n, [, c]) => n + c, 0);
const notOk = [...statuses].filter(([s]) => s !== 200).reduce((n, [, c]) => n + c, 0);
if (serverErrors > 0) failures.push(`${serverErrors} answers were 5xx or transport errors`);
if (notOk > 0) failures.push(`${notOk} answers were not 200: ${problems.slice(0, 3).join(' | ')}`);
const settled = samples.filter((s) => s.t >= Math.min(60, (MINUTES * 60) / 3));
let slopeMbPerMin = 0;
if (settled.length >= 10) {
  const n = settled.length;
  const mt = settled.reduce((a, s) => a + s.t, 0) / n;
  const mr = settled.reduce((a, s) => a + s.rss, 0) / n;
  const slope = settled.reduce((a, s) => a + (s.t - mt) * (s.rss - mr), 0) / settled.reduce((a, s) => a + (s.t - mt) ** 2, 0);
  slopeMbPerMin = slope * 60;
  const span = settled.at(-1)!.t - settled[0].t;
  const growth = slope * span;
  if (growth > Math.max(64, 0.2 * mr))
    failures.push(`RSS grows: ${f1(slopeMbPerMin)} MB/min (${f0(growth)} MB over ${f0(span)} s, mean ${f0(mr)} MB)`);
}
const p99s = rows.filter((r) => r.requests > 0).map((r) => r.p99);
const medianP99 = pct(p99s, 50);
const lastP99 = p99s.at(-1) ?? NaN;
if (p99s.length >= 3 && lastP99 > 1.5 * medianP99 + 20)
  failures.push(`p99 drifts: last window ${f1(lastP99)} ms against a median of ${f1(medianP99)} ms`);

const totals = {
  requests: latencies.length,
  rate: latencies.length / (MINUTES * 60),
  p50: pct(
    latencies.map((l) => l.ms),
    50,
  ),
  p99: pct(
    latencies.map((l) => l.ms),
    99,
  ),
  rssMin: Math.min(...samples.map((s) => s.rss)),
  rssMax: Math.max(...samples.map((s) => s.rss)),
  eldP99: pct(
    samples.map((s) => s.eldP99),
    99,
  ),
};
const verdict = failures.length === 0 ? 'PASS' : `FAIL: ${failures.join('; ')}`;
console.log(
  `${totals.requests} requests (${f0(totals.rate)}/s), latency p50 ${f1(totals.p50)} ms p99 ${f1(totals.p99)} ms, RSS ${f0(totals.rssMin)}–${f0(totals.rssMax)} MB ` +
    `(slope after warm-up ${f1(slopeMbPerMin)} MB/min), event-loop delay p99 ${f1(totals.eldP99)} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}\n${verdict}`,
);

if (WRITE) {
  mkdirSync('docs/reliability', { recursive: true });
  writeFileSync('docs/reliability/soak.svg', svg());
  const section = [
    '## Soak',
    '',
    `\`npm run soak -- --minutes ${MINUTES}\` (scripts/soak.ts), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: the service as shipped (dist/, PROCESSES=1, WORKERS=1, ` +
      `pro license with /metrics), ${CONCURRENCY} loops on 127.0.0.1 each sending its next request as soon as the last is answered, cycling through ` +
      `${jobs.length} requests: validate CII (${cii.length} writer scenarios), UBL and a Factur-X PDF, extract CII and PDF, xml, merge, convert. ` +
      `The machine: ${availableParallelism()} cores, shared with other work while this ran (load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')} at the end, ` +
      'so the rates and latencies say little about capacity: see the benchmarks for that; the point here is that memory and latency stay flat). ' +
      'RSS is sampled every second from /proc (all threads), the event-loop delay from ' +
      "prom-client's monitorEventLoopDelay histogram, reset at each scrape.",
    '',
    `**${verdict}** — ${totals.requests} requests (${f0(totals.rate)}/s), latency p50 ${f1(totals.p50)} ms, p99 ${f1(totals.p99)} ms; RSS ${f0(totals.rssMin)}–${f0(totals.rssMax)} MB, ` +
      `slope after the first minute ${f1(slopeMbPerMin)} MB/min; event-loop delay p99 ${f1(totals.eldP99)} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}.`,
    '',
    'Fails when: any answer is not 200 (a 5xx or a transport error above all); RSS grows (least-squares slope after the first minute, over that span, ' +
      "above max(64 MB, 20% of the mean)); the last minute's request p99 is above 1.5 × the median minute's + 20 ms.",
    '',
    ...table,
    '',
    '![RSS and event-loop delay over the soak](reliability/soak.svg)',
    '',
  ].join('\n');
  writeSection('## Soak', section);
  console.log('wrote docs/reliability/soak.svg and docs/reliability.md (## Soak)');
}
process.exit(failures.length === 0 ? 0 : 1);

/** Replace (or append) one `## ` section of docs/reliability.md. */
function writeSection(heading: string, text: string): void {
  const file = 'docs/reliability.md';
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Reliability\n\n';
  const at = doc.indexOf(`\n${heading}\n`);
  if (at < 0) doc = `${doc.trimEnd()}\n\n${text}`;
  else {
    const end = doc.indexOf('\n## ', at + heading.length + 1);
    doc = doc.slice(0, at + 1) + text + (end < 0 ? '' : `\n${doc.slice(end + 1)}`);
  }
  writeFileSync(file, doc.endsWith('\n') ? doc : `${doc}\n`);
}

/** RSS (MB, top) and event-loop delay p99 per second plus request p99 per window (ms, bottom), drawn as SVG by hand. */
function svg(): string {
  const W = 900;
  const H = 520;
  const left = 70;
  const right = 20;
  const panelH = 180;
  const tops = [40, 300];
  const tMax = MINUTES * 60;
  const x = (t: number) => left + ((W - left - right) * t) / tMax;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${esc(`Soak: ${MINUTES} min at saturation, ${CONCURRENCY} loops, ${totals.requests} requests — ${verdict.slice(0, 60)}`)}</text>`,
  ];
  const panel = (top: number, title: string, series: { pts: [number, number][]; color: string; label: string; step?: boolean }[]) => {
    const yMax = niceMax(Math.max(1, ...series.flatMap((s) => s.pts.map((p) => p[1]).filter(Number.isFinite))));
    const y = (v: number) => top + panelH - (panelH * v) / yMax;
    out.push(`<text x="${left}" y="${top - 8}" font-weight="bold">${esc(title)}</text>`);
    for (let i = 0; i <= 4; i++) {
      const v = (yMax * i) / 4;
      out.push(`<line x1="${left}" x2="${W - right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
      out.push(`<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${v % 1 === 0 ? v : v.toFixed(1)}</text>`);
    }
    const tickS = tMax > 300 ? 60 : tMax > 60 ? 30 : 10;
    for (let t = 0; t <= tMax; t += tickS) {
      out.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${top + panelH}" y2="${top + panelH + 4}" stroke="#333"/>`);
      out.push(`<text x="${x(t)}" y="${top + panelH + 16}" text-anchor="middle">${tickS >= 60 ? `${t / 60} min` : `${t} s`}</text>`);
    }
    out.push(`<rect x="${left}" y="${top}" width="${W - left - right}" height="${panelH}" fill="none" stroke="#333"/>`);
    series.forEach((s, i) => {
      const pts = s.pts.filter((p) => Number.isFinite(p[1]));
      const d = s.step
        ? pts
            .map(
              ([t, v], j) =>
                `${j === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(v).toFixed(1)} L${x(Math.min(tMax, t + windowS)).toFixed(1)},${y(v).toFixed(1)}`,
            )
            .join(' ')
        : pts.map(([t, v], j) => `${j === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="${s.step ? 2 : 1.2}"/>`);
      out.push(`<rect x="${left + 10 + i * 250}" y="${top + 8}" width="12" height="3" fill="${s.color}"/>`);
      out.push(`<text x="${left + 28 + i * 250}" y="${top + 13}">${esc(s.label)}</text>`);
    });
  };
  panel(tops[0], 'Server resident memory (MB), every second', [
    { pts: samples.map((s) => [s.t, s.rss]), color: '#1f77b4', label: 'RSS, all threads' },
  ]);
  panel(tops[1], 'Milliseconds', [
    { pts: samples.map((s) => [s.t, s.eldP99]), color: '#ff7f0e', label: 'event-loop delay p99, per second' },
    {
      pts: rows.map((r) => [r.from, r.p99]),
      color: '#2ca02c',
      label: `request latency p99, per ${windowS === 60 ? 'minute' : `${windowS} s`}`,
      step: true,
    },
    {
      pts: rows.map((r) => [r.from, r.p50]),
      color: '#9467bd',
      label: `request latency p50, per ${windowS === 60 ? 'minute' : `${windowS} s`}`,
      step: true,
    },
  ]);
  out.push('</svg>');
  return out.join('\n');
}

function niceMax(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v * 1.1) return m * p;
  return 10 * p;
}
