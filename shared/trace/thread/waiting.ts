// Records that threading cannot place yet, because nothing seen so far leads to them: a
// conversation read back before any request used it, or the input listing of a response
// not seen yet. Each waits under the keys that would place it (its conversation, its
// items' ids and call ids, or the response it lists) until a later record names one. A
// waiting record is placed at most once. Layered like the rest of threading's state, so a
// fork (thread.ts) sees its parent's waiting records without changing them.
import { LayeredMap } from './layered-map.js';
import type { ResponseRecord, TraceItem } from '../types.js';

export class Waiting {
  private readonly byKey: LayeredMap<string, number>;
  private readonly records: LayeredMap<number, ResponseRecord>;
  private readonly placed: LayeredMap<number, true>;

  constructor(parent: Waiting | null) {
    this.byKey = new LayeredMap(parent?.byKey ?? null);
    this.records = new LayeredMap(parent?.records ?? null);
    this.placed = new LayeredMap(parent?.placed ?? null);
  }

  /** A conversation record no run's items lead to yet, numbered `n` in threading's order. */
  context(record: ResponseRecord, n: number): void {
    const keys = [...record.request.input, ...record.output].flatMap(itemKeys);
    if (record.request.conversationId !== null) keys.push(`conv:${record.request.conversationId}`);
    this.add(record, n, keys);
  }

  /** An input listing of a response not seen yet. */
  inputListing(record: ResponseRecord, n: number): void {
    this.add(record, n, [`response:${record.responseId}`]);
  }

  /** The waiting input listing of this response, taken. */
  takeInputListing(responseId: string): ResponseRecord | null {
    const n = this.byKey.get(`response:${responseId}`);
    return n === undefined ? null : this.take(n);
  }

  /**
   * Waiting conversation records that this request's input resends or whose conversation it names, taken, in
   * threading's order.
   */
  takeContextOf(record: ResponseRecord): ResponseRecord[] {
    const keys = record.request.input.flatMap(itemKeys);
    if (record.request.conversationId !== null) keys.push(`conv:${record.request.conversationId}`);
    const found = new Set<number>();
    for (const key of keys) {
      const n = this.byKey.get(key);
      if (n !== undefined && !this.placed.get(n) && this.records.get(n)?.api === 'conversations') found.add(n);
    }
    return [...found].sort((a, b) => a - b).flatMap((n) => this.take(n) ?? []);
  }

  private add(record: ResponseRecord, n: number, keys: string[]): void {
    this.records.set(n, record);
    for (const key of keys) this.byKey.set(key, n);
  }

  private take(n: number): ResponseRecord | null {
    if (this.placed.get(n)) return null;
    this.placed.set(n, true);
    return this.records.get(n) ?? null;
  }
}

/** An item repeated elsewhere: by its id, or by its call id and type. */
function itemKeys(item: TraceItem): string[] {
  const keys: string[] = [];
  if (item.id !== null) keys.push(`id:${item.id}`);
  if (item.callId !== null) keys.push(`call:${item.callId}:${item.type}`);
  return keys;
}
