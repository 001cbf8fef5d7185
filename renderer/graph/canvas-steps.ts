// What the canvas reads of a new view, built in steps before the render that shows it: the
// whole run's flow (to-flow.ts), the index its window is picked by (flow-buckets.ts) and the
// minimap's paths, each kept per flow for the render to find. Built there, the three were
// one task of 100-250 ms on a 21,000-node run.
import type { RunView } from '../model/run-view.js';
import type { Steps } from '../../shared/steps.js';
import { spatialSteps } from './flow-buckets.js';
import { minimapPathsSteps } from './minimap-paths.js';
import { flowOfSteps } from './to-flow.js';

export function* canvasSteps(view: RunView): Steps<void> {
  const flow = yield* flowOfSteps(view);
  yield;
  yield* spatialSteps(flow);
  yield;
  yield* minimapPathsSteps(flow.nodes);
}
