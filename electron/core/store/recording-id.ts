// A recording's own id: random, made once when a Loupe first writes the file, and kept in
// its meta table. Exports seed their trace and span ids with it, so two recordings never
// share a trace id (not even with the same labels or replayed response ids), while one
// recording exported twice gives the same ids.
import { randomUUID } from 'node:crypto';
import type { Db } from './db.js';

const KEY = 'recording_id';

/** Makes the id if the file has none yet; for a writer, once at start. */
export function ensureRecordingId(db: Db): string {
  const existing = storedId(db);
  if (existing !== undefined) return existing;
  const id = randomUUID();
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(KEY, id);
  return storedId(db) ?? id;
}

/**
 * The id, for a reader. A file no Loupe has written since ids existed, opened read-only,
 * gets one derived from its first exchange: stable for that file, and distinct from other
 * recordings unless they began in the same millisecond.
 */
export function readRecordingId(db: Db): string {
  const existing = storedId(db);
  if (existing !== undefined) return existing;
  const first = db.prepare('SELECT id, started_at FROM exchanges ORDER BY id LIMIT 1').get() as
    { id: number; started_at: number } | undefined;
  return `first-exchange:${first?.started_at ?? 0}:${first?.id ?? 0}`;
}

function storedId(db: Db): string | undefined {
  return db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(KEY) as string | undefined;
}
