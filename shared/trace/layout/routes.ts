// Where an edge runs between two laid-out nodes, so that it never passes behind a node: not
// a general router, but the gaps the layout leaves by construction. Rows are one pitch apart
// in every lane, so the band between two rows is free across the whole canvas; lanes are
// apart, so the strip beside a lane (its gutter) is free from top to bottom. An edge leaves
// its source's bottom, runs along the band below that row, down the gutter of a lane, along
// the band above its target's row and into the target's top: at most four bends, found in
// O(log lanes) from the two boxes alone, so routing a run is O(edges) and a route changes
// only when its ends move (which, ADR 5, a growing run never does) or the newest lane widens.
import type { Box } from './layout.js';

export interface Point {
  x: number;
  y: number;
}

export interface RouteGrid {
  /** From one row's top to the next's, canvas px. */
  rowPitch: number;
  /**
   * From a row's top to the middle of the band below it: under every frame that ends at that
   * row, above the title of every frame that starts at the next.
   */
  band: number;
  /** How far the band's lines of different lanes stand apart, so crossing edges stay told apart. */
  spread: number;
  /** The lanes' x ranges, left to right (RunLayout.lanes). */
  lanes: ReadonlyArray<{ x: number; width: number }>;
  /** How far beside a lane its gutter runs: outside its frames, inside the gap to the next lane. */
  gutter: number;
}

/**
 * The bends of an edge from `from`'s bottom centre to `to`'s top centre; none for a straight
 * line. `clear`: nothing lies between the two in their column, so a straight line down is fine.
 */
export function routeEdge(from: Box, to: Box, grid: RouteGrid, clear: boolean): Point[] {
  const sx = from.x + from.width / 2;
  const sy = from.y + from.height;
  const tx = to.x + to.width / 2;
  const ty = to.y;
  const straight = Math.abs(sx - tx) < 0.5;
  if (straight && clear && ty > sy) return [];
  const laneFrom = laneAt(grid.lanes, sx);
  const laneTo = laneAt(grid.lanes, tx);
  // Edges between lanes (spawns, subagents' answers) keep to a line of the band per lane,
  // the one to or from the nearest lane lowest going right (highest going left), so that an
  // edge's drop into its lane crosses none of those running on past it.
  const cycle = laneFrom === laneTo ? 0 : 1 - ((Math.max(laneFrom, laneTo) - 1) % 3);
  const lift = (laneTo > laneFrom ? cycle : -cycle) * grid.spread;
  const below = Math.floor(sy / grid.rowPitch);
  const above = Math.ceil(ty / grid.rowPitch) - 1;
  const y1 = below * grid.rowPitch + grid.band + lift;
  if (above === below)
    return straight
      ? []
      : [
          { x: sx, y: y1 },
          { x: tx, y: y1 },
        ];
  const y2 = above * grid.rowPitch + grid.band + lift;
  const x = gutterX(grid, laneFrom, laneTo, sx, tx);
  return [
    { x: sx, y: y1 },
    { x, y: y1 },
    { x, y: y2 },
    { x: tx, y: y2 },
  ];
}

/**
 * The gutter an edge runs down: within one lane, the side that takes it less far across;
 * between lanes, the target lane's side that faces the source.
 */
function gutterX(grid: RouteGrid, laneFrom: number, laneTo: number, sx: number, tx: number): number {
  const lane = grid.lanes[laneTo] ?? { x: 0, width: 0 };
  const left = lane.x - grid.gutter;
  const right = lane.x + lane.width + grid.gutter;
  if (laneFrom < laneTo) return left;
  if (laneFrom > laneTo) return right;
  return Math.abs(sx - left) + Math.abs(tx - left) <= Math.abs(sx - right) + Math.abs(tx - right) ? left : right;
}

/** The index of the lane an x lies in (or the nearest one left of it). */
function laneAt(lanes: RouteGrid['lanes'], x: number): number {
  let lo = 0;
  let hi = lanes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lanes[mid]!.x <= x) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}
