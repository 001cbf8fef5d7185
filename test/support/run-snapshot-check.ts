// The run snapshot a file holds against threading every record of it anew: the same runs
// (summaries, members, links, spans) and the same run for every exchange.
import { expect } from 'vitest';
import { RunIndex } from '../../electron/core/service/run-index.js';
import type { Db } from '../../electron/core/store/db.js';
import { snapshotIsCurrent, type SnapshotRun } from '../../electron/core/store/run-snapshot.js';

export interface RunsView {
  runs: SnapshotRun[];
  /** Every exchange's run (search's, reads included). */
  runOf: Record<number, string | null>;
}

export function runsView(index: RunIndex, exchangeIds: number[]): RunsView {
  const runs = index
    .allSummaries()
    .map((s) => s.id)
    .sort()
    .map((id) => index.snapshotRun(id)!);
  for (const run of runs) run.exchangeIds.sort((a, b) => a - b);
  return { runs, runOf: Object.fromEntries(exchangeIds.map((id) => [id, index.searchRunOf(id)])) };
}

/** Asserts the file's snapshot is current and says what threading says; returns the threaded view. */
export function expectSnapshotEqualsThreading(db: Db): RunsView {
  expect(snapshotIsCurrent(db)).toBe(true);
  const ids = db.prepare('SELECT id FROM exchanges ORDER BY id').pluck().all() as number[];
  const threaded = runsView(new RunIndex(db, { snapshot: false }), ids);
  expect(runsView(new RunIndex(db), ids)).toEqual(threaded);
  return threaded;
}
