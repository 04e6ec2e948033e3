/**
 * What `einvoice convert` and `einvoice merge` print on stderr about PDF/A, the CLI's form of the HTTP answer's
 * X-PDFA-Check / X-PDFA-Repairs / X-PDFA-Unmet headers. Quiet when there is nothing to say (passed, nothing repaired).
 */
import type { PdfResult } from '../lib/operations.js';

export function pdfaNote(
  r: Pick<PdfResult, 'pdfaCheck' | 'pdfaRepairs' | 'pdfaUnmet' | 'pdfaFindings' | 'pdfaFindingsOmitted' | 'pdfaPartial'>,
): string {
  if (r.pdfaCheck === 'passed' && r.pdfaRepairs.length === 0 && r.pdfaPartial.length === 0) return '';
  const repaired = r.pdfaRepairs.length ? `; repaired: ${r.pdfaRepairs.join(', ')}` : '';
  const lines =
    r.pdfaCheck === 'failed'
      ? [`PDF/A-3b: failed, unmet: ${r.pdfaUnmet.join(', ')}${repaired}`]
      : [`PDF/A-3b: ${r.pdfaCheck === 'passed' ? 'passed' : 'unverified (the check ran out of time)'}${repaired}`];
  for (const f of r.pdfaFindings) lines.push(`  ${f.rule_id}: ${f.message}${f.location ? ` at ${f.location}` : ''}`);
  if (r.pdfaFindingsOmitted > 0) lines.push(`  … and ${r.pdfaFindingsOmitted} more`);
  for (const p of r.pdfaPartial) lines.push(`  repaired in part, ${p.clause}: ${p.message}${p.object ? ` at ${p.object}` : ''}`);
  return `${lines.join('\n')}\n`;
}
