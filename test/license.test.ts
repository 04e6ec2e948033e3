import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LICENSE_PUBLIC_KEY, generateLicenseKeyPair, verifyLicense } from '../src/license/license.js';
import { communityApp, testKeys, testLicense } from './helpers.js';
import { buildApp } from '../src/http/app.js';
import { loadConfig } from '../src/config.js';

test('a license signed with the configured key gives the pro edition', () => {
  const status = verifyLicense(testLicense({ features: ['serialize'] }), testKeys.publicKeyPem);
  assert.equal(status.edition, 'pro');
  assert.equal(status.license?.licensee, 'Test GmbH');
  assert.ok(status.features.includes('serialize'));
  assert.ok(!status.features.includes('metrics'), 'only the licensed pro features are granted');
  assert.ok(status.features.includes('validate'), 'community features stay');
});

test('a license without features grants every pro feature', () => {
  const status = verifyLicense(testLicense(), testKeys.publicKeyPem);
  for (const f of ['serialize', 'smart_diagnostics', 'validate_pdfa', 'metrics']) assert.ok(status.features.includes(f), f);
});

test('an expired license falls back to community with the reason', () => {
  const status = verifyLicense(testLicense({ expires_at: '2020-01-31' }), testKeys.publicKeyPem);
  assert.equal(status.edition, 'community');
  assert.match(status.problem ?? '', /expired on 2020-01-31/);
});

test('a license is valid through the whole expiry day', () => {
  const key = testLicense({ expires_at: '2030-06-30' });
  assert.equal(verifyLicense(key, testKeys.publicKeyPem, Date.parse('2030-06-30T23:00:00Z')).edition, 'pro');
  assert.equal(verifyLicense(key, testKeys.publicKeyPem, Date.parse('2030-07-01T00:00:01Z')).edition, 'community');
});

test('a tampered license is refused', () => {
  const key = testLicense();
  const envelope = JSON.parse(Buffer.from(key, 'base64').toString('utf8'));
  envelope.payload = envelope.payload.replace('Test GmbH', 'Evil GmbH');
  const tampered = Buffer.from(JSON.stringify(envelope)).toString('base64');
  const status = verifyLicense(tampered, testKeys.publicKeyPem);
  assert.equal(status.edition, 'community');
  assert.match(status.problem ?? '', /signature is invalid/);
});

test('a license signed with another key is refused, also by the built-in default key', () => {
  const other = generateLicenseKeyPair();
  assert.equal(verifyLicense(testLicense({}, other.privateKeyPem), testKeys.publicKeyPem).edition, 'community');
  assert.equal(verifyLicense(testLicense(), DEFAULT_LICENSE_PUBLIC_KEY).edition, 'community');
});

test('garbage keys and bad public keys never throw', () => {
  for (const key of ['not base64 at all', Buffer.from('{"payload":1}').toString('base64'), Buffer.from('[]').toString('base64'), '']) {
    const status = verifyLicense(key, testKeys.publicKeyPem);
    assert.equal(status.edition, 'community');
  }
  assert.match(verifyLicense(testLicense(), 'nonsense').problem ?? '', /LICENSE_PUBLIC_KEY/);
});

test('a refused key starts the app in community mode and diagnostics say why', async () => {
  const app = await buildApp(
    loadConfig({
      LOG_LEVEL: 'silent',
      LICENSE_KEY: testLicense({ expires_at: '2021-01-01' }),
      LICENSE_PUBLIC_KEY: testKeys.publicKeyPem,
      DIAGNOSTICS_TOKEN: 'diag',
    }),
  );
  assert.equal(app.edition, 'community');
  const res = await app.inject({ url: '/diagnostics', headers: { authorization: 'Bearer diag' } });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.runtime_config.mode, 'community');
  assert.equal(body.license.status, 'refused');
  assert.match(body.license.problem, /expired/);
  await app.close();
});

test('no key: community mode, no problem reported', async () => {
  const app = await communityApp();
  assert.equal(app.edition, 'community');
  assert.equal(app.license.problem, undefined);
  await app.close();
});
