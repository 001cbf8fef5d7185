// Positions for a run graph, computed from the model's own shape instead of a general
// graph engine: one band of columns per agent lane (in order of first appearance), rows
// in causal order, the parallel calls of one response as one fan-out band inside that
// response's frame (wrapping within it), their outputs as a band below, and the join to
// the next step below that. One pass over nodes in creation order, O(nodes + edges).
//
// Packing: a lane is as wide as its widest row. A lane's x is fixed when it first appears,
// right of the lanes before it, and the lane before it is sealed at the columns it used so
// far; only the newest lane can widen (up to `maxColumns`). A sealed lane's later fans wrap
// within its columns.
//
// Invariants:
// - no overlap: within a lane column, each placed node takes a row below every row
//   already used in that column, and lanes never share an x range;
// - frames never overlap: a response's nodes in a lane all lie at or below the lane's
//   lowest row when that response reached the lane, and a response's frame is drawn per
//   lane (`frames`), so frames of one lane are row-disjoint and lanes are x-disjoint;
// - stable under appends: a node's cell depends only on nodes and edges created before
//   it, and the graph of a run prefix is a prefix of the run's graph (graph.ts), so
//   laying out more of a run never moves what was already placed. (A fan of one tool that
//   grows past FAN_COLLAPSE_ABOVE while live is the one exception: it folds into a group.)
// A failed response's frame gets one more row in its lane, below its items, for the reason
// it failed: read where it happened, never over a node. Where its items in that lane are all
// folded into a card, the card says it and no row is kept.
//
// Folding (a fan group, a response, a lane, a compaction window) gives the folded items one
// shared cell; the cells around are laid out as if the folded items were one node. A folded
// compaction window hides the frames of the responses wholly inside it: its card stands for them.
import type { FanGroup, GraphGroup, GraphNode, RunGraph } from '../graph/types.js';
import { runSteps, type Steps } from '../../steps.js';

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
  /** Columns a fan takes at most before it wraps onto the next row of its frame. */
  maxColumns?: number;
  laneGap?: number;
  groupPadding?: number;
  /** Fan groups (`FanGroup.id`) drawn the other way from their `folded`: unfolded, or folded. */
  toggledFans?: ReadonlySet<string>;
  /** Responses (by position) and lanes folded to one card per lane: their items share one cell. */
  foldedResponses?: ReadonlySet<number>;
  foldedLanes?: ReadonlySet<string>;
  /** Compaction windows (`CompactionGroup.id`) folded to one card. */
  foldedCompactions?: ReadonlySet<string>;
}

/** A response's part in one lane. */
export interface Frame extends Box {
  lane: string;
}

export interface Cell {
  lane: number;
  column: number;
  row: number;
}

export interface RunLayout {
  /** Every item node; the members of a collapsed fan group all have the group node's box. */
  nodes: Record<string, Box>;
  cells: Record<string, Cell>;
  /** Bounding box of each group's members. */
  groups: Record<string, Box>;
  /** Per response group: one frame per lane its items lie in, the first item's lane first. */
  frames: Record<string, Frame[]>;
  /** Per failed response group: the row its reason is drawn in, inside its frame. */
  failures: Record<string, Frame>;
  /** Per collapsed fan group: the box of its calls' node and of its outputs' node. */
  fans: Record<string, { calls: Box; outputs: Box | null }>;
  lanes: Array<{ lane: string; x: number; width: number }>;
  width: number;
  height: number;
}

const DEFAULTS: Required<Omit<LayoutOptions, 'toggledFans' | 'foldedResponses' | 'foldedLanes' | 'foldedCompactions'>> =
  { nodeWidth: 240, nodeHeight: 64, gapX: 24, gapY: 36, maxColumns: 6, laneGap: 96, groupPadding: 12 };

interface LaneState {
  index: number;
  x: number;
  /** Columns the lane may use: `maxColumns` while it is the newest lane, then what it used. */
  cap: number;
  used: number;
  lastRow: number[];
  /** The first free row below everything in the lane. */
  bottom: number;
  /** The response whose frame is open in this lane, and that frame's first row. */
  response: number;
  top: number;
  /** Whether that response has an item of its own in this lane, not folded into a card. */
  shown: boolean;
}

/** A fan-out band: the calls of one fan placed by one response. */
interface Band {
  base: number;
  cols: number;
  slots: number;
}

interface Slot {
  band: string;
  slot: number;
  cols: number;
  column: number;
}

export function layoutRun(graph: RunGraph, options: LayoutOptions = {}): RunLayout {
  return runSteps(layoutRunSteps(graph, options));
}

/** Nodes (or groups) laid out between yields: 21,000 nodes in one go held a page for 200-300 ms. */
export const LAYOUT_NODES_PER_STEP = 1_000;

/** layoutRun, yielding every LAYOUT_NODES_PER_STEP nodes and groups. */
export function* layoutRunSteps(graph: RunGraph, options: LayoutOptions = {}): Steps<RunLayout> {
  const o = { ...DEFAULTS, ...options };
  const maxColumns = Math.max(1, Math.floor(o.maxColumns));
  const stepX = o.nodeWidth + o.gapX;
  const lanes = new Map<string, LaneState>();
  let newest: LaneState | null = null;
  const laneOf = (name: string): LaneState => {
    let s = lanes.get(name);
    if (s !== undefined) return s;
    let x = 0;
    if (newest !== null) {
      newest.cap = Math.max(1, newest.used);
      x = newest.x + newest.cap * stepX - o.gapX + o.laneGap;
    }
    s = { index: lanes.size, x, cap: maxColumns, used: 0, lastRow: [], bottom: 0, response: -1, top: 0, shown: false };
    lanes.set(name, s);
    newest = s;
    return s;
  };

  const preds = new Map<string, string[]>();
  for (const e of graph.edges) {
    const list = preds.get(e.to);
    if (list === undefined) preds.set(e.to, [e.from]);
    else list.push(e.from);
  }
  const collapsed = collapsedFans(graph.groups, options.toggledFans);
  const windowOf = foldedWindows(graph.groups, options.foldedCompactions);

  const cells: Record<string, Cell> = {};
  const boxes: Record<string, Box> = {};
  const bands = new Map<string, Band>();
  const outBands = new Map<string, number>();
  const slots = new Map<string, Slot>();
  /** Collapsed fan group id (and `out:` + id) → the cell its members share. */
  const shared = new Map<string, Cell>();
  let maxRow = -1;
  const failed = new Map<number, string>();
  for (const g of graph.groups) if (g.kind === 'response' && g.failure !== null) failed.set(g.response, g.id);
  const failures: Record<string, Frame> = {};
  /**
   * The reason's row, in the lane where the failed response's items end first; none where its
   * items there are all folded into a card (a folded response, lane or compaction window), which says it instead.
   */
  const reserve = (name: string, lane: LaneState) => {
    const id = failed.get(lane.response);
    if (id === undefined || failures[id] !== undefined || !lane.shown) return;
    const row = lane.bottom;
    failures[id] = {
      x: lane.x,
      y: row * (o.nodeHeight + o.gapY),
      width: o.nodeWidth,
      height: o.nodeHeight,
      lane: name,
    };
    lane.lastRow[0] = row;
    lane.used = Math.max(lane.used, 1);
    lane.bottom = row + 1;
    maxRow = Math.max(maxRow, row);
  };
  for (let at = 0; at < graph.nodes.length; at++) {
    if (at % LAYOUT_NODES_PER_STEP === LAYOUT_NODES_PER_STEP - 1) yield;
    const node = graph.nodes[at]!;
    const lane = laneOf(node.lane);
    if (lane.response !== node.response) {
      reserve(node.lane, lane);
      lane.response = node.response;
      lane.top = lane.bottom;
      lane.shown = false;
    }
    let predRow = -1;
    for (const p of preds.get(node.id) ?? []) {
      const cell = cells[p];
      if (cell !== undefined && cell.row > predRow) predRow = cell.row;
    }
    const group = collapsed.get(node.id);
    const folded = options.foldedResponses?.has(node.response) || options.foldedLanes?.has(node.lane);
    const window = windowOf.get(node.id);
    if (!folded && window === undefined) lane.shown = true;
    const sharedKey =
      window !== undefined
        ? `${window}@${node.lane}`
        : folded
          ? `response:${node.response}@${node.lane}`
          : group === undefined
            ? null
            : `${node.fan !== null ? '' : 'out:'}${group.id}@${node.response}`;
    let cell = sharedKey === null ? undefined : shared.get(sharedKey);
    if (cell !== undefined && node.fan !== null && !folded && window === undefined) {
      // The group's outputs find their band through any member.
      const first = slots.get(group!.members[0]!);
      if (first !== undefined) slots.set(node.id, first);
    }
    if (cell === undefined) {
      const { column, row } = place(node, lane, Math.max(predRow + 1, lane.top), cells, slots, bands, outBands);
      cell = { lane: lane.index, column, row };
      if (sharedKey !== null) shared.set(sharedKey, cell);
      lane.lastRow[column] = Math.max(lane.lastRow[column] ?? -1, row);
      lane.used = Math.max(lane.used, column + 1);
      lane.bottom = Math.max(lane.bottom, row + 1);
      maxRow = Math.max(maxRow, row);
    }
    cells[node.id] = cell;
    boxes[node.id] = {
      x: lane.x + cell.column * stepX,
      y: cell.row * (o.nodeHeight + o.gapY),
      width: o.nodeWidth,
      height: o.nodeHeight,
    };
  }
  for (const [name, lane] of lanes) reserve(name, lane);
  const laneList = [...lanes.entries()].map(([lane, s]) => ({
    lane,
    x: s.x,
    width: Math.max(1, s.used) * stepX - o.gapX,
  }));
  const fans: RunLayout['fans'] = {};
  for (const g of new Set(collapsed.values())) {
    const calls = boxes[g.members[0]!];
    const firstOutput = g.outputs.find((id) => boxes[id] !== undefined);
    if (calls !== undefined) fans[g.id] = { calls, outputs: firstOutput === undefined ? null : boxes[firstOutput]! };
  }
  yield;
  const groups = yield* groupBoxes(graph.groups, boxes, o.groupPadding);
  yield;
  const frames = yield* responseFrames(graph.groups, graph.nodes, boxes, o.groupPadding, windowOf, failures);
  return {
    nodes: boxes,
    cells,
    groups,
    frames,
    failures,
    fans,
    lanes: laneList,
    width: laneList.reduce((w, l) => Math.max(w, l.x + l.width), 0),
    height: maxRow < 0 ? 0 : (maxRow + 1) * (o.nodeHeight + o.gapY) - o.gapY,
  };
}

/**
 * A fan member takes the next slot of its response's band (row by row, wrapping at the
 * lane's columns); an output takes its call's column in the outputs band below; anything
 * else starts a new row in column 0 below the whole lane. `floor` is the first row the
 * node may take: below its predecessors and inside its response's frame.
 */
function place(
  node: GraphNode,
  lane: LaneState,
  floor: number,
  cells: Record<string, Cell>,
  slots: Map<string, Slot>,
  bands: Map<string, Band>,
  outBands: Map<string, number>,
): { column: number; row: number } {
  const free = (column: number) => (lane.lastRow[column] ?? -1) + 1;
  if (node.fan !== null) {
    const key = `${node.fan.id}@${node.response}`;
    const taken = takeSlot(bands, key, lane, floor);
    slots.set(node.id, { band: key, ...taken });
    return taken;
  }
  const call = node.callNode === null ? undefined : cells[node.callNode];
  const callSlot = node.callNode === null ? undefined : slots.get(node.callNode);
  if (call !== undefined && call.lane === lane.index) {
    if (callSlot === undefined) {
      // The call is folded into a card: its outputs still form a band below it.
      return takeSlot(bands, `folded:${call.lane}:${call.row}:${call.column}>${node.response}`, lane, floor);
    }
    const key = `${callSlot.band}>${node.response}`;
    let base = outBands.get(key);
    if (base === undefined) {
      base = Math.max(floor, lane.bottom);
      outBands.set(key, base);
    }
    const column = callSlot.column;
    return { column, row: Math.max(base + Math.floor(callSlot.slot / callSlot.cols), floor, free(column)) };
  }
  return { column: 0, row: Math.max(floor, lane.bottom) };
}

/** The next slot of a band (started below the lane on first use), row by row at the lane's width. */
function takeSlot(
  bands: Map<string, Band>,
  key: string,
  lane: LaneState,
  floor: number,
): { column: number; row: number; slot: number; cols: number } {
  let band = bands.get(key);
  if (band === undefined) {
    band = { base: Math.max(floor, lane.bottom), cols: lane.cap, slots: 0 };
    bands.set(key, band);
  }
  // A lane sealed while its band was open wraps the rest of the band at its new width.
  const cols = Math.min(band.cols, lane.cap);
  const slot = band.slots++;
  const column = slot % cols;
  return {
    column,
    row: Math.max(band.base + Math.floor(slot / cols), floor, (lane.lastRow[column] ?? -1) + 1),
    slot,
    cols,
  };
}

/** Calls and outputs of every fan group drawn folded → their group. */
function collapsedFans(groups: GraphGroup[], toggled: ReadonlySet<string> | undefined): Map<string, FanGroup> {
  const out = new Map<string, FanGroup>();
  for (const g of groups) {
    if (g.kind !== 'fan' || g.folded === (toggled?.has(g.id) ?? false)) continue;
    for (const id of g.members) out.set(id, g);
    for (const id of g.outputs) out.set(id, g);
  }
  return out;
}

/** Members of every folded compaction window → the window's group id. */
function foldedWindows(groups: GraphGroup[], folded: ReadonlySet<string> | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (folded === undefined || folded.size === 0) return out;
  for (const g of groups)
    if (g.kind === 'compaction' && folded.has(g.id)) for (const id of g.members) out.set(id, g.id);
  return out;
}

function bounds(ids: Iterable<string>, boxes: Record<string, Box>, pad: number, extra?: Box): Box | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const all = extra === undefined ? ids : [...ids, ''];
  for (const id of all) {
    const b = id === '' ? extra : boxes[id];
    if (b === undefined) continue;
    x0 = Math.min(x0, b.x);
    y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.width);
    y1 = Math.max(y1, b.y + b.height);
  }
  return x0 === Infinity ? null : { x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad };
}

function* groupBoxes(groups: GraphGroup[], boxes: Record<string, Box>, pad: number): Steps<Record<string, Box>> {
  const out: Record<string, Box> = {};
  let members = 0;
  for (const g of groups) {
    members += g.members.length;
    if (members >= LAYOUT_NODES_PER_STEP) {
      members = 0;
      yield;
    }
    const b = bounds(g.members, boxes, pad);
    if (b !== null) out[g.id] = b;
  }
  return out;
}

/** A response's members split by lane, each part boxed on its own; members in a folded compaction window left out. */
function* responseFrames(
  groups: GraphGroup[],
  nodes: GraphNode[],
  boxes: Record<string, Box>,
  pad: number,
  windowOf: ReadonlyMap<string, string>,
  failures: Record<string, Frame>,
): Steps<Record<string, Frame[]>> {
  const laneOf = new Map<string, string>();
  for (const n of nodes) laneOf.set(n.id, n.lane);
  yield;
  const out: Record<string, Frame[]> = {};
  let members = 0;
  for (const g of groups) {
    if (g.kind !== 'response') continue;
    members += g.members.length;
    if (members >= LAYOUT_NODES_PER_STEP) {
      members = 0;
      yield;
    }
    const byLane = new Map<string, string[]>();
    for (const id of g.members) {
      const lane = laneOf.get(id);
      if (lane === undefined || windowOf.has(id)) continue;
      const list = byLane.get(lane);
      if (list === undefined) byLane.set(lane, [id]);
      else list.push(id);
    }
    const frames: Frame[] = [];
    const reason = failures[g.id];
    for (const [lane, ids] of byLane) {
      const b = bounds(ids, boxes, pad, reason?.lane === lane ? reason : undefined);
      if (b !== null) frames.push({ ...b, lane });
    }
    if (frames.length > 0) out[g.id] = frames;
  }
  return out;
}
