/** Attach the compared values (values.ts) to the findings of a validation that asked for diagnostics. */
import type { Invoice } from '../../model/invoice.js';
import type { ValidationErrorDetail } from '../../report/types.js';
import { boundText } from '../../rules/report-bounds.js';
import { comparedValues } from './values.js';

/**
 * Every string of the compared values cut at MAX_TEXT_CHARS, as the finding's message is: a stated amount is
 * shown as sent, and a 4 MB "amount" made an 8 MB report (fuzz, xml-huge-string on /v1/validate).
 */
function bounded(value: unknown): unknown {
  if (typeof value === 'string') return boundText(value);
  if (Array.isArray(value)) return value.map(bounded);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = bounded(v);
    return out;
  }
  return value;
}

export function attachCompared(errors: ValidationErrorDetail[], invoice: Invoice): void {
  for (const e of errors) {
    if (!e.rule_id || e.omitted !== undefined) continue;
    try {
      const compared = comparedValues(e.rule_id, invoice, e.location);
      if (compared) e.compared = bounded(compared) as typeof compared;
    } catch {
      // An unreadable amount (big.js refuses it) leaves the context without values; the finding stands.
    }
  }
}
