/**
 * What `einvoice convert` and `einvoice merge` print on stderr about PDF/A, the CLI's form of the HTTP answer's
 * X-PDFA-Check / X-PDFA-Repairs / X-PDFA-Unmet headers. Quiet when there is nothing to say (passed, nothing repaired).
 */
import type { PdfResult } from '../lib/operations.js';

export function pdfaNote(r: Pick<PdfResult, 'pdfaCheck' | 'pdfaRepairs' | 'pdfaUnmet' | 'pdfaFindings' | 'pdfaFindingsOmitted'>): string {
  if (r.pdfaCheck === 'passed' && r.pdfaRepairs.length === 0) return '';
  const repaired = r.pdfaRepairs.length ? `; repaired: ${r.pdfaRepairs.join(', ')}` : '';
  if (r.pdfaCheck === 'passed') return `PDF/A-3b: passed${repaired}\n`;
  if (r.pdfaCheck === 'unverified') return `PDF/A-3b: unverified (the check ran out of time)${repaired}\n`;
  const lines = [`PDF/A-3b: failed, unmet: ${r.pdfaUnmet.join(', ')}${repaired}`];
  for (const f of r.pdfaFindings) lines.push(`  ${f.rule_id}: ${f.message}${f.location ? ` at ${f.location}` : ''}`);
  if (r.pdfaFindingsOmitted > 0) lines.push(`  … and ${r.pdfaFindingsOmitted} more`);
  return `${lines.join('\n')}\n`;
}
