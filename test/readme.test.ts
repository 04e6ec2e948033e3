/**
 * The README cannot rot: its shell blocks are run here. The first block must hold exactly the two set-up commands
 * (`npm ci && npm start`, `npm ci && npm test`); they are checked against package.json (running them here would
 * reinstall and recurse). Every other ```sh / ```bash block is run with bash, in a scratch folder holding a copy of
 * examples/, against the real service listening on a free port (localhost:8080 is rewritten to it). curl gets
 * --fail-with-body, so an HTTP error fails the block; each block must exit 0, JSON it prints must parse, and every
 * file it writes with -o must be a non-empty PDF or XML as its name says.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { communityApp } from './helpers.js';

const run = promisify(execFile);
const readme = readFileSync('README.md', 'utf8');
const blocks = [...readme.matchAll(/^```(sh|bash)\n([\s\S]*?)^```$/gm)].map((m) => m[2]);
const commands = (block: string) =>
  block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));

let app: FastifyInstance;
let port = 0;
let dir = '';
before(async () => {
  app = await communityApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
  dir = mkdtempSync(path.join(tmpdir(), 'readme-'));
  cpSync('examples', path.join(dir, 'examples'), { recursive: true });
});
after(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the README is for users: at most 12 KB, the two set-up commands first', () => {
  assert.ok(Buffer.byteLength(readme) <= 12 * 1024, `README is ${Buffer.byteLength(readme)} bytes`);
  assert.ok(blocks.length >= 6, `shell blocks: ${blocks.length}`);
  assert.ok(readme.indexOf('```') < readme.indexOf('\n## '), 'the set-up block comes before the first section');
  assert.deepEqual(commands(blocks[0]), ['npm ci && npm start', 'npm ci && npm test']);
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  assert.ok(pkg.scripts.start && pkg.scripts.test, 'npm start and npm test exist');
  assert.ok(existsSync('package-lock.json'), 'npm ci needs the lock file');
});

test('every other shell block of the README runs against a started server', async () => {
  const rest = blocks.slice(1);
  for (const block of rest) {
    // Any npm command in a tour block must name a script that exists.
    for (const c of commands(block).filter((l) => l.startsWith('npm run '))) {
      const script = c.split(/\s+/)[2];
      assert.ok(JSON.parse(readFileSync('package.json', 'utf8')).scripts[script], `npm run ${script} exists`);
    }
    const script = block.replaceAll('localhost:8080', `127.0.0.1:${port}`).replace(/\bcurl /g, 'curl --fail-with-body --max-time 60 ');
    let stdout: string;
    try {
      ({ stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], {
        cwd: dir,
        timeout: 120_000,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
      }));
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      assert.fail(`README block failed:\n${block}\n${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
    if (stdout.trimStart().startsWith('{')) {
      const body = JSON.parse(stdout);
      assert.ok(!('status' in body && body.status >= 400), `${block}\n${stdout.slice(0, 300)}`);
    }
    for (const [, file] of script.matchAll(/-o\s+(\S+)/g)) {
      const bytes = readFileSync(path.join(dir, file));
      assert.ok(bytes.length > 0, file);
      if (file.endsWith('.pdf')) assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', file);
      if (file.endsWith('.xml')) assert.match(bytes.subarray(0, 100).toString('utf8'), /^<\?xml/, file);
      if (file.endsWith('.html')) assert.match(bytes.subarray(0, 100).toString('utf8'), /^<!DOCTYPE html>/, file);
    }
  }
  assert.ok(rest.length >= 5);
});

test('the tour gives what it promises: a valid Factur-X PDF whose data reads back', async () => {
  const { stdout: validation } = await run(
    'curl',
    ['-sS', '--fail-with-body', '--max-time', '60', '-F', 'file=@factur-x.pdf', `http://127.0.0.1:${port}/v1/validate`],
    { cwd: dir, timeout: 120_000, killSignal: 'SIGKILL' },
  );
  const v = JSON.parse(validation);
  assert.equal(v.valid, true, validation.slice(0, 500));
  assert.equal(v.format, 'factur-x');
  const { stdout: extraction } = await run(
    'curl',
    ['-sS', '--fail-with-body', '--max-time', '60', '-F', 'file=@merged.pdf', `http://127.0.0.1:${port}/v1/extract`],
    { cwd: dir, timeout: 120_000, killSignal: 'SIGKILL' },
  );
  const x = JSON.parse(extraction);
  assert.equal(x.xml_extracted, true);
  const meta = JSON.parse(readFileSync(path.join(dir, 'examples/invoice.json'), 'utf8'));
  assert.equal(x.invoice_json.invoice_number, meta.invoice_number);
  assert.equal(x.invoice_json.seller.name, meta.seller.name);
});
