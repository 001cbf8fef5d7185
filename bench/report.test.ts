import { describe, expect, it } from 'vitest';
import { overheadRatio } from './report.js';

describe('bench report', () => {
  it("prints Loupe's overhead as a multiple of bare's when bare added time", () => {
    expect(overheadRatio(1.8, 2.96)).toBe('0.61x');
    expect(overheadRatio(-0.5, 2)).toBe('-0.25x');
  });

  it("prints both overheads instead of a ratio when bare's was not above direct's", () => {
    expect(overheadRatio(-8.88, -5.48)).toBe('n/a (bare -5.48 ms, loupe -8.88 ms over direct)');
    expect(overheadRatio(0.4, 0)).toBe('n/a (bare 0.00 ms, loupe 0.40 ms over direct)');
  });
});
