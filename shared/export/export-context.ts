// The export's view of each response's effective context (shared/context): its parts in
// order, with their source and tokens, and the totals to reconcile against the API's own.
import { attributeRun, type PaidRow } from '../context/attribution.js';
import {
  ContextCounter,
  whollyCached,
  type CountedPart,
  type CutTokens,
  type TokenCounter,
} from '../context/context-tokens.js';
import type { ContextPart, ContextPartKind, ContextSource } from '../context/context-types.js';
import type { RunGraph } from '../trace/graph/types.js';
import type { PriceTable } from '../trace/metrics/prices.js';
import type { Run } from '../trace/thread/thread.js';

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

export interface ExportPaidRow {
  tokens: number;
  cost: number | null;
  first_tokens: number;
  resent_tokens: number;
  resends: number;
}

/** What a run paid for (attribution.ts): input tokens and cost by source, tool and agent, and the biggest resends. */
export interface ExportAttribution {
  input_tokens: number;
  cost: number | null;
  by_source: Array<{ source: string } & ExportPaidRow>;
  by_tool: Array<{ tool: string } & ExportPaidRow>;
  by_agent: Array<{ agent: string } & ExportPaidRow>;
  levers: Array<{ text: string; tokens: number; cost: number | null }>;
}

/**
 * `count` is the caller's tokenizer (the edge loads o200k_base only for an export that needs
 * it); `cutTokens` the whole texts' tokens of the cut items the run holds (cut-records.ts).
 */
export function contextCounter(run: Run, graph: RunGraph, count: TokenCounter, cutTokens?: CutTokens): ContextCounter {
  return new ContextCounter(run, graph, count, undefined, cutTokens);
}

export function exportContextPart(p: CountedPart): ExportContextPart {
  return partOf(p, p.tokens, p.cached);
}

function partOf(p: ContextPart, tokens: number | null, cached: boolean): ExportContextPart {
  return { item: p.node, part: p.part, source: p.source, from_response: p.fromResponse, tokens, cached };
}

/** Response `index`'s context fields with `context` empty, and the JSON text of each of its parts to write in it. */
export interface StreamedContext {
  fields: ExportResponseContext;
  parts(): Iterable<string>;
}

/**
 * exportContext as text, a part at a time: a chain's contexts hold parts by the square of
 * its turns (31 M for the bench's 3,000 turns of three calls), each the same part as the
 * context before carried, so each part's text is made once per size and cache state, and
 * every context after reuses it.
 */
export function streamedContext(counter: ContextCounter, index: number, texts: PartTexts): StreamedContext {
  const { parts, sizes, cachedTokens, reported } = counter.sized(index);
  let contextTokens = 0;
  for (const m of sizes) contextTokens += m.tokens ?? 0;
  return {
    fields: { context: [], context_tokens: contextTokens, reported_input_tokens: reported },
    *parts() {
      let start = 0;
      for (let k = 0; k < parts.length; k++) {
        const tokens = sizes[k]!.tokens;
        start += tokens ?? 0;
        yield texts.of(parts[k]!, tokens, whollyCached(start, cachedTokens));
      }
    },
  };
}

/** Each context part's JSON text, kept while the part is (a run's parts are shared by its contexts). */
export class PartTexts {
  private readonly texts = new WeakMap<ContextPart, { tokens: number | null; cached: string; uncached: string }>();

  of(p: ContextPart, tokens: number | null, cached: boolean): string {
    let known = this.texts.get(p);
    if (known === undefined || known.tokens !== tokens) {
      known = {
        tokens,
        cached: JSON.stringify(partOf(p, tokens, true)),
        uncached: JSON.stringify(partOf(p, tokens, false)),
      };
      this.texts.set(p, known);
    }
    return cached ? known.cached : known.uncached;
  }
}

/** Response `index`'s effective context, as the export lists it. */
export function exportContext(counter: ContextCounter, index: number): ExportResponseContext {
  const t = counter.tokens(index);
  return {
    context: t.parts.map(exportContextPart),
    context_tokens: t.contextTokens,
    reported_input_tokens: t.reported,
  };
}

export function exportAttribution(
  run: Run,
  graph: RunGraph,
  counter: ContextCounter,
  prices: PriceTable,
  between?: () => void,
): ExportAttribution {
  const a = attributeRun(run, graph, counter, prices, between);
  const row = (r: PaidRow): ExportPaidRow => ({
    tokens: Math.round(r.tokens),
    cost: r.cost,
    first_tokens: Math.round(r.firstTokens),
    resent_tokens: Math.round(r.resentTokens),
    resends: r.resends,
  });
  return {
    input_tokens: a.inputTokens,
    cost: a.cost,
    by_source: a.bySource.map((r) => ({ source: r.key, ...row(r) })),
    by_tool: a.byTool.map((r) => ({ tool: r.key, ...row(r) })),
    by_agent: a.byAgent.map((r) => ({ agent: r.key, ...row(r) })),
    levers: a.levers.map((l) => ({ text: l.text, tokens: l.tokens, cost: l.cost })),
  };
}
