/**
 * The shipped font files (assets/fonts/): every one the loader lists exists, is what SOURCE.md says (SHA-256),
 * has its licence next to it, and parses as the kind of program the loader says it is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FONT_ASSETS, findFontAsset, fontAssetsDir, readFontAsset } from '../src/pdf/fonts/assets.js';

test('every listed font file exists with its licence, and its SHA-256 is the one SOURCE.md records', () => {
  const dir = fontAssetsDir();
  const source = readFileSync(join(dir, 'SOURCE.md'), 'utf8');
  for (const asset of FONT_ASSETS) {
    const bytes = readFontAsset(asset);
    const sha = createHash('sha256').update(bytes).digest('hex');
    assert.match(source, new RegExp(`\\| \`${asset.file.replace('.', '\\.')}\` \\| ${bytes.length} \\| ${sha} \\|`), asset.file);
    assert.ok(existsSync(join(dir, asset.licence)), asset.licence);
    if (asset.format === 'truetype') assert.equal(Buffer.from(bytes.subarray(0, 4)).toString('hex'), '00010000', asset.file);
    else assert.equal(Buffer.from(bytes.subarray(0, 3)).toString('hex'), '010004', asset.file); // CFF 1.0, header size 4
  }
  // Nothing unlisted ships.
  const listed = new Set(FONT_ASSETS.map((a) => a.file));
  for (const folder of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()))
    for (const f of readdirSync(join(dir, folder.name)))
      if (/\.(ttf|cff|otf)$/.test(f)) assert.ok(listed.has(`${folder.name}/${f}`), `unlisted font file ${folder.name}/${f}`);
});

test('findFontAsset: four styles per text family, one style for symbol and dingbats', () => {
  assert.equal(findFontAsset('sans', 'bolditalic')?.file, 'liberation/LiberationSans-BoldItalic.ttf');
  assert.equal(findFontAsset('serif')?.file, 'liberation/LiberationSerif-Regular.ttf');
  assert.equal(findFontAsset('carlito', 'italic')?.file, 'carlito/Carlito-Italic.ttf');
  assert.equal(findFontAsset('symbol', 'bold')?.file, 'foxit/FoxitSymbol.cff');
  assert.equal(findFontAsset('dingbats')?.format, 'cff');
  // Read once: the same bytes object comes back.
  const a = findFontAsset('mono')!;
  assert.equal(readFontAsset(a), readFontAsset(a));
});
