// The store writer persists the recorder's batches and derives finished exchanges. It owns
// every write to the recording file, so SQLite locks never make the relay wait.
//
// It runs in a worker thread whenever the compiled worker script exists (dist/, i.e. the
// CLI and the app): SQLite commits, WAL checkpoints (which fsync) and normalizing then
// happen off the relay's event loop, on the second core. Under Vitest only TypeScript
// sources exist, so the same code runs inline on the main thread; a test passes the
// compiled script explicitly to cover the threaded path too.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db } from './db.js';
import { DeriveQueue } from './derive-queue.js';
import { batchBytes, batchExchangeIds, type RawBatch } from './raw-batch.js';
import { errorMessage, lossTrackingWriter, type BatchOutcome } from './recording-losses.js';

export interface StoreWriterEvents {
  /** These exchanges' ends are on disk. */
  onWritten(endedIds: number[]): void;
  onDerived(ids: number[]): void;
  /** A batch could not be written: these exchanges are incomplete on disk (an id may come again). */
  onWriteFailed(err: Error, lostIds: number[]): void;
  /** A batch was written after one failed: recording goes on. */
  onWriteResumed(): void;
  onDeriveFailed(id: number, err: Error): void;
  /** A WAL checkpoint failed, told once until one succeeds; nothing is lost. */
  onCheckpointFailed(err: Error): void;
}

/** Passes what came of one batch on to the writer's owner. */
export function reportOutcome(events: StoreWriterEvents, outcome: BatchOutcome): void {
  if (outcome.error !== null) events.onWriteFailed(new Error(outcome.error), outcome.lost);
  if (outcome.resumed) events.onWriteResumed();
  if (outcome.ended.length) events.onWritten(outcome.ended);
}

export interface StoreWriter {
  readonly threaded: boolean;
  /** Takes ownership of the batch. */
  write(batch: RawBatch): void;
  /** Bytes handed over but not yet on disk. */
  inFlightBytes(): number;
  /** Calls `wake` once the bytes in flight are at most `bytes` (at once if they are), or the writer stopped. */
  whenBelow(bytes: number, wake: () => void): void;
  /** Resolves when every batch handed over so far is on disk (derivation may still run). */
  written(): Promise<void>;
  /** Resolves when everything handed over so far is written and derived. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_WORKER_SCRIPT = fileURLToPath(new URL('./store-worker.js', import.meta.url));

export function createStoreWriter(
  db: Db,
  dbPath: string,
  events: StoreWriterEvents,
  workerScript: string | false = DEFAULT_WORKER_SCRIPT,
  /** Names to mask in client JSON beyond the built-in rule (raw-batch.ts). */
  redact: readonly string[] = [],
): StoreWriter {
  if (workerScript && dbPath !== ':memory:' && fs.existsSync(workerScript))
    return new WorkerStoreWriter(dbPath, events, workerScript, redact);
  return new InlineStoreWriter(db, events, redact);
}

class InlineStoreWriter implements StoreWriter {
  readonly threaded = false;
  private readonly writeRaw: (batch: RawBatch) => BatchOutcome;
  private readonly derive: DeriveQueue;

  constructor(
    db: Db,
    private readonly events: StoreWriterEvents,
    redact: readonly string[],
  ) {
    this.writeRaw = lossTrackingWriter(db, redact);
    this.derive = new DeriveQueue(db, {
      onDerived: (ids) => events.onDerived(ids),
      onError: (id, err) => events.onDeriveFailed(id, err as Error),
    });
  }

  write(batch: RawBatch): void {
    const outcome = this.writeRaw(batch);
    reportOutcome(this.events, outcome);
    if (outcome.error === null) {
      this.derive.noteBatch();
      this.derive.retryUnwritten();
    }
    if (outcome.ended.length) this.derive.push(outcome.ended);
  }

  inFlightBytes(): number {
    return 0;
  }

  whenBelow(_bytes: number, wake: () => void): void {
    wake(); // nothing is ever in flight
  }

  written(): Promise<void> {
    return Promise.resolve(); // each batch is written before write() returns
  }

  idle(): Promise<void> {
    return this.derive.idle();
  }

  async close(): Promise<void> {
    await this.idle();
    this.derive.stop();
  }
}

export type WorkerMessage =
  | { type: 'written'; seq: number; outcome: BatchOutcome }
  | { type: 'checkpoint-failed'; error: string }
  | { type: 'derived'; ids: number[] }
  | { type: 'derive-failed'; id: number; error: string }
  | { type: 'idle'; token: number }
  | { type: 'closed' };

class WorkerStoreWriter implements StoreWriter {
  readonly threaded = true;
  private readonly worker: Worker;
  private nextSeq = 0;
  private nextToken = 0;
  /** Batches handed over and not yet answered, by seq (their buffers moved to the worker). */
  private readonly pending = new Map<number, { bytes: number; batch: RawBatch }>();
  private inFlight = 0;
  private readonly idleWaiters = new Map<number, () => void>();
  /** Resolvers of written(), by the last batch seq they wait for. */
  private readonly writtenWaiters: Array<{ seq: number; wake: () => void }> = [];
  /** Resolvers of whenBelow(), woken as batches settle. */
  private belowWaiters: Array<{ bytes: number; wake: () => void }> = [];
  private closed: Promise<void> | null = null;
  private failure: Error | null = null;

  constructor(
    dbPath: string,
    private readonly events: StoreWriterEvents,
    script: string,
    redact: readonly string[],
  ) {
    this.worker = new Worker(script, { workerData: { dbPath, redact: [...redact] } });
    this.worker.on('message', (msg: WorkerMessage) => this.onMessage(msg));
    this.worker.on('error', (err) => {
      // The writer is gone: everything in flight is lost, and so is everything after.
      this.failure = new Error(`the store writer stopped: ${errorMessage(err)}`);
      const lost = new Set<number>();
      for (const { batch } of this.pending.values()) for (const id of batchExchangeIds(batch)) lost.add(id);
      this.events.onWriteFailed(this.failure, [...lost]);
      this.pending.clear();
      this.inFlight = 0;
      for (const wake of this.idleWaiters.values()) wake();
      this.idleWaiters.clear();
      for (const w of this.writtenWaiters.splice(0)) w.wake();
      this.wakeBelow();
    });
  }

  write(batch: RawBatch): void {
    if (this.failure) {
      this.events.onWriteFailed(this.failure, [...batchExchangeIds(batch)]);
      return;
    }
    const seq = this.nextSeq++;
    const bytes = batchBytes(batch);
    this.pending.set(seq, { bytes, batch });
    this.inFlight += bytes;
    // The arena and each segment's index are buffers of the batch's own, so they move to
    // the worker instead of being copied a second time.
    const transfer: ArrayBuffer[] = [];
    if (batch.arena) transfer.push(batch.arena.buffer as ArrayBuffer);
    for (const seg of batch.segments) transfer.push(seg.offsets.buffer as ArrayBuffer, seg.marks.buffer as ArrayBuffer);
    this.worker.postMessage({ type: 'batch', seq, batch }, transfer);
  }

  private settle(seq: number): void {
    this.inFlight -= this.pending.get(seq)?.bytes ?? 0;
    this.pending.delete(seq);
    // Batches are answered in order, so every waiter up to this seq is done.
    while (this.writtenWaiters.length && this.writtenWaiters[0]!.seq <= seq) this.writtenWaiters.shift()!.wake();
    if (this.belowWaiters.length) this.wakeBelow();
  }

  private wakeBelow(): void {
    const waiting = this.belowWaiters;
    this.belowWaiters = [];
    for (const w of waiting) {
      if (this.inFlight <= w.bytes || this.failure) w.wake();
      else this.belowWaiters.push(w);
    }
  }

  private onMessage(msg: WorkerMessage): void {
    switch (msg.type) {
      case 'written':
        this.settle(msg.seq);
        reportOutcome(this.events, msg.outcome);
        break;
      case 'checkpoint-failed':
        this.events.onCheckpointFailed(new Error(msg.error));
        break;
      case 'derived':
        this.events.onDerived(msg.ids);
        break;
      case 'derive-failed':
        this.events.onDeriveFailed(msg.id, new Error(msg.error));
        break;
      case 'idle':
        this.idleWaiters.get(msg.token)?.();
        this.idleWaiters.delete(msg.token);
        break;
      case 'closed':
        break;
    }
  }

  inFlightBytes(): number {
    return this.inFlight;
  }

  whenBelow(bytes: number, wake: () => void): void {
    if (this.inFlight <= bytes || this.failure) wake();
    else this.belowWaiters.push({ bytes, wake });
  }

  written(): Promise<void> {
    const last = this.nextSeq - 1;
    if (this.failure || !this.pending.has(last)) return Promise.resolve();
    return new Promise((wake) => this.writtenWaiters.push({ seq: last, wake }));
  }

  idle(): Promise<void> {
    if (this.failure) return Promise.resolve();
    const token = this.nextToken++;
    // Messages are handled in order, so the worker answers after every earlier batch.
    return new Promise((resolve) => {
      this.idleWaiters.set(token, resolve);
      this.worker.postMessage({ type: 'idle', token });
    });
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      if (!this.failure) {
        await this.idle();
        await new Promise<void>((resolve) => {
          this.worker.once('exit', () => resolve());
          this.worker.postMessage({ type: 'close' });
        });
      }
      await this.worker.terminate();
    })();
    return this.closed;
  }
}
