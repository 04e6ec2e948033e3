/**
 * The validation report's vocabulary, as the API lists it: a finding (ValidationErrorDetail) and a layer that did
 * not run (SkippedLayer). At the bottom of the code, so that every layer that reports (the PDF/A layer, the
 * validation pipeline, its explanations, the operations) uses it without importing the pipeline.
 */
export interface ValidationErrorDetail {
  rule_id: string | null;
  message: string;
  severity: 'error' | 'warning' | 'information';
  /** XPath-like location of the offending element, when known. */
  location?: string;
  /** Rule set the finding comes from (en16931-cii, en16931-ubl, xsd, ...). */
  rule_set?: string;
  /** Only on a summary entry (src/rules/report-bounds.ts): how many findings of this rule it stands for, not listed. */
  omitted?: number;
  /**
   * Only with ValidateOptions.explain (pro diagnostics): the values a calculation rule compared, shown as the
   * diagnostic's context.compared (src/validation/explanations/values.ts). Never set in a community result.
   */
  compared?: Record<string, unknown>;
}

export interface SkippedLayer {
  layer: string;
  reason: string;
}
