// Failed responses the graph draws no frame for (they added no item to the run), each with
// its reason, above the canvas. A failed response with a frame says why in the frame itself
// (layout.ts keeps it a row); together, no failure is read only after a click.
import { useMemo } from 'react';
import { failureReason } from '../../shared/trace/normalize/failure-reason.js';
import { useRunStore } from '../state/run-store.js';

const SHOWN = 3;

export function Failures() {
  const responses = useRunStore((s) => s.detail?.responses);
  const view = useRunStore((s) => s.view);
  const select = useRunStore((s) => s.select);
  const failed = useMemo(() => {
    const framed = new Set<number>();
    for (const g of view?.graph.groups ?? [])
      if (g.kind === 'response' && view?.layout.failures[g.id]) framed.add(g.response);
    return (responses ?? []).flatMap((r, index) => {
      const reason = framed.has(index) ? null : failureReason(r);
      return reason ? [{ index, reason }] : [];
    });
  }, [responses, view]);
  if (failed.length === 0) return null;
  return (
    <div
      className="border-b border-red-300 bg-red-50 px-4 py-1 text-[12px] text-red-800 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
      data-testid="run-failures"
    >
      {failed.slice(0, SHOWN).map((f) => (
        <button
          key={f.index}
          type="button"
          onClick={() => select({ kind: 'response', index: f.index })}
          title={`Response #${f.index + 1} failed: ${f.reason}`}
          data-failure={f.index}
          className="block w-full truncate py-0.5 text-left hover:underline"
        >
          <strong>Response #{f.index + 1} failed:</strong> {f.reason}
        </button>
      ))}
      {failed.length > SHOWN && (
        <div className="py-0.5 text-red-700/80 dark:text-red-300/80">
          and {failed.length - SHOWN} more failed responses (see the waterfall)
        </div>
      )}
    </div>
  );
}
