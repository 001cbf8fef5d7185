import { act, fireEvent, render } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildRunView, viewLayout, type Folds } from '../model/run-view.js';
import { useRunStore } from '../state/run-store.js';
import { detailFrom } from '../test/run-fixture.js';
import { resetStores } from '../test/reset-stores.js';
import { compaction, multiAgent, parallelCalls } from '../../shared/trace/testing/scenarios.js';
import {
  failureInCompaction,
  fanOut,
  programFan,
  researchTeam,
  statelessTurns,
  unreachableTurn,
} from '../../shared/trace/testing/scenarios-wide.js';
import { toFlow } from './to-flow.js';
import type { RawExchange } from '../../shared/trace/types.js';
import { useGraphStore } from './graph-store.js';
import { RunGraph } from './RunGraph.js';

function load(raws?: RawExchange[]) {
  const detail = detailFrom(raws);
  const store = useRunStore.getState();
  store.selectRun(detail.summary.id);
  const view = buildRunView(detail);
  store.loaded(detail, view);
  return view;
}

const types = (el: HTMLElement) =>
  [...el.querySelectorAll('[data-node-type]')].map((n) => n.getAttribute('data-node-type')).sort();

describe('RunGraph', () => {
  beforeEach(() => {
    resetStores();
    useGraphStore.setState({
      runId: null,
      tier: 'mid',
      toggledFans: new Set(),
      foldedResponses: new Set(),
      foldedLanes: new Set(),
      foldedCompactions: new Set(),
      hiddenKinds: new Set(),
      focusLane: null,
      query: '',
      matches: [],
      matchSet: new Set(),
      current: -1,
    });
  });

  it('draws one node per item with the export ids, typed by item type, inside response frames', () => {
    const view = load();
    const { container } = render(<RunGraph />);
    expect(types(container)).toEqual([
      'function_call',
      'function_call',
      'function_call',
      'function_call_output',
      'function_call_output',
      'function_call_output',
      'message',
      'message',
      'reasoning',
    ]);
    const ids = [...container.querySelectorAll('[data-node-id]')].map((n) => n.getAttribute('data-node-id')).sort();
    expect(ids).toEqual(view.graph.nodes.map((n) => n.id).sort());
    expect(container.querySelectorAll('[data-group-kind="response"]')).toHaveLength(2);
    // Every edge is drawn but the one the chain fc_3 -> its output -> the answer already says.
    const drawn = new Set([...container.querySelectorAll('.react-flow__edge')].map((e) => e.getAttribute('data-id')));
    expect(view.graph.edges.map((e) => `${e.kind}:${e.from}->${e.to}`).filter((id) => !drawn.has(id))).toEqual([
      'continue:fc_3->msg_par',
    ]);
  });

  it('shows the state at the replay step: later nodes hidden, streaming ones in progress', () => {
    const view = load();
    const { container } = render(<RunGraph />);
    const streamed = Object.keys(view.replay.growth)[0]!;
    act(() => useRunStore.getState().seek(view.replay.growth[streamed]!.steps[0]!));
    const node = [...container.querySelectorAll('[data-node-id]')].find(
      (n) => n.getAttribute('data-node-id') === streamed,
    );
    expect(node?.getAttribute('data-state')).toBe('in_progress');
    expect(types(container).length).toBeLessThan(view.graph.nodes.length);
    act(() => useRunStore.getState().seek(0));
    expect(types(container)).toEqual(['message']);
  });

  it('selects a node on click', () => {
    load();
    const { container } = render(<RunGraph />);
    const call = container.querySelector('[data-node-type="function_call"]')!;
    act(() => (call.closest('.react-flow__node') as HTMLElement).click());
    expect(useRunStore.getState().selection).toEqual({ kind: 'node', id: call.getAttribute('data-node-id') });
  });

  it('puts numbers on the picture: latency and tokens on nodes, TTFT, time, tokens and cost on frames', () => {
    load();
    const { container } = render(<RunGraph />);
    const frame = container.querySelector('[data-group-kind="response"] [data-testid="frame-numbers"]')!;
    expect(frame.textContent).toMatch(/^TTFT \d+ ms · \d.* · \d+ tok · \$/);
    const output = container.querySelector('[data-node-type="function_call_output"] [data-testid="node-numbers"]')!;
    // A tool output: the client's time running the tool, and the tokens it adds to every later request.
    expect(output.textContent).toMatch(/^\d.*s · \+≈\d+ tok$/);
  });

  it('folds a large fan of one tool into one node for its calls and one for their outputs, expanding on click', () => {
    load(fanOut(30));
    const { container } = render(<RunGraph />);
    const groups = () => [...container.querySelectorAll('[data-testid="fan-group"]')].map((n) => n.textContent);
    expect(groups()).toEqual([
      expect.stringMatching(/^×30 lookup_row30 completedover \d+ ms$/),
      expect.stringMatching(/^×30 outputslookup_row · 30 returnedat once · \+≈\d+ tok$/),
    ]);
    expect(container.querySelectorAll('[data-node-type="function_call"]')).toHaveLength(0);
    act(() =>
      (container.querySelector('[data-testid="fan-group"]')!.closest('.react-flow__node') as HTMLElement).click(),
    );
    expect(container.querySelectorAll('[data-node-type="function_call"]')).toHaveLength(30);
    expect(container.querySelectorAll('[data-node-type="function_call_output"]')).toHaveLength(30);
    // Wrapped onto 5 rows of 6: only the first row is joined to the reasoning, the last row of
    // calls to their outputs and the last row of outputs to the answer (plus user -> reasoning),
    // not 30 edges each way through the bands.
    expect(container.querySelectorAll('.loupe-edge-next')).toHaveLength(1 + 6 + 6);
    expect(container.querySelectorAll('.loupe-edge-call')).toHaveLength(6);
    expect(groups()).toEqual([]);
    act(() => (container.querySelector('[data-testid="fold-fan"]') as HTMLElement).click());
    expect(groups()).toHaveLength(2);
  });

  it('draws frames as summary cards when zoomed far out, items left to the card', () => {
    load();
    const { container } = render(<RunGraph />);
    act(() => useGraphStore.getState().setTier('far'));
    const cards = [...container.querySelectorAll('[data-testid="frame-card"]')].map((n) => n.textContent);
    expect(cards).toHaveLength(2);
    expect(cards[0]).toMatch(/^#1 main.*gpt-5\S* · 3 calls, 1 message, 1 reasoningTTFT/);
    expect(container.querySelectorAll('[data-node-type]')).toHaveLength(0);
  });

  it('finds text in the run: matches ringed, Enter steps through them', () => {
    load();
    const { container, getByTestId } = render(<RunGraph />);
    const input = getByTestId('graph-search') as HTMLInputElement;
    act(() => fireEvent.change(input, { target: { value: 'get_weather' } }));
    const matched = () =>
      [...container.querySelectorAll('[data-match]')].map((n) => [
        n.getAttribute('data-node-id'),
        n.getAttribute('data-match'),
      ]);
    // The three calls and the three outputs, whose labels name the tool.
    expect(matched()).toHaveLength(6);
    expect(matched().filter(([, m]) => m === 'current')).toEqual([['fc_1', 'current']]);
    expect(getByTestId('graph-search-count').textContent).toBe('1/6');
    act(() => fireEvent.keyDown(input, { key: 'Enter' }));
    expect(matched().filter(([, m]) => m === 'current')).toEqual([['fc_2', 'current']]);
    act(() => fireEvent.keyDown(input, { key: 'Enter', shiftKey: true }));
    act(() => fireEvent.keyDown(input, { key: 'Enter', shiftKey: true }));
    expect(getByTestId('graph-search-count').textContent).toBe('6/6');
  });

  it('filters the canvas by item kind', () => {
    load();
    const { container } = render(<RunGraph />);
    act(() => fireEvent.click(container.querySelector('[data-testid="kind-filter"][data-kind="tool_output"]')!));
    expect(types(container).filter((t) => t === 'function_call_output')).toEqual([]);
    expect(types(container)).toContain('function_call');
  });

  it('focuses one agent, dimming the other lanes', () => {
    load(multiAgent());
    const { container, getByTestId } = render(<RunGraph />);
    act(() => fireEvent.change(getByTestId('focus-agent'), { target: { value: 'researcher' } }));
    const dimmed = [...container.querySelectorAll('[data-node-id]')]
      .filter((n) => n.hasAttribute('data-dimmed'))
      .map((n) => n.getAttribute('data-node-id'));
    expect(dimmed).toEqual(expect.arrayContaining(['rs_root', 'ws_f']));
    expect(dimmed).not.toContain('ws_r');
  });

  it('folds a response into its card and unfolds it', () => {
    load();
    const { container } = render(<RunGraph />);
    act(() => fireEvent.click(container.querySelector('[data-testid="frame-fold"]')!));
    const card = container.querySelector('[data-testid="frame-card"][data-folded]')!;
    expect(card.textContent).toMatch(/#1 main.*3 calls/);
    // The first response's items are folded into the card; the second's are still drawn.
    expect(types(container)).toEqual([
      'function_call_output',
      'function_call_output',
      'function_call_output',
      'message',
    ]);
    act(() => fireEvent.click(card.querySelector('[data-testid="frame-fold"]')!));
    expect(types(container)).toHaveLength(9);
  });

  it('never draws an edge behind a node: each runs straight, or through the gaps between rows and lanes', () => {
    // A stateless loop: each answer continues the call before its output, past that output;
    // the chain call -> output -> answer already says it, so that edge is left out.
    const view = load(statelessTurns(6));
    const { container } = render(<RunGraph />);
    const drawn = [...container.querySelectorAll('.react-flow__edge')].map((e) => e.getAttribute('data-id')!);
    expect(view.graph.edges.some((e) => e.kind === 'continue' && e.from === 'fc_t0' && e.to === 'msg_t1')).toBe(true);
    expect(drawn.filter((id) => id.startsWith('continue:fc_t'))).toEqual([]);
    // Across the run shapes, folded or not: no stretch of any edge's polyline enters a node's box.
    const ids = (raws: RawExchange[], kind: string) =>
      new Set(
        buildRunView(detailFrom(raws))
          .graph.groups.filter((g) => g.kind === kind)
          .map((g) => g.id),
      );
    const shapes: Array<[RawExchange[], Folds]> = [
      [parallelCalls(), {}],
      [statelessTurns(6), {}],
      [unreachableTurn(), {}],
      [programFan(5), {}],
      [programFan(5), { toggledFans: ids(programFan(5), 'fan') }],
      [compaction(), {}],
      [compaction(), { foldedCompactions: ids(compaction(), 'compaction') }],
      [researchTeam(3), {}],
      [researchTeam(3), { foldedLanes: new Set(['researcher_2']), foldedResponses: new Set([0]) }],
      [multiAgent(), {}],
      [fanOut(40), { toggledFans: ids(fanOut(40), 'fan') }],
    ];
    let routed = 0;
    for (const [raws, folds] of shapes) {
      const v = buildRunView(detailFrom(raws));
      const flow = toFlow(v, viewLayout(v.graph, folds), folds);
      const boxes = flow.nodes
        .filter((n) => (n.handles?.length ?? 0) > 0)
        .map((n) => ({ id: n.id, x: n.position.x, y: n.position.y, w: n.width!, h: n.height! }));
      const byId = new Map(boxes.map((b) => [b.id, b]));
      const hidden: string[] = [];
      for (const e of flow.edges) {
        const [a, b] = [byId.get(e.source)!, byId.get(e.target)!];
        const points = [{ x: a.x + a.w / 2, y: a.y + a.h }, ...(e.data?.route ?? []), { x: b.x + b.w / 2, y: b.y }];
        if ((e.data?.route?.length ?? 0) > 0) routed++;
        for (let i = 1; i < points.length; i++) {
          const [p, q] = [points[i - 1]!, points[i]!];
          // Every stretch runs along one axis.
          expect(p.x === q.x || p.y === q.y, `${e.id} bends on a slant`).toBe(true);
          const under = boxes.find(
            (n) =>
              Math.max(p.x, q.x) > n.x + 1 &&
              Math.min(p.x, q.x) < n.x + n.w - 1 &&
              Math.max(p.y, q.y) > n.y + 1 &&
              Math.min(p.y, q.y) < n.y + n.h - 1,
          );
          if (under) hidden.push(`${e.id} under ${under.id}`);
        }
      }
      expect(hidden).toEqual([]);
    }
    expect(routed).toBeGreaterThan(10);
  });

  it("folds a program's calls into one node from the program, and back from that node", () => {
    load(programFan(5));
    const { container, getByTestId } = render(<RunGraph />);
    expect(types(container).filter((t) => t === 'function_call')).toHaveLength(5);
    act(() => fireEvent.click(getByTestId('program-fold')));
    expect(types(container).filter((t) => t === 'function_call' || t === 'function_call_output')).toEqual([]);
    const groups = [...container.querySelectorAll('[data-testid="fan-group"]')].map((n) => n.textContent);
    expect(groups).toEqual([
      expect.stringMatching(/^×5 get_latency_statsprogram calls · 5 completed/),
      expect.stringMatching(/^×5 outputsget_latency_stats · 5 returned/),
    ]);
    expect(getByTestId('program-fold').textContent).toBe('show ×5');
    act(() =>
      (container.querySelector('[data-testid="fan-group"]')!.closest('.react-flow__node') as HTMLElement).click(),
    );
    expect(types(container).filter((t) => t === 'function_call')).toHaveLength(5);
  });

  it('folds a compaction window into one card in place of its items and the frames inside it', () => {
    load(compaction());
    const { container, getByTestId } = render(<RunGraph />);
    const frames = () => container.querySelectorAll('[data-group-kind="response"]').length;
    expect(frames()).toBe(4);
    act(() => fireEvent.click(getByTestId('compaction-fold')));
    expect(getByTestId('compaction-card').textContent).toMatch(/Compacted: 4 items of responses #1–#2/);
    expect(frames()).toBe(2);
    expect(types(container)).toEqual(['compaction', 'message', 'message']);
    act(() => fireEvent.click(getByTestId('compaction-fold')));
    expect(frames()).toBe(4);
  });

  it('folds a compaction window with a failed response in it to a card that says why, leaving no empty row', () => {
    const view = load(failureInCompaction());
    const { container, getByTestId } = render(<RunGraph />);
    expect(getByTestId('frame-failure').textContent).toContain('ECONNREFUSED');
    act(() => fireEvent.click(getByTestId('compaction-fold')));
    expect(container.querySelector('[data-testid="frame-failure"]')).toBeNull();
    expect(getByTestId('window-failure').textContent).toBe('#2 error: connect ECONNREFUSED 127.0.0.1:9');
    // The compaction item sits right below the card: no row kept for a reason no longer drawn there.
    const window = view.graph.groups.find((g) => g.kind === 'compaction')!;
    const layout = viewLayout(view.graph, { foldedCompactions: new Set([window.id]) });
    const card = layout.nodes[window.members[0]!]!;
    expect(layout.failures).toEqual({});
    expect(layout.nodes.cmp_k!.y - (card.y + card.height)).toBe(50);
  });

  it("says why a response failed in a row of its frame, the run's chain running through it", () => {
    load(unreachableTurn());
    const { container, getByTestId } = render(<RunGraph />);
    expect(getByTestId('frame-failure').textContent).toContain('error: connect ECONNREFUSED 127.0.0.1:9');
    const edges = [...container.querySelectorAll('.react-flow__edge')].map((e) => e.getAttribute('data-id'));
    expect(edges).toContain('next:function_call_output:call_u1->response:exchange:2:failure');
    expect(edges).toContain('next:response:exchange:2:failure->msg_u3');
    expect(edges).not.toContain('next:fc_u1->msg_u3');
    // The call's edge past its output to the reason would run behind the output; the chain
    // call -> output -> reason already says it, so it is left out rather than drawn hidden.
    expect(edges).not.toContain('next:fc_u1->response:exchange:2:failure');
    // Before the failed response ends, no reason yet.
    act(() => useRunStore.getState().seek(0));
    expect(container.querySelector('[data-testid="frame-failure"]')).toBeNull();
  });
});
