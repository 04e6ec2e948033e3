#!/usr/bin/env node
// The `einvoice` command. An installed package runs the compiled CLI (dist/). In a repository checkout without a
// build (or with EINVOICE_FROM_SOURCE=1) it runs the TypeScript sources through tsx (a dev dependency); run
// `npm run build` to use the compiled code there too.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
const source = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

if (existsSync(dist) && process.env.EINVOICE_FROM_SOURCE !== '1') {
  const { main } = await import(new URL('../dist/src/cli/main.js', import.meta.url).href);
  process.exitCode = await main(process.argv.slice(2));
} else if (existsSync(source)) {
  let tsx;
  try {
    tsx = import.meta.resolve('tsx');
  } catch {
    process.stderr.write('einvoice: no build (dist/) and no tsx to run the sources; run `npm ci && npm run build`\n');
    process.exit(2);
  }
  const run = spawnSync(process.execPath, ['--import', tsx, source, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = run.status ?? 2;
} else {
  process.stderr.write('einvoice: the package has no dist/ build\n');
  process.exitCode = 2;
}
