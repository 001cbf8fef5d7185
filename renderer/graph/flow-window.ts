// What React Flow is handed of a run: the nodes and edges in a window around the viewport,
// not the whole run. React Flow takes every node it is given into its store (lookups,
// absolute positions, connection maps) in one task, however many of them are on screen; on
// a 600-turn run that was most of a 400 ms task. The window is a few screenfuls around the
// viewport, snapped so that panning within it and zooming by less than a step hand React
// Flow the same arrays: it moves only when the viewport nears its edge.
import type { Flow } from './to-flow.js';
import { BAND, type Spatial } from './flow-buckets.js';
import type { Rect } from './minimap-window.js';

export { spatial } from './flow-buckets.js';

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

const overlaps = (a: Rect, x: number, y: number, width: number, height: number) =>
  x < a.x + a.width && x + width > a.x && y < a.y + a.height && y + height > a.y;

/**
 * The nodes and edges of `flow` that a window shows: every node overlapping it, every edge
 * whose box (its ends and bends) overlaps it, and the ends of those edges (React Flow draws
 * an edge only between nodes it holds). Node and edge objects are the flow's own, in its
 * order, so React Flow keeps what it held of them. It reads the bands the window covers
 * (flow-buckets.ts) and one byte per node and edge of the run.
 */
export function inWindow(s: Spatial, w: Rect): Flow {
  const { nodes, edges } = s.flow;
  const keep = new Uint8Array(nodes.length);
  const from = Math.max(0, Math.floor(w.y / BAND) - s.first);
  const to = Math.floor((w.y + w.height) / BAND) - s.first;
  for (let b = from; b <= to && b < s.nodeBands.length; b++)
    for (const i of s.nodeBands[b] ?? []) {
      const n = nodes[i]!;
      if (overlaps(w, n.position.x, n.position.y, n.width ?? 0, n.height ?? 0)) keep[i] = 1;
    }
  // An edge is filed in every band its box crosses: taken once, in the flow's order.
  const takeEdge = new Uint8Array(edges.length);
  const consider = (i: number) => {
    const box = s.edgeBox;
    if (takeEdge[i] || s.edgeEnds[2 * i]! < 0 || s.edgeEnds[2 * i + 1]! < 0) return;
    const x0 = box[4 * i]!;
    const y0 = box[4 * i + 1]!;
    if (overlaps(w, x0, y0, box[4 * i + 2]! - x0, box[4 * i + 3]! - y0)) takeEdge[i] = 1;
  };
  for (let b = from; b <= to && b < s.edgeBands.length; b++) for (const i of s.edgeBands[b] ?? []) consider(i);
  for (const i of s.wide) consider(i);
  const keptEdges: Flow['edges'] = [];
  for (let i = 0; i < edges.length; i++) {
    if (!takeEdge[i]) continue;
    keep[s.edgeEnds[2 * i]!] = 1;
    keep[s.edgeEnds[2 * i + 1]!] = 1;
    keptEdges.push(edges[i]!);
  }
  const keptNodes: Flow['nodes'] = [];
  for (let i = 0; i < nodes.length; i++) if (keep[i]) keptNodes.push(nodes[i]!);
  return { nodes: keptNodes, edges: keptEdges };
}
