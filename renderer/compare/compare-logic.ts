// Which two runs the Compare view shows. Runs are picked in the runs list (Ctrl/⌘-click,
// or `x` on the open run); a third pick drops the oldest, so the last two picked are
// compared, A first. Invariant: `picked` holds at most two distinct run ids.
import type { RunComparisonResponse } from '../../shared/api/types.js';

export interface CompareState {
  picked: string[];
  /** The Compare view is showing (in place of the open run). */
  open: boolean;
  /** The runs compared, A then B; null while fewer than two are picked. */
  pair: [string, string] | null;
  result: RunComparisonResponse | null;
  loading: boolean;
  error: string | null;
}

export const initialCompareState: CompareState = {
  picked: [],
  open: false,
  pair: null,
  result: null,
  loading: false,
  error: null,
};

export function togglePick(s: CompareState, runId: string): CompareState {
  const picked = s.picked.includes(runId) ? s.picked.filter((id) => id !== runId) : [...s.picked, runId].slice(-2);
  return { ...s, picked };
}

/** Opens the view on the two picked runs; with one picked, against the open run; else on its empty state. */
export function openCompare(s: CompareState, openRun: string | null): CompareState {
  const [a, b] = s.picked;
  const pair: [string, string] | null =
    a !== undefined && b !== undefined
      ? [a, b]
      : a !== undefined && openRun !== null && openRun !== a
        ? [openRun, a]
        : null;
  const same = pair !== null && s.pair !== null && pair[0] === s.pair[0] && pair[1] === s.pair[1];
  return { ...s, open: true, pair, result: same ? s.result : null, loading: pair !== null && !same, error: null };
}

export function comparisonLoaded(s: CompareState, pair: [string, string], result: RunComparisonResponse): CompareState {
  if (s.pair?.[0] !== pair[0] || s.pair[1] !== pair[1]) return s;
  return { ...s, result, loading: false, error: null };
}

export function comparisonFailed(s: CompareState, pair: [string, string], message: string): CompareState {
  if (s.pair?.[0] !== pair[0] || s.pair[1] !== pair[1]) return s;
  return { ...s, loading: false, error: message };
}

/** A and B trade places (the deltas change sign). */
export function swap(s: CompareState): CompareState {
  if (!s.pair) return s;
  return { ...s, pair: [s.pair[1], s.pair[0]], picked: [...s.picked].reverse(), result: null, loading: true };
}
