/**
 * Native PDF/A-2b / PDF/A-3b checker. `checkPdfa(bytes)` reads the part the file declares in its XMP
 * (pdfaid:part 2 or 3), runs the clause tables (checks.ts, xmp.ts) against it and answers the verdict and
 * one finding per failed clause test and object. The whole check runs under a time budget; decoding is
 * capped (decode.ts). Pure CPU work on bytes in memory.
 */
import { isStream, nameOf } from '../pdf/lazy.js';
import { ALL_CHECKS, type Check } from './checks.js';
import { buildModel, type Finding } from './model.js';
import { PdfaDocument } from './objects.js';
import { checkMainXmp, readXmpPacket } from './xmp.js';

export type { Finding } from './model.js';
export { ALL_CHECKS } from './checks.js';

export interface PdfaReport {
  /** The part checked against (from XMP pdfaid:part), null when the file declares none. */
  part: 2 | 3 | null;
  /** pdfaid:conformance as declared. */
  conformance: string | null;
  valid: boolean;
  findings: Finding[];
  /** False when the time budget ran out: then the verdict is not reliable and `skippedReason` says why. */
  complete: boolean;
  skippedReason?: string;
  elapsedMs: number;
}

export interface PdfaOptions {
  /** Time budget for the whole check (ms). Default 2000. */
  timeBudgetMs?: number;
  /** Check against this part instead of the declared one. */
  part?: 2 | 3;
  /** Nesting depth of embedded PDF/A files (PDF/A-2 6.8). */
  depth?: number;
  /**
   * At most this many findings (default 500); past it, only the first finding of a clause not yet reported is added,
   * so that every failing clause is named. The repairs ask for more: they act on the objects the findings name.
   */
  maxFindings?: number;
}

/** Findings with the same clause and object are reported once; a file yields at most this many (see maxFindings). */
const MAX_FINDINGS = 500;

/** Clause-test ids of every registered check (the XMP clauses are registered by prefix 6.6). */
export const REGISTERED_CLAUSES: readonly string[] = [
  ...ALL_CHECKS.map((c) => c.id),
  '6.6.2.1-1',
  '6.6.2.1-2',
  '6.6.2.1-3',
  '6.6.2.1-4',
  '6.6.2.3.1-1',
  '6.6.2.3.1-2',
  '6.6.2.3.2-1',
  '6.6.2.3.3-1',
  '6.6.4-1',
  '6.6.4-2',
  '6.6.4-3',
];

export function checkPdfa(bytes: Uint8Array, opts: PdfaOptions = {}): PdfaReport {
  const t0 = performance.now();
  const budget = opts.timeBudgetMs ?? 2000;
  const deadline = Date.now() + budget;
  const findings: Finding[] = [];
  const keys = new Set<string>();
  const clauses = new Set<string>();
  const maxFindings = opts.maxFindings ?? MAX_FINDINGS;
  const add = (clause: string, message: string, object?: string): void => {
    const k = `${clause}|${object ?? ''}`;
    if (keys.has(k) || (findings.length >= maxFindings && clauses.has(clause))) return;
    keys.add(k);
    clauses.add(clause);
    findings.push(object ? { clause, message, object } : { clause, message });
  };
  const done = (part: 2 | 3 | null, conformance: string | null, complete = true, skippedReason?: string): PdfaReport => ({
    part,
    conformance,
    valid: complete && findings.length === 0 && part !== null,
    findings,
    complete,
    ...(skippedReason ? { skippedReason } : {}),
    elapsedMs: performance.now() - t0,
  });

  const doc = new PdfaDocument(bytes, { deadline });
  if (doc.timedOut) return done(null, null, false, `time budget of ${budget} ms exceeded while reading the file`);
  const catalog = doc.dict(doc.trailer?.map.get('Root'));

  // Metadata first: it says which part to check.
  let part: 2 | 3 | null = null;
  let conformance: string | null = null;
  const xmpFindings: Finding[] = [];
  const meta = catalog ? doc.resolve(catalog.map.get('Metadata')) : null;
  if (!isStream(meta)) {
    xmpFindings.push({ clause: '6.6.2.1-1', message: 'the document catalog has no /Metadata XMP stream', object: 'catalog' });
  } else {
    if (nameOf(meta.dict.map.get('Type')) !== 'Metadata' || nameOf(meta.dict.map.get('Subtype')) !== 'XML')
      xmpFindings.push({
        clause: '6.6.2.1-1',
        message: 'the catalog /Metadata stream is not /Type /Metadata /Subtype /XML',
        object: `object ${doc.numberOf(meta)}`,
      });
    const r = doc.decode(meta);
    if (!r.ok)
      xmpFindings.push({
        clause: '6.6.2.1-4',
        message: `the metadata stream cannot be decoded: ${r.detail}`,
        object: `object ${doc.numberOf(meta)}`,
      });
    else {
      const pkt = readXmpPacket(r.data);
      const x = checkMainXmp(pkt);
      for (const i of x.issues) xmpFindings.push({ clause: i.clause, message: i.message, object: i.path ? `XMP ${i.path}` : 'XMP' });
      const declared = x.part?.trim();
      if (declared === '2' || declared === '3') part = Number(declared) as 2 | 3;
      conformance = x.conformance?.trim() ?? null;
      if (x.part === undefined)
        xmpFindings.push({
          clause: '6.6.4-1',
          message: 'the XMP metadata has no PDF/A identification (pdfaid:part)',
          object: 'XMP pdfaid',
        });
      else if (part === null)
        xmpFindings.push({
          clause: '6.6.4-2',
          message: `the XMP declares pdfaid:part "${x.part}"; only parts 2 and 3 are checked here`,
          object: 'XMP pdfaid:part',
        });
      if (x.part !== undefined && (conformance === null || !['A', 'B', 'U'].includes(conformance)))
        xmpFindings.push({
          clause: '6.6.4-3',
          message: `pdfaid:conformance is ${conformance === null ? 'missing' : `"${conformance}"`}; A, B or U is required`,
          object: 'XMP pdfaid:conformance',
        });
    }
  }
  const checkedPart = opts.part ?? part;
  if (checkedPart === null) {
    // Not declared PDF/A: one finding says so.
    const why = xmpFindings.find((f) => f.clause.startsWith('6.6.4') || f.clause === '6.6.2.1-1' || f.clause === '6.6.2.1-4');
    add(
      why?.clause ?? '6.6.4-1',
      why ? `not a PDF/A-2 or PDF/A-3 file: ${why.message}` : 'not a PDF/A-2 or PDF/A-3 file: no PDF/A identification in the XMP metadata',
      why?.object ?? 'XMP pdfaid',
    );
    return done(null, conformance);
  }
  if (opts.part && part !== null && part !== opts.part)
    add('6.6.4-2', `the XMP declares pdfaid:part ${part}, checked as PDF/A-${opts.part}`, 'XMP pdfaid:part');
  for (const f of xmpFindings) add(f.clause, f.message, f.object);

  const model = buildModel(doc, checkedPart, deadline);
  const depth = opts.depth ?? 0;
  model.embeddedIsPdfa = (b: Uint8Array): boolean => {
    if (depth >= 2) return true;
    if (!(b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46)) return false;
    const rem = Math.max(10, deadline - Date.now());
    const sub = checkPdfaAny(b, { timeBudgetMs: rem, depth: depth + 1 });
    return sub;
  };
  if (model.timedOut) return done(checkedPart, conformance, false, `time budget of ${budget} ms exceeded`);
  for (const c of ALL_CHECKS as Check[]) {
    if (c.part && c.part !== checkedPart) continue;
    if (Date.now() > deadline) return done(checkedPart, conformance, false, `time budget of ${budget} ms exceeded`);
    try {
      c.run(model, (message, object, clause) => add(clause ?? c.id, message, object));
    } catch (err) {
      add(c.id, `check failed on unexpected structure: ${(err as Error).message}`);
    }
  }
  for (const l of doc.decodeLimits)
    add(
      '6.1.7-limit',
      `stream not expanded: ${l.detail} (a decompression bomb is not checked further)`,
      l.obj >= 0 ? `object ${l.obj}` : undefined,
    );
  return done(checkedPart, conformance);
}

/** PDF/A-2 6.8: an embedded file must itself be PDF/A-1 or PDF/A-2 (part 1 files are accepted on their declaration). */
function checkPdfaAny(b: Uint8Array, opts: PdfaOptions): boolean {
  try {
    const r = checkPdfa(b, opts);
    if (r.part === null) {
      // PDF/A-1: declared part 1 is accepted (no PDF/A-1 profile here).
      return r.findings.some((f) => f.message.includes('pdfaid:part "1"'));
    }
    return r.part === 2 && r.valid;
  } catch {
    return false;
  }
}
