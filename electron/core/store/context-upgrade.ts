// Schema v5's upgrade of a recording derived before the reference store (context-store.ts):
// every record's input and params move there, so an old file shrinks to what is new in each
// response (its freed pages stay in the file for later recording to reuse; VACUUM gives
// them back to the disk). A record that does not parse (a damaged row) is left as it was,
// inline, and still reads as unreadable; `loupe reindex` rebuilds it from raw.
import { contextWriter, splitRecord, storeRecord } from './context-store.js';
import type { Db } from './db.js';
import type { ResponseRecord } from '../../../shared/trace/types.js';

export function storeContextsOnce(db: Db, onProgress?: (done: number, total: number) => void): void {
  const total = db.prepare('SELECT count(*) FROM responses').pluck().get() as number;
  // An exchange at a time, in recording order, so each input finds its parent's context
  // already stored; better-sqlite3 allows no write while a read is still iterating.
  const exchanges = db
    .prepare('SELECT DISTINCT exchange_id FROM responses ORDER BY exchange_id')
    .pluck()
    .all() as number[];
  const rowsOf = db.prepare(
    'SELECT response_id AS responseId, record FROM responses WHERE exchange_id = ? AND input_context IS NULL AND params_value IS NULL ORDER BY idx',
  );
  const update = db.prepare(
    'UPDATE responses SET record = ?, input_context = ?, params_value = ? WHERE exchange_id = ? AND response_id = ?',
  );
  // As derivation now lists them: an input item where its context first holds it (derive.ts).
  const dropResent = db.prepare(
    "DELETE FROM items WHERE exchange_id = ? AND response_id = ? AND role = 'input' AND idx < ?",
  );
  const write = contextWriter(db);
  let done = 0;
  for (const id of exchanges) {
    for (const row of rowsOf.all(id) as Array<{ responseId: string; record: string }>) {
      const record = parsed(row.record);
      if (record) {
        const stored = storeRecord(write, splitRecord(record));
        update.run(...stored.columns, id, row.responseId);
        dropResent.run(id, row.responseId, stored.newFrom);
      }
      done++;
    }
    onProgress?.(done, total);
  }
}

function parsed(json: string): ResponseRecord | null {
  try {
    const record = JSON.parse(json) as ResponseRecord;
    return Array.isArray(record?.request?.input) &&
      typeof record.request.params === 'object' &&
      record.request.params !== null
      ? record
      : null;
  } catch {
    return null;
  }
}
