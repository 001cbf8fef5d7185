// The writing side of the store writer (store-writer.ts), in a thread of its own: the only
// connection that writes the recording. Calls are handled strictly in order: batches are
// written as they come; idle and close wait for the derivation queued before them.
import { connect } from './db.js';
import { exposeApi, notifyApi, type ApiPort } from '../threads/api-port.js';
import { serveInWorker } from '../threads/thread.js';
import { DeriveQueue } from './derive-queue.js';
import { QuietCheckpointer } from './quiet-checkpoint.js';
import type { RawBatch } from './raw-batch.js';
import { errorMessage, lossTrackingWriter, type BatchOutcome } from './recording-losses.js';

export interface StoreThreadData {
  dbPath: string;
  redact: string[];
}

/** What the writer's owner asks of it. */
export interface StoreThread {
  /** Never throws: a failed write is reported in the outcome and the next batch is tried as usual. */
  write(batch: RawBatch): BatchOutcome;
  /** Everything asked so far is written, derived and checkpointed. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** What the writer tells its owner as it happens. */
export interface StoreThreadEvents {
  derived(ids: number[]): void;
  deriveFailed(id: number, error: string): void;
  checkpointFailed(error: string): void;
}

export function serve(port: ApiPort, { dbPath, redact }: StoreThreadData): void {
  const tell = notifyApi<StoreThreadEvents>(port);
  const db = connect(dbPath, { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const writeRaw = lossTrackingWriter(db, redact);
  const checkpointer = new QuietCheckpointer(db, undefined, (err) => tell.checkpointFailed(errorMessage(err)));
  const derive = new DeriveQueue(db, {
    onDerived: (ids) => {
      checkpointer.noteWrite();
      tell.derived(ids);
    },
    onError: (id, err) => tell.deriveFailed(id, errorMessage(err)),
    // A cache: readers thread the records instead meanwhile, so it is told, not counted as a loss.
    onSnapshotError: (err) =>
      process.stderr.write(`loupe: the run snapshot could not be written (it is tried again): ${errorMessage(err)}\n`),
  });
  let chain = Promise.resolve();
  const afterDerived = (then: () => void) => (chain = chain.then(() => derive.idle()).then(then));

  exposeApi<StoreThread>(port, {
    write(batch) {
      const outcome = writeRaw(batch);
      if (outcome.error === null) {
        derive.noteBatch();
        derive.retryUnwritten();
        checkpointer.noteWrite();
      }
      // Pushed after the answer is posted, so the owner hears the ends are on disk first.
      if (outcome.ended.length) queueMicrotask(() => derive.push(outcome.ended));
      return outcome;
    },
    idle: () =>
      // Idle means everything asked of the writer is done, the checkpoint included: run now,
      // it would otherwise come quietMs later, during whatever traffic follows (in the
      // bench, the next target's block).
      afterDerived(() => void checkpointer.now()),
    close: () =>
      afterDerived(() => {
        checkpointer.stop();
        derive.stop();
        try {
          db.pragma('wal_checkpoint(TRUNCATE)');
        } catch (err) {
          // The disk is full, say: the WAL keeps every page and the next open replays it.
          tell.checkpointFailed(errorMessage(err));
        }
        db.close();
      }),
  });
}

serveInWorker(import.meta.url, serve);
