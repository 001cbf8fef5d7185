// Loads derived responses in recording order and threads them into runs.
import { threadRuns, type Run } from '../../shared/trace/thread.js';
import type { ResponseRecord } from '../../shared/trace/types.js';
import type { Db } from './db.js';

export function loadRuns(db: Db): Run[] {
  const rows = db
    .prepare(
      `SELECT r.record, e.label FROM responses r JOIN exchanges e ON e.id = r.exchange_id
       ORDER BY r.exchange_id, r.idx`,
    )
    .all() as Array<{ record: string; label: string | null }>;
  return threadRuns(rows.map((row) => ({ record: JSON.parse(row.record) as ResponseRecord, label: row.label })));
}
