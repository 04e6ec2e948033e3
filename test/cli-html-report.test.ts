/**
 * `einvoice validate --format html` as a real process: one self-contained page (no script, nothing from elsewhere) with
 * per file, in input order, its verdict and its findings grouped by rule set, the same as the json format reports;
 * everything from the files escaped; the summary at the end. Read back with parse5, an independent HTML parser.
 * (test/ui-browser.test.ts opens such a page in Chromium and checks its accessibility.)
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'parse5';
import { invalidXml, makeInvoiceFolder, runCli, type Folder } from './cli-fixtures.js';

interface Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
}

const attr = (n: Node, name: string) => n.attrs?.find((a) => a.name === name)?.value;
function* walk(n: Node): Generator<Node> {
  yield n;
  for (const c of n.childNodes ?? []) yield* walk(c);
}
const all = (n: Node, pred: (n: Node) => boolean) => [...walk(n)].filter(pred);
const byClass = (n: Node, tag: string, cls: string) =>
  all(n, (x) => x.tagName === tag && (attr(x, 'class') ?? '').split(' ').includes(cls));
const text = (n: Node): string => [...walk(n)].map((x) => (x.nodeName === '#text' ? (x.value ?? '') : '')).join('');

let tmp: string;
let folder: Folder;
const HOSTILE = '<b onmouseover="x">&amp; "quoted".xml';

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'einvoice-html-'));
  folder = await makeInvoiceFolder(join(tmp, 'invoices'));
  writeFileSync(join(folder.dir, HOSTILE), invalidXml());
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test('validate --format html: per file its verdict and findings by rule set, as the json report has them', async () => {
  mkdirSync(join(tmp, 'out'));
  const out = join(tmp, 'out', 'report.html');
  const run = await runCli(['validate', folder.dir, '--format', 'html', '-o', out, '--jobs', '2']);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /files, \d+ valid, 2 invalid, 2 unreadable/);
  const json = (await runCli(['validate', folder.dir, '--format', 'json', '--jobs', '1'])).stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const html = readFileSync(out, 'utf8');
  const doc = parse(html) as unknown as Node;

  // Self-contained and inert: no script, no event handler, nothing loaded from elsewhere, a CSP that says so.
  assert.equal(all(doc, (n) => n.tagName === 'script').length, 0);
  assert.deepEqual(
    all(doc, (n) => (n.attrs ?? []).some((a) => /^on/i.test(a.name))).map((n) => n.tagName),
    [],
    'no event handler attribute (the hostile file name is text)',
  );
  assert.equal(all(doc, (n) => n.tagName === 'link' || n.tagName === 'img').length, 0);
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'/);

  const sections = byClass(doc, 'section', 'file');
  assert.equal(sections.length, json.length, 'one section per file');
  sections.forEach((s, i) => {
    const line = json[i];
    assert.equal(attr(s, 'id'), `f${i + 1}`);
    const classes = (attr(s, 'class') ?? '').split(' ');
    assert.ok(classes.includes(line.status), `${line.file}: ${line.status}`);
    const verdict = byClass(s, 'div', 'verdict')[0];
    assert.equal(attr(verdict, 'data-verdict'), line.status);
    assert.equal(text(byClass(s, 'span', 'file')[0]), line.file, 'the file name, as text');
    // The link opens the file, relative to the report's folder.
    const href = attr(byClass(s, 'a', 'open')[0], 'href')!;
    assert.equal(resolve(tmp, 'out', decodeURIComponent(href)), resolve(line.file));
    if (line.status === 'unreadable') {
      assert.match(text(verdict), new RegExp(line.problem.code));
      return;
    }
    const errors: { rule_id: string; rule_set: string; location?: string; message: string }[] = line.errors;
    const listed = byClass(s, 'li', 'finding').map((li) => {
      const at = byClass(li, 'p', 'location')[0];
      return { rule: attr(li, 'data-rule'), location: at ? text(all(at, (x) => x.tagName === 'code')[0]) : undefined };
    });
    // Grouped by rule set, in the order each set first occurs; within a set in report order.
    const order = [...new Set(errors.map((e) => e.rule_set))];
    const expected = order
      .flatMap((set) => errors.filter((e) => e.rule_set === set))
      .map((e) => ({ rule: e.rule_id, location: e.location }));
    assert.deepEqual(listed, expected, line.file);
    assert.deepEqual(
      byClass(s, 'section', 'ruleset').map((r) => attr(r, 'data-rule-set')),
      order,
    );
    assert.equal(classes.includes('clean'), errors.length === 0);
  });
  const hostile = sections.find((s) => text(byClass(s, 'span', 'file')[0]).endsWith(HOSTILE))!;
  assert.ok(hostile, 'the hostile file name is shown as written');
  assert.ok(html.includes('&lt;b onmouseover=&quot;x&quot;&gt;&amp;amp;'), 'and escaped');

  // The summary comes last.
  const summary = all(doc, (n) => attr(n, 'id') === 'summary')[0];
  const counts = Object.fromEntries(
    all(summary, (n) => n.tagName === 'tr').map((tr) => [
      text(all(tr, (n) => n.tagName === 'th')[0]),
      Number(text(all(tr, (n) => n.tagName === 'td')[0])),
    ]),
  );
  const count = (status: string) => json.filter((l) => l.status === status).length;
  assert.deepEqual(counts, { Files: json.length, Valid: count('valid'), Invalid: count('invalid'), 'Not readable': count('unreadable') });
  assert.match(html, /<\/section><\/main><\/body><\/html>\n$/);
});

test('validate --format html to stdout: the same page, the summary line on stderr', async () => {
  const run = await runCli(['validate', folder.dir, '--format', 'html', '--jobs', '1']);
  assert.equal(run.code, 1);
  assert.match(run.stdout, /^<!DOCTYPE html><html lang="en">/);
  assert.equal(
    (run.stdout.match(/<section class="file /g) ?? []).length,
    folder.valid.length + folder.invalid.length + folder.unreadable.length + 1,
  );
  assert.match(run.stderr, /files, \d+ valid/);
  const quiet = await runCli(['validate', folder.valid[0], '--format', 'html', '-q']);
  assert.equal(quiet.code, 0);
  assert.equal(quiet.stderr, '');
  assert.match(quiet.stdout, /data-verdict="valid"/);
});
