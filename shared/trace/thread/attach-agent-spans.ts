// Which run an Agents SDK trace belongs to: the run holding the responses its `response`
// spans name (in Chat Completions mode, its `generation` spans' completion ids). A trace
// is attached whole, to one run: the one holding most of the named responses, the
// earliest on a tie. Spans of one trace may arrive over several
// exports; they are grouped by trace id first. A trace naming no recorded response (its
// model calls went elsewhere, or it has none) stays unattached, and is reported so.
import { spanResponseId } from './agent-lanes.js';
import type { RunOf } from './thread.js';
import type { AgentSpan } from '../types.js';

export interface SpanAttachment {
  /** Run id to its spans (the trace objects included), in start order. */
  byRun: Map<string, AgentSpan[]>;
  unattachedTraces: string[];
}

export function attachAgentSpans(
  runs: readonly RunOf<{ responseId: string }>[],
  spans: readonly AgentSpan[],
): SpanAttachment {
  const runOfResponse = new Map<string, number>();
  runs.forEach((run, i) => {
    for (const r of run.responses) if (!runOfResponse.has(r.responseId)) runOfResponse.set(r.responseId, i);
  });
  const byTrace = new Map<string, AgentSpan[]>();
  for (const span of spans) {
    const list = byTrace.get(span.traceId) ?? [];
    list.push(span);
    byTrace.set(span.traceId, list);
  }
  const byRun = new Map<string, AgentSpan[]>();
  const unattachedTraces: string[] = [];
  for (const [traceId, members] of byTrace) {
    const run = owningRun(members, runOfResponse);
    const id = run === null ? undefined : runs[run]?.id;
    if (id === undefined) {
      unattachedTraces.push(traceId);
      continue;
    }
    byRun.set(id, [...(byRun.get(id) ?? []), ...members]);
  }
  for (const list of byRun.values()) sortByStart(list);
  return { byRun, unattachedTraces };
}

function owningRun(members: AgentSpan[], runOfResponse: Map<string, number>): number | null {
  const votes = new Map<number, number>();
  for (const span of members) {
    const id = spanResponseId(span);
    const run = id === null ? undefined : runOfResponse.get(id);
    if (run !== undefined) votes.set(run, (votes.get(run) ?? 0) + 1);
  }
  let best: number | null = null;
  for (const [run, count] of votes) {
    const bestCount = best === null ? 0 : (votes.get(best) ?? 0);
    if (count > bestCount || (count === bestCount && best !== null && run < best)) best = run;
  }
  return best;
}

/** Trace objects first (they have no times), then spans by start; stable otherwise. */
function sortByStart(list: AgentSpan[]): void {
  const order = new Map(list.map((s, i) => [s, i]));
  list.sort((a, b) => key(a) - key(b) || (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

function key(s: AgentSpan): number {
  return s.object === 'trace' ? -Infinity : (s.startedAt ?? Infinity);
}
