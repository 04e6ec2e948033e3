/**
 * Conformance: the whole corpus validated as the Indexed Job of deploy/kubernetes/batch-job.yaml validates a volume
 * (4 pods, one process per completion index with the container's own arguments, all at once; then the summary Job)
 * gives every file the verdict of one unsharded run of the same command: status, counts and every finding's rule,
 * severity and place. The corpus is read from EINVOICE_CORPUS (default ../shared/corpus).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { differences, runIndexedJob, runUnsharded, verdicts } from '../batch-shards.js';

const CORPUS = path.resolve(process.env.EINVOICE_CORPUS ?? '../shared/corpus');

test('the corpus in 4 shards, run as the Indexed Job runs them, gets the verdicts of one unsharded run', {
  skip: !existsSync(CORPUS) && `no corpus at ${CORPUS} (set EINVOICE_CORPUS to its folder)`,
  timeout: 30 * 60_000,
}, async () => {
  const reports = mkdtempSync(path.join(tmpdir(), 'shard-agreement-'));
  try {
    // One after the other: the machine's cores go to each run in turn.
    const single = await runUnsharded(CORPUS);
    assert.equal(single.code, 0, single.stderr);
    const job = await runIndexedJob(CORPUS, reports);
    for (const [i, pod] of job.pods.entries()) assert.equal(pod.code, 0, `pod ${i}: ${pod.stderr}`);
    assert.equal(job.summary.code, 0, job.summary.stderr);

    const whole = verdicts(single.stdout);
    assert.ok(whole.size > 2000, `${whole.size} files`);
    const merged = verdicts(job.merged);
    const diff = differences(merged, whole);
    assert.deepEqual(diff, [], `${diff.length} files differ (first 20 shown)`);
    const summary = JSON.parse(job.summary.stdout);
    assert.equal(summary.files, whole.size);
    console.log(`${whole.size} files: ${summary.valid} valid, ${summary.invalid} invalid, ${summary.unreadable} unreadable, in both runs`);
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
});
