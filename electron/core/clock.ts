// Time and timers, passed to what paces itself by them (live derivation, the live poll), so
// that tests drive them on a manual clock (test/support/manual-clock.ts) instead of sleeping
// and asserting elapsed wall time.
import { performance } from 'node:perf_hooks';

export interface Clock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Calls `fn` after `ms`; the timer does not hold the process open. Returns its cancel. */
  after(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};
