// The centre of the window for a selected run: its header and numbers, the graph or the
// waterfall or the Agents SDK trace, a notice when the run was too large to show whole, and the replay bar.
import { AgentTrace } from '../agent-trace/AgentTrace.js';
import { RunGraph } from '../graph/RunGraph.js';
import { formatCompact, formatCost, formatCount, formatDuration } from '../lib/format.js';
import { ReplayBar } from '../replay/ReplayBar.js';
import { StatusBadge } from '../runs/status.js';
import { Failures } from './Failures.js';
import { useRunActivity } from '../runs/use-run-activity.js';
import { useRunStore } from '../state/run-store.js';
import { useRunsStore } from '../state/runs-store.js';
import { useUiStore, type CenterTab } from '../state/ui-store.js';
import { Waterfall } from '../waterfall/Waterfall.js';

const TABS: Array<[CenterTab, string, string]> = [
  ['graph', 'Graph', 'g'],
  ['waterfall', 'Waterfall', 'w'],
  ['trace', 'Agents trace', 't'],
];

export function RunPane() {
  const runId = useRunStore((s) => s.runId);
  const summary = useRunsStore((s) => (runId ? s.byId[runId] : undefined)) ?? useRunStore.getState().detail?.summary;
  const loading = useRunStore((s) => s.loading && !s.view);
  const error = useRunStore((s) => s.error);
  const items = useRunStore((s) => s.view?.graph.nodes.length ?? 0);
  const tab = useUiStore((s) => s.tab);
  const activity = useRunActivity(summary);
  const title = summary?.label ?? summary?.preview ?? runId ?? '';
  const numbers = summary
    ? `${summary.models.join(', ')} · ${summary.responses} responses · ${items} items · ${summary.toolCalls} tool calls · ${formatCount(summary.tokens.total)} tokens (${formatCompact(summary.tokens.cached)} cached) · ${formatCost(summary.cost)} · ${formatDuration(summary.endedAt - summary.startedAt)}`
    : '';
  const setTab = useUiStore((s) => s.setTab);
  return (
    <div className="flex h-full min-w-0 flex-1 flex-col" data-testid="run-pane" data-run={runId ?? ''}>
      <header className="flex items-center gap-3 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2">
            <h1 className="min-w-0 truncate text-[15px] font-semibold" title={title} data-testid="run-title">
              {title}
            </h1>
            {activity && <StatusBadge status={activity.status} />}
            {activity?.active && (
              <span
                className="shrink-0 text-[11px] font-medium text-blue-600 dark:text-blue-400"
                data-testid="run-live"
              >
                ● live
              </span>
            )}
          </div>
          {summary && (
            <div className="truncate text-[11.5px] tabular-nums text-zinc-500 dark:text-zinc-400" title={numbers}>
              {numbers}
            </div>
          )}
        </div>
        <nav className="flex shrink-0 rounded-md border border-zinc-300 p-0.5 dark:border-zinc-700" role="tablist">
          {TABS.map(([id, name, key]) => (
            <button
              key={id}
              type="button"
              role="tab"
              data-tab={id}
              aria-selected={tab === id}
              title={`${id === 'waterfall' ? 'Waterfall & numbers' : name} (${key})`}
              onClick={() => setTab(id)}
              className={`whitespace-nowrap rounded px-2.5 py-1 text-[12px] ${tab === id ? 'bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900' : 'text-zinc-600 dark:text-zinc-300'}`}
            >
              {name}
              {id === 'trace' && (summary?.agentSpans ?? 0) > 0 && (
                <span
                  className="ml-1.5 rounded-full bg-violet-600 px-1.5 text-[10px] font-semibold text-white"
                  data-testid="trace-count"
                >
                  {summary!.agentSpans}
                </span>
              )}
            </button>
          ))}
        </nav>
      </header>
      {error && (
        <div
          className="border-b border-red-300 bg-red-50 px-4 py-1.5 text-[12.5px] text-red-800 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
          role="alert"
        >
          Could not load this run: {error}
        </div>
      )}
      <Failures />
      <div className="relative min-h-0 flex-1">
        {loading ? (
          <p className="p-6 text-sm text-zinc-500">Loading run…</p>
        ) : tab === 'graph' ? (
          <RunGraph />
        ) : tab === 'waterfall' ? (
          <Waterfall />
        ) : (
          <AgentTrace />
        )}
      </div>
      <ReplayBar />
    </div>
  );
}
