// Loads derived responses in recording order and threads them into runs. Records derived
// before they carried their exchange context get it from the exchange row, so an older
// recording threads the same way after an upgrade without a reindex.
import { threadRuns, type Run } from '../../shared/trace/thread.js';
import type { AgentSpan, ResponseRecord } from '../../shared/trace/types.js';
import type { Transport } from '../../shared/capture/exchange.js';
import { hasTable, type Db } from './db.js';

interface Row {
  record: string;
  started_at: number;
  transport: Transport;
  label: string | null;
  agent: string | null;
  connection_id: string;
}

/** The recording's runs; from `sinceExchange` on, only those exchanges' (one session's, say). */
export function loadRuns(db: Db, sinceExchange = 0): Run[] {
  const rows = db
    .prepare(
      `SELECT r.record, e.started_at, e.transport, e.label, e.agent, e.connection_id
       FROM responses r JOIN exchanges e ON e.id = r.exchange_id
       WHERE r.exchange_id >= ?
       ORDER BY r.exchange_id, r.idx`,
    )
    .all(sinceExchange) as Row[];
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

/** Every Agents SDK trace object recorded, in recording order (none in a pre-v2 file opened read-only). */
export function loadAgentSpans(db: Db, sinceExchange = 0): AgentSpan[] {
  if (!hasTable(db, 'agent_spans')) return [];
  const rows = db.prepare('SELECT record FROM agent_spans WHERE exchange_id >= ? ORDER BY exchange_id, idx').pluck().all(sinceExchange) as string[];
  return rows.map((json) => JSON.parse(json) as AgentSpan);
}
