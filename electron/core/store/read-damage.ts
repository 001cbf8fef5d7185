// Reading a damaged recording: a row whose JSON does not parse, or whose page SQLite cannot
// read, is noted here and read as what it could be (a placeholder response, a skipped span)
// so the rest of the file still comes out. `loupe export` reports the tally and exits with
// its partial status; the viewer shows the placeholders.
import { unreadableRecord } from '../../../shared/trace/normalize/unreadable-record.js';
import type { ExchangeContext, ResponseRecord } from '../../../shared/trace/types.js';
import type { Db } from './db.js';
import { isCorruption } from './integrity-check.js';

export class ReadDamage {
  /** One line per unreadable row: where it was and why. */
  readonly rows: string[] = [];

  /**
   * A row read again (the run index reads a record slim to thread it, then whole for an
   * export) is the same row: it is noted once, with the reason it was first read with.
   */
  note(where: string, err: unknown): string {
    const reason = (err as Error).message.replace(/\s+/g, ' ');
    if (!this.rows.some((row) => row.startsWith(`${where}: `))) this.rows.push(`${where}: ${reason}`);
    return reason;
  }
}

/** Parses a stored JSON value; one that does not parse is noted and read as `fallback` gives it. */
export function parseStored<T, F = null>(
  json: string,
  where: string,
  damage: ReadDamage,
  fallback: (reason: string) => F = () => null as F,
): T | F {
  try {
    return JSON.parse(json) as T;
  } catch (err) {
    return fallback(damage.note(where, err));
  }
}

/** A placeholder for a response row that could not be read, in its exchange's context where that row still reads. */
export function unreadableResponse(
  db: Db,
  row: { exchangeId: number; responseId: string | null; model: string | null },
  reason: string,
): ResponseRecord {
  return unreadableRecord({ ...row, exchange: exchangeContext(db, row.exchangeId) }, reason);
}

function exchangeContext(db: Db, id: number): ExchangeContext {
  try {
    const e = db
      .prepare('SELECT started_at, transport, label, agent, connection_id FROM exchanges WHERE id = ?')
      .get(id) as
      | {
          started_at: number;
          transport: ExchangeContext['transport'];
          label: string | null;
          agent: string | null;
          connection_id: string;
        }
      | undefined;
    if (e)
      return {
        startedAt: e.started_at,
        transport: e.transport,
        label: e.label,
        agent: e.agent,
        connectionId: e.connection_id,
      };
  } catch (err) {
    if (!isCorruption(err)) throw err;
  }
  // Its own connection: nothing else joins it to a run by mistake.
  return { startedAt: 0, transport: 'http', label: null, agent: null, connectionId: `unreadable:${id}` };
}

/**
 * Runs `scan` over the whole table; if SQLite meets a damaged page midway, reads again an
 * exchange at a time with `one`, so only the exchanges on damaged pages are lost (each
 * noted, and given to `lost`). Exchange ids come from `exchanges`, a b-tree of its own.
 */
export function scanOrPerExchange<T>(
  db: Db,
  table: string,
  scan: () => T[],
  one: (id: number) => T[],
  lost: (id: number, reason: string) => T[],
  damage: ReadDamage,
): T[] {
  try {
    return scan();
  } catch (err) {
    if (!isCorruption(err)) throw err;
  }
  const ids = db.prepare('SELECT id FROM exchanges ORDER BY id').pluck().all() as number[];
  const out: T[] = [];
  for (const id of ids) {
    try {
      out.push(...one(id));
    } catch (err) {
      if (!isCorruption(err)) throw err;
      out.push(...lost(id, damage.note(`${table} of exchange ${id}`, err)));
    }
  }
  return out;
}
