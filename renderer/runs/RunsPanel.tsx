// The runs list: search, status and model filters, and a virtualised list that stays
// smooth with 10,000 runs. It is fetched a page at a time: the next page when the rows
// drawn come near the end of those loaded. Rows carry `data-run-id` for tests outside
// the project.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { RUN_STATUSES, type RunStatus } from '../../shared/api/types.js';
import { useController } from '../app/controller-context.js';
import { Icon } from '../lib/Icon.js';
import { useNow } from '../lib/use-now.js';
import { PanelToggle, SidePanel } from '../lib/SidePanel.js';
import { useRunsStore } from '../state/runs-store.js';
import { useUiStore } from '../state/ui-store.js';
import { forksUnderOriginals } from './fork-order.js';
import { useCompareStore } from '../compare/compare-store.js';
import { ComparePicks } from '../compare/ComparePicks.js';
import { RunRow, ROW_HEIGHT } from './RunRow.js';
import { STATUS_NAME } from './status.js';

function Filters() {
  const filter = useRunsStore((s) => s.filter);
  const models = useRunsStore((s) => s.models);
  const setFilter = useRunsStore((s) => s.setFilter);
  const searchRequest = useUiStore((s) => s.searchRequest);
  const input = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState(filter.query);
  useEffect(() => {
    if (searchRequest) input.current?.focus();
  }, [searchRequest]);
  useEffect(() => setFilter({ query }), [query, setFilter]);
  const toggleStatus = (s: RunStatus) =>
    setFilter({ status: filter.status.includes(s) ? filter.status.filter((x) => x !== s) : [...filter.status, s] });
  return (
    <div className="space-y-2 border-b border-zinc-200 p-2.5 dark:border-zinc-800">
      <label className="flex items-center gap-2 rounded-md border border-zinc-300 bg-white px-2 py-1 focus-within:ring-2 focus-within:ring-blue-500 dark:border-zinc-700 dark:bg-zinc-900">
        <Icon name="search" className="h-4 w-4 text-zinc-400" />
        <input
          ref={input}
          id="run-search"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && (setQuery(''), input.current?.blur())}
          placeholder="Search text, tools, item types  ( / )"
          className="w-full bg-transparent text-[13px] outline-none placeholder:text-zinc-400"
          aria-label="Search runs"
        />
      </label>
      <div className="flex flex-wrap items-center gap-1">
        {RUN_STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            data-filter-status={s}
            aria-pressed={filter.status.includes(s)}
            onClick={() => toggleStatus(s)}
            className={`rounded-full border px-2 py-0.5 text-[11px] ${
              filter.status.includes(s)
                ? 'border-blue-500 bg-blue-500 text-white'
                : 'border-zinc-300 text-zinc-600 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800'
            }`}
          >
            {STATUS_NAME[s]}
          </button>
        ))}
        <select
          aria-label="Filter by model"
          value={filter.models[0] ?? ''}
          onChange={(e) => setFilter({ models: e.target.value ? [e.target.value] : [] })}
          className="ml-auto max-w-[120px] rounded border border-zinc-300 bg-white px-1 py-0.5 text-[11px] dark:border-zinc-700 dark:bg-zinc-900"
        >
          <option value="">all models</option>
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** Rows from the end of those loaded at which the next page is asked for. */
const PAGE_AHEAD = 40;

export function RunsPanel() {
  // Shallow-compared: a push that changes no order (most of them) re-renders no list.
  const ids = useRunsStore(useShallow((s) => forksUnderOriginals(s.ids, s.byId)));
  const total = useRunsStore((s) => s.total);
  const matched = useRunsStore((s) => s.matched);
  const more = useRunsStore((s) => s.nextCursor !== null);
  const loaded = useRunsStore((s) => s.loaded);
  const error = useRunsStore((s) => s.error);
  const controller = useController();
  // One function for every row and render: RunRow is memoised, and a new arrow each render re-rendered every row.
  const select = useCallback(
    (id: string) => {
      useCompareStore.getState().closeCompare();
      controller.selectRun(id);
    },
    [controller],
  );
  const scroller = useRef<HTMLDivElement>(null);
  // Often enough that a run's idle window ends on time (run-activity.ts).
  const now = useNow(2_000);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read each render, never memoized
  const virtual = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const lastDrawn = virtual.getVirtualItems().at(-1)?.index ?? -1;
  useEffect(() => {
    if (more && lastDrawn >= ids.length - PAGE_AHEAD) void controller.loadMoreRuns();
  }, [more, lastDrawn, ids.length, controller]);
  return (
    <SidePanel id="runs" side="left" title="Runs">
      <Filters />
      <div className="flex items-center gap-2 px-3 py-1.5 text-[11px] text-zinc-500 dark:text-zinc-400">
        <span data-testid="runs-count" className="flex-1">
          {matched === total ? `${total} run${total === 1 ? '' : 's'}` : `${matched} of ${total} runs`}
        </span>
        {error && (
          <span className="min-w-0 truncate text-red-600 dark:text-red-400" title={error}>
            list failed: {error}
          </span>
        )}
        <PanelToggle id="runs" side="left" title="Runs" />
      </div>
      <ComparePicks />
      <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto" data-testid="runs-list">
        {loaded && ids.length === 0 && (
          <p className="px-4 py-6 text-center text-[12.5px] text-zinc-500">
            {total === 0 ? 'No runs recorded yet.' : 'No run matches the filters.'}
          </p>
        )}
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((row) => (
            <div
              key={ids[row.index]}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)` }}
            >
              <RunRow id={ids[row.index]!} now={now} onSelect={select} />
            </div>
          ))}
        </div>
      </div>
    </SidePanel>
  );
}
