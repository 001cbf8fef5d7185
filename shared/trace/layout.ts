// Positions for a run graph, computed from the model's own shape instead of a general
// graph engine: one band of columns per agent lane (in order of first appearance), rows
// in causal order, parallel calls side by side in the lane's columns, each output under
// its call. One pass over nodes in creation order, O(nodes + edges).
//
// Invariants:
// - no overlap: within a lane column, each placed node takes a row below every row
//   already used in that column (sequential nodes go below the whole lane);
// - stable under appends: a node's cell depends only on nodes and edges created before
//   it, and the graph of a run prefix is a prefix of the run's graph (graph.ts), so
//   laying out more of a run never moves what was already placed.
import type { GraphGroup, GraphNode, RunGraph } from './graph-types.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutOptions {
  nodeWidth?: number;
  nodeHeight?: number;
  gapX?: number;
  gapY?: number;
  /** Parallel calls per row within a lane; more wrap onto the next row. */
  columnsPerLane?: number;
  laneGap?: number;
  groupPadding?: number;
}

export interface Cell {
  lane: number;
  column: number;
  row: number;
}

export interface RunLayout {
  nodes: Record<string, Box>;
  cells: Record<string, Cell>;
  groups: Record<string, Box>;
  lanes: Array<{ lane: string; x: number; width: number }>;
  width: number;
  height: number;
}

const DEFAULTS: Required<LayoutOptions> = { nodeWidth: 240, nodeHeight: 64, gapX: 24, gapY: 36, columnsPerLane: 4, laneGap: 96, groupPadding: 12 };

interface LaneState {
  index: number;
  lastRow: number[];
  maxRow: number;
}

export function layoutRun(graph: RunGraph, options: LayoutOptions = {}): RunLayout {
  const o = { ...DEFAULTS, ...options };
  const columns = Math.max(1, Math.floor(o.columnsPerLane));
  const laneWidth = columns * (o.nodeWidth + o.gapX) - o.gapX;
  const lanes = new Map<string, LaneState>();
  graph.lanes.forEach((lane, index) => lanes.set(lane, { index, lastRow: new Array<number>(columns).fill(-1), maxRow: -1 }));

  const preds = new Map<string, string[]>();
  for (const e of graph.edges) {
    const list = preds.get(e.to);
    if (list === undefined) preds.set(e.to, [e.from]);
    else list.push(e.from);
  }

  const cells: Record<string, Cell> = {};
  const boxes: Record<string, Box> = {};
  const fanBase = new Map<string, number>();
  let maxRow = -1;
  for (const node of graph.nodes) {
    const lane = laneState(lanes, node.lane, columns);
    let predRow = -1;
    for (const p of preds.get(node.id) ?? []) {
      const cell = cells[p];
      if (cell !== undefined && cell.row > predRow) predRow = cell.row;
    }
    const { column, row } = place(node, lane, predRow, cells, fanBase, columns);
    lane.lastRow[column] = Math.max(lane.lastRow[column] ?? -1, row);
    lane.maxRow = Math.max(lane.maxRow, row);
    maxRow = Math.max(maxRow, row);
    cells[node.id] = { lane: lane.index, column, row };
    boxes[node.id] = {
      x: lane.index * (laneWidth + o.laneGap) + column * (o.nodeWidth + o.gapX),
      y: row * (o.nodeHeight + o.gapY),
      width: o.nodeWidth,
      height: o.nodeHeight,
    };
  }
  const laneList = [...lanes.entries()].map(([lane, s]) => ({ lane, x: s.index * (laneWidth + o.laneGap), width: laneWidth }));
  return {
    nodes: boxes,
    cells,
    groups: groupBoxes(graph.groups, boxes, o.groupPadding),
    lanes: laneList,
    width: lanes.size === 0 ? 0 : lanes.size * (laneWidth + o.laneGap) - o.laneGap,
    height: maxRow < 0 ? 0 : (maxRow + 1) * (o.nodeHeight + o.gapY) - o.gapY,
  };
}

/**
 * Fan members share a base row and take the lane's columns in turn; an output takes its
 * call's column; anything else starts a new row in column 0 below the whole lane.
 */
function place(node: GraphNode, lane: LaneState, predRow: number, cells: Record<string, Cell>, fanBase: Map<string, number>, columns: number): { column: number; row: number } {
  if (node.fan !== null) {
    let base = fanBase.get(node.fan.id);
    if (base === undefined) {
      base = Math.max(predRow + 1, lane.maxRow + 1);
      fanBase.set(node.fan.id, base);
    }
    const column = node.fan.index % columns;
    const row = Math.max(base + Math.floor(node.fan.index / columns), predRow + 1, (lane.lastRow[column] ?? -1) + 1);
    return { column, row };
  }
  const call = node.callNode === null ? undefined : cells[node.callNode];
  if (call !== undefined && call.lane === lane.index) {
    return { column: call.column, row: Math.max(predRow + 1, (lane.lastRow[call.column] ?? -1) + 1) };
  }
  return { column: 0, row: Math.max(predRow + 1, lane.maxRow + 1) };
}

/** A lane the graph did not list (a hand-built graph) is appended, so layout never fails. */
function laneState(lanes: Map<string, LaneState>, lane: string, columns: number): LaneState {
  let s = lanes.get(lane);
  if (s === undefined) {
    s = { index: lanes.size, lastRow: new Array<number>(columns).fill(-1), maxRow: -1 };
    lanes.set(lane, s);
  }
  return s;
}

function groupBoxes(groups: GraphGroup[], boxes: Record<string, Box>, pad: number): Record<string, Box> {
  const out: Record<string, Box> = {};
  for (const g of groups) {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const id of g.members) {
      const b = boxes[id];
      if (b === undefined) continue;
      x0 = Math.min(x0, b.x);
      y0 = Math.min(y0, b.y);
      x1 = Math.max(x1, b.x + b.width);
      y1 = Math.max(y1, b.y + b.height);
    }
    if (x0 !== Infinity) out[g.id] = { x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad };
  }
  return out;
}
