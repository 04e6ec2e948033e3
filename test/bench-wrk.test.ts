/**
 * The benchmarks' reading of wrk's report (bench/_wrk.ts): the figures the README quotes come from it,
 * so a misread unit (wrk prints µs, ms and s) or a missed error count would go into the README unseen.
 * The report below is wrk 4.1's format, as printed with --latency.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseWrkOutput, toMs } from '../bench/_wrk.js';

const REPORT = `Running 15s test @ http://127.0.0.1:41234/v1/validate
  1 threads and 8 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     8.61ms    2.43ms  31.20ms   77.15%
    Req/Sec   925.40     61.22     1.03k    70.67%
  Latency Distribution
     50%    8.33ms
     75%    9.71ms
     90%   11.50ms
     99%   16.49ms
  13823 requests in 15.02s, 5.10MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:    920.31
Transfer/sec:    347.60KB
`;

test('wrk report: throughput, counts, errors and latency percentiles in ms', () => {
  assert.deepEqual(parseWrkOutput(REPORT), {
    requestsPerSecond: 920.31,
    requests: 13823,
    non2xx: 4,
    errors: 3,
    latencyMs: { p50: 8.33, p99: 16.49 },
  });
});

test('wrk report without errors or non-2xx lines counts none', () => {
  const clean = REPORT.replace(/ {2}Socket errors.*\n/, '').replace(/ {2}Non-2xx.*\n/, '');
  const r = parseWrkOutput(clean);
  assert.equal(r.errors, 0);
  assert.equal(r.non2xx, 0);
});

test('wrk latency units: microseconds, milliseconds and seconds', () => {
  assert.equal(toMs('812.00us'), 0.812);
  assert.equal(toMs('1.25ms'), 1.25);
  assert.equal(toMs('2.5s'), 2500);
  assert.throws(() => toMs('3m'), /unexpected wrk latency/);
});

test('text that is not a wrk report is refused, not read as zeros', () => {
  assert.throws(() => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused\n'), /not a wrk report/);
});
