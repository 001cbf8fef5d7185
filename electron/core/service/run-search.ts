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
import { matchesQuery } from '../../../shared/api/run-filter.js';
import { SEARCH_HITS_PER_RUN, type SearchHit } from '../../../shared/api/types.js';
import { itemNodeId } from '../../../shared/trace/node-id.js';
import { itemSearchText } from '../../../shared/trace/search-text.js';
import type { ResponseRecord } from '../../../shared/trace/types.js';
import { hasTable, type Db } from '../store/db.js';
import type { RunIndex } from './run-index.js';

export const MIN_INDEXED_TERM = 3;

interface RefRow {
  textId: number;
  exchangeId: number;
  responseId: string;
  nodeId: string | null;
}

export class FullTextSearch {
  private readonly refs;

  private constructor(db: Db) {
    this.refs = db.prepare(
      `SELECT text_id AS textId, exchange_id AS exchangeId, response_id AS responseId, node_id AS nodeId
       FROM search_refs WHERE text_id IN (SELECT rowid FROM search_text WHERE search_text MATCH ?)`,
    );
  }

  /** Null for a recording without the index. */
  static of(db: Db): FullTextSearch | null {
    return hasTable(db, 'search_text') ? new FullTextSearch(db) : null;
  }

  /** Every exchange's first item whose text holds the term (at least MIN_INDEXED_TERM characters). */
  find(term: string): RefRow[] {
    return this.refs.all(`"${term.replace(/"/g, '""')}"`) as RefRow[];
  }
}

export interface SearchResult<Run> {
  runs: Run[];
  hits: Record<string, SearchHit[]>;
}

/**
 * The candidates (runs or their places in the list) that hold every term of `query`, in
 * their order. `query` is normalized (run-filter.ts normalizeQuery): trimmed,
 * lower-cased, non-empty.
 */
export function searchRuns<Run extends { id: string }>(
  candidates: Run[],
  query: string,
  index: RunIndex,
  fts: FullTextSearch | null,
): SearchResult<Run> {
  if (!fts) return { runs: candidates.filter((run) => matchesQuery(index.text(run.id), query)), hits: {} };
  const terms = query.split(/\s+/);
  const found = new Map<string, { terms: Set<number>; hits: Map<string, SearchHit> }>();
  const entry = (runId: string) => {
    let e = found.get(runId);
    if (!e) found.set(runId, (e = { terms: new Set(), hits: new Map() }));
    return e;
  };
  const bySummary = terms.map((term) => index.runsWithSummaryTerm(term));
  terms.forEach((term, t) => {
    // A term every run's summary holds (a tool name, a model) needs no look-up: it would
    // only list items, and a term that common would list nearly all of them.
    if (!indexable(term) || candidates.every((run) => bySummary[t]!.has(run.id))) return;
    for (const row of fts.find(term)) {
      const runId = index.searchRunOf(row.exchangeId);
      if (runId === null) continue;
      const e = entry(runId);
      e.terms.add(t);
      const key = `t${row.textId}`;
      const seen = e.hits.get(key);
      if (!seen || row.exchangeId < seen.exchangeId)
        e.hits.set(key, { exchangeId: row.exchangeId, responseId: row.responseId, nodeId: row.nodeId });
    }
  });
  for (const [runId, records] of index.underived()) matchUnderived(records, terms, entry(runId));
  const runs = candidates.filter((run) => {
    const e = found.get(run.id);
    return terms.every((_, t) => bySummary[t]!.has(run.id) || e?.terms.has(t));
  });
  const hits: Record<string, SearchHit[]> = {};
  for (const run of runs) {
    const list = firstAppearances([...(found.get(run.id)?.hits.values() ?? [])]);
    if (list.length) hits[run.id] = list.slice(0, SEARCH_HITS_PER_RUN);
  }
  return { runs, hits };
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
function matchUnderived(
  records: ResponseRecord[],
  terms: string[],
  into: { terms: Set<number>; hits: Map<string, SearchHit> },
): void {
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
