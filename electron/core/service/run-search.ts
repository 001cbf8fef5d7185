// The runs a list query matches, and where in them. Every term of the query must be found
// somewhere in a run. A run's summary (id, label, models, agents, tool names, item types,
// preview) is matched in memory; its items are matched through the full-text index
// (electron/core/store/search-index.ts), which holds each text of the recording once, whole,
// so a term in the fiftieth turn of a long run is found as surely as one in the first.
// Responses not derived yet are not in the index and are matched from memory.
//
// A recording without the index (one from before schema v4, opened read-only) is
// scanned as before: each run's text read back from its records, cut at 400,000 characters.
//
// The trigram index answers terms of 3 characters or more; shorter ones match the
// summary only, where a scan of every text would match nearly every run anyway.
import type { Statement } from 'better-sqlite3';
import { matchesQuery } from '../../../shared/api/run-filter.js';
import { SEARCH_HITS_PER_RUN, type SearchHit } from '../../../shared/api/types.js';
import { itemNodeId } from '../../../shared/trace/node-id.js';
import { itemSearchText } from '../../../shared/trace/search-text.js';
import type { ResponseRecord } from '../../../shared/trace/types.js';
import { hasTable, type Db } from '../store/db.js';
import type { RunIndex } from './run-index.js';

export const MIN_INDEXED_TERM = 3;

/** A match: [run id, text id, exchange id, response id, node id]. */
type HitRow = [string, number, number, string, string | null];

// The index's matches with their runs. While the file's snapshot answers, its run_exchanges
// table maps each match to its run in SQL (a generation later than the snapshot's is not
// its), so which runs hold a term costs a pass in SQLite over the matches, and only the
// page's runs send their matches to JS. Otherwise the matches come to JS and the run index
// maps them in memory.
const MATCHES = 'search_text s JOIN search_refs r ON r.text_id = s.rowid';
const IN_SNAPSHOT = 'JOIN run_exchanges e ON e.exchange_id = r.exchange_id AND e.generation <= ?';

export class FullTextSearch {
  private readonly refs;
  /** Null in a file from before the snapshot, which has no run_exchanges. */
  private readonly inSnapshot: { runsWith: Statement; hitsIn: Statement } | null;

  private constructor(db: Db) {
    this.refs = db
      .prepare(
        `SELECT NULL, r.text_id, r.exchange_id, r.response_id, r.node_id FROM ${MATCHES} WHERE search_text MATCH ?`,
      )
      .raw();
    this.inSnapshot = hasTable(db, 'run_exchanges')
      ? {
          runsWith: db
            .prepare(`SELECT DISTINCT e.run_id FROM ${MATCHES} ${IN_SNAPSHOT} WHERE search_text MATCH ?`)
            .pluck(),
          hitsIn: db
            .prepare(
              // A text's first exchange in each run (with min(), SQLite takes the other columns from that row):
              // a text every exchange resends comes to JS once a run.
              `SELECT e.run_id, r.text_id, min(r.exchange_id), r.response_id, r.node_id FROM ${MATCHES} ${IN_SNAPSHOT}
               WHERE search_text MATCH ? AND e.run_id IN (SELECT value FROM json_each(?)) GROUP BY e.run_id, r.text_id`,
            )
            .raw(),
        }
      : null;
  }

  /** Null for a recording without the index. */
  static of(db: Db): FullTextSearch | null {
    return hasTable(db, 'search_text') ? new FullTextSearch(db) : null;
  }

  /**
   * The runs holding the term (at least MIN_INDEXED_TERM characters) in an item, and a
   * way to list those items for some of them: each exchange's first item with that text.
   */
  find(term: string, index: RunIndex): { runs: Set<string>; hitsIn(runIds: Set<string>): HitRow[] } {
    const phrase = `"${term.replace(/"/g, '""')}"`;
    const generation = index.searchGeneration();
    if (generation !== null && this.inSnapshot) {
      const { runsWith, hitsIn } = this.inSnapshot;
      return {
        runs: new Set(runsWith.all(generation, phrase) as string[]),
        hitsIn: (runIds) => hitsIn.all(generation, phrase, JSON.stringify([...runIds])) as HitRow[],
      };
    }
    const rows = (this.refs.all(phrase) as HitRow[]).filter((row) => {
      const runId = index.searchRunOf(row[2]);
      if (runId !== null) row[0] = runId;
      return runId !== null;
    });
    return { runs: new Set(rows.map((row) => row[0])), hitsIn: (runIds) => rows.filter((row) => runIds.has(row[0])) };
  }
}

export interface SearchResult<Run> {
  runs: Run[];
  /** Where these runs (those of `runs` a page shows) hold the terms, by run; found only for them. */
  hitsOf(runIds: string[]): Record<string, SearchHit[]>;
}

interface Found {
  terms: Set<number>;
  hits: Map<string, SearchHit>;
}

/**
 * The candidates (runs or their places in the list) that hold every term of `query`, in
 * their order. `query` is normalized (run-filter.ts normalizeQuery): trimmed,
 * lower-cased, non-empty. Which runs match is decided for the whole list (the count is
 * exact); the items they match at are read for the runs a page shows.
 */
export function searchRuns<Run extends { id: string }>(
  candidates: Run[],
  query: string,
  index: RunIndex,
  fts: FullTextSearch | null,
): SearchResult<Run> {
  if (!fts) return { runs: candidates.filter((run) => matchesQuery(index.text(run.id), query)), hitsOf: () => ({}) };
  const terms = query.split(/\s+/);
  const bySummary = terms.map((term) => index.runsWithSummaryTerm(term));
  // A term every run's summary holds (a tool name, a model) needs no look-up: it would
  // only list items, and a term that common would list nearly all of them.
  const byItems = terms.map((term, t) =>
    indexable(term) && !candidates.every((run) => bySummary[t]!.has(run.id)) ? fts.find(term, index) : null,
  );
  const underived = new Map<string, Found>();
  for (const [runId, records] of index.underived()) {
    const found: Found = { terms: new Set(), hits: new Map() };
    matchUnderived(records, terms, found);
    underived.set(runId, found);
  }
  const runs = candidates.filter((run) =>
    terms.every(
      (_, t) => bySummary[t]!.has(run.id) || byItems[t]?.runs.has(run.id) || underived.get(run.id)?.terms.has(t),
    ),
  );
  return {
    runs,
    hitsOf(runIds) {
      const found = new Map<string, Map<string, SearchHit>>(
        runIds.map((id) => [id, new Map(underived.get(id)?.hits ?? [])]),
      );
      const wanted = new Set(runIds);
      for (const lookUp of byItems) {
        for (const [runId, textId, exchangeId, responseId, nodeId] of lookUp?.hitsIn(wanted) ?? []) {
          const hits = found.get(runId)!;
          const key = `t${textId}`;
          const seen = hits.get(key);
          if (!seen || exchangeId < seen.exchangeId) hits.set(key, { exchangeId, responseId, nodeId });
        }
      }
      const out: Record<string, SearchHit[]> = {};
      for (const [runId, hits] of found) {
        const list = firstAppearances([...hits.values()]);
        if (list.length) out[runId] = list.slice(0, SEARCH_HITS_PER_RUN);
      }
      return out;
    },
  };
}

/** In the order the run carried them; an item found in the index and again in a response not derived yet, once. */
function firstAppearances(hits: SearchHit[]): SearchHit[] {
  hits.sort((a, b) => a.exchangeId - b.exchangeId);
  const nodes = new Set<string>();
  return hits.filter((h) => {
    if (h.nodeId === null) return true;
    if (nodes.has(h.nodeId)) return false;
    nodes.add(h.nodeId);
    return true;
  });
}

function indexable(term: string): boolean {
  return [...term].length >= MIN_INDEXED_TERM;
}

/** Matches responses the index does not hold yet the way the index would. */
function matchUnderived(records: ResponseRecord[], terms: string[], into: Found): void {
  for (const r of records) {
    const texts: Array<[string, string | null]> = [];
    r.request.input.forEach((item, i) =>
      texts.push([itemSearchText(item), itemNodeId(item, r.responseId, 'input', i)]),
    );
    r.output.forEach((item, i) => texts.push([itemSearchText(item), itemNodeId(item, r.responseId, 'output', i)]));
    if (r.error) texts.push([r.error.message, null]);
    for (const [text, nodeId] of texts) {
      const lower = text.toLowerCase();
      terms.forEach((term, t) => {
        if (!indexable(term) || !lower.includes(term)) return;
        into.terms.add(t);
        const key = `n${r.exchangeId}:${nodeId ?? r.responseId}`;
        if (!into.hits.has(key)) into.hits.set(key, { exchangeId: r.exchangeId, responseId: r.responseId, nodeId });
      });
    }
  }
}
