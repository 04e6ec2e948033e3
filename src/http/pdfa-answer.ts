/**
 * How /v1/convert and /v1/merge say how PDF/A went, in headers a client reads without parsing the PDF, and the
 * opt-in strict mode: X-PDFA-Check (passed / failed / unverified), X-PDFA-Repairs (the repairs that changed
 * something), X-PDFA-Unmet (the clauses the written PDF still fails), each bounded in length.
 */
import type { FastifyReply } from 'fastify';
import type { PdfResult } from '../lib/operations.js';
import { PDFA_CHECK_HEADER } from '../pdfa/layer.js';

/** Form field: refuse (422 PDFA_NONCONFORMANT) instead of answering a PDF that fails PDF/A-3b after the repairs. */
export const PDFA_STRICT_FIELD = 'pdfa_strict';

export const PDFA_STRICT_SCHEMA = {
  type: 'boolean',
  default: false,
  description:
    'Strict PDF/A: when the written PDF still fails PDF/A-3b after the repairs, answer 422 PDFA_NONCONFORMANT (each finding once, at most 50 listed, `findings_omitted` counting the rest) instead of the PDF with X-PDFA-Check: failed.',
} as const;

export const PDFA_REPAIRS_HEADER = 'X-PDFA-Repairs';
export const PDFA_UNMET_HEADER = 'X-PDFA-Unmet';
export const PDFA_PARTIAL_HEADER = 'X-PDFA-Partial';

/** Longest value of X-PDFA-Repairs and X-PDFA-Unmet (characters); a longer list ends in ", … (+N)". */
export const MAX_PDFA_HEADER_CHARS = 512;

/** A comma-separated list cut to `max` characters, the items left out counted: "a, b, … (+3)". */
export function boundedList(items: readonly string[], max = MAX_PDFA_HEADER_CHARS): string {
  const full = items.join(', ');
  if (full.length <= max) return full;
  let out = '';
  for (let i = 0; i < items.length; i++) {
    const next = out ? `${out}, ${items[i]}` : items[i];
    if (`${next}, … (+${items.length - i - 1})`.length > max) return out ? `${out}, … (+${items.length - i})` : `… (+${items.length})`;
    out = next;
  }
  return out;
}

export const PDFA_HEADERS_SCHEMA = {
  [PDFA_CHECK_HEADER]: {
    type: 'string',
    enum: ['passed', 'failed', 'unverified'],
    description:
      'PDF/A-3b check of the written PDF, after the repairs: passed; failed (the input has content no repair could mend, see X-PDFA-Unmet); unverified (the check ran out of its time budget, PDFA_TIME_BUDGET_MS).',
  },
  [PDFA_REPAIRS_HEADER]: {
    type: 'string',
    description: `Comma-separated names of the PDF/A repairs that changed something (e.g. "annotation-flags, forbidden-actions"), present when any did; at most ${MAX_PDFA_HEADER_CHARS} characters, the names left out counted ("… (+N)"). See docs/pdfa.md.`,
  },
  [PDFA_UNMET_HEADER]: {
    type: 'string',
    description: `With X-PDFA-Check: failed, the ISO 19005 clause-test ids the written PDF still fails, each once (e.g. "6.2.2-1"); at most ${MAX_PDFA_HEADER_CHARS} characters, the ids left out counted ("… (+N)").`,
  },
  [PDFA_PARTIAL_HEADER]: {
    type: 'string',
    description: `The clause-test ids (each once) of findings a repair could satisfy only in part, though the PDF may pass: e.g. 6.3.3-1 when a form field's value could not be drawn with a font embedded in the document and its appearance was written empty, 6.3.1-1 when a media annotation was removed with its poster frame, 6.6.2.3.1-1 when XMP properties that cannot be declared were dropped. At most ${MAX_PDFA_HEADER_CHARS} characters.`,
  },
} as const;

/** Set the PDF/A headers of a convert or merge answer. */
export function setPdfaHeaders(
  reply: FastifyReply,
  result: Pick<PdfResult, 'pdfaCheck' | 'pdfaRepairs' | 'pdfaUnmet' | 'pdfaPartial'>,
): void {
  reply.header(PDFA_CHECK_HEADER, result.pdfaCheck);
  if (result.pdfaRepairs.length) reply.header(PDFA_REPAIRS_HEADER, boundedList(result.pdfaRepairs));
  if (result.pdfaUnmet.length) reply.header(PDFA_UNMET_HEADER, boundedList(result.pdfaUnmet));
  const partial = [...new Set(result.pdfaPartial.map((p) => p.clause))];
  if (partial.length) reply.header(PDFA_PARTIAL_HEADER, boundedList(partial));
}
