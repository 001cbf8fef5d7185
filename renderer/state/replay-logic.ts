// Replay state and its transitions. The cursor is a step index into the run's timeline;
// everything the canvas shows is a function of (model, step). Invariants after every
// transition: 0 <= step <= last (or 0 for an empty timeline); `follow` implies step == last;
// `playing` is false once the last step is reached unless following a live run.
import { nextItemStep, prevItemStep, type ReplayModel } from '../model/replay-model.js';

export type Speed = 1 | 2 | 5 | 10 | 50 | 'instant';
export const SPEEDS: readonly Speed[] = [1, 2, 5, 10, 50, 'instant'];
export type StepMode = 'item' | 'event';

export interface ReplayState {
  step: number;
  playing: boolean;
  speed: Speed;
  follow: boolean;
  mode: StepMode;
  /** Replay time spent on the current step so far, in µs of recorded time. */
  sinceUs: number;
}

/** Long silences (a human, a slow tool) are shortened to this in replay time. */
export const MAX_GAP_US = 1_500_000;

export const initialReplay: ReplayState = { step: 0, playing: false, speed: 5, follow: true, mode: 'item', sinceUs: 0 };

const last = (model: ReplayModel) => Math.max(0, model.steps.length - 1);
const clamp = (model: ReplayModel, step: number) => Math.min(Math.max(0, step), last(model));

/** A new model for the same run (it grew, live) or another run (`sameRun` false). */
export function modelChanged(state: ReplayState, model: ReplayModel, sameRun: boolean): ReplayState {
  if (!sameRun) return { ...state, step: last(model), playing: false, follow: true, sinceUs: 0 };
  if (state.follow) return { ...state, step: last(model), sinceUs: 0 };
  return { ...state, step: clamp(model, state.step) };
}

export function stepForward(state: ReplayState, model: ReplayModel): ReplayState {
  const step = state.mode === 'item' ? nextItemStep(model, state.step) : clamp(model, state.step + 1);
  return { ...state, step, playing: false, follow: false, sinceUs: 0 };
}

export function stepBack(state: ReplayState, model: ReplayModel): ReplayState {
  const step = state.mode === 'item' ? prevItemStep(model, state.step) : clamp(model, state.step - 1);
  return { ...state, step, playing: false, follow: false, sinceUs: 0 };
}

export function seek(state: ReplayState, model: ReplayModel, step: number): ReplayState {
  return { ...state, step: clamp(model, step), follow: false, sinceUs: 0 };
}

export function togglePlay(state: ReplayState, model: ReplayModel): ReplayState {
  if (state.playing) return { ...state, playing: false };
  if (state.speed === 'instant') return { ...state, step: last(model), playing: false, follow: false, sinceUs: 0 };
  // Playing from the end starts over, like any player.
  const step = state.step >= last(model) ? 0 : state.step;
  return { ...state, step, playing: model.steps.length > 1, follow: false, sinceUs: 0 };
}

export function setSpeed(state: ReplayState, speed: Speed): ReplayState {
  return { ...state, speed };
}

export function setMode(state: ReplayState, mode: StepMode): ReplayState {
  return { ...state, mode };
}

export function followLive(state: ReplayState, model: ReplayModel): ReplayState {
  return { ...state, step: last(model), follow: true, playing: false, sinceUs: 0 };
}

/** Advances a playing replay by `dtMs` of wall time at its speed, as many steps as that covers. */
export function tick(state: ReplayState, model: ReplayModel, dtMs: number): ReplayState {
  if (!state.playing) return state;
  if (state.speed === 'instant') return { ...state, step: last(model), playing: false, sinceUs: 0 };
  let { step } = state;
  let since = state.sinceUs + dtMs * 1000 * state.speed;
  while (step < last(model)) {
    const gap = Math.min(MAX_GAP_US, Math.max(0, model.steps[step + 1]!.tUs - model.steps[step]!.tUs));
    if (since < gap) break;
    since -= gap;
    step++;
  }
  const done = step >= last(model);
  return { ...state, step, sinceUs: done ? 0 : since, playing: !done };
}
