/** Attach the compared values (values.ts) to the findings of a validation that asked for diagnostics. */
import type { Invoice } from '../../model/invoice.js';
import type { ValidationErrorDetail } from '../validate.js';
import { comparedValues } from './values.js';

export function attachCompared(errors: ValidationErrorDetail[], invoice: Invoice): void {
  for (const e of errors) {
    if (!e.rule_id || e.omitted !== undefined) continue;
    try {
      const compared = comparedValues(e.rule_id, invoice, e.location);
      if (compared) e.compared = compared;
    } catch {
      // An unreadable amount (big.js refuses it) leaves the context without values; the finding stands.
    }
  }
}
