// A copy of a live recording as schema v1 wrote it (before agent_spans, with chunks
// WITHOUT ROWID as before v3, and without v4's full-text index), to test opening and upgrading recordings made by an
// older Loupe.
import Database from 'better-sqlite3';
import type { Db } from '../../electron/core/store/db.js';
import { DROP_RUN_SNAPSHOT_SCHEMA } from '../../electron/core/store/run-snapshot.js';
import { DROP_SEARCH_SCHEMA } from '../../electron/core/store/search-index.js';
import { inlineContexts } from './schema-v4-copy.js';

export async function copyAsSchemaV1(db: Db, file: string): Promise<void> {
  db.pragma('wal_checkpoint(FULL)');
  await db.backup(file);
  const old = new Database(file);
  try {
    inlineContexts(old);
    old.exec(`
      ${DROP_RUN_SNAPSHOT_SCHEMA}
      ${DROP_SEARCH_SCHEMA}
      DROP TABLE agent_spans;
      CREATE TABLE chunks_v1 (
        exchange_id INTEGER NOT NULL REFERENCES exchanges(id),
        stream TEXT NOT NULL,
        seq INTEGER NOT NULL,
        data BLOB NOT NULL,
        marks BLOB NOT NULL,
        PRIMARY KEY (exchange_id, stream, seq)
      ) WITHOUT ROWID;
      INSERT INTO chunks_v1 SELECT exchange_id, stream, seq, data, marks FROM chunks;
      DROP TABLE chunks;
      ALTER TABLE chunks_v1 RENAME TO chunks;
      PRAGMA user_version = 1;
    `);
    // And with 4 KB pages, as every recording was before 16 KB became the default.
    old.pragma('journal_mode = DELETE');
    old.pragma('page_size = 4096');
    old.exec('VACUUM');
    old.pragma('journal_mode = WAL');
  } finally {
    old.close();
  }
}
