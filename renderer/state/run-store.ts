// Binds run-logic.ts and replay-logic.ts to React. Components select narrow slices
// (one node's visibility, the step number) so a replay step re-renders only what changed.
import { create } from 'zustand';
import type { RunRecords } from '../../shared/api/types.js';
import type { RunView } from '../model/run-view.js';
import type { RunMetrics } from '../../shared/trace/metrics/run.js';
import * as replay from './replay-logic.js';
import * as logic from './run-logic.js';

export interface RunStore extends logic.RunState {
  selectRun(runId: string | null): void;
  loaded(detail: RunRecords, view: RunView): void;
  metricsBuilt(view: RunView, metrics: RunMetrics): void;
  failed(runId: string, message: string): void;
  replaced(runId: string, replacedBy: string | null): void;
  select(selection: logic.Selection): void;
  stepForward(): void;
  stepBack(): void;
  seek(step: number): void;
  togglePlay(): void;
  setSpeed(speed: replay.Speed): void;
  setMode(mode: replay.StepMode): void;
  followLive(): void;
  tick(dtMs: number): void;
}

export const useRunStore = create<RunStore>()((set, get) => {
  const withModel =
    (fn: (s: replay.ReplayState, m: NonNullable<logic.RunState['view']>['replay']) => replay.ReplayState) => () => {
      const { view, replay: r } = get();
      if (view) set({ replay: fn(r, view.replay) });
    };
  return {
    ...logic.initialRunState,
    selectRun: (runId) => set((s) => logic.runSelected(s, runId)),
    loaded: (detail, view) => set((s) => logic.detailLoaded(s, detail, view)),
    metricsBuilt: (view, metrics) => set((s) => logic.metricsBuilt(s, view, metrics)),
    failed: (runId, message) => set((s) => logic.detailFailed(s, runId, message)),
    replaced: (runId, replacedBy) => set((s) => logic.runReplaced(s, runId, replacedBy)),
    select: (selection) => set((s) => logic.select(s, selection)),
    stepForward: withModel(replay.stepForward),
    stepBack: withModel(replay.stepBack),
    seek: (step) => withModel((s, m) => replay.seek(s, m, step))(),
    togglePlay: withModel(replay.togglePlay),
    setSpeed: (speed) => set((s) => ({ replay: replay.setSpeed(s.replay, speed) })),
    setMode: (mode) => set((s) => ({ replay: replay.setMode(s.replay, mode) })),
    followLive: withModel(replay.followLive),
    tick: (dtMs) => withModel((s, m) => replay.tick(s, m, dtMs))(),
  };
});
