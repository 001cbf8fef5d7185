// Worker thread entry of the store writer (see store-writer.ts): the only connection that
// writes the recording. Messages are handled strictly in order.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { connect } from './db.js';
import { DeriveQueue } from './derive-queue.js';
import { QuietCheckpointer } from './quiet-checkpoint.js';
import type { RawBatch } from './raw-batch.js';
import { errorMessage, lossTrackingWriter } from './recording-losses.js';
import type { WorkerMessage } from './store-writer.js';

type Inbound = { type: 'batch'; seq: number; batch: RawBatch } | { type: 'idle'; token: number } | { type: 'close' };

// Writing is less urgent than relaying. On Linux a thread's nice value is its own, so this
// lowers only this worker: when both cores are busy the relay runs first. Nice 5 (a third
// of the relay's CPU weight), not 19: the writer has slack (batches queue in memory,
// bounded by maxUnwrittenBytes) but must keep up with traffic that never pauses, and 19
// made the relay no faster (within the bench's run-to-run noise) while starving the writer.
try {
  os.setPriority(5);
} catch {
  // Not permitted here: the writer competes as an equal.
}

const { dbPath, redact } = workerData as { dbPath: string; redact: string[] };
const db = connect(dbPath, { fileMustExist: true });
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
const post = (msg: WorkerMessage) => parentPort!.postMessage(msg);
const writeRaw = lossTrackingWriter(db, redact);
const checkpointer = new QuietCheckpointer(db, undefined, (err) =>
  post({ type: 'checkpoint-failed', error: errorMessage(err) }),
);
const derive = new DeriveQueue(db, {
  onDerived: (ids) => {
    checkpointer.noteWrite();
    post({ type: 'derived', ids });
  },
  onError: (id, err) => post({ type: 'derive-failed', id, error: errorMessage(err) }),
  // A cache: readers thread the records instead meanwhile, so it is told, not counted as a loss.
  onSnapshotError: (err) =>
    process.stderr.write(`loupe: the run snapshot could not be written (it is tried again): ${errorMessage(err)}\n`),
});

let chain = Promise.resolve();
parentPort!.on('message', (msg: Inbound) => {
  // Batches are written as they come; idle and close wait for derivation queued before them.
  if (msg.type === 'batch') {
    // Never throws: a failed write is reported and the next batch is tried as usual.
    const outcome = writeRaw(msg.batch);
    if (outcome.error === null) {
      derive.noteBatch();
      derive.retryUnwritten();
      checkpointer.noteWrite();
    }
    post({ type: 'written', seq: msg.seq, outcome });
    if (outcome.ended.length) derive.push(outcome.ended);
    return;
  }
  chain = chain.then(async () => {
    await derive.idle();
    if (msg.type === 'idle') {
      // Idle means everything asked of the writer is done, the checkpoint included: run now,
      // it would otherwise come quietMs later, during whatever traffic follows (in the
      // bench, the next target's block).
      checkpointer.now();
      post({ type: 'idle', token: msg.token });
    } else {
      checkpointer.stop();
      derive.stop();
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } catch (err) {
        // The disk is full, say: the WAL keeps every page and the next open replays it.
        post({ type: 'checkpoint-failed', error: errorMessage(err) });
      }
      db.close();
      post({ type: 'closed' });
      process.exit(0);
    }
  });
});
