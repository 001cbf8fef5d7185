// The replay timeline of a run: ordered steps the view can be rebuilt from. Per response:
// request sent (its new input items appear), client/tool time before it, items added,
// runs of deltas coalesced per item, items done, response done. Times are µs since the
// run's first request. Streams give the in-between steps; a JSON answer shows all its
// items at once when it ends.
import type { RunGraph } from '../graph/types.js';
import { streamedText } from '../item-text.js';
import { eventUs, recordEndUs, recordStartUs } from '../record-time.js';
import type { Run } from '../thread/thread.js';
import { runSteps, type Steps } from '../../steps.js';
import type { ResponseRecord } from '../types.js';

export type TimelineStep =
  | { kind: 'client'; tUs: number; response: number; fromResponse: number; durationUs: number }
  | { kind: 'request'; tUs: number; response: number; nodes: string[] }
  | { kind: 'item_added'; tUs: number; response: number; node: string }
  /** Consecutive deltas of one item; `chars` is the item's streamed length after them. */
  | { kind: 'delta'; tUs: number; endUs: number; response: number; node: string; events: number; chars: number }
  | { kind: 'item_done'; tUs: number; response: number; node: string }
  | { kind: 'steer'; tUs: number; response: number; event: string }
  /** Every output node is visible and finished from here on (a JSON answer shows them only now). */
  | { kind: 'response_done'; tUs: number; response: number; status: string; nodes: string[] };

export interface Timeline {
  runId: string;
  /** Epoch µs of the run's first request: step times count from it. */
  startUs: number;
  steps: TimelineStep[];
  /** Every node of the graph in graph order. */
  nodes: string[];
  /** The full streamed text of each node that has delta steps; partial text is a prefix of it. */
  streamed: Record<string, string>;
}

/** A response still running has no end yet: its items stay in progress until it ends. */
const OPEN: ReadonlySet<string> = new Set(['in_progress', 'queued']);

export function buildTimeline(run: Run, graph: RunGraph): Timeline {
  return runSteps(buildTimelineSteps(run, graph));
}

/** Responses taken between yields: 3,000 responses' steps, sorted, were one 100 ms task. */
const RESPONSES_PER_STEP = 200;

/** buildTimeline, yielding every RESPONSES_PER_STEP responses and between its passes. */
export function* buildTimelineSteps(run: Run, graph: RunGraph): Steps<Timeline> {
  const t0 = run.responses.reduce((min, r) => Math.min(min, recordStartUs(r)), Infinity);
  const startUs = Number.isFinite(t0) ? t0 : 0;
  const steps: TimelineStep[] = [];
  for (let i = 0; i < run.responses.length; i++) {
    if (i % RESPONSES_PER_STEP === RESPONSES_PER_STEP - 1) yield;
    const record = run.responses[i]!;
    const nodes = graph.responses[i];
    if (nodes === undefined) continue;
    const parent = run.links[i]?.parent ?? null;
    const start = recordStartUs(record) - startUs;
    const parentRecord = parent === null ? undefined : run.responses[parent];
    if (parentRecord !== undefined) {
      const gap = recordStartUs(record) - recordEndUs(parentRecord);
      if (gap > 0)
        steps.push({ kind: 'client', tUs: start - gap, response: i, fromResponse: parent ?? i, durationUs: gap });
    }
    const outputSet = new Set(nodes.output);
    steps.push({ kind: 'request', tUs: start, response: i, nodes: nodes.created.filter((id) => !outputSet.has(id)) });
    for (const step of responseSteps(record, i, nodes.output, startUs)) steps.push(step);
  }
  yield;
  // Stable: steps of one response keep their order when times tie.
  const order = steps.map((s, i) => ({ s, i })).sort((a, b) => a.s.tUs - b.s.tUs || a.i - b.i);
  yield;
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const streamed: Record<string, string> = {};
  for (const step of steps) {
    if (step.kind !== 'delta' || streamed[step.node] !== undefined) continue;
    const node = byId.get(step.node);
    if (node !== undefined) streamed[step.node] = streamedText(node.item.raw);
  }
  return { runId: run.id, startUs, steps: order.map((o) => o.s), nodes: graph.nodes.map((n) => n.id), streamed };
}

function responseSteps(record: ResponseRecord, i: number, output: string[], startUs: number): TimelineStep[] {
  const steps: TimelineStep[] = [];
  let run: Extract<TimelineStep, { kind: 'delta' }> | null = null;
  const chars = new Map<string, number>();
  for (const e of record.events) {
    const tUs = eventUs(record, e.tUs) - startUs;
    const node = e.outputIndex === undefined ? undefined : output[e.outputIndex];
    if (e.type === 'response.steer' || e.type.startsWith('response.steer.') || e.type.startsWith('response.inject')) {
      steps.push({ kind: 'steer', tUs, response: i, event: e.type });
      continue;
    }
    if (node === undefined) continue;
    if (e.type === 'response.output_item.added') {
      run = null;
      steps.push({ kind: 'item_added', tUs, response: i, node });
    } else if (e.type === 'response.output_item.done') {
      run = null;
      steps.push({ kind: 'item_done', tUs, response: i, node });
    } else if (e.type.endsWith('.delta')) {
      const total = (chars.get(node) ?? 0) + (e.chars ?? 0);
      chars.set(node, total);
      if (run !== null && run.node === node) {
        run.events++;
        run.endUs = tUs;
        run.chars = total;
      } else {
        run = { kind: 'delta', tUs, endUs: tUs, response: i, node, events: 1, chars: total };
        steps.push(run);
      }
    }
  }
  if (!OPEN.has(record.status))
    steps.push({
      kind: 'response_done',
      tUs: recordEndUs(record) - startUs,
      response: i,
      status: record.status,
      nodes: output,
    });
  return steps;
}
