// @ts-check
/**
 * The browser UI at `/`: check an invoice (verdict and findings beside the rendered invoice, the extracted JSON and
 * the XML), point at the value a finding is about, and make an invoice from a form. Plain JavaScript modules, served
 * as they are from assets/ui/ (no build step, nothing from elsewhere); type-checked by tsc through its JSDoc
 * (tsconfig.ui.json). Every answer comes from this service's own API: /v1/validate, /v1/extract, /v1/render,
 * /v1/xml, /v1/convert.
 */
import { countsOf, findingsHtml, findingsOf, problemHtml, verdictHtml } from './report-view.js';

/** @typedef {import('./report-view.js').Finding} Finding */
/** @typedef {import('./report-view.js').ValidationResult} ValidationResult */

/**
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T }} type
 * @returns {T}
 */
function byId(id, type) {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return el;
}

const ui = {
  drop: byId('drop', HTMLElement),
  file: byId('check-file', HTMLInputElement),
  lang: byId('check-lang', HTMLSelectElement),
  brFr: byId('check-br-fr', HTMLInputElement),
  status: byId('check-status', HTMLElement),
  result: byId('result', HTMLElement),
  report: byId('report', HTMLElement),
  frame: byId('invoice-frame', HTMLIFrameElement),
  invoiceNote: byId('invoice-note', HTMLElement),
  json: byId('json-view', HTMLElement),
  xml: byId('xml-view', HTMLOListElement),
  xmlNote: byId('xml-note', HTMLElement),
  renderForm: byId('render-form', HTMLFormElement),
  renderFile: byId('render-file', HTMLInputElement),
  renderLang: byId('render-lang', HTMLInputElement),
  make: byId('make-form', HTMLFormElement),
  makeStatus: byId('make-status', HTMLElement),
  lines: byId('m-lines', HTMLElement),
  addLine: byId('m-add-line', HTMLButtonElement),
  lineTemplate: byId('line-template', HTMLTemplateElement),
  pdf: byId('m-pdf', HTMLInputElement),
};

/** Class and attribute the highlighted value gets inside the rendered page. */
const HIGHLIGHT = 'einvoice-ui-highlight';
/** Lines of XML drawn as list items (each addressable by an XSD finding's `line N`); the rest is cut with a note. */
const MAX_XML_LINES = 20000;

// ------------------------------------------------------------------------------------------------
// answers of the API

/**
 * A failed answer as text: ProblemDetails (`code`, `detail`, `errors`) or a request-shape 422 (`detail[]` with
 * `loc` and `msg`).
 * @param {Response} res
 * @returns {Promise<{ message: string, code?: string, issues: { loc: (string | number)[], msg: string }[] }>}
 */
async function problemOf(res) {
  const text = await res.text();
  /** @type {any} */
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return { message: `${res.status} ${res.statusText}`, issues: [] };
  }
  if (Array.isArray(body?.detail)) {
    const issues = body.detail.map((/** @type {any} */ d) => ({ loc: Array.isArray(d.loc) ? d.loc : [], msg: String(d.msg ?? '') }));
    return { message: 'Some fields need a correction', issues };
  }
  /** @type {{ loc: (string | number)[], msg: string }[]} */
  const issues = [];
  for (const e of Array.isArray(body?.errors) ? body.errors : []) {
    const where = e.field ?? e.location ?? '';
    const msg = [e.rule ?? e.rule_id, e.message ?? e.msg].filter(Boolean).join(': ');
    issues.push({ loc: String(where).split('.').filter(Boolean), msg: msg || JSON.stringify(e) });
  }
  const code = typeof body?.code === 'string' ? body.code : undefined;
  return { message: `${code ? `${code}: ` : ''}${body?.detail ?? body?.title ?? res.statusText}`, code, issues };
}

/** The file name an answer proposes (Content-Disposition), else the fallback. @param {Response} res @param {string} fallback */
function fileNameOf(res, fallback) {
  const cd = res.headers.get('content-disposition') ?? '';
  const m = /filename="([^"]+)"/.exec(cd);
  return m ? m[1] : fallback;
}

/** Offer a blob as a download. @param {Blob} blob @param {string} name */
function download(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

/**
 * XML bytes as text: the byte-order mark, else the declared encoding, else UTF-8.
 * @param {Uint8Array} bytes
 */
function decodeXml(bytes) {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^\s*<\?xml[^>]*encoding=["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Is this a PDF (by its first bytes)? @param {Uint8Array} bytes */
const isPdf = (bytes) => new TextDecoder('latin1').decode(bytes.subarray(0, 1024)).includes('%PDF-');

// ------------------------------------------------------------------------------------------------
// checking an invoice

/** The check in progress: a newer one makes the answers of older ones stale. */
let generation = 0;
/** @type {{ file: File, findings: Finding[] } | undefined} */
let current;
/** data-src → elements of the rendered page, built when it has loaded. @type {Map<string, Element[]> | undefined} */
let srcIndex;

/** @param {string} text @param {boolean} [error] */
function say(text, error = false) {
  ui.status.textContent = text;
  ui.status.classList.toggle('error', error);
}

/** @param {File} file */
async function check(file) {
  const gen = ++generation;
  const bytes = new Uint8Array(await file.arrayBuffer());
  current = { file, findings: [] };
  srcIndex = undefined;
  say(`Checking ${file.name}…`);
  ui.result.hidden = false;
  ui.report.innerHTML = '<p class="no-findings">Validating…</p>';
  ui.json.textContent = 'Reading…';
  ui.xml.replaceChildren();
  ui.xmlNote.hidden = true;
  selectTab('tab-invoice', false);
  const stale = () => gen !== generation;

  const validated = validateFile(file).then((r) => !stale() && showReport(file, r));
  const extracted = extractJson(file).then((text) => {
    if (!stale()) ui.json.textContent = text;
  });
  const xml = xmlOf(file, bytes).then((x) => !stale() && showXml(x));
  const rendered = renderFile(file);
  await Promise.allSettled([validated, extracted, xml, rendered]);
}

/**
 * @param {File} file
 * @returns {Promise<{ result: ValidationResult } | { problem: { code: string, message: string } }>}
 */
async function validateFile(file) {
  const form = new FormData();
  form.append('file', file, file.name);
  if (ui.brFr.checked) form.append('rules', 'br_fr_ctc');
  try {
    const res = await fetch('/v1/validate', { method: 'POST', body: form });
    if (res.ok) return { result: await res.json() };
    const p = await problemOf(res);
    return { problem: { code: p.code ?? String(res.status), message: p.message } };
  } catch (err) {
    return { problem: { code: 'NETWORK', message: `The service did not answer: ${String(err)}` } };
  }
}

/** @param {File} file @param {{ result: ValidationResult } | { problem: { code: string, message: string } }} answer */
function showReport(file, answer) {
  if ('problem' in answer) {
    ui.report.innerHTML = problemHtml(answer.problem, { title: file.name });
    current = { file, findings: [] };
    say(`${file.name} could not be checked: ${answer.problem.code}.`, true);
    return;
  }
  const findings = findingsOf(answer.result);
  current = { file, findings };
  ui.report.innerHTML = verdictHtml(answer.result, { title: file.name, findings }) + findingsHtml(findings, { interactive: true });
  const { errors, warnings } = countsOf(answer.result, findings);
  say(
    `${file.name}: ${answer.result.valid ? 'valid' : 'invalid'}, ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.`,
  );
}

/** The ExtractionResult as indented JSON, or why there is none. @param {File} file */
async function extractJson(file) {
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    const res = await fetch('/v1/extract', { method: 'POST', body: form });
    if (!res.ok) return `No data: ${(await problemOf(res)).message}`;
    return JSON.stringify(await res.json(), null, 2);
  } catch (err) {
    return `No data: ${String(err)}`;
  }
}

/**
 * The invoice XML: an XML upload as it is, a PDF's embedded XML from /v1/extract (Accept: application/xml).
 * @param {File} file
 * @param {Uint8Array} bytes
 * @returns {Promise<{ text: string } | { note: string }>}
 */
async function xmlOf(file, bytes) {
  if (!isPdf(bytes)) return { text: decodeXml(bytes) };
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    const res = await fetch('/v1/extract', { method: 'POST', body: form, headers: { accept: 'application/xml' } });
    if (!res.ok) return { note: `No invoice XML: ${(await problemOf(res)).message}` };
    return { text: decodeXml(new Uint8Array(await res.arrayBuffer())) };
  } catch (err) {
    return { note: `No invoice XML: ${String(err)}` };
  }
}

/** @param {{ text: string } | { note: string }} x */
function showXml(x) {
  if ('note' in x) {
    ui.xmlNote.textContent = x.note;
    ui.xmlNote.hidden = false;
    return;
  }
  const lines = x.text.split(/\r\n|\r|\n/);
  const frag = document.createDocumentFragment();
  const shown = Math.min(lines.length, MAX_XML_LINES);
  for (let i = 0; i < shown; i++) {
    const li = document.createElement('li');
    li.textContent = lines[i] || ' ';
    frag.append(li);
  }
  ui.xml.replaceChildren(frag);
  if (shown < lines.length) {
    ui.xmlNote.textContent = `The first ${shown.toLocaleString('en')} of ${lines.length.toLocaleString('en')} lines are shown.`;
    ui.xmlNote.hidden = false;
  }
}

/**
 * Draw the invoice in the sandboxed frame: a form post to /v1/render, so the page arrives with its own answer's
 * Content-Security-Policy (a srcdoc or blob: page would inherit this page's, which refuses its inline style).
 * Resolves when the frame has loaded; a refusal (ProblemDetails instead of a page) is shown above the frame.
 * @param {File} file
 */
function renderFile(file) {
  const gen = generation;
  const dt = new DataTransfer();
  dt.items.add(file);
  ui.renderFile.files = dt.files;
  ui.renderLang.value = ui.lang.value;
  ui.invoiceNote.hidden = true;
  ui.invoiceNote.classList.remove('error');
  ui.frame.hidden = false;
  return new Promise((resolve) => {
    const loaded = () => {
      ui.frame.removeEventListener('load', loaded);
      if (gen === generation) frameLoaded();
      resolve(undefined);
    };
    ui.frame.addEventListener('load', loaded);
    ui.renderForm.submit();
  });
}

function frameLoaded() {
  const doc = ui.frame.contentDocument;
  srcIndex = new Map();
  if (!doc) return;
  if (doc.contentType !== 'text/html') {
    /** @type {any} */
    let body;
    try {
      body = JSON.parse(doc.body?.textContent ?? '');
    } catch {
      body = undefined;
    }
    ui.invoiceNote.textContent = `Nothing to draw: ${body?.code ? `${body.code}: ` : ''}${body?.detail ?? body?.title ?? 'the service refused the file'}`;
    ui.invoiceNote.classList.add('error');
    ui.invoiceNote.hidden = false;
    // The refusal is said above; the frame would only show its raw JSON.
    ui.frame.hidden = true;
    return;
  }
  for (const el of doc.querySelectorAll('[data-src]')) {
    const src = el.getAttribute('data-src') ?? '';
    const list = srcIndex.get(src);
    if (list) list.push(el);
    else srcIndex.set(src, [el]);
  }
  // The page allows inline style (its CSP): the highlight's look goes in with it.
  const style = doc.createElement('style');
  style.textContent = `.${HIGHLIGHT}{outline:3px solid #c24e00 !important;outline-offset:2px;background:#fff1b8 !important;scroll-margin:40px}`;
  doc.head.append(style);
}

// ------------------------------------------------------------------------------------------------
// pointing at a finding

/**
 * The element of the rendered page a finding is about: the one whose data-src is the finding's location; failing
 * that, the location without its last step, and so on (a missing element lands on its parent group). Inside it, a
 * pro diagnostic's terms name the value (data-bt) to point at.
 * @param {Finding} f
 * @returns {Element | undefined}
 */
function targetOf(f) {
  if (!srcIndex || !f.location) return undefined;
  let path = f.location;
  /** @type {Element | undefined} */
  let found;
  while (path) {
    found = srcIndex.get(path)?.[0];
    if (found) break;
    const cut = path.lastIndexOf('/');
    if (cut <= 0) break;
    path = path.slice(0, cut);
  }
  if (!found) return undefined;
  for (const t of f.terms) {
    if (found.getAttribute('data-bt') === t.id) return found;
    const inner = found.querySelector(`[data-bt="${CSS.escape(t.id)}"]`);
    if (inner) return inner;
  }
  return found;
}

/** @param {Element} el */
function describe(el) {
  const id = el.getAttribute('data-bt') ?? el.getAttribute('data-bg');
  // As laid out (a group's values one per line, not run together), in one line.
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point (one value per line)
  const laidOut = 'innerText' in el ? /** @type {HTMLElement} */ (el).innerText : (el.textContent ?? '');
  const text = laidOut
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join(' · ');
  return `${id ? `${id} ` : ''}${text.length > 80 ? `${text.slice(0, 77)}…` : text}`;
}

/** @param {Finding} f @param {HTMLElement} button */
function locate(f, button) {
  for (const li of ui.report.querySelectorAll('.finding.current')) li.classList.remove('current');
  button.closest('.finding')?.classList.add('current');
  const line = /^line (\d+)$/.exec(f.location ?? '');
  if (line) {
    showXmlLine(Number(line[1]), f);
    return;
  }
  const doc = ui.frame.contentDocument;
  for (const old of doc?.querySelectorAll(`.${HIGHLIGHT}`) ?? []) {
    old.classList.remove(HIGHLIGHT);
    old.removeAttribute('data-ui-highlight');
  }
  const target = targetOf(f);
  if (!target) {
    say(
      `${f.ruleId}: ${f.location ? 'no value of the invoice page belongs to this location' : 'this finding has no location on the invoice'}.`,
    );
    return;
  }
  selectTab('tab-invoice', false);
  target.classList.add(HIGHLIGHT);
  target.setAttribute('data-ui-highlight', f.ruleId);
  target.scrollIntoView({ block: 'center' });
  say(`${f.ruleId}: shown on the invoice at ${describe(target)}.`);
}

/** @param {number} n @param {Finding} f */
function showXmlLine(n, f) {
  const li = ui.xml.children[n - 1];
  if (!(li instanceof HTMLElement)) {
    say(`${f.ruleId}: line ${n} of the XML is not shown.`);
    return;
  }
  selectTab('tab-xml', false);
  for (const old of ui.xml.querySelectorAll('li.current')) old.classList.remove('current');
  li.classList.add('current');
  li.scrollIntoView({ block: 'center' });
  say(`${f.ruleId}: shown in the XML at line ${n}.`);
}

ui.report.addEventListener('click', (ev) => {
  const button = ev.target instanceof Element ? ev.target.closest('button[data-finding]') : null;
  if (!(button instanceof HTMLElement) || !current) return;
  const f = current.findings[Number(button.dataset.finding)];
  if (f) locate(f, button);
});

// ------------------------------------------------------------------------------------------------
// tabs (WAI-ARIA tabs: arrow keys, Home and End move between them)

const tabs = /** @type {HTMLButtonElement[]} */ ([...document.querySelectorAll('[role="tab"]')]);

/** @param {string} id @param {boolean} focus */
function selectTab(id, focus) {
  for (const tab of tabs) {
    const on = tab.id === id;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '');
    if (panel) panel.hidden = !on;
    if (on && focus) tab.focus();
  }
}

for (const tab of tabs) {
  tab.addEventListener('click', () => selectTab(tab.id, false));
  tab.addEventListener('keydown', (ev) => {
    const i = tabs.indexOf(tab);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    selectTab(tabs[(to + tabs.length) % tabs.length].id, true);
  });
}

// ------------------------------------------------------------------------------------------------
// picking and dropping files

ui.file.addEventListener('change', () => {
  const f = ui.file.files?.[0];
  if (f) void check(f);
});
ui.lang.addEventListener('change', () => {
  if (current) void renderFile(current.file);
});
ui.brFr.addEventListener('change', () => {
  if (current) void check(current.file);
});
for (const type of ['dragenter', 'dragover']) {
  ui.drop.addEventListener(type, (ev) => {
    ev.preventDefault();
    ui.drop.classList.add('over');
  });
}
ui.drop.addEventListener('dragleave', () => ui.drop.classList.remove('over'));
ui.drop.addEventListener('drop', (ev) => {
  ev.preventDefault();
  ui.drop.classList.remove('over');
  const f = ev.dataTransfer?.files[0];
  if (f) void check(f);
});
// A file dropped beside the zone is not opened in place of the page.
window.addEventListener('dragover', (ev) => ev.preventDefault());
window.addEventListener('drop', (ev) => ev.preventDefault());

// ------------------------------------------------------------------------------------------------
// making an invoice

// The VAT categories are listed once, in the line template; the allowance's and the charge's selects get the same.
const lineCategories = ui.lineTemplate.content.querySelector('select[data-line="vat_category"]');
for (const select of ui.make.querySelectorAll('select[data-vat-categories]'))
  for (const option of lineCategories?.querySelectorAll('option') ?? []) {
    const copy = /** @type {HTMLOptionElement} */ (option.cloneNode(true));
    copy.removeAttribute('selected');
    select.append(copy);
  }

function addLine() {
  const row = /** @type {DocumentFragment} */ (ui.lineTemplate.content.cloneNode(true));
  const tr = row.querySelector('tr');
  ui.lines.append(row);
  renumberLines();
  return tr;
}

/** Each line's inputs are labelled with their line number; the only line cannot be removed. */
function renumberLines() {
  const rows = [...ui.lines.querySelectorAll('tr')];
  rows.forEach((tr, i) => {
    for (const input of tr.querySelectorAll('input, select')) {
      const what = input.getAttribute('aria-label')?.replace(/, line \d+$/, '') ?? '';
      input.setAttribute('aria-label', `${what}, line ${i + 1}`);
    }
    const remove = tr.querySelector('button.remove');
    if (remove instanceof HTMLButtonElement) {
      remove.disabled = rows.length === 1;
      remove.setAttribute('aria-label', `Remove line ${i + 1}`);
    }
  });
}

ui.addLine.addEventListener('click', () => {
  addLine()?.querySelector('input')?.focus();
});
ui.lines.addEventListener('click', (ev) => {
  const button = ev.target instanceof Element ? ev.target.closest('button.remove') : null;
  if (!button) return;
  const row = button.closest('tr');
  const next = row?.nextElementSibling ?? row?.previousElementSibling;
  row?.remove();
  renumberLines();
  next?.querySelector('input')?.focus();
});

/**
 * Set a value at a dotted path ("seller.address.city", "payment.credit_transfers.0.iban").
 * @param {Record<string, any>} obj @param {string} path @param {string} value
 */
function setPath(obj, path, value) {
  const keys = path.split('.');
  /** @type {any} */
  let at = obj;
  keys.forEach((k, i) => {
    if (i === keys.length - 1) at[k] = value;
    else at = at[k] ??= /^\d+$/.test(keys[i + 1]) ? [] : {};
  });
}

/** The form as invoice metadata for /v1/xml and /v1/convert (only what was filled in). */
function metadataOf() {
  /** @type {Record<string, any>} */
  const meta = {};
  for (const input of ui.make.querySelectorAll('[data-path]')) {
    if (!(input instanceof HTMLInputElement || input instanceof HTMLSelectElement)) continue;
    const value = input.value.trim();
    if (value) setPath(meta, input.dataset.path ?? '', value);
  }
  // A Peppol ID ("0088:5790000435968") is the party's electronic address; else its e-mail is (scheme EM, which
  // XRechnung accepts and Peppol does not). The e-mail is the contact's either way.
  for (const party of [meta.seller, meta.buyer]) {
    if (!party) continue;
    const email = party.electronic_address?.id;
    if (email) party.contact = { ...party.contact, email };
    if (party.peppol_id) {
      const colon = party.peppol_id.indexOf(':');
      party.electronic_address =
        colon > 0 ? { scheme: party.peppol_id.slice(0, colon), id: party.peppol_id.slice(colon + 1) } : { id: party.peppol_id };
    } else if (email) party.electronic_address.scheme = 'EM';
    delete party.peppol_id;
  }
  if (meta.payment) meta.payment.means_code = '58';
  meta.line_items = [...ui.lines.querySelectorAll('tr')].map((tr) => {
    /** @type {Record<string, string>} */
    const line = {};
    for (const input of tr.querySelectorAll('input, select')) {
      if (!(input instanceof HTMLInputElement || input instanceof HTMLSelectElement)) continue;
      const value = input.value.trim();
      if (value && input.dataset.line) line[input.dataset.line] = value;
    }
    return line;
  });
  return meta;
}

/** @param {string} text @param {boolean} [error] */
function makeSay(text, error = false) {
  ui.makeStatus.replaceChildren();
  const p = document.createElement('p');
  p.textContent = text;
  if (error) p.className = 'error';
  ui.makeStatus.append(p);
}

/**
 * A refused request: the message, and each field the service named, linked to its input.
 * @param {string} what
 * @param {{ message: string, issues: { loc: (string | number)[], msg: string }[] }} problem
 */
function showProblem(what, problem) {
  makeSay(`${what}: ${problem.message}`, true);
  for (const old of ui.make.querySelectorAll('[aria-invalid="true"]')) old.removeAttribute('aria-invalid');
  if (problem.issues.length === 0) return;
  const list = document.createElement('ul');
  list.className = 'errors-list';
  /** @type {HTMLElement | undefined} */
  let first;
  for (const issue of problem.issues) {
    const loc = issue.loc[0] === 'body' ? issue.loc.slice(issue.loc[1] === 'metadata' ? 2 : 1) : issue.loc;
    const input = inputFor(loc);
    const li = document.createElement('li');
    li.className = 'error';
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      first ??= input;
      const a = document.createElement('a');
      a.href = `#${input.id}`;
      a.textContent = labelOf(input);
      a.addEventListener('click', (ev) => {
        ev.preventDefault();
        input.focus();
      });
      li.append(a, `: ${issue.msg}`);
    } else li.textContent = `${loc.join('.') || 'request'}: ${issue.msg}`;
    list.append(li);
  }
  ui.makeStatus.append(list);
  first?.focus();
}

/** The input of a metadata location (["seller","name"], ["line_items",0,"net_price"]). @param {(string | number)[]} loc */
function inputFor(loc) {
  if (loc[0] === 'line_items' && typeof loc[1] === 'number') {
    const row = ui.lines.querySelectorAll('tr')[loc[1]];
    const input = row?.querySelector(`[data-line="${CSS.escape(String(loc[2] ?? 'name'))}"]`) ?? row?.querySelector('input');
    if (input instanceof HTMLInputElement || input instanceof HTMLSelectElement) {
      input.id ||= `m-line-${loc[1]}-${String(loc[2] ?? 'name')}`;
      return input;
    }
    return undefined;
  }
  // The electronic address comes from the Peppol ID when one is given, else from the e-mail.
  if (loc[1] === 'electronic_address' && (loc[0] === 'seller' || loc[0] === 'buyer')) {
    const endpoint = ui.make.querySelector(`[data-path="${loc[0]}.peppol_id"]`);
    if (endpoint instanceof HTMLInputElement && endpoint.value.trim()) return endpoint;
  }
  for (let n = loc.length; n > 0; n--) {
    const path = loc.slice(0, n).join('.');
    const input = ui.make.querySelector(`[data-path="${CSS.escape(path)}"]`);
    if (input instanceof HTMLElement) return input;
  }
  return undefined;
}

/** @param {HTMLElement} input */
function labelOf(input) {
  return (
    input.getAttribute('aria-label') ??
    document
      .querySelector(`label[for="${CSS.escape(input.id)}"]`)
      ?.textContent?.replace('*', '')
      .trim() ??
    input.id
  );
}

/** /v1/xml of the form's metadata. @returns {Promise<{ blob: Blob, name: string, dropped: string } | undefined>} */
async function buildXml() {
  const meta = metadataOf();
  const res = await fetch('/v1/xml', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(meta),
  });
  if (!res.ok) {
    showProblem('The invoice could not be made', await problemOf(res));
    return undefined;
  }
  const blob = await res.blob();
  const stem =
    String(meta.invoice_number ?? '')
      .replace(/[^\w.-]+/g, '_')
      .slice(0, 100) || 'invoice';
  return { blob, name: fileNameOf(res, `${stem}.xml`), dropped: res.headers.get('x-dropped-fields') ?? '' };
}

/** @param {string} dropped */
const droppedNote = (dropped) => (dropped ? ` Left out, the profile cannot carry them: ${dropped}.` : '');

/** @param {string} action */
async function make(action) {
  for (const old of ui.make.querySelectorAll('[aria-invalid="true"]')) old.removeAttribute('aria-invalid');
  makeSay('Working…');
  if (action === 'facturx') {
    await makeFacturX();
    return;
  }
  const xml = await buildXml();
  if (!xml) return;
  if (action === 'xml') {
    download(xml.blob, xml.name);
    makeSay(`Downloaded ${xml.name}.${droppedNote(xml.dropped)}`);
    return;
  }
  const file = new File([xml.blob], xml.name, { type: 'application/xml' });
  if (action === 'check') {
    makeSay(`Made ${xml.name}; its check is shown above.${droppedNote(xml.dropped)}`);
    document.getElementById('check')?.scrollIntoView();
    await check(file);
    return;
  }
  // action === 'pdf': the invoice drawn as a PDF by /v1/render (format=pdf).
  const form = new FormData();
  form.append('file', file, xml.name);
  form.append('format', 'pdf');
  form.append('lang', ui.lang.value);
  const res = await fetch('/v1/render', { method: 'POST', body: form });
  if (!res.ok) {
    const p = await problemOf(res);
    if (p.code === 'RENDER_FORMAT_UNAVAILABLE')
      makeSay('This version of the service does not draw PDFs yet (RENDER_FORMAT_UNAVAILABLE).', true);
    else showProblem('The PDF could not be drawn', p);
    return;
  }
  const name = fileNameOf(res, xml.name.replace(/\.xml$/, '.pdf'));
  download(await res.blob(), name);
  makeSay(`Downloaded ${name}.${droppedNote(xml.dropped)}`);
}

/** /v1/convert: the form's invoice embedded in the chosen PDF, or (without one) in the PDF the service draws. */
async function makeFacturX() {
  const form = new FormData();
  const pdf = ui.pdf.files?.[0];
  if (pdf) form.append('pdf', pdf, pdf.name);
  form.append('metadata', JSON.stringify(metadataOf()));
  const res = await fetch('/v1/convert', { method: 'POST', body: form });
  if (!res.ok) {
    const p = await problemOf(res);
    if (!pdf && p.issues.some((i) => i.loc.join('.') === 'body.pdf')) {
      makeSay('Choose your invoice PDF: this version of the service needs one to make a Factur-X PDF.', true);
      ui.pdf.focus();
    } else showProblem('The Factur-X PDF could not be made', p);
    return;
  }
  const name = fileNameOf(res, 'factur-x.pdf');
  download(await res.blob(), name);
  const check = res.headers.get('x-pdfa-check');
  makeSay(`Downloaded ${name}${check ? ` (PDF/A-3b check: ${check})` : ''}.${droppedNote(res.headers.get('x-dropped-fields') ?? '')}`);
}

ui.make.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const submitter = /** @type {SubmitEvent} */ (ev).submitter;
  const action = submitter instanceof HTMLButtonElement ? submitter.value : 'xml';
  const buttons = [...ui.make.querySelectorAll('button[type="submit"]')];
  for (const b of buttons) if (b instanceof HTMLButtonElement) b.disabled = true;
  make(action)
    .catch((err) => makeSay(`The service did not answer: ${String(err)}`, true))
    .finally(() => {
      for (const b of buttons) if (b instanceof HTMLButtonElement) b.disabled = false;
    });
});

// A build that does not draw invoices as PDFs (RENDER_FORMAT_UNAVAILABLE): no "Download PDF" button that can only
// fail, and the Factur-X PDF needs the user's own PDF (/v1/convert draws one with the same renderer).
if (!(document.body.dataset.renderFormats ?? '').split(' ').includes('pdf')) {
  const drawButton = ui.make.querySelector('button[value="pdf"]');
  if (drawButton instanceof HTMLElement) drawButton.hidden = true;
  const hint = document.getElementById('m-pdf-hint');
  if (hint) hint.textContent = 'Needed for a Factur-X PDF: this version of the service does not draw invoices as PDFs.';
}

addLine();
const today = new Date().toISOString().slice(0, 10);
byId('m-date', HTMLInputElement).value ||= today;
// For tests and scripts: the page is ready once this is set.
document.body.dataset.ready = 'true';
