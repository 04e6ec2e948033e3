/**
 * The `pdfa3b` layer of /v1/validate: runs the native checker on an uploaded PDF and answers what the
 * validation report needs (verdict, findings as validation details with rule_set "pdfa", or the reason
 * the layer was skipped).
 */
import type { SkippedLayer, ValidationErrorDetail } from '../report/types.js';
import { checkPdfa, type PdfaReport } from './index.js';

export const PDFA_LAYER = 'pdfa3b';
export const PDFA_RULE_SET = 'pdfa';

/** Time budget of the layer per document (ms); beyond it the layer is skipped and the result is partial. */
export const PDFA_TIME_BUDGET_MS = Number(process.env.PDFA_TIME_BUDGET_MS ?? 2000);

export interface PdfaLayerResult {
  pdfa_valid: boolean | null;
  errors: ValidationErrorDetail[];
  executed: boolean;
  skipped?: SkippedLayer;
  report?: PdfaReport;
}

export function pdfaFindingsAsDetails(r: PdfaReport): ValidationErrorDetail[] {
  return r.findings.map((f) => ({
    rule_id: f.clause,
    message: `PDF/A${r.part ? `-${r.part}b` : ''} ${f.clause}: ${f.message}`,
    severity: 'error' as const,
    ...(f.object ? { location: f.object } : {}),
    rule_set: PDFA_RULE_SET,
  }));
}

export function runPdfaLayer(pdf: Uint8Array, timeBudgetMs = PDFA_TIME_BUDGET_MS): PdfaLayerResult {
  let r: PdfaReport;
  try {
    r = checkPdfa(pdf, { timeBudgetMs });
  } catch (err) {
    return {
      pdfa_valid: null,
      errors: [],
      executed: false,
      skipped: { layer: PDFA_LAYER, reason: `check_failed:${(err as Error).message.slice(0, 80)}` },
    };
  }
  if (!r.complete)
    return { pdfa_valid: null, errors: [], executed: false, skipped: { layer: PDFA_LAYER, reason: 'time_budget_exceeded' }, report: r };
  return { pdfa_valid: r.valid, errors: pdfaFindingsAsDetails(r), executed: true, report: r };
}

/** A tiny self-check for /healthz: the checker must reject a PDF without PDF/A identification. */
export function pdfaSelfCheck(): boolean {
  const pdf = Buffer.from(
    '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n2 0 obj\n<</Type/Pages/Kids[]/Count 0>>\nendobj\ntrailer\n<</Root 1 0 R/Size 3>>\n%%EOF\n',
    'latin1',
  );
  const r = checkPdfa(pdf, { timeBudgetMs: 1000 });
  return r.complete && r.valid === false && r.part === null && r.findings.length === 1;
}

/** Header on /v1/convert and /v1/merge answers: "passed", "failed", or "unverified" when the time budget ran out. */
export const PDFA_CHECK_HEADER = 'X-PDFA-Check';

export interface OutputGate {
  /** Header value for the answer. */
  header: 'passed' | 'failed' | 'unverified';
  /** Set when the written PDF claims PDF/A-3 and fails: every failed clause test and object, once each. */
  failures?: ValidationErrorDetail[];
  /** The failed clause-test ids, each once, in the order first found. */
  clauses?: string[];
  detail?: string;
}

/**
 * Check a PDF we wrote (it declares PDF/A-3b), after the repairs (src/pdf/repair) did what they could: this check,
 * the same one /v1/validate runs, decides the answer's X-PDFA-Check. What still fails comes from the input's
 * content that no repair can mend without changing the page (e.g. operators ISO 32000-1 does not define).
 */
export function gateWrittenPdf(pdf: Uint8Array, timeBudgetMs = PDFA_TIME_BUDGET_MS): OutputGate {
  let r: PdfaReport;
  try {
    r = checkPdfa(pdf, { timeBudgetMs, part: 3 });
  } catch {
    return { header: 'unverified' };
  }
  if (!r.complete) return { header: 'unverified' };
  if (r.valid) return { header: 'passed' };
  const failures = pdfaFindingsAsDetails(r);
  const clauses = [...new Set(r.findings.map((f) => f.clause))];
  return {
    header: 'failed',
    failures,
    clauses,
    detail:
      `The PDF written from this input declares PDF/A-3b but fails ISO 19005-3 ${clauses.length === 1 ? 'clause' : 'clauses'} ${clauses.slice(0, 8).join(', ')}` +
      `${clauses.length > 8 ? ', …' : ''} after the repairs the service applies; these come from the input PDF's content (see errors). ` +
      'Supply a PDF/A-1b, 2b or 3b input, or accept the PDF without PDF/A conformance (leave pdfa_strict unset).',
  };
}
