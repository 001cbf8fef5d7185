// An agent called as a tool (`agent.asTool()` in @openai/agents) makes its own model calls,
// whose input is only the tool's arguments: nothing in the traffic joins them to the run
// of the agent that called it, so threading makes them a run of their own. The SDK's
// trace does join them: their `agent` span sits under the caller's `function` span. A run
// whose responses all run under such a span is folded into the run of its trace's other
// responses (ADR 22), where the graph draws it as a spawned lane. A labelled run is never
// folded: a label is the user's own grouping.
//
// Responses of the merged run keep each run's own order and are interleaved by exchange id
// (the order requests were sent); links are renumbered to the new positions.
import { spanResponseId } from './agent-lanes.js';
import type { RunLink, RunOf } from './thread.js';
import type { AgentSpan } from './types.js';

export interface MergedRuns<R> {
  runs: RunOf<R>[];
  /** Run id kept → ids of the runs folded into it. */
  folded: Map<string, string[]>;
}

interface Keyed {
  responseId: string;
  exchangeId: number;
}

export function mergeSpawnedRuns<R extends Keyed>(
  runs: readonly RunOf<R>[],
  spans: readonly AgentSpan[],
): MergedRuns<R> {
  const folded = new Map<string, string[]>();
  if (spans.length === 0) return { runs: [...runs], folded };
  const runOfResponse = new Map<string, number>();
  runs.forEach((run, i) => {
    for (const r of run.responses) if (!runOfResponse.has(r.responseId)) runOfResponse.set(r.responseId, i);
  });
  /** Folded run → the run it goes into. */
  const into = new Map<number, number>();
  for (const trace of byTrace(spans).values()) {
    const underTool = responsesUnderTool(trace);
    const named = new Map<number, { tool: number; other: number }>();
    for (const s of trace) {
      const id = spanResponseId(s);
      const run = id === null ? undefined : runOfResponse.get(id);
      if (id === null || run === undefined) continue;
      const count = named.get(run) ?? { tool: 0, other: 0 };
      if (underTool.has(id)) count.tool++;
      else count.other++;
      named.set(run, count);
    }
    let owner: number | null = null;
    // The caller's run: the one holding most of the trace's responses made outside a tool call.
    for (const [run, count] of named) {
      if (count.other > 0 && (owner === null || count.other > named.get(owner)!.other)) owner = run;
    }
    if (owner === null) continue;
    for (const [run, count] of named) {
      const candidate = runs[run]!;
      if (run === owner || count.other > 0 || candidate.label !== null || into.has(run)) continue;
      if (candidate.responses.every((r) => underTool.has(r.responseId))) into.set(run, owner);
    }
  }
  if (into.size === 0) return { runs: [...runs], folded };
  const root = (i: number): number => {
    for (let seen = 0; into.has(i) && seen < runs.length; seen++) i = into.get(i)!;
    return i;
  };
  const members = new Map<number, number[]>();
  runs.forEach((_, i) => {
    const r = root(i);
    members.set(r, [...(members.get(r) ?? []), i]);
  });
  const out: RunOf<R>[] = [];
  runs.forEach((run, i) => {
    if (into.has(i)) return;
    const group = members.get(i) ?? [i];
    if (group.length === 1) {
      out.push(run);
      return;
    }
    folded.set(run.id, group.slice(1).map((j) => runs[j]!.id));
    out.push(interleave(group.map((j) => runs[j]!)));
  });
  return { runs: out, folded };
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

function byTrace(spans: readonly AgentSpan[]): Map<string, AgentSpan[]> {
  const out = new Map<string, AgentSpan[]>();
  for (const s of spans) {
    const list = out.get(s.traceId);
    if (list === undefined) out.set(s.traceId, [s]);
    else list.push(s);
  }
  return out;
}

/** Response ids of a trace's model calls made inside a tool call (a `function` span above them). */
function responsesUnderTool(trace: readonly AgentSpan[]): Set<string> {
  const byId = new Map(trace.map((s) => [s.id, s]));
  const out = new Set<string>();
  for (const s of trace) {
    const id = spanResponseId(s);
    if (id === null) continue;
    let p = s.parentId === null ? undefined : byId.get(s.parentId);
    for (let depth = 0; p !== undefined && depth < trace.length; depth++) {
      if (p.type === 'function') {
        out.add(id);
        break;
      }
      p = p.parentId === null ? undefined : byId.get(p.parentId);
    }
  }
  return out;
}
