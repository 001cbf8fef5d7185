// Which runs a list request keeps. The service matches the query against each run's full
// text; the renderer uses the same function on summaries alone to place live pushes
// before the next full list arrives, so both agree on status and model filters.
import type { RunsListRequest, RunSummary } from './types.js';

export function normalizeQuery(query: string | undefined): string {
  return (query ?? '').trim().toLowerCase();
}

/** The words of a summary that a query can match without the run's full text. */
export function summaryText(run: RunSummary): string {
  return [run.id, run.label ?? '', run.preview, ...run.models, ...run.agents, ...run.toolNames, ...run.itemTypes]
    .join('\n')
    .toLowerCase();
}

/** Every whitespace-separated term of the query must occur in the text. */
export function matchesQuery(text: string, query: string): boolean {
  const q = normalizeQuery(query);
  if (!q) return true;
  return q.split(/\s+/).every((term) => text.includes(term));
}

export function matchesFilters(run: RunSummary, request: RunsListRequest): boolean {
  if (request.status?.length && !request.status.includes(run.status)) return false;
  if (request.models?.length && !run.models.some((m) => request.models!.includes(m))) return false;
  return true;
}

/** Newest first: the run whose first request is latest comes first; ties by id for stability. */
export function compareRuns(a: Pick<RunSummary, 'id' | 'startedAt'>, b: Pick<RunSummary, 'id' | 'startedAt'>): number {
  return b.startedAt - a.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
