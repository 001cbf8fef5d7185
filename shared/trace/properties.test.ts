// Properties over seeded random runs (random-run.ts): chained and stateless loops with
// parallel calls, programs, subagents, compaction, unknown items, branches, streamed and
// JSON answers. A failure names its seed; rerun it alone with `randomRun(seed)`.
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from './graph/graph.js';
import type { RunGraph } from './graph/types.js';
import { layoutRun, type RunLayout } from './layout/layout.js';
import { normalizeExchange } from './normalize/normalize.js';
import { randomRun, seededRandom } from './testing/random-run.js';
import { threadRuns, type Run } from './thread/thread.js';
import { buildTimeline } from './timeline/timeline.js';
import type { RawExchange } from './types.js';

const SEEDS = Array.from({ length: 60 }, (_, i) => i + 1);

function runsOf(exchanges: RawExchange[]): Run[] {
  return threadRuns(exchanges.flatMap((e) => normalizeExchange(e).responses));
}

function overlapping(layout: RunLayout): string[] {
  const boxes = Object.entries(layout.nodes).sort(([, a], [, b]) => a.y - b.y);
  const hits: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    const [a, p] = boxes[i]!;
    for (let j = i + 1; j < boxes.length && boxes[j]![1].y < p.y + p.height; j++) {
      const [b, q] = boxes[j]!;
      if (p.x < q.x + q.width && q.x < p.x + p.width) hits.push(`${a} / ${b}`);
    }
  }
  return hits;
}

describe.each(SEEDS)('random run, seed %i', (seed) => {
  const exchanges = randomRun(seed);
  const runs = runsOf(exchanges);
  const graphs: RunGraph[] = runs.map((run) => buildRunGraph(run));

  it('threads into one run', () => expect(runs).toHaveLength(1));

  it('makes every item exactly one node', () => {
    runs.forEach((run, r) => {
      const graph = graphs[r]!;
      const ids = graph.nodes.map((n) => n.id);
      expect(new Set(ids).size).toBe(ids.length);
      const known = new Set(ids);
      const used = new Set<string>();
      run.responses.forEach((record, i) => {
        const nodes = graph.responses[i]!;
        for (const [items, mapped] of [
          [record.request.input, nodes.input],
          [record.output, nodes.output],
        ] as const) {
          expect(mapped).toHaveLength(items.length);
          items.forEach((item, k) => {
            const id = mapped[k]!;
            expect(known.has(id)).toBe(true);
            used.add(id);
            // Items the API named keep their name as the node id.
            if (item.id !== null) expect(id).toBe(item.id);
          });
        }
      });
      expect([...known].filter((id) => !used.has(id))).toEqual([]);
      // Distinct calls stay distinct nodes; a call and its output are joined by one call edge.
      const calls = graph.nodes.filter((n) => n.callNode !== null);
      for (const output of calls)
        expect(graph.edges).toContainEqual({ from: output.callNode, to: output.id, kind: 'call' });
    });
  });

  it('names every node of its graph in its timeline, in graph order', () => {
    runs.forEach((run, r) => {
      const timeline = buildTimeline(run, graphs[r]!);
      expect(timeline.nodes).toEqual(graphs[r]!.nodes.map((n) => n.id));
      const named = new Set(timeline.steps.flatMap((s) => ('nodes' in s ? s.nodes : 'node' in s ? [s.node] : [])));
      expect(timeline.nodes.filter((id) => !named.has(id))).toEqual([]);
      // Steps come in time order.
      for (let i = 1; i < timeline.steps.length; i++)
        expect(timeline.steps[i]!.tUs).toBeGreaterThanOrEqual(timeline.steps[i - 1]!.tUs);
    });
  });

  it('lays out without overlaps, every edge pointing down the page', () => {
    graphs.forEach((graph) => {
      const layout = layoutRun(graph);
      expect(overlapping(layout)).toEqual([]);
      for (const e of graph.edges) expect(layout.cells[e.to]!.row).toBeGreaterThan(layout.cells[e.from]!.row);
      for (const group of graph.groups) if (group.members.length > 0) expect(layout.groups[group.id]).toBeDefined();
    });
  });

  it('keeps every earlier position while the run grows, a response streaming in included', () => {
    const full = layoutRun(graphs[0]!);
    const rnd = seededRandom(seed * 7919);
    for (let k = 1; k <= exchanges.length; k++) {
      const prefix = exchanges.slice(0, k);
      const last = prefix[k - 1]!;
      // The newest exchange is sometimes still streaming: cut its body and leave it open.
      if (last.response.chunks.length > 2 && rnd() < 0.5) {
        const cut = 1 + Math.floor(rnd() * (last.response.chunks.length - 1));
        prefix[k - 1] = {
          ...last,
          state: 'open',
          endUs: null,
          response: { ...last.response, chunks: last.response.chunks.slice(0, cut) },
        };
      }
      const [run] = runsOf(prefix);
      const partial = layoutRun(buildRunGraph(run!));
      for (const [id, box] of Object.entries(partial.nodes))
        expect(full.nodes[id], `node ${id} after ${k} exchanges`).toEqual(box);
    }
  });
});
