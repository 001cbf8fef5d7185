import { describe, expect, it } from 'vitest';
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
    flow.edges.push({
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
    const again = inWindow(spatial(flow), { x: -35, y: 50_000, width: 10, height: 10 });
    expect(again.edges.map((e) => e.id)).toEqual(['long']);
    expect(again.nodes.map((n) => n.id)).toEqual(['n0', 'n999']);
  });
});
