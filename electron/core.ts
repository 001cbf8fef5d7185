// The capture core: one recording file, its recorder and derivation queue, and the proxy
// feeding them. `loupe serve`, `loupe record`, the tests and (later) the desktop app all
// start Loupe through here, so they behave the same.
import { EventEmitter } from 'node:events';
import { startProxy, type RunningProxy } from './capture/proxy-server.js';
import { openDb, type Db } from './store/db.js';
import { createDeriveQueue } from './store/derive-queue.js';
import { Recorder, type RecorderHealth } from './store/recorder.js';

export interface CoreOptions {
  dbPath: string;
  port?: number;
  upstream?: string;
  upstreamTimeoutMs?: number;
  maxBodyBytes?: number;
  env?: Record<string, string | undefined>;
  /** Where problems are reported; stderr by default. Never receives secrets. */
  log?: (line: string) => void;
}

export interface CoreEvents {
  /** An exchange's raw record is complete on disk. */
  'exchange.recorded': [id: number];
  /** Its derived rows are written. */
  'exchange.derived': [id: number];
  'recording.failed': [health: RecorderHealth];
}

export interface Core {
  proxy: RunningProxy;
  db: Db;
  dbPath: string;
  recorder: Recorder;
  events: EventEmitter<CoreEvents>;
  /** Resolves when every exchange ended so far is on disk and derived. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startCore(options: CoreOptions): Promise<Core> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const db = openDb(options.dbPath);
  const events = new EventEmitter<CoreEvents>();
  const derive = createDeriveQueue(db, options.dbPath, {
    onDerived: (id) => events.emit('exchange.derived', id),
    onError: (id, err) => log(`loupe: could not derive exchange ${id}: ${(err as Error).message}`),
  });
  const recorder = new Recorder(db, {
    maxBodyBytes: options.maxBodyBytes,
    onEnded: (ids) => {
      for (const id of ids) events.emit('exchange.recorded', id);
      derive.push(ids);
    },
    onError: (err, lost) => {
      log(`loupe: RECORDING FAILED, ${lost} exchange(s) not saved (traffic still flows): ${(err as Error).message}`);
      events.emit('recording.failed', recorder.health);
    },
  });
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      port: options.port,
      upstream: options.upstream,
      upstreamTimeoutMs: options.upstreamTimeoutMs,
      sink: recorder,
      env: options.env,
      onRecordError: (err) => log(`loupe: recording failed for one exchange (traffic still flows): ${(err as Error).message}`),
    });
  } catch (err) {
    await derive.close();
    db.close();
    throw err;
  }

  const settled = async () => {
    recorder.flush();
    await derive.idle();
  };

  return {
    proxy,
    db,
    dbPath: options.dbPath,
    recorder,
    events,
    settled,
    async close() {
      await proxy.close();
      await settled();
      await derive.close();
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}
