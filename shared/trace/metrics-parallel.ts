// Missed parallelism: tool calls the client ran one per turn although none used another's
// result. A chain is a run of responses that each emit exactly one client tool call and
// are continued by a request carrying its output; within a chain, calls whose arguments
// quote nothing from the earlier outputs could have been requested together.
import type { GraphNode, RunGraph } from './graph-types.js';
import { outputText } from './item-text.js';
import { isObject, obj, parseJson, str } from './json.js';
import { recordEndUs, recordStartUs } from './record-time.js';
import type { Run } from './thread.js';
import type { Json } from './types.js';

export interface MissedParallelism {
  /** Call node ids, in the order the client ran them. */
  calls: string[];
  names: string[];
  /** The responses that emitted them, one turn each. */
  responses: number[];
  /** Model turns and tool time that running them together would have saved (estimate). */
  savedMs: number;
  /** The requests had `parallel_tool_calls: false`. */
  parallelDisabled: boolean;
}

export function missedParallelism(run: Run, graph: RunGraph): MissedParallelism[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const outputOf = new Map<string, GraphNode>();
  for (const n of graph.nodes) if (n.callNode !== null) outputOf.set(n.callNode, n);
  const single = graph.responses.map((r) => {
    const calls = r.output.map((id) => byId.get(id)).filter((n): n is GraphNode => n !== undefined && n.kind === 'tool_call' && !madeByProgram(n));
    return calls.length === 1 ? calls[0] : undefined;
  });
  // The child request that carried the call's output back: the tool continuation.
  const next = new Map<number, number>();
  run.links.forEach((link, i) => {
    const call = link.parent === null ? undefined : single[link.parent];
    const output = call === undefined ? undefined : outputOf.get(call.id);
    if (link.parent !== null && output !== undefined && graph.responses[i]?.input.includes(output.id) && !next.has(link.parent)) next.set(link.parent, i);
  });

  const found: MissedParallelism[] = [];
  const inChain = new Set<number>();
  single.forEach((call, i) => {
    if (call === undefined || inChain.has(i)) return;
    const chain: number[] = [];
    for (let j: number | undefined = i; j !== undefined && single[j] !== undefined && !inChain.has(j); j = next.get(j)) {
      chain.push(j);
      inChain.add(j);
    }
    for (const group of independentGroups(chain, single, outputOf)) found.push(describe(group, run, single, next));
  });
  return found;
}

/** Splits a chain where a call quotes an earlier output of its group (it needed that result). */
function independentGroups(chain: number[], single: Array<GraphNode | undefined>, outputOf: Map<string, GraphNode>): number[][] {
  const groups: number[][] = [];
  let group: number[] = [];
  let seen: string[] = [];
  const signatures = new Set<string>();
  for (const r of chain) {
    const call = single[r];
    if (call === undefined) continue;
    const args = str(call.item.raw.arguments) ?? str(call.item.raw.input) ?? '';
    const signature = `${str(call.item.raw.name) ?? call.type}(${args})`;
    const dependent = signatures.has(signature) || argumentValues(args).some((v) => seen.some((text) => text.includes(v)));
    if (dependent) {
      if (group.length > 1) groups.push(group);
      group = [];
      seen = [];
      signatures.clear();
    }
    group.push(r);
    signatures.add(signature);
    const output = outputOf.get(call.id);
    if (output !== undefined) seen.push(outputText(output.item.raw));
  }
  if (group.length > 1) groups.push(group);
  return groups;
}

/** Sequential: every turn and every tool run; together: the first turn and the slowest tool. */
function describe(group: number[], run: Run, single: Array<GraphNode | undefined>, next: Map<number, number>): MissedParallelism {
  let turns = 0;
  let tools = 0;
  let slowest = 0;
  group.forEach((r, k) => {
    const record = run.responses[r];
    if (record === undefined) return;
    if (k > 0) turns += recordEndUs(record) - recordStartUs(record);
    const child = next.get(r);
    const childRecord = child === undefined ? undefined : run.responses[child];
    const gap = childRecord === undefined ? 0 : Math.max(0, recordStartUs(childRecord) - recordEndUs(record));
    tools += gap;
    slowest = Math.max(slowest, gap);
  });
  const calls = group.map((r) => single[r]).filter((n): n is GraphNode => n !== undefined);
  return {
    calls: calls.map((c) => c.id),
    names: calls.map((c) => str(c.item.raw.name) ?? c.type),
    responses: group,
    savedMs: (turns + tools - slowest) / 1000,
    parallelDisabled: group.some((r) => run.responses[r]?.request.params.parallel_tool_calls === false),
  };
}

function madeByProgram(n: GraphNode): boolean {
  return str(obj(n.item.raw.caller)?.type) === 'program';
}

/** Leaf values of JSON arguments worth looking for in earlier outputs (too short ones match anything). */
function argumentValues(args: string): string[] {
  const parsed = parseJson(args);
  const values: string[] = [];
  const walk = (v: Json): void => {
    if (typeof v === 'string' && v.length >= 3) values.push(v);
    else if (typeof v === 'number' && Math.abs(v) >= 10) values.push(String(v));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) Object.values(v).forEach(walk);
  };
  if (parsed.ok) walk(parsed.value);
  else if (args.trim().length >= 3) values.push(args.trim());
  return values;
}
