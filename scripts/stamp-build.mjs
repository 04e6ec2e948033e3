// Stamps dist/build-info.json with the git hash and build date, read by /diagnostics.
// Outside a git checkout the hash is "unknown".
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

// BUILD_GIT_HASH names it for builds without a .git folder (the container image: the Dockerfile's GIT_HASH argument).
let gitHash = process.env.BUILD_GIT_HASH?.trim() || 'unknown';
try {
  if (gitHash === 'unknown')
    gitHash =
      execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || 'unknown';
} catch {
  // not a git checkout
}
mkdirSync('dist', { recursive: true });
writeFileSync('dist/build-info.json', JSON.stringify({ git_hash: gitHash, build_date: new Date().toISOString() }, null, 2) + '\n');
