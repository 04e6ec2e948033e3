/**
 * The package as users get it: `npm pack` (which builds: prepack), then `npm install ./einvoice-service-*.tgz`
 * in an empty folder; there `npx einvoice validate` and `import { validate } from 'einvoice-service'` work, the
 * types are shipped, and tests, benchmarks and sources are not. Slow (a build and an install: minutes on a busy
 * machine), so not part of `npm test`: run by `npm run test:pack` (and .ci/run).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { SYNC_CHILD } from './spawned.js';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { toXml } from '../src/lib/index.js';
import { invalidXml, ROOT } from './cli-fixtures.js';

test('npm pack → npm install in an empty folder → the CLI and the library work there', { timeout: 15 * 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-pack-'));
  try {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
        // prepack builds: minutes on a loaded machine, but not without end (a synchronous child blocks the test's timer).
        timeout: 600_000,
        killSignal: 'SIGKILL',
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    const files: string[] = packed[0].files.map((f: { path: string }) => f.path);
    assert.ok(files.includes('bin/einvoice.js'));
    assert.ok(files.includes('dist/src/lib/index.js') && files.includes('dist/src/lib/index.d.ts'));
    assert.ok(files.includes('dist/src/cli/worker.js'));
    // The browser UI's static files (served at /, and the report view of validate --format html).
    for (const f of ['index.html', 'app.js', 'report-view.js', 'ui.css', 'report.css']) assert.ok(files.includes(`assets/ui/${f}`), f);
    assert.deepEqual(
      files.filter((f) => /^(test|bench|scripts|src)\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts'))),
      [],
      'no tests, benchmarks, scripts or TypeScript sources are shipped',
    );
    const tgz = join(dir, packed[0].filename);

    const app = join(dir, 'app');
    execFileSync('mkdir', ['-p', app], SYNC_CHILD);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tgz], {
      timeout: 600_000,
      killSignal: 'SIGKILL',
      cwd: app,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    assert.ok(existsSync(join(app, 'node_modules/.bin/einvoice')));

    writeFileSync(join(app, 'good.xml'), (await toXml(DOMESTIC_EXAMPLE)).xml);
    writeFileSync(join(app, 'bad.xml'), invalidXml());
    const ok = spawnSync('npx', ['--no-install', 'einvoice', 'validate', 'good.xml', '--format', 'json'], {
      cwd: app,
      encoding: 'utf8',
      ...SYNC_CHILD,
    });
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).valid, true);
    const bad = spawnSync('npx', ['--no-install', 'einvoice', 'validate', '.', '--jobs', '2'], {
      cwd: app,
      encoding: 'utf8',
      ...SYNC_CHILD,
    });
    assert.equal(bad.status, 1, bad.stderr);
    assert.match(bad.stdout, /✗ bad\.xml .*2 errors/); // BR-CO-15 and BR-CO-16, each once (not again for fx-en16931)
    assert.match(bad.stdout, /2 files, 1 valid, 1 invalid, 0 unreadable/);
    // The HTML report loads the UI's view from the installed package's assets.
    const html = spawnSync('npx', ['--no-install', 'einvoice', 'validate', '.', '--format', 'html', '-q'], {
      cwd: app,
      encoding: 'utf8',
      ...SYNC_CHILD,
    });
    assert.equal(html.status, 1, html.stderr);
    assert.equal((html.stdout.match(/<section class="file /g) ?? []).length, 2);
    assert.match(html.stdout, /data-rule="BR-CO-15"/);
    const version = spawnSync('npx', ['--no-install', 'einvoice', '--version'], { cwd: app, encoding: 'utf8', ...SYNC_CHILD });
    assert.match(version.stdout, /^einvoice \d+\.\d+\.\d+/);

    writeFileSync(
      join(app, 'use.mjs'),
      `import { readFileSync } from 'node:fs';
       import { validate, InvalidInputError } from 'einvoice-service';
       const r = await validate(readFileSync('bad.xml'));
       let code;
       try { await validate(Buffer.from('hello')); } catch (err) { code = err instanceof InvalidInputError ? err.code : 'wrong class'; }
       console.log(JSON.stringify({ valid: r.valid, rules: r.errors.map((e) => e.rule_id), code }));`,
    );
    const lib = spawnSync(process.execPath, ['use.mjs'], { cwd: app, encoding: 'utf8', ...SYNC_CHILD });
    assert.equal(lib.status, 0, lib.stderr);
    const out = JSON.parse(lib.stdout);
    assert.equal(out.valid, false);
    assert.ok(out.rules.includes('BR-CO-15'));
    assert.equal(out.code, 'NOT_PDF_OR_XML');
    assert.ok(readdirSync(join(app, 'node_modules/einvoice-service/dist/src/lib')).includes('index.d.ts'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
