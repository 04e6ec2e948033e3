// @ts-check
/**
 * The validation report as HTML: a verdict and the findings grouped by rule set. One view for the browser UI
 * (./app.js, served at `/`) and for `einvoice validate --format html` (src/cli/html-report.ts), so the page a
 * batch writes reads like the one the UI shows. Pure functions from a validation result, as /v1/validate answers
 * it (community ValidationResult or pro ProValidationResult), to HTML strings; everything taken from the result
 * is escaped. No DOM and no Node API: it runs in both.
 */

/**
 * @typedef {{ rule_id?: string | null, message?: string, severity?: string, location?: string | null,
 *   rule_set?: string | null, omitted?: number }} CommunityFinding
 * @typedef {{ id: string, name: string }} Term
 * @typedef {{ location?: string, rule_set?: string, terms?: Term[], omitted?: number }} DiagnosticContext
 * @typedef {{ rule_id?: string, severity?: string, title?: string, explanation?: string, suggestion?: string,
 *   context?: DiagnosticContext | null }} ProDiagnostic
 * @typedef {{ layer: string, reason: string }} SkippedLayer
 * @typedef {{ valid: boolean, format?: string | null, flavor?: string | null, errors?: CommunityFinding[],
 *   diagnostics?: ProDiagnostic[], error_count?: number, warning_count?: number, layers_executed?: string[],
 *   layers_skipped?: SkippedLayer[], validation_completeness?: string, report_truncated?: boolean,
 *   findings_omitted?: number, pdfa_valid?: boolean | null }} ValidationResult
 * @typedef {'error' | 'warning' | 'info'} Severity
 * @typedef {{ index: number, ruleId: string, severity: Severity, message: string, explanation?: string,
 *   suggestion?: string, location?: string, ruleSet: string, terms: Term[], omitted?: number }} Finding
 */

const ESCAPES = /** @type {Record<string, string>} */ ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' });

/** Text for HTML element content and attribute values. @param {unknown} value @returns {string} */
export function escapeHtml(value) {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** @param {string | undefined} s @returns {Severity} */
function severityOf(s) {
  if (s === 'error') return 'error';
  if (s === 'info' || s === 'information') return 'info';
  return 'warning';
}

/**
 * The findings of a result in one shape, in report order: a community finding's message, or a pro diagnostic's
 * title, explanation and suggestion with the terms it names (`context.terms`).
 * @param {ValidationResult} result
 * @returns {Finding[]}
 */
export function findingsOf(result) {
  if (Array.isArray(result.diagnostics)) {
    return result.diagnostics.map((d, index) => {
      const ctx = d.context ?? {};
      /** @type {Finding} */
      const f = {
        index,
        ruleId: d.rule_id ?? '',
        severity: severityOf(d.severity),
        message: d.title ?? '',
        ruleSet: ctx.rule_set ?? 'document',
        terms: Array.isArray(ctx.terms) ? ctx.terms : [],
      };
      if (d.explanation) f.explanation = d.explanation;
      if (d.suggestion) f.suggestion = d.suggestion;
      if (ctx.location) f.location = ctx.location;
      if (typeof ctx.omitted === 'number') f.omitted = ctx.omitted;
      return f;
    });
  }
  return (result.errors ?? []).map((e, index) => {
    /** @type {Finding} */
    const f = {
      index,
      ruleId: e.rule_id ?? '',
      severity: severityOf(e.severity),
      message: e.message ?? '',
      ruleSet: e.rule_set ?? 'document',
      terms: [],
    };
    if (e.location) f.location = e.location;
    if (typeof e.omitted === 'number') f.omitted = e.omitted;
    return f;
  });
}

/** Readable names of the rule sets (`rule_set` of a finding); an id not listed is shown as it is. */
const RULE_SET_NAMES = /** @type {[RegExp, string][]} */ ([
  [/^xsd$/, 'Schema (XSD)'],
  [/^en16931-cii$/, 'EN 16931, CII syntax and business rules'],
  [/^en16931-ubl$/, 'EN 16931, UBL syntax and business rules'],
  [/^fx-minimum/, 'Factur-X MINIMUM profile'],
  [/^fx-basicwl/, 'Factur-X BASIC WL profile'],
  [/^fx-basic/, 'Factur-X BASIC profile'],
  [/^fx-en16931/, 'Factur-X EN 16931 profile'],
  [/^fx-extended/, 'Factur-X EXTENDED profile'],
  [/^xrechnung/, 'XRechnung CIUS'],
  [/^peppol-bis-3-selfbilling/, 'Peppol BIS Billing 3.0, self-billing'],
  [/^peppol/, 'Peppol BIS Billing 3.0'],
  [/^extended-ctc-fr/, 'EXTENDED-CTC-FR (France)'],
  [/^br-fr/, 'French CTC rules (BR-FR)'],
  [/^pdfa/, 'PDF/A'],
  [/^api-contract$/, 'API contract'],
  [/^report$/, 'Report limits'],
]);

/** @param {string} id @returns {string} */
export function ruleSetName(id) {
  for (const [re, name] of RULE_SET_NAMES) if (re.test(id)) return name;
  return id === 'document' ? 'Document' : id;
}

/**
 * Findings grouped by rule set, groups in the order they first occur.
 * @param {Finding[]} findings
 * @returns {{ ruleSet: string, findings: Finding[] }[]}
 */
export function groupByRuleSet(findings) {
  /** @type {Map<string, Finding[]>} */
  const groups = new Map();
  for (const f of findings) {
    let list = groups.get(f.ruleSet);
    if (!list) groups.set(f.ruleSet, (list = []));
    list.push(f);
  }
  return [...groups].map(([ruleSet, list]) => ({ ruleSet, findings: list }));
}

/** @param {number} n @param {string} word */
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Errors and warnings of a result: the pro counts (which include the findings a summary entry stands for), else
 * counted from the listed findings (a summary entry counts as its `omitted` findings).
 * @param {ValidationResult} result
 * @param {Finding[]} findings
 */
export function countsOf(result, findings) {
  if (typeof result.error_count === 'number') return { errors: result.error_count, warnings: result.warning_count ?? 0 };
  let errors = 0;
  let warnings = 0;
  for (const f of findings) {
    const n = f.omitted ?? 1;
    if (f.severity === 'error') errors += n;
    else if (f.severity === 'warning') warnings += n;
  }
  return { errors, warnings };
}

const FLAVOR_NAMES = /** @type {Record<string, string>} */ ({
  minimum: 'Factur-X MINIMUM',
  basic_wl: 'Factur-X BASIC WL',
  basic: 'Factur-X BASIC',
  en16931: 'EN 16931',
  extended: 'Factur-X EXTENDED',
  xrechnung: 'XRechnung',
  xrechnung_extension: 'XRechnung with extension',
  extended_ctc_fr: 'EXTENDED-CTC-FR',
  peppol: 'Peppol BIS Billing 3.0',
});
const FORMAT_NAMES = /** @type {Record<string, string>} */ ({ 'factur-x': 'Factur-X / CII', zugferd: 'ZUGFeRD', ubl: 'UBL' });

/**
 * The verdict: valid or not, what the invoice is, how many errors and warnings, which layers ran or were skipped.
 * @param {ValidationResult} result
 * @param {{ heading?: 'h2' | 'h3', title?: string, findings?: Finding[] }} [options] title: what the verdict is of (a file name)
 * @returns {string}
 */
export function verdictHtml(result, options = {}) {
  const h = options.heading ?? 'h2';
  const findings = options.findings ?? findingsOf(result);
  const { errors, warnings } = countsOf(result, findings);
  const cls = result.valid ? 'valid' : 'invalid';
  const word = result.valid ? 'Valid' : 'Invalid';
  const what = [
    result.flavor ? (FLAVOR_NAMES[result.flavor] ?? result.flavor) : 'unknown profile',
    result.format ? (FORMAT_NAMES[result.format] ?? result.format) : '',
  ].filter(Boolean);
  let out = `<div class="verdict ${cls}" data-verdict="${cls}"><${h} class="verdict-title"><span class="mark" aria-hidden="true">${result.valid ? '✓' : '✗'}</span> ${word}${options.title ? `: <span class="file">${escapeHtml(options.title)}</span>` : ''}</${h}>`;
  out += `<p class="verdict-facts"><span>${escapeHtml(what.join(' · '))}</span> <span class="counts"><span class="${errors ? 'n-error' : ''}">${plural(errors, 'error')}</span>, <span class="${warnings ? 'n-warning' : ''}">${plural(warnings, 'warning')}</span></span></p>`;
  const facts = [];
  if (result.layers_executed?.length) facts.push(`Checked: ${escapeHtml(result.layers_executed.join(', '))}`);
  for (const s of result.layers_skipped ?? []) facts.push(`Not checked: ${escapeHtml(s.layer)} (${escapeHtml(s.reason)})`);
  if (result.pdfa_valid === true || result.pdfa_valid === false) facts.push(`PDF/A: ${result.pdfa_valid ? 'passed' : 'failed'}`);
  if (result.report_truncated)
    facts.push(`Report shortened: ${escapeHtml(result.findings_omitted ?? 0)} further findings are counted, not listed`);
  if (facts.length) out += `<p class="layers">${facts.join(' · ')}</p>`;
  return `${out}</div>`;
}

/**
 * A file that could not be validated at all (not PDF or XML, malformed, too large, ...): its code and message.
 * @param {{ code: string, message: string }} problem
 * @param {{ heading?: 'h2' | 'h3', title?: string }} [options]
 */
export function problemHtml(problem, options = {}) {
  const h = options.heading ?? 'h2';
  return `<div class="verdict unreadable" data-verdict="unreadable"><${h} class="verdict-title"><span class="mark" aria-hidden="true">✗</span> Not readable${options.title ? `: <span class="file">${escapeHtml(options.title)}</span>` : ''}</${h}><p class="verdict-facts"><code>${escapeHtml(problem.code)}</code> ${escapeHtml(problem.message)}</p></div>`;
}

/**
 * The findings grouped by rule set: per finding the severity, the official rule id, the message (pro: title,
 * explanation and suggestion) and the location. With `interactive`, each finding's head is a button
 * (data-finding = its index in findingsOf) that the UI links to the rendered invoice.
 * @param {Finding[]} findings
 * @param {{ interactive?: boolean, heading?: 'h3' | 'h4' }} [options]
 * @returns {string}
 */
export function findingsHtml(findings, options = {}) {
  if (findings.length === 0) return '<p class="no-findings">No findings.</p>';
  const h = options.heading ?? 'h3';
  let out = '<div class="findings">';
  for (const group of groupByRuleSet(findings)) {
    const { errors, warnings } = countsOf({ valid: false }, group.findings);
    const infos = group.findings.filter((f) => f.severity === 'info').length;
    const counts = [plural(errors, 'error'), plural(warnings, 'warning'), infos ? `${infos} info` : ''].filter(Boolean).join(', ');
    out += `<section class="ruleset" data-rule-set="${escapeHtml(group.ruleSet)}"><${h}>${escapeHtml(ruleSetName(group.ruleSet))} <small class="rs-id">${escapeHtml(group.ruleSet)}</small> <small class="rs-counts">${counts}</small></${h}><ol class="finding-list">`;
    for (const f of group.findings) {
      const head = `<span class="sev sev-${f.severity}">${f.severity}</span> <span class="rule">${escapeHtml(f.ruleId || '—')}</span> <span class="msg">${escapeHtml(f.message)}</span>`;
      out += `<li class="finding sev-${f.severity}" data-rule="${escapeHtml(f.ruleId)}">`;
      out += options.interactive
        ? `<button type="button" class="finding-head" data-finding="${f.index}">${head}</button>`
        : `<p class="finding-head">${head}</p>`;
      if (f.explanation && f.explanation !== f.message) out += `<p class="explanation">${escapeHtml(f.explanation)}</p>`;
      if (f.suggestion) out += `<p class="suggestion"><span class="label">Suggestion:</span> ${escapeHtml(f.suggestion)}</p>`;
      if (f.terms.length)
        out += `<p class="terms">${f.terms.map((t) => `<span class="term">${escapeHtml(t.name)} <code>${escapeHtml(t.id)}</code></span>`).join(', ')}</p>`;
      if (f.location) out += `<p class="location"><span class="label">at</span> <code>${escapeHtml(f.location)}</code></p>`;
      out += '</li>';
    }
    out += '</ol></section>';
  }
  return `${out}</div>`;
}
