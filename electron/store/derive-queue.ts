// Live derivation, run by whichever thread owns writes: exchanges whose end is on disk are
// normalized in order, one per event-loop turn, and their rows written a few exchanges
// per transaction, so a burst of finished streams costs many short pauses, not one long one.
//
// Derivation gives way to traffic (ADR 7): while raw batches keep arriving it waits for a
// quiet moment (no batch for quietMs), but never longer than maxDeferMs after an exchange
// ended. Normalizing costs more CPU than relaying and recording together, and on a busy
// machine it would take the cores the relay needs; the derived rows are a cache, and the UI
// shows exchanges in flight from the raw rows meanwhile. idle() derives at once.
import { systemClock, type Clock } from '../clock.js';
import type { Db } from './db.js';
import { computeDerived, derivedRows, derivedWriter, type DerivedRows, type DerivedWriter } from './derive.js';

export interface DeriveQueueOptions {
  onDerived?: (ids: number[]) => void;
  onError?: (id: number, err: unknown) => void;
  /** No raw batch for this long counts as quiet. Default 150 ms (the recorder flushes every 100). */
  quietMs?: number;
  /** An ended exchange waits at most this long for quiet. Default 1,000 ms. */
  maxDeferMs?: number;
  clock?: Clock;
}

const EXCHANGES_PER_WRITE = 4;
const DEFAULT_QUIET_MS = 150;
const DEFAULT_MAX_DEFER_MS = 1_000;

export class DeriveQueue {
  private queue: Array<{ id: number; at: number }> = [];
  private running: Promise<void> | null = null;
  private readonly write: DerivedWriter;
  private lastBatchAt = -Infinity;
  /** Exchanges whose derived rows could not be written (the disk was full, say), until retried. */
  private unwritten: number[] = [];
  /** Set by idle(): someone waits for the derived rows, so nothing waits for quiet. */
  private urgent = 0;
  /** Ends the wait for quiet early: for idle(). */
  private wake: (() => void) | null = null;

  private readonly quietMs: number;
  private readonly maxDeferMs: number;
  private readonly clock: Clock;

  constructor(
    private readonly db: Db,
    private readonly options: DeriveQueueOptions = {},
  ) {
    this.write = derivedWriter(db);
    this.quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
    this.maxDeferMs = options.maxDeferMs ?? DEFAULT_MAX_DEFER_MS;
    this.clock = options.clock ?? systemClock;
  }

  /** A raw batch was just written: traffic is flowing. */
  noteBatch(): void {
    this.lastBatchAt = this.clock.now();
  }

  push(ids: number[]): void {
    const at = this.clock.now();
    for (const id of ids) this.queue.push({ id, at });
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Derives again the exchanges whose rows could not be written: for when a write just succeeded. */
  retryUnwritten(): void {
    if (this.unwritten.length) this.push(this.unwritten.splice(0));
  }

  /** Resolves when everything queued so far is derived and written. */
  async idle(): Promise<void> {
    this.urgent++;
    this.wake?.();
    try {
      while (this.running) await this.running;
    } finally {
      this.urgent--;
    }
  }

  private async drain(): Promise<void> {
    let pending: DerivedRows[] = [];
    while (this.queue.length) {
      await this.quietOrDue(this.queue[0]!.at);
      const id = this.queue.shift()!.id;
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

  /** Waits while batches keep coming, until quiet or until the oldest exchange is due. */
  private async quietOrDue(endedAt: number): Promise<void> {
    for (;;) {
      if (this.urgent > 0) return;
      const now = this.clock.now();
      const quietIn = this.lastBatchAt + this.quietMs - now;
      const dueIn = endedAt + this.maxDeferMs - now;
      const wait = Math.min(quietIn, dueIn);
      if (wait <= 0) return;
      // Until the earlier of quiet and due; a batch noted meanwhile moves quiet on, so look again then.
      await new Promise<void>((resolve) => {
        const cancel = this.clock.after(wait, resolve);
        this.wake = () => {
          cancel();
          resolve();
        };
      });
      this.wake = null;
    }
  }

  private writeRows(batch: DerivedRows[]): void {
    if (!batch.length) return;
    try {
      this.write(batch);
      this.options.onDerived?.(batch.map((r) => r.exchangeId));
    } catch (err) {
      for (const rows of batch) {
        this.unwritten.push(rows.exchangeId);
        this.options.onError?.(rows.exchangeId, err);
      }
    }
  }
}
