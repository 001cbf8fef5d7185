// The cursor of a runs list page: the place of its last run in the list's order (newest
// first, then by id: run-filter.ts compareRuns), written as `startedAt:id`. A place, not an
// offset, so a page starts after that run wherever the runs before it went meanwhile.
import { compareRuns } from './run-filter.js';

/** Runs per page of the runs list (a few screens of rows): what the UI asks for, and what the bench times. */
export const RUNS_PAGE = 50;

export interface RunPlace {
  id: string;
  startedAt: number;
}

export function runCursor(place: RunPlace): string {
  return `${place.startedAt}:${place.id}`;
}

/** The place a cursor names; null if it is not one runCursor made. */
export function parseRunCursor(cursor: string): RunPlace | null {
  const colon = cursor.indexOf(':');
  const startedAt = Number(cursor.slice(0, colon));
  if (colon <= 0 || !Number.isFinite(startedAt) || colon === cursor.length - 1) return null;
  return { startedAt, id: cursor.slice(colon + 1) };
}

/** Index of the first run of `ordered` (sorted by compareRuns) that comes after `place`. */
export function firstAfter(ordered: readonly RunPlace[], place: RunPlace): number {
  let lo = 0;
  let hi = ordered.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareRuns(ordered[mid]!, place) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
