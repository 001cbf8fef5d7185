// One Conversations call on the waterfall: a diamond at the time it was made (a bar, when
// it took long enough to show), labelled with what it moved. A click selects the first
// item it holds that the graph draws; the inspector then says when it was written and read.
import { useRunStore } from '../state/run-store.js';
import type { ConversationRow } from './conversation-rows.js';
import { LABEL_W } from './waterfall-model.js';

export function ConversationRowView({ row, pct }: { row: ConversationRow; pct: (us: number) => string }) {
  const select = useRunStore((s) => s.select);
  const color = row.failed ? 'bg-red-500' : row.kind === 'write' ? 'bg-amber-500' : 'bg-amber-300 dark:bg-amber-600';
  return (
    <button
      type="button"
      disabled={row.node === null}
      onClick={() => row.node !== null && select({ kind: 'node', id: row.node })}
      className="grid w-full items-center gap-2 rounded px-1 text-left enabled:hover:bg-amber-50 dark:enabled:hover:bg-amber-950/40"
      style={{ gridTemplateColumns: `${LABEL_W}px 1fr` }}
      title={row.title}
      data-conversation-row={row.kind}
      data-node={row.node ?? undefined}
    >
      <span className="truncate text-[11px] text-amber-700 dark:text-amber-400">conv · {row.label}</span>
      <span className="relative block h-3.5">
        <span
          className={`absolute top-1 h-1.5 rounded-sm opacity-60 ${color}`}
          style={{ left: pct(row.startUs), width: pct(row.endUs - row.startUs) }}
        />
        <span
          className={`absolute top-[3px] h-2 w-2 -translate-x-1 rotate-45 ${color}`}
          style={{ left: pct(row.startUs) }}
        />
      </span>
    </button>
  );
}
