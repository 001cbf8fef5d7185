// The selected run: its detail from the API, the view built from it, what is selected in
// it, and the replay cursor. Invariant: `view` is built from `detail`, and `selection`
// names a node or response that exists in `view` (or is null).
import type { RunRecords } from '../../shared/api/types.js';
import type { RunView } from '../model/run-view.js';
import type { RunMetrics } from '../../shared/trace/metrics/run.js';
import { initialReplay, modelChanged, type ReplayState } from './replay-logic.js';

export type Selection = { kind: 'node'; id: string } | { kind: 'response'; index: number } | null;

export interface RunState {
  runId: string | null;
  detail: RunRecords | null;
  view: RunView | null;
  loading: boolean;
  error: string | null;
  selection: Selection;
  replay: ReplayState;
}

export const initialRunState: RunState = {
  runId: null,
  detail: null,
  view: null,
  loading: false,
  error: null,
  selection: null,
  replay: initialReplay,
};

export function runSelected(state: RunState, runId: string | null): RunState {
  if (runId === state.runId) return state;
  return {
    ...initialRunState,
    replay: { ...initialReplay, speed: state.replay.speed, mode: state.replay.mode },
    runId,
    loading: runId !== null,
  };
}

/** A (re)loaded detail for the selected run; answers for a run no longer selected are dropped. */
export function detailLoaded(state: RunState, detail: RunRecords, view: RunView): RunState {
  if (detail.summary.id !== state.runId) return state;
  const sameRun = state.view?.runId === view.runId;
  let selection = state.selection;
  if (selection?.kind === 'node' && !view.nodeById[selection.id]) selection = null;
  if (selection?.kind === 'response' && selection.index >= detail.responses.length) selection = null;
  return {
    ...state,
    detail,
    view,
    loading: false,
    error: null,
    selection,
    replay: modelChanged(state.replay, view.replay, sameRun),
  };
}

/** The metrics of the view shown, built after it was; dropped when another view replaced it. */
export function metricsBuilt(state: RunState, view: RunView, metrics: RunMetrics): RunState {
  if (state.view !== view) return state;
  return { ...state, view: { ...view, metrics } };
}

export function detailFailed(state: RunState, runId: string, message: string): RunState {
  if (runId !== state.runId) return state;
  return { ...state, loading: false, error: message };
}

export function select(state: RunState, selection: Selection): RunState {
  return { ...state, selection };
}

/** The run was merged into another (an in-flight response learned its id): follow it. */
export function runReplaced(state: RunState, runId: string, replacedBy: string | null): RunState {
  if (state.runId !== runId) return state;
  return replacedBy ? { ...state, runId: replacedBy, loading: true } : initialRunState;
}
