// Live derivation, run by whichever thread owns writes: exchanges whose end is on disk are
// normalized in order, one per event-loop turn, and their rows written a few exchanges
// per transaction, so a burst of finished streams costs many short pauses, not one long one.
//
// Derivation gives way to traffic (ADR 7): while raw batches keep arriving it waits for a
// quiet moment (no batch for quietMs), but never longer than maxDeferMs after an exchange
// ended. Normalizing costs more CPU than relaying and recording together, and on a busy
// machine it would take the cores the relay needs; the derived rows are a cache, and the UI
// shows exchanges in flight from the raw rows meanwhile. idle() derives at once.
//
// Upkeep waits for quiet moments too: the run snapshot (run-snapshot-keeper.ts) is
// brought up to date at the first quiet moment after a drain, and at once by idle() (it
// rewrites each changed run's members, so doing it per exchange would cost a long run's
// size per exchange); then the full-text index's segments are merged a step per quiet
// moment (search-index.ts mergeSearchStep): a level at a time, and after a long quiet
// (LONG_QUIET_MS: a session ended) all into one.
import { systemClock, type Clock } from '../clock.js';
import type { Db } from './db.js';
import { computeDerived, derivedRows, derivedWriter, type DerivedRows, type DerivedWriter } from './derive.js';
import { RunSnapshotKeeper } from './run-snapshot-keeper.js';
import { mergeSearchStep } from './search-index.js';

export interface DeriveQueueOptions {
  onDerived?: (ids: number[]) => void;
  onError?: (id: number, err: unknown) => void;
  /** The run snapshot, or a merge of the search index, could not be written (it is tried again). */
  onSnapshotError?: (err: unknown) => void;
  /** No raw batch for this long counts as quiet. Default 150 ms (the recorder flushes every 100). */
  quietMs?: number;
  /** An ended exchange waits at most this long for quiet. Default 1,000 ms. */
  maxDeferMs?: number;
  clock?: Clock;
}

const EXCHANGES_PER_WRITE = 4;
const DEFAULT_QUIET_MS = 150;
const DEFAULT_MAX_DEFER_MS = 1_000;
/** Quiet this long, the index's segments are merged into one (it rewrites the whole index). */
const LONG_QUIET_MS = 5_000;

export class DeriveQueue {
  private queue: Array<{ id: number; at: number }> = [];
  private running: Promise<void> | null = null;
  private readonly write: DerivedWriter;
  private lastBatchAt = -Infinity;
  /** Exchanges whose derived rows could not be written (the disk was full, say), until retried. */
  private unwritten: number[] = [];
  /** Set by idle(): someone waits for the derived rows, so nothing waits for quiet. */
  private urgent = 0;
  private readonly snapshot: RunSnapshotKeeper;
  /** Cancels the quiet-moment timer, while one is set. */
  private upkeepTimer: (() => void) | null = null;
  /** Ends the wait for quiet early: for idle(). */
  private wake: (() => void) | null = null;
  /** What merging the index may still do: set by every write, moved on when a step finds nothing. */
  private merging: 'levels' | 'all' | 'done' = 'levels';

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
    this.snapshot = new RunSnapshotKeeper(db);
    // A snapshot left stale (a crash, an older Loupe) is rebuilt once things are quiet.
    this.scheduleUpkeep();
  }

  /** A raw batch was just written: traffic is flowing. */
  noteBatch(): void {
    this.lastBatchAt = this.clock.now();
  }

  push(ids: number[]): void {
    const at = this.clock.now();
    for (const id of ids) this.queue.push({ id, at });
    this.running ??= this.drain().finally(() => {
      this.running = null;
      this.scheduleUpkeep();
    });
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
      this.updateSnapshot();
    } finally {
      this.urgent--;
    }
  }

  /** Stops the quiet-moment timer (the writer closes; idle() has updated the snapshot). */
  stop(): void {
    this.upkeepTimer?.();
    this.upkeepTimer = null;
  }

  private scheduleUpkeep(): void {
    if (this.upkeepTimer || !(this.snapshot.pending || this.merging !== 'done')) return;
    const quietFor = this.snapshot.pending || this.merging === 'levels' ? this.quietMs : LONG_QUIET_MS;
    const wait = Math.max(this.quietMs, this.lastBatchAt + quietFor - this.clock.now());
    this.upkeepTimer = this.clock.after(Number.isFinite(wait) ? wait : this.quietMs, () => {
      this.upkeepTimer = null;
      if (this.running) return; // the drain's end schedules it again
      if (this.clock.now() - this.lastBatchAt >= quietFor) {
        this.updateSnapshot();
        if (this.merging !== 'done') this.mergeStep(this.merging);
      }
      this.scheduleUpkeep();
    });
  }

  private mergeStep(scope: 'levels' | 'all'): void {
    try {
      if (!mergeSearchStep(this.db, scope)) this.merging = scope === 'levels' ? 'all' : 'done';
    } catch (err) {
      this.merging = 'done';
      this.options.onSnapshotError?.(err);
    }
  }

  private updateSnapshot(): void {
    try {
      this.snapshot.update();
    } catch (err) {
      // A cache: left stale, readers thread the records instead, and the next quiet moment tries again.
      this.options.onSnapshotError?.(err);
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
      const ids = batch.map((r) => r.exchangeId);
      this.snapshot.noteDerived(ids);
      this.merging = 'levels';
      this.options.onDerived?.(ids);
    } catch (err) {
      for (const rows of batch) {
        this.unwritten.push(rows.exchangeId);
        this.options.onError?.(rows.exchangeId, err);
      }
    }
  }
}
