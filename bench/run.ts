/** `npm run bench`: every benchmark of bench/, one after another, each in its own process. */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== bench/${file}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
