// A run's contexts for the inspector: resolved at once on the main thread (cheap: references
// the run already holds), counted by the token worker. The counter reads a per-view cache
// of counts and notes the texts it lacks; fill() has the worker count them. The run's
// texts are sent as soon as a response is inspected, so the Context tab usually opens
// with its counts already in.
import { cacheMiss, type CacheMiss } from '../../shared/context/cache-miss.js';
import { previousRequest } from '../../shared/context/previous-request.js';
import { ContextCounter, type ContextTokens } from '../../shared/context/context-tokens.js';
import { itemText } from '../../shared/context/render-text.js';
import type { RunView } from '../model/run-view.js';
import { countTokens } from './token-client.js';

export class ContextModel {
  readonly counter: ContextCounter;
  private readonly counts = new Map<string, number>();
  private readonly missing = new Set<string>();
  private filling: Promise<void> | null = null;
  private warmed = false;
  private readonly misses = new Map<number, CacheMiss | null>();

  constructor(readonly view: RunView) {
    this.counter = new ContextCounter(view.run, view.graph, (text) => {
      const n = this.counts.get(text);
      if (n === undefined) this.missing.add(text);
      return n ?? null;
    });
  }

  tokens(index: number): ContextTokens {
    return this.counter.tokens(index);
  }

  /** Why this request's cache served less than the previous one's, when it did. */
  cacheMiss(index: number): CacheMiss | null {
    if (this.misses.has(index)) return this.misses.get(index)!;
    const prev = previousRequest(this.view.run, index);
    if (prev === null) return null;
    const cur = this.tokens(index);
    const before = this.tokens(prev.index);
    if (cur.pending || before.pending) return null;
    const miss = cacheMiss(this.view.run, cur, before);
    this.misses.set(index, miss);
    return miss;
  }

  /** Some text the counter asked for is not counted yet. */
  get waiting(): boolean {
    return this.missing.size > 0 || this.filling !== null;
  }

  /** Counts every text the counter asked for and lacked; resolves when they are in. */
  fill(): Promise<void> {
    if (this.filling !== null) return this.filling;
    const texts = [...this.missing];
    this.missing.clear();
    if (texts.length === 0) return Promise.resolve();
    this.filling = countTokens(texts).then((counts) => {
      texts.forEach((t, k) => this.counts.set(t, counts[k]!));
      this.filling = null;
      if (this.missing.size > 0) return this.fill();
    });
    return this.filling;
  }

  /** Queues every text of the run: each item once, each response's instructions and tools. */
  warm(): Promise<void> {
    if (this.warmed) return this.filling ?? Promise.resolve();
    this.warmed = true;
    const resolver = this.counter.resolver;
    for (const node of this.view.graph.nodes) {
      const text = itemText(node.item);
      if (text !== null && !this.counts.has(text)) this.missing.add(text);
    }
    const seen = new Set<string>();
    this.view.run.responses.forEach((r, i) => {
      const key = JSON.stringify([
        r.request.params.instructions ?? null,
        r.request.params.tools ?? null,
        r.request.params.text ?? null,
      ]);
      if (seen.has(key)) return;
      seen.add(key);
      for (const p of resolver.context(i).parts)
        if (p.item === null && p.text && !this.counts.has(p.text)) this.missing.add(p.text);
    });
    return this.fill();
  }
}

const models = new WeakMap<RunView, ContextModel>();

export function contextModel(view: RunView): ContextModel {
  let m = models.get(view);
  if (m === undefined) models.set(view, (m = new ContextModel(view)));
  return m;
}
