// Loads derived responses in recording order and threads them into runs. Records derived
// before they carried their exchange context get it from the exchange row, so an older
// recording threads the same way after an upgrade without a reindex.
import { threadRuns, type Run } from '../../shared/trace/thread.js';
import type { ResponseRecord } from '../../shared/trace/types.js';
import type { Transport } from '../../shared/capture/exchange.js';
import type { Db } from './db.js';

interface Row {
  record: string;
  started_at: number;
  transport: Transport;
  label: string | null;
  agent: string | null;
  connection_id: string;
}

export function loadRuns(db: Db): Run[] {
  const rows = db
    .prepare(
      `SELECT r.record, e.started_at, e.transport, e.label, e.agent, e.connection_id
       FROM responses r JOIN exchanges e ON e.id = r.exchange_id
       ORDER BY r.exchange_id, r.idx`,
    )
    .all() as Row[];
  return threadRuns(rows.map(recordOf));
}

function recordOf(row: Row): ResponseRecord {
  const record = JSON.parse(row.record) as ResponseRecord;
  record.exchange ??= {
    startedAt: row.started_at,
    transport: row.transport,
    label: row.label,
    agent: row.agent,
    connectionId: row.connection_id,
  };
  return record;
}
