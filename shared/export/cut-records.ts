// Records as an export holds a long run: every item with its long strings cut (run-skeleton.ts
// cutLongTexts: a cut item carries its whole item's content hash, fingerprint and token
// estimate, which is all threading, the graph and node ids read of it, ADR 33) and no stream
// events (no export writes them). A run chained by previous_response_id with 1 GB of tool
// outputs is then held in its previews, not its texts. What a writer needs of a whole text it
// takes while the record is read whole, one record at a time: the o200k tokens of each cut
// item's text, kept by the item's content hash (a number per item, never the text), and the
// OTLP messages read the record whole again when their span is written.
import { cutLongTexts } from '../api/run-skeleton.js';
import type { TokenCounter } from '../context/context-tokens.js';
import { itemText } from '../context/render-text.js';
import type { ResponseRecord, TraceItem } from '../trace/types.js';

export class CutRecords {
  /** A whole item read again (the store's reader shares resent items) is the same cut object. */
  private readonly cuts = new WeakMap<TraceItem, TraceItem>();
  /** The tokens of each cut item's whole text, by its type and content hash. */
  private readonly tokens = new Map<string, number>();

  /** `count`: the tokenizer, when the writer needs the context's tokens (json, jsonl); null when it does not. */
  constructor(private readonly count: TokenCounter | null) {}

  /** Whether records must come whole to be cut: their texts' tokens are counted as they are. */
  get readsWhole(): boolean {
    return this.count !== null;
  }

  /** The record as the export holds it; `record` itself is not changed. */
  cut(record: ResponseRecord): ResponseRecord {
    return {
      ...record,
      request: { ...record.request, input: record.request.input.map(this.item) },
      output: record.output.map(this.item),
      events: [],
    };
  }

  /** The tokens of a cut item's whole text (ContextCounter's `cutTokens`); undefined for an item it did not cut. */
  readonly cutTokens = (item: TraceItem): number | undefined =>
    item.cut === undefined ? undefined : this.tokens.get(tokensKey(item));

  private readonly item = (item: TraceItem): TraceItem => {
    const known = this.cuts.get(item);
    if (known !== undefined) return known;
    const cut = cutLongTexts(item);
    this.cuts.set(item, cut);
    if (cut === item || this.count === null) return cut;
    const key = tokensKey(cut);
    if (this.tokens.has(key)) return cut;
    const text = itemText(item);
    const n = text === null ? null : this.count(text);
    if (n !== null) this.tokens.set(key, n);
    return cut;
  };
}

function tokensKey(cut: TraceItem): string {
  return `${cut.type}|${cut.cut!.contentHash}`;
}
