/**
 * The Indexed Job of deploy/kubernetes/batch-job.yaml, run as its pods run it (one process per completion index, the
 * container's own arguments, all at once; test/batch-shards.ts), then its summary Job: the merged report gives every
 * file exactly the verdict of one unsharded run of the same command. Inputs: the fixture invoices (CEN, KoSIT and
 * Lunatech files) and the writer's folder of valid, invalid, broken and hostile files.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { differences, runIndexedJob, runSummary, runUnsharded, verdicts } from './batch-shards.js';
import { makeInvoiceFolder, ROOT } from './cli-fixtures.js';

const work = mkdtempSync(path.join(tmpdir(), 'deploy-batch-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('4 shards run as the Indexed Job runs them give the verdicts of one unsharded run; the summary counts them', async () => {
  const invoices = path.join(work, 'invoices');
  await makeInvoiceFolder(path.join(invoices, 'written'), { hostile: true });
  for (const set of ['cen', 'kosit', 'lunatech'])
    cpSync(path.join(ROOT, 'test/fixtures', set), path.join(invoices, set), { recursive: true });
  const reports = path.join(work, 'reports');
  mkdirSync(reports);

  const [job, single] = await Promise.all([runIndexedJob(invoices, reports), runUnsharded(invoices)]);
  assert.equal(job.shards, 4);
  for (const [i, pod] of job.pods.entries()) assert.equal(pod.code, 0, `pod ${i} (--fail-on never): ${pod.stderr}`);
  assert.equal(single.code, 0, single.stderr);

  const whole = verdicts(single.stdout);
  assert.ok(whole.size > 40, `${whole.size} files`);
  const statuses = new Set([...whole.values()].map((v) => JSON.parse(v)[0]));
  assert.deepEqual([...statuses].sort(), ['invalid', 'unreadable', 'valid'], 'the batch has every kind of verdict');

  // Every shard did part of the work, no file twice (verdicts() throws on a repeat), together all of them.
  const perShard = [0, 1, 2, 3].map((i) => verdicts(readFileSync(path.join(reports, `shard-${i}.jsonl`), 'utf8')));
  for (const [i, s] of perShard.entries()) assert.ok(s.size > 0 && s.size < whole.size, `shard ${i}: ${s.size} files`);
  const merged = verdicts(job.merged);
  assert.equal(
    merged.size,
    perShard.reduce((n, s) => n + s.size, 0),
  );
  assert.deepEqual(differences(merged, whole), []);

  assert.equal(job.summary.code, 0, job.summary.stderr);
  const summary = JSON.parse(job.summary.stdout);
  const count = (status: string) => [...whole.values()].filter((v) => JSON.parse(v)[0] === status).length;
  const sum = (i: number) => [...whole.values()].reduce((n, v) => n + JSON.parse(v)[i], 0);
  assert.deepEqual(summary, {
    shards: 4,
    files: whole.size,
    valid: count('valid'),
    invalid: count('invalid'),
    unreadable: count('unreadable'),
    errors: sum(2),
    warnings: sum(3),
  });
  assert.deepEqual(JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')), summary);
});

test('the summary Job fails (exit 2) when a shard has no report, or a report was cut short', async () => {
  const reports = path.join(work, 'hand-made');
  mkdirSync(reports);
  const line = (file: string, status: string, errors: number) =>
    `${JSON.stringify({ file, status, error_count: errors, warning_count: 1, valid: status === 'valid' })}\n`;
  for (let i = 0; i < 4; i++)
    writeFileSync(path.join(reports, `shard-${i}.jsonl`), line(`${i}.xml`, 'valid', 0) + line(`${i}b.xml`, 'invalid', 2));
  const ok = await runSummary(reports);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout), { shards: 4, files: 8, valid: 4, invalid: 4, unreadable: 0, errors: 8, warnings: 8 });
  assert.equal(readFileSync(path.join(reports, 'all.jsonl'), 'utf8').split('\n').filter(Boolean).length, 8);

  const shard1 = path.join(reports, 'shard-1.jsonl');
  writeFileSync(shard1, readFileSync(shard1, 'utf8').slice(0, -20));
  const cut = await runSummary(reports);
  assert.equal(cut.code, 2);
  assert.match(cut.stderr, /shard 1, line 2: not JSON/);

  rmSync(path.join(reports, 'shard-2.jsonl'));
  const missing = await runSummary(reports);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no report from shard\(s\) 2 of 4/);
});
