// The layout's packing on the runs the graph must keep readable: every node inside its
// response's frame, frames that never overlap, lanes as wide as their widest row, large
// fans of one tool folded into one group node, a program's calls and a compaction window
// folded on demand, a failed response's reason in a row of its frame, and positions that
// never move as a run grows.
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../graph/graph.js';
import { FAN_COLLAPSE_ABOVE } from '../graph/groups.js';
import type { RunGraph } from '../graph/types.js';
import { layoutRun, type Box, type LayoutOptions, type RunLayout } from './layout.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { randomRun } from '../testing/random-run.js';
import { compaction, multiAgent, parallelCalls, programmatic } from '../testing/scenarios.js';
import {
  failureInCompaction,
  fanOut,
  programFan,
  researchTeam,
  statelessTurns,
  unreachableTurn,
} from '../testing/scenarios-wide.js';
import { threadRuns } from '../thread/thread.js';
import type { RawExchange } from '../types.js';

function graphOf(exchanges: RawExchange[]): RunGraph {
  const runs = threadRuns(exchanges.flatMap((e) => normalizeExchange(e).responses));
  expect(runs).toHaveLength(1);
  return buildRunGraph(runs[0]!);
}

const inside = (b: Box, f: Box) =>
  b.x >= f.x && b.y >= f.y && b.x + b.width <= f.x + f.width && b.y + b.height <= f.y + f.height;
const overlap = (p: Box, q: Box) =>
  p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;

/** Every geometric invariant the canvas relies on; returns the violations, none expected. */
function violations(graph: RunGraph, layout: RunLayout, options: LayoutOptions = {}): string[] {
  const out: string[] = [];
  const collapsed = new Set(Object.keys(layout.fans));
  const windows = graph.groups.flatMap((g) =>
    g.kind === 'compaction' && options.foldedCompactions?.has(g.id) ? [g.members] : [],
  );
  const inWindow = new Set(windows.flat());
  const folded = new Set([
    ...graph.groups.flatMap((g) =>
      g.kind === 'fan' && collapsed.has(g.id) ? [...g.members.slice(1), ...g.outputs.slice(1)] : [],
    ),
    ...windows.flatMap((members) => members.slice(1)),
  ]);
  for (const g of graph.groups) {
    if (g.kind !== 'response') continue;
    const frames = layout.frames[g.id] ?? [];
    for (const id of g.members) {
      const b = layout.nodes[id]!;
      if (!inWindow.has(id) && !frames.some((f) => inside(b, f))) out.push(`${id} outside the frames of ${g.id}`);
    }
    const reason = layout.failures[g.id];
    // A response folded away (into its card, its lane's or a compaction window's) leaves the reason to the card.
    const shown = g.members.some((id) => {
      const node = graph.nodes.find((n) => n.id === id)!;
      return !inWindow.has(id) && !options.foldedResponses?.has(g.response) && !options.foldedLanes?.has(node.lane);
    });
    if (g.failure !== null && shown && reason === undefined) out.push(`${g.id} failed with no row for its reason`);
    if (g.failure !== null && !shown && reason !== undefined)
      out.push(`${g.id} folded away, with a row for its reason`);
    if (reason !== undefined && !frames.some((f) => inside(reason, f)))
      out.push(`the reason of ${g.id} outside its frames`);
    for (const [id, b] of Object.entries(layout.nodes))
      if (reason !== undefined && overlap(reason, b)) out.push(`the reason of ${g.id} overlaps ${id}`);
  }
  const frames = Object.entries(layout.frames).flatMap(([id, fs]) => fs.map((f, i) => ({ id: `${id}[${i}]`, f })));
  for (let i = 0; i < frames.length; i++) {
    for (let j = i + 1; j < frames.length; j++)
      if (overlap(frames[i]!.f, frames[j]!.f)) out.push(`frame ${frames[i]!.id} overlaps ${frames[j]!.id}`);
  }
  const boxes = Object.entries(layout.nodes).filter(([id]) => !folded.has(id));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i]!;
      const [b, q] = boxes[j]!;
      const shared =
        p.x === q.x && p.y === q.y && (collapsedPair(graph, layout, a, b) || sameCard(graph, options, a, b));
      if (p !== q && overlap(p, q) && !shared) out.push(`node ${a} overlaps ${b}`);
    }
  }
  for (const e of graph.edges) {
    if (layout.cells[e.to] !== layout.cells[e.from] && layout.cells[e.to]!.row <= layout.cells[e.from]!.row)
      out.push(`edge ${e.from} -> ${e.to} points up`);
  }
  // No row is left empty: every row down to the last holds a node or a reason (rows are 100 apart by default).
  const used = new Set(Object.values(layout.cells).map((c) => c.row));
  for (const f of Object.values(layout.failures)) used.add(Math.round(f.y / 100));
  for (let row = 0; row <= Math.max(-1, ...used); row++) if (!used.has(row)) out.push(`row ${row} is empty`);
  for (let i = 1; i < layout.lanes.length; i++) {
    const [a, b] = [layout.lanes[i - 1]!, layout.lanes[i]!];
    if (a.x + a.width >= b.x) out.push(`lane ${a.lane} reaches into ${b.lane}`);
  }
  return out;
}

/** Two items of one response folded to a card in their lane (the response folded, or the lane). */
function sameCard(graph: RunGraph, options: LayoutOptions, a: string, b: string): boolean {
  const [p, q] = [graph.nodes.find((n) => n.id === a)!, graph.nodes.find((n) => n.id === b)!];
  return (
    p.response === q.response &&
    p.lane === q.lane &&
    (options.foldedResponses?.has(p.response) === true || options.foldedLanes?.has(p.lane) === true)
  );
}

function collapsedPair(graph: RunGraph, layout: RunLayout, a: string, b: string): boolean {
  return graph.groups.some(
    (g) =>
      g.kind === 'fan' &&
      layout.fans[g.id] !== undefined &&
      [...g.members, ...g.outputs].includes(a) &&
      [...g.members, ...g.outputs].includes(b),
  );
}

const cases: Array<[string, () => RawExchange[], LayoutOptions?]> = [
  ['3 parallel calls', parallelCalls],
  ['a program with 2 calls', programmatic],
  ['a program with 5 calls', () => programFan(5)],
  ['5 parallel calls', () => fanOut(5)],
  ['1,500 parallel calls, folded', () => fanOut(1_500)],
  ['1,500 parallel calls, expanded', () => fanOut(1_500), { toggledFans: new Set(['fan:fc_f0:lookup_row']) }],
  ['nested subagents', multiAgent],
  ['three subagents (multi-agent beta)', () => researchTeam(3)],
  ['a 40-turn stateless run', () => statelessTurns(40)],
  ['a 300-turn stateless run', () => statelessTurns(300)],
  ['a turn the upstream never answered', unreachableTurn],
  ['a program with 5 calls, folded', () => programFan(5), { toggledFans: new Set(['fan:prog_w:program-calls']) }],
  ['a compaction window, folded', compaction, { foldedCompactions: new Set(['compaction:cmp_1']) }],
  ['a failed turn, compacted away', failureInCompaction],
  ['a failed turn, compacted away, folded', failureInCompaction, { foldedCompactions: new Set(['compaction:cmp_k']) }],
  ['a failed turn, its response folded', unreachableTurn, { foldedResponses: new Set([1]) }],
  ['a failed turn, its lane folded', unreachableTurn, { foldedLanes: new Set(['main']) }],
];

describe('layout packs to content', () => {
  for (const [name, build, options] of cases) {
    it(`keeps every node inside its response frame and frames apart: ${name}`, () => {
      const graph = graphOf(build());
      const layout = layoutRun(graph, options);
      expect(violations(graph, layout, options)).toEqual([]);
    });
  }

  it('keeps the same invariants on seeded random runs', () => {
    for (let seed = 1; seed <= 40; seed++) {
      for (const run of threadRuns(randomRun(seed).flatMap((e) => normalizeExchange(e).responses))) {
        const graph = buildRunGraph(run);
        expect(violations(graph, layoutRun(graph)), `seed ${seed}, run ${run.id}`).toEqual([]);
      }
    }
  });

  it('puts 5 parallel calls of a program on one row inside its frame, the join below their outputs', () => {
    const graph = graphOf(programFan(5));
    const layout = layoutRun(graph);
    const rows = new Set([0, 1, 2, 3, 4].map((i) => layout.cells[`fc_p${i}`]!.row));
    expect(rows.size).toBe(1);
    const callRow = [...rows][0]!;
    const outputs = graph.nodes.filter((n) => n.callNode?.startsWith('fc_p'));
    expect(new Set(outputs.map((n) => layout.cells[n.id]!.row))).toEqual(new Set([callRow + 1]));
    expect(layout.cells.po_w!.row).toBeGreaterThan(callRow + 1);
    expect(layout.lanes).toHaveLength(1);
    expect(layout.lanes[0]!.width).toBe(5 * 240 + 4 * 24);
  });

  it('wraps a fan wider than maxColumns within its frame', () => {
    const graph = graphOf(fanOut(20));
    const layout = layoutRun(graph, { maxColumns: 6, toggledFans: new Set(['fan:fc_f0:lookup_row']) });
    expect(layout.cells.fc_f19).toMatchObject({ column: 1, row: layout.cells.fc_f0!.row + 3 });
    expect(violations(graph, layout)).toEqual([]);
  });

  it(`folds more than ${FAN_COLLAPSE_ABOVE} calls of one tool into one group node, and its outputs into another`, () => {
    const graph = graphOf(fanOut(1_500));
    const group = graph.groups.find((g) => g.kind === 'fan');
    expect(group).toMatchObject({ kind: 'fan', label: '×1,500 lookup_row', tool: 'lookup_row' });
    expect(group?.kind === 'fan' && group.outputs.length).toBe(1_500);
    const layout = layoutRun(graph);
    const fan = layout.fans[group!.id]!;
    expect(layout.nodes.fc_f1499).toEqual(fan.calls);
    expect(fan.outputs!.y).toBeGreaterThan(fan.calls.y);
    expect(layout.height).toBeLessThan(5 * 100);
    expect(graphOf(fanOut(FAN_COLLAPSE_ABOVE)).groups.some((g) => g.kind === 'fan')).toBe(false);
  });

  it('puts the root agent, the user message included, in one lane, each subagent in a lane one column wide', () => {
    const graph = graphOf(researchTeam(3));
    const layout = layoutRun(graph);
    expect(graph.lanes).toHaveLength(4);
    expect(layout.cells[graph.responses[0]!.input[0]!]!.lane).toBe(0);
    expect(layout.lanes.slice(1).map((l) => l.width)).toEqual([240, 240, 240]);
    // The root is as wide as its three spawns, no wider.
    expect(layout.lanes[0]!.width).toBe(3 * 240 + 2 * 24);
  });

  it('never moves a placed node as the runs grow, exchange by exchange', () => {
    for (const [name, build] of [
      ['5 program calls', () => programFan(5)],
      ['three subagents', () => researchTeam(3)],
      ['40 stateless turns', () => statelessTurns(40)],
      ['a failed turn and its retry', unreachableTurn],
    ] as const) {
      const exchanges = build();
      const full = layoutRun(graphOf(exchanges));
      for (let k = 1; k < exchanges.length; k++) {
        const partial = layoutRun(graphOf(exchanges.slice(0, k)));
        for (const [id, box] of Object.entries(partial.nodes))
          expect(full.nodes[id], `${name}: ${id} after ${k}`).toEqual(box);
      }
    }
  });

  it('folds a response (or a lane) into one cell per lane, the rest packed around it', () => {
    const graph = graphOf(programFan(5));
    const open = layoutRun(graph);
    const folded = layoutRun(graph, { foldedResponses: new Set([0]) });
    const first = graph.responses[0]!.created;
    expect(new Set(first.map((id) => JSON.stringify(folded.nodes[id]))).size).toBe(1);
    expect(folded.frames['response:resp_pw1']).toHaveLength(1);
    expect(folded.height).toBeLessThan(open.height);
    // The next response starts right below the card, and its frame stays apart from it.
    const [a, b] = [folded.frames['response:resp_pw1']![0]!, folded.frames['response:resp_pw2']![0]!];
    expect(a.y + a.height).toBeLessThanOrEqual(b.y);
    const team = graphOf(researchTeam(3));
    const lanes = layoutRun(team, { foldedLanes: new Set(['researcher_1']) });
    const ids = team.nodes.filter((n) => n.lane === 'researcher_1').map((n) => n.id);
    expect(new Set(ids.map((id) => JSON.stringify(lanes.nodes[id]))).size).toBe(1);
  });

  it("folds a program's calls into one node and their outputs into another, on demand", () => {
    const graph = graphOf(programFan(5));
    const group = graph.groups.find((g) => g.kind === 'fan');
    expect(group).toMatchObject({
      id: 'fan:prog_w:program-calls',
      program: 'prog_w',
      folded: false,
      label: '×5 get_latency_stats',
    });
    const open = layoutRun(graph);
    expect(open.fans).toEqual({});
    const folded = layoutRun(graph, { toggledFans: new Set([group!.id]) });
    const fan = folded.fans[group!.id]!;
    for (let i = 0; i < 5; i++) expect(folded.nodes[`fc_p${i}`]).toEqual(fan.calls);
    expect(fan.outputs!.y).toBeGreaterThan(fan.calls.y);
    expect(folded.lanes[0]!.width).toBe(240);
    // The program's own output and the answer still follow, below the folded outputs.
    expect(folded.nodes.po_w!.y).toBeGreaterThan(fan.outputs!.y);
  });

  it('folds a compaction window into one cell, leaving out the frames wholly inside it', () => {
    const graph = graphOf(compaction());
    const window = graph.groups.find((g) => g.kind === 'compaction')!;
    const options = { foldedCompactions: new Set([window.id]) };
    const open = layoutRun(graph);
    const folded = layoutRun(graph, options);
    expect(new Set(window.members.map((id) => JSON.stringify(folded.nodes[id]))).size).toBe(1);
    expect(folded.frames['response:resp_c1']).toBeUndefined();
    expect(folded.frames['response:resp_c3']).toHaveLength(1);
    expect(folded.height).toBeLessThan(open.height);
    expect(violations(graph, folded, options)).toEqual([]);
  });

  it("gives a failed response's reason a row of its frame, below its items, and the retry starts below it", () => {
    const graph = graphOf(unreachableTurn());
    const layout = layoutRun(graph);
    const reason = layout.failures['response:exchange:2']!;
    expect(reason.y).toBeGreaterThan(layout.nodes['function_call_output:call_u1']!.y);
    expect(layout.nodes.msg_u3!.y).toBeGreaterThan(reason.y);
    expect(Object.keys(layout.failures)).toEqual(['response:exchange:2']);
  });

  // How fast is the benchmark's to measure, not a unit test's.
  it('lays out 1,500 parallel calls expanded, each call in a cell of its own', () => {
    const graph = graphOf(fanOut(1_500));
    const layout = layoutRun(graph, { toggledFans: new Set(['fan:fc_f0:lookup_row']) });
    const calls = graph.nodes.filter((n) => n.type === 'function_call');
    expect(calls).toHaveLength(1_500);
    expect(new Set(calls.map((n) => JSON.stringify(layout.cells[n.id]))).size).toBe(1_500);
  });
});
