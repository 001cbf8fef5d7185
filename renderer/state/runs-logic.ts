// Runs list state and its transitions, as plain functions: the zustand store only binds
// them (runs-store.ts). Invariant after every transition: `ids` holds exactly the runs in
// `byId` that pass the filter, ordered newest first by compareRuns, without duplicates.
import { compareRuns, matchesFilters, matchesQuery, summaryText } from '../../shared/api/run-filter.js';
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
  models: string[];
  filter: RunFilter;
  /** The filter the last list answered; pushes are matched against it until the next list. */
  loaded: boolean;
  error: string | null;
}

export const EMPTY_FILTER: RunFilter = { query: '', status: [], models: [] };

export const initialRunsState: RunsState = { byId: {}, ids: [], total: 0, models: [], filter: EMPTY_FILTER, loaded: false, error: null };

export function listRequest(filter: RunFilter): RunsListRequest {
  const req: RunsListRequest = {};
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
  return { ...state, byId, ids: res.runs.map((r) => r.id), total: res.total, models: res.models, loaded: true, error: null };
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
    matchesFilters(run, listRequest(state.filter)) && (shown || !state.filter.query || matchesQuery(summaryText(run), state.filter.query));
  let ids = shown ? state.ids.filter((id) => id !== run.id) : state.ids;
  if (visible) ids = insertSorted(ids, run, byId);
  const models = run.models.some((m) => !state.models.includes(m)) ? [...new Set([...state.models, ...run.models])].sort() : state.models;
  return { ...state, byId, ids, total: old ? state.total : state.total + 1, models };
}

export function runRemoved(state: RunsState, runId: string): RunsState {
  if (!state.byId[runId]) return state;
  const byId = { ...state.byId };
  delete byId[runId];
  return { ...state, byId, ids: state.ids.filter((id) => id !== runId), total: Math.max(0, state.total - 1) };
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
