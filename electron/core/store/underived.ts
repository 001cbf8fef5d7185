// What a recording holds that derivation has not written yet: exchanges that ended moments
// ago (derivation waits for a pause in traffic, ADR 7), exchanges still in flight, and those
// a crash cut off before they were derived. A reader of the derived tables alone would leave
// them out without a word; this normalizes them from raw in memory with computeDerived, the
// very work derivation will do, so what an export shows of them is what derivation writes.
// It reads only: an export opens the file read-only.
import { joinTracedRuns } from '../../../shared/trace/thread/join-traced-runs.js';
import { threadRuns, type Run } from '../../../shared/trace/thread/thread.js';
import type { AgentSpan, ResponseRecord } from '../../../shared/trace/types.js';
import { hasTable, type Db } from './db.js';
import { computeDerived } from './derive.js';
import { isCorruption } from './integrity-check.js';
import { unreadableResponse, type ReadDamage } from './read-damage.js';
import { loadAgentSpansOf, loadRecords } from './runs-read.js';

export interface Recorded {
  runs: Run[];
  spans: AgentSpan[];
  /** Exchanges that had not ended: their responses are as they stood (status in_progress). */
  inFlight: number[];
}

/** Every run the file holds, derived or not yet, with every Agents SDK trace object. */
export async function loadRecorded(db: Db, damage: ReadDamage): Promise<Recorded> {
  const pending = underivedExchanges(db);
  const records = loadRecords(db, damage);
  const spans = loadAgentSpansOf(db, damage);
  const fresh = await normalizeUnderived(db, pending, { records, spanExchanges: spans.exchanges }, damage);
  const allSpans = [...spans.spans, ...fresh.spans];
  // As loadRuns does: an agent the Agents SDK ran as a tool joins its caller's run (ADR 22).
  const runs = joinTracedRuns(threadRuns(inRecordingOrder(records, fresh.records)), allSpans).runs;
  return { runs, spans: allSpans, inFlight: fresh.inFlight };
}

/**
 * Exchanges with no derived row of any kind. Read before the derived tables: an exchange
 * derived in between is then in both, and its derived rows win (normalizeUnderived), where
 * reading after would lose it. Traffic that derives to nothing (a model list, say) is among
 * them and normalizes to nothing again, at the cost of its parse. On a damaged page the
 * check is made an exchange at a time, and one that cannot be checked counts as derived:
 * its derived rows are then read as unreadable placeholders (runs-read.ts), never dropped.
 */
export function underivedExchanges(db: Db): number[] {
  const none = `NOT EXISTS (SELECT 1 FROM responses r WHERE r.exchange_id = e.id)
    AND NOT EXISTS (SELECT 1 FROM exchange_notes n WHERE n.exchange_id = e.id)
    ${hasTable(db, 'agent_spans') ? 'AND NOT EXISTS (SELECT 1 FROM agent_spans s WHERE s.exchange_id = e.id)' : ''}`;
  try {
    return db.prepare(`SELECT e.id FROM exchanges e WHERE ${none} ORDER BY e.id`).pluck().all() as number[];
  } catch (err) {
    if (!isCorruption(err)) throw err;
  }
  const one = db.prepare(`SELECT 1 FROM exchanges e WHERE e.id = ? AND ${none}`).pluck();
  return (db.prepare('SELECT id FROM exchanges ORDER BY id').pluck().all() as number[]).filter((id) => {
    try {
      return one.get(id) !== undefined;
    } catch (err) {
      if (!isCorruption(err)) throw err;
      return false;
    }
  });
}

type Underived = Omit<Recorded, 'runs'> & { records: ResponseRecord[] };

/** `pending` (from underivedExchanges) normalized from raw, leaving out what was read derived after all. */
async function normalizeUnderived(
  db: Db,
  pending: number[],
  derived: { records: readonly ResponseRecord[]; spanExchanges: ReadonlySet<number> },
  damage: ReadDamage,
): Promise<Underived> {
  const withRecords = new Set(derived.records.map((r) => r.exchangeId));
  // Asked just before its bytes are read: one that ends after is counted in flight, never the reverse.
  const hasEnded = db.prepare('SELECT 1 FROM exchange_ends WHERE exchange_id = ?').pluck();
  const out: Underived = { records: [], spans: [], inFlight: [] };
  for (const id of pending) {
    const ended = hasEnded.get(id) !== undefined;
    let result;
    try {
      result = await computeDerived(db, id);
    } catch (err) {
      // Headers stored as JSON that no longer parses, or a page SQLite cannot read.
      if (!(err instanceof SyntaxError) && !isCorruption(err)) throw err;
      out.records.push(
        unreadableResponse(db, { exchangeId: id, responseId: null, model: null }, damage.note(`exchange ${id}`, err)),
      );
      continue;
    }
    if (!result) continue;
    if (!withRecords.has(id)) out.records.push(...result.responses);
    if (!derived.spanExchanges.has(id)) out.spans.push(...(result.spans ?? []));
    if (!ended && result.responses.length) out.inFlight.push(id);
  }
  return out;
}

/** Derived and underived records in recording order (exchange, then position), as threading expects ties. */
function inRecordingOrder(derived: readonly ResponseRecord[], underived: readonly ResponseRecord[]): ResponseRecord[] {
  if (!underived.length) return [...derived];
  return [...derived, ...underived].sort((a, b) => a.exchangeId - b.exchangeId);
}
