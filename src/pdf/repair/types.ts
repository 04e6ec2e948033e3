/**
 * PDF/A-3b repairs: the contract between the repair registry (index.ts) and each repair.
 *
 * A repair is a small function named after the ISO 19005 clause(s) it satisfies. It runs only when the native
 * checker (src/pdfa) reported one of its clauses on the input, works on the @cantoo/pdf-lib document that the
 * embedder is about to write, changes page content as little as possible, and says what it did and what it could
 * not do. What it cannot repair is reported, never hidden.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import type { Finding } from '../../pdfa/model.js';

export interface RepairContext {
  /** The document being written (loaded from the input; the attachment is added after the repairs). */
  doc: PDFDocument;
  /** The checker's findings on the input (checked as PDF/A-3), only those of this repair's clauses. */
  findings: readonly Finding[];
  /** Date.now() after which a repair must stop and report what it left undone. */
  deadline: number;
}

export interface RepairOutcome {
  /** How many objects (fonts, annotations, images, ...) the repair changed; 0 = it found nothing to do. */
  changed: number;
  /** What the repair saw but could not fix (clause, message, object), reported to the caller. */
  unrepaired?: Finding[];
}

export interface Repair {
  /** Short name reported in X-PDFA-Repairs, e.g. "embed-fonts", "annotation-flags". */
  name: string;
  /** Clause-test ids (as the checker reports them, e.g. "6.2.11.4.1-1") this repair satisfies. */
  clauses: readonly string[];
  apply(ctx: RepairContext): RepairOutcome | Promise<RepairOutcome>;
}
