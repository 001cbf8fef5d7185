// Binds runs-logic.ts to React. Rows subscribe to their own summary by id.
import { create } from 'zustand';
import type { RunsListResponse, RunSummary } from '../../shared/api/types.js';
import * as logic from './runs-logic.js';

export interface RunsStore extends logic.RunsState {
  listLoaded(asked: logic.RunFilter, res: RunsListResponse): void;
  pageLoaded(asked: logic.RunFilter, cursor: string, res: RunsListResponse): void;
  listFailed(message: string): void;
  runUpdated(run: RunSummary): void;
  runRemoved(runId: string): void;
  setFilter(patch: Partial<logic.RunFilter>): void;
  reset(): void;
}

export const useRunsStore = create<RunsStore>()((set) => ({
  ...logic.initialRunsState,
  listLoaded: (asked, res) => set((s) => logic.listLoaded(s, asked, res)),
  pageLoaded: (asked, cursor, res) => set((s) => logic.pageLoaded(s, asked, cursor, res)),
  listFailed: (message) => set((s) => logic.listFailed(s, message)),
  runUpdated: (run) => set((s) => logic.runUpdated(s, run)),
  runRemoved: (runId) => set((s) => logic.runRemoved(s, runId)),
  setFilter: (patch) => set((s) => logic.filterChanged(s, patch)),
  reset: () => set((s) => ({ ...logic.initialRunsState, filter: s.filter })),
}));
