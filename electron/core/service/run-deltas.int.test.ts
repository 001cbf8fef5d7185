// Live runs by delta (ADR 33): a stateless agent loop through the real proxy with the
// openai SDK, the service watching the live recording. After every turn, and while a turn
// is still streaming, the renderer's way (a delta from the settled responses it holds,
// applied to what it holds) gives the same run, and the same views, as fetching the whole
// run again: graph nodes and edges, layout, replay timeline and metrics.
import type { Response, ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandRun } from '../../../shared/api/run-expand.js';
import type { RunRecords } from '../../../shared/api/types.js';
import { exportGraph } from '../../../shared/export/export-json.js';
import { buildRunGraph } from '../../../shared/trace/graph/graph.js';
import { layoutRun } from '../../../shared/trace/layout/layout.js';
import { runMetrics } from '../../../shared/trace/metrics/run.js';
import { buildTimeline } from '../../../shared/trace/timeline/timeline.js';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import { createService, type LoupeService } from './service.js';

let h: Harness;
let service: LoupeService;
beforeAll(async () => {
  h = await startHarness();
  service = createService({ core: h.core, livePollMs: 20 });
});
afterAll(async () => {
  await service.close();
  await h.close();
});

const RUN = 'label:deltas';

/** What the views are built from a run: the export's graph, the layout, the timeline and the metrics. */
function views(run: RunRecords) {
  const r = { id: run.summary.id, label: run.summary.label, responses: run.responses, links: run.links };
  const graph = buildRunGraph(r, run.agentSpans);
  const layout = layoutRun(graph, {
    nodeWidth: 200,
    nodeHeight: 60,
    gapX: 20,
    gapY: 20,
    groupPadding: 8,
    maxColumns: 6,
  });
  return {
    graph: exportGraph(graph),
    layout,
    timeline: buildTimeline(r, graph),
    metrics: runMetrics(r, graph, run.prices),
  };
}

describe('live run deltas', () => {
  it('applied to the run held, give the views a full rebuild gives, at every step', async () => {
    let held: RunRecords | null = null;
    let settled = 0;
    const steps: Array<{ from: number; responses: number; items: number }> = [];
    let inFlight = 0;
    const step = async () => {
      await service.sync();
      const whole = expandRun(await service.invoke('runs.get', { runId: RUN }), null);
      const ask =
        held && settled > 0
          ? { runId: RUN, from: settled, after: held.responses[settled - 1]!.responseId }
          : { runId: RUN };
      const delta = await service.invoke('runs.get', ask);
      const next = expandRun(delta, delta.from > 0 ? held : null);
      expect(next.responses).toEqual(whole.responses);
      expect(next.links).toEqual(whole.links);
      expect(views(next)).toEqual(views(whole));
      // Responses before the delta are the objects held, not copies.
      if (held && delta.from > 0) expect(next.responses[delta.from - 1]).toBe(held.responses[delta.from - 1]);
      steps.push({ from: delta.from, responses: delta.responses.length, items: delta.items.length });
      if (whole.responses.some((r) => r.status === 'in_progress')) inFlight++;
      held = next;
      settled = delta.settled;
    };

    const history: ResponseInputItem[] = [{ role: 'user', content: 'Fix the failing test.' }];
    const headers = {
      'x-loupe-session': 'deltas',
      'x-sim': JSON.stringify({ toolCalls: 1, events: 6, gapMs: 5 }),
    };
    for (let turn = 0; turn < 12; turn++) {
      const stream = await h.client.responses.create(
        { model: 'gpt-5', input: history, stream: true, store: false, tools: [] },
        { headers },
      );
      let done: Response | null = null;
      let seen = 0;
      for await (const event of stream) {
        // Midway through the stream: the response is in flight, the delta carries it as it stands.
        if (++seen === 4 && turn > 0 && turn % 3 === 0) await step();
        if (event.type === 'response.completed') done = event.response;
      }
      if (!done) throw new Error(`turn ${turn} did not complete`);
      for (const item of done.output) {
        history.push(item as ResponseInputItem);
        if (item.type === 'function_call')
          history.push({ type: 'function_call_output', call_id: item.call_id, output: `result of turn ${turn}` });
      }
      // Most steps do not wait for derivation: under traffic the records are the live exchanges' own.
      if (turn % 4 === 3) await h.settle();
      await step();
    }
    expect(held!.responses).toHaveLength(12);
    expect(inFlight).toBeGreaterThan(0);
    // Once the first responses settle, refreshes are deltas that carry only what is new.
    const later = steps.slice(4);
    expect(later.every((s) => s.from > 0)).toBe(true);
    expect(Math.max(...later.map((s) => s.responses))).toBeLessThanOrEqual(2);
    // Each turn adds three input items (its call, the call's output, or a message) at most.
    expect(later.every((s) => s.items <= 3 * s.responses)).toBe(true);
  }, 120_000);
});
