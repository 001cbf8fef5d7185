// Versioned schema. Each migration runs once, in order, inside a transaction; the applied
// version lives in `PRAGMA user_version`. Never edit a shipped migration: add the next one.
//
// Two kinds of tables:
// - raw (exchanges, response_heads, chunks, exchange_ends): append-only, the source of truth.
//   An exchange's life is spread over insert-only tables instead of updating one row, so a
//   crash mid-exchange leaves exactly what was seen and nothing is ever overwritten.
// - derived (responses, items, exchange_notes, agent_spans, search_*): a cache rebuilt from
//   raw by `loupe reindex`. The run snapshot (run_*) is derived from those in turn.
import type Database from 'better-sqlite3';
import { CONTEXT_SCHEMA, DROP_VALUE_PREVIEWS_SCHEMA, VALUE_PREVIEWS_SCHEMA } from './context-store.js';
import { storeContextsOnce } from './context-upgrade.js';
import { storeValuePreviews } from './preview-upgrade.js';
import { RUN_SNAPSHOT_SCHEMA } from './run-snapshot.js';
import { buildRunSnapshot } from './run-snapshot-keeper.js';
import { buildSearchIndex, SEARCH_MERGE_CONFIG, SEARCH_SCHEMA } from './search-index.js';

/** `progress` hears how far a long step has come (`task`: what it does to how many responses), when it can tell. */
type Progress = (task: string, done: number, total: number) => void;
type Migration = (db: Database.Database, progress: Progress) => void;

const migrations: Migration[] = [
  (db) => {
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE exchanges (
        id INTEGER PRIMARY KEY,
        started_at REAL NOT NULL,          -- epoch ms
        transport TEXT NOT NULL,           -- http | websocket
        method TEXT NOT NULL,
        path TEXT NOT NULL,                -- as forwarded (label prefix removed)
        upstream TEXT NOT NULL,
        label TEXT,
        agent TEXT,
        connection_id TEXT NOT NULL,
        request_headers TEXT NOT NULL      -- JSON [[name, value]], secrets redacted
      );

      CREATE TABLE response_heads (
        exchange_id INTEGER PRIMARY KEY REFERENCES exchanges(id),
        status INTEGER NOT NULL,
        status_text TEXT NOT NULL,
        headers TEXT NOT NULL,             -- JSON [[name, value]], secrets redacted
        t_us INTEGER NOT NULL
      );

      -- Bytes in arrival order. One row holds several consecutive chunks of one stream;
      -- marks is a Float64Array of [length, t_us, opcode] triples, one per chunk as it
      -- arrived, so chunk boundaries and times survive batching.
      CREATE TABLE chunks (
        exchange_id INTEGER NOT NULL REFERENCES exchanges(id),
        stream TEXT NOT NULL,              -- request | response | client | server
        seq INTEGER NOT NULL,
        data BLOB NOT NULL,
        marks BLOB NOT NULL,
        PRIMARY KEY (exchange_id, stream, seq)
      ) WITHOUT ROWID;

      CREATE TABLE exchange_ends (
        exchange_id INTEGER PRIMARY KEY REFERENCES exchanges(id),
        state TEXT NOT NULL,
        error TEXT,
        t_us INTEGER NOT NULL,
        request_bytes INTEGER NOT NULL,
        response_bytes INTEGER NOT NULL,
        truncated INTEGER NOT NULL
      );

      -- One exchange may carry several responses (and one response id may appear in several
      -- exchanges: a retrieve, a resumed stream, a cancel), hence the composite key.
      CREATE TABLE responses (
        exchange_id INTEGER NOT NULL,
        response_id TEXT NOT NULL,
        idx INTEGER NOT NULL,              -- position within the exchange
        api TEXT NOT NULL,
        model TEXT,
        status TEXT NOT NULL,
        streamed INTEGER NOT NULL,
        previous_response_id TEXT,
        conversation_id TEXT,
        input_tokens INTEGER,
        cached_tokens INTEGER,
        output_tokens INTEGER,
        reasoning_tokens INTEGER,
        ttft_us INTEGER,
        duration_us INTEGER,
        error TEXT,
        record TEXT NOT NULL,              -- the full ResponseRecord as JSON
        PRIMARY KEY (exchange_id, response_id)
      ) WITHOUT ROWID;
      CREATE INDEX responses_by_id ON responses(response_id);

      CREATE TABLE items (
        exchange_id INTEGER NOT NULL,
        response_id TEXT NOT NULL,
        role TEXT NOT NULL,                -- input | output
        idx INTEGER NOT NULL,
        item_id TEXT,
        type TEXT NOT NULL,
        call_id TEXT,
        agent TEXT,
        PRIMARY KEY (exchange_id, response_id, role, idx)
      ) WITHOUT ROWID;
      CREATE INDEX items_by_id ON items(item_id);
      CREATE INDEX items_by_call ON items(call_id);

      CREATE TABLE exchange_notes (
        exchange_id INTEGER NOT NULL,
        note TEXT NOT NULL
      );
      CREATE INDEX notes_by_exchange ON exchange_notes(exchange_id);
    `);
  },
  // v2: Agents SDK trace objects posted to /v1/traces/ingest (derived, like responses).
  // Recordings made before v2 have none until `loupe reindex`.
  (db) => {
    db.exec(`
      CREATE TABLE agent_spans (
        exchange_id INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        trace_id TEXT NOT NULL,
        span_id TEXT NOT NULL,
        type TEXT NOT NULL,
        response_id TEXT,
        record TEXT NOT NULL,
        PRIMARY KEY (exchange_id, idx)
      ) WITHOUT ROWID;
      CREATE INDEX agent_spans_by_trace ON agent_spans(trace_id);
    `);
  },
  // v3: chunks becomes an ordinary rowid table with a unique index on its old key. Rows
  // are blobs of up to a batch's bytes, and SQLite stores rows that large badly WITHOUT
  // ROWID (it is meant for rows under ~1/20 of a page): writing a saturated batch cost the
  // writer about twice the CPU per event of the same rows in a rowid table (ADR 10). Same
  // columns, so readers and older recordings need no change; marks comes before data so
  // reading it never walks data's overflow pages. The copy needs free disk space about the
  // size of the chunks; the old table's pages are then free pages in the file, which later
  // recording reuses (VACUUM gives them back to the disk).
  (db) => {
    db.exec(`
      CREATE TABLE chunks_v3 (
        exchange_id INTEGER NOT NULL REFERENCES exchanges(id),
        stream TEXT NOT NULL,
        seq INTEGER NOT NULL,
        marks BLOB NOT NULL,
        data BLOB NOT NULL
      );
      INSERT INTO chunks_v3 (exchange_id, stream, seq, marks, data)
        SELECT exchange_id, stream, seq, marks, data FROM chunks ORDER BY exchange_id, stream, seq;
      DROP TABLE chunks;
      ALTER TABLE chunks_v3 RENAME TO chunks;
      CREATE UNIQUE INDEX chunks_in_order ON chunks(exchange_id, stream, seq);
    `);
  },
  // v4: the full-text index (search-index.ts), built from the responses already derived.
  // Search read and scanned every record of every run instead, and cut each run's text at
  // 400,000 characters. Reads each record's items once; on a large library it takes seconds
  // and grows the file by more than the text it indexes (trigrams; ADR 24).
  (db, progress) => {
    db.exec(SEARCH_SCHEMA);
    buildSearchIndex(db, (done, total) => progress('indexing for search', done, total));
  },
  // v5: context stored once (context-store.ts, ADR 30). Each record held its request's whole
  // input and params, resent every turn by a stateless agent, so a run's file grew with the
  // square of its turns; they move to the reference store, each item once.
  (db, progress) => {
    db.exec(CONTEXT_SCHEMA);
    storeContextsOnce(db, (done, total) => progress('storing context once', done, total));
  },
  // v6: the run snapshot (run-snapshot.ts, ADR 29): each run's summary, members and
  // exchanges, so that opening a recording reads its runs instead of threading every
  // record (1.1 s on the bench's 20,000-request library, and growing with it). Built here
  // by threading the derived responses once; the writer keeps it current from then on.
  // Also: the full-text index's segments are merged at quiet moments (search-index.ts
  // mergeSearchStep), down to one.
  (db, progress) => {
    db.exec(RUN_SNAPSHOT_SCHEMA);
    db.exec(SEARCH_MERGE_CONFIG);
    const total = db.prepare('SELECT count(*) FROM responses').pluck().get() as number;
    progress('summarizing the runs', 0, total);
    buildRunSnapshot(db);
    progress('summarizing the runs', total, total);
  },
  // v7: previews of long values (context-store.ts value_previews, ADR 46), so a run's skeleton
  // reads 1,000 characters of each long tool output instead of parsing and hashing it whole:
  // a 3,000-turn run of 9,000 such outputs (1 GB) took 36-58 s to open. Reads each long
  // value that a response's input reaches once. (No file at v6 has the table; one made from a
  // newer file by a test, its version set back, may, and it is made anew.)
  (db, progress) => {
    db.exec(DROP_VALUE_PREVIEWS_SCHEMA + VALUE_PREVIEWS_SCHEMA);
    storeValuePreviews(db, (done, total) => progress('keeping previews of long values', done, total));
  },
];

export const SCHEMA_VERSION = migrations.length;

/** Readers refuse a newer file too: its tables may mean something this build would misread. */
export function refuseNewerSchema(version: number): void {
  if (version > SCHEMA_VERSION) {
    throw new Error(
      `this recording was written by a newer Loupe (schema ${version}, this build knows ${SCHEMA_VERSION}); open it with that Loupe or a later one`,
    );
  }
}

/**
 * Hears of an existing recording being upgraded: before (`start`), as a long step goes
 * (`progress`, with how much of that step is done), and after (`done`).
 */
export type UpgradeListener = (
  from: number,
  to: number,
  phase: 'start' | 'progress' | 'done',
  done?: number,
  total?: number,
  task?: string,
) => void;

/**
 * Brings the database up to the current schema; refuses files from a newer Loupe.
 * `onUpgrade` hears of an existing recording being upgraded (not of a new file being set
 * up), before, during and after: v3 copies every recorded byte once (~17 s per GB here),
 * v4 reads every derived record once, v5 rewrites each, v6 threads them once, v7 reads
 * each long input item once.
 */
export function migrate(db: Database.Database, onUpgrade?: UpgradeListener): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  refuseNewerSchema(current);
  const upgrading = current > 0 && current < SCHEMA_VERSION;
  if (upgrading) onUpgrade?.(current, SCHEMA_VERSION, 'start');
  for (let v = current; v < SCHEMA_VERSION; v++) {
    const step = migrations[v]!;
    // Immediate, and the version read again inside: two writers setting up one new file at
    // once both start here, and the second finds the step done instead of failing it.
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) > v) return;
      step(db, (task, done, total) => {
        if (upgrading) onUpgrade?.(current, SCHEMA_VERSION, 'progress', done, total, task);
      });
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
  if (upgrading) {
    // The copy went through the WAL; leave it empty rather than the recording's size.
    db.pragma('wal_checkpoint(TRUNCATE)');
    onUpgrade?.(current, SCHEMA_VERSION, 'done');
  }
}
