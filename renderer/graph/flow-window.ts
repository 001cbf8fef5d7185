// What React Flow is handed of a run: the nodes and edges in a window around the viewport,
// not the whole run. React Flow takes every node it is given into its store (lookups,
// absolute positions, connection maps) in one task, however many of them are on screen; on
// a 600-turn run that was most of a 400 ms task. The window is a few screenfuls around the
// viewport, snapped so that panning within it and zooming by less than a step hand React
// Flow the same arrays: it moves only when the viewport nears its edge.
import type { Flow } from './to-flow.js';
import type { Rect } from './minimap-window.js';

/** React Flow's transform: [x, y, zoom]. */
export type Transform = readonly [number, number, number];

/** Zoom steps the window is sized at: the window of a zoom is that of the step at or below it (so larger). */
const ZOOM_STEP = 1.25;
/** How many of its own sizes the window reaches beyond the viewport's centre each way. */
const REACH = 1.5;

/**
 * The canvas rect React Flow is given nodes in: it always contains what the viewport shows.
 * Its key changes only when the viewport's centre crosses half a screen or its zoom a step.
 */
export function flowWindow(transform: Transform, pane: { width: number; height: number }): Rect & { key: string } {
  const [tx, ty, zoom] = transform;
  const step = Math.floor(Math.log(zoom) / Math.log(ZOOM_STEP));
  const at = ZOOM_STEP ** step;
  // The viewport's size at the step's zoom: at least what is on screen.
  const width = pane.width / at;
  const height = pane.height / at;
  // Its centre snapped to half its size: within a quarter of it of the real centre.
  const cx = Math.round((-tx + pane.width / 2) / zoom / (width / 2)) * (width / 2);
  const cy = Math.round((-ty + pane.height / 2) / zoom / (height / 2)) * (height / 2);
  return {
    x: cx - REACH * width,
    y: cy - REACH * height,
    width: 2 * REACH * width,
    height: 2 * REACH * height,
    key: `${step}:${cx}:${cy}`,
  };
}

interface Spatial {
  flow: Flow;
  /** Index in flow.nodes by id. */
  index: Map<string, number>;
}

/** Builds once per flow what picking a window reads. */
export function spatial(flow: Flow): Spatial {
  const index = new Map<string, number>();
  flow.nodes.forEach((n, i) => index.set(n.id, i));
  return { flow, index };
}

const overlaps = (a: Rect, x: number, y: number, width: number, height: number) =>
  x < a.x + a.width && x + width > a.x && y < a.y + a.height && y + height > a.y;

/**
 * The nodes and edges of `flow` that a window shows: every node overlapping it, every edge
 * whose box (its ends and bends) overlaps it, and the ends of those edges (React Flow draws
 * an edge only between nodes it holds). Node and edge objects are the flow's own, in its
 * order, so React Flow keeps what it held of them. Linear in the run, with no allocation
 * per node: well under a millisecond for thousands of nodes.
 */
export function inWindow(s: Spatial, w: Rect): Flow {
  const { nodes, edges } = s.flow;
  const keep = new Uint8Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (overlaps(w, n.position.x, n.position.y, n.width ?? 0, n.height ?? 0)) keep[i] = 1;
  }
  const keptEdges: Flow['edges'] = [];
  for (const e of edges) {
    const a = s.index.get(e.source);
    const b = s.index.get(e.target);
    if (a === undefined || b === undefined) continue;
    if (!(keep[a] && keep[b]) && !edgeOverlaps(w, nodes[a]!, nodes[b]!, e.data?.route)) continue;
    keep[a] = 1;
    keep[b] = 1;
    keptEdges.push(e);
  }
  const keptNodes: Flow['nodes'] = [];
  for (let i = 0; i < nodes.length; i++) if (keep[i]) keptNodes.push(nodes[i]!);
  return { nodes: keptNodes, edges: keptEdges };
}

function edgeOverlaps(
  w: Rect,
  a: Flow['nodes'][number],
  b: Flow['nodes'][number],
  route: ReadonlyArray<{ x: number; y: number }> | undefined,
): boolean {
  let x0 = Math.min(a.position.x, b.position.x);
  let y0 = Math.min(a.position.y, b.position.y);
  let x1 = Math.max(a.position.x + (a.width ?? 0), b.position.x + (b.width ?? 0));
  let y1 = Math.max(a.position.y + (a.height ?? 0), b.position.y + (b.height ?? 0));
  for (const p of route ?? []) {
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  return overlaps(w, x0, y0, x1 - x0, y1 - y0);
}
