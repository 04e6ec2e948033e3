/** A seeded PRNG (mulberry32) with the few helpers the mutators need: same seed, same inputs. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed | 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) | 0;
    let t = Math.imul(this.s ^ (this.s >>> 15), 1 | this.s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** k distinct items, in a deterministic order. */
  sample<T>(a: readonly T[], k: number): T[] {
    const copy = [...a];
    const out: T[] = [];
    while (out.length < k && copy.length) out.push(copy.splice(this.int(copy.length), 1)[0]);
    return out;
  }
  /** A child generator, so one input's randomness does not shift the next input's. */
  fork(salt: number): Rng {
    return new Rng(Math.imul(this.s ^ salt, 0x9e3779b1) ^ salt);
  }
}
