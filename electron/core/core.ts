// The capture core: one recording file, its recorder and store writer, and the proxy
// feeding them. `loupe serve`, `record`, `demo`, the desktop app (through its core host)
// and the tests all start Loupe through here, so they behave the same.
//
// Threads: the relay and the recorder's batching run on the thread that calls startCore
// (the CLI's main thread, the desktop app's core worker); the store writer (SQLite writes,
// derivation, checkpoints) runs in a worker of its own when built (store/store-writer.ts).
// `db` here is this thread's connection, for reads.
import { EventEmitter } from 'node:events';
import { startProxy, type RunningProxy } from './capture/proxy-server.js';
import type { Db } from './store/db.js';
import { openLocked } from './store/recording-lock.js';
import { Recorder, type RecorderHealth } from './store/recorder.js';
import { createStoreWriter, type StoreWriter } from './store/store-writer.js';
import { closeSession, openSession } from './store/interrupted-session.js';
import { upgradeNotice, upgradeProgress } from './store/upgrade-notice.js';
import type { UpgradeProgress } from '../../shared/api/types.js';
import { ensureRecordingId } from './store/recording-id.js';
import { ForkRegistry } from './fork/fork-registry.js';

export interface CoreOptions {
  dbPath: string;
  port?: number;
  upstream?: string;
  upstreamTimeoutMs?: number;
  maxBodyBytes?: number;
  /** The largest WebSocket message relayed either way (proxy-server.ts). */
  maxWebSocketMessageBytes?: number;
  /** Time a client has to complete a request head (proxy-server.ts); default 60 s, 0 for no limit. */
  headersTimeoutMs?: number;
  /** Client connections allowed to wait for their first request head at once (proxy-server.ts); default 1,000. */
  maxHalfOpenConnections?: number;
  /** How long close() lets exchanges in flight finish before it cuts them short (proxy-server.ts). */
  shutdownGraceMs?: number;
  /**
   * Header, query parameter and JSON key names to redact beyond the built-in rule
   * (shared/capture/secret-names.ts), from `--redact NAME` or the desktop settings.
   */
  redact?: readonly string[];
  env?: Record<string, string | undefined>;
  /** The store writer's compiled thread (tests name dist's), or false to write in this thread. */
  storeWorker?: string | false;
  /** Where problems are reported; stderr by default. Never receives secrets. */
  log?: (line: string) => void;
  /** Hears of the file being upgraded to this build's schema, besides the lines `log` gets. */
  onUpgrade?: (progress: UpgradeProgress) => void;
}

export interface CoreEvents {
  /** An exchange's raw record is complete on disk. */
  'exchange.recorded': [id: number];
  /** Its derived rows are written. */
  'exchange.derived': [id: number];
  'recording.failed': [health: RecorderHealth];
  /** Writes succeed again after a failure; the health keeps what was lost. */
  'recording.resumed': [health: RecorderHealth];
}

export interface Core {
  proxy: RunningProxy;
  db: Db;
  dbPath: string;
  /** The id of this session's first exchange: what came before was recorded by others. */
  sessionStart: number;
  recorder: Recorder;
  writer: StoreWriter;
  events: EventEmitter<CoreEvents>;
  /** The fork plans its proxy serves under `/fork/<id>/v1`. */
  forks: ForkRegistry;
  /** Resolves when every exchange ended so far is on disk and derived. */
  settled(): Promise<void>;
  /** Resolves when every byte relayed so far is on disk, raw; derivation may still be running. */
  recorded(): Promise<void>;
  close(): Promise<void>;
}

export async function startCore(options: CoreOptions): Promise<Core> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // One writer per file: a second Loupe on it is refused here, before it migrates or writes.
  const { db, lock } = openLocked(options.dbPath, {
    onUpgrade: upgradeProgress(options.dbPath, upgradeNotice(options.dbPath, log), options.onUpgrade),
  });
  const events = new EventEmitter<CoreEvents>();
  const firstId = (db.prepare('SELECT COALESCE(MAX(id), 0) + 1 AS id FROM exchanges').get() as { id: number }).id;
  try {
    ensureRecordingId(db);
    const recovery = await openSession(db, firstId);
    if (recovery) {
      log(
        `loupe: the last session on ${options.dbPath} did not close cleanly; ${recovery.cutShort} exchange(s) it left open are marked cut short, ` +
          `${recovery.derived} derived now`,
      );
    }
  } catch (err) {
    lock.release();
    db.close();
    throw err;
  }
  let recorder: Recorder | null = null;
  const writer = await createStoreWriter(
    options.dbPath,
    {
      onWritten: (ids) => {
        for (const id of ids) events.emit('exchange.recorded', id);
      },
      onDerived: (ids) => {
        for (const id of ids) events.emit('exchange.derived', id);
      },
      onWriteFailed: (err, lostIds) => {
        if (!recorder) return;
        const fresh = recorder.noteWriteFailure(err, lostIds);
        log(
          `loupe: RECORDING FAILED, ${fresh} more exchange(s) not saved, ${recorder.health.lostExchanges} in all (traffic still flows; ` +
            `recording resumes by itself once the file can be written): ${err.message}`,
        );
        events.emit('recording.failed', recorder.health);
      },
      onWriteResumed: () => {
        if (!recorder) return;
        recorder.noteWriteResumed();
        log(`loupe: recording resumed; ${recorder.health.lostExchanges} exchange(s) were not saved while it failed`);
        events.emit('recording.resumed', recorder.health);
      },
      onDeriveFailed: (id, err) => log(`loupe: could not derive exchange ${id}: ${err.message}`),
      onCheckpointFailed: (err) =>
        log(`loupe: could not checkpoint ${options.dbPath} (nothing is lost; tried again later): ${err.message}`),
    },
    { script: options.storeWorker, redact: options.redact },
  );
  recorder = new Recorder(writer, {
    firstId,
    maxBodyBytes: options.maxBodyBytes,
    onDrop: (reason) => {
      log(`loupe: RECORDING BEHIND: ${reason}`);
      if (recorder) events.emit('recording.failed', recorder.health);
    },
  });
  const forks = new ForkRegistry();
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      port: options.port,
      upstream: options.upstream,
      upstreamTimeoutMs: options.upstreamTimeoutMs,
      maxWebSocketMessageBytes: options.maxWebSocketMessageBytes,
      headersTimeoutMs: options.headersTimeoutMs,
      maxHalfOpenConnections: options.maxHalfOpenConnections,
      log,
      sink: recorder,
      forks,
      redact: options.redact,
      env: options.env,
      onRecordError: (err) =>
        log(`loupe: recording failed for one exchange (traffic still flows): ${(err as Error).message}`),
    });
  } catch (err) {
    await writer.close();
    try {
      closeSession(db); // nothing was recorded
      lock.release();
    } catch {
      // As in close(): the next start checks again.
    }
    db.close();
    throw err;
  }

  const settled = async () => {
    recorder.flush();
    await writer.idle();
  };
  const recorded = async () => {
    recorder.flush();
    await writer.written();
  };

  return {
    proxy,
    db,
    dbPath: options.dbPath,
    sessionStart: firstId,
    recorder,
    writer,
    events,
    forks,
    settled,
    recorded,
    async close() {
      // Every exchange ends first, by itself or cut short, so its end is in the last flush.
      const { cutShort, stillOpen } = await proxy.close(options.shutdownGraceMs);
      if (cutShort)
        log(
          `loupe: ${cutShort} exchange(s) still in flight at shutdown were cut short; what arrived until then is kept`,
        );
      recorder.close();
      await writer.close();
      // Still failing: exchanges that lost their end may have none on file yet, and the
      // session's mark makes the next start end them (interrupted-session.ts).
      const failing = recorder.health.failedWrites > 0 && !recorder.health.resumed;
      try {
        // An exchange left without an end, or one whose end could not be written, keeps the
        // session marked open: the next start ends it.
        if (!stillOpen && !failing) closeSession(db);
        lock.release();
      } catch {
        // The file cannot be written (the disk filled up, say): the next start finds the
        // session still marked open and checks it again, and the claim of a process that
        // is gone, which it takes over; both harmless.
      }
      db.close();
    },
  };
}
