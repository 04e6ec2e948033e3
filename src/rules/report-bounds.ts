/**
 * Report size bounds: a validation report stays proportionate to what a reader can act on, whatever
 * the upload. An invoice of 30,000 lines that each break three rules would otherwise yield ~100,000
 * findings (a 60 MB JSON report, ~1 GB of memory to build and serialise it).
 *
 * - Per rule (rule set + rule id): the first MAX_FINDINGS_PER_RULE findings are listed as they are; the
 *   rest are counted into one summary finding of the same rule, severity and rule set, placed after the
 *   rule's last listed finding, whose `omitted` says how many were left out.
 * - In total: at most MAX_REPORT_FINDINGS entries (summaries included); the rest are counted into one
 *   final entry with rule id REPORT_TRUNCATED.
 *
 * - Per finding: a message or location longer than MAX_TEXT_CHARS (a rule quoting a 4 MB value, an element name
 *   of a megabyte in a path) is cut there, with the number of characters left out; 1,000 entries of at most
 *   2 × 1,000 characters keep a report within a few MB whatever the upload.
 *
 * The verdict (`valid`) and the error/warning counts are computed from every finding, listed or not.
 * The rule engine applies the per-rule bound already while it runs (see engine.ts), so that a hostile
 * invoice never has its ~100,000 findings in memory at once; this module applies both bounds to the
 * whole report (XSD layer, rule sets, French CTC layer together).
 */
import type { Finding, Severity, Violation } from './types.js';

/** Listed findings per rule (rule set + rule id) before the rest are summarised. */
export const MAX_FINDINGS_PER_RULE = 100;
/** Listed entries in one report, summaries included. */
export const MAX_REPORT_FINDINGS = 1000;
/** Characters of a finding's message, and of its location, listed before the rest is cut. */
export const MAX_TEXT_CHARS = 1000;

/** `text` cut at MAX_TEXT_CHARS, saying how much was left out (never splitting a surrogate pair). */
export function boundText(text: string): string {
  if (text.length <= MAX_TEXT_CHARS) return text;
  let end = MAX_TEXT_CHARS - 60;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}… (${(text.length - end).toLocaleString('en')} more characters not shown)`;
}

function boundedFinding(f: Finding): Finding {
  if (f.message.length <= MAX_TEXT_CHARS && (f.location === undefined || f.location.length <= MAX_TEXT_CHARS)) return f;
  return { ...f, message: boundText(f.message), ...(f.location === undefined ? {} : { location: boundText(f.location) }) };
}

/** Rule id of the final entry of a report cut at MAX_REPORT_FINDINGS. */
export const REPORT_TRUNCATED = 'REPORT_TRUNCATED';

/** A finding that stands for `omitted` findings of its rule that are not listed. */
export interface SummaryFinding extends Finding {
  omitted: number;
}

export function isSummary(f: Finding): f is SummaryFinding {
  return typeof (f as SummaryFinding).omitted === 'number';
}

export function summaryFinding(ruleId: string | null, severity: Severity, ruleSet: string, omitted: number): SummaryFinding {
  return {
    ruleId,
    severity,
    message: `${omitted} further finding${omitted === 1 ? '' : 's'} of rule ${ruleId ?? '(schema)'} not listed (report limit: the first ${MAX_FINDINGS_PER_RULE} per rule).`,
    ruleSet,
    omitted,
  };
}

export interface BoundedFindings {
  findings: Finding[];
  /** Findings represented only by a count (per-rule summaries and the final REPORT_TRUNCATED entry). */
  omitted: number;
  /** Every finding, listed or not, by severity. */
  counts: Record<Severity, number>;
}

/** Apply both bounds to a report's findings (in report order). */
export function boundFindings(all: readonly Finding[]): BoundedFindings {
  const counts: Record<Severity, number> = { error: 0, warning: 0, information: 0 };
  const listed = new Map<string, number>();
  const omittedByRule = new Map<string, { omitted: number; severity: Severity; ruleId: string | null; ruleSet: string }>();
  const kept: Finding[] = [];
  /** Index in `kept` after which a rule's summary goes (its last listed finding). */
  const lastKept = new Map<string, number>();
  for (let i = 0; i < all.length; i++) {
    const f = all[i];
    const n = isSummary(f) ? f.omitted : 1;
    counts[f.severity] += n;
    const key = `${f.ruleSet}\u0000${f.ruleId}`;
    const already = listed.get(key) ?? 0;
    if (!isSummary(f) && already < MAX_FINDINGS_PER_RULE) {
      listed.set(key, already + 1);
      lastKept.set(key, kept.length);
      kept.push(boundedFinding(f));
      continue;
    }
    const o = omittedByRule.get(key);
    if (o) o.omitted += n;
    else omittedByRule.set(key, { omitted: n, severity: f.severity, ruleId: f.ruleId, ruleSet: f.ruleSet });
  }
  if (omittedByRule.size === 0 && kept.length <= MAX_REPORT_FINDINGS) return { findings: kept, omitted: 0, counts };

  // Summaries after each rule's last listed finding (or at the end, for a rule with none listed).
  const after = new Map<number, SummaryFinding[]>();
  const atEnd: SummaryFinding[] = [];
  let omitted = 0;
  for (const [key, o] of omittedByRule) {
    omitted += o.omitted;
    const s = summaryFinding(o.ruleId, o.severity, o.ruleSet, o.omitted);
    const at = lastKept.get(key);
    if (at === undefined) atEnd.push(s);
    else (after.get(at) ?? after.set(at, []).get(at)!).push(s);
  }
  const ordered: Finding[] = [];
  for (let i = 0; i < kept.length; i++) {
    ordered.push(kept[i]);
    const s = after.get(i);
    if (s) for (const x of s) ordered.push(x);
  }
  for (const x of atEnd) ordered.push(x);
  if (ordered.length <= MAX_REPORT_FINDINGS) return { findings: ordered, omitted, counts };

  // Total cap: keep the first MAX_REPORT_FINDINGS - 1 entries, count the rest into one entry.
  const cut = ordered.slice(0, MAX_REPORT_FINDINGS - 1);
  let rest = 0;
  let worst: Severity = 'information';
  for (let i = MAX_REPORT_FINDINGS - 1; i < ordered.length; i++) {
    const f = ordered[i];
    const n = isSummary(f) ? f.omitted : 1;
    rest += n;
    if (!isSummary(f)) omitted += 1; // a listed finding now only counted
    if (f.severity === 'error' || (f.severity === 'warning' && worst === 'information')) worst = f.severity;
  }
  cut.push({
    ruleId: REPORT_TRUNCATED,
    severity: worst,
    message: `${rest} further finding${rest === 1 ? '' : 's'} not listed (report limit: ${MAX_REPORT_FINDINGS} entries).`,
    ruleSet: 'report',
    omitted: rest,
  } as SummaryFinding);
  return { findings: cut, omitted, counts };
}

/**
 * A violation a report will not list (beyond MAX_FINDINGS_PER_RULE of its rule): it is counted, so it
 * needs no location, and building a path for each element of a hostile 500,000-element document cost
 * seconds of CPU and garbage. One shared, frozen object.
 */
export const UNLISTED: Violation = Object.freeze({});

/** For `list.map(locatedAt(pathOf))`: a violation with its location for the first MAX_FINDINGS_PER_RULE items, UNLISTED after. */
export function locatedAt<T>(where: (item: T) => string | undefined): (item: T, index: number) => Violation {
  return (item, index) => (index < MAX_FINDINGS_PER_RULE ? { location: where(item) } : UNLISTED);
}

/** Append a violation at `item` to `out` (created on first use): with its location while the report lists them, UNLISTED after. */
export function pushLocated<T>(out: Violation[] | undefined, item: T, where: (item: T) => string | undefined): Violation[] {
  const list = out ?? [];
  list.push(list.length < MAX_FINDINGS_PER_RULE ? { location: where(item) } : UNLISTED);
  return list;
}
