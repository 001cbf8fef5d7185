import { describe, expect, it } from 'vitest';
import { routeEdge, type RouteGrid } from './routes.js';

// Rows 100 apart (nodes 60 tall), the free band 80 below a row's top; two lanes of two columns.
const grid: RouteGrid = {
  rowPitch: 100,
  band: 80,
  spread: 3,
  lanes: [
    { x: 0, width: 220 },
    { x: 320, width: 100 },
  ],
  gutter: 15,
};
const cell = (column: number, row: number, lane = 0) => ({
  x: grid.lanes[lane]!.x + column * 120,
  y: row * 100,
  width: 100,
  height: 60,
});

describe('routeEdge', () => {
  it('draws a clear edge straight down, and one to the next row along the band between the rows', () => {
    expect(routeEdge(cell(0, 0), cell(0, 3), grid, true)).toEqual([]);
    expect(routeEdge(cell(0, 0), cell(0, 1), grid, true)).toEqual([]);
    expect(routeEdge(cell(1, 2), cell(0, 3), grid, true)).toEqual([
      { x: 170, y: 280 },
      { x: 50, y: 280 },
    ]);
  });

  it('takes an edge past nodes in its column down the gutter of its lane, on the nearer side', () => {
    expect(routeEdge(cell(0, 0), cell(0, 2), grid, false)).toEqual([
      { x: 50, y: 80 },
      { x: -15, y: 80 },
      { x: -15, y: 180 },
      { x: 50, y: 180 },
    ]);
    expect(routeEdge(cell(1, 0), cell(1, 2), grid, false).map((p) => p.x)).toEqual([170, 235, 235, 170]);
  });

  it("between lanes runs down the target lane's side facing the source, on a line of the band of its own", () => {
    const right = routeEdge(cell(0, 0), cell(0, 3, 1), grid, true);
    expect(right.map((p) => p.x)).toEqual([50, 305, 305, 370]);
    // The nearest lane's line is the lowest going right, the highest going left.
    expect(right[0]!.y).toBe(83);
    const left = routeEdge(cell(0, 1, 1), cell(1, 4), grid, true);
    expect(left.map((p) => p.x)).toEqual([370, 235, 235, 170]);
    expect(left[0]!.y).toBe(177);
  });

  it('leaves a folded card (taller than a node) along the same bands', () => {
    const card = { x: -10, y: 68, width: 120, height: 102 };
    expect(routeEdge(card, cell(1, 2), grid, true)).toEqual([
      { x: 50, y: 180 },
      { x: 170, y: 180 },
    ]);
  });
});
