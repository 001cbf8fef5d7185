// The trace model's timeline (shared/trace/timeline/timeline.ts) as the replay model the canvas
// queries. One pass over the steps. The timeline coalesces a run of deltas of one item into
// one step; here such a run is split into a few sub-steps spread over its time span, so
// text visibly streams in when replayed (the end of each run is exact, the middle is
// interpolated: the timeline keeps no per-delta sizes).
import type { GraphNode } from '../../shared/trace/graph/types.js';
import type { Timeline } from '../../shared/trace/timeline/timeline.js';
import type { ReplayModel, ReplayStep } from './replay-model.js';
import { runSteps, type Steps } from '../../shared/steps.js';

const MAX_SUBSTEPS = 12;

export function replayFromTimeline(timeline: Timeline, nodes: Record<string, GraphNode>): ReplayModel {
  return runSteps(replayFromTimelineSteps(timeline, nodes));
}

/** Timeline steps taken between yields. */
const STEPS_PER_STEP = 5_000;

/** replayFromTimeline, yielding every STEPS_PER_STEP timeline steps. */
export function* replayFromTimelineSteps(timeline: Timeline, nodes: Record<string, GraphNode>): Steps<ReplayModel> {
  const m: ReplayModel = {
    steps: [],
    appearAt: {},
    doneAt: {},
    growth: {},
    streamed: timeline.streamed,
    responseStartAt: [],
    responseDoneAt: [],
  };
  const label = (id: string) => nodes[id]?.label ?? id;
  const chars = new Map<string, number>();
  const push = (step: ReplayStep) => m.steps.push(step) - 1;
  const appear = (id: string, s: number) => {
    m.appearAt[id] ??= s;
    m.doneAt[id] ??= Infinity;
  };

  for (let at = 0; at < timeline.steps.length; at++) {
    if (at % STEPS_PER_STEP === STEPS_PER_STEP - 1) yield;
    const step = timeline.steps[at]!;
    switch (step.kind) {
      case 'client':
        push({
          kind: 'client',
          tUs: step.tUs,
          response: step.response,
          nodeId: null,
          label: `client & tools: ${(step.durationUs / 1e6).toFixed(2)} s`,
        });
        break;
      case 'request': {
        const s = push({
          kind: 'request',
          tUs: step.tUs,
          response: step.response,
          nodeId: null,
          label: `request ${step.response + 1} sent`,
        });
        m.responseStartAt[step.response] ??= s;
        for (const id of step.nodes) {
          appear(id, s);
          if (m.doneAt[id] === Infinity) m.doneAt[id] = s;
        }
        break;
      }
      case 'item_added':
        appear(
          step.node,
          push({
            kind: 'item_added',
            tUs: step.tUs,
            response: step.response,
            nodeId: step.node,
            label: label(step.node),
          }),
        );
        break;
      case 'delta': {
        const from = chars.get(step.node) ?? 0;
        const parts = Math.max(1, Math.min(MAX_SUBSTEPS, step.events));
        for (let k = 1; k <= parts; k++) {
          const tUs = step.tUs + ((step.endUs - step.tUs) * (k - 1)) / Math.max(1, parts - 1);
          const s = push({
            kind: 'delta',
            tUs,
            response: step.response,
            nodeId: step.node,
            label: `streaming: ${label(step.node)}`,
          });
          appear(step.node, s);
          const g = (m.growth[step.node] ??= { steps: [], chars: [] });
          g.steps.push(s);
          g.chars.push(k === parts ? step.chars : Math.round(from + ((step.chars - from) * k) / parts));
        }
        chars.set(step.node, step.chars);
        break;
      }
      case 'item_done': {
        const s = push({
          kind: 'item_done',
          tUs: step.tUs,
          response: step.response,
          nodeId: step.node,
          label: `done: ${label(step.node)}`,
        });
        appear(step.node, s);
        m.doneAt[step.node] = s;
        break;
      }
      case 'steer':
        push({ kind: 'steer', tUs: step.tUs, response: step.response, nodeId: null, label: step.event });
        break;
      case 'response_done': {
        const s = push({
          kind: 'response_done',
          tUs: step.tUs,
          response: step.response,
          nodeId: null,
          label: `response ${step.response + 1} ${step.status}`,
        });
        m.responseDoneAt[step.response] = s;
        for (const id of step.nodes) {
          appear(id, s);
          if (m.doneAt[id] === Infinity) m.doneAt[id] = s;
        }
        break;
      }
    }
  }
  return m;
}
