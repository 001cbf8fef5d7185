// The Agents SDK's trace is evidence that threading cannot see in the traffic (ADR 22):
// - an agent called as a tool (`agent.asTool()`) makes model calls whose input is only the
//   tool's arguments, so threading makes them a run of their own, yet their spans sit in
//   the caller's trace (the graph draws them as a spawned lane);
// - two `run()` calls inside one `withTrace()` share a trace;
// - traces with one `group_id` are one conversation (a chat thread's turns, say).
// Runs whose responses one trace, or one group of traces, names are joined into one. A
// labelled run is never folded into another: a label is the user's own grouping.
//
// Responses of the joined run keep each run's own order and are interleaved by exchange id
// (the order requests were sent); links are renumbered to the new positions.
import { spanResponseId } from './agent-lanes.js';
import type { RunLink, RunOf } from './thread.js';
import type { AgentSpan } from '../types.js';

export interface JoinedRuns<R> {
  runs: RunOf<R>[];
  /** Run id kept → ids of the runs folded into it. */
  folded: Map<string, string[]>;
}

interface Keyed {
  responseId: string;
  exchangeId: number;
}

export function joinTracedRuns<R extends Keyed>(runs: readonly RunOf<R>[], spans: readonly AgentSpan[]): JoinedRuns<R> {
  const folded = new Map<string, string[]>();
  if (spans.length === 0) return { runs: [...runs], folded };
  const runOfResponse = new Map<string, number>();
  runs.forEach((run, i) => {
    for (const r of run.responses) if (!runOfResponse.has(r.responseId)) runOfResponse.set(r.responseId, i);
  });
  // Union-find over run positions; a set's root is its earliest run, which keeps its id.
  const parent = runs.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (const named of runsByConversation(spans, runOfResponse).values()) {
    const [first, ...rest] = [...named].sort((a, b) => a - b);
    for (const run of rest) {
      if (runs[run]!.label !== null) continue;
      const a = root(first!);
      const b = root(run);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const members = new Map<number, number[]>();
  runs.forEach((_, i) => {
    const r = root(i);
    members.set(r, [...(members.get(r) ?? []), i]);
  });
  const out: RunOf<R>[] = [];
  runs.forEach((run, i) => {
    if (root(i) !== i) return;
    const group = members.get(i)!;
    if (group.length === 1) {
      out.push(run);
      return;
    }
    folded.set(
      run.id,
      group.slice(1).map((j) => runs[j]!.id),
    );
    out.push(interleave(group.map((j) => runs[j]!)));
  });
  return { runs: out, folded };
}

/**
 * Per trace, or per group of traces where the trace object names a `group_id`: the runs its spans' responses are in.
 */
function runsByConversation(
  spans: readonly AgentSpan[],
  runOfResponse: ReadonlyMap<string, number>,
): Map<string, Set<number>> {
  const groupOf = new Map<string, string>();
  for (const s of spans) {
    const group = s.object === 'trace' ? s.raw.group_id : undefined;
    if (typeof group === 'string' && group !== '') groupOf.set(s.traceId, `group:${group}`);
  }
  const out = new Map<string, Set<number>>();
  for (const s of spans) {
    const id = spanResponseId(s);
    const run = id === null ? undefined : runOfResponse.get(id);
    if (run === undefined) continue;
    const key = groupOf.get(s.traceId) ?? `trace:${s.traceId}`;
    let named = out.get(key);
    if (named === undefined) out.set(key, (named = new Set()));
    named.add(run);
  }
  return out;
}

/** The first run's id and label; responses by exchange id, each run's own order kept. */
function interleave<R extends Keyed>(group: RunOf<R>[]): RunOf<R> {
  const cursor = group.map(() => 0);
  const position = group.map((run) => run.responses.map(() => -1));
  const responses: R[] = [];
  const links: RunLink[] = [];
  const order: Array<[number, number]> = [];
  for (;;) {
    let pick = -1;
    group.forEach((run, g) => {
      const next = run.responses[cursor[g]!];
      if (next === undefined) return;
      if (pick === -1 || next.exchangeId < group[pick]!.responses[cursor[pick]!]!.exchangeId) pick = g;
    });
    if (pick === -1) break;
    const k = cursor[pick]!++;
    position[pick]![k] = responses.length;
    responses.push(group[pick]!.responses[k]!);
    order.push([pick, k]);
  }
  for (const [g, k] of order) {
    const link = group[g]!.links[k]!;
    links.push({ ...link, parent: link.parent === null ? null : position[g]![link.parent]! });
  }
  const context = group.flatMap((run) => run.context ?? []).sort((a, b) => a.exchangeId - b.exchangeId);
  const first = group[0]!;
  return { ...first, responses, links, ...(context.length > 0 ? { context } : {}) };
}
