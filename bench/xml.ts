/**
 * XML generation throughput: metadata JSON → validated → computed → CII XML.
 *
 * 1. In process, buildInvoiceXml() for a 10-line and a 1,000-line invoice (target: 1,000 lines ≤ 50 ms).
 * 2. Over HTTP, POST /v1/xml with autocannon at concurrency 8 against the compiled service in its own process
 *    on 127.0.0.1 and an ephemeral port (bench/_server.ts) (target: ≥ 3,000 requests/s for 10 lines on 2 cores),
 *    in the default configuration and with two server processes (PROCESSES=2). Bounded duration.
 *
 * Run: node --import tsx bench/xml.ts [seconds per HTTP run, default 10]
 */
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { buildInvoiceXml } from '../src/metadata/build.js';
import type { InvoiceMetadata } from '../src/metadata/schema.js';
import { autocannon, memoryText, SERVER_NODE_FLAGS, startServer, type BenchServer } from './_server.js';

const seconds = Math.max(1, Math.min(60, Number(process.argv[2] ?? 10)));

function invoiceWithLines(n: number): InvoiceMetadata {
  const rates = ['19', '7'];
  return {
    ...DOMESTIC_EXAMPLE,
    invoice_number: `BENCH-${n}`,
    line_items: Array.from({ length: n }, (_, i) => ({
      name: `Article ${i + 1}`,
      description: `Description of article ${i + 1}`,
      seller_item_id: `ART-${String(i + 1).padStart(5, '0')}`,
      quantity: String((i % 7) + 1),
      unit_code: 'C62',
      net_price: `${(i % 50) + 1}.${String(i % 100).padStart(2, '0')}`,
      vat_rate: rates[i % 2],
    })),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function inProcess(label: string, meta: InvoiceMetadata, minIterations: number, budgetMs: number): void {
  const json = JSON.stringify(meta);
  for (let i = 0; i < 5; i++) buildInvoiceXml(json); // warm-up
  const times: number[] = [];
  const start = performance.now();
  let bytes = 0;
  while (times.length < minIterations || performance.now() - start < budgetMs) {
    const t0 = performance.now();
    bytes = buildInvoiceXml(json).xml.length;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  console.log(
    `${label.padEnd(22)} runs ${String(times.length).padStart(6)}  median ${percentile(times, 50).toFixed(3)} ms  p95 ${percentile(times, 95).toFixed(3)} ms  ` +
      `p99 ${percentile(times, 99).toFixed(3)} ms  ${((times.length * 1000) / total).toFixed(0)} invoices/s  (${(bytes / 1024).toFixed(1)} KiB XML)`,
  );
}

/** POST /v1/xml with `meta`, or (meta undefined) GET /health as the baseline of this machine right now. */
async function overHttp(server: BenchServer, label: string, meta: InvoiceMetadata | undefined, duration: number): Promise<void> {
  const port = server.port;
  const request = meta
    ? {
        url: `http://127.0.0.1:${port}/v1/xml`,
        method: 'POST',
        body: new URLSearchParams({ metadata: JSON.stringify(meta) }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }
    : { url: `http://127.0.0.1:${port}/health`, method: 'GET' };
  // Short warm-up so that JIT and the XML path are hot before measuring.
  await autocannon({ ...request, connections: 8, duration: 1 });
  const cpu0 = server.cpuMs();
  const client0 = process.cpuUsage();
  const peakMemory = server.sampleMemory();
  const result = await autocannon({ ...request, connections: 8, duration });
  const cpuMs = server.cpuMs() - cpu0;
  const clientUse = process.cpuUsage(client0);
  const clientMs = (clientUse.user + clientUse.system) / 1000;
  const non2xx = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${label.padEnd(24)} ${result.requests.average.toFixed(0)} req/s (mean; min ${result.requests.min}, p50 ${result.requests.p50})  ` +
      `latency p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  requests ${result.requests.total}  non-2xx/errors ${non2xx}  ` +
      `server CPU ${(cpuMs / result.requests.total).toFixed(3)} ms/request (load generator ${(clientMs / result.requests.total).toFixed(3)}), peak RSS ${memoryText(peakMemory())}`,
  );
}

{
  console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} CPUs`);
  // HTTP first: the load generator runs in this process, and the in-process runs leave a large heap behind.
  console.log(
    `-- over HTTP: autocannon, 8 connections, ${seconds} s; load average now ${(await import('node:os')).loadavg()[0].toFixed(2)}; server: node ${SERVER_NODE_FLAGS.join(' ')} dist/src/main.js`,
  );
  const server = await startServer();
  try {
    await overHttp(server, 'GET /health (baseline)', undefined, Math.min(seconds, 5));
    await overHttp(server, 'POST 10 lines', invoiceWithLines(10), seconds);
    await overHttp(server, 'POST 1,000 lines', invoiceWithLines(1000), Math.min(seconds, 5));
  } finally {
    await server.stop();
  }
  // The same with two server processes sharing the port (PROCESSES=2): HTTP on both cores.
  const two = await startServer({ PROCESSES: '2' });
  try {
    await overHttp(two, 'POST 10 lines, PROCESSES=2', invoiceWithLines(10), seconds);
  } finally {
    await two.stop();
  }
  console.log('-- in process: buildInvoiceXml (parse + validate + compute + write)');
  inProcess('10 lines', invoiceWithLines(10), 2000, 3000);
  inProcess('1,000 lines', invoiceWithLines(1000), 30, 5000);
}
