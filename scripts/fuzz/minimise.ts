/**
 * Bounded delta debugging (complements only) over the units of the mutated part: XML split before each
 * tag, JSON before each structural character, PDF (and other bytes) after each line break. A candidate is
 * kept when it still fails with the same class on the same endpoint.
 */
import type { FuzzCase } from './harness.js';

export function units(data: Buffer, kind: 'xml' | 'json' | 'pdf'): Buffer[] {
  const s = data.toString('latin1');
  const re = kind === 'xml' ? /(?=<)/ : kind === 'json' ? /(?=[,{}[\]])/ : /(?<=\n)/;
  const parts = s.split(re);
  // Very many units: group them so the first rounds halve quickly.
  return parts.map((p) => Buffer.from(p, 'latin1'));
}

export interface MinimiseBudget {
  trials: number;
  deadline: number; // Date.now() value
}

export async function minimise(
  c: FuzzCase,
  kind: 'xml' | 'json' | 'pdf',
  stillFails: (c: FuzzCase) => Promise<boolean>,
  budget: MinimiseBudget,
): Promise<{ case: FuzzCase; trials: number }> {
  const idx = c.parts.findIndex((p) => p.name === c.mutated);
  if (idx < 0) return { case: c, trials: 0 };
  const withData = (d: Buffer): FuzzCase => ({ ...c, parts: c.parts.map((p, i) => (i === idx ? { ...p, data: d } : p)) });
  let u = units(c.parts[idx].data, kind);
  let n = 2;
  let trials = 0;
  while (u.length >= 2 && trials < budget.trials && Date.now() < budget.deadline) {
    const size = Math.ceil(u.length / n);
    let reduced = false;
    for (let i = 0; i < n && trials < budget.trials && Date.now() < budget.deadline; i++) {
      const candidate = [...u.slice(0, i * size), ...u.slice((i + 1) * size)];
      if (candidate.length === u.length || candidate.length === 0) continue;
      trials++;
      if (await stillFails(withData(Buffer.concat(candidate)))) {
        u = candidate;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= u.length) break;
      n = Math.min(u.length, n * 2);
    }
  }
  return { case: withData(Buffer.concat(u)), trials };
}
