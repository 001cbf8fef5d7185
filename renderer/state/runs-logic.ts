// Runs list state and its transitions, as plain functions: the zustand store only binds
// them (runs-store.ts). Invariant after every transition: `ids` holds the runs in `byId`
// that pass the filter, ordered newest first by compareRuns, without duplicates, up to
// the last page loaded: the list comes a page at a time (runsPage), as it is scrolled.
import { compareRuns, matchesFilters, matchesQuery, summaryText } from '../../shared/api/run-filter.js';
import { RUNS_PAGE } from '../../shared/api/run-cursor.js';
import type { RunsListRequest, RunsListResponse, RunStatus, RunSummary } from '../../shared/api/types.js';

export interface RunFilter {
  query: string;
  status: RunStatus[];
  models: string[];
}

export interface RunsState {
  byId: Record<string, RunSummary>;
  ids: string[];
  /** Runs in the recording, before filtering. */
  total: number;
  /** Runs the filter matches, loaded or not. */
  matched: number;
  /** Where the next page starts; null once the last is loaded. */
  nextCursor: string | null;
  models: string[];
  filter: RunFilter;
  /** The filter the last list answered; pushes are matched against it until the next list. */
  loaded: boolean;
  error: string | null;
}

export const EMPTY_FILTER: RunFilter = { query: '', status: [], models: [] };

export const initialRunsState: RunsState = {
  byId: {},
  ids: [],
  total: 0,
  matched: 0,
  nextCursor: null,
  models: [],
  filter: EMPTY_FILTER,
  loaded: false,
  error: null,
};

/** The first page's request for a filter; `cursor` asks for the page after it. */
export function listRequest(filter: RunFilter, cursor?: string): RunsListRequest {
  const req: RunsListRequest = { limit: RUNS_PAGE };
  if (cursor !== undefined) req.cursor = cursor;
  if (filter.query.trim()) req.query = filter.query.trim();
  if (filter.status.length) req.status = filter.status;
  if (filter.models.length) req.models = filter.models;
  return req;
}

export function sameFilter(a: RunFilter, b: RunFilter): boolean {
  return a.query === b.query && a.status.join() === b.status.join() && a.models.join() === b.models.join();
}

/** A list answer for `asked`; ignored when the filter moved on while it was in flight. */
export function listLoaded(state: RunsState, asked: RunFilter, res: RunsListResponse): RunsState {
  if (!sameFilter(asked, state.filter)) return state;
  const byId: Record<string, RunSummary> = {};
  for (const run of res.runs) byId[run.id] = run;
  return {
    ...state,
    byId,
    ids: res.runs.map((r) => r.id),
    total: res.total,
    matched: res.matched,
    nextCursor: res.nextCursor,
    models: res.models,
    loaded: true,
    error: null,
  };
}

/**
 * The page after `cursor`, appended; ignored unless it is the page the list waits for.
 * A run pushed meanwhile keeps the newer of its two summaries, and is listed once.
 */
export function pageLoaded(state: RunsState, asked: RunFilter, cursor: string, res: RunsListResponse): RunsState {
  if (!sameFilter(asked, state.filter) || state.nextCursor !== cursor) return state;
  const byId = { ...state.byId };
  const ids = [...state.ids];
  for (const run of res.runs) {
    const old = byId[run.id];
    if (!old || old.revision < run.revision) byId[run.id] = run;
    if (!old || !state.ids.includes(run.id)) ids.push(run.id);
  }
  ids.sort((a, b) => compareRuns(byId[a]!, byId[b]!));
  return {
    ...state,
    byId,
    ids,
    total: res.total,
    matched: res.matched,
    nextCursor: res.nextCursor,
    models: res.models,
  };
}

export function listFailed(state: RunsState, message: string): RunsState {
  return { ...state, error: message };
}

/**
 * A pushed summary. Visibility without the run's full text: a run already shown stays
 * shown (the server matched its text); a new one is shown when its summary matches.
 * The controller refetches the list soon after when a query is active.
 */
export function runUpdated(state: RunsState, run: RunSummary): RunsState {
  const old = state.byId[run.id];
  if (old && old.revision >= run.revision) return state;
  const byId = { ...state.byId, [run.id]: run };
  const shown = state.ids.includes(run.id);
  const visible =
    matchesFilters(run, listRequest(state.filter)) &&
    (shown || !state.filter.query || matchesQuery(summaryText(run), state.filter.query));
  let ids = shown ? state.ids.filter((id) => id !== run.id) : state.ids;
  // A run that falls after the last page loaded is listed when its page is.
  const last = state.ids[state.ids.length - 1];
  const beyond = state.nextCursor !== null && last !== undefined && compareRuns(run, state.byId[last]!) > 0;
  if (visible && (shown || !beyond)) ids = insertSorted(ids, run, byId);
  const models = run.models.some((m) => !state.models.includes(m))
    ? [...new Set([...state.models, ...run.models])].sort()
    : state.models;
  const matched = state.matched + (visible && !shown && !old ? 1 : 0) - (shown && !visible ? 1 : 0);
  return { ...state, byId, ids, total: old ? state.total : state.total + 1, matched, models };
}

export function runRemoved(state: RunsState, runId: string): RunsState {
  if (!state.byId[runId]) return state;
  const byId = { ...state.byId };
  delete byId[runId];
  const shown = state.ids.includes(runId);
  return {
    ...state,
    byId,
    ids: state.ids.filter((id) => id !== runId),
    total: Math.max(0, state.total - 1),
    matched: Math.max(0, state.matched - (shown ? 1 : 0)),
  };
}

export function filterChanged(state: RunsState, patch: Partial<RunFilter>): RunsState {
  const filter = { ...state.filter, ...patch };
  return sameFilter(filter, state.filter) ? state : { ...state, filter };
}

function insertSorted(ids: string[], run: RunSummary, byId: Record<string, RunSummary>): string[] {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareRuns(byId[ids[mid]!]!, run) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return [...ids.slice(0, lo), run.id, ...ids.slice(lo)];
}
