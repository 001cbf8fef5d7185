// The full-text index: every distinct searchable text of the recording once, and which
// exchanges carry it. Derived, like responses and items, and written in the same
// transaction as them (derive.ts), so a response is searchable exactly when it is derived.
//
// - search_text: FTS5 with the trigram tokenizer, so a term matches anywhere inside a word
//   (`weather` in `get_weather`, as the scan it replaces did), case-insensitively.
//   Contentless: the index alone answers a substring query (a phrase of trigrams), and the
//   text is not stored a second time (it is in the raw bytes and the records already).
// - search_keys: the SHA-1 of each text to its row, so a text resent by every later
//   request of a stateless run (or carried by another run) is indexed once.
// - search_refs: per exchange, which texts it carries, with the response and graph node of
//   the first item in the exchange that has that text: what a search result points at.
import { createHash } from 'node:crypto';
import { itemNodeId } from '../../../shared/trace/node-id.js';
import { itemSearchText } from '../../../shared/trace/search-text.js';
import type { TraceItem } from '../../../shared/trace/types.js';
import { hasTable, type Db } from './db.js';

export const SEARCH_SCHEMA = `
  CREATE VIRTUAL TABLE search_text USING fts5(text, content='', tokenize='trigram');
  CREATE TABLE search_keys (id INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE);
  CREATE TABLE search_refs (
    text_id INTEGER NOT NULL,
    exchange_id INTEGER NOT NULL,
    response_id TEXT NOT NULL,
    node_id TEXT,                      -- null for a response's error message
    PRIMARY KEY (text_id, exchange_id)
  ) WITHOUT ROWID;
  CREATE INDEX search_refs_by_exchange ON search_refs(exchange_id);
`;

/** Undoes SEARCH_SCHEMA: what a recording from before the index looks like (tests, the bench). */
export const DROP_SEARCH_SCHEMA = 'DROP TABLE search_refs; DROP TABLE search_keys; DROP TABLE search_text;';

/** What one response offers to search; its model and agent are in the run's summary. */
export interface SearchableResponse {
  responseId: string;
  input: TraceItem[];
  output: TraceItem[];
  error: string | null;
}

/** One text of an exchange: [sha-1 hex, text, response id, node id or null]. */
export type SearchRow = [string, string, string, string | null];

export function searchRows(responses: SearchableResponse[]): SearchRow[] {
  const rows: SearchRow[] = [];
  const seen = new Set<string>();
  const add = (text: string, responseId: string, nodeId: string | null) => {
    if (!text) return;
    const digest = createHash('sha1').update(text).digest('hex');
    if (seen.has(digest)) return;
    seen.add(digest);
    rows.push([digest, text, responseId, nodeId]);
  };
  for (const r of responses) {
    r.input.forEach((item, i) => add(itemSearchText(item), r.responseId, itemNodeId(item, r.responseId, 'input', i)));
    r.output.forEach((item, i) => add(itemSearchText(item), r.responseId, itemNodeId(item, r.responseId, 'output', i)));
    if (r.error) add(r.error, r.responseId, null);
  }
  return rows;
}

/** Writes an exchange's search rows (inside the caller's transaction); clear() first when they replace older ones. */
export function searchWriter(db: Db): {
  clear(exchangeId: number): void;
  write(exchangeId: number, rows: SearchRow[]): void;
} {
  const clearRefs = db.prepare('DELETE FROM search_refs WHERE exchange_id = ?');
  const keyOf = db.prepare('SELECT id FROM search_keys WHERE digest = ?').pluck();
  const insertKey = db.prepare('INSERT INTO search_keys (digest) VALUES (?)');
  const insertText = db.prepare('INSERT INTO search_text (rowid, text) VALUES (?, ?)');
  const insertRef = db.prepare(
    'INSERT OR IGNORE INTO search_refs (text_id, exchange_id, response_id, node_id) VALUES (?, ?, ?, ?)',
  );
  return {
    clear: (exchangeId) => void clearRefs.run(exchangeId),
    write(exchangeId, rows) {
      for (const [hex, text, responseId, nodeId] of rows) {
        const digest = Buffer.from(hex, 'hex');
        let id = keyOf.get(digest) as number | bigint | undefined;
        if (id === undefined) {
          id = insertKey.run(digest).lastInsertRowid;
          insertText.run(id, text);
        }
        insertRef.run(id, exchangeId, responseId, nodeId);
      }
    },
  };
}

/**
 * One step of merging the index's segments, at a quiet moment of the writer; true while
 * more remain. Each derived batch adds a segment, and every query reads every segment: on
 * the bench's 20,000-request library the first query took 0.7 ms in the segments FTS5's
 * own merging (automerge) leaves, 0.06 ms in one. 'optimize' merges all at once, but took
 * 2.7 s there, in one transaction. A step writes at most MERGE_PAGES pages (20-100 ms):
 * `levels` merges segments of a level (usermerge 2, set with the v5 schema, leaves one
 * per level: cheap, logarithmic), `all` merges every segment into one, rewriting the
 * whole index (3.3 s in 70 steps there), so the writer does it only after a long quiet.
 */
export function mergeSearchStep(db: Db, scope: 'levels' | 'all'): boolean {
  if (!hasTable(db, 'search_text')) return false;
  const before = db.prepare('SELECT total_changes()').pluck().get() as number;
  db.prepare(
    `INSERT INTO search_text (search_text, rank) VALUES ('merge', ${scope === 'all' ? -MERGE_PAGES : MERGE_PAGES})`,
  ).run();
  // The command itself counts one change; a merge that did work writes pages too.
  return (db.prepare('SELECT total_changes()').pluck().get() as number) - before > 1;
}

const MERGE_PAGES = 200;

/** `levels` merges only when two segments share a level, so its steps leave one per level. */
export const SEARCH_MERGE_CONFIG = "INSERT INTO search_text (search_text, rank) VALUES ('usermerge', 2);";

/** Empties the index (reindex rebuilds it with the derived rows). */
export function clearSearchIndex(db: Db): void {
  db.exec(
    "DELETE FROM search_refs; DELETE FROM search_keys; INSERT INTO search_text (search_text) VALUES ('delete-all');",
  );
}

/**
 * Indexes every derived response already in the file: the upgrade of a recording made
 * before the index existed. Reads only the items and error of each record (SQLite drops
 * the stream events and params before JSON.parse sees them). A record that is not valid
 * JSON (a damaged file) is left out: it is shown as unreadable, with nothing to search.
 */
export function buildSearchIndex(db: Db, onProgress?: (done: number, total: number) => void): void {
  const total = db.prepare('SELECT count(*) FROM responses').pluck().get() as number;
  // Pages in key order: better-sqlite3 allows no write while a read is still iterating.
  const page = db.prepare(
    `SELECT exchange_id AS exchangeId, idx, response_id AS responseId, json_valid(record) AS valid,
       CASE WHEN json_valid(record) THEN record -> '$.request.input' END AS input,
       CASE WHEN json_valid(record) THEN record -> '$.output' END AS output,
       CASE WHEN json_valid(record) THEN record ->> '$.error.message' END AS error
     FROM responses WHERE (exchange_id, idx) > (?, ?) ORDER BY exchange_id, idx LIMIT ${BUILD_PAGE}`,
  );
  const writer = searchWriter(db);
  let done = 0;
  let after: [number, number] = [-1, -1];
  for (;;) {
    const rows = page.all(...after) as BuildRow[];
    if (!rows.length) break;
    for (const [exchangeId, list] of byExchange(rows)) writer.write(exchangeId, searchRows(list));
    const last = rows[rows.length - 1]!;
    after = [last.exchangeId, last.idx];
    done += rows.length;
    onProgress?.(done, total);
  }
  // Built a page at a time, the index is many segments, and a new connection's first query
  // reads them all: on the bench's 20,000-request library 1.9 ms, against 0.4 ms once
  // merged into one. Live writes keep FTS5's own incremental merging.
  db.exec("INSERT INTO search_text (search_text) VALUES ('optimize')");
}

const BUILD_PAGE = 200;

interface BuildRow {
  exchangeId: number;
  idx: number;
  responseId: string;
  valid: number;
  input: string | null;
  output: string | null;
  error: string | null;
}

function byExchange(rows: BuildRow[]): Map<number, SearchableResponse[]> {
  const out = new Map<number, SearchableResponse[]>();
  for (const row of rows) {
    if (!row.valid) continue;
    let list = out.get(row.exchangeId);
    if (!list) out.set(row.exchangeId, (list = []));
    list.push({ responseId: row.responseId, input: items(row.input), output: items(row.output), error: row.error });
  }
  return out;
}

function items(json: string | null): TraceItem[] {
  const list = json === null ? [] : (JSON.parse(json) as unknown);
  return Array.isArray(list) ? (list as TraceItem[]) : [];
}
