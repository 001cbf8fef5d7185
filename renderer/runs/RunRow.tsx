// One row of the runs list. Selects its own summary by id so a push re-renders one row.
// Ctrl/⌘-click picks it for comparison instead of opening it.
import { memo } from 'react';
import { formatCompact, formatCost, formatDuration, formatWhen, splitTail } from '../lib/format.js';
import { useAppStore } from '../state/app-store.js';
import { runActivity } from '../state/run-activity.js';
import { useRunStore } from '../state/run-store.js';
import { useRunsStore } from '../state/runs-store.js';
import { useCompareStore } from '../compare/compare-store.js';
import { StatusBadge } from './status.js';

export const ROW_HEIGHT = 72;

export const RunRow = memo(function RunRow({
  id,
  onSelect,
  now,
}: {
  id: string;
  onSelect: (id: string) => void;
  now: number;
}) {
  const run = useRunsStore((s) => s.byId[id]);
  const selected = useRunStore((s) => s.runId === id);
  const pick = useCompareStore((s) => s.picked.indexOf(id));
  const togglePick = useCompareStore((s) => s.togglePick);
  const recordingLive = useAppStore((s) => s.info?.recording.live ?? true);
  if (!run) return null;
  const title = run.label ?? (run.preview || run.id);
  const [head, tail] = run.label ? splitTail(run.label) : [title, ''];
  const activity = runActivity(run, now, recordingLive);
  const models = run.models.join(', ') || 'no model';
  return (
    <button
      type="button"
      data-run-id={run.id}
      data-live={run.live ? 'true' : 'false'}
      data-active={activity.active ? 'true' : 'false'}
      data-status={activity.status}
      data-forked-from={run.forkedFrom?.run}
      aria-current={selected ? 'true' : undefined}
      data-picked={pick >= 0 ? 'true' : undefined}
      onClick={(e) => (e.ctrlKey || e.metaKey ? togglePick(run.id) : onSelect(run.id))}
      style={{ height: ROW_HEIGHT }}
      className={[
        'flex w-full flex-col justify-center gap-1 border-b border-zinc-100 px-3 text-left dark:border-zinc-800/70',
        run.forkedFrom ? 'border-l-2 border-l-amber-400 pl-6' : '',
        selected ? 'bg-blue-50 dark:bg-blue-950/40' : 'hover:bg-zinc-50 dark:hover:bg-zinc-900',
        pick >= 0 ? 'shadow-[inset_3px_0_0_0_rgb(124_58_237)]' : '',
      ].join(' ')}
    >
      <div className="flex items-center gap-2">
        {activity.active && (
          <span
            className="relative flex h-2 w-2 shrink-0"
            title={run.live ? 'streaming now' : 'running: between requests (the client runs its tools)'}
            data-testid="live-dot"
          >
            <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-blue-400 opacity-75" />
            <span className="relative inline-flex h-2 w-2 rounded-full bg-blue-500" />
          </span>
        )}
        <span
          className="flex min-w-0 flex-1 overflow-hidden text-[13px] font-medium"
          title={title}
          data-testid="run-title"
        >
          <span className="min-w-[1.5em] truncate">{head}</span>
          {/* The head gives way first; the tail keeps up to 80% of the room. */}
          {tail && (
            <span className="max-w-[80%] shrink-0 truncate whitespace-pre" data-testid="run-title-tail">
              {tail}
            </span>
          )}
        </span>
        {run.forkedFrom && (
          <span
            className="shrink-0 rounded bg-amber-100 px-1 text-[10.5px] font-medium text-amber-800 dark:bg-amber-950 dark:text-amber-200"
            title={`forked from ${run.forkedFrom.run} at step #${run.forkedFrom.step}`}
            data-testid="run-forked"
          >
            fork @#{run.forkedFrom.step}
          </span>
        )}
        {run.agentSpans > 0 && (
          <span
            className="shrink-0 rounded bg-violet-100 px-1 text-[10.5px] font-medium text-violet-800 dark:bg-violet-950 dark:text-violet-200"
            title={`${run.agentSpans} Agents SDK spans (press t on the run)`}
            data-testid="run-has-trace"
          >
            trace
          </span>
        )}
        {pick >= 0 && (
          <span
            className="shrink-0 rounded bg-violet-600 px-1 text-[10.5px] font-bold text-white"
            title="Picked for comparison (Ctrl/⌘-click to unpick)"
            data-testid="run-pick"
          >
            {pick === 0 ? 'A' : 'B'}
          </span>
        )}
        <StatusBadge status={activity.status} />
      </div>
      <div className="flex items-center gap-2 text-[11.5px] text-zinc-500 dark:text-zinc-400">
        <span className="min-w-0 flex-1 truncate" title={run.label ? run.preview : undefined}>
          {run.label ? run.preview : ''}
        </span>
        <span
          className="shrink-0 text-[11px]"
          title={new Date(run.startedAt)
            .toISOString()
            .replace('T', ' ')
            .replace(/\.\d+Z$/, ' UTC')}
        >
          {formatWhen(run.startedAt, now)}
        </span>
      </div>
      <div
        title={`${models} · ${run.responses} responses · ${run.toolCalls} tool calls · ${run.tokens.total} tokens · ${formatCost(run.cost)} · ${formatDuration(run.endedAt - run.startedAt)}`}
        className="flex items-center gap-2 overflow-hidden text-[11px] tabular-nums text-zinc-500 dark:text-zinc-400"
      >
        <span className="min-w-[3rem] truncate" title={models}>
          {models}
        </span>
        <span className="shrink-0" title="responses">
          {run.responses} resp
        </span>
        <span className="shrink-0" title="tool calls">
          {run.toolCalls} tools
        </span>
        <span className="shrink-0" title={`${run.tokens.total} tokens`}>
          {formatCompact(run.tokens.total)} tok
        </span>
        <span className="shrink-0" title="cost">
          {formatCost(run.cost)}
        </span>
        <span className="shrink-0" title="duration">
          {formatDuration(run.endedAt - run.startedAt)}
        </span>
      </div>
    </button>
  );
});
