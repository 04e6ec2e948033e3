/**
 * InlineBatch (src/validation/inline-batch.ts): the inline jobs of one turn of the event loop run together
 * and are settled only after the last one, in order; jobs written as stages run in rounds; a failing job
 * rejects only its own caller; a batch takes as many jobs as fit its time bound at the recent cost per
 * job, and the rest runs in the next turn.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { InlineBatch } from '../src/validation/inline-batch.js';
import { facturxPdf, fixturePath } from './fixtures.js';

/** Busy-waits `ms` (a job that does CPU work, as validation does). */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('InlineBatch', () => {
  test('jobs of one turn all run before any of them is settled; results and errors go to their own callers', async () => {
    const batch = new InlineBatch(1_000);
    const events: string[] = [];
    const job = (name: string, fail = false) =>
      batch
        .run(async () => {
          events.push(`run ${name}`);
          if (fail) throw new Error(`bad ${name}`);
          return name.toUpperCase();
        })
        .then(
          (value) => events.push(`done ${value}`),
          (err: Error) => events.push(`failed ${err.message}`),
        );
    await Promise.all([job('a'), job('b', true), job('c')]);
    assert.deepEqual(events, ['run a', 'run b', 'run c', 'done A', 'failed bad b', 'done C']);
    assert.deepEqual(batch.stats, { batches: 1, jobs: 3 });
  });

  test('a job queued while the batch runs joins it', async () => {
    const batch = new InlineBatch(1_000);
    let late: Promise<string> | undefined;
    const first = batch.run(async () => {
      late = batch.run(async () => 'late');
      return 'first';
    });
    assert.equal(await first, 'first');
    assert.equal(await late, 'late');
    assert.deepEqual(batch.stats, { batches: 1, jobs: 2 });
  });

  test('a batch takes the jobs that fit its time bound at the recent cost per job; the others follow in later turns, in order', async () => {
    const batch = new InlineBatch(5);
    const run = (count: number, ms: number) => Promise.all(Array.from({ length: count }, (_, i) => batch.run(async () => (spin(ms), i))));
    // Cheap jobs: the first batch takes 5 (the starting estimate is 1 ms per job), the cost falls, and all fit.
    assert.deepEqual(await run(4, 0.1), [0, 1, 2, 3]);
    assert.deepEqual(batch.stats, { batches: 1, jobs: 4 });
    // Expensive jobs: once their cost is known, a batch takes one or two of them.
    await run(3, 4);
    const before = { ...batch.stats };
    const settled: number[] = [];
    await Promise.all(Array.from({ length: 6 }, (_, i) => batch.run(async () => (spin(4), i)).then((value) => settled.push(value))));
    assert.deepEqual(settled, [0, 1, 2, 3, 4, 5]);
    assert.equal(batch.stats.jobs - before.jobs, 6);
    assert.ok(batch.stats.batches - before.batches >= 3, `${batch.stats.batches - before.batches} batches for 6 jobs of 4 ms`);
  });

  test('jobs written as stages run in rounds: every first stage, then every second; a failing stage rejects its own job only', async () => {
    const batch = new InlineBatch(1_000);
    const events: string[] = [];
    async function* job(name: string, stages: number, failAt = -1) {
      for (let i = 1; i <= stages; i++) {
        events.push(`${name}${i}`);
        if (i === failAt) throw new Error(`${name} failed`);
        if (i < stages) yield;
      }
      return name;
    }
    const results = await Promise.allSettled([
      batch.runStages(() => job('a', 3)),
      batch.runStages(() => job('b', 2, 2)),
      batch.runStages(() => job('c', 3)),
      batch.run(async () => (events.push('d'), 'd')),
    ]);
    assert.deepEqual(events, ['a1', 'b1', 'c1', 'd', 'a2', 'b2', 'c2', 'a3', 'c3']);
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      ['a', 'b failed', 'c', 'd'],
    );
    assert.deepEqual(batch.stats, { batches: 1, jobs: 4 });
  });

  test('a lone job is run and settled in the next turn', async () => {
    const batch = new InlineBatch();
    let ran = false;
    const pending = batch.run(async () => {
      ran = true;
      return 1;
    });
    assert.equal(ran, false, "nothing runs on the caller's stack");
    assert.equal(await pending, 1);
    assert.equal(ran, true);
  });
});

describe('validation runner: inline jobs are batched', () => {
  test('concurrent inline validations give the same results as one at a time', async () => {
    const { createValidationRunner } = await import('../src/validation/runner.js');
    const runner = createValidationRunner({ workers: 0, timeoutMs: 60_000 });
    const valid = readFileSync(fixturePath('cen/examples/ubl/ubl-tc434-example2.xml'));
    const notXml = Buffer.from('not an invoice');
    const alone = await runner.validate(valid);
    const results = await Promise.allSettled([runner.validate(valid), runner.validate(notXml), runner.validate(valid)]);
    assert.equal(results[0].status, 'fulfilled');
    assert.deepEqual((results[0] as PromiseFulfilledResult<unknown>).value, alone);
    assert.equal(results[1].status, 'rejected');
    assert.equal(((results[1] as PromiseRejectedResult).reason as Error).name, 'IngestError');
    assert.deepEqual((results[2] as PromiseFulfilledResult<unknown>).value, alone);
  });
});

describe('validation runner: a batch of different uploads validated stage by stage', () => {
  test('every result equals that upload validated alone, broken uploads included', async () => {
    const { createValidationRunner } = await import('../src/validation/runner.js');
    const runner = createValidationRunner({ workers: 0, timeoutMs: 60_000 });
    const uploads: [string, Buffer][] = [
      'cen/examples/cii/CII_example2.xml',
      'cen/examples/ubl/ubl-tc434-example2.xml',
      'cen/examples/cii/CII_example5.xml',
      'kosit/instances/cii/cii-br-de-1-test.xml',
      'cen/unit/Invoice-unit-UBL/BR-01.test1.xml',
      'cen/examples/ubl/ubl-tc434-creditnote1.xml',
    ].map((file) => [file, readFileSync(fixturePath(file))]);
    uploads.splice(5, 0, ['a Factur-X PDF', await facturxPdf()]);
    uploads.splice(3, 0, ['not XML', Buffer.from('not an invoice')]);
    const outcome = (p: Promise<unknown>) =>
      p.then(
        (value) => ({ value }),
        (err: Error) => ({ error: `${err.name}: ${err.message}` }),
      );
    const alone = [];
    for (const [, bytes] of uploads) alone.push(await outcome(runner.validate(bytes)));
    const together = await Promise.all(uploads.map(([, bytes]) => outcome(runner.validate(bytes))));
    for (let i = 0; i < uploads.length; i++) assert.deepEqual(together[i], alone[i], uploads[i][0]);
    // The comparison means something only if the uploads differ in what they yield.
    assert.ok(
      alone.some((r) => 'error' in r) && alone.some((r) => 'value' in r && (r.value as { valid: boolean }).valid === false),
      'valid, invalid and broken uploads',
    );
  });
});
