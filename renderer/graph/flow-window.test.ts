import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../shared/seeded-random.js';
import { flowWindow, inWindow, spatial, type Transform } from './flow-window.js';
import type { Flow } from './to-flow.js';

const pane = { width: 1000, height: 700 };
/** What the viewport shows, in canvas px. */
const seen = ([x, y, zoom]: Transform) => ({
  x: -x / zoom,
  y: -y / zoom,
  width: pane.width / zoom,
  height: pane.height / zoom,
});

/** A column of `n` nodes 100 px apart, each joined to the next. */
function column(n: number): Flow {
  const nodes: Flow['nodes'] = [];
  const edges: Flow['edges'] = [];
  for (let i = 0; i < n; i++) {
    nodes.push({ id: `n${i}`, position: { x: 0, y: i * 100 }, width: 200, height: 60, data: { appear: 0 } });
    if (i > 0) edges.push({ id: `e${i}`, source: `n${i - 1}`, target: `n${i}`, data: { appear: 0, kind: 'next' } });
  }
  return { nodes, edges };
}

describe('flowWindow', () => {
  it('always holds what the viewport shows, at any zoom and place', () => {
    for (const zoom of [0.03, 0.1, 0.27, 0.5, 0.9, 1, 1.1, 1.3, 2.5])
      for (const at of [-5000, -333, 0, 17, 1234, 98_765]) {
        const t: Transform = [-at * zoom, -at * 1.7 * zoom, zoom];
        const w = flowWindow(t, pane);
        const s = seen(t);
        expect(w.x).toBeLessThanOrEqual(s.x);
        expect(w.y).toBeLessThanOrEqual(s.y);
        expect(w.x + w.width).toBeGreaterThanOrEqual(s.x + s.width);
        expect(w.y + w.height).toBeGreaterThanOrEqual(s.y + s.height);
        // A few screenfuls, never the whole canvas.
        expect(w.width * w.height).toBeLessThanOrEqual(16 * s.width * s.height);
      }
  });

  it('keeps its key while the viewport pans within half a screen or zooms within a step, and moves it past that', () => {
    /** The transform that centres the canvas point (cx, cy) at this zoom. */
    const at = (cx: number, cy: number, zoom: number): Transform => [
      pane.width / 2 - cx * zoom,
      pane.height / 2 - cy * zoom,
      zoom,
    ];
    const key = (t: Transform) => flowWindow(t, pane).key;
    // Panning down a screen, 10 px at a time: the window moves every half screen or so, not every step.
    const keys = new Set<string>();
    for (let y = 0; y <= 700 / 0.9; y += 10) keys.add(key(at(500, 5000 + y, 0.9)));
    expect(keys.size).toBeLessThanOrEqual(4);
    // Zooming about one point within a step (0.8 to 1), the same window; out past it, another.
    expect(key(at(500, 5000, 0.82))).toBe(key(at(500, 5000, 0.98)));
    expect(key(at(500, 5000, 0.9))).not.toBe(key(at(500, 5000, 0.4)));
    expect(key(at(500, 5000, 0.9))).not.toBe(key(at(500, 9000, 0.9)));
  });
});

describe('inWindow', () => {
  it('hands over the nodes in the window, the edges across it and their ends, as the same objects', () => {
    const flow = column(1000);
    const s = spatial(flow);
    const picked = inWindow(s, { x: -50, y: 10_000, width: 400, height: 1_000 });
    const ids = picked.nodes.map((n) => n.id);
    // n99 ends at 9,960, outside; n100..n109 inside; n99 and n110 as ends of edges crossing in.
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => `n${99 + i}`));
    expect(picked.edges.map((e) => e.id)).toEqual(Array.from({ length: 11 }, (_, i) => `e${100 + i}`));
    expect(picked.nodes[1]).toBe(flow.nodes[100]);
    // An edge whose ends both lie outside but whose route crosses the window is kept, with its ends.
    // A new flow: an index is kept per flow, which never changes once built.
    const longer: Flow = { nodes: flow.nodes, edges: [...flow.edges] };
    longer.edges.push({
      id: 'long',
      source: 'n0',
      target: 'n999',
      data: {
        appear: 0,
        kind: 'next',
        route: [
          { x: -30, y: 0 },
          { x: -30, y: 99_900 },
        ],
      },
    });
    const again = inWindow(spatial(longer), { x: -35, y: 50_000, width: 10, height: 10 });
    expect(again.edges.map((e) => e.id)).toEqual(['long']);
    expect(again.nodes.map((n) => n.id)).toEqual(['n0', 'n999']);
  });

  it('picks what a pass over the whole flow picks, in any window, over a run of several lanes and long edges', () => {
    const rand = seededRandom(7);
    const nodes: Flow['nodes'] = [];
    const edges: Flow['edges'] = [];
    for (let i = 0; i < 3000; i++) {
      const lane = Math.floor(rand() * 3);
      nodes.push({
        id: `n${i}`,
        position: { x: lane * 900 + Math.floor(rand() * 3) * 264, y: i * 40 + Math.floor(rand() * 400) },
        width: 240,
        height: 64,
        data: { appear: 0 },
      });
      if (i > 0) {
        const from = rand() < 0.05 ? Math.floor(rand() * i) : i - 1;
        const route =
          rand() < 0.3
            ? [
                { x: -40, y: nodes[from]!.position.y },
                { x: -40, y: nodes[i]!.position.y },
              ]
            : undefined;
        edges.push({
          id: `e${i}`,
          source: `n${from}`,
          target: `n${i}`,
          data: { appear: 0, kind: 'next', ...(route ? { route } : {}) },
        });
      }
    }
    edges.push({ id: 'dangling', source: 'n1', target: 'gone', data: { appear: 0, kind: 'next' } });
    const flow = { nodes, edges };
    const s = spatial(flow);
    for (let k = 0; k < 200; k++) {
      const w = { x: rand() * 3000 - 500, y: rand() * 130_000 - 5_000, width: rand() * 6000, height: rand() * 20_000 };
      const picked = inWindow(s, w);
      const want = wholePass(flow, w);
      expect(picked.nodes.map((n) => n.id)).toEqual(want.nodes);
      expect(picked.edges.map((e) => e.id)).toEqual(want.edges);
    }
  });
});

/** The window's nodes and edges by definition: a node or edge box overlapping it, and the ends of those edges. */
function wholePass(flow: Flow, w: { x: number; y: number; width: number; height: number }) {
  const box = (n: Flow['nodes'][number]) => ({
    x0: n.position.x,
    y0: n.position.y,
    x1: n.position.x + n.width!,
    y1: n.position.y + n.height!,
  });
  const hit = (b: { x0: number; y0: number; x1: number; y1: number }) =>
    b.x0 < w.x + w.width && b.x1 > w.x && b.y0 < w.y + w.height && b.y1 > w.y;
  const byId = new Map(flow.nodes.map((n) => [n.id, n]));
  const keep = new Set(flow.nodes.filter((n) => hit(box(n))).map((n) => n.id));
  const edges: string[] = [];
  for (const e of flow.edges) {
    const a = byId.get(e.source);
    const b = byId.get(e.target);
    if (!a || !b) continue;
    const pts = [box(a), box(b), ...(e.data?.route ?? []).map((p) => ({ x0: p.x, y0: p.y, x1: p.x, y1: p.y }))];
    const all = {
      x0: Math.min(...pts.map((p) => p.x0)),
      y0: Math.min(...pts.map((p) => p.y0)),
      x1: Math.max(...pts.map((p) => p.x1)),
      y1: Math.max(...pts.map((p) => p.y1)),
    };
    if (!hit(all)) continue;
    edges.push(e.id);
    keep.add(a.id);
    keep.add(b.id);
  }
  return { nodes: flow.nodes.filter((n) => keep.has(n.id)).map((n) => n.id), edges };
}
