// Group nodes drawn behind the items: response frames (model, status, tokens, duration),
// agent lanes with their names, and shaded compaction windows with the token savings.
import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { GraphGroup } from '../../shared/trace/graph-types.js';
import { useRunStore } from '../state/run-store.js';

/** The group, or undefined before the replay step at which it appears (`data.appear`, see to-flow.ts). */
function useGroup(id: string, data: Record<string, unknown>): GraphGroup | undefined {
  const appear = typeof data.appear === 'number' ? data.appear : 0;
  const visible = useRunStore((s) => s.replay.step >= appear);
  const group = useRunStore((s) => s.view?.groupById[id]);
  return visible ? group : undefined;
}

const ResponseFrame = memo(function ResponseFrame({ id, width, height, data }: NodeProps) {
  const group = useGroup(id, data);
  const index = group?.kind === 'response' ? group.response : -1;
  const inProgress = useRunStore((s) => (s.view && index >= 0 ? (s.view.replay.responseDoneAt[index] ?? Infinity) > s.replay.step : false));
  const selected = useRunStore((s) => s.selection?.kind === 'response' && s.selection.index === index);
  if (group?.kind !== 'response') return null;
  const failed = group.status === 'failed' || group.status === 'error';
  return (
    <div
      data-group-kind="response"
      data-response-id={group.responseId}
      data-state={inProgress ? 'in_progress' : group.status}
      style={{ width, height }}
      className={[
        'rounded-lg border bg-zinc-50/70 dark:bg-zinc-900/40',
        failed ? 'border-red-400' : 'border-zinc-300 dark:border-zinc-700',
        inProgress ? 'loupe-in-progress border-dashed border-blue-400' : '',
        selected ? 'ring-2 ring-blue-500' : '',
      ].join(' ')}
    >
      <div className="flex cursor-pointer items-center gap-2 truncate px-2.5 pt-1 text-[11px] text-zinc-500 dark:text-zinc-400">
        <span className="font-semibold text-zinc-700 dark:text-zinc-300">#{index + 1}</span>
        <span className="truncate">{inProgress ? `${group.model ?? 'model'} · streaming…` : group.label}</span>
      </div>
    </div>
  );
});

const AgentLane = memo(function AgentLane({ id, width, height, data }: NodeProps) {
  const group = useGroup(id, data);
  if (group?.kind !== 'agent') return null;
  return (
    <div data-group-kind="agent" style={{ width, height }} className="rounded-xl border border-dashed border-fuchsia-300/70 bg-fuchsia-50/30 dark:border-fuchsia-800/60 dark:bg-fuchsia-950/10">
      <div className="px-3 pt-2 text-xs font-semibold tracking-wide text-fuchsia-700 dark:text-fuchsia-300">{group.label}</div>
    </div>
  );
});

const CompactionWindow = memo(function CompactionWindow({ id, width, height, data }: NodeProps) {
  const group = useGroup(id, data);
  if (group?.kind !== 'compaction') return null;
  return (
    <div
      data-group-kind="compaction"
      style={{ width, height }}
      className="relative rounded-lg border-2 border-dashed border-orange-300/80 bg-orange-100/40 bg-[repeating-linear-gradient(135deg,transparent_0_8px,rgba(249,115,22,0.08)_8px_16px)] dark:border-orange-800/70 dark:bg-orange-950/20"
    >
      {/* Beside the window, where no response frame title can cover it. */}
      <div className="absolute left-full top-1 ml-2 whitespace-nowrap rounded bg-orange-100 px-2 py-0.5 text-[12px] font-medium text-orange-800 dark:bg-orange-950 dark:text-orange-200">
        {group.label}
      </div>
    </div>
  );
});

export const GroupNodes = { responseGroup: ResponseFrame, agentGroup: AgentLane, compactionGroup: CompactionWindow };
