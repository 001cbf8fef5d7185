// A copy of a live recording as schema v1 wrote it (before agent_spans), to test opening
// and upgrading recordings made by an older Loupe.
import Database from 'better-sqlite3';
import type { Db } from '../../electron/store/db.js';

export async function copyAsSchemaV1(db: Db, file: string): Promise<void> {
  db.pragma('wal_checkpoint(FULL)');
  await db.backup(file);
  const old = new Database(file);
  try {
    old.exec('DROP TABLE agent_spans; PRAGMA user_version = 1;');
  } finally {
    old.close();
  }
}
