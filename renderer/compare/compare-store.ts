// Binds compare-logic.ts to React.
import { create } from 'zustand';
import type { RunComparisonResponse } from '../../shared/api/types.js';
import * as logic from './compare-logic.js';

export interface CompareStore extends logic.CompareState {
  togglePick(runId: string): void;
  clearPicks(): void;
  openCompare(openRun: string | null): void;
  closeCompare(): void;
  loaded(pair: [string, string], result: RunComparisonResponse): void;
  failed(pair: [string, string], message: string): void;
  swap(): void;
}

export const useCompareStore = create<CompareStore>()((set) => ({
  ...logic.initialCompareState,
  togglePick: (runId) => set((s) => logic.togglePick(s, runId)),
  clearPicks: () => set({ picked: [] }),
  openCompare: (openRun) => set((s) => logic.openCompare(s, openRun)),
  closeCompare: () => set({ open: false }),
  loaded: (pair, result) => set((s) => logic.comparisonLoaded(s, pair, result)),
  failed: (pair, message) => set((s) => logic.comparisonFailed(s, pair, message)),
  swap: () => set((s) => logic.swap(s)),
}));
