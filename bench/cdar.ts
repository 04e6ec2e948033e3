/**
 * French lifecycle status messages (CDAR D22B), in-process: building one from JSON (buildStatusMessage: shape check,
 * XML, the XSD and BR-FR-CDV self-check), and validating one (what /v1/validate runs for a CDAR upload: parse, the
 * CDAR XSD layer, BR-FR-CDV), split into its stages; wall and CPU time per message, median and p99 (ms), over the
 * published examples (a 212 payment received, a 207 dispute with its data, a 200 deposit). Target: validation
 * ≤ 0.1 ms per message.
 * Run: node --import tsx bench/cdar.ts [--quick]
 */
import { performance } from 'node:perf_hooks';
import { exampleFor } from '../src/cdar/examples.js';
import { buildStatusMessage } from '../src/cdar/build.js';
import { validateCdarDocument } from '../src/cdar/validate.js';
import { runBrFrCdv } from '../src/rules/br-fr-cdv/index.js';
import { parseXml } from '../src/xml/dom.js';
import { cdarXsdFindings } from '../src/cdar/validate.js';
import { stats } from './_timing.js';

const quick = process.argv.includes('--quick');
const N = quick ? 2_000 : 20_000;

function timeIt(fn: () => unknown): { median: number; p99: number; cpu: number } {
  for (let i = 0; i < Math.min(2_000, N); i++) fn();
  const ts: number[] = [];
  const cpu0 = process.cpuUsage();
  // Timed in groups of 10: one call is ~µs, below the clock's useful resolution.
  for (let i = 0; i < N / 10; i++) {
    const t = performance.now();
    for (let k = 0; k < 10; k++) fn();
    ts.push((performance.now() - t) / 10);
  }
  const cpu = process.cpuUsage(cpu0);
  return { ...stats(ts), cpu: (cpu.user + cpu.system) / 1000 / N };
}

const cell = (s: { median: number; p99: number; cpu: number }) =>
  `${s.median.toFixed(4).padStart(8)} ${s.p99.toFixed(4).padStart(8)} ${s.cpu.toFixed(4).padStart(8)}`;

console.log(`CDAR status messages, ${N} runs each; ms per message: median, p99 (wall), CPU`);
console.log(`${'message'.padEnd(34)} ${'step'.padEnd(28)} ${'median'.padStart(8)} ${'p99'.padStart(8)} ${'cpu'.padStart(8)}`);
for (const code of ['212', '207', '200']) {
  const json = exampleFor(code);
  const xml = buildStatusMessage(json).xml;
  const bytes = new TextEncoder().encode(xml);
  const doc = parseXml(bytes);
  const label = `${code} (${bytes.length} bytes)`;
  const rows: [string, () => unknown][] = [
    ['validate: parse + XSD + rules', () => validateCdarDocument(parseXml(bytes))],
    ['  parse', () => parseXml(bytes)],
    ['  XSD layer (parsed)', () => cdarXsdFindings(doc)],
    ['  BR-FR-CDV (parsed)', () => runBrFrCdv(doc)],
    ['build from JSON (+ self-check)', () => buildStatusMessage(json)],
  ];
  for (const [step, fn] of rows) console.log(`${label.padEnd(34)} ${step.padEnd(28)} ${cell(timeIt(fn))}`);
}
