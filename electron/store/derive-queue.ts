// Live derivation: exchanges whose end is on disk are derived in order, and their rows
// written on the main connection (the only writer, so the recorder never waits on a lock),
// several exchanges per transaction.
//
// The normalizing work runs in a worker thread with its own connection whenever the
// compiled worker script exists (dist/, i.e. the CLI and the app), which keeps the relay's
// event loop free and uses the second core; the same worker runs passive WAL checkpoints,
// whose fsync would otherwise stall the main thread. Under Vitest, where only TypeScript
// sources exist, derivation runs inline between event-loop turns: same functions, same
// rows, only the thread differs. The CLI tests cover the threaded path.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db } from './db.js';
import { computeDerived, derivedRows, derivedWriter, type DerivedRows, type DerivedWriter } from './derive.js';

export interface DeriveQueueOptions {
  onDerived?: (id: number) => void;
  onError?: (id: number, err: unknown) => void;
}

export interface DeriveQueue {
  readonly threaded: boolean;
  push(ids: number[]): void;
  /** Resolves when everything queued so far is derived and written. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const workerScript = fileURLToPath(new URL('./derive-worker.js', import.meta.url));

export function createDeriveQueue(db: Db, dbPath: string, options: DeriveQueueOptions = {}): DeriveQueue {
  const batcher = new RowBatcher(derivedWriter(db), options);
  if (fs.existsSync(workerScript) && dbPath !== ':memory:') return new WorkerQueue(db, dbPath, batcher, options);
  return new InlineQueue(db, batcher, options);
}

/**
 * Collects derived rows and writes them a few exchanges per transaction, one transaction
 * per event-loop turn: a burst of 50 finished streams then costs many short pauses that
 * relayed events can slip between, not one long one.
 */
const EXCHANGES_PER_WRITE = 4;

class RowBatcher {
  private batch: DerivedRows[] = [];
  private scheduled = false;
  private flushed: Array<() => void> = [];

  constructor(
    private readonly write: DerivedWriter,
    private readonly options: DeriveQueueOptions,
  ) {}

  add(rows: DerivedRows): void {
    this.batch.push(rows);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Resolves once everything added so far is written. */
  written(): Promise<void> {
    return this.scheduled ? new Promise((resolve) => this.flushed.push(resolve)) : Promise.resolve();
  }

  private flush(): void {
    const batch = this.batch.splice(0, EXCHANGES_PER_WRITE);
    try {
      this.write(batch);
      for (const rows of batch) this.options.onDerived?.(rows.exchangeId);
    } catch (err) {
      for (const rows of batch) this.options.onError?.(rows.exchangeId, err);
    }
    if (this.batch.length) {
      setImmediate(() => this.flush());
      return;
    }
    this.scheduled = false;
    for (const done of this.flushed.splice(0)) done();
  }
}

class InlineQueue implements DeriveQueue {
  readonly threaded = false;
  private queue: number[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly batcher: RowBatcher,
    private readonly options: DeriveQueueOptions,
  ) {}

  push(ids: number[]): void {
    this.queue.push(...ids);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
    await this.batcher.written();
  }

  close(): Promise<void> {
    return this.idle();
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const id = this.queue.shift()!;
      // One exchange per event-loop turn: relayed chunks get in between.
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        const result = await computeDerived(this.db, id);
        if (result) this.batcher.add(derivedRows(id, result));
      } catch (err) {
        this.options.onError?.(id, err);
      }
    }
  }
}

type WorkerReply = { id: number; rows: DerivedRows | null } | { id: number; error: string };

class WorkerQueue implements DeriveQueue {
  readonly threaded = true;
  private readonly worker: Worker;
  private pending = 0;
  private waiters: Array<() => void> = [];

  constructor(
    db: Db,
    dbPath: string,
    private readonly batcher: RowBatcher,
    private readonly options: DeriveQueueOptions,
  ) {
    // Checkpoints belong to the worker from now on (see the header comment).
    db.pragma('wal_autocheckpoint = 0');
    this.worker = new Worker(workerScript, { workerData: { dbPath } });
    this.worker.unref();
    this.worker.on('message', (reply: WorkerReply) => this.settle(reply));
    this.worker.on('error', (err) => {
      this.options.onError?.(-1, err);
      this.pending = 0;
      this.wake();
    });
  }

  push(ids: number[]): void {
    this.pending += ids.length;
    this.worker.postMessage({ ids });
  }

  private settle(reply: WorkerReply): void {
    if ('error' in reply) this.options.onError?.(reply.id, new Error(reply.error));
    else if (reply.rows) this.batcher.add(reply.rows);
    if (--this.pending <= 0) {
      this.pending = 0;
      this.wake();
    }
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  async idle(): Promise<void> {
    if (this.pending > 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
    await this.batcher.written();
  }

  async close(): Promise<void> {
    await this.idle();
    await this.worker.terminate();
  }
}
