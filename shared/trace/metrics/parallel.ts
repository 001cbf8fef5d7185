// Missed parallelism: tool calls the client ran one per turn although none could have used
// another's result. A chain is a run of responses that each emit exactly one client tool
// call and are continued by a request carrying its output. Within a chain a call is taken
// as needing an earlier result, and starts a new group, when it repeats an earlier call
// (a poll or a retry) or its arguments quote an earlier output of its group (text-overlap.ts:
// any 8-character run of an argument value, say a context line of a patch after the read
// of that file). Only a group of two or more calls with no such evidence is reported. A
// dependence that leaves no trace in the arguments cannot be seen; the finding says what
// it rests on.
import type { GraphNode, RunGraph } from '../graph/types.js';
import { outputText } from '../item-text.js';
import { obj, str } from '../json.js';
import { recordEndUs, recordStartUs } from '../record-time.js';
import { argumentValues, latestQuotedSteps, outputTexts } from './text-overlap.js';
import { runSteps, type Steps } from '../../steps.js';
import type { Run } from '../thread/thread.js';

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
  return runSteps(missedParallelismSteps(run, graph));
}

/** missedParallelism, yielding as it reads the chains' outputs. */
export function* missedParallelismSteps(run: Run, graph: RunGraph): Steps<MissedParallelism[]> {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const outputOf = new Map<string, GraphNode>();
  for (const n of graph.nodes) if (n.callNode !== null) outputOf.set(n.callNode, n);
  const single = graph.responses.map((r) => {
    const calls = r.output
      .map((id) => byId.get(id))
      .filter((n): n is GraphNode => n !== undefined && n.kind === 'tool_call' && !madeByProgram(n));
    return calls.length === 1 ? calls[0] : undefined;
  });
  // The child request that carried the call's output back: the tool continuation.
  const next = new Map<number, number>();
  run.links.forEach((link, i) => {
    const call = link.parent === null ? undefined : single[link.parent];
    const output = call === undefined ? undefined : outputOf.get(call.id);
    if (
      link.parent !== null &&
      output !== undefined &&
      graph.responses[i]?.input.includes(output.id) &&
      !next.has(link.parent)
    )
      next.set(link.parent, i);
  });

  const found: MissedParallelism[] = [];
  const inChain = new Set<number>();
  for (const [i, call] of single.entries()) {
    if (call === undefined || inChain.has(i)) continue;
    const chain: number[] = [];
    for (
      let j: number | undefined = i;
      j !== undefined && single[j] !== undefined && !inChain.has(j);
      j = next.get(j)
    ) {
      chain.push(j);
      inChain.add(j);
    }
    for (const group of yield* independentGroups(chain, single, outputOf))
      found.push(describe(group, run, single, next));
  }
  return found;
}

/** Splits a chain where a call repeats an earlier call of its group or quotes an earlier output of it. */
function* independentGroups(
  chain: number[],
  single: Array<GraphNode | undefined>,
  outputOf: Map<string, GraphNode>,
): Steps<number[][]> {
  const calls = chain.map((r) => single[r]).filter((n): n is GraphNode => n !== undefined);
  const args = calls.map((c) => str(c.item.raw.arguments) ?? str(c.item.raw.input) ?? '');
  const outputs = calls.map((c) => {
    const output = outputOf.get(c.id);
    return output === undefined ? [] : outputTexts(outputText(output.item.raw));
  });
  const quoted = yield* latestQuotedSteps(args.map(argumentValues), outputs);
  const groups: number[][] = [];
  let group: number[] = [];
  let start = 0;
  const signatures = new Set<string>();
  calls.forEach((call, k) => {
    const signature = `${str(call.item.raw.name) ?? call.type}(${args[k]})`;
    if (signatures.has(signature) || quoted[k]! >= start) {
      if (group.length > 1) groups.push(group);
      group = [];
      start = k;
      signatures.clear();
    }
    group.push(chain[k]!);
    signatures.add(signature);
  });
  if (group.length > 1) groups.push(group);
  return groups;
}

/** Sequential: every turn and every tool run; together: the first turn and the slowest tool. */
function describe(
  group: number[],
  run: Run,
  single: Array<GraphNode | undefined>,
  next: Map<number, number>,
): MissedParallelism {
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
