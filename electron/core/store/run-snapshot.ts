// The run index's settled state, kept in the file so that opening a recording reads a few
// rows per run instead of threading every record (ADR 29). Derived, like the responses it
// is made from, and written only by the connection that writes the recording.
//
// - run_summaries: each run's row in the runs list, as the run index summed it, and when it
//   started (the list's order), so a page of the list parses only the runs it lists.
// - run_words: the words of each summary a query matches (run-filter.ts summaryText), in a
//   table of their own so a search reads them without reading the summaries.
// - run_members: each run's responses (as stubs: exchange, response id, item count) and
//   links, its Agents SDK spans, and its Conversations calls (as exchange and id): what run
//   detail reads before it reads any record.
// - run_exchanges: the run each exchange's responses (or reads) count for: what search maps
//   a hit to; and the generation that wrote it, so a reader holding an older snapshot
//   knows the exchanges it covers.
//
// The snapshot is current when it was written at the file's present derived generation:
// a counter that triggers bump on every change to the rows threading reads (responses,
// agent_spans), whoever made it (live derivation, `loupe reindex`, an older Loupe that
// knows nothing of the snapshot, a crash after derived rows were written but before the
// snapshot was). A snapshot that is not current is not read at all.
import { summaryText } from '../../../shared/api/run-filter.js';
import type { RunSummary } from '../../../shared/api/types.js';
import type { RunLink } from '../../../shared/trace/thread/thread.js';
import type { AgentSpan } from '../../../shared/trace/types.js';
import type { SettledResponse } from '../service/indexed-run.js';
import { hasTable, type Db } from './db.js';

export const RUN_SNAPSHOT_SCHEMA = `
  CREATE TABLE run_summaries (run_id TEXT PRIMARY KEY, started_at REAL NOT NULL, summary TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE run_words (run_id TEXT PRIMARY KEY, words TEXT NOT NULL) WITHOUT ROWID;
  CREATE INDEX run_summaries_in_order ON run_summaries(started_at, run_id);
  CREATE TABLE run_members (run_id TEXT PRIMARY KEY, members TEXT NOT NULL);
  CREATE TABLE run_exchanges (exchange_id INTEGER PRIMARY KEY, run_id TEXT NOT NULL, generation INTEGER NOT NULL);
  CREATE INDEX run_exchanges_by_run ON run_exchanges(run_id);
  INSERT OR IGNORE INTO meta (key, value) VALUES ('derived_generation', '0');
  ${['responses', 'agent_spans']
    .flatMap((table) =>
      ['INSERT', 'UPDATE', 'DELETE'].map(
        (op) => `CREATE TRIGGER ${table}_${op.toLowerCase()}_generation AFTER ${op} ON ${table} BEGIN
          UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'derived_generation';
        END;`,
      ),
    )
    .join('\n')}
`;

/** Undoes RUN_SNAPSHOT_SCHEMA: what a recording from before the snapshot looks like (tests, the bench). */
export const DROP_RUN_SNAPSHOT_SCHEMA = `
  DROP TABLE run_summaries; DROP TABLE run_words; DROP TABLE run_members; DROP TABLE run_exchanges;
  ${['responses', 'agent_spans'].flatMap((table) => ['insert', 'update', 'delete'].map((op) => `DROP TRIGGER ${table}_${op}_generation;`)).join(' ')}
  DELETE FROM meta WHERE key IN ('derived_generation', 'runs_generation', 'runs_models', 'runs_format');
`;

/** What run_members holds for a run. */
export interface RunMembers {
  label: string | null;
  responses: SettledResponse[];
  links: RunLink[];
  spans: AgentSpan[];
  /** Its Conversations calls (thread.ts `context`), in time order. */
  context: ContextRef[];
}

/** A Conversations record that is context of a run: read back from the file when asked for. */
export interface ContextRef {
  exchangeId: number;
  responseId: string;
}

/**
 * What run_members holds changed shape (2: `context`): a snapshot written in another shape
 * is stale, so the file is threaded once more and the writer writes it anew.
 */
const RUNS_FORMAT = '2';

/** A run as the snapshot keeps it. `summary` has no revision and is never live. */
export interface SnapshotRun {
  summary: RunSummary;
  members: RunMembers;
  /** Exchanges whose responses or reads count for this run. */
  exchangeIds: number[];
}

/** A run's place in the list (newest first, then by id: run-filter.ts compareRuns). */
export interface SnapshotEntry {
  id: string;
  startedAt: number;
}

/**
 * The current snapshot; null when there is none or it is stale. Only each run's place is
 * read at once; summaries, members and exchanges are read as they are asked for.
 */
export class RunSnapshot {
  private readonly membersOf;
  private readonly runOf;
  private readonly spansAt;
  private readonly summariesOfStmt;
  private readonly allSummaries;
  private readonly withWord;

  private constructor(
    db: Db,
    readonly entries: Map<string, SnapshotEntry>,
    /** Every model of every run, sorted. */
    readonly models: string[],
    /** The derived generation it was written at (run-snapshot.ts, top). */
    readonly generation: number,
  ) {
    this.summariesOfStmt = db
      .prepare('SELECT summary FROM run_summaries WHERE run_id IN (SELECT value FROM json_each(?))')
      .pluck();
    this.allSummaries = db.prepare('SELECT summary FROM run_summaries').pluck();
    this.withWord = db.prepare('SELECT run_id FROM run_words WHERE instr(words, ?) > 0').pluck();
    this.membersOf = db.prepare('SELECT members FROM run_members WHERE run_id = ?').pluck();
    this.runOf = db.prepare('SELECT run_id FROM run_exchanges WHERE exchange_id = ? AND generation <= ?').pluck();
    this.spansAt = db.prepare('SELECT 1 FROM agent_spans WHERE exchange_id = ? LIMIT 1').pluck();
  }

  static read(db: Db): RunSnapshot | null {
    if (!hasTable(db, 'run_summaries')) return null;
    // One read transaction: the generation and the rows it vouches for are of one moment.
    return db.transaction(() => {
      const generation = db
        .prepare(
          "SELECT key, value FROM meta WHERE key IN ('derived_generation', 'runs_generation', 'runs_models', 'runs_format')",
        )
        .all() as Array<{ key: string; value: string }>;
      const at = new Map(generation.map((g) => [g.key, g.value]));
      if (at.get('runs_generation') === undefined || at.get('runs_generation') !== at.get('derived_generation'))
        return null;
      if (at.get('runs_format') !== RUNS_FORMAT) return null;
      // From the index alone: the summaries are not read until a page lists them.
      const rows = db
        .prepare('SELECT run_id AS id, started_at AS startedAt FROM run_summaries INDEXED BY run_summaries_in_order')
        .all() as SnapshotEntry[];
      return new RunSnapshot(
        db,
        new Map(rows.map((row) => [row.id, row])),
        JSON.parse(at.get('runs_models') ?? '[]') as string[],
        Number(at.get('runs_generation')),
      );
    })();
  }

  /** Runs' summaries as written (revision 0, not live), in one query; those it has, in no particular order. */
  summariesOf(runIds: string[]): RunSummary[] {
    return (this.summariesOfStmt.all(JSON.stringify(runIds)) as string[]).map((json) => JSON.parse(json) as RunSummary);
  }

  /** The runs whose summaryText holds `term` (lower-cased), matched in SQLite: no run's words are read into JS. */
  runsWithWord(term: string): Set<string> {
    return new Set(this.withWord.all(term) as string[]);
  }

  /** Every run's summary, in one pass. */
  summaries(): RunSummary[] {
    return (this.allSummaries.all() as string[]).map((json) => JSON.parse(json) as RunSummary);
  }

  members(runId: string): RunMembers | null {
    const json = this.membersOf.get(runId) as string | undefined;
    return json === undefined ? null : (JSON.parse(json) as RunMembers);
  }

  /** The run an exchange counts for, as of this snapshot (a later one the writer wrote since may say otherwise). */
  runOfExchange(exchangeId: number): string | null {
    return (this.runOf.get(exchangeId, this.generation) as string | undefined) ?? null;
  }

  /** Whether this snapshot holds the exchange's derived rows: its responses, or (a trace export) its spans. */
  isDerived(exchangeId: number): boolean {
    return this.runOfExchange(exchangeId) !== null || this.spansAt.get(exchangeId) !== undefined;
  }
}

/** Whether the file holds a current snapshot (tests, and the writer deciding to build one). */
export function snapshotIsCurrent(db: Db): boolean {
  if (!hasTable(db, 'run_summaries')) return false;
  const row = db
    .prepare(
      "SELECT (SELECT value FROM meta WHERE key = 'runs_generation') = (SELECT value FROM meta WHERE key = 'derived_generation') AND (SELECT value FROM meta WHERE key = 'runs_format') = ?",
    )
    .pluck()
    .get(RUNS_FORMAT);
  return row === 1;
}

/**
 * Writes runs into the snapshot and marks it current, in one transaction: `replace` runs
 * are written (a run of that id before is replaced), `remove` runs deleted; `all` empties
 * it first; `models` is every model of every run. Only the writing connection calls it,
 * after the derived rows it covers.
 */
export function writeSnapshot(
  db: Db,
  change: { replace: SnapshotRun[]; remove: string[]; all: boolean; models: string[] },
): void {
  const putSummary = db.prepare('INSERT OR REPLACE INTO run_summaries (run_id, started_at, summary) VALUES (?, ?, ?)');
  const putWords = db.prepare('INSERT OR REPLACE INTO run_words (run_id, words) VALUES (?, ?)');
  const putMembers = db.prepare('INSERT OR REPLACE INTO run_members (run_id, members) VALUES (?, ?)');
  const putExchange = db.prepare(
    "INSERT OR REPLACE INTO run_exchanges (exchange_id, run_id, generation) VALUES (?, ?, (SELECT value FROM meta WHERE key = 'derived_generation'))",
  );
  const drop = [
    db.prepare('DELETE FROM run_summaries WHERE run_id = ?'),
    db.prepare('DELETE FROM run_words WHERE run_id = ?'),
    db.prepare('DELETE FROM run_members WHERE run_id = ?'),
    db.prepare('DELETE FROM run_exchanges WHERE run_id = ?'),
  ];
  db.transaction(() => {
    if (change.all)
      db.exec('DELETE FROM run_summaries; DELETE FROM run_words; DELETE FROM run_members; DELETE FROM run_exchanges;');
    for (const runId of change.remove) for (const stmt of drop) stmt.run(runId);
    for (const run of change.replace) {
      putSummary.run(run.summary.id, run.summary.startedAt, JSON.stringify(run.summary));
      putWords.run(run.summary.id, summaryText(run.summary));
      putMembers.run(run.summary.id, JSON.stringify(run.members));
      for (const id of run.exchangeIds) putExchange.run(id, run.summary.id);
    }
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('runs_models', ?)").run(JSON.stringify(change.models));
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('runs_format', ?)").run(RUNS_FORMAT);
    db.exec(
      "INSERT OR REPLACE INTO meta (key, value) VALUES ('runs_generation', (SELECT value FROM meta WHERE key = 'derived_generation'))",
    );
  })();
}
