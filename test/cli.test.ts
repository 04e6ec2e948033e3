/**
 * The `einvoice` CLI, run as a child process (from the sources, through tsx) over fixture folders built in a
 * temporary folder: exit codes, every --format, --shard, hostile files, no progress bar or colours without a
 * terminal, and each subcommand's success and error path.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseXml, type XmlElement } from '../src/xml/dom.js';
import { validate, extract } from '../src/lib/index.js';
import { DOMESTIC_EXAMPLE } from '../src/metadata/examples.js';
import { collectInputs } from '../src/cli/files.js';
import { threadsFor, workerExecArgv } from '../src/cli/pool.js';
import { CLI, CLI_BOUND_MS, killTree, makeInvoiceFolder, makePdf, ROOT, runCli, TSX, xmlOf, type Folder } from './cli-fixtures.js';
import { testKeys, testLicense } from './helpers.js';
import { descendants } from './process-tree.mjs';
import { loadFactor, START_BOUND_MS, SYNC_CHILD, waitFor } from './spawned.js';

let tmp: string;
let folder: Folder;
let hostile: Folder;
/** Every file of `folder` in the order the CLI lists them (folder walk: sorted names, recursively). */
let listed: string[];

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'einvoice-cli-'));
  folder = await makeInvoiceFolder(join(tmp, 'invoices'));
  hostile = await makeInvoiceFolder(join(tmp, 'hostile'), { hostile: true });
  listed = [...folder.valid, ...folder.invalid, ...folder.unreadable].sort((a, b) => {
    // the walk sorts each folder's entries by name, descending into a subfolder where its name sorts
    const pa = relative(folder.dir, a).split('/');
    const pb = relative(folder.dir, b).split('/');
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
    return pa.length - pb.length;
  });
});

after(() => rmSync(tmp, { recursive: true, force: true }));

const ANSI = /\x1b\[\d*m/; // SGR: colours and styles

interface JsonLine {
  file: string;
  status: 'valid' | 'invalid' | 'unreadable';
  valid: boolean;
  error_count: number;
  warning_count: number;
  errors?: { rule_id: string | null; severity: string; location?: string; rule_set?: string }[];
  problem?: { code: string; message: string };
}
const jsonLines = (out: string): JsonLine[] =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

test('text: one line per file in input order, findings by file and rule set, the summary; exit 1; no colours or progress bar without a terminal', async () => {
  const run = await runCli(['validate', folder.dir, '--jobs', '2']);
  assert.equal(run.code, 1, run.stderr);
  const lines = run.stdout.split('\n');
  const fileLines = lines.slice(0, listed.length);
  assert.deepEqual(
    fileLines.map((l) => l.split(/\s+/)[1]),
    listed,
  );
  for (const l of fileLines) {
    const file = l.split(/\s+/)[1];
    if (folder.valid.includes(file)) assert.match(l, /^✓ \S+ {2}(en16931 \(factur-x\)|xrechnung \(factur-x\)) {2}0 errors, \d+ warnings?/);
    // Two violations, each once: EN 16931 and its Factur-X copy (fx-en16931) report them at the same location.
    else if (folder.invalid.includes(file)) assert.match(l, /^✗ \S+ {2}en16931 \(factur-x\) {2}2 errors/);
    else assert.match(l, /^✗ \S+ {2}unreadable: (XML_MALFORMED|NOT_PDF_OR_XML)/);
  }
  // The findings of the invalid file: under its name, by rule set, with rule id, message and location.
  const at = lines.indexOf(folder.invalid[0]);
  assert.ok(at > 0, run.stdout);
  assert.equal(lines[at + 1], '  en16931-cii');
  assert.match(lines[at + 2], /^ {4}error {3}BR-CO-15 {2}The invoice total with VAT \(BT-112\).* {2}at \/rsm:CrossIndustryInvoice\[1\]$/);
  assert.match(
    run.stdout,
    new RegExp(
      `\\n${listed.length} files, ${folder.valid.length} valid, 1 invalid, 2 unreadable in \\d+\\.\\d\\d s \\(\\d+(\\.\\d)? files/s\\)\\n$`,
    ),
  );
  assert.doesNotMatch(run.stdout, ANSI);
  assert.equal(run.stderr, '', 'nothing on stderr: no progress bar without a terminal');
});

test('exit 0 when every file is valid; --fail-on warning turns warnings into exit 1', async () => {
  const valid = folder.valid.filter((f) => f.endsWith('warned.xml') || f.endsWith('facturx.pdf'));
  const ok = await runCli(['validate', ...valid, '--jobs', '1', '--quiet']);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /^2 files, 2 valid, 0 invalid, 0 unreadable/);
  // warned.xml carries a PEPPOL warning (an empty delivery element).
  const strict = await runCli(['validate', ...valid, '--jobs', '1', '--quiet', '--fail-on', 'warning']);
  assert.equal(strict.code, 1);
});

test('json: one line per file, streamed in input order, with the API ValidationResult', async () => {
  const run = await runCli(['validate', folder.dir, '--format', 'json', '--jobs', '2']);
  assert.equal(run.code, 1);
  const lines = jsonLines(run.stdout);
  assert.deepEqual(
    lines.map((l) => l.file),
    listed,
  );
  for (const l of lines) {
    const expected = folder.valid.includes(l.file) ? 'valid' : folder.invalid.includes(l.file) ? 'invalid' : 'unreadable';
    assert.equal(l.status, expected, l.file);
    assert.equal(l.valid, expected === 'valid');
  }
  const bad = lines.find((l) => l.status === 'invalid')!;
  assert.equal(bad.error_count, 2, 'each violation once, not once per rule set that has the rule');
  assert.ok(bad.errors!.some((e) => e.rule_id === 'BR-CO-15' && e.rule_set === 'en16931-cii'));
  // The same result as the library (and the API) gives for that file.
  const direct = await validate(readFileSync(bad.file));
  const { file: _f, status: _s, error_count: _e, warning_count: _w, ...rest } = bad;
  assert.deepEqual(rest, JSON.parse(JSON.stringify(direct)));
  const broken = lines.find((l) => l.file.endsWith('broken.xml'))!;
  assert.equal(broken.problem!.code, 'XML_MALFORMED');
  assert.match(run.stderr, /^\d+ files, /, 'the summary goes to stderr for machine formats');
});

function el(parent: XmlElement, name: string): XmlElement[] {
  return parent.children.filter((c) => c.local === name);
}
const attr = (e: XmlElement, name: string) => e.attrs.find((a) => a.local === name)?.value;

test('junit: valid JUnit XML (read back with the project XML parser), a suite per file, a case per finding', async () => {
  const out = join(tmp, 'report.xml');
  const run = await runCli(['validate', folder.dir, '--format', 'junit', '--output', out, '--jobs', '2']);
  assert.equal(run.code, 1);
  assert.equal(run.stdout, '', 'the report went to --output');
  const doc = parseXml(readFileSync(out));
  assert.equal(doc.root.local, 'testsuites');
  const suites = el(doc.root, 'testsuite');
  assert.deepEqual(
    suites.map((s) => attr(s, 'name')),
    listed,
  );
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const s of suites) {
    const cases = el(s, 'testcase');
    assert.equal(Number(attr(s, 'tests')), cases.length);
    assert.equal(Number(attr(s, 'failures')), cases.filter((c) => el(c, 'failure').length > 0).length);
    assert.equal(Number(attr(s, 'errors')), cases.filter((c) => el(c, 'error').length > 0).length);
    for (const c of cases) {
      assert.ok(attr(c, 'name') && attr(c, 'classname') === attr(s, 'name'));
      assert.ok(!Number.isNaN(Number(attr(c, 'time'))));
    }
    tests += cases.length;
    failures += Number(attr(s, 'failures'));
    errors += Number(attr(s, 'errors'));
  }
  assert.equal(Number(attr(doc.root, 'tests')), tests);
  assert.equal(Number(attr(doc.root, 'failures')), failures);
  assert.equal(Number(attr(doc.root, 'errors')), errors);
  assert.equal(errors, 2, 'the two unreadable files');
  const bad = suites.find((s) => attr(s, 'name') === folder.invalid[0])!;
  const br = el(bad, 'testcase').find((c) => attr(c, 'name')!.startsWith('BR-CO-15 at /rsm:CrossIndustryInvoice[1]'))!;
  assert.equal(attr(el(br, 'failure')[0], 'type'), 'BR-CO-15');
  assert.match(el(br, 'failure')[0].text, /location: \/rsm:CrossIndustryInvoice\[1\]/);
  // Warnings pass unless --fail-on warning.
  const warned = suites.find((s) => attr(s, 'name')!.endsWith('/warned.xml'))!;
  assert.equal(attr(warned, 'failures'), '0');
  assert.ok(el(warned, 'testcase').some((c) => el(c, 'system-out')[0]?.text.startsWith('warning PEPPOL-EN16931-R008')));
});

test('sarif: SARIF 2.1.0 shape, a result per finding with ruleId, level and locations', async () => {
  const run = await runCli(['validate', folder.dir, '--format', 'sarif', '--jobs', '2']);
  assert.equal(run.code, 1);
  const log = JSON.parse(run.stdout);
  assert.equal(log.version, '2.1.0');
  assert.match(log.$schema, /sarif-2\.1\.0/);
  assert.equal(log.runs.length, 1);
  const [r] = log.runs;
  assert.equal(r.tool.driver.name, 'einvoice');
  assert.equal(typeof r.tool.driver.version, 'string');
  const ruleIds = new Set(r.tool.driver.rules.map((x: { id: string }) => x.id));
  for (const res of r.results) {
    assert.ok(ruleIds.has(res.ruleId), res.ruleId);
    assert.ok(['error', 'warning', 'note'].includes(res.level));
    assert.equal(typeof res.message.text, 'string');
    assert.ok(res.locations[0].physicalLocation.artifactLocation.uri);
  }
  const br = r.results.find((x: { ruleId: string }) => x.ruleId === 'BR-CO-15');
  assert.equal(br.level, 'error');
  assert.equal(br.locations[0].physicalLocation.artifactLocation.uri, folder.invalid[0]);
  assert.equal(br.locations[0].logicalLocations[0].fullyQualifiedName, '/rsm:CrossIndustryInvoice[1]');
  assert.ok(r.results.some((x: { ruleId: string }) => x.ruleId === 'XML_MALFORMED'));
  assert.equal(r.artifacts.length, listed.length);
});

test('--shard i/n: the shards are disjoint and together are the whole list', async () => {
  const all = jsonLines((await runCli(['validate', folder.dir, '--format', 'json', '--jobs', '1'])).stdout).map((l) => l.file);
  const shards: string[][] = [];
  for (let i = 1; i <= 3; i++) {
    const run = await runCli(['validate', folder.dir, '--format', 'json', '--jobs', '1', '--shard', `${i}/3`]);
    shards.push(jsonLines(run.stdout).map((l) => l.file));
  }
  const union = shards.flat();
  assert.equal(new Set(union).size, union.length, 'no file in two shards');
  assert.deepEqual([...union].sort(), [...all].sort());
  assert.ok(
    shards.every((s) => s.length > 0 && s.length < all.length),
    `shard sizes ${shards.map((s) => s.length)}`,
  );
  const bad = await runCli(['validate', folder.dir, '--shard', '4/3']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--shard must be i\/n/);
});

test("--shard-index i/n counts from 0, as Kubernetes' JOB_COMPLETION_INDEX: the same slice as --shard i+1/n", async () => {
  for (const i of [0, 2]) {
    const zero = await runCli(['validate', folder.dir, '--format', 'json', '--jobs', '1', '--shard-index', `${i}/3`]);
    const one = await runCli(['validate', folder.dir, '--format', 'json', '--jobs', '1', '--shard', `${i + 1}/3`]);
    assert.equal(zero.code, one.code);
    assert.ok(jsonLines(zero.stdout).length > 0);
    assert.deepEqual(
      jsonLines(zero.stdout).map((l) => l.file),
      jsonLines(one.stdout).map((l) => l.file),
    );
  }
  const out = await runCli(['validate', folder.dir, '--shard-index', '3/3']);
  assert.equal(out.code, 2);
  assert.match(out.stderr, /--shard-index must be i\/n with 0 <= i < n/);
  const both = await runCli(['validate', folder.dir, '--shard-index', '0/3', '--shard', '1/3']);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--shard and --shard-index/);
});

test('--fail-on never: exit 0 with invalid and unreadable files (a batch whose report is the result); 2 stays', async () => {
  const files = [...folder.invalid, ...folder.unreadable];
  const run = await runCli(['validate', ...files, '--jobs', '1', '--format', 'json', '--fail-on', 'never']);
  assert.equal(run.code, 0, run.stderr);
  const lines = jsonLines(run.stdout);
  assert.equal(lines.length, files.length);
  assert.ok(lines.every((l) => l.status !== 'valid'));
  const junit = await runCli(['validate', ...folder.invalid, '--jobs', '1', '--format', 'junit', '--fail-on', 'never']);
  assert.equal(junit.code, 0);
  assert.match(junit.stdout, /<failure type="BR-CO-15"/, 'the report still marks the errors');
  const usage = await runCli(['validate', join(folder.dir, 'no-such-file.xml'), '--fail-on', 'never']);
  assert.equal(usage.code, 2);
  const bad = await runCli(['validate', folder.dir, '--fail-on', 'sometimes']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--fail-on must be error, warning or never/);
});

/** `pid`'s child processes (Linux /proc) with their command lines; [] when it has none or ended. */
function childProcesses(pid: number): { pid: number; cmdline: string }[] {
  const out: { pid: number; cmdline: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid)
        out.push({ pid: Number(entry), cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ') });
    } catch {
      // the process ended while it was read
    }
  }
  return out;
}

/** Run the CLI like runCli, noting the command lines of the child processes it starts while it runs. */
function runCliWatchingChildren(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; children: string[] }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const children = new Set<string>();
    const watch = setInterval(() => {
      for (const c of childProcesses(child.pid!)) children.add(c.cmdline);
    }, 25);
    const timer = setTimeout(() => {
      clearInterval(watch);
      killTree(child);
      reject(new Error(`einvoice ${args.join(' ')} did not end within ${CLI_BOUND_MS} ms`));
    }, CLI_BOUND_MS);
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(watch);
      resolvePromise({ code: code ?? -1, stdout, children: [...children] });
    });
  });
}

test('a batch of 1,000 files or more runs in a process of its own started with the batch V8 flags; the answer is the same', {
  skip: process.platform !== 'linux',
}, async (t) => {
  const dir = join(tmp, 'thousand');
  mkdirSync(dir);
  const valid = xmlOf('domestic');
  const names: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const name = `inv-${String(i).padStart(4, '0')}.xml`;
    writeFileSync(join(dir, name), i === 500 ? valid.replace(/<ram:GrandTotalAmount>[^<]*</, '<ram:GrandTotalAmount>1.00<') : valid);
    names.push(join(dir, name));
  }
  const check = (run: { code: number; stdout: string }) => {
    assert.equal(run.code, 1);
    const lines = jsonLines(run.stdout);
    assert.deepEqual(
      lines.map((l) => l.file),
      names,
      'every file once, in input order',
    );
    assert.deepEqual(
      lines.filter((l) => !l.valid).map((l) => l.file),
      [names[500]],
    );
  };
  const flagged = (children: string[]) => children.filter((c) => c.includes('--single-threaded-gc') && c.includes(' validate '));

  const big = await runCliWatchingChildren(['validate', dir, '--format', 'json', '--jobs', '2']);
  check(big);
  assert.equal(flagged(big.children).length, 1, `one batch process: ${big.children.join(' | ')}`);

  const defaults = await runCliWatchingChildren(['validate', dir, '--format', 'json', '--jobs', '2'], { EINVOICE_V8_DEFAULTS: '1' });
  check(defaults);
  assert.deepEqual(flagged(defaults.children), [], 'EINVOICE_V8_DEFAULTS=1 keeps the batch in the process');

  // With --shard i/n the threshold is n times as many files in all: half of these 1,000 stay in the process.
  const sharded = await runCliWatchingChildren(['validate', dir, '--shard', '1/2', '--format', 'json', '--jobs', '2']);
  assert.ok(sharded.code === 0 || sharded.code === 1);
  const shardLines = jsonLines(sharded.stdout).length;
  assert.ok(shardLines > 300 && shardLines < 700, `${shardLines} files in shard 1/2`);
  assert.deepEqual(flagged(sharded.children), [], 'a shard under the threshold runs in the process');

  const small = await runCliWatchingChildren(['validate', ...names.slice(0, 600), '--format', 'json', '--jobs', '2']);
  assert.equal(small.code, 1);
  assert.equal(jsonLines(small.stdout).length, 600);
  assert.deepEqual(flagged(small.children), [], 'a smaller batch runs in the process');

  // SIGINT to the command (as Ctrl-C sends it) stops the batch process, and the command ends by the same signal.
  const cli = spawn(process.execPath, ['--import', TSX, CLI, 'validate', dir, '--jobs', '1'], { cwd: ROOT, stdio: 'ignore' });
  t.after(() => killTree(cli));
  let exited = false;
  const ended = new Promise<NodeJS.Signals | null>((resolvePromise) =>
    cli.on('exit', (_code, signal) => {
      exited = true;
      resolvePromise(signal);
    }),
  );
  // Watched for as long as the command runs (a count of polls was a guess at how fast a loaded machine starts it).
  let batchPid = 0;
  await waitFor(
    () => {
      batchPid = childProcesses(cli.pid!).find((c) => c.cmdline.includes('--single-threaded-gc'))?.pid ?? 0;
      return batchPid > 0 || exited;
    },
    CLI_BOUND_MS,
    'the batch process',
    25,
  );
  assert.ok(batchPid > 0, 'the batch process started');
  cli.kill('SIGINT');
  assert.equal(await ended, 'SIGINT');
  assert.equal(
    existsSync(`/proc/${batchPid}`) && !readFileSync(`/proc/${batchPid}/stat`, 'utf8').includes(') Z '),
    false,
    'the batch process is gone',
  );
});

test("a batch thread of the compiled worker gets none of its parent's node options (no module loader to load again); the sources' inherit them", () => {
  assert.deepEqual(workerExecArgv('/pkg/dist/src/cli/worker.js'), []);
  assert.equal(workerExecArgv('/pkg/src/cli/worker-tsx.mjs'), undefined);
});

test('a batch gets one thread per 800 files or 16 MB of them, up to --jobs; sizes are asked only while they could add one', () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `f${i}.xml`);
  const asked: string[] = [];
  const kb20 = (file: string) => {
    asked.push(file);
    return 20 * 1024;
  };
  assert.equal(threadsFor(2, names(20), kb20), 1, '20 small files: one thread');
  assert.equal(threadsFor(2, names(800), kb20), 1, '800 small files: one thread');
  assert.equal(threadsFor(2, names(801), kb20), 2);
  assert.equal(threadsFor(1, names(5000), kb20), 1, 'never more than --jobs');
  assert.equal(threadsFor(8, names(2000), kb20), 3, 'one per 800 files or part of them');
  asked.length = 0;
  assert.equal(threadsFor(2, names(2000), kb20), 2);
  assert.deepEqual(asked, [], 'no sizes asked when the count already gives --jobs threads');
  // A few large files are work enough for more threads: 3 files of 10 MB make 30 MB, two threads' worth.
  const mb10 = () => 10 * 1024 * 1024;
  assert.equal(threadsFor(4, names(3), mb10), 2);
  assert.equal(threadsFor(2, names(1), mb10), 1);
  assert.equal(threadsFor(2, [], kb20), 1);
});

test('the input list: folders walked in order, each file once; with a limit, the first files of that list', () => {
  const dir = join(tmp, 'listing');
  for (const sub of ['a', 'b/c']) mkdirSync(join(dir, sub), { recursive: true });
  for (const f of ['a/1.xml', 'a/2.pdf', 'a/skip.txt', 'b/3.xml', 'b/c/4.XML', 'top.xml']) writeFileSync(join(dir, f), '');
  const all = collectInputs([join(dir, 'b'), dir]).map((f) => relative(dir, f));
  assert.deepEqual(all, ['b/3.xml', 'b/c/4.XML', 'a/1.xml', 'a/2.pdf', 'top.xml'], 'argument order, each folder sorted, duplicates once');
  for (let limit = 0; limit <= 6; limit++)
    assert.deepEqual(
      collectInputs([join(dir, 'b'), dir], limit).map((f) => relative(dir, f)),
      all.slice(0, limit),
      `limit ${limit}`,
    );
  assert.throws(() => collectInputs([dir, join(dir, 'missing')]), /no such file or folder/);
  assert.deepEqual(collectInputs([dir, join(dir, 'missing')], 2).length, 2, 'arguments past the limit are not looked at');
});

test('hostile files in a batch are failed entries; the batch goes on (deep nesting, entity bomb, over --max-size, a FIFO, over --timeout)', async () => {
  const run = await runCli(['validate', hostile.dir, '--format', 'json', '--jobs', '2']);
  assert.equal(run.code, 1, run.stderr);
  const lines = jsonLines(run.stdout);
  assert.equal(lines.length, hostile.valid.length + hostile.invalid.length + hostile.unreadable.length);
  const code = (suffix: string) => lines.find((l) => l.file.endsWith(suffix))!.problem?.code;
  assert.equal(code('deep.xml'), 'XML_TOO_DEEP');
  assert.equal(code('lolz.xml'), 'XML_DTD_FORBIDDEN');
  assert.equal(lines.filter((l) => l.status === 'valid').length, hostile.valid.length);

  const big = join(tmp, 'big.xml');
  writeFileSync(big, `<a>${'x'.repeat(2 * 1024 * 1024)}</a>`);
  const small = hostile.valid.find((f) => f.endsWith('domestic.xml'))!;
  const sized = await runCli(['validate', big, small, '--format', 'json', '--jobs', '1', '--max-size', '1']);
  assert.deepEqual(
    jsonLines(sized.stdout).map((l) => [l.status, l.problem?.code]),
    [
      ['unreadable', 'FILE_TOO_LARGE'],
      ['valid', undefined],
    ],
  );
  // A FIFO named like an invoice would block a reader forever: it is not opened.
  const fifo = join(tmp, 'pipe.xml');
  if (spawnSync('mkfifo', [fifo], SYNC_CHILD).status === 0) {
    const piped = await runCli(['validate', fifo, small, '--format', 'json', '--jobs', '1']);
    assert.deepEqual(
      jsonLines(piped.stdout).map((l) => [l.status, l.problem?.code]),
      [
        ['unreadable', 'NOT_A_FILE'],
        ['valid', undefined],
      ],
    );
  }
  // A time bound no validation can meet: each file is a TIMEOUT entry, the thread is replaced, the run ends. The
  // watchdog looks every 50 ms, so each file takes far longer than that (3,000 invoice lines, about a second):
  // a small one could be done between two looks on a fast machine.
  const FIRST_LINE = /<ram:IncludedSupplyChainTradeLineItem>[\s\S]*?<\/ram:IncludedSupplyChainTradeLineItem>/;
  const heavyXml = xmlOf('domestic').replace(FIRST_LINE, (line) => line.repeat(3000));
  const heavy = [join(tmp, 'heavy-1.xml'), join(tmp, 'heavy-2.xml')];
  for (const f of heavy) writeFileSync(f, heavyXml);
  const timed = await runCli(['validate', ...heavy, '--format', 'json', '--jobs', '1', '--timeout', '0.001']);
  assert.equal(timed.code, 1);
  assert.deepEqual(
    jsonLines(timed.stdout).map((l) => l.problem?.code),
    ['TIMEOUT', 'TIMEOUT'],
  );
  // A thread reads its chunk's files before validating them: a read that outlasts --timeout is blamed on the file
  // being read (here the second of the first chunk of two), not on the first, which a new thread then validates.
  // A sparse file of 256 MB costs no disk and takes about 2 s to read on the 2-core VM (a fast machine may read
  // it within the bound: then it is an unreadable entry of its own, and the others are still valid). The bound is
  // 1 s on a machine with a core to spare and stretches with its load, as the read and the validations do (with a
  // fixed 1 s, a loaded enough machine makes a cold thread's first validation of a valid file a TIMEOUT).
  const slow = join(tmp, 'slow.xml');
  const fd = openSync(slow, 'w');
  ftruncateSync(fd, 256 * 1024 * 1024);
  closeSync(fd);
  try {
    const [first, ...rest] = hostile.valid.filter((f) => f.endsWith('.xml')).slice(0, 4);
    const args = [first, slow, ...rest, '--format', 'json', '--jobs', '1', '--max-size', '1024', '--timeout', loadFactor().toFixed(1)];
    const lines = jsonLines((await runCli(['validate', ...args])).stdout);
    assert.deepEqual(
      lines.map((l) => [l.file, l.status]),
      [first, slow, ...rest].map((f) => [f, f === slow ? 'unreadable' : 'valid']),
    );
    assert.ok(['TIMEOUT', 'NOT_PDF_OR_XML'].includes(lines[1].problem?.code ?? ''), JSON.stringify(lines[1]));
  } finally {
    rmSync(slow);
  }
});

test('usage errors exit 2; help and --version exit 0', async () => {
  const cases: [string[], RegExp][] = [
    [['frobnicate'], /unknown command: frobnicate/],
    [['validate'], /at least one FILE/],
    [['validate', join(tmp, 'nope')], /no such file or folder/],
    [['validate', folder.dir, '--xrechnung-version', '9.9'], /--xrechnung-version: Input should be '2.5.0', '2.4.0'/],
    [['validate', folder.dir, '--rules', 'nope'], /Unknown rule layer 'nope'/],
    [['validate', folder.dir, '--output', join(tmp, 'no-such-dir', 'x.txt')], /cannot write/],
  ];
  for (const [args, message] of cases) {
    const run = await runCli(args);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
  }
  const help = await runCli(['help', 'validate']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--shard i\/n/);
  const version = await runCli(['--version']);
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^einvoice \d+\.\d+\.\d+/);
  assert.match(version.stdout, /xrechnung: 2\.5\.0 \(default\), 2\.4\.0 /);
  assert.match(version.stdout, /facturx: 1\.09\.2 \(default\)/);
});

test('globs and options pass through: --rules br_fr_ctc runs the French layer, --pdfa (licensed) runs the PDF/A layer', async () => {
  const args = [
    'validate',
    join(folder.dir, '*.pdf'),
    '--format',
    'json',
    '--rules',
    'br_fr_ctc',
    '--br-fr-edition',
    '1.2.0',
    '--pdfa',
    '--xrechnung-version',
    '2.5',
  ];
  // PDF/A-3b validation is pro (api-spec §5): without a license the command refuses before reading a file.
  const unlicensed = await runCli(args, { env: { LICENSE_KEY: undefined } });
  assert.equal(unlicensed.code, 2);
  assert.equal(unlicensed.stdout, '');
  assert.match(unlicensed.stderr, /LICENSE_REQUIRED: The pdfa_validation feature needs a pro license/);
  const run = await runCli(args, { env: { LICENSE_KEY: testLicense(), LICENSE_PUBLIC_KEY: testKeys.publicKeyPem } });
  assert.equal(run.code, 1, run.stderr);
  const lines = jsonLines(run.stdout) as (JsonLine & {
    layers_executed?: string[];
    layers_skipped?: { layer: string }[];
    br_fr_edition?: string;
  })[];
  assert.deepEqual(
    lines.map((l) => l.file.slice(folder.dir.length + 1)),
    ['facturx.pdf', 'notes.pdf'],
  );
  assert.ok(lines[0].layers_executed!.includes('br_fr_ctc'));
  assert.equal(lines[0].br_fr_edition, '1.2.0');
  assert.ok(lines[0].layers_executed!.includes('pdfa3b'), 'the PDF/A layer ran');
  assert.equal(typeof (lines[0] as { pdfa_valid?: unknown }).pdfa_valid, 'boolean');
});

test('colours only on a terminal, and NO_COLOR turns them off', {
  skip: !existsSync('/usr/bin/script') && 'no script(1) to give the CLI a terminal',
}, () => {
  const file = folder.invalid[0];
  const cmd = `${JSON.stringify(process.execPath)} --import ${JSON.stringify(TSX)} ${JSON.stringify(CLI)} validate ${JSON.stringify(file)} --jobs 1`;
  const tty = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '' }, ...SYNC_CHILD });
  assert.match(tty.stdout, /\x1b\[31m✗\x1b\[39m/, tty.stdout);
  const noColor = spawnSync('script', ['-qec', cmd, '/dev/null'], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    ...SYNC_CHILD,
  });
  assert.match(noColor.stdout, /✗ /);
  assert.doesNotMatch(noColor.stdout, ANSI);
});

test('extract: the ExtractionResult as JSON, --xml the invoice XML; not an invoice file exits 1 with its code', async () => {
  const pdf = folder.valid.find((f) => f.endsWith('.pdf'))!;
  const run = await runCli(['extract', pdf]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), JSON.parse(JSON.stringify(await extract(readFileSync(pdf)))));
  const xml = await runCli(['extract', pdf, '--xml']);
  assert.equal(xml.code, 0);
  assert.match(xml.stdout, /^<\?xml[\s\S]*<rsm:CrossIndustryInvoice/);
  const bad = await runCli(['extract', folder.unreadable.find((f) => f.endsWith('notes.pdf'))!]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^einvoice: NOT_PDF_OR_XML: /);
  const missing = await runCli(['extract', join(tmp, 'nope.pdf')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read/);
});

test('xml: metadata to CII (--profile, stdin); bad metadata exits 1 with the API code and the fields', async () => {
  const meta = join(tmp, 'meta.json');
  writeFileSync(meta, JSON.stringify(DOMESTIC_EXAMPLE));
  const run = await runCli(['xml', meta, '--profile', 'basic']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /urn:cen\.eu:en16931:2017#compliant#urn:factur-x\.eu:1p0:basic/);
  assert.equal((await validate(Buffer.from(run.stdout))).valid, true);
  const stdin = await runCli(['xml', '-', '-o', join(tmp, 'out.xml')], { input: JSON.stringify(DOMESTIC_EXAMPLE) });
  assert.equal(stdin.code, 0, stdin.stderr);
  assert.match(readFileSync(join(tmp, 'out.xml'), 'utf8'), /<rsm:CrossIndustryInvoice/);
  const notJson = await runCli(['xml', '-'], { input: '{nope' });
  assert.equal(notJson.code, 1);
  assert.match(notJson.stderr, /^einvoice: METADATA_NOT_JSON/);
  const { seller: _s, ...noSeller } = DOMESTIC_EXAMPLE;
  const shape = await runCli(['xml', '-'], { input: JSON.stringify(noSeller) });
  assert.equal(shape.code, 1);
  assert.match(shape.stderr, /^einvoice: METADATA_INVALID: [\s\S]*body\.metadata\.seller/);
  const inconsistent = await runCli(['xml', '-'], {
    input: JSON.stringify({ ...DOMESTIC_EXAMPLE, totals: { ...(DOMESTIC_EXAMPLE as { totals?: object }).totals, gross_amount: '1.00' } }),
  });
  assert.equal(inconsistent.code, 1, inconsistent.stderr);
  assert.match(inconsistent.stderr, /^einvoice: METADATA_(INCONSISTENT|INVALID)/);
});

test('xml: a serialized invoice (BusinessReadyInvoice) with JSON numbers is re-issued as it came', async () => {
  const { serializeUnlicensed } = await import('../src/lib/operations.js');
  const serialized = await serializeUnlicensed(Buffer.from(xmlOf('domestic')), 'in.xml');
  assert.ok(serialized.invoice);
  // The quantity as a JSON number with more digits than a float holds; the line total follows from it.
  const bri = { ...serialized.invoice, line_items: serialized.invoice.line_items.map((l) => ({ ...l, quantity: '@Q', line_total: null })) };
  const file = join(tmp, 'serialized.json');
  writeFileSync(file, JSON.stringify(bri).replace('"@Q"', '2.00000000000000000001').replace('"@Q"', '6.5'));
  const run = await runCli(['xml', file, '--profile', 'extended']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /<ram:BilledQuantity unitCode="C62">2\.00000000000000000001<\/ram:BilledQuantity>/);
  assert.match(run.stdout, /urn:factur-x\.eu:1p0:extended/);
  assert.equal((await validate(Buffer.from(run.stdout))).valid, true);
});

test('convert and merge: hybrid PDFs that validate; refused inputs exit 1 with the API code', async () => {
  const plain = join(tmp, 'plain.pdf');
  writeFileSync(plain, await makePdf());
  const meta = join(tmp, 'meta.json');
  writeFileSync(meta, JSON.stringify(DOMESTIC_EXAMPLE));
  const out = join(tmp, 'converted.pdf');
  const conv = await runCli(['convert', plain, meta, '-o', out]);
  assert.equal(conv.code, 0, conv.stderr);
  const read = await extract(readFileSync(out));
  assert.equal(read.format_detected, 'factur-x');
  assert.equal(read.invoice_json?.invoice_number, DOMESTIC_EXAMPLE.invoice_number);
  const noOut = await runCli(['convert', plain, meta]);
  assert.equal(noOut.code, 2);
  const notPdf = await runCli(['convert', meta, meta, '-o', join(tmp, 'x.pdf')]);
  assert.equal(notPdf.code, 1);
  assert.match(notPdf.stderr, /^einvoice: NOT_PDF: /);

  const pdfa = join(tmp, 'pdfa3.pdf');
  writeFileSync(pdfa, await makePdf(true));
  const xml = join(tmp, 'invoice.xml');
  writeFileSync(xml, xmlOf('domestic'));
  const merged = join(tmp, 'merged.pdf');
  const ok = await runCli(['merge', pdfa, xml, '-o', merged]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal((await validate(readFileSync(merged))).valid, true);
  const again = await runCli(['merge', merged, xml, '-o', join(tmp, 'twice.pdf')]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /^einvoice: XML_ALREADY_EMBEDDED: /);
  const notA3 = await runCli(['merge', plain, folder.invalid[0], '-o', join(tmp, 'no.pdf')]);
  assert.equal(notA3.code, 1);
  assert.match(notA3.stderr, /^einvoice: NOT_PDFA3: [\s\S]*\n {2}PDFA3_DECLARATION: [\s\S]*\n {2}BR-CO-15: /);
  assert.ok(!existsSync(join(tmp, 'no.pdf')));
});

test('serialize: LICENSE_REQUIRED (exit 2) without a license; with a valid one the SerializationResponse', async () => {
  const xml = folder.valid.find((f) => f.endsWith('domestic.xml'))!;
  const refused = await runCli(['serialize', xml], { env: { LICENSE_KEY: undefined } });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /^einvoice: LICENSE_REQUIRED: /);
  const forged = await runCli(['serialize', xml], { env: { LICENSE_KEY: testLicense(), LICENSE_PUBLIC_KEY: undefined } });
  assert.equal(forged.code, 2, 'a key signed with another key is refused, as the server refuses it');
  assert.match(forged.stderr, /signature is invalid/);
  const ok = await runCli(['serialize', xml], { env: { LICENSE_KEY: testLicense(), LICENSE_PUBLIC_KEY: testKeys.publicKeyPem } });
  assert.equal(ok.code, 0, ok.stderr);
  const body = JSON.parse(ok.stdout);
  assert.equal(body.success, true);
  assert.equal(body.invoice.invoice_number, DOMESTIC_EXAMPLE.invoice_number);
});

test('serve: the HTTP service answers, and stops on SIGTERM', async (t) => {
  // PORT=0: the service takes a free port and names it in its log (a port picked here and freed first could be
  // taken by anything else on the machine before the service binds it).
  const child = spawn(process.execPath, ['--import', TSX, CLI, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', WORKERS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  t.after(async () => {
    for (const { pid } of descendants(child.pid!)) process.kill(pid, 'SIGKILL');
    child.kill('SIGKILL');
    await exited;
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.resume();
  await waitFor(() => /Server listening at http:\/\/127\.0\.0\.1:\d+/.test(out), START_BOUND_MS, 'the service to listen');
  const base = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1];
  const answer = await fetch(`${base}/health`, { signal: AbortSignal.timeout(20_000) });
  assert.deepEqual(await answer.json(), { status: 'ok' });
  const form = new FormData();
  form.append('file', new Blob([xmlOf('domestic')]), 'invoice.xml');
  const res = await fetch(`${base}/v1/validate`, { method: 'POST', body: form, signal: AbortSignal.timeout(60_000) });
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as { valid: boolean }).valid, true);
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
});

test('the bin shim runs the sources through tsx when asked to (or when there is no build)', () => {
  const run = spawnSync(process.execPath, [join(ROOT, 'bin/einvoice.js'), 'help', 'merge'], {
    ...SYNC_CHILD,
    cwd: tmp,
    encoding: 'utf8',
    env: { ...process.env, EINVOICE_FROM_SOURCE: '1' },
  });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^Usage: einvoice merge PDF XML -o OUT\.pdf/);
  const bad = spawnSync(process.execPath, [join(ROOT, 'bin/einvoice.js'), 'nope'], {
    ...SYNC_CHILD,
    cwd: tmp,
    encoding: 'utf8',
    env: { ...process.env, EINVOICE_FROM_SOURCE: '1' },
  });
  assert.equal(bad.status, 2, 'the exit code is passed on');
});
