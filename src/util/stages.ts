/**
 * Work written as stages: a generator that yields (nothing) between its stages and returns its result.
 * Run alone, the stages simply follow each other (finishStages). An InlineBatch runs the stages of the
 * jobs it holds in rounds instead: every job's first stage, then every job's second, and so on, so that
 * each stage's code and tables stay in the CPU caches from one document to the next (see inline-batch.ts).
 */
export type Stages<T> = Generator<void, T, void>;
export type AsyncStages<T> = AsyncGenerator<void, T, void>;

/** Run all the stages of synchronous work and return its result. */
export function finishStages<T>(stages: Stages<T>): T {
  let step = stages.next();
  while (!step.done) step = stages.next();
  return step.value;
}
