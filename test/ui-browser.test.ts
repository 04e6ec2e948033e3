/**
 * The browser UI at `/` in a real headless Chromium (Debian's `chromium`, installed by scripts/install-system-deps.sh;
 * never a downloaded browser), driven by playwright-core against the real app listening on a free port: load the
 * page, check a valid and an invalid invoice, point at findings on the rendered invoice and in the XML, build an
 * invoice with the form and validate what it downloads, in the community and the pro edition. The same run checks the
 * page's accessibility with axe-core (injected into the page) and walks its focus order with the Tab key.
 * Screenshots of each step and the axe results go to test-output/ui/ (git-ignored).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { AVAILABLE_RENDER_FORMATS, validate } from '../src/lib/operations.js';
import { communityApp, proApp } from './helpers.js';
import { facturxPdf, readFixture } from './fixtures.js';
import { runCli } from './cli-fixtures.js';
import { SYNC_CHILD } from './spawned.js';

/** Debian's Chromium; EINVOICE_CHROMIUM names another binary (e.g. a missing one, to see the skip message). */
const CHROMIUM = process.env.EINVOICE_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const OUT = resolve(import.meta.dirname, '..', 'test-output', 'ui');

function chromiumMissing(): string | false {
  if (!existsSync(CHROMIUM))
    return `${CHROMIUM} is not installed (scripts/install-system-deps.sh installs Debian's chromium): the browser UI test is skipped`;
  const v = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
  return v.status === 0
    ? false
    : `${CHROMIUM} does not start (${(v.stderr || v.error?.message || '').trim()}): the browser UI test is skipped`;
}
/**
 * Without Chromium the test is skipped and says why, except where the browser is required: CI (.ci/run sets
 * EINVOICE_REQUIRE_CHROMIUM=1; `npm test` installs it first through scripts/install-system-deps.sh) fails instead.
 */
const missing = chromiumMissing();
if (missing && process.env.EINVOICE_REQUIRE_CHROMIUM === '1')
  throw new Error(`${missing.replace(/: the browser UI test is skipped$/, '')}, and EINVOICE_REQUIRE_CHROMIUM=1 requires it`);
const skip = missing;
if (skip) console.log(`# ${skip}`);

/** Every wait in this file is bounded: playwright's own waits by the default below, a page evaluation by this. */
const WAIT_MS = 30_000;
function bounded<T>(what: string, work: Promise<T>, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let community: FastifyInstance;
let pro: FastifyInstance;
let base: string;
let proBase: string;
let context: BrowserContext;
let profileDir: string;
const offOrigin: string[] = [];
const pageErrors: string[] = [];
let shot = 0;

/** A step's screenshot: the whole page, or (`view`) what is on screen, e.g. a value scrolled to in the invoice's frame. */
async function screenshot(page: Page, name: string, view = false): Promise<void> {
  await page.screenshot({ path: join(OUT, `${String(++shot).padStart(2, '0')}-${name}.png`), fullPage: !view });
}

/** Every request the browser makes must go to the service itself: the UI works with no network. */
function watch(page: Page, origins: string[]): void {
  page.on('request', (req) => {
    const url = req.url();
    if (!origins.some((o) => url.startsWith(o)) && !/^(data|blob|about):/.test(url)) offOrigin.push(url);
  });
  page.on('pageerror', (err) => pageErrors.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    // A refused script, style or frame (Content-Security-Policy) or any other error the page logs.
    // (The browser's own "Failed to load resource" line for an answer of 4xx is the expected refusals the test provokes.)
    if (msg.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text()))
      pageErrors.push(`console: ${msg.text()}`);
  });
}

before(async () => {
  if (skip) return;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  community = await communityApp();
  pro = await proApp();
  base = await community.listen({ port: 0, host: '127.0.0.1' });
  proBase = await pro.listen({ port: 0, host: '127.0.0.1' });
  profileDir = mkdtempSync(join(tmpdir(), 'ui-chromium-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    acceptDownloads: true,
    viewport: { width: 1400, height: 1000 },
    timeout: 60_000,
  });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
});

after(async () => {
  if (skip) return;
  // Chromium ends with its context (playwright kills it); test/setup.mjs kills whatever would still be running.
  try {
    await bounded('closing Chromium', context?.close() ?? Promise.resolve());
  } finally {
    await community?.close();
    await pro?.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
});

async function open(origin: string): Promise<Page> {
  const page = await context.newPage();
  watch(page, [origin]);
  await page.goto(`${origin}/`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

interface AxeResult {
  violations: { id: string; impact: string; help: string; nodes: { target: string[]; failureSummary?: string }[] }[];
  passes: { id: string }[];
  incomplete: { id: string; nodes: { target: string[]; any: { message: string }[] }[] }[];
}
const axeRuns: Record<string, { violations: AxeResult['violations']; passes: string[]; incomplete: Record<string, string[]> }> = {};

/** axe-core on the UI page (WCAG 2.x A and AA, and best practices); the rendered invoice's frame is left out. */
async function axe(page: Page, name: string): Promise<AxeResult> {
  await bounded('injecting axe-core', page.evaluate(axeSource));
  const result = (await bounded(
    'axe-core run',
    page.evaluate(() =>
      // @ts-expect-error axe is the global the injected script defines
      window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
        iframes: false,
        resultTypes: ['violations'],
      }),
    ),
  )) as AxeResult;
  axeRuns[name] = {
    violations: result.violations,
    passes: result.passes.map((p) => p.id),
    incomplete: Object.fromEntries(
      result.incomplete.map((p) => [p.id, p.nodes.map((n) => `${n.target.join(' ')}: ${n.any.map((a) => a.message).join(' ')}`)]),
    ),
  };
  writeFileSync(join(OUT, 'axe.json'), `${JSON.stringify(axeRuns, null, 2)}\n`);
  return result;
}

function assertNoViolations(result: AxeResult, where: string): void {
  const lines = result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  assert.deepEqual(lines, [], `axe-core violations ${where}`);
  assert.ok(
    result.passes.some((p) => p.id === 'color-contrast'),
    'axe checked the contrast',
  );
  assert.ok(
    result.passes.some((p) => p.id === 'label'),
    'axe checked the labels',
  );
}

/** The findings of the report as the UI lists them. */
async function listedFindings(page: Page): Promise<{ rule: string; location: string | null }[]> {
  return page.$$eval('#report li.finding', (items) =>
    items.map((li) => ({ rule: li.getAttribute('data-rule') ?? '', location: li.querySelector('.location code')?.textContent ?? null })),
  );
}

/** Where a location lands on the page, computed here from the page's data-src values: the longest match by whole steps. */
function expectedSource(location: string, sources: Set<string>): string | undefined {
  for (let path = location; path; path = path.slice(0, path.lastIndexOf('/'))) {
    if (sources.has(path)) return path;
    if (path.lastIndexOf('/') <= 0) return undefined;
  }
  return undefined;
}

async function highlighted(page: Page): Promise<{ src: string | null; bt: string | null; visible: boolean } | null> {
  return page.evaluate(() => {
    const frame = document.getElementById('invoice-frame') as HTMLIFrameElement;
    const doc = frame.contentDocument!;
    const marked = doc.querySelectorAll('.einvoice-ui-highlight');
    if (marked.length !== 1) return null;
    const el = marked[0];
    const r = el.getBoundingClientRect();
    const h = doc.documentElement.clientHeight;
    return { src: el.getAttribute('data-src'), bt: el.getAttribute('data-bt'), visible: r.bottom > 0 && r.top < h };
  });
}

/** The invalid fixture: CEN example 4 with line 2's net amount raised (BR-CO-10, BR-S-08) and the buyer's country taken out (XSD, BR-11). */
function invalidInvoice(): string {
  let xml = readFixture('cen/examples/cii/CII_example4.xml').toString('utf8');
  xml = xml.replace('<ram:LineTotalAmount>500</ram:LineTotalAmount>', '<ram:LineTotalAmount>550</ram:LineTotalAmount>');
  const buyer = xml.indexOf('<ram:BuyerTradeParty>');
  const country = xml.indexOf('<ram:CountryID>DK</ram:CountryID>', buyer);
  return xml.slice(0, country) + xml.slice(country + '<ram:CountryID>DK</ram:CountryID>'.length);
}

async function checkFile(page: Page, path: string): Promise<void> {
  const frameLoaded = page.waitForEvent('framenavigated', { predicate: (f) => f.name() === 'invoice-frame' });
  await page.setInputFiles('#check-file', path);
  await page.waitForSelector('#report .verdict');
  await frameLoaded;
  await page.waitForFunction(() => /: (valid|invalid)|could not/.test(document.getElementById('check-status')?.textContent ?? ''));
  await page.frameLocator('#invoice-frame').locator('main.invoice').waitFor();
}

test('the UI: check a valid and an invalid invoice, point at findings, make an invoice; accessible', {
  skip,
  timeout: 300_000,
}, async (t) => {
  const page = await open(base);

  await t.test('the page, its headers and its accessibility (axe-core, focus order)', async () => {
    const res = await fetch(`${base}/`, { signal: AbortSignal.timeout(WAIT_MS) });
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self';.*frame-ancestors 'none'/);
    await screenshot(page, 'start');
    assertNoViolations(await axe(page, 'start page'), 'on the start page');
    // The focus order is the reading order: Tab visits every focusable element of the page in document order, each
    // with a visible focus indicator, and nothing hidden.
    const expected = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, iframe, [tabindex]')]
        .filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0)
        .filter((el) => !el.closest('[hidden]'))
        .map((el, i) => {
          el.dataset.focusProbe = String(i);
          return `${i} ${el.id || `${el.tagName.toLowerCase()}:${el.getAttribute('aria-label') ?? (el.textContent ?? '').trim()}`}`;
        }),
    );
    const visited: string[] = [];
    const unmarked: string[] = [];
    await page.locator('body').focus();
    // A date input is one element with a stop per part (day, month, year): consecutive stops on one element count once.
    for (let presses = 0; visited.length < expected.length && presses < 4 * expected.length; presses++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        const marked = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
        const probe = el.dataset.focusProbe ?? '?';
        return {
          id: `${probe} ${el.id || `${el.tagName.toLowerCase()}:${el.getAttribute('aria-label') ?? (el.textContent ?? '').trim()}`}`,
          marked,
        };
      });
      if (visited.at(-1) === at.id) continue;
      visited.push(at.id);
      if (!at.marked) unmarked.push(at.id);
    }
    assert.deepEqual(visited, expected, 'Tab order = document order');
    assert.deepEqual(unmarked, [], 'every focused element shows a focus outline');
    assert.ok(expected.length > 40, `the page has its controls (${expected.length})`);
  });

  await t.test('a valid Factur-X PDF: verdict, rendered invoice, JSON and XML tabs', async () => {
    const pdfPath = join(OUT, 'valid-factur-x.pdf');
    writeFileSync(pdfPath, await facturxPdf());
    await checkFile(page, pdfPath);
    assert.equal(await page.getAttribute('#report .verdict', 'data-verdict'), 'valid');
    assert.match((await page.textContent('#report .verdict-title')) ?? '', /Valid: valid-factur-x\.pdf/);
    assert.match((await page.textContent('#check-status')) ?? '', /valid, 0 errors/);
    // The rendered invoice (CEN example 4, number TOSL110) in the frame.
    const frame = page.frameLocator('#invoice-frame');
    assert.equal(await frame.locator('[data-bt="BT-1"]').first().textContent(), 'TOSL110');
    await screenshot(page, 'valid-pdf');
    // Keyboard: the tabs follow the arrow keys.
    await page.focus('#tab-invoice');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getAttribute('#tab-json', 'aria-selected'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'tab-json');
    await page.waitForFunction(() => (document.getElementById('json-view')?.textContent ?? '').includes('"invoice_number"'));
    const json = JSON.parse((await page.textContent('#json-view')) ?? '');
    assert.equal(json.invoice_json.invoice_number, 'TOSL110');
    assert.equal(json.format_detected, 'factur-x');
    await screenshot(page, 'json-tab');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getAttribute('#tab-xml', 'aria-selected'), 'true');
    assert.equal(await page.isHidden('#panel-invoice'), true);
    // The PDF's embedded XML, byte for byte (Accept: application/xml on /v1/extract), one list item per line.
    const xmlLines = await page.$$eval('#xml-view li', (lis) => lis.map((li) => li.textContent));
    const embedded = readFixture('cen/examples/cii/CII_example4.xml')
      .toString('utf8')
      .split(/\r\n|\n/);
    assert.equal(xmlLines.length, embedded.length);
    assert.equal(xmlLines[1], embedded[1] || ' ');
    await screenshot(page, 'xml-tab');
    await page.keyboard.press('Home');
    assert.equal(await page.getAttribute('#tab-invoice', 'aria-selected'), 'true');
    // The labels' language: the invoice is drawn again in German.
    const again = page.waitForEvent('framenavigated', { predicate: (f) => f.name() === 'invoice-frame' });
    await page.selectOption('#check-lang', 'de');
    await again;
    await page.waitForFunction(
      () => (document.getElementById('invoice-frame') as HTMLIFrameElement).contentDocument?.documentElement?.lang === 'de',
    );
    await page.selectOption('#check-lang', 'en');
  });

  await t.test('a file dropped on the drop zone is checked', async () => {
    const frameLoaded = page.waitForEvent('framenavigated', { predicate: (f) => f.name() === 'invoice-frame' });
    const xml = readFixture('cen/examples/cii/CII_example4.xml').toString('utf8');
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'dropped.xml', { type: 'application/xml' }));
      for (const type of ['dragenter', 'dragover', 'drop'])
        document.getElementById('drop')!.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, xml);
    await page.waitForSelector('#report .verdict[data-verdict="valid"] .file');
    assert.equal(await page.textContent('#report .verdict-title .file'), 'dropped.xml');
    await frameLoaded;
    await page.frameLocator('#invoice-frame').locator('main.invoice').waitFor();
    assert.equal(await page.frameLocator('#invoice-frame').locator('[data-bt="BT-1"]').first().textContent(), 'TOSL110');
    await screenshot(page, 'dropped-xml');
    // The French CTC rules on request: ticking the box checks the same file again with rules=br_fr_ctc.
    const withBrFr = await validate(readFixture('cen/examples/cii/CII_example4.xml'), { rules: 'br_fr_ctc' });
    const brFrSets = [...new Set(withBrFr.errors.map((e) => e.rule_set))].filter((r) => /fr/.test(r ?? ''));
    assert.ok(brFrSets.length > 0, 'the CEN example breaks French CTC rules');
    await page.check('#check-br-fr');
    await page.waitForFunction((n) => document.querySelectorAll('#report li.finding').length === n, withBrFr.errors.length);
    assert.deepEqual(
      await listedFindings(page),
      withBrFr.errors.map((e) => ({ rule: e.rule_id ?? '', location: e.location ?? null })),
    );
    await page.uncheck('#check-br-fr');
    await page.waitForFunction(() => document.querySelectorAll('#report li.finding').length === 0);
  });

  await t.test('an invalid XML: the findings by rule set; each one points at its value, the XSD finding at its XML line', async () => {
    const bad = join(OUT, 'invalid-CII_example4.xml');
    writeFileSync(bad, invalidInvoice());
    await checkFile(page, bad);
    assert.equal(await page.getAttribute('#report .verdict', 'data-verdict'), 'invalid');
    const direct = await validate(readFileSync(bad));
    const listed = await listedFindings(page);
    assert.deepEqual(
      listed,
      direct.errors.map((e) => ({ rule: e.rule_id ?? '', location: e.location ?? null })),
      'the UI lists every finding of /v1/validate',
    );
    const ruleSets = await page.$$eval('#report section.ruleset', (s) => s.map((x) => x.getAttribute('data-rule-set')));
    assert.deepEqual(ruleSets, [...new Set(direct.errors.map((e) => e.rule_set))], 'grouped by rule set');
    for (const rule of ['BR-CO-10', 'BR-11', 'XSD'])
      assert.ok(
        listed.some((f) => f.rule === rule),
        rule,
      );
    await screenshot(page, 'invalid-xml');

    const sources = new Set(
      await page.evaluate(() =>
        [...(document.getElementById('invoice-frame') as HTMLIFrameElement).contentDocument!.querySelectorAll('[data-src]')].map(
          (e) => e.getAttribute('data-src')!,
        ),
      ),
    );
    assert.ok(sources.size > 50, 'the rendered page carries data-src');
    const buttons = page.locator('#report button.finding-head');
    let exact = 0;
    let byParent = 0;
    for (let i = 0; i < listed.length; i++) {
      const { rule, location } = listed[i];
      if (!location || /^line \d+$/.test(location)) continue;
      await buttons.nth(i).click();
      const expected = expectedSource(location, sources);
      const mark = await highlighted(page);
      if (!expected) {
        assert.equal(mark, null, `${rule} at ${location}: nothing on the page, nothing marked`);
        assert.match((await page.textContent('#check-status')) ?? '', new RegExp(`^${rule}: no value`));
        continue;
      }
      assert.ok(mark, `${rule}: one element marked`);
      assert.equal(mark.src, expected, `${rule} at ${location}`);
      assert.ok(mark.visible, `${rule}: scrolled into view`);
      if (expected === location) exact++;
      else byParent++;
      if (rule === 'BR-CO-10') {
        assert.equal(mark.bt, 'BT-106', 'BR-CO-10 points at the sum of line net amounts');
        await screenshot(page, 'finding-BR-CO-10-highlighted', true);
      }
    }
    assert.ok(exact >= 2, `findings pointed at exactly (${exact}; by their parent group: ${byParent})`);
    // A finding that lands on a group (BR-11: the buyer's address without its country) names the group and its
    // values as laid out, one after the other, not run together.
    await buttons.nth(listed.findIndex((f) => f.rule === 'BR-11')).click();
    assert.match(
      (await page.textContent('#check-status')) ?? '',
      /^BR-11: shown on the invoice at BG-8 Anystreet, Building 1 · 101 Anytown/,
    );
    // Keyboard: Enter on a finding's button points at it too.
    const coIndex = listed.findIndex((f) => f.rule === 'BR-S-08');
    await buttons.nth(coIndex).focus();
    await page.keyboard.press('Enter');
    assert.equal((await highlighted(page))?.bt, 'BT-116');
    // The XSD finding (the missing CountryID: "line 147") is shown in the XML tab at its line.
    const xsd = listed.findIndex((f) => f.rule === 'XSD');
    await buttons.nth(xsd).click();
    assert.equal(await page.getAttribute('#tab-xml', 'aria-selected'), 'true');
    const line = Number(/^line (\d+)$/.exec(listed[xsd].location ?? '')?.[1]);
    assert.equal(await page.$$eval('#xml-view li.current', (lis) => lis.length), 1);
    assert.equal(await page.$eval('#xml-view li.current', (li) => [...li.parentElement!.children].indexOf(li) + 1), line);
    await screenshot(page, 'finding-XSD-xml-line', true);
    await page.click('#tab-invoice');
    assertNoViolations(await axe(page, 'report of an invalid invoice'), 'with a report shown');
  });

  await t.test('a PDF without invoice XML and a file that is no invoice: the answer says so', async () => {
    const plain = join(OUT, 'plain.pdf');
    writeFileSync(plain, readFileSync(resolve(import.meta.dirname, '..', 'examples', 'plain.pdf')));
    await page.setInputFiles('#check-file', plain);
    await page.waitForFunction(() => !document.getElementById('invoice-note')?.hidden);
    assert.match((await page.textContent('#invoice-note')) ?? '', /NO_XML/);
    assert.equal(await page.isHidden('#invoice-frame'), true, 'no frame showing the raw refusal');
    assert.equal(await page.getAttribute('#report .verdict', 'data-verdict'), 'invalid');
    assert.ok((await listedFindings(page)).some((f) => f.rule === 'NO_XML'));
    const junk = join(OUT, 'notes.txt');
    writeFileSync(junk, 'just some notes');
    await page.setInputFiles('#check-file', junk);
    await page.waitForSelector('#report .verdict[data-verdict="unreadable"]');
    assert.match((await page.textContent('#report')) ?? '', /NOT_PDF_OR_XML/);
    await page.waitForFunction(() => /NOT_PDF_OR_XML/.test(document.getElementById('invoice-note')?.textContent ?? ''));
    assert.equal(await page.isHidden('#invoice-frame'), true);
    await screenshot(page, 'not-an-invoice');
  });

  await t.test('the form: a refused field is marked, then XML, PDF and Factur-X downloads that validate', async () => {
    await page.fill('#m-number', 'UI-2026-001');
    await page.fill('#m-date', '2026-11-20');
    await page.fill('#m-due', '2026-12-20');
    await page.fill('#m-currency', 'EUR');
    await page.fill('#m-buyer-ref', 'PO-4711');
    await page.fill('#m-terms', 'Payable within 30 days.');
    await page.fill('#m-iban', 'DE02120300000000202051');
    await page.fill('#m-seller-name', 'Muster Software GmbH');
    await page.fill('#m-seller-vat', 'DE123456789');
    await page.fill('#m-seller-street', 'Hauptstraße 1');
    await page.fill('#m-seller-postcode', '10115');
    await page.fill('#m-seller-city', 'Berlin');
    await page.fill('#m-seller-country', 'DE');
    await page.fill('#m-seller-contact', 'Erika Mustermann');
    await page.fill('#m-seller-phone', '+49 30 1234567');
    await page.fill('#m-seller-email', 'billing@muster.example');
    await page.fill('#m-buyer-name', 'Beispiel AG');
    await page.fill('#m-buyer-vat', 'DE987654321');
    await page.fill('#m-buyer-street', 'Marktplatz 5');
    await page.fill('#m-buyer-postcode', '80331');
    await page.fill('#m-buyer-city', 'München');
    await page.fill('#m-buyer-country', 'DE');
    await page.fill('#m-buyer-email', 'ap@beispiel.example');
    const row = (n: number, field: string) => page.locator(`#m-lines tr:nth-child(${n}) input[data-line="${field}"]`);
    await row(1, 'name').fill('Software licence');
    await row(1, 'quantity').fill('2');
    await row(1, 'net_price').fill('450.00');
    await page.click('#m-add-line');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Item, line 2');
    await page.keyboard.type('Consulting');
    await row(2, 'quantity').fill('6.5');
    await row(2, 'unit_code').fill('HUR');
    await row(2, 'net_price').fill('120');
    // Line 2 under reverse charge (AE, 0 %): the invoice gets a VAT breakdown per category.
    await page.selectOption('#m-lines tr:nth-child(2) select[data-line="vat_category"]', 'AE');
    await row(2, 'vat_rate').fill('0');
    // A value the service refuses (a VAT rate of 19 % with category... here: a country that does not exist).
    await page.fill('#m-buyer-country', 'XX');
    await page.click('button[value="xml"]');
    await page.waitForSelector('#make-status .errors-list');
    assert.equal(await page.getAttribute('#m-buyer-country', 'aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'm-buyer-country', 'focus moves to the refused field');
    await screenshot(page, 'form-refused-field');
    assertNoViolations(await axe(page, 'form with a refused field'), 'with a refused field');
    await page.fill('#m-buyer-country', 'DE');
    await page.selectOption('#m-profile', 'xrechnung');

    // XML
    const [xmlDownload] = await Promise.all([page.waitForEvent('download'), page.click('button[value="xml"]')]);
    const xmlPath = join(OUT, 'made-by-form.xml');
    await xmlDownload.saveAs(xmlPath);
    assert.equal(xmlDownload.suggestedFilename(), 'UI-2026-001.xml');
    const made = await validate(readFileSync(xmlPath));
    assert.deepEqual(
      made.errors.filter((e) => e.severity === 'error'),
      [],
      'the downloaded XML is a valid invoice',
    );
    assert.equal(made.valid, true);
    assert.equal(made.flavor, 'xrechnung');
    const xmlText = readFileSync(xmlPath, 'utf8');
    for (const v of ['UI-2026-001', 'Beispiel AG', 'Consulting', 'PO-4711', 'DE02120300000000202051']) assert.ok(xmlText.includes(v), v);
    assert.match(xmlText, /<ram:LineTotalAmount>780\.00<\/ram:LineTotalAmount>/, 'the service computed line 2 (6.5 × 120)');
    assert.deepEqual(
      [...xmlText.matchAll(/<ram:ApplicableTradeTax>.*?<ram:CategoryCode>(\w+)<\/ram:CategoryCode>/gs)].map((m) => m[1]).sort(),
      ['AE', 'AE', 'S', 'S'],
      'each line and the breakdown carry their category',
    );
    await screenshot(page, 'form-xml-downloaded');

    // The rendered PDF (POST /v1/render format=pdf): a PDF when this build draws them, else the UI says it cannot.
    await page.selectOption('#m-profile', 'en16931');
    if (AVAILABLE_RENDER_FORMATS.includes('pdf')) {
      const [pdfDownload] = await Promise.all([page.waitForEvent('download'), page.click('button[value="pdf"]')]);
      const pdfPath = join(OUT, 'made-by-form-rendered.pdf');
      await pdfDownload.saveAs(pdfPath);
      assert.equal(readFileSync(pdfPath).subarray(0, 5).toString('latin1'), '%PDF-');
      // Read back by poppler, which did not write it: the form's number, buyer and line are on the page.
      const text = spawnSync('pdftotext', [pdfPath, '-'], { encoding: 'utf8', ...SYNC_CHILD });
      assert.equal(text.status, 0, text.stderr);
      for (const v of ['UI-2026-001', 'Beispiel AG', 'Consulting']) assert.ok(text.stdout.includes(v), v);
    } else {
      // No button that could only answer RENDER_FORMAT_UNAVAILABLE; the PDF field says a Factur-X needs the user's PDF.
      assert.equal(await page.isHidden('button[value="pdf"]'), true);
      assert.match((await page.textContent('#m-pdf-hint')) ?? '', /does not draw invoices as PDFs/);
    }

    // The Factur-X PDF with an uploaded PDF (POST /v1/convert).
    await page.setInputFiles('#m-pdf', resolve(import.meta.dirname, '..', 'examples', 'plain.pdf'));
    const [fxDownload] = await Promise.all([page.waitForEvent('download'), page.click('button[value="facturx"]')]);
    const fxPath = join(OUT, 'made-by-form-factur-x.pdf');
    await fxDownload.saveAs(fxPath);
    const fx = await validate(readFileSync(fxPath));
    assert.equal(fx.valid, true, JSON.stringify(fx.errors));
    assert.equal(fx.format, 'factur-x');
    assert.match((await page.textContent('#make-status')) ?? '', /Downloaded UI-2026-001\.pdf \(PDF\/A-3b check: passed\)/);
    // Without a PDF: the drawn Factur-X when the service makes one from metadata alone, else the UI asks for a PDF.
    await page.setInputFiles('#m-pdf', []);
    const probe = await fetch(`${base}/v1/convert`, {
      method: 'POST',
      body: new URLSearchParams({ metadata: '{}' }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    const drawsFacturX = probe.status !== 422 || !JSON.stringify(await probe.json()).includes('"pdf"');
    if (drawsFacturX) {
      const [drawn] = await Promise.all([page.waitForEvent('download'), page.click('button[value="facturx"]')]);
      const drawnPath = join(OUT, 'made-by-form-drawn-factur-x.pdf');
      await drawn.saveAs(drawnPath);
      const drawnCheck = await validate(readFileSync(drawnPath));
      assert.equal(drawnCheck.valid, true, JSON.stringify(drawnCheck.errors));
      assert.equal(drawnCheck.format, 'factur-x');
      assert.match((await page.textContent('#make-status')) ?? '', /Downloaded UI-2026-001\.pdf \(PDF\/A-3b check: passed\)/);
    } else {
      await page.click('button[value="facturx"]');
      await page.waitForFunction(() => /Choose your invoice PDF/.test(document.getElementById('make-status')?.textContent ?? ''));
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'm-pdf');
    }
    await screenshot(page, 'form-factur-x');

    // "Check this invoice": the made invoice goes to the checker.
    await page.click('button[value="check"]');
    await page.waitForSelector('#report .verdict[data-verdict="valid"]');
    assert.match((await page.textContent('#report .verdict-title')) ?? '', /UI-2026-001\.xml/);
    await screenshot(page, 'form-checked');
  });

  await t.test('the form: a credit note for a preceding invoice, with an allowance and a charge on the whole invoice', async () => {
    // The allowance's and the charge's VAT categories are the lines' (one list, in the line template), after "as the lines".
    const categories = (select: string) => page.$$eval(`${select} option`, (os) => os.map((o) => (o as HTMLOptionElement).value));
    const lineCategories = await categories('#m-lines tr:nth-child(1) select[data-line="vat_category"]');
    assert.ok(lineCategories.includes('S') && lineCategories.includes('M'), lineCategories.join(' '));
    for (const kind of ['allowance', 'charge']) assert.deepEqual(await categories(`#m-${kind}-category`), ['', ...lineCategories], kind);
    await page.selectOption('#m-type', '381');
    await page.fill('#m-number', 'UI-2026-002');
    await page.fill('#m-preceding', 'UI-2026-001');
    await page.fill('#m-preceding-date', '2026-11-20');
    await page.fill('#m-allowance-amount', '50');
    await page.fill('#m-allowance-reason', 'Loyalty discount');
    await page.fill('#m-allowance-rate', '19');
    // The lines use two categories: which one an allowance or charge is under must be said (the service asks for it).
    await page.fill('#m-charge-amount', '20.00');
    await page.fill('#m-charge-reason', 'Freight');
    await page.fill('#m-charge-rate', '19');
    await page.selectOption('#m-profile', 'en16931');
    await page.click('button[value="xml"]');
    await page.waitForSelector('#make-status .errors-list');
    assert.equal(await page.getAttribute('#m-allowance-category', 'aria-invalid'), 'true', 'the category is asked for');
    assert.match((await page.textContent('#make-status')) ?? '', /several VAT categories/);
    await page.selectOption('#m-allowance-category', 'S');
    await page.selectOption('#m-charge-category', 'S');
    const download = async (name: string) => {
      const [d] = await Promise.all([page.waitForEvent('download'), page.click('button[value="xml"]')]);
      const path = join(OUT, name);
      await d.saveAs(path);
      return { path, text: readFileSync(path, 'utf8'), result: await validate(readFileSync(path)) };
    };
    const cii = await download('credit-note-by-form.xml');
    assert.deepEqual(
      cii.result.errors.filter((e) => e.severity === 'error'),
      [],
      'the credit note is a valid invoice',
    );
    assert.match(cii.text, /<rsm:ExchangedDocument>.*?<ram:TypeCode>381<\/ram:TypeCode>/s, 'a credit note');
    assert.match(cii.text, /<ram:InvoiceReferencedDocument>\s*<ram:IssuerAssignedID>UI-2026-001<\/ram:IssuerAssignedID>/, 'BT-25');
    assert.match(cii.text, /<ram:AllowanceTotalAmount>50\.00<\/ram:AllowanceTotalAmount>/, 'BT-107');
    assert.match(cii.text, /<ram:ChargeTotalAmount>20\.00<\/ram:ChargeTotalAmount>/, 'BT-108');
    for (const v of ['Loyalty discount', 'Freight']) assert.ok(cii.text.includes(v), v);
    // The same as Peppol BIS (UBL): a CreditNote document, valid under the Peppol rules too. Peppol does not take an
    // e-mail as electronic address (EAS has no EM): the parties' Peppol IDs are.
    await page.fill('#m-seller-endpoint', '0088:5790000435968');
    await page.fill('#m-buyer-endpoint', '0088:4000001123452');
    await page.selectOption('#m-profile', 'peppol');
    const ubl = await download('credit-note-by-form-peppol.xml');
    assert.deepEqual(
      ubl.result.errors.filter((e) => e.severity === 'error'),
      [],
      'the Peppol credit note is valid',
    );
    assert.ok(ubl.result.rule_sets.includes('peppol-bis-3'), ubl.result.rule_sets.join(' '));
    assert.match(ubl.text, /<CreditNote\b/, 'a UBL CreditNote');
    assert.match(ubl.text, /<cbc:CreditNoteTypeCode>381<\/cbc:CreditNoteTypeCode>/);
    assert.match(ubl.text, /<cbc:EndpointID schemeID="0088">5790000435968<\/cbc:EndpointID>/, 'the seller’s Peppol ID');
    assert.match(ubl.text, /<cbc:ElectronicMail>billing@muster\.example<\/cbc:ElectronicMail>/, 'the e-mail stays the contact’s');
    await screenshot(page, 'form-credit-note');
    assertNoViolations(await axe(page, 'form with a credit note'), 'with a credit note');
    // Back to an invoice for what follows.
    await page.selectOption('#m-type', '380');
    await page.selectOption('#m-allowance-category', '');
    await page.selectOption('#m-charge-category', '');
    for (const id of [
      '#m-preceding',
      '#m-preceding-date',
      '#m-allowance-amount',
      '#m-allowance-reason',
      '#m-allowance-rate',
      '#m-charge-amount',
      '#m-charge-reason',
      '#m-charge-rate',
    ])
      await page.fill(id, '');
    await page.selectOption('#m-profile', 'en16931');
  });

  await t.test('pro edition: the smart diagnostics, and their terms pick the value inside a group', async () => {
    const proPage = await open(proBase);
    assert.equal(await proPage.getAttribute('body', 'data-edition'), 'pro');
    await checkFile(proPage, join(OUT, 'invalid-CII_example4.xml'));
    assert.ok((await proPage.locator('#report .finding .suggestion').count()) > 0, 'suggestions shown');
    assert.ok((await proPage.locator('#report .finding .explanation').count()) > 0, 'explanations shown');
    const listed = await listedFindings(proPage);
    const i = listed.findIndex((f) => f.rule === 'BR-CO-10');
    await proPage.locator('#report button.finding-head').nth(i).click();
    const mark = await highlighted(proPage);
    assert.equal(mark?.bt, 'BT-106');
    assert.match((await proPage.textContent('#report li.finding.current .terms')) ?? '', /BT-106/);
    await screenshot(proPage, 'pro-diagnostics', true);
    assertNoViolations(await axe(proPage, 'pro report'), 'with pro diagnostics');
    await proPage.close();
  });

  await t.test('einvoice validate --format html: the batch report page in the browser, accessible too', async () => {
    const dir = join(OUT, 'batch');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'valid.xml'), readFixture('cen/examples/cii/CII_example4.xml'));
    writeFileSync(join(dir, 'invalid.xml'), invalidInvoice());
    writeFileSync(join(dir, 'notes.pdf'), 'not a PDF');
    const report = join(OUT, 'batch-report.html');
    const run = await runCli(['validate', dir, '--format', 'html', '-o', report]);
    assert.equal(run.code, 1, run.stderr);
    const batch = await context.newPage();
    watch(batch, ['file://']);
    await batch.goto(`file://${report}`);
    assert.deepEqual(await batch.$$eval('section.file .verdict', (v) => v.map((x) => x.getAttribute('data-verdict'))), [
      'invalid',
      'unreadable',
      'valid',
    ]);
    assert.ok((await batch.locator('li.finding[data-rule="BR-CO-10"]').count()) === 1);
    await screenshot(batch, 'batch-report');
    // The CSS-only filter: valid files without findings are hidden.
    await batch.check('#only-findings');
    assert.equal(await batch.isHidden('section.file.clean'), true);
    await screenshot(batch, 'batch-report-only-findings');
    await batch.uncheck('#only-findings');
    assertNoViolations(await axe(batch, 'batch report (CLI)'), 'on the batch report page');
    await batch.close();
  });

  await t.test('nothing left the service, and the page logged no error (CSP included)', async () => {
    assert.deepEqual(offOrigin, [], 'requests to other origins');
    assert.deepEqual(pageErrors, [], 'errors in the page');
  });
  await page.close();
});
