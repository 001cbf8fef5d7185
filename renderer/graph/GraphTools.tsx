// The canvas's own tools, over its top-right corner: search inside the run (matches ringed
// on the canvas, Enter / Shift+Enter step through them), a filter by item kind, and
// "focus this agent" (the other lanes dimmed). State in graph-store.ts.
import { useMemo } from 'react';
import type { RunGraph } from '../../shared/trace/graph/types.js';
import { nodeSearchText } from './node-search.js';
import { useRunStore } from '../state/run-store.js';
import { useGraphStore } from './graph-store.js';
import { kindStyle } from './kind-style.js';

/**
 * Each node's search text, made on the first search of a graph, not when it is drawn: a
 * 21,000-node run's texts took tens of milliseconds of the render that opens it.
 */
const textsOf = new WeakMap<RunGraph, Array<readonly [string, string]>>();
function searchTexts(graph: RunGraph): Array<readonly [string, string]> {
  let texts = textsOf.get(graph);
  if (texts === undefined) {
    texts = graph.nodes.map((n) => [n.id, nodeSearchText(n)] as const);
    textsOf.set(graph, texts);
  }
  return texts;
}

export function GraphTools() {
  const view = useRunStore((s) => s.view);
  const query = useGraphStore((s) => s.query);
  const matches = useGraphStore((s) => s.matches);
  const current = useGraphStore((s) => s.current);
  const hiddenKinds = useGraphStore((s) => s.hiddenKinds);
  const focusLane = useGraphStore((s) => s.focusLane);
  const { search, step, toggleKind, toggleFocus } = useGraphStore.getState();
  const kinds = useMemo(() => [...new Set(view?.graph.nodes.map((n) => n.kind) ?? [])], [view]);
  if (!view) return null;
  const onQuery = (q: string) => {
    const needle = q.trim().toLowerCase();
    search(
      q,
      needle === ''
        ? []
        : searchTexts(view.graph)
            .filter(([, text]) => text.includes(needle))
            .map(([id]) => id),
    );
  };
  const lanes = view.graph.lanes;
  return (
    <div
      className="flex max-w-[min(100%,560px)] flex-wrap items-center gap-1 rounded-md border border-zinc-200 bg-white/90 p-1 text-[11px] shadow-sm dark:border-zinc-700 dark:bg-zinc-900/90"
      data-testid="graph-tools"
    >
      <input
        type="search"
        value={query}
        placeholder="Find in run"
        aria-label="Find in this run"
        data-testid="graph-search"
        className="w-32 rounded border border-zinc-300 bg-transparent px-1.5 py-0.5 dark:border-zinc-600"
        onChange={(e) => onQuery(e.target.value)}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter') step(e.shiftKey ? -1 : 1);
          if (e.key === 'Escape') onQuery('');
        }}
      />
      {query.trim() !== '' && (
        <span className="tabular-nums text-zinc-500" data-testid="graph-search-count">
          {matches.length === 0 ? 'no match' : `${current + 1}/${matches.length}`}
        </span>
      )}
      {kinds.map((kind) => {
        const shown = !hiddenKinds.has(kind);
        return (
          <button
            key={kind}
            type="button"
            aria-pressed={shown}
            data-testid="kind-filter"
            data-kind={kind}
            title={shown ? `Hide ${kindStyle(kind).name} nodes` : `Show ${kindStyle(kind).name} nodes`}
            onClick={() => toggleKind(kind)}
            className={`flex items-center gap-1 rounded px-1.5 py-0.5 ${shown ? 'text-zinc-700 dark:text-zinc-200' : 'text-zinc-400 line-through'}`}
          >
            <span
              className="h-2 w-2 rounded-full"
              style={{ backgroundColor: kindStyle(kind).color, opacity: shown ? 1 : 0.3 }}
            />
            {kindStyle(kind).name}
          </button>
        );
      })}
      {lanes.length > 1 && (
        <select
          aria-label="Focus an agent"
          data-testid="focus-agent"
          value={focusLane ?? ''}
          onChange={(e) =>
            e.target.value === '' ? focusLane !== null && toggleFocus(focusLane) : toggleFocus(e.target.value)
          }
          className="rounded border border-zinc-300 bg-transparent px-1 py-0.5 dark:border-zinc-600"
        >
          <option value="">all agents</option>
          {lanes.map((lane) => (
            <option key={lane} value={lane}>
              focus {view.groupById[`agent:${lane}`]?.label ?? lane}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
