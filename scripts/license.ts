/**
 * Vendor tool: generate a license key pair and issue licenses.
 *
 *   npm run license -- keygen --out DIR
 *       writes DIR/license-private.pem (keep it secret) and DIR/license-public.pem (give it to the
 *       service as LICENSE_PUBLIC_KEY, or build it in as the default key).
 *   npm run license -- issue --private-key FILE --licensee NAME --expires YYYY-MM-DD [--features a,b] [--id ID]
 *       prints the license key (one Base64 value) for LICENSE_KEY.
 *   npm run license -- verify --key KEY [--public-key FILE]
 *       prints what the service would make of a key.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LICENSE_PUBLIC_KEY, generateLicenseKeyPair, issueLicense, verifyLicense } from '../src/license/license.js';

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

function fail(message: string): never {
  process.stderr.write(`license: ${message}\n`);
  process.exit(2);
}

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case 'keygen': {
    const out = option(args, 'out') ?? fail('keygen needs --out DIR');
    mkdirSync(out, { recursive: true });
    const { privateKeyPem, publicKeyPem } = generateLicenseKeyPair();
    writeFileSync(join(out, 'license-private.pem'), privateKeyPem, { mode: 0o600 });
    writeFileSync(join(out, 'license-public.pem'), publicKeyPem);
    process.stdout.write(`wrote ${join(out, 'license-private.pem')} and ${join(out, 'license-public.pem')}\n`);
    break;
  }
  case 'issue': {
    const keyFile = option(args, 'private-key') ?? fail('issue needs --private-key FILE');
    const licensee = option(args, 'licensee') ?? fail('issue needs --licensee NAME');
    const expires = option(args, 'expires') ?? fail('issue needs --expires YYYY-MM-DD');
    if (Number.isNaN(Date.parse(expires))) fail(`--expires "${expires}" is not a date`);
    const features = option(args, 'features')
      ?.split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const key = issueLicense(readFileSync(keyFile, 'utf8'), {
      licensee,
      issued_at: new Date().toISOString(),
      expires_at: expires,
      ...(features ? { features } : {}),
      ...(option(args, 'id') ? { license_id: option(args, 'id') } : {}),
    });
    process.stdout.write(`${key}\n`);
    break;
  }
  case 'verify': {
    const key = option(args, 'key') ?? fail('verify needs --key KEY');
    const pub = option(args, 'public-key');
    process.stdout.write(`${JSON.stringify(verifyLicense(key, pub ? readFileSync(pub, 'utf8') : DEFAULT_LICENSE_PUBLIC_KEY), null, 2)}\n`);
    break;
  }
  default:
    fail(
      'usage: npm run license -- keygen --out DIR | issue --private-key FILE --licensee NAME --expires YYYY-MM-DD [--features a,b] | verify --key KEY [--public-key FILE]',
    );
}
