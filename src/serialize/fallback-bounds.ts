/**
 * The fallback list of a serialization stays proportionate, as a validation report does
 * (src/rules/report-bounds.ts): an invoice of 30,000 bare lines has five fallbacks per line, and listing
 * all 151,000 of them made a 19 MB list beside a 5 MB invoice. Fallbacks are grouped by field with the line
 * (or other) indices taken out, `invoice.line_items[*].quantity`, and by type and original state; the first
 * MAX_FALLBACKS_PER_FIELD of a group are listed, the rest counted per group.
 */
import type { FallbackApplied } from './business-ready.js';

/** Listed fallbacks per field pattern, type and original state. */
export const MAX_FALLBACKS_PER_FIELD = 100;

/** One group of fallbacks that were counted instead of listed. */
export interface FallbacksOmitted {
  /** The field with its indices as `[*]`, e.g. `invoice.line_items[*].quantity`. */
  field: string;
  fallback_type: FallbackApplied['fallback_type'];
  original_state: FallbackApplied['original_state'];
  /** How many of this group are not listed. */
  omitted: number;
}

export interface BoundedFallbacks {
  listed: FallbackApplied[];
  /** Empty when every fallback is listed. */
  omitted: FallbacksOmitted[];
}

export function boundFallbacks(all: FallbackApplied[]): BoundedFallbacks {
  if (all.length <= MAX_FALLBACKS_PER_FIELD) return { listed: all, omitted: [] };
  const seen = new Map<string, number>();
  const omitted = new Map<string, FallbacksOmitted>();
  const listed: FallbackApplied[] = [];
  for (const f of all) {
    const field = f.field.replace(/\[\d+\]/g, '[*]');
    const key = `${field}\u0000${f.fallback_type}\u0000${f.original_state}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n <= MAX_FALLBACKS_PER_FIELD) {
      listed.push(f);
      continue;
    }
    const group = omitted.get(key);
    if (group) group.omitted++;
    else omitted.set(key, { field, fallback_type: f.fallback_type, original_state: f.original_state, omitted: 1 });
  }
  return { listed, omitted: [...omitted.values()] };
}
