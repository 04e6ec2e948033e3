/**
 * `node --import tsx scripts/memory-factor.ts`: measures the memory a request costs per byte of its body,
 * the figure behind MEMORY_EXPANSION_FACTOR (src/http/memory-gate.ts). Starts the server, then for each
 * endpoint sends one large upload at a time and reads the server's peak resident memory (VmHWM, reset
 * before each request through /proc/<pid>/clear_refs) against its resident memory just before.
 * Prints one line per case and the largest factor. Inputs are made in code (scripts/_load-inputs.ts).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { listeningPort } from './listening-port.js';
import { basePdf, ciiInvoice, facturxPdf, form, metadataWithLines, ublInvoice } from './_load-inputs.js';

const LINES = Number(process.argv[2] ?? 4000);

// PORT=0, the port read from /proc (a port picked and freed first could be taken meanwhile).
const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', MAX_UPLOAD_SIZE_MB: '64', MAX_MEMORY_MB: '16000' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
process.once('exit', () => child.kill('SIGKILL'));
let port: number | undefined;
for (let i = 0; !port; i++) {
  if (i > 600 || child.exitCode !== null) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 100));
  port = listeningPort(child.pid!);
}
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/health`)).ok) break;
  } catch {
    if (i > 600) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const kb = (field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024;

async function measure(name: string, path: string, parts: Parameters<typeof form>[0]): Promise<number> {
  const f = form(parts);
  await new Promise((r) => setTimeout(r, 1500));
  writeFileSync(`/proc/${child.pid}/clear_refs`, '5'); // reset the peak (VmHWM) to the current RSS
  const before = kb('VmRSS');
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    body: new Blob([new Uint8Array(f.body)]),
    headers: { 'content-type': f.contentType },
  });
  const answer = await res.arrayBuffer();
  const ms = performance.now() - started;
  const peak = kb('VmHWM');
  const factor = (peak - before) / f.body.length;
  console.log(
    `${name.padEnd(34)} ${res.status} body ${(f.body.length / 1e6).toFixed(1).padStart(5)} MB  answer ${(answer.byteLength / 1e6).toFixed(1).padStart(5)} MB  ` +
      `RSS ${(before / 1e6).toFixed(0)} → peak ${(peak / 1e6).toFixed(0)} MB  factor ${factor.toFixed(1).padStart(5)}  ${ms.toFixed(0)} ms`,
  );
  return factor;
}

const cii = ciiInvoice(LINES);
const ubl = ublInvoice(LINES);
const pdf = await basePdf(3);
const meta = metadataWithLines(LINES);
const hybrid = await facturxPdf(base, pdf, meta);
const factors: number[] = [];
// Each twice: the first run of a path also loads its code and starts the worker thread.
for (let round = 0; round < 2; round++) {
  factors.push(
    await measure(`validate CII ${LINES} lines`, '/v1/validate', [
      { name: 'file', value: cii, filename: 'a.xml', contentType: 'application/xml' },
    ]),
  );
  factors.push(
    await measure(`validate UBL ${LINES} lines`, '/v1/validate', [
      { name: 'file', value: ubl, filename: 'a.xml', contentType: 'application/xml' },
    ]),
  );
  factors.push(
    await measure(`validate Factur-X PDF ${LINES} lines`, '/v1/validate', [
      { name: 'file', value: hybrid, filename: 'a.pdf', contentType: 'application/pdf' },
    ]),
  );
  factors.push(
    await measure(`extract CII ${LINES} lines`, '/v1/extract', [
      { name: 'file', value: cii, filename: 'a.xml', contentType: 'application/xml' },
    ]),
  );
  factors.push(
    await measure(`extract Factur-X PDF ${LINES} lines`, '/v1/extract', [
      { name: 'file', value: hybrid, filename: 'a.pdf', contentType: 'application/pdf' },
    ]),
  );
  factors.push(await measure(`xml ${LINES} lines`, '/v1/xml', [{ name: 'metadata', value: JSON.stringify(meta) }]));
  factors.push(
    await measure(`convert ${LINES} lines`, '/v1/convert', [
      { name: 'pdf', value: pdf, filename: 'a.pdf', contentType: 'application/pdf' },
      { name: 'metadata', value: JSON.stringify(meta) },
    ]),
  );
  factors.push(
    await measure(`merge CII ${LINES} lines`, '/v1/merge', [
      { name: 'pdf', value: pdf, filename: 'a.pdf', contentType: 'application/pdf' },
      { name: 'xml', value: cii, filename: 'a.xml', contentType: 'application/xml' },
    ]),
  );
}
console.log(`largest factor: ${Math.max(...factors).toFixed(1)}`);
child.kill('SIGTERM');
process.exit(0);
