/** Small helpers shared by the randomised tests (no app, no corpus: cheap to import). */
import type { XmlElement } from '../src/xml/dom.js';

/** mulberry32: a small seeded PRNG, so every run tries the same random cases and a failure can be replayed. */
export function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every element of a tree, in document order. */
export function allElements(root: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const stack = [root];
  while (stack.length) {
    const el = stack.pop()!;
    out.push(el);
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
  }
  return out;
}
