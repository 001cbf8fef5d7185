// The run on a time axis: each response as a bar (lighter until its first token), the
// client's own time between responses hatched, each Conversations write and read as a
// mark between them (context, with no tokens of its own), the replay cursor as a line; then the
// numbers per response and the trace model's findings as plain advice. Clicking a row or
// a finding selects what it is about.
import { useMemo } from 'react';
import { formatCompact, formatCost, formatCount, formatDuration } from '../lib/format.js';
import { StatusBadge } from '../runs/status.js';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
import { PaidFor } from './PaidFor.js';
import { conversationView } from '../model/conversation-view.js';
import { byTime, conversationRows } from './conversation-rows.js';
import { ConversationRowView } from './ConversationRowView.js';
import { LABEL_W, waterfallRows } from './waterfall-model.js';

const NO_PRICES = { models: {} };

/** Table columns: header, what it means (on hover), numeric (right-aligned). */
const COLUMNS: Array<[string, string, boolean]> = [
  ['#', 'Position in the run (hover a row for its model)', false],
  ['status', 'How the response ended (hover a failure for its reason)', false],
  ['before it', 'Client and tool time before this request', true],
  ['first token', 'Time to the first token', true],
  ['duration', 'From the request to the last byte', true],
  ['input', 'Input tokens', true],
  ['cached', 'Input tokens read from the prompt cache', true],
  ['output', 'Output tokens', true],
  ['reasoning', 'Reasoning tokens (part of output)', true],
  ['cost', 'Cost in USD from resources/prices.json', true],
];

export function Waterfall() {
  const view = useRunStore((s) => s.view);
  const prices = useRunStore((s) => s.detail?.prices ?? NO_PRICES);
  const cursorUs = useRunStore((s) => s.view?.replay.steps[s.replay.step]?.tUs ?? null);
  const select = useRunStore((s) => s.select);
  const setTab = useUiStore((s) => s.setTab);
  const focusNode = useUiStore((s) => s.focusNode);
  const data = useMemo(() => {
    if (!view?.metrics) return null;
    const conv = conversationView(view);
    const { rows, spanUs } = waterfallRows(view.run.responses, view.metrics, conv.t0Us);
    const calls = conversationRows(conv);
    // Replay times count from the first request; the axis from a conversation read made before it.
    const shiftUs = rows[0]?.startUs ?? 0;
    return { rows, calls, shiftUs, spanUs: calls.reduce((max, c) => Math.max(max, c.endUs), spanUs) };
  }, [view]);
  if (!view) return null;
  const { metrics } = view;
  // A run just opened: its metrics are built after its graph is drawn.
  if (!metrics || !data)
    return (
      <div className="h-full px-4 py-4 text-[12px] text-zinc-500" data-testid="waterfall-pending">
        Measuring the run…
      </div>
    );
  const { rows, calls, spanUs, shiftUs } = data;
  const pct = (us: number) => `${Math.min(100, Math.max(0, (us / spanUs) * 100))}%`;
  const t = metrics.totals;
  const totals: Array<[string, string, string?]> = [
    ['wall time', formatDuration(metrics.time.wallMs)],
    ['model', formatDuration(metrics.time.modelMs)],
    ['client & tools', formatDuration(metrics.time.clientMs)],
    ['idle', formatDuration(metrics.time.idleMs)],
    ['tokens', formatCompact(t.tokens.total), t.tokens.cached ? `${formatCompact(t.tokens.cached)} cached` : undefined],
    ['cost', t.unpricedModels.length && !t.costUsd ? '—' : formatCost(t.costUsd)],
  ];
  return (
    <div className="h-full overflow-y-auto px-4 py-4" data-testid="waterfall">
      {/* Cards wrap to another row before they would cut their numbers. */}
      <div className="mb-4 grid grid-cols-[repeat(auto-fill,minmax(104px,1fr))] gap-2" data-testid="waterfall-totals">
        {totals.map(([k, v, sub]) => (
          <div
            key={k}
            className="min-w-0 rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-800"
            title={`${k}: ${v}${sub ? ` (${sub})` : ''}`}
            data-stat={k}
          >
            <div className="truncate text-[10.5px] uppercase tracking-wide text-zinc-500">{k}</div>
            <div className="whitespace-nowrap text-[15px] font-semibold tabular-nums">{v}</div>
            {sub && <div className="truncate text-[10.5px] text-zinc-500">{sub}</div>}
          </div>
        ))}
      </div>
      {t.unpricedModels.length > 0 && (
        <p className="-mt-2 mb-3 text-[11.5px] text-zinc-500">
          No price for {t.unpricedModels.join(', ')}: add it to resources/prices.json.
        </p>
      )}
      <div className="relative space-y-1">
        {byTime(rows, calls).map((entry) => {
          if ('call' in entry) return <ConversationRowView key={`c${entry.call.call}`} row={entry.call} pct={pct} />;
          const r = entry.response;
          return (
            <button
              key={r.index}
              type="button"
              onClick={() => select({ kind: 'response', index: r.index })}
              className="grid w-full items-center gap-2 rounded px-1 text-left hover:bg-zinc-50 dark:hover:bg-zinc-900"
              style={{ gridTemplateColumns: `${LABEL_W}px 1fr` }}
              data-waterfall-row={r.index}
            >
              <span
                className="truncate text-[11.5px] text-zinc-600 dark:text-zinc-400"
                title={`#${r.index + 1} ${r.model ?? ''}${r.reason ? ` failed: ${r.reason}` : ''}`}
              >
                #{r.index + 1} {r.model ?? ''}
              </span>
              <span className="relative block h-5">
                {r.gap && (
                  <span
                    title={`client & tools: ${formatDuration(r.gap.ms)}`}
                    className="absolute top-1.5 h-2 rounded-sm bg-[repeating-linear-gradient(135deg,#a1a1aa88_0_3px,transparent_3px_6px)]"
                    style={{ left: pct(r.gap.startUs), width: pct(r.gap.ms * 1000) }}
                  />
                )}
                <span
                  className={`absolute top-0.5 flex h-4 overflow-hidden rounded-sm ${r.status === 'completed' || r.status === 'in_progress' ? '' : 'ring-2 ring-red-500'}`}
                  style={{ left: pct(r.startUs), width: `max(3px, ${pct(r.endUs - r.startUs)})` }}
                  title={`first token ${formatDuration(r.ttftMs)} · total ${formatDuration(r.durationMs)}`}
                >
                  <span className="h-full bg-blue-300 dark:bg-blue-800" style={{ width: `${r.ttftShare * 100}%` }} />
                  <span className="h-full flex-1 bg-blue-600 dark:bg-blue-500" />
                </span>
              </span>
            </button>
          );
        })}
        {cursorUs !== null && (
          <span
            className="pointer-events-none absolute bottom-0 top-0 w-px bg-red-500"
            style={{
              left: `calc(${LABEL_W + 12}px + (100% - ${LABEL_W + 16}px) * ${Math.min(1, (cursorUs + shiftUs) / spanUs)})`,
            }}
            title="replay position"
          />
        )}
      </div>
      <div className="mt-1 flex gap-4 pl-[162px] text-[10.5px] text-zinc-500">
        <span>
          <span className="mr-1 inline-block h-2 w-3 bg-blue-300 align-middle dark:bg-blue-800" />
          waiting for first token
        </span>
        <span>
          <span className="mr-1 inline-block h-2 w-3 bg-blue-600 align-middle" />
          streaming
        </span>
        <span>
          <span className="mr-1 inline-block h-2 w-3 bg-[repeating-linear-gradient(135deg,#a1a1aa_0_2px,transparent_2px_4px)] align-middle" />
          client & tools
        </span>
        {calls.length > 0 && (
          <span>
            <span className="mr-1 inline-block h-2 w-2 rotate-45 bg-amber-500 align-middle" />
            conversation items written or read (context, not responses)
          </span>
        )}
      </div>
      {/* Scrolls sideways in a narrow centre rather than cutting a column. */}
      <div className="mt-5 overflow-x-auto" data-testid="waterfall-table">
        <table className="w-full text-[12px] tabular-nums">
          {/* Lower-case headers that may wrap: ten columns fit a 540 px centre beside the inspector. */}
          <thead className="text-[10.5px] text-zinc-500">
            <tr>
              {COLUMNS.map(([h, title, numeric]) => (
                <th
                  key={h}
                  title={title}
                  className={`px-1.5 py-1 align-bottom font-medium leading-tight first:pl-0 ${numeric ? 'text-right' : 'text-left'}`}
                >
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.index}
                title={`#${r.index + 1} ${r.model ?? ''}`}
                className="whitespace-nowrap border-t border-zinc-100 dark:border-zinc-800 [&>td]:px-1.5 [&>td:first-child]:pl-0 [&>td:nth-child(n+3)]:text-right"
              >
                <td className="py-1">#{r.index + 1}</td>
                <td title={r.reason ?? undefined} data-reason={r.reason ?? undefined}>
                  <StatusBadge status={r.status} />
                </td>
                <td>{r.gap ? formatDuration(r.gap.ms) : '—'}</td>
                <td>{formatDuration(r.ttftMs)}</td>
                <td>{formatDuration(r.durationMs)}</td>
                <td>{r.tokens ? formatCount(r.tokens.input) : '—'}</td>
                <td title={`prompt cache: ${r.cacheVerdict}`}>{r.tokens ? formatCount(r.tokens.cached) : '—'}</td>
                <td>{r.tokens ? formatCount(r.tokens.output) : '—'}</td>
                <td>{r.tokens ? formatCount(r.tokens.reasoning) : '—'}</td>
                <td>{formatCost(r.costUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <PaidFor view={view} prices={prices} />
      <h3 className="mt-6 text-[11px] font-semibold uppercase tracking-wide text-zinc-500">Findings</h3>
      {metrics.findings.length === 0 ? (
        <p className="mt-1 text-[12.5px] text-zinc-500" data-testid="no-findings">
          Nothing to improve found in this run: no resent input, no missed parallelism, no cache misses.
        </p>
      ) : (
        <ul className="mt-2 space-y-2" data-testid="findings">
          {metrics.findings.map((f, i) => (
            <li key={i}>
              <button
                type="button"
                data-finding={f.kind}
                onClick={() => {
                  const node = f.nodes[0];
                  if (node) {
                    select({ kind: 'node', id: node });
                    setTab('graph');
                    focusNode(node);
                  } else if (f.responses[0] !== undefined) select({ kind: 'response', index: f.responses[0] });
                }}
                className={`w-full rounded-md border px-3 py-2 text-left text-[12.5px] ${
                  f.severity === 'warning'
                    ? 'border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950/40'
                    : 'border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900'
                }`}
              >
                <span className="mr-1.5 text-[10.5px] font-semibold uppercase tracking-wide text-zinc-500">
                  {f.kind.replace(/_/g, ' ')}
                </span>
                {f.message}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
