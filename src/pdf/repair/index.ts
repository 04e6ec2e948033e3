/**
 * The repair registry: what the embedder (src/pdf/embed.ts) calls between loading the input and writing the hybrid
 * PDF, so that the written file really is PDF/A-3b.
 *
 * The native checker runs once, on the input, as PDF/A-3 (whatever the input declares). Each repair in REPAIRS runs
 * only when the checker reported one of its clauses, with just those findings, in the order of REPAIRS: actions and
 * form keys go before the annotations are given appearances, output intents are settled before device colours are
 * judged against them, structure before fonts. What the writer itself rewrites (XMP identification, the trailer /ID,
 * the header, stream lengths, cross-reference, the output intent when there is none, attachments' /AF) needs no
 * repair. After writing, the written PDF is checked again (gateWrittenPdf in src/pdfa/layer.ts): that check, not this
 * one, says whether the answer is PDF/A-3b.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import { checkPdfa } from '../../pdfa/index.js';
import type { Finding } from '../../pdfa/model.js';
import { ACTION_REPAIRS } from './actions.js';
import { ANNOTATION_REPAIRS } from './annotations.js';
import { COLOUR_REPAIRS } from './colour.js';
import { COLOURANT_REPAIRS } from './colourants.js';
import { FONT_REPAIRS } from './fonts.js';
import { FORM_REPAIRS } from './forms.js';
import { GRAPHICS_STATE_REPAIRS } from './graphics-state.js';
import { ICC_REPAIRS } from './icc-profiles.js';
import { NAME_REPAIRS } from './names.js';
import { OPTIONAL_CONTENT_REPAIRS } from './optional-content.js';
import { PRIVATE_DATA_REPAIRS } from './private-data.js';
import { RESOURCE_REPAIRS } from './resources.js';
import { STREAM_REPAIRS } from './streams.js';
import { STRUCTURE_REPAIRS } from './structure.js';
import type { Repair } from './types.js';
import { XMP_REPAIRS } from './xmp.js';

export type { Repair, RepairContext, RepairOutcome } from './types.js';

/** Every repair, in the order they run; the font repairs (./fonts.ts) last, after everything that adds or drops content. */
export const REPAIRS: Repair[] = [
  ...STRUCTURE_REPAIRS,
  ...PRIVATE_DATA_REPAIRS,
  ...ACTION_REPAIRS,
  ...FORM_REPAIRS,
  ...ANNOTATION_REPAIRS,
  ...OPTIONAL_CONTENT_REPAIRS,
  ...STREAM_REPAIRS,
  ...RESOURCE_REPAIRS,
  ...GRAPHICS_STATE_REPAIRS,
  ...ICC_REPAIRS,
  ...COLOUR_REPAIRS,
  ...NAME_REPAIRS,
  ...COLOURANT_REPAIRS,
  ...XMP_REPAIRS,
  ...FONT_REPAIRS,
];

export interface RepairRun {
  name: string;
  /** Objects the repair changed; 0 = it found nothing to do. */
  changed: number;
  /** Wall time of the repair (ms). */
  ms: number;
}

export interface RepairReport {
  /** Names of the repairs that changed something, in the order they ran (the answer's X-PDFA-Repairs). */
  repaired: string[];
  /** Every repair that ran, with what it changed and how long it took. */
  runs: RepairRun[];
  /** What the repairs saw but could not fix, or fixed only in part (e.g. an appearance drawn empty). */
  unrepaired: Finding[];
  /** The input check: its time, its findings (as PDF/A-3), and whether it completed within its budget. */
  inputCheck: { ms: number; findings: number; complete: boolean };
}

export interface RepairOptions {
  /** Time budget of the input check (ms); the repairs get the same budget again. */
  timeBudgetMs?: number;
  /** The repairs to choose from (tests); default REPAIRS. */
  repairs?: readonly Repair[];
}

/** Findings the input check hands the repairs at most (each names one object; past it, one per further clause). */
export const MAX_REPAIR_FINDINGS = 20_000;

/** Check the input once, run the repairs its findings call for on `doc`, and say what was done. */
export async function repairForPdfa(doc: PDFDocument, input: Uint8Array, opts: RepairOptions = {}): Promise<RepairReport> {
  const budget = opts.timeBudgetMs ?? 2000;
  // Every object a repair must mend, not the first 500 findings of a report: a clause past the report's cap (the
  // annotations of a file whose 500 content streams each use DeviceCMYK) went unrepaired.
  const report = checkPdfa(input, { timeBudgetMs: budget, part: 3, maxFindings: MAX_REPAIR_FINDINGS });
  const byClause = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const list = byClause.get(f.clause);
    if (list) list.push(f);
    else byClause.set(f.clause, [f]);
  }
  const out: RepairReport = {
    repaired: [],
    runs: [],
    unrepaired: [],
    inputCheck: { ms: report.elapsedMs, findings: report.findings.length, complete: report.complete },
  };
  const deadline = Date.now() + budget;
  for (const repair of opts.repairs ?? REPAIRS) {
    const findings = repair.clauses.flatMap((c) => byClause.get(c) ?? []);
    if (findings.length === 0) continue;
    const t0 = performance.now();
    if (Date.now() > deadline) {
      out.unrepaired.push(...findings.map((f) => ({ ...f, message: `${f.message} (not repaired: the time budget ran out)` })));
      continue;
    }
    try {
      const result = await repair.apply({ doc, findings, deadline });
      out.runs.push({ name: repair.name, changed: result.changed, ms: performance.now() - t0 });
      if (result.changed > 0) out.repaired.push(repair.name);
      if (result.unrepaired) out.unrepaired.push(...result.unrepaired);
    } catch (err) {
      // A repair that meets a structure it cannot handle leaves the clause to the final check, which reports it.
      out.runs.push({ name: repair.name, changed: 0, ms: performance.now() - t0 });
      out.unrepaired.push(
        ...findings.map((f) => ({ ...f, message: `${f.message} (repair ${repair.name} failed: ${(err as Error).message})` })),
      );
    }
  }
  return out;
}
