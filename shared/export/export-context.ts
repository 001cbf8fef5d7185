// The export's view of each response's effective context (shared/context): its parts in
// order, with their source and tokens, and the totals to reconcile against the API's own.
import { ContextCounter } from '../context/context-tokens.js';
import type { ContextPartKind, ContextSource } from '../context/context-types.js';
import { o200kCounter } from '../context/o200k.js';
import type { RunGraph } from '../trace/graph-types.js';
import type { Run } from '../trace/thread.js';

export interface ExportContextPart {
  /** The item's graph node id; null for instructions and tools. */
  item: string | null;
  part: ContextPartKind;
  source: ContextSource;
  from_response: string | null;
  /** Null when neither the tokenizer nor the bill can size it. */
  tokens: number | null;
  /** Wholly inside the prefix the prompt cache served. */
  cached: boolean;
}

export interface ExportResponseContext {
  context: ExportContextPart[];
  context_tokens: number;
  reported_input_tokens: number | null;
}

export function exportContexts(run: Run, graph: RunGraph): ExportResponseContext[] {
  const counter = new ContextCounter(run, graph, o200kCounter());
  return run.responses.map((_, i) => {
    const t = counter.tokens(i);
    return {
      context: t.parts.map((p) => ({ item: p.node, part: p.part, source: p.source, from_response: p.fromResponse, tokens: p.tokens, cached: p.cached })),
      context_tokens: t.contextTokens,
      reported_input_tokens: t.reported,
    };
  });
}
