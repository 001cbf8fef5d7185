// What a request's input was, as the model received it: the input parts of its effective
// context (shared/context/resolve-context.ts, the one resolver the Context tab and the
// export use too): what previous_response_id or the conversation carried, then what it
// sent, from the latest compaction item on. Each entry keeps the graph node the item is
// (identity.ts matches an item resent without its id), so two requests' inputs compare by
// identity, not by position; an item no node stands for (written straight to a
// conversation) is keyed by the item object, which the resolver shares between contexts.
import { ContextResolver } from '../context/resolve-context.js';
import type { RunGraph } from '../trace/graph/types.js';
import type { Run } from '../trace/thread/thread.js';
import type { TraceItem } from '../trace/types.js';

export interface InputEntry {
  /** The item's graph node, or a key of its own for an item that has none. */
  node: string;
  item: TraceItem;
  /** `request`: sent in this request; `carried`: by previous_response_id or the conversation, from `response`. */
  source: 'request' | 'carried';
  /**
   * The response whose request or output put it in the context (position in the run); null for an item written
   * straight to the conversation.
   */
  response: number | null;
}

export interface RequestInput {
  entries: InputEntry[];
  /** A previous_response_id naming a response this run does not hold: its part of the context is unknown. */
  unresolved: string | null;
}

const keys = new WeakMap<TraceItem, string>();
let nextKey = 0;

/** `resolver`: the run's, when the caller holds one (it memoizes contexts up a chain). */
export function requestInput(
  run: Run,
  graph: RunGraph,
  index: number,
  resolver = new ContextResolver(run, graph),
): RequestInput {
  const ctx = resolver.context(index);
  const sentNodes = new Set(graph.responses[index]?.input ?? []);
  const entries: InputEntry[] = [];
  for (const p of ctx.parts) {
    if (p.item === null) continue;
    let node = p.node;
    if (node === null) {
      node = keys.get(p.item) ?? `item:${++nextKey}`;
      keys.set(p.item, node);
    }
    // A compaction item (or one /compact kept beside it) is sent when this request's input holds it.
    const sent = p.source === 'request' || (p.node !== null && sentNodes.has(p.node) && p.source === 'compaction');
    entries.push({
      node,
      item: p.item,
      source: sent ? 'request' : 'carried',
      response: sent ? index : p.fromIndex,
    });
  }
  return { entries, unresolved: ctx.unresolved };
}
