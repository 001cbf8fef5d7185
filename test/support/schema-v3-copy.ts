// A copy of a recording as schema v3 wrote it: everything but the full-text index (v4),
// to test searching and upgrading recordings made before it.
import Database from 'better-sqlite3';
import type { Db } from '../../electron/core/store/db.js';
import { DROP_RUN_SNAPSHOT_SCHEMA } from '../../electron/core/store/run-snapshot.js';
import { DROP_SEARCH_SCHEMA } from '../../electron/core/store/search-index.js';
import { inlineContexts } from './schema-v4-copy.js';

export async function copyAsSchemaV3(db: Db, file: string): Promise<void> {
  db.pragma('wal_checkpoint(FULL)');
  await db.backup(file);
  const old = new Database(file);
  try {
    inlineContexts(old);
    old.exec(`${DROP_RUN_SNAPSHOT_SCHEMA} ${DROP_SEARCH_SCHEMA} PRAGMA user_version = 3;`);
  } finally {
    old.close();
  }
}
