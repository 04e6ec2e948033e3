/** Timing helpers shared by the in-process benchmarks. */

/** Median and 99th percentile of samples (ms). */
export function stats(samples: number[]): { median: number; p99: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p99: s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] };
}

export const median = (samples: number[]): number => stats(samples).median;

/** Wall time (ms) of each of `runs` calls of `fn`, awaited one after another, after `warmup` untimed calls. */
export async function timeRuns(runs: number, fn: () => unknown, warmup = 0): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ts.push(performance.now() - t);
  }
  return ts;
}
