// The run index's reads of derived records from the file (run-index.ts), and what stands in
// for those a damaged file no longer holds: a record that is not JSON, or on a page SQLite
// cannot read, reads as an unreadable placeholder (read-damage.ts), noted in `damage`.
import type { ResponseRecord } from '../../../shared/trace/types.js';
import { ContextReader, isUnreadableRecord, type StoredRecordRow } from '../store/context-read.js';
import { recordColumns } from '../store/context-store.js';
import type { Db } from '../store/db.js';
import { isCorruption } from '../store/integrity-check.js';
import { unreadableResponse, type ReadDamage } from '../store/read-damage.js';

/**
 * A stored record as the index reads it, to thread it and, until it settles, for summaries
 * and search. SQLite drops, before JSON.parse sees them, the stream events (most of a
 * streamed record: parsing them only to drop them was a third of what the service allocated
 * under load) and the request's params but `stream_id` (thread-index.ts's lanes); params
 * carry the tools and instructions an agent resends every turn, and nothing here reads
 * them. Run detail and replay read the whole record (fullRecordOf). A record's input and
 * params are in the reference store (context-store.ts) for files derived since schema v5:
 * ContextReader puts them back, params cut to `stream_id` the same way for a slim record.
 */
const SLIM_RECORD = `CASE WHEN json_valid(record) THEN json_remove(CASE WHEN json_type(record, '$.request.params.stream_id') IS NULL
  THEN json_set(record, '$.request.params', json_object())
  ELSE json_set(record, '$.request.params', json_object('stream_id', record -> '$.request.params.stream_id')) END, '$.events') END`;

/**
 * The columns a SLIM_RECORD row comes with. A record that is not valid JSON (a damaged
 * file) reads as null: SQLite's JSON functions would fail the whole query on it, and its
 * response is shown as unreadable instead (read-damage.ts). json_valid adds no measurable
 * cost (SQLite caches a row's parsed JSON across the functions that read it): 3,000
 * records of 12 KB took 307-487 ms without it and 311-372 ms with it, three runs each.
 */
const slimColumns = (refs: string) => `exchange_id AS id, response_id, model, ${SLIM_RECORD} AS record, ${refs}`;

interface SlimRow extends Omit<StoredRecordRow, 'record'> {
  id: number;
  response_id: string;
  model: string | null;
  record: string | null;
}

export class StoredRecords {
  private readonly byExchange;
  private readonly fullRecord;
  private readonly allRecords;
  private readonly exchangeIds;
  /** Each record's input and params, read back from the reference store (context-store.ts). */
  private readonly contexts: ContextReader;
  /**
   * The same with long values' previews in their place (its own caches: other objects), for
   * run skeletons and for slim records (ADR 53). A slim record is threaded and tallied:
   * threading keys a cut item by the whole item's fingerprint (item-text.ts), and the tally
   * reads nothing a preview leaves out. It is searched only where there is no full-text
   * index, and a file without one has no previews either. Reading whole values here made the
   * first change to a file opened from its snapshot (run-index.ts leaveSnapshot) hold every
   * long input at once: 2.2-3.2 GB in serve on the bench's 3,000-turn chain.
   */
  private readonly previews: ContextReader;

  constructor(
    private readonly db: Db,
    private readonly damage: ReadDamage,
  ) {
    const refs = recordColumns(db).replace(/^record, /, '');
    this.byExchange = db.prepare(`SELECT ${slimColumns(refs)} FROM responses WHERE exchange_id = ? ORDER BY idx`);
    this.fullRecord = db.prepare(
      `SELECT ${recordColumns(db)} FROM responses WHERE exchange_id = ? AND response_id = ?`,
    );
    this.allRecords = db.prepare(`SELECT ${slimColumns(refs)} FROM responses ORDER BY exchange_id, idx`);
    this.contexts = new ContextReader(db);
    this.previews = new ContextReader(db, { previews: true });
    this.exchangeIds = db.prepare('SELECT id FROM exchanges ORDER BY id').pluck();
  }

  /**
   * Slim records in one pass over the file, for the exchanges `wanted` says (a query per
   * exchange was twice as slow). A row at a time: the file's JSON is never held at once.
   * A page SQLite cannot read, midway, is read around an exchange at a time.
   */
  each(wanted: (exchangeId: number) => boolean): Map<number, ResponseRecord[]> {
    const fresh = new Map<number, ResponseRecord[]>();
    const noted = this.damage.rows.length;
    try {
      for (const row of this.allRecords.iterate() as IterableIterator<SlimRow>) {
        if (!wanted(row.id)) continue;
        let list = fresh.get(row.id);
        if (!list) fresh.set(row.id, (list = []));
        list.push(this.slimRecord(row));
      }
      return fresh;
    } catch (err) {
      if (!isCorruption(err)) throw err;
    }
    fresh.clear();
    this.damage.rows.length = noted;
    for (const id of this.exchangeIds.all() as number[]) {
      if (!wanted(id)) continue;
      const list = this.ofExchange(id);
      if (list.length) fresh.set(id, list);
    }
    return fresh;
  }

  /** An exchange's slim records; those on a page SQLite cannot read are one placeholder. */
  ofExchange(exchangeId: number): ResponseRecord[] {
    try {
      return (this.byExchange.all(exchangeId) as SlimRow[]).map((r) => this.slimRecord(r));
    } catch (err) {
      if (!isCorruption(err)) throw err;
      return [this.unreadable(exchangeId, `exchange:${exchangeId}`, null, err)];
    }
  }

  /**
   * The whole record, stream events included; undefined if the file holds none. With
   * `previews`, its long input items are their stored previews (cut as a skeleton cuts them).
   */
  full(exchangeId: number, responseId: string, previews = false): ResponseRecord | undefined {
    const row = this.fullRecord.get(exchangeId, responseId) as StoredRecordRow | undefined;
    if (!row?.record) return undefined;
    try {
      return (previews ? this.previews : this.contexts).record(row);
    } catch (err) {
      if (!isUnreadableRecord(err)) throw err;
      return this.unreadable(exchangeId, responseId, null, err);
    }
  }

  /** A SLIM_RECORD row as a record: its events are an empty list, as the type says. */
  private slimRecord(row: SlimRow): ResponseRecord {
    if (row.record === null)
      return this.unreadable(row.id, row.response_id, row.model, new Error('its stored record is not valid JSON'));
    try {
      return { ...this.previews.record(row as StoredRecordRow, true), events: [] };
    } catch (err) {
      // Its context on a page SQLite cannot read, or missing: this response alone is unreadable.
      if (!isUnreadableRecord(err)) throw err;
      return this.unreadable(row.id, row.response_id, row.model, err);
    }
  }

  private unreadable(exchangeId: number, responseId: string, model: string | null, err: unknown): ResponseRecord {
    const reason = this.damage.note(`response ${responseId} of exchange ${exchangeId}`, err);
    return unreadableResponse(this.db, { exchangeId, responseId, model }, reason);
  }
}
