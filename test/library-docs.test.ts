/**
 * The library: every example of docs/library.md runs (against the sources, 'einvoice-service' mapped to
 * src/lib/index.ts), and importing the library loads nothing of fastify.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { convert, LicenseRequiredError, toXml, validate } from '../src/lib/index.js';
import { makePdf, ROOT, TSX } from './cli-fixtures.js';
import { testKeys, testLicense } from './helpers.js';
import { SYNC_CHILD } from './spawned.js';

const LIB = pathToFileURL(join(ROOT, 'src/lib/index.ts')).href;

function examples(): { title: string; code: string }[] {
  const md = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
  const out: { title: string; code: string }[] = [];
  let title = '';
  const re = /^## (.+)$|^```js\n([\s\S]*?)^```$/gm;
  for (let m; (m = re.exec(md)); ) {
    if (m[1]) title = m[1];
    else out.push({ title, code: m[2] });
  }
  return out;
}

function runModule(dir: string, file: string, code: string, env: Record<string, string | undefined> = {}, extraArgs: string[] = []) {
  writeFileSync(join(dir, file), code);
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  for (const k of Object.keys(childEnv)) if (childEnv[k] === undefined) delete childEnv[k];
  return spawnSync(process.execPath, ['--import', TSX, ...extraArgs, join(dir, file)], {
    ...SYNC_CHILD,
    cwd: dir,
    env: childEnv as NodeJS.ProcessEnv,
    encoding: 'utf8',
  });
}

test('every example of docs/library.md runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-lib-'));
  try {
    writeFileSync(join(dir, 'metadata.json'), JSON.stringify(DOMESTIC_EXAMPLE));
    writeFileSync(join(dir, 'invoice.xml'), (await toXml(DOMESTIC_EXAMPLE)).xml);
    const plain = await makePdf();
    writeFileSync(join(dir, 'plain.pdf'), plain);
    writeFileSync(join(dir, 'pdfa3.pdf'), await makePdf(true));
    writeFileSync(join(dir, 'invoice.pdf'), (await convert(plain, DOMESTIC_EXAMPLE)).pdf);
    const list = examples();
    assert.ok(list.length >= 7, `expected an example per function, found ${list.length}`);
    // Each example is a module of its own; one process imports them in turn (one load of the engine).
    list.forEach((ex, i) => writeFileSync(join(dir, `example-${i}.mts`), ex.code.replace(/from 'einvoice-service'/g, `from '${LIB}'`)));
    const runner = list
      .map(
        (ex, i) =>
          `try { await import('./example-${i}.mts'); console.log(${JSON.stringify(`passed: ${ex.title}`)}); } catch (err) { console.error(${JSON.stringify(`example "${ex.title}" failed:`)}, err); process.exitCode = 1; }`,
      )
      .join('\n');
    const run = runModule(dir, 'run-examples.mts', runner, { LICENSE_KEY: undefined });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.split('\n').filter((l) => l.startsWith('passed: ')).length, list.length, run.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Resolve hook refusing any module under node_modules/fastify or node_modules/@fastify. */
const NO_FASTIFY_HOOK = `
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (/[\\\\/]node_modules[\\\\/](fastify|@fastify)[\\\\/]/.test(r.url)) throw new Error('FASTIFY_LOADED ' + r.url);
  return r;
}`;

test('importing and using the library loads nothing of fastify (and the check does catch the HTTP app)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-nofastify-'));
  try {
    writeFileSync(join(dir, 'hook.mjs'), NO_FASTIFY_HOOK);
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hook.mjs')).href)});\n`,
    );
    const hook = ['--import', pathToFileURL(join(dir, 'register.mjs')).href];
    const lib = runModule(
      dir,
      'use-lib.mts',
      `import { validate, toXml, extract, versions } from '${LIB}';
       import { DOMESTIC_EXAMPLE } from '${pathToFileURL(join(ROOT, 'src/metadata/examples.ts')).href}';
       const { xml } = await toXml(DOMESTIC_EXAMPLE);
       const r = await validate(Buffer.from(xml));
       await extract(Buffer.from(xml));
       await versions();
       if (!r.valid) throw new Error('not valid');
       console.log('ok');`,
      {},
      hook,
    );
    assert.equal(lib.status, 0, lib.stderr);
    assert.equal(lib.stdout.trim(), 'ok');
    // The control: the same hook refuses the HTTP app, so the check above can fail.
    const app = runModule(dir, 'use-app.mts', `await import('${pathToFileURL(join(ROOT, 'src/http/app.ts')).href}');`, {}, hook);
    assert.notEqual(app.status, 0);
    assert.match(app.stderr, /FASTIFY_LOADED/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('validate: the PDF/A check is licensed as on the server (a key granting pdfa_validation, or LicenseRequiredError)', async () => {
  const pdf = (await convert(await makePdf(), DOMESTIC_EXAMPLE)).pdf;
  const licensed = { licenseKey: testLicense(), licensePublicKey: testKeys.publicKeyPem };
  const checked = await validate(pdf, { pdfa: true, ...licensed });
  assert.ok(checked.layers_executed.includes('pdfa3b'));
  assert.equal(typeof checked.pdfa_valid, 'boolean');
  const refused = (err: unknown) => err instanceof LicenseRequiredError && err.code === 'LICENSE_REQUIRED' && err.status === 403;
  await assert.rejects(validate(pdf, { pdfa: true, licenseKey: '', licensePublicKey: testKeys.publicKeyPem }), refused);
  const serializeOnly = testLicense({ features: ['serialize'] });
  await assert.rejects(validate(pdf, { pdfa: true, licenseKey: serializeOnly, licensePublicKey: testKeys.publicKeyPem }), refused);
  // Without the option no license is needed, and the layer does not run.
  const community = await validate(pdf, { licenseKey: '' });
  assert.ok(!community.layers_executed.includes('pdfa3b'));
});
