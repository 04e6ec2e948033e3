/**
 * Extraction speed.
 *
 * 1. In process: ingest() + ExtractionResult for a typical ~100 KB Factur-X PDF from the corpus, and for a
 *    10,000-line CII XML generated here (target: ≤ 300 ms for 10,000 lines).
 * 2. Over HTTP: POST /v1/extract with that PDF, autocannon at concurrency 8 against the compiled service in a
 *    separate process on 127.0.0.1 (bench/_server.ts) (target: ≥ 1,000 requests/s on 2 cores). Bounded duration.
 *
 * Run: node --import tsx bench/extract.ts [seconds for the HTTP run, default 10]
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ingest } from '../src/input/ingest.js';
import { autocannon, memoryText, SERVER_NODE_FLAGS, startServer } from './_server.js';
import { multipartForm } from './_fixtures.js';
import { toExtractionResult } from '../src/extract/result.js';

const PDF_FILE = path.resolve(
  process.cwd(),
  '../shared/corpus/zugferd/ZUGFeRDv2/correct/symtrax/Beispiele/EN16931/zugferd_2p1_EN16931_1_Teilrechnung.pdf',
);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeIt(label: string, bytes: Uint8Array, minRuns: number, budgetMs: number): Promise<void> {
  for (let i = 0; i < 3; i++) toExtractionResult(await ingest(bytes)); // warm-up
  const times: number[] = [];
  const start = performance.now();
  let lines = 0;
  while (times.length < minRuns || performance.now() - start < budgetMs) {
    const t0 = performance.now();
    const result = toExtractionResult(await ingest(bytes));
    times.push(performance.now() - t0);
    lines = result.invoice_json?.line_items.length ?? 0;
  }
  times.sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  console.log(
    `${label.padEnd(28)} runs ${String(times.length).padStart(5)}  median ${percentile(times, 50).toFixed(2)} ms  p95 ${percentile(times, 95).toFixed(2)} ms  ` +
      `p99 ${percentile(times, 99).toFixed(2)} ms  max ${times[times.length - 1].toFixed(2)} ms  ${((times.length * 1000) / total).toFixed(0)}/s  ` +
      `(${(bytes.length / 1024).toFixed(0)} KiB, ${lines} lines)`,
  );
}

/** A CII invoice with `n` typical lines (~1 KB each: GTIN, seller item id, name, gross/net price, quantity, VAT, total). */
export function ciiWithLines(n: number): string {
  const R = 'ram';
  const line = (i: number) => {
    const qty = (i % 9) + 1;
    const price = `${(i % 40) + 1}.${String(i % 100).padStart(2, '0')}`;
    const total = (BigInt(qty) * BigInt(price.replace('.', ''))).toString().padStart(3, '0');
    const amount = `${total.slice(0, -2)}.${total.slice(-2)}`;
    return `<${R}:IncludedSupplyChainTradeLineItem><${R}:AssociatedDocumentLineDocument><${R}:LineID>${i + 1}</${R}:LineID></${R}:AssociatedDocumentLineDocument>
<${R}:SpecifiedTradeProduct><${R}:GlobalID schemeID="0160">4012345${String(i).padStart(6, '0')}</${R}:GlobalID><${R}:SellerAssignedID>ART-${i + 1}</${R}:SellerAssignedID><${R}:Name>Article number ${i + 1}</${R}:Name></${R}:SpecifiedTradeProduct>
<${R}:SpecifiedLineTradeAgreement><${R}:GrossPriceProductTradePrice><${R}:ChargeAmount>${price}</${R}:ChargeAmount></${R}:GrossPriceProductTradePrice><${R}:NetPriceProductTradePrice><${R}:ChargeAmount>${price}</${R}:ChargeAmount></${R}:NetPriceProductTradePrice></${R}:SpecifiedLineTradeAgreement>
<${R}:SpecifiedLineTradeDelivery><${R}:BilledQuantity unitCode="C62">${qty}</${R}:BilledQuantity></${R}:SpecifiedLineTradeDelivery>
<${R}:SpecifiedLineTradeSettlement><${R}:ApplicableTradeTax><${R}:TypeCode>VAT</${R}:TypeCode><${R}:CategoryCode>S</${R}:CategoryCode><${R}:RateApplicablePercent>19</${R}:RateApplicablePercent></${R}:ApplicableTradeTax>
<${R}:SpecifiedTradeSettlementLineMonetarySummation><${R}:LineTotalAmount>${amount}</${R}:LineTotalAmount></${R}:SpecifiedTradeSettlementLineMonetarySummation></${R}:SpecifiedLineTradeSettlement></${R}:IncludedSupplyChainTradeLineItem>
`;
  };
  const lines = Array.from({ length: n }, (_, i) => line(i)).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>BENCH-${n}</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20240201</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
${lines}<ram:ApplicableHeaderTradeAgreement><ram:SellerTradeParty><ram:Name>Seller GmbH</ram:Name><ram:PostalTradeAddress><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
<ram:BuyerTradeParty><ram:Name>Buyer AG</ram:Name></ram:BuyerTradeParty></ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery/>
<ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>0.00</ram:LineTotalAmount><ram:TaxBasisTotalAmount>0.00</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">0.00</ram:TaxTotalAmount><ram:GrandTotalAmount>0.00</ram:GrandTotalAmount><ram:DuePayableAmount>0.00</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>`;
}

async function overHttp(pdf: Uint8Array, seconds: number): Promise<void> {
  const server = await startServer();
  const port = server.port;
  const form = multipartForm([{ name: 'file', value: pdf, filename: 'invoice.pdf', contentType: 'application/pdf' }], '----bench-extract');
  const request = {
    url: `http://127.0.0.1:${port}/v1/extract`,
    method: 'POST',
    body: form.payload,
    headers: form.headers,
    connections: 8,
  };
  try {
    // Baseline of this machine right now (the lead measured ~20,000 req/s for GET /health on an idle machine).
    const health = await autocannon({ url: `http://127.0.0.1:${port}/health`, connections: 8, duration: Math.min(seconds, 3) });
    console.log(`GET /health (baseline): ${health.requests.average.toFixed(0)} req/s  latency p50 ${health.latency.p50} ms`);
    await autocannon({ ...request, duration: 2 }); // warm-up: JIT and the extraction path
    const cpu0 = server.cpuMs();
    const client0 = process.cpuUsage();
    const peakMemory = server.sampleMemory();
    const r = await autocannon({ ...request, duration: seconds });
    const cpuMs = server.cpuMs() - cpu0;
    const clientUse = process.cpuUsage(client0);
    const clientMs = (clientUse.user + clientUse.system) / 1000;
    console.log(
      `POST /v1/extract ${(pdf.length / 1024).toFixed(0)} KiB PDF: ${r.requests.average.toFixed(0)} req/s (mean; min ${r.requests.min}, p50 ${r.requests.p50})  ` +
        `latency p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  requests ${r.requests.total}  non-2xx/errors ${r.non2xx + r.errors + r.timeouts}`,
    );
    // CPU the server spent per request (all its threads, GC included): what the machine's load cannot hide.
    console.log(
      `server CPU per request ${(cpuMs / r.requests.total).toFixed(3)} ms (≈ ${Math.round(r.requests.total / (cpuMs / 1000))} requests per CPU-second; load generator ${(clientMs / r.requests.total).toFixed(3)} ms), ` +
        `server peak RSS ${memoryText(peakMemory())}`,
    );
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const seconds = Math.max(1, Math.min(60, Number(process.argv[2] ?? 10)));
  const pdf = new Uint8Array(readFileSync(PDF_FILE));
  console.log(`node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(2)}`);
  console.log('-- in process: ingest() + ExtractionResult');
  await timeIt('Factur-X PDF (EN 16931)', pdf, 500, 3000);
  const big = new Uint8Array(Buffer.from(ciiWithLines(10_000)));
  await timeIt('CII XML, 10,000 lines', big, 10, 5000);
  console.log(`-- over HTTP: autocannon, 8 connections, ${seconds} s; server: node ${SERVER_NODE_FLAGS.join(' ')} dist/src/main.js`);
  await overHttp(pdf, seconds);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
