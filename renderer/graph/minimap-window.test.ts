import { describe, expect, it } from 'vitest';
import { mapWindow, TALL, WHOLE } from './minimap-window.js';

const screen = (y: number, zoom = 0.9) => ({ x: 0, y, width: 1000 / zoom, height: 700 / zoom });

describe('mapWindow', () => {
  it('shows a run that fits whole, centred', () => {
    const m = mapWindow({ x: 0, y: 0, width: 1200, height: 800 }, screen(0));
    expect(m.windowed).toBe(false);
    expect([m.width, m.height]).toEqual([WHOLE.width, WHOLE.height]);
    expect(m.view.x).toBe(0);
    expect(m.view.y).toBeLessThan(0);
    expect(m.view.height * m.scale).toBeCloseTo(WHOLE.height);
  });

  it('shows a run that would be a hairline as an upright window around the view, a few screenfuls tall', () => {
    const run = { x: 0, y: 0, width: 284, height: 94_000 };
    const m = mapWindow(run, screen(40_000));
    expect(m.windowed).toBe(true);
    expect(m.height).toBe(TALL.height);
    expect(m.height).toBeGreaterThan(m.width);
    // Its nodes (236 canvas px) read as blocks, and it shows more than the screen.
    expect(236 * m.scale).toBeGreaterThanOrEqual(20);
    expect(m.view.height).toBeGreaterThan(2 * screen(0).height);
    // Centred on the view, kept within the run at its ends.
    expect(m.view.y + m.view.height / 2).toBeCloseTo(40_000 + screen(0).height / 2);
    expect(mapWindow(run, screen(0)).view.y).toBe(0);
    expect(mapWindow(run, screen(93_800)).view.y + m.view.height).toBeCloseTo(94_000);
  });

  it('zoomed far out, spans fewer screenfuls so that nodes stay marks, never less than the screen', () => {
    const m = mapWindow({ x: 0, y: 0, width: 284, height: 94_000 }, screen(40_000, 0.27));
    expect(236 * m.scale).toBeGreaterThanOrEqual(12);
    expect(m.view.height).toBeGreaterThanOrEqual(1.25 * screen(0, 0.27).height - 1);
  });
});
