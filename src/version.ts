/** The service version (also the OpenAPI info.version), from package.json. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/** Repository root: works from src/ (tsx) and from dist/src/ (compiled). */
export const PROJECT_ROOT = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === 'einvoice-service') return dir;
    } catch {
      // keep walking up
    }
    dir = dirname(dir);
  }
  return process.cwd();
})();

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
export const SERVICE_VERSION: string = pkg.version;
