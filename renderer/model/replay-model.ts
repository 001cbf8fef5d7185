// What replay needs from a run's timeline, in a shape the canvas can query per node in
// O(1) or O(log n): the ordered steps, and for every node and response the step at which
// it appears and completes, plus how much of a streamed item's text is visible.
// Built from the trace model's timeline (replay-from-timeline.ts).
export type StepKind = 'client' | 'request' | 'item_added' | 'delta' | 'item_done' | 'steer' | 'response_done';

export interface ReplayStep {
  kind: StepKind;
  /** Microseconds since the run's first request. */
  tUs: number;
  /** Position of the response in the run. */
  response: number;
  nodeId: string | null;
  label: string;
}

export interface ReplayModel {
  steps: ReplayStep[];
  /** Step at which each node becomes visible. */
  appearAt: Record<string, number>;
  /** Step at which each node is complete (Infinity while it never completes). */
  doneAt: Record<string, number>;
  /** Per streamed node: the steps that grew its text and the visible length after each. */
  growth: Record<string, { steps: number[]; chars: number[] }>;
  /** Full streamed text of nodes with growth steps: partial text is a prefix of it. */
  streamed: Record<string, string>;
  responseStartAt: number[];
  responseDoneAt: number[];
}

/** Visible characters of a streamed node at `step`; null means the whole text. */
export function partialChars(model: ReplayModel, nodeId: string, step: number): number | null {
  if ((model.doneAt[nodeId] ?? -1) <= step) return null;
  const g = model.growth[nodeId];
  if (!g) return 0;
  let lo = 0;
  let hi = g.steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (g.steps[mid]! <= step) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0 : g.chars[lo - 1]!;
}

export function isVisible(model: ReplayModel, nodeId: string, step: number): boolean {
  return (model.appearAt[nodeId] ?? Infinity) <= step;
}

export function isInProgress(model: ReplayModel, nodeId: string, step: number): boolean {
  return isVisible(model, nodeId, step) && (model.doneAt[nodeId] ?? -1) > step;
}

/** The next step after `from` that is not a text delta (an item added or done, a request, an end). */
export function nextItemStep(model: ReplayModel, from: number): number {
  for (let i = from + 1; i < model.steps.length; i++) if (model.steps[i]!.kind !== 'delta') return i;
  return Math.max(0, model.steps.length - 1);
}

export function prevItemStep(model: ReplayModel, from: number): number {
  for (let i = from - 1; i > 0; i--) if (model.steps[i]!.kind !== 'delta') return i;
  return 0;
}
