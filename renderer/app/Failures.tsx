// Failed responses of the open run, each with its reason, above the canvas: an unreachable
// upstream or a 401 is read where the failure is, not only after a click on a red frame.
import { useMemo } from 'react';
import { failureReason } from '../lib/failure.js';
import { useRunStore } from '../state/run-store.js';

const SHOWN = 3;

export function Failures() {
  const responses = useRunStore((s) => s.detail?.responses);
  const select = useRunStore((s) => s.select);
  const failed = useMemo(
    () => (responses ?? []).flatMap((r, index) => {
      const reason = failureReason(r);
      return reason ? [{ index, reason }] : [];
    }),
    [responses],
  );
  if (failed.length === 0) return null;
  return (
    <div className="border-b border-red-300 bg-red-50 px-4 py-1 text-[12px] text-red-800 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200" data-testid="run-failures">
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
      {failed.length > SHOWN && <div className="py-0.5 text-red-700/80 dark:text-red-300/80">and {failed.length - SHOWN} more failed responses (see the waterfall)</div>}
    </div>
  );
}
