// Worker thread: normalizes exchanges for derive-queue.ts on its own connection and runs
// passive WAL checkpoints. It never writes rows: the main connection is the only writer.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { computeDerived, derivedRows } from './derive.js';

const CHECKPOINT_EVERY_MS = 1_000;

// Deriving is never urgent; relaying is. On Linux a thread's nice value is its own, so
// this lowers only this worker, and under load the relay gets the CPU first.
try {
  os.setPriority(10);
} catch {
  // Not permitted on this platform: derivation simply competes as an equal.
}

const db = new Database((workerData as { dbPath: string }).dbPath, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
let queue: number[] = [];
let running = false;

setInterval(() => {
  try {
    // PASSIVE never waits for readers or the writer; it copies what it can.
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy checkpoint is retried on the next tick.
  }
}, CHECKPOINT_EVERY_MS).unref();

async function drain(): Promise<void> {
  running = true;
  while (queue.length) {
    const id = queue.shift()!;
    try {
      const result = await computeDerived(db, id);
      parentPort!.postMessage({ id, rows: result ? derivedRows(id, result) : null });
    } catch (err) {
      parentPort!.postMessage({ id, error: (err as Error).message });
    }
  }
  running = false;
}

parentPort!.on('message', (msg: { ids: number[] }) => {
  queue.push(...msg.ids);
  if (!running) void drain();
});
