// What the view shows at one step of the timeline: the nodes visible so far, the ones
// still streaming, and how much of each streaming item's text had arrived. Rebuilt by
// replaying steps from the start, so any step can be reached directly (scrubbing).
import type { Timeline } from './timeline.js';

export interface ViewState {
  /** The step shown (inclusive); -1 is before anything happened. */
  step: number;
  tUs: number;
  /** Visible node ids, in graph order. */
  visible: string[];
  /** Visible nodes whose item has not finished. */
  inProgress: string[];
  /** Text (or arguments) received so far, for items that have not finished. */
  partial: Record<string, string>;
  /** Responses whose request was sent and that have not ended. */
  activeResponses: number[];
}

export function stateAt(timeline: Timeline, step: number): ViewState {
  const last = Math.min(step, timeline.steps.length - 1);
  const visible = new Set<string>();
  const open = new Set<string>();
  const chars = new Map<string, number>();
  const active = new Set<number>();
  let tUs = 0;
  for (let i = 0; i <= last; i++) {
    const s = timeline.steps[i];
    if (s === undefined) continue;
    tUs = s.tUs;
    switch (s.kind) {
      case 'request':
        active.add(s.response);
        for (const id of s.nodes) visible.add(id);
        break;
      case 'item_added':
        visible.add(s.node);
        open.add(s.node);
        break;
      case 'delta':
        visible.add(s.node);
        open.add(s.node);
        chars.set(s.node, s.chars);
        break;
      case 'item_done':
        visible.add(s.node);
        open.delete(s.node);
        break;
      case 'response_done':
        active.delete(s.response);
        for (const id of s.nodes) {
          visible.add(id);
          open.delete(id);
        }
        break;
      case 'client':
      case 'steer':
        break;
    }
  }
  const partial: Record<string, string> = {};
  for (const id of open) {
    const n = chars.get(id);
    if (n !== undefined) partial[id] = (timeline.streamed[id] ?? '').slice(0, n);
  }
  const inGraphOrder = (set: Set<string>) => timeline.nodes.filter((id) => set.has(id));
  return { step: last, tUs, visible: inGraphOrder(visible), inProgress: inGraphOrder(open), partial, activeResponses: [...active].sort((a, b) => a - b) };
}
