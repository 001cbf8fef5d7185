// Group nodes: response frames drawn behind the items (agent, model, item tally, TTFT,
// duration, tokens, cost, and why it failed; zoomed out, a summary card instead of the
// items), agent lanes with their names, shaded compaction windows with the token savings
// (folded, one card), and folded fans (a program's calls, or many calls of one tool) drawn
// as one node for the calls and one for their outputs.
import { Handle, Position, useStore, type NodeProps } from '@xyflow/react';
import { memo, useMemo } from 'react';
import { estimateTokens } from '../../shared/trace/item-text.js';
import type { PriceTable } from '../../shared/trace/metrics/prices.js';
import { responseMetrics } from '../../shared/trace/metrics/response.js';
import type { GraphGroup, ResponseGroup } from '../../shared/trace/graph/types.js';
import { Icon } from '../lib/Icon.js';
import { formatCompact, formatCost, formatCount, formatDuration } from '../lib/format.js';
import { NODE_H, NODE_W } from '../model/geometry.js';
import type { RunView } from '../model/run-view.js';
import { useRunStore } from '../state/run-store.js';
import { useGraphStore } from './graph-store.js';
import { kindStyle } from './kind-style.js';

const NO_PRICES: PriceTable = { models: {} };

/** The group, or undefined before the replay step at which it appears (`data.appear`, see to-flow.ts). */
function useGroup(id: string, data: Record<string, unknown>): GraphGroup | undefined {
  const appear = typeof data.appear === 'number' ? data.appear : 0;
  const visible = useRunStore((s) => s.replay.step >= appear);
  const group = useRunStore((s) => s.view?.groupById[id]);
  return visible ? group : undefined;
}

/** The canvas zoom, in steps of 5 %: what cards size their text by, without a render per frame of a zoom gesture. */
function useZoomStep(): number {
  return useStore((s) => Math.max(0.05, Math.round(s.transform[2] * 20) / 20));
}

/**
 * The font size (canvas px) that reads at 11 px on screen, shrunk until `lines` fit the
 * box, each wrapped: a narrow card wraps its lines rather than shrinking them to dust.
 */
export function fittedFont(zoom: number, width: number, height: number, lines: readonly string[]): number {
  const w = Math.max(1, width - 16);
  const h = Math.max(1, height - 8);
  // Characters are at most ~0.6 em wide, lines 1.25 em tall.
  let font = 11 / zoom;
  while (
    font > 4 &&
    lines.reduce((rows, l) => rows + Math.max(1, Math.ceil((l.length * 0.6 * font) / w)), 0) * 1.25 * font > h
  )
    font *= 0.93;
  return Math.max(4, font);
}

/** Least text a person reads on screen, px. */
const LEGIBLE_PX = 9;

/**
 * The first of `choices` (fullest first) whose text still reads on screen at this zoom, with its font; else the last.
 */
export function cardText(
  zoom: number,
  width: number,
  height: number,
  choices: ReadonlyArray<readonly string[]>,
): { lines: readonly string[]; font: number } {
  for (const lines of choices) {
    const font = fittedFont(zoom, width, height, lines);
    if (font * zoom >= LEGIBLE_PX) return { lines, font };
  }
  const lines = choices[choices.length - 1]!;
  return { lines, font: fittedFont(zoom, width, height, lines) };
}

const ResponseFrame = memo(function ResponseFrame({ id, width, height, data }: NodeProps) {
  const groupId = typeof data.group === 'string' ? data.group : id;
  const segment = typeof data.segment === 'number' ? data.segment : 0;
  const lane = typeof data.lane === 'string' ? data.lane : null;
  const group = useGroup(groupId, data);
  const index = group?.kind === 'response' ? group.response : -1;
  const inProgress = useRunStore((s) =>
    s.view && index >= 0 ? (s.view.replay.responseDoneAt[index] ?? Infinity) > s.replay.step : false,
  );
  const selected = useRunStore((s) => s.selection?.kind === 'response' && s.selection.index === index);
  const view = useRunStore((s) => s.view);
  const prices = useRunStore((s) => s.detail?.prices ?? NO_PRICES);
  const tier = useGraphStore((s) => s.tier);
  const zoom = useZoomStep();
  const summary = useMemo(
    () => (view && group?.kind === 'response' ? frameSummary(view, prices, group, lane) : null),
    [view, prices, group, lane],
  );
  if (group?.kind !== 'response' || !summary) return null;
  // Why it failed, on the frame itself: once the replay reaches its end.
  const failure = inProgress ? null : group.failure;
  const failed = failure !== null || group.status === 'failed' || group.status === 'error';
  const state = inProgress ? `${group.model ?? 'model'} · streaming…` : summary.numbers;
  const title = `#${index + 1} · ${summary.agent} · ${group.model ?? 'unknown model'} · ${summary.tally} · ${summary.numbers}${failure ? `\n${group.status}: ${failure}` : ''}${segment > 0 ? ' (continued in this lane)' : ''}`;
  const frameClass = [
    'rounded-lg border',
    failed ? 'border-red-400' : 'border-zinc-300 dark:border-zinc-700',
    inProgress ? 'loupe-in-progress border-dashed border-blue-400' : '',
    selected ? 'ring-2 ring-blue-500' : '',
  ].join(' ');
  const attrs = {
    'data-group-kind': 'response',
    'data-response-id': group.responseId,
    'data-frame-segment': segment,
    'data-state': inProgress ? 'in_progress' : group.status,
    title,
  };
  const fold = (
    <button
      type="button"
      data-testid="frame-fold"
      title={data.folded ? 'Unfold this response' : 'Fold this response to a card'}
      aria-label={data.folded ? 'Unfold this response' : 'Fold this response to a card'}
      className="shrink-0 rounded px-1 text-zinc-500 hover:bg-zinc-200 dark:hover:bg-zinc-700"
      onClick={(e) => {
        e.stopPropagation();
        useGraphStore.getState().toggleResponse(index);
      }}
    >
      <Chevron open={data.folded !== true} />
    </button>
  );
  if (tier === 'far' || data.folded === true) {
    // Zoomed out, or folded: the frame is a card summing the response up, its text as large
    // as fits, and as many of its lines as still read (the number and tally last of all).
    const last = failure ? `${group.status}: ${failure}` : state;
    const { lines, font } = cardText(zoom, width ?? 0, height ?? 0, [
      [`#${index + 1} ${summary.agent}`, `${group.model ?? 'model'} · ${summary.tally}`, last],
      [`#${index + 1} ${summary.agent} · ${summary.tally}`, failure ? group.status : state],
      [`#${index + 1} · ${failure ? group.status : summary.tally}`],
    ]);
    return (
      <div
        {...attrs}
        data-folded={data.folded === true || undefined}
        style={{ width, height, fontSize: font }}
        className={`${frameClass} flex cursor-pointer flex-col justify-center overflow-hidden bg-white/95 px-2 leading-tight text-zinc-600 shadow-sm dark:bg-zinc-900/95 dark:text-zinc-300`}
        data-testid="frame-card"
      >
        {data.folded === true && (
          <Handle type="target" position={Position.Top} isConnectable={false} className="loupe-handle" />
        )}
        {data.folded === true && (
          <Handle type="source" position={Position.Bottom} isConnectable={false} className="loupe-handle" />
        )}
        <div className="flex min-w-0 items-center font-semibold text-zinc-900 dark:text-zinc-100">
          {data.folded === true && tier !== 'far' && fold}
          <span className="min-w-0 break-words">{lines[0]}</span>
        </div>
        {lines[1] !== undefined && (
          <div className={`break-words ${failure && lines.length === 2 ? 'text-red-700 dark:text-red-300' : ''}`}>
            {lines[1]}
          </div>
        )}
        {lines[2] !== undefined && (
          <div
            className={`break-words tabular-nums ${failure ? 'text-red-700 dark:text-red-300' : ''}`}
            data-testid={failure ? 'frame-failure' : undefined}
          >
            {lines[2]}
          </div>
        )}
      </div>
    );
  }
  return (
    <div {...attrs} style={{ width, height }} className={`${frameClass} bg-zinc-50/70 dark:bg-zinc-900/40`}>
      <div
        className="flex cursor-pointer items-center gap-2 px-2.5 pt-1 text-[11px] text-zinc-500 dark:text-zinc-400"
        data-testid="frame-title"
      >
        {fold}
        <span className="font-semibold text-zinc-700 dark:text-zinc-300">#{index + 1}</span>
        {(segment > 0 || view!.graph.lanes.length > 1) && (
          <span className="truncate font-medium text-fuchsia-700 dark:text-fuchsia-300">{summary.agent}</span>
        )}
        <span
          className={`shrink-0 tabular-nums ${failure ? 'font-medium text-red-700 dark:text-red-300' : ''}`}
          data-testid="frame-numbers"
        >
          {failure ? group.status : state}
        </span>
        <span className="min-w-0 flex-1 truncate">
          · {group.model ?? 'model'} · {summary.tally}
        </span>
      </div>
    </div>
  );
});

/** Why a response failed, in the row its frame keeps for it (layout.ts): whole, wrapped, on the graph itself. */
const ResponseFailure = memo(function ResponseFailure({ width, height, data }: NodeProps) {
  const group = useGroup(typeof data.group === 'string' ? data.group : '', data);
  // Zoomed out, the response's card says it.
  const far = useGraphStore((s) => s.tier === 'far');
  if (group?.kind !== 'response' || group.failure === null || far) return null;
  const text = `${group.status}: ${group.failure}`;
  return (
    <div
      data-testid="frame-failure"
      data-response-id={group.responseId}
      title={text}
      style={{ width, height }}
      className="flex items-center gap-2 overflow-hidden rounded-md border border-red-300 bg-red-50 px-2 text-red-800 dark:border-red-900 dark:bg-red-950/70 dark:text-red-200"
    >
      <Handle type="target" position={Position.Top} isConnectable={false} className="loupe-handle" />
      <span className="shrink-0 text-[15px] leading-none" aria-hidden="true">
        ⚠
      </span>
      <Handle type="source" position={Position.Bottom} isConnectable={false} className="loupe-handle" />
      <span className="line-clamp-3 break-words text-[11px] leading-tight">
        <strong className="font-semibold">{group.status}:</strong> {group.failure}
      </span>
    </div>
  );
});

/** Open (pointing down) or folded (pointing right); an icon, so titles keep their text. */
function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      viewBox="0 0 10 10"
      className="h-2.5 w-2.5"
      aria-hidden="true"
      style={{ transform: open ? 'rotate(90deg)' : undefined }}
    >
      <path d="M3 1.5 7 5 3 8.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}

interface FrameSummary {
  agent: string;
  tally: string;
  numbers: string;
}

const TALLY: Array<[string, (kind: string) => boolean]> = [
  ['call', (k) => k === 'tool_call' || k === 'hosted_tool' || k === 'mcp' || k === 'agent_call' || k === 'program'],
  ['output', (k) => k === 'tool_output' || k === 'agent_call_output' || k === 'program_output'],
  ['message', (k) => k === 'message' || k === 'agent_message'],
  ['reasoning', (k) => k === 'reasoning'],
];

/** What a frame says about its response: the agent of this lane's part, an item tally, TTFT, time, tokens, cost. */
function frameSummary(view: RunView, prices: PriceTable, group: ResponseGroup, frameLane: string | null): FrameSummary {
  const lane = frameLane ?? view.nodeById[group.members[0] ?? '']?.lane ?? 'main';
  const members = group.members.filter((id) => view.nodeById[id]?.lane === lane);
  const counts = TALLY.map(
    ([name, test]) => [name, members.filter((id) => test(view.nodeById[id]!.kind)).length] as const,
  ).filter(([, n]) => n > 0);
  const other = members.length - counts.reduce((s, [, n]) => s + n, 0);
  const tally =
    [
      ...counts.map(([name, n]) => `${formatCount(n)} ${name}${n === 1 ? '' : name === 'reasoning' ? '' : 's'}`),
      ...(other > 0 ? [`${other} other`] : []),
    ].join(', ') || 'no new items';
  // Before the run's metrics are built (a run just opened), the response's own numbers.
  const record = view.run.responses[group.response];
  const m = view.metrics
    ? view.metrics.responses[group.response]
    : record && responseMetrics(record, group.response, prices);
  const numbers = [
    m?.ttftMs != null ? `TTFT ${formatDuration(m.ttftMs)}` : null,
    m?.durationMs != null ? formatDuration(m.durationMs) : null,
    m?.tokens ? `${formatCompact(m.tokens.total)} tok` : null,
    m?.costUsd != null ? formatCost(m.costUsd) : null,
  ]
    .filter((x) => x !== null)
    .join(' · ');
  const agent = view.groupById[`agent:${lane}`]?.label ?? lane;
  return { agent, tally, numbers: numbers || group.status };
}

/** A collapsed fan of one tool: how many calls, their statuses and the time they spread over. Click to expand. */
const FanCalls = memo(function FanCalls({ id, data }: NodeProps) {
  const group = useGroup(typeof data.group === 'string' ? data.group : id, data);
  const view = useRunStore((s) => s.view);
  const stats = useMemo(
    () => (view && group?.kind === 'fan' ? fanStats(view, group.members, 'calls') : null),
    [view, group],
  );
  if (group?.kind !== 'fan' || !stats) return null;
  return (
    <FanBox
      id={id}
      responseId={view!.graph.responses[group.response]?.responseId ?? ''}
      kind="tool_call"
      title={group.label}
      line={group.program === null ? stats.tally : `program calls · ${stats.tally}`}
      numbers={stats.spread}
      full={`${group.label}: ${stats.tally}, ${stats.spread}. Click to show every call.`}
    />
  );
});

const FanOutputs = memo(function FanOutputs({ id, data }: NodeProps) {
  const groupId = typeof data.group === 'string' ? data.group : id;
  const group = useGroup(groupId, data);
  const view = useRunStore((s) => s.view);
  const stats = useMemo(
    () => (view && group?.kind === 'fan' ? fanStats(view, group.outputs, 'outputs') : null),
    [view, group],
  );
  if (group?.kind !== 'fan' || !stats) return null;
  const title = `×${formatCount(group.outputs.length)} outputs`;
  return (
    <FanBox
      id={id}
      responseId={view!.nodeById[group.outputs[0]!]?.responseId ?? ''}
      kind="tool_output"
      title={title}
      line={`${group.tool} · ${stats.tally}`}
      numbers={stats.spread}
      full={`${title} of ${group.tool}: ${stats.tally}, ${stats.spread}. Click to show every output.`}
    />
  );
});

function FanBox({
  id,
  responseId,
  kind,
  title,
  line,
  numbers,
  full,
}: {
  id: string;
  responseId: string;
  kind: string;
  title: string;
  line: string;
  numbers: string;
  full: string;
}) {
  const style = kindStyle(kind);
  return (
    <div
      data-node-type="fan_group"
      data-node-id={id}
      data-node-kind={kind}
      data-response-id={responseId}
      data-testid="fan-group"
      title={full}
      style={{
        width: NODE_W,
        height: NODE_H,
        boxShadow: '3px 3px 0 -1px #fff, 3px 3px 0 0 #a1a1aa, 6px 6px 0 -1px #fff, 6px 6px 0 0 #d4d4d8',
      }}
      className={`flex cursor-pointer items-center gap-2 rounded-md border border-l-4 border-zinc-300 bg-white px-2 dark:border-zinc-600 dark:bg-zinc-900 ${style.accent}`}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} className="loupe-handle" />
      <span className={`flex h-7 w-7 shrink-0 items-center justify-center rounded ${style.chip}`}>
        <Icon name={style.icon} />
      </span>
      <div className="min-w-0 flex-1 leading-tight">
        <div className="truncate text-[12.5px] font-semibold text-zinc-900 dark:text-zinc-100" data-testid="node-label">
          {title}
        </div>
        <div className="truncate text-[10.5px] text-zinc-500 dark:text-zinc-400">{line}</div>
        <div className="truncate text-[10px] tabular-nums text-zinc-500 dark:text-zinc-400">{numbers}</div>
      </div>
      <Handle type="source" position={Position.Bottom} isConnectable={false} className="loupe-handle" />
    </div>
  );
}

/** Status tally (`1,480 completed · 20 failed`) and the time the items spread over. */
function fanStats(view: RunView, ids: string[], what: 'calls' | 'outputs'): { tally: string; spread: string } {
  const counts = new Map<string, number>();
  let first = Infinity;
  let last = -Infinity;
  let tokens = 0;
  for (const id of ids) {
    const node = view.nodeById[id];
    if (!node) continue;
    const status = node.status ?? (what === 'outputs' ? 'returned' : 'emitted');
    counts.set(status, (counts.get(status) ?? 0) + 1);
    const t = view.replay.steps[view.replay.appearAt[id] ?? -1]?.tUs;
    if (t !== undefined) {
      first = Math.min(first, t);
      last = Math.max(last, t);
    }
    if (what === 'outputs') tokens += estimateTokens(node.item);
  }
  const tally = [...counts].map(([status, n]) => `${formatCount(n)} ${status}`).join(' · ');
  const span = last - first >= 1000 ? `over ${formatDuration((last - first) / 1000)}` : last >= first ? 'at once' : '';
  return {
    tally,
    spread: [span, what === 'outputs' ? `+≈${formatCompact(tokens)} tok` : ''].filter(Boolean).join(' · '),
  };
}

const AgentLane = memo(function AgentLane({ id, width, height, data }: NodeProps) {
  const group = useGroup(id, data);
  const folded = useGraphStore((s) => group?.kind === 'agent' && s.foldedLanes.has(group.lane));
  if (group?.kind !== 'agent') return null;
  return (
    <div
      data-group-kind="agent"
      style={{ width, height }}
      className="rounded-xl border border-dashed border-fuchsia-300/70 bg-fuchsia-50/30 dark:border-fuchsia-800/60 dark:bg-fuchsia-950/10"
    >
      <div className="flex items-center gap-1 px-3 pt-2 text-xs font-semibold tracking-wide text-fuchsia-700 dark:text-fuchsia-300">
        <button
          type="button"
          data-testid="lane-fold"
          title={folded ? 'Unfold this agent' : "Fold this agent's responses to cards"}
          aria-label={folded ? 'Unfold this agent' : "Fold this agent's responses to cards"}
          className="rounded px-1 hover:bg-fuchsia-100 dark:hover:bg-fuchsia-900"
          onClick={(e) => {
            e.stopPropagation();
            useGraphStore.getState().toggleLane(group.lane);
          }}
        >
          <Chevron open={!folded} />
        </button>
        <span className="cursor-pointer" title={`${group.label}: click to focus this agent (again to show all)`}>
          {group.label}
        </span>
      </div>
    </div>
  );
});

const CompactionWindow = memo(function CompactionWindow({ id, width, height, data }: NodeProps) {
  const group = useGroup(id, data);
  const view = useRunStore((s) => s.view);
  const zoom = useZoomStep();
  const span = useMemo(
    () => (view && group?.kind === 'compaction' ? windowSpan(view, group.members) : ''),
    [view, group],
  );
  const failed = useMemo(
    () => (view && group?.kind === 'compaction' ? windowFailures(view, group.members) : []),
    [view, group],
  );
  if (group?.kind !== 'compaction') return null;
  const folded = data.folded === true;
  const fold = (
    <button
      type="button"
      data-testid="compaction-fold"
      title={folded ? 'Unfold this compaction window' : 'Fold this compaction window to a card'}
      aria-label={folded ? 'Unfold this compaction window' : 'Fold this compaction window to a card'}
      className="shrink-0 rounded px-1 hover:bg-orange-200 dark:hover:bg-orange-900"
      onClick={(e) => {
        e.stopPropagation();
        useGraphStore.getState().toggleCompaction(group.id);
      }}
    >
      <Chevron open={!folded} />
    </button>
  );
  const title = [`Compacted: ${formatCount(group.members.length)} items${span} → ${group.label}`, ...failed].join('\n');
  if (folded) {
    // One card for the window: what was replaced, from which responses, and the savings; and
    // why a response folded into it failed, since its frame is folded with it.
    const failures =
      failed.length === 0 ? [] : [failed.length === 1 ? failed[0]! : `${failed.length} responses failed`];
    const { lines, font } = cardText(zoom, width ?? 0, height ?? 0, [
      [`Compacted: ${formatCount(group.members.length)} items${span}`, group.label, ...failures],
      [`Compacted ×${formatCount(group.members.length)}`, ...(failed.length > 0 ? [`${failed.length} failed`] : [])],
      [`Compacted ×${formatCount(group.members.length)}`],
    ]);
    return (
      <div
        data-group-kind="compaction"
        data-folded
        data-testid="compaction-card"
        title={title}
        style={{ width, height, fontSize: font }}
        className="flex cursor-pointer flex-col justify-center overflow-hidden rounded-lg border-2 border-dashed border-orange-400 bg-orange-50 bg-[repeating-linear-gradient(135deg,transparent_0_8px,rgba(249,115,22,0.08)_8px_16px)] px-2 leading-tight text-orange-900 dark:border-orange-700 dark:bg-orange-950 dark:text-orange-100"
      >
        <Handle type="target" position={Position.Top} isConnectable={false} className="loupe-handle" />
        <div className="flex items-center font-semibold">
          {fold}
          <span className="break-words">{lines[0]}</span>
        </div>
        {lines.slice(1).map((line, i) => (
          <div
            key={i}
            className={`break-words ${failures.length > 0 && i === lines.length - 2 ? 'text-red-700 dark:text-red-300' : ''}`}
            data-testid={failures.length > 0 && i === lines.length - 2 ? 'window-failure' : undefined}
          >
            {line}
          </div>
        ))}
        <Handle type="source" position={Position.Bottom} isConnectable={false} className="loupe-handle" />
      </div>
    );
  }
  return (
    <div
      data-group-kind="compaction"
      style={{ width, height }}
      className="relative rounded-lg border-2 border-dashed border-orange-300/80 bg-orange-100/40 bg-[repeating-linear-gradient(135deg,transparent_0_8px,rgba(249,115,22,0.08)_8px_16px)] dark:border-orange-800/70 dark:bg-orange-950/20"
    >
      {/* Beside the window, where no response frame title can cover it. */}
      <div
        className="absolute left-full top-1 ml-2 flex items-center gap-1 whitespace-nowrap rounded bg-orange-100 px-1 py-0.5 text-[12px] font-medium text-orange-800 dark:bg-orange-950 dark:text-orange-200"
        title={title}
      >
        {fold}
        {group.label}
      </div>
    </div>
  );
});

/** `#2 error: connect ECONNREFUSED …` for each failed response whose items all lie in a window. */
function windowFailures(view: RunView, members: string[]): string[] {
  const inside = new Set(members);
  const out: string[] = [];
  for (const g of view.graph.groups)
    if (g.kind === 'response' && g.failure !== null && g.members.length > 0 && g.members.every((id) => inside.has(id)))
      out.push(`#${g.response + 1} ${g.status}: ${g.failure}`);
  return out;
}

/** ` of responses #2–#9`: where a window's items came from. */
function windowSpan(view: RunView, members: string[]): string {
  let first = Infinity;
  let last = -Infinity;
  for (const id of members) {
    const r = view.nodeById[id]?.response;
    if (r === undefined) continue;
    first = Math.min(first, r);
    last = Math.max(last, r);
  }
  if (!Number.isFinite(first)) return '';
  return first === last ? ` of response #${first + 1}` : ` of responses #${first + 1}–#${last + 1}`;
}

export const GroupNodes = {
  responseGroup: ResponseFrame,
  responseFailure: ResponseFailure,
  agentGroup: AgentLane,
  compactionGroup: CompactionWindow,
  fanCalls: FanCalls,
  fanOutputs: FanOutputs,
};
