/**
 * Pro "smart diagnostics": for every finding, a specific title, an explanation that names the business
 * terms involved and a concrete suggestion, in our own words (tables and builders in explanations/), and a
 * context with where the finding is and, for the calculation rules, the values the rule compared
 * (explanations/values.ts, computed in the validation itself when diagnostics are asked for).
 */
import { explainFinding } from './explanations/index.js';
import type { ValidationErrorDetail } from './validate.js';

export interface DiagnosticDetail {
  rule_id: string;
  severity: 'error' | 'warning' | 'info';
  title: string;
  explanation: string;
  suggestion: string;
  context: Record<string, unknown> | null;
}

/**
 * The safety net for an id no table or builder knows. Unreachable for every id the engine can report
 * (test/diagnostics.test.ts checks each, test/conformance/diagnostics-corpus.test.ts counts it over the corpus).
 */
export const GENERIC_TITLE = 'Validation finding';
const GENERIC = {
  title: GENERIC_TITLE,
  explanation: 'The invoice does not satisfy a validation rule.',
  suggestion: 'Read the message and correct the field it names.',
};

export function toDiagnostic(f: ValidationErrorDetail): DiagnosticDetail {
  const id = f.rule_id ?? 'XSD';
  const explained = explainFinding({ ruleId: id, message: f.message, location: f.location, ruleSet: f.rule_set });
  const advice = explained ?? { ...GENERIC, explanation: `${f.message} ${GENERIC.explanation}` };
  const context: Record<string, unknown> = {};
  if (f.location) context.location = f.location;
  if (f.rule_set) context.rule_set = f.rule_set;
  if (f.omitted !== undefined) context.omitted = f.omitted;
  if (explained && explained.terms.length > 0) context.terms = explained.terms;
  if (f.compared) context.compared = f.compared;
  return {
    rule_id: id,
    severity: f.severity === 'information' ? 'info' : f.severity,
    title: advice.title,
    explanation: advice.explanation,
    suggestion: advice.suggestion,
    context: Object.keys(context).length > 0 ? context : null,
  };
}
