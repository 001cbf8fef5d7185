// The Compare view before two runs are picked: how to pick them, and what it will show.
import { useCompareStore } from './compare-store.js';

export function CompareEmpty() {
  const close = useCompareStore((s) => s.closeCompare);
  const picked = useCompareStore((s) => s.picked.length);
  return (
    <div className="flex flex-1 items-center justify-center p-8" data-testid="compare-empty">
      <div className="max-w-md text-[13px] text-zinc-600 dark:text-zinc-300">
        <h2 className="mb-2 text-[15px] font-semibold text-zinc-900 dark:text-zinc-100">Compare two runs</h2>
        <p>
          {picked === 0 ? 'Pick two runs in the list on the left' : 'Pick one more run'}:{' '}
          <kbd className="rounded border px-1">Ctrl</kbd>/<kbd className="rounded border px-1">⌘</kbd>-click its row, or
          open it and press <kbd className="rounded border px-1">x</kbd>. Then press{' '}
          <kbd className="rounded border px-1">c</kbd> or click Compare.
        </p>
        <p className="mt-2 text-zinc-500">
          The runs are lined up step by step, by the tools they called and the messages they wrote, and you see where
          they first part, what differs at each step, and their tokens, time and cost side by side. For CI:{' '}
          <code>loupe diff FILE RUN_A RUN_B</code>.
        </p>
        <button
          type="button"
          onClick={close}
          className="mt-3 text-[12.5px] text-blue-600 hover:underline dark:text-blue-400"
        >
          Back to the run
        </button>
      </div>
    </div>
  );
}
