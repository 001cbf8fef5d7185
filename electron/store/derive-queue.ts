// Live derivation, run by whichever thread owns writes: exchanges whose end is on disk are
// normalized in order, one per event-loop turn, and their rows written a few exchanges
// per transaction, so a burst of finished streams costs many short pauses, not one long one.
import type { Db } from './db.js';
import { computeDerived, derivedRows, derivedWriter, type DerivedRows, type DerivedWriter } from './derive.js';

export interface DeriveQueueOptions {
  onDerived?: (ids: number[]) => void;
  onError?: (id: number, err: unknown) => void;
}

const EXCHANGES_PER_WRITE = 4;

export class DeriveQueue {
  private queue: number[] = [];
  private running: Promise<void> | null = null;
  private readonly write: DerivedWriter;

  constructor(
    private readonly db: Db,
    private readonly options: DeriveQueueOptions = {},
  ) {
    this.write = derivedWriter(db);
  }

  push(ids: number[]): void {
    this.queue.push(...ids);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Resolves when everything queued so far is derived and written. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    let pending: DerivedRows[] = [];
    while (this.queue.length) {
      const id = this.queue.shift()!;
      // One exchange per event-loop turn: whatever else this thread does gets in between.
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        const result = await computeDerived(this.db, id);
        if (result) pending.push(derivedRows(id, result));
      } catch (err) {
        this.options.onError?.(id, err);
      }
      if (pending.length >= EXCHANGES_PER_WRITE || !this.queue.length) {
        this.writeRows(pending);
        pending = [];
      }
    }
  }

  private writeRows(batch: DerivedRows[]): void {
    if (!batch.length) return;
    try {
      this.write(batch);
      this.options.onDerived?.(batch.map((r) => r.exchangeId));
    } catch (err) {
      for (const rows of batch) this.options.onError?.(rows.exchangeId, err);
    }
  }
}
