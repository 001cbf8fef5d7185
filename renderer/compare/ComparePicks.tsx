// The bar over the runs list while runs are picked for comparison: how many, and the
// Compare button (or `c`). Absent when nothing is picked; the hint lives in the list's title.
import { useRunStore } from '../state/run-store.js';
import { useCompareStore } from './compare-store.js';

export function ComparePicks() {
  const picked = useCompareStore((s) => s.picked.length);
  const open = useCompareStore((s) => s.openCompare);
  const clear = useCompareStore((s) => s.clearPicks);
  if (picked === 0) return null;
  return (
    <div
      className="flex items-center gap-2 border-y border-violet-200 bg-violet-50 px-3 py-1.5 text-[12px] text-violet-900 dark:border-violet-900 dark:bg-violet-950/50 dark:text-violet-100"
      data-testid="compare-picks"
    >
      <span className="flex-1">{picked === 2 ? '2 runs picked' : '1 run picked: Ctrl/⌘-click another'}</span>
      <button
        type="button"
        onClick={() => open(useRunStore.getState().runId)}
        disabled={picked < 2 && !useRunStore.getState().runId}
        data-testid="compare-open"
        title="Compare the picked runs (c)"
        className="rounded bg-violet-600 px-2 py-0.5 font-medium text-white hover:bg-violet-700 disabled:opacity-50"
      >
        Compare
      </button>
      <button
        type="button"
        onClick={clear}
        className="text-violet-700 hover:underline dark:text-violet-300"
        data-testid="compare-clear"
      >
        Clear
      </button>
    </div>
  );
}
