/**
 * An upload read and serialized in one step (what /v1/serialize answers), so that the runner can do it
 * inline for small uploads and in a worker thread for large ones: a 5 MB invoice took ~0.3-0.9 s of CPU to
 * parse and serialize, which on the event loop held every other request (and /health) that long.
 */
import type { IngestResult } from '../input/types.js';
import { toBusinessReady, type BusinessReadyInvoice, type FallbackApplied } from './business-ready.js';
import { boundFallbacks, type FallbacksOmitted } from './fallback-bounds.js';

export interface SerializedUpload {
  /** The ingest problems (NO_XML, UNKNOWN_XML, ...), as the response's `errors`. */
  problems: { code: string; message: string }[];
  /** null when no invoice could be read. */
  invoice: BusinessReadyInvoice | null;
  /** The first MAX_FALLBACKS_PER_FIELD of each field pattern (./fallback-bounds.ts). */
  fallbacks: FallbackApplied[];
  /** The groups counted instead of listed; empty when every fallback is listed. */
  fallbacksOmitted: FallbacksOmitted[];
}

export function serializeIngested(read: IngestResult): SerializedUpload {
  const problems = read.problems.map((p) => ({ code: p.code, message: p.message }));
  if (!read.invoice) return { problems, invoice: null, fallbacks: [], fallbacksOmitted: [] };
  const { invoice, fallbacks } = toBusinessReady(read.invoice, read.format, read.profile);
  const bounded = boundFallbacks(fallbacks);
  return { problems, invoice, fallbacks: bounded.listed, fallbacksOmitted: bounded.omitted };
}
