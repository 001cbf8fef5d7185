// Recordings as schema v4 and earlier wrote them: each record holding its request's input
// and params inline, no reference store (context-store.ts), no run snapshot (run-snapshot.ts).
// Made from a current recording, to test reading and upgrading files made before v5.
import Database from 'better-sqlite3';
import { ContextReader, type StoredRecordRow } from '../../electron/core/store/context-read.js';
import { DROP_VALUE_PREVIEWS_SCHEMA } from '../../electron/core/store/context-store.js';
import type { Db } from '../../electron/core/store/db.js';
import { DROP_RUN_SNAPSHOT_SCHEMA } from '../../electron/core/store/run-snapshot.js';

/** Rewrites an open copy in place as v4 wrote it (the caller sets user_version). */
export function inlineContexts(db: Db): void {
  const reader = new ContextReader(db);
  const rows = db
    .prepare('SELECT exchange_id AS id, response_id AS responseId, record, input_context, params_value FROM responses')
    .all() as Array<StoredRecordRow & { id: number; responseId: string }>;
  const update = db.prepare('UPDATE responses SET record = ? WHERE exchange_id = ? AND response_id = ?');
  // And the items table listing every input item of every request, as v4 wrote it.
  const clearInput = db.prepare("DELETE FROM items WHERE exchange_id = ? AND response_id = ? AND role = 'input'");
  const insertItem = db.prepare(
    "INSERT INTO items (exchange_id, response_id, role, idx, item_id, type, call_id, agent) VALUES (?, ?, 'input', ?, ?, ?, ?, ?)",
  );
  db.transaction(() => {
    for (const row of rows) {
      const record = reader.record(row);
      update.run(JSON.stringify(record), row.id, row.responseId);
      clearInput.run(row.id, row.responseId);
      record.request.input.forEach((item, i) =>
        insertItem.run(row.id, row.responseId, i, item.id, item.type, item.callId, item.agent),
      );
    }
  })();
  db.exec(`
    ALTER TABLE responses DROP COLUMN input_context;
    ALTER TABLE responses DROP COLUMN params_value;
    DROP TABLE contexts;
    DROP TABLE stored_values;
    ${DROP_VALUE_PREVIEWS_SCHEMA}
  `);
}

export async function copyAsSchemaV4(db: Db, file: string): Promise<void> {
  db.pragma('wal_checkpoint(FULL)');
  await db.backup(file);
  const old = new Database(file);
  try {
    inlineContexts(old);
    old.exec(`${DROP_RUN_SNAPSHOT_SCHEMA} PRAGMA user_version = 4; VACUUM;`);
  } finally {
    old.close();
  }
}
