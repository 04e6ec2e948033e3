/**
 * The serialize → re-issue round trip over the corpus (helper of serialize-roundtrip.test.ts and of the
 * report in docs): each invoice is serialized (BusinessReadyInvoice), sent back to toXml as metadata, and the
 * XML read back; totals BT-106..BT-115 and the lines (count, net amounts, quantities) must be the same.
 */
import { readFileSync } from 'node:fs';
import { ingest } from '../../src/input/ingest.js';
import { serializeUnlicensed, toXml } from '../../src/lib/operations.js';
import { EInvoiceError, ShapeError } from '../../src/lib/errors.js';
import type { Invoice } from '../../src/model/invoice.js';
import { decOrZero, parseDec } from '../../src/model/decimal.js';

export interface RoundTrip {
  file: string;
  outcome: 'same' | 'not_serialized' | 'refused' | 'different';
  /** Why, when not `same`: the error code and first message, or the differing fields. */
  why?: string;
}

const TOTALS: [Exclude<keyof Invoice['totals'], '$loc'>, string][] = [
  ['lineNetTotal', 'BT-106'],
  ['allowanceTotal', 'BT-107'],
  ['chargeTotal', 'BT-108'],
  ['taxExclusiveAmount', 'BT-109'],
  ['taxTotal', 'BT-110'],
  ['taxTotalAccountingCurrency', 'BT-111'],
  ['taxInclusiveAmount', 'BT-112'],
  ['paidAmount', 'BT-113'],
  ['roundingAmount', 'BT-114'],
  ['amountDue', 'BT-115'],
];

/** Numeric equality; absent counts as zero (an absent allowance total is no allowance). */
const same = (a: string | undefined, b: string | undefined) => decOrZero(a).eq(decOrZero(b));

export function compare(before: Invoice, after: Invoice): string[] {
  const out: string[] = [];
  for (const [k, bt] of TOTALS) {
    // A total the source does not state as a number cannot be compared (a malformed unit-test file).
    if (before.totals[k] !== undefined && !parseDec(before.totals[k])) continue;
    if (!same(before.totals[k], after.totals[k])) out.push(`${bt} ${before.totals[k] ?? '-'} → ${after.totals[k] ?? '-'}`);
  }
  if (before.lines.length !== after.lines.length) out.push(`lines ${before.lines.length} → ${after.lines.length}`);
  else
    before.lines.forEach((l, i) => {
      const a = after.lines[i];
      if (!same(l.netAmount, a.netAmount)) out.push(`line ${i + 1} BT-131 ${l.netAmount} → ${a.netAmount}`);
      if (!same(l.quantity, a.quantity)) out.push(`line ${i + 1} BT-129 ${l.quantity} → ${a.quantity}`);
    });
  return out;
}

export async function roundTrip(path: string, file: string): Promise<RoundTrip> {
  const bytes = readFileSync(path);
  const serialized = await serializeUnlicensed(bytes, file);
  if (!serialized.invoice) return { file, outcome: 'not_serialized', why: serialized.errors[0]?.code };
  const original = (await ingest(bytes, file)).invoice!;
  let xml: string;
  try {
    xml = (await toXml(serialized.invoice)).xml;
  } catch (err) {
    if (!(err instanceof EInvoiceError)) throw err;
    const first = err instanceof ShapeError ? `${err.issues[0].loc.slice(2).join('.')}: ${err.issues[0].msg}` : err.message;
    return { file, outcome: 'refused', why: `${err.code} ${first}` };
  }
  const back = (await ingest(new TextEncoder().encode(xml), 'back.xml')).invoice!;
  const diffs = compare(original, back);
  return diffs.length ? { file, outcome: 'different', why: diffs.join('; ') } : { file, outcome: 'same' };
}
