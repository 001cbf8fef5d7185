// What a recording holds that derivation has not written yet: exchanges that ended moments
// ago (derivation waits for a pause in traffic, ADR 7), exchanges still in flight, and those
// a crash cut off before they were derived. A reader of the derived tables alone would leave
// them out without a word; this normalizes them from raw in memory with computeDerived, the
// very work derivation will do, so what an export shows of them is what derivation writes.
// It reads only: an export opens the file read-only.
import type { NormalizeResult } from '../../../shared/trace/types.js';
import { RunIndex } from '../service/run-index.js';
import { hasTable, type Db } from './db.js';
import { computeDerived } from './derive.js';
import { isCorruption } from './integrity-check.js';
import { unreadableResponse, type ReadDamage } from './read-damage.js';

/**
 * Exchanges with no derived row of any kind. Read before the derived tables: an exchange
 * derived in between is then in both, and its derived rows win (normalizePending), where
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

/**
 * The file's runs as the run index threads them (its snapshot where it is current, else its
 * derived records read slim), with what derivation has not written yet normalized from raw
 * as provisional records. What an export holds of a run is then what the index holds,
 * whether or not the file is being written: threading the file's records whole held every
 * long tool output at once (1.1 GB exporting the bench's 3,000-turn chain, ADR 53). Also
 * gives the exchanges that had not ended. Rows the index cannot read are noted in its own
 * damage as it reads them; `damage` notes the raw exchanges that could not be normalized.
 */
export async function indexRecorded(db: Db, damage: ReadDamage): Promise<{ index: RunIndex; inFlight: number[] }> {
  const pending = underivedExchanges(db);
  const index = new RunIndex(db);
  const inFlight: number[] = [];
  for (const { id, ended, result } of await normalizePending(db, pending, (id) => index.isDerived(id), damage)) {
    // Traffic that derives to nothing (a model list) would only make the index leave its snapshot.
    if (!result.responses.length && !result.spans?.length) continue;
    index.setProvisional(id, result.responses, !ended, result.spans ?? []);
    if (!ended && result.responses.length) inFlight.push(id);
  }
  index.rebuild();
  return { index, inFlight };
}

/**
 * Each exchange of `pending` that `derived` does not name, normalized from raw. One that
 * cannot be read (headers stored as JSON that no longer parses, a page SQLite cannot read)
 * is an unreadable placeholder, noted in `damage`.
 */
export async function normalizePending(
  db: Db,
  pending: number[],
  derived: (id: number) => boolean,
  damage: ReadDamage,
): Promise<Array<{ id: number; ended: boolean; result: Pick<NormalizeResult, 'responses' | 'spans'> }>> {
  // Asked just before its bytes are read: one that ends after is counted in flight, never the reverse.
  const hasEnded = db.prepare('SELECT 1 FROM exchange_ends WHERE exchange_id = ?').pluck();
  const out = [];
  for (const id of pending) {
    if (derived(id)) continue;
    const ended = hasEnded.get(id) !== undefined;
    let result;
    try {
      result = await computeDerived(db, id);
    } catch (err) {
      if (!(err instanceof SyntaxError) && !isCorruption(err)) throw err;
      const placeholder = unreadableResponse(
        db,
        { exchangeId: id, responseId: null, model: null },
        damage.note(`exchange ${id}`, err),
      );
      out.push({ id, ended: true, result: { responses: [placeholder] } });
      continue;
    }
    if (result) out.push({ id, ended, result });
  }
  return out;
}
