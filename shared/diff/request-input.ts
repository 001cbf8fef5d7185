// What a request's input was, as the model received it: the items it sent, after those a
// `previous_response_id` or conversation carried from the response it continues (that
// response's own input and output, recursively). Items before the latest compaction item
// are what the compaction replaced, so they are no longer part of it. Each entry keeps the
// graph node the item is (graph-identity.ts matches an item resent without its id), so two
// requests' inputs compare by identity, not by position.
import type { RunGraph } from '../trace/graph/types.js';
import type { Run } from '../trace/thread/thread.js';
import type { TraceItem } from '../trace/types.js';

export interface InputEntry {
  /** The item's graph node. */
  node: string;
  item: TraceItem;
  /** `request`: sent in this request; `carried`: by previous_response_id or the conversation, from `response`. */
  source: 'request' | 'carried';
  /** The response whose request or output put it in the context (position in the run). */
  response: number;
}

export interface RequestInput {
  entries: InputEntry[];
  /** A previous_response_id naming a response this run does not hold: its part of the context is unknown. */
  unresolved: string | null;
}

/** Whether a request's context continues its parent's (rather than being all it sent). */
function carries(run: Run, index: number): boolean {
  const r = run.responses[index]!;
  return (
    run.links[index]?.parent != null && (r.request.previousResponseId !== null || r.request.conversationId !== null)
  );
}

export function requestInput(run: Run, graph: RunGraph, index: number): RequestInput {
  // The chain of responses whose context this one continues, root first.
  const chain: number[] = [index];
  while (carries(run, chain[0]!)) chain.unshift(run.links[chain[0]!]!.parent!);
  const root = run.responses[chain[0]!]!;
  const unresolved =
    chain.length === 1 && root.request.previousResponseId !== null && run.links[chain[0]!]?.parent == null
      ? root.request.previousResponseId
      : null;
  const entries: InputEntry[] = [];
  for (const [k, i] of chain.entries()) {
    const record = run.responses[i]!;
    const nodes = graph.responses[i];
    const source = i === index ? 'request' : 'carried';
    record.request.input.forEach((item, j) =>
      entries.push({ node: nodes?.input[j] ?? `${i}:in:${j}`, item, source, response: i }),
    );
    if (k < chain.length - 1)
      record.output.forEach((item, j) =>
        entries.push({ node: nodes?.output[j] ?? `${i}:out:${j}`, item, source: 'carried', response: i }),
      );
  }
  let last = -1;
  entries.forEach((e, i) => {
    if (e.item.type === 'compaction') last = i;
  });
  return { entries: last > 0 ? entries.slice(last) : entries, unresolved };
}

/** The request a response's changes are shown against: the one it continues, else the one before it. */
export function previousRequest(run: Run, index: number): { index: number; basis: 'parent' | 'previous' } | null {
  const parent = run.links[index]?.parent;
  if (parent != null) return { index: parent, basis: 'parent' };
  return index > 0 ? { index: index - 1, basis: 'previous' } : null;
}
