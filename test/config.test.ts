import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { SYNC_CHILD } from './spawned.js';
import { ConfigError, loadConfig } from '../src/config.js';

test('defaults: 0.0.0.0:8080, 10 MB uploads, 1 worker for invoices over 128 KB, community', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.maxUploadSizeMb, 10);
  assert.equal(c.workers, 1);
  assert.equal(c.processes, 1);
  assert.equal(c.validationInlineMaxKb, 128);
  assert.equal(c.logLevel, 'info');
  assert.equal(c.metricsEnabled, false);
  assert.equal(c.licenseKey, undefined);
  assert.equal(c.bodyTimeoutS, 30);
  assert.equal(c.requestTimeoutS, 120);
  assert.equal(c.shutdownDelayS, 0);
  assert.equal(c.shutdownGraceS, 25);
  assert.equal(c.maxMemoryMb, undefined, 'derived from the machine at start-up');
});

test('transport settings: timeouts, shutdown and the memory ceiling are read and bounded', () => {
  const c = loadConfig({
    BODY_TIMEOUT_S: '5',
    REQUEST_TIMEOUT_S: '60',
    SHUTDOWN_DELAY_S: '3',
    SHUTDOWN_GRACE_S: '20',
    MAX_MEMORY_MB: '2048',
  });
  assert.deepEqual([c.bodyTimeoutS, c.requestTimeoutS, c.shutdownDelayS, c.shutdownGraceS, c.maxMemoryMb], [5, 60, 3, 20, 2048]);
  for (const [env, variable] of [
    [{ BODY_TIMEOUT_S: '0' }, 'BODY_TIMEOUT_S'],
    [{ REQUEST_TIMEOUT_S: 'soon' }, 'REQUEST_TIMEOUT_S'],
    [{ SHUTDOWN_GRACE_S: '0' }, 'SHUTDOWN_GRACE_S'],
    [{ SHUTDOWN_DELAY_S: '601' }, 'SHUTDOWN_DELAY_S'],
    [{ MAX_MEMORY_MB: '32' }, 'MAX_MEMORY_MB'],
  ] as const) {
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && err.variable === variable,
    );
  }
});

test('bad values name the variable', () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ MAX_UPLOAD_SIZE_MB: '0' }, 'MAX_UPLOAD_SIZE_MB'],
    [{ WORKERS: '-1' }, 'WORKERS'],
    [{ VALIDATION_INLINE_MAX_KB: 'small' }, 'VALIDATION_INLINE_MAX_KB'],
    [{ VALIDATION_INLINE_MAX_KB: '-5' }, 'VALIDATION_INLINE_MAX_KB'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ METRICS_ENABLED: 'maybe' }, 'METRICS_ENABLED'],
    [{ PROCESSES: '0' }, 'PROCESSES'],
    [{ PROCESSES: '65' }, 'PROCESSES'],
    [{ PROCESSES: 'all' }, 'PROCESSES'],
  ];
  for (const [env, variable] of cases) {
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.startsWith(variable),
    );
  }
});

test('a bad value stops the process with one line naming the variable', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: 'eighty', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    ...SYNC_CHILD,
  });
  assert.equal(run.status, 2);
  const lines = run.stderr
    .trim()
    .split('\n')
    .filter((l) => !/nodedir|ExperimentalWarning/.test(l));
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0], /^configuration error: PORT: must be a whole number/);
});

test('PROCESSES: a whole number, or auto for one per core (at most 64)', () => {
  assert.equal(loadConfig({ PROCESSES: '3' }).processes, 3);
  assert.equal(loadConfig({ PROCESSES: 'auto' }, 4).processes, 4);
  assert.equal(loadConfig({ PROCESSES: 'AUTO' }, 1).processes, 1);
  assert.equal(loadConfig({ PROCESSES: 'auto' }, 200).processes, 64);
});

test('MAX_RESTARTS_PER_MINUTE: 5 by default, a whole number up to 10,000', () => {
  assert.equal(loadConfig({}).maxRestartsPerMinute, 5);
  assert.equal(loadConfig({ MAX_RESTARTS_PER_MINUTE: '0' }).maxRestartsPerMinute, 0);
  assert.equal(loadConfig({ MAX_RESTARTS_PER_MINUTE: '1000' }).maxRestartsPerMinute, 1000);
  for (const bad of ['many', '-1', '10001']) {
    assert.throws(
      () => loadConfig({ MAX_RESTARTS_PER_MINUTE: bad }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'MAX_RESTARTS_PER_MINUTE',
    );
  }
});
