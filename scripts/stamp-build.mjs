// Stamps dist/build-info.json with the git hash and build date, read by /diagnostics.
// Outside a git checkout the hash is "unknown".
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

let gitHash = 'unknown';
try {
  gitHash =
    execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim() || 'unknown';
} catch {
  // not a git checkout
}
mkdirSync('dist', { recursive: true });
writeFileSync('dist/build-info.json', JSON.stringify({ git_hash: gitHash, build_date: new Date().toISOString() }, null, 2) + '\n');
