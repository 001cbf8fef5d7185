import { describe, expect, it } from 'vitest';
import { FAR_BELOW } from './graph-store.js';
import { CARDS_READ_FROM, fitViewport, READABLE_ZOOM } from './fit-view.js';

const pane = { width: 1200, height: 800 };
const o = { padding: 0.12, maxZoom: 1.1, top: 72 };

describe('fitViewport', () => {
  it('fits a run whose nodes read whole, centred', () => {
    const fit = fitViewport({ width: 500, height: 400 }, pane, o);
    expect(fit.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    expect(fit.zoom).toBeLessThanOrEqual(1.1);
    // Centred: as much room left of the run as right of it.
    const left = fit.x - 24 * fit.zoom;
    expect(left).toBeCloseTo(pane.width - left - (500 + 48) * fit.zoom, 5);
  });

  it('draws a run too large for readable nodes as cards, never in between where nothing reads', () => {
    const fit = fitViewport({ width: 900, height: 1100 }, pane, o);
    expect(fit.zoom).toBeLessThan(FAR_BELOW);
    expect(fit.zoom).toBeGreaterThanOrEqual(CARDS_READ_FROM);
  });

  it('fits a very tall run at the least zoom its cards read at, from its start', () => {
    const fit = fitViewport({ width: 260, height: 31_000 }, pane, o);
    expect(fit.zoom).toBe(CARDS_READ_FROM);
    // The top of the run (frame titles included) just under the canvas tools.
    expect(fit.y - 64 * fit.zoom).toBeCloseTo(o.top, 5);
  });
});
