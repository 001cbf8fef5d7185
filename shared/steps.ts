// A long pure computation written as a generator that yields between its stages, so the
// renderer can hand the main thread back between them (a page's task should stay short)
// while every other caller runs it through in one go.

/** Work that yields between stages and returns T. */
export type Steps<T> = Generator<void, T, void>;

/** Runs all the stages now. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
