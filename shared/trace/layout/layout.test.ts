import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../graph/graph.js';
import { layoutRun, type RunLayout } from './layout.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { multiAgent, parallelCalls, programmatic } from '../testing/scenarios.js';
import { syntheticRun } from '../testing/synthetic-run.js';
import { threadRuns } from '../thread/thread.js';
import type { RawExchange } from '../types.js';

function laidOut(exchanges: RawExchange[]) {
  const [run] = threadRuns(exchanges.flatMap((e) => normalizeExchange(e).responses));
  const graph = buildRunGraph(run!);
  return { graph, layout: layoutRun(graph) };
}

function overlaps(layout: RunLayout): string[] {
  const boxes = Object.entries(layout.nodes);
  const hits: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i]!;
      const [b, q] = boxes[j]!;
      if (p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height)
        hits.push(`${a} / ${b}`);
    }
  }
  return hits;
}

describe('layout', () => {
  it('puts parallel calls side by side, each output under its call, and the join below them', () => {
    const { layout } = laidOut(parallelCalls());
    const c = layout.cells;
    expect([c.fc_1, c.fc_2, c.fc_3].map((x) => [x?.row, x?.column])).toEqual([
      [2, 0],
      [2, 1],
      [2, 2],
    ]);
    expect(
      ['function_call_output:call_1', 'function_call_output:call_2', 'function_call_output:call_3'].map((id) => [
        c[id]?.row,
        c[id]?.column,
      ]),
    ).toEqual([
      [3, 0],
      [3, 1],
      [3, 2],
    ]);
    expect(c.msg_par).toEqual({ lane: 0, column: 0, row: 4 });
    expect(overlaps(layout)).toEqual([]);
  });

  it('gives each agent a lane and keeps causal order across lanes', () => {
    const { graph, layout } = laidOut(multiAgent());
    expect(layout.lanes.map((l) => l.lane)).toEqual(graph.lanes);
    const row = (id: string) => layout.cells[id]?.row ?? -1;
    for (const e of graph.edges) expect(row(e.to), `${e.from} -${e.kind}-> ${e.to}`).toBeGreaterThan(row(e.from));
    // The user's message sits in the root's lane: no lane holds only it.
    expect(graph.lanes).toEqual(['main', 'researcher', 'fact_checker']);
    expect(graph.groups.filter((g) => g.kind === 'agent').map((g) => g.label)).toEqual([
      'root',
      'researcher',
      'fact_checker',
    ]);
    expect(layout.cells[graph.responses[0]!.input[0]!]?.lane).toBe(0);
    expect(layout.cells.ws_f?.lane).toBe(2);
    expect(new Set(Object.values(layout.nodes).map((b) => b.x)).size).toBe(3);
    // Each lane is one column wide, as its widest row: no reserved empty columns between lanes.
    expect(layout.lanes.map((l) => l.width)).toEqual([240, 240, 240]);
    expect(layout.lanes[1]!.x - layout.lanes[0]!.x).toBe(240 + 96);
  });

  it('boxes groups around their members', () => {
    const { layout } = laidOut(programmatic());
    const group = layout.groups['response:resp_pg1']!;
    for (const id of ['prog_1', 'fc_a', 'fc_b']) {
      const b = layout.nodes[id]!;
      expect(b.x).toBeGreaterThanOrEqual(group.x);
      expect(b.y + b.height).toBeLessThanOrEqual(group.y + group.height);
    }
    expect(layout.cells.fc_b).toMatchObject({ column: 1, row: layout.cells.fc_a?.row });
  });

  it('wraps a fan wider than the lane onto the next row of its frame, outputs as a band below it', () => {
    const { layout } = laidOut(parallelCalls());
    const narrow = layoutRun(laidOut(parallelCalls()).graph, { maxColumns: 2 });
    expect(narrow.cells.fc_3).toEqual({ lane: 0, column: 0, row: 3 });
    // The outputs start below the whole fan: none lies inside the calls' frame.
    expect(narrow.cells['function_call_output:call_1']).toEqual({ lane: 0, column: 0, row: 4 });
    expect(narrow.cells['function_call_output:call_3']).toEqual({ lane: 0, column: 0, row: 5 });
    expect(narrow.cells.msg_par).toEqual({ lane: 0, column: 0, row: 6 });
    expect(overlaps(narrow)).toEqual([]);
    expect(layout.width).toBeGreaterThan(narrow.width);
  });

  // Its time is the benchmark's to hold (npm run bench, the trace pipeline rows), not a test's.
  it('lays out 5,000 items, every one placed, none overlapping', () => {
    const { graph } = laidOut(syntheticRun({ items: 5_000, events: 20_000 }));
    expect(graph.nodes.length).toBeGreaterThanOrEqual(4_990);
    const layout = layoutRun(graph);
    expect(Object.keys(layout.nodes)).toHaveLength(graph.nodes.length);
    expect(overlaps(layout)).toEqual([]);
  });
});
