// Loads derived responses in recording order and threads them into runs. Records derived
// before they carried their exchange context get it from the exchange row, so an older
// recording threads the same way after an upgrade without a reindex. A row that cannot be
// read back becomes an unreadable placeholder in its place (read-damage.ts). An agent the
// Agents SDK called as a tool is folded into its caller's run, as the run index does.
import { joinTracedRuns } from '../../../shared/trace/thread/join-traced-runs.js';
import { threadRuns, type Run } from '../../../shared/trace/thread/thread.js';
import type { AgentSpan, ResponseRecord } from '../../../shared/trace/types.js';
import type { Transport } from '../../../shared/capture/exchange.js';
import { ContextReader, isUnreadableRecord, type StoredRecordRow } from './context-read.js';
import { recordColumns } from './context-store.js';
import { hasTable, type Db } from './db.js';
import { parseStored, ReadDamage, scanOrPerExchange, unreadableResponse } from './read-damage.js';

interface Row extends StoredRecordRow {
  exchange_id: number;
  response_id: string;
  model: string | null;
  started_at: number;
  transport: Transport;
  label: string | null;
  agent: string | null;
  connection_id: string;
}

const responsesSql = (
  db: Db,
) => `SELECT r.exchange_id, r.response_id, r.model, ${recordColumns(db, 'r')}, e.started_at, e.transport, e.label, e.agent, e.connection_id
  FROM responses r JOIN exchanges e ON e.id = r.exchange_id`;

/** The recording's runs as derived; from exchange `since` on, only those exchanges' (one session's, say). */
export function loadRuns(db: Db, damage = new ReadDamage(), since = 0): Run[] {
  // Spans that cannot be read are noted by the caller's own loadAgentSpans (export, OTLP), not twice.
  return joinTracedRuns(threadRuns(loadRecords(db, damage, since)), loadAgentSpans(db, new ReadDamage(), since)).runs;
}

/** Derived responses in recording order; from exchange `since` on, only those exchanges'. */
export function loadRecords(db: Db, damage = new ReadDamage(), since = 0): ResponseRecord[] {
  const sql = responsesSql(db);
  const contexts = new ContextReader(db);
  return scanOrPerExchange(
    db,
    'responses',
    () =>
      (db.prepare(`${sql} WHERE r.exchange_id >= ? ORDER BY r.exchange_id, r.idx`).all(since) as Row[]).map((row) =>
        recordOf(db, row, contexts, damage),
      ),
    (id) =>
      (id < since ? [] : (db.prepare(`${sql} WHERE r.exchange_id = ? ORDER BY r.idx`).all(id) as Row[])).map((row) =>
        recordOf(db, row, contexts, damage),
      ),
    (id, reason) => [unreadableResponse(db, { exchangeId: id, responseId: null, model: null }, reason)],
    damage,
  );
}

function recordOf(db: Db, row: Row, contexts: ContextReader, damage: ReadDamage): ResponseRecord {
  let record: ResponseRecord;
  try {
    record = contexts.record(row);
  } catch (err) {
    if (!isUnreadableRecord(err)) throw err;
    const reason = damage.note(`response ${row.response_id} of exchange ${row.exchange_id}`, err);
    record = unreadableResponse(
      db,
      { exchangeId: row.exchange_id, responseId: row.response_id, model: row.model },
      reason,
    );
  }
  record.exchange ??= {
    startedAt: row.started_at,
    transport: row.transport,
    label: row.label,
    agent: row.agent,
    connectionId: row.connection_id,
  };
  return record;
}

/**
 * Every Agents SDK trace object recorded, in recording order (none in a pre-v2 file opened read-only); unreadable ones
 * are noted and left out.
 */
export function loadAgentSpans(db: Db, damage = new ReadDamage(), since = 0): AgentSpan[] {
  return loadAgentSpansOf(db, damage, since).spans;
}

/** loadAgentSpans, with the exchanges they came from. */
export function loadAgentSpansOf(
  db: Db,
  damage = new ReadDamage(),
  since = 0,
): { spans: AgentSpan[]; exchanges: Set<number> } {
  if (!hasTable(db, 'agent_spans')) return { spans: [], exchanges: new Set() };
  const rows = scanOrPerExchange(
    db,
    'agent_spans',
    () =>
      db
        .prepare('SELECT exchange_id, idx, record FROM agent_spans WHERE exchange_id >= ? ORDER BY exchange_id, idx')
        .all(since) as SpanRow[],
    (id) =>
      id < since
        ? []
        : (db
            .prepare('SELECT exchange_id, idx, record FROM agent_spans WHERE exchange_id = ? ORDER BY idx')
            .all(id) as SpanRow[]),
    () => [],
    damage,
  );
  const spans = rows.flatMap(
    (row) => parseStored<AgentSpan>(row.record, `agent span ${row.idx} of exchange ${row.exchange_id}`, damage) ?? [],
  );
  return { spans, exchanges: new Set(rows.map((row) => row.exchange_id)) };
}

interface SpanRow {
  exchange_id: number;
  idx: number;
  record: string;
}
