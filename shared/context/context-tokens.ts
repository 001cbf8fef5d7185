// Token counts per part of a context, reconciled with the `input_tokens` the API reported.
// Text parts count with the o200k_base tokenizer (passed in, so a worker can count off the
// main thread and the view can show the parts before the counts are in), plus the chat
// template's frame around each. Items whose size only the API knows count by what it billed:
// - encrypted reasoning: the reasoning tokens of the response that produced it (shared
//   evenly when that response produced several reasoning items); reasoning of an earlier
//   turn (before the latest user message) counts 0, as the API drops it;
// - a compaction item: at the first request whose context holds it, the reported input less
//   everything else counted there (so that request's overhead is 0 by construction); failing
//   that, the /compact response's output tokens less its other output items.
// What no part accounts for is shown as the overhead, never spread over the parts.
import type { RunGraph } from '../trace/graph/types.js';
import type { Run } from '../trace/thread/thread.js';
import type { TraceItem } from '../trace/types.js';
import type { ContextPart, ResolvedContext } from './context-types.js';
import { FRAME_TOKENS, itemText } from './render-text.js';
import { ContextResolver } from './resolve-context.js';

/** Tokens in a text, or null while it is not counted yet. */
export type TokenCounter = (text: string) => number | null;

/**
 * The tokens of a cut item's whole text (run-skeleton.ts cutLongTexts), counted by whoever
 * read it whole (an export, shared/export/cut-records.ts); undefined when not known, and the
 * item's preview is counted instead (as the renderer's context view does).
 */
export type CutTokens = (item: TraceItem) => number | undefined;

export type CountMethod = 'tokenizer' | 'billed' | 'unknown';

export interface CountedPart extends ContextPart {
  /** Null while counting, or when neither the tokenizer nor the bill can say. */
  tokens: number | null;
  counted: CountMethod;
  /** Tokens before this part in the context. */
  start: number;
  /** Wholly inside the prefix `cached_tokens` covered. */
  cached: boolean;
  /** The cached prefix ends inside this part. */
  partlyCached: boolean;
}

export interface ContextTokens {
  index: number;
  responseId: string;
  parts: CountedPart[];
  /** What a compaction in this context replaced, counted the same way. */
  replaced: CountedPart[];
  unresolved: string | null;
  /** Sum of the parts' tokens. */
  contextTokens: number;
  /** `usage.input_tokens`, null when the API reported none. */
  reported: number | null;
  cachedTokens: number | null;
  /** Reported less counted: the template, hosted tools' prompts, images, what is not on the wire. */
  overhead: number | null;
  /** Some text is not counted yet. */
  pending: boolean;
}

export class ContextCounter {
  readonly resolver: ContextResolver;
  private readonly compactionTokens = new Map<string, number | null>();
  private readonly memo = new Map<number, ContextTokens>();
  /** An item is rendered and counted once, however many contexts carry it. */
  private readonly itemTokens = new WeakMap<TraceItem, number>();
  private readonly partSizes = new WeakMap<ContextPart, Measure>();

  constructor(
    private readonly run: Run,
    private readonly graph: RunGraph,
    private readonly count: TokenCounter,
    resolver?: ContextResolver,
    private readonly cutTokens?: CutTokens,
  ) {
    this.resolver = resolver ?? new ContextResolver(run, graph);
  }

  tokens(index: number): ContextTokens {
    const known = this.memo.get(index);
    if (known !== undefined) return known;
    const ctx = this.resolver.context(index);
    const usage = this.run.responses[index]!.usage;
    const parts = place(ctx.parts, this.measureAll(ctx.parts), usage?.cachedTokens ?? null);
    const replaced = place(ctx.replaced, this.measureAll(ctx.replaced), null);
    const pending = [...parts, ...replaced].some((p) => p.counted === 'tokenizer' && p.tokens === null);
    const contextTokens = parts.reduce((n, p) => n + (p.tokens ?? 0), 0);
    const reported = usage?.inputTokens ?? null;
    const out: ContextTokens = {
      index,
      responseId: ctx.responseId,
      parts,
      replaced,
      unresolved: ctx.unresolved,
      contextTokens,
      reported,
      cachedTokens: usage?.cachedTokens ?? null,
      overhead: reported === null || pending ? null : reported - contextTokens,
      pending,
    };
    if (!pending) {
      if (this.memo.size >= MEMO_SIZE) this.memo.delete(this.memo.keys().next().value!);
      this.memo.set(index, out);
    }
    return out;
  }

  /**
   * Response `index`'s parts and their sizes, without the counted parts `tokens` makes of
   * them: an export writes every context of a chain, millions of parts in all.
   */
  sized(index: number): {
    parts: readonly ContextPart[];
    sizes: Measure[];
    cachedTokens: number | null;
    reported: number | null;
  } {
    const parts = this.resolver.context(index).parts;
    const usage = this.run.responses[index]!.usage;
    return {
      parts,
      sizes: this.measureAll(parts),
      cachedTokens: usage?.cachedTokens ?? null,
      reported: usage?.inputTokens ?? null,
    };
  }

  /**
   * Each part's size in a context (reasoning of an earlier turn is dropped); the sizes are shared, the array is new.
   */
  measureAll(parts: readonly ContextPart[]): Measure[] {
    const lastUser = lastUserMessage(parts);
    return parts.map((p, k) => (k < lastUser && isReasoning(p) ? DROPPED : this.measured(p)));
  }

  /** A part's size, kept once known: the parts of a chain are shared by all its contexts. */
  private measured(p: ContextPart): Measure {
    const known = this.partSizes.get(p);
    if (known !== undefined) return known;
    const m = this.measure(p);
    if (!(m.counted === 'tokenizer' && m.tokens === null) && !(p.part === 'compaction' && m.tokens === null))
      this.partSizes.set(p, m);
    return m;
  }

  private measure(p: ContextPart): Measure {
    if (p.item === null) {
      const text = p.text ?? '';
      if (text === '') return { tokens: 0, counted: 'unknown' };
      const n = this.count(text);
      return { tokens: n === null ? null : n + (p.part === 'instructions' ? FRAME_TOKENS : 0), counted: 'tokenizer' };
    }
    if (p.item.type === 'compaction') {
      const n = p.node === null ? null : this.compaction(p.node);
      return { tokens: n, counted: n === null ? 'unknown' : 'billed' };
    }
    const known = this.itemTokens.get(p.item);
    if (known !== undefined) return { tokens: known, counted: 'tokenizer' };
    const n = this.textTokens(p.item);
    if (n === undefined) {
      const billed = this.reasoning(p.node);
      return { tokens: billed, counted: billed === null ? 'unknown' : 'billed' };
    }
    if (n === null) return { tokens: null, counted: 'tokenizer' };
    this.itemTokens.set(p.item, n + FRAME_TOKENS);
    return { tokens: n + FRAME_TOKENS, counted: 'tokenizer' };
  }

  /**
   * Tokens of an item's text without its frame: null while not counted, undefined for an item
   * with no text to count (encrypted reasoning). A cut item's whole text, when known, counts.
   */
  private textTokens(item: TraceItem): number | null | undefined {
    const whole = item.cut === undefined ? undefined : this.cutTokens?.(item);
    if (whole !== undefined) return whole;
    const text = itemText(item);
    return text === null ? undefined : this.count(text);
  }

  /** An encrypted reasoning item: its share of the reasoning tokens its response was billed for. */
  private reasoning(node: string | null): number | null {
    const n = node === null ? undefined : this.resolver.nodeOf(node);
    if (n === undefined || n.role !== 'output') return null;
    const record = this.run.responses[n.response];
    const u = record?.usage;
    if (!record || !u || u.reasoningTokens <= 0) return null;
    const many = record.output.filter((o) => o.type === 'reasoning').length;
    return Math.round(u.reasoningTokens / Math.max(1, many));
  }

  private compaction(node: string): number | null {
    if (this.compactionTokens.has(node)) return this.compactionTokens.get(node)!;
    this.compactionTokens.set(node, null); // a request being measured does not measure itself
    let value: number | null = null;
    for (let i = 0; i < this.run.responses.length && value === null; i++) {
      const ctx = this.resolver.context(i);
      if (!ctx.parts.some((p) => p.node === node)) continue;
      const reported = this.run.responses[i]!.usage?.inputTokens;
      if (reported === undefined) continue;
      let rest = 0;
      let known = true;
      const sizes = this.measureAll(ctx.parts);
      for (let k = 0; k < ctx.parts.length; k++) {
        const p = ctx.parts[k]!;
        const m = sizes[k]!;
        if (p.node === node) continue;
        if (m.tokens === null && m.counted === 'tokenizer') known = false;
        rest += m.tokens ?? 0;
      }
      if (!known) {
        this.compactionTokens.delete(node); // try again once the texts are counted
        return null;
      }
      value = Math.max(0, reported - rest);
    }
    value ??= this.fromCompactOutput(node);
    this.compactionTokens.set(node, value);
    return value;
  }

  /** The /compact response that produced it: its output tokens less its other output items. */
  private fromCompactOutput(node: string): number | null {
    const n = this.resolver.nodeOf(node);
    const record = n === undefined ? undefined : this.run.responses[n.response];
    if (!record?.usage || n?.role !== 'output') return null;
    let rest = 0;
    for (const item of record.output) {
      if (item.type === 'compaction') continue;
      const c = this.textTokens(item);
      rest += c === null || c === undefined ? 0 : c + FRAME_TOKENS;
    }
    return Math.max(0, record.usage.outputTokens - rest);
  }
}

/** The API drops reasoning items of earlier turns (before the latest user message): they cost nothing. */
const DROPPED: Measure = { tokens: 0, counted: 'billed' };

function isReasoning(p: ContextPart): boolean {
  return p.item?.type === 'reasoning';
}

function lastUserMessage(parts: readonly ContextPart[]): number {
  for (let k = parts.length - 1; k >= 0; k--) {
    const item = parts[k]!.item;
    if (item?.type === 'message' && item.raw.role === 'user') return k;
  }
  return -1;
}

export interface Measure {
  tokens: number | null;
  counted: CountMethod;
}

/** How many counted contexts are kept (the inspector shows one and compares it with the one before). */
const MEMO_SIZE = 16;

/** A part ending at token `end` lies wholly inside the prefix `cached_tokens` covered. */
export function whollyCached(end: number, cachedTokens: number | null): boolean {
  return cachedTokens !== null && cachedTokens > 0 && end <= cachedTokens;
}

function place(parts: readonly ContextPart[], sizes: Measure[], cachedTokens: number | null): CountedPart[] {
  let start = 0;
  return parts.map((p, k) => {
    const m = sizes[k]!;
    const end = start + (m.tokens ?? 0);
    const cached = whollyCached(end, cachedTokens);
    const partlyCached = cachedTokens !== null && !cached && start < cachedTokens;
    const out: CountedPart = { ...p, tokens: m.tokens, counted: m.counted, start, cached, partlyCached };
    start = end;
    return out;
  });
}

/** Every response's context, counted. */
export function countContexts(run: Run, graph: RunGraph, count: TokenCounter): ContextTokens[] {
  const counter = new ContextCounter(run, graph, count);
  return run.responses.map((_, i) => counter.tokens(i));
}

/** The contexts of a run as the resolver gives them, for callers that count later. */
export type { ResolvedContext };
