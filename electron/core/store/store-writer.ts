// The store writer persists the recorder's batches and derives finished exchanges. It owns
// every write to the recording file, so SQLite locks never make the relay wait.
//
// It runs in a thread of its own (threads/thread.ts decides which: a worker when built, so
// SQLite commits, WAL checkpoints (which fsync) and normalizing happen off the relay's event
// loop, on the second core). Either way the writing side is store-worker.ts, over the same
// port, with its own connection and its quiet checkpoints.
import { connectApi, disconnect, exposeApi, transfer, type Remote } from '../threads/api-port.js';
import { Thread } from '../threads/thread.js';
import { batchBytes, batchExchangeIds, type RawBatch } from './raw-batch.js';
import { errorMessage, type BatchOutcome } from './recording-losses.js';
import type { StoreThread, StoreThreadData, StoreThreadEvents } from './store-worker.js';

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

const STORE_THREAD = new URL('./store-worker.js', import.meta.url);

export interface StoreWriterOptions {
  /** The compiled store thread to run (tests name dist's), or false to write in this thread. */
  script?: string | false;
  /** Names to mask in client JSON beyond the built-in rule (raw-batch.ts). */
  redact?: readonly string[];
}

export async function createStoreWriter(
  dbPath: string,
  events: StoreWriterEvents,
  options: StoreWriterOptions = {},
): Promise<StoreWriter> {
  const data: StoreThreadData = { dbPath, redact: [...(options.redact ?? [])] };
  // Writing is less urgent than relaying: nice 5 (a third of the relay's CPU weight), not 19.
  // The writer has slack (batches queue in memory, bounded by maxUnwrittenBytes) but must
  // keep up with traffic that never pauses; in paired saturation probes 19 was no faster,
  // within run-to-run noise, while leaving the writer ~1.5% of a contended core.
  const thread = await Thread.start(STORE_THREAD, data, { script: options.script, nice: 5 });
  return new ThreadStoreWriter(thread, events);
}

class ThreadStoreWriter implements StoreWriter {
  readonly threaded: boolean;
  private readonly remote: Remote<StoreThread>;
  private nextSeq = 0;
  /** Batches handed over and not yet answered, by seq (their buffers moved to the writer). */
  private readonly pending = new Map<number, { bytes: number; batch: RawBatch }>();
  private inFlight = 0;
  /** Resolvers of written(), by the last batch seq they wait for. */
  private readonly writtenWaiters: Array<{ seq: number; wake: () => void }> = [];
  /** Resolvers of whenBelow(), woken as batches settle. */
  private belowWaiters: Array<{ bytes: number; wake: () => void }> = [];
  private closed: Promise<void> | null = null;
  private failure: Error | null = null;

  constructor(
    private readonly thread: Thread,
    private readonly events: StoreWriterEvents,
  ) {
    this.threaded = thread.threaded;
    this.remote = connectApi<StoreThread>(thread.port);
    exposeApi<StoreThreadEvents>(thread.port, {
      derived: (ids) => events.onDerived(ids),
      deriveFailed: (id, error) => events.onDeriveFailed(id, new Error(error)),
      checkpointFailed: (error) => events.onCheckpointFailed(new Error(error)),
    });
    thread.on('error', (err) => this.stopped(err));
  }

  /** The writer is gone: everything in flight is lost, and so is everything after. */
  private stopped(err: Error): void {
    this.failure = new Error(`the store writer stopped: ${errorMessage(err)}`);
    const lost = new Set<number>();
    for (const { batch } of this.pending.values()) for (const id of batchExchangeIds(batch)) lost.add(id);
    this.events.onWriteFailed(this.failure, [...lost]);
    this.pending.clear();
    this.inFlight = 0;
    disconnect(this.remote, this.failure);
    for (const w of this.writtenWaiters.splice(0)) w.wake();
    this.wakeBelow();
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
    // the writer instead of being copied a second time.
    const buffers: ArrayBuffer[] = [];
    if (batch.arena) buffers.push(batch.arena.buffer as ArrayBuffer);
    for (const seg of batch.segments) buffers.push(seg.offsets.buffer as ArrayBuffer, seg.marks.buffer as ArrayBuffer);
    this.remote.write(transfer(batch, buffers)).then(
      (outcome) => {
        this.settle(seq);
        reportOutcome(this.events, outcome);
      },
      () => undefined, // the writer stopped: stopped() counted this batch as lost
    );
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

  async idle(): Promise<void> {
    // Calls are handled in order, so the writer answers after every earlier batch.
    if (!this.failure) await this.remote.idle().catch(() => undefined);
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      if (!this.failure) {
        await this.remote.close().catch(() => undefined);
        await this.thread.ended();
      }
      await this.thread.terminate();
    })();
    return this.closed;
  }
}
