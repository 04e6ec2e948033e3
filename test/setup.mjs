/**
 * Preloaded into every test file's process by `npm test` (`--import ./test/setup.mjs`, after tsx). Plain JavaScript:
 * --import runs in every worker thread too (the service's pools), where tsx cannot yet load TypeScript.
 *
 * - A per-test time limit. Node 20's `--test-timeout` bounds each test *file* as a whole (the runner's test for
 *   the file's process), not the tests in it: a hang surfaced as "test/x.test.ts timed out" after the whole cap.
 *   Here every `test()` / `it()` and every hook gets `timeout: TEST_TIMEOUT_MS` unless it names its own, so a hang
 *   becomes a failure of that test, by its name, and the file goes on. A test that is legitimately longer says so
 *   with its own `{ timeout }` (and a comment why).
 * - No process outlives its test file. When the file's process ends — normally, by `process.exit`, or killed with
 *   SIGTERM by the runner at the file cap — every process it started that is still running (servers, CLIs,
 *   their own children) is killed with SIGKILL and named on stderr. Tests kill what they start themselves (see
 *   test/spawned.ts); this is the net under them.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import { killDescendants } from './process-tree.mjs';

/** The default per-test (and per-hook) limit: generous for a loaded 2-core machine (CONTRIBUTING.md, "Tests"). */
export const TEST_TIMEOUT_MS = Number(process.env.EINVOICE_TEST_TIMEOUT_S ?? 240) * 1000;

// ------------------------------------------------------------------------------------------ time limits

/**
 * node:test records where a test was declared from the frame that called `test()`. Our wrapper would be that
 * frame, so the call is made from a function compiled to sit at the caller's own file, line and column
 * (`//# sourceURL`): reports point at the test, as without the wrapper.
 */
const HEAD = '(function (fn, args) { return (';

const callers = new Map();

function callAsIfFrom(file, line, column) {
  if (line < 1 || column < 1 || (line === 1 && column - 1 < HEAD.length)) return undefined;
  const key = `${file}:${line}:${column}`;
  let caller = callers.get(key);
  if (!caller) {
    const pad = line > 1 ? `${'\n'.repeat(line - 1)}${' '.repeat(column - 1)}` : ' '.repeat(column - 1 - HEAD.length);
    // biome-ignore lint/security/noGlobalEval: the only way to give a frame a chosen file and position
    caller = (0, eval)(`${HEAD}${pad}fn(...args));\n})\n//# sourceURL=${file}`);
    callers.set(key, caller);
  }
  return caller;
}

/** The raw (generated) position of the code that called `skip`, as node:test itself reads it. */
function callSite(skip) {
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (_, sites) => sites;
  const holder = {};
  Error.captureStackTrace(holder, skip);
  const sites = holder.stack;
  Error.prepareStackTrace = previous;
  return Array.isArray(sites) ? sites[0] : undefined;
}

/** Tests and suites declared and not yet ended (a top-level one's promise settles when it ends). */
const running = new Set();

function track(result) {
  if (result instanceof Promise) {
    running.add(result);
    const settled = () => {
      running.delete(result);
      if (running.size === 0) watchLeftovers();
    };
    result.then(settled, settled);
  }
  return result;
}

/** `describe(...)` / `suite(...)`: no time limit of its own (it would bound all its tests together), but tracked. */
function tracked(original) {
  const wrapped = function (...args) {
    const site = callSite(wrapped);
    const file = site?.getFileName();
    const from = file ? callAsIfFrom(file, site.getLineNumber() ?? 0, site.getColumnNumber() ?? 0) : undefined;
    return track(from ? from(original, args) : original.apply(this, args));
  };
  Object.assign(wrapped, original);
  return wrapped;
}

/** `test(name?, options?, fn?)` / `it(...)`: options get the default timeout unless they have one. */
function withTestTimeout(original) {
  const wrapped = function (...args) {
    const at = args.findIndex((a) => typeof a === 'object' && a !== null);
    if (at >= 0) {
      const options = args[at];
      if (options.timeout === undefined) args[at] = { ...options, timeout: TEST_TIMEOUT_MS };
    } else {
      const fnAt = args.findIndex((a) => typeof a === 'function');
      args.splice(fnAt >= 0 ? fnAt : args.length, 0, { timeout: TEST_TIMEOUT_MS });
    }
    const site = callSite(wrapped);
    const file = site?.getFileName();
    const from = file ? callAsIfFrom(file, site.getLineNumber() ?? 0, site.getColumnNumber() ?? 0) : undefined;
    return track(from ? from(original, args) : original.apply(this, args));
  };
  Object.assign(wrapped, original); // test.skip, test.todo, test.only, ...
  return wrapped;
}

/** `before(fn, options?)` and the other hooks. */
function withHookTimeout(original) {
  const wrapped = function (...given) {
    const options = given[1];
    const args = [given[0], { ...options, timeout: options?.timeout ?? TEST_TIMEOUT_MS }];
    const site = callSite(wrapped);
    const file = site?.getFileName();
    const from = file ? callAsIfFrom(file, site.getLineNumber() ?? 0, site.getColumnNumber() ?? 0) : undefined;
    return from ? from(original, args) : original.apply(this, args);
  };
  return wrapped;
}

// (--import runs in worker threads too, which the tests' pools start: they run no tests and own no processes.)
if (isMainThread) {
  const require = createRequire(import.meta.url);
  const nodeTest = require('node:test');
  nodeTest.test = withTestTimeout(nodeTest.test);
  nodeTest.it = withTestTimeout(nodeTest.it);
  nodeTest.describe = tracked(nodeTest.describe);
  nodeTest.suite = tracked(nodeTest.suite);
  for (const hook of ['before', 'after', 'beforeEach', 'afterEach']) nodeTest[hook] = withHookTimeout(nodeTest[hook]);
  // `import { test } from 'node:test'` reads these bindings: make them the wrapped functions.
  syncBuiltinESMExports();
}

// ------------------------------------------------------------------------------------------ leftover processes

function reapLeftovers(why) {
  const left = killDescendants(process.pid);
  if (left.length > 0) {
    process.stderr.write(
      `test/setup.mjs: ${why}: killed ${left.length} process(es) a test left running:\n${left.map((p) => `  ${p.pid} ${p.command.slice(0, 200)}`).join('\n')}\n`,
    );
  }
}

/** How long the file's own root `after` hooks get to stop what they started, once every test has ended. */
const AFTER_HOOKS_GRACE_MS = 30_000;

let watching;

/**
 * Every test of the file has ended. The file's root `after` hooks run now and may stop processes its tests shared
 * (a server); a child process that is still running AFTER_HOOKS_GRACE_MS later keeps the event loop alive, so the
 * file would never end (until the runner's cap): that is a test's leak. It is killed and the file fails, naming it.
 */
function watchLeftovers() {
  if (watching) return;
  const since = Date.now();
  watching = setInterval(() => {
    if (running.size > 0) {
      clearInterval(watching);
      watching = undefined;
      return;
    }
    if (!process.getActiveResourcesInfo().includes('ProcessWrap')) return;
    if (Date.now() - since < AFTER_HOOKS_GRACE_MS) return;
    clearInterval(watching);
    const left = killDescendants(process.pid);
    if (left.length === 0) return;
    process.exitCode = 1;
    process.stderr.write(
      `test/setup.mjs: every test of this file ended ${AFTER_HOOKS_GRACE_MS / 1000} s ago, but ${left.length} process(es) a test started were still running (killed now; this fails the file):\n${left.map((p) => `  ${p.pid} ${p.command.slice(0, 200)}`).join('\n')}\n`,
    );
  }, 1_000);
  watching.unref();
}

if (isMainThread) {
  process.once('exit', () => reapLeftovers('the test file ended'));
  // The runner ends a file that outlives --test-timeout with SIGTERM, whose default action skips 'exit' handlers.
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => {
      reapLeftovers(`${signal} to the test file`);
      process.exit(signal === 'SIGTERM' ? 143 : 130);
    });
  }
}
